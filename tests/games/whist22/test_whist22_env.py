"""Whist 22 through the suite's env: its spec, fixed decks, observation content and leaks,
bad input, rendering, and the speed-critical observation encoder checked field by field.
What every game's env must do (PettingZoo's checkers at every table size, zero-sum end info
with places and scores, bad player counts, illegal actions ending the protected env's game)
is in tests/test_games.py."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_whist22_rules import FOUR, deal

from koira_env import registry
from koira_env.core.game import IllegalActionError
from koira_env.games.whist22 import make_game
from koira_env.games.whist22.engine import ASIDE, BID, HAND, OVER, PLAYED, TRICK


def test_reset_with_a_fixed_deck_deals_it():
    env = registry.make("whist22", 4)
    env.reset(seed=1, options={"deck": deal(FOUR)})
    assert env.state_object.hands[0] == [0, 3, 8, 13, 21]
    assert env.game_record()["deck"][:5] == ["Fool", "4", "5", "6", "3"]


def test_observation_fields_decode_the_public_memory():
    game = make_game(4)
    state = game.new_state(deal(FOUR), seed=1)
    names = ("bid 1", "bid 3", "bid 0", "bid 2", "Fool=22", "20", "19", "16", "3", "18", "17")
    for name in names:
        state.apply(game.action_id(name))
    lay = game.observation_layout
    obs = game.observation(state, 3)  # player_3 sees player_0 as "player 1", and so on
    assert obs.size == game.observation_size == lay["hand_number"].stop

    def cards(field: str) -> list[int]:
        return np.flatnonzero(obs[lay[field]]).tolist()

    assert cards("hand") == [6, 7, 11, 12]
    assert [cards(f"played_{r}") for r in range(4)] == [[16], [0], [20], [19]]
    assert [cards(f"trick_{r}") for r in range(4)] == [[], [3], [18], [17]]
    assert obs[lay["fool_declared"]].tolist() == [0.0, 1.0]  # the Fool was declared 22
    bids = obs[lay["bids"]].reshape(4, 6)
    assert [int(np.argmax(row)) for row in bids] == [2, 1, 3, 0]
    assert obs[lay["tricks_won"]].tolist() == [0.0, pytest.approx(0.2), 0.0, 0.0]
    assert obs[lay["scores"]].tolist() == [1.0] * 4
    assert np.flatnonzero(obs[lay["hand_size"]]).tolist() == [4]  # 5 cards
    assert np.flatnonzero(obs[lay["next_hand_size"]]).tolist() == [3]  # 4 cards next
    assert obs[lay["tricks_played"]].tolist() == [pytest.approx(0.2)]
    assert np.flatnonzero(obs[lay["dealer"]]).tolist() == [0]  # player_3 deals
    assert np.flatnonzero(obs[lay["leader"]]).tolist() == [1]  # player_0 led this trick
    assert obs[lay["phase"]].tolist() == [0.0, 1.0]


def test_observation_during_bidding_and_at_the_end():
    game = make_game(4, max_hands=1)
    state = game.new_state(deal(FOUR), seed=1)
    state.apply(BID + 2)
    lay = game.observation_layout
    obs = game.observation(state, 1)
    bids = obs[lay["bids"]].reshape(4, 6)
    assert bids.sum(axis=1).tolist() == [0, 0, 0, 1] and bids[3, 2] == 1  # only player_0 bid
    assert obs[lay["phase"]].tolist() == [1.0, 0.0]
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    obs = game.observation(state, 0)
    assert state.phase == OVER and obs[lay["phase"]].tolist() == [0.0, 0.0]
    assert obs[lay["leader"]].sum() == 0 and obs.min() >= 0.0


def _hidden_pair(state, seat: int) -> tuple[int, int]:
    """Two cards ``seat`` cannot see: one in the next player's hand, one set aside."""
    held = state.hands[(seat + 1) % state.n][0]
    aside = next(c for c in range(22) if state.loc[c] == ASIDE)
    return held, aside


@pytest.mark.parametrize("n", [3, 4])
def test_swapping_hidden_cards_changes_nothing_observed_until_they_show(n):
    game = make_game(n)
    for seed in range(25):
        deck = game.new_state(seed=seed).deck[:]
        seat = seed % n
        x, y = _hidden_pair(game.new_state(deck, seed=seed), seat)
        other = [y if c == x else x if c == y else c for c in deck]
        a, b = game.new_state(deck, seed=seed), game.new_state(other, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not a.is_terminal:
            assert game.observation(a, seat).tobytes() == game.observation(b, seat).tobytes()
            if a.current == seat:
                assert a.legal_actions() == b.legal_actions()
            action = rng.choice(a.legal_actions())
            if action in (x, y) or (action == 22 and 0 in (x, y)):
                break  # the card shows now
            a.apply(action)
            b.apply(action)
            steps += 1
        assert steps > 0


def test_observation_is_seat_relative():
    game = make_game(4)
    state = game.new_state(deal(FOUR), seed=1)
    lay = game.observation_layout
    state.apply(BID + 1)
    for seat in range(4):
        bids = game.observation(state, seat)[lay["bids"]].reshape(4, 6)
        assert bids[(0 - seat) % 4, 1] == 1  # player_0's bid, r seats after the observer


def test_location_codes_cover_every_card():
    state = make_game(3).new_state(seed=0)
    assert {state.loc[c] for c in range(22)} <= {HAND, HAND + 1, HAND + 2, ASIDE}
    assert PLAYED > HAND + 3 and TRICK > PLAYED + 3 and ASIDE > TRICK + 3


# ---------------------------------------------------------------------- bad input
def test_unknown_option_lists_the_options():
    with pytest.raises(ValueError, match=r"valid options: \['floor_at_zero', 'hand_sequence'"):
        registry.make("whist22", 4, nonsense=1)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("hand_sequence", "up", r"choose one of \['bounce', 'repeat_ends'\]"),
        ("start_score", 0, r"start_score must be an int in 1..50"),
        ("hook", "yes", "must be True or False"),
        ("max_hands", -1, "max_hands must be an int"),
        ("floor_at_zero", 1, "must be True or False"),
    ],
)
def test_bad_option_value_names_the_choices(option, value, message):
    with pytest.raises(ValueError, match=message):
        make_game(4, **{option: value})


def test_bad_decks_are_rejected():
    game = make_game(4)
    with pytest.raises(ValueError, match="unknown card"):
        game.new_state(["Joker", *deal(FOUR)[1:]])
    with pytest.raises(ValueError, match="repeats"):
        game.new_state(["Fool"] * 22)
    with pytest.raises(ValueError, match="all 22 cards"):
        game.new_state(deal(FOUR)[:20])


@pytest.mark.parametrize("action", [5, 29, -1, 22, 23 + 6, 2.0, "bid 1", True, None, [23]])
def test_illegal_and_non_integer_actions_raise_and_change_nothing(action):
    state = make_game(4).new_state(deal(FOUR), seed=1)
    state.apply(BID + 1)
    before = (state.history[:], state.bids[:], state.current, state.loc[:])
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert (state.history, state.bids, state.current, state.loc) == before


def test_illegal_play_lists_the_legal_actions():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    for _ in range(4):
        state.apply(BID + 1)
    with pytest.raises(IllegalActionError, match=r"legal actions: 0 \(Fool=0\), 3 \(3\)"):
        state.apply(4)
    with pytest.raises(IllegalActionError, match=r"illegal action 23 \(bid 0\)"):
        state.apply(BID)
    state.apply(3)
    with pytest.raises(IllegalActionError, match=r"illegal action 22 \(Fool=22\)"):
        state.apply(22)  # player_1 has no Fool


def test_hook_forbidden_bid_is_illegal():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    for name in (BID + 2, BID + 1, BID + 1):
        state.apply(name)
    with pytest.raises(IllegalActionError, match="illegal action 24 \\(bid 1\\)"):
        state.apply(BID + 1)


def test_game_over_refuses_actions():
    state = make_game(4, max_hands=1).new_state(seed=3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(0)


def test_render_shows_only_the_actors_hand():
    env = registry.make("whist22", 4, render_mode="ansi")
    env.reset(seed=1, options={"deck": deal(FOUR)})
    text = env.render()
    assert text.startswith("Whist 22 (4 players) - hand 1, 5 card(s) each, dealer player_3")
    assert "player_0 holds: Fool 3 8 13 21" in text
    assert "20" not in text  # player_1's card


def test_every_event_and_state_has_text():
    game = make_game(3, max_hands=3)
    state = game.new_state(seed=2, log=True)
    rng = random.Random(2)
    while not state.is_terminal:
        assert f"to {'bid' if state.phase == 0 else 'play'}: player_{state.current}" in (
            game.render(state, state.current)
        )
        state.apply(rng.choice(state.legal_actions()))
    assert "Game over. Places: player_0 " in game.render(state, 0)
    kinds = {event["type"] for event in state.log}
    assert kinds == {"deal", "bid", "play", "trick_won", "hand_end", "game_over"}
    lines = [game.describe_event(event) for event in state.log]
    assert lines[0].startswith("hand 1: player_2 deals 7 card(s) each (player_0: ")
    assert lines[-1].startswith("Game over. Places: player_0 ")
