"""Feudum: the guild economy -- a pure rules engine (kind ``feudum-guilds``)."""

from games.feudum_guilds.game import ALL_MODULES, FeudumGuilds

GAME = FeudumGuilds()

__all__ = ["GAME", "ALL_MODULES", "FeudumGuilds"]
