"""Inbound mail's SMTP door under ``ravenpost serve`` (development; production uses
SendGrid Inbound Parse, see service.inbound).

An aiosmtpd server on 127.0.0.1 (``INBOUND_SMTP_PORT``, 2525) in a thread of the serve
process: it accepts recipients at ``INBOUND_DOMAIN`` only (550 for any other), stores
each message's raw bytes once through :func:`worker.inbox.store` (door ``smtp``, the
envelope's recipients beside it), hands it to the worker and answers 250.  Messages over
:data:`worker.inbox.MAX_BYTES` are refused (552); a Redis outage answers 451, so the
sending client tries again later.  It listens on the loopback only: anyone who can reach
it can post a reply, and only the reply token in the address authorises a move.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiosmtpd.controller import Controller
from redis.exceptions import RedisError

from worker import inbox

log = logging.getLogger(__name__)


class InboxHandler:
    """aiosmtpd handler: reply addresses in, raw messages to the inbox."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime

    @property
    def domain(self) -> str:
        return str(self.runtime.config["INBOUND_DOMAIN"]).lower()

    async def handle_RCPT(self, server, session, envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if address.rpartition("@")[2].lower() != self.domain:
            return f"550 5.1.1 <{address}>: this server takes mail for @{self.domain} only"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope) -> str:
        raw = envelope.original_content or b""
        # Redis (and, in tests, inline jobs) block: off the event loop.
        return await asyncio.get_running_loop().run_in_executor(
            None, self.deliver, raw, list(envelope.rcpt_tos))

    def deliver(self, raw: bytes, rcpt_tos: list[str]) -> str:
        """Store and hand over one message; the SMTP answer."""
        runtime = self.runtime
        try:
            key, new = inbox.store(runtime.redis, door="smtp", raw=raw, envelope_to=rcpt_tos,
                                   received_at=runtime.now().timestamp())
        except inbox.TooLarge:
            return "552 5.3.4 Message too big for this server"
        except ValueError:
            return "554 5.6.0 No message"
        except RedisError:
            log.exception("smtp receiver: could not store a message")
            return "451 4.3.0 Temporary failure; please try again later"
        try:
            if new or inbox.is_pending(runtime.redis, key):
                inbox.enqueue(runtime, key)
        except Exception:  # stored and pending: the sweep hands it over within a minute
            log.exception("smtp receiver: could not enqueue %s", key)
        log.info("smtp receiver: %s %s for %s", "stored" if new else "already had", key,
                 ", ".join(rcpt_tos))
        return "250 OK"


def port_of(config: dict[str, Any]) -> int:
    """``INBOUND_SMTP_PORT`` as a number (the environment gives text); ValueError with a
    clear message if it is not a port (0: off)."""
    value = config.get("INBOUND_SMTP_PORT") or 0
    try:
        port = int(str(value).strip())
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise ValueError(f"INBOUND_SMTP_PORT must be a port number (0: off), not {value!r}")
    return port


def start(app_or_runtime: Any, host: str = "127.0.0.1", port: int = 2525) -> Controller:
    """Start the receiver (a thread) for a Flask app or a worker Runtime; ``stop()`` the
    controller it returns to end it.  Raises OSError/RuntimeError if it cannot listen."""
    extensions = getattr(app_or_runtime, "extensions", None)
    runtime = extensions["ravenpost"] if extensions is not None else app_or_runtime
    controller = Controller(InboxHandler(runtime), hostname=host, port=port,
                            data_size_limit=inbox.MAX_BYTES, ready_timeout=10)
    controller.start()
    return controller
