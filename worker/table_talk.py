"""Table talk in emails: the messages a seat has not been mailed yet, and the note that
someone else answered a seat's email.

Messages (``Said`` events, see :mod:`events.talk`) are quoted in a seat's next email
("Ann: …"), so they wait through quiet hours exactly as that email does.  What a seat was
shown is kept per seat (``talk-read:<seat>``: the last version quoted to it).
"""

from __future__ import annotations

from events import talk
from events.store import key
from worker.runtime import Runtime

QUOTED_AT_MOST = 10  # the latest messages an email quotes; the game page has them all
FOREIGN_NOTE_EVERY = 24 * 3600  # a seat hears of others' replies once a day at most
FOREIGN_KEPT = 7 * 24 * 3600


def unread(rt: Runtime, game_id: str, seat: int, names: list[str],
           upto: int | None = None) -> list[dict[str, str]]:
    """The others' visible messages after the last one ``seat`` was mailed, up to
    version ``upto``, oldest first (``{"name", "text"}``); they count as read from here
    (a mail that fails to go out loses its quotes, not its moves: the page keeps them)."""
    read = int(rt.redis.get(key(game_id, f"talk-read:{seat}")) or 0)
    found = [m for m in talk.messages(rt.store, game_id, after=read, upto=upto)
             if m.seat != seat and not m.hidden]
    if upto is not None:
        rt.redis.set(key(game_id, f"talk-read:{seat}"), max(read, upto))
    return [{"name": names[m.seat] if 0 <= m.seat < len(names) else m.name, "text": m.text}
            for m in found[-QUOTED_AT_MOST:]]


def note_foreign_reply(rt: Runtime, game_id: str, seat: int, sender: str) -> None:
    """Remember that ``sender``, not the seat's address, answered ``seat``'s email."""
    rt.redis.set(key(game_id, f"foreign-reply:{seat}"), sender[:200], ex=FOREIGN_KEPT)


def foreign_reply_note(rt: Runtime, game_id: str, seat: int) -> str | None:
    """The address that answered ``seat``'s email in its place, if the seat has not been
    told of one in the last day; told from here on."""
    sender = rt.redis.get(key(game_id, f"foreign-reply:{seat}"))
    if not sender:
        return None
    if not rt.redis.set(key(game_id, f"foreign-told:{seat}"), "1", nx=True,
                        ex=FOREIGN_NOTE_EVERY):
        return None
    rt.redis.delete(key(game_id, f"foreign-reply:{seat}"))
    return sender
