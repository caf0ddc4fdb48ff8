"""``/api/v1/me``: the player's own settings over the JSON API.

Authenticated by the player's signed-in session (the cookie of the pages) or by any API
token of any seat of theirs (``Authorization: Bearer``): the token's seat names the
player.  Only the player changes their settings; "sign out everywhere" refuses every
link, token and session of theirs at once, the token of this request too.
"""

from __future__ import annotations

from zoneinfo import available_timezones

from flask import Blueprint, jsonify

from games.protocol import IllegalMove
from service import accounts, schemas
from service.api import creator_of
from service.auth import bearer, player
from service.bodies import body
from service.current import rt
from service.errors import ApiError
from service.mygames import channel_problem, save_channels
from worker import digest, leave, players

bp = Blueprint("me_api", __name__, url_prefix="/api/v1/me")


def me() -> str:
    """The player asking: by an API token of theirs, else by their session."""
    token = bearer()
    if token:
        link = player(rt().links.check(token, "api").game_id)  # revoked tokens refused
        return creator_of(link)
    pid = accounts.current_player()
    if pid is None:
        raise ApiError(401, "unauthorized", "Sign in, or send one of your API tokens as "
                       "'Authorization: Bearer'.")
    return pid


def me_json(pid: str) -> dict:
    runtime = rt()
    prefs = players.prefs(runtime.redis, pid)
    account = players.account(runtime.redis, pid)
    quiet = prefs["quiet"] if prefs["chosen"] else None
    return {"address": account["address"], "verified": bool(account["verified"]),
            "zone": prefs["tz"], "language": prefs["language"], "digest": prefs["digest"],
            "quiet": ("off" if quiet is None else f"{quiet[0]}-{quiet[1]}")
            if prefs["chosen"] else "default", "forced": prefs["forced"],
            "confirm_replies": prefs["confirm"],
            "channels": prefs["channels"], "leave": leave.status(runtime, pid)}


@bp.get("")
def get_me():
    return jsonify(me_json(me()))


@bp.patch("")
def patch_me():
    pid = me()
    data = body(schemas.MePatchIn())
    runtime = rt()
    if "zone" in data and data["zone"] not in available_timezones():
        raise ApiError(400, "bad_request", f"Unknown time zone {data['zone'][:64]!r}.")
    quiet = players.KEEP
    if "quiet" in data:
        quiet = None if data["quiet"] == "off" else players.parse_quiet(data["quiet"])
        if quiet is None and data["quiet"] != "off":
            raise ApiError(400, "bad_request", "quiet: two different hours 0-23, like 22-8, "
                           "or off.")
    if "channels" in data:
        problem = channel_problem(data["channels"])
        if problem:
            raise ApiError(400, "bad_request", f"channels: {problem}")
    if "leave" in data:  # first: a refusal changes nothing else
        try:
            leave.take(runtime, pid, data["leave"]["from_"], data["leave"]["until"])
        except IllegalMove as exc:
            raise ApiError(422, "refused", f"leave: {exc.reason}", reason=exc.reason) \
                from None
    players.save_prefs(runtime.redis, pid, quiet=quiet, tz=data.get("zone"),
                       **{name: data[name] for name in ("language", "forced") if name in data},
                       **({"confirm": data["confirm_replies"]} if "confirm_replies" in data
                          else {}))
    if "channels" in data:
        save_channels(pid, data["channels"])
    if "digest" in data:
        digest.set_digest(runtime, pid, data["digest"])
    return jsonify(me_json(pid))


@bp.post("/signout-everywhere")
def signout_everywhere():
    pid = me()
    runtime = rt()
    players.sign_out_everywhere(runtime.redis, runtime.links, pid)
    accounts.end_session()
    return jsonify({"signed_out": True})
