"""Teka's per-turn features (``turns.py``): no row reads where the hidden cards are, rows come
in the order asked, and a hand-built deal's entries are the ones worked out by hand."""

from __future__ import annotations

import random

import numpy as np
import pytest
from teka_scenario import deal, play

from koira_agents.base import play_out
from koira_agents.registry import make_agent
from koira_env.games.teka.engine import PLAY
from koira_env.games.teka.game import make_game
from koira_env.games.teka.turns import (
    BEST_MASTER,
    CALL,
    CALL_NUMBER,
    CONTRACT,
    DECLARING,
    DISCARDS,
    FOLLOWS,
    HIGHER_OUT,
    HIGHEST,
    IS_TRUMP,
    KEPT,
    LAST,
    LEADS,
    LEFT,
    LOWEST,
    MASTER,
    OPPONENT_WINS,
    OPPONENTS_RUFF,
    PARTNER_RUFFS,
    PARTNER_WINS,
    POSITION,
    RANK,
    RUFFS,
    SIDE_TAKES,
    STEP,
    SUIT,
    SUIT_HCP,
    SUIT_OUT,
    SURE,
    SURE_MARGIN,
    TAKES,
    TO_BEAT,
    TO_MAKE,
    TRUMPS_OUT,
    TURN_FEATURES,
    turn_features,
)


def rows_by_name(state, seat=None):
    """{action name: row} of the mover's legal actions, from the game's hook."""
    game = state.game
    seat = state.current if seat is None else seat
    legal = state.legal_actions()
    rows = game.turn_features(state, seat, legal)
    assert rows.shape == (len(legal), TURN_FEATURES) and rows.dtype == np.float32
    return {game.action_name(a): row for a, row in zip(legal, rows, strict=True)}


@pytest.mark.parametrize("options", [{}, {"pass_signals": True, "raises": "once"}])
def test_a_redeal_of_the_hidden_cards_changes_no_row_and_rows_follow_legal(options):
    """At every decision of bot games (double thirteens and raises included) and random ones:
    ``determinize`` leaves every row unchanged, each row's action one-hot is its action, and
    a shuffled ``legal`` gets the same rows shuffled the same way."""
    game = make_game(4, **options)
    rng = random.Random(5)
    seen = {"play": 0, "raise": 0, "double": 0}

    def check(state):
        if state.is_terminal:
            return
        seat, legal = state.current, state.legal_actions()
        rows = game.turn_features(state, seat, legal)
        assert np.array_equal(rows[:, :73], np.eye(73, dtype=np.float32)[legal])
        for _ in range(2):
            world = state.determinize(seat, rng)
            assert np.array_equal(rows, game.turn_features(world, seat, legal))
        order = rng.sample(range(len(legal)), len(legal))
        shuffled = game.turn_features(state, seat, [legal[i] for i in order])
        assert np.array_equal(shuffled, rows[order])
        seen["play"] += state.phase == PLAY
        seen["raise"] += any(a >= 66 for a in legal)
        seen["double"] += state.double and state.phase == PLAY

    bots = [("counter", "greedy", "counter", "greedy"), ("random",) * 4]
    for seed, names in enumerate(bots * 3):
        state = game.new_state(seed=seed)
        play_out(state, [make_agent(n, "teka") for n in names], seed, after=check)
    assert seen["play"] > 500 and seen["raise"] > 5 and seen["double"] > 5


def test_the_auction_and_trump_rows():
    state = deal()  # teka_scenario.STRONG: player_0 speaks first
    rows = rows_by_name(state)
    assert rows["bid 9"][CALL] == 1 and rows["bid 9"][CALL_NUMBER] == pytest.approx(9 / 14)
    assert rows["double 13"][CALL_NUMBER] == 1 and rows["pass"][CALL_NUMBER] == 0
    assert rows["pass"][CALL] == 1 and not rows["bid 9"][SUIT : SUIT + 4].any()
    play(state, "bid 9", "pass", "pass", "pass")
    rows = rows_by_name(state)  # player_0: AS KS QS JS TS 9S 8S AH KH AD AC KC 2C
    spades, clubs = rows["trump spades"], rows["trump clubs"]
    assert spades[SUIT + 3] == 1 and spades[KEPT] == pytest.approx(7 / 13)
    assert spades[SUIT_HCP] == pytest.approx(1.0) and clubs[SUIT_HCP] == pytest.approx(0.7)
    assert clubs[KEPT] == pytest.approx(3 / 13) and spades[CALL] == 0


def test_a_hand_built_deal_by_hand():
    state = deal()
    play(state, "bid 9", "pass", "pass", "pass", "trump spades", "AS", "7S", "4S", "2S")
    # player_0 leads the second trick: it may raise (9 -> 10..13); its sure tricks are the
    # one taken and six trump masters (KS..8S above the unseen 6S 5S 3S)
    rows = rows_by_name(state)
    up, ks, ad = rows["raise 10"], rows["KS"], rows["AD"]
    assert up[CONTRACT] == pytest.approx(10 / 13) and up[STEP] == pytest.approx(1 / 5)
    assert up[TO_MAKE] == pytest.approx(9 / 13) and up[TO_BEAT] == pytest.approx(4 / 13)
    assert up[SURE_MARGIN] == pytest.approx((7 - 10 + 13) / 26)
    assert ad[SURE_MARGIN] == pytest.approx((7 - 9 + 13) / 26) and ad[STEP] == 0
    assert up[DECLARING] == 1 and up[POSITION] == 1 and not up[SUIT : SUIT + 4].any()
    assert ks[MASTER] == ks[SURE] == ks[IS_TRUMP] == ks[LEADS] == ks[TAKES] == 1
    assert ad[MASTER] == 1 and ad[SURE] == 0  # a plain master, trumps still out
    assert ad[RANK] == 1 and ad[KEPT] == 0 and ad[LOWEST] == ad[HIGHEST] == 1
    assert ks[TRUMPS_OUT] == pytest.approx(3 / 13) and ks[LEFT] == pytest.approx(12 / 13)

    play(state, "AD", "JD", "7D", "2D", "2C")
    # player_1 follows the 2C: TC 9C 8C 4C; unseen clubs AC KC QC JC 7C 6C 5C 3C
    rows = rows_by_name(state)
    assert sorted(rows) == ["4C", "8C", "9C", "TC"]
    tc, low = rows["TC"], rows["4C"]
    assert tc[TAKES] == tc[FOLLOWS] == tc[HIGHEST] == tc[OPPONENT_WINS] == 1
    assert tc[MASTER] == 0 and tc[HIGHER_OUT] == pytest.approx(4 / 12)
    assert tc[SUIT_OUT] == pytest.approx(8 / 13) and tc[KEPT] == pytest.approx(3 / 13)
    assert tc[POSITION + 1] == 1 and tc[PARTNER_WINS] == tc[BEST_MASTER] == tc[LAST] == 0
    assert tc[TRUMPS_OUT] == pytest.approx(7 / 13) and tc[DECLARING] == 0
    assert tc[TO_MAKE] == pytest.approx(7 / 13) and tc[TO_BEAT] == pytest.approx(5 / 13)
    assert tc[SURE_MARGIN] == 0 and tc[SUIT_HCP] == 0
    assert low[LOWEST] == low[TAKES] == low[SIDE_TAKES] == 1 and low[SURE] == 0

    play(state, "4C", "6C", "QC", "3D")
    # player_0, void in diamonds after p3's 3D lead: ruff with a trump or discard
    rows = rows_by_name(state)
    assert rows["8S"][RUFFS] == rows["8S"][TAKES] == 1 and rows["8S"][FOLLOWS] == 0
    assert rows["KH"][DISCARDS] == 1 and rows["KH"][TAKES] == rows["KH"][SIDE_TAKES] == 0

    play(state, "KH", "QD", "8D")
    # player_1 won with the QD and leads; player_0 has shown a void in diamonds and may ruff
    rows = rows_by_name(state)
    kd, tc, qh = rows["KD"], rows["TC"], rows["QH"]
    assert kd[MASTER] == 1 and kd[SURE] == 0 and kd[LEADS] == 1
    assert kd[OPPONENTS_RUFF] == pytest.approx(0.5) and kd[PARTNER_RUFFS] == 0
    assert tc[OPPONENTS_RUFF] == qh[OPPONENTS_RUFF] == 0
    assert tc[HIGHER_OUT] == pytest.approx(3 / 12) and tc[SUIT_OUT] == pytest.approx(6 / 13)

    play(state, "TC", "7C")
    # player_3 third under its partner's TC (not a master: JC KC AC are out), player_0 after
    rows = rows_by_name(state)
    three, five = rows["3C"], rows["5C"]
    assert three[PARTNER_WINS] == three[SIDE_TAKES] == 1 and three[POSITION + 2] == 1
    assert three[TAKES] == three[BEST_MASTER] == three[LAST] == three[SURE] == 0
    assert five[LOWEST] == 0 and five[HIGHEST] == 1

    play(state, "3C")
    # player_0 last: either top club takes the trick for sure, both are masters
    rows = rows_by_name(state)
    ace, king = rows["AC"], rows["KC"]
    assert ace[LAST] == ace[SURE] == ace[MASTER] == king[MASTER] == king[SURE] == 1
    assert king[LOWEST] == 1 and ace[OPPONENT_WINS] == 1 and ace[POSITION + 3] == 1


def test_the_reference_reads_only_the_view():
    """``turn_features`` takes a ``TekaView``: the seat's own hand and the public table."""
    state = deal()
    play(state, "bid 9", "pass", "pass", "pass", "trump spades")
    view = state.view(0)
    rows = turn_features(view, state.rules, view.legal)
    assert np.array_equal(rows, state.game.turn_features(state, 0, view.legal))
