"""The King's Guild in German (issue 31): every text the game shows has its German in the
catalog, the German summary's terms appear where the game shows those things, and the
picture draws its words in the reader's language (English stays as it was)."""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from markupsafe import escape

from games.kings_guild import GAME, labels, turn
from games.protocol import IllegalMove
from games.rng import RecordingRandom
from games.text import Text
from tests.support import PLAYERS, admin_headers
from worker.i18n import translate, translations

SVG = "{http://www.w3.org/2000/svg}"
PLACEHOLDER = re.compile(r"%\([a-z_0-9]+\)s")
GAMES = [(1, 5), (2, 21), (3, 8), (4, 13)]  # (players, seed): solo and several tables
MOVES = 260


def german(text: Any) -> str:
    return str(translate(text, "de"))


def catalog() -> dict[Any, str]:
    return translations("de")._catalog  # msgid (or (msgid, i) for plurals) -> German


def untranslated(text: Any) -> set[str]:
    """The message ids inside ``text`` (itself and its values) the German catalog lacks;
    a Text that only joins others (``%(p0)s, %(p1)s``) needs no entry of its own."""
    if not isinstance(text, Text):
        return set()
    known = catalog()
    missing: set[str] = set()
    words = PLACEHOLDER.sub("", text.msgid).strip(" ,;+\n")
    key = (text.msgid, 0) if text.plural is not None else text.msgid
    if words and key not in known:
        missing.add(text.msgid)
    for value in text.values.values():
        missing |= untranslated(value)
    return missing


def same_in_german(text: Text) -> bool:
    """Whether ``text`` is rightly the same in German: each message in it is (names that
    stay English, like the Alchemist or the Depot, numbers, player names)."""
    known = catalog()
    key = (text.msgid, 0) if text.plural is not None else text.msgid
    own = PLACEHOLDER.sub("", text.msgid).strip(" ,;+\n")
    if own and known.get(key) != text.msgid:
        return False
    return all(same_in_german(v) for v in text.values.values() if isinstance(v, Text))


def texts_in(value: Any) -> Iterator[Text]:
    """Every Text in a view (nested dicts and lists)."""
    if isinstance(value, Text):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from texts_in(v)


def table(state: dict[str, Any], seat: int | None, medium: str = "page",
          previous: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"names": list(state["names"]), "seat": seat, "to_act": sorted(GAME.to_act(state)),
            "deadline": "Dienstag 08 Dezember 2026, 18:00 CET", "version": 1,
            "previous": previous, "medium": medium}


def played(players: int, seed: int, moves: int = MOVES) -> Iterator[tuple[dict, int, dict]]:
    """(state, seat, move) along a game of random legal moves, before each move."""
    chooser = random.Random(seed)
    state = GAME.setup([f"Spieler {i + 1}" for i in range(players)], {"stall_breaker": True},
                       RecordingRandom(seed))
    for _ in range(moves):
        seats = sorted(GAME.to_act(state))
        if not seats:
            return
        seat = chooser.choice(seats)
        move = chooser.choice(GAME.legal_moves(state, seat))
        yield state, seat, move
        GAME.apply(state, seat, move, RecordingRandom(chooser.getrandbits(32)))


def shown_texts() -> Iterator[Text]:
    """What a few games show: views, summaries, move labels and steps, log lines, why a
    move cannot be taken back, and the reasons for moves the rules refuse."""
    for players, seed in GAMES:
        for k, (state, seat, move) in enumerate(played(players, seed)):
            for m in GAME.legal_moves(state, seat):
                yield GAME.move_label(state, seat, m)
                yield from (s["label"] for s in GAME.move_steps(state, seat, m))
            after = copy.deepcopy(state)
            GAME.apply(after, seat, copy.deepcopy(move), RecordingRandom(k))
            why = GAME.reveals(state, after, seat, move)  # a move that cannot be taken back
            if why is not None:
                yield why
            event = {"version": k, "actor": seat, "data": {"move": move},
                     "names": list(state["names"])}
            for viewer in (seat, None):
                yield GAME.describe(event, viewer)
            if k % 10 == 0:
                for viewer in [*range(players), None]:
                    yield from texts_in(GAME.view(state, viewer))
                    yield GAME.summary(state, viewer)
                for bad in ({"type": "end_turn"}, {"type": "build", "room": "Tavern"},
                            {"type": "bid", "amount": 99}, {"type": "sell", "card": "t1_1"}):
                    try:
                        GAME.apply(copy.deepcopy(state), seat, bad, RecordingRandom(1))
                    except IllegalMove as refused:
                        yield refused.reason


@pytest.fixture(scope="module")
def shown() -> list[Any]:
    return list(shown_texts())


def test_everything_the_game_shows_is_a_text_with_german_in_the_catalog(shown):
    assert len(shown) > 5000
    plain = [t for t in shown if not isinstance(t, Text)]
    assert plain == []  # no English the reader's language could not reach
    missing = set().union(*(untranslated(t) for t in shown))
    assert missing == set()


def test_german_differs_from_english_unless_the_words_are_the_same_in_german(shown):
    same = {str(t) for t in shown if german(t) == str(t) and not same_in_german(t)}
    assert same == set()
    changed = sum(1 for t in shown if german(t) != str(t))
    assert changed > 0.9 * len(shown)  # names of players and numbers alone stay as they are


def test_the_german_summarys_terms_are_the_games_words(shown):
    said = {german(t) for t in shown}
    everything = "\n".join(said)
    for term in ("Ressourcen sammeln", "Gegenstände herstellen", "Spezialist anheuern",
                 "Raum bauen", "Ansehen", "Zug beenden"):
        assert term in everything, term
    assert "Gildenräume erweitern" in german(_reason_for_ending_early())
    assert "Rat der Weisen" in german(labels.plain_label({"type": "offer"}))
    assert german(labels.move_label({}, 0, {"type": "bid", "amount": 3})) == \
        "3 Münzen für die Statue des Königs bieten"
    assert "Begräbnis des Königs" in german(GAME.summary(_at_the_funeral(), None))


def _reason_for_ending_early() -> Text:
    """The reason given for ending a turn before taking an action (it names the three
    actions)."""
    state = GAME.setup(["Ann", "Bo"], {}, RecordingRandom(3))
    for _ in range(50):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_moves(state, seat)
        if turn.active(state)[0] == "main" and {"type": "end_turn"} not in legal:
            break
        GAME.apply(state, seat, legal[0], RecordingRandom(1))
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, state["current"], {"type": "end_turn"}, RecordingRandom(1))
    return refused.value.reason


def _at_the_funeral() -> dict[str, Any]:
    """A state while the King's Funeral's bids are open (random play until then)."""
    for players, seed in [(3, 1), (2, 2), (4, 3), (3, 4)]:
        for state, _seat, _move in played(players, seed, 4000):
            if state["funeral"]:
                return state
    pytest.fail("no random game reached the King's Funeral")


# -- the picture ---------------------------------------------------------------------------
def words_drawn(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [unescape("".join(e.itertext())) for e in root.iter()
            if e.tag in (f"{SVG}text", f"{SVG}title", f"{SVG}desc")]


def english_only_words() -> set[str]:
    """Catalog messages without placeholders whose German differs: none of them may be
    drawn in a German picture."""
    out = set()
    for key, said in catalog().items():
        if isinstance(key, str) and key and "%(" not in key and said != key and len(key) > 3:
            out.add(key)
    return out


def mid_game(players: int, seed: int, moves: int) -> tuple[dict, dict | None]:
    previous = None
    state = None
    for state, seat, _move in played(players, seed, moves):
        if seat == 0:
            previous = GAME.view(state, 0)
    return state, previous


@pytest.mark.parametrize("medium", ["page", "email", "phone"])
def test_a_german_picture_draws_german_words_and_no_english_one(medium):
    state, previous = mid_game(3, 11, 400)
    view = GAME.view(state, 0)
    english = GAME.picture(view, table(state, 0, medium, previous))
    svg = GAME.picture(view, table(state, 0, medium, previous), lambda t: translate(t, "de"))
    drawn = words_drawn(svg)
    text = "\n".join(drawn)
    for word in ("Quests (", "Räume zum Kauf", "Lager:", "Ansehen", "Münzen", "Belohnung:",
                 "Spezialisten zum Anheuern"):
        assert word in text, word
    whole = set(drawn)
    leaked = {w for w in english_only_words() if w in whole}
    assert leaked == set()
    for word in ("prestige", "coins", "Storage", "Reward", "Quest slot", "in the deck",
                 "Specialists", "Rooms", "treasure"):
        assert not re.search(rf"\b{re.escape(word)}\b", text), word
    assert "Storage:" in "\n".join(words_drawn(english))  # English is drawn by default
    assert english == GAME.picture(view, table(state, 0, medium, previous), str)


def test_every_text_drawn_in_the_german_picture_fits_its_picture():
    """German words are longer: nothing runs past the picture's right edge."""
    from games.kings_guild.picture import _width

    for players, seed, moves in [(3, 11, 400), (2, 4, 300), (5, 9, 500)]:
        state, previous = mid_game(players, seed, moves)
        for medium in ("page", "phone"):
            svg = GAME.picture(GAME.view(state, 0), table(state, 0, medium, previous),
                               lambda t: translate(t, "de"))
            root = ET.fromstring(svg)
            width = float(root.get("width"))
            for e in root.iter(f"{SVG}text"):
                size, x = float(e.get("font-size")), float(e.get("x"))
                wide = _width(e.text or "", size, e.get("font-weight") == "bold")
                anchor = e.get("text-anchor")
                left = x - wide if anchor == "end" else x - wide / 2 if anchor == "middle" \
                    else x
                assert 0 <= left and left + wide <= width + 0.5, (e.text, medium)


# -- the page and the email: the reader's language ----------------------------------------
def test_the_page_draws_the_picture_and_the_moves_in_the_readers_language(client, rt):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "kings-guild", "players": PLAYERS[:2]})
    gid = reply.json["id"]
    table_now = rt.games.load(gid)
    seat = min(table_now.to_act())
    url = "/play/" + rt.links.make(gid, seat, "play")
    de = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
    en = client.get(url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    pictures = {lang: re.findall(r"<svg.*?</svg>", page, re.S)
                for lang, page in (("de", de), ("en", en))}
    assert len(pictures["de"]) == len(pictures["en"]) >= 2  # the page's and the phone's
    for svg in pictures["de"]:
        assert "Räume zum Kauf" in svg and "Rooms for sale" not in svg
    for svg in pictures["en"]:
        assert "Rooms for sale" in svg and "Räume zum Kauf" not in svg
    legal = table_now.game.legal_moves(table_now.state, seat)
    assert legal
    for move in legal:  # the list of moves (and the step builder's JSON) in German
        label = table_now.game.move_label(table_now.state, seat, move)
        assert escape(german(label)) in de and escape(str(label)) in en
        assert german(label) == str(label) or escape(str(label)) not in de
    from events.picture import picture_of

    german_svg = picture_of(rt.games, table_now, seat, language="de",
                            say=lambda t: translate(t, "de"))
    english_svg = picture_of(rt.games, table_now, seat)
    assert "Räume zum Kauf" in german_svg and "Rooms for sale" in english_svg


def test_the_email_picture_is_drawn_in_the_readers_language(client, rt):
    from worker.picture_mail import mail_picture

    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "kings-guild", "players": PLAYERS[:2]})
    table_now = rt.games.load(reply.json["id"])
    german_png = mail_picture(rt.games, table_now, 0, language="de")
    english_png = mail_picture(rt.games, table_now, 0)
    assert german_png and english_png
    assert german_png.image.data != english_png.image.data


def test_an_items_german_name_its_coins_and_its_cost_stay_inside_its_box():
    """The longest German item names (Juwelenbesetzter Zauberstab) beside their coins, and
    the German costs under them, at the page's and the phone's width."""
    from games.kings_guild.picture import _width

    checked = 0
    for players, seed, moves in [(3, 11, 400), (1, 5, 150), (4, 13, 300), (2, 2, 500)]:
        state, previous = mid_game(players, seed, moves)
        for medium in ("page", "phone"):
            svg = GAME.picture(GAME.view(state, 0), table(state, 0, medium, previous),
                               lambda t: translate(t, "de"))
            for group in ET.fromstring(svg).iter(f"{SVG}g"):
                if not (group.get("data-target") or "").startswith("item:"):
                    continue
                box = group.find(f"{SVG}rect")
                left = float(box.get("x"))
                right = left + float(box.get("width"))
                texts = [(float(e.get("x")), float(e.get("y")), float(e.get("font-size")),
                          e.get("text-anchor"), e.get("font-weight") == "bold", e.text or "")
                         for e in group.iter(f"{SVG}text")]
                (nx, _, nsize, _, _, name), (cx, _, csize, _, _, coins) = texts[:2]
                assert nx + _width(name, nsize, True) < cx - _width(coins, csize, True), name
                for x, _y, size, anchor, bold, text in texts[2:]:
                    assert anchor == "start" and x + _width(text, size, bold) <= right, text
                checked += 1
    assert checked > 20
