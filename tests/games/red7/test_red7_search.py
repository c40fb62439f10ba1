"""Red7's compiled search (``koira_env/games/red7/_search.pyx``) against its references:
``bots.thrifty_rollout`` for the rollout policy, ``engine.State.determinize`` for the deals,
``State.returns`` for the credit, ``agents/flat.py`` and ``agents/ismcts.py`` for the loops;
and the ``champion`` alias it plays as.

The compiled loops draw other random numbers than the references, so games differ; what must
agree is every part that is not random (the rollout move, where a shuffle puts the hidden
cards, the returns), the invariants of the search (legal moves only, one root visit per
iteration, the same result for a seed, the state left alone) and its judgement: the mean
values of flat Monte Carlo on both loops are close.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import walk
from searches import check_deals, check_invariants, check_plugins, flat_gaps
from test_red7_compiled import MIXES, snapshot

from koira_agents.base import play_game
from koira_agents.flat import FlatAgent
from koira_agents.registry import make_agent, resolve
from koira_env.games.red7 import _search as red7_search
from koira_env.games.red7 import bots
from koira_env.games.red7._search import action_values as compiled_values
from koira_env.games.red7._search import (
    determinized,
    hidden_cards,
    rollout_action,
    search,
    search_returns,
)
from koira_env.games.red7.game import make_game
from koira_env.registry import spec

ONE_ROUND = [mix for mix in MIXES if mix.get("scoring") != "points"]


def random_states(n: int, mix: dict[str, Any], games: int, seed: int = 0) -> Iterator[Any]:
    """Every state of ``games`` random games of one rule set on the compiled core."""
    return walk(make_game(n, engine="compiled", **mix), games, seed, last=True)


def decisions(n: int, count: int, seed: int = 0, **mix: Any) -> list[Any]:
    """Copies of states with more than one legal turn, from thrifty games."""
    game = make_game(n, engine="compiled", **mix)
    found = []
    g = seed
    while len(found) < count:
        state = game.new_state(seed=g)
        rng = random.Random(g)
        while not state.is_terminal:
            if len(state.legal_actions()) > 2 and rng.random() < 0.3:
                found.append(state.clone())
                break
            state.apply(bots.thrifty_rollout(state))
        g += 1
    return found


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_rollout_policy_is_thriftys_move(n: int) -> None:
    states = 0
    for mix in MIXES:
        for state in random_states(n, mix, games=40):
            if state.is_terminal:
                with pytest.raises(ValueError, match="game is over"):
                    rollout_action(state)
                continue
            assert rollout_action(state) == bots.thrifty_rollout(state), state.history
            states += 1
    assert states > 1000


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_search_deals_a_shuffle_where_the_reference_puts_it(n: int) -> None:
    """For every seat, in play and out (``searches.check_deals``)."""
    cases = [
        (state, k % n)
        for mix in MIXES
        for k, state in enumerate(random_states(n, mix, games=8))
        if k % 3 == 0 and not state.is_terminal
    ]
    assert check_deals(cases, red7_search, snapshot, random.Random(n)) > 50


def test_a_bad_shuffle_is_refused() -> None:
    state = decisions(4, 1)[0]
    hidden = hidden_cards(state, 0)
    seen = {*state.hands[0], *state.canvas, *(c for palette in state.palettes for c in palette)}
    assert hidden == sorted(set(range(49)) - seen)
    with pytest.raises(ValueError, match="hidden cards in some order"):
        determinized(state, 0, [*hidden[:-1], hidden[0]])


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_search_credits_the_engines_returns(n: int) -> None:
    ended = 0
    for mix in ONE_ROUND:
        for state in random_states(n, mix, games=30):
            assert search_returns(state) == pytest.approx(state.returns(), abs=1e-12)
            ended += state.is_terminal
    assert ended == 30 * len(ONE_ROUND)
    points = make_game(n, scoring="points").new_state(seed=1)
    with pytest.raises(ValueError, match="points game"):
        search_returns(points)


def test_the_search_keeps_its_invariants() -> None:
    """``searches.check_invariants``, at every table size and in an elimination game."""
    for n in (2, 3, 4):
        states = decisions(n, 3, seed=10 * n) + decisions(n, 2, places="elimination")
        check_invariants(states, red7_search, snapshot)


def test_bad_arguments_are_refused_with_a_reason() -> None:
    state = decisions(3, 1)[0]
    seat = state.current
    with pytest.raises(ValueError, match="at least 1 iteration"):
        search(state, seat, 0, 0.7, False, 1)
    with pytest.raises(ValueError, match="playouts must be at least 1"):
        compiled_values(state, seat, 0, 1)
    points = make_game(3, scoring="points").new_state(seed=2)
    with pytest.raises(ValueError, match="points game"):
        compiled_values(points, points.current, 5, 1)
    with pytest.raises(ValueError, match="at least one playout"):
        make_agent("flat:0", "red7")


def test_both_flat_loops_value_the_turns_alike() -> None:
    """Mean returns of each legal turn from the compiled loop and the reference loop
    (``koira_agents.flat.action_values`` with ``bots.thrifty_rollout``), 600 playouts each on the
    same positions: close (measured: 0.016-0.023 apart on average, at most 0.071), while
    random rollouts on the compiled loop are 3-7 times further off."""
    states = decisions(3, 2, seed=20) + decisions(4, 2, seed=30)
    for same, other in flat_gaps(states, red7_search, bots.thrifty_rollout, 600):
        assert max(same) < 0.12 and sum(same) / len(same) < 0.04, same
        assert sum(other) > 2 * sum(same), (same, other)


def test_pass_is_valued_as_the_certain_loss_it_is() -> None:
    """``pass`` puts the mover out: its flat value is exactly the loser's return, whatever the
    deals, and every other turn is worth at least that."""
    for n in (2, 3, 4):
        for state in decisions(n, 4, seed=40 + n):
            values = dict(compiled_values(state, state.current, 30, n))
            assert values[0] == pytest.approx(-1 / (n - 1), abs=1e-12)
            assert min(values.values()) == values[0]


def test_the_agents_use_the_compiled_loops_and_fall_back_to_the_references() -> None:
    """``searches.check_plugins``: the reference engine's states and a points game (which the
    search refuses) go to the reference loops."""
    state = decisions(4, 1, seed=3)[0]
    python = make_game(4, engine="python").new_state(seed=state.seed)
    points = make_game(4, scoring="points").new_state(seed=3)
    check_plugins(state, [python, points], bots, red7_search)


def test_champion_is_flat_monte_carlo_and_plays_whole_games_for_a_seed() -> None:
    assert resolve("champion", "red7") == spec("red7").choices.aliases["champion"] == "flat:48"
    champion = make_agent("champion", "red7")
    assert isinstance(champion, FlatAgent) and champion.engine == "auto"
    game = make_game(4)
    seats = [champion, make_agent("thrifty", "red7"), make_agent("champion", "red7"), champion]
    first = play_game(seats, game, None, seed=3, deal_seed=3)
    assert sorted(first.places)[0] == 1 and not first.truncated
    assert play_game(seats, game, None, seed=3, deal_seed=3) == first
    for n in (2, 3):
        result = play_game([make_agent("champion", "red7")] * n, make_game(n), None, 1, 1)
        assert sorted(result.places)[0] == 1
