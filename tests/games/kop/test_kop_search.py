"""Kop's compiled search (``koira_env/games/kop/_search.pyx``) against its references:
``bots.greedy_move`` for the rollout policy, ``engine.State.determinize`` for the deals,
``State.returns`` for the credit, ``agents/flat.py`` and ``agents/ismcts.py`` for the loops.

The compiled loops draw other random numbers than the references, so games differ; what must
agree is every part that is not random (the rollout move, the deal for a seed, the returns),
the invariants of the search and its judgement: flat Monte Carlo's mean values are close on
both loops.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import walk
from searches import (
    check_invariants,
    check_plugins,
    check_redeals,
    check_returns,
    check_rollout,
    check_tournament_parity,
    flat_gaps,
)
from test_kop_compiled import MIXES, snapshot

from koira_env.games.kop import _search as kop_search
from koira_env.games.kop import bots
from koira_env.games.kop._search import rollout_action, search
from koira_env.games.kop.engine import DECLARE, NUM_CARDS
from koira_env.games.kop.game import make_game


def random_states(mix: dict[str, Any], games: int, seed: int = 0) -> list[Any]:
    """Copies of every state of ``games`` random games of one rule set on the compiled core."""
    return [s.clone() for s in walk(make_game(4, engine="compiled", **mix), games, seed, last=True)]


def decisions(count: int, seed: int = 0, **mix: Any) -> list[Any]:
    """States with more than one legal move, from random games."""
    return [s for s in random_states(mix, 40, seed) if len(s.legal_actions()) > 1][:count]


def test_the_rollout_policy_is_greedy_moves() -> None:
    states = (state for mix in MIXES for state in random_states(mix, games=30))
    assert check_rollout(states, rollout_action, bots.greedy_move) > 2000


def test_the_search_deals_as_determinize() -> None:
    """For every seat, the one to act and the others (``searches.check_redeals``)."""
    cases = [
        (state, k % 4)
        for mix in MIXES
        for k, state in enumerate(random_states(mix, games=6))
        if not state.is_terminal
    ]
    assert check_redeals(cases, kop_search, snapshot) > 500


def test_the_search_credits_the_engines_returns() -> None:
    states = (state for mix in MIXES for state in random_states(mix, games=20))
    assert check_returns(states, kop_search) > 100


def test_the_search_keeps_its_invariants() -> None:
    """``searches.check_invariants`` in the bidding and in play, one hand and whole games."""
    declaring = [
        s for s in random_states({}, 60) if len(s.legal_actions()) > 1 and s.phase == DECLARE
    ]
    states = decisions(3, seed=1) + decisions(3, seed=2, single_hand=True) + declaring[:2]
    assert any(a >= NUM_CARDS for s in states for a in s.legal_actions())
    check_invariants(states, kop_search, snapshot)


def test_bad_arguments_are_refused_with_a_reason() -> None:
    state = decisions(1)[0]
    with pytest.raises(ValueError, match="at least 1 iteration"):
        search(state, state.current, 0, 0.7, False, 1)
    with pytest.raises(ValueError, match="playouts must be at least 1"):
        kop_search.action_values(state, state.current, 0, 1)


def test_both_flat_loops_value_the_moves_alike() -> None:
    """Mean returns of each legal move from the compiled loop and the reference loop
    (``koira_agents.flat.action_values`` with ``bots.greedy_move``), 400 playouts each on
    the same positions: close, while random rollouts on the compiled loop are further off."""
    states = decisions(4, seed=3, single_hand=True)
    gaps = list(flat_gaps(states, kop_search, bots.greedy_move, 400))
    same = [g for pair in gaps for g in pair[0]]
    other = [g for pair in gaps for g in pair[1]]
    assert max(same) < 0.15 and sum(same) / len(same) < 0.05, same
    assert sum(other) > sum(same), (same, other)


def test_the_agents_use_the_compiled_loops_and_fall_back_to_the_references() -> None:
    state = decisions(1, seed=4)[0]
    python = make_game(4, engine="python").new_state(seed=state.seed)
    check_plugins(state, [python], bots, kop_search)


def test_a_seat_not_to_act_is_refused_on_a_fresh_deal() -> None:
    state = make_game(4).new_state(seed=random.Random(5).getrandbits(32))
    with pytest.raises(ValueError, match="is not to act"):
        search(state, (state.current + 1) % 4, 10, 0.7, False, 1)


@pytest.mark.slow
def test_the_compiled_search_is_as_strong_as_the_reference(tmp_path: Any) -> None:
    """A duplicate-deal tournament of both loops and ``counter`` (docs/benchmarks.md quotes the
    300-deal run): the win rates' 95% intervals overlap."""
    check_tournament_parity("kop", "counter", "win", tmp_path)
