"""Cookies and security headers: every answer carries them, the session cookie is
SameSite=Lax and HttpOnly everywhere and Secure in production."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service import create_app
from worker.mail import Email

PROD_SECRET = "a-long-random-production-secret-key-0123456789"
PROD_ADMIN = "a-production-admin-token-of-32-chars-or-more"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def production_app(fake_redis):
    return create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True,
                       "RAVENPOST_ENV": "production", "REDIS_URL": "redis://unused",
                       "SECRET_KEY": PROD_SECRET, "ADMIN_TOKEN": PROD_ADMIN})


def directives(reply) -> dict[str, str]:
    policy = reply.headers["Content-Security-Policy"]
    return {part.split()[0]: " ".join(part.split()[1:])
            for part in policy.split(";") if part.strip()}


@pytest.mark.parametrize("path", [
    "/",  # a page
    "/api/v1/kinds",  # a JSON answer
    "/no-such-page",  # an error page
    "/api/v1/games/no-such-game",  # a JSON error
    "/admin/sign-in",
])
def test_every_answer_carries_the_security_headers(client, path):
    reply = client.get(path)
    csp = directives(reply)
    assert csp["default-src"] == "'self'"
    assert csp["frame-ancestors"] == "'none'"
    assert csp["object-src"] == "'none'" and csp["base-uri"] == "'none'"
    assert "'unsafe-inline'" not in csp["script-src"] + csp["style-src"]
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert reply.headers["Referrer-Policy"] == "no-referrer"
    assert reply.headers["Cache-Control"] == "no-store"


def test_a_form_error_page_carries_the_security_headers(client):
    reply = client.post("/admin/sign-in", data={"token": "x"})  # no CSRF token: 400
    assert reply.status_code == 400
    assert directives(reply)["frame-ancestors"] == "'none'"
    assert reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["Cache-Control"] == "no-store"


def test_inline_script_and_style_run_only_with_the_requests_nonce(client):
    first, second = client.get("/"), client.get("/")
    nonce = re.search(r"'nonce-([^']+)'", directives(first)["script-src"]).group(1)
    assert f"'nonce-{nonce}'" in directives(first)["style-src"]
    page = first.get_data(as_text=True)
    tags = re.findall(r"<(script|style)\b([^>]*)>", page)
    assert {t for t, _ in tags} == {"script", "style"}
    assert all(f'nonce="{nonce}"' in attrs for _, attrs in tags)
    assert nonce not in directives(second)["script-src"]  # a new nonce per answer


def test_no_page_template_has_inline_handlers_or_style_attributes():
    # The CSP blocks both; emails are not pages (the outbox shows them under a CSP of theirs).
    found = [(str(p.relative_to(TEMPLATES)), m.group(0))
             for p in TEMPLATES.rglob("*.html") if p.parent.name != "email"
             for m in re.finditer(r"""\s(style|on[a-z]+)\s*=\s*["']""", p.read_text())]
    assert found == []


def test_hsts_is_sent_in_production_over_https_only(fake_redis, client):
    app = production_app(fake_redis)
    secure = app.test_client().get("/", base_url="https://ravenpost.example")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    proxied = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" in proxied.headers
    assert "Strict-Transport-Security" not in client.get(
        "/", base_url="https://localhost").headers  # development: none


def set_cookie_of(reply) -> str:
    [cookie] = [v for v in reply.headers.getlist("Set-Cookie") if v.startswith("session=")]
    return cookie


def test_the_session_cookie_is_secure_only_in_production(fake_redis, client):
    development = set_cookie_of(client.get("/admin/sign-in"))
    assert "HttpOnly" in development and "SameSite=Lax" in development
    assert "Secure" not in development
    production = set_cookie_of(production_app(fake_redis).test_client().get(
        "/admin/sign-in", base_url="https://ravenpost.example"))
    assert "Secure" in production
    assert "HttpOnly" in production and "SameSite=Lax" in production


def test_the_outbox_email_view_may_be_framed_by_the_outbox_page_only(client, app):
    runtime = app.extensions["ravenpost"]
    runtime.mail.send(Email(to="ada@example.com", subject="Hello", text="hi",
                            html="<p style='color:red'>hi</p>", key="k1"))
    [mail] = runtime.mail.list(limit=1)
    reply = client.get(f"/dev/mail/{mail['id']}/html")
    csp = directives(reply)
    assert csp["frame-ancestors"] == "'self'" and reply.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert csp["default-src"] == "'none'" and "script-src" not in csp
    assert csp["style-src"] == "'unsafe-inline'"  # no nonce, which would disable it
    assert reply.headers["Cache-Control"] == "no-store"
    # the page around it is a normal page: not framable at all
    page = client.get(f"/dev/mail/{mail['id']}")
    assert directives(page)["frame-ancestors"] == "'none'"



def test_an_api_answer_carries_each_security_header_once(client):
    reply = client.get("/api/v1/kinds")
    names = [name.lower() for name, _ in reply.headers]
    for name in ("content-security-policy", "x-frame-options", "x-content-type-options",
                 "referrer-policy", "cache-control"):
        assert names.count(name) == 1, name


def test_an_api_view_that_sets_a_security_header_gets_the_policys_value_once(app):
    app.add_url_rule("/api/v1/test-framed", "test_framed",
                     lambda: ({"ok": True}, 200, {"X-Frame-Options": "SAMEORIGIN"}))
    reply = app.test_client().get("/api/v1/test-framed")
    assert reply.status_code == 200
    assert reply.headers.getlist("X-Frame-Options") == ["DENY"]
    assert len(reply.headers.getlist("Content-Security-Policy")) == 1
