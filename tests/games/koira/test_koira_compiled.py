"""The compiled Koira core against the pure-Python reference engine: the same games, step by step.

Both engines play the same deals with the same random choices on every preset, every player
count and a spread of option mixes that uses every option value. At every step the test
compares whose turn it is, the legal actions, the observation bytes of the acting seat and of
one other seat, the acting seat's view, the rewards and the end flags; at the end the outcome,
the event log and the game record. Along the way it checks clones, determinized deals (the
same ``rng`` gives the same deal), illegal and non-integer actions, and pickling.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import random
from typing import Any

import numpy as np
import pytest
from helpers import play_budgeted, play_cases, random_game, run_chunks, try_illegal
from koira_scenario import phase_two
from lockstep import assert_envs_play_alike
from test_koira_observation import GOLDEN_OBSERVATIONS, random_states

import koira_env
from koira_env.cards import card_id
from koira_env.core.game import IllegalActionError, shuffled
from koira_env.core.record import game_record
from koira_env.games.koira import game as koira_game
from koira_env.games.koira.engine import TAKE
from koira_env.games.koira.engine import State as ReferenceState
from koira_env.games.koira.game import KoiraGame, make_game
from koira_env.games.koira.rules import (
    BOOL_OPTIONS,
    CHOICES,
    OPTION_NAMES,
    PLAYER_RANGE,
    make_rules,
)

# Option mixes on top of a preset; with the presets they use every value of every option
# (checked below). The small max_actions truncates games in both phases.
MIXES: list[dict[str, Any]] = [
    {"sequences": 2, "emptied_trick": "continues"},
    {"sequences": 3, "sequence_beat": "any_length", "take": "lowest"},
    {"sequences": 2, "sequences_from_two": True, "take_one_card": True},
    {"sequences": 3, "take_one_card": True, "voluntary_take": True, "emptied_trick": "ends"},
    {"war_mode": "split", "reward": "placement"},
    {"war_trigger": "highest_tie", "risk_in_war": False, "trump_only_when_void": False},
    {"war_trigger": "any_tie", "trump_ends_trick": True, "sequences": 2},
    {"trump_card": "revealed", "phase_one_end": "all_played", "phase_two_leader": "last_winner"},
    {"trump_card": "hidden", "phase_one_end": "due_player_empty", "take": "bottom"},
    {"phase_one_end": "one_holder", "phase_two_leader": "trump_holder", "voluntary_take": False},
    {"emptied_trick": "ends", "trump_ends_trick": True, "war_mode": "split"},
    {"max_actions": 100, "sequences": 2, "sequence_beat": "same_length"},
    {"war_mode": "play_on", "risk_in_war": True, "reward": "loser", "max_actions": 150},
    {
        "war_mode": "split",
        "trump_ends_trick": True,
        "sequences": 2,
        "sequences_from_two": True,
        "take_one_card": True,
    },
]
TABLES = [(preset, n) for preset, (lo, hi) in PLAYER_RANGE.items() for n in range(lo, hi + 1)]
# every table plays its preset as is and three mixes, rotating through MIXES
CASES = [
    (preset, n, mix)
    for t, (preset, n) in enumerate(TABLES)
    for mix in [{}, *(MIXES[(3 * t + k) % len(MIXES)] for k in range(3))]
]
# The deck options (deck_ranks, deck_suits, hand_size) on every preset, and mini with mixes;
# each rule set also plays its own table. Appended, so the rotation above stays as it was.
DECK_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("koira", 2, {"hand_size": 2}),
    ("koira", 3, {"deck_ranks": 5, "deck_suits": "CDH", "hand_size": 2}),
    ("koira-b", 4, {"deck_ranks": 4, "hand_size": 2, "sequences": 2}),
    ("mattis", 3, {"deck_suits": "DS", "hand_size": 4, "war_mode": "split"}),
    ("koira", 5, {"deck_ranks": 6, "deck_suits": "CDHS", "hand_size": 1}),
    ("mini", 2, {"trump_card": "revealed", "war_trigger": "highest_tie"}),
    ("mini", 2, {"phase_one_end": "due_player_empty", "voluntary_take": True}),
    ("mini", 2, {"hand_size": 1, "risk_in_war": False}),
    ("mini", 2, {"deck_ranks": 4, "hand_size": 3, "sequences": 2}),
    ("mini", 2, {"deck_suits": "CDHS", "take": "lowest", "reward": "placement"}),
]
CASES += DECK_CASES
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games (random games of some mixes last 600 steps, of most 100-250): about 2,100
# games and 380,000 compared steps over the 76 full-deck cases of the first three presets,
# and MAX_GAMES short games for each mini case (about ten steps a game).
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 12, 40, 5_000


def _case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    preset, n, mix = case
    return "-".join([preset, str(n), *(f"{k}={v}" for k, v in mix.items())])


def games(preset: str, n: int, mix: dict[str, Any]) -> tuple[KoiraGame, KoiraGame]:
    """The reference game and the compiled game of one rule set."""
    return (
        make_game(n, preset, engine="python", **mix),
        make_game(n, preset, engine="compiled", **mix),
    )


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules)."""
    skip = ("cached_legal", "game")
    names = [name for name in ReferenceState.__slots__ if name not in skip]
    return (*(repr(getattr(s, name)) for name in names), repr(s.loser), repr(s.game.rules))


def play_out(ref: Any, com: Any, rng: random.Random, game: KoiraGame) -> None:
    """Play both to the end with the same random choices, comparing what a player can see."""
    n = ref.n
    while not ref.is_terminal:
        legal = ref.legal_actions()
        assert com.legal_actions() == legal and com.current == ref.current
        action = rng.choice(legal)
        ref.apply(action)
        com.apply(action)
    assert com.is_terminal and snapshot(com) == snapshot(ref)
    for seat in range(n):
        expected = ref.game.observation(ref, seat).tobytes()
        assert game.observation(com, seat).tobytes() == expected


def check_determinize(ref: Any, com: Any, game: KoiraGame, seed: int) -> None:
    """The same generator gives the same deal, and the deals play on identically."""
    seat = seed % ref.n
    a = ref.determinize(seat, random.Random(seed))
    b = com.determinize(seat, random.Random(seed))
    assert snapshot(b) == snapshot(a)
    assert game.observation(b, seat).tobytes() == game.observation(com, seat).tobytes()
    play_out(a, b, random.Random(seed), game)


def check_clone(ref: Any, com: Any, game: KoiraGame, seed: int) -> None:
    """A clone plays on like the reference's clone and leaves the original untouched."""
    before = snapshot(com)
    play_out(ref.clone(), com.clone(), random.Random(seed), game)
    assert snapshot(com) == before
    copy = pickle.loads(pickle.dumps(com))
    assert snapshot(copy) == before and copy.game.rules == com.game.rules


def play_both(
    pair: tuple[KoiraGame, KoiraGame], seed: int, deep: bool = True, log: bool = True
) -> int:
    """One game on both engines, compared at every step; returns its length. ``deep`` also
    checks clones, determinized deals, illegal actions and pickling at one random step."""
    py, co = pair
    ref = py.new_state(seed=seed, log=log)
    com = co.new_state(seed=seed, log=log)
    assert com.deck == ref.deck
    n = ref.n
    rng = random.Random(seed)
    probe = rng.randrange(40)  # the step that also checks clones, deals and errors
    while True:
        assert com.current == ref.current and com.is_terminal == ref.is_terminal
        assert com.truncated == ref.truncated and com.returns() == ref.returns()
        assert bytes(com.loc) == bytes(ref.loc) and bytes(com.pub) == bytes(ref.pub)
        seat, other = ref.current, (ref.current + 1 + ref.actions_taken) % n
        for s in (seat, other):
            expected = py.observation(ref, s).tobytes()
            assert co.observation(com, s).tobytes() == expected, (s, ref.actions_taken)
        if ref.is_terminal:
            break
        legal = ref.legal_actions()
        assert com.legal_actions() == legal
        assert co.action_mask(legal).tobytes() == py.action_mask(legal).tobytes()
        assert com.view(seat) == ref.view(seat)
        if deep and ref.actions_taken == probe:
            assert snapshot(com) == snapshot(ref)
            try_illegal(ref, com, rng, snapshot)
            check_clone(ref, com, co, seed)
            check_determinize(ref, com, co, seed)
        action = rng.choice(legal)
        ref.apply(action)
        com.apply(action)
    assert snapshot(com) == snapshot(ref)
    assert com.outcome() == ref.outcome() and com.log == ref.log
    if log:
        assert game_record(com) == game_record(ref)
    with pytest.raises(IllegalActionError, match="the game is over"):
        com.apply(0)
    return ref.actions_taken


def test_the_cases_play_every_option_value():
    """Across the differential cases (presets and mixes), every option takes every value."""
    played = [make_rules(n, preset, **mix) for preset, n, mix in CASES]
    for name in OPTION_NAMES:
        values = {getattr(rules, name) for rules in played}
        allowed = CHOICES.get(name, (False, True) if name in BOOL_OPTIONS else None)
        if name == "max_actions":  # the default and a limit that truncates games
            assert len(values) >= 2 and min(values) <= 150, name
        elif allowed is None:  # the deck options: the full deck and smaller ones
            assert len(values) >= 3, name
        else:
            assert values == set(allowed), name


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_both_engines_play_the_same_games(case: tuple[str, int, dict[str, Any]]) -> None:
    preset, n, mix = case
    pair = games(preset, n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, _case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


def test_rare_paths_are_reached_on_the_compiled_core():
    """The differential games reach the rare rules (wars, stalemates, splits, takes...)."""
    seen: set[str] = set()
    for preset, n, mix in CASES:
        game = make_game(n, preset, engine="compiled", **mix)
        for seed in range(12):
            state = random_game(game, seed, log=True)
            seen.update(event["type"] for event in state.log)
    expected = {
        "war",
        "war_dropout",
        "stalemate",
        "split",
        "trick_returned",
        "trick_emptied",
        "take",
        "truncated",
        "game_over",
    }
    assert expected <= seen, expected - seen


@pytest.mark.parametrize(("preset", "n", "options"), list(GOLDEN_OBSERVATIONS))
def test_the_compiled_observations_match_the_pinned_digests(preset, n, options):
    """tests/games/koira/test_koira_observation.py pins the encoding with the reference encoder; the
    compiled writer must give the same digests."""
    states = random_states(preset, n, games=3, seed=7, **dict(options))
    engine = states[0].game.compiled
    assert engine is not None  # random_states plays on the default engine: the compiled one
    digest = hashlib.sha256()
    row = np.zeros(engine.size, np.float32)
    for state in states:
        for seat in range(n):
            vector = engine.observation(state, seat)
            engine.observe_into(state, seat, row)
            assert row.tobytes() == vector.tobytes()
            digest.update(vector.tobytes())
    assert digest.hexdigest() == GOLDEN_OBSERVATIONS[preset, n, options]


@pytest.mark.parametrize("preset", sorted(PLAYER_RANGE))
def test_the_default_env_plays_as_the_reference_env(preset):
    """``koira_env.env()`` (compiled by default) and ``env(engine="python")`` give the same
    observations, masks, rewards, ends and infos for the same actions."""
    n = min(4, PLAYER_RANGE[preset][1])  # mini: its two players
    envs = [koira_env.env(n, preset), koira_env.env(n, preset, engine="python")]
    assert envs[0].unwrapped.game.engine == "compiled"
    assert_envs_play_alike(envs, range(6))


def test_positions_set_up_by_hand_play_the_same():
    """The rules scenario tests set positions through attributes; both engines accept them."""
    for engine in ("python", "compiled"):
        s = phase_two(3, "koira", [["5H", "9H"], ["7H", "2S"], ["KH"]], "S", engine=engine)
        assert s.legal_actions() == [card_id("5H"), card_id("9H")]
        s.apply(card_id("9H"))  # player 1 holds a lower heart, so may not trump: takes
        assert s.current == 1 and s.legal_actions() == [TAKE]
        if engine == "python":
            expected = snapshot(s)
        else:
            assert snapshot(s) == expected


def test_bots_search_and_the_shipped_model_play_the_same_games():
    """The shipped policy (``ppo:koira4-ppo``, which observes a determinized deal), the card
    counter and ISMCTS's reference loop (determinize, clone, the dumper's rollouts) make the
    same moves on both engines. (The compiled search, which draws its own random numbers, has
    its own tests: tests/games/koira/test_koira_search.py.)"""
    pytest.importorskip("sb3_contrib")
    from koira_agents.base import play_game
    from koira_agents.ismcts import ISMCTSAgent
    from koira_agents.registry import make_agent

    rules = make_rules(4, "koira")
    names = ("ppo:koira4-ppo", "expert", "greedy")
    for seed in range(3):
        results = []
        for engine in ("python", "compiled"):
            seats = [*(make_agent(name) for name in names), ISMCTSAgent(20, engine="python")]
            game = koira_game.game_for(rules, engine)
            results.append(play_game(seats, game, shuffled(52, seed), seed))
        assert results[0] == results[1]


def test_the_default_engine_game_is_made_once():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    compiled = make_game(4, "koira-b", engine="compiled")
    assert make_game(4, "koira-b") is compiled


# ------------------------------------------------------------------ one million games
SLOW_GAMES = 1_000_000
SLOW_CHUNKS = 200


def play_light(pair: tuple[KoiraGame, KoiraGame], seed: int, log: bool) -> int:
    """One game on both engines, compared more lightly than ``play_both``: every step's turn
    and legal set, every eighth step's observation of the actor, and the whole state, returns,
    outcome and (if ``log``) events at the end."""
    py, co = pair
    ref = py.new_state(seed=seed, log=log)
    com = co.new_state(seed=seed, log=log)
    rng = random.Random(seed)
    while not ref.is_terminal:
        legal = ref.legal_actions()
        assert com.legal_actions() == legal and com.current == ref.current, seed
        if ref.actions_taken % 8 == seed % 8:
            seat = ref.current
            assert co.observation(com, seat).tobytes() == py.observation(ref, seat).tobytes()
        action = rng.choice(legal)
        ref.apply(action)
        com.apply(action)
    assert com.is_terminal and snapshot(com) == snapshot(ref), seed
    assert com.returns() == ref.returns() and com.outcome() == ref.outcome(), seed
    return ref.actions_taken


def _chunk(chunk: int, chunks: int, total: int) -> tuple[int, int]:
    """Play games ``chunk, chunk + chunks, ...`` below ``total``, cycling through the cases:
    one in 1,000 as fully as the default run (``play_both``), the rest with ``play_light``."""
    return play_cases(chunk, chunks, total, CASES, games, _play_one)


def _play_one(pair: tuple, g: int) -> int:
    return play_both(pair, g) if g % 1000 == 0 else play_light(pair, g, log=g % 10 == 0)


@pytest.mark.slow
@pytest.mark.timeout(6 * 3600)
def test_a_million_games_play_the_same():
    """One million games in chunks over every core (about 50 CPU-minutes)."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
