"""The Feudum table as one SVG picture, drawn from a seat's view only.

Top to bottom: who is to act and the victory points; the epoch and round with what is
asked now; the six guilds with their ranks taken by colour; the guild boards (the Farmer's
barn and chickens, the Merchant's market, the Alchemist's carts and vessels, the Knight's
rows and monsters, the Noble's scrolls, the Monk's rosary) and the region tiles; then one
panel per player: goods, shillings, pawns, locations, seals, vessels, action cards and
writs (a hand only for its owner, as in the view).

Shapes a move acts on carry ``data-target`` names that :func:`targets` gives for a move.

Every word drawn is a :class:`games.text.Text` (the view's, :mod:`words`' or this
module's) said by ``say`` (:data:`games.svg.Say`: the reader's language; the default
``str`` draws English, exactly as before ``say`` existed).  A word is said first and
measured after: German headings move what follows them right (the epochs, the haversack's
goods) or are cut by :func:`_fit` where English fitted.

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

from games.feudum_guilds import words as w
from games.feudum_guilds.components import GUILDS
from games.feudum_guilds.rounds import CARD_NAMES
from games.feudum_guilds.views import CARD_TEXT
from games.svg import HIGHLIGHT, INK, MUTED, Drawing, Say, for_email, seat_colour
from games.text import P, T, Text, join

WIDTH = 820
NARROW_WIDTH = 340  # units: at 11 / NARROW_TEXT px a unit, 343 px wide on a phone
NARROW_TEXT = 11  # the narrow layout's smallest text
GOODS = ["food", "wood", "iron", "sulfur", "saltpeter"]
GOOD_COLOUR = {"food": "#C9A227", "wood": "#8B5A2B", "iron": "#7F8C8D", "sulfur": "#E8D44D",
               "saltpeter": "#E6E6E6"}
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


class _Say:
    """``say`` as the picture uses it: ``s(text)`` is ``text`` in the reader's language as
    a plain string (see :data:`games.svg.Say`)."""

    def __init__(self, say: Say) -> None:
        self.say = say

    def __call__(self, text: Any) -> str:
        return str(self.say(text))


def _vp(n: int) -> Text:
    return P("%(n)s vp", "%(n)s vp", n)


def _shillings(n: int) -> Text:
    return P("%(n)s shilling", "%(n)s shillings", n)


def _price(n: Any) -> Text:
    """``3s``: a price in shillings (``sold out`` for None)."""
    return T("sold out") if n is None else T("%(n)ss", n=n)


PANELS = {"farmer": T("Farmer's barn"), "merchant": T("Merchant's market"),
          "alchemist": T("Alchemist"), "knight": T("Knight's rows"),
          "noble": T("Noble's scrolls"), "monk": T("Monk's rosary")}


def draw(view: dict[str, Any], table: dict[str, Any], say: Say = str) -> str:
    """The picture of ``view`` (one seat's view) for the table context ``table``, every
    word said by ``say`` (the reader's language; the default: English)."""
    s = _Say(say)
    players = view["players"]
    names = table.get("names") or [p["name"] for p in players]
    viewer = view.get("seat")
    changed = _Changes(view, table.get("previous"))
    narrow = for_email(table)
    height = 640 + 250 * len(players)
    title = (T("Feudum, epoch %(epoch)s, round %(round)s, seen by %(viewer)s",
               epoch=view["epoch"], round=view["round"], viewer=names[viewer])
             if viewer is not None else
             T("Feudum, epoch %(epoch)s, round %(round)s", epoch=view["epoch"],
               round=view["round"]))
    d = Drawing(NARROW_WIDTH if narrow else WIDTH, height, title=s(title),
                tooltips=table.get("medium") != "email")
    scores = {p["seat"]: s(_vp(p["vp"])) for p in players}
    if narrow:
        y = _header_narrow(d, {**table, "names": names, "to_act": view["to_act"]}, scores, s)
        y = _status_narrow(d, view, names, y + 6, s)
        y = _guilds_narrow(d, view, changed, y + 8, s)
        y = _boards_narrow(d, view, changed, y + 10, s)
        y = _pending_narrow(d, view, y + 6, s)
        for p in players:
            y = _player_narrow(d, p, viewer, changed, y + 8, s)
        d.height = int(y + 10)
        return d.render()
    y = _header(d, {**table, "names": names, "to_act": view["to_act"]}, scores, s)
    y = _status(d, view, names, y + 6, s)
    y = _guilds(d, view, changed, y + 8, s)
    y = _boards(d, view, changed, y + 10, s)
    y = _pending(d, view, viewer, y + 6, s)
    for p in players:
        y = _player(d, view, p, viewer, changed, y + 8, s)
    d.height = int(y + 10)
    return d.render()


def _header(d: Drawing, table: dict[str, Any], scores: dict[int, str], s: _Say) -> float:
    """The strip :func:`games.svg.header` draws (the same places), its words said."""
    names = table.get("names") or []
    to_act = set(table.get("to_act") or [])
    viewer = table.get("seat")
    x, y = 10.0, 22.0
    for seat, name in enumerate(names):
        label = s(T("%(name)s (you)", name=name)) if seat == viewer else str(name)
        if seat in scores:
            label += f": {scores[seat]}"
        colour = seat_colour(seat)
        if x > 10 and x + 40 + 8 * len(label) > d.width:
            x, y = 10.0, y + 22
        if seat in to_act:
            d.polygon([(x, y - 11), (x, y + 1), (x + 10, y - 5)], fill=colour, stroke=None)
        d.circle(x + 18, y - 5, 6, fill=colour, stroke=None)
        d.text(x + 28, y, label, size=14, weight="bold" if seat in to_act else None)
        x += 40 + 8 * len(label)
    deadline = table.get("deadline")
    if deadline:
        said = s(T("Deadline: %(when)s", when=deadline))
        if x + 10 > d.width - 10 - _span(said, 13):  # no room beside the names
            x, y = 10.0, y + 20
            d.text(x, y, said, size=13, fill=MUTED)
        else:
            d.text(d.width - 10, y, said, size=13, anchor="end", fill=MUTED)
    return y + 14


def _epochs(d: Drawing, view: dict[str, Any], y: float, s: _Say) -> None:
    """``Epoch`` and the five epochs' boxes (moved right if the word is long)."""
    label = s(T("Epoch"))
    d.text(10, y + 16, label, size=13, fill=MUTED)
    left = max(60.0, 10 + _span(label, 13) + 4)
    for e in range(1, 6):
        x = left + (e - 1) * 34
        current = e == view["epoch"]
        with d.group(title=s(T("Epoch %(epoch)s (now)", epoch=e) if current
                             else T("Epoch %(epoch)s", epoch=e))):
            d.rect(x, y + 2, 28, 20, fill=HIGHLIGHT if current else "#FFFFFF", rx=4)
            d.text(x + 14, y + 17, ["I", "II", "III", "IV", "V"][e - 1], size=12,
                   anchor="middle", weight="bold" if current else None)


def _round(view: dict[str, Any]) -> Text:
    return T("Round %(round)s · phase: %(phase)s", round=view["round"], phase=view["phase"])


def _asked(view: dict[str, Any], names: list[str]) -> Text | None:
    """What is asked now: ``Ann: play an action card (Tax)``, or None."""
    pending = view.get("pending")
    if pending and pending.get("seat") is not None:
        who = names[pending["seat"]] if pending["seat"] < len(names) else "?"
        if pending.get("card"):
            return T("%(who)s: %(prompt)s (%(card)s)", who=who, prompt=pending["prompt"],
                     card=w.card_title(str.__str__(pending["card"])))
        return T("%(who)s: %(prompt)s", who=who, prompt=pending["prompt"])
    if view["phase"] == "select":
        return T("Everyone secretly selects action cards")
    return None


def _status(d: Drawing, view: dict[str, Any], names: list[str], y: float, s: _Say) -> float:
    _epochs(d, view, y, s)
    d.text(240, y + 17, _fit(s(_round(view)), d.width - 250, 13), size=13)
    asked = _asked(view, names)
    if asked is not None:
        lines = [part for line in _wrap(s(asked), d.width - 20, 13)  # a long name cut too
                 for part in ([line] if _span(line, 13, True) <= d.width - 20
                              else _lines(line, d.width - 20, 13, bold=True))]
        for k, line in enumerate(lines):
            d.text(10, y + 40 + 16 * k, line, size=13, weight="bold")
        y += 16 * (len(lines) - 1)
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


def _guilds(d: Drawing, view: dict[str, Any], changed: _Changes, y: float, s: _Say) -> float:
    w_ = (d.width - 20) / len(GUILDS)
    for i, g in enumerate(GUILDS):
        _guild_card(d, view, changed, g, 10 + i * w_, y, w_, small=10, tiny=9, s=s)
    return y + 100


def _guild_card(d: Drawing, view: dict[str, Any], changed: _Changes, g: str, x: float,
                y: float, w_: float, small: float, tiny: float, s: _Say) -> None:
    """One guild's card, ``w_`` wide and 96 tall: its name, patron, ranks by colour and
    feudums left (the patron and ranks at ``small``, the feudums at ``tiny``)."""
    guild = view["guilds"][g]
    taken = [T("%(rank)s: %(name)s", rank=st["rank"], name=st["name"])
             for st in guild["seats"] if st["name"]]
    feudums = view["feudums"].get(g, 0)
    title = T("%(guild)s, patron %(patron)s; %(ranks)s; %(feudums)s left",
              guild=w.guild_title(g), patron=guild["patron"],
              ranks=join(taken) if taken else T("no ranks taken"),
              feudums=P("%(n)s feudum", "%(n)s feudums", feudums))
    with d.group(target=f"guild:{g}", highlight=changed("guilds", g), title=s(title)):
        d.rect(x + 2, y, w_ - 4, 96, fill=GUILD_COLOUR[g], rx=6,
               stroke=HIGHLIGHT if changed("guilds", g) else INK,
               stroke_width=3 if changed("guilds", g) else 1)
        d.text(x + w_ / 2, y + 18, _fit(s(w.guild_name(g)), w_ - 10, 14, True), size=14,
               anchor="middle", weight="bold")
        d.text(x + w_ / 2, y + 33, _fit(s(guild["patron"]), w_ - 8, small), size=small,
               anchor="middle", fill=MUTED)
        for r, st in enumerate(guild["seats"]):
            cy = y + 50 + r * 18
            colour = seat_colour(st["seat"]) if st["seat"] is not None else "#FFFFFF"
            d.circle(x + 16, cy - 4, 6, fill=colour)
            d.text(x + 26, cy, _fit(s(w.rank_short(str.__str__(st["rank"]))), w_ - 30, small),
                   size=small)
        d.text(x + w_ - 8, y + 90, s(T("feudums %(n)s", n=feudums)), size=tiny,
               anchor="end", fill=MUTED)


def _good(d: Drawing, x: float, y: float, good: str, count: int | str, s: _Say,
          size: float = 9) -> None:
    """A good's square (with its initial) and a count."""
    with d.group(title=s(T("%(good)s: %(n)s", good=w.good(good), n=count)) if count != ""
                 else s(w.good(good))):
        d.rect(x, y - size, size * 1.6, size * 1.6, fill=GOOD_COLOUR[good], rx=2)
        d.text(x + size * 0.8, y + size * 0.3, s(w.good_letter(good)), size=size * 1.1,
               anchor="middle", fill="#FFFFFF" if good in ("wood", "iron") else INK)
        d.text(x + size * 2, y + size * 0.5, f"{count}", size=11)


def _barn_title(farmer: dict[str, Any]) -> Text:
    return T("Farmer's barn: %(n)s of %(capacity)s goods; chickens %(chickens)s; "
             "purse %(purse)ss", n=sum(farmer["barn"].values()), capacity=farmer["capacity"],
             chickens=farmer["chicken_sum"], purse=farmer["purse"])


def _chickens(farmer: dict[str, Any]) -> Text:
    chickens = " ".join("·" if c is None else str(c) for c in farmer["chickens"])
    return T("Chickens: %(chickens)s (sum %(sum)s)", chickens=chickens,
             sum=farmer["chicken_sum"])


def _market_title(good: str, row: dict[str, Any]) -> Text:
    return T("%(good)s: %(n)s at the market, %(price)s", good=w.good_title(good),
             n=row["count"], price=_price(row["price_now"]))


def _market_row(good: str, row: dict[str, Any]) -> Text:
    return T("%(good)s ×%(n)s  %(price)s", good=w.good(good), n=row["count"],
             price=_price(row["price_now"]))


def _vessel_title(vessel: str, alch: dict[str, Any]) -> Text:
    return T("%(vessel)s: %(supply)s in supply, %(space)s space",
             vessel=w.vessel_title(vessel), supply=alch["vessel_supply"].get(vessel, 0),
             space=alch["vessel_space"].get(vessel, 0))


def _vessel_label(vessel: str) -> Text:
    return w.FLYER if vessel == "flying_machine" else w.vessel_title(vessel)


def _monster(monster: str, owner: Any, label: bool) -> Text:
    """A monster's tooltip (``label`` False) or its line."""
    m = w.monster_title(monster)
    if label:
        return T("%(monster)s: free", monster=m) if owner is None else \
            T("%(monster)s: tamed", monster=m)
    return T("%(monster)s: untamed", monster=m) if owner is None else \
        T("%(monster)s: held by seat %(seat)s", monster=m, seat=owner)


def _scroll(i: int, sealed: bool) -> Text:
    return T("Scroll S%(n)s: sealed", n=i + 1) if sealed else T("Scroll S%(n)s: empty", n=i + 1)


def _rosary(monk: dict[str, Any]) -> Text:
    beads: Any = " ".join(str(b) for b in monk["rosary"]) or T("empty")
    return T("Beads %(beads)s (sum %(sum)s) · coffer %(coffer)ss", beads=beads,
             sum=monk["rosary_sum"], coffer=monk["coffer"])


def _stack(i: int, stack: list[Any]) -> Text:
    if not stack:
        return T("Tile stack %(n)s: empty", n=i + 1)
    return T("Tile stack %(n)s: top from epoch %(epoch)s, %(tiles)s", n=i + 1, epoch=stack[0],
             tiles=P("%(n)s tile", "%(n)s tiles", len(stack)))


def _boards(d: Drawing, view: dict[str, Any], changed: _Changes, y: float, s: _Say) -> float:
    # Farmer: barn and chickens
    farmer = view["farmer"]
    with d.group(highlight=changed("farmer"), title=s(_barn_title(farmer))):
        _panel(d, 10, y, 260, 110, s(PANELS["farmer"]), changed("farmer"))
        for i, good in enumerate(GOODS):
            _good(d, 20 + i * 48, y + 40, good, farmer["barn"].get(good, 0), s)
        d.text(20, y + 72, _fit(s(_chickens(farmer)), 240, 11), size=11)
        d.text(20, y + 92, s(T("Purse: %(n)ss", n=farmer["purse"])), size=11)
    # Merchant: the market, one row per good
    market = view["merchant"]["market"]
    _panel(d, 280, y, 260, 110, s(PANELS["merchant"]), changed("merchant"))
    for i, good in enumerate(g for g in GOODS if g in market):
        row = market[good]
        with d.group(target=f"good:{good}", title=s(_market_title(good, row))):
            gy = y + 36 + i * 15
            _good(d, 290, gy, good, "", s, size=7)
            d.text(308, gy + 4, _fit(s(_market_row(good, row)), 224, 11), size=11)
    # Alchemist: carts and vessels
    alch = view["alchemist"]
    _panel(d, 550, y, 260, 110, s(PANELS["alchemist"]), changed("alchemist"))
    for i, good in enumerate(GOODS):
        _good(d, 560 + i * 48, y + 40, good, alch["carts"].get(good, 0), s)
    for i, vessel in enumerate(VESSELS):
        with d.group(target=f"vessel:{vessel}", title=s(_vessel_title(vessel, alch))):
            vx = 560 + i * 82
            d.rect(vx, y + 60, 76, 40, fill="#FFFFFF", rx=4)
            d.text(vx + 38, y + 76, _fit(s(_vessel_label(vessel)), 72, 10), size=10,
                   anchor="middle")
            d.text(vx + 38, y + 93, _fit(s(T("%(n)s left",
                                                n=alch["vessel_supply"].get(vessel, 0))),
                                         72, 10),
                   size=10, anchor="middle", fill=MUTED)
    y += 120
    # Knight: rows of sections by colour, and the monsters
    knight = view["knight"]
    knight_h = 30 + 22 * len(knight["rows"]) + 24
    _panel(d, 10, y, 400, knight_h, s(PANELS["knight"]), changed("knight"))
    for i, row in enumerate(knight["rows"]):
        ry = y + 40 + i * 22
        colour = seat_colour(row["seat"]) if isinstance(row["seat"], int) else NEUTRAL
        d.text(20, ry + 4, s(row["colour"]), size=11)
        for j, filled in enumerate(row["sections"]):
            d.rect(120 + j * 40, ry - 8, 34, 14, fill=colour if filled else "#FFFFFF", rx=3)
    my = y + 40 + len(knight["rows"]) * 22
    for i, (monster, owner) in enumerate(knight["monsters"].items()):
        with d.group(target=f"monster:{monster}", title=s(_monster(monster, owner, False))):
            d.text(20 + i * 190, my + 4, _fit(s(_monster(monster, owner, True)), 180, 11),
                   size=11)
    # Noble: scrolls with seals; Monk: rosary
    noble, monk = view["noble"], view["monk"]
    supply = s(T("seals in supply: %(n)s", n=noble["seal_supply"]))
    _panel(d, 420, y, 390, 60, s(PANELS["noble"]), changed("noble"),
           room=390 - 26 - _span(supply, 10))
    for i, sealed in enumerate(noble["scrolls"]):
        with d.group(target=f"scroll:{i}", title=s(_scroll(i, sealed))):
            sx = 430 + i * 44
            d.rect(sx, y + 28, 38, 24, fill="#F6E7C1", rx=8)
            if sealed:
                d.circle(sx + 19, y + 40, 7, fill="#B22222")
    d.text(800, y + 18, supply, size=10, anchor="end", fill=MUTED)
    _panel(d, 420, y + 66, 390, 44, s(PANELS["monk"]), changed("monk"))
    d.text(430, y + 102, _fit(s(_rosary(monk)), 370, 11), size=11)
    y = max(my + 16, y + 116)
    # Region tiles and the haversack
    d.text(10, y + 14, _fit(s(T("Region tiles")), 90, 12, True), size=12, weight="bold")
    for i, stack in enumerate(view["stacks"]):
        with d.group(target=f"stack:{i}", title=s(_stack(i, stack))):
            tx = 100 + i * 54
            d.rect(tx, y, 46, 22, fill="#E8F0E0" if stack else "#FFFFFF", rx=3)
            d.text(tx + 23, y + 15, f"{stack[0]}·{len(stack)}" if stack else "—", size=10,
                   anchor="middle")
    hx, hy = 440, y
    label = s(T("Haversack"))  # the goods moved right if the word is longer
    d.text(hx, hy + 14, _fit(label, 140, 12, True), size=12, weight="bold")
    gx = hx + max(80.0, min(_span(label, 12, True), 140) + 2)
    for i, good in enumerate(GOODS):
        _good(d, gx + i * 58, hy + 12, good, view["haversack"].get(good, 0), s)
    d.text(d.width - 10, hy + 36, s(T("Royal Writs in the deck: %(n)s", n=view["writ_deck"])),
           size=10, anchor="end", fill=MUTED)
    return hy + 42


def _panel(d: Drawing, x: float, y: float, w_: float, h: float, title: str,
           highlight: bool, room: float | None = None) -> None:
    """A board's frame and its title (cut to ``room``, else to the frame)."""
    d.rect(x, y, w_, h, fill="#FFFFFF", rx=6, stroke=HIGHLIGHT if highlight else INK,
           stroke_width=3 if highlight else 1)
    d.text(x + 8, y + 18, _fit(title, room if room is not None else w_ - 16, 13, True),
           size=13, weight="bold")


def _fist_title(fist: str, fists: dict[str, Any]) -> Text:
    """``The left fist`` (``: bead 3`` when the viewer divided them)."""
    if fist in fists:
        return (T("The left fist: bead %(bead)s", bead=fists[fist]) if fist == "left"
                else T("The right fist: bead %(bead)s", bead=fists[fist]))
    return T("The left fist") if fist == "left" else T("The right fist")


def _fist_label(fist: str, fists: dict[str, Any]) -> Text:
    return T("%(fist)s %(bead)s", fist=w.FISTS[fist], bead=fists.get(fist, "?"))


def _pending(d: Drawing, view: dict[str, Any], viewer: int | None, y: float,
             s: _Say) -> float:
    pending = view.get("pending") or {}
    if pending.get("kind") == "fist_pick":
        d.text(10, y + 16, _fit(s(T("The two fists")), 106, 12, True), size=12,
               weight="bold")
        fists = pending.get("fists") or {}
        for i, fist in enumerate(("left", "right")):
            with d.group(target=f"fist:{fist}", title=s(_fist_title(fist, fists))):
                d.rect(120 + i * 90, y, 80, 24, fill="#FFFFFF", rx=10)
                d.text(160 + i * 90, y + 16, _fit(s(_fist_label(fist, fists)), 76, 11),
                       size=11, anchor="middle")
        return y + 30
    if pending.get("kind") == "writ_keep" and pending.get("cards"):
        d.text(10, y + 16, _fit(s(T("Royal Writs drawn")), 146, 12, True), size=12,
               weight="bold")
        per_row = max(1, int((d.width - 140) // 150))  # five drawn writs take two rows
        for i, card in enumerate(pending["cards"]):
            _writ(d, 140 + (i % per_row) * 150, y + (i // per_row) * 40, card, s)
        return y + 40 * -(-len(pending["cards"]) // per_row)
    return y


def _writ_title(card: dict[str, Any]) -> Text:
    return T("%(name)s (%(kind)s): %(detail)s", name=card["name"], kind=card["kind"],
             detail=card.get("scores", card["kind"]))


def _writ(d: Drawing, x: float, y: float, card: dict[str, Any], s: _Say) -> None:
    detail = s(card.get("scores", card["kind"]))
    with d.group(target=f"writ:{card['id']}", title=s(_writ_title(card))):
        d.rect(x, y, 140, 34, fill="#FFF8DC", rx=4)
        name = s(card["name"])
        name = name if len(name) <= 21 else name[:20].rstrip() + "…"
        if _span(name, 11, True) > 155:  # wide letters (German): cut by the estimate,
            name = _fit(name, 146, 11, True)  # which errs some 10 % wide here
        d.text(x + 6, y + 14, name, size=11, weight="bold")  # the card is 140 wide
        d.text(x + 6, y + 28, detail[:26], size=9, fill=MUTED)


def _player_title(p: dict[str, Any]) -> Text:
    return T("%(name)s: %(vp)s, %(shillings)s", name=p["name"], vp=_vp(p["vp"]),
             shillings=_shillings(p["shillings"]))


def _stats(p: dict[str, Any], s: _Say) -> str:
    """``3 vp · 5 shillings · 1 seal · 2 markers``."""
    return " · ".join(s(t) for t in (
        _vp(p["vp"]), _shillings(p["shillings"]), P("%(n)s seal", "%(n)s seals", p["seals"]),
        P("%(n)s marker", "%(n)s markers", p["markers"])))


def _vessels(p: dict[str, Any], s: _Say, keep: str = " ") -> str:
    """``Wine barrel 1 · vessels: Ship 1`` (a vessel and its count joined by ``keep``)."""
    vessels = ", ".join(f"{s(w.vessel_title(v))} {n}".replace(" ", keep)
                        for v, n in p["vessels"].items() if n)
    return s(T("Wine barrel %(n)s · vessels: %(vessels)s", n=p["wine_barrel"],
               vessels=vessels or T("none")))


def _pawns(p: dict[str, Any], s: _Say, keep: str = " ") -> str:
    """``Pawns: Farmer (wine), Monk`` (a pawn's words joined by ``keep``)."""
    pawns = ", ".join(s(T("%(guild)s (wine)", guild=w.guild_name(str.__str__(pw["guild"])))
                        if pw["wine"] else w.guild_name(str.__str__(pw["guild"])))
                      .replace(" ", keep) for pw in p["pawns"] if pw["guild"])
    return s(T("Pawns: %(pawns)s", pawns=pawns or T("none in play")))


def _location_title(loc: dict[str, Any], s: _Say) -> str:
    goods = sum(loc["goods"].values())
    return (s(T("Location #%(id)s: %(kind)s", id=loc["id"], kind=loc["kind"]))
            + (f" ({s(w.guild_name(str.__str__(loc['guild'])))})" if loc["guild"] else "")
            + (f", {s(_goods(goods))}" if goods else ""))


def _goods(n: int) -> Text:
    return P("%(n)s good", "%(n)s goods", n)


def _writs_line(p: dict[str, Any], s: _Say) -> str:
    """``Writs: 2 · stars: Farmer 3 · tiles 1 · service 0``."""
    stars = ", ".join(f"{s(w.guild_name(g))} {n}" for g, n in p["stars"].items() if n)
    return " · ".join([s(T("Writs: %(n)s", n=p["writs"]))]
                      + ([s(T("stars: %(stars)s", stars=stars))] if stars else [])
                      + [s(T("tiles %(n)s", n=len(p["tiles"]))),
                         s(T("service %(n)s", n=p["military_service"]))])


def _player(d: Drawing, view: dict[str, Any], p: dict[str, Any], viewer: int | None,
            changed: _Changes, y: float, s: _Say) -> float:
    seat = p["seat"]
    mine = seat == viewer
    hand = p.get("hand") or []
    h = 178 + (44 if hand else 0)
    hot = changed("players", seat)
    with d.group(highlight=hot, title=s(_player_title(p))):
        d.rect(10, y, WIDTH - 20, h, fill="#FFFFFF", rx=8,
               stroke=HIGHLIGHT if hot else seat_colour(seat), stroke_width=3)
        d.circle(26, y + 18, 8, fill=seat_colour(seat), stroke=None)
        d.text(40, y + 23, s(T("%(name)s (you)", name=p["name"])) if mine else p["name"],
               size=15, weight="bold")
        d.text(WIDTH - 24, y + 23, _stats(p, s), size=12, anchor="end")
    for i, good in enumerate(GOODS):
        _good(d, 24 + i * 52, y + 46, good, p["goods"].get(good, 0), s)
    d.text(300, y + 50, _fit(_vessels(p, s), WIDTH - 330, 11), size=11)
    d.text(24, y + 72, _fit(_pawns(p, s), WIDTH - 54, 11), size=11)
    for i, loc in enumerate(p["locations"][:12]):
        lx = 24 + i * 64
        goods = sum(loc["goods"].values())
        with d.group(target=f"location:{loc['id']}" if mine else None,
                     title=_location_title(loc, s)):
            d.rect(lx, y + 82, 58, 30, fill=GUILD_COLOUR.get(loc["guild"] or "", "#F3F3F3"),
                   rx=4)
            d.text(lx + 29, y + 96, f"#{loc['id']} "
                   f"{s(w.location_short(str.__str__(loc['kind'])))[:7]}", size=9,
                   anchor="middle")
            if goods:
                d.text(lx + 29, y + 108, s(_goods(goods)), size=9, anchor="middle",
                       fill=MUTED)
    _cards(d, p, mine, y + 122, s)
    d.text(24, y + 170, _fit(_writs_line(p, s), WIDTH - 54, 11), size=11, fill=MUTED)
    for i, card in enumerate(hand):
        _writ(d, 24 + i * 150, y + 180, card, s)
    return y + h


def _cards(d: Drawing, p: dict[str, Any], mine: bool, y: float, s: _Say, per_row: int = 8,
           step: float = 96, width: float = 90, small: float = 9, count: bool = True,
           middle: bool = False) -> None:
    """The eight action cards, ``width`` wide, ``per_row`` to a row ``step`` apart: the owner
    sees which are selected; everyone sees which were played (and, if ``count``, how many
    are left once revealed, above the cards' right end; the state at ``small``; with
    ``middle`` a card's name alone is set in its middle, its short name)."""
    selected = set(p.get("selected") or [])
    played = p["played"]
    for i, card in enumerate(CARD_NAMES):
        x = 24 + (i % per_row) * step
        y_card = y + (i // per_row) * 40
        state = (T("played") if card in played else T("selected") if card in selected
                 else None)
        fill = "#DDDDDD" if card in played else "#FFF2CC" if card in selected else "#FFFFFF"
        title = s(w.card_title(card)) + (f" ({s(state)})" if state else "") \
            + f": {s(CARD_TEXT.get(card, ''))}"
        with d.group(target=f"card:{card}" if mine else None, title=title):
            d.rect(x, y_card, width, 34, fill=fill, rx=4)
            label = s(w.card_short(card) if middle else w.card_title(card))
            d.text(x + width / 2, y_card + (21 if middle and not state else 15),
                   _fit(label, width - 4, 11), size=11, anchor="middle")
            if state:
                d.text(x + width / 2, y_card + 29, _fit(s(state), width - 4, small), size=small,
                       anchor="middle", fill=MUTED)
    if count and "cards_left" in p and not mine:
        d.text(d.width - 24, y - 4, s(_cards_left(p["cards_left"])), size=10,
               anchor="end", fill=MUTED)


def _cards_left(n: int) -> Text:
    return P("%(n)s card left", "%(n)s cards left", n)


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


def _header_narrow(d: Drawing, table: dict[str, Any], scores: dict[int, str],
                   s: _Say) -> float:
    """The strip :func:`games.svg.header` draws, one player to a line (a long name cut)
    and the deadline wrapped: nothing past the narrow picture's edge."""
    names = table.get("names") or []
    to_act = set(table.get("to_act") or [])
    viewer = table.get("seat")
    y = 22.0
    for seat, name in enumerate(names):
        bold = seat in to_act
        mine = seat == viewer
        rest = (s(T("%(name)s (you)", name="")) if mine else "") \
            + (f": {scores[seat]}" if seat in scores else "")
        room = d.width - 10 - 38 - _span(rest, 14, bold)
        colour = seat_colour(seat)
        if bold:
            d.polygon([(10, y - 11), (10, y + 1), (20, y - 5)], fill=colour, stroke=None)
        d.circle(28, y - 5, 6, fill=colour, stroke=None)
        cut = _fit(name, room, 14, bold)
        label = (s(T("%(name)s (you)", name=cut)) if mine else cut) \
            + (f": {scores[seat]}" if seat in scores else "")
        d.text(38, y, label, size=14, weight="bold" if bold else None)
        y += 22
    y -= 22
    deadline = table.get("deadline")
    if deadline:  # broken after its commas first: the day, then the time
        parts = s(T("Deadline: %(when)s", when=deadline)).split(", ")
        for k, part in enumerate(parts):
            for line in _lines(part + ("," if k < len(parts) - 1 else ""), d.width - 20, 13):
                y += 18
                d.text(10, y, line, size=13, fill=MUTED)
    return y + 14


def _status_narrow(d: Drawing, view: dict[str, Any], names: list[str], y: float,
                   s: _Say) -> float:
    """The epochs, then the round and phase, then what is asked now, wrapped."""
    _epochs(d, view, y, s)
    y += 22
    d.text(10, y + 17, _fit(s(_round(view)), d.width - 20, 13), size=13)
    said = _asked(view, names)
    asked = _lines(s(said), d.width - 20, 13, bold=True) if said is not None else []
    for k, line in enumerate(asked):
        d.text(10, y + 40 + 16 * k, line, size=13, weight="bold")
    return y + 48 + 16 * max(len(asked) - 1, 0)


def _guilds_narrow(d: Drawing, view: dict[str, Any], changed: _Changes, y: float,
                   s: _Say) -> float:
    """The guilds two to a row."""
    w_ = (d.width - 20) / 2
    for i, g in enumerate(GUILDS):
        _guild_card(d, view, changed, g, 10 + (i % 2) * w_, y + (i // 2) * 100, w_,
                    small=NARROW_TEXT, tiny=NARROW_TEXT, s=s)
    return y + 100 * -(-len(GUILDS) // 2)


def _boards_narrow(d: Drawing, view: dict[str, Any], changed: _Changes, y: float,
                   s: _Say) -> float:
    """The boards one under another, each as wide as the picture, then the region tiles
    and the haversack."""
    w_ = d.width - 20  # a panel's width, from x = 10
    # Farmer: barn and chickens
    farmer = view["farmer"]
    with d.group(highlight=changed("farmer"), title=s(_barn_title(farmer))):
        _panel(d, 10, y, w_, 100, s(PANELS["farmer"]), changed("farmer"))
        for i, good in enumerate(GOODS):
            _good(d, 20 + i * 58, y + 42, good, farmer["barn"].get(good, 0), s, size=10)
        d.text(20, y + 70, _fit(s(_chickens(farmer)), w_ - 20, 11), size=11)
        d.text(20, y + 90, _fit(s(T("Purse: %(n)ss", n=farmer["purse"])), w_ - 20, 11),
               size=11)
    y += 106
    # Merchant: the market, one row per good, each row a target as wide as the panel
    market = view["merchant"]["market"]
    rows = [g for g in GOODS if g in market]
    h = 30 + 22 * max(len(rows), 1)
    _panel(d, 10, y, w_, h, s(PANELS["merchant"]), changed("merchant"))
    for i, good in enumerate(rows):
        row = market[good]
        with d.group(target=f"good:{good}", title=s(_market_title(good, row))):
            gy = y + 42 + i * 22
            d.rect(16, gy - 14, w_ - 12, 20, fill="#FFFFFF", stroke=None, rx=4)
            _good(d, 24, gy, good, "", s, size=10)
            d.text(48, gy + 4, _fit(s(_market_row(good, row)), w_ - 44, 11), size=11)
    y += h + 6
    # Alchemist: carts and vessels
    alch = view["alchemist"]
    _panel(d, 10, y, w_, 104, s(PANELS["alchemist"]), changed("alchemist"))
    for i, good in enumerate(GOODS):
        _good(d, 20 + i * 58, y + 42, good, alch["carts"].get(good, 0), s, size=10)
    vw = (w_ - 20 - 2 * 6) / len(VESSELS)
    for i, vessel in enumerate(VESSELS):
        with d.group(target=f"vessel:{vessel}", title=s(_vessel_title(vessel, alch))):
            vx = 20 + i * (vw + 6)
            d.rect(vx, y + 56, vw, 40, fill="#FFFFFF", rx=4)
            d.text(vx + vw / 2, y + 72, _fit(s(_vessel_label(vessel)), vw - 4, 11),
                   size=11, anchor="middle")
            d.text(vx + vw / 2, y + 89,
                   _fit(s(T("%(n)s left", n=alch["vessel_supply"].get(vessel, 0))), vw - 4,
                        11), size=11, anchor="middle", fill=MUTED)
    y += 110
    # Knight: rows of sections by colour, then the monsters one to a line
    knight = view["knight"]
    monsters = list(knight["monsters"].items())
    h = 30 + 22 * len(knight["rows"]) + 22 * len(monsters) + 4
    _panel(d, 10, y, w_, h, s(PANELS["knight"]), changed("knight"))
    for i, row in enumerate(knight["rows"]):
        ry = y + 40 + i * 22
        colour = seat_colour(row["seat"]) if isinstance(row["seat"], int) else NEUTRAL
        d.text(20, ry + 4, _fit(s(row["colour"]), 94, 11), size=11)
        for j, filled in enumerate(row["sections"]):
            d.rect(120 + j * 40, ry - 8, 34, 14, fill=colour if filled else "#FFFFFF", rx=3)
    my = y + 40 + len(knight["rows"]) * 22
    for i, (monster, owner) in enumerate(monsters):
        with d.group(target=f"monster:{monster}", title=s(_monster(monster, owner, False))):
            d.rect(16, my + i * 22 - 11, w_ - 12, 20, fill="#FFFFFF", stroke=None, rx=4)
            d.text(20, my + i * 22 + 4, _fit(s(_monster(monster, owner, True)), w_ - 20, 11),
                   size=11)
    y += h + 6
    # Noble: scrolls with seals (the title cut short of the seals in supply)
    noble = view["noble"]
    supply = s(T("seals in supply: %(n)s", n=noble["seal_supply"]))
    _panel(d, 10, y, w_, 60, s(PANELS["noble"]), changed("noble"),
           room=w_ - 26 - _span(supply, NARROW_TEXT))
    for i, sealed in enumerate(noble["scrolls"]):
        with d.group(target=f"scroll:{i}", title=s(_scroll(i, sealed))):
            sx = 20 + i * 44
            d.rect(sx, y + 28, 38, 24, fill="#F6E7C1", rx=8)
            if sealed:
                d.circle(sx + 19, y + 40, 7, fill="#B22222")
    d.text(10 + w_ - 10, y + 18, supply, size=NARROW_TEXT, anchor="end", fill=MUTED)
    y += 66
    # Monk: rosary
    monk = view["monk"]
    lines = _lines(s(_rosary(monk)), w_ - 20, 11)
    _panel(d, 10, y, w_, 30 + 16 * len(lines), s(PANELS["monk"]), changed("monk"))
    for k, line in enumerate(lines):
        d.text(20, y + 36 + 16 * k, line, size=11)
    y += 30 + 16 * len(lines) + 8
    # Region tiles: the heading on a line of its own, the stacks below
    d.text(10, y + 14, _fit(s(T("Region tiles")), w_, 12, True), size=12, weight="bold")
    step = min(54.0, (w_ + 8) / max(len(view["stacks"]), 1))
    for i, stack in enumerate(view["stacks"]):
        with d.group(target=f"stack:{i}", title=s(_stack(i, stack))):
            tx = 10 + i * step
            d.rect(tx, y + 22, step - 8, 24, fill="#E8F0E0" if stack else "#FFFFFF", rx=3)
            d.text(tx + (step - 8) / 2, y + 38, f"{stack[0]}·{len(stack)}" if stack else "—",
                   size=NARROW_TEXT, anchor="middle")
    y += 52
    # the haversack, and the writs left in the deck
    label = s(T("Haversack"))  # a longer word moves the goods right, closer together
    d.text(10, y + 14, _fit(label, 120, 12, True), size=12, weight="bold")
    gx = max(92.0, 10 + min(_span(label, 12, True), 120) + 4)
    step = min(46.0, (d.width - 46 - gx) / (len(GOODS) - 1))
    for i, good in enumerate(GOODS):
        _good(d, gx + i * step, y + 12, good, view["haversack"].get(good, 0), s, size=10)
    d.text(d.width - 10, y + 36,
           _fit(s(T("Royal Writs in the deck: %(n)s", n=view["writ_deck"])), w_, NARROW_TEXT),
           size=NARROW_TEXT, anchor="end", fill=MUTED)
    return y + 42


def _pending_narrow(d: Drawing, view: dict[str, Any], y: float, s: _Say) -> float:
    """The two fists to pick from, or the Royal Writs drawn (one to a row)."""
    pending = view.get("pending") or {}
    if pending.get("kind") == "fist_pick":
        d.text(10, y + 16, _fit(s(T("The two fists")), 116, 12, True), size=12,
               weight="bold")
        fists = pending.get("fists") or {}
        for i, fist in enumerate(("left", "right")):
            with d.group(target=f"fist:{fist}", title=s(_fist_title(fist, fists))):
                d.rect(130 + i * 100, y, 90, 26, fill="#FFFFFF", rx=10)
                d.text(175 + i * 100, y + 17, _fit(s(_fist_label(fist, fists)), 86, 11),
                       size=11, anchor="middle")
        return y + 32
    if pending.get("kind") == "writ_keep" and pending.get("cards"):
        d.text(10, y + 16, _fit(s(T("Royal Writs drawn")), d.width - 20, 12, True), size=12,
               weight="bold")
        for i, card in enumerate(pending["cards"]):
            _writ_narrow(d, 10, y + 24 + i * 42, d.width - 20, card, s)
        return y + 24 + 42 * len(pending["cards"])
    return y


def _writ_narrow(d: Drawing, x: float, y: float, w_: float, card: dict[str, Any],
                 s: _Say) -> None:
    """A Royal Writ ``w_`` wide: its name and what it scores, each cut to the card."""
    detail = s(card.get("scores", card["kind"]))
    with d.group(target=f"writ:{card['id']}", title=s(_writ_title(card))):
        d.rect(x, y, w_, 36, fill="#FFF8DC", rx=4)
        d.text(x + 6, y + 15, _fit(s(card["name"]), w_ - 12, 11, bold=True), size=11,
               weight="bold")
        d.text(x + 6, y + 30, _fit(detail, w_ - 12, 11), size=11, fill=MUTED)


def _player_narrow(d: Drawing, p: dict[str, Any], viewer: int | None, changed: _Changes,
                   y: float, s: _Say) -> float:
    """A player's panel as wide as the picture: the same facts as :func:`_player`, one
    thing to a line where the desk puts them side by side."""
    seat, width = p["seat"], d.width - 20
    mine = seat == viewer
    hand = p.get("hand") or []
    hot = changed("players", seat)
    inner = width - 28  # text from x = 24 to 14 short of the frame's right edge
    top = y
    with d.group(highlight=hot, title=s(_player_title(p))):
        d.circle(26, y + 18, 8, fill=seat_colour(seat), stroke=None)
        you = s(T("%(name)s (you)", name="")) if mine else ""
        cut = _fit(p["name"], width - 44 - _span(you, 15, True), 15, True)
        d.text(40, y + 23, s(T("%(name)s (you)", name=cut)) if mine else cut,
               size=15, weight="bold")
    y += 26
    for line in _lines(_stats(p, s), inner, 12):
        y += 16
        d.text(24, y, line, size=12)
    y += 26
    for i, good in enumerate(GOODS):
        _good(d, 24 + i * 58, y, good, p["goods"].get(good, 0), s, size=10)
    y += 6
    # a vessel and its count, or a pawn and its wine, stay on one line (no-break spaces)
    for line in (_lines(_vessels(p, s, "\u00a0"), inner, 11)
                 + _lines(_pawns(p, s, "\u00a0"), inner, 11)):
        y += 16
        d.text(24, y, line, size=11)
    # locations three to a row
    locations = p["locations"][:12]
    lw = (inner - 2 * 6) / 3
    for i, loc in enumerate(locations):
        lx, ly = 24 + (i % 3) * (lw + 6), y + 10 + (i // 3) * 38
        goods = sum(loc["goods"].values())
        with d.group(target=f"location:{loc['id']}" if mine else None,
                     title=_location_title(loc, s)):
            d.rect(lx, ly, lw, 34, fill=GUILD_COLOUR.get(loc["guild"] or "", "#F3F3F3"), rx=4)
            d.text(lx + lw / 2, ly + (15 if goods else 21),
                   _fit(f"#{loc['id']} {s(w.location_short(str.__str__(loc['kind'])))}",
                        lw - 8, 11), size=11,
                   anchor="middle")
            if goods:
                d.text(lx + lw / 2, ly + 29, _fit(s(_goods(goods)), lw - 8, 11), size=11,
                       anchor="middle", fill=MUTED)
    y += 10 + 38 * -(-len(locations) // 3)
    # the action cards four to a row, how many are left on a line above them
    if "cards_left" in p and not mine:
        y += 16
        d.text(24, y, _fit(s(_cards_left(p["cards_left"])), inner, 11), size=11, fill=MUTED)
    cw = (inner - 3 * 6) / 4
    _cards(d, p, mine, y + 8, s, per_row=4, step=cw + 6, width=cw, small=NARROW_TEXT,
           count=False, middle=True)
    y += 8 + 40 * -(-len(CARD_NAMES) // 4)
    for line in _lines(_writs_line(p, s), inner, 11):
        y += 15
        d.text(24, y, line, size=11, fill=MUTED)
    y += 8
    for i, card in enumerate(hand):
        _writ_narrow(d, 24, y + i * 42, inner, card, s)
    y += 42 * len(hand) + 4
    # the frame on top (stroke only), as tall as what it holds
    d.rect(10, top, width, y - top, fill="none", rx=8,
           stroke=HIGHLIGHT if hot else seat_colour(seat), stroke_width=3)
    return y
