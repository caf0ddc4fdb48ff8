"""Inbound mail's HTTP door: SendGrid Inbound Parse posts replies here (see worker.inbox)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("inbound", __name__)
