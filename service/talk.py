"""Table talk: messages posted from the game page and the API (see events.talk)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("talk", __name__)
