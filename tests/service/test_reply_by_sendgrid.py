"""A reply through SendGrid Inbound Parse makes the move, end to end: the door stores it,
the worker's job (run inline here) decides it as the seat's POST."""

from __future__ import annotations

import base64
import json

from tests.service.test_inbound_sendgrid import BOUNDARY, SECRET
from worker.menu import build

ANN = "ann@example.com"


def parse_post(reply_to: str, text: str, message_id: str, spf: str = "pass") -> bytes:
    """A body as SendGrid's default mode posts it."""
    fields = [
        ("headers", (f"Message-ID: <{message_id}>\r\nFrom: Ann <{ANN}>\r\n"
                     f"To: {reply_to}\r\nSubject: Re: Your move\r\n").encode()),
        ("dkim", b"{@example.com : pass}" if spf == "pass" else b"{@example.com : fail}"),
        ("to", reply_to.encode()), ("from", f"Ann <{ANN}>".encode()),
        ("subject", b"Re: Your move"), ("text", text.encode()),
        ("envelope", json.dumps({"to": [reply_to], "from": ANN}).encode()),
        ("charsets", b'{"text": "UTF-8", "subject": "UTF-8"}'), ("SPF", spf.encode()),
    ]
    body = b"".join(f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{n}"\r\n\r\n'
                    .encode() + v + b"\r\n" for n, v in fields)
    return body + f"--{BOUNDARY}--\r\n".encode()


def a_solo_game(app):
    rt = app.extensions["ravenpost"]
    table = rt.games.create("architects", [{"name": "Ann", "email": ANN}], {})
    from worker.projection import request_projection
    request_projection(rt.enqueuer, table.game_id, table.version)
    [mail] = [rt.mail.get(m["id"]) for m in rt.mail.list(limit=10) if m["to"] == ANN]
    menu = build(table.game, table.state, 0)
    line = " ".join(map(str, menu.numbers_of(menu.moves[0])))
    return rt, table.game_id, mail["headers"]["Reply-To"], line, menu.moves[0]


def test_a_sendgrid_parse_post_makes_the_move_and_a_retry_makes_no_second(make_app):
    app = make_app(INBOUND_SECRET=SECRET)
    rt, gid, reply_to, line, move = a_solo_game(app)
    body = parse_post(reply_to, line + "\n\nOn Fri, Ravenpost wrote:\n> 1 Keep", "sg-1@x")
    web = app.test_client()
    kind = f"multipart/form-data; boundary={BOUNDARY}"
    answer = web.post(f"/inbound/sendgrid/{SECRET}", data=body, content_type=kind)
    assert answer.status_code == 200 and answer.get_json()["stored"] is True
    [event] = rt.store.read(gid, 2, 2)
    assert event.type == "MovePlayed" and event.data["move"] == move
    version = rt.store.version(gid)
    again = web.post(f"/inbound/sendgrid/{SECRET}", data=body, content_type=kind)
    assert again.status_code == 200 and again.get_json()["stored"] is False
    assert rt.store.version(gid) == version


def test_a_sendgrid_parse_post_with_basic_auth_makes_the_move(make_app):
    app = make_app(INBOUND_SECRET=SECRET)
    rt, gid, reply_to, line, move = a_solo_game(app)
    auth = "Basic " + base64.b64encode(f"sendgrid:{SECRET}".encode()).decode()
    answer = app.test_client().post(
        "/inbound/sendgrid", data=parse_post(reply_to, line, "sg-2@x"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
        headers={"Authorization": auth})
    assert answer.status_code == 200
    assert rt.store.read(gid, 2, 2)[0].data["move"] == move


def test_a_sendgrid_parse_post_without_the_secret_is_refused_and_moves_nothing(make_app):
    app = make_app(INBOUND_SECRET=SECRET)
    rt, gid, reply_to, line, _ = a_solo_game(app)
    answer = app.test_client().post(
        "/inbound/sendgrid", data=parse_post(reply_to, line, "sg-3@x"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}")
    assert answer.status_code == 401
    assert rt.store.version(gid) == 1


def test_a_sendgrid_reply_that_fails_spf_and_dkim_moves_nothing(make_app):
    app = make_app(INBOUND_SECRET=SECRET)
    rt, gid, reply_to, line, _ = a_solo_game(app)
    answer = app.test_client().post(
        f"/inbound/sendgrid/{SECRET}", data=parse_post(reply_to, line, "sg-4@x", spf="fail"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}")
    assert answer.status_code == 200  # Parse would retry anything else for three days
    assert rt.store.version(gid) == 1
