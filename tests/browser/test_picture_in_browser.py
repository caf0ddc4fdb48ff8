"""The picture, the move builder and the phone layout, in real headless Chromium.

A Counting Race (the platform's test game) is played through the outbox's links at
desktop and phone width: the ante is chosen by clicking its chip in the picture, a card
by clicking it, a pair of cards is built step by step.  Every page a player or the admin
opens must fit a 390 px phone without scrolling sideways.  Screenshots of each page are
saved in ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, sign_in
from tests.support import ADMIN, a_race_where_ada_can_play_a_pair

pytestmark = pytest.mark.browser

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def start_race(page, base: str, pairs: bool = True) -> None:
    page.goto(base + "/")
    page.select_option("select[name=game]", "test-race")
    if pairs:
        page.check("input[name='opt_test-race_pairs']")
    for i, name in enumerate(["Ada", "Bo"]):
        page.fill(f"input[name=name{i}]", name)
        page.fill(f"input[name=email{i}]", f"{name.lower()}@example.com")
    page.click("button[type=submit]")
    assert "has begun" in page.content()


def open_turn_mail(page, base: str, address: str) -> str:
    """Open the newest turn email to ``address`` in the outbox; its move link."""
    page.goto(base + "/dev/mail/")
    page.locator("tr", has_text=address).filter(has_text="Your move").first \
        .locator("a").click()
    return page.locator("pre a[href*='/m/']").first.get_attribute("href")


def builder_status(page) -> str:
    return page.locator(".builder .status").inner_text()


def matching(page) -> int:
    """How many moves the builder says still match (waiting for it to say so: a failure
    shows what it said instead)."""
    status = page.locator(".builder .status")
    expect(status).to_contain_text(re.compile(r"\d+ moves"))
    return int(re.search(r"(\d+) moves", status.inner_text()).group(1))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "390px"])
def test_a_race_is_played_on_the_picture_through_the_outbox_links(live, browser, shots,
                                                                   viewport):
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []  # a script or style the page's CSP refused would show here
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    width = viewport["width"]
    sign_in(page, live)  # the organiser, by the link mailed to them
    start_race(page, live.base)

    # Ada antes by clicking the 2 chip in the picture
    page.goto(open_turn_mail(page, live.base, "ada@example.com"))
    assert page.evaluate(FITS)
    page.screenshot(path=str(shots / f"race-ante-{width}.png"), full_page=True)
    page.click("#picture [data-target='ante:2']")
    assert "Your move: Ante 2" in builder_status(page)
    assert page.locator("input[name=move]:checked").get_attribute("value") == \
        '{"amount": 2, "type": "ante"}'
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")

    # Bo antes from the radio list, as without JavaScript (folded on a phone: one tap)
    page.goto(open_turn_mail(page, live.base, "bo@example.com"))
    if page.locator("#move-form details").get_attribute("open") is None:
        page.click("#move-form details > summary")
    page.check("input[name=move] >> nth=0")
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")

    # Ada plays one card: a click on it narrows the builder to the moves using it
    page.goto(open_turn_mail(page, live.base, "ada@example.com"))
    moves = json.loads(page.locator("#moves-data").text_content())
    assert len(moves) > 1, f"Ada's hand of four allows only {moves}: pairs were not on?"
    every = matching(page)
    card = page.locator("#picture [data-target^='card:']").first
    value = card.get_attribute("data-target").split(":")[1]
    card.click()
    if "Your move" not in builder_status(page):  # the card also makes pairs
        assert 1 < matching(page) < every
        page.locator(".builder .options button", has_text="Play one card").click()
    assert f"Your move: Play {value}" in builder_status(page)
    page.screenshot(path=str(shots / f"race-card-picked-{width}.png"), full_page=True)
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")
    assert page.evaluate(FITS)
    page.screenshot(path=str(shots / f"race-after-move-{width}.png"), full_page=True)
    assert f"Ada plays {value}" in page.content()
    assert errors == []


def test_a_pair_of_cards_is_built_one_card_at_a_time(live, page, shots):
    gid, pairs = a_race_where_ada_can_play_a_pair(live.rt)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    page.locator(".builder .options button", has_text="Play two cards").click()
    status = builder_status(page)
    assert "cards: 0 of 2 chosen" in status or "Your move" in status
    first, second = pairs[0]
    if "Your move" not in status:
        page.locator(".builder .options button", has_text=re.compile(f"^{first}$")).click()
        if "Your move" not in builder_status(page):
            # only cards that still make a legal pair with the first are offered
            offered = {int(b) for b in page.locator(".builder .options button").all_inner_texts()
                       if b.isdigit()}
            allowed = {b for a, b in pairs if a == first} | {a for a, b in pairs if b == first}
            assert offered == allowed
            assert "cards: 1 of 2 chosen" in builder_status(page)
            page.locator(".builder .options button", has_text=re.compile(f"^{second}$")).click()
    assert f"Your move: Play {first} and {second}" in builder_status(page)
    page.screenshot(path=str(shots / "race-pair-built.png"), full_page=True)
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")
    assert f"Ada plays {first} and {second}" in page.content()


def test_back_and_reset_undo_the_builders_choices(live, page):
    # two pairs at least: with one, choosing "two cards" leaves a single move to make
    gid, _ = a_race_where_ada_can_play_a_pair(live.rt, at_least=2)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    everything = builder_status(page)
    page.locator(".builder .options button", has_text="Play one card").click()
    page.click(".builder button[data-act=back]")
    assert builder_status(page) == everything
    page.locator(".builder .options button", has_text="Play two cards").click()
    assert "cards: 0 of 2 chosen" in builder_status(page)
    page.click(".builder button[data-act=back]")
    assert builder_status(page) == everything
    page.click("#picture [data-target^='card:'] >> nth=0")
    page.click(".builder button[data-act=reset]")
    assert builder_status(page) == everything
    assert page.locator("#picture .target.picked").count() == 0


def test_a_picture_target_is_chosen_with_the_keyboard(live, page):
    gid, _ = a_race_where_ada_can_play_a_pair(live.rt)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    target = page.locator("#picture [data-target^='card:']").first
    name = target.get_attribute("data-target")
    target.focus()
    page.keyboard.press("Enter")
    assert page.locator(f"#picture [data-target='{name}'].picked").count() >= 1
    # the path names it in the game's words (its tooltip), never by its internal name
    path = page.locator(".builder .path").inner_text()
    assert "on the board: " in path and name not in path


def sign_in_as_admin(page, base: str) -> None:
    page.goto(base + "/admin/sign-in")
    page.fill("input[name=token]", ADMIN)
    page.click("button[type=submit]")


def test_no_page_scrolls_sideways_on_a_phone(live, phone, shots):
    start_race(phone, live.base)
    pages = {"lobby": live.base + "/"}
    move_link = open_turn_mail(phone, live.base, "ada@example.com")
    pages["outbox-mail"] = phone.url
    pages["outbox"] = live.base + "/dev/mail/"
    pages["game"] = move_link
    phone.goto(move_link)
    phone.click("#picture [data-target='ante:3']")
    phone.click("button:has-text('Make this move')")
    phone.wait_for_selector("text=Your move was recorded")
    pages["personal"] = phone.url
    phone.goto(phone.url)
    gid = re.search(r"game (\w+)", phone.locator("p.muted").first.inner_text()).group(1)
    pages["history"] = live.base + "/play/" + live.rt.links.make(gid, 0, "play") + "/at/1"
    sign_in_as_admin(phone, live.base)
    pages["admin"] = live.base + "/admin/"
    pages["admin-game"] = live.base + f"/admin/games/{gid}"
    wide = {}
    for name, url in pages.items():
        phone.goto(url)
        phone.screenshot(path=str(shots / f"phone-{name}.png"), full_page=True)
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide[name] = width
    assert wide == {}


def test_the_lobby_preselects_the_browsers_time_zone(live, browser):
    context = browser.new_context(timezone_id="Europe/Paris")
    page = context.new_page()
    page.goto(live.base + "/")
    assert page.input_value("input[name=tz0]") == "Europe/Paris"


def test_the_lobby_says_what_is_wrong_beside_the_field(live, page, shots):
    page.goto(live.base + "/")
    page.select_option("select[name=game]", "test-race")
    page.fill("input[name=name0]", "Ada")
    page.fill("input[name=email0]", "ada@example.com")
    page.fill("input[name=name1]", "Bo")
    page.fill("input[name=email1]", "bo@example.com")
    page.fill("input[name=tz1]", "Mars/Olympus")
    page.click("button[type=submit]")
    said = page.locator("#err-tz1")
    assert "unknown time zone" in said.inner_text()
    assert page.locator("input[name=tz1]").get_attribute("aria-invalid") == "true"
    page.screenshot(path=str(shots / "lobby-error.png"), full_page=True)


def test_the_favicon_is_served(live, page):
    reply = page.request.get(live.base + "/static/favicon.svg")
    assert reply.ok and reply.headers["content-type"].startswith("image/svg+xml")


def test_a_move_is_built_and_sent_with_the_keyboard_alone(live, page):
    gid, _ = a_race_where_ada_can_play_a_pair(live.rt)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    page.locator(".builder .options button").first.focus()
    for _ in range(6):
        if "Your move" in builder_status(page):
            break
        page.keyboard.press("Enter")
    assert "Your move" in builder_status(page)
    assert page.evaluate("document.activeElement.type") == "submit"
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Your move was recorded")


def test_the_history_steps_back_and_forth_as_the_seat_saw_it(live, page, shots):
    gid, _ = a_race_where_ada_can_play_a_pair(live.rt)
    last = live.rt.store.version(gid)
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 1, "play") + f"/at/{last}")
    assert page.locator("a[rel=next]").count() == 0  # nothing later than the latest
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(f"**/at/{last - 1}")
    assert f"move {last - 1} of {last}" in page.content()
    assert page.locator("#picture svg").count() == 1
    page.screenshot(path=str(shots / "history-step.png"), full_page=True)
    page.click("a[rel=next]")
    page.wait_for_url(f"**/at/{last}")


def test_a_long_move_list_is_a_select_the_picture_fills(live, page, monkeypatch):
    from tests.platform_game import CountingRace
    plain = CountingRace.legal_moves

    def many_antes(self, state, seat):  # more moves than a radio list shows (> 40)
        moves = plain(self, state, seat)
        if moves and moves[0]["type"] == "ante":
            moves += [{"type": "ante", "amount": a} for a in range(4, 50)]
        return moves

    monkeypatch.setattr(CountingRace, "legal_moves", many_antes)
    gid = live.rt.games.create("test-race", [{"name": "Ada", "email": "ada@example.com"},
                                             {"name": "Bo", "email": "bo@example.com"}]).game_id
    page.goto(live.base + "/play/" + live.rt.links.make(gid, 0, "play"))
    assert page.locator("select[name=move] option").count() == 49
    page.click("#picture [data-target='ante:3']")
    assert page.input_value("select[name=move]") == '{"amount": 3, "type": "ante"}'
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")
    assert live.rt.games.load(gid).state["antes"][0] == 3
