"""Printed component data (JSON) for the Feudum guild economy."""
