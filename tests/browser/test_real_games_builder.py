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
    # every move starts "Select action cards": the builder takes that step by itself
    assert "Select action cards (choose 4)" in page.locator(".builder .path").inner_text()
    assert "cards: 0 of 4 chosen" in page.locator(".builder .status").inner_text()
    for card in ("Tax", "Migrate", "Guild", "Explore"):
        page.locator(".builder .options button", has_text=f"{card}: ").click()
    assert "cards: Tax, Migrate, Guild, Explore" in page.locator(".builder .path").inner_text()
    assert "Your move: Select" in page.locator(".builder .status").inner_text()


def test_a_step_every_move_shares_is_taken_at_once_and_back_undoes_the_next(live, page):
    # Architects: when every move is a Worker placement, the builder opens on the places
    gid = live.rt.games.create("architects", [{"name": "Ann", "email": "ann@example.com"}]
                               ).game_id
    chooser = random.Random(2)
    for _ in range(200):
        table = live.rt.games.load(gid)
        moves = table.game.legal_moves(table.state, 0)
        if len(moves) > 2 and all(m["type"] == "place" for m in moves):
            break
        seat = min(table.to_act())
        live.rt.games.play(gid, seat, chooser.choice(table.game.legal_moves(
            table.state, seat)), table.version)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    path = page.locator(".builder .path")
    assert path.inner_text() == "Chosen so far: Place a Worker"
    first = page.locator(".builder .options button").first
    place = first.inner_text()
    first.click()
    assert f"Place a Worker › {place}" in path.inner_text()
    page.click(".builder button[data-act=back]")
    assert path.inner_text() == "Chosen so far: Place a Worker"
    assert page.locator(".builder .options button", has_text=place).count() >= 1
