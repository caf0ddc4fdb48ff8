"""The protocol every rules engine follows (a Decider: setup, decide+evolve in apply).

A :class:`Game` holds what never changes during a match (card data, player-count limits);
the *state* is a plain JSON-ready ``dict`` that changes in place as moves are applied.
Keeping state as JSON data means snapshots are ``json.dumps(state)``, and "folding from
scratch equals the live state" is plain ``==``.  Rules:

* ``json.loads(json.dumps(state)) == state`` must hold after ``setup`` and every ``apply``
  (str keys, lists not tuples, no sets, no floats that do not round-trip).
* ``apply`` validates first and raises :class:`IllegalMove` *before* changing anything.
* Every random value comes from the ``rng`` argument (see :mod:`games.rng`).
* ``view(state, seat)`` never contains another seat's hidden information.
* ``view``, ``legal_moves``, ``to_act`` and ``outcome`` only read the state: a process
  shares one decoded table among the requests that only look at it (events/replay.py).
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from importlib import resources
from typing import Any, ClassVar

from games.rng import GameRandom, TapeError, TapePlayer

State = dict[str, Any]
Move = dict[str, Any]


_bound: dict[tuple[int, str], Game] = {}  # (game object, version) -> the bound copy


class IllegalMove(Exception):
    """A move the rules do not allow now; ``reason`` is shown to the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Game(ABC):
    """One kind of game.  Subclasses set the class attributes and implement the methods."""

    kind: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str] = "1"  # the newest; new games are created under it
    # Every rules version this code still plays, oldest first.  A game folds with the
    # rules it was created under (recorded in GameCreated) until an admin migrates it, so
    # a version once shipped stays here: behaviour that changed is chosen by a flag read
    # where it changed (``self.rules`` or ``state["rules"]``), not by a copied engine.
    rules_versions: ClassVar[tuple[str, ...]] = ("1",)

    @property
    def rules(self) -> int:
        """The rules version this object plays, as a number to compare (``>= 3``)."""
        return int(self.rules_version)

    def for_rules(self, version: str) -> Game:
        """This game bound to rules ``version``; KeyError if this code does not play it."""
        if version == self.rules_version:
            return self
        if version not in self.rules_versions:
            raise KeyError(f"{self.name} has no rules version {version!r} "
                           f"(this code plays {', '.join(self.rules_versions)})")
        bound = _bound.get((id(self), version))
        if bound is None:
            bound = copy.copy(self)
            bound.rules_version = version  # type: ignore[misc]
            _bound[(id(self), version)] = bound
        return bound

    def migrate(self, state: State, to: str) -> None:
        """Bring ``state`` (played under this object's rules) to rules ``to`` in place,
        for an admin's RulesMigrated.  The default keeps the state as it is and notes the
        version where the engine keeps it."""
        if "rules" in state:
            state["rules"] = int(to)

    # -- setup -------------------------------------------------------------------------
    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        """Check the options for ``n_players`` and fill in defaults; raise IllegalMove."""
        if options:
            raise IllegalMove(f"{self.name} has no options: {sorted(options)}")
        return {}

    def option_fields(self) -> list[dict[str, Any]]:
        """Lobby form fields: ``{"name", "label", "type", "default", "choices"}``."""
        return []

    @abstractmethod
    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        """The initial state for these player names (seat i = players[i])."""

    # -- play --------------------------------------------------------------------------
    @abstractmethod
    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        """Validate and apply one move by ``seat`` in place; raise IllegalMove(reason)."""

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move for ``seat`` now (empty when the seat is not to act); it
        does not change ``state``."""

    @abstractmethod
    def to_act(self, state: State) -> set[int]:
        """Seats whose input is awaited now; empty once the game is over."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator); it does not change ``state``."""

    @abstractmethod
    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        """One log line for a MovePlayed event, redacted for ``seat``.

        ``event`` has ``version``, ``actor`` (the seat), ``data`` (``{"move": {...}}``)
        and ``names`` (player names by seat).
        """

    @abstractmethod
    def outcome(self, state: State) -> dict[str, Any] | None:
        """``None`` while playing; then ``{"scores", "ranking", "tie_break", ...}``."""

    # -- take-backs --------------------------------------------------------------------
    def reveals(self, before: State, after: State, seat: int, move: Move) -> str | None:
        """Why ``move`` cannot be taken back, or None if it showed nothing hidden.

        A take-back is refused once its move showed anyone something that its mover
        could not see before it: a face-down card turned up or drawn (even from a deck
        shuffled at setup), another seat's sealed bid or hidden choice revealed, the
        automaton's next card.  Undoing such a move would let the mover choose again
        knowing it.  The mover's *own* hidden cards or choices made public by the move
        do not count: the mover knew them, and the players who learned them must all
        agree to the take-back.  Moves that drew randomness are refused by the platform
        already (their tape is not empty).  ``before`` and ``after`` are full states
        around the move; the reason is shown to players, e.g. "it drew a treasure card".

        The default is the safe answer for a game that does not say.
        """
        return "this game does not say which moves show hidden information"

    # -- presentation ------------------------------------------------------------------
    # True: :meth:`picture` takes a third argument, ``say`` (:data:`games.svg.Say`), and
    # draws every word through it, in the reader's language; False: it is not passed.
    picture_says: ClassVar[bool] = False

    def picture(self, view: dict[str, Any], table: dict[str, Any]) -> str | None:
        """The table as ``view`` shows it, as one SVG document (None: no picture).

        Drawn from ``view`` (what one seat may see: ``view(state, seat)``) and ``table``
        only, never from the full state, so a picture hides exactly what the view hides.
        ``table`` holds ``names`` (by seat), ``seat`` (the viewer, or None), ``to_act``
        (seats), ``deadline`` (text in the viewer's time zone, or None), ``version`` and
        ``previous`` (the view this seat had at its last move, or None: what differs is
        highlighted) and ``medium``: ``"page"`` (the default: the whole table for the web
        page), ``"email"`` (a PNG in a mail, read on a phone about 340 px wide with no
        zoom: draw it about 400 units wide, text at 11 units or more, only what matters
        for the reader's move, no tooltips) or ``"phone"`` (the web page below a phone's
        width: the email's narrow layout, but with every shape a legal move names, since
        it is the only picture the phone shows; :func:`games.svg.for_email` is true for
        both).  A shape a move can be made on carries ``data-target="<name>"`` with a
        name from :meth:`move_targets`.  Build it with :mod:`games.svg`.

        A game that sets :attr:`picture_says` takes ``say`` too: each word it draws is a
        :class:`games.text.Text` passed through ``say``, which gives it in the reader's
        language (the default, ``str``, gives English), so the game stays pure and the
        edge chooses the language (:func:`events.picture.picture_of`).
        """
        return None

    def move_targets(self, move: Move) -> list[str]:
        """The names of the picture's shapes (``data-target``) this move acts on: a
        click on one of them offers the legal moves that name it.  [] for none."""
        return []

    def move_steps(self, state: State, seat: int, move: Move) -> list[dict[str, Any]]:
        """One legal move as the choices a player makes to build it, coarse to fine:
        ``[{"label": "Select cards"}, {"label": "Farmer", "group": "cards"}, ...]``.

        Consecutive steps with the same ``group`` are one unordered pick (cards, goods):
        the page lets the player choose them one by one in any order, offering only the
        items that still lead to a legal move.  The default is one step, the move's
        label, which is what a radio list shows.
        """
        return [{"label": self.move_label(state, seat, move)}]

    def move_label(self, state: State, seat: int, move: Move) -> str:
        """A short human label for one legal move (the web form shows these)."""
        return json.dumps(move, sort_keys=True)

    def summary(self, state: State, seat: int | None) -> str:
        """A few plain-text lines describing the position for ``seat`` (used in emails)."""
        return ""

    def rules_summary(self) -> str:
        """The short rules for players (``RULES.md`` in the game's package)."""
        package = type(self).__module__.rsplit(".", 1)[0]
        try:
            return resources.files(package).joinpath("RULES.md").read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            return ""

    def template(self) -> str:
        """Jinja template (under ``templates/``) that renders this game's view."""
        return f"games/{self.kind}.html"

    # -- when a player does not answer -------------------------------------------------
    def pass_move(self, state: State, seat: int) -> Move | None:
        """The move the rules call a pass for ``seat`` now, or None if they have none (the
        "skip" time-out policy plays it)."""
        return None

    def stand_in_move(self, state: State, seat: int) -> Move:
        """The move played for an absent ``seat`` (the "auto" and "bot" time-out
        policies): a simple, documented, deterministic choice among the legal moves.
        The default is the first legal move; a game may do better (and say so in
        its RULES.md)."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise IllegalMove("no legal move to play")
        return moves[0]

    # The moves that may be played for a seat when they are its only legal move (see
    # :meth:`forced_move_safe`): moves of these types with no parameters.
    forced_move_types: ClassVar[frozenset[str]] = frozenset()

    def forced_move_safe(self, state: State, seat: int, move: Move) -> bool:
        """Whether ``move``, ``seat``'s only legal move, may be played for them without
        asking: one of :attr:`forced_move_types` with no parameters (it chooses
        nothing) that, tried on a copy of the state, draws nothing and turns nothing up
        (:meth:`reveals`).  An end of turn that refills a row from a face-down deck,
        say, is never played for anyone."""
        if move.get("type") not in self.forced_move_types or set(move) != {"type"}:
            return False
        after = copy.deepcopy(state)
        try:
            self.apply(after, seat, copy.deepcopy(move), TapePlayer([]))  # any draw raises
        except (IllegalMove, TapeError):
            return False
        return self.reveals(state, after, seat, move) is None

    # -- checks ------------------------------------------------------------------------
    def check_invariants(self, state: State) -> None:
        """Raise AssertionError if the state breaks a conservation rule (soak tests)."""
        return None
