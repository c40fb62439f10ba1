"""Kop through the suite's env and registry: its spec, its options, illegal moves in a dealt
position, a fixed deal, the one-hand option's team rewards, rendering, records and truncation.
What every game's env must do (PettingZoo's checkers in both forms, illegal actions ending the
protected env's game, zero-sum end info) is in tests/test_games.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import play_out, sorted_rewards
from kop_scenario import deck_of

import koira_env
from koira_env.core.game import IllegalActionError
from koira_env.games.kop.engine import CALL, NUM_ACTIONS, PASS

B = ("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD")


def test_action_names():
    """The spec and what every game's actions must do are in tests/test_games.py."""
    game = koira_env.make_game("kop")
    assert game.num_actions == NUM_ACTIONS and game.action_name(CALL) == "call"
    assert game.action_id("QC") == 2 and game.action_id("solo") == 18
    assert game.action_id("pass") == PASS == 19


def test_illegal_and_non_integer_actions_raise_and_change_nothing():
    env = koira_env.make_raw("kop", 4)
    env.reset(options={"deck": deck_of(*B)})
    env.step(PASS)  # player_0 passes: player_1, holding both black queens, chooses
    state = env.state_object
    before = (state.history[:], state.current, [h[:] for h in state.hands])
    for bad in (0, 2.0, "call", None, PASS, 20, -1, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert (state.history, state.current, state.hands) == before
    with pytest.raises(IllegalActionError, match=r"legal actions: 16 \(call\), 17 \(silent\)"):
        state.apply(0)
    env.step(np.int64(CALL))
    assert state.history == [PASS, CALL]


def test_reset_deck_option_and_whole_games_share_out_the_twenty_points():
    env = koira_env.make("kop", 4)
    env.reset(seed=1, options={"deck": deck_of(*B)})
    assert env.agent_selection == "player_0"  # the declaration round starts with the leader
    assert np.flatnonzero(env.observe("player_0")["action_mask"]).tolist() == [PASS]
    env.step(PASS)
    assert env.agent_selection == "player_1"  # the holder of both black queens chooses
    assert np.flatnonzero(env.observe("player_1")["action_mask"]).tolist() == [16, 17, 18]
    rng = random.Random(0)
    for seed in range(20):
        env.reset(seed=seed)
        _, info = play_out(env, rng)
        assert sum(info["scores"].values()) == 20


def test_single_hand_env_gives_team_rewards():
    seen, infos = sorted_rewards(koira_env.make("kop", 4, single_hand=True), range(60))
    assert all("teams" in info for info in infos)
    assert (-0.667, -0.667, 0.667, 0.667) in seen


def test_render_shows_only_the_actors_cards_and_records_replay():
    env = koira_env.make("kop", 4, render_mode="ansi")
    env.reset(options={"deck": deck_of(*B)})
    env.step(PASS)
    text = env.render()
    assert text.startswith("Kop") and "QC AH JS QS" in text and "JC TD" not in text
    assert "player_1 next" in text and "Legal: call, silent, solo" in text
    env.step(17)  # silent: nobody else is told
    text = env.render()
    assert "player_2 next" in text and "silent" not in text and "QS" not in text
    play_out(env, random.Random(1))
    record = env.game_record()
    from koira_env.registry import replay

    assert replay(record).history == env.state_object.history


def test_truncated_game_ends_every_agent_without_rewards():
    env = koira_env.make("kop", 4, max_hands=1)
    rng = random.Random(0)
    for seed in range(30):
        env.reset(seed=seed)
        totals, _ = play_out(env, rng)
        state = env.state_object
        if state.truncated:
            assert all(env.truncations.values()) and set(totals.values()) == {0.0}
            return
    raise AssertionError("no truncated game in 30 seeds")
