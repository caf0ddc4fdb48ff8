"""Recorded randomness: every random value a move uses is written to the event's tape.

When a move is decided the engine gets a :class:`RecordingRandom` seeded from
HMAC(game secret, version); when the event is folded later it gets a
:class:`TapePlayer` that hands back exactly the recorded values and fails loudly if the
rules ask for anything else.  So folding needs no seed and a rules change can never
silently rewrite history.

All draws go through one primitive, ``below(n)`` (a uniform integer in ``[0, n)``);
shuffles, choices and dice are built on top of it, so a tape is a plain list of ints.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from abc import ABC, abstractmethod
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class TapeError(Exception):
    """The recorded tape does not match what the rules asked for while folding."""


class GameRandom(ABC):
    """Random helpers built on ``below``; subclasses decide where values come from."""

    @abstractmethod
    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``[a, b]`` (both ends included), like a die roll."""
        if b < a:
            raise ValueError(f"empty range {a}..{b}")
        return a + self.below(b - a + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out


class RecordingRandom(GameRandom):
    """Draws from a seeded generator and records every value on ``tape``."""

    def __init__(self, seed: bytes | int) -> None:
        if isinstance(seed, bytes):
            seed = int.from_bytes(seed, "big")
        self._random = random.Random(seed)
        self.tape: list[int] = []

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        value = self._random.randrange(n)
        self.tape.append(value)
        return value


class TapePlayer(GameRandom):
    """Replays a recorded tape; any mismatch raises :class:`TapeError`."""

    def __init__(self, tape: Sequence[int]) -> None:
        self._tape = list(tape)
        self._pos = 0

    def below(self, n: int) -> int:
        if self._pos >= len(self._tape):
            raise TapeError(f"tape exhausted after {self._pos} values")
        value = self._tape[self._pos]
        if not isinstance(value, int) or not 0 <= value < n:
            raise TapeError(f"tape value {value!r} at {self._pos} is not below {n}")
        self._pos += 1
        return value

    def finish(self) -> None:
        """Fail unless the whole tape was used."""
        if self._pos != len(self._tape):
            raise TapeError(f"tape has {len(self._tape) - self._pos} unused values")


def seed_for(secret: bytes, version: int) -> bytes:
    """The seed for the move that will become event ``version``: HMAC(secret, version)."""
    return hmac.new(secret, str(version).encode(), hashlib.sha256).digest()


def commitment(secret: bytes) -> str:
    """The SHA-256 of the game secret, published in the first event."""
    return hashlib.sha256(secret).hexdigest()
