"""The compiled Kop core against the pure-Python reference engine: the same games, step by
step.

Both engines play the same deals with the same random choices under option mixes that use
every option value. At every step the test compares whose turn it is, the legal actions and
mask, the observation bytes of every seat (the compiled writer against the reference
encoder), every seat's view and the call it knows of, the returns, the history and the event
log; at one random step of every third game every attribute of the reference state, illegal
and non-integer actions (same message, nothing changed), clones, pickling and determinized
deals (the same ``rng`` gives the same deal, under the same constraints); at the end the
outcome and the game record. Fixed decks, records, the env and the solvers on the compiled
states are compared too.
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
from koira_env.games.kop import _compiled, search, solver
from koira_env.games.kop.bots import CounterBot, LowestBot, greedy_move
from koira_env.games.kop.cards import NUM_CARDS, card_name
from koira_env.games.kop.engine import PLAY, SILENT, SOLO
from koira_env.games.kop.engine import State as ReferenceState
from koira_env.games.kop.game import KopGame, make_game
from koira_env.games.kop.rules import Rules, make_rules

# Option mixes; together they use every value of every option (checked below). Few victory
# cards and low hand limits keep games short: victory_cards=1 ends at the first lost hand,
# max_hands=1 is cut off after one hand, single_hand scores one hand.
MIXES: list[dict[str, Any]] = [
    {},
    {"single_hand": True},
    {"victory_cards": 1, "call_own_jack": "no_call"},
    {"silent_scoring": "team", "tie": "queens_lose", "victory_cards": 3},
    {"max_hands": 1},
    {"max_hands": 4, "victory_cards": 20, "call_own_jack": "no_call", "silent_scoring": "team"},
    {"single_hand": True, "tie": "queens_lose", "call_own_jack": "no_call"},
    {"victory_cards": 2, "max_hands": 7, "tie": "queens_lose"},
]
CASES = [(4, mix) for mix in MIXES]
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games.
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 100, 600, 6_000
SKIP = ("cached_legal", "game")  # the cache is the reference's own; the game by its rules
PROTOCOL = ("current", "actions_taken", "truncated", "deck", "seed", "history", "log", "n")


def games(n: int, mix: dict[str, Any]) -> tuple[KopGame, KopGame]:
    """The reference game and the compiled game of one rule set."""
    return make_game(n, engine="python", **mix), make_game(n, engine="compiled", **mix)


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules)."""
    names = [name for name in (*ReferenceState.__slots__, *PROTOCOL) if name not in SKIP]
    return (
        *(repr(getattr(s, name)) for name in names),
        repr(s.game.rules),
        repr((s.is_terminal, [s.public_call(p) for p in range(4)])),
    )


def compare(py: KopGame, co: KopGame, ref: Any, com: Any, logged: int = 0) -> None:
    """What any seat or the env can read, on both engines: the protocol's (``lockstep``),
    every seat's view and the call it knows of."""
    compare_protocol(py, co, ref, com, logged)
    for seat in range(-1, ref.n):  # -1: the last seat's hand, as lists index
        assert com.view(seat) == ref.view(seat)
        assert com.public_call(seat) == ref.public_call(seat)


play_out = functools.partial(shared_play_out, compare, snapshot)


check_determinize = functools.partial(shared_check_determinize, compare, snapshot)


# the step that also checks clones, deals and errors: in the first hand (20 steps) on every
# other game, which may end with it, else anywhere
play_both = functools.partial(
    shared_play_both,
    compare=compare,
    snapshot=snapshot,
    determinize=check_determinize,
    probe=lambda seed, ref: 20 if seed % 2 else 100,
)


def test_the_cases_play_every_option_value():
    played = [make_rules(n, **mix) for n, mix in CASES]
    others = option_values(Rules, played)
    assert set(others) == {"num_players", "victory_cards", "max_hands"}
    assert others["num_players"][1] == {4}
    assert_bounded_options_reach(others, ("victory_cards", "max_hands"))
    assert 20 in others["victory_cards"][1]  # victory_cards' maximum


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_both_engines_play_the_same_games(case: tuple[int, dict[str, Any]]) -> None:
    n, mix = case
    pair = games(n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


def test_the_differential_games_reach_every_ending():
    """Every declaration (a call, silence, solo, the no_call rule's refusal), a
    52-52 tie, a lost game, the hand limit and a single hand all happen in compared games."""
    seen: set[str] = set()
    for n, mix in CASES:
        game = make_game(n, engine="compiled", **mix)
        for seed in range(40):
            state = random_game(game, seed, log=True)
            seen.update(event["type"] for event in state.log)
            for event in state.log:
                if event["type"] == "declare":
                    seen.add(f"{event['choice']}:{event['jack']}")
                if event["type"] == "hand_end" and event["winner"] is None:
                    seen.add("tie")
                if event["type"] == "hand_end" and event["points"] == [52, 52]:
                    seen.add("52-52")
        for seed in range(40 if mix.get("call_own_jack") else 0):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                if state.legal_actions() == [SILENT, SOLO]:
                    seen.add("no call")
                state.apply(rng.choice(state.legal_actions()))
    assert {"deal", "declare", "play", "trick_won", "hand_end", "game_over", "truncated"} <= seen
    calls = {"call:JC", "silent:None", "solo:None", "pass:None"}
    assert calls | {"tie", "52-52", "no call"} <= seen, seen


def test_fixed_decks_deal_and_play_the_same() -> None:
    """``new_state(deck=...)``: one hand's deck, several hands' decks, by name and by id."""
    for k, mix in enumerate([{}, {"victory_cards": 3, "tie": "queens_lose"}]):
        py, co = games(4, mix)
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
    assert_records_replay(games, CASES[::2], 4)


def test_the_default_env_plays_as_the_reference_env():
    """``koira_env.make("kop")`` (compiled by default) and ``engine="python"`` give the same
    observations, masks, rewards, ends and infos for the same actions."""
    for mix in [{}, MIXES[1], MIXES[3]]:
        envs = [koira_env.make("kop", 4, **mix), koira_env.make("kop", 4, engine="python", **mix)]
        assert envs[0].game.engine == "compiled" and envs[1].game.engine == "python"
        assert_envs_play_alike(envs, range(6))


def test_the_compiled_state_refuses_bad_seats_and_reads_as_the_reference():
    """``observe_into`` and the other compiled-core checks are in tests/test_games.py."""
    game = make_game(4, victory_cards=9, engine="compiled")
    state = game.new_state(seed=3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(4)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(-5)
    with pytest.raises(IndexError, match="out of range"):
        game.action_mask([game.num_actions])
    with pytest.raises(ValueError, match="rules"):
        make_game(4, engine="compiled").observation(state, 0)  # other victory cards
    with pytest.raises(ValueError, match="rules"):
        make_game(4, victory_cards=9, max_hands=5, engine="compiled").observation(state, 0)
    # the reference encoder reads the compiled state's attributes too: the same bytes
    reference = make_game(4, victory_cards=9, engine="python")
    rng = random.Random(0)
    while True:
        for seat in range(4):
            expected = reference.observation(state, seat).tobytes()
            assert game.observation(state, seat).tobytes() == expected
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))


def test_games_and_states_pickle():
    assert_games_and_states_pickle(make_game, snapshot, 4, tie="queens_lose")


def test_each_engine_makes_its_own_states():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    assert make_game(4).engine == "compiled"
    assert isinstance(make_game(4, engine="compiled").new_state(seed=1), _compiled.State)
    assert isinstance(make_game(4, engine="python").new_state(seed=1), ReferenceState)


# ------------------------------------------------------------------ the solvers and bots
def _pairs_in_play(count: int) -> list[tuple[Any, Any]]:
    """Random (reference, compiled) states in the same position, in the declaration round or
    in play."""
    found = []
    for mix in ({}, {"silent_scoring": "team", "call_own_jack": "no_call"}):
        py, co = games(4, mix)
        for seed in range(count):
            ref, com = py.new_state(seed=seed), co.new_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(40)):
                action = rng.choice(ref.legal_actions())
                ref.apply(action)
                com.apply(action)
                if ref.is_terminal:
                    break
            if not ref.is_terminal:
                found.append((ref, com))
    return found


def test_the_solvers_and_bots_read_the_compiled_states_alike():
    """``solver``'s exact values, ``search``'s values and the bots give the same answers on
    both engines' states of one position."""
    checked = 0
    for ref, com in _pairs_in_play(25):
        seat = ref.current
        if ref.phase == PLAY:
            assert solver.position(com) == solver.position(ref)
            assert solver.move_values(com) == solver.move_values(ref)
            assert solver.brute_force(com) == solver.brute_force(ref)
            assert search.state_values(com, seat) == search.state_values(ref, seat)
            assert greedy_move(com) == greedy_move(ref)
        turns = [Turn(s.view(seat), s.game, random.Random(seat), s) for s in (ref, com)]
        for bot in (CounterBot(), LowestBot()):
            assert bot.act(turns[1]) == bot.act(turns[0])
        for engine in ("python", "auto"):
            values = [search.move_values(t, 3, 0, engine=engine) for t in turns]
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


def _play_one(pair: tuple[KopGame, KopGame], g: int) -> int:
    return play_both(pair, g) if g % 50 == 0 else play_quickly(snapshot, pair, g)


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_a_hundred_thousand_games_play_the_same():
    """100,000 games in chunks over every core (a few CPU-minutes)."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
