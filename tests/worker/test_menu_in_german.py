"""A turn email's numbered menu says the game's move and step labels in its reader's
language: the menu keeps the game's Texts as they are."""

from __future__ import annotations

import pytest

from games import registry
from games.rng import RecordingRandom
from worker import i18n, menu


@pytest.mark.parametrize("kind", ["kings-guild", "architects", "feudum-guilds"])
def test_the_menu_says_the_games_labels_in_german(kind):
    game = registry.get(kind)
    state = game.setup(["Anna", "Ben", "Cleo"], game.normalize_options({}, 3),
                       RecordingRandom(1))
    seat = sorted(game.to_act(state))[0]
    lines = menu.build(game, state, seat).lines()
    english = [str(line) for line in lines]
    german = [i18n.translate(line, "de") for line in lines]
    assert german != english
    changed = sum(1 for e, d in zip(english, german, strict=True) if e != d)
    assert changed >= len([e for e in english if any(c.isalpha() for c in e)]) // 2, german


def test_the_kings_guild_first_menu_in_german():
    game = registry.get("kings-guild")
    state = game.setup(["Anna", "Ben", "Cleo"], game.normalize_options({}, 3),
                       RecordingRandom(1))
    lines = menu.build(game, state, sorted(game.to_act(state))[0]).lines()
    assert i18n.translate(lines[0], "de").strip() == "1  Schrein platzieren"
