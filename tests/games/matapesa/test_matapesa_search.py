"""Mätäpesä's compiled tree search (``koira_env/games/matapesa/_search.pyx``) against its
references: ``bots.shed_rollout`` for the rollout policy, ``engine.State.determinize`` for the
deals, ``State.returns`` for the credit, ``agents/ismcts.py`` and ``agents/flat.py`` for the
loops (the game's own flat Monte Carlo is the rank-count core's: ``test_matapesa_ranks.py``).

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
    check_tournament_parity,
    flat_gaps,
)
from test_matapesa_compiled import CASES, snapshot

from koira_env.games.matapesa import _search as matapesa_search
from koira_env.games.matapesa import bots
from koira_env.games.matapesa._search import rollout_action, search
from koira_env.games.matapesa.game import make_game


def random_states(n: int, mix: dict[str, Any], games: int, seed: int = 0) -> list[Any]:
    """Copies of every state of ``games`` random games of one rule set on the compiled core."""
    game = make_game(n, engine="compiled", **mix)
    return [s.clone() for s in walk(game, games, seed, last=True)]


def decisions(n: int, count: int, seed: int = 0, **mix: Any) -> list[Any]:
    """States with more than one legal rank, from random games."""
    return [s for s in random_states(n, mix, 10, seed) if len(s.legal_actions()) > 1][:count]


def test_the_rollout_policy_is_sheds_move() -> None:
    states = (s for n, mix in CASES for s in random_states(n, mix, games=3))
    assert check_rollout(states, rollout_action, bots.shed_rollout) > 3000


def test_the_search_deals_as_determinize() -> None:
    """For every seat, the one to act and the others (``searches.check_redeals``)."""
    cases = [
        (state, k % n)
        for n, mix in CASES
        for k, state in enumerate(random_states(n, mix, games=1))
        if not state.is_terminal and k % 3 == 0
    ]
    assert check_redeals(cases, matapesa_search, snapshot) > 300


def test_the_search_credits_the_engines_returns() -> None:
    states = (s for n, mix in CASES for s in random_states(n, mix, games=2))
    assert check_returns(states, matapesa_search) == 2 * len(CASES)


def test_the_search_keeps_its_invariants() -> None:
    """``searches.check_invariants`` at three table sizes and under both follow rules."""
    states = decisions(3, 2) + decisions(5, 2, follow="previous") + decisions(8, 2, seed=3)
    check_invariants(states, matapesa_search, snapshot)


def test_bad_arguments_are_refused_with_a_reason() -> None:
    state = decisions(4, 1)[0]
    with pytest.raises(ValueError, match="at least 1 iteration"):
        search(state, state.current, 0, 0.7, False, 1)
    with pytest.raises(ValueError, match="playouts must be at least 1"):
        matapesa_search.action_values(state, state.current, 0, 1)


def test_both_flat_loops_value_the_ranks_alike() -> None:
    """Mean returns of each legal rank from the compiled loop and the reference loop
    (``koira_agents.flat.action_values`` with ``bots.shed_rollout``), 400 playouts each on
    the same positions: close, while random rollouts on the compiled loop are further off."""
    states = decisions(4, 3, seed=5) + decisions(6, 2, seed=6)
    gaps = list(flat_gaps(states, matapesa_search, bots.shed_rollout, 400))
    same = [g for pair in gaps for g in pair[0]]
    other = [g for pair in gaps for g in pair[1]]
    assert max(same) < 0.15 and sum(same) / len(same) < 0.05, same
    assert sum(other) > sum(same), (same, other)


def test_the_agents_use_the_compiled_search_and_fall_back_to_the_reference() -> None:
    """``bots.SEARCH`` runs the compiled loop (flat Monte Carlo is ``GameSpec.flat``'s
    rank-count core, so only the tree search is checked here)."""
    state = decisions(4, 1, seed=4)[0]
    python = make_game(4, engine="python").new_state(seed=state.seed)
    check_plugins(state, [python], bots, matapesa_search)


@pytest.mark.slow
def test_the_compiled_search_is_as_strong_as_the_reference(tmp_path: Any) -> None:
    """A duplicate-deal tournament of both loops and ``shed`` (docs/benchmarks.md quotes the
    300-deal run): the loss rates' 95% intervals overlap."""
    check_tournament_parity("matapesa", "shed", "loss", tmp_path)
