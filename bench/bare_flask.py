"""The reference for bench/sequential.py: the smallest Flask JSON route, nothing else."""

from flask import Flask, jsonify


def create_app() -> Flask:
    app = Flask(__name__)

    @app.get("/ping")
    def ping():
        return jsonify({"ok": True, "version": 1})

    return app
