"""Dois bots: legal moves from views alone, their documented choices, arguments, strength."""

from __future__ import annotations

import random

import pytest
from dois_scenario import H4, bids, deal, play

from koira_agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.games.dois.bots import (
    BOTS,
    ROLLOUT,
    CounterBot,
    GreedyBot,
    _estimate,
    win_chance,
)
from koira_env.games.dois.engine import BID, State
from koira_env.games.dois.game import make_game


def turn(state: State, seed: int = 0) -> Turn:
    return Turn(state.view(state.current), state.game, random.Random(seed), state)


def run(state: State, agents: list, seed: int = 0) -> State:
    rng = random.Random(seed)
    while not state.is_terminal:
        agent = agents[state.current]
        action = agent.act(Turn(state.view(state.current), state.game, rng, state))
        assert action in state.legal_actions()
        state.apply(action)
    return state


@pytest.mark.parametrize("n", [3, 4])
def test_bots_and_rollout_play_whole_games_legally(n):
    game = make_game(n)
    for seed in range(3):
        agents = [
            make_agent(name, "dois") for name in ("greedy", "counter", "counter:0", "greedy")[:n]
        ]
        run(game.new_state(seed=seed), agents, seed)
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(ROLLOUT(state))


def test_bid_grows_with_trump_suit_cards_and_high_numbers():
    base = [2, 1, 1, 1] + [1] * 8  # 5 suit cards, the numbers 1-8 once each
    assert 3 < _estimate(base, 0, 4) < 4.5  # an average hand: about 12 / 4 tricks
    assert _estimate([6, 0, 0, 0, *base[4:]], 0, 4) > _estimate(base, 0, 4)  # more trumps
    assert _estimate([6, 0, 0, 0, *base[4:]], 1, 4) < _estimate(base, 1, 4)  # fewer
    high = [2, 1, 1, 1, 0, 0, 0, 0, 0, 3, 3, 2]
    assert _estimate(high, 0, 4) > _estimate(base, 0, 4)
    assert _estimate(base, 0, 3) > _estimate(base, 0, 4)  # fewer players, more tricks each


def test_greedy_takes_a_needed_trick_showing_the_least_and_else_ducks():
    state = deal(*H4, trump="Y", engine="python")  # white-box below: the reference's lists
    bids(state, 3, 3, 3, 3)
    play(state, "R", "7", "R", "8", "G", "5", "R", "4")  # player_1 (R8) leads
    play(state, "1")  # R1
    bot = GreedyBot()
    assert bot.act(turn(state)) == 1  # player_2 wants tricks: Y (trump) takes it
    state.bids[2] = 0  # white-box: player_2 wants none now
    assert bot.act(turn(state)) == 3  # nothing wins; B shows the least strength (a G5 stays)


def test_counter_weighs_the_players_still_to_play():
    state = deal(*H4, trump="Y")
    bids(state, 3, 3, 3, 3)
    view = state.view(0)  # player_0 leads the first trick
    chance = {
        show: win_chance(view, ([show[0], -1, -1, -1], [show[1], 0, 0, 0]), 4)
        for show in ((0, 1), (0, 7), (1, 7))
    }
    assert 0.0 < chance[0, 1] < chance[0, 7] < chance[1, 7] < 1.0  # R1 < R7 < Y7 (trump)
    play(state, "R", "7")
    view = state.view(1)  # player_1 must follow R; R8 beats R7, R1 does not
    assert win_chance(view, ([0, 0, -1, -1], [7, 1, 0, 0]), 4) == 0.0
    assert win_chance(view, ([0, 0, -1, -1], [7, 8, 0, 0]), 4) > 0.0
    assert CounterBot().act(turn(state)) == 0


def test_bot_arguments_are_checked():
    assert BOTS["counter"]("0.3").name == "counter:0.3" and BOTS["greedy"]().name == "greedy"
    for bad in ("x", "-1", "2"):
        with pytest.raises(ValueError, match="counter's argument"):
            BOTS["counter"](bad)


def test_bots_beat_random_play():
    game = make_game(4, hands=1)
    score = {"counter": 0, "greedy": 0, "random": 0}
    for seed in range(60):
        names = ["counter", "greedy", "random", "random"]
        k = seed % 4
        seats = names[k:] + names[:k]
        agents = [make_agent(name, "dois") for name in seats]
        state = run(game.new_state(seed=seed), agents, seed)
        for p, name in enumerate(seats):
            score[name] += state.scores[p]
    assert score["counter"] > score["random"] / 2 + 60
    assert score["greedy"] > score["random"] / 2 + 60


def test_ismcts_plays_a_legal_move():
    state = deal(*H4)
    bids(state, 3, 3, 3, 3)
    agent = make_agent("ismcts:10", "dois")
    action = agent.act(turn(state))
    assert action in state.legal_actions() and action < BID
