"""Card and tile data files of The King's Guild (JSON, loaded by games.kings_guild.cards)."""
