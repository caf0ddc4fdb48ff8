"""Forced moves: a seat whose only legal move is safe to play without asking gets it
played for it by the worker, marked in the history ("Played for Ann: the only move").

A move is played for a seat only if all of these hold:

* it is the seat's one legal move now;
* the game says it is safe (``Game.forced_move_safe``: it chooses nothing hidden and
  shows nobody anything);
* applied on a copy of the state, it drew no randomness (empty tape) and the game's
  ``reveals`` finds nothing it showed: a guard at run time, whatever the game says;
* the player did not turn this off for the seat (the per-seat setting on their personal
  page, kept in the game's hash ``forced-off``: seat -> "1" off, "0" on); a seat with
  no setting of its own follows its player's default (their settings page), else on.

Each move is decided on the version it was read at (``expected_version``), so a player
or another worker moving meanwhile makes the append fail and nothing is played twice;
at most ``MAX_PER_RUN`` are played per projection run, and the next run goes on, up to
``MAX_STREAK`` in a row (see :func:`should_go_on`).
"""

from __future__ import annotations

import copy
import json
import logging

from events.replay import Table
from events.store import LRU, ConflictError, key
from games import registry
from games.protocol import Game, IllegalMove, Move
from games.rng import RecordingRandom
from worker import players
from worker.runtime import Runtime

log = logging.getLogger(__name__)

MAX_PER_RUN = 50
# Forced moves in a row, with nobody choosing anything, after which the worker stops asking
# for another run (a game whose rules loop on only-moves would otherwise keep a worker
# busy for ever); logged, the game then waits for a person like any other.
MAX_STREAK = 4 * MAX_PER_RUN
AUTO = "forced"  # the MovePlayed's data.auto
OFF = "forced-off"  # per game: seat -> "1" where the player turned forced moves off
_KINDS = LRU(4096)  # game id -> kind (it never changes), so unsupported kinds load nothing


def is_on(client, game_id: str, seat: int) -> bool:
    """Whether forced moves are played for ``seat``."""
    return seat not in off_seats(client, game_id)


def off_seats(client, game_id: str) -> set[int]:
    """The seats of ``game_id`` whose forced moves are not played: turned off for the
    seat, or, with no setting of the seat's own, by its player's default."""
    chosen = client.hgetall(key(game_id, OFF))
    off = {int(s) for s, v in chosen.items() if v == "1"}
    raw = client.get(key(game_id, "seats"))
    for info in json.loads(raw) if raw else []:
        if str(info.get("seat")) not in chosen:
            pid = players.seat_player(client, info)
            if pid and not players.prefs(client, pid)["forced"]:
                off.add(int(info["seat"]))
    return off


def set_on(client, game_id: str, seat: int, on: bool) -> None:
    """Turn forced moves on or off for ``seat`` (its own setting: the player's default
    no longer applies to it)."""
    client.hset(key(game_id, OFF), str(seat), "0" if on else "1")


def supports(game: Game) -> bool:
    """Whether the game marks any move safe (no forced-move types and the protocol's
    check: none)."""
    return bool(game.forced_move_types) \
        or type(game).forced_move_safe is not Game.forced_move_safe


def forced_move(table: Table, seat: int) -> Move | None:
    """``seat``'s only legal move if it may be played for them now, else None."""
    game, state = table.game, table.state
    if not supports(game) or seat not in table.to_act():
        return None
    moves = game.legal_moves(state, seat)
    if len(moves) != 1 or not game.forced_move_safe(state, seat, moves[0]):
        return None
    move = moves[0]
    after = copy.deepcopy(state)
    probe = RecordingRandom(b"forced-move-probe")  # any seed: only "drew or not" counts
    try:
        game.apply(after, seat, copy.deepcopy(move), probe)
    except IllegalMove:
        return None
    if probe.tape or game.reveals(state, after, seat, move) is not None:
        log.warning("%s marked %r safe for seat %s, but it draws or reveals: not played",
                    table.kind, move, seat)
        return None
    return move


def pending(client, table: Table, seat: int) -> Move | None:
    """The move the worker is about to play for ``seat`` (its only one, safe to play, and
    forced moves on for the seat), else None: the page and the API say so rather than
    offer a form that would be out of date before it could be sent."""
    move = forced_move(table, seat)
    if move is None or not is_on(client, table.game_id, seat):
        return None
    return move


def play_forced(rt: Runtime, game_id: str, budget: int = MAX_PER_RUN) -> int:
    """Play the forced moves due in ``game_id`` now, at most ``budget``; how many."""
    kind = _KINDS.get(game_id)
    if kind is not None and not supports(registry.get(kind)):
        return 0  # most projections: a kind that marks nothing safe, known without a load
    played = 0
    off = None
    while played < budget:
        table = rt.games.load(game_id)
        _KINDS[game_id] = table.kind
        if table.ended or not supports(table.game) or table.outcome() is not None:
            break
        if off is None:
            off = off_seats(rt.redis, game_id)
        found = None
        for seat in sorted(table.to_act()):
            if seat not in off:
                move = forced_move(table, seat)
                if move is not None:
                    found = (seat, move)
                    break
        if found is None or (played == 0 and _runaway(rt, game_id)):
            break
        try:
            rt.games.play(game_id, found[0], found[1], table.version, auto=AUTO)
        except (ConflictError, IllegalMove):
            break  # the game moved meanwhile: its next projection looks again
        played += 1
    return played



def _runaway(rt: Runtime, game_id: str) -> bool:
    """Whether the last ``MAX_STREAK`` events are all forced moves (one short read when
    the last one is not)."""
    def forced_move(e) -> bool:
        return e.type == "MovePlayed" and e.data.get("auto") == AUTO
    last = rt.store.latest(game_id, 1)
    if not last or not forced_move(last[0]):
        return False
    recent = rt.store.latest(game_id, MAX_STREAK)
    if len(recent) == MAX_STREAK and all(forced_move(e) for e in recent):
        log.error("game %s: %s forced moves in a row; no more are played for it until "
                  "someone moves", game_id, MAX_STREAK)
        return True
    return False


def should_go_on(rt: Runtime, game_id: str) -> bool:
    """After a run used its whole budget: whether to ask for another run (not once the
    game has had ``MAX_STREAK`` forced moves in a row: a loop of only-moves)."""
    return not _runaway(rt, game_id)
