"""The compiled Red7 core against the pure-Python reference engine: the same games, step by step.

Both engines play the same deals with the same random choices at 2, 3 and 4 players under
option mixes that use every option value. At every step the test compares whose turn it is,
the legal turns, the observation bytes of every seat (the compiled writer against the
reference encoder), every seat's view, the returns, the history and the event log; at one
random step of every third game every attribute of the reference state, illegal and
non-integer actions (same message, nothing changed), clones, pickling and determinized deals
(the same ``rng`` gives the same deal); at the end the outcome and the game record. Fixed
decks, the ported card functions (``cards.py``) and the compiled shuffle are compared too.
"""

from __future__ import annotations

import functools
import pickle
import random
from typing import Any

import pytest
from helpers import play_budgeted, play_cases, random_game, run_chunks, try_illegal
from lockstep import (
    assert_envs_play_alike,
    assert_games_and_states_pickle,
    assert_records_replay,
    case_id,
    observations,
    option_values,
    play_quickly,
)
from lockstep import check_determinize as shared_check_determinize
from red7_scenario import deal, turn

import koira_env
from koira_env.core import game as core_game
from koira_env.core.game import IllegalActionError, python_shuffled, shuffled
from koira_env.core.record import game_record
from koira_env.games.red7 import _compiled
from koira_env.games.red7 import cards as ref_cards
from koira_env.games.red7.engine import NUM_ACTIONS, PASS
from koira_env.games.red7.engine import State as ReferenceState
from koira_env.games.red7.game import Red7Game, make_game
from koira_env.games.red7.rules import Rules, make_rules

# Option mixes played at every table size; together they use every value of every option
# (checked below). target=5 ends points games after a round or two, max_rounds=2 truncates.
MIXES: list[dict[str, Any]] = [
    {},
    {"scoring": "points", "canvas_draw": True},
    {"places": "elimination"},
    {"first_player": "player_0", "canvas_draw": True},
    {"scoring": "points", "target": 5, "first_player": "player_0"},
    {"scoring": "points", "max_rounds": 2, "places": "elimination"},
    {"scoring": "points", "canvas_draw": True, "places": "elimination", "target": 12},
]
CASES = [(n, mix) for n in (2, 3, 4) for mix in MIXES]
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games (a basic game is 6-12 turns, an advanced one 30-80): about 5,500 games and
# 70,000 compared steps over the 21 cases, in 15-20 s.
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 80, 600, 3_000
SKIP = ("cached_legal", "game")  # the cache is the reference's own; the game by its rules


def games(n: int, mix: dict[str, Any]) -> tuple[Red7Game, Red7Game]:
    """The reference game and the compiled game of one rule set."""
    return make_game(n, engine="python", **mix), make_game(n, engine="compiled", **mix)


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules)."""
    names = [name for name in ReferenceState.__slots__ if name not in SKIP]
    return (*(repr(getattr(s, name)) for name in names), repr(s.game.rules), repr(s.leader()))


def compare(py: Red7Game, co: Red7Game, ref: Any, com: Any) -> None:
    """What any seat or the env can read, on both engines."""
    assert com.current == ref.current and com.is_terminal == ref.is_terminal
    assert com.truncated == ref.truncated and com.returns() == ref.returns()
    assert com.outcome() == ref.outcome()
    assert com.history == ref.history and com.log == ref.log
    assert com.leader() == ref.leader()
    assert [com.opponent_keys(p) for p in range(ref.n)] == [
        ref.opponent_keys(p) for p in range(ref.n)
    ]
    assert observations(co, com) == observations(py, ref), ref.actions_taken
    for seat in range(-1, ref.n):  # -1: the last seat, as lists index (render's current)
        assert com.view(seat) == ref.view(seat)
    legal = ref.legal_actions()
    assert com.legal_actions() == legal
    assert co.action_mask(legal).tobytes() == py.action_mask(legal).tobytes()


def play_out(py: Red7Game, co: Red7Game, ref: Any, com: Any, rng: random.Random) -> None:
    """Play both to the end with the same random choices, comparing every step."""
    while not ref.is_terminal:
        compare(py, co, ref, com)
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        com.apply(action)
    compare(py, co, ref, com)
    assert snapshot(com) == snapshot(ref)


def check_clone(py: Red7Game, co: Red7Game, ref: Any, com: Any, seed: int) -> None:
    """A clone plays on like the reference's clone and leaves the original untouched; a
    pickled state is the same state."""
    before = snapshot(com)
    play_out(py, co, ref.clone(), com.clone(), random.Random(seed))
    assert snapshot(com) == before
    copy = pickle.loads(pickle.dumps(com))
    assert snapshot(copy) == before and copy.game.rules == com.game.rules
    assert observations(co, copy) == observations(co, com)


def check_determinize(py: Red7Game, co: Red7Game, ref: Any, com: Any, seed: int) -> None:
    """``lockstep.check_determinize``, the deals then played on by this game's ``play_out``."""
    a, b = shared_check_determinize(None, snapshot, py, co, ref, com, seed, play=False)
    play_out(py, co, a, b, random.Random(seed))


def play_both(pair: tuple[Red7Game, Red7Game], seed: int, deep: bool = True) -> int:
    """One game on both engines, compared at every step; returns its length. ``deep`` also
    checks every attribute, illegal actions, clones, pickling and determinized deals at one
    random step."""
    py, co = pair
    ref = py.new_state(seed=seed, log=True)
    com = co.new_state(seed=seed, log=True)
    rng = random.Random(seed)
    probe = rng.randrange(12)  # the step that also checks clones, deals and errors
    while True:
        compare(py, co, ref, com)
        assert com.deck == ref.deck
        if ref.is_terminal:
            break
        if deep and ref.actions_taken == probe:
            assert snapshot(com) == snapshot(ref)
            try_illegal(ref, com, rng, snapshot)
            check_clone(py, co, ref, com, seed)
            check_determinize(py, co, ref, com, seed)
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        com.apply(action)
    assert snapshot(com) == snapshot(ref)
    assert game_record(com) == game_record(ref)
    with pytest.raises(IllegalActionError, match="the game is over"):
        com.apply(PASS)
    return ref.actions_taken


def test_the_cases_play_every_option_value():
    played = [make_rules(n, **mix) for n, mix in CASES]
    others = option_values(Rules, played)
    assert set(others) == {"num_players", "target", "max_rounds"}
    assert all(len(values) >= 2 for _, values, _ in others.values())  # the default and others


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_both_engines_play_the_same_games(case: tuple[int, dict[str, Any]]) -> None:
    n, mix = case
    pair = games(n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


def test_the_differential_games_reach_every_ending():
    """Truncation, points targets, the deck running out, eliminations and draws all happen
    in the compared games (so the paths above are exercised)."""
    seen: set[str] = set()
    for n, mix in CASES:
        game = make_game(n, engine="compiled", **mix)
        for seed in range(20):
            state = random_game(game, seed, log=True)
            seen.update(event["type"] for event in state.log)
            seen.update("drew" for event in state.log if "drew" in event)
            if state.truncated:
                seen.add("truncated state")
    assert {"deal", "play", "out", "round_won", "game_over", "truncated", "drew"} <= seen


@pytest.mark.parametrize("n", [2, 3, 4])
def test_fixed_decks_deal_and_play_the_same(n: int) -> None:
    """``new_state(deck=...)``: one round's deck, several rounds' decks (points), by name."""
    for k, mix in enumerate([{}, {"scoring": "points", "canvas_draw": True}]):
        py, co = games(n, mix)
        for seed in range(30):
            rng = random.Random(seed)
            decks = 1 if not mix else 1 + seed % 3
            deck: list[Any] = []
            for _ in range(decks):
                order = list(range(ref_cards.NUM_CARDS))
                rng.shuffle(order)
                deck += [ref_cards.card_name(c) for c in order] if seed % 2 else order
            ref = py.new_state(deck, seed=seed + k, log=True)
            com = co.new_state(deck, seed=seed + k, log=True)
            play_out(py, co, ref, com, rng)
            assert com.deck == ref.deck and game_record(com) == game_record(ref)


def test_scenario_deals_play_the_same():
    """The rules tests' hand-made deals (red7_scenario) on both engines."""
    for engine in ("python", "compiled"):
        state = deal(["R6 G2 G4 V1 Y5 B7 I3", ""], "O5 R5", engine=engine, log=True)
        assert state.current == 0 and turn("R6") in state.legal_actions()
        state.apply(turn("G2", "G4"))
        state.apply(PASS)
        if engine == "python":
            expected = snapshot(state)
        else:
            assert snapshot(state) == expected


def test_records_replay_on_both_engines():
    assert_records_replay(games, CASES[::3], 4)


def test_the_default_env_plays_as_the_reference_env():
    """``koira_env.make("red7")`` (compiled by default) and ``engine="python"`` give the same
    observations, masks, rewards, ends and infos for the same actions."""
    for n, mix in [(2, {}), (3, {"places": "elimination"}), (4, MIXES[1])]:
        envs = [koira_env.make("red7", n, **mix), koira_env.make("red7", n, engine="python", **mix)]
        assert envs[0].game.engine == "compiled" and envs[1].game.engine == "python"
        assert_envs_play_alike(envs, range(8))


def test_the_compiled_state_refuses_bad_seats_and_actions_and_reads_as_the_reference():
    """``observe_into`` and the other compiled-core checks are in tests/test_games.py."""
    game = make_game(3, scoring="points", engine="compiled")
    state = game.new_state(seed=3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(-4)
    with pytest.raises(IndexError, match="out of range"):
        game.action_mask([NUM_ACTIONS])
    # the reference encoder reads the compiled state's attributes too: the same bytes
    reference = make_game(3, scoring="points", engine="python")
    for seat in range(3):
        expected = reference.observation(state, seat).tobytes()
        assert game.observation(state, seat).tobytes() == expected


def test_games_and_states_pickle():
    assert_games_and_states_pickle(make_game, snapshot, 4, canvas_draw=True)


# ------------------------------------------------------------------ the ported card functions
def random_masks(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    masks = [0, ref_cards.ALL, *(1 << c for c in range(ref_cards.NUM_CARDS))]
    for _ in range(count):
        size = rng.randrange(1, 16)
        masks.append(sum(1 << c for c in rng.sample(range(ref_cards.NUM_CARDS), size)))
    return masks


def test_the_card_functions_are_cards_pys():
    for mask in random_masks(3000, 1):
        keys = ref_cards.rule_keys(mask)
        assert _compiled.py_rule_keys(mask) == keys, mask
        groups = ref_cards.groups_of(mask)
        assert _compiled.py_groups_of(mask) == groups, mask
        for rule in range(7):
            assert _compiled.py_counted(mask, rule) == ref_cards.counted(mask, rule), mask
        if mask:
            for card in ref_cards.cards_of(ref_cards.ALL & ~mask)[::5]:
                expected = ref_cards.keys_plus(keys, groups, card)
                assert _compiled.py_keys_plus(keys, groups, card) == expected
                assert expected == ref_cards.rule_keys(mask | 1 << card)


# ------------------------------------------------------------------ the compiled shuffle
def test_the_compiled_shuffle_is_randoms_for_every_seed():
    """``core.game.shuffled`` (compiled: a C copy of CPython's generator for int and string
    seeds) against ``random.Random(seed).shuffle`` itself."""
    assert shuffled is not python_shuffled  # the compiled one is built in this checkout
    seeds: list[Any] = [*range(-30, 1500), 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1]
    seeds += [2**64, 2**64 + 5, 2**256, 2**2047, 2**2048, 2**5000, -(10**30)]
    seeds += [True, False, 2.5, -0.0, "", "7/3", "0/0:12", "é/1", "x" * 300, b"seed", b""]
    seeds += [bytearray(b"12/3"), *(f"{random.Random(k).getrandbits(63)}/{k}" for k in range(500))]
    for seed in seeds:
        for size in (0, 1, 2, 49, 52, 64, 65, 300):
            order = list(range(size))
            random.Random(seed).shuffle(order)
            assert shuffled(size, seed) == order == python_shuffled(size, seed), (seed, size)
    with pytest.raises(ValueError, match="size"):
        shuffled(-1, 0)


def test_the_deck_of_every_round_is_the_suites():
    """Later rounds of a points game are dealt from ``f"{seed}/{round}"``: the state's deck
    is ``core.game.deck_for_hand``'s decks, on both engines."""
    for engine in ("compiled", "python"):
        game = make_game(2, scoring="points", engine=engine, target=1000, max_rounds=10)
        state = game.new_state(seed=77)
        rng = random.Random(0)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        assert state.round >= 1
        expected = []
        for k in range(state.round + 1):
            expected += core_game.deck_for_hand(77, k, ref_cards.NUM_CARDS)
        assert state.deck == expected


# ------------------------------------------------------------------ engine choice
def test_each_engine_makes_its_own_states():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    compiled = make_game(3, engine="compiled", places="elimination")
    python = make_game(3, engine="python", places="elimination")
    assert isinstance(compiled.new_state(seed=1), _compiled.State)
    assert isinstance(python.new_state(seed=1), ReferenceState)


# ------------------------------------------------------------------ many games
SLOW_GAMES = 200_000
SLOW_CHUNKS = 40


def _chunk(chunk: int, chunks: int, total: int) -> tuple[int, int]:
    """Play games ``chunk, chunk + chunks, ...`` below ``total``, cycling through the cases:
    one in 50 as fully as the default run (``play_both``), the rest comparing the turns,
    legal sets and observations of the actor, and the whole state and log at the end."""
    return play_cases(chunk, chunks, total, CASES, games, _play_one)


def _play_one(pair: tuple[Red7Game, Red7Game], g: int) -> int:
    return play_both(pair, g) if g % 50 == 0 else play_quickly(snapshot, pair, g)


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_two_hundred_thousand_games_play_the_same():
    """200,000 games in chunks over every core (a few CPU-minutes)."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
