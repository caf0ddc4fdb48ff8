"""What the game page needs beyond the view: the moves as the step builder reads them,
and the chart of scores over a finished game.

The picture itself and its ``table`` are built in :mod:`events.picture` (the worker's
emails draw the same one); this module is the web side only.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable
from datetime import datetime
from numbers import Real
from typing import Any

from events.gameplay import GameService, Table
from events.picture import picture_of
from events.store import LRU
from games import svg
from games.protocol import Game, State
from games.text import P, T
from service.i18n import select_language
from worker.i18n import translate

CHART_POINTS = 100  # versions sampled at most for the score chart
CHARTS_KEPT = 128

_charts = LRU(CHARTS_KEPT)


def reader_words() -> dict[str, Any]:
    """This request's reader's ``language`` and ``say`` (a game's Text said in it), as
    :func:`events.picture.picture_of` takes them; ``say`` for :func:`move_choices` too."""
    language = select_language()
    return {"language": language, "say": lambda text: translate(text, language)}


def page_pictures(games: GameService, table: Table, seat: int | None,
                  **kwargs: Any) -> tuple[str | None, str | None]:
    """The page's picture of ``table`` for ``seat`` and, where the game draws one of its
    own, the phone's (its narrow layout at a legible size, shown instead below a phone's
    width: ``.board-phone``); ``kwargs`` go to :func:`events.picture.picture_of`."""
    picture = picture_of(games, table, seat, **kwargs)
    phone = picture_of(games, table, seat, **{**kwargs, "medium": "phone"}) \
        if picture else None
    return picture, (phone if phone != picture else None)


def move_choices(game: Game, state: State, seat: int, moves: list[dict[str, Any]],
                 say: Callable[[Any], Any] = str) -> list[dict[str, Any]]:
    """The legal moves as the form and the step builder show them: ``value`` (the JSON the
    form posts), ``label``, ``type``, ``steps`` and ``targets`` (see the game protocol);
    labels said by ``say`` (the reader's language: the builder's JSON is no template)."""
    out = []
    for move in moves:
        try:
            steps = game.move_steps(state, seat, move) or []
            targets = list(game.move_targets(move) or [])
        except Exception:  # a presentation bug must not hide a legal move: one plain step
            steps, targets = [], []
        label = str(say(game.move_label(state, seat, move)))
        out.append({"value": json.dumps(move, sort_keys=True), "type": move.get("type", ""),
                    "label": label,
                    "steps": [{"label": str(say(s.get("label", ""))), "group": s.get("group")}
                              for s in steps] or [{"label": label, "group": None}],
                    "targets": [str(t) for t in targets]})
    return out


_TARGET_TITLE = re.compile(r'<g\b[^>]*\bdata-target="([^"]+)"[^>]*>\s*<title>([^<]*)</title>')


def target_labels(picture: str | None) -> dict[str, str]:
    """What each clickable shape of ``picture`` is, in the game's words: ``{target:
    label}`` from the tooltip the page's picture gives it (``Quarry: 1 + 1 Stone per
    Worker. Workers: ...`` gives ``Quarry``), so the page never shows a player the
    target's internal name (``loc:quarry``)."""
    out: dict[str, str] = {}
    for target, title in _TARGET_TITLE.findall(picture or ""):
        name = html.unescape(target)
        if name not in out:
            out[name] = short_label(html.unescape(title))
    return out


def short_label(title: str, longest: int = 60) -> str:
    """A tooltip's name part: up to its first ``:``, ``;`` or ``.`` outside brackets."""
    depth = 0
    for i, ch in enumerate(title):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and (ch in ":;" or ch == "." and title[i + 1:i + 2] in (" ", "")
                             and len(title[:i].split()[-1:][0] if title[:i].split() else "") > 3):
            title = title[:i]
            break
    title = title.strip()
    return title if len(title) <= longest else title[:longest - 1].rstrip() + "…"


def fallback_label(target: str) -> str:
    """A target without a tooltip named in words: ``loc:town_centre`` -> ``town centre``."""
    parts = [p for p in target.split(":")[1:] if not p.isdigit()] or target.split(":")
    return " ".join(parts).replace("_", " ").strip() or target


def time_left(deadline: str | None, now: datetime) -> str | None:
    """``2 days 4 h left``, ``3 h 20 min left``, ``12 min left``, ``time is up`` for an
    ISO deadline; None without one."""
    if not deadline:
        return None
    try:
        seconds = (datetime.fromisoformat(deadline) - now).total_seconds()
    except (TypeError, ValueError):
        return None
    if seconds <= 0:
        return T("time is up")
    minutes = int(seconds // 60)
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    # Texts: English here, said in the reader's language by the page
    if days:
        return P("%(n)s day %(hours)s h left", "%(n)s days %(hours)s h left", days,
                 hours=hours)
    if hours:
        return T("%(hours)s h %(mins)s min left", hours=hours, mins=mins)
    return T("%(mins)s min left", mins=max(mins, 1))


SCORE_FIELDS = ("score", "prestige", "vp")  # a player's public score in a view's players
SEAT_LISTS = ("players", "guilds", "seats")  # a view's per-seat lists, seat order


def _scores_of(value: Any, n: int) -> list[float | None] | None:
    """Scores by seat as numbers, from what views and outcomes hold: a list by seat
    (seats past ``n``, such as an automaton, are left out), ``{"totals": [...]}``, or a
    dict keyed by seat; None if there are none."""
    if isinstance(value, dict):
        value = value["totals"] if isinstance(value.get("totals"), list) else [
            value.get(str(s), value.get(s)) for s in range(n)]  # type: ignore[call-overload]
    if not isinstance(value, list) or len(value) < n:
        return None
    out = [float(v) if isinstance(v, Real) and not isinstance(v, bool) else None
           for v in value[:n]]
    return out if any(v is not None for v in out) else None


def view_scores(view: dict[str, Any], n: int) -> list[float | None] | None:
    """The public scores a view shows: its ``scores``, else the score, prestige or VP of
    each entry of its per-seat list (``players``, ``guilds`` or ``seats``)."""
    scores = _scores_of(view.get("scores"), n)
    for key in SEAT_LISTS:
        seats = view.get(key)
        if scores is not None or not isinstance(seats, list) or len(seats) < n \
                or not all(isinstance(p, dict) for p in seats[:n]):
            continue
        for name in SCORE_FIELDS:
            scores = _scores_of([p.get(name) for p in seats[:n]], n)
            if scores is not None:
                break
    return scores


def chart_names(table) -> list[str]:
    """Whose scores a finished game's chart draws: the outcome's names where it ranks
    more than the players (a solo game's automaton), else the players'."""
    outcome = table.outcome() or {}
    names = outcome.get("names") if isinstance(outcome, dict) else None
    if isinstance(names, list) and len(names) > len(table.names):
        return [str(n) for n in names]
    return list(table.names)


def score_series(games: GameService, game_id: str, seat: int, seats: int | None = None
                 ) -> list[tuple[int, list[float | None]]]:
    """Public scores over the game as ``seat`` saw them: ``(version, scores by seat)`` at
    most :data:`CHART_POINTS` sampled versions (the view's ``scores`` field), ending with
    the outcome's; ``seats`` scores each (default: one per player; more for a solo
    game's automaton).  One fold of the log; cached per (game, version, seat, seats)."""
    last = games.store.version(game_id)
    name = f"{game_id}:{last}:{seat}:{seats}"
    cached = _charts.get(name)
    if cached is not None:
        return cached
    every = max(1, math.ceil(last / CHART_POINTS))
    series: list[tuple[int, list[float | None]]] = []
    for table, _event in games.replayer.walk(game_id):
        if table is None or table.version % every:
            continue
        scores = view_scores(table.game.view(table.state, seat), seats or len(table.names))
        if scores is not None:
            series.append((table.version, scores))
    final = games.load(game_id)
    outcome = final.outcome() or {}
    scores = _scores_of(outcome.get("scores"), seats or len(final.names))
    if scores is not None:
        series = [p for p in series if p[0] < final.version] + [(final.version, scores)]
    _charts[name] = series
    return series


def score_chart(series: list[tuple[int, list[float | None]]], names: list[str]) -> str | None:
    """An SVG line chart of ``series`` (one line per seat, in its colour); None if fewer
    than two points."""
    if len(series) < 2:
        return None
    width, height, left, right, top, bottom = 640, 260, 48, 16, 40, 36
    versions = [v for v, _ in series]
    values = [x for _, scores in series for x in scores if x is not None]
    lo, hi = min(0.0, min(values)), max(1.0, max(values))
    v0, v1 = versions[0], max(versions[-1], versions[0] + 1)

    def at(version: int, value: float) -> tuple[float, float]:
        x = left + (width - left - right) * (version - v0) / (v1 - v0)
        y = height - bottom - (height - top - bottom) * (value - lo) / (hi - lo)
        return x, y

    d = svg.Drawing(width, height, title="Scores over the game",
                    description="; ".join(f"{names[s]} ended on {series[-1][1][s]:g}"
                                          for s in range(len(names))
                                          if series[-1][1][s] is not None))
    d.line(left, top - 6, left, height - bottom)
    d.line(left, height - bottom, width - right, height - bottom)
    for value in (lo, (lo + hi) / 2, hi):
        _, y = at(v0, value)
        d.text(left - 6, y + 4, f"{value:g}", size=11, anchor="end", fill=svg.MUTED)
    for version, anchor in ((v0, "start"), (v1, "end")):
        x, _ = at(version, lo)
        d.text(x, height - bottom + 16, f"move {version}", size=11, anchor=anchor,
               fill=svg.MUTED)
    for seat, name in enumerate(names):
        colour = svg.seat_colour(seat)
        points = [at(v, s[seat]) for v, s in series if s[seat] is not None]
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
            d.line(x1, y1, x2, y2, stroke=colour, stroke_width=2.5)
        d.circle(left + 10 + 130 * seat, 16, 6, fill=colour, stroke=None)
        d.text(left + 20 + 130 * seat, 21, name, size=13)
    return d.render()
