"""Mini Koira's whole game tree, by exhaustive enumeration (RULES.md "Mini Koira": its size).

Every deck order of the six cards and every legal play from it: the histories (nodes), the
terminal ones and the decisions of the longest game (the information sets are
``koira.mini_solve``'s, with perfect recall). The 720 orders
make 180 distinct deals (the order of the two cards within a hand never matters), 90 up to
exchanging the suits. The whole count takes about half a minute on the compiled core
(``-m slow``); the default run checks a few deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

import pytest

from koira_env.games.koira.game import KoiraGame, make_game

SWAP_SUITS = {36: 49, 37: 50, 38: 51, 49: 36, 50: 37, 51: 38}  # hearts <-> spades


@dataclass
class Tree:
    """Counts over the game trees walked so far."""

    nodes: int = 0  # histories, the deals' roots and the terminal ones included
    terminals: int = 0
    decisions: int = 0  # histories where someone is to act
    choices: int = 0  # ... with more than one legal action
    longest: int = 0  # actions of the longest game
    most_choices: int = 0  # decisions with a real choice in one game, at most
    leaves: list[tuple] = field(default_factory=list)  # (actions, returns) of the last deal

    def walk(self, state, depth: int = 0, real: int = 0) -> None:
        self.nodes += 1
        if state.is_terminal:
            self.terminals += 1
            self.longest = max(self.longest, depth)
            self.most_choices = max(self.most_choices, real)
            self.leaves.append((tuple(state.history), tuple(state.returns())))
            return
        legal = state.legal_actions()
        self.decisions += 1
        self.choices += len(legal) > 1
        for action in legal:
            child = state.clone()
            child.apply(action)
            self.walk(child, depth + 1, real + (len(legal) > 1))

    def deal(self, game: KoiraGame, order: Sequence[int]) -> tuple:
        """Walk one deck order's tree; its sorted (actions, returns) leaves."""
        self.leaves = []
        self.walk(game.new_state(list(order)))
        return tuple(sorted(self.leaves))


def deal_key(order: Sequence[int]) -> tuple:
    """What matters of a deck order: each hand as a set, the stock card, the trump card."""
    return (frozenset(order[0:4:2]), frozenset(order[1:4:2]), order[4], order[5])


def test_orders_of_one_deal_play_the_same_tree_on_both_engines():
    order = (38, 37, 49, 50, 36, 51)  # AH QS to player 0, KH KS to player 1, QH, then AS
    same = [(49, 50, 38, 37, 36, 51), (38, 50, 49, 37, 36, 51), (49, 37, 38, 50, 36, 51)]
    assert {deal_key(o) for o in [order, *same]} == {deal_key(order)}
    trees = []
    for engine in ("compiled", "python"):
        game = make_game(2, "mini", engine=engine)
        tree = Tree()
        leaves = {tree.deal(game, o) for o in [order, *same]}
        assert len(leaves) == 1
        trees.append((leaves.pop(), tree.nodes // 4, tree.terminals // 4, tree.longest))
    assert trees[0] == trees[1]
    swapped = Tree()
    swapped.deal(make_game(2, "mini"), [SWAP_SUITS[c] for c in order])
    assert (swapped.nodes, swapped.terminals) == trees[0][1:3] == (957, 286)


@pytest.mark.slow
def test_the_whole_mini_game_tree():
    """The numbers RULES.md quotes ("Mini Koira"), on the compiled core."""
    game = make_game(2, "mini")
    tree = Tree()
    by_deal: dict[tuple, tuple] = {}
    for order in permutations(game.deck_cards):
        leaves = tree.deal(game, order)
        assert by_deal.setdefault(deal_key(order), leaves) == leaves
    assert len(by_deal) == 180
    canonical = {
        min(
            key,
            (
                frozenset(SWAP_SUITS[c] for c in key[0]),
                frozenset(SWAP_SUITS[c] for c in key[1]),
                SWAP_SUITS[key[2]],
                SWAP_SUITS[key[3]],
            ),
            key=repr,
        )
        for key in by_deal
    }
    assert len(canonical) == 90
    assert (tree.nodes, tree.terminals, tree.decisions, tree.choices) == (
        3_976_224,
        1_157_440,
        2_818_784,
        817_600,
    )
    assert (tree.longest, tree.most_choices) == (14, 10)
