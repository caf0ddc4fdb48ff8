"""Configuration: defaults, then the environment, then what ``create_app`` is given."""

from __future__ import annotations

import os
from typing import Any

DEFAULT_SECRET = "dev-secret-change-me"

DEFAULTS: dict[str, Any] = {
    "SECRET_KEY": DEFAULT_SECRET,
    "REDIS_URL": None,  # None: the embedded Redis started by `ravenpost serve`
    "BASE_URL": "http://127.0.0.1:5000",
    "MAIL_BACKEND": "outbox",
    "SENDGRID_API_KEY": None,
    "SENDGRID_HOST": None,  # tests point the official client at a local stand-in
    "MAIL_FROM": "Ravenpost <noreply@ravenpost.local>",
    "ADMIN_TOKEN": None,
    "RAVENPOST_ENV": "development",  # "production" refuses the default secret
    "LINK_MAX_AGE": 14 * 24 * 3600,  # seconds an emailed action link stays valid
    "PLAY_LINK_MAX_AGE": 120 * 24 * 3600,  # a player's personal page / API token
    "SNAPSHOT_EVERY": 50,  # the worker writes a snapshot after this many new events
    "CHECK_REDIS": True,  # check appendonly / noeviction at start
    "RUN_JOBS_INLINE": False,  # tests: run worker jobs in the web process
    "DEV_MAIL": None,  # /dev/mail is on when the outbox backend is used, unless False
    "EXTRA_GAMES": None,  # "kind=module:attr,...": game kinds from outside this package
}

ENV_KEYS = [
    "SECRET_KEY", "REDIS_URL", "BASE_URL", "MAIL_BACKEND", "SENDGRID_API_KEY",
    "SENDGRID_HOST", "MAIL_FROM", "ADMIN_TOKEN", "RAVENPOST_ENV",
]


def from_environment(environ: dict[str, str] | None = None) -> dict[str, Any]:
    """The settings the environment gives (only keys that are set)."""
    environ = os.environ if environ is None else environ
    found = {k: environ[k] for k in ENV_KEYS if environ.get(k)}
    if environ.get("RAVENPOST_EXTRA_GAMES"):
        found["EXTRA_GAMES"] = environ["RAVENPOST_EXTRA_GAMES"]
    return found


class ConfigError(RuntimeError):
    """The service cannot start with this configuration."""


def check(config: dict[str, Any]) -> None:
    """Refuse what must never run: production with the default secret or no admin token."""
    if config["RAVENPOST_ENV"] == "production":
        if config["SECRET_KEY"] in (None, "", DEFAULT_SECRET):
            raise ConfigError("SECRET_KEY must be set to a long random value in production")
        if not config.get("REDIS_URL"):
            raise ConfigError("REDIS_URL must be set in production")
    if config["MAIL_BACKEND"] == "sendgrid" and not config.get("SENDGRID_API_KEY"):
        raise ConfigError("MAIL_BACKEND=sendgrid needs SENDGRID_API_KEY")
