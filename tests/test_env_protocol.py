"""The AEC env's per-step protocol in C (``core/_aec.pyx``) against its readable reference
(``core.env.EnvProtocol``): the same games played side by side give the same returns, errors
and attributes at every call, good and bad input alike; and without the compiled protocol the
env runs on the reference and passes PettingZoo's checker."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import koira_env
from koira_env.core import _aec
from koira_env.core.env import CardGameEnv, EnvProtocol, RawCardGameEnv
from koira_env.core.game import IllegalActionError
from koira_env.core.parts import part_actions


class ReferenceEnv(EnvProtocol, CardGameEnv):
    """``CardGameEnv`` with the reference protocol in front of the compiled one."""


class ReferenceRawEnv(EnvProtocol, RawCardGameEnv):
    """``RawCardGameEnv`` likewise."""


CASES = [
    ("koira", 4, {}),
    ("koira", 3, {"rules": "mattis"}),
    ("koira", 5, {"max_actions": 100}),  # truncations
    ("matapesa", 4, {}),
    ("whist22", 4, {}),
    ("kop", 4, {"single_hand": True}),
    ("dois", 3, {"hands": 1}),
    ("teka", 4, {"single_hand": True}),
    ("red7", 4, {}),
    ("red7", 2, {}),
    ("red7", 4, {"split_actions": True}),  # each turn in two parts (core.parts)
    ("red7", 3, {"split_actions": True, "scoring": "points", "canvas_draw": True}),
]


def outcome(call: Any) -> tuple[str, Any]:
    """What a call gave: its value, or its exception's type and message."""
    try:
        return "value", call()
    except (AssertionError, ValueError, TypeError, AttributeError, IllegalActionError) as error:
        # OverflowError is not here: no call may raise it
        return "error", (type(error).__name__, str(error))


def same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return type(a) is type(b) and a == b


def attributes(env: CardGameEnv) -> tuple[Any, ...]:
    return (
        env._agent_selection,
        env._skip_agent_selection,
        env._agents,
        env._rewards,
        env._cumulative_rewards,
        env._terminations,
        env._truncations,
        env._infos,
        env._over,
        env._has_updated,
        env._pending,
    )


def an_action(env: CardGameEnv, rng: random.Random, odd: float) -> Any:
    """A legal action (a numpy integer one time in ten), or with probability ``odd`` one of
    every kind of bad or odd input."""
    legal = env.state_object.legal_actions() if not env._over else []
    if env._parts:
        legal = part_actions(legal, env._parts, env._pending)
    if legal and rng.random() >= odd:
        choice = rng.choice(legal)
        return np.int64(choice) if rng.random() < 0.1 else choice
    return rng.choice(
        [None, -1, env._num_actions, 2**70, 1.0, True, "x", np.int32(0), 0, *legal[:1]]
    )


@pytest.mark.parametrize("raw", [False, True], ids=["env", "raw_env"])
@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_the_compiled_protocol_answers_as_the_reference(game, players, options, raw) -> None:
    options = dict(options)
    split = options.pop("split_actions", False)
    built = koira_env.make_game(game, players, **options)
    ours = (RawCardGameEnv if raw else CardGameEnv)(built, split_actions=split)
    theirs = (ReferenceRawEnv if raw else ReferenceEnv)(built, split_actions=split)
    assert type(ours).step is _aec.EnvCore.step and type(theirs).step is EnvProtocol.step
    rng = random.Random(players)
    ended = 0
    for seed in range(6):
        for env in (ours, theirs):
            env.reset(seed=seed)
        loops = [iter(env.agent_iter(400)) for env in (ours, theirs)]
        while True:
            turn = [next(agents, None) for agents in loops]
            assert turn[0] == turn[1]
            if turn[0] is None:
                break
            assert same(*(outcome(env.last) for env in (ours, theirs)))
            assert same(*(outcome(lambda e=env: e.last(False)) for env in (ours, theirs)))
            for agent in rng.sample(ours.possible_agents, 2):
                views = [outcome(lambda e=env, a=agent: e.observe(a)) for env in (ours, theirs)]
                assert same(*views)
            action = an_action(ours, rng, odd=0.0 if seed < 3 else 0.05)
            results = [outcome(lambda e=env, a=action: e.step(a)) for env in (ours, theirs)]
            assert same(results[0], results[1]), action
            assert same(attributes(ours), attributes(theirs))
        ended += bool(ours.state_object.is_terminal)
    assert ended >= 3  # the games of legal play at least reach their end


def test_a_loop_that_forgets_to_step_stops_alike() -> None:
    """The agent iterator's order check: a second turn without a step is an AssertionError,
    after which the iterator stays stopped, on both protocols."""
    for cls in (CardGameEnv, ReferenceEnv):
        env = cls(koira_env.make_game("kop"))
        env.reset(seed=1)
        turns = iter(env.agent_iter())
        assert next(turns) == env.agent_selection
        with pytest.raises(AssertionError, match="need to call step"):
            next(turns)
        with pytest.raises(StopIteration):
            next(turns)
        limited = iter(env.agent_iter(max_iter=1))
        env.step(env.state_object.legal_actions()[0])
        next(limited)
        env.step(env.state_object.legal_actions()[0])
        with pytest.raises(StopIteration):
            next(limited)


def test_before_reset_both_protocols_name_the_missing_reset() -> None:
    for cls in (CardGameEnv, ReferenceEnv):
        env = cls(koira_env.make_game("red7"))
        with pytest.raises(AttributeError, match="agent_selection cannot be accessed before"):
            env.last()
        for call in (lambda e=env: e.step(0), lambda e=env: e.observe("player_0")):
            with pytest.raises(AssertionError):  # PettingZoo's EnvLogger errors
                call()


def test_without_the_compiled_protocol_the_env_runs_on_the_reference() -> None:
    """A source checkout whose extensions are not built: the env is ``EnvProtocol``'s, and
    PettingZoo's api_test passes."""
    code = (
        "import sys, warnings; sys.modules['koira_env.core._aec'] = None\n"
        "warnings.simplefilter('ignore')\n"
        "import koira_env\n"
        "from koira_env.core.env import CardGameEnv, EnvProtocol\n"
        "from pettingzoo.test import api_test\n"
        "assert CardGameEnv.step is EnvProtocol.step\n"
        "api_test(koira_env.env('red7'), num_cycles=40)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")
