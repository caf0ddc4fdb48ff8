"""Architects in German (issue 31): every text the game shows has a German translation in
the merged catalog, and the glossary's terms are the ones the game says.

Random games (``games.bots``) are played and, along the way, every move label and step,
every history line (for the actor and for the others), the summary and the view are
collected; each is a :class:`games.text.Text` whose every message id (its own and its
values', all the way down) is in the German catalog, and said in German it differs from
the English unless it is only numbers and player names.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest

from games.architects import GAME, cards, words
from games.bots import choose_seat_and_move
from games.rng import RecordingRandom
from games.text import Text, name
from worker.i18n import translate, translations

ROOT = Path(__file__).resolve().parents[3]
GAMES = [(1, 3, {"promos": True, "solo_level": "helena"}),
         (2, 5, {"bot_opponent": True, "variable_setup": True, "extra_characters": True}),
         (3, 7, {"promos": True, "variable_setup": True}),
         (5, 11, {})]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def play(n: int, seed: int, options: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """One random game: every label, step, history line, summary and view it showed, and
    the players' names."""
    chooser = random.Random(seed)
    names = [f"Bot {i + 1}" for i in range(n)]
    state = GAME.setup(names, GAME.normalize_options(dict(options), n),
                       RecordingRandom(seed))
    shown: list[Any] = []
    turn = 0
    while GAME.outcome(state) is None:
        turn += 1
        for seat in sorted(GAME.to_act(state)):
            for move in GAME.legal_moves(state, seat)[:25]:
                shown.append(GAME.move_label(state, seat, move))
                shown.extend(s["label"] for s in GAME.move_steps(state, seat, move))
        if turn % 5 == 0:
            shown += [GAME.summary(state, 0), GAME.summary(state, None), GAME.view(state, 0)]
        seat, move = choose_seat_and_move(GAME, state, chooser)
        before = copy.deepcopy(state)
        GAME.apply(state, seat, copy.deepcopy(move), RecordingRandom(turn))
        event = {"actor": seat, "names": names, "data": {"move": move}}
        shown += [GAME.describe(event, seat), GAME.describe(event, None)]
        reason = GAME.reveals(before, state, seat, move)
        if reason is not None:
            shown.append(reason)
    shown += [GAME.summary(state, 0), GAME.view(state, 0), GAME.view(state, None)]
    automaton = state.get("automaton")
    players = names + ([state["players"][automaton["index"]]["name"]] if automaton else [])
    return shown, players


@pytest.fixture(scope="module")
def games() -> list[tuple[list[Any], list[str]]]:
    return [play(n, seed, options) for n, seed, options in GAMES]


def texts(value: Any) -> list[Text]:
    """Every Text in a label, a step or a view (dicts and lists walked)."""
    if isinstance(value, Text):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in texts(v)]
    return []


def missing(text: Text, names: list[str]) -> list[str]:
    """The message ids in ``text`` (its values too) the German catalog lacks, and the
    plain strings among its values that are words, not numbers or player names."""
    catalog = translations("de")
    out = []
    words_in = PLACEHOLDER.sub("", text.msgid + (text.plural or ""))
    if re.search(r"[A-Za-z]", words_in):  # a message, not a pattern like "%(a)s: %(b)s"
        said = catalog.ungettext(text.msgid, text.plural, 2) if text.plural \
            else catalog.ugettext(text.msgid)
        if said == (text.plural or text.msgid) and not _same_in_german(text.msgid):
            out.append(text.msgid)
    for value in text.values.values():
        if isinstance(value, Text):
            out += missing(value, names)
        elif isinstance(value, str) and value not in names and \
                not re.fullmatch(r"[A-C]|[+-]?\d+|'\w+'|\[.*\]", value):
            out.append(f"plain value {value!r} in {text.msgid!r}")
    return out


def _same_in_german(msgid: str) -> bool:
    """Words that German writes as English does (the catalog holds them all the same)."""
    return msgid in {"Gold", "Illusionist", "Monument", "Museum", "Reservoir", "Constantine",
                     "Helena", "%(colour)s (%(name)s): %(workers)s"}


def german_as_english(text: Text) -> bool:
    """Every message in ``text`` is one German writes as English does ("1 Gold")."""
    own = not re.search(r"[A-Za-z]", PLACEHOLDER.sub("", text.msgid)) or \
        _same_in_german(text.msgid)
    return own and all(german_as_english(v) for v in text.values.values()
                       if isinstance(v, Text))


def only_numbers_and_names(english: str, names: list[str]) -> bool:
    rest = english
    for who in sorted(names, key=len, reverse=True):
        rest = rest.replace(who, "")
    return not re.search(r"[A-Za-z]{2,}", rest)


def test_every_text_the_game_shows_is_translated(games):
    count = 0
    for shown, names in games:
        for value in shown:
            if not isinstance(value, dict):
                assert isinstance(value, Text), f"not a Text: {value!r}"
            for text in texts(value):
                count += 1
                assert missing(text, names) == [], str(text)
                german = translate(text, "de")
                assert german != str(text) or only_numbers_and_names(text, names) or \
                    german_as_english(text), str(text)
    assert count > 5000


def test_the_view_says_its_words(games):
    """The view's own words (status, scoring lines, the result, the opponent) are Texts."""
    for shown, _ in games:
        views = [v for v in shown if isinstance(v, dict)]
        assert views and all(isinstance(v["status"], Text) for v in views)
        last = views[-1]
        assert isinstance(last["outcome"]["winner"], Text)
        assert translate(last["outcome"]["tie_break"], "de") == \
            "meiste Tugend, dann meistes Silber; weiter Gleichstand: geteilter Sieg"
        assert translate(last["status"], "de").startswith("Spielende. ")
        assert {translate(t, "de") for t in last["score_names"].values()} >= \
            {"Gebäude", "Kathedrale", "Tugend", "unbezahlte Schuldscheine", "Gefängnis"}
        if last.get("automaton"):
            assert isinstance(last["automaton"]["level_name"], Text)


# The glossary's key terms: where the English shows the term, the German shows its word
# (a regular expression: German inflects).  Card names are taken out of the English first
# ("Debt Collector" is a name, not a Debt).
KEY_TERMS = {
    r"\bWorkers?\b": "Arbeiter", r"\bBuilding cards?\b": "Gebäudekarte",
    r"\bBuilding plans\b": "Bauplän", r"\bApprentices?\b": "Lehrling",
    r"\bVirtue\b": "Tugend", r"\bVP\b": r"\bSP\b", r"\bCathedral\b": "Kathedrale",
    r"\bGuildhall\b": "Zunfthalle", r"\bBlack Market\b": "Schwarzmarkt",
    r"\bDebts?\b": "Schuldschein", r"\bPrison\b": "Gefängnis", r"\bSilver\b": "Silber",
    r"\bMarble\b": "Marmor", r"\bClay\b": "Lehm", r"\bStone\b": "Stein", r"\bWood\b": "Holz",
    r"\bTax\b": "Steuer", r"\bQuarry\b": "Steinbruch", r"\bForest\b": "Wald",
    r"\bMines\b": "Bergwerk", r"\bSilversmith\b": "Silberschmiede",
    r"\bKing's Storehouse\b": "Königliche", r"\bWorkshop\b": "Werkstatt",
    r"\bTown Centre\b": "Marktplatz", r"\bTax Stand\b": "Steueramt",
    r"\bGuardhouse\b": "Wachhaus", r"\bByzantine opponent\b": "byzantinische",
    r"\bReset\b": "Schwarzmarkt-Wechsel", r"\bScheme\b": "Intrige",
}


def _card_names() -> list[str]:
    found = {c["name"] for c in cards.buildings().values()}
    found |= {c["name"] for c in cards.apprentices().values()}
    return sorted(found, key=len, reverse=True)


def test_the_glossarys_key_terms_are_where_the_game_shows_those_things(games):
    card_names = _card_names()
    seen: dict[str, int] = dict.fromkeys(KEY_TERMS, 0)
    for shown, _ in games:
        for value in shown:
            for text in texts(value):
                english = str(text)
                for card in card_names:
                    english = english.replace(card, "")
                german = translate(text, "de")
                for term, word in KEY_TERMS.items():
                    if re.search(term, english):
                        seen[term] += 1
                        assert re.search(word, german), (term, str(text), german)
    assert [t for t, n in seen.items() if n == 0 and t not in (r"\bReset\b", r"\bScheme\b")] \
        == []


def glossary_names() -> dict[str, str]:
    """English -> German of the glossary's groups of shown names (places, skills,
    Buildings, Apprentices)."""
    rows, section = {}, ""
    path = ROOT / "games" / "architects" / "glossary.de.md"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line
        elif line.startswith("| ") and "(names)" in section and "Charaktere" not in section:
            english, german = (c.strip() for c in line.strip("|").split("|")[:2])
            if english != "English":
                rows[english] = german
    return rows


def test_every_shown_name_is_the_glossarys_word():
    rows = glossary_names()
    catalog = translations("de")
    checked = 0
    for english, german in rows.items():
        if catalog.ugettext(english) != english or english == german:
            assert translate(name(english), "de") == german, english
            checked += 1
    assert checked >= 80
    for card in [*cards.buildings().values(), *cards.apprentices().values()]:
        assert translate(card["name"], "de") == rows[card["name"]]
    for code, place in words.LOCATIONS.items():
        assert translate(place, "de") == rows[place], code


def test_a_card_on_the_page_is_german():
    """The page template prints a Building's name and effect, an Apprentice's name and
    ability: each is a Text the page says in German."""
    smithy = GAME.building_card(1)
    assert translate(smithy["name"], "de") == "Schmiede"
    assert translate(smithy["effect"], "de") == "Erhalte 4 Stein"
    acolyte = GAME.apprentice_card(2)
    assert translate(acolyte["name"], "de") == "Akolyth"
    assert translate(acolyte["skills"][0], "de") == "Dachdeckerei"
    assert translate(acolyte["ability"], "de") == \
        "Wenn du an der Kathedrale baust, erhalte zusätzlich 2 Lehm"


def test_sentences_read_as_german():
    """A few of the game's sentences, whole, with the glossary's words and the du-form."""
    details = GAME.move_label(*_table_with_card(1))
    assert translate(details, "de") == \
        "Behalten: Schmiede: 3 SP; Kosten 4 Lehm, 2 Holz; sofort: Erhalte 4 Stein"
    line = GAME.describe({"actor": 0, "names": ["Ada", "Bo"],
                          "data": {"move": {"type": "capture", "location": "forest",
                                            "player": 1}}}, 1)
    assert line == "Ada: Capture Bo's Workers at the Forest"
    assert translate(line, "de") == "Ada: Gefangen nehmen: die Arbeiter von Bo im Wald"
    hidden = GAME.describe({"actor": 0, "names": ["Ada", "Bo"],
                            "data": {"move": {"type": "keep", "card": 4}}}, 1)
    assert translate(hidden, "de") == "Ada: behält 1 Gebäudekarte"
    assert translate(GAME.location_names()["town_centre"], "de") == "Marktplatz"


def _table_with_card(card: int) -> tuple[dict[str, Any], int, dict[str, Any]]:
    state = GAME.setup(["Ada", "Bo"], GAME.normalize_options({}, 2), RecordingRandom(1))
    state["draft"]["pools"][0] = [card] + [c for c in state["draft"]["pools"][0]
                                           if c != card][:3]
    return state, 0, {"type": "draft", "card": card}


def test_option_labels_and_refusals_are_german():
    """The options' labels (the new-game form) and the reasons a move or an option is
    refused are Texts with a German translation."""
    from games.protocol import IllegalMove
    from games.text import T

    assert translate(GAME.name, "de") == "Architekten des Westfrankenreichs"  # the title
    labels = [field["label"] for field in GAME.option_fields()]
    assert all(isinstance(label, Text) and translate(label, "de") != label
               for label in labels)
    assert translate(labels[1], "de") == "Variabler Spielaufbau: auch die 5 Charaktere " \
        "verteilen, die NICHT im Regelheft stehen (Lothaire, Hugo, Clovis, Fara, Bertha)"
    refusals = []
    for options, n in [({"bot_opponent": True}, 3), ({"promos": "yes"}, 2), ({}, 6),
                       ({"extra_characters": True}, 2)]:
        with pytest.raises(IllegalMove) as refused:
            GAME.normalize_options(options, n)
        refusals.append(refused.value.args[0])
    state = GAME.setup(["Ada", "Bo"], GAME.normalize_options({}, 2), RecordingRandom(1))
    for seat, move in [(0, {"type": "hire"}), (0, {"type": "draft", "card": 99})]:
        with pytest.raises(IllegalMove) as refused:
            GAME.apply(state, seat, move, RecordingRandom(1))
        refusals.append(refused.value.args[0])
    assert all(isinstance(r, Text) and missing(r, ["promos"]) == [] for r in refusals), \
        refusals
    said = [translate(r, "de") for r in refusals]
    assert said[0] == "die Variante mit dem Bot-Gegner ist für genau 2 Spieler"
    assert said[2] == "Architekten des Westfrankenreichs braucht 1 bis 5 Spieler"
    assert said[4].startswith("jetzt kein Zug 'hire'; erwartet wird einer von")
    assert said[5].startswith("dieser Zug 'draft' ist jetzt nicht erlaubt (")
    assert translate(T("it is not your turn"), "de") == "du bist nicht am Zug"
