"""App-wide request hooks: every one runs for a page, only those marked ``api_too`` for
the JSON API, in Flask's order (service/hooks.py); the service's own API answers keep
the headers and limits they need."""

from __future__ import annotations

import fakeredis
from flask import Flask

from service.hooks import api_too, split_by_lane
from tests.support import admin_headers


def app_with_hooks(ran: list[str]) -> Flask:
    app = Flask(__name__)

    @app.get("/page")
    @app.get("/api/v1/thing")
    def answer():
        ran.append("view")
        return {"ok": True}

    for name in ("first", "second"):
        @app.before_request
        def before(name=name):
            ran.append(f"before {name}")

        @app.after_request
        def after(response, name=name):
            ran.append(f"after {name}")
            return response

        @app.teardown_request
        def teardown(exc, name=name):
            ran.append(f"teardown {name}")
    return app


def test_a_page_runs_every_hook_in_flasks_order():
    plain, split = [], []
    for ran, splitting in ((plain, False), (split, True)):
        app = app_with_hooks(ran)
        if splitting:
            split_by_lane(app)
        assert app.test_client().get("/page").status_code == 200
    assert split == plain == ["before first", "before second", "view", "after second",
                              "after first", "teardown second", "teardown first"]


def test_the_api_runs_only_the_hooks_marked_for_it():
    ran: list[str] = []
    app = app_with_hooks(ran)
    api_too(app, app.before_request_funcs[None][1])
    api_too(app, app.after_request_funcs[None][0])
    split_by_lane(app)
    assert app.test_client().get("/api/v1/thing").status_code == 200
    assert ran == ["before second", "view", "after first"]


def test_a_before_hook_that_answers_ends_the_request_as_in_flask():
    ran: list[str] = []
    app = app_with_hooks(ran)
    app.before_request_funcs[None].insert(0, lambda: ("refused", 403))
    split_by_lane(app)
    reply = app.test_client().get("/page")
    assert reply.status_code == 403 and reply.data == b"refused"
    assert "view" not in ran and "before first" not in ran
    assert ran[:2] == ["after second", "after first"]  # after hooks still run, as in Flask


def test_an_api_answer_keeps_its_security_headers_and_no_store(client):
    reply = client.get("/api/v1/kinds")
    assert reply.status_code == 200
    assert reply.headers["Cache-Control"] == "no-store"
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in reply.headers["Content-Security-Policy"]
    assert "nonce-" not in reply.headers["Content-Security-Policy"]


def test_an_api_body_over_the_size_limit_is_refused_before_it_is_read(client):
    reply = client.post("/api/v1/games", data=b"{" + b" " * (2 << 20) + b"}",
                        content_type="application/json", headers=admin_headers())
    assert reply.status_code == 413


def test_a_page_still_gets_its_nonce(client):
    reply = client.get("/")
    assert reply.status_code == 200
    assert "nonce-" in reply.headers["Content-Security-Policy"]


def test_limits_set_for_every_route_limit_the_api_too():
    from service import create_app
    app = create_app({"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True),
                      "RUN_JOBS_INLINE": True, "TESTING": True,
                      "RATELIMIT_DEFAULT": "2 per minute"})
    client = app.test_client()
    assert [client.get("/api/v1/kinds").status_code for _ in range(3)] == [200, 200, 429]
