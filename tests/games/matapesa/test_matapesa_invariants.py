"""Mätäpesä invariants over many random games: conservation, termination, zero-sum returns,
determinism, record replay, cheap clones, and leak-free observations and determinization."""

from __future__ import annotations

import random

import pytest
from helpers import observe, replayed

from koira_env.cards import RANK_OF
from koira_env.core.game import IllegalActionError
from koira_env.games.matapesa.engine import (
    ABSENT,
    HAND,
    OUT_OF_PLAY,
    PLAYED,
    State,
)
from koira_env.games.matapesa.rules import deck_cards
from koira_env.registry import make_game

PLAYER_COUNTS = range(3, 9)
OPTION_SETS = [{}, {"follow": "previous"}, {"lowest_anytime": False}, {"tie_winner": "first"}]
# smaller decks (with each other option value), mini Mätäpesä first
DECKS = [
    {"deck_ranks": 3, "deck_suits": "HS"},
    {"deck_ranks": 5, "deck_suits": "CDHS", "follow": "previous"},
    {"deck_ranks": 13, "deck_suits": "D", "lowest_anytime": False},
    {"deck_ranks": 2, "deck_suits": "CHS", "tie_winner": "first"},
    {"deck_ranks": 1, "deck_suits": "CDHS"},
]


def random_game(n: int, seed: int, log: bool = False, **options: object) -> list[State]:
    """Every state of a game played with random legal ranks (first state first)."""
    rng = random.Random(seed)
    state = make_game("matapesa", n, **options).new_state(seed=seed, log=log)
    states = [state.clone()]
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def check_conservation(state: State) -> None:
    """Every card is in exactly one place, and the rank counts agree with the locations; the
    cards not in play are nowhere else."""
    n = state.n
    cards = deck_cards(state.game.rules)
    assert [c for c in range(52) if state.loc[c] != ABSENT] == list(cards)
    counts = [bytearray(13) for _ in range(n)]
    played = [bytearray(13) for _ in range(n)]
    out = bytearray(13)
    for card, where in enumerate(state.loc):
        if where < PLAYED:
            counts[where - HAND][RANK_OF[card]] += 1
        elif where < OUT_OF_PLAY:
            played[where - PLAYED][RANK_OF[card]] += 1
        elif where == OUT_OF_PLAY:
            out[RANK_OF[card]] += 1
        else:
            assert where == ABSENT
    assert counts == state.counts and played == state.played
    assert bytes(out) == state.out_counts
    assert sorted(state.plays) == [c for c in range(52) if PLAYED <= state.loc[c] < OUT_OF_PLAY]
    assert len(state.plays) == state.actions_taken  # one card per action
    assert state.hand_sizes == [sum(c) for c in counts]
    assert list(state.in_hands) == [sum(c[r] for c in counts) for r in range(13)]
    assert sum(state.out_counts) == len(cards) % n


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_conserve_cards_end_and_are_zero_sum(n: int) -> None:
    for seed in range(150):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        states = random_game(n, seed, **options)
        for state in states:
            check_conservation(state)
            assert len(state.history) == state.actions_taken
            legal = state.legal_actions()
            assert legal == sorted(set(legal))
            assert state.is_terminal or legal
            for a in range(13):  # legal_actions and apply agree on every rank
                probe = state.clone()
                try:
                    probe.apply(a)
                except IllegalActionError:
                    assert a not in legal
                else:
                    assert a in legal
        final = states[-1]
        assert final.is_terminal and final.actions_taken == n * (52 // n)
        assert sum(final.returns()) == pytest.approx(0.0)
        assert sorted(final.returns()) == pytest.approx([-1.0] + [1 / (n - 1)] * (n - 1))
        assert final.outcome().places[final.loser] == n


@pytest.mark.parametrize("options", DECKS, ids=lambda o: f"{o['deck_ranks']}{o['deck_suits']}")
def test_smaller_decks_conserve_cards_end_and_are_zero_sum(options: dict) -> None:
    """Every table the deck deals to: len(deck) // n tricks, one card per player each."""
    size = len(deck_cards(make_game("matapesa", 3, **options).rules))
    for n in range(3, min(8, size) + 1):
        for seed in range(40):
            states = random_game(n, seed, **options)
            for state in states:
                check_conservation(state)
                assert state.is_terminal or state.legal_actions()
            final = states[-1]
            assert final.is_terminal and final.actions_taken == n * (size // n)
            assert sum(final.returns()) == pytest.approx(0.0)
            assert final.outcome().places[final.loser] == n


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_many_more_random_games(n: int) -> None:
    for seed in range(5000):
        final = random_game(n, seed, **OPTION_SETS[seed % len(OPTION_SETS)])[-1]
        check_conservation(final)
        assert final.actions_taken == n * (52 // n)


@pytest.mark.parametrize("n", [3, 4, 8])
def test_same_seed_same_game_and_records_replay(n: int) -> None:
    replayed(make_game("matapesa", n), range(20))


# every table size, and mini Mätäpesä
TABLES = [(n, {}) for n in PLAYER_COUNTS] + [(3, DECKS[0])]


@pytest.mark.parametrize(("n", "options"), TABLES)
def test_observation_ignores_how_hidden_cards_are_dealt(n: int, options: dict) -> None:
    """Swapping two cards between two other hands changes nothing ``seat`` observes until one
    of them is played (the same actions are replayed on both deals)."""
    rng = random.Random(n)
    game = make_game("matapesa", n, **options)
    size = game.hand_size
    for trial in range(40):
        seat = trial % n
        deck = list(game.deck_cards or range(52))
        rng.shuffle(deck)
        p, q = rng.sample([s for s in range(n) if s != seat], 2)
        i, j = p + n * rng.randrange(size), q + n * rng.randrange(size)
        swapped = deck[:]
        swapped[i], swapped[j] = deck[j], deck[i]
        hidden = {deck[i], deck[j]}
        a, b = game.new_state(deck), game.new_state(swapped)
        while not a.is_terminal:
            assert observe(a, seat) == observe(b, seat)
            assert a.view(seat) == b.view(seat)
            action = rng.choice(a.legal_actions())
            a.apply(action)
            try:
                b.apply(action)
            except IllegalActionError:
                break  # the swap shows: a hidden card decided what was legal for its holder
            if a.plays[-1] in hidden or b.plays[-1] != a.plays[-1]:
                break  # a swapped card is face up now


@pytest.mark.parametrize(("n", "options"), TABLES)
def test_determinize_keeps_what_the_seat_knows(n: int, options: dict) -> None:
    rng = random.Random(n)
    for seed in range(30):
        states = random_game(n, seed, **options)
        state = states[rng.randrange(len(states))]
        seat = rng.randrange(n)
        sample = state.determinize(seat, rng)
        check_conservation(sample)
        assert sample.view(seat) == state.view(seat)
        assert observe(sample, seat) == observe(state, seat)
        assert sample.history == [] and sample.log is None and sample.deck == []
        assert sample.seed != state.seed
        while not sample.is_terminal:  # a full game goes on from it
            sample.apply(rng.choice(sample.legal_actions()))


def test_determinize_redeals_the_hidden_cards() -> None:
    state = make_game("matapesa", 4).new_state(seed=3)
    hands = {bytes(state.loc)}
    for k in range(20):
        hands.add(bytes(state.determinize(0, random.Random(k)).loc))
    assert len(hands) > 10


def check_lowest_played_first(state: State) -> None:
    """A seat plays the lowest card id of the rank it names, so every card of rank r still in
    its hand lies above every card of rank r it has played."""
    top = [[-1] * 13 for _ in range(state.n)]
    for card in range(52):
        if PLAYED <= state.loc[card] < OUT_OF_PLAY:
            top[state.loc[card] - PLAYED][RANK_OF[card]] = card
    for card in range(52):
        if state.loc[card] < PLAYED:
            assert card > top[state.loc[card] - HAND][RANK_OF[card]], card


def check_rank_bounds(state: State) -> None:
    """A follower that played below the rank to reach played its lowest rank, so it holds
    nothing lower, and under ``lowest_anytime=False`` nothing that reaches."""
    n, rules = state.n, state.game.rules
    lo, hi = [0] * n, [13] * n
    need = -1
    for k, card in enumerate(state.plays):
        rank, seat = RANK_OF[card], state.loc[card] - PLAYED
        if k % n and rank < need:
            lo[seat] = max(lo[seat], rank)
            if not rules.lowest_anytime:
                hi[seat] = min(hi[seat], need)
        need = rank if k % n == 0 or rules.follow == "previous" else max(need, rank)
    for card in range(52):
        if state.loc[card] < PLAYED:
            assert lo[state.loc[card]] <= RANK_OF[card] < hi[state.loc[card]], card


@pytest.mark.parametrize(
    ("n", "options"),
    TABLES
    + [(4, options) for options in OPTION_SETS[1:]]
    + [(n, deck) for n, deck in zip((4, 5, 3, 3), DECKS[1:], strict=True)],
)
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_every_state_and_determinization_plays_the_lowest_suit_first(
    n: int, options: dict, engine: str
) -> None:
    """Every state of random games keeps both rules, and so does every determinization of it,
    for its mover and for no seat (every hand hidden)."""
    rng = random.Random(n)
    for seed in range(4):
        for state in random_game(n, seed, engine=engine, **options):
            check_lowest_played_first(state)
            check_rank_bounds(state)
            for seat in (state.current, -1):
                sample = state.determinize(seat, rng)
                check_conservation(sample)
                check_lowest_played_first(sample)
                check_rank_bounds(sample)
