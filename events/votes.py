"""Resigning and table votes (abandon, end early): the rules, as pure functions of events.

The design, in short:

* **Resign** is one event: the ``GameEnded`` that :meth:`GameService.end_early` appends
  with ``early="resigned"`` and ``seats=[the seat]``.  A separate ``Resigned`` event
  followed by a ``GameEnded`` would be two appends, and a crash between them would leave
  a player resigned in a game that goes on; one event cannot be half-written.
* **Votes** are ``VoteCalled{seat, kind, expires}`` (the proposer's own yes) and
  ``VoteCast{seat, accept, vote}`` (an answer to the vote called at version ``vote``).
  Both are passive: they change nothing of the rules' state, so an act link emailed
  before them stays valid.  The answer that makes a vote carry is not appended on its
  own: it is recorded inside the ``GameEnded`` that ends the game (``outcome["vote"]``),
  again so that a carried vote and the end of the game are one append.
* **abandon** needs every seat (unanimity) and ends the game with no winner; **end**
  needs a majority of the seats (more than half) and ends it with the current public
  scores deciding (see :func:`provisional_scores`).  A vote carries as soon as enough
  seats said yes; one refusal ends it.
* A vote **expires** ``hours`` after it was called (``VOTE_HOURS`` by default, fixed in
  ``VoteCalled.expires`` so a later change of the default does not rejudge old votes).
  Expiry needs no job: an answer is judged at the time it is recorded (the event's
  ``at``), so an answer after ``expires`` finds no open vote; a yes then calls a new vote.
* Moves go on during a vote; a vote is closed only by a refusal, expiry or the end of
  the game.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from events import envelope as ev
from events.envelope import Event
from games.protocol import Game, IllegalMove, State
from games.text import T

VOTE_HOURS = 72.0  # how long a vote stays open by default
MAX_VOTE_HOURS = 30 * 24.0  # bounds how far back the log is read to find an open vote
KINDS = ("abandon", "end")
REASONS = {"abandon": "abandoned", "end": "ended early"}
WHAT = {"abandon": T("abandon the game (no winner)"),
        "end": T("end the game now (the current scores decide)")}
WHAT_SHORT = {"abandon": T("abandon the game"), "end": T("end the game now")}


def parse_time(text: str) -> datetime:
    """An event's ``at`` (ISO 8601, ``Z`` or offset) as an aware UTC datetime."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def stamp(moment: datetime) -> str:
    """``moment`` written as the envelope writes ``at``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass
class Vote:
    """The latest vote called in a game and the answers it got."""

    version: int  # of its VoteCalled
    kind: str
    seat: int  # who called it (their yes)
    called_at: str
    expires: str
    answers: dict[int, bool] = field(default_factory=dict)  # the proposer's yes included

    def expired(self, at: datetime) -> bool:
        return at > parse_time(self.expires)

    @property
    def refused(self) -> bool:
        return any(a is False for a in self.answers.values())

    def status(self, at: datetime) -> str:
        """"refused", "expired" or "open" at time ``at``."""
        if self.refused:
            return "refused"
        return "expired" if self.expired(at) else "open"

    def yes(self) -> list[int]:
        return sorted(s for s, a in self.answers.items() if a)

    def to_json(self, n_seats: int, at: datetime) -> dict[str, Any]:
        """What the API and the page show of it at time ``at``."""
        return {"version": self.version, "kind": self.kind, "seat": self.seat,
                "called_at": self.called_at, "expires": self.expires,
                "status": self.status(at), "needed": needed(self.kind, n_seats),
                "answers": {str(s): a for s, a in sorted(self.answers.items())},
                "waiting": [s for s in range(n_seats) if s not in self.answers]}


def needed(kind: str, n_seats: int) -> int:
    """How many yes votes carry a vote of ``kind``: all seats to abandon, a majority
    (more than half) to end early."""
    return n_seats if kind == "abandon" else n_seats // 2 + 1


def carries(kind: str, yes: int, n_seats: int) -> bool:
    return yes >= needed(kind, n_seats)


def latest_vote(events: Iterable[Event]) -> Vote | None:
    """The latest vote among ``events`` (oldest first), or None if none was called or
    the game ended after it.  ``events`` must reach back to that vote's VoteCalled."""
    vote: Vote | None = None
    for event in events:
        if event.type == ev.VOTE_CALLED:
            d = event.data
            vote = Vote(event.version, d["kind"], d["seat"], event.at, d["expires"],
                        {d["seat"]: True})
        elif event.type == ev.VOTE_CAST and vote is not None \
                and event.data["vote"] == vote.version:
            vote.answers.setdefault(event.data["seat"], event.data["accept"])
        elif event.type == ev.GAME_ENDED:
            vote = None
    return vote


def open_vote(vote: Vote | None, at: datetime) -> Vote | None:
    """``vote`` if it is still open at time ``at``."""
    return vote if vote is not None and vote.status(at) == "open" else None


@dataclass(frozen=True)
class Step:
    """What one seat's vote leads to: ``action`` "call" (a new vote) or "cast" (an
    answer), and whether it makes the vote carry (then the game ends instead)."""

    action: str
    kind: str
    carries: bool
    vote: Vote | None  # the open vote answered (None for a call)


def decide(vote: Vote | None, seat: int, kind: str, accept: bool, n_seats: int,
           at: datetime) -> Step:
    """What ``seat`` voting ``accept`` on ``kind`` at time ``at`` does, given the latest
    vote; IllegalMove (with the reason to show) if it may not."""
    if kind not in KINDS:
        raise IllegalMove(f"a vote is to 'abandon' or to 'end', not {kind!r}")
    current = open_vote(vote, at)
    if current is None:
        if not accept:
            why = " (the last one expired)" if vote is not None and vote.status(at) == \
                "expired" else ""
            raise IllegalMove(f"there is no open vote to refuse{why}")
        return Step("call", kind, carries(kind, 1, n_seats), None)
    if current.kind != kind:
        raise IllegalMove(f"a vote to {current.kind} is open: answer it first")
    if seat in current.answers:
        raise IllegalMove("you have already voted on this")
    yes = len(current.yes()) + (1 if accept else 0)
    return Step("cast", kind, accept and carries(kind, yes, n_seats), current)


def called(seat: int, kind: str, at: datetime, hours: float = VOTE_HOURS) -> dict[str, Any]:
    """The data of a VoteCalled made at ``at``."""
    return {"seat": seat, "kind": kind, "expires": stamp(at + timedelta(hours=hours))}


def unchanged(events: Iterable[Event]) -> bool:
    """True if ``events`` (those after the version a player decided on) change nothing a
    resignation or a vote depends on: passive events other than votes (a reminder)."""
    return all(e.type in ev.PASSIVE and e.type not in (ev.VOTE_CALLED, ev.VOTE_CAST)
               for e in events)


# -- the result of an early end ----------------------------------------------------------

class PublicScores(list[int]):
    """Public scores: one per seat, then one per other scorer (a solo game's automaton),
    whose names are ``others``."""

    others: list[str]

    def __init__(self, scores: Iterable[int], others: Iterable[str] = ()) -> None:
        super().__init__(scores)
        self.others = list(others)


def _whole(values: Any) -> list[int] | None:
    """``values`` as whole numbers, or None unless it is a list of them."""
    if isinstance(values, dict):
        values = values.get("totals")
    if not isinstance(values, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    return list(values)


def _scorer_names(view: dict[str, Any], count: int) -> list[str]:
    """The names of the first ``count`` scorers of a view: its ``names``, else the names
    in its ``players``."""
    names = view.get("names")
    if not isinstance(names, list) or len(names) < count:
        players = view.get("players")
        names = [p.get("name") for p in players] if isinstance(players, list) and all(
            isinstance(p, dict) for p in players) else []
    return [str(n) if n else f"Opponent {i + 1}" for i, n in
            enumerate((names + [None] * count)[:count])]


def provisional_scores(game: Game, state: State) -> PublicScores | None:
    """The public scores now, one per seat, then one per scorer that is not a seat (a solo
    game's automaton, named in ``others``); None if there are none (the players then rank
    equal).  The seats' come from the rules' pure ``provisional_scores(state)`` (a method,
    or a function of the module its class is defined in), else from the ``scores`` a
    spectator's view shows (as King's Guild shows public prestige); the others' from that
    view's scores past the seats'."""
    scorer = getattr(game, "provisional_scores", None)
    if scorer is None:
        module = importlib.import_module(type(game).__module__)
        scorer = getattr(module, "provisional_scores", None)
    scores = scorer(state) if scorer is not None else None
    view = game.view(state, None)
    shown = _whole(view.get("scores"))
    if scores is None:
        return PublicScores(shown) if shown else None
    seats = [int(s) for s in scores]
    extra = shown[len(seats):] if shown is not None else []
    return PublicScores(seats + extra, _scorer_names(view, len(seats) + len(extra))[len(seats):])


def result(names: list[str], scores: list[int] | None, last: list[int]) -> dict[str, Any]:
    """``scores``, ``ranking`` (best first), ``places`` (ties share a place) and
    ``winners`` for an early end: the seats in ``last`` (who resigned) rank after everyone
    else, the others by ``scores`` (higher first), equal without them.  Scorers that are
    not seats (``scores.others``, an automaton) are ranked too, after the seats' indexes,
    and the result then names every scorer (``names``)."""
    others_names = list(getattr(scores, "others", []))[:max(0, len(scores or []) - len(names))]
    everyone = [*names, *others_names]
    n = len(everyone)
    scores = list(scores)[:n] if scores else None
    if scores is not None and len(scores) < n:
        scores = None
    others = [s for s in range(n) if s not in last]

    def key(s: int) -> tuple[int, int]:
        return (1 if s in last else 0, -(scores[s] if scores else 0))

    ranking = sorted(range(n), key=lambda s: (*key(s), s))
    places = [1 + sum(1 for o in range(n) if key(o) < key(s)) for s in range(n)]
    out = {"scores": scores or {}, "ranking": ranking, "places": places,
           "winners": [s for s in others if places[s] == 1]}
    if others_names:
        out["names"] = everyone
    return out


def _names(names: list[str], seats: list[int]) -> str:
    said = [names[s] for s in seats]
    return said[0] if len(said) == 1 else \
        T("%(some)s and %(last)s", some=", ".join(said[:-1]), last=said[-1])


def _first(names: list[str], winners: list[int], scores: list[int] | None) -> str:
    """Who comes first, in a sentence (the reason is said by :func:`ended_line`); a
    Text (stored as its English; :func:`winner_line` says it again for a reader)."""
    if len(winners) == 1:
        who = names[winners[0]]
        return T("%(who)s wins on the current scores.", who=who) if scores is not None \
            else T("%(who)s wins.", who=who)
    if winners == list(range(len(names))) and scores is None:
        return T("Every player shares first place (this game has no public scores).")
    who = _names(names, winners)
    return T("%(who)s share first place on the current scores.", who=who) \
        if scores is not None else T("%(who)s share first place.", who=who)


def winner_line(outcome: dict[str, Any], names: list[str]) -> str | None:
    """The ``winner`` sentence of a game ended early, made again from its outcome as a
    Text (the stored one is plain English), so an email can say it in its reader's
    language; the stored sentence for any other outcome."""
    said = outcome.get("winner")
    if not said or not outcome.get("ended"):
        return said
    if said == "No winner.":
        return T("No winner.")
    winners = outcome.get("winners") or []
    if not winners:
        return said
    ranked = outcome.get("names") or names
    scores = outcome.get("scores") or None
    again = _first(ranked, winners, scores)
    return again if again == said else said  # a sentence of some other making stays


def outcome_said(outcome: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    """A copy of a game's ``outcome`` whose winner sentence can be said in a reader's
    language (:func:`winner_line`), for a page or an email to print."""
    if not outcome:
        return outcome
    said = dict(outcome)
    if said.get("winner"):
        said["winner"] = winner_line(said, names)
    return said


def resign_detail(names: list[str], seat: int, scores: list[int] | None) -> dict[str, Any]:
    """The ``detail`` of the GameEnded for ``seat`` resigning."""
    out = result(names, scores, [seat])
    if out["winners"]:
        out["winner"] = _first(out.get("names", names), out["winners"], scores)
    return out


def vote_detail(names: list[str], kind: str, yes: list[int], vote_version: int | None,
                scores: list[int] | None, at: datetime) -> dict[str, Any]:
    """The ``detail`` of the GameEnded for a vote of ``kind`` that carried with ``yes``."""
    if kind == "abandon":
        out = result(names, None, [])
        out["winners"] = []
        out["winner"] = T("No winner.")
    else:
        out = result(names, scores, [])
        out["winner"] = _first(out.get("names", names), out["winners"], scores)
    out["vote"] = {"kind": kind, "called": vote_version, "yes": yes, "at": stamp(at)}
    return out


def ended_line(outcome: dict[str, Any], names: list[str]) -> str | None:
    """Why a game ended early, in a sentence (None for a game the rules ended); a Text,
    said again in a reader's language where it is printed."""
    reason = outcome.get("ended")
    if not reason:
        return None
    seats = outcome.get("seats") or []
    who = _names(names, seats) if seats else ""
    if reason == "resigned":
        return T("%(who)s resigned.", who=who) if who else T("A player resigned.")
    if reason == "abandoned":
        return T("The players agreed to abandon the game: there is no winner.")
    if reason == "ended early":
        return T("The players voted to end the game early: the scores at that moment decide.")
    if reason == "forfeit":
        return T("%(who)s forfeited (ran out of time).", who=who) if who else \
            T("A player forfeited (ran out of time).")
    return T("The game ended early: %(reason)s (%(who)s).", reason=reason, who=who) if who \
        else T("The game ended early: %(reason)s.", reason=reason)
