"""The compiled deals against the Python ones they replace: many shuffles seeded at once
(``_shuffle.shuffle_many``), shuffles drawn in C from a ``random.Random``'s own generator and
``core.deal.constrained_deal`` in C (``_deal``: the compiled cores' ``determinize``), a hand's
deck (``hand_deck_into``), a core's next deal (``deal_next``, Red7 and Teka) against
``Game.new_state`` and a core's result (``result_into``) against ``returns()`` and
``outcome().places``. ``tests/test_vector_env.py`` checks the batched env's whole loop
against the reference engine."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

import koira_env
from koira_env.core import _batch, _deal, deal
from koira_env.core._shuffle import (
    SearchSeed,
    _ahead_orders,
    _hand_deck,
    _random_draws,
    _shuffle_ahead,
    _shuffle_many,
)
from koira_env.core.deck import hand_deck
from koira_env.core.game import Game, python_shuffled, shuffled
from koira_env.core.vector_env import VectorEnv, game_seed


def seeds(count: int, rng: random.Random) -> list[Any]:
    """The vector env's game seeds, and seeds of every other kind ``shuffled`` takes (those the
    C generator does not seed go to ``random.Random``)."""
    found: list[Any] = [
        game_seed(rng.getrandbits(63), rng.randrange(256), rng.randrange(4)) for _ in range(count)
    ]
    found += [0, 1, 2**32, 2**63 - 1, 2**64 - 1, 2**64, -5, 2**2047, 2**3000, rng.getrandbits(60)]
    found += ["", "7/1", "é/ü", "x" * 191, "x" * 193, b"seed", bytearray(b"12/3"), b"\0\0ab"]
    rng.shuffle(found)
    return found


@pytest.mark.parametrize("size", [0, 1, 2, 49, 52, 64, 300])
def test_many_shuffles_at_once_are_each_seeds_shuffle(size: int) -> None:
    """``shuffle_many`` (32 generators seeded side by side) gives every seed's ``shuffled``
    order, for any number of seeds (full and partial groups of 32, lanes left idle by a
    group of more seeds before) and any size (a shuffle of 300 draws beyond the words a
    lane's generator copies first, and beyond the first twist of the 624)."""
    rng = random.Random(size)
    pool = seeds(600, rng)
    for count in (0, 1, 2, 7, 31, 32, 33, 64, 65, 3, len(pool)):
        chosen = pool[:count]
        assert _shuffle_many(size, chosen) == [shuffled(size, s) for s in chosen], count
    for seed in pool[:60]:
        assert shuffled(size, seed) == python_shuffled(size, seed)


def test_orders_shuffled_ahead_are_the_seeds_own_and_kept_within_bounds() -> None:
    """``shuffle_ahead`` keeps each seed's ``shuffled`` order for the later deck a core deals
    from that seed (``hand_deck_into``), which takes it (once); a deck of another size
    shuffles afresh; and the orders kept never pass their bound (4,096), the oldest dropped
    all at once."""
    rng = random.Random(4)
    pool = [
        f"{game_seed(rng.getrandbits(40), rng.randrange(256), rng.randrange(9))}/{hand}"
        for hand in rng.choices(range(1, 6), k=90)
    ]
    _shuffle_ahead(52, pool)
    kept = _ahead_orders()
    assert all(kept[seed] == python_shuffled(52, seed) for seed in pool)
    for size, chosen in ((52, pool[:40]), (49, pool[40:80])):  # 49: kept for 52, shuffled afresh
        for seed in chosen:
            base, _, hand = seed.rpartition("/")
            ours: list[int] = []
            theirs: list[int] = []
            assert _hand_deck(ours, base, int(hand), size) == python_shuffled(size, seed)
            hand_deck(theirs, base, int(hand), size)
            assert ours == theirs  # every deck dealt so far
            assert seed not in _ahead_orders()  # taken
    for size in (52, 49):
        for start in range(0, 9000, 1000):
            _shuffle_ahead(size, [f"{start + k}/7" for k in range(1000)])
            assert len(_ahead_orders()) <= 4096
    orders = _ahead_orders()
    assert all(order == python_shuffled(len(order), seed) for seed, order in orders.items())


def test_shuffles_drawn_in_c_from_a_random_are_its_own() -> None:
    """``_random_draws`` (a ``Random``'s state loaded, shuffled from in C, saved back) gives
    ``Random.shuffle``'s orders and leaves the generator where ``shuffle`` leaves it, from
    any point of its stream: fresh, mid-way, across the state's twists, after ``gauss``."""
    rng = random.Random(5)
    for trial in range(200):
        ours = random.Random(rng.getrandbits(rng.choice([8, 64, 300])))
        for _ in range(rng.randrange(700)):
            ours.getrandbits(32)
        if trial % 7 == 0:
            ours.gauss(0.0, 1.0)  # a second normal deviate waits in the state
        theirs = random.Random()
        theirs.setstate(ours.getstate())
        lengths = [rng.choice([0, 1, 2, rng.randrange(257)]) for _ in range(rng.randrange(1, 9))]
        expected = []
        for m in lengths:
            order = list(range(m))
            theirs.shuffle(order)
            expected.append(order)
        assert _random_draws(ours, lengths, copy=trial % 2 == 1) == expected
        assert ours.getstate() == theirs.getstate()
        assert ours.gauss(0.0, 1.0) == theirs.gauss(0.0, 1.0)


def _deal_problem(rng: random.Random) -> tuple[Any, ...]:
    """Random ``constrained_deal`` arguments: cards in any order, seats by any ids, rooms that
    add up, forbidden cards and needs dense enough that plain shuffles often fail, some with
    no deal at all (those few cards: the backtracking proves it by trying every deal)."""
    density = rng.choice([0.0, 0.2, 0.5, 0.8])
    count = rng.randrange(0, 53 if density < 0.5 else 13)  # a dense problem may have no deal
    cards = rng.sample(range(52), count)
    seats = rng.sample(range(8), rng.randrange(1, 6))
    cuts = sorted(rng.choices(range(count + 1), k=len(seats) - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, count], strict=True)]
    room = dict(zip(seats, sizes, strict=True))
    forbidden = {p: {c for c in cards if rng.random() < density} for p in seats}
    needs = [
        (rng.choice(seats), frozenset(rng.sample(range(52), rng.randrange(1, 5))))
        for _ in range(rng.choice([0, 0, 1, 2, 3]))
    ]
    return cards, seats, forbidden, room, needs


def test_the_constrained_deal_in_c_is_the_reference_deal() -> None:
    """``_deal.constrained_deal`` returns what ``core.deal.constrained_deal`` returns (a deal
    or ``None``) and leaves the generator where it leaves it: plain shuffles that fit, needs
    met by every pick order, clashing picks, backtracking, no deal; beyond what C holds (a
    card id over 63, a subclass of ``Random``) the reference deals."""
    rng = random.Random(9)
    outcomes = set()
    for trial in range(3000):
        cards, seats, forbidden, room, needs = _deal_problem(rng)
        if trial % 500 == 0:
            cards = [*cards[:-1], 70] if cards else cards
        theirs, ours = random.Random(trial), random.Random(trial)
        expected = deal.constrained_deal(cards, seats, forbidden, dict(room), theirs, needs)
        got = _deal.constrained_deal(cards, seats, forbidden, dict(room), ours, needs)
        assert got == expected and ours.getstate() == theirs.getstate(), trial
        outcomes.add((expected is None, bool(needs)))
    assert outcomes == {(True, True), (True, False), (False, True), (False, False)}

    class Other(random.Random):
        """A generator C does not follow."""

    cards, seats, forbidden, room, needs = _deal_problem(random.Random(4))
    theirs, ours = random.Random(1), Other(1)
    assert _deal.constrained_deal(cards, seats, forbidden, dict(room), ours, needs) == (
        deal.constrained_deal(cards, seats, forbidden, dict(room), theirs, needs)
    )


def test_a_hand_deck_in_c_is_hand_deck() -> None:
    """``hand_deck_into`` reads a dealt deck and appends the missing ones as ``hand_deck``."""
    rng = random.Random(3)
    for trial in range(300):
        size = rng.choice([4, 49, 52])
        seed = rng.choice(
            [rng.getrandbits(63), f"{trial}/{rng.randrange(9)}:2", SearchSeed(rng.getrandbits(64))]
        )
        given = [c for _ in range(rng.randrange(3)) for c in rng.sample(range(size), size)]
        hand = rng.randrange(4)
        ours, theirs = list(given), list(given)
        assert _hand_deck(ours, seed, hand, size) == hand_deck(theirs, seed, hand, size)
        assert ours == theirs


def test_a_search_seed_deals_every_order_alike_and_each_deck_for_its_number() -> None:
    """``SearchSeed`` (the hands to come in a search's working state): each deck a
    permutation, the same for the same value and number, others for other numbers, and
    every card in every place about equally often."""
    seed = SearchSeed(7)
    assert seed.deck_for_hand(3, 52) == SearchSeed(7).deck_for_hand(3, 52)
    assert seed.deck_for_hand(3, 52) != seed.deck_for_hand(4, 52)
    assert seed.deck_for_hand(0, 52) != SearchSeed(8).deck_for_hand(0, 52)
    assert (
        hand_deck([], seed, 2, 16)[:] == seed.deck_for_hand(2, 16) and repr(seed) == "SearchSeed(7)"
    )
    first = [0] * 4
    for value in range(4000):
        deck = SearchSeed(value).deck_for_hand(value % 5, 4)
        assert sorted(deck) == [0, 1, 2, 3]
        first[deck[0]] += 1
    assert all(900 < count < 1100 for count in first), first
    with pytest.raises(ValueError, match=r"size must be in 1\.\.256"):
        seed.deck_for_hand(0, 0)


# a rule set of each kind per table size: every way Red7 and Teka deal and end
DEALERS: list[tuple[str, int, dict[str, Any]]] = [
    *[("red7", n, {}) for n in (2, 3, 4)],
    *[("red7", n, {"places": "elimination", "first_player": "player_0"}) for n in (2, 3, 4)],
    *[("red7", n, {"scoring": "points", "canvas_draw": True, "target": 6}) for n in (2, 3, 4)],
    ("red7", 4, {"scoring": "points", "max_rounds": 2}),
    ("teka", 4, {}),
    ("teka", 4, {"no_honours": "ask"}),
    ("teka", 4, {"no_honours": "keep", "single_hand": True}),
    ("teka", 4, {"failed_bid": "double", "max_hands": 2}),
]


def dealer_id(value: Any) -> str:
    return "-".join(map(str, value.values())) if isinstance(value, dict) else str(value)


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything a compiled state holds (its struct's bytes, deck, seed, history, log) and
    what every seat observes."""
    _restore, (cls, game, data, deck, seed, history, log, _layout) = state.__reduce__()
    seen = [state.game.observation(state, seat).tobytes() for seat in range(state.n)]
    return cls, game, data, deck, seed, history, log, seen, state.legal_actions()


@pytest.mark.parametrize(("game", "players", "options"), DEALERS, ids=dealer_id)
def test_the_c_deal_is_new_state_for_thousands_of_seeds(game, players, options) -> None:
    """A core's ``deal_next(seed)`` is ``game.new_state(seed=seed)``, byte for byte."""
    built = koira_env.make_game(game, players, **options)
    assert type(built).new_state is Game.new_state  # the deal the vector env replaces
    rng = random.Random(players)
    state = built.new_state(seed=1)
    count = 2000 if options == {} else 400
    for _ in range(count):
        seed = game_seed(rng.getrandbits(63), rng.randrange(256), 1 + rng.randrange(50))
        fresh = _batch.next_deal(state, seed)
        assert fresh is not state and snapshot(fresh) == snapshot(built.new_state(seed=seed))
        state = fresh


@pytest.mark.parametrize("game", ["koira", "matapesa", "whist22", "kop", "dois"])
def test_other_cores_leave_the_deal_to_python(game: str) -> None:
    """A core that writes no ``deal_next`` says so (the vector env then asks the game)."""
    built = koira_env.make_game(game)
    assert _batch.next_deal(built.new_state(seed=1), "1/2:3") is None


@pytest.mark.parametrize(("game", "players", "options"), DEALERS, ids=dealer_id)
def test_the_c_result_is_returns_and_places(game, players, options) -> None:
    """``result_into`` of a finished game: ``returns()`` as float32 and ``outcome().places``."""
    built = koira_env.make_game(game, players, **options)
    rng = random.Random(7)
    finished = 0
    for g in range(150):
        state = built.new_state(seed=g)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        if state.truncated:
            continue
        finished += 1
        returns, places = _batch.result(state)
        assert returns == np.float32(state.returns()).tolist()
        assert places == list(state.outcome().places)
    assert finished > 0  # max_rounds=2 truncates most points games


def test_the_default_result_reads_python() -> None:
    """The base's ``result_into`` (a core without its own) reads ``returns()`` and the outcome."""
    built = koira_env.make_game("kop", single_hand=True)
    state = built.new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    returns, places = _batch.result(state)
    assert returns == np.float32(state.returns()).tolist()
    assert places == list(state.outcome().places)
    with pytest.raises(ValueError, match="finished game"):
        _batch.result(built.new_state(seed=5))


def counted_red7(players: int) -> Any:
    """A Red7 game that deals through its own ``new_state``, counting the deals."""
    built = koira_env.make_game("red7", players)

    class Counted(type(built)):  # type: ignore[misc]
        deals = 0

        def new_state(self, deck=None, *, seed=None, log=False):  # type: ignore[no-untyped-def]
            Counted.deals += 1
            return super().new_state(deck, seed=seed, log=log)

    return Counted(built.rules)


def test_a_game_with_its_own_new_state_deals_through_it() -> None:
    """A game whose ``new_state`` is not ``Game.new_state`` keeps it: the vector env's C deal
    is only for the deal it equals; the results are the same bytes either way."""
    counted = counted_red7(3)
    envs = [VectorEnv(counted, 8), koira_env.vector_env(8, 3, game="red7")]
    first = [venv.reset(seed=5) for venv in envs]
    assert all(np.array_equal(a, b) for a, b in zip(*first, strict=True))
    rng = random.Random(2)
    mask, ended = first[0][1], 0
    for _ in range(120):
        actions = np.array([rng.choice(np.flatnonzero(r).tolist()) for r in mask], np.int64)
        ours, theirs = (venv.step(actions) for venv in envs)
        for a, b in zip(ours[:6], theirs[:6], strict=True):
            assert a.tobytes() == b.tobytes()
        mask, ended = ours[1], ended + int(ours[4].sum() + ours[5].sum())
    assert ended > 0 and type(counted).deals == 8 + ended


def test_pickled_c_deals_restore() -> None:
    """A C-dealt state pickles and restores as a dealt one."""
    built = koira_env.make_game("red7", 4)
    fresh = _batch.next_deal(built.new_state(seed=1), "9/3:2")
    again = pickle.loads(pickle.dumps(fresh))
    assert snapshot(again)[2:] == snapshot(fresh)[2:]
