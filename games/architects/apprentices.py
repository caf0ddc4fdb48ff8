"""The 40 Apprentices' abilities (plus 3 promos), keyed by card id, and hiring rules."""

from __future__ import annotations

from typing import Any

from games.architects import cards

State = dict[str, Any]

# Each ability is a small table of hooks that the locations consult:
#   cathedral / pay_debt / quarry / forest / mines / silversmith / tax_stand /
#   black_market / reset_gain / reset_if_free / send_prison: goods gained there;
#   trade: (pay, gain) at the King's Storehouse; capture_discount, bm_discount,
#   tax_stand_virtue: Silver or Virtue saved; reset_release: Workers released at a Reset;
#   bm_no_virtue: no Virtue lost at the Black Market; storehouse_extra: extra actions.
ABILITIES: dict[int, dict[str, Any]] = {
    1: {"cathedral": {"building_cards": 1}},
    2: {"cathedral": {"clay": 2}},
    3: {"cathedral": {"silver": 2}},
    4: {"capture_discount": 1},
    5: {"capture_discount": 1},
    6: {"pay_debt": {"clay": 2}},
    7: {"pay_debt": {"stone": 2}},
    8: {"pay_debt": {"wood": 2}},
    9: {"reset_release": 2},
    10: {"bm_no_virtue": 1},
    11: {"silversmith": {"silver": 1}},
    12: {"silversmith": {"silver": 1}},
    13: {},
    14: {"trade": ({"silver": 1}, {"clay": 3})},
    15: {"trade": ({"silver": 2}, {"gold": 1})},
    16: {"trade": ({"silver": 3}, {"marble": 1})},
    17: {"trade": ({"silver": 1}, {"stone": 2})},
    18: {"trade": ({"silver": 1}, {"wood": 2})},
    19: {"mines": {"clay": 1}},
    20: {"mines": {"clay": 1}},
    21: {"trade": ({"clay": 1}, {"virtue": 1})},
    22: {"trade": ({"silver": 2}, {"virtue": 1})},
    23: {"trade": ({"stone": 1}, {"virtue": 1})},
    24: {"trade": ({"wood": 1}, {"virtue": 1})},
    25: {"tax_stand": {"gold": 1}},
    26: {"reset_if_free": {"gold": 1}},
    27: {"reset_if_free": {"marble": 1}},
    28: {"reset_if_free": {"virtue": 2}},
    29: {"quarry": {"stone": 1}},
    30: {"quarry": {"stone": 1}},
    31: {"black_market": {"clay": 2}},
    32: {"black_market": {"stone": 1}},
    33: {"black_market": {"wood": 1}},
    34: {"tax_stand_virtue": 1},
    35: {"trade": ({"clay": 3}, {"marble": 1})},
    36: {"trade": ({"stone": 2}, {"marble": 1})},
    37: {"trade": ({"wood": 2}, {"marble": 1})},
    38: {"bm_discount": 1},
    39: {"forest": {"wood": 1}},
    40: {"forest": {"wood": 1}},
    41: {"send_prison": {"gold": 1}},
    42: {"storehouse_extra": 1},
    43: {"reset_gain": {"silver": 2}},
}


def goods_bonus(pl: dict[str, Any], hook: str) -> dict[str, int]:
    """The goods all of a player's Apprentices add at ``hook`` (summed)."""
    total: dict[str, int] = {}
    for cid in pl["apprentices"]:
        for k, v in ABILITIES[cid].get(hook, {}).items():
            total[k] = total.get(k, 0) + v
    return total


def count(pl: dict[str, Any], hook: str) -> int:
    """The sum of a numeric hook over a player's Apprentices."""
    return sum(ABILITIES[cid].get(hook, 0) for cid in pl["apprentices"])


def trades(pl: dict[str, Any]) -> dict[int, tuple[dict[str, int], dict[str, int]]]:
    """Storehouse trades the player's Apprentices allow, one per distinct card id."""
    return {cid: ABILITIES[cid]["trade"] for cid in pl["apprentices"] if "trade" in ABILITIES[cid]}


def skills(pl: dict[str, Any]) -> set[str]:
    """Every skill among the player's hired Apprentices."""
    return {s for cid in pl["apprentices"] for s in cards.apprentice(cid)["skills"]}


def limit(pl: dict[str, Any]) -> int:
    """How many Apprentices the player may hold (5; Rudolf 6)."""
    return 6 if pl.get("character") == "Rudolf" else 5
