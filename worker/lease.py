"""Short leases that a running job keeps renewing, so a crash frees them within seconds.

A lease is a key holding a random token, with a TTL, taken by :func:`claim` (which also
knows its own token when the SET was sent twice), then renewed and released by a redis-py
:class:`redis.lock.Lock` (both check the token in Lua), plus a thread that renews it every third of
its life while the job works.  A job that dies (kill -9, lost machine) stops renewing and
the lease is gone at most ``seconds`` later; a job that merely runs long (a slow SendGrid
retry sequence, a big projection) keeps it however long it takes.  While Redis is down the
lease cannot be renewed; it is then gone at most ``seconds`` after the last renewal.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Iterator

import redis
from redis.exceptions import LockError

log = logging.getLogger(__name__)


@contextlib.contextmanager
def lease(client: redis.Redis, name: str, seconds: float) -> Iterator[bool]:
    """Hold ``name`` for the ``with`` block if nobody else does; yields whether we got it.

    The lease is renewed every ``seconds / 3`` until the block ends, then released.
    """
    token = uuid.uuid4().hex
    if claim(client, name, seconds, token) is not None:
        yield False
        return
    # the Lock renews and releases only while the key still holds this token
    lock = client.lock(name, timeout=seconds, blocking=False, thread_local=False)
    lock.local.token = client.get_encoder().encode(token)
    stop = threading.Event()
    renewer = threading.Thread(target=_renew, args=(lock, seconds, stop), daemon=True,
                               name=f"lease {name}")
    renewer.start()
    try:
        yield True
    finally:
        stop.set()
        renewer.join()
        try:
            lock.release()
        except (LockError, redis.RedisError):  # expired or Redis gone: the TTL frees it
            log.info("lease %s was not released; it expires on its own", name)


def _renew(lock, seconds: float, stop: threading.Event) -> None:
    while not stop.wait(seconds / 3):
        try:
            lock.reacquire()
        except LockError:
            log.warning("lease %s expired while its job still ran", lock.name)
            return
        except redis.RedisError:  # Redis is away; try again at the next beat
            log.warning("lease %s not renewed: Redis unreachable", lock.name)


def claim(client: redis.Redis, name: str, seconds: float, value: str | None = None
          ) -> str | None:
    """Set ``name`` for ``seconds`` unless it is set: None if this call set it, else the
    value it holds ("" if it is gone meanwhile).  The value (``value``, else a random
    one) marks this call's write, so that the SET sent again after its reply was lost
    (the cluster client does that by itself) is known for this call's, not another's."""
    mine = value or uuid.uuid4().hex
    if client.set(name, mine, nx=True, px=max(1, int(seconds * 1000))):
        return None
    held = client.get(name)
    return None if held == mine else (held or "")
