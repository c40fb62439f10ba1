"""Whist 22's open-card solvers and the PIMC agent built on them (``champion``).

The paranoid reference solver (``solver.solve``) against a brute-force minimax over the
engine's own moves, and the compiled one against it; the compiled model solver (the others
play ``counter``) against the reference that runs the engine and ``bots.CounterBot``
themselves, its ``counter`` mirror against the bot; the position read from a view against the
full state; the sampler; the agent through whole games, legal and reproducible."""

from __future__ import annotations

import random

import pytest
from helpers import check_champion_repeats, check_window

from koira_agents.base import play_game
from koira_agents.pimc import pimc
from koira_agents.registry import make_agent, resolve
from koira_env.core.agent import Turn
from koira_env.games.whist22 import search, solver
from koira_env.games.whist22.bots import CounterBot
from koira_env.games.whist22.engine import ASIDE, BID, BIDDING, PLAYING
from koira_env.registry import make_game

compiled = pytest.importorskip("koira_env.games.whist22._solver", reason="the compiled solver")


def _states(count: int, seed: int, max_cards: int, players=(3, 4), steps=40):
    """Random states in progress (random play) with at most ``max_cards`` cards in hands."""
    found = []
    rng = random.Random(seed)
    for n in players:
        game = make_game("whist22", n)
        for i in range(count):
            state = game.new_state(seed=seed * 1000 + i)
            for _ in range(rng.randrange(steps)):
                state.apply(rng.choice(state.legal_actions()))
                if state.is_terminal:
                    break
            while not state.is_terminal and sum(map(len, state.hands)) > max_cards:
                state.apply(rng.choice(state.legal_actions()))
            if not state.is_terminal:
                found.append(state)
    return found


def _masks(state):
    hands = tuple(sum(1 << c for c in hand) for hand in state.hands)
    aside = sum(1 << c for c in range(22) if state.loc[c] == ASIDE)
    return hands, aside


def _turn(state, seed=1):
    return Turn(state.view(state.current), state.game, random.Random(seed), state)


def test_paranoid_reference_agrees_with_brute_force():
    count = 0
    for state in _states(20, 1, 10):
        if state.phase != PLAYING:
            continue
        values = solver.move_values(state, state.current)
        assert max(values.values()) == solver.brute_force(state, state.current)
        count += 1
    assert count > 20


def test_paranoid_compiled_agrees_with_the_reference():
    """In play and in the bidding (the table shared across calls must never change a value)."""
    for state in _states(25, 2, 10):
        seat = state.current
        hands, trick, leader, _, need = solver.position(state, seat)
        if state.phase == BIDDING:
            bids = [a - BID for a in state.legal_actions()]
            fast = {BID + b: v for b, v in compiled.bid_values(hands, leader, seat, bids)}
        else:
            fast = dict(compiled.root_values(hands, trick, leader, seat, need))
            assert compiled.solve(hands, trick, leader, seat, need) == solver.solve(
                hands, trick, leader, seat, need
            )
        assert fast == solver.move_values(state, seat)


def test_alpha_beta_windows_bound_the_value():
    """Inside the window the value is exact; outside, a bound on the same side (both solvers)."""
    for state in _states(10, 3, 10):
        if state.phase != PLAYING:
            continue
        position = solver.position(state, state.current)
        exact = solver.solve(*position)
        check_window((solver.solve, compiled.solve), position, exact)


def test_counter_mirror_is_the_bot():
    """The model's opponents: ``_solver``'s ``counter`` rule plays and bids as the bot."""
    bot = CounterBot()
    checked = 0
    for state in _states(150, 4, 28, steps=200):
        view = state.view(state.current)
        if len(view.legal) == 1:
            continue
        expected = bot.act(_turn(state))
        hands, aside = _masks(state)
        if state.phase == BIDDING:
            got = BID + compiled.counter_bid_of(
                view.hand, state.n, view.forbidden_bid, view.hand_size
            )
        else:
            needs = [b - w for b, w in zip(state.bids, state.won, strict=True)]
            trick = tuple(v for _, v in state.trick)
            got = compiled.counter_move(
                hands, aside, trick, view.trick[0][0] if trick else state.leader, needs
            )
        assert got == expected
        checked += 1
    assert checked > 150


def test_model_compiled_agrees_with_the_engine_reference():
    """``model_values``/``model_bid_values`` against the engine and ``CounterBot`` playing."""
    for state in _states(12, 5, 16):
        seat = state.current
        hands, aside = _masks(state)
        if state.phase == BIDDING:
            bids = [a - BID for a in state.legal_actions()]
            fast = compiled.model_bid_values(
                hands, aside, state.leader, seat, state.bids, bids, state.size, True
            )
            fast = {BID + b: v for b, v in fast}
        else:
            needs = [b - w for b, w in zip(state.bids, state.won, strict=True)]
            trick = tuple(v for _, v in state.trick)
            fast = dict(compiled.model_values(hands, aside, trick, state.leader, seat, needs))
        assert fast == solver.model_move_values(state, seat)


def test_view_position_is_the_states():
    """What the seat's view gives the solver (hidden cards, sizes, trick, leader, needs,
    bids) is the full state's; on the true deal it solves to the reference's values."""
    for state in _states(10, 6, 28, steps=30):
        seat = state.current
        pos = search.view_position(state.view(seat))
        hands, aside = _masks(state)
        assert pos["hand"] == hands[seat]
        assert pos["hidden"] == sum(hands) - hands[seat] + aside
        assert pos["sizes"] == [len(hand) for hand in state.hands]
        assert pos["needs"] == [max(b, 0) - w for b, w in zip(state.bids, state.won, strict=True)]
        assert pos["bids"] == state.bids
        if state.phase == BIDDING:
            assert pos["leader"] == state.first
            bids = [a - BID for a in state.legal_actions()]
            fast = compiled.model_bid_values(
                hands, aside, pos["leader"], seat, pos["bids"], bids, state.size, True
            )
            fast = {BID + b: v for b, v in fast}
        else:
            assert pos["trick"] == tuple(v for _, v in state.trick)
            assert pos["leader"] == state.leader
            fast = dict(
                compiled.model_values(hands, aside, pos["trick"], pos["leader"], seat, pos["needs"])
            )
        if sum(map(len, state.hands)) <= 16:
            assert fast == solver.model_move_values(state, seat)


def test_totals_are_the_sum_over_the_sampled_deals():
    """``model_totals`` and ``pimc_totals`` solve ``sample_deals``' deals (same seed), which
    keep the seat's hand and the hand sizes and deal only hidden cards."""
    for state in _states(6, 7, 28, steps=30):
        seat = state.current
        pos = search.view_position(state.view(seat))
        args = (pos["n"], seat, pos["hand"], pos["hidden"], pos["sizes"])
        deals = compiled.sample_deals(*args, 5, 9)
        sums: dict[int, int] = {}
        for hands in deals:
            assert hands[seat] == pos["hand"]
            assert [bin(h).count("1") for h in hands] == pos["sizes"]
            assert (sum(hands) - pos["hand"]) & ~pos["hidden"] == 0
            aside = pos["hidden"] & ~(sum(hands) - pos["hand"])
            if state.phase == BIDDING:
                bids = [a - BID for a in state.legal_actions()]
                values = compiled.model_bid_values(
                    hands, aside, pos["leader"], seat, pos["bids"], bids, state.size, True
                )
            else:
                bids = None
                values = compiled.model_values(
                    hands, aside, pos["trick"], pos["leader"], seat, pos["needs"]
                )
            for move, value in values:
                sums[move] = sums.get(move, 0) + value
        totals = compiled.model_totals(
            *args,
            pos["trick"],
            pos["leader"],
            pos["needs"],
            pos["bids"],
            bids,
            state.size,
            True,
            5,
            9,
        )
        assert dict(totals) == sums
        if state.phase == PLAYING:
            paranoid = compiled.pimc_totals(
                *args, pos["trick"], pos["leader"], pos["needs"][seat], None, 5, 9
            )
            expected = [
                compiled.root_values(hands, pos["trick"], pos["leader"], seat, pos["needs"][seat])
                for hands in deals
            ]
            assert dict(paranoid) == {
                move: sum(dict(v)[move] for v in expected) for move, _ in expected[0]
            }


def test_sampler_is_uniform():
    """Every split of the hidden cards about equally often (the aside card included)."""
    counts: dict[tuple[int, ...], int] = {}
    hidden = 0b111 << 10  # three hidden cards: one each for seats 1 and 2, one aside
    for hands in compiled.sample_deals(3, 0, 0b11, hidden, [1, 1, 1], 6000, 3):
        counts[hands] = counts.get(hands, 0) + 1
    assert len(counts) == 6 and min(counts.values()) > 850


@pytest.mark.parametrize("players", [4, 3])
def test_champion_plays_legal_games_and_is_reproducible(players):
    check_champion_repeats(make_game("whist22", players))


def test_reference_engine_plays_a_hand():
    """``pimc:N:FALLBACK:python``: the reference (engine, ``CounterBot``) through one hand."""
    agents = [pimc("2:counter:python"), make_agent("counter", "whist22")] * 2
    game = make_game("whist22", 4, max_hands=1)
    result = play_game(agents, game, None, seed=4, deal_seed=4)
    assert not result.truncated


def test_values_python_and_compiled_agree_on_a_late_hand():
    """The last card of a hand, played last: every deal gives the same values (only the cards
    set aside are hidden), so both engines agree."""
    checked = 0
    for state in _states(8, 8, 28):
        while not state.is_terminal and (state.phase != PLAYING or sum(map(len, state.hands)) > 1):
            state.apply(random.Random(checked).choice(state.legal_actions()))
        if state.is_terminal:
            continue
        checked += 1
        turn = _turn(state)
        assert search.move_values(turn, 3, 1, "python") == search.move_values(turn, 3, 1)
    assert checked > 10


def test_champion_alias():
    assert resolve("champion", "whist22").startswith("pimc:")
    with pytest.raises(ValueError, match="engine"):
        search.move_values(_turn(_states(1, 9, 40)[0]), 2, 1, "fast")
