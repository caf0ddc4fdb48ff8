"""The game page as a table, in Chromium at a desk (1280 px) and on a phone (390 px),
for each real game in a mid-game position (issue 29, items 1-3):

* at 1280 the move form is in view on arrival, beside the board;
* at 390 the page never scrolls sideways, the turn bar is at the top, the action bar at
  the bottom, and the smallest text of the board is 11 CSS px or more (font size times
  the scale the SVG is drawn at);
* every target of every legal move can be clicked: at its centre, or if something lies
  over that (an item on its quest card) at a point where it shows (``elementFromPoint``
  finds it there), and the click picks it, named in the game's words; in a game played
  at random, at both widths, every target of every legal move at positions with new
  kinds of target (the phone's narrow picture must have them all);
* the turn bar counts down to the deadline.

Screenshots go to ``test-artifacts/screenshots/table-<kind>-<width>.png`` (what a player
sees on arrival) and ``...-full.png`` (the whole page); the figures measured are written
to ``test-artifacts/table-layout-<kind>.json``.
"""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from events.store import key
from tests.browser.conftest import DESKTOP, PHONE, ROOT

pytestmark = pytest.mark.browser

KINDS = {"architects": 3, "feudum-guilds": 3, "kings-guild": 3}
MIN_TEXT = 11  # CSS px: the smallest board text on a phone
PLIES = 400  # how far a game is played looking for positions with new kinds of target
POSITIONS = 12  # positions clicked through at most per game

SMALLEST_TEXT = """() => {
  const svg = [...document.querySelectorAll('#picture svg')].find(s => s.getClientRects().length);
  const scale = svg.getScreenCTM().a;
  let least = Infinity, where = '';
  for (const t of svg.querySelectorAll('text')) {
    if (!t.getClientRects().length || !t.textContent.trim()) continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (size < least) { least = size; where = t.textContent.trim().slice(0, 30); }
  }
  return {px: Math.round(least * 100) / 100, text: where, width: svg.getBoundingClientRect().width};
}"""

# Where to click a target, once scrolled to the middle of the screen: its centre if
# nothing lies over it there (``elementFromPoint`` finds the target itself or a shape
# inside it), else the first of a grid of points over its box where it is topmost (a
# player clicks the part of a card that shows); what covers its centre if it is topmost
# nowhere.
PROBE = """(name) => {
  const el = [...document.querySelectorAll('#picture [data-target]')]
    .find(e => e.getAttribute('data-target') === name && e.getClientRects().length);
  if (!el) return {missing: true};
  el.scrollIntoView({block: 'center', inline: 'center'});
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('#move-form');
  const fixed = bar && getComputedStyle(bar).position === 'fixed';
  const bottom = fixed ? bar.getBoundingClientRect().top : innerHeight;
  const turn = document.querySelector('.turn-bar');
  const top = turn ? Math.max(0, turn.getBoundingClientRect().bottom) : 0;
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const high = Math.max(r.top, top), low = Math.min(r.bottom, bottom);
  const mine = (x, y) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit)) && hit.closest('[data-target]') === el;
  };
  const x = (left + right) / 2, y = (high + low) / 2;
  if (mine(x, y)) return {x, y, clear: true, over: ''};
  const STEPS = 8;
  for (let i = 1; i < STEPS; i++) {
    for (let j = 1; j < STEPS; j++) {
      const px = left + (right - left) * j / STEPS, py = high + (low - high) * i / STEPS;
      if (mine(px, py)) return {x: px, y: py, clear: true, over: '', moved: true};
    }
  }
  const hit = document.elementFromPoint(x, y);
  const over = !hit ? 'nothing' : (hit.closest('[data-target]') ?
    'target ' + hit.closest('[data-target]').getAttribute('data-target') :
    hit.tagName + (hit.id ? '#' + hit.id : '') +
    (typeof hit.className === 'string' && hit.className ? '.' + hit.className : ''));
  return {x, y, clear: false, over};
}"""


def mid_game(live, kind: str, players: int, seed: int = 7, plies: int = 60):
    """A game of ``kind`` played at random for ``plies`` moves and then on until the seat
    to act has moves made on the picture; (game id, that seat)."""
    gid = live.rt.games.create(kind, [{"name": n, "email": f"{n.lower()}@example.com"}
                                      for n in ("Ann", "Bob", "Cy", "Di")[:players]]).game_id
    chooser = random.Random(seed)
    for ply in range(plies + 200):
        table = live.rt.games.load(gid)
        seat = min(table.to_act())
        moves = table.game.legal_moves(table.state, seat)
        targets = {t for m in moves for t in table.game.move_targets(m)}
        if ply >= plies and len(targets) >= 3:
            break
        live.rt.games.play(gid, seat, chooser.choice(moves), table.version)
    due = (datetime.now(UTC) + timedelta(days=2, hours=4, minutes=30)).isoformat()
    live.rt.redis.hset(key(gid, "awaiting"), str(seat), json.dumps({"deadline": due}))
    return gid, seat


@pytest.fixture(params=list(KINDS))
def game_page(request, live):
    kind = request.param
    gid, seat = mid_game(live, kind, KINDS[kind])
    table = live.rt.games.load(gid)
    targets = sorted({t for m in table.game.legal_moves(table.state, seat)
                      for t in table.game.move_targets(m)})
    return kind, live.base + "/play/" + live.rt.links.make(gid, seat, "play"), targets


def click_every_target(tab, targets: list[str],
                       off_centre: list[str] | None = None) -> tuple[int, list[str]]:
    """Click each target where :data:`PROBE` finds it showing; (clicked, the ones that
    could not be).  ``off_centre`` gets the ones clicked away from their centre."""
    clicked, blocked = 0, []
    for name in targets:
        probe = tab.evaluate(PROBE, name)
        if probe.get("missing"):
            blocked.append(f"{name}: not in the picture shown")
            continue
        if not probe["clear"]:
            blocked.append(f"{name}: covered by {probe['over']}")
            continue
        if probe.get("moved") and off_centre is not None:
            off_centre.append(name)
        tab.mouse.click(probe["x"], probe["y"])
        picked = tab.evaluate("(n) => [...document.querySelectorAll('#picture .target.picked')]"
                              ".some(e => e.getAttribute('data-target') === n)", name)
        path = tab.locator(".builder .path").inner_text()
        if not picked or f"on the board: {name}" in path:  # named in words, not by id
            blocked.append(f"{name}: not picked ({path!r})")
        else:
            clicked += 1
        tab.click(".builder button[data-act=reset]")
    return clicked, blocked


def test_the_table_at_a_desk_and_on_a_phone(game_page, browser, shots):
    kind, url, targets = game_page
    figures: dict = {"kind": kind, "targets": len(targets)}
    for viewport in (DESKTOP, PHONE):
        width = viewport["width"]
        tab = browser.new_page(viewport=viewport, device_scale_factor=1 if width > 500 else 2,
                               is_mobile=width < 500, has_touch=width < 500)
        errors: list[str] = []
        tab.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        tab.on("console", lambda m, errors=errors: errors.append(m.text)
               if m.type == "error" else None)
        tab.goto(url)
        tab.screenshot(path=str(shots / f"table-{kind}-{width}.png"))
        tab.screenshot(path=str(shots / f"table-{kind}-{width}-full.png"), full_page=True)
        form = tab.evaluate("(() => { const r = document.querySelector('#move-form')"
                            ".getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; })()")
        done = tab.locator("#move-form button[type=submit]").bounding_box()
        at = {"form_top": round(form["top"]), "done_bottom": round(done["y"] + done["height"]),
              "page_height": tab.evaluate("document.documentElement.scrollHeight"),
              "scroll_width": tab.evaluate("document.documentElement.scrollWidth"),
              "text": tab.evaluate(SMALLEST_TEXT)}
        assert "left" in tab.locator("#turn-bar #countdown").inner_text()
        assert tab.locator("#turn-bar").inner_text().startswith("Your turn")
        if width == DESKTOP["width"]:
            assert at["form_top"] < viewport["height"], at  # the move form is in view
            assert at["done_bottom"] <= viewport["height"], at  # and so is "Done"
        else:
            assert at["scroll_width"] <= width, at  # no sideways scroll
            assert at["text"]["px"] >= MIN_TEXT, at  # the board's text can be read
            turn = tab.locator("#turn-bar").bounding_box()
            assert turn["y"] < 80, turn  # the turn bar at the top
            assert viewport["height"] - 2 <= done["y"] + done["height"] + 40 \
                or done["y"] > viewport["height"] / 2, done  # the action bar at the bottom
        at["clicked"], at["blocked"] = click_every_target(tab, targets)
        figures[str(width)] = at
        assert errors == [], errors
        tab.close()
    out = ROOT / "test-artifacts" / f"table-layout-{kind}.json"
    out.write_text(json.dumps(figures, indent=2))
    for width in ("1280", "390"):
        assert figures[width]["blocked"] == [], (width, figures[width]["blocked"])
        assert figures[width]["clicked"] == len(targets)


def shape_kind(target: str) -> str:
    """A target's kind: ``quest:#``, ``item:#:#``, ``loc:quarry``, ``mine:prison``."""
    return re.sub(r"\d+", "#", target)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_live_target_of_a_game_can_be_clicked_at_both_widths(live, browser, kind):
    """A game played at random: at each position whose seat to act has a target of a kind
    not clicked yet, every target of every legal move is clicked (see :data:`PROBE`) at
    1280 and at 390 px; the figures go to ``test-artifacts/table-clicks-<kind>.json``."""
    gid = live.rt.games.create(kind, [{"name": n, "email": f"{n.lower()}@example.com"}
                                      for n in ("Ann", "Bob", "Cy")[:KINDS[kind]]]).game_id
    tabs = {DESKTOP["width"]: browser.new_page(viewport=DESKTOP),
            PHONE["width"]: browser.new_page(viewport=PHONE, device_scale_factor=2,
                                             is_mobile=True, has_touch=True)}
    chooser = random.Random(11)
    seen: set[str] = set()
    report: dict = {"positions": 0, "targets": 0, "clicked": {}, "blocked": {},
                    "off_centre": {}}
    for _ in range(PLIES):
        table = live.rt.games.load(gid)
        if not table.to_act():
            break
        seat = min(table.to_act())
        moves = table.game.legal_moves(table.state, seat)
        targets = sorted({t for m in moves for t in table.game.move_targets(m)})
        if {shape_kind(t) for t in targets} - seen and report["positions"] < POSITIONS:
            seen |= {shape_kind(t) for t in targets}
            report["positions"] += 1
            report["targets"] += len(targets)
            url = live.base + "/play/" + live.rt.links.make(gid, seat, "play")
            for width, tab in tabs.items():
                tab.goto(url)
                clicked, blocked = click_every_target(
                    tab, targets, report["off_centre"].setdefault(width, []))
                report["clicked"][width] = report["clicked"].get(width, 0) + clicked
                report["blocked"].setdefault(width, []).extend(
                    f"v{table.version} {b}" for b in blocked)
        live.rt.games.play(gid, seat, chooser.choice(moves), table.version)
    report["kinds"] = sorted(seen)
    out = ROOT / "test-artifacts" / f"table-clicks-{kind}.json"
    out.write_text(json.dumps(report, indent=2))
    assert report["positions"] > 0, report
    assert report["blocked"] == {w: [] for w in tabs}, report["blocked"]
    assert all(n == report["targets"] for n in report["clicked"].values()), report
