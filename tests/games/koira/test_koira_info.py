"""What a seat may know: views never depend on cards hidden from it; determinization is fair.

The non-leak test is a counterfactual: deal the cards a seat cannot see differently, replay
the same actions, and the seat's view must not change at all.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest
from test_koira_invariants import play_checked, snapshot

from koira_env.games.koira.engine import (
    HAND,
    PHASE_ONE,
    REMOVED,
    STOCK,
    TRUMP_ASIDE,
    UNKNOWN,
    IllegalActionError,
    State,
    new_game,
)
from koira_env.games.koira.info import known_locations, seat_view

TABLES = [
    ("koira", 2, {}),
    ("koira", 4, {}),
    ("koira", 6, {"sequences": 2}),
    ("koira-b", 3, {}),
    ("koira-b", 5, {"war_mode": "split"}),
    ("mattis", 4, {}),
    ("mattis", 7, {}),
    ("koira-b", 4, {"trump_card": "hidden", "phase_one_end": "one_holder"}),
]


def _states(preset: str, n: int, options: dict, games: int) -> list[State]:  # type: ignore[type-arg]
    """A few states from each of ``games`` random games, from the first action to the last."""
    states = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(n, preset, seed=seed, **options)
        while not state.is_terminal:
            if rng.random() < 0.04:
                states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return states


def _hidden(state: State, seat: int) -> list[int]:
    where = known_locations(state, seat)
    return [c for c in range(52) if where[c] == UNKNOWN]


def _redealt(state: State, seat: int, rng: random.Random) -> State | None:
    """The same game with the cards hidden from ``seat`` dealt differently, or None if the
    other deal makes a recorded action illegal (a forced take reveals what a hand lacks)."""
    hidden = _hidden(state, seat)
    moved = hidden[:]
    rng.shuffle(moved)
    swap = dict(zip(hidden, moved, strict=True))
    other = new_game(rules=state.rules, deck=[swap.get(c, c) for c in state.deck])
    try:
        for action in state.history:
            other.apply(action)
    except IllegalActionError:
        return None
    return other


def _compare_redeals(
    states: Iterable, rng: random.Random, small_deck: bool = False
) -> tuple[int, int]:
    """Every seat of every state against the same play on a redeal of what it cannot see:
    its known locations and view must not change. With ``small_deck``, the cards out of the
    deck are never hidden, and a determinized deal keeps the view and plays on. Returns how
    many redeals were compared and how many moved a card."""
    compared = changed = 0
    for state in states:
        out = [c for c in range(52) if state.pub[c] == REMOVED]
        for seat in range(state.n):
            if small_deck:
                assert all(c not in out for c in _hidden(state, seat))
            other = _redealt(state, seat, rng)
            if other is None:
                assert state.phase != PHASE_ONE, "phase one never depends on a hidden card"
                continue
            compared += 1
            changed += other.loc != state.loc
            assert known_locations(other, seat) == known_locations(state, seat)
            assert seat_view(other, seat) == seat_view(state, seat)
            if small_deck:
                sample = state.determinize(seat, rng)  # a deal of what it cannot see, playable
                assert seat_view(sample, seat) == seat_view(state, seat)
                play_checked(sample, random.Random(seat))
    return compared, changed


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}-{t[2]}")
def test_views_do_not_depend_on_cards_hidden_from_the_seat(table: tuple) -> None:  # type: ignore[type-arg]
    compared, changed = _compare_redeals(_states(*table, games=15), random.Random(1))
    assert changed >= 50 and compared >= changed, (compared, changed)


MINI_TABLES = [
    ("mini", 2, {}),
    ("mini", 2, {"trump_card": "revealed", "phase_one_end": "due_player_empty"}),
    ("koira", 3, {"deck_ranks": 4, "hand_size": 2}),
]


@pytest.mark.parametrize("table", MINI_TABLES, ids=lambda t: f"{t[0]}-{t[1]}-{t[2]}")
def test_small_deck_views_do_not_depend_on_cards_hidden_from_the_seat(table: tuple) -> None:  # type: ignore[type-arg]
    """As above on mini Koira and another small deck, whose games are short: more of them.
    Cards not in the deck are public (never hidden), so a redeal never moves them."""
    states = _states(*table, games=600)
    compared, changed = _compare_redeals(states, random.Random(3), small_deck=True)
    assert changed >= 50 and compared >= changed, (compared, changed)


def test_a_seat_sees_its_own_hand_and_nothing_of_the_others_at_the_deal() -> None:
    state = new_game(4, seed=3)
    for seat in range(4):
        where = known_locations(state, seat)
        assert {c for c in range(52) if where[c] != UNKNOWN} == set(state.hands[seat])
        view = seat_view(state, seat)
        assert view.hand == tuple(state.hands[seat]) and len(view.unknown_cards) == 49
        assert view.legal == (tuple(state.legal_actions()) if seat == 0 else ())


def test_only_the_holder_knows_the_hidden_trump_card() -> None:
    rng = random.Random(0)
    state = new_game(4, "koira", seed=0)
    while state.trump_holder < 0:
        state.apply(rng.choice(state.legal_actions()))
    assert state.loc[state.trump_card] == TRUMP_ASIDE
    for seat in range(4):
        view = seat_view(state, seat)
        if seat == state.trump_holder:
            assert view.where[state.trump_card] == TRUMP_ASIDE
            assert view.trump_suit == state.trump_card // 13
        else:
            assert view.where[state.trump_card] == UNKNOWN and view.trump_suit == -1
        assert view.trump_holder == state.trump_holder


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}-{t[2]}")
def test_determinize_keeps_what_the_seat_knows_and_stays_playable(table: tuple) -> None:  # type: ignore[type-arg]
    rng = random.Random(2)
    for state in _states(*table, games=12):
        before = snapshot(state)
        for seat in range(state.n):
            sample = state.determinize(seat, rng)
            assert sample.deck == () and sample.history == [] and sample.log is None
            assert seat_view(sample, seat) == seat_view(state, seat)
            assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
            assert (len(sample.stock), sample.current, sample.phase, sample.actions_taken) == (
                len(state.stock),
                state.current,
                state.phase,
                state.actions_taken,
            )
            assert sample.legal_actions() == state.legal_actions() or seat != state.current
            assert sorted(sample.loc) == sorted(state.loc)  # same number of cards in each place
            play_checked(sample, random.Random(seat))
        assert snapshot(state) == before, "determinize must not touch the real state"


def _landing_counts(state: State, seat: int, draws: int) -> Counter[tuple[int, int]]:
    rng = random.Random(4)
    counts: Counter[tuple[int, int]] = Counter()
    hidden = _hidden(state, seat)
    for _ in range(draws):
        sample = state.determinize(seat, rng)
        counts.update((c, sample.loc[c]) for c in hidden)
    return counts


def _reach(preset: str, n: int, seed: int, done: object) -> State:
    rng = random.Random(seed)
    state = new_game(n, preset, seed=seed)
    while not done(state):  # type: ignore[operator]
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("state", "seat"),
    [
        (_reach("koira", 2, 5, lambda s: s.actions_taken >= 6), 0),
        (_reach("koira", 4, 6, lambda s: s.trump_holder >= 0), 0),
        (_reach("koira", 4, 6, lambda s: s.trump_holder >= 0), 1),
        (_reach("koira", 4, 7, lambda s: s.actions_taken >= 1), 3),
    ],
    ids=["two-player-removed-cards", "hidden-trump-card", "trump-holder", "early-deal"],
)
def test_every_hidden_card_can_land_in_every_hidden_place(state: State, seat: int) -> None:
    """Each hidden card lands in each unseen place about as often as that place's share."""
    hidden = _hidden(state, seat)
    places = Counter(state.loc[c] for c in hidden)  # unseen slots per place
    assert HAND + seat not in places and len(places) >= 2
    draws = 2000
    counts = _landing_counts(state, seat, draws)
    for card in hidden:
        for place, slots in places.items():
            p = slots / len(hidden)
            expected = draws * p
            spread = 5 * (draws * p * (1 - p)) ** 0.5 + 1
            assert abs(counts[card, place] - expected) <= spread, (card, place, counts[card, place])
    assert {place for _, place in counts} == set(places)
    assert set(places) <= {*range(HAND, HAND + state.n), STOCK, REMOVED, TRUMP_ASIDE}
