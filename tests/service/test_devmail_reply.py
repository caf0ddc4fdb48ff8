"""The outbox's Reply box: a reply written as a mail client would, sent over SMTP to the
receiver of `ravenpost serve` (here one started by the test)."""

from __future__ import annotations

import re
import socket
from email import message_from_bytes, policy

import fakeredis
import pytest

from service import smtp_receiver
from worker import inbox
from worker.mail import Email
from worker.queue import Enqueuer

REPLY_TO = "play+tok123@reply.ravenpost.localhost"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def app(make_app, port):
    app = make_app(INBOUND_SMTP_PORT=port)
    app.extensions["ravenpost"].enqueuer = Enqueuer(fakeredis.FakeRedis())  # queued, not run
    return app


@pytest.fixture
def receiver(app, port):
    controller = smtp_receiver.start(app, "127.0.0.1", port)
    yield
    controller.stop()


def outbox_mail(app, reply_to: str | None = REPLY_TO) -> str:
    rt = app.extensions["ravenpost"]
    headers = {"Reply-To": reply_to} if reply_to else {}
    rt.mail.send(Email(to="Ada <ada@example.com>", subject="Your turn in Kings #7",
                       text="It is your turn, Ada.\n\nPlay: http://localhost/m/x\n",
                       html="<p>It is your turn, Ada.</p>", key=f"k-{reply_to}",
                       headers=headers))
    return rt.mail.list(limit=1)[0]["id"]


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_a_reply_reaches_the_receiver_as_a_mail_client_writes_it(app, receiver):
    mail_id = outbox_mail(app)
    client = app.test_client()
    page = client.get(f"/dev/mail/{mail_id}").get_data(as_text=True)
    assert f'action="/dev/mail/{mail_id}/reply"' in page and "<textarea" in page
    answer = client.post(f"/dev/mail/{mail_id}/reply",
                         data={"csrf_token": csrf(page), "text": "ante 3\r\nthanks"})
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith("/dev/mail/?replied=1")
    assert "Your reply was handed to the SMTP receiver" in \
        client.get(answer.headers["Location"]).get_data(as_text=True)

    rt = app.extensions["ravenpost"]
    [key] = rt.redis.zrange(inbox.PENDING, 0, -1)
    stored = inbox.load(rt.redis, key)
    assert stored["door"] == "smtp" and stored["envelope_to"] == [REPLY_TO]
    reply = message_from_bytes(stored["raw"], policy=policy.default)
    assert reply["From"] == "Ada <ada@example.com>"
    assert reply["To"] == REPLY_TO
    assert reply["Subject"] == "Re: Your turn in Kings #7"
    assert reply["In-Reply-To"] == f"<outbox-{mail_id}@reply.ravenpost.localhost>"
    assert reply["References"] == reply["In-Reply-To"]
    assert reply["Message-ID"].endswith("@example.com>")
    body = reply.get_content().replace("\r\n", "\n")  # CRLF on the wire
    assert body.startswith("ante 3\nthanks\n\nOn ")
    assert ", Ravenpost wrote:\n> It is your turn, Ada.\n>\n> Play: http://localhost/m/x" in body


def test_an_unreachable_receiver_is_said_plainly_and_nothing_is_sent(app):
    mail_id = outbox_mail(app)
    client = app.test_client()
    page = client.get(f"/dev/mail/{mail_id}").get_data(as_text=True)
    answer = client.post(f"/dev/mail/{mail_id}/reply",
                         data={"csrf_token": csrf(page), "text": "ante 3"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "could not take the reply (nothing listens there)" in text
    assert "ravenpost serve" in text and "Traceback" not in text
    assert ">ante 3</textarea>" in text  # the draft is kept
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 0


def test_an_empty_reply_is_refused(app, receiver):
    mail_id = outbox_mail(app)
    client = app.test_client()
    page = client.get(f"/dev/mail/{mail_id}").get_data(as_text=True)
    answer = client.post(f"/dev/mail/{mail_id}/reply",
                         data={"csrf_token": csrf(page), "text": "  \r\n "})
    assert answer.status_code == 400
    assert "Type your reply first" in answer.get_data(as_text=True)
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 0


def test_the_reply_needs_the_forms_csrf_token(app, receiver):
    mail_id = outbox_mail(app)
    answer = app.test_client().post(f"/dev/mail/{mail_id}/reply", data={"text": "ante 3"})
    assert answer.status_code == 400
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 0


def test_an_email_without_reply_to_has_no_reply_box(app):
    mail_id = outbox_mail(app, reply_to=None)
    client = app.test_client()
    page = client.get(f"/dev/mail/{mail_id}").get_data(as_text=True)
    assert "/reply" not in page
    answer = client.post(f"/dev/mail/{mail_id}/reply",
                         data={"csrf_token": csrf(client.get("/").get_data(as_text=True)),
                               "text": "ante 3"})
    assert answer.status_code == 404


def test_a_receiver_that_is_off_is_said_plainly(make_app):
    app = make_app(INBOUND_SMTP_PORT=0)
    mail_id = outbox_mail(app)
    client = app.test_client()
    page = client.get(f"/dev/mail/{mail_id}").get_data(as_text=True)
    answer = client.post(f"/dev/mail/{mail_id}/reply",
                         data={"csrf_token": csrf(page), "text": "ante 3"})
    assert "The SMTP receiver is off" in answer.get_data(as_text=True)
