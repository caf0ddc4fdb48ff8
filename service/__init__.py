"""The Ravenpost web service: ``create_app()`` builds everything (Flask app factory)."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask

log = logging.getLogger(__name__)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Defaults, then the environment, then ``config``; then connections and blueprints.

    Tests pass ``{"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True)}`` and get
    jobs run inline; production passes nothing and reads ``REDIS_URL`` and friends.
    """
    # Imported here: nothing is built at import time.
    from service import config as cfg
    from service.answers import AnswerJSON
    from worker.runtime import Runtime, set_runtime, templates_dir

    app = Flask(__name__, template_folder=str(templates_dir()))
    app.json = AnswerJSON(app)
    app.config.from_mapping(cfg.DEFAULTS)
    app.config.from_mapping(cfg.from_environment())
    if config:
        app.config.from_mapping(config)
    cfg.check(app.config)

    client = app.config.get("REDIS_CLIENT")
    rq_client = None
    if client is None:
        from service.redis_setup import connect_queue, connect_store, durability_problems
        url = app.config["REDIS_URL"]
        if not url:
            raise cfg.ConfigError("REDIS_URL is not set (`ravenpost serve` starts an embedded "
                                  "Redis and sets it for you)")
        client = connect_store(app.config)
        if app.config.get("REDIS_CLUSTER") and not app.config.get("RATELIMIT_STORAGE_URI"):
            from service.redis_setup import cluster_limits
            uri, options = cluster_limits(url)
            app.config["RATELIMIT_STORAGE_URI"] = uri
            app.config["RATELIMIT_STORAGE_OPTIONS"] = {
                **options, **(app.config.get("RATELIMIT_STORAGE_OPTIONS") or {})}
        if not app.config["RUN_JOBS_INLINE"]:
            rq_client = connect_queue(app.config)
        if app.config["CHECK_REDIS"]:
            for problem in durability_problems(client):
                log.warning("Redis at %s: %s", url, problem)
                app.config.setdefault("REDIS_PROBLEMS", []).append(problem)
    runtime = Runtime(dict(app.config), client, rq_client, mail=app.config.get("MAIL"))
    app.extensions["ravenpost"] = runtime
    if rq_client is None:
        set_runtime(runtime)  # inline jobs run against this app's connections

    from service import (
        admin,
        api,
        csrf,
        devmail,
        errors,
        i18n,
        limits,
        lobby,
        openapi,
        play,
        security,
    )
    i18n.register(app)
    errors.register(app)
    security.register(app)
    limits.register(app)
    csrf.register(app)
    limits.limit_lobby_form(app, lobby.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(play.bp)
    from service import mygames, optout, rules, signin  # a player's pages across games
    app.register_blueprint(rules.bp)
    app.register_blueprint(mygames.bp)
    app.register_blueprint(signin.bp)
    app.register_blueprint(optout.bp)
    from service.away import bp as away_bp  # clocks, vacations, "I'm back"
    app.register_blueprint(away_bp)
    app.register_blueprint(api.bp)
    from service import me_api  # the player's settings over the API
    app.register_blueprint(me_api.bp)
    from service import inbound, talk  # replies by email; table talk
    app.register_blueprint(inbound.bp)
    app.register_blueprint(talk.bp)
    app.register_blueprint(admin.api_bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(openapi.bp)
    if app.config["DEV_MAIL"] is not False and app.config["MAIL_BACKEND"] == "outbox":
        app.register_blueprint(devmail.bp)
    from service.hooks import split_by_lane
    split_by_lane(app)  # last: every app-wide hook is registered by now
    return app
