"""Every email in its reader's language (issue 31, items 1, 2 and 5 for emails): one game
mails English and German side by side, each reader getting their own language's words,
plurals and dates.

The readers of one three-seat game: Ada (English: nothing chosen anywhere), Bruno (German:
the language his seat was invited in) and Cleo (invited in German, but her own setting
says English, and a player's own setting wins).  Every kind of email goes to them through
its real send path; a German email must hold none of the service catalog's English
sentences (each literal stretch of three words or more of a message id), an English one
the English as it always read.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from babel.messages.pofile import read_po

from events.picture import countdown_text
from service import accounts
from tests.worker.test_replies import send_reply, turn_mail
from worker import channels, digest, i18n, jobs, players, timeouts
from worker.catalogs import DOMAINS
from worker.notify import send_undo

START = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)  # a Monday
ADA = {"name": "Ada", "email": "ada@example.com"}
BRUNO = {"name": "Bruno", "email": "bruno@example.com"}
CLEO = {"name": "Cleo", "email": "cleo@example.com"}
GERMAN, ENGLISH = [BRUNO["email"]], [ADA["email"], CLEO["email"]]
CLOCKED = {"time_control": {"kind": "per_move", "hours": 56},
           "reminders": {"fractions": [0.5], "hours_before": []}}


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def at(self, hours: float) -> None:
        self.now = START + timedelta(hours=hours)


@pytest.fixture
def clock(rt):
    rt.clock = Clock()
    return rt.clock


def english_sentences() -> list[str]:
    """The literal stretches of three words or more of every message id of the service's
    catalog (singular and plural), the placeholders cut out: none may be in German mail."""
    with open(DOMAINS[0].template, "rb") as f:
        ids = [m.id for m in read_po(f) if m.id]
    found = set()
    for mid in ids:
        for text in (mid if isinstance(mid, tuple | list) else (mid,)):
            for piece in re.split(r"%\(\w+\)[sd]|<[^>]+>", text):
                piece = piece.strip(" .,:;()\"'")
                if len(piece.split()) >= 3:
                    found.add(piece)
    return sorted(found)


SENTENCES = english_sentences()


def english_in(text: str) -> list[str]:
    return [s for s in SENTENCES if s in text]


def game(rt, clock) -> str:
    """The three readers' game, clocked; Bruno's seat invited in German, Cleo's too but
    her own setting is English."""
    gid = rt.games.create("test-race", [ADA, BRUNO, CLEO], {"target": 40},
                          platform=CLOCKED).game_id
    seats = rt.store.get_json(gid, "seats")
    seats[0]["tz"], seats[1]["tz"], seats[2]["tz"] = "America/New_York", "Europe/Berlin", \
        "Europe/Berlin"
    seats[1]["language"] = seats[2]["language"] = "de"
    rt.store.put_json(gid, "seats", seats)
    players.save_prefs(rt.redis, players.seat_player(rt.redis, seats[2]), language="en")
    return gid


def mails(rt, address: str, subject: str = "") -> list[dict]:
    found = [rt.mail.get(m["id"]) for m in rt.mail.list(limit=1000)
             if m["to"] == address and subject in m["subject"]]
    return found[::-1]  # oldest first


def parts(mail: dict) -> str:
    return mail["subject"] + "\n" + mail["text"] + "\n" + mail["html"]


def only(found: list[dict]) -> dict:
    assert len(found) == 1, [m["subject"] for m in found]
    return found[0]


def german(mail: dict) -> dict:
    """``mail``, checked to be German through and through."""
    assert english_in(parts(mail)) == [], mail["subject"]
    assert '<html lang="de">' in mail["html"]
    return mail


def english(mail: dict) -> dict:
    assert '<html lang="en">' in mail["html"]
    return mail


def test_every_email_goes_out_in_its_readers_language_side_by_side(app, rt, clock):
    gid = game(rt, clock)
    ada, bruno, cleo = ADA["email"], BRUNO["email"], CLEO["email"]

    # -- the invitation: the time left (plural), the deadline in each reader's zone ----
    jobs.project(gid)
    invite = german(only(mails(rt, bruno)))
    assert invite["subject"] == "Du bist am Zug in Counting Race (test game) (noch 2 Tage 8 Std.)"
    assert invite["text"].splitlines()[2] == (
        "Noch 2 Tage 8 Std. für deinen Zug (Frist: Mittwoch, 9. Jan. 2030, 21:00 MEZ).")
    assert "Du bist zu einer Partie Counting Race (test game) mit Ada, Bruno, Cleo " \
        "eingeladen, und du ziehst zuerst." in invite["text"]
    assert "<strong>Noch 2 Tage 8 Std.</strong> für deinen Zug" in invite["html"]
    english_invite = english(only(mails(rt, ada)))
    assert english_invite["subject"] == "Your move in Counting Race (test game) (2 days 8 h left)"
    assert english_invite["text"].splitlines()[2] == (
        "2 days 8 h left to move (deadline: Wednesday 09 January 2030, 15:00 EST).")
    assert "You have been invited to a game of Counting Race (test game) with Ada, Bruno, " \
        "Cleo, and you move first." in english_invite["text"]
    # Cleo was invited in German, but she chose English: the same English, in her zone
    assert english(only(mails(rt, cleo)))["text"].splitlines()[2] == (
        "2 days 8 h left to move (deadline: Wednesday 09 January 2030, 21:00 CET).")

    # -- the digest: one game (singular), then two (plural), the day in German -------
    pid = players.player_id(rt.redis, bruno)
    players.save_prefs(rt.redis, pid, digest=9)
    assert digest.send(rt, pid, date(2030, 1, 7))
    one = german(only(mails(rt, bruno, "Zusammenfassung")))
    assert one["subject"] == ("Ravenpost-Zusammenfassung: Du bist am Zug in "
                              "Counting Race (test game)")
    assert "Ein Spiel wartet auf deinen Zug (Montag, 7. Januar):" in one["text"]
    assert "(ziehe bis Mittwoch, 9. Jan. 2030, 21:00 MEZ)" in one["text"]
    other = rt.games.create("test-race", [BRUNO, ADA], {"target": 40}).game_id
    seats = rt.store.get_json(other, "seats")
    seats[0]["language"] = "de"  # invited in German again
    rt.store.put_json(other, "seats", seats)
    jobs.project(other)
    assert digest.send(rt, pid, date(2030, 1, 8))
    two = german(mails(rt, bruno, "Zusammenfassung")[-1])
    assert two["subject"] == "Ravenpost-Zusammenfassung: Du bist am Zug in 2 Spielen"
    assert "2 Spiele warten auf deinen Zug (Dienstag, 8. Januar):" in two["text"]
    ada_pid = players.player_id(rt.redis, ada)
    players.save_prefs(rt.redis, ada_pid, digest=9)
    assert digest.send(rt, ada_pid, date(2030, 1, 7))
    assert "2 games are waiting for your move (Monday 07 January):" in english(
        only(mails(rt, ada, "digest")))["text"]

    # -- the reminder: one day left (singular) -------------------------------------------
    clock.at(28.5)
    assert "ReminderSent" in jobs.remind(gid, 1, 1)
    reminder = german(only(mails(rt, bruno, "Erinnerung")))
    assert reminder["subject"] == ("Erinnerung: Du bist am Zug in Counting Race (test game) "
                                   "(noch 1 Tag 3 Std.)")
    assert "Eine Erinnerung: Counting Race (test game) wartet noch auf deinen Zug." \
        in reminder["text"]
    assert english(only(mails(rt, ada, "Reminder")))["subject"] == (
        "Reminder: your move in Counting Race (test game) (1 day 3 h left)")

    # -- a take-back: asked by Ada, Bruno and Cleo are asked ------------------------------
    rt.games.play(gid, 0, {"type": "ante", "amount": 1}, rt.store.version(gid))
    jobs.project(gid)
    asked = rt.games.request_undo(gid, 0)
    assert send_undo(rt, gid, asked.version, 1) and send_undo(rt, gid, asked.version, 2)
    undo = german(only(mails(rt, bruno, "zurückzunehmen")))
    assert undo["subject"] == "Ada bittet in Counting Race (test game) darum, einen Zug " \
        "zurückzunehmen"
    assert "Alle anderen müssen zustimmen." in undo["text"]
    assert "Every other player must agree." in english(
        only(mails(rt, cleo, "asks to take back a move")))["text"]
    rt.games.answer_undo(gid, 1, False)
    jobs.project(gid)

    # -- votes: Bruno calls one and Ada refuses; Ada calls one and Bruno refuses ----------
    rt.games.vote(gid, 1, "end", True, now=clock())
    jobs.project(gid)
    vote = english(only(mails(rt, ada, "proposes")))
    assert vote["subject"] == "Bruno proposes to end Counting Race (test game) early"
    assert "2 of 3 players must agree; one refusal ends the vote." in vote["text"]
    assert "The vote is open until Friday 11 January 2030, 11:30 EST" in vote["text"]
    rt.games.vote(gid, 0, "end", False, now=clock())
    jobs.project(gid)
    refused = german(only(mails(rt, bruno, "abgelehnt")))
    assert refused["subject"] == ("Ada hat abgelehnt: Counting Race (test game) "
                                  "vorzeitig beenden")
    assert "Ada hat in Counting Race (test game) (Spiel" in refused["text"]
    assert "das Spiel vorzeitig beenden. Das Spiel geht weiter." in refused["text"]
    rt.games.vote(gid, 0, "abandon", True, now=clock())
    jobs.project(gid)
    called = german(only(mails(rt, bruno, "schlägt vor")))
    assert called["subject"] == "Ada schlägt vor: Counting Race (test game) abbrechen"
    assert "vor: das Spiel abbrechen (ohne Sieger)." in called["text"]  # a game's Text
    assert "Alle müssen zustimmen; eine Ablehnung beendet die Abstimmung." in called["text"]
    assert "Abgestimmt wird bis Freitag, 11. Jan. 2030, 17:30 MEZ;" in called["text"]
    rt.games.vote(gid, 1, "abandon", False, now=clock())
    jobs.project(gid)
    assert english(only(mails(rt, ada, "refused to")))["subject"] == (
        "Bruno refused to abandon Counting Race (test game)")

    # -- replies: a command answered in the replier's language -------------------------
    assert send_reply(rt, turn_mail(rt, bruno), "help") == "help"
    helped = german(mails(rt, bruno, "Re:")[-1])
    assert "Was du in einer Antwort schreiben kannst, eins pro Zeile:" in helped["text"]
    assert "  undo: den Tisch bitten, deinen letzten Zug zurückzunehmen" in helped["text"]
    assert send_reply(rt, turn_mail(rt, ada), "help") == "help"
    assert "  undo: ask the table to take back your last move" in english(
        mails(rt, ada, "Re:")[-1])["text"]
    assert send_reply(rt, turn_mail(rt, bruno), "999") == "refused"
    assert ("„999“ ist keiner deiner Züge: In der Liste gibt es keine 999 (ihre Nummern "
            "gehen von 1 bis 3)") in german(mails(rt, bruno, "Re:")[-1])["text"]
    assert send_reply(rt, turn_mail(rt, ada), "2") == "refused (moved on)"  # she anted
    assert "The game has moved on since that email: your reply changed nothing." in \
        english(mails(rt, ada, "Re:")[-1])["text"]
    assert send_reply(rt, turn_mail(rt, bruno), "away soon") == "refused"
    assert "„away soon“ ist keine Zeitspanne. Schreib „away 3d“ für drei Tage" in german(
        mails(rt, bruno, "Re:")[-1])["text"]

    # -- the deadline passes: each reader is told, in their language ---------------------
    clock.at(56)
    assert "TimedOut" in timeouts.check_game(rt, gid)
    late = german(only(mails(rt, bruno, "Deine Frist")))
    assert late["subject"] == "Deine Frist in Counting Race (test game) ist abgelaufen"
    assert "Das Spiel wartet auf dich: Bitte ziehe, sobald du kannst." in late["text"]
    german(only(mails(rt, bruno, "Cleo hat die Frist")))
    assert english(only(mails(rt, ada, "Bruno missed the deadline")))
    assert "Bruno did not move before the deadline in Counting Race (test game)" in only(
        mails(rt, ada, "Bruno missed the deadline"))["text"]

    # -- the end: why, in each language ---------------------------------------------------
    rt.games.resign(gid, 0)
    jobs.project(gid)
    over = german(only(mails(rt, bruno, "Spielende")))
    assert over["subject"] == "Spielende: Counting Race (test game)"
    assert "Ada hat aufgegeben." in over["text"]  # events.votes.ended_line, a Text
    assert "Bruno und Cleo teilen sich den ersten Platz" in over["text"]  # winner_line
    assert "Jedes Mischen und Ziehen lässt sich jetzt nachprüfen" in over["text"]
    ended = english(only(mails(rt, ada, "Game over")))
    assert "Ada resigned." in ended["text"] and "is over." in ended["text"]
    assert "Bruno and Cleo share first place" in ended["text"]

    # -- emails of no seat: a paused channel, the sign-in link ---------------------------
    url = "json://hooks.example.com/ravenpost"
    email = channels._paused_email(rt, pid, url, bruno, "1", "HTTP 500")
    paused = german({"subject": email.subject, "text": email.text, "html": email.html})
    assert paused["subject"] == "Einer deiner Benachrichtigungskanäle wurde pausiert"
    assert "nach 5 Fehlschlägen in Folge pausiert" in paused["text"]
    assert channels._paused_email(rt, ada_pid, url, ada, "1", None).subject == \
        "A notification channel of yours was paused"
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        accounts.mail_link("neu@example.com", "t0k3n", "sign-in")
        accounts.mail_link(cleo, "t0k3n2", "sign-in")  # her setting beats the browser's
    signin = german(only(mails(rt, "neu@example.com")))
    assert signin["subject"] == "Dein Ravenpost-Anmeldelink"
    assert "Der Link funktioniert einmal, 15 Minuten lang." in signin["text"]
    assert english(only(mails(rt, cleo, "sign-in link")))["subject"] == \
        "Your Ravenpost sign-in link"

    # every German email of the game: nothing English from the catalog, none missed
    everything = mails(rt, bruno)
    assert len(everything) >= 12
    for mail in everything:
        german(mail)


@pytest.mark.parametrize("hours, english_words, german_words", [
    (56, "2 days 8 h left", "noch 2 Tage 8 Std."),
    (24 + 1, "1 day 1 h left", "noch 1 Tag 1 Std."),
    (24, "1 day left", "noch 1 Tag"),
    (1 + 1 / 60, "1 h 1 min left", "noch 1 Std. 1 Min."),
    (2 / 60, "2 min left", "noch 2 Min."),
    (1 / 120, "less than a minute left", "noch weniger als eine Minute"),
    (-1, "no time left", "keine Zeit mehr"),
])
def test_the_countdown_is_english_as_before_and_german_with_germans_plurals(
        hours, english_words, german_words):
    left = countdown_text((START + timedelta(hours=hours)).isoformat(), START)
    assert left == english_words
    assert i18n.translate(left, "de") == german_words


def test_a_date_in_an_email_is_written_by_babel_in_the_readers_zone_and_language():
    at = "2026-12-05T09:30:00+00:00"
    assert i18n.local_time(at, "Europe/Berlin", "de") == "Samstag, 5. Dez. 2026, 10:30 MEZ"
    assert i18n.local_time(at, "Europe/Berlin", "en") == "Saturday 05 December 2026, 10:30 CET"
    assert i18n.local_time(at, "Nowhere/Else", "de") == "Samstag, 5. Dez. 2026, 09:30 UTC"
    assert i18n.local_time(None, "UTC", "de") is None
    assert i18n.local_day(date(2026, 12, 5), "de") == "Samstag, 5. Dezember"


@pytest.mark.parametrize("own, seat, got", [
    (None, {}, "en"), (None, {"language": "de"}, "de"), ("en", {"language": "de"}, "en"),
    ("de", {"language": "en"}, "de"), (None, {"language": "fr"}, "en"),
    (None, {"language": "de-AT"}, "de")])
def test_the_readers_language_is_their_own_then_their_seats_then_english(own, seat, got):
    assert i18n.reader_language(own, seat) == got


def test_every_email_template_renders_in_german_with_no_english_sentence_left():
    """Each template, every branch that has words, rendered for a German reader with
    made-up values: no sentence of the catalog stays English (a template whose words
    were not marked would fail here, even where no flow above reaches it)."""
    env = i18n.email_env("de")
    game = type("G", (), {"name": "Der Königsbund"})()
    base = {"player": {"name": "Bruno"}, "game": game, "game_id": "g1", "names": ["A", "B"],
            "play_url": "u", "mute_url": "m", "unsubscribe_url": "x", "my_games_url": "y",
            "language": "de"}
    cases = {
        "turn": [dict(reminder=True, countdown="1", countdown_first="Noch 1 Tag",
                      deadline="d", is_turn=True, menu=["1 A"], said=[{"name": "A",
                      "text": "hi"}], foreign="z@x", block_url="b", fork={"from": "f",
                                                                            "at": 2},
                      table={"version": 3}, summary=""),
                 dict(invitation=True, fork={"from": "f", "at": 2}, table={"version": 1},
                      summary=""),
                 dict(invitation=True, table={"version": 1}, summary=""),
                 dict(invitation=True, is_turn=True, table={"version": 1}, summary=""),
                 dict(step=True, deadline="d", table={"version": 4}, summary=""),
                 dict(table={"version": 4}, summary="")],
        "undo": [dict(asker="A", move="x", move_version=2), dict(asker="A")],
        "vote": [dict(proposer="A", what="w", kind="abandon", expires="e"),
                 dict(proposer="A", what="w", kind="end", needed=2, expires="e")],
        "vote_refused": [dict(refuser="A", what="w")],
        "timeout": [dict(policy=p, is_late=late, late="A", played=played)
                    for p in ("forfeit", "auto", "wait") for late in (True, False)
                    for played in ("x", None)],
        "ended": [dict(outcome={"ranking": [0, 1], "tie_break": "coins", "scores": [1, 2]},
                       secret="s", ended_line="")],
        "digest": [dict(rows=[{"name": "G", "names": ["A"], "play_url": "p",
                               "deadline_text": "d"}], count=n, day_text="t") for n in (1, 3)],
        "answer": [dict(lines=["l"], listing=["x"], menu=["1 A"], quoted="q")],
        "channel_paused": [dict(name="n", times=n, error="e") for n in (1, 5)],
        "sign_in": [dict(purpose=p, url="u", minutes=15, game_name="G")
                    for p in ("create", "sign-in")],
    }
    for name, contexts in cases.items():
        for extra in contexts:
            for suffix in ("txt", "html"):
                said = env.get_template(f"email/{name}.{suffix}").render(**base, **extra)
                assert english_in(said) == [], (name, suffix, extra)


@pytest.mark.parametrize("language", ["en", "de"])
def test_names_filled_into_a_translated_sentence_are_escaped_in_html(language):
    env = i18n.email_env(language)
    game = type("G", (), {"name": "Guild & <Co>"})()
    html = env.get_template("email/turn.html").render(
        player={"name": "<i>Ada</i>"}, game=game, game_id="g", names=["<b>x</b>"],
        invitation=True, is_turn=True, table={"version": 1}, summary="", language=language)
    assert "<i>Ada</i>" not in html and "&lt;i&gt;Ada&lt;/i&gt;" in html
    assert "<strong>Guild &amp; &lt;Co&gt;</strong>" in html  # ours bold, theirs escaped
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    text = env.get_template("email/turn.txt").render(
        player={"name": "<i>Ada</i>"}, game=game, game_id="g", names=["<b>x</b>"],
        invitation=True, is_turn=True, table={"version": 1}, summary="", language=language)
    assert "<i>Ada</i>" in text and "Guild & <Co>" in text  # plain text: as written
