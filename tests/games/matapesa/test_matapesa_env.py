"""Mätäpesä through the registry: its spec, its options and decks, a fixed deck and the
loser in the end info, rendering, and what its bots do. What every game's env and bots must do
(PettingZoo's checkers at every table size, illegal actions, the observation layout and
bounds, bots playing legal moves) is in tests/test_games.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

import koira_env
from koira_env.cards import card_name
from koira_env.core.agent import Turn
from koira_env.registry import make_game, spec


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
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
            r"valid options: \['deck_ranks', 'deck_suits', 'follow', 'lowest_anytime', "
            r"'tie_winner'\]",
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


def test_render_shows_only_the_seats_own_hand() -> None:
    game = make_game("matapesa", 5)
    state = game.new_state(list(range(52)))
    text = game.render(state, 1)
    assert text.startswith("Mätäpesä, 5 players: trick 1 of 10")
    assert "Out of play: KS AS" in text
    assert "Hand of player_1: " in text and "Hand of player_0" not in text
    assert card_name(state.view(0).hand[0]) not in text.split("Hand of player_1: ")[1]


# ------------------------------------------------------------------ bots


def test_bot_strategies() -> None:
    game = make_game("matapesa", 8)
    deck = ["KC", "5D", "2D", "3C", "4C", "6C", "7C", "8C"]  # first card of each seat
    names = set(deck)
    state = game.new_state(deck + [card_name(c) for c in range(52) if card_name(c) not in names])
    state.apply(11)  # player_0 leads a king
    view = state.view(1)  # player_1: 5D and five clubs/diamonds above it
    bots = spec("matapesa").load("bots")
    reaching = [a for a in view.legal if a >= view.to_reach]
    assert bots["shed"]().act(Turn(view, game, random.Random(0), state)) == view.legal[-1]
    assert bots["lowest"]().act(Turn(view, game, random.Random(0), state)) == view.legal[0]
    keeper = bots["keeper"]().act(Turn(view, game, random.Random(0), state))
    assert keeper == (reaching[0] if reaching else view.legal[0])
