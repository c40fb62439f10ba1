"""Mini Koira's tree as arrays, CFR+ and exact best responses
(``koira_env.games.koira.mini_solve``).

The default run builds trees of a few deals (the deals where one seat holds a given hand, so
that seat's information sets span several deals); the whole 180-deal game is ``-m slow``.
"""

from __future__ import annotations

import hashlib
from functools import cache

import numpy as np
import pytest

from koira_env.games.koira import mini_solve
from koira_env.games.koira.game import make_game

GAME = make_game(2, "mini")


@cache
def deals_with_hand(seat: int, hand: frozenset) -> mini_solve.Tree:
    """The tree of the 12 deals where ``seat`` holds ``hand``."""
    orders = [o for o in mini_solve.deal_orders(GAME) if frozenset(o[seat:4:2]) == hand]
    assert len(orders) == 12
    return mini_solve.build_tree(GAME, orders)


def fixed_weights(view) -> np.ndarray:
    """Positive weights for the legal actions, a function of the seat's view only."""
    seed = int.from_bytes(hashlib.blake2b(repr(view).encode(), digest_size=8).digest(), "little")
    return np.random.default_rng(seed).uniform(0.1, 1.0, len(view.legal))


def fixed_strategy(tree: mini_solve.Tree) -> np.ndarray:
    sigma = np.empty(tree.n_ia)
    for iset in range(tree.n_isets):
        state = tree.state(GAME, int(tree.iset_node[iset]))
        w = fixed_weights(state.view(int(tree.iset_player[iset])))
        sigma[tree.iset_start[iset] : tree.iset_start[iset + 1]] = w / w.sum()
    return sigma


def brute_force_best_response(orders, seat: int) -> float:
    """The best response's value by recursion on engine states: the nodes the responder
    cannot tell apart (same views after every action) are kept together, and at its turn it
    picks the one action that is best summed over them."""

    def view_key(state):
        return repr(state.view(seat))

    def value(group: list) -> float:  # [(state, chance times the other seat's reach)]
        total = 0.0
        mine = []
        children: dict[str, list] = {}  # after the other seat's move, by what the responder sees
        for state, w in group:
            if state.is_terminal:
                total += w * state.returns()[seat]
            elif state.current == seat:
                mine.append((state, w))
            else:
                weights = fixed_weights(state.view(state.current))
                weights = weights / weights.sum()
                for a, p in zip(state.legal_actions(), weights, strict=True):
                    child = state.clone()
                    child.apply(a)
                    children.setdefault(view_key(child), []).append((child, w * p))
        total += sum(value(g) for g in children.values())
        if mine:
            best = -np.inf
            for a in mine[0][0].legal_actions():
                children = {}
                for state, w in mine:
                    child = state.clone()
                    child.apply(a)
                    children.setdefault(view_key(child), []).append((child, w))
                best = max(best, sum(value(g) for g in children.values()))
            total += best
        return total

    roots: dict[str, list] = {}
    for order in orders:
        state = GAME.new_state(deck=list(order))
        roots.setdefault(view_key(state), []).append((state, 1.0 / len(orders)))
    return sum(value(g) for g in roots.values())


def test_one_deal_has_the_tree_the_enumeration_counts():
    order = (38, 37, 49, 50, 36, 51)  # test_koira_mini_tree's deal
    tree = mini_solve.build_tree(GAME, [order])
    assert (tree.n_nodes, int((tree.player < 0).sum())) == (957, 286)
    assert len(tree.levels) - 1 <= 15  # at most 14 actions
    mini_solve.check_perfect_recall(tree)
    assert mini_solve.deal_orders(GAME)[0] == tuple(GAME.deck_cards)
    assert len(mini_solve.deal_orders(GAME)) == 180


@pytest.mark.parametrize(("seat", "hand"), [(0, frozenset({36, 50})), (1, frozenset({37, 51}))])
def test_best_response_matches_brute_force(seat, hand):
    tree = deals_with_hand(seat, hand)
    mini_solve.check_perfect_recall(tree)
    sigma = fixed_strategy(tree)
    value, br = mini_solve.best_response(tree, sigma, seat)
    orders = [tuple(int(c) for c in o) for o in tree.orders]
    assert value == pytest.approx(brute_force_best_response(orders, seat), abs=1e-9)
    # the response is pure on the responder's sets and earns its value against sigma
    mine = tree.iset_player[tree.ia_iset] == seat
    assert set(np.unique(br[mine])) <= {0.0, 1.0}
    v0 = mini_solve.game_value(tree, br)
    assert (v0 if seat == 0 else -v0) == pytest.approx(value, abs=1e-9)
    # a best response does at least as well as sigma does against itself
    v = mini_solve.game_value(tree, sigma)
    assert value >= (v if seat == 0 else -v) - 1e-12


def test_cfr_plus_lowers_nashconv_from_uniform():
    tree = deals_with_hand(0, frozenset({36, 50}))
    start = mini_solve.nash_conv(tree, mini_solve.uniform(tree))[0]
    assert start > 0.1
    cfr = mini_solve.CFRPlus(tree)
    convs = []
    for _ in range(3):
        cfr.iterate(10)
        convs.append(mini_solve.nash_conv(tree, cfr.average())[0])
    assert convs[0] < start and convs[-1] < convs[0]
    assert convs[-1] < 0.05
    assert min(convs) >= -1e-12


def test_random_is_more_exploitable_than_cfr_plus():
    tree = deals_with_hand(1, frozenset({37, 51}))
    cfr = mini_solve.CFRPlus(tree)
    cfr.iterate(30)
    from koira_agents.registry import make_agent

    random_ = mini_solve.exploitability(
        tree, mini_solve.agent_strategy(tree, GAME, make_agent("random", "koira"))
    )
    solved = mini_solve.exploitability(tree, cfr.average())
    assert random_["exploitability"] > 0.3 > 0.02 > solved["exploitability"] >= -1e-12
    # a deterministic agent's strategy is pure, and more exploitable than the solution
    sigma = mini_solve.agent_strategy(tree, GAME, make_agent("dumper", "koira"))
    assert set(np.unique(sigma)) <= {0.0, 1.0}
    assert mini_solve.exploitability(tree, sigma)["exploitability"] > solved["exploitability"]


def test_checkpoint_resumes(tmp_path):
    tree = deals_with_hand(0, frozenset({36, 50}))
    tree.save(tmp_path / mini_solve.TREE_FILE)
    _, curve = mini_solve.solve(tmp_path, iterations=4, every=2, log=False)
    assert [int(r[0]) for r in curve] == [1, 2, 4]
    cfr, curve = mini_solve.solve(tmp_path, iterations=6, every=2, log=False)
    assert [int(r[0]) for r in curve] == [1, 2, 4, 6] and cfr.iterations == 6
    again = mini_solve.CFRPlus(tree)
    again.iterate(6)
    assert np.allclose(again.average(), cfr.average())
    assert (tmp_path / "curve.csv").read_text().startswith("iterations,seconds,nashconv,value")
    assert (tmp_path / "curve.png").exists()


@pytest.mark.slow
def test_the_whole_game_solves():
    tree = mini_solve.build_tree(GAME)
    assert (tree.n_nodes, int((tree.player < 0).sum())) == (994_056, 289_360)
    mini_solve.check_perfect_recall(tree)
    cfr = mini_solve.CFRPlus(tree)
    cfr.iterate(100)
    assert mini_solve.nash_conv(tree, cfr.average())[0] < 0.005
    uniform = mini_solve.exploitability(tree, mini_solve.uniform(tree))
    assert uniform["exploitability"] > 0.5


def test_first_decisions_read_one_row_per_hand():
    tree = deals_with_hand(0, frozenset({36, 50}))
    rows = mini_solve.first_decisions(tree, GAME, mini_solve.uniform(tree), 0)
    assert [r["hand"] for r in rows] == [(36, 50)]
    assert rows[0]["weight"] == pytest.approx(1.0)  # every deal starts with this hand
    assert rows[0]["risk"] == pytest.approx(1 / 3) and rows[0]["low"] == pytest.approx(1 / 3)
    seconds = mini_solve.first_decisions(tree, GAME, mini_solve.uniform(tree), 1)
    assert sum(r["weight"] for r in seconds) == pytest.approx(1.0)
    assert all(0.0 <= r["risk"] <= 1.0 for r in seconds)


def test_the_exploitability_table(tmp_path):
    from koira_experiments import mini_cfr

    tree = deals_with_hand(0, frozenset({36, 50}))
    tree.save(tmp_path / mini_solve.TREE_FILE)
    mini_solve.solve(tmp_path, iterations=20, every=20, log=False)
    rows = mini_cfr.table(tmp_path, ("random", "dumper"))
    assert [r["agent"] for r in rows] == ["random", "dumper", "cfr+"]
    assert all(r["exploitability"] >= -1e-12 for r in rows)
    assert rows[-1]["exploitability"] < min(r["exploitability"] for r in rows[:-1])
    header = (tmp_path / "exploitability.csv").read_text().splitlines()[0]
    assert header == "agent,br0,br1,exploitability,value"
    searched = mini_cfr.table(tmp_path, ("dumper",), exploit_deals=3)[0]
    assert searched["exact_gain"] == pytest.approx(searched["exploitability"] / 2)
    assert searched["recovered"] == pytest.approx(searched["search_gain"] / searched["exact_gain"])
    assert (tmp_path / "exploit-dumper" / "exploit.json").exists()
    cells = mini_cfr.equilibrium_choices(tmp_path)
    assert sum(c["share"] for c in cells) == pytest.approx(1.0)
    assert {c["situation"] for c in cells} <= {"leading", "answering", "in a war"}
    for c in cells:
        assert (c["risk"] is None) == (c["can_risk"] == 0)
        assert (c["tie"] is None) == (c["can_tie"] == 0)
        assert all(0 <= c[k] <= 1 for k in ("risk", "tie") if c[k] is not None)
