"""The admin sign-in throttle never locks the real admin out: wrong tokens are answered 429
once over the bounds (per client address and token prefix, per client address, over all
addresses), but the right token always gets in, in the form and as a bearer token alike;
and the client address comes from X-Forwarded-For only when the peer is a trusted proxy."""

from __future__ import annotations

import re

import pytest

from service import admin
from service.config import ConfigError, from_environment
from tests.support import ADMIN

SECRET = "test-secret"
ADMINS_ADDRESS = "10.0.0.1"
# What each way in answers: the right token, a wrong one, a throttled one.
IN, WRONG, THROTTLED = "in", "wrong", "throttled"




def environ(address: str, forwarded: str | None) -> dict:
    found = {"environ_base": {"REMOTE_ADDR": address}}
    if forwarded is not None:
        found["headers"] = {"X-Forwarded-For": forwarded}
    return found


def form_try(client, token, address=ADMINS_ADDRESS, forwarded=None):
    page = client.get("/admin/sign-in").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/admin/sign-in", data={"csrf_token": csrf, "token": token},
                       **environ(address, forwarded))


def api_try(client, token, address=ADMINS_ADDRESS, forwarded=None):
    return client.get("/api/v1/admin/games/x/verify",
                      headers={"Authorization": f"Bearer {token}",
                               **environ(address, forwarded).get("headers", {})},
                      environ_base={"REMOTE_ADDR": address})


WAYS_IN = {"form": (form_try, {302: IN, 401: WRONG, 429: THROTTLED}),
           "api": (api_try, {404: IN, 403: WRONG, 429: THROTTLED})}  # 404: no game x


def answer(way: str, reply) -> str:
    return WAYS_IN[way][1][reply.status_code]


def attempt(way: str, client, token, **where):
    return WAYS_IN[way][0](client, token, **where)


def assert_throttled(way: str, reply, window: int) -> None:
    assert reply.status_code == 429
    assert 0 < int(reply.headers["Retry-After"]) <= window
    if way == "api":
        assert reply.json["error"] == "too_many_requests"
        assert reply.json["retry_after"] == int(reply.headers["Retry-After"])
    else:
        assert "Too many wrong admin tokens" in reply.get_data(as_text=True)


def counters(fake_redis) -> dict[str, int]:
    return {k: int(fake_redis.get(k))
            for k in fake_redis.scan_iter(match=admin.FAILURES_PREFIX + "*")}


@pytest.mark.parametrize("way", ["form", "api"])
def test_after_5_wrong_guesses_from_the_admins_address_the_right_token_still_gets_in(
        make_app, way):
    client = make_app().test_client()  # the defaults: 5 per address and token prefix
    assert [answer(way, attempt(way, client, f"guess-{i}")) for i in range(5)] == [WRONG] * 5
    assert_throttled(way, attempt(way, client, "guess-5"), 15 * 60)
    assert answer(way, attempt(way, client, ADMIN)) == IN
    assert_throttled(way, attempt(way, client, "guess-6"), 15 * 60)  # the guesser still is


@pytest.mark.parametrize("way", ["form", "api"])
def test_after_30_wrong_guesses_of_every_prefix_the_right_token_still_gets_in(
        make_app, way):
    client = make_app().test_client()  # 20 per address, 30 from all addresses a minute
    answers = [answer(way, attempt(way, client, f"{i:04d}-guess")) for i in range(30)]
    assert answers == [WRONG] * 20 + [THROTTLED] * 10  # the address bound, not the prefix
    assert_throttled(way, attempt(way, client, "9999-guess"), 15 * 60)
    assert answer(way, attempt(way, client, ADMIN)) == IN
    if way == "form":
        assert client.get("/admin/").status_code == 200  # a session was started


@pytest.mark.parametrize("way", ["form", "api"])
def test_wrong_guesses_with_the_admin_tokens_own_prefix_do_not_lock_it_out(make_app, way):
    client = make_app().test_client()
    near_misses = [ADMIN[:4] + f"-wrong-{i}" for i in range(8)]
    assert [answer(way, attempt(way, client, t)) for t in near_misses] == (
        [WRONG] * 5 + [THROTTLED] * 3)
    assert answer(way, attempt(way, client, ADMIN)) == IN


@pytest.mark.parametrize("way", ["form", "api"])
def test_a_flood_of_guesses_from_everywhere_does_not_refuse_the_right_token(make_app, way):
    client = make_app(ADMIN_SIGN_IN_GLOBAL_ATTEMPTS=30,
                      ADMIN_SIGN_IN_GLOBAL_WINDOW=60).test_client()
    answers = [answer(way, attempt(way, client, "guess", address=f"10.0.2.{i}"))
               for i in range(31)]
    assert answers == [WRONG] * 30 + [THROTTLED]
    assert_throttled(way, attempt(way, client, "guess", address="10.0.3.1"), 60)
    assert answer(way, attempt(way, client, ADMIN, address="10.0.3.2")) == IN


def test_the_bounds_are_settings(make_app):
    client = make_app(ADMIN_SIGN_IN_ATTEMPTS=2, ADMIN_SIGN_IN_ADDRESS_ATTEMPTS=3,
                      ADMIN_SIGN_IN_WINDOW=100).test_client()
    assert [answer("form", form_try(client, t)) for t in ("aaaa1", "aaaa2", "aaaa3")] == [
        WRONG, WRONG, THROTTLED]  # two per address and token prefix
    assert answer("form", form_try(client, "bbbb1")) == THROTTLED  # four from this address
    assert answer("form", form_try(client, "cccc1", address="10.0.0.2")) == WRONG
    assert_throttled("form", form_try(client, "dddd1"), 100)
    assert answer("form", form_try(client, ADMIN)) == IN


def test_the_right_token_is_never_counted(make_app, fake_redis):
    client = make_app(ADMIN_SIGN_IN_ATTEMPTS=1).test_client()
    assert answer("form", form_try(client, "guess")) == WRONG
    before = counters(fake_redis)
    for _ in range(5):
        assert answer("form", form_try(client, ADMIN)) == IN
        assert answer("api", api_try(client, ADMIN)) == IN
    assert counters(fake_redis) == before


def test_the_counters_do_not_show_the_characters_tried(make_app, fake_redis):
    token = "Zq9x" + "-an-admin-token-for-this-test"
    client = make_app(ADMIN_TOKEN=token).test_client()
    form_try(client, token[:4] + "-mistyped")
    keys = list(counters(fake_redis))
    assert len(keys) == 3
    assert not any(token[:4] in k for k in keys)


# -- X-Forwarded-For only from a trusted proxy ----------------------------------------
@pytest.mark.parametrize("way", ["form", "api"])
def test_made_up_x_forwarded_for_from_an_untrusted_peer_is_throttled_by_the_peers_address(
        make_app, fake_redis, way):
    client = make_app(TRUSTED_PROXIES=1).test_client()
    answers = [answer(way, attempt(way, client, f"guess-{i}", address="203.0.113.9",
                                   forwarded=f"198.51.100.{i}"))
               for i in range(30)]
    assert answers == [WRONG] * 5 + [THROTTLED] * 25
    assert counters(fake_redis)[f"{admin.FAILURES_PREFIX}addr:203.0.113.9"] == 30
    assert not any("198.51.100." in k for k in counters(fake_redis))
    assert answer(way, attempt(way, client, ADMIN, address="203.0.113.9",
                               forwarded="198.51.100.77")) == IN


@pytest.mark.parametrize("way", ["form", "api"])
def test_x_forwarded_for_from_a_trusted_peer_names_the_client(make_app, fake_redis, way):
    client = make_app(TRUSTED_PROXIES=1).test_client()
    proxy = {"address": "127.0.0.1"}  # the default TRUSTED_PROXY_ADDRESSES' own
    answers = [answer(way, attempt(way, client, f"guess-{i}", forwarded="198.51.100.1",
                                   **proxy))
               for i in range(6)]
    assert answers == [WRONG] * 5 + [THROTTLED]
    # another client behind the same proxy has its own count
    assert answer(way, attempt(way, client, "guess", forwarded="198.51.100.2",
                               **proxy)) == WRONG
    found = counters(fake_redis)
    assert found[f"{admin.FAILURES_PREFIX}addr:198.51.100.1"] == 6
    assert found[f"{admin.FAILURES_PREFIX}addr:198.51.100.2"] == 1
    assert not any(k.endswith(":127.0.0.1") for k in found)


def test_trusted_proxy_addresses_take_ips_and_networks(make_app, fake_redis):
    client = make_app(TRUSTED_PROXIES=1,
                      TRUSTED_PROXY_ADDRESSES="10.1.0.0/16, 2001:db8::/32,192.0.2.7").test_client()
    peers = {"10.1.2.3": True, "2001:db8::5": True, "::ffff:10.1.9.9": True,
             "192.0.2.7": True, "192.0.2.8": False, "10.2.0.1": False, "127.0.0.1": False}
    for n, (peer, trusted) in enumerate(peers.items()):
        forwarded = f"198.51.100.{n}"
        form_try(client, "guess", address=peer, forwarded="198.51.100.99, " + forwarded)
        found = counters(fake_redis)
        assert (f"{admin.FAILURES_PREFIX}addr:{forwarded}" in found) is trusted, peer
        assert (f"{admin.FAILURES_PREFIX}addr:{peer}" in found) is not trusted, peer


def test_x_forwarded_for_is_ignored_without_trusted_proxies(make_app, fake_redis):
    client = make_app().test_client()
    form_try(client, "guess", address="127.0.0.1", forwarded="198.51.100.1")
    assert f"{admin.FAILURES_PREFIX}addr:127.0.0.1" in counters(fake_redis)


def test_trusted_proxy_addresses_come_from_the_environment_and_are_checked(make_app):
    assert from_environment({"TRUSTED_PROXY_ADDRESSES": "10.0.0.0/8"}) == {
        "TRUSTED_PROXY_ADDRESSES": "10.0.0.0/8"}
    with pytest.raises(ConfigError, match="TRUSTED_PROXY_ADDRESSES"):
        make_app(TRUSTED_PROXIES=1, TRUSTED_PROXY_ADDRESSES="10.0.0.0/8,not-an-address")
