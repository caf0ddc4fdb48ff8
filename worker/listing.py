"""A player's games in one list, most urgent first: the my-games page and the digest."""

from __future__ import annotations

import json
from typing import Any

from events.clocks import ClockFold, span
from events.picture import local_time
from events.store import key
from worker.clocks import CLOCK_KEY  # the clocks read model
from worker.links import generation_of
from worker.players import games_of

MAX_LISTED = 200  # games on one page or digest, most urgent first


def _fork(found: dict[str, Any] | None, index: dict[str, Any]) -> dict[str, Any] | None:
    """``{"at", "from", "yours"}`` for a fork (``yours``: the player sits in the original
    too, listed beside it), else None."""
    if not found or "from" not in found:
        return None
    return {"at": found["at"], "from": found["from"], "yours": found["from"] in index}


def listing(rt, pid: str, tz: str | None = None,
            language: str = "en") -> list[dict[str, Any]]:
    """The player's games, most urgent first: their turn (nearest deadline first; no
    deadline after those), then the others' turns, then finished games (each group's
    ties: latest activity first).  Each row: ``game_id``, ``name``, ``names``, ``seats`` (theirs),
    ``waiting_for`` (names), ``your_turn``, ``deadline`` (ISO) and ``deadline_text`` (in
    ``tz``, else the seat's zone, and ``language``), ``clock`` (what else the turn's read
    model holds), ``ended``, ``play_url``, ``updated``, ``fork`` (for a fork: where it
    was copied from)."""
    index = games_of(rt.redis, pid)
    ids = list(index)
    pipe = rt.redis.pipeline(transaction=False)
    for game_id in ids:
        pipe.get(key(game_id, "summary"))
        pipe.hgetall(key(game_id, "awaiting"))
        pipe.get(key(game_id, "seats"))
        pipe.get(key(game_id, CLOCK_KEY))
        pipe.hgetall(key(game_id, "api-gen"))
        pipe.get(key(game_id, "forked_from"))  # kept by events.history.forked_from
        pipe.get(key(game_id, "archived"))  # an archived game's entry keeps what is listed
    replies = pipe.execute()
    now = rt.now().timestamp()
    rows = []
    for i, game_id in enumerate(ids):
        summary_raw, awaiting_raw, seats_raw, clock_raw, gens, fork_raw, archived = \
            replies[7 * i:7 * i + 7]
        if not summary_raw and archived:  # out of Redis (events/archive.py)
            kept = json.loads(archived)
            summary_raw = json.dumps(kept["summary"]) if kept.get("summary") else None
        if not summary_raw:
            continue  # not projected yet (or gone)
        summary = json.loads(summary_raw)
        seats = json.loads(seats_raw) if seats_raw else []
        mine = index[game_id]
        awaiting = {int(s): json.loads(v) for s, v in awaiting_raw.items()}
        turns = [awaiting[s] for s in mine if s in awaiting and not summary["ended"]]
        deadlines = sorted(t["deadline"] for t in turns if t.get("deadline"))
        seat_tz = next((seats[s].get("tz") for s in mine if s < len(seats)), None)
        clock = {k: v for t in turns for k, v in t.items() if k not in ("version", "deadline")}
        names = summary.get("names") or []
        rows.append({
            "game_id": game_id, "name": summary.get("name", game_id), "names": names,
            "seats": mine, "your_names": [names[s] for s in mine if s < len(names)],
            "waiting_for": [names[s] for s in summary.get("to_act", []) if s < len(names)],
            "your_turn": bool(turns), "deadline": deadlines[0] if deadlines else None,
            "deadline_text": local_time(deadlines[0], tz or seat_tz, language)
            if deadlines else None,
            "since": min((t["version"] for t in turns), default=None), "clock": clock,
            "ended": bool(summary["ended"]), "updated": summary.get("updated", ""),
            "fork": _fork(json.loads(fork_raw) if fork_raw else None, index),
            "play_url": rt.url("/play/" + rt.links.make(
                game_id, mine[0], "play", generation=generation_of(gens.get(str(mine[0]))))),
            **(clock_row(json.loads(clock_raw), mine, now)
               if clock_raw and not summary["ended"] else {}),
        })
    rows.sort(key=lambda r: r["updated"], reverse=True)  # within a group: latest first
    rows.sort(key=lambda r: (0 if r["your_turn"] else 2 if r["ended"] else 1,
                             r["deadline"] or "~" if r["your_turn"] else ""))
    return rows[:MAX_LISTED]


def clock_row(state: dict[str, Any], seats: list[int], now: float) -> dict[str, Any]:
    """What the listing shows of the player's clock in a game (from the clocks read
    model): ``out_of_time`` (a seat of theirs timed out on its turn) and, for a banked
    clock, ``bank_text``, the time left on it (running or not)."""
    clocks = ClockFold(state)
    if clocks.kind == "none" or not clocks.s["seats"]:
        return {}
    mine = [clocks.seat_clock(s, now) for s in seats if s < len(clocks.s["seats"])]
    out: dict[str, Any] = {"out_of_time": any(c.timed_out for c in mine)}
    if clocks.kind == "bank" and mine:
        left = clocks.seconds_left(now)
        out["bank_text"] = span(min(left[c.seat] for c in mine))
    return out
