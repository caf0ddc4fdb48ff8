"""The board on a phone fits the phone at a legible scale (issue 29, item 1): at 390 px
(a phone: ``is_mobile``, two device pixels a CSS px) the game page shows the game's
narrow picture scaled so its smallest text is 11 CSS px, and that picture is drawn for
the phone, not shrunk from the desk's, so it needs no sideways panning: at positions of
a random game (every :data:`EVERY` th move up to :data:`PLIES`) the picture's right edge
and every one of its texts lie inside the viewport, the smallest text is 11 CSS px or
more, the board does not pan, and every target a legal move names is drawn there and
can be clicked (``click_every_target`` of the table layout test).

Screenshots go to ``test-artifacts/screenshots/phone-fit-<kind>-<move>.png`` (the
picture) and ``...-<move>-page.png`` (what the player sees on arrival).  Only the kinds
whose narrow picture was redrawn for the phone are listed in :data:`KINDS`.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from events.store import key
from tests.browser.conftest import PHONE
from tests.browser.test_table_layout import click_every_target

pytestmark = pytest.mark.browser

KINDS = ["feudum-guilds", "architects", "kings-guild"]
PLAYERS = 3
EVERY = 40  # moves between the positions looked at
PLIES = 400  # how far the game is played
MIN_TEXT = 11  # CSS px

MEASURE = """() => {
  const figure = document.querySelector('#picture');
  const svg = [...figure.querySelectorAll('svg')].find(s => s.getClientRects().length);
  const scale = svg.getScreenCTM().a;
  const box = svg.getBoundingClientRect();
  let least = Infinity, smallest = '';
  const outside = [];
  for (const t of svg.querySelectorAll('text')) {
    if (!t.getClientRects().length || !t.textContent.trim()) continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (size < least) { least = size; smallest = t.textContent.trim(); }
    const r = t.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth) {
      outside.push(`${t.textContent.trim()} at ${r.left.toFixed(1)}..${r.right.toFixed(1)}`);
    }
  }
  return {natural: parseFloat(svg.getAttribute('width')), scale, left: box.left,
          right: box.right, width: box.width, inner: innerWidth,
          smallest: Math.round(least * 100) / 100, smallest_text: smallest, outside,
          pans: figure.classList.contains('pans'),
          zoom: !!figure.querySelector('button.zoom:not([hidden])'),
          scroll_width: document.documentElement.scrollWidth,
          targets: [...svg.querySelectorAll('[data-target]')].map(e => {
            const r = e.getBoundingClientRect();
            return [e.getAttribute('data-target'), r.left, r.right, r.width * r.height];
          })};
}"""


@pytest.mark.parametrize("kind", KINDS)
def test_the_phone_s_picture_fits_the_phone_with_its_text_legible(live, browser, shots, kind):
    gid = live.rt.games.create(kind, [{"name": n, "email": f"{n.lower()}@example.com"}
                                      for n in ("Ann", "Bob", "Cy", "Di")[:PLAYERS]]).game_id
    tab = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                           has_touch=True)
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    chooser = random.Random(7)
    figures: list[dict] = []
    for ply in range(PLIES + 1):
        table = live.rt.games.load(gid)
        if not table.to_act():
            break
        seat = min(table.to_act())
        moves = table.game.legal_moves(table.state, seat)
        if ply % EVERY == 0:
            # a deadline two days off, so the picture's header carries it
            due = (datetime.now(UTC) + timedelta(days=2, hours=4)).isoformat()
            live.rt.redis.hset(key(gid, "awaiting"), str(seat), json.dumps({"deadline": due}))
            targets = sorted({t for m in moves for t in table.game.move_targets(m)})
            tab.goto(live.base + "/play/" + live.rt.links.make(gid, seat, "play"))
            at = tab.evaluate(MEASURE)
            tab.screenshot(path=str(shots / f"phone-fit-{kind}-{ply}-page.png"))
            where = f"move {ply}, seat {seat}"
            assert at["natural"] < 500, where  # the narrow picture, not the desk's
            assert at["left"] >= 0 and at["right"] <= at["inner"], (where, at["right"])
            assert at["outside"] == [], (where, at["outside"])
            assert at["smallest"] >= MIN_TEXT, (where, at["smallest"], at["smallest_text"])
            assert not at["pans"] and not at["zoom"], where  # nothing to pan to
            assert at["scroll_width"] <= at["inner"], where
            drawn = {name: (left, right, area) for name, left, right, area in at["targets"]}
            for name in targets:
                assert name in drawn, (where, name)
                left, right, area = drawn[name]
                assert area > 0 and left >= 0 and right <= at["inner"], (where, name)
            clicked, blocked = click_every_target(tab, targets)
            assert blocked == [] and clicked == len(targets), (where, blocked)
            # the whole picture, without the turn bar and the action bar over it
            tab.evaluate("document.querySelectorAll('.turn-bar, #move-form')"
                         ".forEach(e => { e.style.display = 'none'; })")
            tab.locator("#picture").screenshot(path=str(shots / f"phone-fit-{kind}-{ply}.png"))
            figures.append({"move": ply, "seat": seat, "targets": len(targets),
                            **{k: at[k] for k in ("natural", "scale", "width",
                                                  "smallest", "smallest_text")}})
        live.rt.games.play(gid, seat, chooser.choice(moves), table.version)
    assert len(figures) >= 5, figures
    assert errors == [], errors
    out = shots.parent / f"phone-fit-{kind}.json"
    out.write_text(json.dumps(figures, indent=2))
