"""Kop's rules, one scenario per decision of RULES.md (section Kop), from fixed deals."""

from __future__ import annotations

from itertools import pairwise

import pytest
from kop_scenario import deal, deck_of, declare, names, play

from koira_env.core.game import IllegalActionError
from koira_env.games.kop.cards import (
    BLACK_QUEENS,
    NUM_CARDS,
    POINTS,
    TOTAL_POINTS,
    TRUMPS_LOW_FIRST,
    beats,
    card_id,
    card_name,
)
from koira_env.games.kop.engine import CALL, PASS, PLAY, SILENT, SOLO
from koira_env.games.kop.game import make_game

# Scenario A: player_0 and player_1 hold the black queens (QC, QS).
A = ("QC AC JD TS", "QS TC AS AD", "AH TH JC JS", "QH QD JH TD")
# Scenario B: player_1 holds both black queens.
B = ("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD")
# A 52-52 hand when everyone plays their lowest legal card id (found by search, seed 3).
TIE = ("JC QC TD TS", "AC TH AH AS", "QD JH QH QS", "TC JD AD JS")


def legal_names(state) -> list[str]:
    return names(state.game, state.legal_actions())


def play_lowest_ids(state) -> None:
    """Finish the hand playing the lowest legal action each time (a fixed, simple policy)."""
    hand = state.hand_no
    while not state.is_terminal and state.hand_no == hand:
        state.apply(state.legal_actions()[0])


# ---------------------------------------------------------------- cards and deal
def test_sixteen_cards_names_and_ids():
    assert [card_name(c) for c in range(NUM_CARDS)][:4] == ["TC", "JC", "QC", "AC"]
    assert card_id("10H") == card_id("TH") == card_id("th") == 8
    with pytest.raises(ValueError, match="not a Kop card"):
        card_id("KC")
    with pytest.raises(ValueError, match="deck"):
        make_game().new_state(["KC", *deck_of(*A)[1:]])


def test_trump_order_low_to_high_and_plain_suits():
    order = [card_name(c) for c in TRUMPS_LOW_FIRST]
    assert order == ["TD", "AD", "JD", "JH", "JS", "JC", "QD", "QH", "QS", "QC", "TH", "AH"]
    for low, high in pairwise(TRUMPS_LOW_FIRST):
        assert beats(high, low) and not beats(low, high)
    ac, tc, as_, ts, td = (card_id(n) for n in ("AC", "TC", "AS", "TS", "TD"))
    assert beats(ac, tc) and not beats(tc, ac) and beats(as_, ts)
    assert beats(td, ac) and not beats(ac, td)  # the lowest trump takes a plain ace
    assert not beats(as_, tc) and not beats(ac, ts)  # another plain suit never wins


def test_deal_one_card_at_a_time_from_player_0():
    state = make_game().new_state(deck_of(*A), seed=0)
    deck = deck_of(*A)
    for p in range(4):
        assert sorted(state.hands[p]) == sorted(card_id(deck[i]) for i in range(p, 16, 4))
    assert state.current == 0 and state.leader == 0


def test_later_hands_are_dealt_from_and_led_by_the_next_seat():
    second = deck_of(*B)  # dealt from player_1: player_1 gets second[0], second[4], ...
    state = make_game().new_state(deck_of(*A) + second, seed=0)
    play_lowest_ids(state)
    assert state.hand_no == 1 and state.leader == 1
    for p in range(4):
        expected = {card_id(second[i]) for i in range((p - 1) % 4, 16, 4)}
        assert set(state.hands[p]) == expected
    assert state.deck[16:] == [card_id(n) for n in second]


# ---------------------------------------------------------------- play
def test_must_follow_suit():
    state = deal(*A)
    declare(state)
    play(state, "AC")
    assert legal_names(state) == ["TC"]  # player_1's only club, although it cannot win


def test_must_trump_when_void():
    state = deal(*A)
    declare(state)
    play(state, "AC", "TC")
    assert legal_names(state) == ["JC", "TH", "AH", "JS"]  # every trump of player_2 wins


def test_must_win_the_trick_as_it_stands_if_able():
    state = deal(*A)
    declare(state)
    play(state, "AC", "TC", "JS")
    assert legal_names(state) == ["QD", "QH"]  # JH and TD would not beat JS
    state = deal(*A)
    declare(state)
    play(state, "AC", "TC", "JS", "QD", "TD", "JD")
    assert legal_names(state) == ["QS"]  # AD is a trump too, but only QS beats JD


def test_discard_anything_with_neither_suit_nor_trump():
    state = deal(*A)
    declare(state)
    play(state, "AC", "TC", "JS", "QD", "TD", "JD", "QS", "TH", "JC", "QH", "QC")
    assert legal_names(state) == ["AD"]  # only one card left; it follows trumps, cannot win
    state = deal("JD QC JC QD", "TC AC TS AS", "TD AD JH QH", "QS JS TH AH")
    declare(state)
    play(state, "JD")
    assert legal_names(state) == ["TC", "AC", "TS", "AS"]  # no trump at all: anything
    state = deal("AC JD QC TC", "TS AS JS QS", "TD AD JH QH", "JC QD TH AH")
    declare(state)
    play(state, "AC")
    assert legal_names(state) == ["JS", "QS"]  # void in clubs: must trump (TS, AS not allowed)


def test_leader_plays_any_card_and_the_winner_leads_next():
    state = deal(*A)
    declare(state)
    assert legal_names(state) == ["QC", "AC", "JD", "TS"]
    play(state, "AC", "TC", "JS", "QD")
    assert state.current == 3 and state.points == [0, 0, 0, 26]
    assert legal_names(state) == ["TD", "JH", "QH"]


# ---------------------------------------------------------------- partners and scoring
def test_black_queen_holders_are_partners_and_a_team_win_moves_one_card_per_pair():
    state = deal(*A, log=True)
    declare(state)
    play(state, "AC", "TC", "JS", "QD")  # player_3 takes 26
    play(state, "TD", "JD", "QS", "TH")  # player_2 takes 25
    play(state, "JC", "QH", "QC", "AD")  # player_0 takes 19
    play(state, "TS", "AS", "AH", "JH")  # player_2 takes 34
    end = next(e for e in state.log if e["type"] == "hand_end")
    assert end["side"] == [0, 0, 1, 1] and end["points"] == [19, 85] and end["winner"] == 1
    assert end["change"] == [-2, -2, 2, 2] and state.vc == [3, 3, 7, 7]
    assert state.hand_no == 1 and not state.is_terminal  # nobody is out: next hand


def test_points_are_104_and_53_wins():
    assert sum(POINTS) == TOTAL_POINTS == 104
    assert [POINTS[card_id(n)] for n in ("AH", "TH", "QH", "JH")] == [11, 10, 3, 2]
    state = deal(*TIE, single_hand=True)
    play_lowest_ids(state)
    assert state.side_points == [52, 52]


def test_tie_52_52_nobody_wins_and_no_card_moves():
    state = deal(*TIE, log=True)
    play_lowest_ids(state)
    assert state.side_points == [52, 52] and state.vc == [5, 5, 5, 5] and state.hand_no == 1
    end = next(e for e in state.log if e["type"] == "hand_end")
    assert end["winner"] is None and end["change"] == [0, 0, 0, 0]


def test_tie_option_queens_side_loses():
    state = deal(*TIE, tie="queens_lose", log=True)
    play_lowest_ids(state)
    end = next(e for e in state.log if e["type"] == "hand_end")
    assert end["side"] == [0, 1, 0, 1] and end["points"] == [52, 52] and end["winner"] == 1
    assert state.vc == [3, 7, 3, 7]


# ---------------------------------------------------------------- both black queens
def test_both_black_queens_choose_before_the_first_lead():
    state = deal(*B)
    assert state.current == 0 and state.legal_actions() == [PASS]  # the leader declares first
    with pytest.raises(IllegalActionError):
        state.apply(card_id("JC"))  # no card before the declaration round is over
    play(state, "pass")
    assert state.current == 1 and state.legal_actions() == [CALL, SILENT, SOLO]
    assert names(state.game, [CALL, SILENT, SOLO, PASS]) == ["call", "silent", "solo", "pass"]
    with pytest.raises(IllegalActionError):
        state.apply(PASS)  # the holder chooses; silence is its pass
    play(state, "call", "pass", "pass")
    assert state.phase == PLAY
    assert state.current == 0 and legal_names(state) == ["JC", "AC", "TD", "TH"]


@pytest.mark.parametrize("holder", [None, 0, 1, 2, 3])
def test_declaration_round_is_the_same_whoever_holds_both_black_queens(holder):
    """Every seat declares once, from the leader, then the leader leads: the same four turns
    whether nobody or any one seat holds both black queens."""
    hands = ["JC TD TH AC", "JD JS AH TC", "JH QH AD TS", "AS QD QC QS"]
    if holder is None:
        hands[1], hands[3] = "JD JS AH QS", "AS QD QC TC"
    else:
        hands[holder], hands[3] = hands[3], hands[holder]
    state = deal(*hands)
    assert state.decider == (-1 if holder is None else holder)
    order = []
    while state.phase != PLAY:
        order.append(state.current)
        legal = state.legal_actions()
        assert legal == ([CALL, SILENT, SOLO] if state.current == holder else [PASS])
        state.apply(legal[0])
    assert order == [0, 1, 2, 3] and state.current == state.leader == 0


def test_call_takes_the_holder_of_the_highest_jack_as_partner():
    state = deal(*B)
    play(state, "pass", "call", "pass", "pass")
    assert card_name(state.called_jack) == "JC" and state.side == [0, 0, 1, 1]


def test_caller_holding_the_jack_of_clubs_calls_the_next_jack():
    state = deal("JS TD TH AC", "QC QS JC AH", "JD JH QH AD", "TC TS AS QD")
    play(state, "pass", "call", "pass", "pass")
    assert card_name(state.called_jack) == "JS" and state.side == [0, 0, 1, 1]
    state = deal("AH TD TH AC", "QC QS JC JS", "JD JH QH AD", "TC TS AS QD")
    play(state, "pass", "call", "pass", "pass")
    assert card_name(state.called_jack) == "JH" and state.side == [1, 0, 0, 1]


def test_no_call_option_when_holding_the_jack_of_clubs():
    state = deal(
        "JS TD TH AC", "QC QS JC AH", "JD JH QH AD", "TC TS AS QD", call_own_jack="no_call"
    )
    play(state, "pass")
    assert state.legal_actions() == [SILENT, SOLO]
    state = deal(*B, call_own_jack="no_call")
    play(state, "pass")
    assert state.legal_actions() == [CALL, SILENT, SOLO]


def test_solo_plays_alone_and_wins_or_pays_two_per_opponent():
    state = deal(*B, log=True)
    play(state, "pass", "solo", "pass", "pass")
    assert state.side == [1, 0, 1, 1]
    play_lowest_ids(state)
    won = state.side_points[0] >= 53
    expected = [-2, 6, -2, -2] if won else [2, -6, 2, 2]
    assert state.hand_delta == expected
    assert state.vc == [5 + d for d in expected]


def test_silent_is_a_secret_solo_scored_as_a_solo():
    state = deal(*B)
    play(state, "pass", "silent", "pass", "pass")
    assert state.side == [1, 0, 1, 1]
    play_lowest_ids(state)
    won = state.side_points[0] >= 53
    assert state.hand_delta == ([-2, 6, -2, -2] if won else [2, -6, 2, 2])


def test_silent_scoring_team_option_moves_one_card_per_opponent():
    state = deal(*B, silent_scoring="team")
    play(state, "pass", "silent", "pass", "pass")
    play_lowest_ids(state)
    won = state.side_points[0] >= 53
    assert state.hand_delta == ([-1, 3, -1, -1] if won else [1, -3, 1, 1])
    state = deal(*B, silent_scoring="team")
    play(state, "pass", "solo", "pass", "pass")  # an open solo keeps the text's two per opponent
    play_lowest_ids(state)
    assert abs(state.hand_delta[1]) == 6


def test_only_the_double_queen_holder_ever_chooses():
    state = deal(*A)
    assert state.decider == -1 and state.current == 0
    assert {state.hands[0][0], state.hands[1][-2]} == set(BLACK_QUEENS)
    for _ in range(4):
        assert state.legal_actions() == [PASS]
        play(state, "pass")
    assert all(a < NUM_CARDS for a in state.legal_actions())


# ---------------------------------------------------------------- the whole game
def test_game_ends_when_someone_has_no_victory_cards():
    state = deal(*A, victory_cards=2)
    play_lowest_ids(state)
    assert state.is_terminal and not state.truncated and state.vc == [0, 0, 4, 4]
    outcome = state.outcome()
    assert outcome.places == (3, 3, 1, 1) and outcome.scores == (0.0, 0.0, 4.0, 4.0)
    assert outcome.returns == pytest.approx((-2 / 3, -2 / 3, 2 / 3, 2 / 3))
    assert outcome.teams is None and outcome.extra == {"hands": 1}


def test_single_hand_option_places_the_winning_side_first():
    state = deal(*A, single_hand=True)
    declare(state)
    play(state, "AC", "TC", "JS", "QD", "TD", "JD", "QS", "TH", "JC", "QH", "QC", "AD")
    play(state, "TS", "AS", "AH", "JH")
    outcome = state.outcome()
    assert state.is_terminal and outcome.places == (3, 3, 1, 1)
    assert outcome.teams == (0, 0, 1, 1) and outcome.extra == {"points": [19, 85]}
    assert sum(outcome.returns) == pytest.approx(0)
    tie = deal(*TIE, single_hand=True)
    play_lowest_ids(tie)
    assert tie.outcome().places == (1, 1, 1, 1) and tie.returns() == [0.0] * 4


def test_single_hand_solo_places():
    state = deal(*B, single_hand=True)
    play(state, "pass", "solo", "pass", "pass")
    play_lowest_ids(state)
    places = state.outcome().places
    assert places in ((2, 1, 2, 2), (1, 4, 1, 1))
    assert sum(state.returns()) == pytest.approx(0)


def test_max_hands_truncates_without_a_result():
    state = deal(*TIE, max_hands=1)
    play_lowest_ids(state)
    assert state.is_terminal and state.truncated
    assert state.outcome() is None and state.returns() == [0.0] * 4
    assert make_game(4).rules.max_hands == 200
