"""Teka's bots: legal moves from views only, the documented choices, and their strength."""

from __future__ import annotations

import random

import pytest
from teka_scenario import STRONG, check_cards, deal, play

from koira_agents.base import play_game
from koira_agents.registry import make_agent
from koira_env.core.agent import Turn
from koira_env.games.teka.bots import CounterBot, GreedyBot, greedy_move, side_tricks
from koira_env.games.teka.engine import BID, NEW_DEAL, PLAY, TRUMP, State
from koira_env.games.teka.game import make_game


def turn(state: State, seed: int = 0) -> Turn:
    return Turn(state.view(state.current), state.game, random.Random(seed), state)


def bot_game(game, bots, seed: int) -> State:
    """A whole game with ``bots[p]`` choosing for seat p (forced moves played directly)."""
    state = game.new_state(seed=seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else bots[state.current].act(turn(state, seed))
        assert action in legal
        state.apply(action)
    return state


@pytest.mark.parametrize(
    "options", [{}, {"pass_signals": True, "no_honours": "ask", "all_pass": "redeal"}]
)
def test_bots_and_rollout_play_legal_moves_in_whole_games(options):
    game = make_game(4, **options)
    bots = [CounterBot(), GreedyBot(), CounterBot(), GreedyBot()]
    for seed in range(6):
        state = bot_game(game, bots, seed)
        assert not state.truncated and max(state.scores) >= 104
    state = game.new_state(seed=1)
    while not state.is_terminal:
        if state.phase == PLAY and not state.trick:
            check_cards(state)
        action = greedy_move(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_both_bots_ask_for_a_new_deal_when_allowed():
    state = deal(
        "AS KS QS JS TS 9S 8S AH KH AD AC KC QC",
        STRONG[1],
        STRONG[2],
        "2S 5H 4H 3H 2H 6D 5D 4D 3D 2D 2C 5C 3C",
        no_honours="ask",
    )
    play(state, "keep", "keep", "keep")
    for bot in (CounterBot(), GreedyBot()):
        assert bot.act(turn(state)) == NEW_DEAL
    assert greedy_move(state) == NEW_DEAL


def test_bidding_choices():
    state = deal()  # player_0: 28 honour points, seven spades
    assert CounterBot().act(turn(state)) == BID == GreedyBot().act(turn(state))
    play(state, "bid 8")  # player_1: 12 points, a weak partner so far unknown
    assert CounterBot().act(turn(state)) == state.game.action_id("pass")
    assert side_tricks(state.hands[0], 3, 4.0) == pytest.approx(12.0)


def test_counter_declarer_raises_once_trumps_are_drawn():
    state = deal(single_hand=True)
    play(state, "bid 8", "pass", "pass", "pass")
    counter = CounterBot()
    assert counter.act(turn(state)) == TRUMP + 3  # its longest suit
    play(state, "trump spades")
    while not state.is_terminal:
        state.apply(counter.act(turn(state)))
    assert state.raises and state.raises[0][1] > 8 and state.hand_points[0] == state.contract


def duel(game, one, two, deals: int) -> float:
    """``one``'s share of wins against ``two`` over duplicate deals (both seatings)."""
    wins = 0
    for seed in range(deals):
        for seats, mine in (([one, two, one, two], 0), ([two, one, two, one], 1)):
            result = play_game(seats, game, None, seed=seed, deal_seed=seed)
            wins += result.places[mine] == 1
    return wins / (2 * deals)


def test_counter_beats_greedy_and_greedy_beats_random():
    game = make_game(4)
    assert duel(game, CounterBot(), GreedyBot(), 20) > 0.6
    assert duel(game, GreedyBot(), make_agent("random", "teka"), 10) > 0.8
