"""A real Redis whose replies can be lost: the server runs the command, the connection
drops before its reply is read (Redis killed or the network cut between the two, or a
socket timeout on a slow reply).

Then either the client sends the command again by itself (``resend=True``: what
redis-py's ``RedisCluster`` does on a connection error or a timeout), or the error
reaches the caller (``resend=False``: the store's plain client, made by ``from_url``,
retries nothing), whose job or player then tries again.  Either way the write may run
twice, so every write must come out of that as if it ran once: these clients let a test
make it happen on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


def _names(args: tuple[Any, ...]) -> str:
    return " ".join(str(a) for a in args)


class LostReplies:
    """``client()`` is a redis-py client of ``url`` whose next reply to a command matching
    an armed pattern is read and then lost; ``lost`` lists the commands it happened to."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._armed: list[Callable[[str], bool]] = []
        self.lost: list[str] = []

    def arm(self, matches: Callable[[str], bool]) -> None:
        """Lose the reply of the next command (or pipeline holding one) for which
        ``matches(the command's words joined by spaces)`` holds; once."""
        self._armed.append(matches)

    def client(self, resend: bool) -> redis.Redis:
        owner = self

        class Connection(redis.Connection):
            sent: list[str] = []
            unread = 0

            def send_command(self, *args: Any, **kwargs: Any) -> None:
                self.sent, self.unread = [_names(args)], 1
                super().send_command(*args, **kwargs)

            def pack_commands(self, commands: Any) -> list[bytes]:
                self.sent = [_names(c) for c in commands]
                self.unread = len(self.sent)
                return super().pack_commands(commands)

            def read_response(self, *args: Any, **kwargs: Any) -> Any:
                reply = super().read_response(*args, **kwargs)
                self.unread -= 1
                if self.unread <= 0:  # the last reply of what was sent: lose it?
                    for matches in owner._armed:
                        hit = next((c for c in self.sent if matches(c)), None)
                        if hit is not None:
                            owner._armed.remove(matches)
                            owner.lost.append(hit)
                            self.disconnect()
                            raise redis.ConnectionError("the reply was lost (test)")
                return reply

        pool = redis.ConnectionPool.from_url(
            self.url, decode_responses=True, connection_class=Connection,
            retry=Retry(NoBackoff(), 3 if resend else 0))
        return redis.Redis(connection_pool=pool)
