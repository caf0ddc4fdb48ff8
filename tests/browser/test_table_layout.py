"""The game page as a table, in Chromium at a desk (1280 px) and on a phone (390 px),
for each real game in a mid-game position (issue 29, items 1-3):

* at 1280 the move form is in view on arrival, beside the board;
* at 390 the page never scrolls sideways, the turn bar is at the top, the action bar at
  the bottom, and the smallest text of the board is 11 CSS px or more (font size times
  the scale the SVG is drawn at);
* every target of every legal move can be clicked at its centre: nothing lies over it
  (``elementFromPoint``), and the click picks it, named in the game's words;
* the turn bar counts down to the deadline.

Screenshots go to ``test-artifacts/screenshots/table-<kind>-<width>.png`` (what a player
sees on arrival) and ``...-full.png`` (the whole page); the figures measured are written
to ``test-artifacts/table-layout-<kind>.json``.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from events.store import key
from tests.browser.conftest import DESKTOP, PHONE, ROOT

pytestmark = pytest.mark.browser

KINDS = {"architects": 3, "feudum-guilds": 3, "kings-guild": 3}
MIN_TEXT = 11  # CSS px: the smallest board text on a phone

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

# Where a target's centre is, once scrolled to the middle of the screen, and what lies
# there: the target itself (or a shape inside it), else what covers it.
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
  const x = (Math.max(r.left, 0) + Math.min(r.right, innerWidth)) / 2;
  const y = (Math.max(r.top, top) + Math.min(r.bottom, bottom)) / 2;
  const hit = document.elementFromPoint(x, y);
  const clear = !!hit && (hit === el || el.contains(hit));
  const over = clear || !hit ? '' : (hit.closest('[data-target]') ?
    'target ' + hit.closest('[data-target]').getAttribute('data-target') :
    hit.tagName + (hit.id ? '#' + hit.id : '') +
    (typeof hit.className === 'string' && hit.className ? '.' + hit.className : ''));
  return {x, y, clear, over};
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


def click_every_target(tab, targets: list[str]) -> tuple[int, list[str]]:
    """Click each target at its centre; (clicked, the ones that could not be)."""
    clicked, blocked = 0, []
    for name in targets:
        probe = tab.evaluate(PROBE, name)
        if probe.get("missing"):
            blocked.append(f"{name}: not in the picture shown")
            continue
        if not probe["clear"]:
            blocked.append(f"{name}: covered by {probe['over']}")
            continue
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
