"""Dois's compiled tree search (``koira_env/games/dois/_search.pyx``) against its references:
``bots.greedy_rollout`` for the rollout policy, ``engine.State.determinize`` for the deals,
``State.returns`` for the credit, ``agents/flat.py`` and ``agents/ismcts.py`` for the loops
(``champion``'s PIMC runs on the model playouts instead: ``test_dois_model.py``).

The compiled loops draw other random numbers than the references, so games differ; what must
agree is every part that is not random (the rollout move, the deal for a seed, the returns),
the invariants of the search and its judgement: flat Monte Carlo's mean values are close on
both loops.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import walk
from searches import (
    check_invariants,
    check_plugins,
    check_redeals,
    check_returns,
    check_rollout,
    flat_gaps,
)
from test_dois_compiled import CASES, snapshot

from koira_env.games.dois import _search as dois_search
from koira_env.games.dois import bots
from koira_env.games.dois._search import rollout_action, search
from koira_env.games.dois.engine import BIDDING
from koira_env.games.dois.game import make_game


def random_states(n: int, mix: dict[str, Any], games: int, seed: int = 0) -> list[Any]:
    """Copies of every state of ``games`` random games of one rule set on the compiled core."""
    game = make_game(n, engine="compiled", **mix)
    return [s.clone() for s in walk(game, games, seed, last=True)]


def decisions(n: int, count: int, seed: int = 0, **mix: Any) -> list[Any]:
    """States with more than one legal move, from random one-hand games."""
    states = random_states(n, {"hands": 1, **mix}, 6, seed)
    return [s for s in states if len(s.legal_actions()) > 1][:count]


def test_the_rollout_policy_is_greedys_move() -> None:
    states = (s for n, mix in CASES for s in random_states(n, mix, games=2))
    assert check_rollout(states, rollout_action, bots.greedy_rollout) > 2000


def test_the_search_deals_as_determinize() -> None:
    """For every seat, the one to act and the others, redeals shown or not
    (``searches.check_redeals``)."""
    cases = [
        (state, k % n)
        for n, mix in CASES
        for k, state in enumerate(random_states(n, mix, games=1))
        if not state.is_terminal and k % 2 == 0
    ]
    assert check_redeals(cases, dois_search, snapshot) > 300


def test_the_search_credits_the_engines_returns() -> None:
    states = (s for n, mix in CASES for s in random_states(n, mix, games=2))
    assert check_returns(states, dois_search) == 2 * len(CASES)


def test_the_search_keeps_its_invariants() -> None:
    """``searches.check_invariants`` in the bidding and in play, at both table sizes."""
    states = decisions(3, 3, seed=1) + decisions(4, 3, seed=2, bidding="sealed")
    assert any(s.phase == BIDDING for s in states)
    check_invariants(states, dois_search, snapshot)


def test_bad_arguments_are_refused_with_a_reason() -> None:
    state = decisions(4, 1)[0]
    with pytest.raises(ValueError, match="at least 1 iteration"):
        search(state, state.current, 0, 0.7, False, 1)
    with pytest.raises(ValueError, match="playouts must be at least 1"):
        dois_search.action_values(state, state.current, 0, 1)


def test_both_flat_loops_value_the_moves_alike() -> None:
    """Mean returns of each legal move from the compiled loop and the reference loop
    (``koira_agents.flat.action_values`` with ``bots.greedy_rollout``), 300 playouts each on
    the same one-hand positions: close, while random rollouts on the compiled loop are
    further off."""
    states = decisions(4, 3, seed=3)[1:] + decisions(3, 2, seed=4)[1:]
    gaps = list(flat_gaps(states, dois_search, bots.greedy_rollout, 300))
    same = [g for pair in gaps for g in pair[0]]
    other = [g for pair in gaps for g in pair[1]]
    assert max(same) < 0.2 and sum(same) / len(same) < 0.07, same
    assert sum(other) > sum(same), (same, other)


def test_the_agents_use_the_compiled_loops_and_fall_back_to_the_references() -> None:
    state = decisions(4, 1, seed=5)[0]
    python = make_game(4, engine="python", hands=1).new_state(seed=state.seed)
    check_plugins(state, [python], bots, dois_search)
