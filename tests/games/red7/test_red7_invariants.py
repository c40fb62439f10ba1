"""Red7 invariants over many random games: card conservation, the legal turns against their
definition, termination, zero-sum returns, determinism, replay, and that no seat observes
what it may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import check_redeal, observe, observed_positions, random_game, replayed

from koira_env.games.red7.cards import BIT, COLOUR, NUM_CARDS, rule_keys
from koira_env.games.red7.engine import (
    CANVAS,
    DEAD,
    DRAW,
    FOLDED,
    HAND,
    PALETTE,
    PASS,
    SCORED,
    SLOTS,
    State,
    action_cards,
)
from koira_env.games.red7.game import make_game

GAMES = 120  # per variant; the slow run plays ten times more
VARIANTS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"scoring": "points", "canvas_draw": True}),
    (4, {"scoring": "points", "canvas_draw": True}),
]
IDS = ["2p", "3p", "4p", "2p-advanced", "4p-advanced"]


def check_cards(state: State) -> None:
    """Every card in exactly one place, and ``loc`` agrees with the lists holding them."""
    places = [c for h in state.hands for c in h] + [c for f in state.folded for c in f]
    places += [c for p in state.palettes for c in p] + state.canvas + state.draw
    places += [c for s in state.scored for c in s]
    assert sorted(places) == list(range(NUM_CARDS))
    loc = state.loc
    for p in range(state.n):
        assert state.hands[p] == sorted(state.hands[p])
        assert all(loc[c] == HAND + p for c in state.hands[p])
        assert all(loc[c] == FOLDED + p for c in state.folded[p])
        code = PALETTE + p if state.active[p] else DEAD + p
        assert all(loc[c] == code for c in state.palettes[p])
        assert all(loc[c] == SCORED + p for c in state.scored[p])
        assert state.masks[p] == sum(BIT[c] for c in state.palettes[p])
        assert state.keys[p] == (rule_keys(state.masks[p]) if state.active[p] else [0] * 7)
    for r in range(7):
        column = [keys[r] for keys in state.keys]
        assert state.leaders[r] == (column.index(max(column)) if max(column) else -1)
    assert all(loc[c] == CANVAS for c in state.canvas) and all(loc[c] == DRAW for c in state.draw)


def definition(state: State) -> list[int]:
    """The legal turns by the rules' words: pass, or any (palette card or none, then canvas
    card or none) after which the mover's palette leads under the rule then in force."""
    p = state.current
    others = [rule_keys(state.masks[q]) for q in range(state.n) if q != p and state.active[q]]
    acts = [PASS]
    for palette in [-1, *state.hands[p]]:
        mine = rule_keys(state.masks[p] | (BIT[palette] if palette >= 0 else 0))
        for canvas in [-1, *state.hands[p]]:
            if palette == canvas:
                continue
            rule = COLOUR[canvas] if canvas >= 0 else state.rule
            if mine[rule] and all(mine[rule] > keys[rule] for keys in others):
                acts.append(SLOTS * (palette + 1) + canvas + 1)
    return sorted(acts)


def play_random_games(n: int, options: dict, games: int) -> None:
    """Random games checking every invariant at every step (see the test below)."""
    game = make_game(n, **options)
    rng = random.Random(n)
    points = options.get("scoring") == "points"
    for seed in range(games if not points else games // 4):
        state = game.new_state(seed=seed)
        turns = 0
        while not state.is_terminal:
            check_cards(state)
            legal = state.legal_actions()
            assert legal == definition(state)
            assert state.active[state.current]
            state.apply(rng.choice(legal))
            turns += 1
        check_cards(state)
        assert not state.truncated and state.legal_actions() == []
        if not points:
            assert turns <= 8 * n - 1
            assert sum(state.active) == 1 and state.winner == state.active.index(True)
        assert sum(state.returns()) == pytest.approx(0)
        assert min(state.outcome().places) == 1


@pytest.mark.parametrize(("n", "options"), VARIANTS, ids=IDS)
def test_random_games_conserve_cards_follow_the_rules_end_and_are_zero_sum(n, options):
    play_random_games(n, options, GAMES)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "options"), VARIANTS, ids=IDS)
def test_many_random_games_keep_every_invariant(n, options):
    play_random_games(n, options, 10 * GAMES)


def test_a_round_has_at_most_49_turns_with_draws():
    """Every turn but a pass moves a card out of hands and draw pile for good (a draw moves
    one within them): a round ends within 49 - n + n - 1 turns."""
    game = make_game(2, canvas_draw=True)
    rng = random.Random(0)
    for seed in range(300):
        state = game.new_state(seed=seed)
        turns = 0
        while not state.is_terminal:
            left = sum(map(len, state.hands)) + len(state.draw)
            action = rng.choice(state.legal_actions()[1:] or [PASS])
            state.apply(action)
            turns += 1
            if action != PASS:
                assert sum(map(len, state.hands)) + len(state.draw) == left - 1 - (
                    action_cards(action)[0] >= 0 and action_cards(action)[1] >= 0
                )
        assert turns <= 48


@pytest.mark.parametrize(("n", "options"), VARIANTS, ids=IDS)
def test_same_seed_same_game_and_records_replay(n, options):
    game = make_game(n, **options)
    for state in replayed(game, range(30)):
        assert len(state.deck) == NUM_CARDS * (state.round + 1)


def test_deck_option_fixes_the_first_round_and_the_seed_the_rest():
    game = make_game(3, scoring="points")
    first = random_game(game, 5)
    fixed = game.new_state(first.deck[:NUM_CARDS], seed=5)
    again = game.new_state(seed=5)
    assert fixed.hands == again.hands and fixed.palettes == again.palettes
    with pytest.raises(ValueError, match="must hold all 49 cards"):
        make_game(3).new_state(first.deck[: 2 * NUM_CARDS] if first.round else [0] * 98)


def test_clone_is_independent():
    game = make_game(4)
    state = game.new_state(seed=3)
    copy = state.clone()
    action = copy.legal_actions()[-1]  # a palette card (and perhaps a canvas card)
    copy.apply(action)
    fresh = game.new_state(seed=3)
    assert state.history == [] and copy.history == [action]
    assert (state.hands, state.palettes, state.keys) == (fresh.hands, fresh.palettes, fresh.keys)
    assert state.current == fresh.current != copy.current


# ---------------------------------------------------------------- information


@pytest.mark.parametrize(("n", "options"), VARIANTS, ids=IDS)
def test_observation_values_and_layout(n, options):
    game = make_game(n, **options)
    layout = game.observation_layout
    for state, seat, obs in observed_positions(game, range(25)):
        hand = np.flatnonzero(obs[layout["hand"]]).tolist()
        assert hand == state.hands[seat]
        assert obs[layout["palette_0"]].sum() == (
            len(state.palettes[seat]) if state.active[seat] else 0
        )


@pytest.mark.parametrize(("n", "options"), VARIANTS, ids=IDS)
def test_hidden_cards_swapped_change_nothing_a_seat_observes_until_seen(n, options):
    """Swap two cards the seat cannot see in the deal (other hands, the draw pile): it
    observes the same things (observation bytes and its legal actions) until one of them
    is played or drawn by it."""
    game = make_game(n, **options)
    checked = 0
    for seed in range(100):
        rng = random.Random(seed)
        deck = game.new_state(seed=seed).deck[:NUM_CARDS]
        seat = rng.randrange(n)
        # other hands (deck[i] for i < 7n goes to seat i mod n) and the draw pile
        hidden = [i for i in range(NUM_CARDS) if (i < 7 * n and i % n != seat) or i >= 8 * n]
        a, b = rng.sample(hidden, 2)
        swapped = deck[:]
        swapped[a], swapped[b] = swapped[b], swapped[a]
        one = game.new_state(deck, seed=seed)
        two = game.new_state(swapped, seed=seed)
        moved = {deck[a], deck[b]}
        while not one.is_terminal and one.round == 0:
            assert observe(one, seat) == observe(two, seat)
            checked += 1
            action = rng.choice(one.legal_actions())
            if set(action_cards(action)) & moved or action not in two.legal_actions():
                break  # a moved card is played: now the seat sees it
            one.apply(action)
            two.apply(action)
            if moved & {*one.hands[seat], *two.hands[seat]}:
                break  # the seat drew a moved card
    assert checked > 200


@pytest.mark.parametrize(("n", "options"), VARIANTS, ids=IDS)
def test_determinize_keeps_what_the_seat_knows(n, options):
    game = make_game(n, **options)
    for seed in range(25):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = rng.randrange(n)
            sample = check_redeal(state, seat, rng, check_cards)
            assert sample.seed != state.seed
            state.apply(rng.choice(state.legal_actions()))


def test_determinize_redeals_the_hidden_cards():
    game = make_game(4, canvas_draw=True)
    state = game.new_state(seed=1)
    rng = random.Random(0)
    seen = set()
    for _ in range(20):
        sample = state.determinize(0, rng)
        assert sample.hands[0] == state.hands[0] and sample.palettes == state.palettes
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert len(sample.draw) == len(state.draw)
        seen.add(tuple(sample.hands[1]))
    assert len(seen) > 10
