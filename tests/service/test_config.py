"""Start-up checks: production refuses unsafe settings; Redis durability is checked."""

from __future__ import annotations

import logging

import pytest
from click.testing import CliRunner

from service import create_app
from service.config import DEFAULTS, ConfigError, check, from_environment
from service.redis_setup import durability_problems

SECRET = "a-long-random-production-secret-key-0123456789"  # 46 bytes
ADMIN = "a-production-admin-token-of-32-chars-or-more"


def production(**settings):
    """A production configuration that passes every check, with ``settings`` over it."""
    from service.config import DEFAULTS
    return {**DEFAULTS, "RAVENPOST_ENV": "production", "REDIS_URL": "redis://unused",
            "SECRET_KEY": SECRET, "ADMIN_TOKEN": ADMIN, **settings}


def test_production_refuses_the_default_secret(fake_redis):
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app({"REDIS_CLIENT": fake_redis, "RAVENPOST_ENV": "production",
                    "REDIS_URL": "redis://x"})


def test_production_needs_redis_url(fake_redis, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)  # the suite may run with it set
    with pytest.raises(ConfigError, match="REDIS_URL"):
        create_app({"RAVENPOST_ENV": "production", "SECRET_KEY": SECRET})


def test_production_refuses_a_missing_secret():
    for missing in (None, ""):
        with pytest.raises(ConfigError, match="SECRET_KEY"):
            check(production(SECRET_KEY=missing))


def test_production_refuses_a_secret_shorter_than_32_bytes(fake_redis):
    with pytest.raises(ConfigError, match="SECRET_KEY is 31 bytes"):
        check(production(SECRET_KEY="x" * 31))
    with pytest.raises(ConfigError, match="SECRET_KEY is 1 bytes"):
        create_app({"REDIS_CLIENT": fake_redis, "RAVENPOST_ENV": "production",
                    "REDIS_URL": "redis://x", "SECRET_KEY": "s"})
    check(production(SECRET_KEY="x" * 32))
    check(production(SECRET_KEY=b"\x00" * 32))


def test_production_refuses_an_admin_token_shorter_than_32_characters():
    with pytest.raises(ConfigError, match="ADMIN_TOKEN is 31 characters"):
        check(production(ADMIN_TOKEN="t" * 31))
    check(production(ADMIN_TOKEN="t" * 32))
    check(production(ADMIN_TOKEN=None))  # no token: the admin tools are off, which is safe


def test_development_starts_with_the_defaults():
    from service.config import DEFAULTS
    check(dict(DEFAULTS))
    check({**DEFAULTS, "SECRET_KEY": "s", "ADMIN_TOKEN": "short"})


@pytest.fixture
def worker_environment(monkeypatch):
    """A fresh worker process: no runtime built yet, only the environment to go on."""
    import worker.current
    monkeypatch.setattr(worker.current, "_runtime", None)
    for name in ("SECRET_KEY", "ADMIN_TOKEN", "REDIS_URL", "RAVENPOST_ENV", "MAIL_BACKEND"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAVENPOST_ENV", "production")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # never reached: refused first
    return monkeypatch


@pytest.mark.parametrize("secret", [None, "dev-secret-change-me", "short"])
def test_the_worker_refuses_what_the_web_refuses(worker_environment, secret):
    from service.cli import worker_runtime
    if secret:
        worker_environment.setenv("SECRET_KEY", secret)
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        worker_runtime()


def test_the_worker_refuses_a_short_admin_token(worker_environment):
    from service.cli import worker_runtime
    worker_environment.setenv("SECRET_KEY", SECRET)
    worker_environment.setenv("ADMIN_TOKEN", "short")
    with pytest.raises(ConfigError, match="ADMIN_TOKEN"):
        worker_runtime()


def test_ravenpost_worker_says_why_in_one_line_and_exits_non_zero(worker_environment):
    from service.cli import main
    worker_environment.setenv("SECRET_KEY", "short")
    result = CliRunner().invoke(main, ["worker"])
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)  # not a traceback
    assert "SECRET_KEY is 5 bytes long" in result.output


def test_sendgrid_needs_an_api_key(fake_redis):
    with pytest.raises(ConfigError, match="SENDGRID_API_KEY"):
        create_app({"REDIS_CLIENT": fake_redis, "MAIL_BACKEND": "sendgrid"})


def test_configuration_comes_from_the_environment():
    found = from_environment({"REDIS_URL": "redis://h:1/0", "MAIL_BACKEND": "console",
                              "UNRELATED": "x", "ADMIN_TOKEN": ""})
    assert found == {"REDIS_URL": "redis://h:1/0", "MAIL_BACKEND": "console"}


def test_durability_problems_name_appendonly_and_eviction(real_redis):
    before = {k: real_redis.config_get(k)[k] for k in ("appendonly", "maxmemory-policy")}
    try:
        real_redis.config_set("appendonly", "no")
        real_redis.config_set("maxmemory-policy", "allkeys-lru")
        problems = durability_problems(real_redis)
        assert any("appendonly" in p for p in problems)
        assert any("noeviction" in p for p in problems)
        real_redis.config_set("appendonly", "yes")
        real_redis.config_set("maxmemory-policy", "noeviction")
        assert durability_problems(real_redis) == []
    finally:
        for k, v in before.items():
            real_redis.config_set(k, v)


def test_the_service_says_so_at_start_when_redis_may_lose_moves(real_redis_url, caplog,
                                                                 real_redis):
    before = real_redis.config_get("appendonly")["appendonly"]
    real_redis.config_set("appendonly", "no")
    try:
        with caplog.at_level(logging.WARNING):
            app = create_app({"REDIS_URL": real_redis_url})
        assert any("appendonly" in r.getMessage() for r in caplog.records)
        assert app.config["REDIS_PROBLEMS"]
    finally:
        real_redis.config_set("appendonly", before)


def test_vote_hours_come_from_the_environment_and_must_be_a_sensible_number():
    assert from_environment({"VOTE_HOURS": "24"})["VOTE_HOURS"] == "24"
    check(production(VOTE_HOURS="24"))
    for wrong in ("0", "-3", "721", "a week"):
        with pytest.raises(ConfigError, match="VOTE_HOURS"):
            check(production(VOTE_HOURS=wrong))


@pytest.mark.parametrize("name, value", [("INVITES_PER_DAY", "three"),
                                         ("INVITES_PER_MONTH", "-1"),
                                         ("LEAVE_DAYS_PER_YEAR", "400"),
                                         ("LEAVE_DAYS_PER_YEAR", "a month")])
def test_invitation_and_leave_limits_that_are_not_numbers_stop_the_start(name, value):
    with pytest.raises(ConfigError, match=name):
        check({**DEFAULTS, **from_environment({name: value})})


def test_invitation_and_leave_limits_come_from_the_environment_as_numbers():
    config = {**DEFAULTS, **from_environment({"INVITES_PER_DAY": "5",
                                               "LEAVE_DAYS_PER_YEAR": "12.5"})}
    check(config)
    assert config["INVITES_PER_DAY"] == 5 and config["LEAVE_DAYS_PER_YEAR"] == 12.5
