"""The SMTP door of `ravenpost serve`, on a real Redis: reply addresses in, each message
stored once and handed to the worker's queue."""

from __future__ import annotations

import smtplib
import socket

import pytest
import redis
from rq import Queue
from rq.job import Job

from service import smtp_receiver
from worker import inbox
from worker.queue import Enqueuer

DOMAIN = "reply.ravenpost.localhost"  # INBOUND_DOMAIN's default


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def message(message_id: str = "<m1@mail.example.com>", body: str = "ante 3") -> bytes:
    return (f"Message-ID: {message_id}\r\nFrom: Ada <ada@example.com>\r\n"
            f"To: play+abc@{DOMAIN}\r\nSubject: Re: Your turn\r\n\r\n{body}\r\n").encode()


@pytest.fixture
def queue_client(real_redis_url):
    return redis.Redis.from_url(real_redis_url)  # bytes, as RQ wants


@pytest.fixture
def receiver(real_app, queue_client):
    """The receiver on a free port, for an app whose jobs are queued (not run)."""
    runtime = real_app.extensions["ravenpost"]
    runtime.enqueuer = Enqueuer(queue_client, game_redis=runtime.redis)
    port = free_port()
    controller = smtp_receiver.start(real_app, "127.0.0.1", port)
    yield runtime, port
    controller.stop()


def test_a_reply_is_stored_pending_and_enqueued(receiver, queue_client):
    runtime, port = receiver
    raw = message()
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        refused = smtp.sendmail("ada@example.com", [f"play+abc@{DOMAIN}"], raw)
    assert refused == {}
    key = inbox.key_for(raw=raw)
    stored = inbox.load(runtime.redis, key)
    assert stored["door"] == "smtp"
    assert stored["envelope_to"] == [f"play+abc@{DOMAIN}"]
    assert b"ante 3" in stored["raw"] and b"Message-ID: <m1@mail.example.com>" in stored["raw"]
    assert inbox.is_pending(runtime.redis, key)
    assert Queue("ravenpost", connection=queue_client).job_ids == [f"inbound-{key}"]
    job = Job.fetch(f"inbound-{key}", connection=queue_client)
    assert (job.func_name, job.args) == ("worker.replies.handle", (key,))


def test_a_recipient_at_another_domain_is_refused_with_550(receiver):
    runtime, port = receiver
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.ehlo()
        smtp.mail("ada@example.com")
        code, text = smtp.rcpt("someone@example.org")
        assert code == 550 and DOMAIN.encode() in text
        smtp.rset()
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            smtp.sendmail("ada@example.com", ["someone@example.org"], message())
    assert runtime.redis.zcard(inbox.PENDING) == 0


def test_the_domain_is_matched_without_regard_to_case(receiver):
    runtime, port = receiver
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        assert smtp.sendmail("ada@example.com", [f"PLAY+abc@{DOMAIN.upper()}"], message()) == {}
    assert runtime.redis.zcard(inbox.PENDING) == 1


def test_the_same_message_id_twice_is_stored_once(receiver, queue_client):
    runtime, port = receiver
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.sendmail("ada@example.com", [f"play+abc@{DOMAIN}"], message())
        smtp.sendmail("ada@example.com", [f"play+abc@{DOMAIN}"], message(body="ante 4"))
    key = inbox.key_for(raw=message())
    assert runtime.redis.zrange(inbox.PENDING, 0, -1) == [key]
    assert b"ante 3" in inbox.load(runtime.redis, key)["raw"]  # the first one stays
    assert Queue("ravenpost", connection=queue_client).job_ids == [f"inbound-{key}"]


def test_a_message_over_a_megabyte_is_refused(receiver):
    runtime, port = receiver
    big = message() + b"x" * (inbox.MAX_BYTES + 10)
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        with pytest.raises((smtplib.SMTPDataError, smtplib.SMTPSenderRefused,
                            smtplib.SMTPServerDisconnected)):
            smtp.sendmail("ada@example.com", [f"play+abc@{DOMAIN}"], big)
    assert runtime.redis.zcard(inbox.PENDING) == 0


def test_the_receiver_listens_on_the_loopback_only(receiver):
    _runtime, port = receiver
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        assert sock.getpeername()[0] == "127.0.0.1"
    addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                            socket.AF_INET)}
    for address in addresses - {"127.0.0.1", "127.0.1.1"}:
        with pytest.raises(OSError):
            socket.create_connection((address, port), timeout=2).close()
