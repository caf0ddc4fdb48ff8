"""The Feudum table as one SVG picture, drawn from a seat's view only.

Top to bottom: who is to act and the victory points; the epoch and round with what is
asked now; the six guilds with their ranks taken by colour; the guild boards (the Farmer's
barn and chickens, the Merchant's market, the Alchemist's carts and vessels, the Knight's
rows and monsters, the Noble's scrolls, the Monk's rosary) and the region tiles; then one
panel per player: goods, shillings, pawns, locations, seals, vessels, action cards and
writs (a hand only for its owner, as in the view).

Shapes a move acts on carry ``data-target`` names that :func:`targets` gives for a move.

For an email (``table["medium"] == "email"``) the same panels are stacked
:data:`EMAIL_WIDTH` units wide instead of side by side 820 wide (a phone shows an email
picture about 340 px wide: the 820-wide table's small print fell to 4 px), the guilds
three to a row, each player's panel re-flowed, and no tooltips.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from games.feudum_guilds.components import GUILDS
from games.feudum_guilds.rounds import CARD_NAMES
from games.feudum_guilds.views import CARD_TEXT
from games.svg import HIGHLIGHT, INK, MUTED, Drawing, for_email, header, plural, seat_colour

WIDTH = 820
EMAIL_WIDTH = 420  # the knight's panel (400) and a margin
GOODS = ["food", "wood", "iron", "sulfur", "saltpeter"]
GOOD_COLOUR = {"food": "#C9A227", "wood": "#8B5A2B", "iron": "#7F8C8D", "sulfur": "#E8D44D",
               "saltpeter": "#E6E6E6"}
GOOD_LETTER = {"food": "F", "wood": "W", "iron": "I", "sulfur": "S", "saltpeter": "P"}
GUILD_COLOUR = {"farmer": "#D9EAD3", "merchant": "#FCE5CD", "alchemist": "#D9D2E9",
                "knight": "#F4CCCC", "noble": "#CFE2F3", "monk": "#EAD1DC"}
VESSELS = ["ship", "submersible", "flying_machine"]
NEUTRAL = "#999999"


def targets(move: dict[str, Any]) -> list[str]:
    """The picture's shapes a move names (see the module docstring)."""
    t = move.get("type")
    if t in ("guild", "feast", "start_pawn", "migrate", "retire"):
        return [f"guild:{move['guild']}"]
    if t == "improve" and "guild" in move:
        return [f"location:{move['location']}", f"guild:{move['guild']}"]
    if t in ("harvest", "improve", "send_farm"):
        return [f"location:{move['location']}"]
    if t in ("play", "repeat"):
        return [f"card:{move['card']}"]
    if t == "select":
        return [f"card:{c}" for c in move["cards"]]
    if t in ("buy", "move_good"):
        return [f"good:{move['good']}"]
    if t == "setup_goods":
        return [f"good:{g}" for g in move["goods"]]
    if t in ("keep_writ", "discard_writ", "seal_charter", "mandate"):
        return [f"writ:{move['writ']}"]
    if t in ("buy_vessel", "invent"):
        what = move.get("vessel", move.get("what"))
        return [f"vessel:{what}"] if what in VESSELS else []
    if t == "flip":
        return [f"scroll:{move['scroll']}"]
    if t == "seal":
        return [f"scroll:{move['scroll']}"]
    if t == "tile":
        return [f"stack:{move['stack']}"]
    if t == "pick":
        return [f"fist:{move['fist']}"]
    if t == "defeat":
        return [f"monster:{move['monster']}"]
    return []


def _title(word: str) -> str:
    return str(word).replace("_", " ").title()


class _Changes:
    """What differs from the view this seat had at its last move."""

    def __init__(self, view: dict[str, Any], previous: dict[str, Any] | None) -> None:
        self.view, self.previous = view, previous

    def __call__(self, *path: Any) -> bool:
        if self.previous is None:
            return False
        now, then = self.view, self.previous
        for step in path:
            try:
                now, then = now[step], then[step]
            except (KeyError, IndexError, TypeError):
                return True
        return now != then


def draw(view: dict[str, Any], table: dict[str, Any]) -> str:
    """The picture of ``view`` (one seat's view) for the table context ``table``."""
    players = view["players"]
    names = table.get("names") or [p["name"] for p in players]
    viewer = view.get("seat")
    changed = _Changes(view, table.get("previous"))
    email = for_email(table)
    height = 640 + 250 * len(players)
    d = Drawing(EMAIL_WIDTH if email else WIDTH, height,
                title=f"Feudum, epoch {view['epoch']}, round {view['round']}"
                + (f", seen by {names[viewer]}" if viewer is not None else ""),
                tooltips=not email)
    y = header(d, {**table, "names": names, "to_act": view["to_act"]},
               scores={p["seat"]: plural(p["vp"], "vp", "vp") for p in players})
    y = _status(d, view, names, y + 6, email)
    y = _guilds(d, view, changed, y + 8, email)
    y = _boards(d, view, changed, y + 10, email)
    y = _pending(d, view, viewer, y + 6, email)
    for p in players:
        if email:
            y = _player_email(d, view, p, viewer, changed, y + 8)
        else:
            y = _player(d, view, p, viewer, changed, y + 8)
    d.height = int(y + 10)
    return d.render()


def _status(d: Drawing, view: dict[str, Any], names: list[str], y: float,
            email: bool = False) -> float:
    d.text(10, y + 16, "Epoch", size=13, fill=MUTED)
    for e in range(1, 6):
        x = 60 + (e - 1) * 34
        current = e == view["epoch"]
        with d.group(title=f"Epoch {e}" + (" (now)" if current else "")):
            d.rect(x, y + 2, 28, 20, fill=HIGHLIGHT if current else "#FFFFFF", rx=4)
            d.text(x + 14, y + 17, ["I", "II", "III", "IV", "V"][e - 1], size=12,
                   anchor="middle", weight="bold" if current else None)
    if email:  # no room beside the epochs
        y += 22
        d.text(10, y + 17, f"Round {view['round']} · phase: {view['phase']}", size=13)
    else:
        d.text(240, y + 17, f"Round {view['round']} · phase: {view['phase']}", size=13)
    pending = view.get("pending")
    if pending and pending.get("seat") is not None:
        who = names[pending["seat"]] if pending["seat"] < len(names) else "?"
        card = f" ({_title(pending['card'])})" if pending.get("card") else ""
        lines = _wrap(f"{who}: {pending['prompt']}{card}", d.width - 20, 13)
        for k, line in enumerate(lines):
            d.text(10, y + 40 + 16 * k, line, size=13, weight="bold")
        y += 16 * (len(lines) - 1)
    elif view["phase"] == "select":
        d.text(10, y + 40, "Everyone secretly selects action cards", size=13, weight="bold")
    return y + 48


def _wrap(text: str, width: float, size: float) -> list[str]:
    """Greedy word wrap for ``width`` units at font ``size`` (about 0.58 em a letter)."""
    per_line = max(4, int(width / (size * 0.58)))
    lines: list[str] = []
    for word in str(text).split():
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _guilds(d: Drawing, view: dict[str, Any], changed: _Changes, y: float,
            email: bool = False) -> float:
    per_row = 3 if email else len(GUILDS)
    w = (d.width - 20) / per_row
    top = y
    for i, g in enumerate(GUILDS):
        x = 10 + (i % per_row) * w
        y = top + (i // per_row) * 100
        guild = view["guilds"][g]
        taken = ", ".join(f"{s['rank']}: {s['name']}" for s in guild["seats"] if s["name"])
        with d.group(target=f"guild:{g}", highlight=changed("guilds", g),
                     title=f"{_title(g)} guild, patron {guild['patron']}"
                     f"{'; ' + taken if taken else '; no ranks taken'}"
                     f"; {plural(view['feudums'].get(g, 0), 'feudum')} left"):
            d.rect(x + 2, y, w - 4, 96, fill=GUILD_COLOUR[g], rx=6,
                   stroke=HIGHLIGHT if changed("guilds", g) else INK,
                   stroke_width=3 if changed("guilds", g) else 1)
            d.text(x + w / 2, y + 18, _title(g), size=14, anchor="middle", weight="bold")
            d.text(x + w / 2, y + 33, guild["patron"], size=10, anchor="middle", fill=MUTED)
            for r, s in enumerate(guild["seats"]):
                cy = y + 50 + r * 18
                colour = seat_colour(s["seat"]) if s["seat"] is not None else "#FFFFFF"
                d.circle(x + 16, cy - 4, 6, fill=colour)
                d.text(x + 26, cy, s["rank"][:4].title() + "." if len(s["rank"]) > 6
                       else s["rank"].title(), size=10)
            d.text(x + w - 8, y + 90, f"feudums {view['feudums'].get(g, 0)}", size=9,
                   anchor="end", fill=MUTED)
    return top + 100 * -(-len(GUILDS) // per_row)


def _good(d: Drawing, x: float, y: float, good: str, count: int | str, size: float = 9) -> None:
    """A good's square (with its initial) and a count."""
    with d.group(title=f"{good}: {count}" if count != "" else good):
        d.rect(x, y - size, size * 1.6, size * 1.6, fill=GOOD_COLOUR[good], rx=2)
        d.text(x + size * 0.8, y + size * 0.3, GOOD_LETTER[good], size=size * 1.1,
               anchor="middle", fill="#FFFFFF" if good in ("wood", "iron") else INK)
        d.text(x + size * 2, y + size * 0.5, f"{count}", size=11)


def _boards(d: Drawing, view: dict[str, Any], changed: _Changes, y: float,
            email: bool = False) -> float:
    def moved(dx: float, dy: float):
        """In an email, a panel drawn at its page place is moved into the one column."""
        return d.group(transform=f"translate({dx},{dy})") if email else nullcontext()

    # Farmer: barn and chickens
    farmer = view["farmer"]
    with d.group(highlight=changed("farmer"),
                 title=f"Farmer's barn: {sum(farmer['barn'].values())} of "
                       f"{farmer['capacity']} goods; chickens {farmer['chicken_sum']}; "
                       f"purse {farmer['purse']}s"):
        _panel(d, 10, y, 260, 110, "Farmer's barn", changed("farmer"))
        for i, good in enumerate(GOODS):
            _good(d, 20 + i * 48, y + 40, good, farmer["barn"].get(good, 0))
        chickens = " ".join("·" if c is None else str(c) for c in farmer["chickens"])
        d.text(20, y + 72, f"Chickens: {chickens} (sum {farmer['chicken_sum']})", size=11)
        d.text(20, y + 92, f"Purse: {farmer['purse']}s", size=11)
    # Merchant: the market, one row per good
    market = view["merchant"]["market"]
    with moved(-270, 120):
        _panel(d, 280, y, 260, 110, "Merchant's market", changed("merchant"))
        for i, good in enumerate(g for g in GOODS if g in market):
            row = market[good]
            price = f"{row['price_now']}s" if row["price_now"] is not None else "sold out"
            with d.group(target=f"good:{good}", title=f"{_title(good)}: {row['count']} at "
                         f"the market, {price}"):
                gy = y + 36 + i * 15
                _good(d, 290, gy, good, "", size=7)
                d.text(308, gy + 4, f"{good} ×{row['count']}  {price}", size=11)
    # Alchemist: carts and vessels
    alch = view["alchemist"]
    with moved(-540, 240):
        _panel(d, 550, y, 260, 110, "Alchemist", changed("alchemist"))
        for i, good in enumerate(GOODS):
            _good(d, 560 + i * 48, y + 40, good, alch["carts"].get(good, 0))
        for i, vessel in enumerate(VESSELS):
            with d.group(target=f"vessel:{vessel}", title=f"{_title(vessel)}: "
                         f"{alch['vessel_supply'].get(vessel, 0)} in supply, "
                         f"{alch['vessel_space'].get(vessel, 0)} space"):
                vx = 560 + i * 82
                d.rect(vx, y + 60, 76, 40, fill="#FFFFFF", rx=4)
                d.text(vx + 38, y + 76, _title(vessel).replace("Flying Machine", "Flyer"),
                       size=10, anchor="middle")
                d.text(vx + 38, y + 93, f"{alch['vessel_supply'].get(vessel, 0)} left",
                       size=10, anchor="middle", fill=MUTED)
    y += 360 if email else 120
    # Knight: rows of sections by colour, and the monsters
    knight = view["knight"]
    knight_h = 30 + 22 * len(knight["rows"]) + 24
    _panel(d, 10, y, 400, knight_h, "Knight's rows", changed("knight"))
    for i, row in enumerate(knight["rows"]):
        ry = y + 40 + i * 22
        colour = seat_colour(row["seat"]) if isinstance(row["seat"], int) else NEUTRAL
        d.text(20, ry + 4, row["colour"], size=11)
        for j, filled in enumerate(row["sections"]):
            d.rect(120 + j * 40, ry - 8, 34, 14, fill=colour if filled else "#FFFFFF", rx=3)
    my = y + 40 + len(knight["rows"]) * 22
    for i, (monster, owner) in enumerate(knight["monsters"].items()):
        with d.group(target=f"monster:{monster}", title=f"{_title(monster)}: "
                     + ("untamed" if owner is None else f"held by seat {owner}")):
            d.text(20 + i * 190, my + 4, f"{_title(monster)}: "
                   + ("free" if owner is None else "tamed"), size=11)
    # Noble: scrolls with seals; Monk: rosary
    noble, monk = view["noble"], view["monk"]
    with moved(-410, knight_h + 10):
        _panel(d, 420, y, 390, 60, "Noble's scrolls", changed("noble"))
        for i, sealed in enumerate(noble["scrolls"]):
            with d.group(target=f"scroll:{i}", title=f"Scroll S{i + 1}: "
                         + ("sealed" if sealed else "empty")):
                sx = 430 + i * 44
                d.rect(sx, y + 28, 38, 24, fill="#F6E7C1", rx=8)
                if sealed:
                    d.circle(sx + 19, y + 40, 7, fill="#B22222")
        d.text(800, y + 18, f"seals in supply: {noble['seal_supply']}", size=10,
               anchor="end", fill=MUTED)
        _panel(d, 420, y + 66, 390, 44, "Monk's rosary", changed("monk"))
        beads = " ".join(str(b) for b in monk["rosary"]) or "empty"
        d.text(430, y + 102, f"Beads {beads} (sum {monk['rosary_sum']}) · coffer "
               f"{monk['coffer']}s", size=11)
    y = y + knight_h + 10 + 116 if email else max(my + 16, y + 116)
    # Region tiles and the haversack
    d.text(10, y + 14, "Region tiles", size=12, weight="bold")
    for i, stack in enumerate(view["stacks"]):
        with d.group(target=f"stack:{i}", title=f"Tile stack {i + 1}: "
                     + (f"top from epoch {stack[0]}, {plural(len(stack), 'tile')}"
                        if stack else "empty")):
            tx = 100 + i * 54
            d.rect(tx, y, 46, 22, fill="#E8F0E0" if stack else "#FFFFFF", rx=3)
            d.text(tx + 23, y + 15, f"{stack[0]}·{len(stack)}" if stack else "—", size=10,
                   anchor="middle")
    hx, hy = (10, y + 30) if email else (440, y)  # an email: a line of its own
    d.text(hx, hy + 14, "Haversack", size=12, weight="bold")
    for i, good in enumerate(GOODS):
        _good(d, hx + 80 + i * 58, hy + 12, good, view["haversack"].get(good, 0))
    d.text(d.width - 10, hy + 36, f"Royal Writs in the deck: {view['writ_deck']}", size=10,
           anchor="end", fill=MUTED)
    return hy + 42


def _panel(d: Drawing, x: float, y: float, w: float, h: float, title: str,
           highlight: bool) -> None:
    d.rect(x, y, w, h, fill="#FFFFFF", rx=6, stroke=HIGHLIGHT if highlight else INK,
           stroke_width=3 if highlight else 1)
    d.text(x + 8, y + 18, title, size=13, weight="bold")


def _pending(d: Drawing, view: dict[str, Any], viewer: int | None, y: float,
             email: bool = False) -> float:
    pending = view.get("pending") or {}
    if pending.get("kind") == "fist_pick":
        d.text(10, y + 16, "The two fists", size=12, weight="bold")
        fists = pending.get("fists") or {}
        for i, fist in enumerate(("left", "right")):
            with d.group(target=f"fist:{fist}", title=f"The {fist} fist"
                         + (f": bead {fists[fist]}" if fist in fists else "")):
                d.rect(120 + i * 90, y, 80, 24, fill="#FFFFFF", rx=10)
                d.text(160 + i * 90, y + 16, f"{fist} {fists.get(fist, '?')}", size=11,
                       anchor="middle")
        return y + 30
    if pending.get("kind") == "writ_keep" and pending.get("cards"):
        d.text(10, y + 16, "Royal Writs drawn", size=12, weight="bold")
        if email:  # two to a row, below the heading
            for i, card in enumerate(pending["cards"]):
                _writ(d, 10 + (i % 2) * 150, y + 24 + (i // 2) * 40, card)
            return y + 24 + 40 * -(-len(pending["cards"]) // 2)
        for i, card in enumerate(pending["cards"]):
            _writ(d, 140 + i * 150, y, card)
        return y + 40
    return y


def _writ(d: Drawing, x: float, y: float, card: dict[str, Any]) -> None:
    detail = card.get("scores", card["kind"])
    with d.group(target=f"writ:{card['id']}", title=f"{card['name']} ({card['kind']}): "
                 f"{detail}"):
        d.rect(x, y, 140, 34, fill="#FFF8DC", rx=4)
        name = card["name"] if len(card["name"]) <= 21 else card["name"][:20].rstrip() + "…"
        d.text(x + 6, y + 14, name, size=11, weight="bold")  # the card is 140 wide
        d.text(x + 6, y + 28, str(detail)[:26], size=9, fill=MUTED)


def _player(d: Drawing, view: dict[str, Any], p: dict[str, Any], viewer: int | None,
            changed: _Changes, y: float) -> float:
    seat = p["seat"]
    mine = seat == viewer
    hand = p.get("hand") or []
    h = 178 + (44 if hand else 0)
    hot = changed("players", seat)
    with d.group(highlight=hot, title=f"{p['name']}: {plural(p['vp'], 'vp', 'vp')}, "
                 f"{plural(p['shillings'], 'shilling')}"):
        d.rect(10, y, WIDTH - 20, h, fill="#FFFFFF", rx=8,
               stroke=HIGHLIGHT if hot else seat_colour(seat), stroke_width=3)
        d.circle(26, y + 18, 8, fill=seat_colour(seat), stroke=None)
        d.text(40, y + 23, p["name"] + (" (you)" if mine else ""), size=15, weight="bold")
        d.text(WIDTH - 24, y + 23, f"{plural(p['vp'], 'vp', 'vp')} · "
               f"{plural(p['shillings'], 'shilling')} · {plural(p['seals'], 'seal')} · "
               f"{plural(p['markers'], 'marker')}", size=12, anchor="end")
    for i, good in enumerate(GOODS):
        _good(d, 24 + i * 52, y + 46, good, p["goods"].get(good, 0))
    vessels = ", ".join(f"{_title(v)} {n}" for v, n in p["vessels"].items() if n)
    d.text(300, y + 50, f"Wine barrel {p['wine_barrel']} · vessels: {vessels or 'none'}",
           size=11)
    pawns = ", ".join(_title(pw["guild"]) + (" (wine)" if pw["wine"] else "")
                      for pw in p["pawns"] if pw["guild"]) or "none in play"
    d.text(24, y + 72, f"Pawns: {pawns}", size=11)
    for i, loc in enumerate(p["locations"][:12]):
        lx = 24 + i * 64
        goods = sum(loc["goods"].values())
        title = (f"Location #{loc['id']}: {loc['kind']}"
                 + (f" ({_title(loc['guild'])})" if loc["guild"] else "")
                 + (f", {plural(goods, 'good')}" if goods else ""))
        with d.group(target=f"location:{loc['id']}" if mine else None, title=title):
            d.rect(lx, y + 82, 58, 30, fill=GUILD_COLOUR.get(loc["guild"] or "", "#F3F3F3"),
                   rx=4)
            d.text(lx + 29, y + 96, f"#{loc['id']} {loc['kind'][:7]}", size=9,
                   anchor="middle")
            if goods:
                d.text(lx + 29, y + 108, plural(goods, "good"), size=9, anchor="middle",
                       fill=MUTED)
    _cards(d, p, mine, y + 122)
    stars = ", ".join(f"{_title(g)} {n}" for g, n in p["stars"].items() if n)
    d.text(24, y + 170, f"Writs: {p['writs']}" + (f" · stars: {stars}" if stars else "")
           + f" · tiles {len(p['tiles'])} · service {p['military_service']}", size=11,
           fill=MUTED)
    for i, card in enumerate(hand):
        _writ(d, 24 + i * 150, y + 180, card)
    return y + h


def _player_email(d: Drawing, view: dict[str, Any], p: dict[str, Any],
                  viewer: int | None, changed: _Changes, y: float) -> float:
    """A player's panel re-flowed into an email's width: the same facts as
    :func:`_player`, one thing to a line where the page puts them side by side."""
    seat, width = p["seat"], d.width - 20
    mine = seat == viewer
    hand = p.get("hand") or []
    top = y
    stats = (f"{plural(p['vp'], 'vp', 'vp')} · {plural(p['shillings'], 'shilling')} · "
             f"{plural(p['seals'], 'seal')} · {plural(p['markers'], 'marker')}")
    d.circle(26, y + 18, 8, fill=seat_colour(seat), stroke=None)
    d.text(40, y + 23, p["name"] + (" (you)" if mine else ""), size=15, weight="bold")
    d.text(24, y + 42, stats, size=12)
    y += 64
    for i, good in enumerate(GOODS):
        _good(d, 24 + i * 52, y, good, p["goods"].get(good, 0))
    y += 4
    vessels = ", ".join(f"{_title(v)} {n}" for v, n in p["vessels"].items() if n)
    pawns = ", ".join(_title(pw["guild"]) + (" (wine)" if pw["wine"] else "")
                      for pw in p["pawns"] if pw["guild"]) or "none in play"
    for line in (_wrap(f"Wine barrel {p['wine_barrel']} · vessels: {vessels or 'none'}",
                       width - 28, 11) + _wrap(f"Pawns: {pawns}", width - 28, 11)):
        y += 16
        d.text(24, y + 4, line, size=11)
    per_row = int((width - 20) // 64)
    locations = p["locations"][:12]
    for i, loc in enumerate(locations):
        lx, ly = 24 + (i % per_row) * 64, y + 14 + (i // per_row) * 34
        goods = sum(loc["goods"].values())
        with d.group(target=f"location:{loc['id']}" if mine else None):
            d.rect(lx, ly, 58, 30, fill=GUILD_COLOUR.get(loc["guild"] or "", "#F3F3F3"), rx=4)
            d.text(lx + 29, ly + 14, f"#{loc['id']} {loc['kind'][:7]}", size=9,
                   anchor="middle")
            if goods:
                d.text(lx + 29, ly + 26, plural(goods, "good"), size=9, anchor="middle",
                       fill=MUTED)
    y += 14 + 34 * -(-len(locations) // per_row) + 6
    _cards(d, p, mine, y, per_row=4)
    y += 2 * 40
    stars = ", ".join(f"{_title(g)} {n}" for g, n in p["stars"].items() if n)
    for line in _wrap(f"Writs: {p['writs']}" + (f" · stars: {stars}" if stars else "")
                      + f" · tiles {len(p['tiles'])} · service {p['military_service']}",
                      width - 28, 11):
        y += 14
        d.text(24, y, line, size=11, fill=MUTED)
    y += 8
    for i, card in enumerate(hand):
        _writ(d, 24 + (i % 2) * 150, y + (i // 2) * 40, card)
    y += 40 * -(-len(hand) // 2) + 4
    hot = changed("players", seat)
    # the frame on top (stroke only), as tall as what it holds
    d.rect(10, top, width, y - top, fill="none", rx=8,
           stroke=HIGHLIGHT if hot else seat_colour(seat), stroke_width=3)
    return y


def _cards(d: Drawing, p: dict[str, Any], mine: bool, y: float, per_row: int = 8) -> None:
    """The eight action cards: the owner sees which are selected; everyone sees which
    were played (and how many are left once revealed)."""
    selected = set(p.get("selected") or [])
    played = p["played"]
    for i, card in enumerate(CARD_NAMES):
        x = 24 + (i % per_row) * 96
        y_card = y + (i // per_row) * 40
        state = ("played" if card in played else "selected" if card in selected
                 else "")
        fill = "#DDDDDD" if card in played else "#FFF2CC" if card in selected else "#FFFFFF"
        with d.group(target=f"card:{card}" if mine else None,
                     title=f"{_title(card)}" + (f" ({state})" if state else "")
                     + f": {CARD_TEXT.get(card, '')}"):
            d.rect(x, y_card, 90, 34, fill=fill, rx=4)
            d.text(x + 45, y_card + 15, _title(card), size=11, anchor="middle")
            if state:
                d.text(x + 45, y_card + 29, state, size=9, anchor="middle", fill=MUTED)
    if "cards_left" in p and not mine:
        d.text(d.width - 24, y - 4, f"{plural(p['cards_left'], 'card')} left", size=10,
               anchor="end", fill=MUTED)
