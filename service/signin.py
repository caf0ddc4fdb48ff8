"""Sign-in by a one-time link mailed to the address (service.accounts), and sign-out."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from marshmallow import ValidationError
from marshmallow.validate import Email as EmailAddress

from games.text import T
from service import accounts, limits, lobby
from service.limits import Limited

bp = Blueprint("signin", __name__)

USED = ("This sign-in link was used already or has expired (each works once, for 15 "
        "minutes). Ask for a new one below.")


def _form(status: int = 200, error: str | None = None, address: str = ""):
    return render_template("sign_in.html", error=error, address=address), status


@bp.get("/sign-in")
def form():
    if accounts.current_player():
        return redirect(url_for("mygames.page"))
    return _form()


@bp.post("/sign-in")
def ask():
    """Mail a one-time link; the answer is the same whether the address is known."""
    address = request.form.get("email", "").strip()
    try:
        EmailAddress()(address)
    except ValidationError:
        return _form(400, T("Please give an email address."), address)
    try:
        limits.take_sign_in(address, request.remote_addr or "unknown")
    except Limited as exc:
        return (*_form(429, exc.description, address), {"Retry-After": str(exc.retry_after)})
    accounts.mail_link(address, accounts.make_link(address), "sign-in")
    return render_template("check_mail.html", address=address, purpose="sign-in")


@bp.get("/sign-in/<token>")
def confirm(token: str):
    """The mailed link: a button, since a GET changes nothing (mail scanners open links)."""
    link = accounts.peek_link(token)
    if link is None:
        return _form(403, USED)
    return render_template("sign_in_confirm.html", link=link, token=token)


@bp.post("/sign-in/<token>")
def use(token: str):
    link = accounts.take_link(token)
    if link is None:
        return _form(403, USED)
    pid = accounts.sign_in(link["address"])
    if link["purpose"] == "create":
        return lobby.start_confirmed(link, pid)
    return redirect(url_for("mygames.page"), 303)


@bp.post("/sign-out")
def sign_out():
    accounts.end_session()
    return redirect(url_for("lobby.index"), 303)
