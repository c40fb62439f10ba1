"""Flat Monte Carlo (``flat:PLAYOUTS``): compiled and reference loops, strength, errors."""

from __future__ import annotations

import random

import pytest

from koira_agents.base import play_game
from koira_agents.flat import FlatAgent, action_values
from koira_agents.registry import make_agent
from koira_env import make_game
from koira_env.core.agent import Turn
from koira_env.games.koira.bots import ROLLOUT


def turn_at(game, seed: int, moves: int) -> Turn:
    """A turn with at least two legal moves, reached by ``moves`` dumper moves."""
    state = game.new_state(seed=seed)
    for _ in range(moves):
        state.apply(ROLLOUT(state))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return Turn(state.view(state.current), game, random.Random(seed), state)


@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 70), (3, 110)])
def test_compiled_and_reference_values_agree(seed, moves):
    """Both loops estimate the same mean returns: the compiled one on its own deals, the
    reference on ``determinize``'s; with 200 deals they differ by sampling noise only."""
    game = make_game("koira", 4)
    turn = turn_at(game, seed, moves)
    compiled = FlatAgent(200).values(turn)
    reference = FlatAgent(200, engine="python").values(turn)
    assert [a for a, _ in compiled] == [a for a, _ in reference] == turn._state.legal_actions()
    for (_, c), (_, r) in zip(compiled, reference, strict=True):
        assert -1 <= c <= 1 and abs(c - r) < 0.2


def test_every_move_sees_the_same_deals():
    """Common random numbers: a reference call replays the same deals for every move, so a
    state whose moves all lead to the same game gives every move the same value."""
    game = make_game("koira", 4)
    turn = turn_at(game, 4, 0)
    state = turn._state
    values = action_values(state, state.current, 6, random.Random(0), ROLLOUT)
    again = action_values(state, state.current, 6, random.Random(0), ROLLOUT)
    assert values == again and len(values) == len(state.legal_actions())


def test_flat_beats_three_dumpers():
    """Its rollouts model the dumpers exactly: it loses far less than the 25% of parity
    (docs/bots.md: about 5%)."""
    game = make_game("koira", 4)
    agent = make_agent("flat:2")
    losses = games = 0
    for deal in range(40):
        for seat in range(4):
            agents = [agent if s == seat else make_agent("dumper") for s in range(4)]
            result = play_game(agents, game, None, seed=deal, deal_seed=5000 + deal)
            losses += result.returns[seat] == -1
            games += 1
    assert losses / games < 0.15


def test_flat_in_one_phase_plays_the_rollout_move_in_the_other():
    game = make_game("koira", 4)
    turn = turn_at(game, 6, 0)  # phase one
    agent = make_agent("flat:4:2")
    assert not agent.searches(turn) and agent.act(turn) == ROLLOUT(turn._state)
    assert make_agent("flat:4:1").searches(turn)
    with pytest.raises(ValueError, match="has no phases"):
        state = make_game("kop").new_state(seed=1)
        agent.searches(Turn(state.view(state.current), state.game, random.Random(0), state))


def test_flat_plays_any_game_with_the_reference_loop():
    game = make_game("matapesa", 4)
    agents = [
        make_agent("flat:2::python", "matapesa"),
        *(make_agent("random", "matapesa") for _ in range(3)),
    ]
    assert not play_game(agents, game, None, seed=3).truncated


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("flat:x", "integer playout count"),
        ("flat:0", "at least one playout"),
        ("flat:4::gpu", "engine must be one of"),
        ("flat:4:x", "phase must be a phase number"),
    ],
)
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)
