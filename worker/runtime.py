"""Everything a job needs, built once per process from the configuration.

RQ jobs are plain functions with plain arguments (ids, not objects); each reloads what
it needs through the process's :class:`Runtime` (:func:`runtime`; which one that is,
:func:`set_runtime`, is kept in :mod:`worker.current`, below the queue that sets it for
jobs run inline).  The web app builds its own Runtime and, in tests, runs jobs inline
against it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
import redis

from events.archive import Archives, default_url, restorer
from events.gameplay import GameService
from events.replay import Replayer
from events.store import EventStore
from worker.current import runtime as runtime
from worker.current import set_runtime as set_runtime
from worker.links import Links
from worker.mail import MailBackend, make_backend
from worker.queue import Enqueuer
from worker.seen import SeenNotes


def templates_dir() -> Path:
    """Where the Jinja templates are (installed with the package as service.templates)."""
    from importlib import resources
    return Path(str(resources.files("service.templates")))


def names_of(seats, names: list[str]) -> str:
    """The names of ``seats`` (sorted), joined by commas: "Ada, Bo" (a template filter of
    the pages and the emails alike: the games' page partials use it)."""
    return ", ".join(names[s] for s in sorted(seats))


def jinja_env() -> jinja2.Environment:
    """A template environment for emails, with autoescaping for HTML and the filters the
    page partials share with the pages."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        trim_blocks=True, lstrip_blocks=True,
    )
    env.filters["names_of"] = names_of
    return env


def register_extra_games(spec: str | None) -> None:
    """Add game kinds from ``"kind=module:attr,..."`` (RAVENPOST_EXTRA_GAMES): plug-ins."""
    from games import registry
    for item in filter(None, (spec or "").split(",")):
        kind, _, target = item.strip().partition("=")
        registry.KINDS.setdefault(kind, target)


def utc_now() -> datetime:
    """The wall clock, in UTC (the default clock of a runtime)."""
    return datetime.now(UTC)


@dataclass
class Runtime:
    """Connections and services of one process (built by the web app's factory, or by
    `ravenpost worker` from the environment: service/ knows the configuration, this
    floor only uses it)."""

    config: dict[str, Any]
    redis: redis.Redis  # decode_responses=True
    rq_redis: redis.Redis | None = None  # raw bytes, for RQ; None: run jobs inline
    mail: MailBackend | None = None
    # The clock of time controls and of the events this process appends: tests set their
    # own (``rt.clock = lambda: ...``) instead of sleeping.
    clock: Callable[[], datetime] = utc_now
    store: EventStore = field(init=False)
    games: GameService = field(init=False)
    links: Links = field(init=False)
    emails: jinja2.Environment = field(init=False)
    enqueuer: Enqueuer = field(init=False)
    seen_notes: SeenNotes = field(init=False)
    archives: Archives = field(init=False)

    def __post_init__(self) -> None:
        register_extra_games(self.config.get("EXTRA_GAMES"))
        self.store = EventStore(
            self.redis, clock=lambda: self.now().strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
        # an archived game comes back into Redis whenever its log is asked for
        self.archives = Archives(self.config.get("ARCHIVE_URL") or default_url(),
                                 self.config.get("ARCHIVE_S3_ENDPOINT"))
        after = self.config.get("ARCHIVE_AFTER_DAYS")
        self.store.restorer = restorer(self.store, self.archives, keep_for=int(
            float(7 if after in (None, "") else after) * 86400))
        self.games = GameService(self.store)
        self.links = Links(self.config["SECRET_KEY"], self.config["LINK_MAX_AGE"],
                           self.config["PLAY_LINK_MAX_AGE"])
        self.emails = jinja_env()
        self.seen_notes = SeenNotes()
        self.enqueuer = Enqueuer(self.rq_redis, inline_runtime=self, game_redis=self.redis)
        if self.mail is None:
            self.mail = make_backend(
                self.config["MAIL_BACKEND"], redis=self.redis,
                api_key=self.config.get("SENDGRID_API_KEY"),
                sender=self.config.get("MAIL_FROM"), host=self.config.get("SENDGRID_HOST"))

    def now(self) -> datetime:
        """The current time by this runtime's clock (UTC): the ``CLOCK`` setting if the
        configuration has one (the clock votes and quiet hours read), else ``clock``."""
        setting = self.config.get("CLOCK")
        return setting() if setting else self.clock()

    @property
    def replayer(self) -> Replayer:
        return self.games.replayer

    def url(self, path: str) -> str:
        return self.config["BASE_URL"].rstrip("/") + path
