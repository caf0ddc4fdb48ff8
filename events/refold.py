"""Refolding a game under another rules version: what would change if it were migrated.

A game plays the rules it was created under until an admin migrates it (a
``RulesMigrated`` event; play goes on from the same state under the new rules).  Before
that, the admin wants to know what the new rules would have made of the game so far: the
moves that survive its take-backs are replayed under them, with their recorded tapes, and
the report lists every move that became illegal (it is skipped and the replay goes on)
and how the resulting state differs from the one played.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from events import envelope as ev
from events.replay import Replayer, surviving
from events.store import EventStore, UnknownGame
from games import registry
from games.rng import TapePlayer

MAX_DIFFERENCES = 200  # lines of state difference reported; the rest are counted


@dataclass
class RefoldReport:
    """What replaying a game's moves under ``rules`` gave."""

    game_id: str
    played_under: str
    rules: str
    setup_problem: str = ""
    moves: int = 0
    illegal: list[dict[str, Any]] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    more_differences: int = 0

    @property
    def same(self) -> bool:
        return not (self.setup_problem or self.illegal or self.differences)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.game_id, "played_under": self.played_under, "rules": self.rules,
                "setup_problem": self.setup_problem, "moves": self.moves,
                "illegal": self.illegal, "differences": self.differences,
                "more_differences": self.more_differences, "same": self.same}

    def lines(self) -> list[str]:
        """The report as text, one finding a line."""
        out = [f"game {self.game_id}: played under rules {self.played_under}, "
               f"refolded under rules {self.rules}: {self.moves} moves"]
        if self.setup_problem:
            out.append(f"setup: {self.setup_problem}")
        for bad in self.illegal:
            out.append(f"move {bad['version']} (seat {bad['seat']}) became illegal: "
                       f"{bad['reason']}")
        out += [f"state: {d}" for d in self.differences]
        if self.more_differences:
            out.append(f"state: … and {self.more_differences} more differences")
        if self.same:
            out.append("the same: every move is legal and the state is identical")
        return out


def refold(store: EventStore, game_id: str, rules: str) -> RefoldReport:
    """Replay ``game_id``'s surviving moves under rules ``rules`` (KeyError if this code
    does not play that version) and compare with the game as played."""
    events = store.read(game_id)
    if not events:
        raise UnknownGame(game_id)
    played = Replayer(store).load(game_id, use_snapshot=False)
    target = registry.get(played.kind).for_rules(rules)
    report = RefoldReport(game_id, played.rules_version, rules)
    created = events[0]
    tape = TapePlayer(created.tape)
    try:
        state = target.setup(list(created.data["names"]),
                             copy.deepcopy(created.data["options"]), tape)
        tape.finish()
    except Exception as exc:  # any refusal of the setup is the finding
        report.setup_problem = f"{type(exc).__name__}: {exc}"
        return report
    for event in surviving(events, 0):
        if event.type != ev.MOVE_PLAYED:
            continue
        report.moves += 1
        trial = copy.deepcopy(state)
        tape = TapePlayer(event.tape)
        try:
            target.apply(trial, event.data["seat"], copy.deepcopy(event.data["move"]), tape)
            tape.finish()
        except Exception as exc:  # an illegal move, or draws the new rules use otherwise
            reason = getattr(exc, "reason", None) or f"{type(exc).__name__}: {exc}"
            report.illegal.append({"version": event.version, "seat": event.data["seat"],
                                   "move": event.data["move"], "reason": reason})
            continue
        state = trial
    found = differences(played.state, state)
    report.differences = found[:MAX_DIFFERENCES]
    report.more_differences = max(0, len(found) - MAX_DIFFERENCES)
    return report


def differences(before: Any, after: Any, path: str = "") -> list[str]:
    """Every place where two JSON values differ, as ``path: before -> after``."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for k in sorted(set(before) | set(after), key=str):
            sub = f"{path}.{k}" if path else str(k)
            if k not in before:
                out.append(f"{sub}: (none) -> {_short(after[k])}")
            elif k not in after:
                out.append(f"{sub}: {_short(before[k])} -> (none)")
            else:
                out += differences(before[k], after[k], sub)
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        out = []
        for i, (a, b) in enumerate(zip(before, after, strict=True)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    return [] if before == after else [f"{path or '(state)'}: {_short(before)} -> "
                                       f"{_short(after)}"]


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
