"""The King's Guild (Mirror Box Games): a pure rules engine for Ravenpost, kind ``kings-guild``."""

from games.kings_guild.game import KingsGuild

GAME = KingsGuild()

__all__ = ["GAME", "KingsGuild"]
