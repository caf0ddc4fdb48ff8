"""A JSON webhook on 127.0.0.1 (random port), stdlib only: it records every POST
(path, parsed JSON body, time) and answers 200, or ``status`` if set.

Apprise's ``json://`` channel posts ``{"version", "title", "message", "type", ...}``::

    with WebhookStandIn() as hook:
        url = hook.channel("/hook/ada")       # json://127.0.0.1:<port>/hook/ada
        ...
        assert [p.body["title"] for p in hook.posts_to("/hook/ada")] == [...]
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Post:
    path: str
    body: Any  # parsed JSON, or None if it did not parse
    at: float  # time.monotonic() when it was read


class WebhookStandIn:
    def __init__(self, status: int = 200) -> None:
        self.status = status
        self._posts: list[Post] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None, "stand-in not started"
        return self._server.server_address[1]

    def channel(self, path: str = "/hook") -> str:
        """The Apprise URL of this stand-in at ``path``."""
        return f"json://127.0.0.1:{self.port}{path}"

    @property
    def posts(self) -> list[Post]:
        with self._lock:
            return list(self._posts)

    def posts_to(self, path: str) -> list[Post]:
        return [p for p in self.posts if p.path == path]

    def start(self) -> WebhookStandIn:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                with standin._lock:
                    standin._posts.append(Post(self.path, body, time.monotonic()))
                self.send_response(standin.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # quiet tests
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="webhook stand-in")
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> WebhookStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
