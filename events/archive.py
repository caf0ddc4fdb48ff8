"""Games at rest, written out of Redis to one zstandard-compressed file each.

A file holds the game's log exactly as the stream held it (entry ids and every field,
the writer token too, so the hash chain and :meth:`EventStore.holds` survive) and every
other key of the game with its type and remaining time to live, except what is rebuilt
from the log (the snapshots) and what is transient (the projection lease).  Redis keeps
one small index entry per archived game, ``rp:{g:<id>}:archived``: where the file is,
its SHA-256, the version the log ends at, and what the lobby lists of the game; and the
seats' link generations, if any seat's links were ever revoked (see ``KEPT``).

Archiving reads every key under WATCH, writes the file, reads it back and checks it
against what Redis holds, and only then, in one MULTI, sets the index entry and deletes
the keys: a write meanwhile (a late vote, a seen stamp) aborts the MULTI and the game
stays live.  Restoring writes every key back and deletes the index entry in one MULTI
(WATCHed likewise), then deletes the file.  A process killed at any step thus leaves
either the live game or the index entry and its file; at worst an orphan file.

Files go to a directory (``file://`` URLs, written to a temporary name, fsynced, then
renamed) or to an S3-compatible bucket (``s3://bucket/prefix``, through boto3).  The
index entry holds the file's full URL, so any process can restore a game whatever its
own ``ARCHIVE_URL``.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import redis
import zstandard

from events.envelope import Event, check_chain
from events.store import EventStore, key

FORMAT = "ravenpost-archive"
FORMAT_VERSION = 1
INDEX = "archived"  # the index entry's name among the game's keys (see key())
RESTORED = "restored"  # a restored game's mark: the sweep leaves it alone while it lives
# Rebuilt from the log, or transient: never archived (deleted with the game's keys).
REBUILT = frozenset({"snapshot", "snapshot:prev", "snapshot_version", "history", "projecting"})
NOT_ARCHIVED = REBUILT | {INDEX, RESTORED}
# Archived, yet also left in Redis: what authorises a link before the game is loaded (the
# seats' link generations, a hash only a revocation makes), so that a revoked link stays
# refused while its game is archived.
KEPT = frozenset({"api-gen"})
LEVEL = 12  # zstandard level: a log is written once; 19 cost 4x the time for ~3% fewer bytes
KILL_AT = "RAVENPOST_ARCHIVE_KILL_AT"  # tests: the step at which the process kills itself


class ArchiveError(RuntimeError):
    """An archive is missing, unreadable, or does not match the game it is for."""


def step(name: str) -> None:
    """A named step of archiving or restoring; a process whose ``RAVENPOST_ARCHIVE_KILL_AT``
    names it dies here, as kill -9 would kill it (the crash tests)."""
    if os.environ.get(KILL_AT) == name:
        os.kill(os.getpid(), signal.SIGKILL)


# -- the file format ---------------------------------------------------------------------
def encode(document: dict[str, Any]) -> bytes:
    return zstandard.ZstdCompressor(level=LEVEL).compress(
        json.dumps(document, separators=(",", ":"), sort_keys=True).encode())


def decode(blob: bytes) -> dict[str, Any]:
    try:
        document = json.loads(zstandard.ZstdDecompressor().decompress(blob))
    except (zstandard.ZstdError, ValueError) as exc:
        raise ArchiveError(f"not a readable archive: {exc}") from exc
    if document.get("format") != FORMAT or document.get("version") != FORMAT_VERSION:
        raise ArchiveError("not a Ravenpost archive of a known version")
    return document


def check_log(log: list[list[Any]]) -> tuple[bool, int, str]:
    """The hash chain of stored entries ``[[id, {field: value}], ...]``, as
    :meth:`EventStore.verify` checks a stream: ``(ok, events, first problem or '')``."""
    return check_chain(Event.from_entry(entry_id, fields) for entry_id, fields in log)


# -- where files go ------------------------------------------------------------------------
_s3_clients: dict[str | None, Any] = {}
_s3_lock = threading.Lock()


def _s3(endpoint: str | None) -> Any:
    """A boto3 S3 client per endpoint (credentials and region: boto3's own environment;
    ``None``: boto3's default endpoint, or ``AWS_ENDPOINT_URL_S3``)."""
    with _s3_lock:
        if endpoint not in _s3_clients:
            import boto3  # only where archives are on S3
            _s3_clients[endpoint] = boto3.client("s3", endpoint_url=endpoint)
        return _s3_clients[endpoint]


@dataclass
class Archives:
    """Where new archives are written (``url``: a directory path, ``file://`` or
    ``s3://bucket/prefix``) and how any archive URL is read (``s3_endpoint``: an
    S3-compatible server's URL, else AWS's)."""

    url: str
    s3_endpoint: str | None = None

    def put(self, name: str, blob: bytes) -> str:
        """Store ``blob`` as ``name`` durably; its URL."""
        where = urlparse(self.url)
        if where.scheme == "s3":
            object_key = "/".join(filter(None, [where.path.strip("/"), name]))
            _s3(self.s3_endpoint).put_object(
                Bucket=where.netloc, Key=object_key, Body=blob,
                ChecksumAlgorithm="SHA256")  # the server refuses a body damaged on the way
            return f"s3://{where.netloc}/{object_key}"
        folder = Path(unquote(where.path) if where.scheme == "file" else self.url).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        temporary = folder / f".{name}.{os.getpid()}.tmp"
        with open(temporary, "wb") as out:
            out.write(blob)
            out.flush()
            os.fsync(out.fileno())
        step("archive:tmp-written")
        os.replace(temporary, path)
        # the rename itself must be on disk before Redis forgets the game
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        return path.as_uri()

    def fetch(self, url: str) -> bytes:
        where = urlparse(url)
        try:
            if where.scheme == "s3":
                reply = _s3(self.s3_endpoint).get_object(Bucket=where.netloc,
                                                        Key=where.path.lstrip("/"))
                return reply["Body"].read()
            if where.scheme == "file":
                return Path(unquote(where.path)).read_bytes()
        except Exception as exc:  # a missing file and S3's NoSuchKey alike
            raise ArchiveError(f"cannot read {url}: {exc}") from exc
        raise ArchiveError(f"not an archive URL: {url}")

    def delete(self, url: str) -> None:
        where = urlparse(url)
        if where.scheme == "s3":
            _s3(self.s3_endpoint).delete_object(Bucket=where.netloc, Key=where.path.lstrip("/"))
        elif where.scheme == "file":
            Path(unquote(where.path)).unlink(missing_ok=True)


def default_url(data_dir: str | os.PathLike[str] | None = None) -> str:
    """Where archives go without ``ARCHIVE_URL``: ``archive/`` in the data directory of
    ``ravenpost serve`` (``RAVENPOST_DATA_DIR``, else ``./var``)."""
    base = data_dir or os.environ.get("RAVENPOST_DATA_DIR") or "var"
    return str(Path(base).resolve() / "archive")


# -- reading and writing a game's keys -------------------------------------------------------
def game_keys(client: redis.Redis, game_id: str) -> list[str]:
    """The names (after ``rp:{g:<id>}:``) of the game's keys that an archive holds."""
    prefix = key(game_id, "")
    found = {name[len(prefix):] for name in client.scan_iter(match=prefix + "*", count=1000)}
    return sorted(found - NOT_ARCHIVED)


def _read_keys(client: redis.Redis, game_id: str, names: list[str]) -> dict[str, Any]:
    """``{name: {"type", "value", "pttl"}}`` of the game's side keys, in two round trips
    (the log is read apart).  A key gone meanwhile is left out (the WATCH on it aborts
    the archiving anyway)."""
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.type(key(game_id, name))
    types = pipe.execute()
    readers = {"string": "get", "hash": "hgetall", "set": "smembers", "list": "lrange",
               "zset": "zrange", "stream": "xrange"}
    pipe = client.pipeline(transaction=False)
    kept = []
    for name, kind in zip(names, types, strict=True):
        if kind not in readers:
            continue
        full = key(game_id, name)
        if kind == "list":
            pipe.lrange(full, 0, -1)
        elif kind == "zset":
            pipe.zrange(full, 0, -1, withscores=True)
        else:
            getattr(pipe, readers[kind])(full)
        pipe.pttl(full)
        kept.append((name, kind))
    replies = pipe.execute()
    keys: dict[str, Any] = {}
    for (name, kind), value, pttl in zip(kept, replies[0::2], replies[1::2], strict=True):
        if pttl == -2:
            continue
        if kind == "set":
            value = sorted(value)
        elif kind == "zset":
            value = [[member, score] for member, score in value]
        elif kind == "stream":
            value = [[entry_id, fields] for entry_id, fields in value]
        keys[name] = {"type": kind, "value": value, "pttl": pttl}
    return keys


def _write_key(pipe: Any, full: str, kind: str, value: Any, pttl: int | None) -> None:
    """Queue the commands that make ``full`` hold ``value`` again."""
    if kind == "string":
        pipe.set(full, value)
    elif kind == "hash" and value:
        pipe.hset(full, mapping=value)
    elif kind == "set" and value:
        pipe.sadd(full, *value)
    elif kind == "list" and value:
        pipe.rpush(full, *value)
    elif kind == "zset" and value:
        pipe.zadd(full, {member: score for member, score in value})
    elif kind == "stream":
        for entry_id, fields in value:
            pipe.xadd(full, fields, id=entry_id)
    if pttl is not None and pttl > 0:
        pipe.pexpire(full, pttl)


def _read_log(client: redis.Redis, game_id: str, batch: int = 1000) -> list[list[Any]]:
    """Every entry of the log as stored: ``[[id, {field: value}], ...]``."""
    log, low, entries = key(game_id, "log"), "-", []
    while True:
        page = client.xrange(log, min=low, max="+", count=batch)
        entries += [[entry_id, fields] for entry_id, fields in page]
        if len(page) < batch:
            return entries
        low = f"0-{int(page[-1][0].split('-', 1)[1]) + 1}"


def _now_ms() -> int:
    return int(time.time() * 1000)


# -- archiving --------------------------------------------------------------------------------
@dataclass
class Archived:
    """What archiving one game did: the index entry written and the file's size."""

    game_id: str
    entry: dict[str, Any]
    file_bytes: int


def index_entry(client: redis.Redis, game_id: str) -> dict[str, Any] | None:
    raw = client.get(key(game_id, INDEX))
    return json.loads(raw) if raw else None


# An index entry's JSON at most: with the link generations of six revoked seats beside it
# (KEPT), MEMORY USAGE stays under 1 KB.
ENTRY_CHARS = 560


def _listed(keys: dict[str, Any]) -> dict[str, Any]:
    """What the lobby's lists read of an archived game, kept in its index entry: its
    summary (what worker/listing.py shows)."""
    summary = keys.get("summary")
    if not summary or summary["type"] != "string":
        return {}
    data = json.loads(summary["value"])
    return {"summary": {k: data.get(k) for k in ("kind", "name", "names", "ended", "updated")}}


def _entry_json(entry: dict[str, Any]) -> str:
    """The index entry as stored, within ``ENTRY_CHARS``: long player names go first,
    then the summary (the game then drops out of its players' lists until restored)."""
    text = json.dumps(entry, separators=(",", ":"))
    if len(text) > ENTRY_CHARS and "summary" in entry:
        entry["summary"]["names"] = []
        text = json.dumps(entry, separators=(",", ":"))
    if len(text) > ENTRY_CHARS:
        entry.pop("summary", None)
        text = json.dumps(entry, separators=(",", ":"))
    return text


def archive_game(store: EventStore, archives: Archives, game_id: str,
                 now: str = "") -> Archived | None:
    """Write the game out of Redis; None if there is nothing to archive (no log, or it
    is archived already) or if it changed meanwhile (it stays live: try again later).

    ArchiveError if its hash chain is broken or the file read back differs: the keys
    stay."""
    client = store.redis
    log_key, index_key = key(game_id, "log"), key(game_id, INDEX)
    names = [n for n in game_keys(client, game_id) if n != "log"]
    with client.pipeline(transaction=True) as pipe:
        try:
            pipe.watch(log_key, index_key, *(key(game_id, n) for n in names))
            if pipe.exists(index_key) or not pipe.exists(log_key):
                return None
            log = _read_log(client, game_id)
            ok, count, problem = check_log(log)
            if not ok or not count:
                raise ArchiveError(f"{game_id}: the log in Redis is broken: {problem}")
            keys = _read_keys(client, game_id, names)
            document = {"format": FORMAT, "version": FORMAT_VERSION, "game_id": game_id,
                        "archived_at": now, "archived_ms": _now_ms(), "log": log,
                        "keys": keys}
            blob = encode(document)
            digest = hashlib.sha256(blob).hexdigest()
            step("archive:read")
            url = archives.put(f"{game_id}-{digest[:16]}.json.zst", blob)
            step("archive:written")
            back = archives.fetch(url)
            if hashlib.sha256(back).hexdigest() != digest:
                raise ArchiveError(f"{game_id}: {url} reads back other bytes than written")
            copy = decode(back)
            ok, copied, problem = check_log(copy["log"])
            if not ok or copy["log"] != log or copied != count:
                raise ArchiveError(f"{game_id}: {url} does not hold the log in Redis: {problem}")
            step("archive:verified")
            # the file's SHA-256 pins its log, hence the hash chain's end too
            entry = {"url": url, "sha256": digest, "version": count, "at": now,
                     "bytes": len(blob), **_listed(keys)}
            pipe.multi()
            pipe.set(index_key, _entry_json(entry))
            pipe.delete(log_key, *(key(game_id, n) for n in [*names, *REBUILT, RESTORED]
                                   if n not in KEPT))
            pipe.execute()
        except redis.WatchError:
            return None  # the game moved meanwhile: it is not at rest
    step("archive:committed")
    return Archived(game_id, entry, len(blob))


# -- restoring ----------------------------------------------------------------------------------
def restore_game(store: EventStore, archives: Archives, game_id: str,
                 keep_for: int = 7 * 24 * 3600) -> bool:
    """Bring an archived game back into Redis; whether the game is in Redis now (False:
    no index entry, so no such game).  ``keep_for``: seconds the restored game is left
    alone by the archive sweep.  Keys that were written while the game was archived are
    kept as they are (the later write wins).  ArchiveError if the file is missing or does
    not match its index entry: nothing changes."""
    client = store.redis
    log_key, index_key = key(game_id, "log"), key(game_id, INDEX)
    raw = client.get(index_key)
    if raw is None:
        return bool(client.exists(log_key))
    entry = json.loads(raw)
    blob = archives.fetch(entry["url"])
    if hashlib.sha256(blob).hexdigest() != entry["sha256"]:
        raise ArchiveError(f"{game_id}: {entry['url']} is not the file its index entry names")
    document = decode(blob)
    log = document["log"]
    ok, count, problem = check_log(log)
    if not ok or count != entry["version"]:
        raise ArchiveError(f"{game_id}: {entry['url']} fails its hash chain: {problem}")
    step("restore:fetched")
    keys: dict[str, Any] = document["keys"]
    elapsed = _now_ms() - document["archived_ms"]
    with client.pipeline(transaction=True) as pipe:
        try:
            pipe.watch(index_key, log_key, *(key(game_id, n) for n in keys))
            if pipe.get(index_key) != raw:
                return bool(pipe.exists(log_key))  # restored (or archived anew) meanwhile
            if pipe.exists(log_key):
                raise ArchiveError(f"{game_id}: both a log and an index entry")
            present = [pipe.exists(key(game_id, n)) for n in keys]
            pipe.multi()
            for entry_id, fields in log:
                pipe.xadd(log_key, fields, id=entry_id)
            for (name, stored), there in zip(keys.items(), present, strict=True):
                pttl = stored["pttl"] - elapsed if stored["pttl"] > 0 else None
                if there or (pttl is not None and pttl <= 0):
                    continue  # written since, or expired while archived
                _write_key(pipe, key(game_id, name), stored["type"], stored["value"], pttl)
            pipe.set(key(game_id, RESTORED), "1", ex=max(keep_for, 60))
            pipe.delete(index_key)
            pipe.execute()
        except redis.WatchError:
            return bool(client.exists(log_key))  # another process restored it first
    step("restore:committed")
    try:
        archives.delete(entry["url"])  # an orphan if this fails: harmless
    except Exception:  # noqa: BLE001 - the game is back; a file left over is no loss
        pass
    step("restore:deleted")
    return True


def restorer(store: EventStore, archives: Archives,
             keep_for: int = 7 * 24 * 3600) -> Callable[[str], bool]:
    """The hook :class:`EventStore` calls when a game's log is missing: restore it if it
    is archived (whether it was)."""
    def restore(game_id: str) -> bool:
        if not store.redis.exists(key(game_id, INDEX)):
            return False
        return restore_game(store, archives, game_id, keep_for)
    return restore
