"""The player's pages: email action links (``/m/<token>``) and the personal game page.

A GET never changes anything (mail scanners open links before people do); a POST with
the form's move applies it.  An act link acts only on the turn it was emailed for: its
POST decides the move on the link's own version (passive events and the other seats'
sealed choices in a simultaneous step aside, see ``GameService.turn_unchanged``).  Once
used, or once the game has moved on, its page shows the position read-only and points to
the personal page.  One-shot action links are burned by the POST that uses them, and given
back if the move is refused, so a refused click can be corrected from the same email.

No page hands out the long-lived API token unasked: the personal page shows it only in
answer to a POST (CSRF-protected, ``Cache-Control: no-store``), and can revoke it.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from events import envelope as ev
from events import history
from events.audit import cached_audit
from events.envelope import Event
from events.picture import local_time, seat_clock
from events.store import ConflictError
from events.votes import WHAT, ended_line, needed, outcome_said
from games.protocol import IllegalMove
from games.svg import seat_colour
from games.text import T
from service import away, optout
from service.api import request_time, vote_hours
from service.current import after_append, rt
from service.i18n import local_datetime, seat_reader
from service.picture import (
    chart_names,
    fallback_label,
    move_choices,
    page_pictures,
    reader_words,
    score_chart,
    score_series,
    target_labels,
    time_left,
)
from worker import forced, players, quiet
from worker.links import (
    Link,
    api_generation,
    api_token,
    burn,
    check_current,
    is_used,
    rotate_api_token,
    unburn,
)
from worker.runtime import names_of

bp = Blueprint("play", __name__)

# the page's messages are games.text Texts: English, said again in the reader's language
USED = T("This link was already used: each move link in an email works once.")
MOVED_ON = T("The game has moved on since this email was sent, so this link can no longer "
             "make a move.")


def _stale_reason(link: Link) -> str | None:
    """Why an act link may no longer act (None while it may)."""
    runtime = rt()
    if is_used(runtime.redis, link):
        return USED
    if link.version is None \
            or not runtime.games.turn_unchanged(link.game_id, link.seat, link.version):
        return MOVED_ON
    return None


def _page(link: Link, post_url: str, *, status: int = 200, error: str | None = None,
          notice: str | None = None, stale: str | None = None, token: str | None = None):
    """The game as ``link``'s seat sees it.

    An act link's page is read-only, with ``stale`` saying why, once the link may no
    longer act; ``token`` (the API token) is shown only when the personal page was asked.
    """
    runtime = rt()
    _reader(link)
    # no reminder for who just looked
    quiet.seen(runtime.redis, link.game_id, link.seat, runtime.seen_notes)
    if link.purpose == "act" and stale is None:
        stale = _stale_reason(link)
    table = runtime.games.load(link.game_id)
    game = table.game
    to_act = table.to_act()
    moves = game.legal_moves(table.state, link.seat) if link.seat in to_act and not stale \
        else []
    played_for_you = _played_for_you(runtime, table, link.seat, moves)
    if played_for_you:
        moves = []  # a form for it would be out of date before it could be sent
    play_token = runtime.links.make(link.game_id, link.seat, "play",
                                    generation=link.generation)
    words = reader_words()  # the reader's language, for the picture and the moves
    choices = move_choices(game, table.state, link.seat, moves, words["say"])
    due, tz = seat_clock(runtime.games, link.game_id, link.seat, to_act)
    deadline = local_time(due, tz, words["language"])
    picture, phone_picture = page_pictures(runtime.games, table, link.seat,
                                           deadline=deadline, **words)
    history_lines = history.lines(runtime.store, link.game_id, game, table.names, link.seat,
                                  last=30)
    chart = None
    if table.ended and link.purpose == "play":
        names = chart_names(table)
        chart = score_chart(score_series(runtime.games, link.game_id, link.seat, len(names)),
                            names)
    return render_template(
        "game.html", table=table, game=game, seat=link.seat, names=table.names,
        view=game.view(table.state, link.seat), choices=choices, to_act=to_act,
        waiting=", ".join(table.names[s] for s in sorted(to_act)),
        outcome=outcome_said(table.outcome(), table.names) if table.ended else None,
        post_url=post_url, error=error,
        notice=notice, history=history_lines, recent=_since_last_turn(history_lines, link.seat),
        rules=game.rules_summary(),
        play_token=play_token, play_url=url_for("play.page", token=play_token),
        undo=runtime.games.pending_undo(link.game_id, reader=link.seat),
        audit=cached_audit(runtime.store, link.game_id) if table.ended else None,
        take_back=(False, None) if table.ended else runtime.games.can_take_back(
            link.game_id, link.seat),
        stale=stale, personal=link.purpose == "play", api_token=token,
        # the SVG is built by games.svg, which escapes every text and attribute
        picture=Markup(picture) if picture else None,  # noqa: S704
        phone_picture=Markup(phone_picture) if phone_picture else None,  # noqa: S704
        chart=Markup(chart) if chart else None,  # noqa: S704
        builder=_builder_data(choices),
        target_names=_target_names(choices, picture),
        played_for_you=played_for_you,
        deadline=local_datetime(due, tz), due=due if not table.ended else None,
        time_left=time_left(due, request_time()) if not table.ended else None,
        seat_colour=seat_colour(link.seat),
        scrub_url=url_for("play.at_version", token=play_token,
                          version=max(1, table.version - 1)) if table.version > 1 else None,
    ), status


def _reader(link: Link) -> None:
    """The page is in its seat's language: the player's own setting, else the seat's
    (from the lobby or the API), else the browser's."""
    seats = rt().store.get_json(link.game_id, "seats") or []
    seat_reader(rt().redis, seats[link.seat] if 0 <= link.seat < len(seats) else {})


def _played_for_you(runtime, table, seat: int, moves: list[dict]) -> str | None:
    """The label of ``seat``'s only move if the worker is about to play it for them (a
    forced move, the player's setting on), else None."""
    if len(moves) != 1 or forced.pending(runtime.redis, table, seat) is None:
        return None
    return table.game.move_label(table.state, seat, moves[0])


def _builder_data(choices: list[dict]) -> list[dict] | None:
    """The moves the step builder reads (None when every move is one plain step and none
    has a target in the picture: the radio list alone is the better form)."""
    if not any(len(c["steps"]) > 1 or c["targets"] for c in choices):
        return None
    return [{k: c[k] for k in ("value", "label", "steps", "targets")} for c in choices]


def _target_names(choices: list[dict], picture: str | None) -> dict[str, str]:
    """Each target a move acts on, in the game's words (the page's picture's tooltip,
    else the move's label when one move alone acts on it): what the builder says was
    clicked, never the internal name (``loc:quarry``)."""
    labels = target_labels(picture)
    named: dict[str, str] = {}
    for c in choices:
        for t in c["targets"]:
            if t in named:
                continue
            acting = [m["label"] for m in choices if t in m["targets"]]
            named[t] = labels.get(t) or (acting[0] if len(acting) == 1 else fallback_label(t))
    return named


def _since_last_turn(lines: list[dict], seat: int) -> list[dict]:
    """The moves made since ``seat``'s last one that stands (the short log beside the
    board); the last few if it made none among ``lines``."""
    moves = [h for h in lines if h["type"] == ev.MOVE_PLAYED and not h["undone"]]
    mine = [i for i, h in enumerate(moves) if h["actor"] == f"seat:{seat}"]
    return moves[mine[-1] + 1:] if mine else moves[-8:]


@bp.get("/play/<token>/at/<int:version>")
def at_version(token: str, version: int):
    """The game as this seat saw it at ``version``: picture, position and that event's
    line, redacted for this seat as it was then; prev/next step through the versions.
    Versions after the current one do not exist (404).  A past version loads from the
    nearest history snapshot on its fold path (events/history_snapshots.py); the
    versions a link opens are limited (429 past ``HISTORY_VERSIONS_PER_LINK``)."""
    from service.limits import take_history_version
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "play")
    _reader(link)
    last = runtime.store.version(link.game_id)
    if not 1 <= version <= last:
        abort(404)
    if version < last:  # the latest is the game page's own position: not limited
        take_history_version(link.game_id, link.seat, link.generation, version)
    table = runtime.games.load(link.game_id, at=version)
    if not 0 <= link.seat < len(table.names):
        abort(404)
    game = table.game
    picture, phone_picture = page_pictures(runtime.games, table, link.seat,
                                           latest=version == last, **reader_words())
    [event] = runtime.store.read(link.game_id, version, version)
    chart = None
    now = runtime.games.load(link.game_id)
    if now.ended:
        names = chart_names(now)
        chart = score_chart(score_series(runtime.games, link.game_id, link.seat, len(names)),
                            names)
    return render_template(
        "history_at.html", table=table, game=game, seat=link.seat, names=table.names,
        view=game.view(table.state, link.seat), version=version, last=last,
        line=history.describe_in_log(runtime.store, link.game_id, event, game, table.names,
                                     link.seat), event=event,
        when=local_datetime(event.at, seat_clock(runtime.games, link.game_id, link.seat,
                                                 set())[1]),
        picture=Markup(picture) if picture else None,  # noqa: S704 - escaped by games.svg
        phone_picture=Markup(phone_picture) if phone_picture else None,  # noqa: S704
        chart=Markup(chart) if chart else None,  # noqa: S704
        token=token, play_url=url_for("play.page", token=token))


def _apply(link: Link, *, same_turn: bool = False) -> Event:
    """Apply the posted move for ``link``'s seat; the appended event.

    With ``same_turn`` (act links) the move is decided on the version the link was
    emailed for, whatever the form says; else on the form's ``expected_version``.
    """
    raw, expected = request.form.get("move", ""), request.form.get("expected_version", "")
    try:
        move = json.loads(raw)
        expected_version = link.version if same_turn else int(expected)
    except ValueError:
        raise IllegalMove(T("Choose one of the moves listed.")) from None
    if not isinstance(move, dict):
        raise IllegalMove(T("Choose one of the moves listed."))
    event = rt().games.play(link.game_id, link.seat, move, expected_version,
                            same_turn=same_turn)
    after_append(link.game_id, event.version)
    verify_seat(link)
    return event


def verify_seat(link: Link) -> None:
    """Whoever acts through a link mailed to a seat's address has proven that address:
    its player is no longer an invitee (worker.consent)."""
    runtime = rt()
    seats = runtime.store.get_json(link.game_id, "seats") or []
    if 0 <= link.seat < len(seats):
        pid = players.seat_player(runtime.redis, seats[link.seat])
        if pid:
            players.verify(runtime.redis, pid)


@bp.get("/m/<token>")
def confirm(token: str):
    link = check_current(rt().redis, rt().links, token, "act")
    return _page(link, url_for("play.act", token=token))


@bp.post("/m/<token>")
def act(token: str):
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "act")
    post_url = url_for("play.act", token=token)
    # Checked before burning, so a stale click writes nothing at all.
    stale = _stale_reason(link)
    if stale:
        return _page(link, post_url, status=409, stale=stale)
    burned = None  # not known until the burn answers
    try:
        burned = burn(runtime.redis, link, runtime.config["LINK_MAX_AGE"])
        if burned:
            _apply(link, same_turn=True)
    except ConflictError:
        unburn(runtime.redis, link)
        return _page(link, post_url, status=409, stale=MOVED_ON)
    except IllegalMove as exc:
        unburn(runtime.redis, link)
        return _refused(link, post_url, exc)
    except Exception:
        # Redis failed us midway (a lost reply may have burned the link or even played the
        # move): give the link back, so the next click is judged afresh (a move that
        # landed makes it stale; one that did not can still be made)
        if burned is not False:
            with contextlib.suppress(Exception):
                unburn(runtime.redis, link)
        raise
    if not burned:
        return _page(link, post_url, status=409, stale=USED)  # a second click won the race
    play_token = runtime.links.make(link.game_id, link.seat, "play",
                                    generation=link.generation)
    return redirect(url_for("play.page", token=play_token, done=1), 303)


@bp.get("/play/<token>")
def page(token: str):
    link = check_current(rt().redis, rt().links, token, "play")
    notice = T("Your move was recorded.") if request.args.get("done") else _booked(link)
    return _page(link, url_for("play.move", token=token), notice=notice)


@bp.post("/play/<token>")
def move(token: str):
    link = check_current(rt().redis, rt().links, token, "play")
    try:
        _apply(link)
    except (IllegalMove, ConflictError) as exc:
        return _refused(link, url_for("play.move", token=token), exc)
    return redirect(url_for("play.page", token=token, done=1), 303)


def _refused(link: Link, post_url: str, exc: Exception):
    if isinstance(exc, ConflictError):
        return _page(link, post_url, status=409,
                     error=T("The game moved on since you loaded this page; "
                             "here is the current position."))
    return _page(link, post_url, status=422, error=T("Not allowed: %(reason)s",
                                                      reason=exc.reason))


def _with_token(link: Link, token: str, api: str, notice: str | None = None):
    """The personal page showing the API token ``api``; never cached."""
    reply = make_response(_page(link, url_for("play.move", token=token), notice=notice,
                                token=api))
    reply.headers["Cache-Control"] = "no-store"
    return reply


@bp.post("/play/<token>/api-token")
def show_api_token(token: str):
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "play")
    verify_seat(link)
    return _with_token(link, token, api_token(runtime.redis, runtime.links, link.game_id,
                                              link.seat))


@bp.post("/play/<token>/api-token/rotate")
def rotate_api(token: str):
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "play")
    new = rotate_api_token(runtime.redis, runtime.links, link.game_id, link.seat)
    link = replace(link, generation=api_generation(runtime.redis, link.game_id, link.seat))
    fresh = runtime.links.make(link.game_id, link.seat, "play", generation=link.generation)
    return _with_token(link, fresh, new, notice=T(
        "Every earlier link of this seat and its API token were revoked: bookmark this "
        "page's new address. Here is the new API token."))


@bp.post("/play/<token>/undo")
def request_undo(token: str):
    link = check_current(rt().redis, rt().links, token, "play")
    try:
        event = rt().games.request_undo(link.game_id, link.seat)
    except IllegalMove as exc:
        return _refused(link, url_for("play.move", token=token), exc)
    after_append(link.game_id, event.version)
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/play/<token>/undo/answer")
def answer_undo(token: str):
    link = check_current(rt().redis, rt().links, token, "play")
    try:
        event = rt().games.answer_undo(link.game_id, link.seat,
                                       request.form.get("accept") == "1")
    except IllegalMove as exc:
        return _refused(link, url_for("play.move", token=token), exc)
    after_append(link.game_id, event.version)
    return redirect(url_for("play.page", token=token), 303)


@bp.route("/mute/<token>", methods=["GET", "POST"])
def mute(token: str):
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "mute")
    if request.method == "POST":
        seat = optout.set_muted(link.game_id, link.seat, request.form.get("muted") == "1")
    else:
        seat = (runtime.store.get_json(link.game_id, "seats") or [{}])[link.seat]
    seat_reader(runtime.redis, seat)
    return render_template("mute.html", seat=seat, token=token, game_id=link.game_id)


# -- resign and table votes (rules: events.votes; shown by templates/_resign_vote.html) --
RESIGN_UNCONFIRMED = T("To resign, tick the box that confirms it: resigning ends the game.")


bp.add_app_template_filter(names_of, "names_of")  # shared with the emails (worker.runtime)


@bp.app_template_global("resign_vote")
def resign_vote(table, seat: int | None = None) -> dict:
    """What the page shows of resigning and votes for ``table`` (the latest vote, as it
    stands now: open, refused or expired), its times in ``seat``'s time zone."""
    at = request_time()
    names = table.names
    vote = None if table.ended else rt().games.latest_vote(table.game_id, table.version)
    shown = None
    if vote is not None:
        shown = {"kind": vote.kind, "what": WHAT[vote.kind], "status": vote.status(at),
                 "proposer": names[vote.seat], "answers": vote.answers,
                 "expires": local_datetime(vote.expires, away.seat_zone(table.game_id, seat),
                                           "numeric")
                 if seat is not None else vote.expires[:16].replace("T", " ") + " UTC",
                 "needed": needed(vote.kind, len(names)),
                 "yes": [names[s] for s in vote.yes()],
                 "no": [names[s] for s, a in vote.answers.items() if not a],
                 "waiting": [names[s] for s in range(len(names)) if s not in vote.answers]}
    outcome = table.outcome() if table.ended else None
    return {"vote": shown, "what": WHAT, "hours": f"{vote_hours():g}",
            "ended_line": ended_line(outcome, names) if outcome else None}


def _form_version() -> int | None:
    raw = request.form.get("expected_version", "")
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 16:
        raise IllegalMove(T("The form is out of date: reload the page."))
    return int(raw)


@bp.post("/play/<token>/resign")
def resign(token: str):
    link = check_current(rt().redis, rt().links, token, "play")
    post_url = url_for("play.move", token=token)
    if request.form.get("confirm") != "yes":  # the checkbox is checked here, not by JS
        return _page(link, post_url, status=422, error=RESIGN_UNCONFIRMED)
    try:
        event = rt().games.resign(link.game_id, link.seat, _form_version())
    except (IllegalMove, ConflictError) as exc:
        return _refused(link, post_url, exc)
    after_append(link.game_id, event.version)
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/play/<token>/votes")
def vote(token: str):
    link = check_current(rt().redis, rt().links, token, "play")
    post_url = url_for("play.move", token=token)
    accept = request.form.get("accept")
    try:
        if accept not in ("1", "0"):
            raise IllegalMove(T("Choose to agree or to refuse."))
        event = rt().games.vote(link.game_id, link.seat, request.form.get("kind", ""),
                                accept == "1", _form_version(), now=request_time(),
                                hours=vote_hours())
    except (IllegalMove, ConflictError) as exc:
        return _refused(link, post_url, exc)
    after_append(link.game_id, event.version)
    return redirect(url_for("play.page", token=token), 303)


# -- the clock panel's forms (figures: service.away.clock_panel) ---------------------------
@bp.post("/play/<token>/vacation")
def vacation(token: str):
    """The personal page's vacation form."""
    link = check_current(rt().redis, rt().links, token, "play")
    tz = away.seat_zone(link.game_id, link.seat)
    try:
        event = away.declare_vacation(link.game_id, link.seat, away.form_time("from", tz),
                                      away.form_time("until", tz))
    except (IllegalMove, ConflictError) as exc:
        return _refused(link, url_for("play.move", token=token), exc)
    return redirect(url_for("play.page", token=token, vacation=event.version), 303)


def _booked(link: Link) -> str | None:
    """The confirmation of the vacation booked by the VacationDeclared whose version the
    page was sent to (``?vacation=``), in the seat's time zone; None if that is not one
    of this seat's."""
    raw = request.args.get("vacation", "")
    if not raw.isdigit() or len(raw) > 16:
        return None
    found = rt().store.read(link.game_id, int(raw), int(raw))
    if not found or found[0].type != ev.VACATION_DECLARED \
            or found[0].data.get("seat") != link.seat:
        return None
    tz = away.seat_zone(link.game_id, link.seat)
    return T("Your vacation is booked: from %(start)s to %(end)s.",
             start=local_datetime(found[0].data["from"], tz),
             end=local_datetime(found[0].data["until"], tz))


@bp.post("/play/<token>/back")
def back(token: str):
    """The personal page's "I'm back" button."""
    link = check_current(rt().redis, rt().links, token, "play")
    try:
        away.come_back(link.game_id, link.seat)
    except (IllegalMove, ConflictError) as exc:
        return _refused(link, url_for("play.move", token=token), exc)
    return redirect(url_for("play.page", token=token), 303)
