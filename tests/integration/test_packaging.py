"""`pip install .` must give a working service: templates and game data are in the wheel."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_carries_templates_and_game_data(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                    "-q", "-w", str(tmp_path), str(ROOT)], check=True, cwd=tmp_path)
    (wheel,) = tmp_path.glob("ravenpost-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in ["service/templates/game.html", "service/templates/email/turn.txt",
                     "service/templates/email/turn.html", "service/templates/lobby.html"]:
        assert template in names, template
    for package in ["games/kings_guild", "games/architects", "games/feudum_guilds"]:
        data = [n for n in names if n.startswith(package) and n.endswith(".json")]
        docs = [n for n in names if n.startswith(package) and n.endswith("RULES.md")]
        assert data and docs, package
        kind = package.split("/")[1].replace("_", "-")
        pages = [n for n in names if n.startswith("service/templates/games/")]
        assert any(kind.split("-")[0] in p for p in pages), kind
    assert not any(n.startswith("tests/") for n in names)
