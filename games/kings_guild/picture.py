"""The King's Guild table as one SVG picture, drawn from a seat's view only.

Top to bottom: the players (who is to act, prestige on the table, coins, treasures held),
the round and what is asked now; the quest row (hero, items with their cost and coins,
sigils, the Thug, the reward's treasure colours); the specialist row (price, discount coins,
prestige, timing, effect); the rooms for sale; the treasure decks, the relics in the
discards and the resource supply; what the viewer is asked to choose (drawn treasures to
keep); the viewer's hand (only theirs: the others show a count); then every guild board,
the viewer's first: the specialist spaces above the guild, the 4 x 3 grid with the guild
tile, rooms and bonus spaces, storage, completed quests and specialists.

For an email (``table["medium"] == "email"``) the same sections are drawn 400 units wide
instead of 480 (a phone shows an email picture about 340 px wide), each player's facts
under their name, each guild's storage under its grid, only the reader's own grid (the
others' rooms and specialists are listed in words), and no tooltips.

Shapes a move acts on carry ``data-target`` names; :func:`targets` gives them for a move:

==================  =========================================================
``quest:<slot>``    a quest card in the row (craft, Thug, Witch)
``item:<slot>:<i>`` one item of that quest (craft)
``specialist:<id>`` a specialist in the row or in the viewer's guild
``space:<space>``   ``top`` or a chamber of the viewer's guild (hire, Bard)
``cell:<x>:<y>``    an empty cell of the viewer's guild (place a room)
``room:<name>``     a room for sale (build)
``card:<card>``     a treasure in the viewer's hand (play, sell, discard)
``drawn:<i>``       a treasure the viewer drew and may keep
``relic:<name>``    a relic in the discards (the Curator)
``deck:<colour>``   a treasure deck (draw a colour)
``supply:<res>``    a resource in the supply (gather, gain, spoil, trade for)
``mine:<res>``      a resource in the viewer's storage (discard, trade away)
``store:<s>:<res>`` a resource in another seat's storage (the Smuggler)
``council``         the Offering to the Council (make an offering)
==================  =========================================================
"""

from __future__ import annotations

import textwrap
from functools import cache
from typing import Any

from games.kings_guild import cards
from games.svg import EMAIL_WIDTH, HIGHLIGHT, INK, MUTED, Drawing, for_email, plural, seat_colour

WIDTH = 480  # tall, not wide: a phone (390 px) shows it at 0.8, small print stays legible
MARGIN = 10
GAP = 8
COLUMNS = 2
CELL_W, CELL_H = 64, 52  # one cell of a guild board
COLUMN = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS  # cards side by side
STORAGE_BELOW = 150  # an email's guild: the storage and quests done, under the grid
RESOURCE_COLOUR = {"cloth": "#9FA8DA", "leather": "#A0522D", "metal": "#9E9E9E",
                   "wood": "#6B8E23", "gem": "#E53935", "magic": "#8E44AD", "coins": "#D4A017"}
TREASURE_COLOUR = {"blue": "#1E88E5", "red": "#E53935", "yellow": "#F2C200"}
HERO_COLOUR = {"warrior": "#E53935", "rogue": "#F2C200", "mage": "#1E88E5"}
CARD = "#FFFFFF"
EVENT = "#EDE7F6"
ROOM_FILL = {"basic": "#E8F0E0", "master": "#F6E7C8", "guild_special": "#E0ECF4",
             "special": "#F3D9D9"}
DECISIONS = {
    "start_resources": "choose starting resources", "start_treasure": "choose a treasure colour",
    "place_room": "place a room", "gather": "gather resources", "extra_craft": "craft again",
    "keep_treasure": "keep a treasure from a shared quest", "appraiser": "use the Appraiser",
    "discard_one": "discard a treasure", "hero_bonus": "pay 1 coin for a treasure",
    "thug": "move the Thug", "warlock": "use the Warlock", "contract": "hire with a Contract",
    "overseer": "take the oldest specialist", "alchemist": "trade with the Alchemist",
    "curator": "buy relics with the Curator", "merchant_draw": "draw treasures (Merchant)",
    "merchant_discard": "discard treasures (Merchant)", "minstrel": "draw a treasure",
    "smuggler": "steal a resource", "witch": "take a quest (Witch)",
    "plenty": "gain a resource (Scroll of Plenty)", "wonders": "draw a treasure",
    "wonders_next": "pay 1 coin for a treasure (Scroll of Wonders)",
    "spoil": "spoil a resource", "map_discard": "discard a treasure (Treasure Map)",
    "map_colors": "choose two treasure colours (Treasure Map)", "bard": "move specialists",
    "substitute": "choose another colour", "discard_resource": "discard resources",
    "sell_down": "sell treasures down to the hand size", "funeral_bid": "bid for the Statue",
}
ACTIONS = {"gather": "gathered", "craft": "crafted", "expand": "expanded",
           "offering": "made an offering", "statue": "built the Statue"}


# -- targets ------------------------------------------------------------------------------


def targets(move: dict[str, Any]) -> list[str]:
    """The picture's shapes ``move`` acts on (see the module docstring); [] for none."""
    kind = move.get("type")
    if kind == "craft":
        return [f"quest:{move['slot']}"] + [f"item:{move['slot']}:{i}" for i in move["items"]]
    if kind in ("move_thug", "take_quest"):
        return [f"quest:{move['slot']}"]
    if kind in ("hire", "hire_oldest", "move_specialist"):
        return [f"specialist:{move['specialist']}", f"space:{move['space']}"]
    if kind == "place":
        return [f"cell:{move['x']}:{move['y']}"]
    if kind == "build":
        return [f"room:{move['room']}"]
    if kind in ("play", "sell", "discard_treasure", "destroy_scroll"):
        return [f"card:{move['card']}"]
    if kind == "buy_relic":
        return [f"relic:{cards.treasure_name(move['card'])}"]
    if kind in ("draw", "choose_color"):
        return [f"deck:{move['color']}"]
    if kind == "map_colors":
        return [f"deck:{c}" for c in dict.fromkeys(move["colors"])]
    if kind == "keep":
        return [f"drawn:{move['index']}"]
    if kind in ("take", "gain", "spoil"):
        return [f"supply:{move['resource']}"]
    if kind == "choose_resources":
        return [f"supply:{r}" for r in dict.fromkeys(move["resources"])]
    if kind == "discard_resource":
        return [f"mine:{move['resource']}"]
    if kind == "transmute":
        return [f"mine:{move['give']}", f"supply:{move['take']}"]
    if kind == "steal":
        return [f"store:{move['from']}:{move['resource']}"]
    if kind == "offer":
        return ["council"]
    return []


# -- small helpers ------------------------------------------------------------------------


def _lines(text: str, chars: int, most: int) -> list[str]:
    """``text`` wrapped to ``chars`` a line, at most ``most`` lines (… when cut)."""
    lines = textwrap.wrap(str(text), chars) or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: max(0, chars - 1)].rstrip() + "…"
    return lines


def _chars(width: float, size: float, bold: bool = False) -> int:
    """About how many characters of ``size`` fit in ``width`` (DejaVu Sans is wide)."""
    return max(4, int(width / (size * (0.64 if bold else 0.57))))


def _paragraph(d: Drawing, x: float, y: float, text: str, width: float, size: float,
               most: int, **attrs: Any) -> float:
    """Wrapped text from baseline ``y``; returns the baseline after the last line."""
    for line in _lines(text, _chars(width, size, attrs.get("weight") == "bold"), most):
        d.text(x, y, line, size=size, **attrs)
        y += size * 1.25
    return y


def _frame(d: Drawing, x: float, y: float, w: float, h: float) -> None:
    """The outline that marks what changed since the viewer's last move."""
    d.rect(x - 3, y - 3, w + 6, h + 6, fill="none", stroke=HIGHLIGHT, stroke_width=5, rx=7)


def _cost_text(cost: dict[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in cost.items()) or "nothing"


def _resource_dot(d: Drawing, cx: float, cy: float, resource: str, r: float = 5) -> None:
    colour = RESOURCE_COLOUR.get(resource, MUTED)
    if resource == "gem":
        d.polygon([(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
                  fill=colour, stroke=INK, stroke_width=0.5)
    elif resource == "magic":
        d.polygon([(cx, cy - r - 1), (cx + r * 0.4, cy - r * 0.3), (cx + r + 1, cy),
                   (cx + r * 0.4, cy + r * 0.3), (cx, cy + r + 1), (cx - r * 0.4, cy + r * 0.3),
                   (cx - r - 1, cy), (cx - r * 0.4, cy - r * 0.3)],
                  fill=colour, stroke=INK, stroke_width=0.5)
    elif resource == "coins":
        d.circle(cx, cy, r, fill=colour, stroke=INK, stroke_width=0.5)
    else:
        d.rect(cx - r, cy - r, 2 * r, 2 * r, fill=colour, stroke=INK, stroke_width=0.5, rx=1.5)


def _cost_row(d: Drawing, x: float, y: float, cost: dict[str, int], size: float = 11) -> float:
    """Resource icons with amounts from (x, baseline y); returns the x after them."""
    for resource, n in cost.items():
        _resource_dot(d, x + 5, y - size * 0.35, resource, 4.5)
        label = f"{n} {resource}"
        d.text(x + 12, y, label, size=size)
        x += 16 + len(label) * size * 0.6
    return x


def _name(table: dict[str, Any], view: dict[str, Any], seat: int | None) -> str:
    names = table.get("names") or view.get("names") or []
    if seat is None or not 0 <= seat < len(names):
        return "nobody"
    return str(names[seat])


def _prev(previous: dict[str, Any] | None, *path: Any) -> Any:
    """``previous[path...]`` or None when the previous view lacks it."""
    here: Any = previous
    for key in path:
        try:
            here = here[key]
        except (KeyError, IndexError, TypeError):
            return None
    return here


def _changed(previous: dict[str, Any] | None, now: Any, *path: Any) -> bool:
    """Whether ``now`` differs from the previous view's value at ``path`` (never, without
    a previous view: a first look has nothing to compare)."""
    return previous is not None and _prev(previous, *path) != now


@cache
def _relic_names() -> frozenset[str]:
    return frozenset(t["name"] for t in cards.treasure_types().values()
                     if t["category"] == "Relic")


def _section(d: Drawing, y: float, title: str, note: str = "") -> float:
    """A section title (smaller when long, to stay inside the width) and a muted note."""
    size = min(15.0, (d.width - 2 * MARGIN) / (len(title) * 0.62))
    d.text(MARGIN, y + 16, title, size=round(size, 1), weight="bold")
    y += 24
    if note:
        y = _paragraph(d, MARGIN, y + 8, note, d.width - 2 * MARGIN, 11, 2, fill=MUTED) - 4
    return y


# -- the picture --------------------------------------------------------------------------


def picture(view: dict[str, Any], table: dict[str, Any]) -> str:
    """The whole table for the seat ``view`` belongs to (see the module docstring)."""
    parts = _Picture(view, table)
    return parts.render()


class _Picture:
    """One drawing pass; sections are drawn top to bottom, each returning its bottom y."""

    def __init__(self, view: dict[str, Any], table: dict[str, Any]) -> None:
        self.view, self.table = view, table
        self.viewer: int | None = table.get("seat", view.get("seat"))
        self.previous: dict[str, Any] | None = table.get("previous")
        viewer = self.name(self.viewer) if self.viewer is not None else "a spectator"
        # An email is read on a phone without zoom: narrower (its text larger once scaled
        # to the screen), storage under each guild's grid, no tooltips.
        self.email = for_email(table)
        self.W = EMAIL_WIDTH if self.email else WIDTH
        self.column = (self.W - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS
        # the height is known once every section is drawn (render sets it)
        self.d = Drawing(self.W, 0, title=f"The King's Guild, seen by {viewer}",
                         description=self.description(), tooltips=not self.email)

    def name(self, seat: int | None) -> str:
        return _name(self.table, self.view, seat)

    def render(self) -> str:
        y = self.players(6)
        y = self.status(y)
        y = self.final_scores(y)
        y = self.quests(y)
        y = self.specialists(y)
        y = self.rooms(y)
        y = self.treasures(y)
        y = self.decision(y)
        y = self.hand(y)
        for g in self.board_order():
            y = self.guild(y, g)
        self.d.height = int(y + MARGIN)
        return self.d.render()

    def description(self) -> str:
        v = self.view
        waiting = ", ".join(self.name(s) for s in v.get("to_act", [])) or "nobody"
        return (f"Round {v.get('round', 1)}. Waiting for {waiting}. "
                + " ".join(f"{self.name(g['seat'])}: {self.prestige_text(g)}."
                           for g in v["guilds"]))

    def board_order(self) -> list[dict[str, Any]]:
        guilds = list(self.view["guilds"])
        if self.viewer is not None:
            guilds.sort(key=lambda g: g["seat"] != self.viewer)
        return guilds

    def prestige_text(self, g: dict[str, Any]) -> str:
        outcome = self.view.get("outcome")
        if outcome:
            return f"{outcome['scores'][g['seat']]} prestige (final)"
        if g.get("prestige") is None:
            return "? prestige (hidden during the bids)"
        return f"{g['prestige']} prestige on the table"

    # -- players and status -------------------------------------------------------------
    def players(self, y: float) -> float:
        d, v = self.d, self.view
        to_act = set(self.table.get("to_act", v.get("to_act", [])))
        for g in v["guilds"]:
            seat = g["seat"]
            row_y = y + 20
            colour = seat_colour(seat)
            name = self.name(seat) + (" (you)" if seat == self.viewer else "")
            coins = "? coins" if g["coins"] is None else plural(g["coins"], "coin")
            score = self.prestige_text(g).replace(" on the table", "").replace(
                " (hidden during the bids)", "")
            detail = f"{score} · {coins} · {plural(g['hand_count'], 'treasure')}"
            title = (f"{name} ({g['guild']}): {self.prestige_text(g)} · {coins} · "
                     f"{plural(g['hand_count'], 'treasure')} in hand"
                     + (" · to act now" if seat in to_act else ""))
            before = _prev(self.previous, "guilds", seat, "prestige")
            changed = None not in (before, g.get("prestige")) and before != g["prestige"]
            with d.group(title=title, highlight=changed):
                if changed:
                    _frame(d, MARGIN, row_y - 15, self.W - 2 * MARGIN, 20)
                if seat in to_act:
                    d.polygon([(MARGIN, row_y - 12), (MARGIN, row_y), (MARGIN + 10, row_y - 6)],
                              fill=colour, stroke=None)
                d.circle(MARGIN + 20, row_y - 5, 6, fill=colour, stroke=None)
                weight = "bold" if seat in to_act else None
                d.text(MARGIN + 32, row_y, _lines(name, 20, 1)[0], size=14, weight=weight)
                if self.email:  # no room beside the name
                    d.text(MARGIN + 32, row_y + 16, _lines(detail, 48, 1)[0], size=12)
                else:
                    d.text(self.W - MARGIN, row_y, _lines(detail, 40, 1)[0], size=12,
                           fill=INK, anchor="end")
            y = row_y + (20 if self.email else 4)
        deadline = self.table.get("deadline")
        if deadline:
            d.text(MARGIN, y + 18, f"Deadline: {deadline}", size=13, fill=MUTED)
            y += 20
        return y + 4

    def status(self, y: float) -> float:
        d, v = self.d, self.view
        parts = []
        if v.get("over"):
            outcome = v.get("outcome") or {}
            winners = ", ".join(self.name(s) for s in outcome.get("winners", []))
            parts.append(f"Game over. Winner: {winners}")
            if outcome.get("title"):
                parts.append(f"title: {outcome['title']}")
        else:
            parts.append(f"Round {v.get('round', 1)}")
            action = (v.get("turn") or {}).get("action")
            done = f" ({ACTIONS.get(action, action)})" if action else " (no action yet)"
            parts.append(f"{self.name(v['current'])}'s turn{done}")
            decision = v.get("decision")
            if decision:
                who = decision.get("seat")
                what = DECISIONS.get(decision["kind"], decision["kind"].replace("_", " "))
                if who is not None and who != v["current"]:
                    parts.append(f"{self.name(who)} to {what}")
                elif who is not None:
                    parts.append(f"now: {what}")
                else:
                    parts.append(what)
        text = " · ".join(parts)
        lines = len(_lines(text, _chars(self.W - 2 * MARGIN - 16, 13), 2))
        with d.group(title=text):
            d.rect(MARGIN, y + 2, self.W - 2 * MARGIN, 8 + 16 * lines, fill="#F1EAD8",
                   stroke=None, rx=4)
            _paragraph(d, MARGIN + 8, y + 18, text, self.W - 2 * MARGIN - 16, 13, 2)
        y += 10 + 16 * lines - 6
        if not v.get("over") and (v.get("council_drawn")
                                  or v.get("final_turns_left") is not None):
            left = v.get("final_turns_left")
            text = "The Offering to the Council was drawn: final turns"
            if left is not None:
                text += f" ({plural(left, 'turn')} left)"
            target = "council" if self.viewer is not None else None
            with d.group(target=target, title=text + ". Make an offering: a free sigil on "
                         "the Council card instead of an action (2 prestige + coins/3 + "
                         "resources/2)."):
                lines = len(_lines(text, _chars(self.W - 2 * MARGIN - 16, 13), 2))
                d.rect(MARGIN, y + 6, self.W - 2 * MARGIN, 8 + 16 * lines, fill=EVENT,
                       stroke=INK, rx=4)
                _paragraph(d, MARGIN + 8, y + 23, text, self.W - 2 * MARGIN - 16, 13, 2)
            y += 14 + 16 * lines
        if v.get("funeral"):
            f = v["funeral"]
            mine = f.get("your_bid")
            bid = "" if mine is None else f"; your bid: {plural(mine, 'coin')}"
            has = ", ".join(self.name(s) for s in f.get("has_bid", [])) or "nobody yet"
            text = f"The King's Funeral: sealed bids for the King's Statue. Have bid: {has}{bid}"
            lines = len(_lines(text, _chars(self.W - 2 * MARGIN - 16, 12), 3))
            with d.group(title=text):
                d.rect(MARGIN, y + 6, self.W - 2 * MARGIN, 9 + 15 * lines, fill=EVENT, stroke=INK,
                       rx=4)
                _paragraph(d, MARGIN + 8, y + 23, text, self.W - 2 * MARGIN - 16, 12, 3)
            y += 15 + 15 * lines
        result = v.get("funeral_result")
        if result and isinstance(result, dict) and not v.get("funeral"):
            # wrapped: with three bidders it is wider than the page, let alone an email
            y = _paragraph(d, MARGIN, y + 20, self.funeral_text(result), self.W - 2 * MARGIN,
                           12, 2, fill=MUTED) - 13
        return y + 6

    def funeral_text(self, result: dict[str, Any]) -> str:
        winner = result.get("winner")
        bids = result.get("bids") or []
        told = ", ".join(f"{self.name(s)} {b}" for s, b in enumerate(bids))
        if winner is not None:
            who = f"{self.name(winner)} won the King's Statue"
        else:
            who = "a tie, nobody built the Statue" if result.get("tie") else "no Statue"
        return f"The King's Funeral: {who}" + (f" (bids: {told})" if told else "")

    def final_scores(self, y: float) -> float:
        """The rulebook's score sheet, once the game is over (every hand is scored)."""
        d = self.d
        outcome = self.view.get("outcome") or {}
        sheet = outcome.get("sheet")
        if not sheet:
            return y
        y = _section(d, y, "Final scores")
        columns = [("charms", "Charms"), ("charm_bonus", "Most"), ("relics", "Relics"),
                   ("quests", "Quests"), ("specialists", "Spec."), ("rooms", "Rooms"),
                   ("offering", "Offer"), ("total", "Total"), ("coins", "Coins")]
        x0, step = MARGIN + 150, (self.W - 2 * MARGIN - 150) / len(columns)
        for k, (_, head) in enumerate(columns):
            d.text(x0 + k * step + step / 2, y + 12, head, size=11, anchor="middle",
                   fill=MUTED)
        y += 16
        for seat in outcome.get("ranking", range(len(sheet))):
            row = sheet[seat]
            place = (outcome.get("places") or [None] * len(sheet))[seat]
            words = ", ".join(f"{head} {row.get(key, 0)}" for key, head in columns)
            with d.group(title=f"{place}. {self.name(seat)}: {words}"):
                d.rect(MARGIN, y, self.W - 2 * MARGIN, 20, fill=CARD, stroke="#DDDDDD")
                d.circle(MARGIN + 10, y + 10, 5, fill=seat_colour(seat), stroke=None)
                d.text(MARGIN + 20, y + 15, f"{place}. {_lines(self.name(seat), 16, 1)[0]}",
                       size=12, weight="bold" if place == 1 else None)
                for k, (key, _) in enumerate(columns):
                    d.text(x0 + k * step + step / 2, y + 15, row.get(key, 0), size=12,
                           anchor="middle", weight="bold" if key == "total" else None)
            y += 22
        return y + 4

    # -- quests --------------------------------------------------------------------------
    def quests(self, y: float) -> float:
        d, v = self.d, self.view
        slots = v["quest_slots"]
        y = _section(d, y, f"Quests ({v['quest_deck_count']} in the deck)")
        for start in range(0, len(slots), COLUMNS):
            row = slots[start:start + COLUMNS]
            items = max((len(s["quest"].get("items", [])) for s in row if s), default=1)
            height = 84 + 41 * max(1, items)
            for k, slot in enumerate(row):
                x = MARGIN + k * (self.column + GAP)
                self.quest_card(x, y, self.column, height, start + k, slot)
            y += height + GAP
        oracle = v.get("oracle")
        if oracle:
            names = "; ".join(q["name"] for q in oracle)
            y = _paragraph(d, MARGIN, y + 14, f"The Oracle shows you the next quests: {names}",
                           self.W - 2 * MARGIN, 12, 2) - 8
        return y + 4

    def quest_card(self, x: float, y: float, w: float, h: float, index: int,
                   slot: dict[str, Any] | None) -> None:
        d = self.d
        changed = _changed(self.previous, slot, "quest_slots", index)
        if slot is None:
            with d.group(title=f"Quest slot {index + 1}: empty", highlight=changed):
                if changed:
                    _frame(d, x, y, w, h)
                d.rect(x, y, w, h, fill="none", stroke=MUTED, rx=6, stroke_dasharray="4 3")
                d.text(x + w / 2, y + h / 2, "empty", size=12, anchor="middle", fill=MUTED)
            return
        q = slot["quest"]
        if q.get("event"):
            text = cards.events()[q["id"]]["text"]
            if self.view.get("solo") and q["id"] == cards.FUNERAL:
                text = ("Solo: as your action, build the King's Statue for 0 coins "
                        "(4 prestige). It moves along like a quest.")
            with d.group(target=f"quest:{index}", title=f"{q['name']}: {text}",
                         highlight=changed):
                if changed:
                    _frame(d, x, y, w, h)
                d.rect(x, y, w, h, fill=EVENT, stroke=INK, rx=6)
                _paragraph(d, x + 8, y + 20, q["name"], w - 16, 13, 2, weight="bold")
                _paragraph(d, x + 8, y + 56, text, w - 16, 10, 7)
            return
        sigil = slot.get("sigil")
        thug = slot.get("thug")
        reward = ", ".join(q["reward"])
        title = (f"Quest slot {index + 1}: {q['name']} ({q['hero']}); reward: {reward} "
                 f"treasure{'s' if len(q['reward']) != 1 else ''}")
        if sigil is not None:
            title += f"; {self.name(sigil)}'s sigil is on it"
        if thug is not None:
            title += f"; the Thug of {self.name(thug)} is on it (2 coins to craft here)"
        with d.group(target=f"quest:{index}", title=title, highlight=changed):
            if changed:
                _frame(d, x, y, w, h)
            d.rect(x, y, w, h, fill=CARD, stroke=INK, rx=6)
            hero = HERO_COLOUR.get(q["hero"], MUTED)
            d.rect(x, y, w, 20, fill=hero, stroke=None, rx=6)
            d.rect(x, y + 12, w, 8, fill=hero, stroke=None)
            d.text(x + 8, y + 15, q["hero"].capitalize(), size=12, weight="bold",
                   fill=INK if q["hero"] == "rogue" else "#FFFFFF")
            d.text(x + w - 8, y + 15, f"slot {index + 1}", size=11, anchor="end",
                   fill=INK if q["hero"] == "rogue" else "#FFFFFF")
            _paragraph(d, x + 8, y + 35, q["name"], w - 16, 12, 2, weight="bold")
            ry = y + h - 9
            d.text(x + 8, ry, "Reward:", size=11, fill=MUTED)
            for k, colour in enumerate(q["reward"]):
                self.treasure_icon(x + 62 + k * 16, ry - 10, colour)
            if sigil is not None:
                d.circle(x + w - 16, ry - 4, 8, fill=seat_colour(sigil), stroke=INK)
                d.text(x + w - 28, ry, "sigil", size=10, anchor="end", fill=MUTED)
            if thug is not None:
                tx = x + w - (64 if sigil is not None else 16)
                d.circle(tx, ry - 4, 8, fill=INK, stroke=seat_colour(thug), stroke_width=3)
                d.text(tx, ry, "T", size=10, anchor="middle", fill="#FFFFFF", weight="bold")
                d.text(tx - 12, ry, "Thug", size=10, anchor="end", fill=MUTED)
        for i, item in enumerate(q["items"]):
            self.item_box(x + 6, y + 60 + i * 41, w - 12, 37, index, i, item)

    def item_box(self, x: float, y: float, w: float, h: float, slot: int, i: int,
                 item: dict[str, Any]) -> None:
        d = self.d
        by = item.get("crafted_by")
        cost = _cost_text(item["cost"])
        title = (f"{item['name']} ({item['type']}): pay {cost}; earn "
                 f"{plural(item['coins'], 'coin')}")
        if by is not None:
            title += f"; crafted by {self.name(by)}"
        target = f"item:{slot}:{i}" if by is None else None
        with d.group(target=target, title=title):
            fill = "#F5F5F5" if by is None else "#E0E0E0"
            d.rect(x, y, w, h, fill=fill, stroke=MUTED, rx=4)
            d.text(x + 6, y + 14, item["name"], size=11, weight="bold")
            d.text(x + w - 6, y + 14, plural(item["coins"], "coin"), size=11, anchor="end",
                   fill="#8A6D00", weight="bold")
            if by is None:
                _cost_row(d, x + 4, y + 30, item["cost"], size=10)
            else:
                d.circle(x + 11, y + 26, 6, fill=seat_colour(by), stroke=INK)
                d.text(x + 22, y + 30, f"crafted by {self.name(by)}", size=10, fill=MUTED)

    def treasure_icon(self, x: float, y: float, colour: str, w: float = 11,
                      h: float = 14) -> None:
        self.d.rect(x, y, w, h, fill=TREASURE_COLOUR.get(colour, MUTED), stroke=INK, rx=2)

    # -- specialists ---------------------------------------------------------------------
    def specialists(self, y: float) -> float:
        d, v = self.d, self.view
        row = v["specialist_row"]
        note = ("In row order, the oldest last: it leaves after each Expand action."
                if v.get("solo") else "In row order, the oldest last. Hiring one at full price "
                "puts a 1-coin discount on each one after it.")
        y = _section(d, y, f"Specialists for hire ({v['specialist_deck_count']} in the deck)",
                     note)
        for start in range(0, len(row), COLUMNS):
            part = row[start:start + COLUMNS]
            lines = max((len(_lines(spec["text"], _chars(self.column - 16, 10.5), 7))
                         for spec in part if spec), default=1)
            height = 70 + 13 * lines
            for k, spec in enumerate(part):
                i, x = start + k, MARGIN + k * (self.column + GAP)
                changed = _changed(self.previous, spec, "specialist_row", i)
                if spec is None:
                    with d.group(title=f"Specialist space {i + 1}: empty", highlight=changed):
                        d.rect(x, y, self.column, height, fill="none", stroke=MUTED, rx=6,
                               stroke_dasharray="4 3")
                    continue
                self.specialist_card(x, y, self.column, height, spec, changed)
            y += height + GAP
        return y + 2

    def specialist_card(self, x: float, y: float, w: float, h: float, spec: dict[str, Any],
                        changed: bool) -> None:
        d = self.d
        price = spec.get("price", spec["cost"])
        discount = spec.get("discount", 0)
        title = (f"{spec['name']}: costs {plural(price, 'coin')}"
                 + (f" ({spec['cost']} less {discount} discount)" if price != spec["cost"]
                    else "")
                 + f", {spec['prestige']} prestige, {spec['timing']}: {spec['text']}")
        with d.group(target=f"specialist:{spec['id']}", title=title, highlight=changed):
            if changed:
                _frame(d, x, y, w, h)
            d.rect(x, y, w, h, fill=CARD, stroke=INK, rx=6)
            d.text(x + 8, y + 18, spec["name"], size=13, weight="bold")
            d.text(x + w - 8, y + 18, f"★ {spec['prestige']}", size=12, anchor="end",
                   fill="#8A6D00")
            _resource_dot(d, x + 14, y + 31, "coins", 6)
            cost = plural(price, "coin")
            if price != spec["cost"]:
                cost += f" (of {spec['cost']})"
            d.text(x + 24, y + 35, cost, size=12, weight="bold")
            for k in range(discount):
                d.circle(x + w - 14 - k * 10, y + 31, 4, fill=RESOURCE_COLOUR["coins"],
                         stroke=INK, stroke_width=0.5)
            d.text(x + 8, y + 50, spec["timing"], size=10, fill=MUTED)
            _paragraph(d, x + 8, y + 67, spec["text"], w - 16, 10.5, 7)

    # -- rooms for sale ------------------------------------------------------------------
    def rooms(self, y: float) -> float:
        d, v = self.d, self.view
        rooms = v.get("rooms_for_sale", [])
        if not rooms:
            return y
        y = _section(d, y, "Rooms for sale")
        previous = {r["name"]: r for r in (_prev(self.previous, "rooms_for_sale") or [])}
        height = 50
        for i, room in enumerate(rooms):
            x = MARGIN + (i % COLUMNS) * (self.column + GAP)
            top = y + (i // COLUMNS) * (height + 6)
            changed = self.previous is not None and previous.get(room["name"]) != room
            left = room.get("left", 1)
            chamber = cards.rooms()[room["name"]].get("chamber_spaces")
            text = room.get("text") or ""
            if chamber:
                text = (text + "; " if text else "") + (
                    f"a chamber for {plural(chamber, 'specialist')}")
            if room["name"] == "Warehouse":
                text = "+3 storage"
            if cards.rooms()[room["name"]].get("double"):
                text = (text + "; " if text else "") + "2 cells wide"
            title = (f"{room['name']}: {plural(room['cost'], 'coin')}, "
                     f"{room['prestige']} prestige, {left} left" + (f"; {text}" if text else ""))
            with d.group(target=f"room:{room['name']}", title=title, highlight=changed):
                if changed:
                    _frame(d, x, top, self.column, height)
                d.rect(x, top, self.column, height, fill=ROOM_FILL.get(room["category"], CARD),
                       stroke=INK, rx=4)
                d.text(x + 6, top + 15, room["name"], size=12, weight="bold")
                d.text(x + self.column - 6, top + 15, f"★ {room['prestige']}", size=11,
                       anchor="end", fill="#8A6D00")
                d.text(x + 6, top + 30, f"{plural(room['cost'], 'coin')} · {left} left",
                       size=10)
                if text:
                    d.text(x + 6, top + 44, _lines(text, _chars(self.column - 12, 10), 1)[0],
                           size=10, fill=MUTED)
        rows = (len(rooms) + COLUMNS - 1) // COLUMNS
        return y + rows * (height + 6) + 2

    # -- treasures and supply ------------------------------------------------------------
    def treasures(self, y: float) -> float:
        d, v = self.d, self.view
        y = _section(d, y, "Treasure decks and resource supply")
        counts = v.get("treasure_deck_counts", {})
        discards = v.get("discards", {})
        w = (self.W - 2 * MARGIN - 2 * GAP) / 3
        for i, colour in enumerate(cards.COLORS):
            x = MARGIN + i * (w + GAP)
            n, gone = counts.get(colour, 0), len(discards.get(colour, []))
            title = (f"{colour.capitalize()} treasures: {n} in the deck, {gone} discarded"
                     + (f" (top: {discards[colour][-1]})" if gone else ""))
            changed = _changed(self.previous, n, "treasure_deck_counts", colour) or _changed(
                self.previous, discards.get(colour), "discards", colour)
            with d.group(target=f"deck:{colour}", title=title, highlight=changed):
                if changed:
                    _frame(d, x, y, w, 40)
                d.rect(x, y, w, 40, fill=CARD, stroke=INK, rx=4)
                d.rect(x + 6, y + 6, 20, 28, fill=TREASURE_COLOUR[colour], stroke=INK, rx=3)
                d.text(x + 32, y + 17, f"{n} {colour}", size=12, weight="bold")
                d.text(x + 32, y + 32, f"{gone} discarded", size=11, fill=MUTED)
        y += 48
        relics = sorted({name for pile in discards.values() for name in pile
                         if name in _relic_names()})
        if relics:
            d.text(MARGIN, y + 13, "Relics in the discards:", size=11, fill=MUTED)
            x = MARGIN + 135
            for name in relics:
                width = 14 + len(name) * 6.2
                if x + width > self.W - MARGIN:
                    x, y = MARGIN + 135, y + 22
                with d.group(target=f"relic:{name}", title=f"{name} (a Relic) in the discards; "
                             "the Curator buys it for 3 coins"):
                    d.rect(x, y, width, 18, fill=CARD, stroke=INK, rx=9)
                    d.text(x + 7, y + 13, name, size=10)
                x += width + 6
            y += 24
        supply = v.get("supply", {})
        w = (self.W - 2 * MARGIN - 2 * 6) / 3
        for i, resource in enumerate(cards.RESOURCES):
            x, y = MARGIN + (i % 3) * (w + 6), y + (34 if i == 3 else 0)
            n = supply.get(resource, 0)
            changed = _changed(self.previous, n, "supply", resource)
            with d.group(target=f"supply:{resource}", highlight=changed,
                         title=f"Supply: {n} {resource}"):
                if changed:
                    _frame(d, x, y, w, 28)
                d.rect(x, y, w, 28, fill=CARD, stroke=INK, rx=4)
                _resource_dot(d, x + 12, y + 14, resource, 6)
                d.text(x + 22, y + 19, f"{n} {resource}", size=12)
        return y + 36

    # -- what the viewer is asked to choose ------------------------------------------------
    def decision(self, y: float) -> float:
        d, v = self.d, self.view
        decision = v.get("decision") or {}
        if decision.get("kind") == "gather" and decision.get("picks"):
            text = "Gathered so far: " + ", ".join(decision["picks"])
            d.text(MARGIN, y + 14, text, size=12)
            y += 22
        drawn = decision.get("cards") if decision.get("seat") == self.viewer else None
        if not drawn:
            return y
        partner = self.name(decision.get("partner"))
        y = _section(d, y, "Drawn for the shared quest",
                     f"Keep {decision.get('keep', 1)}; the rest go to {partner}.")
        return self.card_grid(y, drawn, lambda i, c: f"drawn:{i}", highlight=False)

    # -- the viewer's hand ---------------------------------------------------------------
    def hand(self, y: float) -> float:
        if self.viewer is None:
            return y
        d, v = self.d, self.view
        hand = v.get("hand", [])
        mine = next((g for g in v["guilds"] if g["seat"] == self.viewer), None)
        limit = f" of {mine['hand_limit']}" if mine else ""
        y = _section(d, y, f"Your hand: {len(hand)}{limit} treasures",
                     "Only you see these; the others see how many you hold.")
        if not hand:
            d.text(MARGIN, y + 12, "No treasures.", size=12, fill=MUTED)
            return y + 20
        before = {c["card"] for c in (_prev(self.previous, "hand") or [])}
        return self.card_grid(y, hand, lambda i, c: f"card:{c['card']}",
                              highlight=self.previous is not None, before=before)

    def card_grid(self, y: float, hand: list[dict[str, Any]], target: Any, highlight: bool,
                  before: set[str] | None = None) -> float:
        d = self.d
        height = 92
        for i, card in enumerate(hand):
            x = MARGIN + (i % COLUMNS) * (self.column + GAP)
            top = y + (i // COLUMNS) * (height + 6)
            new = highlight and card["card"] not in (before or set())
            kind = card.get("category") or "treasure"
            sell = "no price" if card.get("sell") is None else f"sells for {card['sell']}"
            title = (f"{card['name']} ({card['color']} {kind.lower()}, {sell}"
                     + (f", {card['prestige']} prestige" if card.get("prestige") else "")
                     + f"): {card['text']}")
            with d.group(target=target(i, card), title=title, highlight=new):
                if new:
                    _frame(d, x, top, self.column, height)
                d.rect(x, top, self.column, height, fill=CARD, stroke=INK, rx=5)
                d.rect(x, top, 8, height, fill=TREASURE_COLOUR.get(card["color"], MUTED),
                       stroke=None)
                d.text(x + 14, top + 15, card["name"], size=12, weight="bold")
                facts = [kind, sell]
                if card.get("prestige"):
                    facts.append(f"★ {card['prestige']}")
                d.text(x + 14, top + 29, " · ".join(facts), size=10, fill=MUTED)
                _paragraph(d, x + 14, top + 43, card["text"], self.column - 20, 9.5, 4)
        rows = (len(hand) + COLUMNS - 1) // COLUMNS
        return y + rows * (height + 6) + 2

    # -- guild boards --------------------------------------------------------------------
    def guild(self, y: float, g: dict[str, Any]) -> float:
        d = self.d
        seat = g["seat"]
        mine = seat == self.viewer
        colour = seat_colour(seat)
        prev = None
        if self.previous is not None:
            prev = next((p for p in self.previous.get("guilds", []) if p["seat"] == seat), None)
        inner = self.W - 2 * MARGIN - 20
        coins = "? coins" if g["coins"] is None else plural(g["coins"], "coin")
        facts = (f"{self.prestige_text(g)} · {coins} · "
                 f"{plural(g['hand_count'], 'treasure')} in hand (max {g['hand_limit']}) · "
                 f"{plural(g['sigils_free'], 'free sigil')}"
                 + (" · made an offering" if g.get("offered") else ""))
        fact_lines = _lines(facts, _chars(inner, 11), 2)
        words = self.guild_words(g)
        word_lines = [_lines(text, _chars(inner, 11), 3) for text in words]
        top = y + 6
        grid_y = top + 32 + 14 * len(fact_lines)
        below = STORAGE_BELOW if self.email else 0  # an email: storage under the grid
        # An email draws only the reader's own grid: the others' rooms are in words below
        # (their storage and quests, which the reader's moves can touch, stay drawn).
        grid = 0 if self.email and not mine else CELL_H * 3 + 36
        height = (grid_y - top) + grid + 4 + below + \
            sum(14 * len(w) + 4 for w in word_lines)
        d.rect(MARGIN, top, self.W - 2 * MARGIN, height, fill="#FFFDF8", stroke=colour,
               stroke_width=3, rx=8)
        name = self.name(seat) + (" (you)" if mine else "")
        with d.group(title=f"{name}'s guild: {g['guild']}: {g.get('guild_text', '')}"):
            d.circle(MARGIN + 16, top + 16, 7, fill=colour, stroke=None)
            d.text(MARGIN + 28, top + 21, _lines(f"{name}: {g['guild']}",
                                                 min(48, _chars(inner, 14, True)), 1)[0],
                   size=14, weight="bold")
        changed = prev is not None and g["coins"] is not None and (
            prev.get("coins"), prev.get("hand_count")) != (g["coins"], g["hand_count"])
        with d.group(title=facts, highlight=changed):
            if changed:
                _frame(d, MARGIN + 8, top + 27, inner + 4, 14 * len(fact_lines) + 2)
            for k, line in enumerate(fact_lines):
                d.text(MARGIN + 10, top + 38 + 14 * k, line, size=11)
        if grid:
            self.spaces_and_grid(MARGIN + 10, grid_y, g, prev)
        if self.email:
            self.storage(MARGIN + 10, grid_y + grid + 4, g, prev)
        else:
            self.storage(MARGIN + 10 + 4 * CELL_W + 10, grid_y, g, prev)
        wy = grid_y + grid + 12 + below
        for lines in word_lines:
            for line in lines:
                d.text(MARGIN + 10, wy, line, size=11)
                wy += 14
            wy += 4
        return top + height + 4

    def guild_words(self, g: dict[str, Any]) -> list[str]:
        """The specialists and rooms with their prestige, in words under the board."""
        specs = ", ".join(f"{s['name']} ★{s['prestige']}" for s in g["specialists"]) or "none"
        rooms = ", ".join(f"{r['name']} ★{r['prestige']}" for r in g.get("rooms", [])) or "none"
        return [f"Specialists: {specs}", f"Rooms: {rooms}"]

    def spaces_and_grid(self, x: float, y: float, g: dict[str, Any],
                        prev: dict[str, Any] | None) -> None:
        """The specialist spaces above the guild, then the 4 x 3 board of cells."""
        d = self.d
        mine = g["seat"] == self.viewer
        cell_w, cell_h = CELL_W, CELL_H
        specs = g["specialists"]
        before = {s["id"]: s.get("space") for s in (prev or {}).get("specialists", [])}
        cap = (g.get("spaces") or {}).get("top", 4)
        on_top = [s for s in specs if s["space"] == "top"]
        with d.group(target="space:top" if mine else None,
                     title=f"Specialist spaces above the guild: {len(on_top)} of {cap} taken"):
            d.rect(x, y, 4 * cell_w, 30, fill="#EFE8FF", stroke=MUTED, rx=4)
            for k in range(cap):
                d.rect(x + 3 + k * (4 * cell_w / cap), y + 3, 4 * cell_w / cap - 6, 24,
                       fill="none", stroke="#C5B8E8", rx=3, stroke_dasharray="3 2")
        for k, s in enumerate(on_top[:cap]):
            sx = x + 3 + k * (4 * cell_w / cap)
            self.specialist_chip(sx, y + 3, 4 * cell_w / cap - 6, 24, s, mine,
                                 prev is not None and before.get(s["id"]) != s["space"])
        gy = y + 36
        board = g.get("board") or []
        rooms = {r["name"]: r for r in g.get("rooms", [])}
        prev_rooms = {r["name"] for r in (prev or {}).get("rooms", [])}
        drawn: set[str] = set()
        decision = self.view.get("decision") or {}
        placing = decision.get("kind") == "place_room" and decision.get("seat") == g["seat"]
        spots = {tuple(c) for c in decision.get("cells", [])} if placing else set()
        for row, cells in enumerate(board):
            for col, cell in enumerate(cells):
                cx, cy = x + col * cell_w, gy + row * cell_h
                if cell is None or "bonus" in cell:
                    bonus = cell.get("bonus") if cell else None
                    title = f"Empty cell: column {col + 1}, row {row + 1}"
                    if bonus:
                        pays = "2 coins" if bonus == "coins" else f"1 {bonus}"
                        title += f"; covering it pays {pays}"
                    spot = (col, row) in spots
                    if spot:
                        title += f"; the {decision.get('room', 'room')} may go here"
                    target = f"cell:{col}:{row}" if mine and placing else None
                    with d.group(target=target, title=title):
                        d.rect(cx + 1, cy + 1, cell_w - 2, cell_h - 2,
                               fill="#E8F5E9" if spot else "#FAF6EC",
                               stroke="#2E7D32" if spot else "#D8CFB8",
                               stroke_width=2.5 if spot else None,
                               stroke_dasharray="5 3" if spot else None, rx=3)
                        if bonus:
                            _resource_dot(d, cx + cell_w / 2, cy + cell_h / 2 - 6, bonus, 7)
                            label = "+2 coins" if bonus == "coins" else f"+1 {bonus}"
                            d.text(cx + cell_w / 2, cy + cell_h / 2 + 14, label, size=10,
                                   anchor="middle", fill=MUTED)
                    continue
                name = cell["room"]
                if name in drawn:
                    continue
                drawn.add(name)
                if cell.get("guild"):
                    span = sum(1 for c in cells if c and c.get("guild"))
                    with d.group(title=f"The guild tile: {name}"):
                        d.rect(cx + 1, cy + 1, span * cell_w - 2, cell_h - 2,
                               fill=seat_colour(g["seat"]), stroke=INK, rx=4, opacity=0.85)
                        _paragraph(d, cx + span * cell_w / 2, cy + 22, name, span * cell_w - 10,
                                   12, 2, anchor="middle", fill="#FFFFFF", weight="bold")
                    continue
                room = rooms.get(name, {"name": name, "cells": [[col, row]], "prestige": 0})
                self.room_tile(cx, cy, cell_w, cell_h, g, room, mine,
                               prev is not None and name not in prev_rooms)

    def room_tile(self, x: float, y: float, cell_w: float, cell_h: float, g: dict[str, Any],
                  room: dict[str, Any], mine: bool, new: bool) -> None:
        d = self.d
        name = room["name"]
        data = cards.rooms().get(name, {})
        span = len(room.get("cells", [])) or 1
        w = span * cell_w
        chamber = (g.get("spaces") or {}).get(name)
        inside = [s for s in g["specialists"] if s["space"] == name]
        title = f"{name}: {room.get('prestige', 0)} prestige"
        if data.get("text"):
            title += f"; {data['text']}"
        if chamber:
            who = ", ".join(s["name"] for s in inside) or "empty"
            bag = "; the Aristocrat's baggage" if g.get("baggage") == name else ""
            title += f"; chamber for {plural(chamber, 'specialist')}: {who}{bag}"
        target = f"space:{name}" if mine and chamber else None
        with d.group(target=target, title=title, highlight=new):
            if new:
                _frame(d, x + 1, y + 1, w - 2, cell_h - 2)
            d.rect(x + 1, y + 1, w - 2, cell_h - 2,
                   fill=ROOM_FILL.get(data.get("category", "basic"), CARD), stroke=INK, rx=4)
            _paragraph(d, x + 4, y + 13, name, w - 8, 9, 2, weight="bold")
            d.text(x + w - 5, y + cell_h - 6, f"★{room.get('prestige', 0)}", size=9,
                   anchor="end", fill="#8A6D00")
            if g.get("baggage") == name:
                d.rect(x + 5, y + cell_h - 16, 12, 10, fill="#795548", stroke=INK, rx=2)
        for k, s in enumerate(inside):
            self.specialist_chip(x + 4 + k * (w - 8) / max(1, chamber or 1), y + cell_h - 24,
                                 (w - 8) / max(1, chamber or 1) - 14, 16, s, mine, False,
                                 size=8.5)

    def specialist_chip(self, x: float, y: float, w: float, h: float, s: dict[str, Any],
                        mine: bool, new: bool, size: float = 10) -> None:
        d = self.d
        title = f"{s['name']} ({s['prestige']} prestige, {s['timing']})"
        data = cards.specialists().get(s["id"])
        if data:
            title += f": {data['text']}"
        with d.group(target=f"specialist:{s['id']}" if mine else None, title=title,
                     highlight=new):
            if new:
                _frame(d, x, y, w, h)
            d.rect(x, y, w, h, fill="#D1C4E9", stroke=INK, rx=3)
            d.text(x + w / 2, y + h / 2 + size * 0.35,
                   _lines(s["name"], _chars(w - 4, size), 1)[0], size=size, anchor="middle")

    def storage(self, x: float, y: float, g: dict[str, Any], prev: dict[str, Any] | None) -> None:
        """Resources in storage and the quests done, right of the board."""
        d = self.d
        seat, mine = g["seat"], g["seat"] == self.viewer
        width = self.W - MARGIN - 10 - x
        d.text(x, y + 12, f"Storage: {g['stored']} of {g['storage_limit']}", size=12,
               weight="bold")
        w = (width - 6) / 2
        for i, resource in enumerate(cards.RESOURCES):
            rx, ry = x + (i % 2) * (w + 6), y + 20 + (i // 2) * 28
            n = g["resources"].get(resource, 0)
            target = f"mine:{resource}" if mine else f"store:{seat}:{resource}"
            changed = prev is not None and prev.get("resources", {}).get(resource) != n
            with d.group(target=target, title=f"{self.name(seat)} stores {n} {resource}",
                         highlight=changed):
                if changed:
                    _frame(d, rx, ry, w, 24)
                d.rect(rx, ry, w, 24, fill=CARD if n else "#F3F3F3", stroke=MUTED, rx=4)
                _resource_dot(d, rx + 11, ry + 12, resource, 5)
                d.text(rx + 20, ry + 17, f"{n} {resource}", size=11,
                       fill=INK if n else MUTED)
        qy = y + 20 + 3 * 28 + 14
        quests = g.get("quests", [])
        heroes = {h: sum(1 for q in quests if q["hero"] == h) for h in HERO_COLOUR}
        items = [t for q in quests for t in q["items"]]
        text = (f"{plural(len(quests), 'quest')} done: "
                + ", ".join(f"{n} {h}" for h, n in heroes.items() if n)
                + (f" ({plural(items.count('weapon'), 'weapon')}, "
                   f"{items.count('armor')} armor)" if quests else ""))
        names = "; ".join(q["name"] for q in quests) or "none yet"
        changed = prev is not None and len(prev.get("quests", [])) != len(quests)
        with d.group(title=f"Completed quests: {names}", highlight=changed):
            if changed:
                _frame(d, x, qy - 12, width, 30)
            _paragraph(d, x, qy, text if quests else "No quests done yet", width, 11, 3)
