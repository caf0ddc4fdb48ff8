"""The gettext catalogs and how they are made: ``python -m worker.catalogs extract``,
``update`` or ``compile`` (``all`` does the three; README: "Translations").

One catalog (a gettext *domain*) for the service's own words, ``messages``, and one per
game, named after its package (``kings_guild``, ``architects``, ``feudum_guilds``): a
game's translator works in one file beside the game's glossary, and the three games'
catalogs can grow side by side without touching each other's.  All of them live in
``templates/translations/<lang>/LC_MESSAGES/<domain>.po`` (and the compiled ``.mo``),
package data of ``service.templates``; their templates (``<domain>.pot``) in
``templates/translations``.  What each domain extracts is its mapping file: ``babel.cfg``
at the root for ``messages``, ``games/<package>/babel.cfg`` for a game.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "templates" / "translations"
KEYWORDS = ("-k", "T", "-k", "P:1,2")  # games.text's markers
OUT = "RAVENPOST_CATALOG_OUT"  # tests: extract elsewhere, to compare with the committed
GAMES = ("kings_guild", "architects", "feudum_guilds")  # the games with catalogs


@dataclass(frozen=True)
class Domain:
    """One catalog: its name, its mapping file, and the folder its sources are under."""

    name: str
    mapping: Path
    sources: Path

    @property
    def template(self) -> Path:
        return TRANSLATIONS / f"{self.name}.pot"

    def po(self, language: str) -> Path:
        return TRANSLATIONS / language / "LC_MESSAGES" / f"{self.name}.po"

    def mo(self, language: str) -> Path:
        return TRANSLATIONS / language / "LC_MESSAGES" / f"{self.name}.mo"


DOMAINS = (Domain("messages", ROOT / "babel.cfg", ROOT),
           *(Domain(g, ROOT / "games" / g / "babel.cfg", ROOT / "games" / g) for g in GAMES))


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], cwd=ROOT,
                   check=True)


def extract(domain: Domain, output: Path | None = None) -> Path:
    """Write the domain's template (or ``output``) from its sources' marked texts."""
    out = output or Path(os.environ.get(OUT, "") or domain.template)
    pybabel("extract", "-F", str(domain.mapping), *KEYWORDS, "-o", str(out), "--no-location",
            "--sort-output", "--omit-header", str(domain.sources.relative_to(ROOT) or "."))
    return out


def update(domain: Domain) -> None:
    """Bring each language's catalog in line with the template (new entries empty)."""
    for language in languages():
        command = "update" if domain.po(language).exists() else "init"
        pybabel(command, "-i", str(domain.template), "-d", str(TRANSLATIONS), "-D",
                domain.name, "-l", language,
                *(["--no-fuzzy-matching"] if command == "update" else []))


def compile_(domain: Domain) -> None:
    pybabel("compile", "-d", str(TRANSLATIONS), "-D", domain.name, "--statistics")


def languages() -> list[str]:
    """The languages with a folder of catalogs (English, the source, has none)."""
    return sorted(p.name for p in TRANSLATIONS.iterdir() if (p / "LC_MESSAGES").is_dir())


def main(argv: list[str]) -> None:
    steps = {"extract": extract, "update": update, "compile": compile_}
    wanted = argv[:1] or ["all"]
    chosen = list(steps) if wanted == ["all"] else wanted
    only = argv[1:]  # domain names; none: every domain
    for step in chosen:
        for domain in DOMAINS:
            if (not only or domain.name in only) and domain.mapping.exists():
                steps[step](domain)


if __name__ == "__main__":
    main(sys.argv[1:])
