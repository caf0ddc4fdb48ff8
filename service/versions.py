"""A game at one version as one viewer saw it, and the steps through the versions.

Two pages step through a game's history: a seat's scrubber (``/play/<token>/at/<n>``,
service.play) and the admin's replay page (``/admin/games/<id>?at=<n>``, service.admin,
which sees it as a spectator does: seat None).  Both show the same things, so both take
them from here: :func:`at_version` (the table, view, picture, the event's log line and its
time) and :func:`steps` (the first/previous/next/latest links); the templates draw them
with the macros of ``templates/_versions.html``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from events import history
from events.envelope import Event
from events.gameplay import GameService
from events.picture import seat_clock
from events.replay import Table
from service.i18n import local_datetime
from service.picture import page_pictures, reader_words


@dataclass(frozen=True)
class AtVersion:
    """What ``seat`` (None: a spectator, the admin) saw at ``version`` of ``last``."""

    table: Table
    seat: int | None
    version: int
    last: int
    view: dict[str, Any]
    event: Event  # the event that made this version
    line: str  # its log line, redacted for the seat
    when: str | None  # its time, in the seat's time zone (UTC for a spectator)
    picture: Markup | None  # the picture as the seat saw it then (None: the game draws none)
    phone_picture: Markup | None  # the same in the game's phone layout, if it draws one


def at_version(games: GameService, game_id: str, seat: int | None, version: int,
               last: int | None = None) -> AtVersion:
    """The game ``game_id`` at ``version`` (1..``last``, the game's current version,
    read if not given) as ``seat`` saw it.  The caller checks that the version exists."""
    last = games.store.version(game_id) if last is None else last
    table = games.load(game_id, at=version)
    game = table.game
    picture, phone = page_pictures(games, table, seat, latest=version == last,
                                   **reader_words())  # the reader's language, as live
    [event] = games.store.read(game_id, version, version)
    return AtVersion(
        table=table, seat=seat, version=version, last=last,
        view=game.view(table.state, seat),
        event=event,
        line=history.describe_in_log(games.store, game_id, event, game, table.names, seat),
        when=local_datetime(event.at, seat_clock(games, game_id, seat, set())[1]),
        picture=Markup(picture) if picture else None,  # noqa: S704 - escaped by games.svg
        phone_picture=Markup(phone) if phone else None)  # noqa: S704


def steps(version: int, last: int, link: Callable[[int], str]) -> dict[str, str]:
    """The links that step from ``version`` through 1..``last``, by their ``rel``
    (``first``, ``prev``, ``next``, ``last``; only those that lead somewhere else);
    ``link(n)`` is the address of version ``n``."""
    out = {}
    if version > 1:
        out["first"], out["prev"] = link(1), link(version - 1)
    if version < last:
        out["next"], out["last"] = link(version + 1), link(last)
    return out
