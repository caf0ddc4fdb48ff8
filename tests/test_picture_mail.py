"""The game's picture in emails (a PNG inline in the HTML part), and what the emails say
about forks and take-backs."""

from __future__ import annotations

import base64
import io
import logging
import re

import pytest

from games.svg import Drawing
from tests.platform_game import CountingRace
from tests.sendgrid_standin import SendGridStandIn
from tests.support import PLAYERS
from worker import jobs
from worker.mail import ConsoleBackend, Email, InlineImage, MailError, SendGridBackend
from worker.notify import send_turn
from worker.picture_mail import EMAIL_WIDTH, mail_picture, svg_to_png

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SEEN: list[tuple[dict, dict]] = []  # (view, table) of every picture drawn


def race_picture(self, view: dict, table: dict) -> str:
    """A picture for the test game: its total as a bar, wider than an email."""
    SEEN.append((view, table))
    d = Drawing(1280, 320, title="Counting Race")
    d.rect(10, 40, view["total"] * 10 + 5, 40, fill="#0072B2")
    d.text(20, 140, f"Total {view['total']} of {view['target']}; hand {view['hand']}", size=40)
    return d.render()


@pytest.fixture
def pictured(monkeypatch):
    """The test game draws a picture (it has none of its own)."""
    SEEN.clear()
    monkeypatch.setattr(CountingRace, "picture", race_picture)


def outbox(rt, address):
    return [rt.mail.get(m["id"]) for m in rt.mail.list(limit=500) if m["to"] == address]


def png_size(data: bytes) -> tuple[int, int]:
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def started(rt, players=PLAYERS):
    gid = rt.games.create("test-race", players, {"target": 30}).game_id
    jobs.project(gid)
    return gid


# -- the picture ----------------------------------------------------------------------
def test_a_turn_email_shows_the_picture_inline_by_content_id_with_a_text_alternative(
        rt, pictured):
    gid = started(rt)
    (mail,) = outbox(rt, "ada@example.com")
    (image,) = mail["inline"]
    assert image["cid"] == "board" and image["type"] == "image/png" and image["size"] > 0
    img = re.search(r"<img [^>]*>", mail["html"])[0]
    assert 'src="cid:board"' in img
    assert f'alt="Counting Race (test game), game {gid} at move 1, as Ada sees it"' in img
    # fluid: never wider than the column, so a phone does not scroll sideways
    assert "max-width: 100%" in img and "height: auto" in img
    assert "cid:" not in mail["text"], "the plain-text part is unchanged"


def test_the_picture_is_drawn_from_the_seat_s_view_and_the_table_it_is_given(rt, pictured):
    gid = started(rt)
    table = rt.games.load(gid)
    views = {t["seat"]: (v, t) for v, t in SEEN}
    for seat in (0, 1):
        view, given = views[seat]
        assert view == table.game.view(table.state, seat)
        assert given["names"] == ["Ada", "Bo"] and given["version"] == 1
        assert given["to_act"] == [0, 1] and given["previous"] is None


def test_the_picture_is_scaled_down_to_the_email_width_and_never_up():
    wide = Drawing(1600, 400).render()
    narrow = Drawing(300, 100).render()
    png, width, height = svg_to_png(wide)
    assert png.startswith(PNG_MAGIC) and png_size(png) == (EMAIL_WIDTH, 160) == (width, height)
    assert png_size(svg_to_png(narrow)[0]) == (300, 100)


def test_the_picture_is_written_with_a_colour_palette_to_stay_small():
    png, _, _ = svg_to_png(race_picture(None, {"total": 12, "target": 30, "hand": [1]}, {}))
    assert png[25] == 3  # IHDR colour type 3: indexed colour


def test_a_picture_that_fails_leaves_the_email_without_it_and_warns(rt, monkeypatch, caplog):
    def broken(self, view, table):
        raise KeyError("a drawing bug")

    monkeypatch.setattr(CountingRace, "picture", broken)
    with caplog.at_level(logging.WARNING, logger="worker.picture_mail"):
        started(rt)
    (mail,) = outbox(rt, "ada@example.com")
    assert mail["inline"] == [] and "cid:" not in mail["html"]
    assert "could not draw the test-race picture" in caplog.text


def test_a_renderer_error_leaves_the_email_without_the_picture(rt, monkeypatch):
    monkeypatch.setattr(CountingRace, "picture", lambda self, view, table: "<svg")
    started(rt)
    (mail,) = outbox(rt, "ada@example.com")
    assert mail["inline"] == []


def test_a_game_without_a_picture_sends_its_email_without_one(rt, monkeypatch):
    monkeypatch.setattr(CountingRace, "picture", lambda self, view, table: None)
    table = rt.games.create("test-race", PLAYERS, {"target": 30})
    assert mail_picture(rt.games, table, 0) is None
    jobs.project(table.game_id)
    (mail,) = outbox(rt, "ada@example.com")
    assert mail["inline"] == []


def test_reminder_take_back_and_game_over_emails_carry_the_picture_too(rt, pictured):
    gid = started(rt)
    rt.games.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.request_undo(gid, 0)
    jobs.project(gid)
    (undo,) = [m for m in outbox(rt, "bo@example.com") if m["key"].startswith("undo:")]
    assert [i["cid"] for i in undo["inline"]] == ["board"] and 'src="cid:board"' in undo["html"]
    assert send_turn(rt, gid, 1, 1, reminder=True)  # Bo has still not anted
    (reminder,) = [m for m in outbox(rt, "bo@example.com") if m["key"].startswith("remind:")]
    assert [i["cid"] for i in reminder["inline"]] == ["board"]
    table = rt.games.load(gid)
    rt.games.end_early(gid, "abandoned", table.version)
    jobs.project(gid)
    (ended,) = [m for m in outbox(rt, "ada@example.com") if m["key"].startswith("ended:")]
    assert [i["cid"] for i in ended["inline"]] == ["board"]


# -- every backend carries it ---------------------------------------------------------
def email_with_picture() -> Email:
    png, _, _ = svg_to_png(Drawing(200, 100).render())
    return Email(to="ada@example.com", subject="Your move", text="Your move.",
                 html='<p><img src="cid:board" alt="the board"></p>', key="turn:g:1:0",
                 inline=(InlineImage("board", "board.png", png),))


def test_sendgrid_receives_the_picture_as_an_inline_attachment_over_http():
    email = email_with_picture()
    with SendGridStandIn(api_key="SG.test") as sg:
        SendGridBackend("SG.test", "games@example.org", host=sg.url, sleep=lambda s: None) \
            .send(email)
    (request,) = sg.requests
    (attachment,) = request.body["attachments"]
    assert attachment["disposition"] == "inline" and attachment["content_id"] == "board"
    assert attachment["type"] == "image/png" and attachment["filename"] == "board.png"
    assert base64.b64decode(attachment["content"]) == email.inline[0].data


def test_the_console_backend_says_the_picture_is_attached():
    out = io.StringIO()
    ConsoleBackend(out).send(email_with_picture())
    assert "(inline image cid:board: board.png, image/png," in out.getvalue()


def test_an_inline_image_cannot_smuggle_a_header():
    with pytest.raises(MailError):
        InlineImage("board>\r\nBcc: x@example.com", "board.png", b"")


def test_the_outbox_viewer_shows_the_picture_where_the_email_has_it(rt, client, pictured):
    started(rt)
    (mail,) = outbox(rt, "ada@example.com")
    page = client.get(f"/dev/mail/{mail['id']}/html")
    image_url = f"/dev/mail/{mail['id']}/inline/board"
    assert f'src="{image_url}"' in page.text and "cid:" not in page.text
    assert "img-src 'self'" in page.headers["Content-Security-Policy"]
    image = client.get(image_url)
    assert image.status_code == 200 and image.mimetype == "image/png"
    assert image.data.startswith(PNG_MAGIC)
    assert "board" in client.get(f"/dev/mail/{mail['id']}").text
    assert client.get(f"/dev/mail/{mail['id']}/inline/nothing").status_code == 404


# -- forks and take-backs -------------------------------------------------------------
def test_a_forked_game_s_turn_email_says_which_game_it_forks_and_at_which_move(rt):
    gid = started(rt)
    rt.games.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(gid, 1, {"type": "ante", "amount": 2}, 2)
    fork = rt.games.fork(gid, 3, "admin")
    jobs.project(fork)
    mails = [m for m in outbox(rt, "ada@example.com") if f":{fork}:" in m["key"]]
    assert mails
    said = f"This game is a fork of Counting Race (test game) {gid} at move 3."
    for mail in mails:
        assert said in mail["text"] and said in mail["html"]
    assert not any("fork" in m["text"] for m in outbox(rt, "ada@example.com")
                   if f":{gid}:" in m["key"])


def test_the_take_back_email_says_which_move_it_takes_back(rt):
    gid = started(rt)
    rt.games.play(gid, 0, {"type": "ante", "amount": 2}, 1)
    rt.games.request_undo(gid, 0)
    jobs.project(gid)
    (mail,) = [m for m in outbox(rt, "bo@example.com") if m["key"].startswith("undo:")]
    # redacted for the reader: Bo may not see Ada's secret ante
    assert "move 2: Ada antes." in mail["text"].replace("\n", " ")
    assert "Ada antes 2" not in mail["text"] and "Ada antes 2" not in mail["html"]


EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"


def test_a_name_with_an_emoji_is_drawn_in_colour_not_as_empty_boxes():
    """Names may hold emoji: the email picture draws them with the emoji font (CI
    installs it; elsewhere the test is skipped without it)."""
    import os
    from pathlib import Path

    from PIL import Image
    if not Path(EMOJI_FONT).exists():
        if os.environ.get("CI"):
            pytest.fail("fonts-noto-color-emoji is not installed")
        pytest.skip("no emoji font on this machine")
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">'
           '<rect width="200" height="60" fill="white"/><text x="5" y="40" '
           'font-family="DejaVu Sans" font-size="30">Ann \U0001F409</text></svg>')
    png, _, _ = svg_to_png(svg, width=200)
    with Image.open(io.BytesIO(png)) as image:
        pixels = image.convert("RGB").crop((75, 10, 125, 50)).getdata()
        coloured = [p for p in pixels if max(p) - min(p) > 30]
    assert len(coloured) > 100, "the dragon is not drawn in colour"
