"""What makes an email answerable: its reply address and the numbered moves it offers.

A turn email's ``Reply-To`` is ``<INBOUND_PREFIX>+<token>@<INBOUND_DOMAIN>``; the token
(:meth:`worker.links.Links.make_reply`) names the game, the seat, the version the email
was built at and the seat's link generation.  The reply is read against the menu built
from the same version (:mod:`worker.menu`), so the numbers mean what the email showed.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.replay import Table
from worker.links import api_generation, reply_address
from worker.menu import Menu, build
from worker.runtime import Runtime


@dataclass(frozen=True)
class Answerable:
    """A seat's way to answer by email: the address and the numbered moves."""

    reply_to: str
    menu: Menu | None  # None when the seat has nothing to choose now

    @property
    def menu_lines(self) -> list[str]:
        return self.menu.lines() if self.menu is not None else []

    @property
    def example(self) -> str:
        """A reply naming a move of several steps, for the email's hint (e.g. "1 9 10")."""
        return self.menu.example() if self.menu is not None else ""


def for_seat(rt: Runtime, table: Table, seat: int) -> Answerable:
    """How ``seat`` answers an email built on ``table`` (its version is the turn's)."""
    token = rt.links.make_reply(table.game_id, seat, table.version,
                                api_generation(rt.redis, table.game_id, seat))
    menu = None
    if not table.ended and seat in table.to_act():
        built = build(table.game, table.state, seat)
        menu = built if built.entries else None
    return Answerable(reply_address(rt.config, token), menu)
