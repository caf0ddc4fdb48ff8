"""A tiny game that exists only to exercise the platform ("Counting Race").

Every seat first antes 1-3 in secret (a simultaneous step); then seats take turns
playing a hidden card from hand onto a shared total (drawing a replacement from a
shuffled deck), passing only with an empty hand.  The game ends when the total reaches
the target or every hand is empty.  Small, but it has hidden hands, a shuffle, draws, a secret
simultaneous input and an outcome: everything the platform must carry.

With the ``pairs`` option each hand holds four cards and a seat may instead play two
cards at once whose values add up to 10 or less: a move built from an unordered pick,
which drives the page's step-by-step move builder.  The picture (:meth:`picture`) draws
the total's track, the seats' hands (the viewer's face up, as ``card:<value>`` targets)
and the ante chips (``ante:<amount>``).
"""

from __future__ import annotations

from typing import Any

from games import svg
from games.protocol import Game, IllegalMove, Move, State
from games.rng import GameRandom

PAIR_LIMIT = 10  # the most two cards played together may add up to


class CountingRace(Game):
    kind = "test-race"
    name = "Counting Race (test game)"
    min_players = 1
    max_players = 4

    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        target = options.pop("target", 30)
        copies = options.pop("copies", 4)
        pairs = options.pop("pairs", False)
        if options:
            raise IllegalMove(f"unknown options {sorted(options)}")
        if not isinstance(target, int) or not 5 <= target <= 100_000:
            raise IllegalMove("target must be a whole number from 5 to 100000")
        if not isinstance(copies, int) or not 1 <= copies <= 500:
            raise IllegalMove("copies must be a whole number from 1 to 500")
        if not isinstance(pairs, bool):
            raise IllegalMove("pairs is true or false")
        # stored only when on, so games created before the option look the same
        return {"target": target, "copies": copies, **({"pairs": True} if pairs else {})}

    def option_fields(self) -> list[dict[str, Any]]:
        return [{"name": "target", "label": "Target total", "type": "int", "default": 30},
                {"name": "pairs", "label": "Hands of four; play pairs", "type": "bool",
                 "default": False}]

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        deck = rng.shuffled(list(range(1, 10)) * options["copies"])
        size = 4 if options.get("pairs") else 2
        hands = [[deck.pop() for _ in range(size)] for _ in players]
        return {"n": len(players), "target": options["target"], "deck": deck, "hands": hands,
                "antes": [None] * len(players), "total": 0, "turn": 0, "passes": 0,
                "played": [0] * len(players), "pile": 0, "copies": options["copies"],
                "over": False, **({"pairs": True} if options.get("pairs") else {})}

    def to_act(self, state: State) -> set[int]:
        if state["over"]:
            return set()
        if None in state["antes"]:
            return {i for i, a in enumerate(state["antes"]) if a is None}
        return {state["turn"]}

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if None in state["antes"]:
            return [{"type": "ante", "amount": a} for a in (1, 2, 3)]
        hand = state["hands"][seat]
        moves: list[Move] = [{"type": "play", "card": c} for c in sorted(set(hand))]
        if state.get("pairs"):
            ordered = sorted(hand)
            pairs = {(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:]
                     if a + b <= PAIR_LIMIT}
            moves += [{"type": "pair", "cards": [a, b]} for a, b in sorted(pairs)]
        return moves or [{"type": "pass"}]

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(f"{move.get('type')!r} is not a legal move now")
        if move["type"] == "ante":
            state["antes"][seat] = move["amount"]
            return
        if move["type"] in ("play", "pair"):
            cards = move["cards"] if move["type"] == "pair" else [move["card"]]
            for card in cards:
                state["hands"][seat].remove(card)
                state["total"] += card
                state["played"][seat] += card
                state["pile"] += 1
                if state["deck"]:
                    state["hands"][seat].append(
                        state["deck"].pop(rng.below(len(state["deck"]))))
            state["passes"] = 0
        else:
            state["passes"] += 1
        if state["total"] >= state["target"] or not any(state["hands"]):
            state["over"] = True
        state["turn"] = (state["turn"] + 1) % state["n"]

    def reveals(self, before: State, after: State, seat: int, move: Move) -> str | None:
        if move["type"] == "ante" and None not in after["antes"]:
            return "it revealed every ante"
        return None  # a played card was the mover's own; a draw is on the tape

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        antes_done = None not in state["antes"]
        return {
            "total": state["total"], "target": state["target"], "turn": state["turn"],
            "deck_size": len(state["deck"]),
            "hand_sizes": [len(h) for h in state["hands"]],
            "hand": state["hands"][seat] if seat is not None else None,
            "antes": [a if antes_done or i == seat else (a is not None)
                      for i, a in enumerate(state["antes"])],
            "played": state["played"],
            # public once every ante is shown: what each seat scores if the game ends now
            **({"scores": [p * a for p, a in zip(state["played"], state["antes"], strict=True)]}
               if antes_done else {}),
        }

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        move, actor = event["data"]["move"], event["actor"]
        name = event["names"][actor]
        if move["type"] == "ante":
            return f"{name} antes {move['amount']}" if seat == actor else f"{name} antes"
        if move["type"] == "play":
            return f"{name} plays {move['card']}"
        if move["type"] == "pair":
            return f"{name} plays {move['cards'][0]} and {move['cards'][1]}"
        return f"{name} passes"

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["over"]:
            return None
        scores = [p * a for p, a in zip(state["played"], state["antes"], strict=True)]
        ranking = sorted(range(state["n"]), key=lambda s: -scores[s])
        return {"scores": scores, "ranking": ranking, "tie_break": "seat order"}

    def move_label(self, state: State, seat: int, move: Move) -> str:
        if move["type"] == "pair":
            return f"Play {move['cards'][0]} and {move['cards'][1]}"
        return {"ante": f"Ante {move.get('amount')}", "play": f"Play {move.get('card')}",
                "pass": "Pass"}[move["type"]]

    # -- presentation ------------------------------------------------------------------
    def move_targets(self, move: Move) -> list[str]:
        if move["type"] == "ante":
            return [f"ante:{move['amount']}"]
        if move["type"] == "play":
            return [f"card:{move['card']}"]
        if move["type"] == "pair":
            return sorted({f"card:{c}" for c in move["cards"]})
        return ["pass"]

    def move_steps(self, state: State, seat: int, move: Move) -> list[dict[str, Any]]:
        if move["type"] == "pair":
            return [{"label": f"Play two cards (adding up to {PAIR_LIMIT} or less)"},
                    *({"label": str(c), "group": "cards"} for c in move["cards"])]
        if move["type"] == "play":
            return [{"label": "Play one card"}, {"label": str(move["card"])}]
        return [{"label": self.move_label(state, seat, move)}]

    def picture(self, view: dict[str, Any], table: dict[str, Any]) -> str | None:
        names = table.get("names") or []
        viewer = table.get("seat")
        previous = table.get("previous") or {}
        scores = dict(enumerate(view["scores"])) if "scores" in view else None
        d = svg.Drawing(640, 150 + 70 * len(names),
                        title=f"Counting Race: total {view['total']} of {view['target']}")
        y = svg.header(d, table, scores) + 16
        # the track: how far the total has come towards the target
        share = min(1.0, view["total"] / max(1, view["target"]))
        changed = bool(previous) and previous.get("total") != view["total"]
        with d.group(title=f"Total {view['total']} of {view['target']}", highlight=changed):
            d.rect(10, y, 620, 24, fill="#ffffff", rx=4)
            d.rect(10, y, max(4.0, 620 * share), 24,
                   fill=svg.HIGHLIGHT if changed else "#c9b58f", stroke=None, rx=4)
            d.text(320, y + 17, f"Total {view['total']} of {view['target']}", anchor="middle")
        y += 44
        for seat, name in enumerate(names):
            d.circle(20, y + 22, 8, fill=svg.seat_colour(seat), stroke=None)
            ante = view["antes"][seat]
            ante_text = ("ante hidden" if ante is True else "no ante yet" if not ante
                         else f"ante {ante}")
            d.text(34, y + 18, name, size=14, weight="bold" if seat == viewer else None)
            d.text(34, y + 36, f"{ante_text} · played {view['played'][seat]}", size=12,
                   fill=svg.MUTED)
            x = 230.0
            if seat == viewer and view.get("hand") is not None:
                for card in view["hand"]:
                    with d.group(target=f"card:{card}", title=f"Your card {card}"):
                        d.rect(x, y, 40, 56, fill="#ffffff", rx=5)
                        d.text(x + 20, y + 35, card, size=22, anchor="middle")
                    x += 48
            else:
                for _ in range(view["hand_sizes"][seat]):
                    d.rect(x, y + 4, 34, 48, fill="#6b3e26", rx=5, stroke=None)
                    x += 40
            y += 70
        if viewer is not None and view["antes"][viewer] is None:
            d.text(10, y + 8, "Your ante:", size=13)
            for amount in (1, 2, 3):
                with d.group(target=f"ante:{amount}", title=f"Ante {amount}"):
                    d.circle(110 + 44 * amount, y + 3, 16, fill=svg.HIGHLIGHT)
                    d.text(110 + 44 * amount, y + 9, amount, size=16, anchor="middle")
        elif viewer is not None and view.get("hand") == []:
            with d.group(target="pass", title="Pass"):
                d.rect(10, y - 12, 80, 28, fill="#ffffff", rx=4)
                d.text(50, y + 7, "Pass", anchor="middle")
        d.text(630, y + 8, f"{svg.plural(view['deck_size'], 'card')} in the deck", size=12,
               anchor="end", fill=svg.MUTED)
        return d.render()

    def summary(self, state: State, seat: int | None) -> str:
        return f"Total {state['total']} of {state['target']}."

    def check_invariants(self, state: State) -> None:
        cards = len(state["deck"]) + sum(map(len, state["hands"])) + state["pile"]
        assert cards == 9 * state["copies"], "cards are conserved"


GAME = CountingRace()
