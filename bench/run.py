"""Run every benchmark with small settings and print one table of their ratios.

Each benchmark measures its reference in the same run (these machines are shared and
noisy: only the ratios mean much).  This runs them one after the other as they are run
by hand, each in a process of its own with a time limit, in about two to four minutes;
a benchmark that fails is listed as such and the rest still run.  ``--full`` uses each
benchmark's own defaults instead (longer).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
NUMBER = r"([0-9.]+|inf|nan)"


@dataclass
class Bench:
    script: str
    small: list[str]  # arguments for the quick run
    rows: Callable[[str], list[tuple[str, str, float, str]]]  # (measure, reference, ratio, goal)
    limit: float = 180
    args: list[str] = field(default_factory=list)  # arguments of every run (a game kind)


def _find(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    return float(found.group(1)) if found else float("nan")


def load_game_rows(out: str):
    per_event = _find(rf"fold from event 1: {NUMBER} µs per event", out)
    decoded = _find(rf"XRANGE \+ json.loads of data and tape: {NUMBER} µs", out)
    rules = _find(rf"setup and apply of the same events: {NUMBER} µs", out)
    rest = _find(rf"the platform's folding\): {NUMBER} µs", out)
    return [("load via snapshot + tail", "fold from event 1",
             _find(rf"ratio snapshot/baseline: {NUMBER}", out), "small"),
            ("fold from event 1, per event", "XRANGE + json.loads of the same entries",
             _find(rf"fold/decode {NUMBER}", out), f"({per_event:.1f} µs; goal <= 10 µs)"),
            ("  the same less the game's own rules", "XRANGE + json.loads of the same entries",
             rest / decoded, f"({rest:.1f} µs; the test game's setup and apply {rules:.1f})")]


def takebacks_rows(out: str):
    ratios = re.findall(rf"(fold from event 1|snapshot \+ \d+-event tail): .*ratio {NUMBER}",
                        out)
    return [(f"load after take-backs ({label})", "same game, none", float(r), "<= 2")
            for label, r in ratios] or [("load after take-backs", "same game, none",
                                         float("nan"), "<= 2")]


def api_moves_rows(out: str):
    return [("moves over HTTP (GET + POST)", "service layer, no HTTP",
             _find(rf"ratio HTTP/baseline: {NUMBER}", out), "")]


def history_rows(out: str):
    rows = []
    for name in ("API history (latest 100)", "API view", "game page (last 30)",
                 "whole log (the old answer)"):
        line = next((x for x in out.splitlines() if x.startswith(name)), "")
        numbers = re.findall(r"[0-9.]+(?=ms|\s|$)", line[len(name):])
        ratio = float(numbers[2]) if len(numbers) >= 3 else float("nan")
        goal = "grows" if name.startswith("whole") else "~1"
        rows.append((f"{name}, long/short game", "same read, short game", ratio, goal))
    return rows


def engine_rows(name: str):
    """Rows of an engine benchmark: its ``engine`` line's ratio (the third figure)."""
    def rows(out: str):
        line = next((x for x in out.splitlines() if x.startswith("engine")), "")
        figures = re.findall(r"[0-9]+\.[0-9]+", line)
        ratio = float(figures[2]) if len(figures) >= 3 else float("nan")
        return [(f"{name} engine per move (legal_moves + apply + reveals)",
                 "JSON round trip of the same states", ratio, "<= half of before")]
    return rows


def worker_load_rows(out: str):
    ratios = out.split("ratios (ours / reference):")[-1] if "ratios" in out else ""

    def ratio(name: str) -> float:
        return _find(rf"{re.escape(name)}\s+{NUMBER}", ratios)

    ours = out.split("reference:")[0]

    def figure(name: str) -> float:
        return _find(rf"{re.escape(name)}\s+{NUMBER}", ours)

    moves, notices = figure("moves/s"), figure("notices settled/s")
    return [
        ("worker: projection lag p99", "RQ forking worker", ratio("lag p99 s"),
         f"< 1 ({figure('lag p99 s'):.2f} s; goal <= 2 s)"),
        ("worker: queue drain after the load", "RQ forking worker", ratio("drain s"),
         f"< 1 ({figure('drain s'):.2f} s; goal <= 2 s)"),
        ("worker: notices settled/s", "RQ forking worker", ratio("notices settled/s"),
         f"> 1 ({notices:.0f}/s for {moves:.0f} moves/s)"),
        ("worker: moves/s accepted by the web", "RQ forking worker", ratio("moves/s"), ""),
    ]


def email_wait_rows(out: str):
    ratios = out.split("ratios (ours / reference):")[-1] if "ratios" in out else ""
    ours = out.split("reference:")[0]

    def ratio(name: str) -> float:
        return _find(rf"{re.escape(name)}\s+{NUMBER}", ratios)

    def figure(name: str) -> float:
        return _find(rf"{re.escape(name)}\s+{NUMBER}", ours)

    return [
        ("players wait for email: moves/s", "RQ forking worker", ratio("moves/s"),
         f"({figure('moves/s'):.0f} moves/s, {figure('emails/s'):.0f} emails/s)"),
        ("players wait for email: email latency p99", "RQ forking worker",
         ratio("email p99 s"), f"({figure('email p50 s'):.2f} s p50, "
                               f"{figure('email p99 s'):.2f} s p99)"),
    ]


def email_picture_rows(out: str):
    rows = []
    for kind in ("kings-guild", "architects", "feudum-guilds"):
        found = re.search(rf"\| {kind} \| (\d+) \| {NUMBER} \| {NUMBER} \| {NUMBER} \|", out)
        if found:
            rows.append((f"email picture CPU (draw + PNG), {kind}", "old renderer (resvg)",
                         float(found.group(4)), f"<= 0.2 ({found.group(3)} ms)"))
    return rows or [("email picture CPU", "old renderer (resvg)", float("nan"), "<= 0.2")]


def scrub_rows(out: str):
    worst = _find(rf"ratio history/live \(live samples around it\): worst {NUMBER}", out)
    p99 = _find(rf"\), p99 {NUMBER}, median", out)
    return [("history page at every version, worst", "live game page", worst, "<= 2"),
            ("  the same, median", "live game page",
             _find(rf"\), p99 [0-9.]+, median {NUMBER}", out), f"(p99 {p99:.2f})")]


def sequential_rows(redis: str):
    def rows(out: str):
        share = _find(rf"moves/s : floor pairs/s {NUMBER}", out)
        return [(f"sequential moves/s (POST + next mover's GET), {redis}",
                 "bare Flask route req/s, same gunicorn",
                 _find(rf"ratio moves/s : bare req/s: median {NUMBER}", out), ">= 0.25"),
                (f"  floor: 2 bare requests after a Redis PING each, {redis}",
                 "bare Flask route req/s, same gunicorn",
                 _find(rf"ratio floor pairs/s : bare req/s: median {NUMBER}", out),
                 f"(moves reach {share:.2f} of it)")]
    return rows


BENCHES = [
    Bench("load_game.py", ["--events", "2000", "--repeat", "5"], load_game_rows),
    Bench("takebacks.py", ["--repeat", "5"], takebacks_rows),
    Bench("api_moves.py", ["--moves", "200"], api_moves_rows),
    Bench("sequential.py", ["--seconds", "3", "--rounds", "3"], sequential_rows("Redis")),
    Bench("sequential.py", ["--seconds", "3", "--rounds", "3"],
          sequential_rows("appendfsync always"), args=["--durable"]),
    Bench("history.py", ["--events", "3000", "--repeat", "9"], history_rows),
    Bench("engines.py", ["--games", "2"], engine_rows("King's Guild"), args=["kings-guild"]),
    Bench("engines.py", ["--games", "3"], engine_rows("Architects"), args=["architects"]),
    Bench("engines.py", ["--games", "3"], engine_rows("Feudum"), args=["feudum-guilds"]),
    Bench("email_picture.py", ["--moves", "30", "--games", "1"], email_picture_rows),
    Bench("scrub.py", ["--events", "1000", "--step", "10"], scrub_rows, limit=300),
    Bench("worker_load.py", ["--seconds", "10", "--drain-limit", "20"], worker_load_rows,
          limit=240),
    Bench("worker_load.py", ["--seconds", "10", "--drain-limit", "20"], email_wait_rows,
          limit=240, args=["--wait-for-email"]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="each benchmark's defaults")
    parser.add_argument("--only", nargs="*", help="scripts to run (default: all)")
    args = parser.parse_args()
    table: list[tuple[str, str, str, float, str]] = []
    started = time.monotonic()
    for bench in BENCHES:
        if args.only and bench.script not in args.only:
            continue
        argv = [sys.executable, bench.script, *bench.args,
                *([] if args.full else bench.small)]
        print(f"running {' '.join(argv[1:])} ...", flush=True)
        began = time.monotonic()
        try:
            done = subprocess.run(argv, cwd=HERE, capture_output=True, text=True,
                                  timeout=bench.limit * (4 if args.full else 1))
            out, problem = done.stdout, done.stderr[-600:] if done.returncode else ""
        except subprocess.TimeoutExpired:
            out, problem = "", f"no answer within {bench.limit:.0f} s"
        print(f"  {time.monotonic() - began:.0f} s" + ("  FAILED" if problem else ""),
              flush=True)
        if problem:
            print(problem)
            table.append((bench.script, "FAILED", "", float("nan"), ""))
            continue
        for measure, reference, ratio, goal in bench.rows(out):
            table.append((bench.script, measure, reference, ratio, goal))
    print(f"\nall benchmarks in {time.monotonic() - started:.0f} s; ratio = measure / "
          "reference, both measured in the same run\n")
    widths = [max(len(str(row[i])) for row in table) for i in (0, 1, 2)]
    print(f"{'benchmark':<{widths[0]}}  {'measure':<{widths[1]}}  "
          f"{'reference':<{widths[2]}}  {'ratio':>8}  goal")
    for script, measure, reference, ratio, goal in table:
        print(f"{script:<{widths[0]}}  {measure:<{widths[1]}}  {reference:<{widths[2]}}  "
              f"{ratio:>8.3f}  {goal}")


if __name__ == "__main__":
    main()
