"""Golden logs: games recorded under every shipped rules version still fold, exactly.

A slow game lasts weeks and folds its whole log again after every deploy; an audit must
replay any game as it was played.  So each log recorded by ``tests/golden/make.py`` must
fold under today's code, hash chain intact, to the very state it ended in.
"""

from __future__ import annotations

import json
from pathlib import Path

import fakeredis
import pytest

from events.replay import Replayer
from events.store import EventStore, key
from games import registry
from tests.golden.make import state_hash

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_is_a_golden_log_for_every_kind_and_every_rules_version_it_plays():
    recorded = {(json.loads(p.read_text())["kind"], json.loads(p.read_text())["rules_version"])
                for p in GOLDEN}
    for game in registry.kinds():
        if game.kind.startswith("test-"):
            continue
        for version in game.rules_versions:
            assert (game.kind, version) in recorded, f"no golden log of {game.kind} r{version}"


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_log_folds_to_the_state_it_ended_in(path):
    golden = json.loads(path.read_text())
    store = EventStore(fakeredis.FakeRedis(decode_responses=True))
    gid = "golden"
    for entry_id, fields in golden["entries"]:
        store.redis.xadd(key(gid, "log"), fields, id=entry_id)
    assert store.verify(gid)[0], "the hash chain of the recorded log is intact"
    table = Replayer(store).load(gid, use_snapshot=False)
    assert table.rules_version == golden["rules_version"]
    assert table.version == golden["final_version"]
    assert table.ended
    assert state_hash(table.state) == golden["final_state_sha256"]
