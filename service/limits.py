"""Limits on what one client may ask of the service: request sizes and rates.

Rates are counted by Flask-Limiter (the ``limits`` library, fixed windows) in the app's own
Redis, so every web process shares the counts and they expire by themselves; an app given
a ``REDIS_CLIENT`` (fakeredis in tests) counts there too.  Three rates are kept:

- the lobby form, per client address (``LOBBY_LIMIT_PER_CLIENT``; behind a reverse proxy,
  set ``TRUSTED_PROXIES`` to the number of proxies that append to X-Forwarded-For, else
  every client shares the proxy's address, and the header is never trusted without it,
  nor from a peer outside ``TRUSTED_PROXY_ADDRESSES``);
- the lobby form, per invitee email address (``LOBBY_LIMIT_PER_INVITEE``), so nobody can
  make the server mail one address over and over;
- games created, per creating person (``API_CREATE_QUOTA``), lobby and API alike; the
  admin token has no quota;
- one-time sign-in links, per address and per client (``SIGN_IN_LIMIT_PER_*``);
- table-talk messages, per seat of a game (``TALK_LIMIT_PER_SEAT``, default in
  ``DEFAULT_RATES``);
- past versions opened on the history pages, per seat's play link
  (``HISTORY_VERSIONS_PER_LINK``, default in ``DEFAULT_RATES``): only a version the link
  has not opened in the last minute counts (:func:`take_history_version`).

Sizes: bodies above ``MAX_CONTENT_LENGTH`` are refused with 413.  Werkzeug enforces that
only when a view reads the body, so a hook here refuses every request whose declared
length is too large before anything reads it, and reads a body of unknown length (chunked
transfer) at once, one byte past the limit at most, so that it too is refused whatever
the view would have done.  A blueprint given a larger limit (:func:`allow_larger_bodies`:
inbound mail) is held to that one instead.
"""

from __future__ import annotations

import io
import ipaddress
import math
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from flask import Blueprint, Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from events.store import key
from games.text import T
from service.config import ConfigError
from service.hooks import api_too

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_LARGER_BODIES = "ravenpost_larger_bodies"  # app.extensions: blueprint name -> body limit


class Limited(TooManyRequests):
    """A 429 that carries a clear message and the seconds until the client may retry."""

    def __init__(self, description: str, retry_after: int) -> None:
        super().__init__(description, retry_after=max(1, retry_after))


def register(app: Flask) -> None:
    """Bind the size limit and the rate limiter (stored in the app's Redis) to ``app``."""

    @app.before_request
    def refuse_large_bodies() -> None:
        if request.method not in BODY_METHODS:
            return
        limit = _body_limit()
        if not limit:
            return
        if request.content_length is not None:
            if request.content_length > limit:
                raise RequestEntityTooLarge(_too_large(limit))
            return
        if "wsgi.input_terminated" not in request.environ:
            return  # Werkzeug reads no body of unknown length from such a server
        # No Content-Length (chunked): read at most one byte past the limit now, whatever
        # the view would do.  (Werkzeug's own limited stream stops quietly at the limit, so
        # a longer body would be cut short rather than refused.)
        raw, body = request.environ["wsgi.input"], bytearray()
        while len(body) <= limit:
            chunk = raw.read(min(64 * 1024, limit + 1 - len(body)))
            if not chunk:
                break
            body += chunk
        if len(body) > limit:
            raise RequestEntityTooLarge(_too_large(limit))
        request.environ["wsgi.input"] = io.BytesIO(bytes(body))

    api_too(app, refuse_large_bodies)

    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if hops:  # the client address is the one the nearest trusted proxies saw
        app.wsgi_app = FromTrustedPeers(  # type: ignore[method-assign]
            app.wsgi_app, ProxyFix(app.wsgi_app, x_for=hops),
            app.config.get("TRUSTED_PROXY_ADDRESSES") or "")

    options = dict(app.config.get("RATELIMIT_STORAGE_OPTIONS") or {})
    if not app.config.get("RATELIMIT_STORAGE_URI"):
        # The app's own Redis (a real server, the embedded one, or fakeredis in tests).
        client = app.extensions["ravenpost"].redis
        app.config["RATELIMIT_STORAGE_URI"] = "redis://"
        options["connection_pool"] = client.connection_pool
    app.config["RATELIMIT_STORAGE_OPTIONS"] = options
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "ravenpost")
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["ravenpost_limiter"] = limiter
    if app.config.get("RATELIMIT_DEFAULT") or app.config.get("RATELIMIT_APPLICATION"):
        # Limits of every route: the API's too.  Else no route of the JSON API carries a
        # Flask-Limiter limit (its quota is counted by take(), which needs no hook), and
        # the limiter's hooks (its walk over its limits, about a twentieth of a move's
        # time in the web process, and its headers) run for pages only.
        for hook in _hooks_of(app, limiter):
            api_too(app, hook)


def limit_lobby_form(app: Flask, lobby: Blueprint) -> None:
    """Rate-limit the lobby form per client address: its page is open to all.  (Given
    the blueprint by the app factory, so this module needs nothing of the lobby's.)"""
    limiter: Limiter = app.extensions["ravenpost_limiter"]
    limiter.limit(lambda: current_app.config["LOBBY_LIMIT_PER_CLIENT"], methods=["POST"],
                  exempt_when=lambda: request.endpoint != "lobby.create",
                  # only games actually started count: a mistyped form costs nothing
                  deduct_when=lambda response: response.status_code == 302,
                  error_message=lambda: T("Too many games were started from your address; "
                                          "please wait a while before starting another."),
                  )(lobby)


def allow_larger_bodies(app: Flask, blueprint: str, limit: int) -> None:
    """Let the requests of ``blueprint`` carry bodies (and form fields) of up to ``limit``
    bytes: inbound mail (``service.inbound``) is far larger than any form.  Checked by
    the size hook above, which runs before any hook of the blueprint's own could."""
    app.extensions.setdefault(_LARGER_BODIES, {})[blueprint] = limit


def limit_per_client(app: Flask, blueprint: Blueprint, limits: str) -> None:
    """Rate-limit every request of ``blueprint`` per client address (``limits`` in
    Flask-Limiter's notation): for machine doors such as inbound mail, which no form
    limit covers."""
    limiter: Limiter = app.extensions["ravenpost_limiter"]
    limiter.limit(limits, error_message=T("Too many requests from your address; "
                                          "please wait a little and try again."))(blueprint)


def _body_limit() -> int | None:
    """The body limit of this request: its blueprint's (set on the request too, so that
    Werkzeug's own reading keeps to it), else ``MAX_CONTENT_LENGTH``."""
    larger = current_app.extensions.get(_LARGER_BODIES, {}).get(request.blueprint or "")
    if larger is None:
        return current_app.config.get("MAX_CONTENT_LENGTH")
    request.max_content_length = larger
    request.max_form_memory_size = larger
    return larger


class FromTrustedPeers:
    """ProxyFix (``fixed``) only for requests whose direct peer (REMOTE_ADDR) is in
    ``TRUSTED_PROXY_ADDRESSES`` (IPs or networks, comma-separated); anyone else's
    X-Forwarded-For is ignored, so a client that reaches the server directly cannot name
    its own address."""

    def __init__(self, app: Any, fixed: Any, addresses: str) -> None:
        self.app, self.fixed = app, fixed
        try:
            self.networks = [ipaddress.ip_network(a.strip(), strict=False)
                             for a in addresses.split(",") if a.strip()]
        except ValueError as exc:
            raise ConfigError(f"TRUSTED_PROXY_ADDRESSES: {exc}") from None

    def trusted(self, peer: str | None) -> bool:
        try:
            address = ipaddress.ip_address(peer or "")
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        app = self.fixed if self.trusted(environ.get("REMOTE_ADDR")) else self.app
        return app(environ, start_response)


def _hooks_of(app: Flask, limiter: Limiter) -> list[Callable[..., Any]]:
    """The app-wide request hooks that ``limiter`` registered (its bound methods, and
    partials of its methods)."""
    found = []
    for funcs in (app.before_request_funcs, app.after_request_funcs,
                  app.teardown_request_funcs):
        for hook in funcs.get(None, []):
            owner = getattr(hook, "__self__", None)
            if owner is None and isinstance(hook, partial) and hook.args:
                owner = hook.args[0]
            if owner is limiter:
                found.append(hook)
    return found


def _too_large(limit: int) -> str:
    return T("The request body is larger than this service accepts (%(kib)s KiB); "
             "nothing was read or changed.", kib=limit // 1024)


def _limiter() -> Limiter:
    return current_app.extensions["ravenpost_limiter"]


# Defaults of limits that have no entry in service.config (an app's config may set them).
DEFAULT_RATES = {
    "TALK_LIMIT_PER_SEAT": "20 per hour;100 per day",  # table-talk messages per seat
    # new past versions opened per play link (the history scrubber, service/play.py)
    "HISTORY_VERSIONS_PER_LINK": "120 per minute;1200 per hour",
}
HISTORY_SEEN_SECONDS = 60  # a version opened again within this counts no more


def _items(setting: str) -> list[RateLimitItem]:
    rates = current_app.config[setting] if setting in current_app.config \
        else DEFAULT_RATES[setting]
    return parse_many(rates)


def take(setting: str, scope: str, keys: Iterable[str], message: str) -> None:
    """Count one use of each key under the limits named by config ``setting``.

    Every key is tested before any is counted, so a refused request uses up nothing;
    raises :class:`Limited` (429 with Retry-After) if any key has no use left.
    """
    limiter = _limiter()
    if not limiter.enabled:
        return
    keys = list(dict.fromkeys(keys))
    strategy, prefix = limiter.limiter, current_app.config["RATELIMIT_KEY_PREFIX"]
    for item in _items(setting):
        for k in keys:
            if not strategy.test(item, prefix, scope, k):
                reset_at = strategy.get_window_stats(item, prefix, scope, k).reset_time
                raise Limited(message, math.ceil(reset_at - time.time()))
    for item in _items(setting):
        for k in keys:
            strategy.hit(item, prefix, scope, k)


def take_invitees(emails: Iterable[str]) -> None:
    """One more lobby invitation to each address, within ``LOBBY_LIMIT_PER_INVITEE``."""
    take("LOBBY_LIMIT_PER_INVITEE", "invitee", (e.strip().lower() for e in emails),
         T("One of these addresses has been invited to too many games lately; "
           "please try again later."))


def take_creator_quota(pid: str) -> None:
    """One more game created by the player ``pid`` (lobby or API, whichever seat's token
    they use: seats in games they created add nothing)."""
    take("API_CREATE_QUOTA", "creator", [pid],
         T("You have created as many games as you may for now (%(quota)s); please try "
           "again later.", quota=current_app.config["API_CREATE_QUOTA"]))


def take_sign_in(address: str, client: str) -> None:
    """One more one-time link mailed to ``address`` at the request of ``client``."""
    take("SIGN_IN_LIMIT_PER_ADDRESS", "sign-in-address", [address.strip().lower()],
         T("Several links were sent to this address lately; please use the newest one or "
           "try again later."))
    take("SIGN_IN_LIMIT_PER_CLIENT", "sign-in-client", [client],
         T("You have asked for many links lately; please try again later."))


def take_message(game_id: str, seat: int) -> None:
    """One more table-talk message by ``seat`` of ``game_id`` (page, API and email
    alike), within ``TALK_LIMIT_PER_SEAT``."""
    take("TALK_LIMIT_PER_SEAT", "talk", [f"{game_id}:{seat}"],
         T("You have written many messages at this table lately; please wait a while "
           "before writing another."))


def retry_after() -> int | None:
    """Seconds until the limit Flask-Limiter found breached in this request resets."""
    limiter = current_app.extensions.get("ravenpost_limiter")
    found = limiter.current_limit if limiter else None
    if found is None:
        return None
    return max(1, math.ceil(found.reset_at - time.time()))


def take_history_version(game_id: str, seat: int, generation: int, version: int) -> None:
    """One more past version of ``game_id`` opened through ``seat``'s play link (every
    token minted for that seat and link generation: the game page mints a fresh one on
    each view, so a limit per token string would be no limit), within
    ``HISTORY_VERSIONS_PER_LINK``.  A version the link opened in the last
    ``HISTORY_SEEN_SECONDS`` costs nothing again (stepping back and forth); each new one
    is a load of that version (events/history_snapshots.py)."""
    if not _limiter().enabled:
        return
    redis = current_app.extensions["ravenpost"].redis
    seen = key(game_id, f"history-seen:{seat}:{generation}")
    if redis.sismember(seen, str(version)):
        return
    take("HISTORY_VERSIONS_PER_LINK", "history", [f"{game_id}:{seat}:{generation}"],
         T("You have opened many past positions of this game in a short time; please "
           "wait a little before opening more. The game page itself is not limited, and "
           "the positions you opened in the last minute open again at once."))
    pipe = redis.pipeline(transaction=False)
    pipe.sadd(seen, str(version))
    pipe.expire(seen, HISTORY_SEEN_SECONDS, nx=True)
    pipe.execute()
