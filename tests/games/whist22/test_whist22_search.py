"""Whist 22's compiled search (``koira_env/games/whist22/_search.pyx``) against its references:
``bots.greedy_rollout`` for the rollout policy, ``engine.State.determinize`` for the deals,
``State.returns`` for the credit, ``agents/flat.py`` and ``agents/ismcts.py`` for the loops.

The compiled loops draw other random numbers than the references, so games differ; what must
agree is every part that is not random, the invariants of the search, and its judgement (the
mean values of flat Monte Carlo on both loops are close). A deal must not see the decks of the
hands still to come: ``determinize`` gives its copy a fresh seed, and so does every deal here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import walk
from searches import check_deals, check_invariants, check_plugins, flat_gaps
from test_whist22_compiled import MIXES, snapshot

from koira_env.games.whist22 import _search as whist22_search
from koira_env.games.whist22 import bots
from koira_env.games.whist22._search import action_values as compiled_values
from koira_env.games.whist22._search import rollout_action, search, search_returns
from koira_env.games.whist22.game import make_game


def decisions(n: int, count: int, seed: int = 0, hand: int = 0) -> list[Any]:
    """Copies of states with more than one legal move, in hand ``hand`` or later, from greedy
    games."""
    game = make_game(n, engine="compiled")
    found = []
    g = seed
    while len(found) < count:
        state = game.new_state(seed=g)
        rng = random.Random(g)
        while not state.is_terminal:
            if state.hand_no >= hand and len(state.legal_actions()) > 2 and rng.random() < 0.2:
                found.append(state.clone())
                break
            state.apply(bots.greedy_rollout(state))
        g += 1
    return found


@pytest.mark.parametrize("n", [3, 4])
def test_the_rollout_policy_is_greedys_move_and_the_credit_the_engines_returns(n: int) -> None:
    states = ended = 0
    for mix in MIXES:
        for state in walk(make_game(n, engine="compiled", **mix), 12, last=True):
            if state.is_terminal:
                with pytest.raises(ValueError, match="game is over"):
                    rollout_action(state)
                assert search_returns(state) == pytest.approx(state.returns(), abs=1e-6)
                ended += 1
                continue
            assert rollout_action(state) == bots.greedy_rollout(state), state.history
            assert search_returns(state) == [0.0] * n
            states += 1
    assert states > 2000 and ended == 12 * len(MIXES)


@pytest.mark.parametrize("n", [3, 4])
def test_the_search_deals_a_shuffle_where_the_reference_puts_it(n: int) -> None:
    """For every seat, in play and out (``searches.check_deals``); the seed and the decks to
    come are made anew, as ``determinize``'s are."""
    cases = [
        (state, k % n)
        for mix in MIXES
        for k, state in enumerate(walk(make_game(n, engine="compiled", **mix), 4))
        if k % 5 == 0
    ]
    rng = random.Random(n)
    assert check_deals(cases, whist22_search, snapshot, rng, fresh=("seed", "deck")) > 50


def test_no_deal_sees_the_decks_to_come() -> None:
    """Flat Monte Carlo's playouts from a hand with hands after it meet other decks than the
    game's own: the search of a state whose later decks are fixed (a full deck list) values
    its moves as the search of the same state with other later decks does."""
    state = decisions(4, 1, seed=3)[0]
    seat = state.current
    dealt = (state.hand_no + 1) * 22
    other = state.clone()
    other.deck = state.deck[:dealt] + random.Random(1).sample(range(22), 22) * 10
    fixed = state.clone()
    fixed.deck = state.deck[:dealt] + random.Random(2).sample(range(22), 22) * 10
    assert compiled_values(other, seat, 40, 5) == compiled_values(fixed, seat, 40, 5)
    assert search(other, seat, 100, 0.7, False, 5) == search(fixed, seat, 100, 0.7, False, 5)


def test_the_search_keeps_its_invariants() -> None:
    """``searches.check_invariants``, in the first hand and in later ones."""
    for n in (3, 4):
        states = decisions(n, 3, seed=10 * n) + decisions(n, 2, seed=7, hand=2)
        check_invariants(states, whist22_search, snapshot)


def test_both_flat_loops_value_the_moves_alike() -> None:
    """Mean returns of each legal move from the compiled loop and the reference loop
    (``koira_agents.flat.action_values`` with ``bots.greedy_rollout``), 400 playouts each on
    the same positions, each set centred on its mean (a whole game's return is noisy, and the
    common deals shift all of a loop's values together): close (measured: at most 0.07 apart,
    0.04 on average), and random rollouts several times further off."""
    same, other = [], []
    states = decisions(3, 2, seed=20) + decisions(4, 2, seed=30)
    for gaps, random_gaps in flat_gaps(states, whist22_search, bots.greedy_rollout, 400, centred):
        assert max(gaps) < 0.12 and sum(gaps) / len(gaps) < 0.05, gaps
        same += gaps
        other += random_gaps
    assert sum(other) > 2 * sum(same), (same, other)


def centred(values: list[tuple[int, float]]) -> dict[int, float]:
    mean = sum(v for _, v in values) / len(values)
    return {a: v - mean for a, v in values}


def test_the_agents_use_the_compiled_loops_and_fall_back_to_the_references() -> None:
    state = decisions(4, 1, seed=3)[0]
    python = make_game(4, engine="python").new_state(seed=state.seed)
    check_plugins(state, [python], bots, whist22_search)
