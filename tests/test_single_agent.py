"""The single-agent wrapper: every transition is the learner's, masks are its legal moves."""

from __future__ import annotations

import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from koira_env import make_game
from koira_env.core.game import IllegalActionError
from koira_env.core.parts import part_actions
from koira_env.core.record import game_record
from koira_env.core.single_agent import ILLEGAL_REWARD, SingleAgentEnv
from koira_env.games.koira.observation import ObservationEncoder
from koira_env.registry import replay_states


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


def red7_split(seat: int | None = None) -> SingleAgentEnv:
    return SingleAgentEnv(make_game("red7", 4), learner_seat=seat, split_actions=True)


@pytest.mark.parametrize("seed", range(40))
def test_split_actions_ask_the_learner_for_each_turn_in_two_parts(seed: int) -> None:
    """Red7 with split actions: each of the learner's decisions is a part with at least two
    legal choices (a forced part is played for it), its mask the parts of its legal turns,
    its observation the AEC env's; the turns it played are its parts put together."""
    env = red7_split()
    obs, info = env.reset(seed=seed)
    seat, chosen = info["seat"], []
    assert env.observation_space.shape == (env.game.observation_size + 50,)
    assert env.action_space.n == 50
    while True:
        state = env.state
        mask = env.action_masks()
        if state.is_terminal:
            assert not mask.any()
            break
        pending = env._pending
        assert state.current == seat and mask.sum() >= 2
        assert np.flatnonzero(mask).tolist() == part_actions(state.legal_actions(), 50, pending)
        np.testing.assert_array_equal(obs, env.game.part_observation(state, seat, pending))
        part = int(np.flatnonzero(mask)[seed % 2])
        played = len(state.history)
        obs, reward, terminated, truncated, _ = env.step(part)
        if len(env.state.history) > played:  # the turn is whole: the learner's comes first
            turn = env.state.history[played]
            assert turn == 50 * pending + part if pending != -1 else turn // 50 == part
            chosen.append(turn)
        if terminated or truncated:
            assert reward == env.state.returns()[seat]
    # every other turn of the learner's was forced: its only legal action
    before = replay_states(game_record(env.state))  # the state before each action, then the end
    mine = [
        (a, len(s.legal_actions()) == 1)
        for a, s in zip(env.state.history, before, strict=False)
        if s.current == seat
    ]
    assert [a for a, forced in mine if not forced] == chosen and chosen


def test_split_actions_lose_on_an_illegal_part_and_pass_the_checkers() -> None:
    env = red7_split(seat=0)
    env.reset(seed=3)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (ILLEGAL_REWARD, True, True)
    with pytest.raises(ValueError, match="actions are single"):
        SingleAgentEnv(koira(), split_actions=True)
    gym_check_env(red7_split(), skip_render_check=True)
    checker = pytest.importorskip("stable_baselines3.common.env_checker")
    checker.check_env(red7_split(), warn=True)
