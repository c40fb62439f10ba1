"""Misuse: illegal and out-of-range actions, wrong call order, bad options and decks."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

import koira_env
from koira_env import IllegalActionError
from koira_env.cards import card_name
from koira_env.games.koira.engine import RISK, TAKE


@pytest.fixture
def logged():
    """PettingZoo's warnings, collected the way its own tests do."""
    EnvLogger.flush()
    EnvLogger.suppress_output()
    yield EnvLogger.mqueue
    EnvLogger.unsuppress_output()
    EnvLogger.flush()


def illegal_card(state) -> int:
    return next(c for c in range(52) if c not in state.legal_actions())


def test_raw_env_raises_naming_the_action_and_the_legal_ones():
    env = koira_env.raw_env()
    env.reset(seed=1)
    state = env.unwrapped.state_object
    bad = illegal_card(state)
    with pytest.raises(IllegalActionError, match=card_name(bad)) as err:
        env.step(bad)
    assert isinstance(err.value, ValueError)
    for action in state.legal_actions():
        assert f"{action} (" in str(err.value)
    for action in (999, -1, None, "AS"):
        with pytest.raises(IllegalActionError, match="illegal action"):
            env.step(action)
    assert state.actions_taken == 0 and env.agent_selection == "player_0"


def test_env_ends_the_game_on_an_illegal_move(logged):
    env = koira_env.env()
    env.reset(seed=1)
    rng = random.Random(0)
    for _ in range(7):
        obs, *_ = env.last()
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    offender = env.agent_selection
    bad = TAKE  # never legal in phase one
    env.step(bad)
    assert any("Illegal move made" in m for m in logged)
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    for agent in env.possible_agents:
        assert env.infos[agent]["illegal_action"] == {"agent": offender, "action": bad}
        assert not env.observe(agent)["action_mask"].any()
    assert env.unwrapped.state_object.history.count(bad) == 0  # never applied
    seen = {}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last()
        assert terminated and truncated
        seen[agent] = reward
        with pytest.raises(ValueError, match="only valid action is None"):
            env.step(0)
        with pytest.raises(AssertionError, match="action is not in action space"):
            env.step(99)
        env.step(None)
    assert seen == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []


@pytest.mark.parametrize("action", [54, -1, 10**6, None, 1.5, "AS"])
def test_env_asserts_on_actions_outside_the_space(action):
    env = koira_env.env()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(action)
    assert env.unwrapped.state_object.actions_taken == 0


def test_numpy_integer_actions_are_accepted_and_recorded_as_int():
    env = koira_env.env()
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    env.step(np.int32(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert [type(a) for a in env.unwrapped.state_object.history] == [int, int]


def test_risk_is_an_ordinary_action():
    env = koira_env.env()
    env.reset(seed=0)
    assert env.last()[0]["action_mask"][RISK] == 1
    env.step(RISK)
    assert env.unwrapped.state_object.actions_taken == 1


@pytest.mark.parametrize("factory", [koira_env.env, koira_env.raw_env])
def test_calls_before_reset_fail_like_order_enforcing_wrapper(factory):
    env = factory()
    for name in ("agents", "num_agents", "rewards", "terminations", "infos", "agent_selection"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        env.step(0)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before observe"):
        env.observe("player_0")
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before render"):
        env.render()
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before agent_iter"):
        env.agent_iter()
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        env.nonsense  # noqa: B018


def test_agent_iter_requires_a_step_each_turn():
    env = koira_env.env()
    env.reset(seed=0)
    it = iter(env.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)


def test_step_after_the_game_warns(logged):
    env = koira_env.env(3)
    env.reset(seed=2)
    rng = random.Random(0)
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _i = env.last()
        env.step(
            None
            if terminated or truncated
            else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        )
    assert env.agents == [] and not logged
    env.step(None)
    assert any("step() called after all agents are terminated" in m for m in logged)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": "poker"}, "unknown rules preset 'poker'"),
        ({"rules": "mattis", "num_players": 2}, "played by 3-8 players, got num_players=2"),
        ({"num_players": 9}, "played by 2-8 players, got num_players=9"),
        ({"num_players": 1}, "got num_players=1"),
        ({"war_mood": "split"}, r"unknown rule option\(s\) \['war_mood'\]"),
        ({"take": "top"}, "option take='top' is not valid"),
        ({"take_one_card": True}, "needs sequences=2 or sequences=3"),
        ({"render_mode": "rgb"}, "render_mode='rgb' is not supported"),
    ],
)
@pytest.mark.parametrize("factory", [koira_env.env, koira_env.raw_env])
def test_bad_options_raise_value_error_naming_the_problem(factory, kwargs, message):
    with pytest.raises(ValueError, match=message):
        factory(**kwargs)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (["AS"] * 52, "repeats AS"),
        ([card_name(c) for c in range(51)], "must hold all 52 cards, got 51"),
        ([*(card_name(c) for c in range(51)), "ZZ"], r"deck\[51\]: unknown card 'ZZ'"),
        ("AS KS", "deck must be a list"),
        ([*range(51), 52], r"deck\[51\] is 52"),
    ],
)
def test_bad_decks_raise_value_error_naming_the_problem(deck, message):
    env = koira_env.env()
    with pytest.raises(ValueError, match=message):
        env.reset(options={"deck": deck})
