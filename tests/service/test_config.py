"""Start-up checks: production refuses unsafe settings; Redis durability is checked."""

from __future__ import annotations

import logging

import pytest

from service import create_app
from service.config import ConfigError, from_environment
from service.redis_setup import durability_problems


def test_production_refuses_the_default_secret(fake_redis):
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app({"REDIS_CLIENT": fake_redis, "RAVENPOST_ENV": "production",
                    "REDIS_URL": "redis://x"})


def test_production_needs_redis_url(fake_redis, monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)  # the suite may run with it set
    with pytest.raises(ConfigError, match="REDIS_URL"):
        create_app({"RAVENPOST_ENV": "production", "SECRET_KEY": "a-long-random-value"})


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
