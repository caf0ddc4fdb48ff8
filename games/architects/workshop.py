"""The Workshop display (2 rows of 4 Apprentices), hiring and Building plans."""

from __future__ import annotations

from typing import Any

from games.architects import apprentices, supply, virtue
from games.architects.cards import apprentice

State = dict[str, Any]
ROWS, COLS = 2, 4


def refill(state: State, row: int) -> None:
    """Shift a row's cards (and their Silver) left and reveal new cards on the right."""
    cells = [(c, s) for c, s in zip(state["workshop"][row], state["workshop_silver"][row],
                                     strict=True) if c is not None]
    while len(cells) < COLS and state["app_deck"]:
        cells.append((state["app_deck"].pop(0), 0))
    cells += [(None, 0)] * (COLS - len(cells))
    state["workshop"][row] = [c for c, _ in cells]
    state["workshop_silver"][row] = [s for _, s in cells]


def cull(state: State) -> None:
    """Guildhall cull: discard the left column, shift left and deal new cards."""
    for row in range(ROWS):
        card = state["workshop"][row][0]
        if card is not None:
            state["app_deck"].append(card)
        state["workshop"][row][0] = None
        state["workshop_silver"][row][0] = 0
        refill(state, row)


def skips_needed(workers: int, col: int) -> int:
    """Silver to place on skipped cards to reach column ``col`` (0-based) with n Workers."""
    return max(0, col + 1 - workers)


def hire_cost(state: State, p: int) -> tuple[int, int]:
    """(plain Silver, Tax) to hire at the Workshop: 2 + 2 Tax, Rudolf 1 + 2 Tax."""
    plain = 1 if supply.player(state, p).get("character") == "Rudolf" else 2
    return plain, 2


def hire_targets(state: State, p: int) -> list[dict[str, Any]]:
    """Every face-up card with a ``discard`` choice when the player is at the limit."""
    pl = supply.player(state, p)
    out: list[dict[str, Any]] = []
    for row in range(ROWS):
        for col in range(COLS):
            if state["workshop"][row][col] is None:
                continue
            if len(pl["apprentices"]) < apprentices.limit(pl):
                out.append({"row": row, "col": col})
            else:
                out += [{"row": row, "col": col, "discard": d} for d in pl["apprentices"]]
    return out


def hire(state: State, p: int, row: int, col: int, discard: int | None = None) -> int:
    """Take the card at (row, col) with its Silver, apply its Virtue, refill the row."""
    pl = supply.player(state, p)
    if discard is not None:
        pl["apprentices"].remove(discard)
        state["app_deck"].append(discard)
    card = state["workshop"][row][col]
    pl["silver"] += state["workshop_silver"][row][col]
    state["workshop"][row][col] = None
    state["workshop_silver"][row][col] = 0
    pl["apprentices"].append(card)
    virtue.change(state, p, apprentice(card)["virtue_on_hire"])
    refill(state, row)
    return card


def place_skip_silver(state: State, p: int, row: int, skips: int) -> None:
    """Put 1 Silver on each of the ``skips`` left-most cards of the row."""
    for col in range(skips):
        state["workshop_silver"][row][col] += 1
        supply.player(state, p)["silver"] -= 1


def plans_count(workers: int) -> int:
    """Building cards drawn by Building plans: 1 + 1 per 2 Workers."""
    return 1 + workers // 2
