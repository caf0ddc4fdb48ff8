"""Texts the games say, in English, that can be said again in the reader's language.

The games stay pure: they never look up a catalog.  A :class:`Text` *is* its English
string (a ``str``), so every caller that prints it, stores it or sends it as JSON gets
English as before; it also remembers its message id (the English with ``%(name)s``
placeholders) and its values, so the edge that knows the reader (a page, an email:
``worker/i18n.translate``) can look the message id up in the reader's catalog and fill
in the values, themselves translated when they are Texts (a card's name inside a log
line).  Texts built at import time (names in data files, fixed labels) are the "lazy
strings" of the Flask world: nothing is translated until a reader is known.

Marking for ``pybabel extract``: ``T("…")`` and ``P("…", "…", n)`` are its keywords
(``-k T -k P:1,2``, see the README's "Translations"); :func:`name` marks a name from a
data file, extracted by :func:`extract_names` from the data files themselves.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any


class Text(str):
    """An English text with its message id and values (see the module's docstring), and
    the game whose catalog says it first (``domain``: the package that made it)."""

    msgid: str
    plural: str | None
    n: int | None
    values: dict[str, Any]
    domain: str | None = None

    def __new__(cls, msgid: str, values: dict[str, Any] | None = None,
                plural: str | None = None, n: int | None = None,
                domain: str | None = None) -> Text:
        values = values or {}
        chosen = plural if plural is not None and n != 1 else msgid
        self = super().__new__(cls, chosen % values if values else chosen)
        self.msgid, self.plural, self.n, self.values = msgid, plural, n, values
        self.domain = domain if domain is not None else _maker()
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles stay Texts
        return (Text, (self.msgid, self.values, self.plural, self.n, self.domain))


def _maker() -> str | None:
    """The game package whose code made the Text being built (``kings_guild`` for code in
    ``games.kings_guild.*``), else None: a game's words are looked up in its own catalog
    first, so two games may say one English word differently (a tavern is a "Taverne" in
    one game and a "Schenke" in another)."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "games" else None


def T(msgid: str, /, **values: Any) -> Text:  # noqa: N802 - gettext's keyword style
    """A text to translate: ``T("%(who)s drew a card.", who=name)``."""
    return Text(msgid, values)


def P(singular: str, plural: str, n: int, /, **values: Any) -> Text:  # noqa: N802
    """A text with a plural form chosen by ``n`` (``%(n)s`` is ``n``):
    ``P("%(n)s coin", "%(n)s coins", 3)``; each language has its own plural rules."""
    return Text(singular, {"n": n, **values}, plural, n)


def name(english: str) -> Text:
    """A name from a data file (a card, a room, a resource): its own message id."""
    return Text(english)


def join(parts: list[Any], sep: str = ", ") -> Text:
    """``parts`` joined, each still translatable (a list of card names in a log line)."""
    marks = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(sep.join(f"%(p{i})s" for i in range(len(parts))), marks)


# -- pybabel: names in the data files --------------------------------------------------
NAME_FIELDS = ("name", "title")


def extract_names(fileobj: Any, keywords: Any, comment_tags: Any,
                  options: dict[str, Any]) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extractor for the games' JSON data: every string under a key in
    ``NAME_FIELDS`` (``options["fields"]``, comma-separated, to choose others) is a
    message, so each card's name is in the catalog beside the sentences that use it."""
    fields = tuple(f.strip() for f in options.get("fields", "").split(",") if f.strip()) \
        or NAME_FIELDS
    data = json.load(fileobj)
    seen: set[str] = set()

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in fields and isinstance(v, str):
                    yield v
                else:
                    yield from walk(v)
        elif isinstance(node, list):
            for v in node:
                yield from walk(v)

    for text in walk(data):
        if text not in seen:
            seen.add(text)
            yield 0, None, text, ["a name in the game's data"]
