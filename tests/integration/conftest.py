"""Integration tests run against a real Redis server (see tests/conftest.py)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture
def real_app(real_redis):
    """The app on the real server, jobs inline (the RQ worker test runs its own worker)."""
    from service import create_app
    from tests.support import ADMIN
    return create_app({"REDIS_CLIENT": real_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                       "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                       "BASE_URL": "http://localhost"})
