"""Global indexes split into buckets, so that no single key takes every write.

On a Redis Cluster a key lives on one master: a set that every append touches (``rp:dirty``)
would make that master the bottleneck of the whole service, and a MULTI may not span two
slots.  So an index across games is ``BUCKETS`` keys, each with a hash tag of its own
(``rp:dirty:{rp:dirty/7}``), a member always in the bucket its CRC-32 picks, and readers
scan every bucket (one pipelined round trip; the pipeline splits by node).

On a plain Redis there is one bucket, under the index's own name (``rp:dirty``), so a
single-server deployment keeps its keys as they always were.  Every process of one
deployment must agree on the count: it follows from the client (a
:class:`redis.cluster.RedisCluster` gets ``CLUSTER_BUCKETS``); tests may set
``PLAIN_BUCKETS`` to run the sharded path on fakeredis.

Adopting it for a new index: write with ``client.zadd(bucket_key(client, NAME, member), ...)``,
read with :func:`zmembers`, :func:`smembers` or :func:`ztop`, remove with
``client.zrem(bucket_key(client, NAME, member), member)``.
"""

from __future__ import annotations

import heapq
import zlib
from typing import Any

CLUSTER_BUCKETS = 16
PLAIN_BUCKETS = 1


def is_cluster(client: Any) -> bool:
    """Whether ``client`` talks to a Redis Cluster."""
    from redis.cluster import RedisCluster
    return isinstance(client, RedisCluster)


def bucket_count(client: Any) -> int:
    """How many buckets every index has on ``client``'s deployment."""
    return CLUSTER_BUCKETS if is_cluster(client) else PLAIN_BUCKETS


def _bucket_name(name: str, index: int, count: int) -> str:
    return name if count == 1 else f"{name}:{{{name}/{index}}}"


def bucket_of(member: str, count: int) -> int:
    """The bucket of ``member`` among ``count`` (stable across processes and restarts)."""
    return zlib.crc32(member.encode("utf-8")) % count


def bucket_key(client: Any, name: str, member: str) -> str:
    """The key of the bucket of index ``name`` that holds ``member``."""
    count = bucket_count(client)
    return _bucket_name(name, bucket_of(member, count), count)


def all_buckets(client: Any, name: str) -> list[str]:
    """Every bucket key of index ``name``, in bucket order."""
    count = bucket_count(client)
    return [_bucket_name(name, i, count) for i in range(count)]


def _each_bucket(client: Any, name: str, command: str, *args: Any, **kwargs: Any) -> list:
    """``command`` on every bucket of ``name`` in one pipelined round trip."""
    buckets = all_buckets(client, name)
    if len(buckets) == 1:  # a plain Redis: the command itself, no pipeline
        return [getattr(client, command)(buckets[0], *args, **kwargs)]
    pipe = client.pipeline(transaction=False)
    for bucket in buckets:
        getattr(pipe, command)(bucket, *args, **kwargs)
    return pipe.execute()


def zmembers(client: Any, name: str) -> list[tuple[str, float]]:
    """Every ``(member, score)`` of sorted-set index ``name`` (bucket by bucket)."""
    return [pair for found in _each_bucket(client, name, "zrange", 0, -1, withscores=True)
            for pair in found]


def smembers(client: Any, name: str) -> set[str]:
    """Every member of set index ``name``."""
    return set().union(*_each_bucket(client, name, "smembers"))


def zcard(client: Any, name: str) -> int:
    """How many members sorted-set index ``name`` holds."""
    return sum(_each_bucket(client, name, "zcard"))


def zrangebyscore(client: Any, name: str, low: float | str, high: float | str,
                  limit: int | None = None) -> list[tuple[str, float]]:
    """``(member, score)`` of sorted-set index ``name`` scored ``low..high``, lowest
    first across the buckets; at most ``limit`` of them."""
    options = {} if limit is None else {"start": 0, "num": limit}
    found = _each_bucket(client, name, "zrangebyscore", low, high, withscores=True,
                         **options)
    merged = list(heapq.merge(*found, key=lambda pair: pair[1]))
    return merged if limit is None else merged[:limit]


def ztop(client: Any, name: str, offset: int = 0, limit: int = 100,
         highest_first: bool = True) -> list[str]:
    """Members ``offset .. offset + limit - 1`` of sorted-set index ``name`` by score
    (highest first unless ``highest_first`` is false), merged across the buckets.

    Each bucket gives its first ``offset + limit``: fine for the pages of a lobby or an
    admin list, not for walking a million members (use :func:`zmembers` for that).
    """
    if limit <= 0:
        return []
    end = offset + limit - 1
    command = "zrevrange" if highest_first else "zrange"
    found = _each_bucket(client, name, command, 0, end, withscores=True)
    if len(found) == 1:
        return [member for member, _ in found[0][offset:]]
    sign = -1 if highest_first else 1
    merged = heapq.merge(*found, key=lambda pair: sign * pair[1])
    return [member for member, _ in list(merged)[offset:end + 1]]
