"""Jinja templates, installed as the package data of ``service.templates``."""
