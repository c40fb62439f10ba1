"""Two engines of one game stepped side by side: the compiled-engine tests' checks that the
compiled core plays exactly as the reference engine, env by env and state by state."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np


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
    compare: Callable, snapshot: Callable, py: Any, co: Any, ref: Any, com: Any, rng: Any
) -> None:
    """Play both to the end with the same random choices, comparing every step (``compare``
    is given the log's length before the step: a log only grows)."""
    while not ref.is_terminal:
        logged = 0 if ref.log is None else len(ref.log)
        action = rng.choice(ref.legal_actions())
        ref.apply(action)
        com.apply(action)
        compare(py, co, ref, com, logged)
    assert snapshot(com) == snapshot(ref)


def check_clone(
    compare: Callable, snapshot: Callable, py: Any, co: Any, ref: Any, com: Any, seed: int
) -> None:
    """A clone plays on like the reference's clone and leaves the original untouched; a
    pickled state is the same state."""
    before = snapshot(com)
    play_out(compare, snapshot, py, co, ref.clone(), com.clone(), random.Random(seed))
    assert snapshot(com) == before
    copy = pickle.loads(pickle.dumps(com))
    assert snapshot(copy) == before and copy.game.rules == com.game.rules
    assert observations(co, copy) == observations(co, com)


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
