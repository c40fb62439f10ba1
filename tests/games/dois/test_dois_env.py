"""Dois through the suite's env and registry: its spec, its options and decks, illegal moves
in a dealt position, places from the scores, the single-hand option, rendering and records.
What every game's env must do (PettingZoo's checkers at every table size, illegal actions
ending the protected env's game, zero-sum end info, the single-agent env) is in
tests/test_games.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from dois_scenario import H4, deck_of
from helpers import play_out

import koira_env
from koira_env.core.game import IllegalActionError
from koira_env.games.dois.engine import BID, NUM_ACTIONS
from koira_env.registry import replay, spec


def test_action_names():
    """The spec and what every game's actions must do are in tests/test_games.py."""
    game = koira_env.make_game("dois")
    assert game.num_actions == NUM_ACTIONS and game.action_id("bid 3") == BID + 3


def test_bad_decks_name_the_fault():
    env = koira_env.make("dois", 4)
    with pytest.raises(ValueError, match="unknown card 'X'"):
        env.reset(options={"deck": ["X"] * 68})
    with pytest.raises(ValueError, match="every card must appear exactly once"):
        env.reset(options={"deck": ["R"] * 68})


def test_illegal_and_non_integer_actions_raise_and_change_nothing():
    env = koira_env.make_raw("dois", 4)
    env.reset(options={"deck": deck_of(*H4)})
    for _ in range(4):
        env.step(BID + 3)
    env.step(0)  # player_0 leads R: player_0 now plays a number card
    state = env.state_object
    before = (state.history[:], state.current, [h[:] for h in state.hands], state.suit[:])
    for bad in (0, 3.0, "R", None, BID, 25, -1, True, 11):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert (state.history, state.current, state.hands, state.suit) == before
    with pytest.raises(IllegalActionError, match=r"legal actions: 4 \(1\), 5 \(2\)"):
        state.apply(1)
    env.step(np.int64(10))  # the 7
    assert state.history[-2:] == [0, 10] and state.current == 1


@pytest.mark.parametrize("n", [3, 4])
def test_places_in_the_end_info_rank_the_scores(n):
    env = koira_env.make("dois", n)
    rng = random.Random(0)
    for seed in range(6):
        env.reset(seed=seed)
        totals, info = play_out(env, rng)
        assert info["places"] == {
            a: 1 + sum(s > info["scores"][a] for s in info["scores"].values()) for a in totals
        }


def test_single_hand_env():
    env = koira_env.make("dois", 4, **spec("dois").single_hand)
    env.reset(seed=3, options={"deck": deck_of(*H4)})
    totals, info = play_out(env, random.Random(1))
    state = env.state_object
    assert state.hand_no == 1 and len(state.history) == 4 * 14
    assert sum(totals.values()) == pytest.approx(0) and set(info["scores"]) == set(totals)


def test_render_shows_only_the_actors_cards_and_records_replay():
    env = koira_env.make("dois", 4, render_mode="ansi")
    env.reset(options={"deck": deck_of(*H4, trump="G")})
    text = env.render()
    assert text.startswith("Dois (4 players) - hand 1 of 8, dealer player_3, trump G (green)")
    legend = (  # the letter codes in words: the terminal has no colours (issue 29)
        "Cards: R red suit, Y yellow suit, G green suit, B blue suit, TR TY TG TB trump cards, "
        "1-8 number cards"
    )
    assert legend in text.splitlines()
    assert "player_0 holds: R R R Y Y G 1 2 3 4 5 6 7" in text and "8 8" not in text
    for _ in range(4):
        env.step(BID + 3)
    env.step(0)
    env.step(10)
    text = env.render()
    assert "player_1 holds: R R Y Y G G 1 1 2 3 4 8 8" in text and "player_0 holds" not in text
    assert "shows:  player_0 R7, player_1 --" in text and "legal: R" in text
    play_out(env, random.Random(1))
    record = env.game_record()
    assert record["deck"][:3] == ["R", "R", "Y"] and replay(record).history == (
        env.state_object.history
    )


def test_records_of_games_with_a_redeal_replay():
    game = koira_env.make_game("dois", 4)
    for seed in range(200):
        state = game.new_state(seed=seed, log=True)
        if state.decks_used > 1:
            break
    rng = random.Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    from koira_env.core.record import game_record

    again = replay(game_record(state))
    assert again.log == state.log and again.scores == state.scores
