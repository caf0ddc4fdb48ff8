"""Unit tests for the mail backends that need no network: outbox, console, factory."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import fakeredis
import pytest

from worker.mail import (
    ConsoleBackend,
    Email,
    MailBackend,
    OutboxBackend,
    SendGridBackend,
    make_backend,
)


def email(n: int = 1, to: str = "ada@example.org", **kw: object) -> Email:
    fields: dict = {
        "to": to,
        "subject": f"Your turn #{n}",
        "text": f"It is your turn (version {n}).\nhttps://ravenpost.test/play/x",
        "html": f"<p>It is your turn (version {n}).</p>",
        "key": f"turn:g1:{n}:0",
        "headers": {"List-Unsubscribe": "<https://ravenpost.test/mute/abc>"},
    }
    fields.update(kw)
    return Email(**fields)


class Clock:
    """A controllable clock so listing order and timestamps are deterministic."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def redis() -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis(decode_responses=True)


@pytest.fixture
def outbox(redis: fakeredis.FakeRedis) -> OutboxBackend:
    return OutboxBackend(redis, clock=Clock())


# Email ---------------------------------------------------------------------------------


def test_email_is_frozen_and_headers_default_empty() -> None:
    e = Email(to="a@x.org", subject="s", text="t", html="<p>t</p>", key="k")
    assert e.headers == {}
    with pytest.raises(AttributeError):
        e.to = "b@x.org"  # type: ignore[misc]


# Outbox --------------------------------------------------------------------------------


def test_outbox_stores_and_gets_every_field(outbox: OutboxBackend, redis) -> None:
    outbox.send(email(1))
    [summary] = outbox.list()
    assert set(summary) == {"id", "to", "subject", "at", "key"}
    assert summary["to"] == "ada@example.org"
    assert summary["subject"] == "Your turn #1"
    assert summary["at"] == "2026-11-29T12:00:01+00:00"
    full = outbox.get(summary["id"])
    assert full is not None
    assert full["text"].startswith("It is your turn (version 1).")
    assert full["html"] == "<p>It is your turn (version 1).</p>"
    assert full["key"] == "turn:g1:1:0"
    assert full["headers"] == {"List-Unsubscribe": "<https://ravenpost.test/mute/abc>"}
    # The documented key layout, which /dev/mail and operators rely on.
    assert redis.exists(f"rp:outbox:{summary['id']}")
    assert redis.zscore("rp:outbox", summary["id"]) is not None
    assert redis.get("rp:outbox:key:turn:g1:1:0") == summary["id"]


def test_outbox_ids_are_time_ordered_and_listing_is_newest_first(outbox: OutboxBackend) -> None:
    for n in range(1, 6):
        outbox.send(email(n))
    listed = outbox.list()
    assert [s["subject"] for s in listed] == [f"Your turn #{n}" for n in range(5, 0, -1)]
    ids = [s["id"] for s in listed]
    assert ids == sorted(ids, reverse=True)
    assert len(set(ids)) == 5


def test_outbox_list_limit_and_recipient_filter(outbox: OutboxBackend) -> None:
    for n in range(1, 7):
        outbox.send(email(n, to="ada@example.org" if n % 2 else "bob@example.org"))
    assert [s["subject"] for s in outbox.list(limit=2)] == ["Your turn #6", "Your turn #5"]
    bobs = outbox.list(to="Bob@Example.org")
    assert [s["subject"] for s in bobs] == ["Your turn #6", "Your turn #4", "Your turn #2"]
    assert [s["subject"] for s in outbox.list(limit=1, to="ada@example.org")] == ["Your turn #5"]
    assert outbox.list(to="nobody@example.org") == []
    outbox.send(email(7, to="Bob Builder <BOB@example.org>"))
    assert outbox.list(limit=1, to="bob@example.org")[0]["subject"] == "Your turn #7"
    assert outbox.list(limit=0) == []


def test_outbox_dedupes_on_key(outbox: OutboxBackend) -> None:
    outbox.send(email(1))
    outbox.send(email(1))  # a re-run of the same job
    outbox.send(email(1, subject="changed wording, same key"))
    assert len(outbox.list()) == 1
    assert outbox.list()[0]["subject"] == "Your turn #1"
    outbox.send(email(2))
    assert len(outbox.list()) == 2


def test_outbox_get_unknown_is_none(outbox: OutboxBackend) -> None:
    assert outbox.get("nope") is None


def test_outbox_clear_removes_everything_and_forgets_keys(outbox: OutboxBackend, redis) -> None:
    redis.set("rp:other", "keep me")  # not ours: must survive
    for n in range(1, 4):
        outbox.send(email(n))
    assert outbox.clear() == 3
    assert outbox.list() == []
    assert [k for k in redis.keys("rp:outbox*")] == []
    assert redis.get("rp:other") == "keep me"
    outbox.send(email(1))  # after a clear the same key may be stored again
    assert len(outbox.list()) == 1


def test_outbox_keeps_only_max_items(redis) -> None:
    outbox = OutboxBackend(redis, max_items=3, clock=Clock())
    for n in range(1, 6):
        outbox.send(email(n))
    listed = outbox.list()
    assert [s["subject"] for s in listed] == ["Your turn #5", "Your turn #4", "Your turn #3"]
    assert len(redis.keys("rp:outbox:1*")) == 3  # hashes of trimmed mail are gone too


def test_outbox_dedupe_key_expires(redis) -> None:
    OutboxBackend(redis, dedupe_ttl=3600).send(email(1))
    assert 0 < redis.ttl("rp:outbox:key:turn:g1:1:0") <= 3600


def test_outbox_claims_a_key_only_with_its_email(redis, monkeypatch) -> None:
    outbox = OutboxBackend(redis)

    def redis_gone(*a, **kw):
        raise ConnectionError("redis went away")

    monkeypatch.setattr(redis, "eval", redis_gone)
    with pytest.raises(ConnectionError):
        outbox.send(email(1))
    monkeypatch.undo()
    assert redis.keys("rp:outbox:key:*") == []
    outbox.send(email(1))  # the retried job is not mistaken for a duplicate
    assert len(outbox.list()) == 1


def test_outbox_works_without_decode_responses() -> None:
    outbox = OutboxBackend(fakeredis.FakeRedis(), clock=Clock())
    outbox.send(email(1, subject="Ünïcode ✉"))
    [summary] = outbox.list()
    assert summary["subject"] == "Ünïcode ✉"
    full = outbox.get(summary["id"])
    assert full is not None and full["headers"]["List-Unsubscribe"].startswith("<https://")


def test_outbox_is_a_mail_backend(outbox: OutboxBackend) -> None:
    backend: MailBackend = outbox  # static check; and the runtime shape:
    assert callable(backend.send)


# Console -------------------------------------------------------------------------------


def test_console_prints_recipient_subject_and_text() -> None:
    out = io.StringIO()
    ConsoleBackend(stream=out).send(email(3))
    printed = out.getvalue()
    assert "To: ada@example.org" in printed
    assert "Subject: Your turn #3" in printed
    assert "It is your turn (version 3).\nhttps://ravenpost.test/play/x" in printed
    assert "List-Unsubscribe: <https://ravenpost.test/mute/abc>" in printed
    assert "<p>" not in printed  # the HTML part is summarised, not dumped


def test_console_defaults_to_stdout(capsys) -> None:
    ConsoleBackend().send(email(4))
    assert "Subject: Your turn #4" in capsys.readouterr().out


# Factory -------------------------------------------------------------------------------


def test_factory_builds_each_backend(redis) -> None:
    assert isinstance(make_backend("outbox", redis=redis), OutboxBackend)
    assert isinstance(make_backend("console"), ConsoleBackend)
    assert isinstance(make_backend(" Console "), ConsoleBackend)
    sg = make_backend("sendgrid", api_key="SG.x", sender="games@ravenpost.test")
    assert isinstance(sg, SendGridBackend)


@pytest.mark.parametrize(
    ("name", "kwargs", "message"),
    [
        ("smtp", {}, "unknown mail backend 'smtp'"),
        ("", {}, "expected one of: outbox, console, sendgrid"),
        ("outbox", {}, "needs a Redis client"),
        ("sendgrid", {"sender": "games@ravenpost.test"}, "needs an API key"),
        ("sendgrid", {"api_key": "", "sender": "games@ravenpost.test"}, "needs an API key"),
        ("sendgrid", {"api_key": "SG.x"}, "needs a sender"),
    ],
)
def test_factory_errors_are_clear(name: str, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_backend(name, **kwargs)


def test_factory_never_falls_back_to_the_environment(monkeypatch) -> None:
    # The sendgrid client itself would read SENDGRID_API_KEY; the factory must not.
    monkeypatch.setenv("SENDGRID_API_KEY", "SG.from-env")
    with pytest.raises(ValueError, match="needs an API key"):
        make_backend("sendgrid", sender="games@ravenpost.test")


def test_a_subject_never_carries_a_line_break_into_the_headers():
    from worker.mail import Email
    email = Email(to="ada@example.com", subject="Your move\r\nBcc: all@example.com\u202e",
                  text="t", html="h", key="k")
    assert email.subject == "Your move Bcc: all@example.com"


def test_an_address_with_a_line_break_is_refused_for_good():
    import pytest

    from worker.mail import Email, MailError
    with pytest.raises(MailError) as refused:
        Email(to="ada@example.com\r\nBcc: all@example.com", subject="s", text="t", html="h",
              key="k")
    assert not refused.value.transient
