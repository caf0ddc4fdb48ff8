"""Email size and picture render time, per game kind, on real turn emails; and the new
renderer against the old one on the same pictures.

Plays ``--moves`` random legal moves of each kind in ``--games`` games (fakeredis, worker
jobs inline, the outbox backend), so every turn email the platform would send is composed
as in production, picture included.  Prints, per kind: how many emails, their size on the
wire (text + HTML + the base64 PNG: median and largest), the PNG alone, and the time to
draw and render one seat's picture (SVG from the rules + PNG: median and slowest).

Then the comparison (issue 32, item 2): every email picture of that run (each seat's view
and table as the email drew it: mid-game states, highlights and deadline included) is
drawn again and turned into a PNG twice, by today's renderer
(:mod:`worker.picture_mail`: Pillow and FreeType) and by the renderer it replaced
(``email_picture_baseline.py``: resvg, then a palette PNG), alternating which goes first,
in process CPU time (``time.process_time``).  Per kind: the number of pictures, the
median CPU of each (drawing the SVG + rendering + encoding the PNG), the ratio new/old
(goal: <= 0.2), and the median PNG bytes of each.

The reference, timed in the same run, is the old renderer (resvg) on a fixed 1280x800 SVG
of plain shapes and text, so figures from different machines and earlier runs compare.

    python bench/email_picture.py [KIND ...] [--moves 60] [--games 2] [--players 3]
                                  [--seed 1] [--out DIR] [--pictures DIR]

``--out DIR`` also writes each seat's last email picture of each kind there
(``<kind>-seat<N>.png``), to look at as a phone shows it (about 390 px wide).
``--pictures DIR`` writes one mid-game picture of each kind rendered 390 px wide by both
renderers (``<kind>-before.png``, ``<kind>-after.png``), for bench/README.md.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time
from pathlib import Path
from typing import Any

import email_picture_baseline as baseline
import fakeredis
from common import ROOT  # noqa: F401  (puts the project on sys.path)

from games import registry
from games.svg import Drawing
from service import create_app
from worker import jobs, notify, picture_mail
from worker.picture_mail import SHARP_WIDTH, _natural_size, mail_picture, svg_to_png

PHONE = 390  # px: the pictures written by --pictures, as wide as a phone's screen


def reference_svg() -> str:
    d = Drawing(1280, 800, title="reference")
    for i in range(40):
        d.rect(10 + (i % 8) * 158, 10 + (i // 8) * 158, 150, 150, fill="#E69F00")
        d.text(20 + (i % 8) * 158, 60 + (i // 8) * 158, f"Card {i}: 3 gold", size=16)
    return d.render()


def measure(kind: str, moves: int, players: int, seed: int,
            out: Path | None = None) -> dict[str, list[float]]:
    app = create_app({"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True),
                      "RUN_JOBS_INLINE": True, "TESTING": True, "SECRET_KEY": "bench",
                      "BASE_URL": "http://localhost", "ADMIN_TOKEN": "bench-admin",
                      "QUIET_HOURS": "off"})  # no email held for the night
    rt = app.extensions["ravenpost"]
    renders: list[float] = []

    def timed_mail_picture(*args, **kwargs):
        result = mail_picture(*args, **kwargs)
        if result is not None:
            renders.append(result.render_seconds)
        return result

    game = registry.get(kind)
    drawn: list[tuple[Any, dict, dict]] = []  # (game, view, table) of each email picture
    draw = type(game).picture

    def recorded_picture(self, view, table, *say):
        if table.get("medium") == "email":
            drawn.append((self, copy.deepcopy(view), copy.deepcopy(table)))
        return draw(self, view, table, *say)

    notify.mail_picture = timed_mail_picture  # what every email's picture cost
    type(game).picture = recorded_picture
    try:
        n = max(game.min_players, min(players, game.max_players))
        people = [{"name": f"Player {i + 1}", "email": f"p{i}@example.org",
                   "tz": "Europe/Paris"} for i in range(n)]
        table = rt.games.create(kind, people)
        rng = random.Random(seed)
        for _ in range(moves):
            table = rt.games.load(table.game_id)
            to_act = sorted(table.to_act())
            if not to_act:
                break
            seat = rng.choice(to_act)
            move = rng.choice(table.game.legal_moves(table.state, seat))
            rt.games.play(table.game_id, seat, move, table.version)
            jobs.project(table.game_id)
        sizes, pngs = [], []
        last: dict[str, bytes] = {}
        for item in reversed(rt.mail.list(limit=10_000)):  # oldest first
            mail = rt.mail.get(item["id"])
            image = rt.mail.inline_image(item["id"], "board")
            if image is not None:
                last[mail["to"]] = image.data
            image = sum(4 * -(-i["size"] // 3) for i in mail["inline"])
            sizes.append(len(mail["text"].encode()) + len(mail["html"].encode()) + image)
            pngs.extend(i["size"] for i in mail["inline"])
    finally:
        notify.mail_picture = mail_picture
        type(game).picture = draw
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for seat, person in enumerate(people):
            if last.get(person["email"]):
                (out / f"{kind}-seat{seat}.png").write_bytes(last[person["email"]])
    return {"sizes": sizes, "pngs": pngs, "renders": renders, "drawn": drawn}


def email_width(svg: str) -> int:
    """The pixels ``mail_picture`` asks for (the email width, or the picture's own up to
    SHARP_WIDTH)."""
    natural = _natural_size(svg)
    return round(max(picture_mail.EMAIL_WIDTH, min(natural[0], SHARP_WIDTH))
                 if natural else picture_mail.EMAIL_WIDTH)


def compare(drawn: list[tuple[Any, dict, dict]]) -> dict[str, list[float]]:
    """Each picture drawn and rendered by the old and by the new renderer, alternating
    which goes first: CPU seconds and PNG bytes of each."""
    got: dict[str, list[float]] = {"old": [], "new": [], "old_bytes": [], "new_bytes": []}
    renderers = {"old": baseline.svg_to_png, "new": svg_to_png}
    for i, (game, view, table) in enumerate(drawn):
        order = ("old", "new") if i % 2 else ("new", "old")
        for name in order:
            started = time.process_time()
            svg = game.picture(view, table)
            png, _, _ = renderers[name](svg, email_width(svg))
            got[name].append(time.process_time() - started)
            got[f"{name}_bytes"].append(len(png))
    return got


def write_pictures(kind: str, drawn: list[tuple[Any, dict, dict]], out: Path) -> None:
    """One mid-game picture (the middle email of the run) rendered PHONE px wide by
    both renderers."""
    game, view, table = drawn[len(drawn) // 2]
    svg = game.picture(view, table)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{kind}-before.png").write_bytes(baseline.svg_to_png(svg, PHONE)[0])
    (out / f"{kind}-after.png").write_bytes(svg_to_png(svg, PHONE)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=["kings-guild", "architects",
                                                     "feudum-guilds"])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--games", type=int, default=2, help="games per kind")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None,
                        help="write each seat's last email picture here")
    parser.add_argument("--pictures", type=Path, default=None,
                        help="write one picture per kind, before and after, 390 px wide")
    args = parser.parse_args()
    svg = reference_svg()
    svg_to_png(svg)  # fonts loaded once, as in a long-lived worker
    baseline.svg_to_png(svg)
    reference = []
    for _ in range(10):  # the old renderer (resvg): the yardstick of earlier runs
        started = time.perf_counter()
        baseline.svg_to_png(svg)
        reference.append(time.perf_counter() - started)
    print(f"reference PNG (1280x800 SVG -> {picture_mail.EMAIL_WIDTH} px, resvg): "
          f"{statistics.median(reference) * 1000:.0f} ms")
    table = []
    for kind in args.kinds:
        runs = [measure(kind, args.moves, args.players, args.seed + g,
                        args.out if g == 0 else None) for g in range(args.games)]
        got = {key: [v for run in runs for v in run[key]] for key in runs[0]}
        if not got["pngs"]:
            print(f"{kind}: {len(got['sizes'])} emails, no picture (the kind draws none), "
                  f"size median {statistics.median(got['sizes']) / 1024:.0f} KiB")
            continue
        kb = [s / 1024 for s in got["sizes"]]
        ms = [r * 1000 for r in got["renders"]]
        print(f"{kind}: {len(kb)} emails, size median {statistics.median(kb):.0f} KiB, "
              f"largest {max(kb):.0f} KiB (PNG median "
              f"{statistics.median(got['pngs']) / 1024:.0f} KiB); picture (draw + render) "
              f"median {statistics.median(ms):.0f} ms, slowest {max(ms):.0f} ms, "
              f"{statistics.median(ms) / (statistics.median(reference) * 1000):.2f}x the "
              "reference")
        versus = compare(got["drawn"])
        old, new = (statistics.median(versus[k]) * 1000 for k in ("old", "new"))
        table.append((kind, len(got["drawn"]), old, new, new / old,
                      statistics.median(versus["old_bytes"]),
                      statistics.median(versus["new_bytes"])))
        if args.pictures is not None:
            write_pictures(kind, got["drawn"], args.pictures)
    print("\nCPU to draw and render one email picture (process time, median over the run's "
          "pictures)\n| kind | pictures | old (resvg) ms | new ms | ratio | PNG bytes old "
          "| PNG bytes new |\n| --- | --- | --- | --- | --- | --- | --- |")
    for kind, n, old, new, ratio, old_bytes, new_bytes in table:
        print(f"| {kind} | {n} | {old:.1f} | {new:.1f} | {ratio:.3f} | {old_bytes:,.0f} "
              f"| {new_bytes:,.0f} |")

if __name__ == "__main__":
    main()
