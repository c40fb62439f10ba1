"""The compiled Mätäpesä core against the pure-Python reference engine: the same games, step by
step.

Both engines play the same deals with the same random choices at every table size (3-8
players) under option mixes that use every option value. At every step the test compares whose
turn it is, the legal ranks and the mask, the observation bytes of every seat (the compiled
writer against the reference encoder), the views (every seat's in every third game, the
actor's in the others: the reference's views cost most of a compared step), the returns, the
history and the event log; at one random step of every third game every attribute of the
reference state, illegal and non-integer actions (same message, nothing changed), clones,
pickling and determinized deals (the same ``rng`` gives the same deal); at the end the outcome,
the whole state and the game record.
"""

from __future__ import annotations

import functools
import pickle
import random
from typing import Any

import pytest
from helpers import play_budgeted, play_cases, run_chunks, try_illegal
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

import koira_env
from koira_env.cards import NUM_CARDS, card_name
from koira_env.core.game import IllegalActionError
from koira_env.core.record import game_record
from koira_env.core.state import EngineState
from koira_env.games.matapesa import _compiled
from koira_env.games.matapesa.engine import NUM_RANKS
from koira_env.games.matapesa.engine import State as ReferenceState
from koira_env.games.matapesa.game import MatapesaGame, make_game
from koira_env.games.matapesa.rules import Rules, make_rules

# Option mixes played at every table size; together they use every value of every option
# (checked below).
MIXES: list[dict[str, Any]] = [
    {},
    {"follow": "previous"},
    {"lowest_anytime": False, "tie_winner": "first"},
    {"follow": "previous", "lowest_anytime": False, "tie_winner": "first"},
]
# smaller decks (the deck options), mini Mätäpesä first
DECKS: list[tuple[int, dict[str, Any]]] = [
    (3, {"deck_ranks": 3, "deck_suits": "HS"}),
    (4, {"deck_ranks": 5, "deck_suits": "CDHS", "follow": "previous"}),
    (5, {"deck_ranks": 13, "deck_suits": "D", "lowest_anytime": False}),
    (3, {"deck_ranks": 2, "deck_suits": "CHS", "tie_winner": "first"}),
]
CASES = [(n, mix) for n in range(3, 9) for mix in MIXES] + DECKS
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games (a game is 48-52 turns, one card a turn): about 2,000 games and 96,000
# compared steps over the 24 cases, in about 15 s of CPU time.
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 40, 200, 4_000
SKIP = ("cached_legal", "game")  # the cache is the reference's own; the game by its rules
SLOTS = [name for name in (*EngineState.__slots__, *ReferenceState.__slots__) if name not in SKIP]


def games(n: int, mix: dict[str, Any]) -> tuple[MatapesaGame, MatapesaGame]:
    """The reference game and the compiled game of one rule set."""
    return make_game(n, engine="python", **mix), make_game(n, engine="compiled", **mix)


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules), each
    as its repr (so the types must match too)."""
    return (*(repr(getattr(s, name)) for name in SLOTS), repr(s.game.rules), repr(s.is_terminal))


def compare(
    py: MatapesaGame, co: MatapesaGame, ref: Any, com: Any, every_view: bool = True
) -> None:
    """What any seat or the env can read, on both engines: every seat's observation, and
    every seat's view (``every_view``) or the actor's (the reference's views cost most of a
    compared step)."""
    assert com.current == ref.current and com.is_terminal == ref.is_terminal
    assert com.truncated == ref.truncated and com.returns() == ref.returns()
    assert com.outcome() == ref.outcome()
    assert com.history == ref.history and com.log == ref.log
    assert com.actions_taken == ref.actions_taken
    assert observations(co, com) == observations(py, ref), ref.actions_taken
    for seat in range(ref.n) if every_view else [ref.current]:
        assert com.view(seat) == ref.view(seat)
    legal = ref.legal_actions()
    assert com.legal_actions() == legal
    assert co.action_mask(legal).tobytes() == py.action_mask(legal).tobytes()


def play_out(py: MatapesaGame, co: MatapesaGame, ref: Any, com: Any, rng: random.Random) -> None:
    """Play both to the end with the same random choices, comparing every step (the actor's
    view; a deep game's main line compares every seat's)."""
    while not ref.is_terminal:
        compare(py, co, ref, com, every_view=False)
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        com.apply(action)
    compare(py, co, ref, com)
    assert snapshot(com) == snapshot(ref)


def check_clone(py: MatapesaGame, co: MatapesaGame, ref: Any, com: Any, seed: int) -> None:
    """A clone plays on like the reference's clone and leaves the original untouched; a
    pickled state is the same state."""
    before = snapshot(com)
    play_out(py, co, ref.clone(), com.clone(), random.Random(seed))
    assert snapshot(com) == before
    copy = pickle.loads(pickle.dumps(com))
    assert snapshot(copy) == before and copy.game.rules == com.game.rules
    assert observations(co, copy) == observations(co, com)
    play_out(py, co, ref.clone(), copy, random.Random(seed + 1))


def check_determinize(py: MatapesaGame, co: MatapesaGame, ref: Any, com: Any, seed: int) -> None:
    """``lockstep.check_determinize``, the deals then played on by this game's ``play_out``."""
    a, b = shared_check_determinize(None, snapshot, py, co, ref, com, seed, play=False)
    play_out(py, co, a, b, random.Random(seed))


def play_both(pair: tuple[MatapesaGame, MatapesaGame], seed: int, deep: bool = True) -> int:
    """One game on both engines, compared at every step; returns its length. ``deep`` also
    compares every seat's view at every step, and every attribute, illegal actions, clones,
    pickling and determinized deals at one random step."""
    py, co = pair
    ref = py.new_state(seed=seed, log=True)
    com = co.new_state(seed=seed, log=True)
    rng = random.Random(seed)
    probe = rng.randrange(py.num_players * py.num_tricks)  # clones, deals and errors here
    assert com.deck == ref.deck
    while True:
        compare(py, co, ref, com, deep)
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
        com.apply(0)
    assert snapshot(com) == snapshot(ref)
    return ref.actions_taken


def test_the_cases_play_every_option_value():
    """Every value of every rule option, every table size; of the deck options (13 ranks, 15
    suit sets) the full deck and three smaller ones."""
    played = [make_rules(n, **mix) for n, mix in CASES]
    others = option_values(Rules, played, own=("deck_ranks", "deck_suits"))
    assert set(others) == {"num_players", "deck_ranks", "deck_suits"}
    assert others["num_players"][1] == set(range(3, 9))
    for name in ("deck_ranks", "deck_suits"):
        value, values, _ = others[name]
        assert value in values and len(values) >= 4, name


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_both_engines_play_the_same_games(case: tuple[int, dict[str, Any]]) -> None:
    n, mix = case
    pair = games(n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


@pytest.mark.parametrize("case", [(4, MIXES[0]), (6, MIXES[3]), DECKS[0], DECKS[2]], ids=case_id)
def test_every_state_determinizes_the_same(case: tuple[int, dict[str, Any]]) -> None:
    """At every state of a few games (late ones too, where the plain shuffles fail and the
    constrained deal backtracks), both engines deal the same for the mover and for no seat."""
    py, co = games(*case)
    for seed in range(3):
        ref, com = py.new_state(seed=seed), co.new_state(seed=seed)
        rng = random.Random(seed)
        while True:
            for seat in (ref.current, -1):
                rngs = random.Random(seed + seat), random.Random(seed + seat)
                a, b = ref.determinize(seat, rngs[0]), com.determinize(seat, rngs[1])
                assert bytes(b.loc) == bytes(a.loc)
                assert rngs[0].random() == rngs[1].random()
            if ref.is_terminal:
                break
            action = rng.choice(ref.legal_actions())
            ref.apply(action)
            com.apply(action)


@pytest.mark.parametrize("n", range(3, 9))
def test_fixed_decks_deal_and_play_the_same(n: int) -> None:
    """``new_state(deck=...)``: a deck by ids and by names."""
    py, co = games(n, MIXES[n % len(MIXES)])
    for seed in range(10):
        rng = random.Random(seed)
        order = list(range(NUM_CARDS))
        rng.shuffle(order)
        deck: list[Any] = [card_name(c) for c in order] if seed % 2 else order
        ref = py.new_state(deck, seed=seed, log=True)
        com = co.new_state(deck, seed=seed, log=True)
        play_out(py, co, ref, com, rng)
        assert com.deck == ref.deck == order
        assert game_record(com) == game_record(ref)


def test_records_replay_on_both_engines():
    assert_records_replay(games, CASES[::5], 3)


def test_the_default_env_plays_as_the_reference_env():
    """``koira_env.make("matapesa")`` (compiled by default) and ``engine="python"`` give the
    same observations, masks, rewards, ends and infos for the same actions."""
    for n, mix in [(3, {}), (4, MIXES[2]), (8, MIXES[3])]:
        envs = [
            koira_env.make("matapesa", n, **mix),
            koira_env.make("matapesa", n, engine="python", **mix),
        ]
        assert envs[0].game.engine == "compiled" and envs[1].game.engine == "python"
        assert_envs_play_alike(envs, range(4))


def test_the_compiled_state_refuses_bad_seats_and_reads_as_the_reference():
    """``observe_into`` and the other compiled-core checks are in tests/test_games.py."""
    game = make_game(5, engine="compiled")
    state = game.new_state(seed=3)
    for seat in (5, -6):
        with pytest.raises(IndexError, match="seat must be"):
            state.view(seat)
    with pytest.raises(IndexError, match="out of range"):
        game.action_mask([NUM_RANKS])
    with pytest.raises(TypeError):
        game.observation(make_game(5, engine="python").new_state(seed=3), 0)
    # the reference encoder reads the compiled state's attributes too: the same bytes
    reference = make_game(5, engine="python")
    ref = reference.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        for seat in range(5):
            expected = game.observation(state, seat).tobytes()
            assert reference.observation(state, seat).tobytes() == expected
            assert reference.observation(ref, seat).tobytes() == expected
            assert state.view(seat - 5) == ref.view(seat - 5)  # negative seats, as lists
        action = rng.choice(state.legal_actions())
        state.apply(action)
        ref.apply(action)


def test_games_and_states_pickle():
    assert_games_and_states_pickle(make_game, snapshot, 6, follow="previous")


def test_each_engine_makes_its_own_states():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    compiled = make_game(3, engine="compiled")
    python = make_game(3, engine="python")
    assert make_game(3).engine == "compiled"
    assert isinstance(compiled.new_state(seed=1), _compiled.State)
    assert isinstance(python.new_state(seed=1), ReferenceState)


# ------------------------------------------------------------------ many games
SLOW_GAMES = 120_000
SLOW_CHUNKS = 40


def _chunk(chunk: int, chunks: int, total: int) -> tuple[int, int]:
    """Play games ``chunk, chunk + chunks, ...`` below ``total``, cycling through the cases:
    one in 50 as fully as the default run (``play_both``), the rest comparing the turns,
    legal ranks and observations of the actor, and the whole state and log at the end."""
    return play_cases(chunk, chunks, total, CASES, games, _play_one)


def _play_one(pair: tuple[MatapesaGame, MatapesaGame], g: int) -> int:
    return play_both(pair, g) if g % 50 == 0 else play_quickly(snapshot, pair, g)


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_a_hundred_and_twenty_thousand_games_play_the_same():
    """120,000 games in chunks over every core (a few CPU-minutes)."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
