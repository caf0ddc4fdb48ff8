"""Configuration: defaults, then the environment, then what ``create_app`` is given."""

from __future__ import annotations

import os
from typing import Any

DEFAULT_SECRET = "dev-secret-change-me"

DEFAULTS: dict[str, Any] = {
    "SECRET_KEY": DEFAULT_SECRET,
    "REDIS_URL": None,  # None: the embedded Redis started by `ravenpost serve`
    "REDIS_CLUSTER": False,  # REDIS_URL names any node of a Redis Cluster (games, read models)
    "QUEUE_REDIS_URL": None,  # RQ's plain Redis; None: REDIS_URL (required with a cluster)
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
    # Request sizes: bigger bodies are refused with 413 before they are read.
    "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes of any request body
    "MAX_FORM_MEMORY_SIZE": 64 * 1024,  # bytes of any one form field
    "MAX_FORM_PARTS": 200,  # fields in one form (the lobby's has about 50)
    # Rates (Flask-Limiter notation, ";" between limits), counted in the app's Redis.
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_STORAGE_URI": None,  # None: the app's own Redis
    "LOBBY_LIMIT_PER_CLIENT": "10 per hour;30 per day",  # lobby games per client address
    "LOBBY_LIMIT_PER_INVITEE": "5 per day",  # lobby invitations to one email address
    "API_CREATE_QUOTA": "10 per day",  # games per creating person, lobby and API (admin: none)
    "SIGN_IN_LIMIT_PER_ADDRESS": "3 per 15 minutes;10 per day",  # sign-in links to one address
    "SIGN_IN_LIMIT_PER_CLIENT": "10 per hour;50 per day",  # sign-in links asked by one client
    "INVITES_PER_DAY": 3,  # invitations to an address that never signed in nor played ...
    "INVITES_PER_MONTH": 10,  # ... in 24 hours and in 30 days, from everyone (worker.consent)
    "LEAVE_DAYS_PER_YEAR": 30,  # each player's leave across all their games
    "ADMIN_SESSION_IDLE": 8 * 3600,  # seconds an admin session lives unused
    "ADMIN_SESSION_MAX_AGE": 24 * 3600,  # seconds an admin session lives at most
    "PLAYER_SESSION_IDLE": 14 * 24 * 3600,  # seconds a player's session lives unused
    "PLAYER_SESSION_MAX_AGE": 90 * 24 * 3600,  # seconds a player's session lives at most
    "TRUSTED_PROXIES": 0,  # reverse proxies in front that append to X-Forwarded-For
    # ... honoured only from a peer at one of these IPs / networks (comma-separated)
    "TRUSTED_PROXY_ADDRESSES": "127.0.0.1,::1",
    # Players' quiet hours unless they choose theirs (local "start-end" hours, or "off"):
    # turn emails and reminders due then are held until the end (see worker.quiet).
    "QUIET_HOURS": "22-8",
    # Play by reply (worker/replies.py): turn emails carry Reply-To <prefix>+<token>@<domain>
    "INBOUND_DOMAIN": "reply.ravenpost.localhost",
    "INBOUND_PREFIX": "play",
    "INBOUND_SECRET": None,  # guards POST /inbound/sendgrid (in the path or basic auth)
    "INBOUND_VERIFY_KEY": None,  # SendGrid's ECDSA public key: signed posts are checked
    "INBOUND_SMTP_PORT": 2525,  # `ravenpost serve`'s SMTP receiver (127.0.0.1)
    "REFUSALS_PER_HOUR": 5,  # answers to refused replies, per seat
    # Games at rest leave Redis for one compressed file each (docs/archive.md): ended this
    # many days ago, or no event for ARCHIVE_IDLE_DAYS.  ARCHIVE_URL: a directory or
    # s3://bucket/prefix; None: DATA_DIR/archive (RAVENPOST_DATA_DIR, else ./var).
    "ARCHIVE_URL": None,
    "ARCHIVE_AFTER_DAYS": 7,
    "ARCHIVE_IDLE_DAYS": 60,
    "ARCHIVE_S3_ENDPOINT": None,  # an S3-compatible server's URL (None: AWS's)
}

ENV_KEYS = [
    "SECRET_KEY", "REDIS_URL", "QUEUE_REDIS_URL", "BASE_URL", "MAIL_BACKEND", "SENDGRID_API_KEY",
    "SENDGRID_HOST", "MAIL_FROM", "ADMIN_TOKEN", "RAVENPOST_ENV",
    "RATELIMIT_STORAGE_URI", "LOBBY_LIMIT_PER_CLIENT", "LOBBY_LIMIT_PER_INVITEE",
    "API_CREATE_QUOTA", "TRUSTED_PROXIES", "SIGN_IN_LIMIT_PER_ADDRESS",
    "SIGN_IN_LIMIT_PER_CLIENT", "QUIET_HOURS", "VOTE_HOURS",
    "TRUSTED_PROXY_ADDRESSES", "INBOUND_DOMAIN", "INBOUND_PREFIX", "INBOUND_SECRET",
    "INBOUND_VERIFY_KEY", "INBOUND_SMTP_PORT",
    "ARCHIVE_URL", "ARCHIVE_AFTER_DAYS", "ARCHIVE_IDLE_DAYS", "ARCHIVE_S3_ENDPOINT",
]


TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


def from_environment(environ: dict[str, str] | None = None) -> dict[str, Any]:
    """The settings the environment gives (only keys that are set)."""
    environ = os.environ if environ is None else environ
    found = {k: environ[k] for k in ENV_KEYS if environ.get(k)}
    if environ.get("REDIS_CLUSTER"):
        found["REDIS_CLUSTER"] = environ["REDIS_CLUSTER"].strip().lower() in TRUE_WORDS
    for name in ("INVITES_PER_DAY", "INVITES_PER_MONTH", "LEAVE_DAYS_PER_YEAR"):
        if environ.get(name, "").strip():
            found[name] = environ[name].strip()  # checked by check()
    if environ.get("RAVENPOST_EXTRA_GAMES"):
        found["EXTRA_GAMES"] = environ["RAVENPOST_EXTRA_GAMES"]
    return found


class ConfigError(RuntimeError):
    """The service cannot start with this configuration."""


def queue_url(config: dict[str, Any]) -> str | None:
    """The plain Redis that RQ uses: ``QUEUE_REDIS_URL``, else ``REDIS_URL`` when that is
    not a cluster (RQ has no Redis Cluster support: its Lua scripts and MULTIs span keys
    in many slots).  :func:`check` refuses a cluster without one."""
    if config.get("QUEUE_REDIS_URL"):
        return config["QUEUE_REDIS_URL"]
    return None if config.get("REDIS_CLUSTER") else config.get("REDIS_URL")


MIN_SECRET_BYTES = 32
MIN_ADMIN_TOKEN_CHARS = 32
_MAKE_ONE = "python -c 'import secrets; print(secrets.token_urlsafe(48))'"


def check(config: dict[str, Any]) -> None:
    """Refuse what must never run (web and worker alike): in production a missing, default
    or short SECRET_KEY, a short ADMIN_TOKEN (unset is allowed: the admin tools are then
    off), or no REDIS_URL; anywhere, the sendgrid backend without its API key,
    REDIS_CLUSTER without REDIS_URL or QUEUE_REDIS_URL, and invitation or leave limits
    that are not numbers (they are made numbers here).

    Raises :class:`ConfigError` with a one-line message that says what to do.
    """
    if config.get("RAVENPOST_ENV") == "production":
        secret = config.get("SECRET_KEY")
        if secret in (None, "", b"", DEFAULT_SECRET, DEFAULT_SECRET.encode()):
            raise ConfigError("SECRET_KEY must be set to a long random value in production "
                              f"(make one with: {_MAKE_ONE})")
        size = len(secret if isinstance(secret, bytes) else str(secret).encode("utf-8"))
        if size < MIN_SECRET_BYTES:
            raise ConfigError(f"SECRET_KEY is {size} bytes long; production needs at least "
                              f"{MIN_SECRET_BYTES} random bytes (make one with: {_MAKE_ONE})")
        token = config.get("ADMIN_TOKEN")
        if token and len(token) < MIN_ADMIN_TOKEN_CHARS:
            raise ConfigError(f"ADMIN_TOKEN is {len(token)} characters long; production needs "
                              f"at least {MIN_ADMIN_TOKEN_CHARS} (or leave it unset to turn "
                              f"the admin tools off; make one with: {_MAKE_ONE})")
        if not config.get("REDIS_URL"):
            raise ConfigError("REDIS_URL must be set in production")
    check_redis(config)
    if config["MAIL_BACKEND"] == "sendgrid" and not config.get("SENDGRID_API_KEY"):
        raise ConfigError("MAIL_BACKEND=sendgrid needs SENDGRID_API_KEY")
    for name in ("INVITES_PER_DAY", "INVITES_PER_MONTH"):
        try:
            config[name] = int(config.get(name, DEFAULTS[name]))
            if config[name] < 0:
                raise ValueError
        except (TypeError, ValueError):
            raise ConfigError(f"{name} must be a whole number of invitations, 0 or more, "
                              f"not {config.get(name)!r}") from None
    from worker.leave import parse_days
    try:
        config["LEAVE_DAYS_PER_YEAR"] = parse_days(config.get("LEAVE_DAYS_PER_YEAR"))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if config.get("VOTE_HOURS") is not None:
        from events.votes import MAX_VOTE_HOURS
        try:
            hours = float(config["VOTE_HOURS"])
        except (TypeError, ValueError):
            hours = 0.0
        if not 0 < hours <= MAX_VOTE_HOURS:
            raise ConfigError(f"VOTE_HOURS must be a number of hours above 0 and at most "
                              f"{MAX_VOTE_HOURS:g}, not {config['VOTE_HOURS']!r}")


def check_redis(config: dict[str, Any]) -> None:
    """Refuse REDIS_CLUSTER without REDIS_URL (a node) or without QUEUE_REDIS_URL."""
    if not config.get("REDIS_CLUSTER") or config.get("REDIS_CLIENT"):
        return
    if not config.get("REDIS_URL"):
        raise ConfigError("REDIS_CLUSTER=1 needs REDIS_URL: any node of the cluster, "
                          "e.g. redis://10.0.0.5:7000")
    if not config.get("QUEUE_REDIS_URL"):
        raise ConfigError("REDIS_CLUSTER=1 needs QUEUE_REDIS_URL: a plain (non-cluster) "
                          "Redis for the job queue, since RQ cannot use a cluster")
