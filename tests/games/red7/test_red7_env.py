"""Red7 through the suite's env and registry: PettingZoo's checkers on the points game with
canvas draws, its spec, options and decks, illegal moves in a dealt position, fixed deals and
the end info, rendering, records, and what its bots do. What every game's env and bots must do
(PettingZoo's checkers at every player count, illegal actions ending the protected env's game,
zero-sum end info, the single-agent env, bots playing legal moves) is in tests/test_games.py."""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest
from helpers import play_out
from pettingzoo.test import api_test, render_test, seed_test
from red7_scenario import deck_of, turn

import koira_env
from koira_env.core.game import IllegalActionError
from koira_env.core.record import game_record
from koira_env.games.red7.bots import ROLLOUT, pressure_policy, thrifty_policy
from koira_env.games.red7.engine import NUM_ACTIONS, PASS
from koira_env.registry import replay, spec

# The rgb_array picture needs koira_env/games/red7/table.py (the web table's per-game hook).
PICTURE = importlib.util.find_spec("koira_env.games.red7.table") is not None
TWO = (["R6 G2 G4 V1 Y5 B7 I3", ""], "O5 R5")  # player_0 starts (player_1 leads at red)


@pytest.mark.filterwarnings("ignore:ignoring unknown reset option")  # api_test passes one
@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("options", [{"scoring": "points", "canvas_draw": True}])
def test_pettingzoo_api_seed_and_render(n, options):
    api_test(koira_env.make("red7", num_players=n, **options), num_cycles=100)
    seed_test(lambda: koira_env.make("red7", num_players=n, **options), num_cycles=100)

    def make(render_mode=None):
        env = koira_env.make("red7", num_players=n, render_mode=render_mode, **options)
        if not PICTURE:  # the text modes only until the game's table module exists
            env._metadata = {**env.metadata, "render_modes": ["ansi", "human"]}
        return env

    render_test(make)


def test_action_names():
    """The spec and what every game's actions must do are in tests/test_games.py."""
    entry = spec("red7")
    game = koira_env.make_game("red7", 2)
    assert game.num_actions == NUM_ACTIONS and game.action_name(PASS) == "pass"
    assert game.action_id("palette R7 canvas B3") == turn("R7", "B3") == 50 * 49 + 17
    assert game.action_id("canvas v1") == turn(canvas="V1") == 1
    assert game.action_name(turn("O5")) == "palette O5"
    assert entry.load("rollout") is ROLLOUT


def test_bad_decks_name_the_fault():
    env = koira_env.make("red7", 2)
    with pytest.raises(ValueError, match="colour initial"):
        env.reset(options={"deck": ["R9"] * 49})
    with pytest.raises(ValueError, match="must hold all 49 cards"):
        env.reset(options={"deck": deck_of(*TWO) * 2})  # two rounds: only with points


def test_illegal_and_non_integer_actions_raise_and_change_nothing():
    env = koira_env.make_raw("red7", 2)
    env.reset(options={"deck": deck_of(*TWO)})
    state = env.state_object
    before = (state.history[:], state.current, [h[:] for h in state.hands], state.rule)
    for bad in (turn("V1"), turn(canvas="G4"), 2.0, "pass", None, 2500, -1, True):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        assert (state.history, state.current, state.hands, state.rule) == before
    with pytest.raises(
        IllegalActionError, match=r"legal actions: 0 \(pass\), .*2100 \(palette R6\)"
    ):
        state.apply(turn("V1"))
    env.step(np.int64(turn("R6")))
    assert state.history == [turn("R6")]


def test_fixed_deck_by_name_the_end_info_and_zero_sum_games():
    env = koira_env.make("red7", 2)
    env.reset(seed=1, options={"deck": deck_of(*TWO)})
    assert env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert mask[PASS] == 1 and mask[turn("R6")] == 1 and mask[turn("V1")] == 0
    assert not env.observe("player_1")["action_mask"].any()
    env.step(PASS)
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert env.infos["player_0"]["places"] == {"player_0": 2, "player_1": 1}
    assert env.infos["player_1"]["round_winner"] == "player_1"
    rng = random.Random(0)
    for n, options in ((3, {}), (4, {"places": "elimination"}), (3, {"scoring": "points"})):
        env = koira_env.make("red7", n, **options)
        for seed in range(15):
            env.reset(seed=seed)
            totals, info = play_out(env, rng)
            assert sum(totals.values()) == pytest.approx(0)
            assert set(info["places"]) == set(totals) and min(info["places"].values()) == 1


def test_render_shows_only_the_actors_cards_and_records_replay():
    env = koira_env.make("red7", 2, render_mode="ansi")
    env.reset(options={"deck": deck_of(*TWO)})
    text = env.render()
    assert text.startswith("Red7, 2 players: player_0 to play; rule: red (highest card)")
    assert "Hand of player_0: V1 G2 I3 G4 Y5 R6 B7" in text and "palette R5 (winning)" in text
    assert "Legal: pass, " in text and "palette R6" in text
    # the letter codes in words: the terminal has no colours (issue 29)
    legend = (
        "Colours, highest first: R red, O orange, Y yellow, G green, B blue, I indigo, V violet"
    )
    assert legend in text.splitlines()
    env.step(turn("G2", "G4"))
    text = env.render()
    assert "Hand of player_1" in text and "R6" not in text.split("Hand of player_1")[1]
    assert "rule: green (most even cards)" in text and "Canvas: start card (red) G4" in text
    play_out(env, random.Random(1))
    assert "Game over. Places:" in env.render()
    record = game_record(env.state_object)
    assert replay(record).history == env.state_object.history
    game = env.game
    lines = [game.describe_event(e) for e in env.state_object.log or []]
    assert all(isinstance(line, str) for line in lines)


def test_points_game_render_and_events():
    game = koira_env.make_game("red7", 2, scoring="points", canvas_draw=True)
    state = game.new_state(seed=4, log=True)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    text = game.render(state, 0)
    assert "points to win" in text and "Draw pile:" in text
    kinds = {e["type"] for e in state.log}
    assert {"deal", "play", "out", "round_won", "game_over"} <= kinds
    for event in state.log:
        assert game.describe_event(event)


def test_bot_strategies():
    game = koira_env.make_game("red7", 2)
    state = game.new_state(deck_of(*TWO), seed=0)
    view = state.view(0)
    assert thrifty_policy(view) == turn("R6")  # one card, to the palette, the weakest winner
    choice = pressure_policy(view)
    assert choice in view.legal and choice != PASS
    only_pass = view._replace(legal=(PASS,))
    assert thrifty_policy(only_pass) == pressure_policy(only_pass) == PASS
