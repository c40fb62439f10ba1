"""Teka invariants over many random games: card conservation, termination, zero-sum returns,
determinism, replay, and that no seat observes what it may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import (
    check_redeals_along_random_games,
    play_checked,
    play_in_step,
    random_game,
    random_games,
    random_moves,
    replayed,
    swapped_deals,
)
from teka_scenario import STRONG, check_cards, deal, play

from koira_env.cards import card_id
from koira_env.games.teka.bots import Memory
from koira_env.games.teka.engine import HAND, PLAY
from koira_env.games.teka.game import make_game

GAMES = 1000


def test_random_games_conserve_cards_end_and_are_zero_sum():
    game = make_game(4)
    rng = random.Random(1)
    longest = 0
    for seed in range(GAMES):
        state, _ = play_checked(game, seed, rng, check_cards, every=7)
        assert not state.truncated and state.legal_actions() == []
        assert max(state.scores) >= 104 > min(state.scores)
        assert sum(state.returns()) == pytest.approx(0)
        longest = max(longest, state.hand_no + 1)
    assert longest <= 26  # every hand scores 8 or more for one side (RULES.md: termination)


@pytest.mark.parametrize(
    "options",
    [
        {"no_honours": "ask", "pass_signals": True},
        {"all_pass": "redeal", "failed_bid": "nothing", "max_hands": 40},
        {"raises": "once", "early_end": False, "failed_bid": "double", "no_honours": "keep"},
    ],
    ids=["ask-signals", "redeal-nothing", "once-full"],
)
def test_random_games_under_other_options(options):
    game = make_game(4, **options)
    for seed in range(GAMES // 3):
        state = random_game(game, seed)
        check_cards(state)
        assert sum(state.returns()) == pytest.approx(0)
        if not state.truncated:
            assert max(state.scores) >= 104


def test_single_hand_games_are_zero_sum_with_partners_sharing_places():
    game = make_game(4, single_hand=True)
    for seed in range(GAMES):
        state = random_game(game, seed)
        outcome = state.outcome()
        assert sum(outcome.returns) == pytest.approx(0) and state.hand_no == 0
        assert sorted(state.hand_points)[0] == 0 and max(state.hand_points) >= 8
        assert outcome.places[0] == outcome.places[2] and outcome.places[1] == outcome.places[3]


def test_same_seed_same_game_and_records_replay():
    game = make_game(4)
    for state in replayed(game, range(30)):
        assert len(state.deck) == 52 * (state.deal_no + 1)


def test_a_fixed_first_deal_does_not_depend_on_the_seed():
    """With the seed's own deal see tests/test_games.py."""
    game = make_game(4)
    first = game.new_state(seed=9)
    other = game.new_state(first.deck[:52], seed=10)
    assert other.hands == first.hands


# ---------------------------------------------------------------- information


def test_observation_fields_are_seat_relative():
    state = deal()
    play(state, "pass", "bid 9", "pass", "pass", "trump hearts")
    game = state.game
    layout = game.observation_layout
    assert game.observation_size == 500
    obs = game.observation(state, 2)
    assert obs[layout["declarer"]].tolist() == [0, 0, 0, 1]  # player_1: 3 seats after me
    assert obs[layout["dealer"]].tolist() == [0, 1, 0, 0]  # player_3
    assert obs[layout["contract"]].tolist() == [0, 1, 0, 0, 0, 0]
    assert obs[layout["trump"]].tolist() == [0, 0, 1, 0]
    assert obs[layout["phase"]].tolist() == [0, 0, 0, 1]
    mine = np.flatnonzero(obs[layout["cards_mine"]]).tolist()
    assert mine == state.hands[2]
    play(state, "QH")
    assert np.flatnonzero(game.observation(state, 2)[layout["cards_played_3"]]).tolist() == [
        card_id("QH")
    ]


def _cards(obs: np.ndarray, field: str, game) -> list[str]:
    return [game.card_name(int(c)) for c in np.flatnonzero(obs[game.observation_layout[field]])]


def test_observed_winning_cards_masters_and_tricks_needed():
    """The derived fields on a fixed deal: which of my cards would take the trick now, which
    no unseen card beats, and the tricks each side still needs (mine first)."""
    state = deal()
    game = state.game
    layout = game.observation_layout

    def needed(seat: int) -> list[int]:
        return np.rint(game.observation(state, seat)[layout["tricks_needed"]] * 13).tolist()

    assert needed(1) == [0, 0]  # no bid yet
    play(state, "bid 10")
    assert needed(1) == [4, 10]  # the high bid so far: player_0's side needs 10
    play(state, "pass", "pass", "pass", "trump spades")
    obs = game.observation(state, 0)
    assert _cards(obs, "cards_winning", game) == []  # no trick being played
    # every card of player_0 but 2C: the cards above them are its own or played
    assert _cards(obs, "cards_master", game) == [
        "KC", "AC", "AD", "KH", "AH", "8S", "9S", "TS", "JS", "QS", "KS", "AS"
    ]  # fmt: skip
    assert _cards(game.observation(state, 1), "cards_master", game) == []
    play(state, "AS", "5S", "3S", "2S")
    assert needed(0) == needed(2) == [9, 4] and needed(1) == needed(3) == [4, 9]
    play(state, "2C")
    # player_1 beats 2C with any club and with its trumps (5S is played)
    assert _cards(game.observation(state, 1), "cards_winning", game) == [
        "4C", "8C", "9C", "TC", "6S", "7S"
    ]  # fmt: skip
    assert _cards(game.observation(state, 3), "cards_winning", game) == ["3C", "5C", "QC"]
    play(state, "TC")
    assert _cards(game.observation(state, 2), "cards_winning", game) == ["JC", "4S"]
    assert _cards(game.observation(state, 3), "cards_winning", game) == ["QC"]
    # player_3's QC: AC and KC are player_0's, hidden from player_3
    assert _cards(game.observation(state, 3), "cards_master", game) == []


def test_observed_masters_are_the_counter_bots_masters():
    """``cards_master`` is what ``bots.Memory.master`` counts from the view, at every seat and
    turn of the play of random games."""
    game = make_game(4)
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            if state.phase == PLAY:
                for seat in range(4):
                    view = state.view(seat)
                    memory = Memory(view)
                    want = [game.card_name(c) for c in view.hand if memory.master(c)]
                    assert _cards(game.observation(state, seat), "cards_master", game) == want
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 500


def test_hidden_cards_swapped_change_nothing_a_seat_observes_until_seen():
    """Swap two cards of two other seats in the deal: the seat observes the same things
    (observation bytes and its legal actions) until one of them is played."""
    game = make_game(4)
    checked = 0
    for one, two, seat, hidden, rng in swapped_deals(game, range(150), lambda i: i // 13):
        if one.deal_no or two.deal_no:
            continue  # a swap that leaves a hand without honours redeals
        checked += play_in_step(one, two, [seat], random_moves(rng), hidden.__contains__)
    assert checked > 1000


def test_determinize_keeps_what_the_seat_observes_and_respects_the_play():
    for options in ({}, {"no_honours": "ask", "pass_signals": True}):
        game = make_game(4, **options)
        check_redeals_along_random_games(game, range(25), check_cards, hands=2)


def test_determinize_respects_voids_the_trump_lead_and_honours():
    state = deal()
    play(state, "bid 8", "pass", "pass", "pass", "trump hearts")
    rng = random.Random(0)
    for _ in range(100):  # before the first lead the declarer holds a trump
        world = state.determinize(1, rng)
        assert any(c // 13 == 2 for c in world.hands[0]) and world.phase == PLAY
        assert all(any(c % 13 >= 9 for c in hand) for hand in world.hands)
    play(state, "AH", "TH", "6H", "2H", "AS", "5S", "3S", "2S", "KS", "6S", "4S", "3H")
    seen = set()
    for _ in range(100):  # player_3 showed no spades
        world = state.determinize(0, rng)
        assert not any(c // 13 == 3 for c in world.hands[3])
        seen.add(world.loc[card_id("7S")])
    assert seen == {HAND + 1, HAND + 2}


def test_determinize_of_a_double_thirteen_redeals_the_idle_hand():
    state = deal(*STRONG)
    play(state, "double 13", "pass", "pass", "pass", "trump spades", "AS")
    rng = random.Random(0)
    moved = False
    for _ in range(20):
        world = state.determinize(1, rng)
        assert len(world.hands[2]) == 13 and world.out == 2
        moved |= world.hands[2] != state.hands[2]
    assert moved


@pytest.mark.slow
def test_many_more_random_games():
    for state in random_games(make_game(4), 10_000):
        assert state.hand_no < 26
