"""The Feudum table as one SVG picture, drawn from a seat's view only.

Top to bottom: who is to act and the victory points; the epoch and round with what is
asked now; the six guilds with their ranks taken by colour; the guild boards (the Farmer's
barn and chickens, the Merchant's market, the Alchemist's carts and vessels, the Knight's
rows and monsters, the Noble's scrolls, the Monk's rosary) and the region tiles; then one
panel per player: goods, shillings, pawns, locations, seals, vessels, action cards and
writs (a hand only for its owner, as in the view).

Shapes a move acts on carry ``data-target`` names that :func:`targets` gives for a move.

The narrow layout (:func:`games.svg.for_email`: an email's PNG, or the game page on a
phone) is drawn :data:`NARROW_WIDTH` units wide with no text under :data:`NARROW_TEXT`,
so that shown with its smallest text at 11 CSS px the whole picture is at most 350 px
wide and fits a 390 px phone: the players one to a line and the deadline wrapped, the
guilds two to a row, every board and each player's panel stacked full width, one thing
to a line where the desk puts them side by side.  Texts that could run past their box
(names, writs, prompts) are wrapped or cut by :func:`_span`, an estimate of DejaVu
Sans that errs wide.  An email carries no tooltips (a PNG shows none); the phone's page
keeps them, and every shape a move acts on.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.components import GUILDS
from games.feudum_guilds.rounds import CARD_NAMES
from games.feudum_guilds.views import CARD_TEXT
from games.svg import HIGHLIGHT, INK, MUTED, Drawing, for_email, header, plural, seat_colour

WIDTH = 820
NARROW_WIDTH = 340  # units: at 11 / NARROW_TEXT px a unit, 343 px wide on a phone
NARROW_TEXT = 11  # the narrow layout's smallest text
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
    narrow = for_email(table)
    height = 640 + 250 * len(players)
    d = Drawing(NARROW_WIDTH if narrow else WIDTH, height,
                title=f"Feudum, epoch {view['epoch']}, round {view['round']}"
                + (f", seen by {names[viewer]}" if viewer is not None else ""),
                tooltips=table.get("medium") != "email")
    scores = {p["seat"]: plural(p["vp"], "vp", "vp") for p in players}
    if narrow:
        y = _header_narrow(d, {**table, "names": names, "to_act": view["to_act"]}, scores)
        y = _status_narrow(d, view, names, y + 6)
        y = _guilds_narrow(d, view, changed, y + 8)
        y = _boards_narrow(d, view, changed, y + 10)
        y = _pending_narrow(d, view, y + 6)
        for p in players:
            y = _player_narrow(d, p, viewer, changed, y + 8)
        d.height = int(y + 10)
        return d.render()
    y = header(d, {**table, "names": names, "to_act": view["to_act"]}, scores=scores)
    y = _status(d, view, names, y + 6)
    y = _guilds(d, view, changed, y + 8)
    y = _boards(d, view, changed, y + 10)
    y = _pending(d, view, viewer, y + 6)
    for p in players:
        y = _player(d, view, p, viewer, changed, y + 8)
    d.height = int(y + 10)
    return d.render()


def _status(d: Drawing, view: dict[str, Any], names: list[str], y: float) -> float:
    d.text(10, y + 16, "Epoch", size=13, fill=MUTED)
    for e in range(1, 6):
        x = 60 + (e - 1) * 34
        current = e == view["epoch"]
        with d.group(title=f"Epoch {e}" + (" (now)" if current else "")):
            d.rect(x, y + 2, 28, 20, fill=HIGHLIGHT if current else "#FFFFFF", rx=4)
            d.text(x + 14, y + 17, ["I", "II", "III", "IV", "V"][e - 1], size=12,
                   anchor="middle", weight="bold" if current else None)
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


def _guilds(d: Drawing, view: dict[str, Any], changed: _Changes, y: float) -> float:
    w = (d.width - 20) / len(GUILDS)
    for i, g in enumerate(GUILDS):
        _guild_card(d, view, changed, g, 10 + i * w, y, w, small=10, tiny=9)
    return y + 100


def _guild_card(d: Drawing, view: dict[str, Any], changed: _Changes, g: str, x: float,
                y: float, w: float, small: float, tiny: float) -> None:
    """One guild's card, ``w`` wide and 96 tall: its name, patron, ranks by colour and
    feudums left (the patron and ranks at ``small``, the feudums at ``tiny``)."""
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
        d.text(x + w / 2, y + 33, guild["patron"], size=small, anchor="middle", fill=MUTED)
        for r, s in enumerate(guild["seats"]):
            cy = y + 50 + r * 18
            colour = seat_colour(s["seat"]) if s["seat"] is not None else "#FFFFFF"
            d.circle(x + 16, cy - 4, 6, fill=colour)
            d.text(x + 26, cy, s["rank"][:4].title() + "." if len(s["rank"]) > 6
                   else s["rank"].title(), size=small)
        d.text(x + w - 8, y + 90, f"feudums {view['feudums'].get(g, 0)}", size=tiny,
               anchor="end", fill=MUTED)


def _good(d: Drawing, x: float, y: float, good: str, count: int | str, size: float = 9) -> None:
    """A good's square (with its initial) and a count."""
    with d.group(title=f"{good}: {count}" if count != "" else good):
        d.rect(x, y - size, size * 1.6, size * 1.6, fill=GOOD_COLOUR[good], rx=2)
        d.text(x + size * 0.8, y + size * 0.3, GOOD_LETTER[good], size=size * 1.1,
               anchor="middle", fill="#FFFFFF" if good in ("wood", "iron") else INK)
        d.text(x + size * 2, y + size * 0.5, f"{count}", size=11)


def _boards(d: Drawing, view: dict[str, Any], changed: _Changes, y: float) -> float:
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
    y += 120
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
    y = max(my + 16, y + 116)
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
    hx, hy = 440, y
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


def _pending(d: Drawing, view: dict[str, Any], viewer: int | None, y: float) -> float:
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


def _cards(d: Drawing, p: dict[str, Any], mine: bool, y: float, per_row: int = 8,
           step: float = 96, w: float = 90, small: float = 9, count: bool = True,
           middle: bool = False) -> None:
    """The eight action cards, ``w`` wide, ``per_row`` to a row ``step`` apart: the owner
    sees which are selected; everyone sees which were played (and, if ``count``, how many
    are left once revealed, above the cards' right end; the state at ``small``; with
    ``middle`` a card's name alone is set in its middle)."""
    selected = set(p.get("selected") or [])
    played = p["played"]
    for i, card in enumerate(CARD_NAMES):
        x = 24 + (i % per_row) * step
        y_card = y + (i // per_row) * 40
        state = ("played" if card in played else "selected" if card in selected
                 else "")
        fill = "#DDDDDD" if card in played else "#FFF2CC" if card in selected else "#FFFFFF"
        with d.group(target=f"card:{card}" if mine else None,
                     title=f"{_title(card)}" + (f" ({state})" if state else "")
                     + f": {CARD_TEXT.get(card, '')}"):
            d.rect(x, y_card, w, 34, fill=fill, rx=4)
            d.text(x + w / 2, y_card + (21 if middle and not state else 15), _title(card),
                   size=11, anchor="middle")
            if state:
                d.text(x + w / 2, y_card + 29, state, size=small, anchor="middle", fill=MUTED)
    if count and "cards_left" in p and not mine:
        d.text(d.width - 24, y - 4, f"{plural(p['cards_left'], 'card')} left", size=10,
               anchor="end", fill=MUTED)


# -- the narrow layout (an email, a phone's page) -------------------------------------------

_THIN = frozenset("ijlI'.,:;!|·")
_SLIM = frozenset("frt()[]-/ ")
_WIDE = frozenset("mwMW#%&+<=>@~×…—")


def _span(text: object, size: float, bold: bool = False) -> float:
    """About how wide ``text`` is at font ``size`` in DejaVu Sans, never less for Latin
    text (letter by letter: the widest of its class; other scripts an em a letter)."""
    em = 0.0
    for c in str(text):
        if c in _THIN:
            em += 0.36
        elif c in _SLIM:
            em += 0.45
        elif c in _WIDE or ord(c) > 0x24F:
            em += 1.0
        elif c.isupper():
            em += 0.8
        else:
            em += 0.64
    return em * size * (1.13 if bold else 1.0)


def _fit(text: object, width: float, size: float, bold: bool = False) -> str:
    """``text``, cut with an ellipsis if it would be wider than ``width``."""
    text = str(text)
    if _span(text, size, bold) <= width:
        return text
    while text and _span(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _lines(text: object, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` wrapped at spaces (not at no-break spaces) into lines at most ``width``
    wide (a word wider than a line is cut; a " · " stays at the end of its line)."""
    lines: list[str] = []
    for word in filter(None, str(text).replace(" · ", "\u00a0· ").split(" ")):
        if lines and _span(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(_fit(word, width, size, bold))
    return lines or [""]


def _header_narrow(d: Drawing, table: dict[str, Any], scores: dict[int, str]) -> float:
    """The strip :func:`games.svg.header` draws, one player to a line (a long name cut)
    and the deadline wrapped: nothing past the narrow picture's edge."""
    names = table.get("names") or []
    to_act = set(table.get("to_act") or [])
    viewer = table.get("seat")
    y = 22.0
    for seat, name in enumerate(names):
        bold = seat in to_act
        rest = (" (you)" if seat == viewer else "") + (f": {scores[seat]}" if seat in scores
                                                       else "")
        room = d.width - 10 - 38 - _span(rest, 14, bold)
        colour = seat_colour(seat)
        if bold:
            d.polygon([(10, y - 11), (10, y + 1), (20, y - 5)], fill=colour, stroke=None)
        d.circle(28, y - 5, 6, fill=colour, stroke=None)
        d.text(38, y, _fit(name, room, 14, bold) + rest, size=14,
               weight="bold" if bold else None)
        y += 22
    y -= 22
    deadline = table.get("deadline")
    if deadline:  # broken after its commas first: the day, then the time
        parts = f"Deadline: {deadline}".split(", ")
        for k, part in enumerate(parts):
            for line in _lines(part + ("," if k < len(parts) - 1 else ""), d.width - 20, 13):
                y += 18
                d.text(10, y, line, size=13, fill=MUTED)
    return y + 14


def _status_narrow(d: Drawing, view: dict[str, Any], names: list[str], y: float) -> float:
    """The epochs, then the round and phase, then what is asked now, wrapped."""
    d.text(10, y + 16, "Epoch", size=13, fill=MUTED)
    for e in range(1, 6):
        x = 60 + (e - 1) * 34
        current = e == view["epoch"]
        with d.group(title=f"Epoch {e}" + (" (now)" if current else "")):
            d.rect(x, y + 2, 28, 20, fill=HIGHLIGHT if current else "#FFFFFF", rx=4)
            d.text(x + 14, y + 17, ["I", "II", "III", "IV", "V"][e - 1], size=12,
                   anchor="middle", weight="bold" if current else None)
    y += 22
    d.text(10, y + 17, _fit(f"Round {view['round']} · phase: {view['phase']}",
                            d.width - 20, 13), size=13)
    pending = view.get("pending")
    asked: list[str] = []
    if pending and pending.get("seat") is not None:
        who = names[pending["seat"]] if pending["seat"] < len(names) else "?"
        card = f" ({_title(pending['card'])})" if pending.get("card") else ""
        asked = _lines(f"{who}: {pending['prompt']}{card}", d.width - 20, 13, bold=True)
    elif view["phase"] == "select":
        asked = _lines("Everyone secretly selects action cards", d.width - 20, 13, bold=True)
    for k, line in enumerate(asked):
        d.text(10, y + 40 + 16 * k, line, size=13, weight="bold")
    return y + 48 + 16 * max(len(asked) - 1, 0)


def _guilds_narrow(d: Drawing, view: dict[str, Any], changed: _Changes, y: float) -> float:
    """The guilds two to a row."""
    w = (d.width - 20) / 2
    for i, g in enumerate(GUILDS):
        _guild_card(d, view, changed, g, 10 + (i % 2) * w, y + (i // 2) * 100, w,
                    small=NARROW_TEXT, tiny=NARROW_TEXT)
    return y + 100 * -(-len(GUILDS) // 2)


def _boards_narrow(d: Drawing, view: dict[str, Any], changed: _Changes, y: float) -> float:
    """The boards one under another, each as wide as the picture, then the region tiles
    and the haversack."""
    w = d.width - 20  # a panel's width, from x = 10
    # Farmer: barn and chickens
    farmer = view["farmer"]
    with d.group(highlight=changed("farmer"),
                 title=f"Farmer's barn: {sum(farmer['barn'].values())} of "
                       f"{farmer['capacity']} goods; chickens {farmer['chicken_sum']}; "
                       f"purse {farmer['purse']}s"):
        _panel(d, 10, y, w, 100, "Farmer's barn", changed("farmer"))
        for i, good in enumerate(GOODS):
            _good(d, 20 + i * 58, y + 42, good, farmer["barn"].get(good, 0), size=10)
        chickens = " ".join("·" if c is None else str(c) for c in farmer["chickens"])
        d.text(20, y + 70, _fit(f"Chickens: {chickens} (sum {farmer['chicken_sum']})",
                                w - 20, 11), size=11)
        d.text(20, y + 90, f"Purse: {farmer['purse']}s", size=11)
    y += 106
    # Merchant: the market, one row per good, each row a target as wide as the panel
    market = view["merchant"]["market"]
    rows = [g for g in GOODS if g in market]
    h = 30 + 22 * max(len(rows), 1)
    _panel(d, 10, y, w, h, "Merchant's market", changed("merchant"))
    for i, good in enumerate(rows):
        row = market[good]
        price = f"{row['price_now']}s" if row["price_now"] is not None else "sold out"
        with d.group(target=f"good:{good}", title=f"{_title(good)}: {row['count']} at "
                     f"the market, {price}"):
            gy = y + 42 + i * 22
            d.rect(16, gy - 14, w - 12, 20, fill="#FFFFFF", stroke=None, rx=4)
            _good(d, 24, gy, good, "", size=10)
            d.text(48, gy + 4, f"{good} ×{row['count']}  {price}", size=11)
    y += h + 6
    # Alchemist: carts and vessels
    alch = view["alchemist"]
    _panel(d, 10, y, w, 104, "Alchemist", changed("alchemist"))
    for i, good in enumerate(GOODS):
        _good(d, 20 + i * 58, y + 42, good, alch["carts"].get(good, 0), size=10)
    vw = (w - 20 - 2 * 6) / len(VESSELS)
    for i, vessel in enumerate(VESSELS):
        with d.group(target=f"vessel:{vessel}", title=f"{_title(vessel)}: "
                     f"{alch['vessel_supply'].get(vessel, 0)} in supply, "
                     f"{alch['vessel_space'].get(vessel, 0)} space"):
            vx = 20 + i * (vw + 6)
            d.rect(vx, y + 56, vw, 40, fill="#FFFFFF", rx=4)
            d.text(vx + vw / 2, y + 72, _title(vessel).replace("Flying Machine", "Flyer"),
                   size=11, anchor="middle")
            d.text(vx + vw / 2, y + 89, f"{alch['vessel_supply'].get(vessel, 0)} left",
                   size=11, anchor="middle", fill=MUTED)
    y += 110
    # Knight: rows of sections by colour, then the monsters one to a line
    knight = view["knight"]
    monsters = list(knight["monsters"].items())
    h = 30 + 22 * len(knight["rows"]) + 22 * len(monsters) + 4
    _panel(d, 10, y, w, h, "Knight's rows", changed("knight"))
    for i, row in enumerate(knight["rows"]):
        ry = y + 40 + i * 22
        colour = seat_colour(row["seat"]) if isinstance(row["seat"], int) else NEUTRAL
        d.text(20, ry + 4, _fit(row["colour"], 94, 11), size=11)
        for j, filled in enumerate(row["sections"]):
            d.rect(120 + j * 40, ry - 8, 34, 14, fill=colour if filled else "#FFFFFF", rx=3)
    my = y + 40 + len(knight["rows"]) * 22
    for i, (monster, owner) in enumerate(monsters):
        with d.group(target=f"monster:{monster}", title=f"{_title(monster)}: "
                     + ("untamed" if owner is None else f"held by seat {owner}")):
            d.rect(16, my + i * 22 - 11, w - 12, 20, fill="#FFFFFF", stroke=None, rx=4)
            d.text(20, my + i * 22 + 4, f"{_title(monster)}: "
                   + ("free" if owner is None else "tamed"), size=11)
    y += h + 6
    # Noble: scrolls with seals
    noble = view["noble"]
    _panel(d, 10, y, w, 60, "Noble's scrolls", changed("noble"))
    for i, sealed in enumerate(noble["scrolls"]):
        with d.group(target=f"scroll:{i}", title=f"Scroll S{i + 1}: "
                     + ("sealed" if sealed else "empty")):
            sx = 20 + i * 44
            d.rect(sx, y + 28, 38, 24, fill="#F6E7C1", rx=8)
            if sealed:
                d.circle(sx + 19, y + 40, 7, fill="#B22222")
    d.text(10 + w - 10, y + 18, f"seals in supply: {noble['seal_supply']}",
           size=NARROW_TEXT, anchor="end", fill=MUTED)
    y += 66
    # Monk: rosary
    monk = view["monk"]
    beads = " ".join(str(b) for b in monk["rosary"]) or "empty"
    lines = _lines(f"Beads {beads} (sum {monk['rosary_sum']}) · coffer {monk['coffer']}s",
                   w - 20, 11)
    _panel(d, 10, y, w, 30 + 16 * len(lines), "Monk's rosary", changed("monk"))
    for k, line in enumerate(lines):
        d.text(20, y + 36 + 16 * k, line, size=11)
    y += 30 + 16 * len(lines) + 8
    # Region tiles: the heading on a line of its own, the stacks below
    d.text(10, y + 14, "Region tiles", size=12, weight="bold")
    step = min(54.0, (w + 8) / max(len(view["stacks"]), 1))
    for i, stack in enumerate(view["stacks"]):
        with d.group(target=f"stack:{i}", title=f"Tile stack {i + 1}: "
                     + (f"top from epoch {stack[0]}, {plural(len(stack), 'tile')}"
                        if stack else "empty")):
            tx = 10 + i * step
            d.rect(tx, y + 22, step - 8, 24, fill="#E8F0E0" if stack else "#FFFFFF", rx=3)
            d.text(tx + (step - 8) / 2, y + 38, f"{stack[0]}·{len(stack)}" if stack else "—",
                   size=NARROW_TEXT, anchor="middle")
    y += 52
    # the haversack, and the writs left in the deck
    d.text(10, y + 14, "Haversack", size=12, weight="bold")
    for i, good in enumerate(GOODS):
        _good(d, 92 + i * 46, y + 12, good, view["haversack"].get(good, 0), size=10)
    d.text(d.width - 10, y + 36, f"Royal Writs in the deck: {view['writ_deck']}",
           size=NARROW_TEXT, anchor="end", fill=MUTED)
    return y + 42


def _pending_narrow(d: Drawing, view: dict[str, Any], y: float) -> float:
    """The two fists to pick from, or the Royal Writs drawn (one to a row)."""
    pending = view.get("pending") or {}
    if pending.get("kind") == "fist_pick":
        d.text(10, y + 16, "The two fists", size=12, weight="bold")
        fists = pending.get("fists") or {}
        for i, fist in enumerate(("left", "right")):
            with d.group(target=f"fist:{fist}", title=f"The {fist} fist"
                         + (f": bead {fists[fist]}" if fist in fists else "")):
                d.rect(130 + i * 100, y, 90, 26, fill="#FFFFFF", rx=10)
                d.text(175 + i * 100, y + 17, f"{fist} {fists.get(fist, '?')}", size=11,
                       anchor="middle")
        return y + 32
    if pending.get("kind") == "writ_keep" and pending.get("cards"):
        d.text(10, y + 16, "Royal Writs drawn", size=12, weight="bold")
        for i, card in enumerate(pending["cards"]):
            _writ_narrow(d, 10, y + 24 + i * 42, d.width - 20, card)
        return y + 24 + 42 * len(pending["cards"])
    return y


def _writ_narrow(d: Drawing, x: float, y: float, w: float, card: dict[str, Any]) -> None:
    """A Royal Writ ``w`` wide: its name and what it scores, each cut to the card."""
    detail = card.get("scores", card["kind"])
    with d.group(target=f"writ:{card['id']}", title=f"{card['name']} ({card['kind']}): "
                 f"{detail}"):
        d.rect(x, y, w, 36, fill="#FFF8DC", rx=4)
        d.text(x + 6, y + 15, _fit(card["name"], w - 12, 11, bold=True), size=11,
               weight="bold")
        d.text(x + 6, y + 30, _fit(detail, w - 12, 11), size=11, fill=MUTED)


def _player_narrow(d: Drawing, p: dict[str, Any], viewer: int | None, changed: _Changes,
                   y: float) -> float:
    """A player's panel as wide as the picture: the same facts as :func:`_player`, one
    thing to a line where the desk puts them side by side."""
    seat, width = p["seat"], d.width - 20
    mine = seat == viewer
    hand = p.get("hand") or []
    hot = changed("players", seat)
    inner = width - 28  # text from x = 24 to 14 short of the frame's right edge
    top = y
    with d.group(highlight=hot, title=f"{p['name']}: {plural(p['vp'], 'vp', 'vp')}, "
                 f"{plural(p['shillings'], 'shilling')}"):
        d.circle(26, y + 18, 8, fill=seat_colour(seat), stroke=None)
        you = " (you)" if mine else ""
        d.text(40, y + 23, _fit(p["name"], width - 44 - _span(you, 15, True), 15, True) + you,
               size=15, weight="bold")
    y += 26
    stats = (f"{plural(p['vp'], 'vp', 'vp')} · {plural(p['shillings'], 'shilling')} · "
             f"{plural(p['seals'], 'seal')} · {plural(p['markers'], 'marker')}")
    for line in _lines(stats, inner, 12):
        y += 16
        d.text(24, y, line, size=12)
    y += 26
    for i, good in enumerate(GOODS):
        _good(d, 24 + i * 58, y, good, p["goods"].get(good, 0), size=10)
    y += 6
    # a vessel and its count, or a pawn and its wine, stay on one line (no-break spaces)
    vessels = ", ".join(f"{_title(v)} {n}".replace(" ", "\u00a0")
                        for v, n in p["vessels"].items() if n)
    pawns = ", ".join((_title(pw["guild"]) + (" (wine)" if pw["wine"] else "")).replace(
        " ", "\u00a0") for pw in p["pawns"] if pw["guild"]) or "none in play"
    for line in (_lines(f"Wine barrel {p['wine_barrel']} · vessels: {vessels or 'none'}",
                        inner, 11) + _lines(f"Pawns: {pawns}", inner, 11)):
        y += 16
        d.text(24, y, line, size=11)
    # locations three to a row
    locations = p["locations"][:12]
    lw = (inner - 2 * 6) / 3
    for i, loc in enumerate(locations):
        lx, ly = 24 + (i % 3) * (lw + 6), y + 10 + (i // 3) * 38
        goods = sum(loc["goods"].values())
        title = (f"Location #{loc['id']}: {loc['kind']}"
                 + (f" ({_title(loc['guild'])})" if loc["guild"] else "")
                 + (f", {plural(goods, 'good')}" if goods else ""))
        with d.group(target=f"location:{loc['id']}" if mine else None, title=title):
            d.rect(lx, ly, lw, 34, fill=GUILD_COLOUR.get(loc["guild"] or "", "#F3F3F3"), rx=4)
            d.text(lx + lw / 2, ly + (15 if goods else 21),
                   _fit(f"#{loc['id']} {loc['kind']}", lw - 8, 11), size=11, anchor="middle")
            if goods:
                d.text(lx + lw / 2, ly + 29, plural(goods, "good"), size=11, anchor="middle",
                       fill=MUTED)
    y += 10 + 38 * -(-len(locations) // 3)
    # the action cards four to a row, how many are left on a line above them
    if "cards_left" in p and not mine:
        y += 16
        d.text(24, y, f"{plural(p['cards_left'], 'card')} left", size=11, fill=MUTED)
    cw = (inner - 3 * 6) / 4
    _cards(d, p, mine, y + 8, per_row=4, step=cw + 6, w=cw, small=NARROW_TEXT, count=False,
           middle=True)
    y += 8 + 40 * -(-len(CARD_NAMES) // 4)
    stars = ", ".join(f"{_title(g)} {n}" for g, n in p["stars"].items() if n)
    for line in _lines(f"Writs: {p['writs']}" + (f" · stars: {stars}" if stars else "")
                       + f" · tiles {len(p['tiles'])} · service {p['military_service']}",
                       inner, 11):
        y += 15
        d.text(24, y, line, size=11, fill=MUTED)
    y += 8
    for i, card in enumerate(hand):
        _writ_narrow(d, 24, y + i * 42, inner, card)
    y += 42 * len(hand) + 4
    # the frame on top (stroke only), as tall as what it holds
    d.rect(10, top, width, y - top, fill="none", rx=8,
           stroke=HIGHLIGHT if hot else seat_colour(seat), stroke_width=3)
    return y
