"""``koira_training.vec_env.BatchedLearnerEnv``: SB3's VecEnv face of the batched env."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks

from koira_agents.base import play_game
from koira_agents.registry import make_agent
from koira_env import make_game
from koira_env.core.vector_env import game_seed
from koira_training.vec_env import BatchedLearnerEnv


def dumper_opponent(rng):
    bot = make_agent("dumper")
    return lambda state, seat: play_one(bot, state, seat)


def play_one(bot, state, seat):
    from koira_env.core.agent import Turn

    return bot.act(Turn(state.view(seat), state.game, None, state))


def test_every_table_waits_for_its_learner_with_its_view_and_mask():
    game = make_game("koira", 4)
    env = BatchedLearnerEnv(game, 6, dumper_opponent)
    env.seed(2)
    obs = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = get_action_masks(env)
        assert obs.shape == (6, game.observation_size) and masks.shape == (6, game.num_actions)
        for i, state in enumerate(env.venv.states):
            assert state.current == env.seats[i] and masks[i].sum() > 1  # a real decision
            assert obs[i].tobytes() == game.observation(state, state.current).tobytes()
        actions = (masks * rng.random(masks.shape)).argmax(axis=1)
        obs, rewards, dones, infos = env.step(actions)
        assert not rewards[~dones].any() and all(info["seat"] >= 0 for info in infos)
    with pytest.raises(AttributeError, match="no per-env method 'render'"):
        env.env_method("render")


def test_the_learner_gets_its_seats_return_of_the_game_it_played():
    """Dumpers everywhere, the learner too: each table's first episode is the game
    ``play_game`` plays from that table's first deal, and the reward is the learner seat's
    return of it."""
    game = make_game("koira", 4)
    env = BatchedLearnerEnv(game, 4, dumper_opponent, learner_seat=1)
    env.seed(5)
    env.reset()
    learner = make_agent("dumper")
    first: dict[int, float] = {}
    while len(first) < 4:
        actions = np.array([play_one(learner, s, s.current) for s in env.venv.states])
        _, rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones):
            first.setdefault(int(i), float(rewards[i]))
    for i, reward in first.items():
        deck = game.new_state(seed=game_seed(5, i, 0)).deck
        result = play_game([make_agent("dumper")] * 4, game, deck, seed=0)
        assert reward == pytest.approx(result.returns[1], abs=1e-6)  # float32 rewards


def test_a_seed_repeats_the_episodes_and_maskable_ppo_learns_on_it():
    def run(seed):
        env = BatchedLearnerEnv(make_game("koira", 3), 4)
        env.seed(seed)
        out = [env.reset()]
        for _ in range(60):
            masks = get_action_masks(env)
            out.append(env.step(masks.argmax(axis=1))[0])
        return np.stack(out)

    assert np.array_equal(run(3), run(3)) and not np.array_equal(run(3), run(4))
    model = MaskablePPO(
        "MlpPolicy",
        BatchedLearnerEnv(make_game("koira", 4), 8),
        n_steps=32,
        batch_size=64,
        seed=1,
        device="cpu",
    )
    model.learn(256)
    assert model.num_timesteps >= 256
    with pytest.raises(ValueError, match=r"learner_seat must be in 0\.\.3"):
        BatchedLearnerEnv(make_game("koira", 4), 2, learner_seat=4)


def test_koira_train_builds_it_with_vec_env_batched(tmp_path):
    from koira_training.train import parse_args, train, vec_envs

    args = parse_args(["--run-dir", str(tmp_path), "--vec-env", "batched", "--num-envs", "4"])
    envs = vec_envs(args)
    assert isinstance(envs.venv, BatchedLearnerEnv) and envs.num_envs == 4
    envs.seed(1)
    assert envs.reset().shape == (4, args.make_game().observation_size)
    with pytest.raises(ValueError, match=r"vec_env must be one of.*'batched'"):
        train(parse_args(["--run-dir", str(tmp_path / "x"), "--vec-env", "threads"]))


def test_split_actions_ask_each_learner_for_parts_and_step_opponents_a_part_at_a_time():
    """Red7 with split actions: every table waits for its learner's part (two choices at
    least) with the split env's observation and mask, opponents' whole turns reach the game,
    and MaskablePPO learns on it."""
    from koira_env.core.parts import part_actions

    game = make_game("red7", 4)
    env = BatchedLearnerEnv(game, 6, split_actions=True)
    env.seed(3)
    obs = env.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):
        masks = get_action_masks(env)
        assert obs.shape == (6, game.observation_size + 50) and masks.shape == (6, 50)
        for i, state in enumerate(env.venv.states):
            pending = int(env.venv.pending[i])
            assert state.current == env.seats[i] and masks[i].sum() > 1
            legal = part_actions(state.legal_actions(), 50, pending)
            assert np.flatnonzero(masks[i]).tolist() == legal
            assert (
                obs[i].tobytes() == game.part_observation(state, state.current, pending).tobytes()
            )
        obs, rewards, dones, _ = env.step((masks * rng.random(masks.shape)).argmax(axis=1))
        assert not rewards[~dones].any()
        ended += int(dones.sum())
    assert ended >= 6
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, seed=0)
    model.learn(64)
