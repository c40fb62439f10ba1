"""Whist 22 bots: legal moves from views alone, documented choices, arguments, strength."""

from __future__ import annotations

import random

import pytest
from test_whist22_rules import FOUR, deal

from koira_env.core.agent import Turn
from koira_env.games.whist22 import SPEC, make_game
from koira_env.games.whist22.bots import BOTS, ROLLOUT, CounterBot, GreedyBot
from koira_env.games.whist22.engine import BID, FOOL_HIGH


def play_out(game, agents, seed: int):
    state = game.new_state(seed=seed)
    rngs = [random.Random(seed * 7 + p) for p in range(game.num_players)]
    while not state.is_terminal:
        p = state.current
        action = agents[p].act(Turn(state.view(p), game, rngs[p], state))
        assert action in state.legal_actions()
        state.apply(action)
    return state


def turn(state, seat=None):
    seat = state.current if seat is None else seat
    return Turn(state.view(seat), state.game, random.Random(0), state)


def test_spec_lists_the_bots_and_rollout():
    assert set(SPEC.load("bots")) == {"counter", "greedy"} and SPEC.load("rollout") is ROLLOUT


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_legal_moves_to_the_end(n, name):
    game = make_game(n)
    for seed in range(15):
        state = play_out(game, [BOTS[name]() for _ in range(n)], seed)
        assert state.outcome() is not None


def test_rollout_refuses_a_finished_game():
    """Whole games by the rollout alone are in tests/test_games.py."""
    state = make_game(3).new_state(seed=0)
    while not state.is_terminal:
        state.apply(ROLLOUT(state))
    with pytest.raises(ValueError, match="over"):
        ROLLOUT(state)


def test_rollout_reads_only_the_movers_hand_and_public_information():
    game = make_game(4)
    rng = random.Random(3)
    for seed in range(30):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            p = state.current
            assert ROLLOUT(state) == ROLLOUT(state.determinize(p, rng))
            state.apply(rng.choice(state.legal_actions()))


def test_bot_arguments():
    assert BOTS["counter"]("0.7").threshold == 0.7 and BOTS["counter"]().name == "counter"
    assert BOTS["greedy"]("12").high == 12 and BOTS["greedy"]("12").name == "greedy:12"
    for bad in ("0", "1.5", "x", ""):
        with pytest.raises(ValueError, match="counter's argument"):
            BOTS["counter"](bad)
    for bad in ("0", "22", "x", "-3"):
        with pytest.raises(ValueError, match="greedy's argument"):
            BOTS["greedy"](bad)


def test_greedy_bids_high_cards_and_the_fool():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    assert GreedyBot().act(turn(state)) == BID + 2  # Fool and 21
    for bid in (BID + 1, BID + 2, BID + 1):
        state.apply(bid)
    assert GreedyBot().act(turn(state)) == BID + 2  # 16 alone would make 5: hooked, one more


def test_greedy_plays_high_until_its_bid_then_low():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    for bid in (BID + 1, BID + 0, BID + 0, BID + 0):
        state.apply(bid)
    assert GreedyBot().act(turn(state)) == FOOL_HIGH  # needs one: highest
    state.apply(FOOL_HIGH)
    for action in (4, 5, 6):
        state.apply(action)
    assert GreedyBot().act(turn(state)) == 3  # has its trick: lowest


def test_counter_bids_its_expected_tricks_and_respects_the_hook():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    bid = CounterBot().act(turn(state))
    assert BID + 1 <= bid <= BID + 3  # Fool + 21 sure, 13 and 8 unlikely
    for b in (BID + 2, BID + 1, BID + 1):
        state.apply(b)
    assert CounterBot().act(turn(state)) in state.legal_actions()


def test_counter_ducks_when_its_bid_is_made_and_wins_cheaply_when_last():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    for b in (BID + 0, BID + 1, BID + 1, BID + 1):
        state.apply(b)
    # bid 0, leading: 3 cannot win (three higher cards will follow) and goes before the
    # Fool, kept as a sure loser for later
    assert CounterBot().act(turn(state)) == 3
    state.apply(3)
    state.apply(20)
    state.apply(19)
    # player_3 (6 7 11 12 16) needs one, plays last: nothing beats 20, so it dumps its lowest
    assert CounterBot().act(turn(state)) == 6
    state.apply(6)
    assert state.current == 1 and state.won[1] == state.bids[1] == 1
    assert CounterBot().act(turn(state)) == 4  # made its bid, leads the least likely winner


def test_counter_beats_greedy_in_duplicate_deals():
    game = make_game(4)
    wins = 0
    for seed in range(12):
        for seat in range(4):
            agents = [GreedyBot() for _ in range(4)]
            agents[seat] = CounterBot()
            wins += play_out(game, agents, seed).outcome().places[seat] == 1
    assert wins / 48 > 0.5  # a quarter of the tables would be par
