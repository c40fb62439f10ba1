"""Mätäpesä through the registry: PettingZoo conformance at every table size, bad input,
fixed decks, the end-of-game info, and the bots."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import koira_env
from koira_env.cards import card_name
from koira_env.core.agent import Turn
from koira_env.core.game import IllegalActionError
from koira_env.registry import make_game, spec

PLAYER_COUNTS = range(3, 9)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.filterwarnings("ignore:ignoring unknown reset option")  # api_test passes one
def test_pettingzoo_api_seed_and_render(n: int) -> None:
    api_test(koira_env.make("matapesa", num_players=n), num_cycles=60)
    seed_test(lambda: koira_env.make("matapesa", num_players=n), num_cycles=60)
    render_test(lambda render_mode=None: koira_env.make("matapesa", n, render_mode))


def test_spec() -> None:
    entry = spec("matapesa")
    assert (entry.title, entry.players, entry.default_players) == ("Mätäpesä", (3, 8), 4)
    assert entry.rank_by == "loss_rate" and entry.single_hand == {}
    env = koira_env.make("matapesa")
    assert env.metadata["name"] == "matapesa_v0" and len(env.possible_agents) == 4


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        ((2,), {}, r"Mätäpesä is played by 3-8 players, got num_players=2"),
        ((9,), {}, r"3-8 players"),
        (
            (4,),
            {"follow": "first"},
            r"follow='first' is not valid; choose one of \['highest', 'previous'\]",
        ),
        ((4,), {"tie_winner": "any"}, r"choose one of \['last', 'first'\]"),
        ((4,), {"lowest_anytime": "yes"}, r"lowest_anytime must be True or False"),
        (
            (4,),
            {"trumps": True},
            r"unknown option\(s\) \['trumps'\].*"
            r"valid options: \['follow', 'lowest_anytime', 'tie_winner'\]",
        ),
    ],
)
def test_bad_input_names_the_valid_choices(args: tuple, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        koira_env.make("matapesa", *args, **options)


def test_bad_decks_are_rejected() -> None:
    game = make_game("matapesa", 4)
    with pytest.raises(ValueError, match="deck must hold all 52 cards"):
        game.new_state(["AS", "KS"])
    with pytest.raises(ValueError, match="repeats AS"):
        game.new_state(["AS"] * 52)
    with pytest.raises(ValueError, match="unknown card 'ZZ'"):
        game.new_state(["ZZ"] + [card_name(c) for c in range(51)])


def test_illegal_and_non_integer_actions_change_nothing() -> None:
    env = koira_env.make_raw("matapesa", 4)
    env.reset(seed=1)
    state = env.state_object
    legal = state.legal_actions()
    bad = next(a for a in range(13) if a not in legal)
    before = (bytes(state.loc), state.history[:], env.agent_selection)
    for action in (bad, 13, -1, 2.0, "2", True, None):
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert (bytes(state.loc), state.history, env.agent_selection) == before
    with pytest.raises(IllegalActionError, match="legal actions: "):
        state.apply(bad)


def test_illegal_action_in_the_wrapped_env_ends_the_game_for_the_mover() -> None:
    env = koira_env.make("matapesa", 4)
    env.reset(seed=1)
    legal = env.state_object.legal_actions()
    env.step(next(a for a in range(13) if a not in legal))
    assert env.rewards == {a: (-1.0 if a == "player_0" else 0.0) for a in env.possible_agents}
    assert all(env.terminations.values())


def test_fixed_deck_by_name_and_the_end_info() -> None:
    env = koira_env.make("matapesa", 4)
    deck = [card_name(c) for c in range(52)]
    env.reset(options={"deck": deck})
    assert env.state_object.deck == list(range(52))
    # player_0 holds 2C 6C TC AC 5D ...: every player is dealt every fourth card
    assert env.state_object.view(0).hand[0] == 0
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    loser = info["loser"]
    assert info["places"][loser] == 4 and info["scores"][loser] == -1.0
    assert total[loser] == -1.0 and sum(total.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_observation_layout_and_bounds(n: int) -> None:
    game = make_game("matapesa", n)
    layout = game.observation_layout
    assert sum(s.stop - s.start for s in layout.values()) == game.observation_size
    assert sorted(s.start for s in layout.values())[0] == 0
    state = game.new_state(seed=n)
    rng = random.Random(n)
    while True:
        for seat in range(n):
            obs = game.observation(state, seat)
            assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))


def test_render_shows_only_the_seats_own_hand() -> None:
    game = make_game("matapesa", 5)
    state = game.new_state(list(range(52)))
    text = game.render(state, 1)
    assert text.startswith("Mätäpesä, 5 players: trick 1 of 10")
    assert "Out of play: KS AS" in text
    assert "Hand of player_1: " in text and "Hand of player_0" not in text
    assert card_name(state.view(0).hand[0]) not in text.split("Hand of player_1: ")[1]


# ------------------------------------------------------------------ bots
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_bots_play_whole_games_with_legal_moves(n: int) -> None:
    bots = spec("matapesa").bots()
    assert {"shed", "keeper", "lowest"} <= set(bots)
    game = make_game("matapesa", n)
    rollout = spec("matapesa").rollout()
    for seed in range(10):
        rng = random.Random(seed)
        names = sorted(bots)
        agents = [bots[names[(seed + p) % len(names)]]() for p in range(n)]
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = state.current
            assert rollout(state) in state.legal_actions()
            turn = Turn(state.view(seat), game, rng, state)
            action = agents[seat].act(turn)
            assert action in turn.view.legal
            state.apply(action)


def test_bot_factories_reject_arguments() -> None:
    for name, factory in spec("matapesa").bots().items():
        assert factory().name == name
        with pytest.raises(ValueError, match="takes no argument"):
            factory("x")


def test_bot_strategies() -> None:
    game = make_game("matapesa", 8)
    deck = ["KC", "5D", "2D", "3C", "4C", "6C", "7C", "8C"]  # first card of each seat
    names = set(deck)
    state = game.new_state(deck + [card_name(c) for c in range(52) if card_name(c) not in names])
    state.apply(11)  # player_0 leads a king
    view = state.view(1)  # player_1: 5D and five clubs/diamonds above it
    bots = spec("matapesa").bots()
    reaching = [a for a in view.legal if a >= view.to_reach]
    assert bots["shed"]().act(Turn(view, game, random.Random(0), state)) == view.legal[-1]
    assert bots["lowest"]().act(Turn(view, game, random.Random(0), state)) == view.legal[0]
    keeper = bots["keeper"]().act(Turn(view, game, random.Random(0), state))
    assert keeper == (reaching[0] if reaching else view.legal[0])
