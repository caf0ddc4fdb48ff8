"""GET /api/v1/games/<id>/history a page at a time (issue 12, item 3): the cost of a
page does not grow with the log."""

from __future__ import annotations

import pytest

from events import envelope as ev
from tests.support import bearer


@pytest.fixture
def long_game(rt, new_game):
    """A game of 250 events (notes after the creation), and a player's token."""
    gid, tokens = new_game()
    for i in range(249):
        rt.games.record(gid, ev.ADMIN_NOTE, {"text": f"note {i}"}, actor="admin")
    return gid, tokens[0]


def history(client, gid, token, **query):
    return client.get(f"/api/v1/games/{gid}/history", headers=bearer(token),
                      query_string=query)


def test_the_history_answers_the_latest_hundred_events_and_where_the_older_ones_start(
        client, long_game):
    gid, token = long_game
    reply = history(client, gid, token)
    assert reply.status_code == 200
    versions = [e["version"] for e in reply.json["events"]]
    assert versions == list(range(151, 251))  # oldest first, as before
    assert reply.json["next"] == 151


def test_following_next_walks_the_whole_log_once_in_order(client, long_game):
    gid, token = long_game
    pages, before = [], None
    for _ in range(10):  # bounded: 250 events in pages of 60 are 5 pages
        query = {"limit": 60} | ({} if before is None else {"before": before})
        reply = history(client, gid, token, **query).json
        pages.append([e["version"] for e in reply["events"]])
        before = reply["next"]
        if before is None:
            break
    assert [v for page in reversed(pages) for v in page] == list(range(1, 251))
    assert pages[-1][0] == 1


def test_a_page_before_the_first_event_is_empty(client, long_game):
    gid, token = long_game
    assert history(client, gid, token, before=1).json == {"events": [], "next": None}


def test_a_bad_before_or_limit_is_a_400_naming_it(client, long_game):
    gid, token = long_game
    for query, name in (({"limit": 0}, "limit"), ({"limit": 501}, "limit"),
                        ({"limit": "ten"}, "limit"), ({"before": 0}, "before"),
                        ({"before": "-3"}, "before")):
        reply = history(client, gid, token, **query)
        assert reply.status_code == 400, query
        assert name in reply.json["message"]


def test_the_openapi_document_describes_the_pages(client):
    get = client.get("/api/openapi.json").json["paths"]["/api/v1/games/{game_id}/history"]["get"]
    assert {p["name"] for p in get["parameters"]} == {"game_id", "before", "limit"}
    schema = client.get("/api/openapi.json").json["components"]["schemas"]["HistoryPageOut"]
    assert set(schema["properties"]) == {"events", "next"}
