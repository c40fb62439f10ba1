"""Two engines of one game stepped side by side: the compiled-engine tests' checks that the
compiled core plays exactly as the reference engine, env by env and state by state."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from helpers import try_illegal

from koira_env.core.game import IllegalActionError
from koira_env.core.record import game_record
from koira_env.registry import replay


def assert_envs_play_alike(envs: list, seeds: range) -> None:
    """For each seed, both envs give the same observations, masks, rewards, ends and infos
    for the same random legal actions, and the same record."""
    for g in seeds:
        rng = random.Random(g)
        for env in envs:
            env.reset(seed=g)
        for agent in envs[0].agent_iter():
            (obs, reward, term, trunc, info), ref = [env.last() for env in envs]
            assert envs[1].agent_selection == agent
            assert obs["observation"].tobytes() == ref[0]["observation"].tobytes()
            assert obs["action_mask"].tobytes() == ref[0]["action_mask"].tobytes()
            assert (reward, term, trunc, info) == ref[1:]
            action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]))
            for env in envs:
                env.step(action)
        assert envs[0].game_record() == envs[1].game_record()


# --- two engines of one game, state by state: the pieces every compiled core's test shares ---
# A game's test module keeps what is its own (``snapshot``: every attribute of its reference
# state; ``compare``: what any seat or the env can read) and passes them in.


def case_id(case: tuple[int, dict[str, Any]]) -> str:
    """``"4p-single_hand=True"``: a table size and an option mix as a test id."""
    n, mix = case
    return "-".join([f"{n}p", *(f"{k}={v}" for k, v in mix.items())]) if mix else f"{n}p"


def observations(game: Any, state: Any) -> list[bytes]:
    """Every seat's observation, as bytes."""
    return [game.observation(state, seat).tobytes() for seat in range(state.n)]


def play_out(
    compare: Callable,
    snapshot: Callable,
    py: Any,
    co: Any,
    ref: Any,
    com: Any,
    rng: Any,
    choose: Callable = random.Random.choice,
) -> None:
    """Play both to the end with the same random choices (``choose(rng, legal)``), comparing
    every step (``compare`` is given the log's length before the step: a log only grows)."""
    while not ref.is_terminal:
        logged = 0 if ref.log is None else len(ref.log)
        action = choose(rng, ref.legal_actions())
        ref.apply(action)
        com.apply(action)
        compare(py, co, ref, com, logged)
    assert snapshot(com) == snapshot(ref)


def check_clone(
    compare: Callable,
    snapshot: Callable,
    py: Any,
    co: Any,
    ref: Any,
    com: Any,
    seed: int,
    choose: Callable = random.Random.choice,
) -> None:
    """A clone plays on like the reference's clone and leaves the original untouched; a
    pickled state is the same state."""
    before = snapshot(com)
    rng = random.Random(seed)
    play_out(compare, snapshot, py, co, ref.clone(), com.clone(), rng, choose)
    assert snapshot(com) == before
    copy = pickle.loads(pickle.dumps(com))
    assert snapshot(copy) == before and copy.game.rules == com.game.rules
    assert observations(co, copy) == observations(co, com)


def check_determinize(
    compare: Callable,
    snapshot: Callable,
    py: Any,
    co: Any,
    ref: Any,
    com: Any,
    seed: int,
    play: bool = True,
) -> tuple[Any, Any]:
    """The same generator gives the same deal, leaves the generator in the same state, and
    the deals play on identically (later hands too, from their fresh seeds). The seat is
    drawn from -1 to n: -1 and n are no seat, every hand hidden (as the reference). Returns
    both deals (for a game whose own ``play_out`` plays them on, with ``play=False``)."""
    seat = seed % (ref.n + 2) - 1
    rngs = random.Random(seed), random.Random(seed)
    a = ref.determinize(seat, rngs[0])
    b = com.determinize(seat, rngs[1])
    assert rngs[0].random() == rngs[1].random()
    assert snapshot(b) == snapshot(a)
    assert b.history == [] and b.log is None and b.deck == []
    if 0 <= seat < ref.n:
        assert co.observation(b, seat).tobytes() == co.observation(com, seat).tobytes()
        assert b.view(seat) == com.view(seat)
    if play:
        play_out(compare, snapshot, py, co, a, b, random.Random(seed))
    return a, b


def play_quickly(snapshot: Callable, pair: tuple[Any, Any], g: int) -> int:
    """Game ``g`` on both engines comparing the turns, legal sets and observations of the
    actor, and the whole state and result at the end (the long runs' usual game)."""
    py, co = pair
    ref = py.new_state(seed=g, log=g % 2 == 0)
    com = co.new_state(seed=g, log=g % 2 == 0)
    rng = random.Random(g)
    while not ref.is_terminal:
        legal = ref.legal_actions()
        assert com.legal_actions() == legal and com.current == ref.current, g
        seat = ref.current
        assert co.observation(com, seat).tobytes() == py.observation(ref, seat).tobytes()
        action = rng.choice(legal)
        ref.apply(action)
        com.apply(action)
    assert snapshot(com) == snapshot(ref), g
    assert com.returns() == ref.returns() and com.outcome() == ref.outcome(), g
    return ref.actions_taken


def compare_protocol(py: Any, co: Any, ref: Any, com: Any, logged: int = 0) -> None:
    """What the protocol and the env read of any game, on both engines: the turn, the end,
    the returns and outcome, the history, the log from entry ``logged`` on (a log only
    grows, and the game's end compares it whole), every seat's observation, the legal
    actions and their mask. A game's own ``compare`` adds its views."""
    assert com.current == ref.current and com.is_terminal == ref.is_terminal
    assert com.truncated == ref.truncated and com.returns() == ref.returns()
    assert com.outcome() == ref.outcome()
    assert com.actions_taken == ref.actions_taken and com.history == ref.history
    if ref.log is None:
        assert com.log is None
    else:
        assert len(com.log) == len(ref.log) and com.log[logged:] == ref.log[logged:]
    assert observations(co, com) == observations(py, ref), ref.actions_taken
    legal = ref.legal_actions()
    assert com.legal_actions() == legal
    assert co.action_mask(legal).tobytes() == py.action_mask(legal).tobytes()


def play_both(
    pair: tuple[Any, Any],
    seed: int,
    deep: bool = True,
    *,
    compare: Callable,
    snapshot: Callable,
    determinize: Callable,
    probe: Callable[[int, Any], int],
    choose: Callable = random.Random.choice,
    at_probe: Callable | None = None,
) -> int:
    """One game on both engines, compared at every step (``compare``); returns its length.
    ``deep`` also checks, at step ``rng.randrange(probe(seed, ref))`` (where a game's first
    hand ends, or later), every attribute, illegal and non-integer actions,
    clones, pickling, determinized deals (``determinize``) and the game's own ``at_probe``
    checks. ``choose(rng, legal)`` picks the random actions."""
    py, co = pair
    ref = py.new_state(seed=seed, log=True)
    com = co.new_state(seed=seed, log=True)
    rng = random.Random(seed)
    step = rng.randrange(probe(seed, ref))
    logged = 0
    while True:
        compare(py, co, ref, com, logged)
        if ref.is_terminal:
            break
        if deep and ref.actions_taken == step:
            assert snapshot(com) == snapshot(ref)
            if at_probe is not None:
                at_probe(py, co, ref, com)
            try_illegal(ref, com, rng, snapshot)
            check_clone(compare, snapshot, py, co, ref, com, seed, choose)
            determinize(py, co, ref, com, seed)
        logged = len(ref.log)
        action = choose(rng, ref.legal_actions())
        ref.apply(action)
        com.apply(action)
    assert snapshot(com) == snapshot(ref)
    assert com.log == ref.log
    assert game_record(com) == game_record(ref)
    with pytest.raises(IllegalActionError, match="the game is over"):
        com.apply(ref.history[-1])
    return ref.actions_taken


def assert_records_replay(games: Callable, cases: list, seeds: int) -> None:
    """A record made on either engine replays (on the default engine, the compiled one) to
    the same game; the engine is not part of the record's rules."""
    for n, mix in cases:
        for seed in range(seeds):
            states = []
            for game in games(n, mix):
                state = game.new_state(seed=seed, log=True)
                rng = random.Random(seed)
                while not state.is_terminal:
                    state.apply(rng.choice(state.legal_actions()))
                states.append(state)
            record = game_record(states[1])
            assert record == game_record(states[0]) and "engine" not in record["rules"]
            again = replay(record)
            assert again.game.engine == "compiled"
            assert again.log == states[0].log and again.history == states[0].history


def assert_games_and_states_pickle(
    make_game: Callable, snapshot: Callable, *args: Any, **options: Any
) -> None:
    """Games and states of both engines pickle: the same rules, the same state, the same
    observation."""
    for engine in ("compiled", "python"):
        game = make_game(*args, engine=engine, **options)
        copy = pickle.loads(pickle.dumps(game))
        assert copy.rules == game.rules and copy.engine == engine
        state = game.new_state(seed=9, log=True)
        state.apply(state.legal_actions()[-1])
        again = pickle.loads(pickle.dumps(state))
        assert snapshot(again) == snapshot(state)
        assert copy.observation(again, 1).tobytes() == game.observation(state, 1).tobytes()


def option_values(
    rules_class: Any, played: list, own: tuple[str, ...] = ()
) -> dict[str, tuple[Any, set, Any]]:
    """Across the rules ``played`` (the differential cases), every option with choices takes
    each of them and every flag both values (asserted here); the other options and those
    named in ``own``, for the game's own checks: name -> (default, the values played, the
    field's metadata)."""
    others = {}
    for name, value in rules_class().to_dict().items():
        values = {getattr(rules, name) for rules in played}
        metadata = rules_class.__dataclass_fields__[name].metadata
        choices = metadata.get("choices")
        if choices is not None and name not in own:
            assert values == set(choices), name
        elif isinstance(value, bool):
            assert values == {False, True}, name
        else:
            others[name] = (value, values, metadata)
    return others


def assert_bounded_options_reach(others: dict[str, tuple[Any, set, Any]], names: tuple) -> None:
    """Each of ``names`` is played at its default, at its lower bound and at a third value."""
    for name in names:
        value, values, metadata = others[name]
        assert value in values and metadata["min"] in values and len(values) >= 3, name
