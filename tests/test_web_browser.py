"""The web page in a real browser: Debian's headless Chromium driven by Playwright plays whole
games by clicking, steps a tournament's records back and forth, and checks the page itself
(its whole DOM, attributes included) for any card another seat holds hidden.

Run with ``pytest -m browser`` (``.ci/run`` installs chromium when it is missing). The server
is the real app on uvicorn in a thread, so the test can read the true game to know which
cards must not reach the page.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from experiments.web.screenshots import YOUR_TURN, launch, live_server, take, tournament_records
from experiments.web.store import Store
from koira_env.registry import spec

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    return tournament_records(tmp_path_factory.mktemp("web"), games=2)


@pytest.fixture(scope="module")
def server(records):
    store = Store()
    with live_server([records], store) as url:
        yield url, store


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def console_errors() -> list[str]:
    """The page's script errors and failed requests; a test expecting a 4xx clears it."""
    return []


@pytest.fixture
def page(browser, console_errors):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = console_errors
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    yield page
    assert not errors, errors  # no script error, no CSP violation
    assert all(url.startswith("http://127.0.0.1:") for url in requests), requests
    context.close()


def hidden_from(state: Any, seat: int) -> set[str]:
    """The cards of other hands that ``seat`` does not see: the full view's hands less what
    its own table shows (the hook itself is held to the guarantee by the permutation tests
    of tests/test_picture_table.py; this checks that the page adds nothing to it)."""
    game = state.game
    full, mine = game.table(state, None), game.table(state, seat)
    return {
        name
        for entry, seen in zip(full["seats"], mine["seats"], strict=True)
        if entry["seat"] != seat
        for name in entry["hand"]
        if name not in seen["hand"]
    }


def assert_page_hides(page: Any, state: Any, seat: int) -> None:
    """No hidden card drawn on the page, and no hidden card's name anywhere in its HTML
    unless the seat's own table dict names it in public words ("player_1 called JC")."""
    hidden = hidden_from(state, seat)
    shown = set(page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert not hidden & shown, f"hidden cards drawn on the page: {sorted(hidden & shown)}"
    public = set(re.findall(r"[A-Za-z0-9]+", json.dumps(state.game.table(state, seat))))
    tokens = set(re.findall(r"[A-Za-z0-9]+", page.content()))
    leaked = (hidden - public) & tokens
    assert not leaked, f"hidden cards named on the page: {sorted(leaked)}"


def start(page: Any, url: str, game: str, seat: int, seed: int, options: dict[str, Any]) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#f-options label")
    page.select_option("#f-game", game)
    page.select_option("#f-seat", str(seat))
    page.fill("#f-seed", str(seed))
    for name, value in options.items():
        field = page.locator(f'[data-option="{name}"]')
        field.set_checked(value) if isinstance(value, bool) else field.fill(str(value))
    page.click("#start")
    page.wait_for_selector("#play-board .seat")
    page.select_option("#speed", "0")  # bots move at once: the test need not watch them


def live_table(store: Store, page: Any) -> Any:
    table_id = page.url.rsplit("/", 1)[1]
    return next(s.tables[table_id] for s in store.sessions.values() if table_id in s.tables)


def play_by_clicking(page: Any, store: Store, seed: int) -> tuple[Any, int]:
    """Click random legal moves (hand cards and move buttons) until the final placements;
    check the page for hidden cards at every turn. Returns the game and the clicks made."""
    table = live_table(store, page)
    rng = random.Random(seed)
    clicks = 0
    while True:
        page.wait_for_selector(YOUR_TURN, state="attached")
        if page.locator("#result").count():
            return table, clicks
        assert_page_hides(page, table.state, table.seat)
        legal = page.locator("#play-board [data-action]")
        assert legal.count() == len(table.state.legal_actions())  # exactly the legal moves
        page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")  # until redrawn
        legal.nth(rng.randrange(legal.count())).click()
        clicks += 1


def test_a_whole_koira_game_is_played_by_clicking(server, page):
    url, store = server
    start(page, url, "koira", seat=1, seed=21, options={})
    table, clicks = play_by_clicking(page, store, seed=1)
    assert table.state.is_terminal and clicks >= 10
    result = page.locator("#result")
    expect(result).to_contain_text("Final placements")
    outcome = table.state.outcome()
    assert outcome is not None
    expect(result).to_contain_text(f"place {outcome.places[1]}: player_1 (you)")
    expect(page.locator("#play-log li")).to_have_count(len(table.state.log))
    expect(page.locator("#play-record")).to_be_visible()


def test_a_whole_game_of_kop_is_played_by_clicking(server, page):
    url, store = server
    start(page, url, "kop", seat=2, seed=8, options=spec("kop").single_hand)
    table, clicks = play_by_clicking(page, store, seed=2)
    assert table.state.is_terminal and clicks >= 5  # a pass and four cards at least
    expect(page.locator("#result")).to_contain_text("Final placements")


def test_a_tournament_record_is_stepped_back_and_forth(server, page):
    url, _ = server
    page.goto(url + "/#/replays")
    links = page.locator("a.record")
    expect(links).to_have_count(2)
    links.first.click()
    page.wait_for_selector("#replay-board .seat")
    expect(page.locator("#r-step")).to_have_value("0")
    steps = int(page.locator("#r-steps").inner_text())
    assert steps > 20
    for expected in ("1", "2", "3"):
        page.click("#r-next")
        expect(page.locator("#r-step")).to_have_value(expected)
    page.click("#r-prev")
    expect(page.locator("#r-step")).to_have_value("2")
    expect(page.locator("#replay-log li.new")).not_to_have_count(0)
    page.fill("#r-step", "20")
    page.press("#r-step", "Enter")
    expect(page.locator("#r-slider")).to_have_value("20")
    full_log = page.locator("#replay-log li").count()
    assert page.locator("#replay-board .hand .back").count() == 0  # the full view shows all
    page.select_option("#r-seat", "1")
    expect(page.locator("#replay-board .seat.me")).to_have_count(1)
    assert page.locator("#replay-board .hand .back").count() > 0  # others' hands face down
    assert page.locator("#replay-log li").count() == full_log
    page.click("#replay-board .status")  # the keys step the replay outside form fields
    page.keyboard.press("End")
    expect(page.locator("#r-step")).to_have_value(str(steps))
    expect(page.locator("#result")).to_contain_text("Final placements")
    page.keyboard.press("Home")
    expect(page.locator("#r-step")).to_have_value("0")


def test_the_lobby_reports_bad_choices(server, page, console_errors):
    url, _ = server
    page.goto(url + "/")
    page.wait_for_selector("#f-options label")
    page.select_option('[data-option="preset"]', "koira-b")
    expect(page.locator('[data-option="trump_card"]')).to_have_value("1")  # revealed in B
    page.fill("#f-players", "2")
    page.dispatch_event("#f-players", "change")
    expect(page.locator("#f-rules-note")).to_contain_text("3-8 players")
    page.click("#start")
    expect(page.locator("#error")).to_contain_text("3-8 players")
    assert console_errors and all("status of 400" in e for e in console_errors)
    console_errors.clear()


def test_switching_games_clears_the_last_games_error(server, page, console_errors):
    # issue 29 item 5: Kop with an unknown opponent, Start, then Red7: no stale banner
    url, _ = server
    page.goto(url + "/")
    page.wait_for_selector("#f-options label")
    page.select_option("#f-game", "kop")
    page.fill("#f-opponents input >> nth=0", "nosuch")
    page.click("#start")
    expect(page.locator("#error")).to_contain_text("nosuch")
    console_errors.clear()
    page.select_option("#f-game", "red7")
    expect(page.locator("#error")).to_be_hidden()


def test_the_documentation_screenshots_are_taken_and_small(browser, tmp_path):
    paths = take(tmp_path, browser)
    assert [p.name for p in paths] == ["web-lobby.png", "web-table.png", "web-replay.png"]
    for path in paths:
        assert 5_000 < path.stat().st_size < 200_000
