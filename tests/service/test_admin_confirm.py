"""The admin's rewind and fork ask for confirmation first, without any script."""

from __future__ import annotations

from tests.service.test_admin_pages import csrf, sign_in


def two_antes(client, new_game):
    gid, tokens = new_game()
    for seat in (0, 1):
        client.post(f"/api/v1/games/{gid}/moves",
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    json={"move": {"type": "ante", "amount": 1}, "expected_version": 1 + seat})
    sign_in(client)
    return gid, csrf(client, f"/admin/games/{gid}")


def test_a_rewind_without_confirmation_changes_nothing_and_shows_what_it_would_undo(
        client, new_game, rt):
    gid, token = two_antes(client, new_game)
    reply = client.post(f"/admin/games/{gid}/rewind",
                        data={"csrf_token": token, "to": 1, "reason": "misclick"})
    page = reply.get_data(as_text=True)
    assert reply.status_code == 200 and rt.store.version(gid) == 3
    assert "Nothing has been changed yet" in page and "2 moves will be undone" in page
    assert 'name="confirm" value="yes"' in page and 'name="expected_version" value="3"' in page


def test_a_confirmed_rewind_rewinds(client, new_game, rt):
    gid, token = two_antes(client, new_game)
    client.post(f"/admin/games/{gid}/rewind", data={
        "csrf_token": token, "to": 2, "reason": "misclick", "confirm": "yes",
        "expected_version": 3, "irreversible": "yes"})  # Bo's ante revealed both
    assert rt.store.read(gid)[-1].type == "Rewound"
    assert rt.games.load(gid).state["antes"] == [1, None]


def test_a_confirmation_made_on_an_older_version_is_refused(client, new_game, rt):
    gid, token = two_antes(client, new_game)
    reply = client.post(f"/admin/games/{gid}/rewind", data={
        "csrf_token": token, "to": 2, "confirm": "yes", "expected_version": 2})
    assert reply.status_code == 409 and rt.store.version(gid) == 3


def test_a_rewind_to_a_version_out_of_range_is_refused_before_asking(client, new_game, rt):
    gid, token = two_antes(client, new_game)
    reply = client.post(f"/admin/games/{gid}/rewind", data={"csrf_token": token, "to": 3})
    assert reply.status_code == 400 and rt.store.version(gid) == 3


def test_a_fork_without_confirmation_changes_nothing(client, new_game, rt):
    gid, token = two_antes(client, new_game)
    games = len(rt.store.game_ids())
    reply = client.post(f"/admin/games/{gid}/fork", data={"csrf_token": token, "at": 2})
    page = reply.get_data(as_text=True)
    assert reply.status_code == 200 and len(rt.store.game_ids()) == games
    assert "Nothing has been changed yet" in page and "same 2 players (Ada, Bo)" in page


def test_a_confirmed_fork_forks(client, new_game, rt):
    gid, token = two_antes(client, new_game)
    reply = client.post(f"/admin/games/{gid}/fork",
                        data={"csrf_token": token, "at": 2, "confirm": "yes"})
    new_id = reply.headers["Location"].rsplit("/", 1)[1]
    assert new_id != gid and rt.games.load(new_id).state["antes"] == [1, None]


def test_the_admin_log_marks_the_moves_a_rewind_undid(client, new_game, rt):
    gid, token = two_antes(client, new_game)
    client.post(f"/admin/games/{gid}/rewind", data={
        "csrf_token": token, "to": 1, "confirm": "yes", "expected_version": 3,
        "irreversible": "yes"})
    page = client.get(f"/admin/games/{gid}").get_data(as_text=True)
    assert page.count("(undone)") == 2 and "<s>Ada antes</s>" in page
