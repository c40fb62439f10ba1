"""The single-agent wrapper: every transition is the learner's, masks are its legal moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from koira_env import make_game
from koira_env.core.game import IllegalActionError
from koira_env.core.single_agent import ILLEGAL_REWARD, SingleAgentEnv
from koira_env.games.koira.observation import ObservationEncoder


def koira(players: int = 4, rules: str = "koira", **options) -> SingleAgentEnv:
    return make_game("koira", players, rules=rules, **options)


class Spy:
    """Opponent sampler whose opponents play at random and record who they were asked for."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []  # (seat asked for, state.current)

    def __call__(self, rng: random.Random):
        def play(state, seat: int) -> int:
            self.calls.append((seat, state.current))
            return rng.choice(state.legal_actions())

        return play


def _play_episode(env: SingleAgentEnv, seed: int) -> tuple[list[float], int]:
    """Random legal learner moves; checks every transition, returns rewards and seat."""
    obs, info = env.reset(seed=seed)
    seat = info["seat"]
    other = ObservationEncoder(env.rules)
    rewards = []
    done = False
    while True:
        state = env.state
        assert state.current == seat
        np.testing.assert_array_equal(obs, other.observation(state, seat))
        mask = env.action_masks()
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(state.legal_actions())
        assert mask.sum() >= 2  # forced moves are played for the learner
        if done:
            break
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[seed % 2]))
        rewards.append(reward)
        done = terminated or truncated
        if done:
            assert env.state.is_terminal
            assert reward == env.state.returns()[seat]
            assert not env.action_masks().any()
            return rewards, seat
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("players", "rules"), [(4, "koira"), (3, "koira-b"), (2, "koira")])
def test_transitions_belong_to_the_learner(players: int, rules: str) -> None:
    spy = Spy()
    env = SingleAgentEnv(koira(players, rules), opponent_sampler=spy)
    seats = set()
    for seed in range(30):
        spy.calls.clear()
        rewards, seat = _play_episode(env, seed)
        seats.add(seat)
        assert all(r == 0.0 for r in rewards[:-1])
        assert spy.calls, "opponents never played"
        assert all(asked == current != seat for asked, current in spy.calls)
    assert seats == set(range(players))  # the seat is drawn each episode


def test_fixed_seat_and_losses_are_the_learners() -> None:
    env = SingleAgentEnv(koira(), learner_seat=2, opponent_sampler=Spy())
    finals = []
    for seed in range(40):
        rewards, seat = _play_episode(env, seed)
        assert seat == 2
        finals.append(rewards[-1])
        if rewards[-1] == -1.0:
            assert env.state.loser == 2
    assert -1.0 in finals and 1.0 / 3 in finals


def test_reset_is_reproducible_by_seed() -> None:
    a, b = SingleAgentEnv(koira()), SingleAgentEnv(koira())
    obs_a, info_a = a.reset(seed=7)
    obs_b, info_b = b.reset(seed=7)
    assert info_a == info_b
    np.testing.assert_array_equal(obs_a, obs_b)
    assert a.state.deck == b.state.deck


@pytest.mark.parametrize("bad", ["masked", 54, 10**6, -1])
def test_illegal_action_loses_the_episode_and_ends_it(bad) -> None:
    """Masked, past the mask or negative (which once indexed the mask from the end): a loss,
    and the episode is over: a further step needs a reset."""
    env = SingleAgentEnv(koira())
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0]) if bad == "masked" else bad
    history = list(env.state.history)
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False)
    assert info["illegal_action"] and env.state.history == history
    legal = int(np.flatnonzero(env.action_masks())[0])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(legal)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # a new episode plays again
    with pytest.raises(RuntimeError, match="reset"):
        SingleAgentEnv(koira()).step(0)


def test_non_integer_actions_are_refused_before_anything_changes() -> None:
    env = SingleAgentEnv(koira())
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.action_masks())[0])
    history = list(env.state.history)
    for bad in (float(legal), "1", None):
        with pytest.raises(IllegalActionError, match="integer"):
            env.step(bad)
    assert env.state.history == history
    env.step(np.int64(legal))


def test_constructor_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv(koira(3, "koira-b"), learner_seat=3)
    with pytest.raises(ValueError, match="unknown rule option"):
        SingleAgentEnv(koira(no_such_option=1))
    env = SingleAgentEnv(koira(5, "mattis", reward="placement"))
    assert env.observation_space.shape == (ObservationEncoder(env.rules).size,)


def test_gymnasium_env_checker_passes() -> None:
    gym_check_env(SingleAgentEnv(koira()), skip_render_check=True)


def test_sb3_env_checker_passes() -> None:
    checker = pytest.importorskip("stable_baselines3.common.env_checker")
    checker.check_env(SingleAgentEnv(koira(3, "koira-b")), warn=True)


def test_a_deal_without_a_choice_for_the_learner_is_dealt_again(monkeypatch):
    """A deal can leave the learner only forced moves for a whole game (Mätäpesä, rarely):
    the episode is dealt again rather than failing, and starts at a real choice."""
    game = make_game("matapesa", 4)
    fresh = game.new_state
    dealt = []

    def new_state(*args, **kwargs):
        state = fresh(*args, **kwargs)
        if not dealt:  # the first deal: a game that ends with no choice left for anyone
            while not state.is_terminal:
                state.apply(state.legal_actions()[0])
        dealt.append(state)
        return state

    monkeypatch.setattr(game, "new_state", new_state)
    env = SingleAgentEnv(game, learner_seat=0)
    env.reset(seed=1)
    assert len(dealt) == 2 and env.state is dealt[1]
    assert env.action_masks().sum() >= 2
