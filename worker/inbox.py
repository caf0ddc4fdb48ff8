"""Inbound mail, stored once and handed to the worker (both doors use this).

A door (``service.inbound`` for SendGrid Inbound Parse, ``service.smtp_receiver`` under
``ravenpost serve``) authenticates a message, calls :func:`store`, then :func:`enqueue`
if there is work, and answers at once; the job ``worker.replies.handle(key)`` parses
and decides, then calls :func:`done`.

Keys:

- ``rp:inbound:{<key>}`` -- a hash, written once (a script: nothing if the key exists)
  and kept ``TTL`` (4 days, longer than SendGrid's 3 days of retries): it is the dedupe
  record as well as the message.  Fields: ``door`` (``sendgrid``/``smtp``), ``raw`` (the
  message's bytes, **base64**, so that any client, whatever its ``decode_responses``,
  reads it back intact; absent if none), ``fields`` (JSON object of str, SendGrid's form
  fields already decoded to text, see ``service.inbound``; absent if none),
  ``envelope_to`` (JSON list), ``received_at`` (unix seconds), and ``done`` (unix seconds,
  once handled).
- ``rp:inbound:pending`` -- sorted set of keys not yet done, scored by when they were
  last handed to the worker; :func:`sweep` enqueues again those waiting over a minute.

``<key>`` is the first 32 hex digits of the SHA-256 of the Message-ID (the raw headers,
or SendGrid's ``headers``/``email`` field), so a retry of the same message, through
either door, stores nothing new; a message without Message-ID is keyed by its content.
(A Message-ID is the sender's choice: someone who knew the Message-ID of a reply before
it was sent could pre-empt it; mail clients make them random, so this is accepted.)

The hash and the pending set live in different Redis Cluster slots, so they are written
one after the other: the hash first; a message found stored but neither pending nor
done (a door that died between the two) is made pending again by the next
:func:`store` of it (SendGrid retries whatever was not answered 2xx).
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import time
from email.parser import BytesHeaderParser, HeaderParser
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

PENDING = "rp:inbound:pending"
TTL = 4 * 24 * 3600  # SendGrid retries for 3 days: the dedupe record outlives that
MAX_BYTES = 1024 * 1024  # a raw message, or the stored fields together
RETRY_AFTER = 60  # seconds a pending message waits before the sweep enqueues it again
SWEEP_BATCH = 200  # pending messages one sweep looks at, at most
JOB = "worker.replies.handle"

# KEYS: the message's hash.  ARGV: TTL, then field, value, ...  1 if written, 0 if the
# key existed (a retry, or the other door had it first).
_STORE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""
# KEYS: the message's hash.  ARGV: the time.  Marks it done only if it still exists (an
# HSET on an expired key would make a record that never expires).
_DONE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'done', ARGV[1])
return 1
"""


class TooLarge(ValueError):
    """A message (or its fields) larger than :data:`MAX_BYTES`: the door answers 413."""


def message_key(key: str) -> str:
    """The Redis key of the message stored under ``key``."""
    return f"rp:inbound:{{{key}}}"


def message_id(raw: bytes | None = None, fields: dict[str, str] | None = None) -> str | None:
    """The Message-ID (whitespace removed) of a raw message, or of SendGrid's fields
    (``headers`` in parsed mode, ``email`` in raw mode); None if there is none."""
    found = None
    if raw is not None:
        found = BytesHeaderParser().parsebytes(_head(raw)).get("Message-ID")
    elif fields:
        for name in ("headers", "email"):
            if fields.get(name):
                found = HeaderParser().parsestr(fields[name], headersonly=True).get("Message-ID")
                if found:
                    break
    text = "".join(str(found).split()) if found is not None else ""
    return text or None


def key_for(raw: bytes | None = None, fields: dict[str, str] | None = None) -> str:
    """The inbox key of a message: its Message-ID's hash, else its content's."""
    found = message_id(raw, fields)
    if found is not None:
        material = b"message-id\0" + found.encode("utf-8", "surrogateescape")
    elif raw is not None:
        material = b"raw\0" + raw
    else:
        material = b"fields\0" + json.dumps(fields or {}, sort_keys=True).encode()
    return hashlib.sha256(material).hexdigest()[:32]


def store(client, *, door: str, raw: bytes | None = None,
          fields: dict[str, str] | None = None, envelope_to: list[str] | tuple = (),
          received_at: float | None = None) -> tuple[str, bool]:
    """Store a message once; its key and whether it was new.  Raises :class:`TooLarge`
    (nothing stored) for a raw message or fields over :data:`MAX_BYTES`, ValueError if
    there is nothing to store."""
    if raw is None and not fields:
        raise ValueError("an inbound message needs raw bytes or fields")
    if raw is not None and len(raw) > MAX_BYTES:
        raise TooLarge(f"the message is larger than {MAX_BYTES // 1024} KiB")
    if fields and sum(len(k) + len(v.encode("utf-8", "surrogatepass"))
                      for k, v in fields.items()) > MAX_BYTES:
        raise TooLarge(f"the message's fields are larger than {MAX_BYTES // 1024} KiB")
    key = key_for(raw, fields)
    at = time.time() if received_at is None else float(received_at)
    record: dict[str, str] = {"door": door, "envelope_to": json.dumps(list(envelope_to)),
                              "received_at": repr(at)}
    if raw is not None:
        record["raw"] = base64.b64encode(raw).decode("ascii")
    if fields:
        record["fields"] = json.dumps(fields, ensure_ascii=False)
    words = [part for item in record.items() for part in item]
    new = bool(int(client.eval(_STORE, 1, message_key(key), TTL, *words)))
    if new:
        client.zadd(PENDING, {key: at}, nx=True)
    else:  # a retry: pending again unless done (see the module's note on the two writes)
        stored = client.hmget(message_key(key), ["done", "received_at"])
        if stored[0] is None and stored[1] is not None:
            client.zadd(PENDING, {key: float(stored[1])}, nx=True)
    return key, new


def load(client, key: str) -> dict[str, Any] | None:
    """The message stored under ``key``: ``door``, ``raw`` (bytes or None), ``fields``
    (dict or None), ``envelope_to`` (list), ``received_at`` (float), ``done`` (bool);
    None if unknown or expired."""
    found = {_text(k): _text(v) for k, v in client.hgetall(message_key(key)).items()}
    if not found:
        return None
    return {"door": found.get("door"),
            "raw": base64.b64decode(found["raw"]) if "raw" in found else None,
            "fields": json.loads(found["fields"]) if "fields" in found else None,
            "envelope_to": json.loads(found.get("envelope_to") or "[]"),
            "received_at": float(found.get("received_at") or 0),
            "done": "done" in found}


def done(client, key: str) -> None:
    """Mark ``key`` handled: off the pending set; its record stays until it expires (a
    retry of the message then stores nothing)."""
    client.eval(_DONE, 1, message_key(key), repr(time.time()))
    client.zrem(PENDING, key)


def is_done(client, key: str) -> bool:
    """Whether ``key`` was handled (False if unknown)."""
    return client.hget(message_key(key), "done") is not None


def is_pending(client, key: str) -> bool:
    """Whether ``key`` waits for the worker."""
    return client.zscore(PENDING, key) is not None


def job_id(key: str) -> str:
    return f"inbound:{key}"


def enqueue(runtime, key: str) -> None:
    """Hand ``key`` to the worker (``worker.replies.handle``, job id ``inbound:<key>``,
    main queue); a job of that id already waiting or running is left alone.  (Jobs that
    run inline, in tests, run here and may raise.)"""
    enqueuer = runtime.enqueuer
    if enqueuer.queue is not None and enqueuer.status(job_id(key).replace(":", "-")) == "started":
        return  # a second job of the same id would clobber the running one's record
    enqueuer.enqueue(JOB, key, job_id=job_id(key))


def sweep(runtime, *, older_than: float = RETRY_AFTER, now: float | None = None) -> int:
    """Enqueue again the pending messages handed over more than ``older_than`` seconds
    ago (their job lost with a worker, or failed); forget those whose record expired or
    that are done.  How many were enqueued."""
    client = runtime.redis
    now = runtime.now().timestamp() if now is None else now  # the clock the doors use
    keys = [_text(k) for k in client.zrangebyscore(PENDING, "-inf", now - older_than,
                                                   start=0, num=SWEEP_BATCH)]
    count = 0
    for key in keys:
        state = client.hmget(message_key(key), ["received_at", "done"])
        if state[0] is None or state[1] is not None:  # expired, or done
            client.zrem(PENDING, key)
            continue
        client.zadd(PENDING, {key: now}, xx=True)  # next try in a minute, not every sweep
        try:
            enqueue(runtime, key)
            count += 1
        except (RedisConnectionError, RedisTimeoutError):
            raise
        except Exception:  # one bad message (inline jobs) must not hold up the others
            log.exception("inbox sweep: enqueueing %s failed", key)
    return count


def _head(raw: bytes) -> bytes:
    """The header block of a raw message (the parser need not read the body)."""
    ends = [at for at in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if at >= 0]
    return raw[:min(ends) + 2] if ends else raw


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value
