"""Play by reply: a reply to a turn email is a move, a command or table talk, decided as
a POST from its seat would be (worker.replies), and answered without mail loops."""

from __future__ import annotations

import random
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from events import talk
from games import registry
from worker import inbox, replies
from worker.links import raise_seat_generation
from worker.menu import build
from worker.projection import request_projection

ANN, BEN = "ann@example.com", "ben@example.com"


@pytest.fixture
def rt(app):
    return app.extensions["ravenpost"]


def start(rt, kind: str, players: list[dict], options: dict | None = None,
          platform: dict | None = None) -> str:
    table = rt.games.create(kind, players, options or {}, platform=platform)
    request_projection(rt.enqueuer, table.game_id, table.version)
    return table.game_id


def solo(rt) -> str:
    return start(rt, "architects", [{"name": "Ann", "email": ANN}])


def mails_to(rt, address: str) -> list[dict]:
    """Every email to ``address``, oldest first, headers and all."""
    found = [rt.mail.get(m["id"]) for m in rt.mail.list(limit=1000) if m["to"] == address]
    return sorted(found, key=lambda m: int(m["id"]) if str(m["id"]).isdigit() else m["id"])


def last_mail(rt, address: str) -> dict:
    return mails_to(rt, address)[-1]


def turn_mail(rt, address: str) -> dict:
    """The latest email to ``address`` that can be answered (it has a Reply-To)."""
    return [m for m in mails_to(rt, address) if m["headers"].get("Reply-To")][-1]


def reply_message(mail: dict, text: str, sender: str | None = None,
                  message_id: str | None = None, headers: dict | None = None,
                  quote: bool = True) -> EmailMessage:
    """A reply as a Gmail user writes it: new text on top, the whole email quoted."""
    msg = EmailMessage()
    msg["From"] = f"Player <{sender or mail['to']}>"
    msg["To"] = mail["headers"]["Reply-To"]
    msg["Subject"] = "Re: " + mail["subject"]
    msg["Message-ID"] = message_id or make_msgid(domain="mail.example.com")
    for name, value in (headers or {}).items():
        msg[name] = value
    body = text
    if quote:
        body += ("\n\nOn Fri, 4 Dec 2026 at 10:00, Ravenpost <noreply@ravenpost.local> "
                 "wrote:\n" + "\n".join("> " + line for line in mail["text"].splitlines()))
    msg.set_content(body)
    return msg


def send_reply(rt, mail: dict, text: str, **kwargs) -> str:
    """Deliver a reply through the inbox as the SMTP door does; the job's outcome."""
    msg = reply_message(mail, text, **kwargs)
    key, _new = inbox.store(rt.redis, door="smtp", raw=bytes(msg),
                            envelope_to=[mail["headers"]["Reply-To"]])
    return replies.handle(key)


def numbers_for(rt, game_id: str, seat: int, pick=None) -> tuple[str, dict]:
    """The reply line naming a legal move of ``seat`` now (the first, or ``pick``'s
    choice), and that move."""
    table = rt.games.load(game_id)
    menu = build(table.game, table.state, seat)
    move = pick(menu.moves) if pick else menu.moves[0]
    return " ".join(map(str, menu.numbers_of(move))), move


def test_every_turn_email_lists_the_moves_numbered_and_carries_a_reply_address(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    reply_to = mail["headers"]["Reply-To"]
    assert reply_to.startswith("play+") and reply_to.endswith("@reply.ravenpost.localhost")
    assert len(reply_to.split("@")[0]) <= 64
    assert "Reply with the number of your move" in mail["text"]
    table = rt.games.load(gid)
    for line in build(table.game, table.state, 0).lines():
        assert line in mail["text"]
    assert mail["text"].startswith("##- Please type your reply above this line -##")


def test_a_reply_with_the_numbers_of_a_move_plays_it_and_sends_nothing_extra(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    line, move = numbers_for(rt, gid, 0)
    before = len(mails_to(rt, ANN))
    outcome = send_reply(rt, mail, line)
    assert outcome.startswith("moved")
    [event] = rt.store.read(gid, 2, 2)
    assert event.data["move"] == move
    # the next email is the next turn's (or the next step's), never an answer
    assert all("Re:" not in m["subject"] for m in mails_to(rt, ANN)[before:])


def test_a_whole_solo_game_can_be_played_by_replies_alone(rt):
    gid = solo(rt)
    chooser = random.Random(7)
    for _ in range(2000):
        table = rt.games.load(gid)
        if table.ended:
            break
        mail = turn_mail(rt, ANN)
        line, _move = numbers_for(rt, gid, 0, pick=chooser.choice)
        assert send_reply(rt, mail, line).startswith("moved"), line
    assert rt.games.load(gid).ended
    assert rt.games.verify(gid)[0]


def test_the_same_reply_delivered_twice_makes_one_move(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    line, _ = numbers_for(rt, gid, 0)
    msg = reply_message(mail, line)
    first, new = inbox.store(rt.redis, door="smtp", raw=bytes(msg))
    assert new and replies.handle(first).startswith("moved")
    version = rt.store.version(gid)
    again, new_again = inbox.store(rt.redis, door="smtp", raw=bytes(msg))
    assert again == first and not new_again
    assert replies.handle(again).startswith("moved")  # the recorded outcome
    assert rt.store.version(gid) == version


def test_a_second_reply_to_the_same_turn_changes_nothing_and_is_answered_moved_on(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    line, _ = numbers_for(rt, gid, 0)
    assert send_reply(rt, mail, line).startswith("moved")
    version = rt.store.version(gid)
    assert send_reply(rt, mail, line) == "refused (moved on)"
    assert rt.store.version(gid) == version
    answer = last_mail(rt, ANN)
    assert answer["subject"].startswith("Re:")
    assert "The game has moved on" in answer["text"]
    assert answer["headers"]["Auto-Submitted"] == "auto-replied"
    # the answer shows the current moves and can itself be answered
    table = rt.games.load(gid)
    if 0 in table.to_act():
        assert build(table.game, table.state, 0).lines()[0] in answer["text"]
        assert answer["headers"]["Reply-To"] != mail["headers"]["Reply-To"]


def test_a_reply_from_another_address_changes_nothing_and_gets_no_answer(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    line, _ = numbers_for(rt, gid, 0)
    count = len(rt.mail.list(limit=1000))
    assert send_reply(rt, mail, line, sender="mallory@example.net") == \
        "ignored: not the seat's address"
    assert rt.store.version(gid) == 1
    assert len(rt.mail.list(limit=1000)) == count


def test_the_seat_hears_of_a_foreign_reply_in_its_next_email_once_a_day(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    send_reply(rt, mail, "1", sender="mallory@example.net")
    send_reply(rt, mail, "2", sender="mallory@example.net", message_id="<other@x>")
    line, _ = numbers_for(rt, gid, 0)
    send_reply(rt, mail, line)
    told = [m for m in mails_to(rt, ANN) if "mallory@example.net" in m["text"]]
    assert len(told) == 1


def test_a_gmail_style_reply_quoting_the_whole_email_reads_only_the_new_text(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    line, move = numbers_for(rt, gid, 0)
    # the quoted email holds every number of the menu: only the new line may count
    assert send_reply(rt, mail, line + "\n\nHave fun, everyone!").startswith("moved")
    moves = [e for e in rt.store.read(gid) if e.type == "MovePlayed"]
    assert [e.data["move"] for e in moves] == [move]
    assert [m.text for m in talk.messages(rt.store, gid)] == ["Have fun, everyone!"]


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"},
    {"Precedence": "bulk"},
    {"X-Autoreply": "yes", "Subject": "Out of Office: away until Monday"},
])
def test_an_auto_reply_is_never_answered_and_changes_nothing(rt, headers):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    count = len(rt.mail.list(limit=1000))
    msg = reply_message(mail, "I am out of the office until Monday.", quote=False)
    for name, value in headers.items():
        del msg[name]
        msg[name] = value
    key, _ = inbox.store(rt.redis, door="smtp", raw=bytes(msg))
    assert replies.handle(key) == "ignored: automatic mail"
    assert rt.store.version(gid) == 1
    assert len(rt.mail.list(limit=1000)) == count


def test_mail_without_a_reply_token_of_ours_is_ignored(rt):
    solo(rt)
    mail = dict(turn_mail(rt, ANN))
    mail["headers"] = {**mail["headers"], "Reply-To": "someone@reply.ravenpost.localhost"}
    assert send_reply(rt, mail, "1") == "ignored: no reply address of ours"
    forged = dict(mail, headers={**mail["headers"], "Reply-To":
                                 "play+aaaa-0-1-0-bbbbbbbbbbbbbbbb@reply.ravenpost.localhost"})
    assert send_reply(rt, forged, "1") == "ignored: not a valid reply address"


def test_numbers_that_name_no_move_are_answered_with_the_reason_and_the_moves(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    assert send_reply(rt, mail, "999") == "refused"
    assert rt.store.version(gid) == 1
    answer = last_mail(rt, ANN)
    assert '"999" is not one of your moves' in answer["text"]
    table = rt.games.load(gid)
    assert build(table.game, table.state, 0).lines()[0] in answer["text"]


def test_refusals_are_answered_at_most_five_times_an_hour(rt):
    solo(rt)
    mail = turn_mail(rt, ANN)
    before = len(mails_to(rt, ANN))
    outcomes = [send_reply(rt, mail, "999") for _ in range(7)]
    assert outcomes == ["refused"] * 5 + ["refused, unanswered"] * 2
    assert len(mails_to(rt, ANN)) == before + 5


def test_a_reply_with_no_move_is_table_talk_not_an_error(rt):
    gid = start(rt, "architects", [{"name": "Ann", "email": ANN},
                                   {"name": "Ben", "email": BEN}])
    to_act = sorted(rt.games.load(gid).to_act())
    seat = to_act[0]
    address = (ANN, BEN)[seat]
    count = len(rt.mail.list(limit=1000))
    assert send_reply(rt, turn_mail(rt, address), "Good luck, both of you!") == "said"
    assert len(rt.mail.list(limit=1000)) == count  # no answer
    [said] = talk.messages(rt.store, gid)
    assert (said.seat, said.text, said.via) == (seat, "Good luck, both of you!", "email")


def test_a_chat_line_appears_in_the_other_seats_next_email(rt):
    gid = start(rt, "kings-guild", [{"name": "Ann", "email": ANN},
                                    {"name": "Ben", "email": BEN}])
    for _ in range(60):  # play until the other seat is to act
        table = rt.games.load(gid)
        [seat] = sorted(table.to_act())[:1]
        address = (ANN, BEN)[seat]
        line, _ = numbers_for(rt, gid, seat)
        assert send_reply(rt, turn_mail(rt, address), line + "\nYour turn soon!") \
            .startswith("moved")
        after = rt.games.load(gid)
        if (1 - seat) in after.to_act():
            break
    other = (ANN, BEN)[1 - seat]
    assert "Ann: Your turn soon!" in turn_mail(rt, other)["text"] or \
        "Ben: Your turn soon!" in turn_mail(rt, other)["text"]


def test_help_is_answered_with_the_commands_and_the_moves(rt):
    gid = solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "HELP") == "help"
    answer = last_mail(rt, ANN)
    assert "away 3d" in answer["text"] and "resign" in answer["text"]
    assert rt.store.version(gid) == 1


def test_history_is_answered_with_the_latest_moves(rt):
    gid = solo(rt)
    line, _ = numbers_for(rt, gid, 0)
    send_reply(rt, turn_mail(rt, ANN), line)
    assert send_reply(rt, turn_mail(rt, ANN), "history") == "history"
    table = rt.games.load(gid)
    from events.history import lines
    [last] = lines(rt.store, gid, table.game, table.names, 0, last=1)
    assert last["text"] in last_mail(rt, ANN)["text"]


def test_board_mails_the_picture_again(rt):
    solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "board") == "board"
    assert last_mail(rt, ANN)["inline"]


def test_away_books_leave_in_a_game_with_a_clock(rt):
    gid = start(rt, "architects", [{"name": "Ann", "email": ANN}],
                platform={"time_control": {"kind": "per_move", "hours": 48}})
    assert send_reply(rt, turn_mail(rt, ANN), "away 3d") == "away"
    assert any(e.type == "VacationDeclared" for e in rt.store.read(gid))
    assert "You are away until" in last_mail(rt, ANN)["text"]


def test_away_with_a_wrong_span_is_answered_and_books_nothing(rt):
    gid = start(rt, "architects", [{"name": "Ann", "email": ANN}],
                platform={"time_control": {"kind": "per_move", "hours": 48}})
    assert send_reply(rt, turn_mail(rt, ANN), "away soon") == "refused"
    assert '"away soon" is not a span of time' in last_mail(rt, ANN)["text"]
    assert not any(e.type == "VacationDeclared" for e in rt.store.read(gid))


def test_away_in_a_game_without_a_clock_is_answered_with_the_reason(rt):
    solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "away 3d") == "refused"
    assert "no clock" in last_mail(rt, ANN)["text"]


def test_resign_needs_a_second_reply_yes(rt):
    gid = solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "resign") == "resign"
    assert not rt.games.load(gid).ended
    assert 'Reply "yes"' in last_mail(rt, ANN)["text"]
    assert send_reply(rt, last_mail(rt, ANN), "Yes") == "yes"
    assert rt.games.load(gid).ended


def test_yes_without_a_resignation_to_confirm_is_table_talk(rt):
    gid = solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "yes") == "said"
    assert not rt.games.load(gid).ended


def test_stop_mutes_the_game_like_one_click_unsubscribe(rt):
    gid = solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "stop") == "stop"
    assert rt.store.get_json(gid, "seats")[0]["muted"]
    assert "no more emails from this game" in last_mail(rt, ANN)["text"]


def test_undo_where_the_page_would_refuse_it_is_answered_with_the_reason(rt):
    gid = solo(rt)
    assert send_reply(rt, turn_mail(rt, ANN), "undo") == "refused"
    assert "no move to take back" in last_mail(rt, ANN)["text"]
    assert rt.store.version(gid) == 1


def test_a_reply_address_dies_with_sign_out_everywhere(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    raise_seat_generation(rt.redis, gid, 0)
    line, _ = numbers_for(rt, gid, 0)
    assert send_reply(rt, mail, line) == "refused"
    assert rt.store.version(gid) == 1
    assert "revoked" in last_mail(rt, ANN)["text"]


def test_a_sendgrid_reply_must_pass_spf_or_dkim(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    line, _ = numbers_for(rt, gid, 0)
    fields = {"to": mail["headers"]["Reply-To"], "from": ANN, "subject": "Re: x",
              "text": line, "headers": "Message-ID: <sg1@example.com>\n",
              "envelope": f'{{"to": ["{mail["headers"]["Reply-To"]}"], "from": "{ANN}"}}',
              "SPF": "fail", "dkim": "{@example.com : fail}"}
    key, _ = inbox.store(rt.redis, door="sendgrid", fields=fields)
    assert replies.handle(key) == "ignored: the sender passed neither SPF nor DKIM"
    assert rt.store.version(gid) == 1
    fields |= {"SPF": "pass", "headers": "Message-ID: <sg2@example.com>\n"}
    key, _ = inbox.store(rt.redis, door="sendgrid", fields=fields)
    assert replies.handle(key).startswith("moved")


def test_a_step_by_step_move_goes_on_with_the_next_steps_email(rt):
    """King's Guild: gathering takes resources one by one, each a move of the same turn;
    the reply to each step is answered by the next step's email."""
    gid = start(rt, "kings-guild", [{"name": "Ann", "email": ANN},
                                    {"name": "Ben", "email": BEN}])
    kind = registry.get("kings-guild")
    for _ in range(40):
        table = rt.games.load(gid)
        [seat] = sorted(table.to_act())[:1]
        address = (ANN, BEN)[seat]
        moves = kind.legal_moves(table.state, seat)
        gather = [m for m in moves if m.get("type") == "gather"]
        line, move = numbers_for(rt, gid, seat, pick=lambda ms, g=gather: g[0] if g else ms[0])
        before = len(mails_to(rt, address))
        assert send_reply(rt, turn_mail(rt, address), line).startswith("moved")
        after = rt.games.load(gid)
        if gather and seat in after.to_act():
            step = mails_to(rt, address)[before:]
            assert step and step[-1]["subject"].startswith("Your move goes on")
            return
    pytest.fail("no gather step reached")


def test_a_player_who_asks_for_confirmations_gets_one_per_move_made_by_reply(rt):
    from worker import players
    gid = solo(rt)
    pid = players.seat_player(rt.redis, rt.store.get_json(gid, "seats")[0])
    players.save_prefs(rt.redis, pid, confirm=True)
    line, move = numbers_for(rt, gid, 0)
    table = rt.games.load(gid)
    label = build(table.game, table.state, 0).label_of(move)
    assert send_reply(rt, turn_mail(rt, ANN), line).startswith("moved")
    [confirmation] = [m for m in mails_to(rt, ANN) if m["subject"].startswith("Re:")]
    assert f"Your move was played: {label}." in confirmation["text"]


def test_table_talk_by_email_is_limited_per_seat_and_hour(rt):
    gid = solo(rt)
    mail = turn_mail(rt, ANN)
    for n in range(replies.SAID_BY_MAIL_PER_HOUR + 3):
        send_reply(rt, mail, f"message {n}")
    assert len(talk.messages(rt.store, gid)) == replies.SAID_BY_MAIL_PER_HOUR
