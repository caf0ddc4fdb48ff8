"""Table talk (events.talk): one test per rule.  Messages are Said events, public to the
table and passive: the platform folds them as no-ops everywhere."""

from __future__ import annotations

import fakeredis
import pytest

from events import clocks, history, talk
from events import envelope as ev
from events.envelope import Event
from events.gameplay import GameService
from events.replay import Replayer
from events.store import EventStore, UnknownGame
from games.protocol import IllegalMove
from tests.events.test_replay import PLAYERS, play_randomly


def race(service: GameService) -> str:
    return service.create("test-race", PLAYERS, {"target": 500}).game_id


# -- clean ---------------------------------------------------------------------------------
def test_clean_strips_the_ends_and_keeps_line_breaks():
    assert talk.clean("  Good luck!\r\nHave fun.  \n") == "Good luck!\nHave fun."


def test_clean_keeps_at_most_two_line_breaks_in_a_row():
    assert talk.clean("a\n\n\n\n\nb\r\n\r\n\r\nc") == "a\n\nb\n\nc"


def test_clean_drops_control_and_bidi_characters_but_keeps_emoji_joiners():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert talk.clean("a\x00b\x1b[31mc\u202ed\u2066e\tf " + family) == \
        "ab[31mcde f " + family


def test_clean_refuses_an_empty_message():
    for blank in ("", "   ", "\n\n\t", "\x00\u202e"):
        with pytest.raises(IllegalMove, match="cannot be empty"):
            talk.clean(blank)


def test_clean_refuses_a_message_over_the_limit_and_says_how_long_it_is():
    assert talk.clean("x" * talk.MAX_CHARS) == "x" * talk.MAX_CHARS
    with pytest.raises(IllegalMove, match=f"at most {talk.MAX_CHARS} characters.*501"):
        talk.clean("x" * (talk.MAX_CHARS + 1))


def test_clean_counts_the_length_after_cleaning():
    assert talk.clean("  " + "x" * talk.MAX_CHARS + "  \n\n") == "x" * talk.MAX_CHARS


def test_clean_refuses_what_is_not_text():
    with pytest.raises(IllegalMove):
        talk.clean(None)  # type: ignore[arg-type]


# -- say -----------------------------------------------------------------------------------
def test_say_appends_a_said_event_by_the_seat(service):
    gid = race(service)
    event = talk.say(service, gid, 1, "  Good luck!  ", via="api")
    assert event.type == ev.SAID and event.version == 2
    assert event.actor == ev.seat_actor(1) and event.tape == []
    assert event.data == {"seat": 1, "text": "Good luck!", "via": "api"}
    assert service.store.verify(gid)[0]


def test_say_refuses_a_seat_not_in_the_game(service):
    gid = race(service)
    for seat in (2, -1, True):
        with pytest.raises(IllegalMove, match="not in this game"):
            talk.say(service, gid, seat, "hello")  # type: ignore[arg-type]
    assert service.store.version(gid) == 1


def test_say_refuses_bad_text_and_appends_nothing(service):
    gid = race(service)
    with pytest.raises(IllegalMove):
        talk.say(service, gid, 0, " \n ")
    assert service.store.version(gid) == 1


def test_say_refuses_an_unknown_way_in(service):
    gid = race(service)
    with pytest.raises(ValueError, match="via"):
        talk.say(service, gid, 0, "hello", via="pigeon")
    assert service.store.version(gid) == 1


def test_say_in_a_game_that_does_not_exist_is_unknown_game(service):
    with pytest.raises(UnknownGame):
        talk.say(service, "nope", 0, "hello")


def test_say_works_after_the_game_is_over(service):
    gid = race(service)
    service.resign(gid, 0)
    assert talk.say(service, gid, 1, "gg").type == ev.SAID


def test_say_tries_again_when_another_append_wins_the_race(service, monkeypatch):
    gid = race(service)
    record, raced = service.record, []

    def racing(game_id, type_, data, actor="system", expected_version=None):
        if not raced:  # someone else appends between the read of the version and ours
            raced.append(record(game_id, ev.ADMIN_NOTE, {"text": "meanwhile"}, "admin"))
            return record(game_id, type_, data, actor, expected_version=1)
        return record(game_id, type_, data, actor, expected_version)
    monkeypatch.setattr(service, "record", racing)
    event = talk.say(service, gid, 0, "hello")
    assert event.version == 3 and [m.text for m in talk.messages(service.store, gid)] == \
        ["hello"]


# -- hide ----------------------------------------------------------------------------------
def test_hide_appends_said_hidden_and_keeps_the_message_in_the_log(service):
    gid = race(service)
    said = talk.say(service, gid, 0, "rude words")
    hidden = talk.hide(service, gid, said.version)
    assert hidden.type == ev.SAID_HIDDEN and hidden.actor == "admin"
    assert hidden.data == {"version": said.version}
    assert service.store.read(gid, said.version, said.version)[0].data["text"] == "rude words"


def test_hide_refuses_a_version_that_is_not_a_message(service):
    gid = race(service)
    for version in (1, 0, 99):
        with pytest.raises(IllegalMove, match="not a message"):
            talk.hide(service, gid, version)
    assert service.store.version(gid) == 1


def test_hide_refuses_a_message_hidden_already(service):
    gid = race(service)
    said = talk.say(service, gid, 0, "oops")
    talk.hide(service, gid, said.version)
    with pytest.raises(IllegalMove, match="already hidden"):
        talk.hide(service, gid, said.version)
    assert service.store.version(gid) == 3


# -- messages ------------------------------------------------------------------------------
def test_messages_are_listed_in_log_order_with_name_time_and_way_in(service):
    gid = race(service)
    first = talk.say(service, gid, 0, "Good luck!")
    play_randomly(service, gid, 2)
    second = talk.say(service, gid, 1, "You too", via="email")
    found = talk.messages(service.store, gid)
    assert found == [
        talk.Message(first.version, 0, "Ada", "Good luck!", first.at, "page", False),
        talk.Message(second.version, 1, "Bo", "You too", second.at, "email", False)]


def test_messages_mark_hidden_ones_and_keep_their_text(service):
    gid = race(service)
    kept = talk.say(service, gid, 0, "hi")
    rude = talk.say(service, gid, 1, "rude words")
    talk.hide(service, gid, rude.version)
    found = talk.messages(service.store, gid)
    assert [(m.version, m.hidden, m.text) for m in found] == [
        (kept.version, False, "hi"), (rude.version, True, "rude words")]
    assert found[1].public()["text"] is None and found[1].public()["hidden"] is True
    assert found[0].public()["text"] == "hi"


def test_messages_after_and_upto_bound_the_versions_but_a_later_hide_still_counts(service):
    gid = race(service)
    one, two, three = (talk.say(service, gid, 0, t) for t in ("one", "two", "three"))
    talk.hide(service, gid, two.version)
    assert [m.text for m in talk.messages(service.store, gid, after=one.version)] == \
        ["two", "three"]
    upto = talk.messages(service.store, gid, upto=two.version)
    assert [(m.text, m.hidden) for m in upto] == [("one", False), ("two", True)]
    assert talk.messages(service.store, gid, after=three.version) == []


def test_messages_of_a_game_that_does_not_exist_are_none(store):
    assert talk.messages(store, "nope") == []


# -- history -------------------------------------------------------------------------------
def test_history_shows_a_message_as_name_and_text_the_same_to_every_reader(service):
    gid = race(service)
    said = talk.say(service, gid, 0, "Good luck!")
    table = service.load(gid)
    for reader in (None, 0, 1):
        lines = history.lines(service.store, gid, table.game, table.names, reader)
        assert lines[-1]["text"] == "Ada: Good luck!" and lines[-1]["version"] == said.version


def test_history_shows_a_hidden_message_as_hidden_and_says_it_was_hidden(service):
    gid = race(service)
    said = talk.say(service, gid, 0, "rude words")
    talk.hide(service, gid, said.version)
    table = service.load(gid)
    for reader in (None, 0, 1):
        texts = [line["text"] for line in history.lines(service.store, gid, table.game,
                                                        table.names, reader)]
        assert texts[-2:] == ["Ada: (hidden by the admin)", "A message was hidden by the admin"]
        assert not any("rude" in t for t in texts)
    page, _ = history.page(service.store, gid, table.game, table.names, 1,
                           before=said.version + 1, limit=1)
    assert page[0]["text"] == "Ada: (hidden by the admin)"
    [event] = service.store.read(gid, said.version, said.version)
    assert history.describe_in_log(service.store, gid, event, table.game, table.names, 0) \
        == "Ada: (hidden by the admin)"


def test_history_never_marks_a_message_undone_by_a_rewind(service):
    gid = race(service)
    play_randomly(service, gid, 2)
    said = talk.say(service, gid, 0, "before the rewind")
    service.rewind(gid, 2, "test", "admin")
    table = service.load(gid)
    lines = {line["version"]: line for line in history.lines(service.store, gid, table.game,
                                                             table.names, None)}
    assert lines[said.version]["undone"] is False
    assert lines[3]["undone"] is True  # the move it took back


# -- passive: the platform folds messages as no-ops ----------------------------------------
def test_said_and_said_hidden_are_passive_event_types():
    assert {ev.SAID, ev.SAID_HIDDEN} <= ev.PASSIVE
    assert {ev.SAID, ev.SAID_HIDDEN} <= ev.EVENT_TYPES
    assert ev.CURRENT_V[ev.SAID] == ev.CURRENT_V[ev.SAID_HIDDEN] == 1


def _without_talk(store: EventStore, gid: str) -> EventStore:
    """The same game in a store of its own with every Said and SaidHidden left out (the
    tapes and times kept, so it folds to what the game would be without the talk)."""
    other = EventStore(fakeredis.FakeRedis(decode_responses=True))
    version = 0
    for e in store.iter(gid):
        if e.type in (ev.SAID, ev.SAID_HIDDEN):
            continue
        other.append(gid, version, Event(version=version + 1, type=e.type, actor=e.actor,
                                         data=e.data, tape=e.tape, at=e.at))
        version += 1
    return other


@pytest.mark.parametrize("kind", ["test-race", "architects"])
def test_said_in_the_middle_of_a_real_game_folds_as_a_no_op(service, kind):
    options = {"target": 500} if kind == "test-race" else {}
    gid = service.create(kind, PLAYERS, options, platform={
        "time_control": {"kind": "per_move", "hours": 24}}).game_id
    play_randomly(service, gid, 6, seed=3)
    before = service.load(gid)
    said = talk.say(service, gid, sorted(before.to_act())[0], "Your move!")
    talk.say(service, gid, 1, "Thinking...")
    after = service.load(gid)
    # the table is the same, only its version moved on
    assert after.state == before.state and after.to_act() == before.to_act()
    assert after.version == before.version + 2 and not after.ended
    talk.hide(service, gid, said.version)
    Replayer(service.store).write_snapshot(service.load(gid))  # a snapshot on a message
    play_randomly(service, gid, 6, seed=4)
    talk.say(service, gid, 0, "Well played")
    live = service.load(gid)
    scratch = Replayer(service.store).load(gid, use_snapshot=False)
    assert scratch.state == live.state and scratch.version == live.version
    plain = Replayer(_without_talk(service.store, gid)).load(gid, use_snapshot=False)
    assert plain.state == live.state and plain.to_act() == live.to_act()
    assert plain.version == live.version - 4
    assert service.verify(gid)[0]
    # the clocks stand exactly as they would without the talk
    now = clocks.parse_time(live.created_at) + 3 * 3600
    assert _clocks(service.store, gid).seconds_left(now) == \
        _clocks(_without_talk(service.store, gid), gid).seconds_left(now)


def _clocks(store: EventStore, gid: str) -> clocks.ClockFold:
    """The game's clocks folded from its whole log, as the worker folds them."""
    replayer, table, pairs = Replayer(store), None, []
    for event in store.iter(gid):
        table = replayer.evolve(table, gid, event)
        pairs.append((event, table.to_act()))
    return clocks.fold(pairs)


def test_a_message_leaves_an_act_link_of_the_turn_before_it_valid(service):
    gid = race(service)
    play_randomly(service, gid, 2)  # the antes: now one seat is to play
    table = service.load(gid)
    seat = sorted(table.to_act())[0]
    emailed_at = table.version  # the version an act link was emailed for
    talk.say(service, gid, 1 - seat, "hurry up")
    talk.hide(service, gid, emailed_at + 1)
    assert service.turn_unchanged(gid, seat, emailed_at)
    move = table.game.legal_moves(table.state, seat)[0]
    event = service.play(gid, seat, move, emailed_at, same_turn=True)
    assert event.type == ev.MOVE_PLAYED and event.version == emailed_at + 3


def test_a_message_does_not_make_a_page_form_stale(service):
    gid = race(service)
    table = service.load(gid)
    talk.say(service, gid, 1, "ante up")
    event = service.play(gid, 0, {"type": "ante", "amount": 2}, table.version)
    assert event.version == table.version + 2


def test_a_fork_copies_the_messages_before_it(service):
    gid = race(service)
    said = talk.say(service, gid, 0, "hello")
    talk.say(service, gid, 1, "after the fork point")
    fork = service.fork(gid, said.version, "admin")
    assert [m.text for m in talk.messages(service.store, fork)] == ["hello"]
    assert service.load(fork).state == service.load(gid).state


def test_a_take_back_survives_any_amount_of_talk_after_the_move(service):
    """Take-backs look past passive events however many: 150 messages after a move (more
    than one page of the log read backwards) leave it open to a take-back request."""
    gid = service.create("test-race", PLAYERS, {"target": 500}).game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    assert service.can_take_back(gid, 0) == (True, None)
    for n in range(150):
        talk.say(service, gid, 1, f"message {n}")
    assert service.can_take_back(gid, 0) == (True, None)
    request = service.request_undo(gid, 0)
    for n in range(120):
        talk.say(service, gid, 0, f"after the request {n}")
    assert service.pending_undo(gid)["version"] == request.version
