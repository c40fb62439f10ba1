"""Whist 22 invariants over many random games: card conservation, termination within the
proven bound, zero-sum returns, determinism, record replay, and determinization."""

from __future__ import annotations

import random

import pytest
from helpers import replayed

from koira_env.games.whist22 import make_game
from koira_env.games.whist22.engine import ASIDE, HAND, NUM_CARDS, PLAYED, TRICK

CONFIGS = [
    (3, {}),
    (4, {}),
    (4, {"start_score": 5, "hand_sequence": "repeat_ends", "floor_at_zero": True}),
    (3, {"hook": False, "max_hands": 12}),
    (4, {"max_hands": 1}),
]


def check_cards(state) -> None:
    """Every card is in exactly one place, and ``loc`` agrees with the lists."""
    n = state.n
    where = {}
    for p in range(n):
        for card in state.hands[p]:
            where[card] = HAND + p
        for card in state.played[p]:
            where[card] = PLAYED + p
    for p, value in state.trick:
        where[0 if value == 22 else value] = TRICK + p
    count = sum(len(h) for h in state.hands) + sum(len(c) for c in state.played)
    assert count == len(where) == n * state.size
    for card in range(NUM_CARDS):
        assert state.loc[card] == where.get(card, ASIDE)
    assert len({len(h) for h in state.hands}) <= 2  # mid-trick: some have played one more
    assert len(state.trick) == sum(len(c) for c in state.played) - n * state.tricks_played


def random_game(game, seed: int, check: bool = False):
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_terminal:
        if check:
            check_cards(state)
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        state.apply(rng.choice(legal))
    return state


def hand_bound(game) -> int:
    """RULES.md: with the hook rule a game lasts at most n * (start_score - 1) + 1 hands."""
    rules = game.rules
    bound = rules.num_players * (rules.start_score - 1) + 1
    return min(bound, rules.max_hands) if rules.max_hands else bound


@pytest.mark.parametrize(("n", "options"), CONFIGS)
def test_random_games_conserve_cards_end_in_bound_and_are_zero_sum(n, options):
    game = make_game(n, **options)
    for seed in range(400):
        state = random_game(game, seed, check=seed < 100)
        assert not state.truncated and state.legal_actions() == []
        assert 1 <= state.hand_no <= hand_bound(game)
        assert min(state.scores) <= 0 or state.hand_no == game.rules.max_hands
        outcome = state.outcome()
        assert sum(outcome.returns) == pytest.approx(0.0)
        assert state.returns() == list(outcome.returns)
        assert outcome.places[outcome.scores.index(max(outcome.scores))] == 1
        assert len(state.deck) == NUM_CARDS * state.hand_no


@pytest.mark.slow
@pytest.mark.parametrize(("n", "options"), CONFIGS)
def test_many_random_games_slow(n, options):
    game = make_game(n, **options)
    for seed in range(5000):
        state = random_game(game, seed, check=True)
        assert 1 <= state.hand_no <= hand_bound(game)


def test_returns_are_zero_before_the_end():
    state = make_game(4).new_state(seed=1)
    assert state.returns() == [0.0] * 4 and state.outcome() is None


@pytest.mark.parametrize(("n", "options"), CONFIGS)
def test_same_seed_same_game_and_records_replay(n, options):
    replayed(make_game(n, **options), range(20 if not options else 10))


@pytest.mark.parametrize("n", [3, 4])
def test_determinize_keeps_the_view_and_conserves_cards(n):
    game = make_game(n)
    rng = random.Random(0)
    for seed in range(30):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = rng.randrange(n)
            sample = state.determinize(seat, rng)
            check_cards(sample)
            assert sample.view(seat) == state.view(seat)
            assert (game.observation(sample, seat) == game.observation(state, seat)).all()
            assert sample.history == [] and sample.log is None and sample.deck == []
            assert sample.seed != state.seed
            for p in range(n):
                assert len(sample.hands[p]) == len(state.hands[p])
            state.apply(rng.choice(state.legal_actions()))


def test_determinize_redeals_hidden_cards():
    state = make_game(4).new_state(seed=9)
    rng = random.Random(1)
    others = {tuple(map(tuple, state.determinize(0, rng).hands[1:])) for _ in range(20)}
    assert len(others) > 1
    assert all(state.determinize(0, rng).hands[0] == state.hands[0] for _ in range(5))


def test_determinized_state_plays_on_to_later_hands():
    state = make_game(3, start_score=30).new_state(seed=4)
    rng = random.Random(2)
    sample = state.determinize(1, rng)
    while not sample.is_terminal:
        sample.apply(rng.choice(sample.legal_actions()))
    assert sample.hand_no >= 1 and len(sample.deck) == NUM_CARDS * sample.hand_no
