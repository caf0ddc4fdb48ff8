"""REDIS_CLUSTER and QUEUE_REDIS_URL: which Redis each part uses, and the refusals."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from service.cli import main
from service.config import DEFAULTS, ConfigError, check, from_environment, queue_url
from service.redis_setup import cluster_limits


def settings(**over):
    return {**DEFAULTS, **over}


def test_redis_cluster_is_read_from_the_environment_as_a_flag():
    assert from_environment({"REDIS_CLUSTER": "1"})["REDIS_CLUSTER"] is True
    assert from_environment({"REDIS_CLUSTER": "yes"})["REDIS_CLUSTER"] is True
    assert from_environment({"REDIS_CLUSTER": "0"})["REDIS_CLUSTER"] is False
    assert "REDIS_CLUSTER" not in from_environment({})
    assert from_environment({"QUEUE_REDIS_URL": "redis://q:6379"})["QUEUE_REDIS_URL"] \
        == "redis://q:6379"


def test_the_queue_is_on_redis_url_when_that_is_one_server():
    assert queue_url(settings(REDIS_URL="redis://one:6379")) == "redis://one:6379"
    assert queue_url(settings(REDIS_URL="redis://one", QUEUE_REDIS_URL="redis://q")) \
        == "redis://q"


def test_the_queue_is_never_on_a_cluster():
    assert queue_url(settings(REDIS_URL="redis://node:7000", REDIS_CLUSTER=True)) is None


def test_a_cluster_without_a_queue_redis_is_refused():
    with pytest.raises(ConfigError, match="REDIS_CLUSTER=1 needs QUEUE_REDIS_URL"):
        check(settings(REDIS_URL="redis://node:7000", REDIS_CLUSTER=True))


def test_a_cluster_without_a_node_is_refused():
    with pytest.raises(ConfigError, match="REDIS_CLUSTER=1 needs REDIS_URL"):
        check(settings(REDIS_CLUSTER=True, QUEUE_REDIS_URL="redis://q"))


def test_a_cluster_with_its_queue_redis_passes():
    check(settings(REDIS_URL="redis://node:7000", REDIS_CLUSTER=True,
                   QUEUE_REDIS_URL="redis://q:6379"))


@pytest.mark.parametrize("command", [["worker", "--burst"], ["admin", "history", "g"],
                                     ["serve", "--port", "1"],
                                     ["bots", "play", "test-race", "--players", "1"]])
def test_every_command_refuses_a_cluster_without_a_queue_redis_in_one_line(
        command, monkeypatch):
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1")
    monkeypatch.delenv("QUEUE_REDIS_URL", raising=False)
    monkeypatch.delenv("RAVENPOST_ENV", raising=False)
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 1
    assert "REDIS_CLUSTER=1 needs QUEUE_REDIS_URL" in result.output
    assert "Traceback" not in result.output


def test_rate_limits_on_a_cluster_are_counted_in_the_cluster():
    assert cluster_limits("redis://10.0.0.5:7000") == ("redis+cluster://10.0.0.5:7000", {})
    assert cluster_limits("redis://:pw@10.0.0.5:7000/0") == \
        ("redis+cluster://:pw@10.0.0.5:7000", {})
    with pytest.raises(ValueError):
        cluster_limits("unix:///tmp/redis.sock")


def test_rate_limits_on_a_tls_cluster_keep_its_tls():
    uri, options = cluster_limits(
        "rediss://:pw@10.0.0.5:7000?ssl_cert_reqs=required&ssl_ca_certs=/etc/ca.pem")
    assert uri == "redis+cluster://:pw@10.0.0.5:7000"
    assert options == {"ssl": True, "ssl_cert_reqs": "required",
                       "ssl_ca_certs": "/etc/ca.pem"}


def test_the_app_hands_the_limiter_the_clusters_tls(monkeypatch):
    import fakeredis
    from limits.storage import RedisClusterStorage

    from service import create_app, redis_setup
    from tests.support import ADMIN
    monkeypatch.setattr(redis_setup, "connect_store",
                        lambda config: fakeredis.FakeRedis(decode_responses=True))
    monkeypatch.setattr(redis_setup, "connect_queue", lambda config: fakeredis.FakeRedis())
    given: dict = {}

    class Connected(Exception):
        """Where the limiter would reach the cluster (there is none here)."""

    def connect(self, uri, **options):
        given.update(uri=uri, options=options)
        raise Connected

    monkeypatch.setattr(RedisClusterStorage, "__init__", connect)
    with pytest.raises(Connected):
        create_app({"REDIS_URL": "rediss://node:7000", "REDIS_CLUSTER": True,
                    "QUEUE_REDIS_URL": "redis://q:6379", "CHECK_REDIS": False,
                    "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                    "BASE_URL": "http://localhost",
                    "RATELIMIT_STORAGE_OPTIONS": {"socket_timeout": 2}})
    assert given["uri"] == "redis+cluster://node:7000"
    assert given["options"]["ssl"] is True and given["options"]["socket_timeout"] == 2


def test_serve_refuses_a_cluster_without_a_node(monkeypatch, tmp_path):
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    monkeypatch.delenv("REDIS_URL", raising=False)
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path / "var")])
    assert result.exit_code == 1 and "REDIS_CLUSTER=1 needs REDIS_URL" in result.output
    assert not (tmp_path / "var").exists()  # refused before anything started
