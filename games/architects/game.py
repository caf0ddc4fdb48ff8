"""The Architects of the West Kingdom Game: the protocol's entry points."""

from __future__ import annotations

import json
import pickle
from typing import Any, ClassVar

from games.architects import (
    absent,
    automaton,
    black_market,
    captures,
    cards,
    opening,
    presentation,
    scoring,
    steps,
    takebacks,
    turn,
    views,
    words,
)
from games.architects import picture as table_picture
from games.protocol import Game, IllegalMove, Move, State
from games.rng import GameRandom
from games.svg import Say
from games.text import T

LEVELS = ("constantine", "helena")


# json.dumps(move, sort_keys=True) builds a new encoder per call; one shared encoder
# writes the same text in a third less time (apply compares every legal move's).
_canon = json.JSONEncoder(sort_keys=True).encode


def _deep_copy(data: Any) -> Any:
    """``copy.deepcopy`` of plain data (dicts, lists, strings, numbers): the pickle round
    trip copies the same, shared lists staying shared, about six times faster."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


class Architects(Game):
    """Architects of the West Kingdom (base game, optional promos, solo automaton)."""

    kind: ClassVar[str] = "architects"
    name: ClassVar[str] = T("Architects of the West Kingdom")
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 5
    # 2: recall only from large locations, the opponent's Black Market Marble, no repeated
    # character boards.  Snapshots folded by older rules are refolded from the events.
    # 3: Variable Setup deals the rulebook's five boards (the other five only with
    # ``extra_characters``); the opponent's Tax Stand leaves the Silver (RULES.md).
    rules_version: ClassVar[str] = "3"
    rules_versions = ("2", "3")  # every version this code still plays, oldest first
    # Played for a seat when it is the only move: ``pass``, a turn that starts with no
    # Worker at a large location to recall and is spent doing nothing.
    forced_move_types = frozenset({"pass"})

    # -- options -----------------------------------------------------------------------------
    def option_fields(self) -> list[dict[str, Any]]:
        extra = [{"name": "extra_characters",
                  "label": T("Variable Setup: also deal the 5 characters NOT in the "
                             "rulebook (Lothaire, Hugo, Clovis, Fara, Bertha)"),
                  "type": "bool", "default": False}] if self.rules >= 3 else []
        return [
            {"name": "variable_setup", "label": T("Variable Setup (character boards)"),
             "type": "bool", "default": False},
            *extra,
            {"name": "promos", "label": T("Add the promo Buildings and Apprentices"),
             "type": "bool", "default": False},
            {"name": "bot_opponent", "label": T("2 players plus the Byzantine opponent"),
             "type": "bool", "default": False},
            {"name": "solo_level", "label": T("Opponent (solo / bot variant)"), "type": "choice",
             "default": "constantine", "choices": list(LEVELS)},
        ]

    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalMove(T("Architects of the West Kingdom needs 1 to 5 players"))
        known = {"variable_setup", "promos", "bot_opponent", "solo_level", "characters"}
        flags = ["variable_setup", "promos", "bot_opponent"]
        if self.rules >= 3:  # rules 2 states keep their options byte for byte
            known.add("extra_characters")
            flags.append("extra_characters")
        unknown = set(options) - known
        if unknown:
            raise IllegalMove(T("unknown options: %(options)s", options=str(sorted(unknown))))
        out: dict[str, Any] = {}
        for key in flags:
            value = options.get(key, False)
            if not isinstance(value, bool):
                raise IllegalMove(T("option %(key)s must be true or false", key=key))
            out[key] = value
        if out.get("extra_characters") and not out["variable_setup"]:
            raise IllegalMove(T("the characters not in the rulebook need Variable Setup"))
        if out["bot_opponent"] and n_players != 2:
            raise IllegalMove(T("the bot-opponent variant is for exactly 2 players"))
        level = options.get("solo_level", "constantine")
        if level not in LEVELS:
            raise IllegalMove(T("solo_level must be one of %(levels)s", levels=str(list(LEVELS))))
        out["solo_level"] = level
        chars = options.get("characters")
        if chars is not None:
            if not out["variable_setup"] or not isinstance(chars, list) or \
                    any(c not in cards.characters() for c in chars) or \
                    len(set(chars)) != len(chars) or len(chars) > n_players:
                raise IllegalMove(T("characters must be distinct character names"))
            if self.rules >= 3:
                allowed = opening.characters_in_play(out)
                if any(c not in allowed for c in chars):
                    raise IllegalMove(T("characters must be the rulebook's Ada, Caroline, "
                                        "Frederick, Rudolf or Therese (the others need the "
                                        "extra_characters option)"))
                if len({cards.characters()[c]["colour"] for c in chars}) != len(chars):
                    raise IllegalMove(T("characters must be on boards of different colours"))
            out["characters"] = list(chars)
        return out

    # -- protocol ----------------------------------------------------------------------------
    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        opts = self.normalize_options(dict(options), len(players))
        return opening.setup(players, opts, rng, self.rules)

    def migrate(self, state: State, to: str) -> None:
        """The Tax Stand of rules 3 is read from ``state["rules"]``, so a migrated game
        notes its version there; setup differences do not matter once a game has begun."""
        if int(to) >= 3:
            state["rules"] = int(to)
        else:
            state.pop("rules", None)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if not isinstance(seat, int) or isinstance(seat, bool):
            return []
        if state["phase"] == "draft":
            if 0 <= seat < state["n"] and not state["draft"]["picked"][seat]:
                return [{"type": "draft", "card": c} for c in state["draft"]["pools"][seat]]
            return []
        if state["phase"] != "play" or not 0 <= seat < state["n"]:
            return []
        return turn.moves_for(state, seat)

    def pass_move(self, state: State, seat: int) -> Move | None:
        """The rules' pass, when it is legal (see :mod:`games.architects.absent`)."""
        return absent.pass_move(self.legal_moves(state, seat))

    def to_act(self, state: State) -> set[int]:
        if state["phase"] == "draft":
            return {i for i, done in enumerate(state["draft"]["picked"]) if not done}
        if state["phase"] == "play":
            return {state["current"]}
        return set()

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove(T("a move is an object with a string 'type'"))
        if state["phase"] == "over":
            raise IllegalMove(T("the game is over"))
        if seat not in self.to_act(state):
            raise IllegalMove(T("it is not your turn"))
        legal = self.legal_moves(state, seat)
        # Equal JSON text means equal "type" strings, so only that type's moves can match.
        key = _canon(move)
        if not any(_canon(m) == key for m in legal if m["type"] == move["type"]):
            types = sorted({m["type"] for m in legal})
            if move["type"] not in types:
                raise IllegalMove(T("no %(type)s move now; expected one of %(types)s",
                                    type=repr(move["type"]), types=str(types)))
            raise IllegalMove(T("that %(type)s move is not legal now (%(n)s legal moves)",
                                type=repr(move["type"]), n=len(legal)))
        move = _deep_copy(move)
        if state["phase"] == "draft":
            opening.draft_pick(state, seat, move["card"], rng)
        else:
            turn.resolve(state, seat, move, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        v = _deep_copy(state)
        for i, pl in enumerate(v["players"]):
            pl["hand_count"] = len(pl["hand"])
            if i != seat:
                pl["hand"] = []
        v["deck"] = len(state["deck"])
        v["app_deck"] = len(state["app_deck"])
        v["rewards"] = len(state["rewards"])
        v["rewards_box"] = len(state["rewards_box"])
        v["bm_small"] = {"count": len(state["bm_small"]),
                         "top": state["bm_small"][0] if state["bm_small"] else None}
        v["bm_large"] = {"count": len(state["bm_large"]),
                         "top": state["bm_large"][0] if state["bm_large"] else None}
        if v["draft"] is not None:
            pools = v["draft"]["pools"]
            v["draft"]["pools"] = [p if i == seat else len(p) for i, p in enumerate(pools)]
        pend = v["pending"]
        if pend is not None and pend["kind"] == "keep" and seat != state["current"]:
            v["pending"] = {"kind": "keep", "cards": len(pend["cards"])}
        auto = v.get("automaton")
        if auto is not None:
            auto["deck"] = len(auto["deck"])
            auto["future"] = len(auto["future"])
            last = auto["last"]
            auto["last_name"] = None if last is None else automaton.scheme_name(last)
            auto["level_name"] = words.LEVELS.get(auto["level"], auto["level"])
        v["market"] = {"A": black_market.offer(state, 0), "C": black_market.offer(state, 2)}
        v["outcome"] = self.outcome(state)
        v["scores"] = views.running_scores(state)
        v["status"] = views.status(state)
        v["score_names"] = dict(words.SCORE_LINES)
        v["seat"] = seat
        return v

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        return presentation.describe(event, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        """The result, the Byzantine opponent ranked among the players: its entry in
        ``scores``, ``ranking``, ``places`` and ``names`` is its index (after the seats),
        and ``winner`` says who won in a sentence."""
        if state["phase"] != "over":
            return None
        res = state["result"]
        players = state["players"]
        out: dict[str, Any] = {
            "scores": res["totals"],
            "ranking": res["order"],
            "places": [res["places"][str(q)] for q in range(len(players))],
            "names": [pl["name"] for pl in players],
            "winners": presentation.winners(state),
            "winner": presentation.result_line(state),
            "lines": res["lines"],
            "tie_break": words.TIE_BREAK,
        }
        if state["automaton"] is not None:
            b = state["automaton"]["index"]
            out["automaton"] = {"index": b, "name": players[b]["name"],
                                "score": res["totals"][b], "lines": res["lines"][b],
                                "place": res["places"][str(b)]}
        return out

    # -- take-backs --------------------------------------------------------------------------
    def reveals(self, before: State, after: State, seat: int, move: Move) -> str | None:
        """A take-back is refused once the move turned up a face-down card (see takebacks)."""
        return takebacks.reveals(before, after, seat)

    # -- presentation ------------------------------------------------------------------------
    def move_label(self, state: State, seat: int, move: Move) -> str:
        """The log's wording, with the card's cost, VP, requirement and effect where a
        move offers a Building card the seat may see (draft, keep, discard, construct)."""
        hidden = not presentation.sees_card(state, seat, move)
        return presentation.move_label(state, move, hidden=hidden)

    picture_says = True  # the picture's words in the reader's language (games.svg.Say)

    def picture(self, view: dict[str, Any], table: dict[str, Any],
                say: Say = str) -> str | None:
        """The table as ``view`` shows it, its words said by ``say``: see
        :mod:`games.architects.picture`."""
        return table_picture.draw(view, table, say)

    def move_targets(self, move: Move) -> list[str]:
        return steps.targets(move)

    def move_steps(self, state: State, seat: int, move: Move) -> list[dict[str, Any]]:
        return steps.steps(state, seat, move)

    def building_card(self, card_id: int) -> dict[str, Any]:
        """A Building card's data (for the page template)."""
        return cards.building(card_id)

    def apprentice_card(self, card_id: int) -> dict[str, Any]:
        """An Apprentice card's data (for the page template)."""
        return cards.apprentice(card_id)

    def location_names(self) -> dict[str, str]:
        """Location keys to display names, board order."""
        from games.architects.locations import NAMES
        return dict(NAMES)

    def summary(self, state: State, seat: int | None) -> str:
        return presentation.summary(state, seat)

    # -- checks ------------------------------------------------------------------------------
    def check_invariants(self, state: State) -> None:
        players = state["players"]
        for q, pl in enumerate(players):
            for key in ("silver", "clay", "wood", "stone", "gold", "marble", "debts",
                        "paid_debts", "workers", "virtue", "cathedral"):
                assert pl[key] >= 0, f"{pl['name']} has negative {key}"
            assert pl["virtue"] <= 14
            placed = sum(state["board"][loc][q] for loc in captures.LARGE)
            placed += state["black_market"].count(q) + state["guildhall"].count(q)
            placed += state["guildhall_side"].count(q) + state["prison"][q]
            placed += sum(other["captured"][q] for other in players)
            assert pl["workers"] + placed == opening.WORKERS, f"{pl['name']} workers not 20"
            assert len(pl["apprentices"]) <= 6
        assert state["tax"] >= 0
        b_cards = list(state["deck"])
        for pl in players:
            b_cards += pl["hand"] + pl["buildings"]
        if state["draft"]:
            for pool in state["draft"]["pools"]:
                b_cards += pool
        if state["pending"] and state["pending"]["kind"] == "keep":
            b_cards += state["pending"]["cards"]
        expected = cards.base_ids(cards.buildings(), state["options"].get("promos", False))
        if state["n"] == 1:
            expected = [c for c in expected if c not in opening.RESOURCE_MARKETS]
        assert sorted(b_cards) == expected, "building cards not each in one place"
        a_cards = list(state["app_deck"]) + [c for row in state["workshop"] for c in row
                                             if c is not None]
        for pl in players:
            a_cards += pl["apprentices"]
        exp_a = cards.base_ids(cards.apprentices(), state["options"].get("promos", False))
        assert sorted(a_cards) == exp_a, "apprentices not each in one place"
        rewards = state["rewards"] + state["rewards_used"] + state["rewards_box"]
        assert sorted(rewards) == list(range(11))
        assert sorted(state["bm_small"] + state["bm_large"]) == list(range(10))
        assert len(state["guildhall"]) <= state["guildhall_size"]
        auto = state["automaton"]
        if auto is not None:
            schemes = auto["deck"] + auto["discard"] + auto["future"]
            assert sorted(schemes) == list(range(len(automaton.STARTING + automaton.FUTURE)))


def provisional_scores(state: State) -> list[int]:
    """Each seat's score if the game were scored now, from what is public (constructed
    buildings, cathedral, virtue, debts, gold, marble, silver, prison); the end-game
    building effects are not resolved.  Decides a game ended early by a resignation or a
    vote (events.votes).  One entry per seat: the automaton is not a seat."""
    seats = [q for q, pl in enumerate(state["players"]) if not pl["bot"]]
    return [sum(scoring.lines(state, q).values()) for q in seats]
