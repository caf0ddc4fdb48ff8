"""Firing time-outs and reminders, and what a time-out does (the game's policy).

Everything here is decided on the log: :func:`worker.clocks.clocks_of` folds the game's
events into its clocks (:mod:`events.clocks`), :func:`check_game` asks what is due at the
runtime's ``now`` and appends the one event it calls for with the version it folded as the
expected version.  So a time-out is recorded once per (turn, seat) however many jobs,
sweeps and restarted workers fire it: a second firing folds the first one's ``TimedOut``
and finds nothing due, and a firing racing a move (or another firing) fails its append and
looks again.  (The clocks' folds, their read model and the jobs that fire them are
:mod:`worker.clocks`, whose names are also here.)

Policies (GameCreated ``platform.on_timeout``), after ``TimedOut{seat, turn, policy}``:

- ``wait``: nothing more; everyone is told (as before time controls).
- ``skip``: the rules' pass (``Game.pass_move``) is played for the seat; a game without
  one falls back to ``wait``, and the TimedOut says so (``no_pass``).
- ``auto``: the game's stand-in move (``Game.stand_in_move``) is played for the seat.
- ``bot``: as ``auto``; after ``bot_after`` time-outs in a row, ``BotSeated`` and the
  stand-in plays every turn of that seat, until the player's own move or an "I'm back"
  (both end it with ``BotUnseated``).
- ``forfeit``: the game ends (``GameService.end_early(..., "forfeit")``), the seat last.

A move played for a seat is a MovePlayed appended by ``system`` with ``data.auto`` =
``"timeout"`` or ``"bot"``; the take-back rules apply to it as to any move.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events import envelope as ev
from events import votes
from events.clocks import ClockFold
from events.store import ConflictError, key
from games.protocol import IllegalMove
from worker import due
from worker import notify as mail
from worker.clocks import CLOCK_KEY, clocks_of, full_fold, schedule
from worker.clocks import LATE as LATE
from worker.clocks import legacy_hours as legacy_hours
from worker.clocks import read_model as read_model
from worker.clocks import store_read_model as store_read_model
from worker.held import HELD, SKIPPED
from worker.projection import request_projection
from worker.runtime import Runtime

log = logging.getLogger(__name__)

MAX_STEPS = 50  # events one check may append (a bot playing a long turn of free actions)
RETRY_BROKEN = 3600.0  # a game whose stand-in cannot move is looked at again in an hour


def check_game(rt: Runtime, game_id: str) -> list[str]:
    """Do whatever the game's clocks call for at ``rt.now()``; the events appended."""
    done: list[str] = []
    clocks = None
    for _ in range(MAX_STEPS):
        clocks = clocks_of(rt, game_id)
        actions = clocks.actions(rt.now().timestamp())
        if not actions:
            break
        try:
            appended = perform(rt, game_id, clocks, actions[0])
        except ConflictError:
            continue  # the log moved on while deciding: decide again on the new one
        except IllegalMove as exc:
            log.error("game %s: %s for seat %s failed: %s", game_id, actions[0]["do"],
                      actions[0]["seat"], exc.reason)
            due.set_due(rt.redis, game_id, rt.now().timestamp() + RETRY_BROKEN)
            return done
        done.append(appended)
    if clocks is not None:
        if done:
            clocks = clocks_of(rt, game_id)
        due.set_due(rt.redis, game_id, clocks.next_due())
    if done:
        request_projection(rt.enqueuer, game_id, rt.store.version(game_id))
    return done


def perform(rt: Runtime, game_id: str, clocks: ClockFold, action: dict[str, Any]) -> str:
    """Append the event ``action`` calls for, on ``clocks.version``; its type."""
    seat, version, what = action["seat"], clocks.version, action["do"]
    games = rt.games
    if what == "time_out":
        policy = action["policy"]
        data: dict[str, Any] = {"seat": seat, "turn": action["turn"], "policy": policy}
        if policy == "skip":
            table = games.load(game_id, at=version)
            if table.game.pass_move(table.state, seat) is None:
                data.update(policy="wait", no_pass=True)
        # everyone is emailed by the projection of this event (a pending notice each,
        # so a crash right after the append loses no email)
        games.record(game_id, ev.TIMED_OUT, data, expected_version=version)
        return ev.TIMED_OUT
    if what == "remind":
        outcome = _remind(rt, game_id, action["turn"], seat, action["which"])
        games.record(game_id, ev.REMINDER_SENT, {
            "seat": seat, "turn": action["turn"], "which": action["which"],
            "covers": action["covers"], "outcome": outcome}, expected_version=version)
        return ev.REMINDER_SENT
    if what == "play":
        table = games.load(game_id, at=version)
        move = (table.game.pass_move(table.state, seat) if action.get("pass")
                else table.game.stand_in_move(table.state, seat))
        if move is None:
            raise IllegalMove("the game has no pass now")
        games.play_move(game_id, seat, move, version, auto=action["auto"])
        return ev.MOVE_PLAYED
    if what == "seat_bot":
        games.record(game_id, ev.BOT_SEATED, {"seat": seat, "after": clocks.settings[
            "bot_after"]}, expected_version=version)
        return ev.BOT_SEATED
    if what == "unseat":
        games.record(game_id, ev.BOT_UNSEATED, {"seat": seat, "reason": "moved"},
                     expected_version=version)
        return ev.BOT_UNSEATED
    if what == "forfeit":  # ranked as a resignation is (events.votes)
        table = games.load(game_id, at=version)
        scores = votes.provisional_scores(table.game, table.state)
        games.end_early(game_id, "forfeit", version, seats=[seat],
                        detail=votes.resign_detail(table.names, seat, scores))
        return ev.GAME_ENDED
    raise ValueError(f"unknown clock action {what!r}")


def _remind(rt: Runtime, game_id: str, turn: int, seat: int, which: str) -> str:
    """Send (or hand to the quiet hours) one reminder; what became of it: "sent",
    "skipped" (the player looked at the game within the hour), "held" (quiet hours:
    sent when they end, see worker.held), "none" (no email: muted, no address) or
    "failed"."""
    try:
        sent = mail.send_turn(rt, game_id, turn, seat, reminder=True, which=which)
    except (RedisConnectionError, RedisTimeoutError):
        raise
    except Exception:  # a reminder is best effort: it must not hold up a time-out
        log.warning("the %s reminder of game %s to seat %s failed", which, game_id, seat,
                    exc_info=True)
        return "failed"
    if sent:
        return "sent"
    if rt.redis.zscore(HELD, f"{game_id}|{turn}|{seat}|remind") is not None:
        return "held"
    marker = key(game_id, f"mailed:remind-{which}:{turn}:{seat}")  # as notify names it
    # "sent": a run that died (or lost its append to a race) after sending it
    return {SKIPPED: "skipped", "sent": "sent"}.get(rt.redis.get(marker) or "", "none")


def back(rt: Runtime, game_id: str, seat: int) -> Any:
    """"I'm back": end the stand-in's hold on ``seat`` (IllegalMove if it has none)."""
    for _ in range(5):
        clocks = clocks_of(rt, game_id)
        if not clocks.s["seats"][seat]["bot"]:
            raise IllegalMove("no stand-in plays for you in this game")
        try:
            return rt.games.record(game_id, ev.BOT_UNSEATED,
                                   {"seat": seat, "reason": "back"},
                                   expected_version=clocks.version)
        except ConflictError:
            continue
    raise ConflictError(rt.store.version(game_id))


def index_game(rt: Runtime, game_id: str) -> None:
    """Put a game the projection never folded clocks for (it was waiting when time controls
    shipped) into the due-time index and schedule its jobs; nothing if it has a clocks read
    model already (the projection indexed it)."""
    if rt.redis.exists(key(game_id, CLOCK_KEY)):
        return
    clocks = full_fold(rt, game_id)
    if not clocks.version:
        return
    # nx: a projection that wrote a newer read model meanwhile wins
    rt.redis.set(key(game_id, CLOCK_KEY), json.dumps(clocks.s), nx=True)
    if clocks.kind != "none" or any(s["bot"] or s["unseat"] for s in clocks.s["seats"]):
        due.set_due(rt.redis, game_id, clocks.next_due())
        schedule(rt, game_id, clocks)


CATCH_UP_FOLDS = 20  # games folded from event 1 per sweep by the catch-up


def catch_up(rt: Runtime) -> int:
    """The sweep's step of indexing the games waiting since before the due-time index:
    one pipelined look at a batch of games, a whole fold for at most ``CATCH_UP_FOLDS``
    of those without a clocks read model."""
    def oldest_first(offset: int, limit: int) -> list[str]:
        return rt.store.game_ids(offset, limit, newest_first=False)

    def index(ids: list[str]) -> int:
        pipe = rt.redis.pipeline(transaction=False)
        for game_id in ids:  # an archived game (events/archive.py) is at rest: no clocks
            pipe.exists(key(game_id, CLOCK_KEY), key(game_id, "archived"))
        folds = 0
        for n, (game_id, has_clocks) in enumerate(zip(ids, pipe.execute(), strict=True)):
            if has_clocks:
                continue
            if folds == CATCH_UP_FOLDS:
                return n  # the budget is spent: the next sweep starts at this game
            folds += 1
            try:
                index_game(rt, game_id)
            except (RedisConnectionError, RedisTimeoutError):
                raise
            except Exception:  # one broken game must not stop the others' catch-up
                log.exception("catch-up: the clocks of %s failed", game_id)
        return len(ids)
    return due.catch_up(rt.redis, oldest_first, index)
