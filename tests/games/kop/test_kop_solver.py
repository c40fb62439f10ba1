"""Kop's open-card solver and the PIMC agent built on it (``champion``).

The reference solver (``solver.solve``) against a brute-force minimax over the engine's own
moves; the compiled solver and sampler (``_solver``) against the reference and the engine's
``determinize`` constraints; the agent through whole games, legal and reproducible."""

from __future__ import annotations

import random

import pytest
from helpers import check_sampled_deal, check_window, early_states

from koira_agents.base import play_game
from koira_agents.pimc import PIMCAgent, pimc
from koira_agents.registry import make_agent, resolve
from koira_env.core.agent import Turn
from koira_env.games.kop import search, solver
from koira_env.games.kop.engine import PLAY
from koira_env.registry import make_game

compiled = pytest.importorskip("koira_env.games.kop._solver", reason="the compiled solver")


def _positions(count: int, seed: int, plays: range, **options):
    """Random states in play (random declarations and ``plays`` random cards after them)."""
    game = make_game("kop", 4, **options)
    rng = random.Random(seed)
    found = []
    for i in range(count):
        state = game.new_state(seed=seed * 1000 + i)
        while state.phase != PLAY:
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.choice(plays)):
            state.apply(rng.choice(state.legal_actions()))
        if state.phase == PLAY and state.hand_no == 0:
            found.append(state)
    return found


def test_reference_solver_agrees_with_brute_force():
    for state in _positions(40, 1, range(5, 14)):
        values = solver.move_values(state)
        best = max(values.values()) if state.side[state.current] == 0 else min(values.values())
        assert best == solver.brute_force(state)


def test_alpha_beta_windows_bound_the_value():
    """Inside the window the value is exact; outside, a bound on the same side (both solvers)."""
    for state in _positions(20, 2, range(0, 12)):
        hands, trick, leader, queens = solver.position(state)
        exact = solver.solve(hands, trick, leader, queens)
        check_window((solver.solve, compiled.solve), (hands, trick, leader, queens), exact)


def test_compiled_solver_agrees_with_the_reference():
    """From the first lead on (the table shared across calls must never change a value)."""
    for state in _positions(60, 3, range(0, 14)):
        hands, trick, leader, queens = solver.position(state)
        taken = sum(state.points[p] for p in range(4) if queens >> p & 1)
        fast = {
            card: taken + value for card, value in compiled.root_values(*solver.position(state))
        }
        assert fast == solver.move_values(state)
        assert compiled.solve(hands, trick, leader, queens) == solver.solve(
            hands, trick, leader, queens
        )


@pytest.mark.parametrize("options", [{}, {"silent_scoring": "team", "tie": "queens_lose"}])
def test_deal_values_on_the_true_deal_equal_the_reference_on_the_state(options):
    """What the seat's view and a deal's hands give (sides, stakes, points taken) is what the
    full state gives."""
    game = make_game("kop", 4, **options)
    for state in _positions(60, 4, range(0, 14), **options):
        seat = state.current
        view = state.view(seat)
        hands = tuple(sum(1 << c for c in h) for h in state.hands)
        fast = search.deal_values(view, game.rules, hands)
        exact = search.state_values(state, seat)
        assert [a for a, _ in fast] == [a for a, _ in exact]
        assert [v for _, v in fast] == pytest.approx([v for _, v in exact])


def test_constraints_are_the_engines():
    for state in early_states(make_game("kop", 4), range(30), random.Random(5), PLAY):
        for seat in range(4):
            forbidden, required = search.constraints(state.view(seat))
            engine = [sum(1 << c for c in cards) for cards in state._forbidden()]
            assert forbidden == engine
            assert required == state._required(seat)


def test_sampled_deals_are_consistent_with_the_view():
    """Every deal keeps the seat's hand and the hand sizes, and could be ``determinize``'s:
    no seat holds a card the play or a public call rules out; the true deal is possible."""
    for state in _positions(60, 6, range(0, 14)):
        seat = state.current
        turn = Turn(state.view(seat), state.game, random.Random(1), state)
        forbidden, required = search.constraints(turn.view)
        true = tuple(sum(1 << c for c in h) for h in state.hands)
        assert all(not true[p] & forbidden[p] for p in range(4))
        for hands in search.view_deals(turn, 20, seed=7):
            check_sampled_deal(hands, state, seat, forbidden)
            assert all(hands[p] >> card & 1 for card, p in required.items())


def test_sampler_is_uniform_over_free_deals():
    """No constraint: every split of the hidden cards about equally often."""
    counts: dict[tuple[int, ...], int] = {}
    hands = (0b1111, 0b11110000, 0b1111 << 8, 0b1111 << 12)
    hidden = 0b11 << 4 | 0b11 << 8  # two cards of seat 1, two of seat 2
    for hands_out in compiled.sample_deals(hands, hidden, [0, 0, 0, 0], 6000, 3):
        counts[hands_out] = counts.get(hands_out, 0) + 1
    assert len(counts) == 6 and min(counts.values()) > 850


def test_pimc_agent_plays_legal_moves_and_is_reproducible():
    game = make_game("kop", 4)
    agents = [make_agent("champion", "kop"), make_agent("counter", "kop")] * 2
    first = play_game(agents, game, None, seed=3, deal_seed=3)
    again = play_game(
        [make_agent("champion", "kop"), make_agent("counter", "kop")] * 2,
        game,
        None,
        seed=3,
        deal_seed=3,
    )
    assert first.actions == again.actions and not first.truncated
    reference = [pimc("4:counter:python"), make_agent("random", "kop")] * 2
    assert not play_game(reference, game, None, seed=4, deal_seed=4).truncated


def test_pimc_specs():
    assert resolve("champion", "kop").startswith("pimc:")
    agent = pimc("8:counter:python")
    assert (agent.deals, agent.fallback_spec, agent.engine) == (8, "counter", "python")
    agent = pimc("8::python")
    assert (agent.fallback_spec, agent.engine) == ("", "python")
    assert pimc().deals == 16 and pimc("3:lowest").fallback_spec == "lowest"
    with pytest.raises(ValueError, match="integer"):
        pimc("x")
    with pytest.raises(ValueError, match="at least 1"):
        PIMCAgent(0)
    with pytest.raises(ValueError, match="no open-card solver"):
        game = make_game("red7", 4)
        state = game.new_state(seed=1)
        turn = Turn(state.view(state.current), game, random.Random(1), state)
        PIMCAgent(2).values(turn)
    game = make_game("kop", 4)
    state = game.new_state(seed=8)  # both black queens: a declaration, out of the solver's reach
    turn = Turn(state.view(state.current), game, random.Random(1), state)
    assert PIMCAgent(2, "lowest").act(turn) in turn.view.legal
    with pytest.raises(ValueError, match=r"fallback must be one of \['counter', 'lowest'\]"):
        PIMCAgent(2, "ismcts").act(turn)
