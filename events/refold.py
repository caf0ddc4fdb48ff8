"""Refolding a game under another rules version: what would change if it were migrated.

A game plays the rules it was created under until an admin migrates it (a
``RulesMigrated`` event; play goes on from the same state under the new rules).  Before
that, the admin wants to know what the new rules would have made of the game so far: the
moves that survive its take-backs are replayed under them, with their recorded tapes, in
step with the game as played, and the report says

* where the two versions first part: the first move the new rules refuse, or after which
  the states differ, with a short diff of the two states there (played -> refolded);
* how many later moves differ (refused, or leaving different states), counted, not listed:
  after the first difference the rest is mostly its cascade;
* where the new rules draw where the old did not (the recorded tape runs out), or no
  longer draw what the old did (values left over): the recorded draws cannot say what the
  new rules would have drawn, so the refold stops there instead of inventing a game.

Decisions, so the report shows real differences only:

* The played state is compared as the game's ``migrate`` would bring it to the new rules
  (a version tag in the state is not a difference), with its options normalized by the new
  rules: an option a later version added, at its default, is not a difference.  Options
  the new rules do not know are left out of their setup when they hold the old default
  (refolding a rules-3 game under rules 2); any other value is a setup problem.
* A migrated game keeps the rules each move was played under up to its last
  ``RulesMigrated``; the moves after it are refolded under the rules asked for
  ("rules 2 to version 57, then rules 3").  Refolding it under the rules it plays now is
  therefore "the same", as it should be.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass, field
from typing import Any

from events import envelope as ev
from events.envelope import Event
from events.replay import surviving
from events.store import EventStore, UnknownGame
from games import registry
from games.protocol import Game, IllegalMove, State
from games.rng import TapeError, TapePlayer

MAX_DIFFERENCES = 12  # lines of state difference shown at the first divergence
LIST_SUMMARY = 3  # a list of plain values differing in more places than this: one line


class _Unfoldable(Exception):
    """The game as played does not fold under its own rules (a broken log)."""


class _Draws(TapePlayer):
    """A tape player that remembers how the rules' draws missed the recording:
    ``more`` (they drew past its end), ``fewer`` (values left over) or ``other``."""

    def __init__(self, tape: list[int]) -> None:
        super().__init__(tape)
        self.length, self.used, self.miss = len(tape), 0, ""

    def below(self, n: int) -> int:
        try:
            value = super().below(n)
        except TapeError:
            self.miss = "more" if self.used >= self.length else "other"
            raise
        self.used += 1
        return value

    def finish(self) -> None:
        try:
            super().finish()
        except TapeError:
            self.miss = "fewer"
            raise


@dataclass
class Divergence:
    """The first place the two versions part (``version`` 1 with no seat: the setup).
    ``kind``: ``state`` (the same move leaves different states), ``illegal`` (the new
    rules refuse it) or ``draws`` (see :class:`_Draws`: the refold stops there)."""

    version: int
    kind: str
    seat: int | None = None
    move: dict[str, Any] | None = None
    reason: str = ""
    what: str = ""  # the move as the log describes it

    def to_json(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"version": self.version, "kind": self.kind, "seat": self.seat,
                "move": self.move, "reason": self.reason, "what": self.what}

    def where(self) -> str:
        """``move 194 (seat 1)``, or ``the setup``."""
        return "the setup" if self.seat is None else f"move {self.version} (seat {self.seat})"

    def the_move(self) -> list[str]:
        """The move as the log describes it, as an indented line (none if unknown)."""
        return [f"  the move: {self.what}"] if self.what else []


@dataclass
class RefoldReport:
    """What replaying a game's moves under ``rules`` gave, next to the game as played."""

    game_id: str
    played_under: str
    rules: str
    # the rules kept as played before the last migration: [{"rules": "2", "to": 57}]
    kept: list[dict[str, Any]] = field(default_factory=list)
    setup_problem: str = ""
    options_added: dict[str, Any] = field(default_factory=dict)
    options_left_out: dict[str, Any] = field(default_factory=dict)
    moves: int = 0  # moves refolded
    total: int = 0  # moves there are to refold (after the last migration)
    first: Divergence | None = None
    differences: list[str] = field(default_factory=list)  # at the first divergence
    more_differences: int = 0
    later: int = 0  # later moves that differ (refused, or leaving different states)
    later_illegal: int = 0  # of those, the ones the new rules refuse
    illegal: list[dict[str, Any]] = field(default_factory=list)  # every refused move
    draws: Divergence | None = None  # where the refold stopped, if it did
    final_differences: int = 0  # places the end states differ (when it did not stop)
    result: str = ""  # how the outcome differs, if it does

    @property
    def same(self) -> bool:
        """Every move legal and every state identical under both versions."""
        return not (self.setup_problem or self.first)

    def to_json(self) -> dict[str, Any]:
        """The report's fields for the API, with ``lines``: the same text as the CLI."""
        return {"id": self.game_id, "played_under": self.played_under, "rules": self.rules,
                "kept": self.kept, "setup_problem": self.setup_problem,
                "options_added": self.options_added,
                "options_left_out": self.options_left_out, "moves": self.moves,
                "total": self.total, "first": self.first.to_json() if self.first else None,
                "differences": self.differences, "more_differences": self.more_differences,
                "later": self.later, "later_illegal": self.later_illegal,
                "illegal": self.illegal,
                "draws": self.draws.to_json() if self.draws else None,
                "stopped_at": self.draws.version if self.draws else None,
                "final_differences": self.final_differences, "result": self.result,
                "same": self.same, "lines": self.lines()}

    def lines(self) -> list[str]:
        """The report as text, one finding a line (the CLI, the API and the page)."""
        plan = "".join(f"rules {k['rules']} to version {k['to']}, then " for k in self.kept)
        out = [f"game {self.game_id}: played under {plan}rules {self.played_under}, refolded "
               f"under {plan}rules {self.rules}: {self.moves} of {self.total} moves"]
        if self.kept:
            out.append(f"the game was migrated at version {self.kept[-1]['to']}: the moves "
                       f"before it keep the rules they were played under, those after it "
                       f"are refolded")
        if self.options_added:
            out.append(f"options rules {self.rules} adds, at their defaults (not a "
                       f"difference): {_pairs(self.options_added)}")
        if self.options_left_out:
            out.append(f"options rules {self.rules} does not know, left out at the old "
                       f"default: {_pairs(self.options_left_out)}")
        if self.setup_problem:
            out.append(f"setup: {self.setup_problem}")
            return out
        first = self.first
        if first is None:
            out.append("the same: every move is legal and the state is identical")
            return out
        if first.kind == "draws":
            return [*out, _draw_line(first, self.played_under, self.rules), *first.the_move()]
        if first.kind == "illegal":
            out.append(f"{first.where()} became illegal: {first.reason}")
        else:
            out.append(f"{first.where()} is where the versions part: the states differ")
        out += first.the_move()
        if self.differences:
            out.append("  differences (played -> refolded):")
            out += [f"    {d}" for d in self.differences]
            if self.more_differences:
                out.append(f"    … and {self.more_differences} more")
        refused = f" ({self.later_illegal} of them refused by rules {self.rules})" \
            if self.later_illegal else ""
        count = {0: "no later move differs", 1: "1 later move differs"}.get(
            self.later, f"{self.later} later moves differ")
        out.append(f"{count}{refused}{' before that' if self.draws else ''}")
        if self.draws:
            out += [_draw_line(self.draws, self.played_under, self.rules),
                    *self.draws.the_move()]
        else:
            out.append(f"at the end the states differ in {self.final_differences} "
                       f"{'place' if self.final_differences == 1 else 'places'}"
                       if self.final_differences else "at the end the states are the same")
            if self.result:
                out.append(self.result)
        return out


def _pairs(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sorted(options.items()))


def _draw_line(at: Divergence, old: str, new: str) -> str:
    """The line for a refold stopped by draws (see :class:`_Draws`)."""
    newer = new.isdigit() and old.isdigit() and int(new) > int(old)
    rules = f"the new rules ({new})" if newer else f"rules {new}"
    old = f"the old ({old})" if newer else f"rules {old}"
    if at.reason == "more":
        what = (f"{rules} draw where {old} did not: the recorded draws cannot say what "
                f"they would have been")
    elif at.reason == "fewer":
        what = (f"{rules} draw less than {old} did (recorded draws are left over): the "
                f"draws after it cannot be matched to them")
    else:
        what = f"{rules} draw otherwise than {old} did: the recorded draws do not fit them"
    where = "at setup" if at.seat is None else f"from {at.where()}"
    return f"{where} {what}; the refold stops there"


def refold(store: EventStore, game_id: str, rules: str) -> RefoldReport:
    """Replay ``game_id``'s surviving moves under rules ``rules`` (KeyError if this code
    does not play that version) in step with the game as played, and compare."""
    events = store.read(game_id)
    if not events:
        raise UnknownGame(game_id)
    created = events[0].data
    target = registry.get(created["kind"]).for_rules(rules)
    report = RefoldReport(game_id, created["rules_version"], rules)
    try:
        _refold(report, events, target)
    except _Unfoldable as exc:  # the audit's business; the report only says so
        report.setup_problem = f"the game as played does not fold: {exc}"
    return report


def _refold(report: RefoldReport, events: list[Event], target: Game) -> None:
    """:func:`refold`'s work, written into ``report``."""
    created = events[0].data
    kind_game = registry.get(created["kind"])
    rules = target.rules_version
    chain = surviving(events, 0) or []
    migrations = [i for i, e in enumerate(chain) if e.type == ev.RULES_MIGRATED]
    start = migrations[-1] if migrations else 0  # the refold parts from the game here
    names = list(created["names"])
    game = kind_game.for_rules(created["rules_version"])
    report.kept = [{"rules": chain[i].data["from"], "to": chain[i].version}
                   for i in migrations]
    report.total = sum(e.type == ev.MOVE_PLAYED for e in chain[start + 1:])
    if migrations:
        report.played_under = chain[start].data["to"]

    # the game as played, up to where the refold parts from it
    try:
        played = game.setup(names, _json_copy(created["options"]), TapePlayer(events[0].tape))
    except Exception as exc:  # see _fold
        raise _Unfoldable(f"setup: {getattr(exc, 'reason', None) or exc}") from exc
    for event in chain[1:start]:
        game = _fold(game, played, event, kind_game)
    if migrations:
        refolded = _json_copy(played)
        if rules != game.rules_version:
            game.migrate(refolded, rules)
        game = _fold(game, played, chain[start], kind_game)
    else:
        options, report.options_added, report.options_left_out, report.setup_problem = \
            _options_under(game, target, created["options"], len(names))
        if options is None:
            return
        draws = _Draws(events[0].tape)
        try:
            refolded = target.setup(names, options, draws)
            draws.finish()
        except TapeError:
            report.first = Divergence(1, "draws", reason=draws.miss)
            return
        except Exception as exc:  # any refusal of the setup is the finding
            report.setup_problem = getattr(exc, "reason", None) or \
                f"{type(exc).__name__}: {exc}"
            return
        found = differences(_as_under(game, played, target, len(names)), refolded)
        if found:
            report.first = Divergence(1, "state")
            _keep(report, found)

    for event in chain[start + 1:]:
        before = game
        game = _fold(game, played, event, kind_game)
        if event.type != ev.MOVE_PLAYED:
            continue
        report.moves += 1
        seat, move = event.data["seat"], event.data["move"]
        draws = _Draws(event.tape)
        trial = _json_copy(refolded)
        refused = ""
        try:
            target.apply(trial, seat, _json_copy(move), draws)
            draws.finish()
        except TapeError:
            report.draws = Divergence(event.version, "draws", seat, move, draws.miss,
                                      _what(before, event, names))
            report.first = report.first or report.draws
            return
        except Exception as exc:  # the new rules refuse the move
            refused = getattr(exc, "reason", None) or f"{type(exc).__name__}: {exc}"
            report.illegal.append({"version": event.version, "seat": seat, "move": move,
                                   "reason": refused})
        else:
            refolded = trial
        if report.first is None:
            found = differences(_as_under(game, played, target, len(names)), refolded)
            if refused or found:
                report.first = Divergence(event.version, "illegal" if refused else "state",
                                          seat, move, refused, _what(before, event, names))
                _keep(report, found)
        elif refused or _as_under(game, played, target, len(names)) != refolded:
            report.later += 1
            report.later_illegal += bool(refused)
    if report.first is not None:
        report.final_differences = len(differences(
            _as_under(game, played, target, len(names)), refolded))
        report.result = _result(game, played, target, refolded)


def _fold(game: Game, state: State, event: Event, kind_game: Game) -> Game:
    """Fold one event of the game as played into ``state``; the rules in force after it."""
    if event.type == ev.MOVE_PLAYED:
        tape = TapePlayer(event.tape)
        try:
            game.apply(state, event.data["seat"], _json_copy(event.data["move"]), tape)
            tape.finish()
        except Exception as exc:  # the log itself is broken (the audit says more)
            reason = getattr(exc, "reason", None) or f"{type(exc).__name__}: {exc}"
            raise _Unfoldable(f"move {event.version}: {reason}") from exc
    elif event.type == ev.RULES_MIGRATED:
        game.migrate(state, event.data["to"])
        return kind_game.for_rules(event.data["to"])
    return game


def _options_under(old: Game, new: Game, options: dict[str, Any], n: int
                   ) -> tuple[dict[str, Any] | None, dict[str, Any], dict[str, Any], str]:
    """``options`` (recorded under ``old``) as ``new``'s setup should get them, as a
    migration would take them: ``(options or None if new cannot take them, the options
    new adds at their defaults, those it does not know that held old's default, the
    problem)``.  An option ``new`` does not know is left out only at ``old``'s default."""
    try:
        new_defaults = new.normalize_options({}, n)
        old_defaults = old.normalize_options({}, n)
    except IllegalMove:
        new_defaults, old_defaults = {}, {}
    left_out = {k: v for k, v in options.items()
                if k not in new_defaults and k in old_defaults and old_defaults[k] == v}
    kept = {k: v for k, v in options.items() if k not in left_out}
    try:
        normalized = new.normalize_options(_json_copy(kept), n)
    except IllegalMove as exc:
        return None, {}, left_out, (f"rules {new.rules_version} cannot set this game up: "
                                    f"{exc.reason}")
    added = {k: v for k, v in normalized.items() if k not in options}
    return kept, added, left_out, ""


def _as_under(game: Game, state: State, target: Game, n: int) -> State:
    """A copy of the played ``state`` as a migration to ``target`` would leave it, with
    its options (if the state keeps them) normalized by ``target``."""
    out = _json_copy(state)
    if game.rules_version != target.rules_version:
        game.migrate(out, target.rules_version)
        if isinstance(out.get("options"), dict):
            kept = _options_under(game, target, out["options"], n)[0]
            if kept is not None:
                out["options"] = target.normalize_options(kept, n)
    return out


def _keep(report: RefoldReport, found: list[str]) -> None:
    report.differences = found[:MAX_DIFFERENCES]
    report.more_differences = max(0, len(found) - MAX_DIFFERENCES)


def _what(game: Game, event: Event, names: list[str]) -> str:
    """The move as the admin's log shows it ("" if the rules cannot say)."""
    try:
        return game.describe({"version": event.version, "actor": event.data["seat"],
                              "data": {"move": event.data["move"]}, "names": names}, None)
    except Exception:  # a description is a courtesy; the report stands without it
        return ""


def _result(game: Game, played: State, target: Game, refolded: State) -> str:
    """One line on how the outcome differs ("" when it does not)."""
    try:
        before, after = game.outcome(played), target.outcome(refolded)
    except Exception:  # an unfinished refold may not have one
        return ""
    if before is None and after is None:
        return ""
    if after is None:
        return "the result: the refolded game has not ended"
    if before is None:
        return "the result: the refolded game has ended, the game as played has not"
    changed = [f"{k} {_short(before.get(k))} -> {_short(after.get(k))}"
               for k in ("scores", "ranking") if before.get(k) != after.get(k)]
    return f"the result differs: {'; '.join(changed)}" if changed else \
        "the result is the same"


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON-ready data (marshal: several times faster than deepcopy)."""
    return marshal.loads(marshal.dumps(value))


def differences(before: Any, after: Any, path: str = "") -> list[str]:
    """Every place where two JSON values differ, as ``path: before -> after``; a list of
    plain values that differs in many places is one line."""
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
    if isinstance(before, list) and isinstance(after, list):
        if before == after:
            return []
        if len(before) == len(after):
            places = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
            if len(places) > LIST_SUMMARY and all(map(_plain, before + after)):
                i = places[0]
                return [f"{path}: {len(places)} of {len(before)} places differ, first "
                        f"[{i}]: {_short(before[i])} -> {_short(after[i])}"]
            out = []
            for i in places:
                out += differences(before[i], after[i], f"{path}[{i}]")
            return out
        if all(map(_plain, before + after)) and max(len(before), len(after)) > 6:
            gone = [x for x in before if x not in after]
            new = [x for x in after if x not in before]
            change = ", ".join(part for part in (
                f"removed {_short(gone, 40)[1:-1]}" if gone else "",
                f"added {_short(new, 40)[1:-1]}" if new else "") if part)
            return [f"{path}: {len(before)} items -> {len(after)}"
                    f"{' (' + change + ')' if change else ''}"]
    return [] if before == after else [f"{path or '(state)'}: {_short(before)} -> "
                                       f"{_short(after)}"]


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"
