"""An app on fakeredis with jobs run inline, and helpers to drive it."""

from __future__ import annotations

import pytest

from service import create_app

ADMIN = "admin-token-for-tests"
PLAYERS = [{"name": "Ada", "email": "ada@example.com"},
           {"name": "Bo", "email": "bo@example.com"}]


@pytest.fixture
def app(fake_redis):
    return create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                       "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                       "BASE_URL": "http://localhost"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def rt(app):
    return app.extensions["ravenpost"]


def admin_headers() -> dict:
    return {"Authorization": f"Bearer {ADMIN}"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def new_game(client):
    """Create a test-race game through the API; returns (id, [token per seat])."""
    def make(players=PLAYERS, options=None):
        reply = client.post("/api/v1/games", headers=admin_headers(), json={
            "game": "test-race", "players": players, "options": options or {"target": 40}})
        assert reply.status_code == 201, reply.json
        return reply.json["id"], [s["token"] for s in reply.json["seats"]]
    return make
