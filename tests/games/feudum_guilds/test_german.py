"""Feudum in German (issue 31): every text the game shows is a Text the catalog says.

Over a few random games, every Text in the views (each seat's and a spectator's), every
move label and move-builder step, every history line (``describe``) and every log line is
checked: each message id in it (its values' too) is in the merged German catalog, and said
in German it differs from the English unless it holds only numbers and players' names (or
a glossary term that is the same in German: "Alchemist", "Lord Brett").  Then the
glossary's terms are the ones the game says: the guilds, patrons, goods, locations, action
cards, writs, vessels, monsters, ranks and functions, wherever a game shows them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games.bots import play_random_game
from games.feudum_guilds import ALL_MODULES, GAME
from games.feudum_guilds import words as w
from games.feudum_guilds.components import CARD_NAMES, GOODS, GUILDS, VESSELS, WRITS, C
from games.rng import RecordingRandom
from games.text import Text, name
from worker.i18n import translate, translations

GLOSSARY_FILE = Path(__file__).resolve().parents[3] / "games/feudum_guilds/glossary.de.md"
GAMES = [(2, 3, {}), (3, 5, ALL_MODULES), (5, 8, ALL_MODULES), (4, 13, {"fixed_length": True})]


@cache
def glossary() -> dict[str, str]:
    """English -> German, every row of every table of the glossary."""
    rows = {}
    for line in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0] not in ("English", "---"):
            rows[cells[0]] = cells[1]
    return rows


def de(text: Any) -> str:
    return str(translate(text, "de"))


def _texts(value: Any) -> Iterator[Text]:
    """Every Text in a view (dicts' values, lists)."""
    if isinstance(value, Text):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _texts(v)


def _missing(text: Text) -> list[str]:
    """The message ids in ``text`` (and its values) that the German catalog lacks; a
    message of only placeholders and signs (``join``'s ``%(p0)s, %(p1)s``) needs none."""
    catalog = translations("de")._catalog  # noqa: SLF001 - gettext's own table
    key = (text.msgid, 0) if text.plural else text.msgid
    words_in_it = re.search(r"[A-Za-z]", re.sub(r"%\(\w+\)s", "", text.msgid))
    out = [text.msgid] if words_in_it and not catalog.get(key) else []
    for v in text.values.values():
        if isinstance(v, Text):
            out += _missing(v)
    return out


SAME_IN_GERMAN = {"Alchemist", "Lord Brett", "Lord Arthur", "Sir Marcus"}


def _only_numbers_and_names(english: str, names: list[str]) -> bool:
    rest = english
    for n in sorted(names, key=len, reverse=True):
        rest = rest.replace(n, "")
    return english in SAME_IN_GERMAN or not re.search(r"[A-Za-z]", rest)


@cache
def played(n: int, seed: int, options: tuple[tuple[str, bool], ...]) -> dict[str, Any]:
    """One random game: what it showed (views, labels, steps, history and log lines)."""
    shown: dict[str, list[Any]] = {"views": [], "labels": [], "steps": [], "history": [],
                                   "log": [], "plays": []}
    count = [0]

    def look(state: dict[str, Any]) -> None:
        count[0] += 1
        for seat in range(state["n"]):
            for move in GAME.legal_moves(state, seat):
                label = GAME.move_label(state, seat, move)
                shown["labels"].append(label)
                if move["type"] == "play":
                    shown["plays"].append((move["card"], label))
                shown["steps"] += [s["label"] for s in GAME.move_steps(state, seat, move)]
        if count[0] % 3 == 0 or state["phase"] == "over":
            for viewer in [*range(state["n"]), None]:
                shown["views"].append(GAME.view(state, viewer))
        shown["log"] += [w.read_log(line) for line in state["log"]]

    state, record = play_random_game(GAME, n, seed, options=dict(options), check=look)
    names = [p["name"] for p in state["ps"]]
    for version, (seat, move, _) in enumerate(record.moves, start=1):
        event = {"version": version, "actor": seat, "data": {"move": move}, "names": names}
        for viewer in (seat, (seat + 1) % n, None):
            shown["history"].append(GAME.describe(event, viewer))
    for viewer in [*range(n), None]:
        shown["history"].append(GAME.summary(state, viewer))
    shown["names"] = names
    return shown


def _games() -> list[dict[str, Any]]:
    return [played(n, seed, tuple(sorted(opts.items()))) for n, seed, opts in GAMES]


@pytest.mark.parametrize("what", ["labels", "steps", "history", "log"])
def test_every_label_step_and_line_is_a_text_the_catalog_says_in_german(what):
    seen = 0
    for shown in _games():
        for text in shown[what]:
            assert isinstance(text, Text), (what, text)
            assert not _missing(text), (what, text, _missing(text))
            if not _only_numbers_and_names(text, shown["names"]):
                assert de(text) != text, (what, text)
            seen += 1
    assert seen > 100


def test_every_text_in_the_views_is_said_in_german():
    seen = set()
    for shown in _games():
        for view in shown["views"]:
            for text in _texts(view):
                if (text.msgid, str(text)) in seen:
                    continue
                seen.add((text.msgid, str(text)))
                assert not _missing(text), (text, _missing(text))
                if not _only_numbers_and_names(text, shown["names"]):
                    assert de(text) != text, text
    assert len(seen) > 50


def test_the_views_words_are_texts_and_say_german():
    shown = played(3, 5, tuple(sorted(ALL_MODULES.items())))
    view = next(v for v in shown["views"] if v["players"][0]["locations"] and v["pending"])
    assert isinstance(view["phase"], Text) and isinstance(view["pending"]["prompt"], Text)
    assert all(isinstance(line, Text) for line in view["log"])
    kinds = {loc["kind"] for p in view["players"] for loc in p["locations"]}
    assert kinds and all(isinstance(k, Text) for k in kinds)


# -- the glossary's terms ------------------------------------------------------------------
def test_the_glossary_names_are_what_the_game_says():
    g = glossary()
    for guild in GUILDS:
        assert de(w.guild_name(guild)) == g[guild.title()]
        assert de(w.guild(guild)) == g[guild.title()]
        assert de(w.patron(guild)) == g[C["patrons"][guild]]
        assert w.patron(guild) == C["patrons"][guild]  # the data's English, unchanged
        assert g["guild"] in de(w.guild_title(guild))
    for good in GOODS:
        assert de(w.good(good)) == g[good]
    for kind in ("outpost", "farm", "town"):
        assert de(w.location(kind)) == g[kind]
    assert de(w.location("feudum")) == g["feudum (location)"]
    for card in CARD_NAMES:
        assert de(w.card_title(card)) == g[card.title()] == de(w.card(card))
    for writ in WRITS.values():
        assert de(name(writ["name"])) == g[writ["name"]]
    for vessel in VESSELS:
        assert de(w.vessel(vessel)) == g[vessel.replace("_", " ")]
    for monster in C["monsters"]:
        assert de(w.monster(monster)) == g[monster.replace("_", " ")]
    assert [de(w.rank(r)) for r in ("master", "journeyman", "apprentice")] == \
        [g["guild master (master)"], g["journeyman"], g["apprentice"]]
    for function in ("trade", "pull", "push"):
        assert de(w.function(function)) == g[function]
    assert de(w.writ_kind("mandate")) == g["Mandate"]
    assert de(w.writ_kind("charter")) == g["Charter"]


def test_the_glossary_terms_appear_where_the_game_shows_them():
    g = glossary()
    german_cards = {c: g[c.title()] for c in CARD_NAMES}
    plays = 0
    for shown in _games():
        for card, label in shown["plays"]:
            assert german_cards[card] in de(label), (card, de(label))
            plays += 1
        for view in shown["views"]:
            for guild, info in view["guilds"].items():
                assert de(info["patron"]) == g[C["patrons"][guild]]
                assert [de(s["rank"]) for s in info["seats"]][:2] == \
                    [g["guild master (master)"], g["journeyman"]]
            for p in view["players"]:
                for writ in p.get("hand", []):
                    assert de(writ["name"]) == g[WRITS[writ["id"]]["name"]]
                for card in p["played"]:
                    assert de(card) == german_cards[card]
        for line in shown["log"]:
            english = str(line)
            if " plays " in english and "mandate" not in english:
                card = english.rsplit(" ", 1)[1]
                assert de(line).endswith(german_cards[card]), de(line)
            if "dawn of epoch" in english:
                assert g["epoch"] in de(line)
            if "famine" in english:
                assert g["famine"] in de(line)
    assert plays > 10


def test_the_log_keeps_its_english_and_the_player_is_addressed_with_du():
    assert w.read_log("R2: Ann plays tax") == "R2: Ann plays tax"
    assert de(w.read_log("R2: Ann plays tax")) == "R2: Ann spielt Steuern"
    assert de(w.read_log("R4: Bo scores 3 vp and draws writs (merchant pull)")) == \
        "R4: Bo erhält 3 VP und zieht Urkunden (Kaufmann: Heranholen)"
    assert w.read_log("R1: not a line the rules write") == "R1: not a line the rules write"
    state = GAME.setup(["Ann", "Bo"], {}, RecordingRandom(7))
    seat = min(GAME.to_act(state))
    said = de(GAME.summary(state, seat))
    assert "Du bist am Zug." in said and "Deine Sitze:" in said
    label = de(GAME.move_label(state, seat, GAME.legal_moves(state, seat)[0]))
    assert label.startswith(("Nimm", "Beginne", "Wähle", "Gib", "Keine")), label
