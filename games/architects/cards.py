"""Card and board data, loaded from the JSON files in ``data/`` (names and numbers exact)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from games.text import name


def _load(name: str) -> Any:
    text = resources.files("games.architects").joinpath("data", name).read_text("utf-8")
    return json.loads(text)


@cache
def buildings() -> dict[int, dict[str, Any]]:
    """All 43 Building cards by id (ids 41-43 are promos)."""
    return {card["id"]: _said(card, "name", "effect") for card in _load("buildings.json")}


@cache
def apprentices() -> dict[int, dict[str, Any]]:
    """All 43 Apprentice cards by id (ids 41-43 are promos).

    The data file writes "(as above)" for a second copy of a card; the page shows each
    card on its own, so such an ability takes the text of the previous card of that name.
    """
    out: dict[int, dict[str, Any]] = {}
    text: dict[str, str] = {}
    for card in _load("apprentices.json"):
        if card["ability"].strip() == "(as above)":
            card = {**card, "ability": text[card["name"]]}
        text[card["name"]] = card["ability"]
        out[card["id"]] = _said(card, "name", "ability")
    return out


@cache
def characters() -> dict[str, dict[str, Any]]:
    """The 10 Variable Setup characters (side 2 player boards) by name."""
    return {card["name"]: _said(card, "ability") for card in _load("characters.json")}


@cache
def board() -> dict[str, Any]:
    """Virtue track, Cathedral, Reward and Black Market cards, costs and setup numbers."""
    return _load("board.json")


def _said(card: dict[str, Any], *fields: str) -> dict[str, Any]:
    """The card with its shown texts as :class:`games.text.Text` (still its English, the
    message ids ``games/architects/babel.cfg`` extracts from the data files) and its
    skills as the skills' words."""
    from games.architects.words import skill
    out = {**card, **{f: name(card[f]) for f in fields if card.get(f)}}
    if "skills" in card:
        out["skills"] = [skill(s) for s in card["skills"]]
    return out


def building(card_id: int) -> dict[str, Any]:
    """One Building card."""
    return buildings()[card_id]


def apprentice(card_id: int) -> dict[str, Any]:
    """One Apprentice card."""
    return apprentices()[card_id]


def base_ids(cards: dict[int, dict[str, Any]], promos: bool) -> list[int]:
    """Ids of the cards in play: the 40 base cards, plus the promos if chosen."""
    return sorted(cid for cid, card in cards.items() if promos or not card["promo"])
