"""The email asks the game for its email picture (``medium: email``), the page for its
page picture, and the cache never hands one to the other."""

from __future__ import annotations

from events.picture import picture_for
from tests.test_picture_mail import SEEN, pictured, started  # noqa: F401 (a fixture)


def test_the_turn_email_asks_for_the_email_picture(rt, pictured):  # noqa: F811
    started(rt)
    assert SEEN and {table["medium"] for _, table in SEEN} == {"email"}


def test_the_page_asks_for_the_page_picture_even_after_the_email_drew_the_same_version(
        rt, pictured):  # noqa: F811
    gid = started(rt)
    SEEN.clear()
    assert picture_for(rt, gid, 0) is not None
    assert [table["medium"] for _, table in SEEN] == ["page"]
