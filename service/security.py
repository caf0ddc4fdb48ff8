"""Web hardening: cookies and security headers on every response."""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """Bind the security headers and cookie settings to ``app``."""
