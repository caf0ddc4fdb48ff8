"""Replies to turn emails: a stored inbound message decided as a POST from its seat would be."""

from __future__ import annotations


def handle(key: str) -> str:
    """Decide the inbound message stored under ``key`` (see worker.inbox); what was done."""
    raise NotImplementedError("worker.replies.handle is being written")
