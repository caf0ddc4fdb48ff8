"""The SendGrid backend, through the real ``sendgrid`` client, against a local stand-in."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator

import pytest

from worker.mail import Email, MailError, SendGridBackend

try:  # tests/ may or may not become a package; support both layouts
    from tests.sendgrid_standin import SendGridStandIn
except ImportError:  # pragma: no cover
    from sendgrid_standin import SendGridStandIn

API_KEY = "SG.test-key"
SENDER = "Ravenpost <games@ravenpost.test>"


@pytest.fixture
def standin() -> Iterator[SendGridStandIn]:
    with SendGridStandIn(api_key=API_KEY) as server:
        yield server


class Sleeps(list):
    """Records the delays the backend asks for instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def backend(host: str, sleeps: Sleeps, **kw: object) -> SendGridBackend:
    kw.setdefault("jitter", lambda: 1.0)  # full delay: deterministic
    return SendGridBackend(
        kw.pop("api_key", API_KEY), SENDER, host=host, backoff=0.5, sleep=sleeps,
        timeout=5.0, **kw,
    )


EMAIL = Email(
    to="Ada Lovelace <ada@example.org>",
    subject="Your turn in The King's Guild",
    text="It is your turn.\nhttps://ravenpost.test/play/abc",
    html="<p>It is your <b>turn</b>.</p>",
    key="turn:g1:7:0",
    headers={
        "List-Unsubscribe": "<https://ravenpost.test/mute/abc>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
)


def test_request_body_has_everything(standin: SendGridStandIn) -> None:
    sleeps = Sleeps()
    backend(standin.url, sleeps).send(EMAIL)
    [req] = standin.requests
    assert (req.method, req.path, req.status) == ("POST", "/v3/mail/send", 202)
    assert req.headers["Authorization"] == f"Bearer {API_KEY}"
    assert req.headers["Content-Type"] == "application/json"
    body = req.body
    assert body["from"] == {"name": "Ravenpost", "email": "games@ravenpost.test"}
    assert body["personalizations"][0]["to"] == [
        {"name": "Ada Lovelace", "email": "ada@example.org"}
    ]
    assert body["subject"] == "Your turn in The King's Guild"
    # SendGrid requires text/plain first, then text/html.
    assert body["content"] == [
        {"type": "text/plain", "value": EMAIL.text},
        {"type": "text/html", "value": EMAIL.html},
    ]
    assert body["headers"]["List-Unsubscribe"] == "<https://ravenpost.test/mute/abc>"
    assert body["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert body["headers"]["X-Ravenpost-Key"] == "turn:g1:7:0"
    assert body["custom_args"] == {"ravenpost_key": "turn:g1:7:0"}
    assert sleeps == []


def test_empty_part_is_left_out(standin: SendGridStandIn) -> None:
    e = Email(to="ada@example.org", subject="s", text="plain only", html="", key="k")
    backend(standin.url, Sleeps()).send(e)
    assert standin.sent[0]["content"] == [{"type": "text/plain", "value": "plain only"}]


def test_email_without_any_body_is_refused_before_sending(standin: SendGridStandIn) -> None:
    e = Email(to="ada@example.org", subject="s", text="", html="", key="k")
    with pytest.raises(MailError, match="neither a text nor an HTML part"):
        backend(standin.url, Sleeps()).send(e)
    assert standin.requests == []


def test_retries_on_429_and_500_then_succeeds(standin: SendGridStandIn, caplog) -> None:
    standin.push(429, 500, 502)
    sleeps = Sleeps()
    with caplog.at_level(logging.WARNING, logger="worker.mail"):
        backend(standin.url, sleeps).send(EMAIL)
    assert [r.status for r in standin.requests] == [429, 500, 502, 202]
    assert sleeps == [0.5, 1.0, 2.0]  # backoff * 2**attempt, increasing
    assert len(standin.sent) == 1
    assert sum("retrying" in r.getMessage() for r in caplog.records) == 3


def test_jitter_keeps_delays_between_half_and_full(standin: SendGridStandIn) -> None:
    standin.push(500, 500, 500)
    sleeps = Sleeps()
    backend(standin.url, sleeps, jitter=lambda: 0.0).send(EMAIL)
    assert sleeps == [0.25, 0.5, 1.0]


def test_429_respects_retry_after_capped(standin: SendGridStandIn) -> None:
    standin.push((429, {"Retry-After": "7"}), (429, {"Retry-After": "3600"}))
    sleeps = Sleeps()
    backend(standin.url, sleeps).send(EMAIL)
    assert sleeps == [7.0, 30.0]  # the default cap is 30 s
    assert len(standin.requests) == 3


def test_503_retry_after_is_respected_too(standin: SendGridStandIn) -> None:
    standin.push((503, {"Retry-After": "2"}))
    sleeps = Sleeps()
    backend(standin.url, sleeps).send(EMAIL)
    assert sleeps == [2.0]


def test_total_sleep_is_bounded(standin: SendGridStandIn, caplog) -> None:
    # Retries happen inside one RQ job: stop before sleeping past the budget.
    standin.push(*[(429, {"Retry-After": "30"})] * 5)
    sleeps = Sleeps()
    with pytest.raises(MailError) as info:
        backend(standin.url, sleeps, max_total_sleep=60.0).send(EMAIL)
    assert sleeps == [30.0, 30.0]
    assert len(standin.requests) == 3
    assert (info.value.status, info.value.transient) == (429, True)


def test_retry_after_as_http_date(standin: SendGridStandIn) -> None:
    # A date in the past means "now": no waiting, and no crash on the date format.
    standin.push((429, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}))
    sleeps = Sleeps()
    backend(standin.url, sleeps).send(EMAIL)
    assert sleeps == [0.0]


@pytest.mark.parametrize("status", [400, 401, 403, 404, 413])
def test_no_retry_on_other_4xx(standin: SendGridStandIn, caplog, status: int) -> None:
    standin.push(status)
    sleeps = Sleeps()
    with caplog.at_level(logging.ERROR, logger="worker.mail"):
        with pytest.raises(MailError, match=f"HTTP {status}") as info:
            backend(standin.url, sleeps).send(EMAIL)
    assert (info.value.status, info.value.transient) == (status, False)
    assert len(standin.requests) == 1
    assert sleeps == []
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    message = record.getMessage()
    assert f"HTTP {status}" in message
    assert f"scripted status {status}" in message  # the response body is in the log
    assert "turn:g1:7:0" in message


def test_wrong_api_key_is_a_401_without_retry(standin: SendGridStandIn, caplog) -> None:
    sleeps = Sleeps()
    with caplog.at_level(logging.ERROR, logger="worker.mail"):
        with pytest.raises(MailError, match="HTTP 401"):
            backend(standin.url, sleeps, api_key="SG.wrong").send(EMAIL)
    assert [r.status for r in standin.requests] == [401]
    assert "authorization grant is invalid" in caplog.text
    assert "SG.wrong" not in caplog.text  # never log the key


def test_gives_up_after_max_retries_on_persistent_503(standin: SendGridStandIn, caplog) -> None:
    standin.push(*[503] * 10)
    sleeps = Sleeps()
    with caplog.at_level(logging.ERROR, logger="worker.mail"):
        with pytest.raises(MailError, match="after 4 attempts.*HTTP 503") as info:
            backend(standin.url, sleeps, max_retries=3).send(EMAIL)
    assert (info.value.status, info.value.transient) == (503, True)
    assert len(standin.requests) == 4  # the first attempt plus max_retries retries
    assert sleeps == [0.5, 1.0, 2.0]
    assert "giving up" in caplog.text


def test_backoff_is_capped(standin: SendGridStandIn) -> None:
    standin.push(*[500] * 5)
    sleeps = Sleeps()
    backend(standin.url, sleeps, max_backoff=1.5).send(EMAIL)
    assert sleeps == [0.5, 1.0, 1.5, 1.5, 1.5]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_connection_refused_is_retried_then_fails(caplog) -> None:
    sleeps = Sleeps()
    host = f"http://127.0.0.1:{_free_port()}"  # nothing listens there any more
    with caplog.at_level(logging.WARNING, logger="worker.mail"):
        with pytest.raises(MailError, match="after 3 attempts.*connection error") as info:
            backend(host, sleeps, max_retries=2).send(EMAIL)
    assert (info.value.status, info.value.transient) == (None, True)
    assert sleeps == [0.5, 1.0]
    assert sum("retrying" in r.getMessage() for r in caplog.records) == 2


def test_connection_error_then_recovery(standin: SendGridStandIn) -> None:
    """A refused connection followed by a working server: the retry delivers it once."""
    sleeps = Sleeps()
    good = standin.url
    sg = backend(f"http://127.0.0.1:{_free_port()}", sleeps)
    # After the first failure, point the client at the live stand-in (as if it came up).
    def sleep_then_recover(seconds: float) -> None:
        sleeps.append(seconds)
        sg.client.client.host = good

    sg.sleep = sleep_then_recover
    sg.send(EMAIL)
    assert sleeps == [0.5]
    assert len(standin.sent) == 1
