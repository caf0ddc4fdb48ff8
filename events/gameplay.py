"""The thin service layer: create a game, decide a move and append it, rewind, fork.

Each command loads the table, asks the rules, and appends one event with the version it
read as ``expected_version``; a concurrent writer makes the append fail with
:class:`~events.store.ConflictError` and nothing is half-written.
"""

from __future__ import annotations

import copy
import logging
import marshal
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import redis

from events import envelope as ev
from events import history, votes
from events.envelope import Event, seat_actor
from events.replay import Replayer, Table
from events.sent import meanwhile
from events.store import LRU, ConflictError, EventStore, key, new_game_id
from games import registry
from games.protocol import Game, IllegalMove, State
from games.rng import RecordingRandom, commitment, seed_for

log = logging.getLogger(__name__)
T = TypeVar("T")

SECRETS_KEPT = 4096  # per process: game secrets read once (they never change)


@dataclass(frozen=True)
class Seat:
    """A player at a table: name and address (addresses stay out of the event log)."""

    seat: int
    name: str
    email: str
    tz: str = "UTC"
    muted: bool = False
    player: str = ""  # the player's opaque id (worker.players), "" in games made before
    quiet: str = ""  # this game's quiet hours for the seat, if the lobby gave them
    language: str = ""  # the seat's language (en, de) if the lobby or the API gave one


class GameService:
    """Commands on games; the web, the API, the worker and the bots all use these."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.replayer = Replayer(store)
        # "game commitment" -> secret: a secret never changes once committed, so each
        # process reads it once (a bounded LRU, shared by the process's threads)
        self._secrets = LRU(SECRETS_KEPT)
        self._games_with_secrets = LRU(SECRETS_KEPT)  # game id -> True: one is kept

    # -- queries -----------------------------------------------------------------------
    def load(self, game_id: str, at: int | None = None) -> Table:
        return self.replayer.load(game_id, at=at)

    def verify(self, game_id: str) -> tuple[bool, int, str]:
        """Audit a game: the hash chain holds and the events fold from event 1."""
        ok, count, problem = self.store.verify(game_id)
        if ok and count:
            try:
                self.replayer.load(game_id, use_snapshot=False)
            except Exception as exc:  # any failure to fold is what an audit must report
                return False, count, f"the events do not fold: {type(exc).__name__}: {exc}"
        return ok, count, problem

    def seats(self, game_id: str) -> list[Seat]:
        return [Seat(**s) for s in self.store.get_json(game_id, "seats") or []]

    # -- commands ----------------------------------------------------------------------
    def create(self, kind: str, players: list[dict[str, str]],
               options: dict[str, Any] | None = None, actor: str = "system",
               platform: dict[str, Any] | None = None) -> Table:
        """Set up a new game; IllegalMove for a bad player count or bad options.

        ``platform``: settings of the platform, not the rules (time control, time-out
        policy, reminders: see events.clocks), kept in GameCreated's data."""
        try:
            game = registry.get(kind)
        except KeyError:
            raise IllegalMove(f"unknown game kind {kind!r}") from None
        n = len(players)
        if not game.min_players <= n <= game.max_players:
            raise IllegalMove(
                f"{game.name} takes {game.min_players}-{game.max_players} players, not {n}")
        opts = game.normalize_options(dict(options or {}), n)
        game_id = new_game_id()
        secret = secrets.token_bytes(32)
        names = [p["name"] for p in players]
        rng = RecordingRandom(seed_for(secret, 1))
        game.setup(list(names), copy.deepcopy(opts), rng)  # decided once, folded from tape
        self._keep_secret(game_id, secret)
        self.store.put_json(game_id, "seats", [
            {"seat": i, "name": p["name"], "email": p.get("email", ""),
             "tz": p.get("tz") or "UTC",
             **{k: p[k] for k in ("player", "quiet", "language") if p.get(k)}}
            for i, p in enumerate(players)])
        event = Event(version=1, type=ev.GAME_CREATED, actor=actor, tape=rng.tape, data={
            "kind": kind, "names": names, "options": opts, "commitment": commitment(secret),
            "rules_version": game.rules_version})
        if platform:
            event.data["platform"] = platform
        self.store.append(game_id, 0, event)
        return self.load(game_id)

    def play(self, game_id: str, seat: int, move: dict[str, Any],
             expected_version: int, same_turn: bool = False, auto: str | None = None) -> Event:
        """Decide and append one move (see :meth:`play_move`); the appended event."""
        return self.play_move(game_id, seat, move, expected_version, same_turn, auto)[0]

    def play_move(self, game_id: str, seat: int, move: dict[str, Any],
                  expected_version: int, same_turn: bool = False,
                  auto: str | None = None) -> tuple[Event, Table]:
        """Decide and append one move: the event and the table right after it (the
        caller may show the new position without reading it back).  ConflictError or
        IllegalMove on refusal; see :meth:`play_move_then`."""
        event, table, _ = self.play_move_then(game_id, seat, move, expected_version,
                                              same_turn, auto)
        return event, table

    def play_move_then(self, game_id: str, seat: int, move: dict[str, Any],
                       expected_version: int, same_turn: bool = False,
                       auto: str | None = None, table: Table | None = None,
                       then: Callable[[int], Sequence[tuple[Any, ...]]] | None = None,
                       writer: str | None = None,
                       ) -> tuple[Event, Table, list[Any] | None]:
        """Decide and append one move: ``(event, the table right after it, replies)``.

        ``table``: the latest table, if the caller just loaded it (e.g. in the round trip
        that checked its token: see :meth:`Replayer.load_along`); it is played on.  The
        expected-version check is the same either way, and the XADD's explicit id
        refuses the append if the log moved on since that load.  ``then(version)``: read
        commands sent with the append, in its round trip, right after it; their replies
        come back as ``replies``, or None if the move ended the game (the GameEnded is
        then appended after them, so whatever they read may predate it).

        The move is decided on the position at ``expected_version``: if the game moved
        on since, it is refused with ConflictError, unless everything after that version
        was passive (a reminder changes nothing you saw) or, with ``same_turn``, left
        ``seat``'s turn unbroken (see :meth:`turn_unchanged`; emailed act links use it).
        ``auto`` marks a move the service played for the seat (``"forced"``: its only
        move, see :mod:`worker.forced`; ``"timeout"`` or ``"bot"``: a late player's,
        see :mod:`worker.timeouts`); it is kept in the event's ``data``.  ``writer``:
        the append's writer token (see :meth:`recorded_move`).
        """
        table = table if table is not None else self.load(game_id)
        if table.version != expected_version:
            unchanged = (self.turn_unchanged(game_id, seat, expected_version, table.version)
                         if same_turn else
                         self._only_passive_since(game_id, expected_version, table.version))
            if not unchanged:
                raise ConflictError(table.version)
            expected_version = table.version
        event = self._decide(game_id, table, seat, move,
                             self._secret(game_id, table.commitment), auto)
        event, replies = self.store.append_then(
            game_id, expected_version, event, prev=table.head or None,
            then=then(expected_version + 1) if then else (), writer=writer)
        return event, table, self._after_move(game_id, table, event, replies)

    def recorded_move(self, game_id: str, seat: int, move: dict[str, Any],
                      expected_version: int, writer: str) -> Event | None:
        """The MovePlayed of ``seat``'s ``move`` that an append with ``writer`` (a
        :func:`events.store.keyed_writer_token`) made after ``expected_version``, if
        there is one: a retried request whose first try landed (its answer lost) finds
        it here, instead of a conflict with its own move."""
        event = self.store.written_by(game_id, expected_version, writer)
        if event is None or event.type != ev.MOVE_PLAYED or event.actor != seat_actor(seat) \
                or event.data.get("move") != move:
            return None
        return event

    def play_cached(self, game_id: str, seat: int, move: dict[str, Any],
                    expected_version: int, guard: tuple[str, str, str],
                    then: Callable[[int], Sequence[tuple[Any, ...]]] | None = None,
                    writer: str | None = None, answer: Callable[[Table], T] | None = None,
                    ) -> tuple[Event, Table, list[Any] | None, T | None] | None:
        """:meth:`play_move_then` in one round trip, when this process holds the table
        at ``expected_version`` (it loaded it last) and the game's secret: the move is
        decided on that table and appended by :func:`events.guarded.append_if`, only if
        ``guard`` holds (``(name of one of the game's hashes, field, value)``: the
        seat's token generation) and the log still ends at ``expected_version`` (the
        XADD's explicit id: the usual check).  None when that cannot be done (nothing
        cached, another version, an unknown secret, a move the rules refuse, or the log
        moved on): the caller then takes the usual path, which says why.  GuardFailed
        if the guard does not hold; nothing is appended then.

        ``answer(table)`` (e.g. the mover's new view) is made while Redis answers the
        append, on the table after the move, and returned last: None if it was not made
        (the move ended the game, which more writes follow; or it raised: the caller
        makes it again, where its error shows).  The table returned is the one the
        process's cache hands to readers: it is only to be read."""
        from events.guarded import appending_if

        held = self.replayer.cached_packed(game_id, expected_version)
        if held is None or not held[0].head:
            return None
        table, as_held = held
        secret = self._secrets.get(f"{game_id} {table.commitment}")
        if secret is None:
            return None
        try:
            event = self._decide(game_id, table, seat, move, secret,
                                 before=lambda: marshal.loads(as_held)["state"])
        except IllegalMove:
            return None  # refused on the usual path, after its token check
        made, packed = None, None
        try:
            with appending_if(self.store, game_id, expected_version, event, table.head,
                              guard, then(expected_version + 1) if then else (),
                              writer) as appending:
                # Meanwhile, what follows if the move lands: nothing here depends on the
                # answer, and a move that is refused drops it with its table.
                table.version, table.head = appending.sealed.version, appending.sealed.hash
                if table.outcome() is None:
                    packed = self.replayer.pack(table)
                    made = meanwhile(answer, table)
                event, replies = appending.result()
        except (ConflictError, redis.ResponseError):  # moved on, or a server without Lua
            return None  # nothing was appended: the script stops at its first error
        return (event, table, self._after_move(game_id, table, event, replies, packed,
                                               shared=True), made)

    def _after_move(self, game_id: str, table: Table, event: Event,
                    replies: list[Any], packed: bytes | None = None,
                    shared: bool = False) -> list[Any] | None:
        """Bring ``table`` (played on) to the appended ``event`` and end the game if the
        rules say so; ``replies``, or None if a GameEnded was appended after them.  The
        table is kept in the process's cache (the mover's next view, or the next
        mover's, then folds nothing), unless the game ended: its GameEnded reveals the
        secret, which a fold records.  ``packed``: the table, marshalled already;
        ``shared``: the cache may hand ``table`` itself to readers (see
        :meth:`Replayer.remember`)."""
        table.version, table.head = event.version, event.hash
        if table.outcome() is not None:
            ended = self.end_if_over(game_id)
            if ended is not None:
                table.version, table.head, table.ended = ended.version, ended.hash, True
            return None
        self.replayer.remember(table, packed, shared)
        return replies

    def _decide(self, game_id: str, table: Table, seat: int, move: dict[str, Any],
                secret: bytes, auto: str | None = None,
                before: Callable[[], State] | None = None) -> Event:
        """The MovePlayed of ``seat``'s ``move`` on ``table`` (played on in place), not
        yet appended; IllegalMove if the rules refuse it.  ``before``: makes a copy of
        ``table.state`` as it is now, from what the caller holds (else one is kept)."""
        expected_version = table.version
        if table.ended or table.outcome() is not None:
            raise IllegalMove("the game is over")
        if seat not in table.to_act():
            raise IllegalMove("it is not your turn")
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("a move is an object with a string 'type'")
        rng = RecordingRandom(seed_for(secret, expected_version + 1))
        # the state before the move for the take-back check, which needs it only for a
        # move that drew nothing: kept marshalled (about 40% of a JSON round trip's time;
        # format 2 writes no shared references) and decoded only then
        if before is None:
            packed = marshal.dumps(table.state, 2)
            before = lambda: marshal.loads(packed)  # noqa: E731
        try:
            table.game.apply(table.state, seat, copy.deepcopy(move), rng)
        except IllegalMove:
            raise
        except Exception as exc:  # a move of the wrong shape that the rules did not catch
            log.exception("%s rejected a move with %s: %r", table.kind, type(exc).__name__, move)
            raise IllegalMove("that move is not one of the legal moves") from exc
        final = final_reason(table.game, before, table.state, seat, move, rng.tape)
        data = {"seat": seat, "move": move, "final": final}
        if auto:
            data["auto"] = auto
        return Event(version=expected_version + 1, type=ev.MOVE_PLAYED,
                     actor=seat_actor(seat), data=data, tape=rng.tape)

    # -- undo by agreement ------------------------------------------------------------
    # Every decision below is made on the log as it stood at one version, and the event
    # it leads to is appended with that version as expected_version: a move appended
    # meanwhile makes the append fail instead of being erased by a Rewound.

    def pending_undo(self, game_id: str, at: int | None = None,
                     reader: int | None = None) -> dict[str, Any] | None:
        """The open take-back request at version ``at`` (default: now), if any:
        ``{"version", "seat", "to", "answers", "move"}``; ``move`` is the history line
        of the move it takes back, redacted for the seat ``reader`` (None: as a
        spectator reads it, which any seat may be shown).

        A request stays open until every other seat answers, someone refuses, or any
        event that changes the position is appended (then it no longer makes sense).
        """
        answers: dict[int, bool] = {}
        for event in self.store.backwards(game_id, end=at):
            if event.type == ev.UNDO_ANSWERED:
                answers.setdefault(event.data["seat"], event.data["accept"])
            elif event.type == ev.UNDO_REQUESTED:
                if any(a is False for a in answers.values()):
                    return None
                to = event.data["to"]
                table = self.load(game_id)
                move = self.store.read(game_id, to + 1, to + 1)
                return {"version": event.version, "seat": event.data["seat"],
                        "to": to, "answers": answers,
                        "move": history.describe(move[0], table.game, table.names, reader)
                        if move else None}
            elif event.type not in ev.PASSIVE:
                return None
        return None

    def _last_move(self, game_id: str, seat: int, at: int | None) -> Event | None:
        """``seat``'s move, if it is the position's last change as of version ``at``."""
        for event in self.store.backwards(game_id, end=at):
            if event.type in ev.PASSIVE:
                continue
            if event.type == ev.MOVE_PLAYED and event.data["seat"] == seat:
                return event
            return None
        return None

    def why_final(self, game_id: str, move: Event) -> str | None:
        """Why the move of event ``move`` cannot be taken back (None: it can).

        Recorded when the move was decided (``final``); for moves logged before that was
        recorded, worked out now from the states around it the same way."""
        if "final" in move.data:
            return move.data["final"]
        before = self.load(game_id, at=move.version - 1)
        after = self.load(game_id, at=move.version)
        return final_reason(before.game, lambda: before.state, after.state,
                            move.data["seat"], move.data["move"], move.tape)

    def can_take_back(self, game_id: str, seat: int) -> tuple[bool, str | None]:
        """Whether ``seat`` may ask to take back its last move now, and if not, why."""
        move = self._last_move(game_id, seat, None)
        if move is None:
            return False, None
        reason = self.why_final(game_id, move)
        return reason is None, reason

    def request_undo(self, game_id: str, seat: int) -> Event:
        """``seat`` asks to take back its last move; the others must all agree.

        Refused once the move drew randomness or showed hidden information (else a
        take-back would be a free re-roll or a free look), solo games included."""
        table = self.load(game_id)
        version = table.version
        if table.ended:
            raise IllegalMove("the game is over")
        if self.pending_undo(game_id, version):
            raise IllegalMove("a take-back request is already open")
        move = self._last_move(game_id, seat, version)
        if move is None:
            raise IllegalMove("you can only take back a move while it is the last one made")
        reason = self.why_final(game_id, move)
        if reason:
            raise IllegalMove(f"that move cannot be taken back: {reason}")
        to = move.version - 1
        event = self.record(game_id, ev.UNDO_REQUESTED, {"seat": seat, "to": to},
                            actor=seat_actor(seat), expected_version=version)
        if len(table.names) == 1:  # nobody else to ask
            return self.rewind(game_id, to, "take-back", seat_actor(seat),
                               expected_version=event.version)
        return event

    def answer_undo(self, game_id: str, seat: int, accept: bool) -> Event:
        """Another seat allows or refuses the open request; all allowed -> Rewound."""
        version = self.store.version(game_id)
        pending = self.pending_undo(game_id, version)
        if pending is None:
            raise IllegalMove("there is no open take-back request")
        if seat == pending["seat"] or seat in pending["answers"]:
            raise IllegalMove("you have nothing to answer here")
        event = self.record(game_id, ev.UNDO_ANSWERED, {"seat": seat, "accept": accept,
                                                        "request": pending["version"]},
                            actor=seat_actor(seat), expected_version=version)
        seats = self.store.get_json(game_id, "seats") or []
        others = set(range(len(seats) or len(self.load(game_id).names))) - {pending["seat"]}
        if accept and others <= set(pending["answers"]) | {seat}:
            return self._rewind_agreed(game_id, pending, event.version) or event
        return event

    def _rewind_agreed(self, game_id: str, pending: dict[str, Any],
                       since: int) -> Event | None:
        """Append the agreed Rewound on top of version ``since``, unless the position
        changed after it (a move made meanwhile closes the request: nothing is erased)."""
        for _ in range(20):  # passive events (a reminder) may land in between; bounded
            try:
                return self.rewind(game_id, pending["to"], "take-back agreed by every "
                                   "player", "players", expected_version=since)
            except ConflictError as exc:
                if not self._only_passive_since(game_id, since, exc.version):
                    return None
                since = exc.version
        return None

    def turn_unchanged(self, game_id: str, seat: int, since: int,
                       current: int | None = None) -> bool:
        """True if ``seat`` faces the same turn it faced at version ``since``.

        That is: ``seat`` was to act then and still is, and every event after ``since``
        is passive or a move by another seat that left ``seat`` to act throughout (the
        others' sealed choices in a simultaneous step).  An act link emailed at
        ``since`` may act exactly while this holds.
        """
        current = self.store.version(game_id) if current is None else current
        if not 1 <= since <= current:
            return False
        table = self.load(game_id, at=since)
        if seat not in table.to_act():
            return False
        for event in self.store.iter(game_id, since + 1, current):
            if event.type in ev.PASSIVE:
                continue
            if event.type != ev.MOVE_PLAYED or event.data["seat"] == seat:
                return False
            table = self.replayer.evolve(table, game_id, event)
            if seat not in table.to_act():
                return False
        return True

    def _only_passive_since(self, game_id: str, seen: int, current: int) -> bool:
        """True if every event after version ``seen`` leaves the rules' state alone."""
        if not 1 <= seen < current:
            return False
        return all(e.type in ev.PASSIVE for e in self.store.iter(game_id, seen + 1, current))

    def end_if_over(self, game_id: str) -> Event | None:
        """Append GameEnded (revealing the secret) once the rules have an outcome."""
        table = self.load(game_id)
        if table.ended:
            return None
        outcome = table.outcome()
        if outcome is None:
            return None
        try:
            return self.store.append(game_id, table.version, Event(
                version=table.version + 1, type=ev.GAME_ENDED, actor="system",
                data={"outcome": outcome,
                      "secret": self._secret(game_id, table.commitment).hex()}))
        except ConflictError:
            return None  # someone else appended first; the next check will see it

    def end_early(self, game_id: str, reason: str, expected_version: int,
                  seats: list[int] | None = None, by: str = "system",
                  detail: dict[str, Any] | None = None) -> Event:
        """Append GameEnded before the rules end the game: ``reason`` is "resigned",
        "forfeit", "abandoned" or "ended early", ``seats`` the players it concerns (who
        resigned or forfeited).  Decided on ``expected_version`` (ConflictError if the log
        moved on); IllegalMove if the game is already over.

        The result keeps the rules' public scores where the game has them (``detail``
        may carry ``scores`` and ``ranking`` the caller computed) and says why it ended;
        the seats it concerns rank last.
        """
        table = self.load(game_id)
        if table.version != expected_version:
            raise ConflictError(table.version)
        if table.ended:
            raise IllegalMove("the game is already over")
        seats = sorted(set(seats or []))
        detail = dict(detail or {})
        others = [s for s in range(len(table.names)) if s not in seats]
        ranking = detail.pop("ranking", None) or [others, *([seats] if seats else [])]
        outcome = {"scores": detail.pop("scores", {}), "ranking": ranking,
                   "tie_break": None, "ended": reason, "seats": seats, **detail}
        return self.store.append(game_id, table.version, Event(
            version=table.version + 1, type=ev.GAME_ENDED, actor=by,
            data={"outcome": outcome, "early": reason,
                  "secret": self._secret(game_id, table.commitment).hex()}))

    # -- resign and table votes (the rules: events.votes) --------------------------------
    def _decided_on(self, game_id: str, expected_version: int | None) -> Table:
        """The table now, if nothing a resignation or vote depends on changed since
        ``expected_version`` (None: the caller decides on what is there now)."""
        table = self.load(game_id)
        if expected_version is not None and expected_version != table.version and not (
                1 <= expected_version < table.version and votes.unchanged(
                    self.store.iter(game_id, expected_version + 1, table.version))):
            raise ConflictError(table.version)
        return table

    @staticmethod
    def _retrying(expected_version: int | None, decide: Callable[[], Event]) -> Event:
        """``decide()``, again if its append lost a race while the caller named no
        expected version (it committed to nothing, so deciding on the new log is right;
        bounded).  With an expected version the ConflictError is the answer."""
        for _ in range(4):
            try:
                return decide()
            except ConflictError:
                if expected_version is not None:
                    raise
        return decide()

    def resign(self, game_id: str, seat: int, expected_version: int | None = None) -> Event:
        """``seat`` resigns: one GameEnded (``early="resigned"``), the seat ranked last, the
        others by the rules' public scores if the game has them (see events.votes).
        ConflictError if the game changed since ``expected_version``; IllegalMove once
        the game is over (a second resignation included)."""
        def decide() -> Event:
            table = self._decided_on(game_id, expected_version)
            if table.ended:
                raise IllegalMove(self._over(table))
            scores = votes.provisional_scores(table.game, table.state)
            return self.end_early(game_id, "resigned", table.version, seats=[seat],
                                  by=seat_actor(seat),
                                  detail=votes.resign_detail(table.names, seat, scores))
        return self._retrying(expected_version, decide)

    def latest_vote(self, game_id: str, at: int | None = None) -> votes.Vote | None:
        """The latest vote as of version ``at`` (default: now), however it stands (its
        status says if it expired).  Read from its VoteCalled (the table keeps where it
        is), so it costs the same however long the game."""
        table = self.load(game_id, at)
        if not table.vote_from:
            return None
        return votes.latest_vote(self.store.read(game_id, table.vote_from, table.version))

    def vote(self, game_id: str, seat: int, kind: str, accept: bool,
             expected_version: int | None = None, now: datetime | None = None,
             hours: float = votes.VOTE_HOURS) -> Event:
        """``seat`` votes on ending the game: with no open vote, a yes calls one
        (VoteCalled); else it answers the open one (VoteCast).  The yes that makes the
        vote carry appends the GameEnded instead (abandon: no winner; end: the current
        public scores decide).  ``now`` is the time the vote is judged at and recorded
        with (expiry needs no job).  ConflictError if the votes or the game changed since
        ``expected_version``; IllegalMove with the reason otherwise."""
        if not 0 < hours <= votes.MAX_VOTE_HOURS:
            raise ValueError(f"a vote lasts from 0 to {votes.MAX_VOTE_HOURS} hours")
        now = now or datetime.now(UTC)

        def decide() -> Event:
            table = self._decided_on(game_id, expected_version)
            if table.ended:
                raise IllegalMove(self._over(table))
            n = len(table.names)
            step = votes.decide(self.latest_vote(game_id, table.version), seat, kind,
                                accept, n, now)
            if step.carries:
                yes = sorted({*(step.vote.yes() if step.vote else []), seat})
                scores = votes.provisional_scores(table.game, table.state) \
                    if kind == "end" else None
                return self.end_early(
                    game_id, votes.REASONS[kind], table.version, by=seat_actor(seat),
                    detail=votes.vote_detail(table.names, kind, yes,
                                             step.vote.version if step.vote else None,
                                             scores, now))
            if step.action == "call":
                type_, data = ev.VOTE_CALLED, votes.called(seat, kind, now, hours)
            else:
                type_, data = ev.VOTE_CAST, {"seat": seat, "accept": accept,
                                             "vote": step.vote.version, "kind": kind}
            return self.store.append(game_id, table.version, Event(
                version=table.version + 1, type=type_, actor=seat_actor(seat), data=data,
                at=votes.stamp(now)))
        return self._retrying(expected_version, decide)

    @staticmethod
    def _over(table: Table) -> str:
        line = votes.ended_line(table.outcome() or {}, table.names)
        return f"the game is already over{': ' + line if line else ''}"

    def rewind(self, game_id: str, to: int, reason: str, by: str,
               expected_version: int | None = None) -> Event:
        """Append Rewound{to}: play carries on from the state at version ``to``.

        If the game's secret has been revealed (it ended), play cannot go on with it:
        every later draw could be computed by anyone.  The Rewound then commits a new
        secret, revealed when the game ends again; the audit checks each epoch with its
        own secret."""
        table = self.load(game_id)
        if expected_version is not None and expected_version != table.version:
            raise ConflictError(table.version)
        if not 1 <= to < table.version:
            raise IllegalMove(f"can only rewind to a version between 1 and {table.version - 1}")
        data: dict[str, Any] = {"to": to, "reason": reason, "by": by}
        if self._revealed(table):
            secret = secrets.token_bytes(32)
            self._keep_secret(game_id, secret)  # unused if the append below fails: harmless
            data["commitment"] = commitment(secret)
        return self.store.append(game_id, table.version, Event(
            version=table.version + 1, type=ev.REWOUND, actor=by, data=data))

    @staticmethod
    def _revealed(table: Table) -> bool:
        """The secret in force has been revealed (by a GameEnded)."""
        return any(commitment(bytes.fromhex(s)) == table.commitment
                   for s in table.revealed_secrets)

    def migrate(self, game_id: str, to: str, by: str,
                expected_version: int | None = None) -> Event:
        """Append RulesMigrated: from now on the game plays rules ``to`` (the state as it
        is, brought over by the game's ``migrate``).  See events.refold for what the new
        rules would have made of the moves so far."""
        table = self.load(game_id)
        if expected_version is not None and expected_version != table.version:
            raise ConflictError(table.version)
        if table.ended:
            raise IllegalMove("the game is over")
        versions = registry.get(table.kind).rules_versions
        if to not in versions:
            raise IllegalMove(f"{table.game.name} has no rules version {to!r} "
                              f"(this code plays {', '.join(versions)})")
        if to == table.rules_version:
            raise IllegalMove(f"the game already plays rules {to}")
        return self.store.append(game_id, table.version, Event(
            version=table.version + 1, type=ev.RULES_MIGRATED, actor=by,
            data={"from": table.rules_version, "to": to, "by": by}))

    def fork(self, game_id: str, at: int, by: str) -> str:
        """Copy events 1..at into a new game (same hash chain) and append Forked."""
        last = self.store.version(game_id)
        if not 1 <= at <= last:
            raise IllegalMove(f"can only fork at a version between 1 and {last}")
        new_id = new_game_id()
        secret = secrets.token_bytes(32)
        self._keep_secret(new_id, secret)
        self.store.put_json(new_id, "seats", self.store.get_json(game_id, "seats"))
        for event in self.store.iter(game_id, 1, at, raw=True):
            self.store.append(new_id, event.version - 1, event)
        self.store.append(new_id, at, Event(
            version=at + 1, type=ev.FORKED, actor=by,
            data={"from": game_id, "at": at, "by": by, "commitment": commitment(secret)}))
        return new_id

    def record(self, game_id: str, type_: str, data: dict[str, Any], actor: str = "system",
               expected_version: int | None = None) -> Event:
        """Append a platform event that does not change the rules' state."""
        version = self.store.version(game_id) if expected_version is None else expected_version
        return self.store.append(game_id, version, Event(
            version=version + 1, type=type_, actor=actor, data=data))

    # -- secrets -----------------------------------------------------------------------
    # One secret per epoch (a game, a fork, a rewind after the reveal), kept by its
    # commitment, so a new epoch can never overwrite the secret that is in force.

    def _keep_secret(self, game_id: str, secret: bytes) -> None:
        self.store.redis.hset(key(game_id, "secrets"), commitment(secret), secret.hex())
        self._remember_secret(game_id, secret)  # its first move need not read it back

    def _remember_secret(self, game_id: str, secret: bytes) -> None:
        self._secrets[f"{game_id} {commitment(secret)}"] = secret
        self._games_with_secrets[game_id] = True

    def secrets_command(self, game_id: str) -> tuple[str, str] | None:
        """The command reading the game's secrets if this process holds none of them
        yet (None: it does), for the pipeline of a load that a move will follow; its
        reply goes to :meth:`keep_secrets`."""
        if self._games_with_secrets.get(game_id):
            return None
        return ("HGETALL", key(game_id, "secrets"))

    def keep_secrets(self, game_id: str, reply: Any) -> None:
        """Keep the secrets a :meth:`secrets_command` read (each checked against its
        commitment; anything else is ignored, and read again when needed)."""
        if not isinstance(reply, dict):
            return
        for committed, found in reply.items():
            try:
                secret = bytes.fromhex(found)
            except (TypeError, ValueError):
                continue
            if commitment(secret) == committed:
                self._remember_secret(game_id, secret)

    def _secret(self, game_id: str, committed: str | None = None) -> bytes:
        """The secret behind ``committed`` (default: the commitment in force now)."""
        if committed is None:
            committed = self.load(game_id).commitment
        kept = self._secrets.get(f"{game_id} {committed}")
        if kept is not None:
            return kept
        found = self.store.redis.hget(key(game_id, "secrets"), committed)
        if found is None:  # games created before secrets were kept by commitment
            found = self.store.redis.get(key(game_id, "secret"))
        if found is None or commitment(bytes.fromhex(found)) != committed:
            raise RuntimeError(f"the secret of game {game_id} is missing")
        secret = bytes.fromhex(found)
        self._remember_secret(game_id, secret)
        return secret


def final_reason(game: Game, before: Callable[[], State], after: State, seat: int,
                 move: dict[str, Any], tape: list[int]) -> str | None:
    """Why a move can never be taken back, or None.  A move that drew randomness would
    be drawn again differently (a free re-roll); a move that showed hidden information
    would be made again knowing it (a free look).  ``before()`` gives the state before
    the move, asked for only when the tape does not settle it."""
    if tape:
        return "it drew at random (cards, dice or a shuffle)"
    return game.reveals(before(), after, seat, move)
