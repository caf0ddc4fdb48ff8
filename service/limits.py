"""Limits on what one client may ask of the service: request sizes and rates."""

from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    """Bind the limits to ``app``."""
