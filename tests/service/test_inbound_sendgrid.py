"""SendGrid Inbound Parse's door: guarded by INBOUND_SECRET (and SendGrid's signature when
INBOUND_VERIFY_KEY is set), each message stored once and handed to the worker once."""

from __future__ import annotations

import base64
import json
import time

import fakeredis
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from worker import inbox
from worker.queue import Enqueuer

SECRET = "s3cret-inbound-path"
BOUNDARY = "xYzZY"
MESSAGE_ID = "<CAB1234.5678@mail.example.com>"
HEADERS = (f"Received: by mx.sendgrid.net\r\nMessage-ID: {MESSAGE_ID}\r\n"
           "From: Ada <ada@example.com>\r\nTo: play+abc123@reply.ravenpost.localhost\r\n"
           "Subject: Re: Your turn\r\nIn-Reply-To: <outbox-1@reply.ravenpost.localhost>\r\n")
TEXT = "Je joue 3, café compris, “merci”.\r\n\r\nOn Fri, Ravenpost wrote:\r\n> Your turn\r\n"


def sendgrid_form(text: str = TEXT, headers: str = HEADERS) -> tuple[bytes, str]:
    """A body as SendGrid's default (parsed) mode posts it: the text in ISO-8859-1 as the
    sender wrote it, ``charsets`` saying so, and an attachment."""
    fields = [
        ("headers", headers.encode()),
        ("dkim", b"{@example.com : pass}"),
        ("to", b"play+abc123@reply.ravenpost.localhost"),
        ("from", b"Ada <ada@example.com>"),
        ("subject", b"Re: Your turn"),
        ("text", text.encode("cp1252")),  # what clients that say ISO-8859-1 send
        ("html", f"<p>{text}</p>".encode("cp1252")),
        ("sender_ip", b"203.0.113.5"),
        ("envelope", json.dumps({"to": ["play+abc123@reply.ravenpost.localhost"],
                                 "from": "ada@example.com"}).encode()),
        ("attachments", b"1"),
        ("charsets", json.dumps({"to": "UTF-8", "from": "UTF-8", "subject": "UTF-8",
                                 "text": "iso-8859-1", "html": "iso-8859-1"}).encode()),
        ("SPF", b"pass"),
        ("spam_score", b"0.1"),
    ]
    body = b""
    for name, value in fields:
        body += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                 .encode() + value + b"\r\n")
    body += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="attachment1"; '
             'filename="board.png"\r\nContent-Type: image/png\r\n\r\n').encode()
    body += b"\x89PNG\r\n\x1a\n" + bytes(range(256)) + b"\r\n"
    body += f"--{BOUNDARY}--\r\n".encode()
    return body, f"multipart/form-data; boundary={BOUNDARY}"


def raw_mode_form(raw: bytes) -> tuple[bytes, str]:
    """A body as SendGrid's raw mode posts it: the whole message in ``email``."""
    body = b""
    for name, value in (("email", raw), ("to", b"play+abc123@reply.ravenpost.localhost"),
                        ("envelope", b'{"to": ["play+abc123@reply.ravenpost.localhost"]}')):
        body += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                 .encode() + value + b"\r\n")
    body += f"--{BOUNDARY}--\r\n".encode()
    return body, f"multipart/form-data; boundary={BOUNDARY}"


@pytest.fixture
def queued():
    """An RQ queue of its own (on a second fakeredis) for the app's jobs: what the door
    enqueued is seen there, and the worker's job is not run."""
    return fakeredis.FakeRedis()


@pytest.fixture
def inbound_app(make_app, queued):
    def make(**settings):
        app = make_app(INBOUND_SECRET=SECRET, **settings)
        rt = app.extensions["ravenpost"]
        rt.enqueuer = Enqueuer(queued)
        return app
    return make


def job_ids(queued) -> list[str]:
    from rq import Queue
    return Queue("ravenpost", connection=queued).job_ids


def post(client, path: str = f"/inbound/sendgrid/{SECRET}", body_and_type=None, **kwargs):
    body, content_type = body_and_type or sendgrid_form()
    return client.post(path, data=body, content_type=content_type, **kwargs)


def basic(user: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def test_a_parsed_mode_post_is_stored_decoded_and_enqueued(inbound_app, queued):
    app = inbound_app()
    rt = app.extensions["ravenpost"]
    answer = post(app.test_client())
    assert answer.status_code == 200
    assert answer.json == {"stored": True}
    key = inbox.key_for(fields={"headers": HEADERS})
    stored = inbox.load(rt.redis, key)
    assert stored["door"] == "sendgrid" and stored["raw"] is None
    assert stored["fields"]["text"] == TEXT  # ISO-8859-1 bytes read as such, not as UTF-8
    assert "café" in stored["fields"]["html"]
    assert stored["fields"]["from"] == "Ada <ada@example.com>"
    assert "attachment1" not in stored["fields"]
    assert stored["envelope_to"] == ["play+abc123@reply.ravenpost.localhost"]
    assert inbox.is_pending(rt.redis, key) and not inbox.is_done(rt.redis, key)
    assert rt.redis.ttl(inbox.message_key(key)) > 3 * 24 * 3600
    assert job_ids(queued) == [f"inbound-{key}"]
    from rq.job import Job
    job = Job.fetch(f"inbound-{key}", connection=queued)
    assert job.func_name == "worker.replies.handle" and job.args == (key,)


def test_a_raw_mode_post_keeps_the_message_bytes_exactly(inbound_app, queued):
    app = inbound_app()
    rt = app.extensions["ravenpost"]
    raw = (HEADERS + "Content-Type: text/plain; charset=iso-8859-1\r\n\r\n").encode() + \
        "Je joue 3, café.\r\n".encode("iso-8859-1")
    answer = post(app.test_client(), body_and_type=raw_mode_form(raw))
    assert answer.json == {"stored": True}
    key = inbox.key_for(raw=raw)
    stored = inbox.load(rt.redis, key)
    assert stored["raw"] == raw
    assert "email" not in stored["fields"] and stored["fields"]["to"].startswith("play+")
    assert job_ids(queued) == [f"inbound-{key}"]


def test_the_same_message_posted_twice_is_stored_and_enqueued_once(inbound_app, queued):
    app = inbound_app()
    client = app.test_client()
    assert post(client).json == {"stored": True}
    assert post(client).json == {"stored": False}
    assert len(job_ids(queued)) == 1
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 1


def test_a_retry_after_the_message_was_handled_enqueues_nothing(inbound_app, queued):
    app = inbound_app()
    rt = app.extensions["ravenpost"]
    post(app.test_client())
    key = inbox.key_for(fields={"headers": HEADERS})
    from rq import Queue
    Queue("ravenpost", connection=queued).empty()
    inbox.done(rt.redis, key)
    assert post(app.test_client()).json == {"stored": False}
    assert job_ids(queued) == [] and not inbox.is_pending(rt.redis, key)
    assert inbox.is_done(rt.redis, key)


def test_the_secret_may_come_as_basic_auth_password(inbound_app):
    client = inbound_app().test_client()
    assert post(client, "/inbound/sendgrid", headers=basic("sendgrid", SECRET)).status_code \
        == 200


@pytest.mark.parametrize("path, headers", [
    ("/inbound/sendgrid", {}),
    ("/inbound/sendgrid", basic("sendgrid", "wrong")),
    ("/inbound/sendgrid/wrong", {}),
    (f"/inbound/sendgrid/{SECRET}x", {}),
    ("/inbound/sendgrid", {"Authorization": f"Bearer {SECRET}"}),
])
def test_a_missing_or_wrong_secret_is_401_and_stores_nothing(inbound_app, queued, path,
                                                              headers):
    app = inbound_app()
    answer = post(app.test_client(), path, headers=headers)
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"].startswith("Basic")
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 0
    assert job_ids(queued) == []


def test_without_a_secret_configured_the_door_is_off(make_app):
    client = make_app().test_client()
    assert post(client).status_code == 404
    assert post(client, "/inbound/sendgrid", headers=basic("x", "")).status_code == 404


def test_the_door_needs_no_csrf_token_nor_session(inbound_app):
    client = inbound_app().test_client(use_cookies=False)
    assert post(client).status_code == 200


@pytest.mark.parametrize("body, content_type", [
    (b"to=a&from=b", "application/x-www-form-urlencoded"),
    (b"--xYzZY\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nunfinished",
     "multipart/form-data; boundary=xYzZY"),
    (b"--xYzZY--\r\n", "multipart/form-data; boundary=xYzZY"),
    (b"", "multipart/form-data"),
])
def test_a_body_that_is_not_a_sendgrid_form_is_400_and_stores_nothing(inbound_app, queued,
                                                                      body, content_type):
    app = inbound_app()
    answer = post(app.test_client(), body_and_type=(body, content_type))
    assert answer.status_code == 400
    assert answer.json["error"] == "bad_request"
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 0


def test_a_message_over_a_megabyte_is_answered_200_unstored_and_over_30_mb_413(
        inbound_app, queued):
    """SendGrid retries anything but 2xx for three days: a message too big to store is
    answered 200 (logged, not stored), so it is not posted again to the same end; only a
    body beyond SendGrid's own 30 MB is refused unread."""
    app = inbound_app()
    client = app.test_client()
    big = b"Message-ID: <big@example.com>\r\n\r\n" + b"x" * (inbox.MAX_BYTES - 100)
    assert post(client, body_and_type=raw_mode_form(big)).json == {"stored": True}
    bigger = b"Message-ID: <bigger@example.com>\r\n\r\n" + b"x" * inbox.MAX_BYTES
    answer = post(client, body_and_type=raw_mode_form(bigger))
    assert answer.status_code == 200 and answer.json["stored"] is False
    assert "larger than" in answer.json["refused"]
    huge = bigger + b"x" * (30 * 1024 * 1024)
    assert post(client, body_and_type=raw_mode_form(huge)).status_code == 413
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 1


def test_a_raw_message_with_a_big_photo_is_stored_without_it(inbound_app, queued):
    from email.message import EmailMessage
    app = inbound_app()
    message = EmailMessage()
    message["Message-ID"] = "<photo@example.com>"
    message["From"] = "ada@example.com"
    message["To"] = "play+abc123@reply.ravenpost.localhost"
    message.set_content("2 5\n\nHere is my table!")
    message.add_attachment(bytes(range(256)) * 8192, maintype="image", subtype="jpeg",
                           filename="table.jpg")  # 2 MB
    answer = post(app.test_client(), body_and_type=raw_mode_form(message.as_bytes()))
    assert answer.json == {"stored": True}
    rt = app.extensions["ravenpost"]
    stored = inbox.load(rt.redis, inbox.key_for(raw=b"Message-ID: <photo@example.com>\r\n"))
    assert stored is not None and len(stored["raw"]) < 100_000
    assert b"Here is my table!" in stored["raw"]


def test_other_routes_keep_the_small_body_limit(inbound_app):
    client = inbound_app().test_client()
    answer = client.post("/api/v1/games", data=b"x" * 100_000,
                         content_type="application/json")
    assert answer.status_code == 413


def test_a_failing_enqueue_still_answers_200_and_leaves_it_pending(inbound_app, monkeypatch):
    app = inbound_app()

    def broken(runtime, key):
        raise RuntimeError("queue away")
    monkeypatch.setattr(inbox, "enqueue", broken)
    assert post(app.test_client()).json == {"stored": True}
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 1


def test_the_door_is_rate_limited_per_client(inbound_app, monkeypatch):
    from service import inbound
    assert inbound.RATE == "600 per minute"  # generous: SendGrid posts as mail comes
    monkeypatch.setattr(inbound, "RATE", "2 per minute")
    client = inbound_app().test_client()
    assert [post(client).status_code for _ in range(3)] == [200, 200, 429]
    other = {"REMOTE_ADDR": "198.51.100.7"}
    assert post(client, environ_base=other).status_code == 200


# -- SendGrid's signature --------------------------------------------------------------------

@pytest.fixture
def key_pair():
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.DER,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
    return private, base64.b64encode(public).decode()


def signed(private, body: bytes, timestamp: int | None = None) -> dict[str, str]:
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    signature = private.sign(stamp.encode() + body, ec.ECDSA(hashes.SHA256()))
    return {"X-Twilio-Email-Event-Webhook-Signature": base64.b64encode(signature).decode(),
            "X-Twilio-Email-Event-Webhook-Timestamp": stamp}


def test_a_signed_post_is_taken_when_the_key_is_set(inbound_app, key_pair):
    private, public = key_pair
    client = inbound_app(INBOUND_VERIFY_KEY=public).test_client()
    body, content_type = sendgrid_form()
    answer = post(client, body_and_type=(body, content_type), headers=signed(private, body))
    assert answer.status_code == 200 and answer.json == {"stored": True}


def test_sendgrids_own_helper_agrees_with_the_check(key_pair):
    from sendgrid.helpers.eventwebhook import EventWebhook
    private, public = key_pair
    body = b'{"ascii": "payload"}'
    headers = signed(private, body)
    assert EventWebhook(public).verify_signature(
        body.decode(), headers["X-Twilio-Email-Event-Webhook-Signature"],
        headers["X-Twilio-Email-Event-Webhook-Timestamp"])


def test_a_tampered_body_is_403_and_stores_nothing(inbound_app, key_pair, queued):
    private, public = key_pair
    app = inbound_app(INBOUND_VERIFY_KEY=public)
    body, content_type = sendgrid_form()
    headers = signed(private, body)
    tampered = body.replace(b"Je joue 3", b"Je joue 4")
    answer = post(app.test_client(), body_and_type=(tampered, content_type), headers=headers)
    assert answer.status_code == 403
    assert app.extensions["ravenpost"].redis.zcard(inbox.PENDING) == 0
    assert job_ids(queued) == []


@pytest.mark.parametrize("drop", ["X-Twilio-Email-Event-Webhook-Signature",
                                  "X-Twilio-Email-Event-Webhook-Timestamp", "both"])
def test_missing_signature_headers_are_403(inbound_app, key_pair, drop):
    private, public = key_pair
    client = inbound_app(INBOUND_VERIFY_KEY=public).test_client()
    body, content_type = sendgrid_form()
    headers = {k: v for k, v in signed(private, body).items() if drop not in (k, "both")}
    assert post(client, body_and_type=(body, content_type), headers=headers).status_code == 403


def test_an_old_signature_is_403(inbound_app, key_pair):
    private, public = key_pair
    client = inbound_app(INBOUND_VERIFY_KEY=public).test_client()
    body, content_type = sendgrid_form()
    stale = signed(private, body, int(time.time()) - 11 * 60)
    assert post(client, body_and_type=(body, content_type), headers=stale).status_code == 403


def test_a_signature_by_another_key_or_garbled_is_403(inbound_app, key_pair):
    _private, public = key_pair
    client = inbound_app(INBOUND_VERIFY_KEY=public).test_client()
    body, content_type = sendgrid_form()
    other = signed(ec.generate_private_key(ec.SECP256R1()), body)
    assert post(client, body_and_type=(body, content_type), headers=other).status_code == 403
    garbled = {**other, "X-Twilio-Email-Event-Webhook-Signature": "not base64!"}
    assert post(client, body_and_type=(body, content_type), headers=garbled).status_code == 403


def test_the_secret_is_checked_before_the_signature(inbound_app, key_pair):
    private, public = key_pair
    client = inbound_app(INBOUND_VERIFY_KEY=public).test_client()
    body, content_type = sendgrid_form()
    answer = post(client, "/inbound/sendgrid/wrong", body_and_type=(body, content_type),
                  headers=signed(private, body))
    assert answer.status_code == 401
