"""Constants and small helpers shared by the service and worker tests."""

from __future__ import annotations

ADMIN = "admin-token-for-tests"
PLAYERS = [{"name": "Ada", "email": "ada@example.com"},
           {"name": "Bo", "email": "bo@example.com"}]


def admin_headers() -> dict:
    return {"Authorization": f"Bearer {ADMIN}"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}
