"""The admin pages and the developer outbox in the reader's language too (issue 31): they
have no player, so the browser's Accept-Language decides; German pages say no English
sentence of the service's catalog, and English pages keep their English words."""

from __future__ import annotations

import re

from tests.service.test_admin_irreversible import antes, play_first
from tests.service.test_admin_pages import csrf, sign_in
from tests.support import PLAYERS
from tests.test_pages_in_german import ENGLISH, GERMAN, english_on, visible_text
from worker.mail import Email


def _outbox_mail(rt) -> str:
    rt.mail.send(Email(to="Ada <ada@example.com>", subject="Dein Zug in Kings #7",
                       text="Du bist dran, Ada.\n", html="<p>Du bist dran, Ada.</p>",
                       key="k-admin-german", headers={"Reply-To": "play+tok@example.com"}))
    return rt.mail.list(limit=1)[0]["id"]


def _admin_pages(client, rt, headers: dict) -> dict[str, str]:
    """Every admin and outbox page, each as the browser with ``headers`` reads it."""
    sign_in_page = client.get("/admin/sign-in", headers=headers)
    sign_in(client)
    gid = antes(rt, 0, 1)  # Bo's ante (move 3) reveals both: irreversible
    play_first(rt, gid)  # move 4 draws a card: irreversible too
    token = csrf(client, f"/admin/games/{gid}")
    mail_id = _outbox_mail(rt)
    replies = {
        "sign-in": sign_in_page,
        "index": client.get("/admin/", headers=headers),
        "replay": client.get(f"/admin/games/{gid}?at=2&verify=1&refold=1", headers=headers),
        "rewind": client.post(f"/admin/games/{gid}/rewind", headers=headers,
                              data={"csrf_token": token, "to": 1, "reason": "misclick"}),
        "rewind refused": client.post(f"/admin/games/{gid}/rewind", headers=headers, data={
            "csrf_token": token, "to": 2, "confirm": "yes", "expected_version": 4}),
        "fork": client.post(f"/admin/games/{gid}/fork", headers=headers,
                            data={"csrf_token": token, "at": 3}),
        "outbox": client.get("/dev/mail/?replied=1", headers=headers),
        "email": client.get(f"/dev/mail/{mail_id}", headers=headers),
        "empty reply": client.post(f"/dev/mail/{mail_id}/reply", headers=headers,
                                   data={"csrf_token": token, "text": " "}),
    }
    assert rt.store.version(gid) == 4  # nothing was confirmed: nothing changed
    assert [r.status_code for r in replies.values()] == [200] * 4 + [400, 200, 200, 200, 400]
    return {name: reply.get_data(as_text=True) for name, reply in replies.items()}


def test_the_admin_pages_in_german_say_no_english_sentence(client, rt):
    pages = _admin_pages(client, rt, GERMAN)
    for name, page in pages.items():
        assert '<html lang="de">' in page, name
        assert english_on(page) == [], (name, english_on(page))
    assert "Admin-Anmeldung" in pages["sign-in"] and "Alle Spiele" in pages["index"]
    assert "Version 2 von 4" in visible_text(pages["replay"])
    assert re.search(r"\d+ Zufallszüge?\b", visible_text(pages["replay"]))
    rewind = visible_text(pages["rewind"])
    assert "3 Züge werden rückgängig gemacht:" in rewind
    assert ("Dieses Zurücksetzen macht 2 Dinge rückgängig, die die Spieler selbst nie hätten"
            " zurücknehmen können:") in rewind
    assert "Zug 3: " in rewind and "die Spieler konnten das nicht zurücknehmen" in rewind
    assert "obwohl die Spieler sie nicht zurücknehmen konnten" in rewind
    assert "Es wurde nichts geändert: Kreuze das Kästchen" in visible_text(
        pages["rewind refused"])
    assert "mit denselben 2 Spielern (Ada, Bo) kopiert" in visible_text(pages["fork"])
    assert "Postausgang" in pages["outbox"] and "Deine Antwort wurde" in pages["outbox"]
    assert "Reiner Text" in pages["email"]
    assert "Schreib zuerst deine Antwort" in pages["empty reply"]


def test_the_admin_pages_in_english_keep_their_english(client, rt):
    pages = _admin_pages(client, rt, ENGLISH)
    for name, page in pages.items():
        assert '<html lang="en">' in page, name
        assert english_on(page), name  # the checker above would see these words
    rewind = visible_text(pages["rewind"])
    assert "3 moves will be undone:" in rewind
    assert "This rewind undoes 2 things the players themselves could never take back:" \
        in rewind
    assert "I mean to undo these, although the players could not take them back" in rewind
    assert "with the same 2 players (Ada, Bo), who are emailed about it." in visible_text(
        pages["fork"])
    assert "Version 2 of 4" in visible_text(pages["replay"])
    assert "Type your reply first; nothing was sent." in pages["empty reply"]


def test_one_irreversible_thing_is_said_in_the_singular(client, rt):
    gid = antes(rt, 0, 1)  # only move 3 (Bo's ante, revealing both) is irreversible
    sign_in(client)
    token = csrf(client, f"/admin/games/{gid}")
    form = {"csrf_token": token, "to": 2}
    english = visible_text(client.post(f"/admin/games/{gid}/rewind", headers=ENGLISH,
                                       data=form).get_data(as_text=True))
    german = visible_text(client.post(f"/admin/games/{gid}/rewind", headers=GERMAN,
                                      data=form).get_data(as_text=True))
    assert "1 move will be undone:" in english
    assert "This rewind undoes 1 thing the players" in english
    assert "I mean to undo this, although the players could not take it back" in english
    assert "1 Zug wird rückgängig gemacht:" in german
    assert "macht 1 Sache rückgängig" in german
    assert "Ich will dies rückgängig machen, obwohl die Spieler es nicht" in german
    assert PLAYERS[1]["name"] in german
