"""Last seen: when a seat's player last opened the game (act link, personal page, API
``GET`` with their token), so that no reminder goes to a player who just looked
(:func:`worker.held.intercept`).

"Last seen" is a per-seat key (``seen:<seat>``, the time as its value, living
``SEEN_SECONDS``), written by one command on those GETs: it changes no game state.  A
process writes a seat's key at most once per ``SEEN_REFRESH`` (:class:`SeenNotes`, one per
:class:`worker.runtime.Runtime`), so a player's views in a row are reads, not writes (no
fsync each under ``appendfsync always``); "looked in the last hour" is then known to within
that.

Times come from :func:`worker.current.now`, which tests replace.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from datetime import datetime

from events.store import key
from worker import current

log = logging.getLogger(__name__)

SEEN_SECONDS = 3600  # a reminder is not sent to a player who looked this recently
SEEN_REFRESH = 60  # seconds between two writes of a seat's "seen" by one process


class SeenNotes:
    """When this process last wrote each seat's "seen" (by :func:`worker.current.now`;
    the latest ``size`` seats kept): its next write is due ``SEEN_REFRESH`` later."""

    def __init__(self, size: int = 10_000) -> None:
        self._at: OrderedDict[tuple[str, int], float] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def due(self, game_id: str, seat: int) -> bool:
        """Whether ``seat``'s "seen" is to be written now."""
        at = self._at.get((game_id, seat))
        return at is None or abs(current.now().timestamp() - at) >= SEEN_REFRESH

    def written(self, game_id: str, seat: int) -> None:
        """``seat``'s "seen" was written just now."""
        with self._lock:
            self._at[(game_id, seat)] = current.now().timestamp()
            self._at.move_to_end((game_id, seat))
            while len(self._at) > self._size:
                self._at.popitem(last=False)


def seen(client, game_id: str, seat: int, notes: SeenNotes | None = None) -> None:
    """Note that ``seat``'s player opened the game now (one command; no game state);
    with ``notes``, only if this process has not written it lately."""
    if notes is not None and not notes.due(game_id, seat):
        return
    try:
        name, value, ttl = seen_entry(game_id, seat)
        client.set(name, value, ex=ttl)
        if notes is not None:
            notes.written(game_id, seat)
    except Exception:  # a page view must never fail for want of this note
        log.warning("could not note that seat %s looked at game %s", seat, game_id,
                    exc_info=True)


def seen_entry(game_id: str, seat: int) -> tuple[str, str, int]:
    """What :func:`seen` writes: ``(key, value, seconds to live)``, for a caller that
    writes it in a round trip of its own (see service.auth.player_table)."""
    return key(game_id, f"seen:{seat}"), f"{current.now().timestamp():.0f}", SEEN_SECONDS


def seen_recently(raw: str | None, at: datetime) -> bool:
    """Whether a ``seen`` value means "looked within ``SEEN_SECONDS`` of ``at``"."""
    try:
        return raw is not None and at.timestamp() - float(raw) < SEEN_SECONDS
    except ValueError:
        return False
