"""The three real games' move builders in Chromium: combinatorial choices built one
part at a time, as the issue asks (Feudum's secret selection of four action cards)."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.browser


def test_feudums_card_selection_is_built_card_by_card_and_named_short(live, page):
    gid = live.rt.games.create("feudum-guilds", [
        {"name": n, "email": f"{n.lower()}@example.com"} for n in ("Ann", "Bob", "Cy")]).game_id
    chooser = random.Random(3)
    for _ in range(100):  # the setup's picks, until the secret selection of cards
        table = live.rt.games.load(gid)
        if any(m["type"] == "select" for m in table.game.legal_moves(table.state, 0)):
            break
        seat = min(table.to_act())
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        live.rt.games.play(gid, seat, move, table.version)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    page.locator(".builder .options button", has_text="Select action cards").click()
    for card in ("Tax", "Migrate", "Guild", "Explore"):
        page.locator(".builder .options button", has_text=f"{card}: ").click()
    assert "cards: Tax, Migrate, Guild, Explore" in page.locator(".builder .path").inner_text()
    assert "Your move: Select" in page.locator(".builder .status").inner_text()
