"""The redraw's order (``engine.redraw_order``, RULES.md Dois point 7): it reads only the kinds
of the next deck, is uniform over the pool's orders for a random deck, and ``redraw_deck``
builds a deck for any wanted order, so ``dealing_decks`` deals every determinized hand after a
show."""

from __future__ import annotations

import itertools
import random

import pytest

from koira_env.games.dois.cards import (
    COPIES,
    DECK_SIZE,
    HAND_SIZE,
    NUM_KINDS,
    card_name,
    parse_deck,
)
from koira_env.games.dois.engine import (
    DECK_ORDERS,
    _orders,
    _rank,
    _unrank,
    dealing_decks,
    redraw_deck,
    redraw_order,
)
from koira_env.games.dois.game import make_game

# chi-square with 11 degrees of freedom: P(X > 31.26) = 0.001
CHI2_11_999 = 31.26


def random_pool(rng: random.Random, size: int) -> list[int]:
    """``size`` kinds drawn from the 64 play cards, as a hand and the undealt cards are."""
    cards = [k for k in range(NUM_KINDS) for _ in range(COPIES[k])]
    rng.shuffle(cards)
    return cards[:size]


def random_deck(rng: random.Random) -> list[int]:
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return deck


def chi_square(seen: list[int], expected: list[float]) -> float:
    return sum((s - e) ** 2 / e for s, e in zip(seen, expected, strict=True))


def test_ranks_number_every_order_of_a_multiset_once() -> None:
    for counts in ([2, 2, 1], [3, 0, 1, 2], [1, 1, 1, 1], [4]):
        kinds = [k for k, c in enumerate(counts) for _ in range(c)]
        orders = sorted(set(itertools.permutations(kinds)))
        assert _orders(counts) == len(orders)
        assert [_rank(o, counts) for o in orders] == list(range(len(orders)))
        assert [tuple(_unrank(r, counts)) for r in range(len(orders))] == orders
    assert DECK_ORDERS == _orders(COPIES) > 4 * 10**59


def test_redraw_order_reads_only_the_kinds_of_the_deck() -> None:
    """The deck written by names (each kind's copies renamed), its trump cards moved, or the
    pool in another order: the same order."""
    rng = random.Random(3)
    for _ in range(50):
        pool = random_pool(rng, 25)
        deck = random_deck(rng)
        order = redraw_order(pool, deck)
        assert sorted(order) == sorted(pool)
        assert redraw_order(pool, parse_deck([card_name(c) for c in deck])) == order
        plays = [c for c in deck if c < 64]
        moved = [*plays[:10], 67, 64, 66, 65, *plays[10:]]
        assert redraw_order(pool, moved) == order
        assert redraw_order(rng.sample(pool, len(pool)), deck) == order  # the pool's counts


def test_redraw_deck_draws_the_wanted_order() -> None:
    rng = random.Random(5)
    for trial in range(400):
        pool = random_pool(rng, (25, 38, 51)[trial % 3])
        rng.shuffle(pool)
        deck = redraw_deck(pool, rng)
        assert sorted(deck) == list(range(DECK_SIZE))
        assert redraw_order(sorted(pool), deck) == pool
    # the decks built for one order differ (a random deck among those that draw it)
    pool = random_pool(rng, 25)
    assert len({tuple(redraw_deck(pool, rng)) for _ in range(20)}) == 20


def test_redraw_order_is_uniform_for_random_decks() -> None:
    """Counted over random decks: every order of a small pool as often as the others, and
    each kind first in a real pool (13 and 12 cards) and in the hand drawn as often as its
    share. The rank of a random deck is uniform, so each order of a pool of ``orders`` orders
    has a chance within ``1 / DECK_ORDERS`` of ``1 / orders``: bounded here."""
    rng = random.Random(7)
    pool = [0, 0, 1, 4, 4, 11]  # 180 orders
    orders = _orders([2, 1, 0, 0, 2] + [0] * 6 + [1])
    seen = dict.fromkeys(set(itertools.permutations(pool)), 0)
    assert len(seen) == orders == 180
    draws = 180 * 40
    for _ in range(draws):
        seen[tuple(redraw_order(pool, random_deck(rng)))] += 1
    # 179 degrees of freedom: mean 179, sd 18.9; P(X > 250) < 0.001
    assert chi_square(list(seen.values()), [draws / orders] * orders) < 250
    pool = random_pool(rng, 25)
    share = [pool.count(k) for k in range(NUM_KINDS)]
    kinds = [k for k in range(NUM_KINDS) if share[k]]
    first = dict.fromkeys(kinds, 0)
    held = [0] * NUM_KINDS
    draws = 3000
    for _ in range(draws):
        order = redraw_order(pool, random_deck(rng))
        first[order[0]] += 1
        for k in order[:HAND_SIZE]:
            held[k] += 1
    expected = [draws * share[k] / len(pool) for k in kinds]
    assert chi_square([first[k] for k in kinds], expected) < CHI2_11_999
    for k in kinds:  # the hand holds 13/25 of each kind on average
        assert held[k] / draws == pytest.approx(share[k] * HAND_SIZE / len(pool), abs=0.08)
    # the bias bound: a pool of 38 (3 players) has at most this many orders
    assert _orders([4, 4] + [3] * 10) / DECK_ORDERS < 4e-26
    for size in (25, 38):
        pool = random_pool(rng, size)
        assert _orders([pool.count(k) for k in range(NUM_KINDS)]) <= _orders([4, 4] + [3] * 10)


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("n", [3, 4])
def test_dealing_decks_deal_every_determinized_hand_after_a_show(engine: str, n: int) -> None:
    """Determinizations of deals with a show, every one dealt by the decks ``dealing_decks``
    builds: the new decks give every hand its determinized cards and the same shows."""
    game = make_game(n, engine=engine)
    rng = random.Random(11)
    found = 0
    for seed in range(2000):
        state = game.new_state(seed=seed)
        if not state.shown:
            continue
        found += 1
        decks = state.deck[: state.decks_used * DECK_SIZE]
        for seat in range(n):
            sampled = state.determinize(seat, rng)
            new = dealing_decks(state, sampled, decks, rng)
            assert new is not None and len(new) == len(decks)
            again = game.new_state(new, seed=seed)
            assert again.decks_used == state.decks_used
            assert [list(h) for h in again.hands] == [list(h) for h in sampled.hands]
            assert list(again.remains) == list(sampled.remains)
            assert again.view(seat).shown == state.view(seat).shown
        if found == 25:
            break
    assert found == 25
