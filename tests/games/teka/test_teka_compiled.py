"""The compiled Teka core against the pure-Python reference engine: the same games, step by
step.

Both engines play the same deals with the same random choices under option mixes that use
every option value. At every step the test compares whose turn it is, the legal actions and
mask, the observation bytes of every seat (the compiled writer against the reference
encoder), every seat's view, the mover's turn features (the C rows against turns.py's), the
returns, the history and the event log; at one random step of every third game every
attribute of the reference state, every seat's turn features, illegal and non-integer
actions (same message, nothing changed), clones, pickling and determinized deals (the same
``rng`` gives the same deal, voids, the trump lead and honours included); at the end the
outcome and the game record. Fixed decks, records, the env and the solvers and bots on the
compiled states are compared too.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from helpers import play_budgeted, play_cases, run_chunks
from lockstep import (
    assert_bounded_options_reach,
    assert_envs_play_alike,
    assert_games_and_states_pickle,
    assert_records_replay,
    case_id,
    compare_protocol,
    option_values,
)
from lockstep import play_both as shared_play_both
from lockstep import play_out as shared_play_out

import koira_env
from koira_env.cards import card_name
from koira_env.core.agent import Turn
from koira_env.core.record import game_record
from koira_env.games.teka import _compiled, search, solver
from koira_env.games.teka.bots import CounterBot, GreedyBot
from koira_env.games.teka.engine import KEEP, NEW_DEAL, NUM_CARDS, PASS, PLAY
from koira_env.games.teka.engine import State as ReferenceState
from koira_env.games.teka.game import TekaGame, make_game
from koira_env.games.teka.rules import Rules, make_rules

# Option mixes; together they use every value of every option (checked below). Low targets
# and hand limits keep games short: target=8 ends at the first made bid, max_hands=1 is one
# deal, single_hand one played hand.
MIXES: list[dict[str, Any]] = [
    {},
    {
        "no_honours": "ask",
        "pass_signals": True,
        "all_pass": "redeal",
        "raises": "once",
        "early_end": False,
        "failed_bid": "double",
        "target": 8,
    },
    {"no_honours": "keep", "raises": "never", "failed_bid": "nothing", "single_hand": True},
    {"max_hands": 3, "all_pass": "redeal", "target": 30},
    {"max_hands": 1, "pass_signals": True, "no_honours": "ask"},
    {"target": 50, "failed_bid": "nothing", "all_pass": "redeal", "max_hands": 6},
    {"single_hand": True, "raises": "once", "pass_signals": True, "early_end": False},
    {"target": 200, "max_hands": 4, "no_honours": "keep", "failed_bid": "double"},
]
CASES = [(4, mix) for mix in MIXES]
# Games per case in the default run: at least MIN_GAMES, then more until STEP_BUDGET steps or
# MAX_GAMES games.
MIN_GAMES, MAX_GAMES, STEP_BUDGET = 20, 400, 4_000
SKIP = ("cached_legal", "game")  # the cache is the reference's own; the game by its rules
PROTOCOL = ("current", "actions_taken", "truncated", "deck", "seed", "history", "log", "n")


def choose(rng: random.Random, legal: list[int]) -> int:
    """A random legal action, a pass more often than not when one is legal (so auctions end
    with low bids and thrown-in hands as well as with double thirteen)."""
    if legal[0] == PASS and rng.random() < 0.6:
        return PASS
    return rng.choice(legal)


def games(n: int, mix: dict[str, Any]) -> tuple[TekaGame, TekaGame]:
    """The reference game and the compiled game of one rule set."""
    return make_game(n, engine="python", **mix), make_game(n, engine="compiled", **mix)


def snapshot(s: Any) -> tuple[str, ...]:
    """Every attribute of the reference ``State`` (but its cache; the game by its rules) and
    what its queries answer."""
    names = [name for name in (*ReferenceState.__slots__, *PROTOCOL) if name not in SKIP]
    return (
        *(repr(getattr(s, name)) for name in names),
        repr(s.game.rules),
        repr((s.is_terminal, s.tricks_to_go(), s.raise_targets(), s._voids())),
        repr([s.next_seat(p) for p in range(4)]),
    )


def observations(game: TekaGame, state: Any) -> list[bytes]:
    return [game.observation(state, seat).tobytes() for seat in range(4)]


def compare(py: TekaGame, co: TekaGame, ref: Any, com: Any, logged: int = 0) -> None:
    """What any seat or the env can read, on both engines (the log from entry ``logged``
    on: a log only grows, and the game's end compares it whole)."""
    compare_protocol(py, co, ref, com, logged)
    for seat in range(-1, 4):  # -1: the last seat, as lists index
        assert com.view(seat) == ref.view(seat)
    legal = ref.legal_actions()
    if legal:  # the mover's turn features: the C writer against turns.py
        rows = co.turn_features(com, ref.current, legal)
        assert rows.tobytes() == py.turn_features(ref, ref.current, legal).tobytes()


play_out = functools.partial(shared_play_out, compare, snapshot, choose=choose)


def check_determinize(py: TekaGame, co: TekaGame, ref: Any, com: Any, seed: int) -> None:
    """The same generator gives the same deal, leaves the generator in the same state, and
    the deals play on identically (later hands too, from their fresh seeds)."""
    seat = seed % 5 - 1  # -1: no seat, every hand hidden (as the reference)
    rngs = random.Random(seed), random.Random(seed)
    a = ref.determinize(seat, rngs[0])
    b = com.determinize(seat, rngs[1])
    assert rngs[0].random() == rngs[1].random()
    assert snapshot(b) == snapshot(a)
    assert b.history == [] and b.log is None and b.deck == []
    if 0 <= seat < 4:
        assert co.observation(b, seat).tobytes() == co.observation(com, seat).tobytes()
        assert b.view(seat) == com.view(seat)
    play_out(py, co, a, b, random.Random(seed))


def every_seats_turn_rows(py: TekaGame, co: TekaGame, ref: Any, com: Any) -> None:
    """Every seat's turn rows of the mover's calls and its own cards, on both engines."""
    legal = ref.legal_actions()
    for seat in range(4):
        mine = [a for a in legal if a >= NUM_CARDS] + ref.hands[seat]
        rows = co.turn_features(com, seat, mine).tobytes()
        assert rows == py.turn_features(ref, seat, mine).tobytes()


# the step that also checks clones, deals and errors: in the auction or the first tricks on
# every other game, else anywhere in the first hands
play_both = functools.partial(
    shared_play_both,
    compare=compare,
    snapshot=snapshot,
    determinize=check_determinize,
    probe=lambda seed, ref: 12 if seed % 2 else 120,
    choose=choose,
    at_probe=every_seats_turn_rows,
)


def test_the_cases_play_every_option_value():
    played = [make_rules(n, **mix) for n, mix in CASES]
    others = option_values(Rules, played)
    assert set(others) == {"num_players", "target", "max_hands"}
    assert others["num_players"][1] == {4}
    assert_bounded_options_reach(others, ("target", "max_hands"))
    assert 200 in others["target"][1]  # target's maximum


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_both_engines_play_the_same_games(case: tuple[int, dict[str, Any]]) -> None:
    n, mix = case
    pair = games(n, mix)
    play = functools.partial(play_both, pair)
    play_budgeted(play, case_id(case), (MIN_GAMES, MAX_GAMES), STEP_BUDGET)


def test_the_differential_games_reach_every_ending():
    """Redeals, asks for a new deal, throw-ins, raises, double thirteen, made and failed
    contracts, the game's end and its truncation all happen in the compared games."""
    seen: set[str] = set()
    for n, mix in CASES:
        game = make_game(n, engine="compiled", **mix)
        for seed in range(25):
            state = game.new_state(seed=seed, log=True)
            rng = random.Random(seed)
            while not state.is_terminal:
                state.apply(choose(rng, state.legal_actions()))
            seen.update(event["type"] for event in state.log)
            seen.update(f"{e['choice']}" for e in state.log if e["type"] == "ask")
            for e in state.log:
                if e["type"] == "hand_end":
                    seen.add(f"made={e['made']}")
                    seen.add(f"double={e['double']}")
    assert {"deal", "redeal", "ask", "call", "throw_in", "trump", "raise", "play"} <= seen
    assert {"trick_won", "hand_end", "game_over", "truncated", "keep"} <= seen
    assert {"made=True", "made=False", "double=True", "double=False"} <= seen


def test_fixed_decks_deal_and_play_the_same():
    """``new_state(deck=...)``: one hand's deck, several hands' decks, by name and by id."""
    for k, mix in enumerate([{}, MIXES[1]]):
        py, co = games(4, mix)
        for seed in range(10):
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


def test_a_hand_without_honours_is_redealt_asked_about_or_kept_alike():
    """A deck whose first hand holds no ace, king, queen or jack: redealt at once, kept, or
    its holder asks for a new deal (or keeps it) in the ask round, on both engines."""
    poor = [c for c in range(NUM_CARDS) if c % 13 < 9][:13]
    for seed in range(6):
        rng = random.Random(seed)
        rest = [c for c in range(NUM_CARDS) if c not in poor]
        rng.shuffle(rest)
        deck = poor + rest
        for mix in ({}, MIXES[1], MIXES[2]):
            py, co = games(4, mix)
            ref = py.new_state(deck * 2, seed=seed, log=True)
            com = co.new_state(deck * 2, seed=seed, log=True)
            compare(py, co, ref, com)
            if mix.get("no_honours") == "ask":
                assert ref.legal_actions() == [KEEP, NEW_DEAL]
                ref.apply(NEW_DEAL if seed % 2 else KEEP)
                com.apply(NEW_DEAL if seed % 2 else KEEP)
                compare(py, co, ref, com)
            play_out(py, co, ref, com, rng)
            kinds = [e["type"] for e in ref.log]
            assert ("redeal" in kinds) == (mix.get("no_honours", "redeal") == "redeal")
            assert com.log == ref.log and game_record(com) == game_record(ref)


def test_records_replay_on_both_engines():
    assert_records_replay(games, CASES[::3], 3)


def test_the_default_env_plays_as_the_reference_env():
    """``koira_env.make("teka")`` (compiled by default) and ``engine="python"`` give the same
    observations, masks, rewards, ends and infos for the same actions."""
    for mix in [{}, MIXES[1], MIXES[2]]:
        envs = [koira_env.make("teka", 4, **mix), koira_env.make("teka", 4, engine="python", **mix)]
        assert envs[0].game.engine == "compiled" and envs[1].game.engine == "python"
        assert_envs_play_alike(envs, range(3))


def test_the_compiled_state_refuses_bad_seats_and_reads_as_the_reference():
    """``observe_into`` and the other compiled-core checks are in tests/test_games.py."""
    game = make_game(4, target=30, engine="compiled")
    state = game.new_state(seed=3)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(4)
    with pytest.raises(IndexError, match="seat must be"):
        state.view(-5)
    with pytest.raises(IndexError, match="out of range"):
        game.action_mask([game.num_actions])
    with pytest.raises(ValueError, match="rules"):
        make_game(4, engine="compiled").observation(state, 0)  # another target
    # the reference encoder and turn features read the compiled state's attributes too
    reference = make_game(4, target=30, engine="python")
    rng = random.Random(0)
    while True:
        for seat in range(4):
            expected = reference.observation(state, seat).tobytes()
            assert game.observation(state, seat).tobytes() == expected
        if state.is_terminal:
            break
        legal = state.legal_actions()
        rows = game.turn_features(state, state.current, legal)
        assert rows.tobytes() == reference.turn_features(state, state.current, legal).tobytes()
        state.apply(rng.choice(legal))


def test_games_and_states_pickle():
    assert_games_and_states_pickle(make_game, snapshot, 4, failed_bid="double")


def test_each_engine_makes_its_own_states():
    """The choice of engine and the other compiled-core checks are in tests/test_games.py."""
    assert make_game(4).engine == "compiled"
    assert isinstance(make_game(4, engine="compiled").new_state(seed=1), _compiled.State)
    assert isinstance(make_game(4, engine="python").new_state(seed=1), ReferenceState)


# ------------------------------------------------------------------ the solvers and bots
def _pairs_in_play(count: int, max_cards: int) -> list[tuple[Any, Any]]:
    """Random (reference, compiled) states in the same position in the play with at most
    ``max_cards`` cards in the hands, or in the auction."""
    found = []
    py, co = games(4, {"early_end": False, "single_hand": True})
    for seed in range(count):
        ref, com = py.new_state(seed=seed), co.new_state(seed=seed)
        rng = random.Random(seed)
        while not ref.is_terminal and (ref.phase != PLAY or _in_hands(ref) > max_cards):
            if seed % 5 == 0 and ref.phase < PLAY and rng.random() < 0.3:
                break  # an auction position
            action = rng.choice(ref.legal_actions())
            ref.apply(action)
            com.apply(action)
        if not ref.is_terminal:
            found.append((ref, com))
    return found


def _in_hands(state: Any) -> int:
    """The cards still in play: a double thirteen's idle partner's hand is not."""
    return sum(len(h) for p, h in enumerate(state.hands) if p != state.out)


def test_the_solvers_and_bots_read_the_compiled_states_alike():
    """``solver``'s position, move values and brute force, ``search``'s PIMC values and the
    bots give the same answers on both engines' states of one position."""
    checked = 0
    for ref, com in _pairs_in_play(40, 12):
        seat = ref.current
        if ref.phase == PLAY:
            assert solver.position(com) == solver.position(ref)
            assert solver.move_values(com) == solver.move_values(ref)
            if _in_hands(ref) <= 8:
                assert solver.brute_force(com) == solver.brute_force(ref)
        turns = [Turn(s.view(seat), s.game, random.Random(seat), s) for s in (ref, com)]
        assert CounterBot().act(turns[1]) == CounterBot().act(turns[0])
        assert GreedyBot().act(turns[1]) == GreedyBot().act(turns[0])
        values = [search.move_values(t, 3, 0, engine="python") for t in turns]
        assert values[1] == values[0]  # the same deals from the same generator
        checked += 1
    assert checked >= 25


# ------------------------------------------------------------------ many games
SLOW_GAMES = 100_000
SLOW_CHUNKS = 40


def _chunk(chunk: int, chunks: int, total: int) -> tuple[int, int]:
    """Play games ``chunk, chunk + chunks, ...`` below ``total``, cycling through the cases:
    one in 50 as fully as the default run (``play_both``), the rest comparing the turns,
    legal sets and observations of the actor, and the whole state and log at the end."""
    return play_cases(chunk, chunks, total, CASES, games, _play_one)


def _play_one(pair: tuple[TekaGame, TekaGame], g: int) -> int:
    if g % 50 == 0:
        return play_both(pair, g)
    py, co = pair
    ref = py.new_state(seed=g, log=g % 2 == 0)
    com = co.new_state(seed=g, log=g % 2 == 0)
    rng = random.Random(g)
    while not ref.is_terminal:
        legal = ref.legal_actions()
        assert com.legal_actions() == legal and com.current == ref.current, g
        seat = ref.current
        assert co.observation(com, seat).tobytes() == py.observation(ref, seat).tobytes()
        action = choose(rng, legal)
        ref.apply(action)
        com.apply(action)
    assert snapshot(com) == snapshot(ref), g
    assert com.returns() == ref.returns() and com.outcome() == ref.outcome(), g
    return ref.actions_taken


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_a_hundred_thousand_games_play_the_same():
    """100,000 games in chunks over every core."""
    run_chunks(_chunk, SLOW_CHUNKS, SLOW_GAMES)
