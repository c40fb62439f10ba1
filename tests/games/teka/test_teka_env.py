"""Teka through the suite's env and registry: its spec, its options and decks, illegal moves
in a dealt position, fixed deals and redeals, the one-hand option's team rewards, rendering,
records and truncation. What every game's env must do (PettingZoo's checkers in both forms,
illegal actions ending the protected env's game, zero-sum end info, the single-agent wrapper)
is in tests/test_games.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import play_out, sorted_rewards
from teka_scenario import POOR, STRONG, deck_of

import koira_env
from koira_env.core.game import IllegalActionError
from koira_env.games.teka.engine import BID, DOUBLE, NUM_ACTIONS, PASS, TRUMP
from koira_env.registry import replay


def test_action_names():
    """The spec and what every game's actions must do are in tests/test_games.py."""
    game = koira_env.make_game("teka")
    assert game.num_actions == NUM_ACTIONS and game.action_name(DOUBLE) == "double 13"
    assert game.action_id("QS") == 49 and game.action_id("bid 8") == BID
    assert game.action_id("Trump Hearts") == TRUMP + 2 and game.action_id("pass") == PASS


def test_bad_decks_name_the_fault():
    with pytest.raises(ValueError, match="deck must hold all 52 cards"):
        koira_env.make_game("teka").new_state(deck_of(*STRONG)[:51])
    with pytest.raises(ValueError, match="deck\\[5\\]: unknown card 'ZZ'"):
        koira_env.make_game("teka").new_state(
            ["ZZ" if i == 5 else c for i, c in enumerate(deck_of(*STRONG))]
        )


def test_illegal_and_non_integer_actions_raise_and_change_nothing():
    env = koira_env.make_raw("teka", 4)
    env.reset(options={"deck": deck_of(*STRONG)})
    env.step(BID + 2)  # player_0 bids 10
    state = env.state_object
    before = (state.history[:], state.current, [h[:] for h in state.hands], state.calls[:])
    for bad in (BID, 2.0, "pass", None, 0, NUM_ACTIONS, -1, True, TRUMP):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert (state.history, state.current, state.hands, state.calls) == before
    with pytest.raises(IllegalActionError, match=r"legal actions: 52 \(pass\), 58 \(bid 11\)"):
        state.apply(BID)
    env.step(np.int64(PASS))
    assert state.history == [BID + 2, PASS]


def test_reset_deck_option_and_whole_games_reach_the_target():
    env = koira_env.make("teka", 4)
    env.reset(seed=1, options={"deck": deck_of(*STRONG)})
    assert env.agent_selection == "player_0"  # the dealer's right speaks first
    mask = env.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [PASS, *range(BID, DOUBLE + 1)]
    assert not env.observe("player_1")["action_mask"].any()
    rng = random.Random(0)
    for seed in range(20):
        env.reset(seed=seed)
        _, info = play_out(env, rng)
        assert max(info["scores"].values()) >= 104 and info["teams"]["player_2"] == 0


def test_reset_deck_without_honours_is_redealt_from_the_seed():
    env = koira_env.make("teka", 4)
    env.reset(seed=3, options={"deck": deck_of(*POOR)})
    state = env.state_object
    assert state.deal_no >= 1 and state.deck[52:104] != state.deck[:52]


def test_single_hand_env_gives_team_rewards():
    seen, infos = sorted_rewards(koira_env.make("teka", 4, single_hand=True), range(40))
    teams = {"player_0": 0, "player_1": 1, "player_2": 0, "player_3": 1}
    assert all(info["teams"] == teams for info in infos)
    assert seen == {(-0.667, -0.667, 0.667, 0.667)}


def test_render_shows_only_the_actors_cards_and_records_replay():
    env = koira_env.make("teka", 4, render_mode="ansi")
    env.reset(options={"deck": deck_of(*STRONG)})
    env.step(BID)
    text = env.render()
    assert text.startswith("Teka - hand 1, dealt by player_3")
    assert "Hand of player_1: 4C 8C 9C TC JD QD KD TH JH QH 5S 6S 7S" in text
    assert "AS" not in text and "Auction: p0 bid 8" in text and "Legal: pass, bid 9" in text
    for _ in range(3):
        env.step(PASS)
    env.step(TRUMP + 3)
    assert "Contract: player_0, 8 tricks, trumps spades" in env.render()
    play_out(env, random.Random(1))
    record = env.game_record()
    assert replay(record).history == env.state_object.history


def test_truncated_game_ends_every_agent_without_rewards():
    env = koira_env.make("teka", 4, all_pass="redeal", max_hands=1)
    env.reset(options={"deck": deck_of(*STRONG)})
    for _ in range(4):
        env.step(PASS)
    assert env.state_object.truncated and all(env.truncations.values())
    assert set(env.rewards.values()) == {0.0}
