"""A JSON webhook channel (``json://``, tests/webhook_standin.py) receives each turn notice
exactly once while the `ravenpost worker` is killed with SIGKILL again and again.

Bots play a few games against a real worker; each seat moves only once its webhook has
had the notice of its turn (as a player would), so every turn is notified (none passes
before its notice), except a turn that follows the seat's own move (the last ante of the
simultaneous step, when the rules await that seat again): the player is on the page, no
notice is owed, and the bot goes on at once.  Meanwhile the worker (its whole process
group: worker and scheduler) is killed at random moments and started again.  Then the
bots stop, and once nothing is owed any more every turn notice the games' logs call for,
and the game-over notice of each game that ended, must have reached the webhook once:
none missing, none twice.

The one duplicate the design owns up to (worker/channels.py, as for email): a worker
killed after the webhook read the notice and before the ``sent`` marker was written.
The job after it finds ``sending:`` and records the marker in ``channels.UNCERTAIN``; a
second copy is accepted only for such a notice, and the figures say whether any came.
Set ``CHANNELS_KILL_SEED`` to replay a run's kill times.
"""

from __future__ import annotations

import collections
import os
import random
import re
import time

import pytest
import redis

from events import envelope as ev
from tests.integration.test_worker_crash import kill_all, start_worker
from tests.support import TEST_DEFAULTS
from tests.webhook_standin import WebhookStandIn
from worker import channels, jobs, players
from worker.projection import pending_notices
from worker.runtime import Runtime

pytestmark = pytest.mark.integration

SECRET = "a-test-secret-of-more-than-32-bytes!"
GAMES = 4
OPTIONS = {"target": 150, "copies": 8}  # some seventy moves a game
KILLS = int(os.environ.get("CHANNELS_KILLS") or 5)
BETWEEN_KILLS = (1.0, 4.0)  # seconds from a start to the next kill, drawn at random
PLAY_SECONDS = 25  # the bots play this long at most (and until every kill is made)
SETTLE_SECONDS = 150  # then everything owed must be out within this (a minute, as a rule)


NOTICE = re.compile(r"^/hook/(\d+)/(\d+)$")
SINCE = re.compile(r"\(since move (\d+)\)")


def received(hook: WebhookStandIn) -> list[tuple[int, int, str, int]]:
    """``(game index, seat, kind, version)`` of every POST the webhook had, in order."""
    out = []
    for post in hook.posts:
        game, seat = (int(x) for x in NOTICE.match(post.path).groups())
        title, message = post.body["title"], post.body["message"]
        if title.startswith("Game over"):
            out.append((game, seat, "ended", 0))
        elif title.startswith("You are invited"):
            out.append((game, seat, "turn", 1))
        else:
            out.append((game, seat, "turn", int(SINCE.search(message).group(1))))
    return out


def turns_of(rt: Runtime, game_id: str) -> list[tuple[int, int]]:
    """``(seat, version)`` of every turn the game's log holds, folded as the projection
    folds it (a new turn for a seat that comes to be awaited; a seat awaited again right
    after its own move begins a new turn but gets no notice)."""
    out: list[tuple[int, int]] = []
    awaiting: set[int] = set()
    last = rt.store.version(game_id)
    for event in rt.store.read(game_id):
        if event.version > last:
            break
        to_act = rt.games.load(game_id, at=event.version).to_act()
        awaiting &= to_act
        if event.type == ev.GAME_CREATED:
            n = len(rt.games.load(game_id, at=1).names)
            out += [(seat, 1) for seat in range(n)]
        else:
            out += [(seat, event.version) for seat in sorted(to_act - awaiting)]
        awaiting |= to_act
    return out


def state_of(client: redis.Redis, games: list[str]) -> str:
    """What Redis holds about the games' notices (printed when one is missing)."""
    lines = []
    for game_id in games:
        last = client.xrevrange(f"rp:{{g:{game_id}}}:log", count=1)[0][0]
        lines.append(f"game {game_id}: log {last} "
                     f"projected {client.get(f'rp:{{g:{game_id}}}:projected')}")
        for name in ("awaiting", "pending", channels.PENDING):
            lines.append(f"  {name}: {client.hgetall(f'rp:{{g:{game_id}}}:{name}')}")
        for name in sorted(client.scan_iter(f"rp:{{g:{game_id}}}:*")):
            if ":chan:" in name or ":mailed:" in name or name.endswith("lease"):
                lines.append(f"  {name} = {client.get(name)} (ttl {client.ttl(name)})")
    for name in sorted(client.scan_iter("rq:job:*")):
        lines.append(f"{name}: {client.hget(name, 'status')}")
    for name in ("rq:queue:ravenpost", "rq:queue:ravenpost-mail"):
        lines.append(f"{name}: {client.lrange(name, 0, -1)}")
    lines.append(f"sweeps: {client.get(jobs.SWEEP_RUNS)}")
    from worker.projection import superseded_total
    lines.append(f"superseded: {superseded_total(client)}")
    for name in client.scan_iter("rq:failed:*"):
        lines.append(f"{name}: {client.zrange(name, 0, -1)}")
    for name in client.scan_iter("rq:results:*"):
        lines.append(f"{name}: {client.xrange(name)}")
    return "\n".join(lines)


def settled(rt: Runtime, games: list[str]) -> bool:
    """Whether nothing is owed any more: every game projected, no email notice and no
    channel notice pending, no channel send under way."""
    return all(int(rt.redis.get(f"rp:{{g:{g}}}:projected") or 0) == rt.store.version(g)
               for g in games) \
        and not pending_notices(rt) and not channels.pending(rt) \
        and not any(rt.redis.scan_iter("rp:{g:*}:chan:*:lease"))


def test_a_json_webhook_gets_each_turn_notice_exactly_once_across_kill9s(
        real_redis, real_redis_url, tmp_path):
    seed = int(os.environ.get("CHANNELS_KILL_SEED") or random.randrange(1 << 30))
    rng = random.Random(seed)
    print(f"CHANNELS_KILL_SEED={seed}")
    config = {**TEST_DEFAULTS, "SECRET_KEY": SECRET, "MAIL_BACKEND": "outbox",
              "BASE_URL": "http://localhost"}
    rt = Runtime(config, real_redis, rq_redis=redis.Redis.from_url(real_redis_url))
    log = tmp_path / "worker.log"
    worker = None
    with WebhookStandIn() as hook:
        games = []
        for g in range(GAMES):
            seats = []
            for seat, name in enumerate(("Ada", "Bo")):
                email = f"{name.lower()}{g}@example.com"
                pid = players.player_id(real_redis, email)
                players.save_prefs(real_redis, pid,
                                   channels=[hook.channel(f"/hook/{g}/{seat}")])
                seats.append({"name": name, "email": email, "player": pid})
            games.append(rt.games.create("test-race", seats, dict(OPTIONS)).game_id)
        try:
            worker = start_worker(real_redis_url, log, SECRET_KEY=SECRET, QUIET_HOURS="off")
            for game_id in games:
                jobs.request_projection(rt.enqueuer, game_id, 1)
            started = time.monotonic()
            moved = {(g, s): 0 for g in range(GAMES) for s in (0, 1)}  # version of last move
            moves = kills = 0
            next_kill = started + rng.uniform(*BETWEEN_KILLS)
            while time.monotonic() - started < PLAY_SECONDS or kills < KILLS:
                notices = received(hook)
                for g, game_id in enumerate(games):
                    table = rt.games.load(game_id)
                    for seat in sorted(table.to_act()) if not table.ended else ():
                        told = [v for (gg, s, kind, v) in notices
                                if gg == g and s == seat and kind == "turn"]
                        if moved[(g, seat)] != table.version and (
                                not told or max(told) <= moved[(g, seat)]):
                            continue  # its notice has not come yet: the player waits
                        # (a seat awaited again right after its own move is on the page
                        # and gets no notice: it goes on at once)
                        move = table.game.legal_moves(table.state, seat)[0]
                        event = rt.games.play(game_id, seat, move, table.version)
                        jobs.request_projection(rt.enqueuer, game_id, event.version)
                        moved[(g, seat)] = event.version
                        moves += 1
                        table = rt.games.load(game_id)
                if kills < KILLS and time.monotonic() >= next_kill:
                    kill_all(worker)
                    kills += 1
                    worker = start_worker(real_redis_url, log, SECRET_KEY=SECRET, QUIET_HOURS="off")
                    next_kill = time.monotonic() + rng.uniform(*BETWEEN_KILLS)
                time.sleep(0.02)
            played = time.monotonic() - started
            while time.monotonic() - started < played + SETTLE_SECONDS:
                if settled(rt, games):
                    time.sleep(1.0)  # anything late would come now
                    if settled(rt, games):
                        break
                time.sleep(0.25)
            took = time.monotonic() - started
        finally:
            if worker is not None:
                kill_all(worker)
        got = received(hook)
    ended = [g for g, game_id in enumerate(games) if rt.games.load(game_id).ended]
    expected = collections.Counter(
        [(g, seat, "turn", v) for g, game_id in enumerate(games)
         for seat, v in turns_of(rt, game_id)]
        + [(g, seat, "ended", 0) for g in ended for seat in (0, 1)])
    counts = collections.Counter(got)
    uncertain = set()
    for name in real_redis.lrange(channels.UNCERTAIN, 0, -1):
        *_, kind, version, seat, _cid = name.split(":")
        game_id = name.split("{g:", 1)[1].split("}", 1)[0]
        uncertain.add((games.index(game_id), int(seat), kind, int(version)))
    twice = {n: c for n, c in counts.items() if c > 1}
    print(f"{moves} moves in {GAMES} games ({len(ended)} played to the end), {kills} kills "
          f"-9 of the worker in {played:.1f} s of play; {len(got)} notices received for "
          f"{len(expected)} owed ({sum(1 for n in expected if n[2] == 'turn')} turn, "
          f"{sum(1 for n in expected if n[2] == 'ended')} game over), {len(twice)} twice, "
          f"{len(uncertain)} sends cut off mid-way; all out {took:.1f} s after the start")
    if set(expected) - set(counts) or twice:
        print(state_of(real_redis, games))
    print(log.read_text(errors="replace")[-3000:])
    assert kills == KILLS
    assert set(expected) - set(counts) == set(), "notices missing"
    assert set(counts) - set(expected) == set(), "notices nobody was owed"
    assert set(twice) <= uncertain, f"sent twice with no send cut off: {twice}"
