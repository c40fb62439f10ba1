"""The compiled Whist 22 core against the pure-Python reference engine: the same games, step by
step.

Both engines play the same deals with the same random choices at 3 and 4 players under option
mixes that use every option value. At every step the test compares whose turn it is, the
legal actions and mask, the observation bytes of every seat (the compiled writer against the
reference encoder), every seat's view, the returns, the history and the event log; at one
random step of every third game every attribute of the reference state, illegal and
non-integer actions (same message, nothing changed), clones, pickling and determinized deals
(the same ``rng`` gives the same deal); at the end the outcome and the game record. Fixed
decks, records, the env and the solvers on the compiled states are compared too.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from helpers import play_budgeted, play_cases, random_game, run_chunks
from lockstep import (
    assert_bounded_options_reach,
    assert_envs_play_alike,
    assert_games_and_states_pickle,
    assert_records_replay,
    case_id,
    compare_protocol,
    option_values,
    play_quickly,
)
from lockstep import check_determinize as shared_check_determinize
from lockstep import play_both as shared_play_both
from lockstep import play_out as shared_play_out

import koira_env
from koira_env.core.agent import Turn
from koira_env.core.record import game_record
from koira_env.games.whist22 import _compiled, search, solver
from koira_env.games.whist22.bots import CounterBot
from koira_env.games.whist22.engine import NUM_CARDS, PLAYING, card_name
from koira_env.games.whist22.engine import State as ReferenceState
from koira_env.games.whist22.game import WhistGame, make_game
from koira_env.games.whist22.rules import Rules, make_rules

# Option mixes played at every table size; together they use every value of every option
# (checked below). Low start scores and hand limits keep games short: the default rules play
# 5-15 hands, start_score=1 ends at the first missed bid, max_hands=1 is the single-hand game.
MIXES: list[dict[str, Any]] = [
    {},
    {"start_score": 4, "hand_sequence": "repeat_ends", "floor_at_zero": True},
    {"hook": False, "max_hands": 3},
    {"start_score": 1},
    {"start_score": 50, "max_hands": 1},
    {"hook": False, "max_hands": 6, "hand_sequence": "repeat_ends", "start_score": 6},
    {"start_score": 3, "floor_at_zero": True, "max_hands": 4},
]
CASES = [(n, mix) for n in (3, 4) for mix in MIXES]
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games: about 2,900 games and 110,000 compared steps over the 14 cases.
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 100, 700, 7_000
SKIP = ("cached_legal", "game")  # the cache is the reference's own; the game by its rules
PROTOCOL = ("current", "actions_taken", "truncated", "deck", "seed", "history", "log", "n")


def games(n: int, mix: dict[str, Any]) -> tuple[WhistGame, WhistGame]:
    """The reference game and the compiled game of one rule set."""
    return make_game(n, engine="python", **mix), make_game(n, engine="compiled", **mix)


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules)."""
    names = [name for name in (*ReferenceState.__slots__, *PROTOCOL) if name not in SKIP]
    return (
        *(repr(getattr(s, name)) for name in names),
        repr(s.game.rules),
        repr((s.is_terminal, s.dealer, s.forbidden_bid())),
    )


def compare(py: WhistGame, co: WhistGame, ref: Any, com: Any, logged: int = 0) -> None:
    """What any seat or the env can read, on both engines (the log from entry ``logged``
    on: a log only grows, and the game's end compares it whole)."""
    compare_protocol(py, co, ref, com, logged)
    assert com.forbidden_bid() == ref.forbidden_bid()
    for seat in range(-1, ref.n):  # -1: the last seat, as lists index
        assert com.view(seat) == ref.view(seat)


play_out = functools.partial(shared_play_out, compare, snapshot)


check_determinize = functools.partial(shared_check_determinize, compare, snapshot)


# the step that also checks clones, deals and errors: in the first hand (24 steps at either
# table size) on every other game, which may end with it, else anywhere
play_both = functools.partial(
    shared_play_both,
    compare=compare,
    snapshot=snapshot,
    determinize=check_determinize,
    probe=lambda seed, ref: 24 if seed % 2 else 150,
)


def test_the_cases_play_every_option_value():
    played = [make_rules(n, **mix) for n, mix in CASES]
    others = option_values(Rules, played)
    assert set(others) == {"num_players", "start_score", "max_hands"}
    assert others["num_players"][1] == {3, 4}
    assert_bounded_options_reach(others, ("start_score", "max_hands"))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_both_engines_play_the_same_games(case: tuple[int, dict[str, Any]]) -> None:
    n, mix = case
    pair = games(n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


def test_the_differential_games_reach_every_ending():
    """The hook forbidding a bid, the Fool played both ways, scores floored and below zero,
    the hand limit and a score reaching zero all happen in the compared games."""
    seen: set[str] = set()
    for n, mix in CASES:
        game = make_game(n, engine="compiled", **mix)
        for seed in range(20):
            state = random_game(game, seed, log=True)
            seen.update(event["type"] for event in state.log)
            seen.update(f"fool={e['value']}" for e in state.log if e.get("card") == "Fool")
            if min(state.scores) < 0:
                seen.add("below zero")
            if state.hand_no == state.game.rules.max_hands and min(state.scores) > 0:
                seen.add("hand limit")
            if min(state.scores) == 0:
                seen.add("zero")
        state = game.new_state(seed=1)
        while not state.is_terminal:
            if state.forbidden_bid() >= 0:
                seen.add("hook")
            state.apply(random.Random(state.actions_taken).choice(state.legal_actions()))
    assert {"deal", "bid", "play", "trick_won", "hand_end", "game_over"} <= seen
    assert {"fool=0", "fool=22", "below zero", "hand limit", "zero", "hook"} <= seen


@pytest.mark.parametrize("n", [3, 4])
def test_fixed_decks_deal_and_play_the_same(n: int) -> None:
    """``new_state(deck=...)``: one hand's deck, several hands' decks, by name and by id."""
    for k, mix in enumerate([{}, {"start_score": 5, "hand_sequence": "repeat_ends"}]):
        py, co = games(n, mix)
        for seed in range(30):
            rng = random.Random(seed)
            deck: list[Any] = []
            for _ in range(1 + seed % 3):
                order = list(range(NUM_CARDS))
                rng.shuffle(order)
                deck += [card_name(c) for c in order] if seed % 2 else order
            ref = py.new_state(deck, seed=seed + k, log=True)
            com = co.new_state(deck, seed=seed + k, log=True)
            compare(py, co, ref, com)
            play_out(py, co, ref, com, rng)
            assert com.deck == ref.deck and game_record(com) == game_record(ref)


def test_records_replay_on_both_engines():
    assert_records_replay(games, CASES[::3], 4)


def test_the_default_env_plays_as_the_reference_env():
    """``koira_env.make("whist22")`` (compiled by default) and ``engine="python"`` give the
    same observations, masks, rewards, ends and infos for the same actions."""
    for n, mix in [(3, {}), (4, MIXES[1]), (4, MIXES[2])]:
        envs = [
            koira_env.make("whist22", n, **mix),
            koira_env.make("whist22", n, engine="python", **mix),
        ]
        assert envs[0].game.engine == "compiled" and envs[1].game.engine == "python"
        assert_envs_play_alike(envs, range(6))


def test_the_compiled_state_refuses_bad_seats_and_reads_as_the_reference():
    """``observe_into`` and the other compiled-core checks are in tests/test_games.py."""
    game = make_game(3, start_score=9, engine="compiled")
    state = game.new_state(seed=3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(-4)
    with pytest.raises(IndexError, match="out of range"):
        game.action_mask([game.num_actions])
    with pytest.raises(ValueError, match="rules"):
        make_game(3, engine="compiled").observation(state, 0)  # another start score
    with pytest.raises(ValueError, match="rules"):
        make_game(3, engine="compiled", hand_sequence="repeat_ends").observation(state, 0)
    # the reference encoder reads the compiled state's attributes too: the same bytes
    reference = make_game(3, start_score=9, engine="python")
    rng = random.Random(0)
    while True:
        for seat in range(3):
            expected = reference.observation(state, seat).tobytes()
            assert game.observation(state, seat).tobytes() == expected
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))


def test_games_and_states_pickle():
    assert_games_and_states_pickle(make_game, snapshot, 4, floor_at_zero=True)


def test_each_engine_makes_its_own_states():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    assert make_game(3).engine == "compiled"
    assert isinstance(make_game(3, engine="compiled").new_state(seed=1), _compiled.State)
    assert isinstance(make_game(3, engine="python").new_state(seed=1), ReferenceState)


# ------------------------------------------------------------------ the solvers and bots
def _pairs_in_play(count: int, max_cards: int) -> list[tuple[Any, Any]]:
    """Random (reference, compiled) states in the same position with at most ``max_cards``
    cards in hands (in play or in the bidding)."""
    found = []
    for n in (3, 4):
        py, co = games(n, {})
        for seed in range(count):
            ref, com = py.new_state(seed=seed), co.new_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(60)):
                action = rng.choice(ref.legal_actions())
                ref.apply(action)
                com.apply(action)
                if ref.is_terminal:
                    break
            while not ref.is_terminal and sum(map(len, ref.hands)) > max_cards:
                action = rng.choice(ref.legal_actions())
                ref.apply(action)
                com.apply(action)
            if not ref.is_terminal:
                found.append((ref, com))
    return found


def test_the_solvers_and_bots_read_the_compiled_states_alike():
    """``solver``'s paranoid, brute-force and model values, ``search``'s view position and
    the counter bot give the same answers on both engines' states of one position."""
    checked = 0
    for ref, com in _pairs_in_play(25, 9):
        seat = ref.current
        assert solver.position(com, seat) == solver.position(ref, seat)
        assert solver.move_values(com, seat) == solver.move_values(ref, seat)
        assert solver.model_move_values(com, seat) == solver.model_move_values(ref, seat)
        if ref.phase == PLAYING:
            assert solver.brute_force(com, seat) == solver.brute_force(ref, seat)
        assert search.view_position(com.view(seat)) == search.view_position(ref.view(seat))
        turns = [Turn(s.view(seat), s.game, random.Random(seat), s) for s in (ref, com)]
        assert CounterBot().act(turns[1]) == CounterBot().act(turns[0])
        values = [search.move_values(t, 3, 0, engine="python") for t in turns]
        assert values[1] == values[0]  # the same deals from the same generator
        checked += 1
    assert checked >= 30


# ------------------------------------------------------------------ many games
SLOW_GAMES = 100_000
SLOW_CHUNKS = 40


def _chunk(chunk: int, chunks: int, total: int) -> tuple[int, int]:
    """Play games ``chunk, chunk + chunks, ...`` below ``total``, cycling through the cases:
    one in 50 as fully as the default run (``play_both``), the rest comparing the turns,
    legal sets and observations of the actor, and the whole state and log at the end."""
    return play_cases(chunk, chunks, total, CASES, games, _play_one)


def _play_one(pair: tuple[WhistGame, WhistGame], g: int) -> int:
    return play_both(pair, g) if g % 50 == 0 else play_quickly(snapshot, pair, g)


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_a_hundred_thousand_games_play_the_same():
    """100,000 games in chunks over every core (a few CPU-minutes)."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
