"""No request to any endpoint, however odd, causes a server error (hypothesis).

Every rule of the app's URL map is tried with its own methods (and sometimes others), its
path parameters filled with real game ids and tokens or with junk, with arbitrary
Authorization, Content-Type and Cookie headers, query strings and bodies: raw bytes, JSON
of any shape (nested up to thousands of levels, NaN, lone surrogates, huge numbers) and
forms (with and without a valid CSRF token).  Mostly one part of a request is odd and the
rest right, so the odd part gets past the first check to the code behind it.  A 4xx is a
fine answer; a 5xx never is.

Each endpoint gets a fresh app on fakeredis (what one endpoint's examples do, such as
rotating a token, cannot hide another's), and the examples are derandomized, so CI sees
the same requests on every run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from urllib.parse import quote, urlencode

import fakeredis
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import create_app
from tests.support import ADMIN, PLAYERS

EXAMPLES_PER_ENDPOINT = 80


@dataclass
class World:
    app: Flask
    anonymous: FlaskClient  # no cookies of its own: the Cookie header is fuzzed
    player: FlaskClient  # a browser session with a CSRF token
    admin: FlaskClient  # signed in on /admin
    csrf: str
    admin_csrf: str
    game_id: str
    tokens: dict[str, list[str]]  # purpose -> a token per seat
    mails: list[str]

    @property
    def real(self) -> list[str]:
        """Every real id and credential: what a path parameter or a header may carry."""
        return [self.game_id, *self.all_tokens, *self.mails, ADMIN]

    @property
    def all_tokens(self) -> list[str]:
        return [t for seat_tokens in self.tokens.values() for t in seat_tokens]


def _csrf(client: FlaskClient, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    return found.group(1) if found else ""


@cache
def world(rule: str) -> World:
    """A fresh app with one game, its tokens and a signed-in admin, for one endpoint."""
    app = create_app({"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True),
                      "RUN_JOBS_INLINE": True, "SECRET_KEY": "fuzz-secret",
                      "ADMIN_TOKEN": ADMIN, "BASE_URL": "http://localhost"})
    rt = app.extensions["ravenpost"]
    admin = app.test_client()
    created = admin.post("/api/v1/games", headers={"Authorization": f"Bearer {ADMIN}"},
                         json={"game": "test-race", "players": PLAYERS,
                               "options": {"target": 40}}).json
    gid = created["id"]
    with app.app_context():
        tokens = {purpose: [rt.links.make(gid, seat, purpose, 1) for seat in (0, 1)]
                  for purpose in ("act", "play", "mute")}
    tokens["api"] = [seat["token"] for seat in created["seats"]]
    admin.post("/admin/sign-in", data={"csrf_token": _csrf(admin, "/admin/sign-in"),
                                       "token": ADMIN})
    player = app.test_client()
    return World(app=app, anonymous=app.test_client(use_cookies=False), player=player,
                 admin=admin, csrf=_csrf(player, "/"), admin_csrf=_csrf(admin, "/admin/"),
                 game_id=gid, tokens=tokens, mails=[m["id"] for m in rt.mail.list()])


RULES = sorted(world("").app.url_map.iter_rules(), key=lambda r: r.rule)

# -- what does not depend on the world ------------------------------------------------------

any_text = st.text(st.characters(exclude_categories=()), max_size=40)  # surrogates too
header_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=60)


def json_text(value) -> str:
    return json.dumps(value, allow_nan=True)


a_move = st.fixed_dictionaries({"type": st.just("ante"), "amount": st.integers(0, 4)})
legalish = st.fixed_dictionaries({"move": a_move, "expected_version": st.integers(1, 6)})
# (st.integers would mostly draw small depths; these straddle Python's recursion limit)
deep = st.sampled_from([2, 33, 999, 1000, 2500, 10_000]).flatmap(lambda n: st.sampled_from([
    "[" * n + "]" * n, '{"a":' * n + "1" + "}" * n,
    '{"move": {"type": "ante", "x": ' + "[" * n + "]" * n + '}, "expected_version": 1}']))
big_number = st.integers(0, 10_000).map(
    lambda n: '{"expected_version": 1' + "0" * n + ', "move": {"type": "ante"}}')
any_content_type = st.one_of(st.sampled_from([
    "application/json", "application/json; charset=utf-8", "application/json; charset=utf-32",
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz",
    "multipart/form-data", "text/plain"]), st.none(), header_text)
cookie = st.one_of(st.none(), header_text, header_text.map(lambda t: f"session={t}"))
query = st.dictionaries(st.sampled_from(["at", "next", "to", "x"]),
                        st.one_of(header_text, st.integers().map(str)), max_size=2)
form_fields = st.sampled_from(["csrf_token", "move", "expected_version", "accept", "muted",
                               "token", "to", "reason", "text", "at", "game", "name0",
                               "email0", "tz0", "name1", "email1", "deadline_hours"])
plausible_form = st.fixed_dictionaries({}, optional={
    "move": a_move.map(json_text), "expected_version": st.integers(1, 6).map(str),
    "accept": st.sampled_from(["0", "1"]), "muted": st.sampled_from(["0", "1"]),
    "to": st.integers(1, 6).map(str), "at": st.integers(1, 6).map(str), "reason": header_text,
    "text": header_text, "token": st.just(ADMIN), "game": st.just("test-race"),
    "name0": st.just("Ada"), "email0": st.just("ada@example.com")})


def mostly(value: str) -> st.SearchStrategy[str | None]:
    return st.one_of(st.just(value), st.just(value), st.just(value), any_content_type)


# -- what uses the world's ids and tokens ---------------------------------------------------

class Strategies:
    def __init__(self, w: World) -> None:
        self.w = w
        self.real = st.sampled_from(w.real)
        leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70),
                         st.floats(), any_text, self.real)
        self.json_value = st.recursive(leaf, lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.one_of(any_text, st.sampled_from(
                ["type", "amount", "move", "game", "players", "name", "email", "tz"])),
                inner, max_size=4)), max_leaves=16)
        jv = self.json_value
        self.shaped = st.fixed_dictionaries({}, optional={
            "game": st.one_of(st.just("test-race"), jv),
            "players": st.one_of(st.just(PLAYERS), st.lists(st.fixed_dictionaries(
                {"name": any_text, "email": st.one_of(any_text, st.just("a@example.com"))},
                optional={"tz": any_text}), max_size=3), jv),
            "options": jv, "deadline_hours": jv,
            "move": st.one_of(st.just({"type": "ante", "amount": 2}), jv),
            "expected_version": st.one_of(st.integers(-3, 5), jv),
            "accept": jv, "to": jv, "reason": jv, "at": jv})
        self.json_body = st.one_of(
            legalish.map(json_text), self.shaped.map(json_text), deep, deep, deep, big_number,
            st.sampled_from(['{"accept": true}', '{"accept": false}']), jv.map(json_text))
        self.form_body = st.dictionaries(st.one_of(form_fields, header_text), st.one_of(
            header_text, self.real, st.just("1"), deep, self.json_body), max_size=8)
        self.wrong_credential = st.one_of(
            st.none(), self.real.map(lambda t: f"Bearer {t}"),
            header_text.map(lambda t: f"Bearer {t}"), header_text)

    def likely_value(self, name: str) -> st.SearchStrategy[str]:
        """The real thing a path parameter names."""
        if name == "game_id":
            return st.just(self.w.game_id)
        if name == "token":
            return st.sampled_from(self.w.all_tokens)
        if name == "mail_id":
            return st.sampled_from(self.w.mails)
        return self.real

    def odd_value(self, name: str) -> st.SearchStrategy[str]:
        """A damaged real value, another real value, or anything at all."""
        return st.one_of(self.likely_value(name).map(lambda v: v[:-3] + "xyz"), self.real,
                         any_text.filter(bool))

    def right_credential(self, rule) -> st.SearchStrategy[str]:
        """The credential the endpoint wants: a seat's API token for a player's calls, the
        admin token for the admin API and for creating games (elsewhere, either)."""
        if "/admin/" in rule.rule or rule.rule == "/api/v1/games":
            likely = [ADMIN]
        elif rule.rule.startswith("/api/v1/games/"):
            likely = self.w.tokens["api"]
        else:
            likely = [*self.w.tokens["api"], ADMIN]
        return st.sampled_from(likely).map(lambda t: f"Bearer {t}")


@cache
def strategies(rule: str) -> Strategies:
    return Strategies(world(rule))


def _path(rule, s: Strategies, data, odd: bool) -> str:
    """The rule's path with each parameter (``<name>`` or ``<converter:name>``) drawn."""
    def fill(match: re.Match) -> str:
        name = match.group(1)
        value = data.draw(s.odd_value(name) if odd else s.likely_value(name), label=name)
        return quote(value, safe="", errors="surrogatepass")
    return re.sub(r"<(?:[^>:]+:)?([^>]+)>", fill, rule.rule)


def _body(s: Strategies, data, who: str, odd: bool) -> tuple[bytes, str | None]:
    """A body and its Content-Type: JSON, a form or raw bytes, labelled mostly right."""
    kind = data.draw(st.sampled_from(["json", "json", "form", "bytes"] if odd
                                     else ["json", "form"]), label="kind")
    if kind == "json":
        text = data.draw(s.json_body if odd else st.one_of(
            legalish.map(json_text), s.shaped.map(json_text)), label="json")
        return text.encode("utf-8", "surrogatepass"), data.draw(
            mostly("application/json"), label="Content-Type")
    if kind == "form":
        form = data.draw(s.form_body if odd else plausible_form, label="form")
        if data.draw(st.booleans(), label="valid csrf"):
            form["csrf_token"] = s.w.admin_csrf if who == "admin" else s.w.csrf
        raw = urlencode({k: v.encode("utf-8", "surrogatepass") for k, v in form.items()})
        return raw.encode("ascii"), data.draw(mostly("application/x-www-form-urlencoded"),
                                              label="Content-Type")
    return (data.draw(st.binary(max_size=512), label="bytes"),
            data.draw(any_content_type, label="Content-Type"))


def _deep_body(s: Strategies, data, who: str) -> tuple[bytes, str]:
    text = data.draw(deep, label="deep json")
    if data.draw(st.booleans(), label="as a form"):
        fields = {"move": text, "csrf_token": s.w.admin_csrf if who == "admin" else s.w.csrf,
                  "expected_version": "1"}
        return urlencode(fields).encode("ascii"), "application/x-www-form-urlencoded"
    return text.encode("ascii"), "application/json"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.rule)
@settings(max_examples=EXAMPLES_PER_ENDPOINT, derandomize=True, deadline=None,
          database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_request_to_any_endpoint_causes_a_server_error(rule, data):
    s = strategies(rule.rule)
    wild = data.draw(st.sampled_from(["body", "body", "deep", "path", "credential",
                                      "cookie", "everything"]), label="what is odd")

    def odd(aspect: str) -> bool:
        return wild in (aspect, "everything")

    own = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    method = data.draw(st.sampled_from(own) if not odd("everything") else st.sampled_from(
        ["GET", "POST", "PUT", "DELETE", *own]), label="method")
    path = _path(rule, s, data, odd("path"))
    who = data.draw(st.sampled_from(["anonymous", "player", "admin"]), label="who")
    headers = {}
    auth = data.draw(s.wrong_credential if odd("credential") else s.right_credential(rule),
                     label="Authorization")
    if auth is not None:
        headers["Authorization"] = auth
    if who == "anonymous" and odd("cookie"):
        value = data.draw(cookie, label="Cookie")
        if value is not None:
            headers["Cookie"] = value
    if method == "GET":
        payload, kind = b"", None
    elif wild == "deep":  # nesting near and past Python's recursion limit, nothing else odd
        payload, kind = _deep_body(s, data, who)
    else:
        payload, kind = _body(s, data, who, odd("body"))
    if kind is not None:
        headers["Content-Type"] = kind
    reply = getattr(s.w, who).open(path, method=method, headers=headers, data=payload,
                                   query_string=data.draw(query, label="query"))
    assert reply.status_code < 500, (method, path, headers, payload[:200],
                                     reply.get_data(as_text=True)[:300])
