"""Teka's open-card solver and the PIMC agent built on it (``champion``).

The reference solver (``solver.solve``) against a brute-force minimax over the engine's own
moves; the compiled solver, playout and sampler (``_solver``) against the reference and the
engine's ``determinize`` constraints; values from the seat's view against the full state;
the agent through whole games, legal and reproducible."""

from __future__ import annotations

import random

import pytest
from helpers import check_sampled_deal, check_window, early_states

from koira_agents.base import play_game
from koira_agents.registry import make_agent, resolve
from koira_env.core.agent import Turn
from koira_env.games.teka import search, solver
from koira_env.games.teka.engine import DOUBLE, NUM_CARDS, PLAY
from koira_env.registry import make_game

compiled = pytest.importorskip("koira_env.games.teka._solver", reason="the compiled solver")


def _positions(count: int, seed: int, left: range, engine: str | None = None, **options):
    """Random states in play (random calls, double thirteen one time in ten, and random
    cards) with ``left`` cards (a random number of them) still in the active hands, in the
    first hand; the play does not end early unless ``options`` say so. ``engine``: the
    game's (the default: the compiled core)."""
    game = make_game("teka", 4, engine=engine, **{"early_end": False, **options})
    rng = random.Random(seed)
    found = []
    for i in range(count):
        state = game.new_state(seed=seed * 1000 + i)
        while state.phase != PLAY:
            legal = state.legal_actions()
            calls = [a for a in legal if a != DOUBLE] if rng.random() > 0.1 else []
            state.apply(rng.choice(calls or legal))
        target = rng.choice(left)
        while state.phase == PLAY and state.hand_no == 0 and _left(state) > target:
            state.apply(rng.choice([a for a in state.legal_actions() if a < NUM_CARDS]))
        if state.phase == PLAY and state.hand_no == 0:
            found.append(state)
    return found


def _left(state) -> int:
    return sum(len(h) for p, h in enumerate(state.hands) if p != state.out)


def test_reference_solver_agrees_with_brute_force():
    states = _positions(40, 1, range(4, 11), single_hand=True)
    assert any(s.double for s in states) and any(s.trick for s in states)
    for state in states:
        values = solver.move_values(state)
        mine = solver.side_mask(state) >> state.current & 1
        best = max(values.values()) if mine else min(values.values())
        assert best == solver.brute_force(state)


def test_alpha_beta_windows_bound_the_value():
    """Inside the window the value is exact; outside, a bound on the same side (both solvers)."""
    for state in _positions(20, 2, range(8, 16)):
        pos = solver.position(state)
        exact = solver.solve(*pos)
        check_window((solver.solve, compiled.solve), pos, exact)


def test_compiled_solver_and_playout_agree_with_the_reference():
    """Exact within ``exact_from`` cards, playouts above (the table shared across calls must
    never change a value)."""
    for state in _positions(60, 3, range(0, 52)):
        pos = solver.position(state)
        cards = [a for a in state.legal_actions() if a < NUM_CARDS]
        moves = sum(1 << c for c in cards)
        exact_from = 12
        fast = compiled.root_values(*pos, moves, exact_from)
        assert fast == solver.card_values(*pos, cards, exact_from)
        assert compiled.playout(*pos) == solver.playout(*pos)
        if _left(state) <= 16:
            assert compiled.solve(*pos) == solver.solve(*pos)
            taken = sum(state.won[p] for p in range(4) if pos[4] >> p & 1)
            exact = {c: taken + v for c, v in compiled.root_values(*pos, moves)}
            assert exact == solver.move_values(state)


@pytest.mark.parametrize("options", [{}, {"failed_bid": "double", "no_honours": "keep"}])
def test_values_from_the_view_equal_the_full_state(options):
    """What the seat's view and the true deal give (sides, contract, tricks taken, scoring)
    is what the full state gives: the same per-card tricks, and actions scored by the
    reference engine's own end of hand (whose fields the test sets)."""
    game = make_game("teka", 4, engine="python", **options)
    for state in _positions(40, 4, range(0, 52), engine="python", **options):
        seat = state.current
        view = state.view(seat)
        cards = [a for a in view.legal if a < NUM_CARDS]
        hands = tuple(sum(1 << c for c in h) for h in state.hands)
        trick = tuple(c for _, c in view.trick)
        leader = view.trick[0][0] if view.trick else seat
        declarers = search._declarers(view)
        moves = sum(1 << c for c in cards)
        from_view = compiled.root_values(
            hands, trick, leader, view.trump, declarers, view.out, moves, 12
        )
        assert from_view == solver.card_values(*solver.position(state), cards, 12)
        tricks = {card: [value] for card, value in from_view}
        values = dict(search.action_values(view, game.rules, tricks))
        for card, rest in from_view:
            side = sum(view.won[p] for p in range(4) if declarers >> p & 1) + rest
            end = state.clone()
            end.contract = state.contract
            # the engine's scoring of a hand the declarers end with `side` tricks
            made = side >= state.contract
            end.won = [0] * 4
            end.won[state.declarer] = side
            end._end_hand(made)
            mine = end.hand_points[seat % 2] - end.hand_points[1 - seat % 2]
            assert values[card] == pytest.approx(
                mine + search.TRICK_WEIGHT * (side if declarers >> seat & 1 else 13 - side)
            )


def test_constraints_are_the_engines():
    game = make_game("teka", 4)
    for state in early_states(game, range(30), random.Random(5), PLAY):
        for seat in range(4):
            forbidden, needs = search.constraints(state.view(seat), game.rules)
            voids = state._voids()
            assert forbidden == [sum(1 << c for c in voids[p]) for p in range(4)]
            # every need holds in the true deal
            assert all(
                any(c in state.hands[p] or state.by[c] == p for c in solver.cards_of(m))
                for p, m in needs
            )


def test_needs_match_determinize():
    """An honour for a seat that has shown none, a trump for the declarer before its lead."""
    game = make_game("teka", 4)
    state = game.new_state(seed=7)
    rng = random.Random(7)
    while state.phase != PLAY:
        state.apply(rng.choice(state.legal_actions()))
    seat = (state.declarer + 1) % 4
    forbidden, needs = search.constraints(state.view(seat), game.rules)
    assert forbidden == [0] * 4
    others = [p for p in range(4) if p != seat]
    assert (state.declarer, solver.SUIT_MASK[state.trump]) in needs
    assert [p for p, m in needs if m == search.HONOURS_MASK] == others


def test_sampled_deals_are_consistent_with_the_view():
    """Every deal keeps the seat's hand and the hand sizes, and could be ``determinize``'s:
    no seat holds a card of a suit it did not follow, every need is met."""
    game = make_game("teka", 4)
    for state in _positions(40, 6, range(4, 52)):
        seat = state.current
        turn = Turn(state.view(seat), game, random.Random(1), state)
        forbidden, needs = search.constraints(turn.view, game.rules)
        true = tuple(sum(1 << c for c in h) for h in state.hands)
        assert all(not true[p] & forbidden[p] for p in range(4))
        for hands in search.view_deals(turn, 10, seed=7):
            check_sampled_deal(hands, state, seat, forbidden)
            played = [sum(1 << c for c in range(52) if state.by[c] == p) for p in range(4)]
            assert all((hands[p] | played[p]) & m for p, m in needs)


def test_sampler_is_uniform_over_free_deals():
    """No constraint: every split of the hidden cards about equally often."""
    counts: dict[tuple[int, ...], int] = {}
    hands = (0b1111, 0b11110000, 0b1111 << 8, 0b1111 << 12)
    hidden = 0b11 << 4 | 0b11 << 8  # two cards of seat 1, two of seat 2
    for hands_out in compiled.sample_deals(hands, hidden, [0] * 4, [], 6000, 3):
        counts[hands_out] = counts.get(hands_out, 0) + 1
    assert len(counts) == 6 and min(counts.values()) > 850


def test_reference_engine_scores_the_same_actions():
    """The python engine (``determinize`` deals, the reference solver) runs and covers the
    same actions as the compiled one, raises included."""
    game = make_game("teka", 4)
    for state in _positions(8, 8, range(8, 40)):
        turn = Turn(state.view(state.current), game, random.Random(2), state)
        slow = search.move_values(turn, 2, 1, "python")
        fast = search.move_values(turn, 2, 1, "auto")
        assert [a for a, _ in slow] == [a for a, _ in fast] == list(turn.view.legal)
    bidding = game.new_state(seed=1)
    turn = Turn(bidding.view(bidding.current), game, random.Random(1), bidding)
    assert search.move_values(turn, 2, 1) is None


def test_champion_plays_legal_games_and_is_reproducible():
    assert resolve("champion", "teka").startswith("pimc:")
    game = make_game("teka", 4, target=30)

    def agents():
        return [make_agent("champion", "teka"), make_agent("counter", "teka")] * 2

    first = play_game(agents(), game, None, seed=3, deal_seed=3)
    again = play_game(agents(), game, None, seed=3, deal_seed=3)
    assert first.actions == again.actions and not first.truncated and first.places
