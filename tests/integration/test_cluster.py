"""Beyond one machine (issue 13): the games on a three-master Redis Cluster started here on
loopback, RQ on a plain queue Redis beside it, three `ravenpost serve` (each one gunicorn
and one `ravenpost worker`, each given a different node as REDIS_URL), whole games of every
kind played through the JSON API by one client thread per seat, and one master killed with
SIGKILL in the middle of play, then restarted on its data directory.

The clients play as people do: nobody moves before the game's projection has caught up
and every email it called for has gone out (its notices are no longer pending).  So every
turn must have exactly one email in the outbox, whatever the failover did.

Select it with ``pytest -m cluster``; it needs the ``redis-server`` and ``redis-cli``
binaries and takes a minute or two.
"""

from __future__ import annotations

import collections
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from redis.cluster import RedisCluster

from events import envelope as ev
from events import shards
from events.gameplay import GameService
from events.store import EventStore, key
from service.cli import main
from service.redis_setup import die_with_parent_hook
from worker.mail import OutboxBackend
from worker.projection import PENDING_GAMES

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.skipif(not (shutil.which("redis-server") and shutil.which("redis-cli")),
                       reason="needs the redis-server and redis-cli binaries"),
]

ROOT = Path(__file__).resolve().parents[2]
# One binary for every start: a restart by another version may not read the data.
REDIS_SERVER = shutil.which("redis-server") or "redis-server"
REDIS_CLI = shutil.which("redis-cli") or "redis-cli"
ADMIN_TOKEN = "cluster-test-admin-token-of-more-than-32-chars"
SECRET_KEY = "cluster-test-secret-key-of-more-than-32-bytes"
PLAY_SECONDS = 420  # the whole play, failover included; a stuck game fails the test
FAILOVER_AFTER = 60  # acknowledged moves before a master is killed
DOWN_SECONDS = 1.5  # how long the killed master stays dead
# Whole games of every kind, short ones: the solo games and a two-player Feudum.
REAL_GAMES = [("kings-guild", 1, {}), ("architects", 1, {}), ("feudum-guilds", 2, {})]
RACES = (6, 30)  # test-race games: at least 6, more until every master holds a game
CLEAN = {200, 201, 409, 503}  # what a move or a read may answer, failover or not
Redis = redis.Redis


def free_ports(count: int) -> list[int]:
    """Ports free on loopback, each with its cluster bus port (+10000) free too."""
    import socket

    def free(port: int) -> bool:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
        return True

    chooser, found = random.Random(), []
    while len(found) < count:
        port = chooser.randrange(20000, 45000)  # the bus port must stay below 65536
        if port not in found and free(port) and free(port + 10000):
            found.append(port)
    return found


def wait_until(check, seconds: float = 60, step: float = 0.1) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if check():
                return True
        except (redis.RedisError, redis.exceptions.RedisClusterException, OSError):
            pass
        time.sleep(step)
    return False


class RedisNode:
    """One redis-server of ours: cluster node or the queue's plain server, append-only."""

    def __init__(self, directory: Path, port: int, cluster: bool) -> None:
        self.dir, self.port, self.cluster = directory, port, cluster
        self.proc: subprocess.Popen | None = None
        directory.mkdir(parents=True, exist_ok=True)

    def start(self) -> None:
        # as deploy/compose.yaml runs them: with "everysec" a write can be answered
        # before it reaches the file (while an fsync lags), and a SIGKILL then loses it
        argv = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.dir), "--appendonly", "yes", "--appendfsync", "always",
                "--save", "",
                "--maxmemory-policy", "noeviction", "--logfile", str(self.dir / "redis.log")]
        if self.cluster:
            # No replicas here, so the killed master's slots are down until it is back;
            # the other masters keep serving theirs (full coverage not required).
            argv += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--cluster-node-timeout", "2000",
                     "--cluster-require-full-coverage", "no"]
        self.proc = subprocess.Popen(argv, cwd=self.dir, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True,
                                     preexec_fn=die_with_parent_hook())
        client = Redis(host="127.0.0.1", port=self.port, socket_timeout=2)
        if not wait_until(lambda: client.ping(), 30):
            log = (self.dir / "redis.log").read_text(errors="replace")[-1500:] \
                if (self.dir / "redis.log").exists() else "(no log)"
            raise AssertionError(f"redis-server on {self.port} did not start (exit "
                                 f"{self.proc.poll()}): {log}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no save (the append-only file has every write)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"


def http(method: str, url: str, body: dict | None = None, token: str | None = None):
    """(status, parsed JSON) of one request; a web process that does not answer is 0."""
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode()
                                     if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            status, raw = reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    except OSError:
        return 0, None
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw


@dataclass
class Deployment:
    nodes: list[RedisNode]
    queue: RedisNode
    webs: list[str]  # base URLs
    serves: list[subprocess.Popen]
    client: RedisCluster
    env: dict[str, str]
    logs: list[Path]

    def primary_of(self, name: str) -> str:
        """``host:port`` of the master holding key ``name``."""
        return self.client.get_node_from_key(name).name


def start_serve(directory: Path, port: int, env: dict[str, str]) -> subprocess.Popen:
    directory.mkdir(parents=True, exist_ok=True)
    log = open(directory / "serve.log", "wb")  # noqa: SIM115 - kept open for the child
    return subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir",
         str(directory), "--workers", "1"], env=env, cwd=ROOT, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    """Three cluster masters, a queue Redis, three `ravenpost serve` on them; everything
    stopped and its directory removed afterwards."""
    base = tmp_path_factory.mktemp("cluster")
    ports = free_ports(7)
    nodes = [RedisNode(base / f"node-{p}", p, cluster=True) for p in ports[:3]]
    queue = RedisNode(base / "queue", ports[3], cluster=False)
    serves: list[subprocess.Popen] = []
    try:
        for server in [*nodes, queue]:
            server.start()
        created = subprocess.run(
            [REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in nodes),
             "--cluster-yes"], capture_output=True, text=True, timeout=60)
        assert created.returncode == 0, created.stdout + created.stderr
        for n in nodes:
            node = Redis(host="127.0.0.1", port=n.port, decode_responses=True)
            assert wait_until(lambda node=node: node.cluster("info")["cluster_state"] == "ok"
                              and int(node.cluster("info")["cluster_known_nodes"]) == 3), \
                f"node {n.port} never saw the cluster ok"
        env = {k: v for k, v in os.environ.items()
               if k not in ("RAVENPOST_ENV", "REDIS_URL", "QUEUE_REDIS_URL")}
        # no quiet hours: a turn email at night would wait for the morning
        env.update(REDIS_CLUSTER="1", QUEUE_REDIS_URL=queue.url, SECRET_KEY=SECRET_KEY,
                   QUIET_HOURS="off",
                   ADMIN_TOKEN=ADMIN_TOKEN, MAIL_BACKEND="outbox", PYTHONPATH=str(ROOT),
                   RAVENPOST_EXTRA_GAMES="test-race=tests.platform_game:GAME")
        webs = []
        for i, (node, port) in enumerate(zip(nodes, ports[4:], strict=True)):
            # each `serve` knows the cluster by a different node
            serves.append(start_serve(base / f"serve-{i}", port, {
                **env, "REDIS_URL": node.url, "BASE_URL": f"http://127.0.0.1:{port}"}))
            webs.append(f"http://127.0.0.1:{port}")
        for web, proc in zip(webs, serves, strict=True):
            assert wait_until(lambda web=web, proc=proc: proc.poll() is None and http(
                "GET", f"{web}/api/v1/kinds")[0] == 200, 90), f"{web} did not come up"
        client = RedisCluster.from_url(nodes[0].url, decode_responses=True)
        yield Deployment(nodes, queue, webs, serves, client,
                         {**env, "REDIS_URL": nodes[1].url},
                         [base / f"serve-{i}" / "serve.log" for i in range(3)])
        client.close()
    finally:
        for proc in serves:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)  # serve stops its gunicorn and worker
        for proc in serves:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for server in [*nodes, queue]:
            server.stop()
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class Game:
    id: str
    kind: str
    tokens: list[str]


@dataclass
class Answer:
    """One request a client made, and what came back."""

    game: str
    seat: int
    method: str
    status: int
    at: float
    move: dict | None = None
    expected: int | None = None


@dataclass
class Play:
    games: list[Game]
    answers: list[Answer] = field(default_factory=list)
    failover: tuple[float, float] | None = None  # monotonic: kill .. back
    killed: str = ""
    longest: Game | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    errors: list[str] = field(default_factory=list)

    def record(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    @property
    def acknowledged(self) -> list[Answer]:
        with self.lock:
            return [a for a in self.answers if a.method == "POST" and a.status == 201]


def everyone_mailed(client: RedisCluster, game_id: str, version: int) -> bool:
    """The game is projected up to ``version`` and every email its projection called for
    has gone out (the notices are pending until then)."""
    pipe = client.pipeline(transaction=True)  # one slot: the game's
    pipe.get(key(game_id, "projected"))
    pipe.hlen(key(game_id, "pending"))
    projected, pending = pipe.execute()
    return int(projected or 0) >= version and pending == 0


def play_seat(d: Deployment, play: Play, game: Game, seat: int, seed: int) -> None:
    """One player: read the game, wait for the email, make a random legal move."""
    rng = random.Random(seed)
    token = game.tokens[seat]
    end = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < end:
        web = rng.choice(d.webs)  # any web process serves any game
        status, view = http("GET", f"{web}/api/v1/games/{game.id}", token=token)
        play.record(Answer(game.id, seat, "GET", status, time.monotonic()))
        if status != 200:
            time.sleep(0.2)
            continue
        if view["outcome"] is not None or not view["to_act"]:
            if view["outcome"] is not None:
                return
            time.sleep(0.05)
            continue
        if seat not in view["to_act"]:
            time.sleep(0.15)
            continue
        if not wait_until(lambda v=view: everyone_mailed(d.client, game.id, v["version"]),
                          90, 0.05):
            play.errors.append(f"{game.kind} {game.id}: no email for version "
                               f"{view['version']} within 90 s")
            return
        move = rng.choice(view["legal_moves"])
        status, _ = http("POST", f"{rng.choice(d.webs)}/api/v1/games/{game.id}/moves",
                         {"move": move, "expected_version": view["version"]}, token)
        play.record(Answer(game.id, seat, "POST", status, time.monotonic(), move,
                           view["version"]))
        if status not in CLEAN:
            play.errors.append(f"{game.kind} {game.id}: a move answered {status}")
    play.errors.append(f"{game.kind} {game.id}: seat {seat} still playing after "
                       f"{PLAY_SECONDS} s")


def kill_a_master(d: Deployment, play: Play, victim: RedisNode) -> None:
    """Once enough moves are in, SIGKILL ``victim``; restart it on the same port and data."""
    wait_until(lambda: len(play.acknowledged) >= FAILOVER_AFTER, PLAY_SECONDS / 2, 0.1)
    killed_at = time.monotonic()
    victim.kill()
    # a player of the game on the dead master reads it and moves, through each web process
    game = play.longest
    for web in d.webs:
        status, _ = http("GET", f"{web}/api/v1/games/{game.id}", token=game.tokens[0])
        play.record(Answer(game.id, 0, "GET", status, time.monotonic()))
        status, _ = http("POST", f"{web}/api/v1/games/{game.id}/moves",
                         {"move": {"type": "pass"}, "expected_version": 1}, game.tokens[0])
        play.record(Answer(game.id, 0, "PROBE", status, time.monotonic()))
    time.sleep(DOWN_SECONDS)
    victim.start()
    node = Redis(host="127.0.0.1", port=victim.port, decode_responses=True)
    back = wait_until(lambda: node.cluster("info")["cluster_state"] == "ok", 60)
    play.failover = (killed_at, time.monotonic())
    play.killed = f"127.0.0.1:{victim.port}"
    if not back:
        play.errors.append(f"the restarted master {victim.port} never rejoined")


def create_game(d: Deployment, kind: str, players: int, options: dict) -> Game:
    people = [{"name": f"P{s}", "email": f"p{s}-{random.random():.9f}@example.com"}
              for s in range(players)]
    status, created = http("POST", f"{random.choice(d.webs)}/api/v1/games",
                           {"game": kind, "players": people, "options": options},
                           ADMIN_TOKEN)
    assert status == 201, created
    return Game(created["id"], kind, [s["token"] for s in created["seats"]])


@pytest.fixture(scope="module")
def play(deployment):
    """Every game played to its end by one thread per seat, a master killed midway."""
    d = deployment
    games = [create_game(d, kind, n, options) for kind, n, options in REAL_GAMES]
    masters = {n.url.removeprefix("redis://") for n in d.nodes}
    holding = lambda: {d.primary_of(key(g.id, "log")) for g in games}  # noqa: E731
    while len(games) < len(REAL_GAMES) + RACES[0] or \
            (holding() != masters and len(games) < len(REAL_GAMES) + RACES[1]):
        games.append(create_game(d, "test-race", 2, {"target": 30}))
    result = Play(games)
    # the master of the longest game, so that it plays on through the failover
    result.longest = next((g for g in games if g.kind == "feudum-guilds"), games[0])
    victim = next(n for n in d.nodes if n.url.removeprefix("redis://")
                  == d.primary_of(key(result.longest.id, "log")))
    threads = [threading.Thread(target=play_seat, args=(d, result, g, s, i * 10 + s))
               for i, g in enumerate(games) for s in range(len(g.tokens))]
    for t in threads:
        t.start()
    # in this thread: a child's "die with its parent" signal follows the thread that
    # started it, so a master restarted by a short-lived thread would die with it
    kill_a_master(d, result, victim)
    for t in threads:
        t.join()
    # the last projections and game-over emails
    wait_until(lambda: all(everyone_mailed(d.client, g.id, EventStore(d.client).version(g.id))
                           for g in games) and not shards.smembers(d.client, PENDING_GAMES),
               120, 0.2)
    return result


def turn_starts(service: GameService, game_id: str) -> set[tuple[str, int, int]]:
    """Every (kind, version, seat) email the rules call for, folded from the log as the
    projection folds it: a turn that began, an invitation, the game's end."""
    wanted: set[tuple[str, int, int]] = set()
    table, awaiting = None, set()
    for event in service.store.iter(game_id):
        table = service.replayer.evolve(table, game_id, event)
        to_act = table.to_act()
        awaiting &= to_act
        for seat in to_act - awaiting:
            awaiting.add(seat)
            if event.type != ev.GAME_CREATED:
                wanted.add(("turn", event.version, seat))
        if event.type == ev.GAME_CREATED:
            wanted |= {("turn", 1, seat) for seat in range(len(table.names))}
        if event.type == ev.GAME_ENDED:
            wanted |= {("ended", 0, seat) for seat in range(len(table.names))}
    return wanted


def test_every_game_of_every_kind_is_played_to_its_end(play, deployment):
    assert play.errors == []
    service = GameService(EventStore(deployment.client))
    for game in play.games:
        assert service.load(game.id).ended, f"{game.kind} {game.id} did not end"
    assert {g.kind for g in play.games} == {"kings-guild", "architects", "feudum-guilds",
                                            "test-race"}


def test_every_acknowledged_move_is_in_its_log_once(play, deployment):
    store = EventStore(deployment.client)
    by_game = collections.defaultdict(list)
    for answer in play.acknowledged:
        by_game[answer.game].append(answer)
    assert sum(map(len, by_game.values())) > FAILOVER_AFTER
    for game in play.games:
        acked = by_game[game.id]
        versions = [a.expected + 1 for a in acked]
        assert len(versions) == len(set(versions)), f"one version acknowledged twice: {game.id}"
        for answer in acked:
            [event] = store.read(game.id, answer.expected + 1, answer.expected + 1)
            assert (event.type, event.data["seat"], event.data["move"]) == \
                (ev.MOVE_PLAYED, answer.seat, answer.move)
        # the players' moves; the worker plays a seat's only move for it (data.auto)
        moves = [e for e in store.iter(game.id)
                 if e.type == ev.MOVE_PLAYED and not e.data.get("auto")]
        unanswered = sum(1 for a in play.answers if a.game == game.id and a.method == "POST"
                         and a.status in (0, 503))
        # a move whose answer was lost may have landed, but nothing lands twice
        assert len(acked) <= len(moves) <= len(acked) + unanswered


def test_every_game_passes_verify(play, deployment, monkeypatch):
    for name, value in deployment.env.items():
        monkeypatch.setenv(name, value)
    for game in play.games:
        result = CliRunner().invoke(main, ["admin", "verify", game.id])
        assert result.exit_code == 0 and result.output.startswith("ok:"), result.output


def test_every_turn_is_emailed_exactly_once(play, deployment):
    service = GameService(EventStore(deployment.client))
    mails = OutboxBackend(deployment.client).list(limit=5000)
    sent = collections.Counter(m["key"] for m in mails)
    assert [k for k, n in sent.items() if n > 1] == []
    for game in play.games:
        wanted = {f"{kind}:{game.id}:{version}:{seat}" if kind == "turn" else
                  f"ended:{game.id}:{seat}" for kind, version, seat in
                  turn_starts(service, game.id)}
        got = {k for k in sent if f":{game.id}:" in k}
        assert got == wanted, (game.kind, sorted(wanted - got), sorted(got - wanted))
    assert shards.smembers(deployment.client, PENDING_GAMES) == set()


def test_the_games_keys_spread_over_all_three_masters(play, deployment):
    homes: dict[str, set[str]] = collections.defaultdict(set)
    for node in deployment.client.get_primaries():
        for name in node.redis_connection.scan_iter(match="rp:{g:*", count=1000):
            game_id = name.split("{g:", 1)[1].split("}", 1)[0]
            homes[game_id].add(f"{node.name}/{deployment.client.keyslot(name)}")
    played = {g.id for g in play.games}
    assert played <= set(homes)
    assert all(len(homes[g]) == 1 for g in played), "a game's keys in two slots"
    masters = {n.name for n in deployment.client.get_primaries()}
    assert {next(iter(homes[g])).split("/")[0] for g in played} == masters
    # the indexes across games are spread too: their buckets live on every master
    assert {deployment.primary_of(b) for b in shards.all_buckets(deployment.client,
                                                                 "rp:dirty")} == masters


def test_moves_in_flight_when_a_master_dies_get_a_clean_answer_and_the_games_go_on(
        play, deployment):
    assert play.failover is not None, "the master was never killed"
    killed_at, back_at = play.failover
    during = [a for a in play.answers if killed_at <= a.at <= back_at + 5]
    assert {a.status for a in play.answers} <= CLEAN
    assert any(a.status == 503 for a in during), "nobody noticed the master was down"
    # while it was down, its game answered 503 to a read and to a move, in every process
    probes = [a for a in during if a.game == play.longest.id and a.at <= back_at]
    assert [a.status for a in probes if a.method == "PROBE"] == [503] * len(deployment.webs)
    after = [a for a in play.acknowledged if a.at > back_at]
    assert after, "no move was acknowledged after the master came back"
    # the longest game, whose master was killed, went on to its end
    assert deployment.primary_of(key(play.longest.id, "log")) == play.killed
    assert any(a.game == play.longest.id for a in after)


def test_a_cluster_without_a_queue_redis_is_refused_at_start(deployment):
    env = {**deployment.env}
    env.pop("QUEUE_REDIS_URL")
    result = subprocess.run([sys.executable, "-m", "service.cli", "worker", "--burst"],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "REDIS_CLUSTER=1 needs QUEUE_REDIS_URL" in result.stderr
