"""The decision stack: who is asked what next, and the registry of decision handlers.

Every pending question is a plain dict on ``state["stack"]`` (top = last) with a ``kind``
and the ``seat`` that answers it.  Each module registers, per kind, the legal answers
(``options``) and what an answer does (``resolve``); *auto* kinds hold no question and are
turned into questions or dropped by :func:`games.feudum_guilds.rounds.advance`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.feudum_guilds import words
from games.rng import GameRandom

State = dict[str, Any]
Decision = dict[str, Any]
Move = dict[str, Any]

OPTIONS: dict[str, Callable[[State, Decision], list[Move]]] = {}
RESOLVE: dict[str, Callable[[State, Decision, Move, GameRandom], None]] = {}
AUTO: dict[str, Callable[[State, Decision, GameRandom], None]] = {}


def options_for(kind: str):
    """Decorator: the legal answers to a decision of ``kind``."""

    def register(fn: Callable[[State, Decision], list[Move]]):
        OPTIONS[kind] = fn
        return fn

    return register


def resolver_for(kind: str):
    """Decorator: apply a (validated) answer to a decision of ``kind``."""

    def register(fn: Callable[[State, Decision, Move, GameRandom], None]):
        RESOLVE[kind] = fn
        return fn

    return register


def auto_for(kind: str):
    """Decorator: process an automatic stack entry of ``kind`` (must pop or replace it)."""

    def register(fn: Callable[[State, Decision, GameRandom], None]):
        AUTO[kind] = fn
        return fn

    return register


def push(state: State, entry: Decision) -> None:
    """Put a decision on top of the stack."""
    state["stack"].append(entry)


def pop(state: State) -> Decision:
    """Remove the top decision."""
    return state["stack"].pop()


def log(state: State, text: str) -> None:
    """Add a public line to the recent-effects log (kept short)."""
    state["log"].append(f"R{state['round']}: {text}")
    del state["log"][:-12]


def score(state: State, seat: int, vp: int, why: str) -> None:
    """Give a player veneration points and log it."""
    if vp:
        state["ps"][seat]["vp"] += vp
        log(state, words.line("scores", who=state["ps"][seat]["name"], vp=vp, why=why))
