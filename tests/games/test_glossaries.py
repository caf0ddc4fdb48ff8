"""German glossaries and rules pages (issue 31).

Each game has ``glossary.de.md`` (tables: English | German | Source | Note, grouped under
``## `` headings; a heading with "(names)" groups names players see: cards, rooms,
specialists, places ...) and ``RULES.de.md``, the German translation of ``RULES.md``.

Checked here:

* every glossary table parses, with a known source and no German name used twice;
* The King's Guild: every term taken from the German summary is used in ``RULES.de.md``
  (and, where the reference summary is on this machine, occurs in it: it is not in the
  repository, so that check is skipped elsewhere);
* no English name of a "(names)" group is left untranslated in the prose of ``RULES.de.md``
  (code spans are left out: they hold move types and identifiers, which stay English);
* ``RULES.de.md`` keeps the headings and every code span of ``RULES.md``;
* every card, room, specialist ... name in the data files the game code loads has a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = Path("/work/shared/reference/rules/kings_guild_summary_de.txt")

GERMAN_SUMMARY = "German summary"
PUBLISHED = "published German edition (Architekten des Westfrankenreichs, Schwerkraft-Verlag)"
OURS = "our translation"
SOURCES = {
    "kings_guild": {GERMAN_SUMMARY, OURS},
    "architects": {PUBLISHED, OURS},
    "feudum_guilds": {OURS},
}
GAMES = sorted(SOURCES)

# German inflection endings a term may take in running text ("der Barde", "den Barden",
# "platzieren" / "du platzierst").
_ENDINGS = ("en", "er", "es", "em", "e", "n", "s")
_ENDING = r"(?:e|en|er|es|em|n|s|ns|ern|t|st|et|est|te|ten)"


@dataclass(frozen=True)
class Row:
    section: str
    english: str
    german: str
    source: str
    note: str

    @property
    def names(self) -> bool:
        return "(names)" in self.section

    @property
    def alternatives(self) -> list[str]:
        """The German forms given ("Trank / Tränke")."""
        return [g.strip() for g in self.german.split(" / ") if g.strip()]

    @property
    def english_key(self) -> str:
        """The English term without a qualifier in brackets ("bid (noun)" -> "bid")."""
        return re.sub(r"\s*\([^)]*\)$", "", self.english).strip()


def glossary(game: str) -> list[Row]:
    rows: list[Row] = []
    section = ""
    path = ROOT / "games" / game / "glossary.de.md"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "English" or set("".join(cells)) <= set("-: "):
            continue
        assert len(cells) == 4, f"{game}: a row needs 4 cells: {line}"
        assert section, f"{game}: a row before the first group heading: {line}"
        rows.append(Row(section, *cells))
    return rows


def rules_de(game: str) -> str:
    return (ROOT / "games" / game / "RULES.de.md").read_text(encoding="utf-8")


def _code_spans(text: str) -> list[str]:
    return [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", text)]


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code spans."""
    text = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    return re.sub(r"`[^`]+`", " ", text)


def german_pattern(term: str) -> re.Pattern[str]:
    """``term`` in running German text, each word allowed its inflection endings: the word
    and an optional ending, or its stem and an ending ("Barde": "Barde", "Barden", not "Bard")."""
    parts = []
    for word in term.split():
        stem = word
        for end in _ENDINGS:
            if word.endswith(end) and len(word) - len(end) >= 4:
                stem = word[: -len(end)]
                break
        parts.append(f"(?:{re.escape(word)}{_ENDING}?|{re.escape(stem)}{_ENDING})")
    return re.compile(r"(?<!\w)" + r"\s+".join(parts) + r"(?!\w)", re.IGNORECASE)


def occurs(row: Row, text: str) -> bool:
    return any(german_pattern(alt).search(text) for alt in row.alternatives)


def _word(term: str, flags: int = 0) -> re.Pattern[str]:
    # An apostrophe after the term is a possessive ("The King's Guild"), not the name.
    return re.compile(r"(?<![\w-])" + re.escape(term) + r"(?![\w'-])", flags)


@pytest.mark.parametrize("game", GAMES)
def test_glossary_parses(game: str) -> None:
    rows = glossary(game)
    assert len(rows) >= 40
    for row in rows:
        assert row.english and row.german, row
        assert row.source in SOURCES[game], f"{game}: unknown source {row.source!r} ({row})"
    english = [r.english for r in rows]
    assert len(english) == len(set(english)), "an English term has two rows"
    german = [r.german.casefold() for r in rows if r.names]
    twice = sorted({g for g in german if german.count(g) > 1})
    assert not twice, f"{game}: one German name for two things: {twice}"


def test_german_summary_terms_are_used_in_the_rules_page() -> None:
    text = prose(rules_de("kings_guild"))
    taken = [r for r in glossary("kings_guild") if r.source == GERMAN_SUMMARY]
    assert len(taken) >= 20
    missing = [r.german for r in taken if not occurs(r, text)]
    assert not missing, f"German summary terms not used in RULES.de.md: {missing}"


@pytest.mark.skipif(not SUMMARY.exists(), reason="the reference summary is not on this machine")
def test_german_summary_terms_occur_in_the_summary() -> None:
    text = SUMMARY.read_text(encoding="utf-8")
    taken = [r for r in glossary("kings_guild") if r.source == GERMAN_SUMMARY]
    missing = [r.german for r in taken if not occurs(r, text)]
    assert not missing, f"marked 'German summary' but not in the summary: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_no_english_name_is_left_in_the_rules_page(game: str) -> None:
    text = prose(rules_de(game))
    left = []
    for row in glossary(game):
        term = row.english_key
        if not row.names or any(
            _word(term, re.IGNORECASE).search(a) or re.fullmatch(re.escape(a) + _ENDING, term)
            for a in row.alternatives
        ):
            continue  # the English name is a German form too (Alchemist, Gold, Mandat/Mandate)
        if _word(term).search(text):
            left.append(term)
    assert not left, f"{game}: English names left untranslated in RULES.de.md: {left}"


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_keeps_headings_and_code(game: str) -> None:
    english = (ROOT / "games" / game / "RULES.md").read_text(encoding="utf-8")
    german = rules_de(game)

    def levels(text: str) -> list[int]:
        return [len(m.group(1)) for m in re.finditer(r"^(#+) ", text, re.MULTILINE)]

    assert levels(german) == levels(english)
    missing = sorted(set(_code_spans(english)) - set(_code_spans(german)))
    assert not missing, f"{game}: code spans of RULES.md missing from RULES.de.md: {missing}"


def _kings_guild_names() -> set[str]:
    from games.kings_guild import cards

    names = {s["name"] for s in cards.specialists().values()}
    names |= set(cards.rooms())
    names |= {t["name"] for t in cards.treasure_types().values()}
    names |= {e["name"] for e in cards.events().values()}
    for quest in cards.quests().values():
        names.add(quest["name"])
        names |= {item["name"] for item in quest["items"]}
    names |= {g["name"] for g in cards.boards()["guilds"]}
    names |= {title for _, title in cards._load("setup.json")["solo"]["titles"]}
    return names


def _architects_names() -> set[str]:
    from games.architects import cards

    names = {c["name"] for c in cards.buildings().values()}
    names |= {c["name"] for c in cards.apprentices().values()}
    names |= set(cards.characters())
    for card in cards.apprentices().values():
        names |= set(card["skills"])
    return names


def _feudum_names() -> set[str]:
    from games.feudum_guilds import components

    c = components.C
    names = {card["name"] for card in components.CARDS}
    names |= {w["name"] for w in components.WRITS.values()}
    names |= set(c["guilds"]) | set(c["patrons"].values()) | set(c["goods"])
    names |= set(c["vessels"]) | set(c["monsters"]) | set(c["linked_location"].values())
    return {n.replace("_", " ") for n in names}


DATA_NAMES = {
    "kings_guild": _kings_guild_names,
    "architects": _architects_names,
    "feudum_guilds": _feudum_names,
}


@pytest.mark.parametrize("game", GAMES)
def test_every_data_name_has_a_row(game: str) -> None:
    names = DATA_NAMES[game]()
    assert len(names) >= 20
    rows = glossary(game)
    known = {r.english.casefold() for r in rows} | {r.english_key.casefold() for r in rows}
    missing = sorted(n for n in names if n.casefold() not in known)
    assert not missing, f"{game}: names in the data files without a glossary row: {missing}"
