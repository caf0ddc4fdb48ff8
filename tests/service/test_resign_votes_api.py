"""Resigning and table votes through the JSON API and the personal page, with the emails."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.support import PLAYERS, bearer

THREE = PLAYERS + [{"name": "Cy", "email": "cy@example.com"}]
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The time resignations and votes are judged at (the app's CLOCK setting)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)


@pytest.fixture
def clock(rt) -> Clock:
    rt.config["CLOCK"] = clock = Clock()  # the runtime's settings: the web's and the worker's
    return clock


def mails(rt, address: str, subject: str = "") -> list[dict]:
    return [rt.mail.get(m["id"]) for m in rt.mail.list(limit=500)
            if m["to"] == address and subject in m["subject"]]


def resign(client, gid, token, **body):
    return client.post(f"/api/v1/games/{gid}/resign", headers=bearer(token),
                       **({"json": body} if body else {}))


def vote(client, gid, token, kind, accept, **extra):
    return client.post(f"/api/v1/games/{gid}/votes", headers=bearer(token),
                       json={"kind": kind, "accept": accept, **extra})


def csrf(client, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def personal(rt, gid, seat) -> str:
    return "/play/" + rt.links.make(gid, seat, "play")


# -- the API -----------------------------------------------------------------------------
def test_resigning_ends_the_game_and_everyone_is_emailed_why(client, rt, new_game, clock):
    gid, tokens = new_game()
    reply = resign(client, gid, tokens[0])
    assert reply.status_code == 201
    outcome = reply.json["outcome"]
    assert outcome["ended"] == "resigned" and outcome["seats"] == [0]
    assert outcome["winners"] == [1] and outcome["winner"] == "Bo wins."
    for player in PLAYERS:
        (mail,) = mails(rt, player["email"], "Game over")
        assert "Ada resigned." in mail["text"] and "Ada resigned." in mail["html"]


def test_a_second_resignation_is_refused_with_the_reason(client, new_game, clock):
    gid, tokens = new_game()
    resign(client, gid, tokens[0])
    again = resign(client, gid, tokens[1])
    assert again.status_code == 422
    assert again.json["message"] == "the game is already over: Ada resigned."


def test_a_resignation_decided_on_an_old_version_conflicts(client, rt, new_game, clock):
    gid, tokens = new_game()
    client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
                json={"move": {"type": "ante", "amount": 1}, "expected_version": 1})
    reply = resign(client, gid, tokens[1], expected_version=1)
    assert reply.status_code == 409 and reply.json["version"] == 2
    assert not rt.games.load(gid).ended


def test_abandoning_by_vote_asks_the_others_by_email_and_needs_everyone(client, rt, new_game,
                                                                        clock):
    gid, tokens = new_game(THREE)
    called = vote(client, gid, tokens[0], "abandon", True)
    assert called.status_code == 201
    assert called.json["vote"]["status"] == "open" and called.json["vote"]["needed"] == 3
    for address in ("bo@example.com", "cy@example.com"):
        (mail,) = mails(rt, address, "proposes to abandon")
        assert "Every player must agree" in mail["text"] and "/play/" in mail["text"]
    assert mails(rt, "ada@example.com", "proposes") == []
    assert vote(client, gid, tokens[1], "abandon", True).json["outcome"] is None
    done = vote(client, gid, tokens[2], "abandon", True)
    assert done.status_code == 201 and done.json["outcome"]["ended"] == "abandoned"
    (mail,) = mails(rt, "cy@example.com", "Game over")
    assert "agreed to abandon the game: there is no winner" in mail["text"]


def test_ending_early_carries_with_a_majority(client, rt, new_game, clock):
    gid, tokens = new_game(THREE)
    vote(client, gid, tokens[1], "end", True)
    done = vote(client, gid, tokens[2], "end", True)
    assert done.json["outcome"]["ended"] == "ended early"
    assert done.json["outcome"]["vote"]["yes"] == [1, 2]


def test_one_refusal_ends_the_vote_and_the_history_says_so(client, new_game, clock):
    gid, tokens = new_game(THREE)
    vote(client, gid, tokens[0], "end", True)
    refused = vote(client, gid, tokens[1], "end", False)
    assert refused.status_code == 201 and refused.json["vote"]["status"] == "refused"
    assert vote(client, gid, tokens[2], "end", True).json["vote"]["seat"] == 2
    texts = [e["text"] for e in client.get(f"/api/v1/games/{gid}/history",
                                           headers=bearer(tokens[0])).json["events"]]
    assert "Bo refuses to end the game now: the vote is over" in texts


def test_a_vote_expires_by_the_time_of_the_answer(client, new_game, clock):
    gid, tokens = new_game()
    vote(client, gid, tokens[0], "abandon", True)
    clock.advance(72.5)
    seen = client.get(f"/api/v1/games/{gid}/votes", headers=bearer(tokens[1])).json
    assert seen["vote"]["status"] == "expired"
    late = vote(client, gid, tokens[1], "abandon", True)
    assert late.status_code == 201 and late.json["outcome"] is None
    assert late.json["vote"]["seat"] == 1 and late.json["vote"]["status"] == "open"


def test_the_vote_time_is_a_setting(client, rt, new_game, clock):
    rt.config["VOTE_HOURS"] = 1
    gid, tokens = new_game()
    vote(client, gid, tokens[0], "end", True)
    clock.advance(1.5)
    refused = vote(client, gid, tokens[1], "end", False)
    assert refused.status_code == 422 and "expired" in refused.json["message"]


def test_a_vote_on_a_stale_version_conflicts(client, new_game, clock):
    gid, tokens = new_game(THREE)
    first = vote(client, gid, tokens[0], "abandon", True).json["version"]
    vote(client, gid, tokens[1], "abandon", False)
    stale = vote(client, gid, tokens[2], "abandon", True, expected_version=first)
    assert stale.status_code == 409


@pytest.mark.parametrize(("body", "field"), [
    ({"accept": True}, "kind"),
    ({"kind": "abandon"}, "accept"),
    ({"kind": "surrender", "accept": True}, "kind"),
    ({"kind": "end", "accept": "yes"}, "accept"),
    ({"kind": "end", "accept": 1}, "accept"),
    ({"kind": "abandon", "accept": 0}, "accept"),
    ({"kind": "end", "accept": True, "expected_version": "3"}, "expected_version"),
    ({"kind": "end", "accept": True, "why": "tired"}, "why"),
])
def test_a_bad_vote_is_a_400_naming_the_field(client, rt, new_game, body, field):
    gid, tokens = new_game()
    reply = client.post(f"/api/v1/games/{gid}/votes", headers=bearer(tokens[0]), json=body)
    assert reply.status_code == 400 and field in reply.json["fields"], reply.json
    assert rt.store.version(gid) == 1


def test_malformed_json_is_a_400_and_changes_nothing(client, rt, new_game):
    gid, tokens = new_game()
    for path in ("votes", "resign"):
        reply = client.post(f"/api/v1/games/{gid}/{path}", headers=bearer(tokens[0]),
                            data='{"kind": "end",', content_type="application/json")
        assert reply.status_code == 400 and "malformed" in reply.json["message"]
    assert rt.store.version(gid) == 1


def test_resigning_needs_the_players_token(client, new_game):
    gid, _ = new_game()
    assert client.post(f"/api/v1/games/{gid}/resign").status_code == 401


def test_the_openapi_document_describes_resign_and_votes(client):
    doc = client.get("/api/openapi.json").json
    post = doc["paths"]["/api/v1/games/{game_id}/votes"]["post"]
    assert {"201", "400", "409", "422"} <= set(post["responses"])
    assert doc["components"]["schemas"]["VoteIn"]["properties"]["kind"]["enum"] == \
        ["abandon", "end"]
    assert "201" in doc["paths"]["/api/v1/games/{game_id}/resign"]["post"]["responses"]
    json.dumps(doc)


# -- the personal page -------------------------------------------------------------------
def test_resigning_from_the_page_needs_the_confirmation_box(client, rt, new_game, clock):
    gid, _ = new_game()
    page = personal(rt, gid, 0)
    token = csrf(client, page)
    assert 'name="confirm" value="yes" required' in client.get(page).get_data(as_text=True)
    unconfirmed = client.post(page + "/resign", data={"csrf_token": token,
                                                      "expected_version": "1"})
    assert unconfirmed.status_code == 422
    assert "tick the box" in unconfirmed.get_data(as_text=True)
    assert not rt.games.load(gid).ended
    done = client.post(page + "/resign", data={"csrf_token": token, "expected_version": "1",
                                               "confirm": "yes"})
    assert done.status_code == 303
    after = client.get(personal(rt, gid, 1)).get_data(as_text=True)
    assert "Ada resigned." in after and "Bo wins." in after


def test_a_vote_from_the_page_is_answered_on_the_others_page(client, rt, new_game, clock):
    gid, _ = new_game(THREE)
    ada, bo = personal(rt, gid, 0), personal(rt, gid, 1)
    token = csrf(client, ada)
    called = client.post(ada + "/votes", data={"csrf_token": token, "kind": "abandon",
                                               "accept": "1", "expected_version": "1"})
    assert called.status_code == 303
    shown = client.get(bo).get_data(as_text=True)
    assert "Ada proposes to abandon the game" in shown and ">Refuse</button>" in shown
    refused = client.post(bo + "/votes", data={"csrf_token": token, "kind": "abandon",
                                               "accept": "0", "expected_version": "2"})
    assert refused.status_code == 303
    assert "was refused by Bo" in client.get(ada).get_data(as_text=True)


def test_the_page_shows_an_expired_vote_as_expired(client, rt, new_game, clock):
    gid, tokens = new_game()
    vote(client, gid, tokens[0], "end", True)
    clock.advance(80)
    assert "expired at 2026-03-04 12:00 UTC" in client.get(personal(rt, gid, 1)).get_data(
        as_text=True)


def test_a_page_vote_with_a_bad_answer_is_refused(client, rt, new_game, clock):
    gid, _ = new_game()
    page = personal(rt, gid, 0)
    reply = client.post(page + "/votes", data={"csrf_token": csrf(client, page),
                                               "kind": "abandon", "accept": "maybe"})
    assert reply.status_code == 422 and rt.store.version(gid) == 1


# -- the results an early end shows (review, issue 29) -----------------------------------
def results_rows(page: str) -> list[list[str]]:
    table = re.search(r'<table id="results">(.*?)</table>', page, re.S).group(1)
    return [re.findall(r"<t[dh]>(.*?)</t[dh]>", row) for row in re.findall(
        r"<tr>(.*?)</tr>", table, re.S)]


def test_kings_guild_ended_early_shows_prestige_as_scores_and_no_turn(client, rt, clock):
    gid = rt.games.create("kings-guild", THREE, {}).game_id
    rt.games.vote(gid, 0, "end", True, now=T0)
    rt.games.vote(gid, 1, "end", True, now=T0)
    page = client.get(personal(rt, gid, 0)).get_data(as_text=True)
    assert "Game over" in page and "no public scores" not in page
    status = re.search(r'<p class="status">(.*?)</p>', page, re.S).group(1)
    assert status.split()[:2] == ["Game", "over."] and "turn" not in status
    assert "Waiting for" not in re.sub(r'<figure class="card picture".*?</figure>', "", page,
                                       flags=re.S)
    rows = results_rows(page)
    assert rows[0] == ["Place", "Player", "Score"]
    assert sorted(r[1] for r in rows[1:]) == ["Ada", "Bo", "Cy"]
    assert all(r[2].isdigit() for r in rows[1:])


def test_architects_ended_early_lists_the_byzantine_opponent_with_scores(client, rt, clock):
    gid = rt.games.create("architects", PLAYERS, {"bot_opponent": True}).game_id
    rt.games.resign(gid, 0)
    rows = results_rows(client.get(personal(rt, gid, 1)).get_data(as_text=True))
    assert rows[1:] == [["1", "Bo", "0"], ["1", "Constantine", "0"], ["3", "Ada", "0"]]


def test_a_game_without_public_scores_shows_no_empty_score_column(client, rt, new_game,
                                                                   clock):
    gid, tokens = new_game(THREE)
    resign(client, gid, tokens[0])
    rows = results_rows(client.get(personal(rt, gid, 1)).get_data(as_text=True))
    assert rows[0] == ["Place", "Player"] and rows[-1] == ["3", "Ada"]


# -- the vote emails (review, issue 29) --------------------------------------------------
def test_a_vote_emails_subject_names_the_game_before_early(client, rt, new_game, clock):
    gid, tokens = new_game(THREE)
    vote(client, gid, tokens[0], "end", True)
    (mail,) = mails(rt, "bo@example.com", "proposes")
    assert mail["subject"] == "Ada proposes to end Counting Race (test game) early"
    gid, tokens = new_game(THREE)
    vote(client, gid, tokens[1], "abandon", True)
    (mail,) = mails(rt, "cy@example.com", "proposes to abandon")
    assert mail["subject"] == "Bo proposes to abandon Counting Race (test game)"


def test_a_refused_vote_is_emailed_to_its_proposer_once(client, rt, new_game, clock):
    from worker import jobs
    gid, tokens = new_game(THREE)
    vote(client, gid, tokens[0], "end", True)
    vote(client, gid, tokens[1], "end", False)
    (mail,) = mails(rt, "ada@example.com", "refused")
    assert mail["subject"] == "Bo refused to end Counting Race (test game) early"
    assert "Bo refused to end the game early in Counting Race" in mail["text"]
    assert "the game goes on" in mail["text"] and "the game goes on" in mail["html"]
    assert mails(rt, "bo@example.com", "refused") == mails(rt, "cy@example.com",
                                                           "refused") == []
    jobs.sweep()
    jobs.project(gid)
    assert len(mails(rt, "ada@example.com", "refused")) == 1
