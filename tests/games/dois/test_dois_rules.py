"""Dois rules, one scenario per decision of RULES.md (section Dois), from fixed decks."""

from __future__ import annotations

import random

import pytest
from dois_scenario import H4, bids, deal, deck_of, names, play

from koira_env.games.dois.cards import (
    COPIES,
    DECK_SIZE,
    KIND_NAMES,
    card_id,
    card_name,
    parse_deck,
)
from koira_env.games.dois.engine import BID, FIRST, NUMBERS_VOID, OVER, PLAYING, State
from koira_env.games.dois.game import make_game

# player_1 is dealt two suit cards only; the undealt cards: R R R Y G G B 4 5 6 7 8
BAD = (
    "R R R Y Y Y G 7 7 8 8 6 6",
    "R G 1 1 2 2 3 3 4 4 5 5 6",
    "B B B B G G Y Y 1 2 3 4 5",
    "B B B G G Y Y R 1 2 3 7 8",
)
# player_1's two suit cards and the undealt cards (all numbers) cannot make a good hand
HOPELESS = (
    "R R R R Y Y Y G G G 1 2 3",
    "Y Y 1 1 2 2 2 3 3 3 4 4 4",
    "R R R Y Y Y G G B B 4 5 6",
    "B B B B B B G G G R 7 8 1",
)


def counts(hand: str) -> list[int]:
    cards = hand.split()
    return [cards.count(name) for name in KIND_NAMES]


# ------------------------------------------------------------------ cards and deal
def test_deck_is_64_suit_or_number_cards_and_4_trump_cards():
    assert DECK_SIZE == 68 and sum(COPIES) == 64
    assert COPIES == (8,) * 4 + (4,) * 8  # 4 suits x 8 copies, numbers 1-8 x 4 copies
    assert [card_name(c) for c in (0, 3, 4, 11, 12, 47, 48, 63, 64, 67)] == [
        "R", "B", "1", "8", "R", "8", "R", "B", "TR", "TB",
    ]  # fmt: skip
    assert card_id("g") == 2 and card_id("8") == 11 and card_id(" tb ") == 67
    with pytest.raises(ValueError, match="the suits R Y G B, the numbers 1-8"):
        card_id("9")
    ids = parse_deck(deck_of(*H4))
    assert sorted(ids) == list(range(68))  # a repeated name is the next copy
    assert parse_deck(["R", *range(12), *range(13, 68)])[:2] == [12, 0]  # 0 is given
    with pytest.raises(ValueError, match="more than 8 'R' card"):
        parse_deck(["R"] * 9 + deck_of(*H4)[9:])
    with pytest.raises(ValueError, match="whole decks of 68"):
        parse_deck(deck_of(*H4)[:60])


def test_deal_one_card_at_a_time_from_the_dealers_left():
    state = deal(*H4)
    assert [list(h) for h in state.hands] == [counts(h) for h in H4]
    assert list(state.remains) == counts("R R Y Y G B B B 5 6 7 8")
    assert state.dealer == 3 and state.first == 0 and state.current == 0
    three = deal(*H4[:3])
    assert [list(h) for h in three.hands] == [counts(h) for h in H4[:3]]
    assert sum(three.remains) == 64 - 39 and three.dealer == 2


def test_trump_card_revealed_and_the_trump_pile_reshuffled_after_four_hands():
    game = make_game(4)
    state = game.new_state(deck_of(*H4, trump="G"), seed=0)
    assert state.trump == 2 and state.trumps_seen == [2]
    second = deck_of(*H4, trump="G", first=1)  # the trump cards: TG TR TY TB
    state = game.new_state(deck_of(*H4, trump="G") + second, seed=0)
    finish_hand(state)
    assert state.hand_no == 1 and state.trump == 0  # TG is revealed already: TR is next
    assert state.first == 1 and state.dealer == 0  # the deal rotates one seat
    for seed in range(20):
        state = game.new_state(seed=seed)
        trumps = []
        while not state.is_terminal:
            if len(trumps) == state.hand_no:
                trumps.append(state.trump)
            state.apply(state.legal_actions()[0])
        assert sorted(trumps[:4]) == sorted(trumps[4:]) == [0, 1, 2, 3]


def finish_hand(state: State) -> None:
    hand = state.hand_no
    while state.hand_no == hand and not state.is_terminal:
        state.apply(state.legal_actions()[0])


def test_bad_hand_shown_and_redrawn_from_it_and_the_undealt_cards():
    """player_1 shows its hand, and takes 13 of it and the undealt cards in the order the next
    deck decides (``redraw_order``); the other hands stay. A fixed next deck draws a fixed
    hand, and the next deck written by names (as a record keeps it) draws the same."""
    game = make_game(4, redeal="player")
    pool = [a + b for a, b in zip(counts(BAD[1]), counts("R R R Y G G B 4 5 6 7 8"), strict=True)]
    drawn = {
        H4: ("R R Y G G 1 1 3 4 5 6 7 8", "R R G B 2 2 3 4 4 5 5 6"),
        H4[::-1]: ("R R R Y G G 2 3 4 4 4 5 6", "R G B 1 1 2 3 5 5 6 7 8"),
    }
    for hands, (hand, undealt) in drawn.items():
        state = game.new_state(deck_of(*BAD) + deck_of(*hands), seed=0)
        assert names(state.view(1).hand) == hand.split()
        assert list(state.remains) == counts(undealt)
    hands = set()
    for seed in range(8):
        second = game.new_state(seed=seed).deck[:68]
        state = game.new_state(deck_of(*BAD) + second, seed=0, log=True)
        named = game.new_state(deck_of(*BAD) + [card_name(c) for c in second], seed=0)
        assert state.decks_used == 2 and named.hands == state.hands
        for p in (0, 2, 3):
            assert list(state.hands[p]) == counts(BAD[p])
        new = list(state.hands[1])
        assert [a + b for a, b in zip(new, state.remains, strict=True)] == pool
        assert sum(new) == 13 and sum(new[:4]) >= 3 and sum(new[4:]) >= 3
        hands.add(tuple(new))
        assert state.view(0).shown == ((1, tuple(counts(BAD[1]))),)
        assert state.shown[0][2] == (0, 2, 3)  # their hands were final: none of the shown
        redeal = [e for e in state.log if e["type"] == "redeal"]
        assert redeal == [
            {"type": "redeal", "player": 1, "shown": BAD[1].split(), "mode": "player"}
        ]
    assert len(hands) > 4  # the next deck decides


def test_bad_hand_deals_everyone_again_under_redeal_all():
    state = make_game(4, redeal="all").new_state(deck_of(*BAD) + deck_of(*H4), seed=0)
    assert [list(h) for h in state.hands] == [counts(h) for h in H4]
    assert state.decks_used == 2 and state.shown == []


def test_hopeless_redraw_deals_everyone_again():
    state = make_game(4).new_state(deck_of(*HOPELESS) + deck_of(*H4), seed=0, log=True)
    assert [list(h) for h in state.hands] == [counts(h) for h in H4]
    assert [e["mode"] for e in state.log if e["type"] == "redeal"] == ["all"]


def test_every_hand_dealt_has_three_suit_and_three_number_cards():
    for n in (3, 4):
        game = make_game(n)
        redeals = 0
        for seed in range(300):
            state = game.new_state(seed=seed)
            redeals += state.decks_used - 1
            for hand in state.hands:
                assert sum(hand[:4]) >= 3 and sum(hand[4:]) >= 3 and sum(hand) == 13
        assert 0 < redeals < 60  # about 4% of four-player deals, 3% of three-player ones


# ------------------------------------------------------------------ bids
def test_bids_in_turn_from_the_dealers_left_0_to_12_open_to_all():
    state = deal(*H4)
    assert names(state.legal_actions()) == [f"bid {b}" for b in range(13)]
    play(state, "bid 0", "bid 12")
    assert state.current == 2 and state.view(3).bids == (0, 12, -1, -1)
    play(state, "bid 3", "bid 4")
    assert state.phase == FIRST and state.current == 0 and state.bids == [0, 12, 3, 4]


def test_sealed_bids_stay_hidden_until_everyone_has_bid():
    state = deal(*H4, bidding="sealed")
    bids(state, 2, 5, 1)
    assert state.view(3).bids == (-1, -1, -1, -1) and state.view(1).bids == (-1, 5, -1, -1)
    play(state, "bid 0")
    assert state.view(3).bids == (2, 5, 1, 0)


# ------------------------------------------------------------------ play
def first_trick(trump: str = "Y", engine: str | None = None) -> State:
    """H4 with trump ``trump``: player_0 leads R7, player_1 R8, player_2 (no R) G5,
    player_3 R4 (``engine="python"`` for a test that changes the state's lists itself)."""
    state = deal(*H4, trump=trump, engine=engine)
    bids(state, 3, 3, 3, 3)
    assert names(state.legal_actions()) == ["R", "Y", "G"]  # the leader: any suit card
    play(state, "R")
    assert state.current == 0 and names(state.legal_actions()) == list("1234567")
    play(state, "7")
    assert names(state.legal_actions()) == ["R"]  # player_1 holds R: must follow
    play(state, "R", "8")
    assert names(state.legal_actions()) == ["Y", "G", "B"]  # player_2 has no R: any suit
    play(state, "G", "5", "R", "4")
    return state


def test_first_trick_two_cards_each_suit_first_follow_the_lead_suit():
    state = first_trick()
    assert state.suit == [0, 0, 2, 0] and state.number == [7, 8, 5, 4]
    assert state.won == [0, 1, 0, 0] and state.current == 1  # lead suit R: the highest, R8
    assert state.phase == PLAYING and state.void[2] == 1 << 0  # shown: player_2 has no R


def test_trump_shown_takes_the_trick():
    state = first_trick(trump="G")
    assert state.won == [0, 0, 1, 0] and state.leader == 2  # G5 beats R7 and R8


def test_leader_covers_either_card_and_shows_the_lead_suit():
    state = first_trick()  # player_1 leads, showing R8
    assert names(state.legal_actions()) == ["R", "Y", "G", "1", "2", "3", "4", "8"]
    play(state, "1")  # covers the number: still shows R, the lead suit
    assert state.lead == 0 and state.suit[1] == 0 and state.number[1] == 1


def test_follower_showing_another_suit_must_play_the_lead_suit_if_held():
    state = first_trick()
    play(state, "Y")  # player_1 now shows Y8: the lead suit is Y
    assert state.lead == 1
    assert names(state.legal_actions()) == ["Y"]  # player_2 shows G5 and holds Y
    play(state, "Y")
    assert names(state.legal_actions()) == ["G", "B", "1", "2", "3", "4"]  # player_3: no Y
    play(state, "3")
    assert state.void[3] == 1 << 1  # it showed R and played a number: it has no Y


def test_follower_showing_the_lead_suit_covers_it_only_with_the_lead_suit():
    state = first_trick()
    play(state, "1")  # player_1 leads R1
    assert names(state.legal_actions()) == ["Y", "B", "5", "6", "7", "8"]  # player_2: no R
    play(state, "B")
    assert names(state.legal_actions()) == list("1234")  # player_3 shows R4, holds no R
    play(state, "2")
    assert names(state.legal_actions()) == ["R", "1", "2", "3", "4", "5", "6"]  # player_0


def test_follower_with_only_other_suits_must_cover_the_lead_suit():
    state = first_trick(engine="python")  # white-box below: the reference's own lists
    play(state, "1", "B", "2")  # lead R; player_0 shows R7, to play
    hand = state.hands[0]
    for k in range(12):  # player_0 is left with Y Y G only (the rest set aside, white-box)
        keep = {1: 2, 2: 1}.get(k, 0)
        state.remains[k] += hand[k] - keep
        hand[k] = keep
    state.cached_legal = None
    assert names(state.legal_actions()) == ["Y", "G"]
    play(state, "G")
    assert state.void[0] == NUMBERS_VOID | 1 << 0  # shown: no number card and no R left


def test_a_trump_shown_from_an_earlier_trick_still_takes_the_trick():
    state = first_trick(trump="G")  # player_2 won with G5 and leads
    play(state, "8")  # G8: lead G
    assert names(state.legal_actions()) == ["G"]  # player_3 shows R4 and holds G
    play(state, "G", "G", "G")  # G4, G7 (player_0), G8 (player_1)
    assert state.won[1] == 1  # G8 against G8: the later player takes a tie
    play(state, "Y")  # player_1 leads Y8: the lead suit is Y, nobody else shows it
    play(state, "Y")  # player_2: G8 -> Y8
    assert "1" in names(state.legal_actions())  # player_3 shows G4 and has no Y: free
    play(state, "1", "Y")  # player_3 keeps the trump suit: G1; player_0 Y7
    assert state.suit == [1, 1, 1, 2] and state.number == [7, 8, 8, 1]
    assert state.won == [0, 1, 1, 1]  # G1, the only trump shown, beats Y8 and Y8


def test_ties_go_to_the_later_player():
    state = first_trick()  # R8 (player_1) won; player_1 leads
    play(state, "Y")  # Y8
    play(state, "Y", "3", "Y")  # player_2 Y5, player_3 R3 (no Y), player_0 Y7
    assert state.won == [0, 2, 0, 0]
    play(state, "8")  # player_1 leads Y8 again
    play(state, "8")  # player_2 Y8: ties with the leader and comes later
    play(state, "4", "6")
    assert state.won == [0, 2, 1, 0] and state.leader == 2


# ------------------------------------------------------------------ scoring and the end
def test_exact_bid_scores_the_bid_a_miss_loses_the_difference():
    state = deal(*H4, engine="python")  # white-box: the reference's own lists and method
    state.bids, state.won = [0, 3, 5, 4], [0, 3, 2, 7]
    state._end_hand()
    assert state.hand_delta == [0, 3, -3, -3] and state.scores == [0, 3, -3, -3]
    assert state.hand_no == 1 and state.phase == 0  # the next hand is dealt


def test_eight_hands_then_places_by_total_score():
    game = make_game(3)
    state = game.new_state(seed=4)
    hands = 0
    while not state.is_terminal:
        hand = state.hand_no
        while state.hand_no == hand and not state.is_terminal:
            state.apply(state.legal_actions()[-1])
        hands += 1
    assert hands == 8 and state.phase == OVER and state.legal_actions() == []
    outcome = state.outcome()
    assert outcome.scores == tuple(float(s) for s in state.scores)
    for p in range(3):
        assert outcome.places[p] == 1 + sum(s > state.scores[p] for s in state.scores)
    assert sum(outcome.returns) == pytest.approx(0)


def test_single_hand_option_scores_one_hand():
    state = make_game(4, hands=1).new_state(deck_of(*H4), seed=0)
    rng = random.Random(0)
    steps = 0
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    assert steps == 4 + 8 + 11 * 4 and state.hand_no == 1 and sum(state.won) == 12
    assert state.scores == state.hand_delta
    assert state.outcome().extra == {"hands": 1}


def test_every_action_has_a_name():
    game = make_game(4)
    assert game.num_actions == 25 and BID == 12
    assert [game.action_name(a) for a in (0, 3, 4, 11, 12, 24)] == [
        "R", "B", "1", "8", "bid 0", "bid 12",
    ]  # fmt: skip
    assert game.action_id("bid 7") == 19 and game.action_id("g") == 2
