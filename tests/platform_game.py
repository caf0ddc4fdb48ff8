"""A tiny game that exists only to exercise the platform ("Counting Race").

Every seat first antes 1-3 in secret (a simultaneous step); then seats take turns
playing a hidden card from hand onto a shared total (drawing a replacement from a
shuffled deck), passing only with an empty hand.  The game ends when the total reaches
the target or every hand is empty.  Small, but it has hidden hands, a shuffle, draws, a secret
simultaneous input and an outcome: everything the platform must carry.
"""

from __future__ import annotations

from typing import Any

from games.protocol import Game, IllegalMove, Move, State
from games.rng import GameRandom


class CountingRace(Game):
    kind = "test-race"
    name = "Counting Race (test game)"
    min_players = 1
    max_players = 4

    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        target = options.pop("target", 30)
        copies = options.pop("copies", 4)
        if options:
            raise IllegalMove(f"unknown options {sorted(options)}")
        if not isinstance(target, int) or not 5 <= target <= 100_000:
            raise IllegalMove("target must be a whole number from 5 to 100000")
        if not isinstance(copies, int) or not 1 <= copies <= 500:
            raise IllegalMove("copies must be a whole number from 1 to 500")
        return {"target": target, "copies": copies}

    def option_fields(self) -> list[dict[str, Any]]:
        return [{"name": "target", "label": "Target total", "type": "int", "default": 30}]

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        deck = rng.shuffled(list(range(1, 10)) * options["copies"])
        hands = [[deck.pop(), deck.pop()] for _ in players]
        return {"n": len(players), "target": options["target"], "deck": deck, "hands": hands,
                "antes": [None] * len(players), "total": 0, "turn": 0, "passes": 0,
                "played": [0] * len(players), "pile": 0, "copies": options["copies"],
                "over": False}

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
        return [{"type": "play", "card": c} for c in sorted(set(hand))] or [{"type": "pass"}]

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(f"{move.get('type')!r} is not a legal move now")
        if move["type"] == "ante":
            state["antes"][seat] = move["amount"]
            return
        if move["type"] == "play":
            state["hands"][seat].remove(move["card"])
            state["total"] += move["card"]
            state["played"][seat] += move["card"]
            state["pile"] += 1
            if state["deck"]:
                state["hands"][seat].append(state["deck"].pop(rng.below(len(state["deck"]))))
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
        }

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        move, actor = event["data"]["move"], event["actor"]
        name = event["names"][actor]
        if move["type"] == "ante":
            return f"{name} antes {move['amount']}" if seat == actor else f"{name} antes"
        if move["type"] == "play":
            return f"{name} plays {move['card']}"
        return f"{name} passes"

    def outcome(self, state: State) -> dict[str, Any] | None:
        if not state["over"]:
            return None
        scores = [p * a for p, a in zip(state["played"], state["antes"], strict=True)]
        ranking = sorted(range(state["n"]), key=lambda s: -scores[s])
        return {"scores": scores, "ranking": ranking, "tie_break": "seat order"}

    def move_label(self, state: State, seat: int, move: Move) -> str:
        return {"ante": f"Ante {move.get('amount')}", "play": f"Play {move.get('card')}",
                "pass": "Pass"}[move["type"]]

    def summary(self, state: State, seat: int | None) -> str:
        return f"Total {state['total']} of {state['target']}."

    def check_invariants(self, state: State) -> None:
        cards = len(state["deck"]) + sum(map(len, state["hands"])) + state["pile"]
        assert cards == 9 * state["copies"], "cards are conserved"


GAME = CountingRace()
