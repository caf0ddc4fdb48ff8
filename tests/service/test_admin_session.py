"""Admin sign-in: a server-side session that expires, dies at sign-out and when the admin
token changes; wrong tokens are throttled per client address and token prefix, per client
address and over all addresses, but the right token is never refused (see
test_admin_throttle.py)."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

from service import admin, create_app
from tests.support import ADMIN

SECRET = "test-secret"




def csrf(client, url="/admin/sign-in"):
    return re.search(r'name="csrf_token" value="([^"]+)"',
                     client.get(url).get_data(as_text=True)).group(1)


def try_token(client, token, address="10.0.0.1"):
    return client.post("/admin/sign-in", data={"csrf_token": csrf(client), "token": token},
                       environ_base={"REMOTE_ADDR": address})


def sign_in(client):
    reply = try_token(client, ADMIN)
    assert reply.status_code == 302, reply.get_data(as_text=True)
    return client.get_cookie("session").value


def signed_in(client) -> bool:
    reply = client.get("/admin/")
    assert reply.status_code in (200, 302)
    return reply.status_code == 200


def cookie_content(app, client) -> dict:
    serializer = app.session_interface.get_signing_serializer(app)
    return serializer.loads(client.get_cookie("session").value)


def session_keys(fake_redis) -> list[str]:
    return list(fake_redis.scan_iter(match=admin.SESSION_PREFIX + "*"))


def test_the_cookie_holds_only_a_random_session_id_and_redis_holds_the_session(
        make_app, fake_redis):
    app = make_app()
    client = app.test_client()
    sign_in(client)
    content = cookie_content(app, client)
    assert set(content) == {admin.COOKIE_FIELD}
    assert len(content[admin.COOKIE_FIELD]) >= 40
    [key] = session_keys(fake_redis)
    assert key == admin.session_key(content[admin.COOKIE_FIELD])
    stored = fake_redis.hgetall(key)
    assert ADMIN not in str(stored) and content[admin.COOKIE_FIELD] not in key
    assert signed_in(client)


def test_signing_in_starts_a_new_session(make_app):
    client = make_app().test_client()
    before = csrf(client)
    sign_in(client)
    assert csrf(client, "/admin/") != before  # nothing of the old session carries over


def test_a_cookie_replayed_after_sign_out_is_refused(make_app, fake_redis):
    client = make_app().test_client()
    cookie = sign_in(client)
    client.post("/admin/sign-out", data={"csrf_token": csrf(client, "/admin/")})
    assert not signed_in(client)
    assert session_keys(fake_redis) == []
    client.set_cookie("session", cookie)
    assert not signed_in(client)


def test_a_cookie_is_refused_once_the_admin_token_changes(make_app, fake_redis):
    client = make_app().test_client()
    cookie = sign_in(client)
    restarted = make_app(ADMIN_TOKEN="a-new-admin-token").test_client()
    restarted.set_cookie("session", cookie)
    assert not signed_in(restarted)
    assert session_keys(fake_redis) == []  # the stale session is deleted on sight
    back = make_app().test_client()  # and the old token does not bring it back
    back.set_cookie("session", cookie)
    assert not signed_in(back)


def test_a_session_unused_for_its_idle_time_expires(make_app, fake_redis):
    client = make_app(ADMIN_SESSION_IDLE=60).test_client()
    sign_in(client)
    [key] = session_keys(fake_redis)
    assert 0 < fake_redis.ttl(key) <= 60
    assert signed_in(client)
    assert 0 < fake_redis.ttl(key) <= 60  # each use renews the idle time, no more

    short = make_app(ADMIN_SESSION_IDLE=1).test_client()
    sign_in(short)
    deadline = time.monotonic() + 5  # Redis expires the key after about a second
    while len(session_keys(fake_redis)) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not signed_in(short)


def test_a_session_ends_at_its_max_age_however_much_it_is_used(make_app, fake_redis):
    client = make_app(ADMIN_SESSION_IDLE=3600, ADMIN_SESSION_MAX_AGE=30).test_client()
    sign_in(client)
    [key] = session_keys(fake_redis)
    assert 0 < fake_redis.ttl(key) <= 30
    assert signed_in(client)
    assert 0 < fake_redis.ttl(key) <= 30  # use does not lengthen it past the max age
    fake_redis.hset(key, "started", repr(time.time() - 31))  # as if signed in 31 s ago
    assert not signed_in(client)
    assert session_keys(fake_redis) == []


def test_wrong_tokens_are_answered_429_with_retry_after_after_n_tries(make_app):
    client = make_app(ADMIN_SIGN_IN_ATTEMPTS=3, ADMIN_SIGN_IN_WINDOW=600).test_client()
    assert [try_token(client, f"guess-{i}").status_code for i in range(3)] == [401] * 3
    refused = try_token(client, "guess-4")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 600
    assert "Too many wrong admin tokens" in refused.get_data(as_text=True)
    # the throttle never refuses the right token, from the guesser's own address too
    assert try_token(client, ADMIN).status_code == 302
    assert signed_in(client)


def test_the_throttle_counts_each_client_address_apart(make_app):
    client = make_app(ADMIN_SIGN_IN_ATTEMPTS=2).test_client()
    for i in range(3):
        try_token(client, f"guess-{i}", address="10.0.0.1")
    assert try_token(client, "guess", address="10.0.0.1").status_code == 429
    assert try_token(client, "guess", address="10.0.0.2").status_code == 401
    assert try_token(client, ADMIN, address="10.0.0.3").status_code == 302


def test_the_throttle_counts_all_addresses_together_in_a_short_window(make_app):
    client = make_app(ADMIN_SIGN_IN_GLOBAL_ATTEMPTS=4,
                      ADMIN_SIGN_IN_GLOBAL_WINDOW=60).test_client()
    assert [try_token(client, "guess", address=f"10.0.1.{i}").status_code
            for i in range(4)] == [401] * 4
    refused = try_token(client, "guess", address="10.0.1.99")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60


def test_a_burst_of_parallel_guesses_gets_no_more_than_n_answers(real_redis):
    app = create_app({"REDIS_CLIENT": real_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                      "SECRET_KEY": SECRET, "ADMIN_TOKEN": ADMIN, "ADMIN_SIGN_IN_ATTEMPTS": 5})

    def guess(i):
        return app.test_client().get("/api/v1/admin/games/x/history",
                                     headers={"Authorization": f"Bearer guess-{i}"},
                                     environ_base={"REMOTE_ADDR": "10.0.0.8"}).status_code
    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(guess, range(40), timeout=60))
    assert answers.count(403) == 5 and answers.count(429) == 35


def test_the_right_token_is_not_throttled_by_its_own_use(make_app):
    client = make_app(ADMIN_SIGN_IN_ATTEMPTS=3, ADMIN_SIGN_IN_GLOBAL_ATTEMPTS=3).test_client()
    answers = {client.get("/api/v1/admin/games/x/verify",
                          headers={"Authorization": f"Bearer {ADMIN}"}).status_code
               for _ in range(10)}
    assert answers == {404}  # the admin got through every time: there is no such game


def test_every_failure_counter_expires(make_app, fake_redis):
    client = make_app(ADMIN_SIGN_IN_WINDOW=600, ADMIN_SIGN_IN_GLOBAL_WINDOW=60).test_client()
    try_token(client, "guess")
    counters = list(fake_redis.scan_iter(match=admin.FAILURES_PREFIX + "*"))
    assert len(counters) == 3  # address and token prefix, address, all addresses
    assert all(0 < fake_redis.ttl(k) <= 600 for k in counters)


def test_wrong_admin_bearer_tokens_are_throttled_like_the_form(make_app):
    client = make_app(ADMIN_SIGN_IN_ATTEMPTS=3).test_client()
    answers = [client.get("/api/v1/admin/games/x/history",
                          headers={"Authorization": f"Bearer guess-{i}"},
                          environ_base={"REMOTE_ADDR": "10.0.0.7"}).status_code
               for i in range(4)]
    assert answers == [403, 403, 403, 429]
    refused = client.get("/api/v1/admin/games/x/history",
                         headers={"Authorization": "Bearer guess-5"},
                         environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert refused.status_code == 429 and refused.json["error"] == "too_many_requests"
    assert int(refused.headers["Retry-After"]) > 0
    admitted = client.get("/api/v1/admin/games/x/verify",
                          headers={"Authorization": f"Bearer {ADMIN}"},
                          environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert admitted.status_code == 404  # through the throttle: there is no such game
