"""The references for bench/sequential.py: the smallest Flask JSON route, nothing else
(``/ping``); and the same route after one Redis round trip (``/ping-redis``, a PING on
``REDIS_URL``'s server), the least a request that keeps its state in Redis can do."""

import os

from flask import Flask, jsonify


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/ping")
    def ping():
        return jsonify({"ok": True, "version": 1})

    url = os.environ.get("REDIS_URL")
    if url:
        import redis
        client = redis.Redis.from_url(url)

        @app.get("/ping-redis")
        def ping_redis():
            return jsonify({"ok": client.ping(), "version": 1})

    return app
