"""Resigning and table votes (abandon, end early), one test per rule (see events.votes)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from events import envelope as ev
from events.history import describe
from events.replay import Replayer
from events.store import ConflictError
from events.votes import ended_line, provisional_scores
from games.protocol import IllegalMove
from tests.events.test_replay import PLAYERS, play_randomly

THREE = PLAYERS + [{"name": "Cy", "email": "cy@example.com"}]
FOUR = THREE + [{"name": "Di", "email": "di@example.com"}]
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)  # a controllable clock: times are passed in


def new_game(service, players=PLAYERS):
    return service.create("test-race", players, {"target": 500}).game_id


def later(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


# -- resigning ---------------------------------------------------------------------------
def test_resigning_ends_the_game_with_the_result_saying_who_resigned(service):
    gid = new_game(service, THREE)
    play_randomly(service, gid, 4)
    event = service.resign(gid, 1, service.load(gid).version)
    table = service.load(gid)
    assert event.type == ev.GAME_ENDED and table.ended and table.to_act() == set()
    assert table.outcome()["ended"] == "resigned" and table.outcome()["seats"] == [1]
    assert ended_line(table.outcome(), table.names) == "Bo resigned."
    assert "resigned (Bo)" in describe(event, table.game, table.names, None)


def test_in_a_two_player_game_the_other_player_wins(service):
    gid = new_game(service)
    service.resign(gid, 0)
    outcome = service.load(gid).outcome()
    assert outcome["ranking"] == [1, 0] and outcome["winners"] == [1]
    assert outcome["winner"] == "Bo wins."


def test_with_more_players_the_resigner_ranks_last_and_the_others_equal_without_scores(
        service):
    gid = new_game(service, THREE)
    service.resign(gid, 0)
    outcome = service.load(gid).outcome()
    assert outcome["ranking"][-1] == 0
    assert outcome["places"] == [3, 1, 1] and outcome["winners"] == [1, 2]


def test_with_more_players_the_others_rank_by_the_games_public_scores(service, monkeypatch):
    gid = new_game(service, FOUR)
    game = service.load(gid).game
    monkeypatch.setattr(game, "provisional_scores", lambda state: [9, 3, 7, 7],
                        raising=False)
    service.resign(gid, 0)
    outcome = service.load(gid).outcome()
    assert outcome["ranking"] == [2, 3, 1, 0]
    assert outcome["places"] == [4, 3, 1, 1] and outcome["scores"] == [9, 3, 7, 7]


def test_a_second_resignation_is_refused(service):
    gid = new_game(service, THREE)
    service.resign(gid, 0)
    with pytest.raises(IllegalMove, match="already over: Ada resigned"):
        service.resign(gid, 1)
    assert len(service.store.read(gid)) == 2


def test_resigning_is_decided_on_the_expected_version(service):
    gid = new_game(service)
    seen = service.load(gid).version
    play_randomly(service, gid, 1)
    with pytest.raises(ConflictError):
        service.resign(gid, 0, seen)
    assert not service.load(gid).ended


def test_a_passive_event_since_does_not_make_a_resignation_stale(service):
    gid = new_game(service)
    seen = service.load(gid).version
    service.record(gid, ev.REMINDER_SENT, {"seat": 0, "turn": 1})
    service.resign(gid, 0, seen)
    assert service.load(gid).ended


# -- votes -------------------------------------------------------------------------------
def test_a_vote_is_passive_and_leaves_the_game_going(service):
    gid = new_game(service, THREE)
    before = service.load(gid)
    event = service.vote(gid, 0, "abandon", True, now=T0)
    after = service.load(gid)
    assert event.type == ev.VOTE_CALLED and ev.VOTE_CALLED in ev.PASSIVE
    assert after.state == before.state and not after.ended
    assert event.at.startswith("2026-03-01T12:00")


def test_abandoning_needs_every_player(service):
    gid = new_game(service, THREE)
    service.vote(gid, 0, "abandon", True, now=T0)
    service.vote(gid, 1, "abandon", True, now=later(1))
    assert not service.load(gid).ended, "two of three is not enough to abandon"
    event = service.vote(gid, 2, "abandon", True, now=later(2))
    outcome = service.load(gid).outcome()
    assert event.type == ev.GAME_ENDED and event.data["early"] == "abandoned"
    assert outcome["winners"] == [] and outcome["vote"]["yes"] == [0, 1, 2]


def test_ending_early_needs_a_majority(service):
    gid = new_game(service, FOUR)
    service.vote(gid, 0, "end", True, now=T0)
    service.vote(gid, 1, "end", True, now=later(1))
    assert not service.load(gid).ended, "two of four is not a majority"
    event = service.vote(gid, 3, "end", True, now=later(2))
    outcome = service.load(gid).outcome()
    assert event.data["early"] == "ended early" and outcome["vote"]["yes"] == [0, 1, 3]


def test_ending_early_ranks_by_the_public_scores_when_the_game_has_them(service,
                                                                         monkeypatch):
    gid = new_game(service, THREE)
    game = service.load(gid).game
    monkeypatch.setattr(game, "provisional_scores", lambda state: [4, 8, 6], raising=False)
    service.vote(gid, 0, "end", True, now=T0)
    service.vote(gid, 2, "end", True, now=later(1))
    outcome = service.load(gid).outcome()
    assert outcome["ranking"] == [1, 2, 0] and outcome["winners"] == [1]


def test_one_refusal_ends_the_vote(service):
    gid = new_game(service, FOUR)
    service.vote(gid, 0, "end", True, now=T0)
    service.vote(gid, 1, "end", False, now=later(1))
    with pytest.raises(IllegalMove, match="no open vote to refuse"):
        service.vote(gid, 2, "end", False, now=later(2))
    event = service.vote(gid, 2, "end", True, now=later(2))
    assert event.type == ev.VOTE_CALLED, "a yes after a refusal calls a new vote"
    assert not service.load(gid).ended


def test_an_expired_vote_does_not_carry(service):
    gid = new_game(service)
    service.vote(gid, 0, "abandon", True, now=T0)
    event = service.vote(gid, 1, "abandon", True, now=later(72.01))
    assert event.type == ev.VOTE_CALLED, "the late yes calls a new vote instead"
    assert not service.load(gid).ended
    vote = service.latest_vote(gid)
    assert vote.seat == 1 and vote.status(later(73)) == "open"


def test_a_vote_answered_in_time_carries(service):
    gid = new_game(service)
    service.vote(gid, 0, "abandon", True, now=T0)
    assert service.vote(gid, 1, "abandon", True, now=later(71.9)).type == ev.GAME_ENDED


def test_an_expired_vote_shows_as_expired_without_any_job(service):
    gid = new_game(service, THREE)
    service.vote(gid, 0, "end", True, now=T0)
    vote = service.latest_vote(gid)
    assert vote.status(later(1)) == "open" and vote.status(later(80)) == "expired"


def test_a_vote_decided_on_a_stale_version_conflicts(service):
    gid = new_game(service, THREE)
    service.vote(gid, 0, "abandon", True, now=T0)
    seen = service.load(gid).version
    service.vote(gid, 1, "abandon", False, now=later(1))  # the vote closed meanwhile
    with pytest.raises(ConflictError):
        service.vote(gid, 2, "abandon", True, seen, now=later(2))
    assert service.load(gid).version == seen + 1


def test_only_one_vote_at_a_time_and_one_answer_per_seat(service):
    gid = new_game(service, THREE)
    service.vote(gid, 0, "abandon", True, now=T0)
    with pytest.raises(IllegalMove, match="a vote to abandon is open"):
        service.vote(gid, 1, "end", True, now=later(1))
    with pytest.raises(IllegalMove, match="already voted"):
        service.vote(gid, 0, "abandon", True, now=later(1))


def test_moves_go_on_during_a_vote(service):
    gid = new_game(service, THREE)
    service.vote(gid, 0, "abandon", True, now=T0)
    play_randomly(service, gid, 3)
    service.vote(gid, 1, "abandon", True, now=later(1))
    service.vote(gid, 2, "abandon", True, now=later(2))
    assert service.load(gid).outcome()["ended"] == "abandoned"


def test_a_solo_player_may_abandon_alone(service):
    gid = new_game(service, PLAYERS[:1])
    assert service.vote(gid, 0, "abandon", True, now=T0).type == ev.GAME_ENDED


def test_no_vote_after_the_end(service):
    gid = new_game(service)
    service.resign(gid, 1)
    with pytest.raises(IllegalMove, match="already over"):
        service.vote(gid, 0, "end", True, now=T0)


def test_vote_history_lines_say_who_proposed_and_answered(service):
    gid = new_game(service, THREE)
    called = service.vote(gid, 0, "end", True, now=T0)
    cast = service.vote(gid, 1, "end", False, now=later(1))
    table = service.load(gid)
    assert describe(called, table.game, table.names, 1).startswith(
        "Ada proposes to end the game now")
    assert "open until 2026-03-04 12:00 UTC" in describe(called, table.game, table.names, 1)
    assert describe(cast, table.game, table.names, 0) == \
        "Bo refuses to end the game now: the vote is over"


def test_fold_from_event_one_gives_the_same_result(service):
    gid = new_game(service, THREE)
    play_randomly(service, gid, 5)
    service.vote(gid, 0, "end", True, now=T0)
    service.vote(gid, 1, "end", False, now=later(1))
    service.vote(gid, 2, "abandon", True, now=later(2))
    service.vote(gid, 0, "abandon", True, now=later(3))
    service.vote(gid, 1, "abandon", True, now=later(4))
    live = service.load(gid)
    rebuilt = Replayer(service.store).load(gid, use_snapshot=False)
    assert rebuilt == live and rebuilt.outcome()["ended"] == "abandoned"
    assert service.verify(gid)[0]


# -- the games' public scores ------------------------------------------------------------
@pytest.mark.parametrize(("kind", "public"), [
    ("architects", True), ("feudum-guilds", True), ("kings-guild", True)])
def test_each_game_says_whether_it_has_public_scores_to_end_early_by(service, kind, public):
    table = service.create(kind, THREE, {})
    scores = provisional_scores(table.game, table.state)
    assert (scores is not None) == public
    if public:
        assert len(scores) == 3 and all(isinstance(s, int) for s in scores)


def test_resigning_in_architects_ranks_the_others_by_their_score_now(service):
    gid = service.create("architects", THREE, {}).game_id
    play_randomly(service, gid, 40)
    table = service.load(gid)
    scores = provisional_scores(table.game, table.state)
    service.resign(gid, 2)
    outcome = service.load(gid).outcome()
    assert outcome["scores"] == scores and outcome["ranking"][-1] == 2
    first, second = outcome["ranking"][:2]
    assert scores[first] >= scores[second]


def test_kings_guild_ends_early_on_its_public_prestige_with_the_scores_in_the_result(
        service):
    gid = service.create("kings-guild", THREE, {}).game_id
    table = service.load(gid)
    prestige = table.game.view(table.state, None)["scores"]
    service.vote(gid, 0, "end", True, now=T0)
    service.vote(gid, 1, "end", True, now=later(1))
    outcome = service.load(gid).outcome()
    assert outcome["scores"] == prestige and len(outcome["ranking"]) == 3
    assert "no public scores" not in outcome["winner"]
    assert outcome["winner"].endswith("on the current scores.")


def test_architects_ended_early_ranks_the_byzantine_opponent_with_its_score(service):
    gid = service.create("architects", PLAYERS, {"bot_opponent": True}).game_id
    play_randomly(service, gid, 30)
    table = service.load(gid)
    totals = table.game.view(table.state, None)["scores"]["totals"]
    service.resign(gid, 0)
    outcome = service.load(gid).outcome()
    assert outcome["names"] == ["Ada", "Bo", "Constantine"]
    assert outcome["scores"] == totals and sorted(outcome["ranking"]) == [0, 1, 2]
    assert outcome["ranking"][-1] == 0 and len(outcome["places"]) == 3


# -- races and links ---------------------------------------------------------------------
def test_a_resignation_naming_no_version_is_decided_again_after_losing_a_race(service,
                                                                              monkeypatch):
    gid = new_game(service)
    original, raced = service.end_early, []

    def racing(*args, **kwargs):
        if not raced:  # another process appends between the read and the write
            raced.append(service.record(gid, ev.REMINDER_SENT, {"seat": 1, "turn": 1}))
        return original(*args, **kwargs)

    monkeypatch.setattr(service, "end_early", racing)
    service.resign(gid, 0)
    assert raced and service.load(gid).ended and service.load(gid).version == 3


def test_a_vote_leaves_emailed_move_links_valid(service):
    gid = new_game(service)
    emailed = service.load(gid).version
    service.vote(gid, 1, "end", True, now=T0)
    assert service.turn_unchanged(gid, 0, emailed)
    service.play(gid, 0, {"type": "ante", "amount": 2}, emailed, same_turn=True)


def test_finding_the_latest_vote_reads_only_from_its_call(service, monkeypatch):
    gid = service.create("test-race", PLAYERS, {"target": 500, "copies": 20}).game_id
    play_randomly(service, gid, 60)
    assert not service.load(gid).ended
    reads = []
    real = service.store.read
    monkeypatch.setattr(service.store, "read",
                        lambda *a, **k: reads.append(a) or real(*a, **k))
    assert service.latest_vote(gid) is None and reads == []  # no vote: nothing read
    called = service.vote(gid, 0, "abandon", True, now=T0)
    reads.clear()
    assert service.latest_vote(gid).version == called.version
    assert reads == [(gid, called.version, called.version)]
