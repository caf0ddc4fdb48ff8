"""Email size and picture render time, per game kind, on real turn emails.

Plays ``--moves`` random legal moves of each kind (fakeredis, worker jobs inline, the
outbox backend), so every turn email the platform would send is composed as in
production, picture included.  Prints, per kind: how many emails, their size on the
wire (text + HTML + the base64 PNG: median and largest), the PNG alone, and the time to
draw and render one seat's picture (SVG from the rules + resvg to PNG: median and
slowest).  The reference, timed in the same run, is the same PNG step on a fixed
1280x800 SVG of plain shapes and text, so figures from different machines compare.

    python bench/email_picture.py [KIND ...] [--moves 60] [--players 3] [--seed 1]
                                  [--out DIR]

``--out DIR`` also writes each seat's last email picture of each kind there
(``<kind>-seat<N>.png``), to look at as a phone shows it (about 390 px wide).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import fakeredis
from common import ROOT  # noqa: F401  (puts the project on sys.path)

from games import registry
from games.svg import Drawing
from service import create_app
from worker import jobs, notify, picture_mail
from worker.picture_mail import mail_picture, svg_to_png


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

    notify.mail_picture = timed_mail_picture  # what every email's picture cost
    try:
        game = registry.get(kind)
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
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for seat, person in enumerate(people):
            if last.get(person["email"]):
                (out / f"{kind}-seat{seat}.png").write_bytes(last[person["email"]])
    return {"sizes": sizes, "pngs": pngs, "renders": renders}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=["kings-guild", "architects",
                                                     "feudum-guilds"])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None,
                        help="write each seat's last email picture here")
    args = parser.parse_args()
    svg = reference_svg()
    svg_to_png(svg)  # fonts loaded once, as in a long-lived worker
    reference = []
    for _ in range(10):
        started = time.perf_counter()
        svg_to_png(svg)
        reference.append(time.perf_counter() - started)
    print(f"reference PNG (1280x800 SVG -> {picture_mail.EMAIL_WIDTH} px): "
          f"{statistics.median(reference) * 1000:.0f} ms")
    for kind in args.kinds:
        got = measure(kind, args.moves, args.players, args.seed, args.out)
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


if __name__ == "__main__":
    main()
