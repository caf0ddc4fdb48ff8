"""Limits on what one client may ask: who may create games, how often, and how big a body."""

from __future__ import annotations

import io
import re

import fakeredis
import pytest

from service import create_app
from tests.support import ADMIN, PLAYERS, admin_headers, bearer

GAME = {"game": "test-race", "players": PLAYERS, "options": {}}


@pytest.fixture
def low_limits(fake_redis):
    """An app whose limits are low enough to reach in a test."""
    def make(**limits):
        config = {"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                  "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                  "BASE_URL": "http://localhost"}
        return create_app(config | limits)
    return make


def csrf(client) -> str:
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def lobby_form(client, *emails: str, address: str = "203.0.113.7"):
    """The lobby form sent by a signed-in organiser from ``address``."""
    from tests.support import ORGANISER, sign_in
    sign_in(client, ORGANISER)
    data = {"csrf_token": csrf(client), "game": "test-race"}
    for i, email in enumerate(emails):
        data |= {f"name{i}": f"Player {i}", f"email{i}": email}
    return client.post("/games", data=data, environ_base={"REMOTE_ADDR": address})


def a_players_token(client) -> tuple[str, list[str]]:
    created = client.post("/api/v1/games", json=GAME, headers=admin_headers())
    return created.json["id"], [s["token"] for s in created.json["seats"]]


def test_creating_a_game_over_the_api_without_a_valid_token_is_refused(client, rt):
    assert client.post("/api/v1/games", json=GAME).status_code == 401
    assert client.post("/api/v1/games", json=GAME, headers=bearer("x" * 40)).status_code == 403
    with client.application.app_context():
        play_token = rt.links.make("some-game", 0, "play")  # right key, wrong purpose
    assert client.post("/api/v1/games", json=GAME, headers=bearer(play_token)).status_code == 403
    assert rt.mail.list() == []


def test_a_player_token_of_a_game_that_does_not_exist_creates_nothing(client, rt):
    with client.application.app_context():
        token = rt.links.make("no-such-game", 0, "api")
    reply = client.post("/api/v1/games", json=GAME, headers=bearer(token))
    assert reply.status_code == 403 and rt.mail.list() == []


def test_a_players_token_creates_at_most_its_daily_quota_of_games(low_limits):
    app = low_limits(API_CREATE_QUOTA="2 per day")
    client = app.test_client()
    _, tokens = a_players_token(client)
    for _ in range(2):
        assert client.post("/api/v1/games", json=GAME,
                           headers=bearer(tokens[0])).status_code == 201
    refused = client.post("/api/v1/games", json=GAME, headers=bearer(tokens[0]))
    assert refused.status_code == 429
    assert refused.json["error"] == "too_many_requests"
    assert "2 per day" in refused.json["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= 24 * 3600
    assert refused.json["retry_after"] == int(refused.headers["Retry-After"])
    # each seat has its own quota, and the admin has none
    assert client.post("/api/v1/games", json=GAME, headers=bearer(tokens[1])).status_code == 201
    for _ in range(3):
        assert client.post("/api/v1/games", json=GAME,
                           headers=admin_headers()).status_code == 201


def test_a_refused_creation_sends_no_email_and_makes_no_game(low_limits, fake_redis):
    app = low_limits(API_CREATE_QUOTA="1 per day")
    client = app.test_client()
    rt = app.extensions["ravenpost"]
    _, tokens = a_players_token(client)
    client.post("/api/v1/games", json=GAME, headers=bearer(tokens[0]))
    games, mails = fake_redis.zcard("rp:lobby"), len(rt.mail.list())
    assert client.post("/api/v1/games", json=GAME,
                       headers=bearer(tokens[0])).status_code == 429
    assert (fake_redis.zcard("rp:lobby"), len(rt.mail.list())) == (games, mails)


def test_quota_counts_live_in_redis_and_expire(low_limits, fake_redis):
    app = low_limits(API_CREATE_QUOTA="3 per day", LOBBY_LIMIT_PER_CLIENT="3 per hour",
                     LOBBY_LIMIT_PER_INVITEE="3 per day")
    client = app.test_client()
    _, tokens = a_players_token(client)
    client.post("/api/v1/games", json=GAME, headers=bearer(tokens[0]))
    lobby_form(client, "ada@example.com")
    counters = [k for k in fake_redis.scan_iter("LIMITS:*")]
    # two creators (people: the lobby's organiser, the API token's player), one client
    # address, one invitee
    assert len(counters) == 4
    assert all(0 < fake_redis.ttl(k) <= 24 * 3600 for k in counters)


def test_the_lobby_form_is_rate_limited_per_client_address(low_limits):
    app = low_limits(LOBBY_LIMIT_PER_CLIENT="2 per hour")
    client = app.test_client()
    for i in range(2):
        assert lobby_form(client, f"p{i}@example.com").status_code == 302
    refused = lobby_form(client, "p3@example.com")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    page = refused.get_data(as_text=True)
    assert "Too many games were started from your address" in page
    assert "You may try again in about" in page
    # another address is not held back, and the lobby page itself stays open
    assert lobby_form(client, "p4@example.com", address="198.51.100.9").status_code == 302
    assert client.get("/", environ_base={"REMOTE_ADDR": "203.0.113.7"}).status_code == 200


def test_only_games_actually_started_count_against_an_address(low_limits):
    app = low_limits(LOBBY_LIMIT_PER_CLIENT="1 per hour")
    client = app.test_client()
    for _ in range(3):
        assert lobby_form(client, "not an address").status_code == 400
    assert lobby_form(client, "ada@example.com").status_code == 302
    assert lobby_form(client, "bo@example.com").status_code == 429


def test_x_forwarded_for_decides_the_address_only_behind_trusted_proxies(low_limits,
                                                                        fake_redis):
    def from_behind(client, email: str, forwarded_for: str):
        from tests.support import ORGANISER, sign_in
        sign_in(client, ORGANISER)
        data = {"csrf_token": csrf(client), "game": "test-race", "name0": "P",
                "email0": email}
        return client.post("/games", data=data, headers={"X-Forwarded-For": forwarded_for},
                           environ_base={"REMOTE_ADDR": "10.0.0.1"})

    direct = low_limits(LOBBY_LIMIT_PER_CLIENT="1 per hour").test_client()
    assert from_behind(direct, "a@example.com", "192.0.2.1").status_code == 302
    assert from_behind(direct, "b@example.com", "192.0.2.2").status_code == 429  # spoofed
    fake_redis.flushdb()
    proxied = low_limits(LOBBY_LIMIT_PER_CLIENT="1 per hour",
                         TRUSTED_PROXIES=1, TRUSTED_PROXY_ADDRESSES="10.0.0.1").test_client()
    assert from_behind(proxied, "a@example.com", "192.0.2.1").status_code == 302
    assert from_behind(proxied, "b@example.com", "192.0.2.2").status_code == 302
    assert from_behind(proxied, "c@example.com", "192.0.2.1").status_code == 429


def test_the_lobby_form_is_rate_limited_per_invitee_address(low_limits):
    app = low_limits(LOBBY_LIMIT_PER_INVITEE="2 per day")
    client = app.test_client()
    rt = app.extensions["ravenpost"]
    assert lobby_form(client, "ada@example.com", address="192.0.2.1").status_code == 302
    assert lobby_form(client, "Ada@Example.com", "bo@example.com",
                      address="192.0.2.2").status_code == 302
    refused = lobby_form(client, "cy@example.com", "ADA@example.com", address="192.0.2.3")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "invited to too many games" in refused.get_data(as_text=True)
    invited = [m["to"].lower() for m in rt.mail.list()]
    assert invited.count("ada@example.com") == 2 and "cy@example.com" not in invited
    # the refused form used up nothing of the other invitee's allowance
    for address in ("192.0.2.4", "192.0.2.5"):
        assert lobby_form(client, "cy@example.com", address=address).status_code == 302


def test_limits_can_be_switched_off(low_limits):
    app = low_limits(RATELIMIT_ENABLED=False, LOBBY_LIMIT_PER_CLIENT="1 per hour",
                     LOBBY_LIMIT_PER_INVITEE="1 per day", API_CREATE_QUOTA="1 per day")
    client = app.test_client()
    _, tokens = a_players_token(client)
    for _ in range(3):
        assert lobby_form(client, "ada@example.com").status_code == 302
        assert client.post("/api/v1/games", json=GAME,
                           headers=bearer(tokens[0])).status_code == 201


BIG = 64 * 1024 + 1


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/games/some-game/moves",
                                  "/api/v1/games/some-game/undo", "/api/v1/kinds",
                                  "/api/v1/admin/games/some-game/rewind"])
def test_an_api_body_above_the_size_limit_is_refused_with_413(client, path):
    reply = client.post(path, data=b"{" + b" " * BIG + b"}", content_type="application/json",
                        headers=admin_headers())
    assert reply.status_code == 413
    assert reply.json["error"] == "request_entity_too_large"
    assert "larger than this service accepts" in reply.json["message"]


def test_a_form_above_the_size_limit_is_refused_with_a_page(client, rt):
    reply = client.post("/games", data={"csrf_token": "x", "name0": "a" * BIG})
    assert reply.status_code == 413
    assert "Too large" in reply.get_data(as_text=True)
    assert rt.redis.zcard("rp:lobby") == 0


def test_a_form_of_too_many_parts_is_refused_with_413(client, rt):
    parts = "".join(f'--b\r\nContent-Disposition: form-data; name="f{i}"\r\n\r\n1\r\n'
                    for i in range(300)) + "--b--\r\n"  # 16 KB, but 300 fields
    reply = client.post("/games", data=parts.encode(),
                        content_type="multipart/form-data; boundary=b")
    assert reply.status_code == 413
    assert rt.redis.zcard("rp:lobby") == 0


def test_a_body_is_refused_before_it_is_read():
    """The declared length alone decides: the body's stream is never touched."""
    app = create_app({"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True),
                      "RUN_JOBS_INLINE": True, "SECRET_KEY": "s", "ADMIN_TOKEN": ADMIN})

    class Untouchable(io.RawIOBase):
        def readinto(self, buffer):
            raise AssertionError("the body was read")

    reply = app.test_client().post(
        "/api/v1/games", headers={"Content-Type": "application/json", **admin_headers()},
        environ_overrides={"wsgi.input": Untouchable(),
                           "CONTENT_LENGTH": str(20 * 1024 * 1024)})
    assert reply.status_code == 413


def chunked(stream) -> dict:
    """WSGI keys of a body sent without Content-Length, as gunicorn hands it on."""
    return {"wsgi.input": stream, "wsgi.input_terminated": True, "CONTENT_LENGTH": ""}


def test_a_chunked_body_without_length_is_cut_off_at_the_limit(client, rt):
    class Endless(io.RawIOBase):
        """A body of unknown length that never ends; counts what was read."""
        read_bytes = 0

        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b" " * len(buffer)
            self.read_bytes += len(buffer)
            return len(buffer)

    body = Endless()
    for path in ("/api/v1/games", "/api/v1/games/g/undo", "/games"):
        body.read_bytes = 0
        reply = client.post(path, headers={
            "Transfer-Encoding": "chunked", "Content-Type": "application/json",
            **admin_headers()}, environ_overrides=chunked(body))
        assert reply.status_code == 413, path
        assert body.read_bytes <= 64 * 1024 + 1  # one byte past the limit tells
    assert rt.redis.zcard("rp:lobby") == 0


def test_a_small_chunked_body_still_works(client):
    body = io.BytesIO(b'{"game": "test-race", "players": [{"name": "Ada", '
                      b'"email": "ada@example.com"}]}')
    reply = client.post("/api/v1/games", headers={
        "Transfer-Encoding": "chunked", "Content-Type": "application/json", **admin_headers()},
        environ_overrides=chunked(body))
    assert reply.status_code == 201
