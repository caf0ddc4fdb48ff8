"""The rules page of each game, for players: ``/rules/<kind>``, in the reader's language.

Each game keeps its rules beside its code, ``games/<package>/RULES.md`` (English) and a
translation per language, ``RULES.<language>.md`` (``RULES.de.md``); the page shows the
reader's (the page's ``?lang=``, which the game page's link gives it, else the signed-in
player's setting, else the browser's), else the English, rendered from Markdown to HTML
by markdown-it-py (CommonMark plus tables; raw HTML in the file is shown as text, never
passed through).  A game with no rules file answers 404.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from flask import Blueprint, abort, render_template, request, url_for
from markdown_it import MarkdownIt
from markupsafe import Markup

from games import registry
from games.text import T
from service.i18n import reader_language, select_language
from worker.i18n import DEFAULT, LANGUAGES

bp = Blueprint("rules", __name__)


def rules_file(kind: str, language: str) -> tuple[Path, str] | None:
    """The rules of ``kind`` for a reader of ``language``: (the file, its language), the
    English file when there is no translation; None without rules (or without the kind)."""
    try:
        game = registry.get(kind)
    except KeyError:
        return None
    package = type(game).__module__.rpartition(".")[0] or type(game).__module__
    module = sys.modules.get(package)
    if module is None or not getattr(module, "__file__", None):
        return None
    folder = Path(module.__file__).parent
    for name, said in ((f"RULES.{language}.md", language), ("RULES.md", DEFAULT)):
        if (folder / name).is_file():
            return folder / name, said
    return None


_MARKDOWN = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


@cache
def _rendered(path: str, mtime: float) -> str:
    """The HTML of the Markdown file at ``path`` (one per version of the file)."""
    return _MARKDOWN.render(Path(path).read_text(encoding="utf-8"))


def rules_html(kind: str, language: str) -> tuple[Markup, str] | None:
    """The rules of ``kind`` as HTML for a reader of ``language``, and their language."""
    found = rules_file(kind, language)
    if found is None:
        return None
    path, said = found
    # markdown-it escapes every text and refuses raw HTML ("html": False)
    return Markup(_rendered(str(path), path.stat().st_mtime)), said  # noqa: S704


@bp.app_template_global("rules_url")
def rules_url(kind: str, language: str | None = None) -> str | None:
    """The address of ``kind``'s rules page (for a reader of ``language``, if given), None
    if the game has no rules file."""
    if not rules_file(kind, DEFAULT):
        return None
    return url_for("rules.page", kind=kind, **({"lang": language} if language else {}))


@bp.get("/rules/<kind>")
def page(kind: str):
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        reader_language(asked)
    language = select_language()
    found = rules_html(kind, language)
    if found is None:
        abort(404, T("There are no rules for a game of that name."))
    html, said = found
    return render_template("rules.html", game=registry.get(kind), rules=html,
                           rules_language=said, translated=said == language)
