"""A pipeline sent to Redis now and its replies read later, so that a request works while
Redis does (its one round trip then costs only what it waits beyond that work).

``with sent(pipe) as trip: ...work...; replies = trip.replies()`` answers what
``pipe.execute(raise_on_error=False)`` would: each command's reply, a failed command's
ResponseError in its place.  A connection error while sending or reading is handled as
redis-py's own pipeline handles it: the connection is dropped, and the whole pipeline is
sent again if the client retries (else the error reaches the caller).  So the writes it
holds must already be safe to run twice, as every write here is (a lost reply makes
redis-py send them again too).  A cluster's pipeline, or a transaction, is not split:
``replies()`` executes it then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import redis
from redis.client import Pipeline

try:
    import hiredis
    from redis.connection import AbstractConnection, HiredisRespSerializer
except ImportError:  # pragma: no cover (hiredis is a dependency; redis-py works without)
    hiredis = AbstractConnection = HiredisRespSerializer = None

T = TypeVar("T")


class Trip:
    """One pipeline on its way; :meth:`replies` waits for and reads its replies."""

    def __init__(self, pipe: Any) -> None:
        self._pipe = pipe
        self._conn: Any = None
        self._replies: list[Any] | None = None
        if type(pipe) is not Pipeline or pipe.transaction or not pipe.command_stack:
            return  # a cluster's, or a transaction: executed by replies()
        pool = pipe.connection_pool
        conn = pool.get_connection()
        try:
            packed = pack(conn, [args for args, _options in pipe.command_stack])
        except BaseException:  # e.g. a word that is not bytes, text or a number
            pool.release(conn)
            pipe.reset()
            raise
        try:
            conn.send_packed_command(packed)
        except BaseException as exc:
            self._unless_retried(conn, exc)
            return  # replies() sends it again
        self._conn = conn

    def replies(self) -> list[Any]:
        """The replies, read once (a failed command's ResponseError in its place)."""
        if self._replies is None:
            self._replies = self._read()
        return self._replies

    def _read(self) -> list[Any]:
        pipe, conn, self._conn = self._pipe, self._conn, None
        if conn is None:
            return pipe.execute(raise_on_error=False)
        replies: list[Any] = []
        try:
            for args, options in pipe.command_stack:
                try:
                    replies.append(pipe.parse_response(conn, args[0], **options))
                except redis.ResponseError as exc:
                    replies.append(exc)
        except BaseException as exc:
            self._unless_retried(conn, exc)
            return pipe.execute(raise_on_error=False)
        pipe.connection_pool.release(conn)
        pipe.reset()
        return replies

    def close(self) -> None:
        """Read the replies if nobody did (the writes went out: their outcome is read, and
        the connection goes back clean); a failure to read them is not raised here."""
        if self._replies is None and self._conn is not None:
            try:
                self.replies()
            except redis.RedisError:
                pass

    def _unless_retried(self, conn: Any, exc: BaseException) -> None:
        """After ``exc`` on ``conn``: drop the connection (out of step, or gone), and
        raise ``exc`` unless it is a lost connection that the client retries (the
        caller then sends the pipeline again, as redis-py's retry would)."""
        self._drop(conn)
        retry = getattr(conn, "retry", None)
        if not (isinstance(exc, redis.ConnectionError | redis.TimeoutError)
                and retry is not None and retry.get_retries()):
            self._pipe.reset()
            raise exc

    def _drop(self, conn: Any) -> None:
        conn.disconnect()
        self._pipe.connection_pool.release(conn)


def pack(conn: Any, commands: list[tuple[Any, ...]]) -> list[bytes]:
    """``conn.pack_commands(commands)``, written by hiredis in one call per command where
    that is what redis-py's own hiredis packer does: it hands each command's words to
    ``hiredis.pack_command`` too, after a type check of every word (for a move, with
    the twenty-odd words of its append, that check cost more than the packing).  A
    first word of two ("CLIENT SETNAME"), a bytearray or a word that hiredis refuses
    goes to redis-py as before (which packs it, or raises its DataError); so does
    everything for a connection class that packs in its own way."""
    if (HiredisRespSerializer is None
            or type(conn).pack_commands is not AbstractConnection.pack_commands
            or type(getattr(conn, "_command_packer", None)) is not HiredisRespSerializer
            or any(type(args[0]) is not str or " " in args[0] for args in commands)):
        return conn.pack_commands(commands)
    try:
        return [b"".join([hiredis.pack_command(args) for args in commands])]
    except TypeError:  # hiredis takes str, bytes, int and float only
        return conn.pack_commands(commands)


@contextmanager
def sent(pipe: Any) -> Iterator[Trip]:
    """Send ``pipe``'s commands now; the block may work before it reads the replies."""
    trip = Trip(pipe)
    try:
        yield trip
    finally:
        trip.close()


def meanwhile(work: Callable[..., T] | None, *args: Any) -> T | None:
    """``work(*args)``, done while a round trip is on its way on what it may need: None
    if there is no work, or it raised (the caller does it again after the replies, where
    its error shows as it always did)."""
    if work is None:
        return None
    try:
        return work(*args)
    except Exception:
        return None
