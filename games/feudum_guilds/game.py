"""The Feudum guild economy as a :class:`games.protocol.Game`."""

from __future__ import annotations

import copy
import json
import marshal
from typing import Any

# Importing these modules registers their decision handlers in games.feudum_guilds.flow.
from games.feudum_guilds import (  # noqa: F401
    action_cards,
    fists,
    guilds,
    invariants,
    picture,
    rounds,
    steps,
    takebacks,
    views,
    writs,
)
from games.feudum_guilds.board import colour_key, dummy_colours, setup_state
from games.feudum_guilds.components import NEUTRAL, C
from games.feudum_guilds.flow import OPTIONS, RESOLVE
from games.feudum_guilds.modules import MODULES, hooks, monsters, reeves, vassalage  # noqa: F401
from games.protocol import Game, IllegalMove, Move, State
from games.rng import GameRandom
from games.svg import Say
from games.text import T

OPTION_FIELDS: list[dict[str, Any]] = [
    {"name": "reeves", "label": T("Reeves module"), "type": "bool", "default": False},
    {"name": "feast", "label": T("Feast module"), "type": "bool", "default": False},
    {"name": "monsters", "label": T("Monsters module (Tame the Beast)"), "type": "bool",
     "default": False},
    {"name": "vassalage", "label": T("Vassalage module"), "type": "bool", "default": False},
    {"name": "favors", "label": T("Favors module"), "type": "bool", "default": False},
    {"name": "famine", "label": T("Famine at the dawn of II and IV (recommended)"), "type": "bool",
     "default": True},
    {"name": "fixed_length", "label": T("Fixed length: 8 rounds"), "type": "bool",
     "default": False},
]
ALL_MODULES = {name: True for name in MODULES}


def _key(move: Any) -> str:
    return json.dumps(move, sort_keys=True)


def _matching_legal_move(legal: list[Move], move: Move) -> Move | None:
    """The legal move that is the same JSON as ``move``, or None.

    Same JSON means the same sorted-keys text (so ``true`` never matches ``1``).  Only the
    candidates already equal in Python are serialised: building every legal move's text
    cost more than the rest of ``apply``.  Should none of them match, every candidate is
    compared by its text, exactly as before, so the answer never depends on the shortcut.
    """
    key = _key(move)  # raises TypeError/ValueError for a move that is not plain JSON
    for candidate in legal:
        if candidate == move and _key(candidate) == key:
            return candidate
    return {_key(m): m for m in legal}.get(key)


def _restore(state: State, snapshot: bytes) -> None:
    """Put back the state that ``snapshot`` (``marshal.dumps(state, 2)``) was taken of."""
    state.clear()
    state.update(marshal.loads(snapshot))


class FeudumGuilds(Game):
    """Feudum: the guild economy, for 2-5 players."""

    kind = "feudum-guilds"
    name = T("Feudum: the guild economy")
    min_players = 2
    max_players = 5
    # 2: one selection move, food/shilling mix, nourish and charter choices;
    # 3: dummy Knight rows of distinct colours, famine shuffles the alms into the seal supply
    rules_version = "3"
    rules_versions = ("2", "3")  # every version this code still plays, oldest first
    # Played for a seat when it is the only move: forfeiting a played card's action when
    # no way of resolving it is open, and ``done`` when nothing else may be done.
    forced_move_types = frozenset({"forfeit", "done"})

    # -- setup ---------------------------------------------------------------------------
    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalMove(T("%(game)s is for 2-5 players, not %(n)s", game=self.name,
                                  n=n_players))
        known = {f["name"]: f for f in OPTION_FIELDS}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise IllegalMove(T("unknown options: %(names)s", names=unknown))
        out = {}
        for name, field in known.items():
            value = options.get(name, field["default"])
            if not isinstance(value, bool):
                raise IllegalMove(T("option %(name)s must be true or false", name=name))
            out[name] = value
        return out

    def option_fields(self) -> list[dict[str, Any]]:
        return copy.deepcopy(OPTION_FIELDS)

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        opts = self.normalize_options(dict(options), len(players))
        state = setup_state(list(players), opts, rng, rules=self.rules)
        rounds.advance(state, rng)
        return state

    def migrate(self, state: State, to: str) -> None:
        """Bring a state to rules ``to``: the rules number the state keeps (from 3 on) and
        the dummy Knight rows' colours (one each from 3 on, the one neutral before) [A-3].
        Markers stay where they are; each dummy colour's supply is what its rows leave of
        its 20 markers.  Famine needs nothing: it reads the number when it happens."""
        rules = int(to)
        if rules >= 3:
            state["rules"] = rules
        else:
            state.pop("rules", None)
        rows = [r for r in state["knight_rows"] if not isinstance(r["colour"], int)]
        supply = state["marker_supply"]
        for row in rows:
            supply.pop(colour_key(row["colour"]), None)
        supply.pop(NEUTRAL, None)
        colours = dummy_colours(state["n"], rules)
        for row, colour in zip(rows, colours, strict=True):
            row["colour"] = colour
        per_colour = C["markers_per_colour"]
        if rules < 3:
            supply[NEUTRAL] = per_colour  # rules 2 keep it even with no dummy row
        for colour in dict.fromkeys(colours):
            on_board = sum(sum(r["sections"]) for r in rows if r["colour"] == colour)
            supply[colour] = per_colour - on_board

    # -- play ----------------------------------------------------------------------------
    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["phase"] == "over":
            return []
        if state["phase"] == "select":
            return rounds.select_moves(state, seat)
        if not state["stack"]:
            return []
        top = state["stack"][-1]
        if top["seat"] != seat:
            return []
        return OPTIONS[top["kind"]](state, top)

    def to_act(self, state: State) -> set[int]:
        if state["phase"] == "over":
            return set()
        if state["phase"] == "select":
            return {s for s, p in enumerate(state["ps"]) if not p["committed"]}
        return {state["stack"][-1]["seat"]} if state["stack"] else set()

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        if state["phase"] == "over":
            raise IllegalMove(T("the game is over"))
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove(T("a move must be an object with a string 'type'"))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["n"]:
            raise IllegalMove(T("no such seat: %(seat)s", seat=repr(seat)))
        legal = self.legal_moves(state, seat)
        if not legal:
            raise IllegalMove(T("it is not your turn"))
        if move["type"] == "select" and isinstance(move.get("cards"), list):
            move = {**move, "cards": rounds.canonical_cards(move["cards"])}
        try:
            canon = _matching_legal_move(legal, move)
        except (TypeError, ValueError) as err:
            raise IllegalMove(T("a move must be plain JSON data")) from err
        if canon is None:
            types = sorted({m["type"] for m in legal})
            if move["type"] not in types:
                raise IllegalMove(T("'%(type)s' is not possible now; expected one of %(types)s",
                                    type=move["type"], types=types))
            raise IllegalMove(T("that '%(type)s' move is not allowed now (bad or missing fields)",
                                type=move["type"]))
        canon = json.loads(json.dumps(canon))
        # The rules change the state in place; a snapshot is kept so that a failure can
        # never leave a half-applied move behind.  (A full copy to work on, as before,
        # cost more than all the rules of a typical move.)  marshal's format 2 is a
        # fast, exact image of a JSON-ready state, only ever read back in this process.
        snapshot = marshal.dumps(state, 2)
        try:
            if state["phase"] == "select":
                rounds.apply_select(state, seat, canon)
            else:
                top = state["stack"][-1]
                RESOLVE[top["kind"]](state, top, canon, rng)
            rounds.advance(state, rng)
        except BaseException:
            _restore(state, snapshot)
            raise

    def outcome(self, state: State) -> dict[str, Any] | None:
        return copy.deepcopy(state["outcome"]) if state["outcome"] else None

    # -- take-backs ----------------------------------------------------------------------
    def reveals(self, before: State, after: State, seat: int, move: Move) -> str | None:
        """Why ``move`` cannot be taken back (a seal, a writ or a secret choice came to
        light), or None; see :mod:`games.feudum_guilds.takebacks`."""
        return takebacks.reveals(before, after, seat, move)

    # -- presentation --------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        return views.describe(event, seat)

    picture_says = True  # the picture's words in the reader's language (games.svg.Say)

    def picture(self, view: dict[str, Any], table: dict[str, Any],
                say: Say = str) -> str:
        return picture.draw(view, table, say)

    def move_targets(self, move: Move) -> list[str]:
        return picture.targets(move)

    def move_steps(self, state: State, seat: int, move: Move) -> list[dict[str, Any]]:
        return steps.steps(state, seat, move)

    def move_label(self, state: State, seat: int, move: Move) -> str:
        return views.move_label(state, seat, move)

    def summary(self, state: State, seat: int | None) -> str:
        return views.summary(state, seat)

    # -- checks --------------------------------------------------------------------------
    def check_invariants(self, state: State) -> None:
        invariants.check(state)


def provisional_scores(state: State) -> list[int]:
    """Each seat's veneration points on the public track now: what decides a game ended
    early by a resignation or a vote (events.votes); the end-of-game scoring is not run."""
    return [p["vp"] for p in state["ps"]]
