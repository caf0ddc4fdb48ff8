"""Architects of the West Kingdom: a pure rules engine (kind ``architects``)."""

from games.architects.game import Architects

GAME = Architects()

__all__ = ["GAME", "Architects"]
