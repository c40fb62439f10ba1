"""``Game.table``: the one table dict behind the web page and the ``rgb_array`` picture.

Every game of the registry is held to the schema of ``koira_env.core.table`` and to the
hidden-card guarantee, checked two ways: re-dealing everything a seat cannot see
(``determinize``) leaves its dict unchanged, and so does swapping two cards of a fixed deck
and replaying the same moves whenever the seat's view stays the same (the permutation test:
it covers the event log, which determinized states do not keep).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from koira_env import games, make_game
from koira_env.registry import spec

GAMES = games()
TABLES = sorted({(g, n) for g in GAMES for n in spec(g).players})
ZONE_KEYS = {"label", "cards", "count", "plays", "text"}


def played_game(game_id: str, n: int, seed: int) -> tuple[Any, list[int]]:
    """A finished random game (logged) and its actions."""
    game = make_game(game_id, n)
    state = game.new_state(seed=seed, log=True)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state, list(state.history)


def replayed(game: Any, deck: list[int], seed: Any, actions: list[int], seat: int, rng=None):
    """The state after ``actions`` on ``deck`` and every view ``seat`` had along the way (its
    knowledge). With ``rng``, another seat's action that is illegal on this deck is replaced
    by a random legal one (a pass instead of a secret choice); ``(None, None)`` if an action
    of ``seat`` (or, without ``rng``, any action) is illegal there."""
    state = game.new_state(deck=deck, seed=seed, log=True)
    views = [state.view(seat)]
    for action in actions:
        legal = state.legal_actions()
        if action not in legal:
            if rng is None or state.current == seat or not legal:
                return None, None
            action = rng.choice(legal)
        state.apply(action)
        views.append(state.view(seat))
    return state, views


def check_zone(entry: dict[str, Any], n: int) -> None:
    assert isinstance(entry["label"], str) and set(entry) <= ZONE_KEYS
    assert all(isinstance(c, str) for c in entry.get("cards", []))
    assert isinstance(entry.get("count", 0), int) and entry.get("count", 0) >= 0
    for play in entry.get("plays", []):
        assert 0 <= play["seat"] < n and all(isinstance(c, str) for c in play["cards"])


def check_schema(table: dict[str, Any], state: Any, seat: int | None) -> None:
    """The generic structure the painter and the page rely on, and its public facts."""
    n = state.n
    assert json.loads(json.dumps(table)) == table  # JSON-ready as it is
    assert table["game"] == state.game.id and table["players"] == n and table["seat"] == seat
    assert table["current"] == (None if state.is_terminal else state.current)
    assert isinstance(table["status"], str) and table["status"]
    assert [s["seat"] for s in table["seats"]] == list(range(n))
    for entry in table["seats"]:
        assert entry["name"] == f"player_{entry['seat']}" and entry["hidden"] >= 0
        assert all(isinstance(x, str) for x in entry["hand"] + entry["info"] + entry["flags"])
        for pile in entry["piles"]:
            check_zone(pile, n)
    for entry in table["zones"]:
        check_zone(entry, n)
    if seat is not None and seat == state.current and not state.is_terminal:
        assert [m["action"] for m in table["moves"]] == state.legal_actions()
        hand = table["seats"][seat]["hand"]
        for move in table["moves"]:
            assert move["name"] == state.game.action_name(move["action"])
            assert all(card in hand for card in move["cards"])
    else:
        assert table["moves"] == []
    assert all(isinstance(line, str) for line in table["log"])
    faces = table["faces"]  # a constant of the deck: the same in every dict of the game
    if faces is not None:
        assert faces == state.game.table(state.game.new_state(seed=0), None)["faces"]
        items = faces["legend"]["items"]
        assert isinstance(faces["legend"]["title"], str) and items
        for face in [*faces["cards"].values(), *items]:
            assert all(re.fullmatch("#[0-9a-f]{6}", face[key]) for key in ("fill", "ink"))
    outcome = state.outcome()
    if outcome is None:
        assert table["result"] is None
    else:
        assert table["result"]["places"] == list(outcome.places)


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_tables_follow_the_schema_and_the_full_view_shows_every_hand(game_id, n):
    state, actions = played_game(game_id, n, seed=2)
    game = state.game
    replay = game.new_state(deck=state.deck, seed=state.seed, log=True)
    for k, action in enumerate([*actions, None]):
        if k % 3 == 0 or action is None:
            full = game.table(replay, None)
            check_schema(full, replay, None)
            assert all(entry["hidden"] == 0 for entry in full["seats"])
            assert len(full["log"]) == len(replay.log)
            for p in range(n):
                mine = game.table(replay, p)
                check_schema(mine, replay, p)
                assert mine["seats"][p]["hand"] == full["seats"][p]["hand"]
                assert mine["seats"][p]["hidden"] == 0
                truth = sorted(game.card_name(c) for c in replay.view(p).hand)
                assert sorted(full["seats"][p]["hand"]) == truth
                for q in range(n):  # every seat sees how many cards every hand holds
                    seen = mine["seats"][q]
                    assert len(seen["hand"]) + seen["hidden"] == len(full["seats"][q]["hand"])
        if action is not None:
            replay.apply(action)


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_a_seats_table_does_not_change_when_its_hidden_cards_are_dealt_afresh(game_id, n):
    game = make_game(game_id, n)
    rng = random.Random(7)
    checked = 0
    for seed in range(100):  # enough short games (Red7 at two) to check 20 positions
        if checked >= 20 and seed >= 3:
            break
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            if rng.random() < 0.15:
                for seat in range(n):
                    other = state.determinize(seat, rng)
                    assert game.table(other, seat) == game.table(state, seat)
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 20


@pytest.mark.parametrize(("game_id", "n"), TABLES)
def test_swapping_cards_a_seat_cannot_see_changes_nothing_it_is_shown(game_id, n):
    """The permutation test: swap two cards of the fixed deck and replay the same moves (or,
    half the time, the other seats' moves made legal again: a secret choice is itself hidden);
    when every view the seat had along the way is unchanged (it cannot tell the deals apart),
    its whole dict, event log included, must be unchanged too. Swaps it can tell apart are
    counted as well, so the test cannot pass by never swapping anything."""
    rng = random.Random(11)
    same = differ = 0
    for seed in range(2):
        final, actions = played_game(game_id, n, seed)
        game = final.game
        size = game.deck_size
        for stop in (4, len(actions) // 4, len(actions) // 2, len(actions)):
            for seat in range(n):
                state, seen = replayed(game, list(final.deck), final.seed, actions[:stop], seat)
                decks = len(state.deck) // size
                mine = game.table(state, seat)
                for _ in range(8):
                    segment = decks - 1 if rng.random() < 0.5 else rng.randrange(decks)
                    i, j = (segment * size + x for x in rng.sample(range(size), 2))
                    deck = list(state.deck)
                    deck[i], deck[j] = deck[j], deck[i]
                    repair = rng if rng.random() < 0.5 else None
                    other, other_seen = replayed(
                        game, deck, state.seed, actions[:stop], seat, repair
                    )
                    if other is None:
                        continue
                    if other_seen == seen:
                        assert game.table(other, seat) == mine, (seat, deck[i], deck[j])
                        same += 1
                    else:
                        differ += 1
    assert same >= 10 and differ >= 1
