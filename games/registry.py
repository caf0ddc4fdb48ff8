"""The game kinds the service offers: one line per game (kind -> "module:attribute")."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from games.protocol import Game

KINDS: dict[str, str] = {
    "architects": "games.architects:GAME",
    "feudum-guilds": "games.feudum_guilds:GAME",
    "kings-guild": "games.kings_guild:GAME",
}


@cache
def get(kind: str) -> Game:
    """The :class:`Game` for ``kind``; KeyError if there is no such kind."""
    module_name, _, attribute = KINDS[kind].partition(":")
    game = getattr(import_module(module_name), attribute)
    if game.kind != kind:
        raise RuntimeError(f"registry line {kind!r} points at a game of kind {game.kind!r}")
    return game


def kinds() -> list[Game]:
    """Every registered game, in registry order."""
    return [get(kind) for kind in KINDS]
