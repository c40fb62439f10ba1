"""Two envs of one game stepped side by side: the compiled-engine tests' check that an env on
the compiled core plays exactly as the reference env."""

from __future__ import annotations

import random

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
