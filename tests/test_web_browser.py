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
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from koira_env.registry import spec
from koira_experiments.web.screenshots import (
    YOUR_TURN,
    launch,
    live_server,
    take,
    tournament_records,
)
from koira_experiments.web.store import Store

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


def new_page(browser: Any, errors: list[str], width: int = 1280, height: int = 900) -> Any:
    """A page in a fresh context of that viewport whose script errors and console errors go
    to ``errors`` (close it with ``page.context.close()``)."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def lobby(page: Any, url: str) -> None:
    """Open the lobby and wait until it lists the game's options."""
    page.goto(url + "/")
    page.wait_for_selector("#f-options .option")


@pytest.fixture
def page(browser, console_errors):
    errors = console_errors
    page = new_page(browser, errors)
    context = page.context
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
    unless the seat's own table dict names it in public words ("player_1 called JC"); names
    that are plain numbers (Whist 22's trumps) are checked as drawn cards only. Where cards
    have identical copies (Dois), no name is drawn more often than the seat's table shows it."""
    game = state.game
    drawn = page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    names = [game.card_name(c) for c in range(game.deck_size)]
    if len(set(names)) < len(names):
        mine = game.table(state, seat)
        places = [*mine["zones"], *(pile for entry in mine["seats"] for pile in entry["piles"])]
        public = Counter(name for entry in mine["seats"] for name in entry["hand"])
        for place in places:
            public.update(place.get("cards", []))
            public.update(name for play in place.get("plays", []) for name in play["cards"])
        assert not Counter(drawn) - public, Counter(drawn) - public
        return
    hidden = hidden_from(state, seat)
    shown = set(drawn)
    assert not hidden & shown, f"hidden cards drawn on the page: {sorted(hidden & shown)}"
    public = set(re.findall(r"[A-Za-z0-9]+", json.dumps(state.game.table(state, seat))))
    tokens = set(re.findall(r"[A-Za-z0-9]+", page.content()))
    worded = {name for name in hidden if re.search("[A-Za-z]", name)}  # "13" is also a count
    leaked = (worded - public) & tokens
    assert not leaked, f"hidden cards named on the page: {sorted(leaked)}"


def start(
    page: Any,
    url: str,
    game: str,
    seat: int,
    seed: int,
    options: dict[str, Any],
    lobby: bool = True,
) -> None:
    """Start a game from the lobby (``lobby=False``: the lobby is already open and set)."""
    if lobby:
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


def offered(page: Any) -> tuple[set[str], set[int]]:
    """The hand cards the page lets you pick and the actions of its move buttons."""
    cards = page.locator("#play-board .hand.mine .choice")
    buttons = page.locator("#play-board button.choice")
    return (
        set(cards.evaluate_all("els => els.map(e => e.dataset.card)")),
        {int(a) for a in buttons.evaluate_all("els => els.map(e => e.dataset.action)")},
    )


def play_by_clicking(page: Any, store: Store, seed: int, check: Any = None) -> tuple[Any, int]:
    """Click random choices (hand cards, move buttons) until the final placements; check the
    page for hidden cards at every turn, and that with no card picked it offers exactly the
    legal moves (a card for each move's first card, a button for each move without cards).
    ``check(page, table)`` runs too. Returns the game and the clicks made."""
    table = live_table(store, page)
    rng = random.Random(seed)
    clicks = 0
    while clicks < 3000:
        page.wait_for_selector(YOUR_TURN, state="attached")
        if page.locator("#result").count():
            return table, clicks
        assert_page_hides(page, table.state, table.seat)
        if check is not None:
            check(page, table)
        if not page.locator("#play-board .picked").count():
            # the page may say "your turn" a moment before the server's state does
            for _ in range(100):
                if table.state.current == table.seat or table.state.is_terminal:
                    break
                page.wait_for_timeout(50)
            moves = table.game.table(table.state, table.seat)["moves"]
            assert [m["action"] for m in moves] == table.state.legal_actions()
            assert offered(page) == (
                {m["cards"][0] for m in moves if m["cards"]},
                {m["action"] for m in moves if not m["cards"]},
            )
        choices = page.locator("#play-board .choice")
        choices.first.wait_for(state="attached")  # a redraw may still be filling the board
        page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")  # until redrawn
        choices.nth(rng.randrange(choices.count())).click()
        clicks += 1
    raise AssertionError("the game did not end")


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
    names = ["web-lobby.png", "web-table.png", "web-red7.png", "web-phone.png", "web-replay.png"]
    names += ["web-hint.png", "web-analysis.png"]
    assert [p.name for p in paths] == names
    for path in paths:
        assert 5_000 < path.stat().st_size < 200_000


VIEWPORTS = {"wide": (1280, 800), "phone": (390, 844)}
# the colour of each Red7 card's face (static/cards.js): colour is the whole of Red7
RED7 = {"R": "#d62828", "O": "#f07b12", "Y": "#f4c430", "G": "#2a9d4e", "B": "#1f6fd1"}
RED7 |= {"I": "#3b2d8f", "V": "#a34fc9"}
ON_SCREEN = """() => {
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return [r.top, r.bottom, r.left, r.right];
  };
  const board = document.querySelector("#play-board");
  const hand = board.querySelector(".seat.me .hand.mine");
  const middle = board.querySelector("#middle");
  const trick = middle.querySelector('[data-zone="trick"], [data-zone="canvas"]');
  return {
    scrollY: window.scrollY, height: innerHeight, width: innerWidth,
    pageWidth: document.documentElement.scrollWidth,
    hand: rect(hand), middle: rect(middle), trick: trick ? rect(trick) : null,
    choices: Array.from(board.querySelectorAll(".choice")).map(rect),
  };
}"""


def hand_and_trick_on_screen(page: Any, table: Any) -> None:
    """Your hand, every move you may choose and the trick (Red7: the canvas) inside the
    window, the page unscrolled and no wider than the window."""
    seen = page.evaluate(ON_SCREEN)
    assert seen["scrollY"] == 0 and seen["pageWidth"] <= seen["width"], seen
    for top, bottom, left, right in [seen["hand"], *seen["choices"]]:
        assert top >= 0 and bottom <= seen["height"], seen
        assert left >= 0 and right <= seen["width"], seen
    assert seen["trick"] is not None, seen
    top, bottom, left, right = seen["trick"]
    m_top, m_bottom = seen["middle"][:2]
    assert m_top - 1 <= top and bottom <= min(m_bottom, seen["height"]) + 1, seen
    assert left >= 0 and right <= seen["width"], seen


def red7_faces(page: Any) -> list[tuple[str, str]]:
    """(card name, face colour) of every Red7 card on the board."""
    return page.locator("#play-board .card[data-card]:not(.plain)").evaluate_all(
        "els => els.map(e => [e.dataset.card, e.querySelector('svg rect').getAttribute('fill')])"
    )


def check_red7_colours(page: Any, table: Any) -> None:
    faces = red7_faces(page)
    assert faces and all(fill == RED7[name[0]] for name, fill in faces), faces


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("game_id", ["koira", "matapesa", "whist22", "kop", "dois", "teka", "red7"])
def test_every_game_is_played_by_clicking_with_the_hand_and_the_trick_on_screen(
    server, browser, console_errors, game_id, viewport
):
    # issue 29 item 3: at 390x844 the trick and the hand were 1,000 px apart
    url, store = server
    width, height = VIEWPORTS[viewport]
    page = new_page(browser, console_errors, width, height)
    lobby(page, url)
    page.select_option("#f-game", game_id)
    for field in page.locator("#f-opponents input").all():
        field.fill("random")  # quick opponents: the page is under test, not the bots
    start(page, url, game_id, seat=0, seed=3, options=spec(game_id).single_hand, lobby=False)

    def check(page: Any, table: Any) -> None:
        hand_and_trick_on_screen(page, table)
        if game_id == "red7":
            check_red7_colours(page, table)

    table, clicks = play_by_clicking(page, store, seed=4, check=check)
    assert table.state.is_terminal and clicks >= 1
    expect(page.locator("#result")).to_contain_text("Final placements")
    hands = [e for e in table.state.log if e["type"] == "hand_end"]
    if game_id in ("kop", "whist22", "dois", "teka"):  # the running score, hand by hand
        rows = page.locator("#play-aside #scores tbody tr")
        expect(rows).to_have_count(max(1, len(hands)))
        if hands:
            expect(rows.first.locator("td").first).to_have_text("1")
    else:
        expect(page.locator("#scores")).to_have_count(0)
    page.context.close()
    assert not console_errors, console_errors


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_eight_players_sit_around_the_table_with_your_hand_and_moves_on_screen(
    server, browser, console_errors, viewport
):
    # issue 29 item 3: at 1280x800 with 8 players the hand and "risk" fell below the screen
    url, store = server
    width, height = VIEWPORTS[viewport]
    page = new_page(browser, console_errors, width, height)
    lobby(page, url)
    page.fill("#f-players", "8")
    page.dispatch_event("#f-players", "change")
    expect(page.locator("#f-opponents input")).to_have_count(7)
    for field in page.locator("#f-opponents input").all():
        field.fill("random")
    start(page, url, "koira", seat=3, seed=6, options={}, lobby=False)
    page.wait_for_selector(YOUR_TURN, state="attached")
    expect(page.locator("#play-board .seat.other")).to_have_count(7)
    if viewport == "wide":  # clockwise from you: two up your left, three on top, two down
        for where, count in (("left", 2), ("top", 3), ("right", 2)):
            expect(page.locator(f"#play-board .around-{where} .seat")).to_have_count(count)
        seats = page.locator("#play-board .around-left .seat").evaluate_all(
            "els => els.map(e => e.dataset.seat)"
        )
        assert seats == ["4", "5"]  # the next player sits at your left
    table, _ = play_by_clicking(page, store, seed=5, check=hand_and_trick_on_screen)
    assert table.state.is_terminal
    page.context.close()
    assert not console_errors, console_errors


def test_a_red7_move_is_a_palette_card_then_a_canvas_card_by_mouse_or_keys(server, page):
    # issue 29 item 2: a Red7 turn was a wall of text buttons ("palette G2 canvas I5")
    url, store = server
    lobby(page, url)
    page.select_option("#f-game", "red7")
    for field in page.locator("#f-opponents input").all():
        field.fill("random")
    start(page, url, "red7", seat=0, seed=9, options={}, lobby=False)
    table = live_table(store, page)
    page.wait_for_selector(YOUR_TURN, state="attached")
    expect(page.locator("#legend")).to_contain_text("indigo")
    check_red7_colours(page, table)
    expect(page.locator('#play-board button.choice[data-action="0"]')).to_contain_text("go out")
    assert page.locator("#play-board button.choice").count() == 1  # pass: the rest is cards

    def both_cards_move() -> dict[str, Any]:
        moves = table.game.table(table.state, table.seat)["moves"]
        return next(m for m in moves if len(m["cards"]) == 2)

    move = both_cards_move()
    played = len(table.state.history)
    palette, canvas = move["cards"]
    page.click(f'#play-board .hand.mine [data-card="{palette}"]')
    expect(page.locator("#play-board .picked")).to_have_attribute("data-card", palette)
    expect(page.locator("#moves .hint")).to_contain_text("pick a card for the canvas")
    page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
    page.click(f'#play-board .hand.mine [data-card="{canvas}"]')
    page.wait_for_selector(YOUR_TURN + ", #result", state="attached")
    assert table.state.history[played] == move["action"]

    # the same with the keys: a digit picks the palette card, another the canvas card
    page.wait_for_selector(YOUR_TURN, state="attached")
    if page.locator("#result").count():
        return
    move = both_cards_move()
    played = len(table.state.history)
    palette, canvas = move["cards"]
    key = page.locator(f'#play-board .hand.mine [data-card="{palette}"]').get_attribute("data-key")
    page.keyboard.press(key)
    expect(page.locator("#play-board .picked")).to_have_count(1)
    page.keyboard.press("Escape")  # puts it back
    expect(page.locator("#play-board .picked")).to_have_count(0)
    page.keyboard.press(key)
    target = page.locator(f'#play-board .hand.mine [data-card="{canvas}"]')
    page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
    page.keyboard.press(target.get_attribute("data-key"))
    page.wait_for_selector(YOUR_TURN + ", #result", state="attached")
    assert table.state.history[played] == move["action"]


def test_arrows_and_enter_play_a_move(server, page):
    url, store = server
    start(page, url, "matapesa", seat=0, seed=2, options={})
    table = live_table(store, page)
    page.wait_for_selector(YOUR_TURN, state="attached")
    first = page.locator("#play-board .choice").first
    action = int(first.get_attribute("data-action"))
    played = len(table.state.history)
    page.click("#play-board .status")
    page.keyboard.press("ArrowRight")
    expect(first).to_be_focused()
    page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
    page.keyboard.press("Enter")
    page.wait_for_selector(YOUR_TURN, state="attached")
    assert table.state.history[played] == action


def test_the_lobby_describes_every_option(server, page):
    # issue 29 item 4: option names were raw (trump_only_when_void) with no description
    url, _ = server
    lobby(page, url)
    option = page.locator('#f-options .option[data-name="trump_only_when_void"]')
    expect(option.locator(".option-name")).to_have_text("trump only when void")
    expect(option.locator(".description")).to_contain_text("only when void in that suit")
    page.select_option("#f-game", "whist22")
    expect(page.locator('#f-options .option[data-name="hook"] .description')).to_contain_text(
        "dealer"
    )
    descriptions = page.locator("#f-options .description").all_inner_texts()
    assert len(descriptions) == 5 and all(descriptions)


def test_the_replay_controls_fit_a_phone(server, browser, console_errors):
    # issue 29 item 3: at 390x844 the replay buttons wrapped onto three lines
    url, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.on("pageerror", lambda err: console_errors.append(str(err)))
    page.goto(url + "/#/replays")
    page.click("a.record >> nth=0")
    page.wait_for_selector("#replay-board .seat")
    tops = [
        page.locator(f"#{button}").bounding_box()["y"]
        for button in ("r-first", "r-prev", "r-next", "r-last")
    ]
    assert max(tops) - min(tops) < 2  # one row of buttons, the slider between them
    slider = page.locator("#r-slider").bounding_box()
    assert slider["width"] > 100 and abs(slider["y"] - tops[0]) < 30
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.click("#r-last")
    expect(page.locator("#result")).to_contain_text("Final placements")
    context.close()
    assert not console_errors, console_errors


# ------------------------------------------------------------------ the hint and the analysis board
EXACT = "exact endgame solver"


def held(page: Any, pattern: str) -> list[Any]:
    """Requests matching ``pattern`` held until the test continues them: the page's
    "working" state can be seen however fast the server is."""
    routes: list[Any] = []
    page.route(pattern, lambda route: routes.append(route))
    return routes


def release(page: Any, pattern: str, routes: list[Any]) -> None:
    for _ in range(200):
        if routes:
            break
        page.wait_for_timeout(25)
    assert len(routes) == 1, routes
    routes[0].continue_()
    page.unroute(pattern)


def shown_number(text: str) -> float | None:
    """A value as the page writes it: "+0.146", "-1.094", "0.000", "75%", "undecided"."""
    if text == "undecided":
        return None
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


def check_values(box: Any, row: dict[str, Any]) -> None:
    """The page's values of a decision row: every legal move once, each with its value (a
    share as a percentage, 0.005 either side; others to 0.0005), the best and the move
    played marked."""
    items = box.locator("li.value")
    expect(items).to_have_count(len(row["moves"]))
    names = items.evaluate_all("els => els.map(e => e.dataset.move)")
    numbers = items.locator(".number").all_inner_texts()
    assert sorted(names) == sorted(m["move"] for m in row["moves"])
    for name, text in zip(names, numbers, strict=True):
        move = next(m for m in row["moves"] if m["move"] == name)
        value = move["escape"] if row["by"] == EXACT else move["value"]
        number = shown_number(text)
        if row["kind"].endswith("share"):
            assert text.endswith("%") or text == "undecided", text
            assert (number is None) == (value is None) and abs(
                (number or 0) - (value or 0)
            ) <= 0.005 + 1e-9
        else:
            assert re.fullmatch(r"[+-]\d+\.\d{3}|0\.000", text), text
            assert abs(number - value) <= 0.0005 + 1e-9, (text, value)
    expect(box.locator("li.value.best")).to_have_attribute("data-move", row["best"])
    if "played" in row:
        expect(box.locator("li.value.played")).to_have_attribute("data-move", row["played"])
    by = EXACT if row["by"] == EXACT else f"by {row['by']}"
    expect(box.locator(".valued-head")).to_contain_text(by)


@pytest.mark.parametrize("game_id", ["koira", "matapesa", "whist22", "kop", "dois", "teka", "red7"])
def test_the_hint_values_every_legal_move_in_every_game(server, page, game_id):
    # issue 29, what to build 2: "a 'hint' button in play shows the same for the current decision"
    url, store = server
    page.set_viewport_size({"width": 1280, "height": 800})
    lobby(page, url)
    page.select_option("#f-game", game_id)
    for field in page.locator("#f-opponents input").all():
        field.fill("random")
    start(page, url, game_id, seat=0, seed=3, options=spec(game_id).single_hand, lobby=False)
    page.wait_for_selector(YOUR_TURN, state="attached")
    table = live_table(store, page)
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    routes = held(page, "**/hint")
    button.click()
    expect(button).to_have_text("Asking…")  # while the request runs
    expect(button).to_be_disabled()
    release(page, "**/hint", routes)
    values = page.locator("#play-board .seat.me .valued")
    expect(values).to_have_count(1)
    expect(button).to_have_text("Hint (h)")
    row = table.hint()  # the same position, the same answer (a seeded search)
    assert {m["action"] for m in row["moves"]} == set(table.state.legal_actions())
    check_values(values, row)
    best = next(m for m in table.game.table(table.state, 0)["moves"] if m["name"] == row["best"])
    marked = page.locator("#play-board .best-move")  # outlined on the table too
    expect(marked).to_have_count(1)
    if page.locator(f'#play-board [data-action="{best["action"]}"]').count():
        expect(marked).to_have_attribute("data-action", str(best["action"]))
    else:  # a move of two cards (Red7): its first card
        expect(marked).to_have_attribute("data-pick", best["cards"][0])
    page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
    page.locator("#play-board .choice[data-action]").first.click()  # a move clears the hint
    page.wait_for_selector(YOUR_TURN, state="attached")
    expect(values).to_have_count(0)
    if not page.locator("#result").count():  # and h asks again at the next decision
        page.click("#play-board .status")
        page.keyboard.press("h")
        expect(values).to_have_count(1)
        expect(values.locator("li.value")).to_have_count(len(table.state.legal_actions()))


def replay_of(store: Store, page: Any) -> Any:
    replay_id = page.url.rsplit("/", 1)[1]
    return next(s.replays[replay_id] for s in store.sessions.values() if replay_id in s.replays)


def test_the_analysis_board_of_a_koira_record_lists_its_mistakes_and_jumps_to_them(server, page):
    # issue 29 bar: "koira analyze output shown in the viewer for a Koira record"
    url, store = server
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/analysis") else None)
    page.goto(url + "/#/replays")
    page.click("a.record >> nth=0")
    page.wait_for_selector("#replay-board .seat")
    expect(page.locator("#analysis")).to_be_hidden()
    routes = held(page, "**/analysis")
    page.click("#r-analyse")
    expect(page.locator("#r-analyse")).to_have_text("Analysing…")
    expect(page.locator("#analysis-summary")).to_contain_text("Analysing every decision")
    release(page, "**/analysis", routes)
    expect(page.locator("#r-analyse")).to_have_text("Analysed", timeout=60_000)
    analysis = replay_of(store, page).analysis()  # computed once, kept by the replay
    mistakes = [d for d in analysis["decisions"] if d["mistake"]]
    assert mistakes, "the test record has no mistake to jump to"
    links = page.locator("#mistakes .mistake-link")
    expect(links).to_have_count(len(mistakes))
    expect(page.locator("#analysis-summary")).to_contain_text(f"{len(mistakes)} mistake")
    assert links.evaluate_all("els => els.map(e => Number(e.dataset.step))") == analysis["mistakes"]
    target = mistakes[len(mistakes) // 2]
    links.nth(len(mistakes) // 2).click()
    expect(page.locator("#r-step")).to_have_value(str(target["index"]))
    decision = page.locator("#decision .valued")
    expect(decision).to_have_class(re.compile("mistake"))
    check_values(decision, target)
    expect(links.nth(len(mistakes) // 2)).to_have_class(re.compile("current"))
    exact = [d for d in analysis["decisions"] if d["by"] == EXACT]
    assert exact, "the record's endgame should be solved exactly"
    page.fill("#r-step", str(exact[0]["index"]))  # Koira's endgame: escape shares
    page.press("#r-step", "Enter")
    expect(decision.locator(".valued-head")).to_contain_text(EXACT)
    check_values(decision, exact[0])
    expect(
        decision.locator(".tag", has_text=re.compile("^(escape|caught|undecided)$"))
    ).not_to_have_count(0)
    page.click("#r-last")  # the last step: no decision
    expect(page.locator("#decision")).to_contain_text("no decision")
    page.click("#replay-board .status")
    page.keyboard.press("a")  # asked once: no second request
    page.click("#r-first")
    expect(page.locator("#r-step")).to_have_value("0")
    assert len(asked) == 1, asked


def on_screen(page: Any, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    height, width = page.viewport_size["height"], page.viewport_size["width"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)


def test_on_a_phone_the_hint_and_the_analysis_stay_on_screen_after_a_finished_game(
    server, browser, console_errors
):
    url, store = server
    page = new_page(browser, console_errors, 390, 844)
    lobby(page, url)
    page.select_option("#f-game", "kop")
    for field in page.locator("#f-opponents input").all():
        field.fill("random")
    start(page, url, "kop", seat=0, seed=5, options=spec("kop").single_hand, lobby=False)

    def hint_on_screen(page: Any, table: Any) -> None:
        page.click("#hint-button")
        values = page.locator("#play-board .valued li.value")
        expect(values).to_have_count(len(table.state.legal_actions()))
        assert page.evaluate("() => window.scrollY") == 0
        for selector in ("#hint-button", "#play-board .hand.mine", "#play-board .valued"):
            on_screen(page, selector)
        hand_and_trick_on_screen(page, table)

    table, _ = play_by_clicking(page, store, seed=6, check=hint_on_screen)
    assert table.state.is_terminal
    page.click("#play-analyse")  # a finished game: its analysis one click away
    page.wait_for_selector("#replay-board .seat")
    expect(page.locator("#r-analyse")).to_have_text("Analysed", timeout=60_000)
    analysis = replay_of(store, page).analysis()
    assert analysis["game"] == "kop" and analysis["decisions"]
    first = analysis["decisions"][0]
    page.fill("#r-step", str(first["index"]))
    page.press("#r-step", "Enter")
    check_values(page.locator("#decision .valued"), first)
    assert page.evaluate("() => window.scrollY") == 0
    for selector in ("#analysis-summary", "#decision .valued", "#r-next", "#replay-board .middle"):
        on_screen(page, selector)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.context.close()
    assert not console_errors, console_errors


def test_undo_takes_back_your_move_by_button_and_by_key(server, page, console_errors):
    # issue 29 table point 4: "no hint, no undo"
    url, store = server
    page.set_viewport_size({"width": 390, "height": 844})
    lobby(page, url)
    page.select_option("#f-game", "kop")
    for field in page.locator("#f-opponents input").all():
        field.fill("random")
    start(page, url, "kop", seat=1, seed=6, options={}, lobby=False)
    page.wait_for_selector(YOUR_TURN, state="attached")
    table = live_table(store, page)
    expect(page.locator("#undo-button")).to_be_hidden()  # nothing to take back yet
    for how in ("button", "key"):
        before = list(table.state.history)
        hand = page.locator("#play-board .hand.mine .card").count()
        page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
        page.locator("#play-board .choice").first.click()
        page.wait_for_selector(YOUR_TURN, state="attached")
        if page.locator("#result").count():
            break
        page.evaluate("() => { document.body.dataset.waiting = 'clicked' }")
        if how == "button":
            page.click("#undo-button")
        else:
            page.click("#play-board .status")
            page.keyboard.press("u")
        page.wait_for_selector(YOUR_TURN, state="attached")
        assert table.state.history == before
        expect(page.locator("#play-board .hand.mine .card")).to_have_count(hand)
    assert not console_errors
