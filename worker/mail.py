"""Mail backends behind one interface: ``outbox`` (Redis, browsable at /dev/mail),
``console`` (stdout) and ``sendgrid`` (the official client, with retries).

Contract shared by every backend: ``send(email)`` returns once the mail is accepted;
a permanent failure raises :class:`MailError`; transient failures are retried inside
the backend (SendGrid) or propagate as the underlying error (Redis connection errors
from the outbox) so the calling RQ job can be retried as a whole.

Idempotency: every :class:`Email` carries a ``key`` such as
``turn:<game>:<version>:<seat>``. The worker deduplicates on it before sending; the
outbox also refuses a second copy of a key (defence in depth) and SendGrid receives it
as the custom arg ``ravenpost_key`` and the header ``X-Ravenpost-Key`` so duplicates
are at least visible in SendGrid's event webhook and in the recipient's mailbox.
SendGrid itself has no idempotency keys: a request that timed out may have been
delivered, and retrying it can then produce a duplicate. That is the price of retrying
on connection errors, which we accept over losing a turn notification.
"""

from __future__ import annotations

import base64
import http.client
import json
import logging
import random as _random
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parseaddr, parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:  # redis is only needed for typing; callers pass the client in.
    from redis import Redis

log = logging.getLogger(__name__)

__all__ = [
    "Email",
    "InlineImage",
    "MailBackend",
    "MailError",
    "OutboxBackend",
    "ConsoleBackend",
    "SendGridBackend",
    "make_backend",
    "BACKENDS",
]

BACKENDS = ("outbox", "console", "sendgrid")


class MailError(Exception):
    """A send failed for good inside the backend: rejected, or retries exhausted.

    ``status`` is the last HTTP status (None for connection errors or local refusals).
    ``transient`` is True when the backend gave up on a failure that might pass (429,
    5xx, connection errors): the caller may try again much later, e.g. on the next
    deadline sweep, whereas a rejected email (``transient=False``) never will succeed.
    """

    def __init__(self, message: str, *, status: int | None = None, transient: bool = False):
        super().__init__(message)
        self.status = status
        self.transient = transient


# Characters that must never reach a mail header: controls (CR and LF above all, which
# would start a header of their own), Unicode line breaks, and bidi overrides.
_HEADER_BREAKERS = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]+")


def header_safe(value: str) -> str:
    """``value`` with every run of header-breaking characters made one space."""
    return _HEADER_BREAKERS.sub(" ", value).strip()


@dataclass(frozen=True)
class InlineImage:
    """An image shown inside the HTML part (``<img src="cid:<cid>">``), not offered as a
    download: every backend sends it with ``Content-Disposition: inline`` and this
    ``Content-ID``.  The plain-text part never refers to it."""

    cid: str
    filename: str
    data: bytes
    mime_type: str = "image/png"

    def __post_init__(self) -> None:
        for name in ("cid", "filename", "mime_type"):
            value = getattr(self, name)
            if not value or header_safe(value) != value or any(c in value for c in '<>"'):
                raise MailError(f"refused: an inline image's {name} {value!r} is not header-safe")


@dataclass(frozen=True)
class Email:
    """One outgoing email: both a plain-text and an HTML part, plus an idempotency key.

    Names are validated where they come in, but games created before that, and any
    future path, must still never inject a header: the subject is cleaned, and an
    address or header value that would need cleaning is refused for good."""

    to: str
    subject: str
    text: str
    html: str
    key: str
    headers: dict[str, str] = field(default_factory=dict)
    inline: tuple[InlineImage, ...] = ()  # images the HTML part shows by cid:

    def __post_init__(self) -> None:
        object.__setattr__(self, "subject", header_safe(self.subject))
        for name, value in [("to", self.to), *self.headers.items()]:
            if header_safe(value) != value.strip() or header_safe(name) != name:
                raise MailError(f"refused: a line break or control character in {name!r}")


class MailBackend(Protocol):
    """What the worker needs from a mail backend."""

    def send(self, email: Email) -> None:
        """Deliver ``email``; raise :class:`MailError` if it can never be delivered."""
        ...


def _str(value: Any) -> str:
    """Decode a Redis reply so the outbox works with or without ``decode_responses``."""
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _address(value: str) -> str:
    """The bare, lower-cased address of ``"Name <addr>"`` or ``"addr"``."""
    return (parseaddr(value)[1] or value).strip().lower()


# ---------------------------------------------------------------------------------------
# Outbox: the development backend
# ---------------------------------------------------------------------------------------


# KEYS: the key's claim, the email's hash, the index.  ARGV: the email's id, the claim's
# seconds to live, its index score, then the hash's fields and values.  Answers the id
# stored under the key: this one's, or an earlier copy's (then nothing is written).
_STORE = """
local earlier = redis.call('GET', KEYS[1])
if earlier then return earlier end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return ARGV[1]
"""


class OutboxBackend:
    """Stores mail in Redis for the /dev/mail browser instead of sending it.

    Keys (all under ``rp:outbox``):

    - ``rp:outbox`` — sorted set of email ids, scored by a global sequence number, so
      ``ZREVRANGE`` lists newest first even if the senders' clocks disagree;
    - ``rp:outbox:<id>`` — hash with ``id, to, subject, text, html, key, headers`` (JSON),
      ``at`` (UTC ISO 8601) and, if the email has inline images, ``inline`` (JSON: a list
      of ``{cid, filename, type, data}``, ``data`` base64: the client decodes replies);
    - ``rp:outbox:seq`` — counter behind the ids and scores;
    - ``rp:outbox:key:<key>`` — the id stored under an idempotency key (``SET NX``), which
      makes a second send of the same key a no-op. Expires after ``dedupe_ttl`` seconds.

    Ids look like ``<unix ms, 13 digits>-<seq>``: unique, URL-safe and time-ordered to
    the millisecond (the index score, not the id string, is the exact order).
    Only the newest ``max_items`` emails are kept, so a long-running dev box does not
    grow without bound.

    The claim of the key and the email are written by one script (:data:`_STORE`), so
    they land together or not at all: a claim without its email (a worker killed between
    two commands, or a write run twice because its reply was lost and the client sent it
    again) would make every retry of the job a "duplicate" and the email would never be
    stored.

    On a Redis Cluster the prefix is ``rp:{outbox}`` (``CLUSTER_PREFIX``): the hash tag
    keeps every outbox key in one slot, so its MULTIs stay legal.  The outbox is the
    development and test backend (a thousand emails at most), so one slot is plenty.
    """

    PREFIX = "rp:outbox"
    CLUSTER_PREFIX = "rp:{outbox}"

    def __init__(
        self,
        redis: Redis,
        *,
        max_items: int = 1000,
        dedupe_ttl: int = 30 * 24 * 3600,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        from events.shards import is_cluster
        self.redis = redis
        if is_cluster(redis):
            self.PREFIX = self.CLUSTER_PREFIX
        self.max_items = max_items
        self.dedupe_ttl = dedupe_ttl
        self.clock = clock

    # Key helpers -----------------------------------------------------------------------
    @property
    def index_key(self) -> str:
        return self.PREFIX

    def _mail_key(self, mail_id: str) -> str:
        return f"{self.PREFIX}:{mail_id}"

    def _dedupe_key(self, key: str) -> str:
        return f"{self.PREFIX}:key:{key}"

    # API -------------------------------------------------------------------------------
    def send(self, email: Email) -> None:
        """Store ``email`` unless its key was already stored."""
        now = self.clock()
        seq = int(self.redis.incr(f"{self.PREFIX}:seq"))
        mail_id = f"{int(now.timestamp() * 1000):013d}-{seq}"
        dedupe_key = self._dedupe_key(email.key)
        record = {
            "id": mail_id,
            "to": email.to,
            "subject": email.subject,
            "text": email.text,
            "html": email.html,
            "key": email.key,
            "headers": json.dumps(email.headers, sort_keys=True),
            "at": now.astimezone(UTC).isoformat(timespec="seconds"),
        }
        if email.inline:
            record["inline"] = json.dumps([
                {"cid": i.cid, "filename": i.filename, "type": i.mime_type,
                 "data": base64.b64encode(i.data).decode("ascii")} for i in email.inline])
        fields = [part for item in record.items() for part in item]
        stored = self.redis.eval(_STORE, 3, dedupe_key, self._mail_key(mail_id),
                                 self.index_key, mail_id, self.dedupe_ttl, seq, *fields)
        if _str(stored) != mail_id:  # the key was stored before, by this job or another
            log.info("outbox: skipped duplicate email key=%s to=%s", email.key, email.to)
            return
        log.info("outbox: stored email %s key=%s to=%s", mail_id, email.key, email.to)
        self._trim()

    def _trim(self) -> None:
        """Drop the oldest emails beyond ``max_items``."""
        excess = int(self.redis.zcard(self.index_key)) - self.max_items
        if excess <= 0:
            return
        old_ids = [_str(i) for i in self.redis.zrange(self.index_key, 0, excess - 1)]
        if not old_ids:
            return
        pipe = self.redis.pipeline(transaction=True)
        pipe.zrem(self.index_key, *old_ids)
        pipe.delete(*(self._mail_key(i) for i in old_ids))
        pipe.execute()

    def list(self, limit: int = 50, to: str | None = None) -> list[dict[str, str]]:
        """Newest-first summaries ``{id, to, subject, at, key}``; ``to`` filters by
        recipient address (case-insensitive; display names are ignored)."""
        if limit <= 0:
            return []
        want = _address(to) if to else None
        out: list[dict[str, str]] = []
        start, page = 0, max(limit, 100)
        while len(out) < limit:
            ids = [_str(i) for i in self.redis.zrevrange(self.index_key, start, start + page - 1)]
            if not ids:
                break
            pipe = self.redis.pipeline(transaction=False)
            for mail_id in ids:
                pipe.hmget(self._mail_key(mail_id), ["id", "to", "subject", "at", "key"])
            for row in pipe.execute():
                if row[0] is None:  # trimmed or cleared between the two reads
                    continue
                item = dict(zip(("id", "to", "subject", "at", "key"), map(_str, row), strict=True))
                if want is not None and _address(item["to"]) != want:
                    continue
                out.append(item)
                if len(out) == limit:
                    break
            start += page
        return out

    def get(self, mail_id: str) -> dict[str, Any] | None:
        """All fields of one email (``headers`` as a dict; ``inline`` as a list of
        ``{cid, filename, type, size}``, without the bytes), or None if unknown."""
        raw = self.redis.hgetall(self._mail_key(mail_id))
        if not raw:
            return None
        item: dict[str, Any] = {_str(k): _str(v) for k, v in raw.items()}
        item["headers"] = json.loads(item.get("headers") or "{}")
        item["inline"] = [
            {"cid": i["cid"], "filename": i["filename"], "type": i["type"],
             "size": len(base64.b64decode(i["data"]))}
            for i in json.loads(item.get("inline") or "[]")]
        return item

    def inline_image(self, mail_id: str, cid: str) -> InlineImage | None:
        """The inline image ``cid`` of one stored email, or None."""
        raw = self.redis.hget(self._mail_key(mail_id), "inline")
        for i in json.loads(_str(raw) or "[]") if raw else []:
            if i["cid"] == cid:
                return InlineImage(i["cid"], i["filename"], base64.b64decode(i["data"]),
                                   i["type"])
        return None

    def clear(self) -> int:
        """Delete every stored email and dedupe key; returns how many emails were removed.

        Forgetting the dedupe keys is deliberate: after a clear a developer replaying a
        game wants to see its mail again. The worker's own dedupe is unaffected.
        """
        count = int(self.redis.zcard(self.index_key))
        batch: list[str] = [self.index_key]
        for k in self.redis.scan_iter(match=f"{self.PREFIX}:*", count=500):
            batch.append(_str(k))
            if len(batch) >= 500:
                self.redis.delete(*batch)
                batch = []
        if batch:
            self.redis.delete(*batch)
        return count


# ---------------------------------------------------------------------------------------
# Console: print instead of sending
# ---------------------------------------------------------------------------------------


class ConsoleBackend:
    """Prints each email (headers and the plain-text part) to a stream."""

    _lock = threading.Lock()  # one email's lines must not interleave with another's

    def __init__(self, stream: TextIO | None = None) -> None:
        # Resolved at send time when None, so pytest's capsys and redirected stdout work.
        self.stream = stream

    def send(self, email: Email) -> None:
        stream = self.stream if self.stream is not None else sys.stdout
        lines = [
            "=" * 72,
            f"To: {email.to}",
            f"Subject: {email.subject}",
            f"Key: {email.key}",
            *(f"{name}: {value}" for name, value in sorted(email.headers.items())),
            "-" * 72,
            email.text.rstrip("\n"),
            "-" * 72,
            f"(HTML part: {len(email.html)} characters)",
            *(f"(inline image cid:{i.cid}: {i.filename}, {i.mime_type}, {len(i.data)} bytes)"
              for i in email.inline),
            "=" * 72,
        ]
        with self._lock:
            stream.write("\n".join(lines) + "\n")
            stream.flush()


# ---------------------------------------------------------------------------------------
# SendGrid: the production backend
# ---------------------------------------------------------------------------------------


class SendGridBackend:
    """Sends through SendGrid's v3 API with the official ``sendgrid`` client.

    Retries on HTTP 429, 5xx and connection errors: up to ``max_retries`` retries after
    the first attempt (so at most ``max_retries + 1`` requests), sleeping
    ``backoff * 2**attempt`` seconds (attempt = 0, 1, ...), with "equal jitter" (between
    half and all of that) so many workers hit by one 429 do not retry in lockstep, and
    capped at ``max_backoff``. A 429 (or 503) with ``Retry-After`` waits that long
    instead, capped at ``max_retry_after``. Other 4xx are never retried: they are logged
    with status and response body and raised as :class:`MailError`.

    The retries run inside one RQ job, so their total is bounded: the backend gives up
    early rather than sleep more than ``max_total_sleep`` seconds in all. Worst case per
    send is about ``max_total_sleep + (max_retries + 1) * timeout`` = 60 + 60 s with the
    defaults, inside RQ's default 180 s job timeout. The worker's email lease (15 s,
    :mod:`worker.notify`) is renewed all along, so no other job sends the same email
    meanwhile however long the sequence takes.
    """

    KEY_HEADER = "X-Ravenpost-Key"
    KEY_ARG = "ravenpost_key"

    def __init__(
        self,
        api_key: str,
        sender: str,
        host: str | None = None,
        max_retries: int = 5,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
        *,
        timeout: float = 10.0,
        max_backoff: float = 30.0,
        max_retry_after: float = 30.0,
        max_total_sleep: float = 60.0,
        jitter: Callable[[], float] = _random.random,
    ) -> None:
        import sendgrid  # imported here so the other backends work without it installed

        if not api_key:
            raise ValueError("SendGridBackend needs an API key")
        if not sender:
            raise ValueError("SendGridBackend needs a sender address")
        self.sender = sender
        self.max_retries = max_retries
        self.backoff = backoff
        self.sleep = sleep
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.max_total_sleep = max_total_sleep
        self.jitter = jitter
        kwargs = {"host": host} if host else {}
        self.client = sendgrid.SendGridAPIClient(api_key=api_key, **kwargs)
        # The client has no timeout by default; a hung connection would hang the worker.
        # Child clients built for /mail/send copy this attribute.
        self.client.client.timeout = timeout

    def build_message(self, email: Email) -> Any:
        """The ``sendgrid.helpers.mail.Mail`` for ``email`` (text/plain before text/html,
        inline images as attachments with ``disposition: inline`` and their content id)."""
        from sendgrid.helpers.mail import (
            Attachment,
            ContentId,
            CustomArg,
            Disposition,
            FileContent,
            FileName,
            FileType,
            Header,
            Mail,
        )

        if not email.text and not email.html:
            raise MailError(f"email {email.key!r} has neither a text nor an HTML part")
        message = Mail(
            from_email=self.sender,
            to_emails=email.to,
            subject=email.subject,
            # SendGrid rejects empty content values, so an empty part is left out.
            plain_text_content=email.text or None,
            html_content=email.html or None,
        )
        for name, value in email.headers.items():
            message.header = Header(name, value)
        message.header = Header(self.KEY_HEADER, email.key)
        message.custom_arg = CustomArg(self.KEY_ARG, email.key)
        for image in email.inline:
            message.attachment = Attachment(
                FileContent(base64.b64encode(image.data).decode("ascii")),
                FileName(image.filename), FileType(image.mime_type),
                Disposition("inline"), ContentId(image.cid))
        return message

    def _delay(self, attempt: int) -> float:
        base = min(self.backoff * 2**attempt, self.max_backoff)
        return base * (0.5 + 0.5 * self.jitter())

    def _retry_after(self, headers: Any) -> float | None:
        """Seconds from a ``Retry-After`` header (delta-seconds or HTTP date), capped."""
        value = headers.get("Retry-After") if headers is not None else None
        if not value:
            return None
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            seconds = (when - datetime.now(UTC)).total_seconds()
        return min(max(seconds, 0.0), self.max_retry_after)

    def send(self, email: Email) -> None:
        from python_http_client.exceptions import HTTPError

        message = self.build_message(email).get()
        attempt, slept = 0, 0.0
        while True:
            try:
                response = self.client.send(message)
            except HTTPError as exc:
                status = int(exc.status_code)
                body = _body_text(exc.body)
                retryable = status == 429 or 500 <= status <= 599
                if not retryable:
                    log.error(
                        "SendGrid rejected email key=%s to=%s: HTTP %s %s",
                        email.key, email.to, status, body,
                    )
                    raise MailError(
                        f"SendGrid rejected the email: HTTP {status} {body}", status=status
                    ) from exc
                reason = f"HTTP {status} {body}"
                wait = self._retry_after(exc.headers) if status in (429, 503) else None
            except (OSError, http.client.HTTPException) as exc:
                # URLError (refused, DNS), timeouts and dropped connections.
                status = None
                reason = f"connection error: {exc!r}"
                wait = None
            else:
                log.info(
                    "SendGrid accepted email key=%s to=%s: HTTP %s message-id=%s",
                    email.key, email.to, response.status_code,
                    response.headers.get("X-Message-Id") if response.headers else None,
                )
                return
            delay = wait if wait is not None else self._delay(attempt)
            if attempt >= self.max_retries or slept + delay > self.max_total_sleep:
                log.error(
                    "SendGrid send failed after %d attempts, giving up: key=%s to=%s: %s",
                    attempt + 1, email.key, email.to, reason,
                )
                raise MailError(
                    f"SendGrid send failed after {attempt + 1} attempts: {reason}",
                    status=status,
                    transient=True,
                )
            log.warning(
                "SendGrid send failed (attempt %d of %d), retrying in %.2fs: key=%s: %s",
                attempt + 1, self.max_retries + 1, delay, email.key, reason,
            )
            self.sleep(delay)
            slept += delay
            attempt += 1


def _body_text(body: Any, limit: int = 2000) -> str:
    """A response body as loggable text, truncated."""
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    text = str(body or "").strip()
    return text if len(text) <= limit else text[:limit] + "..."


# ---------------------------------------------------------------------------------------
# Factory
# ---------------------------------------------------------------------------------------


def make_backend(
    name: str,
    *,
    redis: Redis | None = None,
    api_key: str | None = None,
    sender: str | None = None,
    host: str | None = None,
) -> MailBackend:
    """The backend called ``name`` ("outbox", "console" or "sendgrid").

    The caller reads configuration (e.g. ``SENDGRID_API_KEY``) and passes it in; this
    function never reads the environment, so a missing key fails here, loudly.
    """
    normalized = (name or "").strip().lower()
    if normalized == "outbox":
        if redis is None:
            raise ValueError("mail backend 'outbox' needs a Redis client (redis=...)")
        return OutboxBackend(redis)
    if normalized == "console":
        return ConsoleBackend()
    if normalized == "sendgrid":
        if not api_key:
            raise ValueError(
                "mail backend 'sendgrid' needs an API key (set SENDGRID_API_KEY)"
            )
        if not sender:
            raise ValueError("mail backend 'sendgrid' needs a sender address (sender=...)")
        return SendGridBackend(api_key, sender, host=host)
    raise ValueError(
        f"unknown mail backend {name!r}; expected one of: {', '.join(BACKENDS)}"
    )
