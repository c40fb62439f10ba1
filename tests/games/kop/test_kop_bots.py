"""Kop's bots: legal moves from views alone, their stated strategies, and the rollout."""

from __future__ import annotations

import random

import pytest
from kop_scenario import deal, declare, play

from koira_env.core.agent import Turn
from koira_env.games.kop.bots import (
    BOTS,
    OPPONENT,
    PARTNER,
    UNKNOWN,
    CounterBot,
    known_sides,
)
from koira_env.games.kop.cards import POINTS, STRENGTH, SUIT_OF, TRUMP, beats, card_id
from koira_env.games.kop.engine import CALL, PASS, SILENT, SOLO
from koira_env.games.kop.game import make_game


def act(bot, state, seed: int = 0) -> int:
    seat = state.current
    return bot.act(Turn(state.view(seat), state.game, random.Random(seed), state))


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_whole_games_legally(name):
    game = make_game(4)
    bot = BOTS[name]()
    assert bot.name == name
    for seed in range(60):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            action = act(bot, state, seed)
            assert action in state.legal_actions()
            state.apply(action)


def test_lowest_sheds_the_fewest_points():
    state = deal("QC AC JD TS", "QS TC AS AD", "AH TH JC JS", "QH QD JH TD")
    assert act(BOTS["lowest"](), state) == PASS  # no black queen pair: its only declaration
    declare(state)
    assert state.game.action_name(act(BOTS["lowest"](), state)) == "JD"


def test_counter_schmears_onto_a_known_partner_and_takes_rich_last_tricks():
    """Over random positions: last to play, the counter takes a trick it can win with its
    richest card; if it cannot win, it schmears its richest card onto a known partner and
    gives an opponent (or an unknown player) its weakest."""
    game = make_game(4)
    bot = BOTS["counter"]()
    rng = random.Random(0)
    cases = {"take": 0, "schmear": 0, "weak": 0}
    for seed in range(400):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current)
            legal = state.legal_actions()
            if len(view.trick) == 3 and len({POINTS[c] for c in legal}) > 1:
                richest = max(POINTS[c] for c in legal)
                points = POINTS[act(bot, state)]
                if beats(legal[0], state.best):
                    cases["take"] += 1
                    assert points == richest
                elif known_sides(view)[state.best_seat] == PARTNER:
                    cases["schmear"] += 1
                    assert points == richest
                else:
                    cases["weak"] += 1
                    weakest = min(legal, key=lambda c: (SUIT_OF[c] == TRUMP, STRENGTH[c]))
                    assert act(bot, state) == weakest
            state.apply(rng.choice(legal))
    assert min(cases.values()) >= 10, cases


def test_counter_choice_with_both_black_queens():
    strong = deal("JC TD TH AC", "QC QS AH QH", "JD JH JS AD", "TC TS AS QD")
    assert act(CounterBot(), strong) == PASS
    play(strong, "pass")
    assert strong.current == 1
    assert CounterBot.choose(strong.view(1), "solo") == SILENT
    assert CounterBot.choose(strong.view(1), "team") == SOLO
    weak = deal("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD")
    play(weak, "pass")
    assert CounterBot.choose(weak.view(1), "solo") == CALL
    assert card_id("QC") in weak.view(1).hand


def test_known_sides_after_a_public_call_and_a_silent_solo():
    state = deal("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD")
    play(state, "pass", "call", "pass", "pass")  # calls JC: player_0 holds it and knows it
    assert known_sides(state.view(0)) == [PARTNER, PARTNER, OPPONENT, OPPONENT]
    assert known_sides(state.view(2))[1] == OPPONENT
    assert known_sides(state.view(1)) == [UNKNOWN, PARTNER, UNKNOWN, UNKNOWN]
    state = deal("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD")
    play(state, "pass", "silent", "pass", "pass")
    assert known_sides(state.view(1)) == [OPPONENT, PARTNER, OPPONENT, OPPONENT]
    assert known_sides(state.view(0)) == [PARTNER, UNKNOWN, UNKNOWN, UNKNOWN]
