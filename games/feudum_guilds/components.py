"""The printed components: capacities, prices, charts and decks, loaded from ``data/``."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def _load(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


C: dict[str, Any] = _load("components.json")
CARDS: list[dict[str, Any]] = _load("action_cards.json")["cards"]
CARDS_PER_ROUND: int = _load("action_cards.json")["selected_per_round"]
WRITS: dict[str, dict[str, Any]] = {w["id"]: w for w in _load("writs.json")["writs"]}
HAND_LIMIT: int = _load("writs.json")["hand_limit"]

GOODS: list[str] = C["goods"]
GUILDS: list[str] = C["guilds"]
VESSELS: list[str] = list(C["vessels"])
CARD_NAMES: list[str] = [c["name"] for c in CARDS]
REPEATABLE: set[str] = {c["name"] for c in CARDS if c["repeatable"]}
NEUTRAL = "neutral"
FUNCTIONS = ["trade", "pull", "push"]


def line_vp(completed: int) -> int:
    """4/5/6 vp for 1/2/3 completed lines (0 for none), capped at 3 [A-18]."""
    return C["line_vp"][min(completed, 3)]


def threshold_vp(total: int, thresholds: list[int]) -> int:
    """4/5/6 vp for reaching the first/second/third threshold."""
    reached = sum(1 for t in thresholds if total >= t)
    return C["line_vp"][reached]
