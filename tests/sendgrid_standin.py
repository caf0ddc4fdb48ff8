"""A local stand-in for SendGrid's v3 mail-send endpoint, stdlib only.

Usage::

    with SendGridStandIn(api_key="SG.test", script=[429, 500]) as sg:
        backend = SendGridBackend("SG.test", "games@example.org", host=sg.url)
        backend.send(email)
        assert len(sg.requests) == 3

``script`` lists the answers to give, in order, to authorised ``POST /v3/mail/send``
requests; each item is a status code or ``(status, headers)``. Once it runs out, every
request gets what SendGrid answers on success: ``202 Accepted`` with an empty body.
A wrong bearer token gets 401 and an invalid JSON body 400, like the real API.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ScriptItem = int | tuple[int, dict[str, str]]


@dataclass
class RecordedRequest:
    """One request as the stand-in received it."""

    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any = None  # parsed JSON, or None if it did not parse
    status: int = 0  # what the stand-in answered


def _errors(message: str, field_name: str | None = None) -> bytes:
    """An error body in SendGrid's shape."""
    return json.dumps(
        {"errors": [{"message": message, "field": field_name, "help": None}]}
    ).encode()


@dataclass
class SendGridStandIn:
    """HTTP server on 127.0.0.1 (random port) answering like SendGrid's /v3/mail/send."""

    api_key: str = "SG.test-key"
    script: list[ScriptItem] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # Lifecycle -------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL to give the client as ``host`` (it appends /v3/...)."""
        assert self._server is not None, "stand-in not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> SendGridStandIn:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                standin._handle(self)

            def do_GET(self) -> None:
                standin._handle(self)

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # A short poll interval makes stop() quick (shutdown waits for the next poll).
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> SendGridStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # Scripting -------------------------------------------------------------------------
    def push(self, *items: ScriptItem) -> None:
        """Queue further answers."""
        with self._lock:
            self.script.extend(items)

    @property
    def sent(self) -> list[Any]:
        """JSON bodies of the requests that were accepted (2xx)."""
        return [r.body for r in self.requests if 200 <= r.status < 300]

    # Handling --------------------------------------------------------------------------
    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        record = RecordedRequest(
            method=handler.command,
            path=handler.path,
            headers={k: v for k, v in handler.headers.items()},
            raw=raw,
            body=body,
        )
        extra: dict[str, str] = {}
        if handler.command != "POST" or handler.path != "/v3/mail/send":
            status, payload = 404, _errors("not found")
        elif handler.headers.get("Authorization") != f"Bearer {self.api_key}":
            status = 401
            payload = _errors("The provided authorization grant is invalid, expired, or revoked")
        elif body is None:
            status, payload = 400, _errors("Bad Request", None)
        else:
            with self._lock:
                item = self.script.pop(0) if self.script else 202
            status, extra = item if isinstance(item, tuple) else (item, {})
            payload = b"" if 200 <= status < 300 else _errors(f"scripted status {status}")
        record.status = status
        with self._lock:
            self.requests.append(record)
        handler.send_response(status)
        for name, value in extra.items():
            handler.send_header(name, value)
        if payload:
            handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        if payload:
            handler.wfile.write(payload)
