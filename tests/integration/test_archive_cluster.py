"""Archiving on a Redis Cluster (issue 32, item 1): the WATCH/MULTI on the game's one hash
slot and the SCAN of its keys across the primaries.  Three masters started here on
loopback; select with ``pytest -m cluster``."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest
from redis import Redis
from redis.cluster import RedisCluster

from events.archive import Archives, archive_game, index_entry, restorer
from events.gameplay import GameService
from events.store import EventStore, key
from games.bots import choose_seat_and_move
from tests.integration.test_cluster import REDIS_CLI, RedisNode, free_ports, wait_until

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.skipif(not (shutil.which("redis-server") and shutil.which("redis-cli")),
                       reason="needs the redis-server and redis-cli binaries"),
]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    base = tmp_path_factory.mktemp("archive-cluster")
    nodes = [RedisNode(base / f"node-{p}", p, cluster=True) for p in free_ports(3)]
    try:
        for node in nodes:
            node.start()
        created = subprocess.run(
            [REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in nodes),
             "--cluster-yes"], capture_output=True, text=True, timeout=60)
        assert created.returncode == 0, created.stdout + created.stderr
        for n in nodes:
            node = Redis(host="127.0.0.1", port=n.port, decode_responses=True)
            assert wait_until(lambda node=node: node.cluster("info")["cluster_state"] == "ok")
        client = RedisCluster.from_url(nodes[0].url, decode_responses=True)
        yield client
        client.close()
    finally:
        for node in nodes:
            node.stop()


def test_a_game_on_a_cluster_is_archived_and_comes_back_whole(cluster, tmp_path):
    store = EventStore(cluster)
    archives = Archives(str(tmp_path))
    store.restorer = restorer(store, archives)
    service = GameService(store)
    table = service.create("test-race", [{"name": "Ada", "email": ""},
                                         {"name": "Bo", "email": ""}], {"target": 40})
    game_id, chooser = table.game_id, random.Random(5)
    while not table.ended:
        seat, move = choose_seat_and_move(table.game, table.state, chooser)
        service.play(game_id, seat, move, table.version)
        table = service.load(game_id)
    cluster.set(key(game_id, "seats"), "[]")
    done = archive_game(store, archives, game_id)
    assert done is not None
    left = sorted(cluster.scan_iter(match=key(game_id, "*")))
    assert left == [key(game_id, "archived")]
    assert index_entry(cluster, game_id)["version"] == table.version
    assert store.verify(game_id) == (True, table.version, "")  # brought back
    assert cluster.get(key(game_id, "seats")) == "[]"
    assert service.replayer.load(game_id, use_snapshot=False).state == table.state
