"""Teka's rules, one scenario per decision of RULES.md (section Teka), from fixed deals."""

from __future__ import annotations

import pytest
from teka_scenario import POOR, SPADES, STRONG, deal, deck_of, names, play, top_down

from koira_env.cards import card_id
from koira_env.core.game import IllegalActionError
from koira_env.games.teka.engine import ASK, BIDDING, NEW_DEAL, OVER, PLAY, TRUMPS
from koira_env.games.teka.game import make_game


def ids(*cards: str) -> list[int]:
    return [card_id(c) for c in cards]


# ---------------------------------------------------------------- cards and deal
def test_cards_names_and_rank_order():
    game = make_game(4)
    assert game.deck_size == 52 and game.card_name(0) == "2C" and game.card_name(51) == "AS"
    assert game.card_id("10H") == game.card_id("th") == card_id("TH")
    state = deal(*SPADES, single_hand=True)
    play(state, "double 13", "pass", "pass", "pass", "trump spades", "2S", "AH", "AC")
    assert state.tricks[0][2] == 0  # the two of trumps beats two plain aces
    state = deal(single_hand=True)
    play(state, "bid 8", "pass", "pass", "pass", "trump clubs", "2C", "4C", "6C", "QC")
    assert state.tricks[0][2] == 3  # the queen is the highest club: A K Q ... 2


def test_deal_thirteen_at_once_from_the_first_speaker():
    state = deal()
    for p in range(4):
        assert state.hands[p] == sorted(ids(*STRONG[p].split()))
    assert (state.first, state.dealer, state.current, state.phase) == (0, 3, 0, BIDDING)


def test_later_hands_rotate_the_deal():
    game = make_game(4)
    state = game.new_state(deck_of(*STRONG) + deck_of(*SPADES), seed=0)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    top_down(state)
    assert state.hand_no == 1 and (state.first, state.dealer, state.current) == (1, 0, 1)
    assert state.hands[1] == ids(*SPADES[0].split())[::-1]  # the first packet: player_1
    assert state.hands[0] == sorted(ids(*SPADES[3].split()))


def test_hand_without_honours_is_redealt():
    state = deal(*POOR, log=True)
    assert state.deal_no == 1 and len(state.deck) == 104
    assert state.deck[:52] == make_game(4).parse_deck(deck_of(*POOR))
    assert next(e for e in state.log if e["type"] == "redeal")["players"] == [3]
    assert (state.first, state.dealer) == (0, 3)  # the same dealer deals again
    assert all(any(c % 13 >= 9 for c in hand) for hand in state.hands)


def test_ask_option_lets_an_honourless_hand_ask_for_a_new_deal():
    state = deal(*POOR, no_honours="ask")
    assert state.phase == ASK
    for _seat in range(3):
        assert names(state.game, state.legal_actions()) == ["keep"]
        play(state, "keep")
    assert state.current == 3 and names(state.game, state.legal_actions()) == ["keep", "new deal"]
    state.apply(NEW_DEAL)
    assert state.deal_no == 1 and state.phase == ASK and state.current == 0
    assert (state.dealer, state.hand_no) == (3, 0)
    kept = deal(*POOR, no_honours="ask")
    play(kept, "keep", "keep", "keep", "keep")
    assert kept.phase == BIDDING and kept.current == 0 and kept.deal_no == 0


def test_keep_option_plays_any_deal():
    state = deal(*POOR, no_honours="keep")
    assert state.phase == BIDDING and state.deal_no == 0
    assert state.hands[3] == sorted(ids(*POOR[3].split()))


# ---------------------------------------------------------------- auction
def test_auction_once_round_from_the_first_speaker():
    state = deal(single_hand=True)
    seen = []
    for move in ("pass", "bid 9", "pass", "bid 10"):
        seen.append(state.current)
        play(state, move)
    assert seen == [0, 1, 2, 3]  # the dealer (player_3) speaks last
    assert state.phase == TRUMPS and state.declarer == 3 and state.current == 3
    assert state.contract == 10 and state.calls == [52, 56, 52, 57]


def test_number_bids_must_rise():
    state = deal()
    assert names(state.game, state.legal_actions()) == [
        "pass", "bid 8", "bid 9", "bid 10", "bid 11", "bid 12", "bid 13", "double 13",
    ]  # fmt: skip
    play(state, "bid 10")
    assert names(state.game, state.legal_actions()) == [
        "pass", "bid 11", "bid 12", "bid 13", "double 13",
    ]  # fmt: skip
    with pytest.raises(IllegalActionError, match="legal actions: 52 \\(pass\\), 58 \\(bid 11\\)"):
        play(state, "bid 10")
    play(state, "bid 13")
    assert names(state.game, state.legal_actions()) == ["pass", "double 13"]


def test_later_double_thirteen_outbids_an_earlier_one():
    state = deal(single_hand=True)
    play(state, "bid 12", "double 13")
    assert names(state.game, state.legal_actions()) == ["pass", "double 13"]
    play(state, "double 13", "pass")
    assert state.declarer == 2 and state.double and state.contract == 13


def test_pass_signals_option():
    state = deal(pass_signals=True)
    assert names(state.game, state.legal_actions())[:3] == ["pass", "ter", "behi ter"]
    play(state, "ter")
    assert names(state.game, state.legal_actions())[:3] == ["pass", "ter", "behi ter"]
    play(state, "behi ter")
    assert "ter" not in names(state.game, state.legal_actions())  # third and fourth: pass
    plain = deal()
    assert "ter" not in names(plain.game, plain.legal_actions())


def test_dealer_must_bid_after_three_passes():
    state = deal()
    play(state, "pass", "pass", "pass")
    assert names(state.game, state.legal_actions()) == [
        "bid 8", "bid 9", "bid 10", "bid 11", "bid 12", "bid 13", "double 13",
    ]  # fmt: skip
    other = deal()
    play(other, "pass", "bid 8", "pass")
    assert "pass" in names(other.game, other.legal_actions())


def test_all_pass_redeal_option_throws_the_hand_in():
    state = deal(all_pass="redeal", log=True)
    play(state, "pass", "pass", "pass", "pass")
    assert state.hand_no == 1 and (state.dealer, state.first) == (0, 1)
    assert state.scores == [0, 0] and state.phase == BIDDING
    assert [e["type"] for e in state.log].count("throw_in") == 1
    one = deal(all_pass="redeal", single_hand=True)
    play(one, "pass", "pass", "pass", "pass")
    assert not one.is_terminal and one.hand_no == 1  # a single hand is one played hand


def test_declarer_names_a_trump_suit_it_holds():
    state = deal(*SPADES)
    play(state, "bid 8", "pass", "pass", "pass")
    assert names(state.game, state.legal_actions()) == ["trump spades"]
    state = deal()
    play(state, "pass", "bid 8", "pass", "pass")
    assert state.current == 1 and len(state.legal_actions()) == 4
    play(state, "trump hearts")
    assert state.trump == 2 and state.phase == PLAY and state.current == 1


def test_observed_declarer_contract_and_double_follow_the_high_bid():
    """Issue 28: during the auction ``declarer``, ``contract`` and ``double`` show the highest
    call so far (public), not zeros; they keep the declarer's contract, raises included,
    through the play and are zeros again in the next hand before its first bid."""
    game = make_game(4)
    state = game.new_state(deck_of(*STRONG), seed=0)
    layout = game.observation_layout

    def seen(seat: int) -> tuple[list[int], ...]:
        obs = game.observation(state, seat)
        return tuple(
            obs[layout[k]].astype(int).tolist() for k in ("declarer", "contract", "double")
        )

    nothing = ([0, 0, 0, 0], [0] * 6, [0])
    assert seen(1) == nothing  # before any bid
    play(state, "bid 9")  # player_0, three seats after player_1
    assert seen(1) == ([0, 0, 0, 1], [0, 1, 0, 0, 0, 0], [0])
    assert seen(0) == ([1, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0])
    play(state, "bid 11", "pass")  # player_1 outbids; a pass changes nothing
    assert seen(1) == ([1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0])
    assert seen(3) == ([0, 0, 1, 0], [0, 0, 0, 1, 0, 0], [0])
    play(state, "double 13")  # player_3, the dealer: the contract block is empty
    assert state.phase == TRUMPS and seen(1) == ([0, 0, 1, 0], [0] * 6, [1])

    state = game.new_state(deck_of(*STRONG), seed=0)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades", "raise 10")
    assert seen(2) == ([0, 0, 1, 0], [0, 0, 1, 0, 0, 0], [0])  # raised to 10
    top_down(state)
    assert state.hand_no == 1 and state.phase == BIDDING and seen(1) == nothing


# ---------------------------------------------------------------- play
def test_first_lead_must_be_a_trump():
    state = deal()
    play(state, "bid 8", "pass", "pass", "pass", "trump clubs")
    cards = [a for a in state.legal_actions() if a < 52]
    assert cards == ids("2C", "KC", "AC")
    play(state, "2C", "4C", "6C", "QC")  # player_3 wins: leads anything
    assert state.current == 3 and state.legal_actions() == state.hands[3]


def test_follow_suit_else_any_card():
    state = deal()
    play(state, "bid 8", "pass", "pass", "pass", "trump hearts", "AH", "TH", "6H", "2H")
    play(state, "AS")
    assert state.legal_actions() == ids("5S", "6S", "7S")
    play(state, "5S", "3S")
    assert state.legal_actions() == ids("2S")
    play(state, "2S", "KS", "6S", "4S")
    assert state.current == 3 and state.legal_actions() == state.hands[3]  # void: anything


def test_trick_winner_is_the_highest_trump_else_the_highest_of_the_led_suit():
    state = deal()
    play(state, "bid 8", "pass", "pass", "pass", "trump hearts", "AH", "TH", "6H", "2H")
    assert state.current == 0
    play(state, "AS", "5S", "3S", "2S")  # the highest of the led suit
    play(state, "KS", "6S", "4S", "3H")  # player_3 trumps the king of spades
    assert [t[2] for t in state.tricks] == [0, 0, 3] and state.current == 3
    play(state, "2D", "AD", "KD", "7D")  # a plain lead: the ace of diamonds wins
    assert state.tricks[-1][2] == 0


def test_double_thirteen_partner_sits_out():
    state = deal(*SPADES, single_hand=True, log=True)
    play(state, "double 13", "pass", "pass", "pass", "trump spades")
    assert state.out == 2
    order = []
    while not state.is_terminal:
        order.append(state.current)
        state.apply(max(state.legal_actions()))
    assert 2 not in order and len(state.tricks) == 13
    assert all(len(cards) == 3 for _, cards, _ in state.tricks)
    assert state.hands[2] == ids(*SPADES[2].split())[::-1]  # never played
    assert state.hand_points == [26, 0]


def test_declarer_may_raise_at_its_turns():
    state = deal(single_hand=True)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    raises = [a for a in state.legal_actions() if a >= 66]
    assert names(state.game, raises) == ["raise 9", "raise 10", "raise 11", "raise 12", "raise 13"]
    play(state, "raise 12")
    assert state.contract == 12 and all(a < 52 for a in state.legal_actions())  # once a turn
    play(state, "AS")
    assert all(a < 52 for a in state.legal_actions())  # only the declarer raises
    top_down(state)
    assert state.hand_points == [12, 0] and len(state.tricks) == 12
    assert state.raises == [(0, 12)]


def test_raises_stay_within_reach():
    state = deal(single_hand=True)
    play(state, "bid 8", "pass", "pass", "pass", "trump clubs", "2C", "4C", "6C", "QC")
    play(state, "2H")  # player_3 won the first trick and leads; player_0 to play
    raises = [a for a in state.legal_actions() if a >= 66]
    assert names(state.game, raises) == ["raise 9", "raise 10", "raise 11", "raise 12"]


@pytest.mark.parametrize(("raises", "later"), [("any", True), ("once", False), ("never", False)])
def test_raise_options(raises, later):
    state = deal(single_hand=True, raises=raises)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    first = [a for a in state.legal_actions() if a >= 66]
    assert bool(first) == (raises != "never")
    if first:
        play(state, "raise 9")
    play(state, "AS", "5S", "3S", "2S")
    assert bool([a for a in state.legal_actions() if a >= 66]) == later
    double = deal(*SPADES, single_hand=True)
    play(double, "double 13", "pass", "pass", "pass", "trump spades")
    assert all(a < 52 for a in double.legal_actions())


def test_play_stops_once_the_contract_is_made():
    state = deal(single_hand=True)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    top_down(state)
    assert state.phase == OVER and len(state.tricks) == 8 and state.won[0] == 8


def test_play_stops_once_the_contract_is_beaten():
    state = deal(single_hand=True)
    play(state, "pass", "bid 13", "pass", "pass", "trump hearts", "QH", "6H", "2H", "AH")
    assert state.phase == OVER and len(state.tricks) == 1  # 13 needed, one lost
    assert state.hand_points == [13, 0]


def test_early_end_off_plays_all_tricks():
    state = deal(single_hand=True, early_end=False)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    top_down(state)
    assert len(state.tricks) == 13 and state.hand_points == [8, 0]


# ---------------------------------------------------------------- scoring and the game
def test_made_contract_scores_the_bid():
    state = deal(log=True)
    play(state, "bid 9", "pass", "pass", "pass", "trump spades")
    top_down(state)
    assert state.scores == [9, 0] and state.hand_no == 1
    end = next(e for e in state.log if e["type"] == "hand_end")
    assert end["made"] and end["tricks"] == 9 and end["points"] == [9, 0]


@pytest.mark.parametrize(
    ("failed_bid", "points"), [("opponents", 13), ("double", 26), ("nothing", 0)]
)
def test_failed_contract_scores_for_the_opponents(failed_bid, points):
    state = deal(single_hand=True, failed_bid=failed_bid)
    play(state, "pass", "bid 13", "pass", "pass", "trump hearts", "QH", "6H", "2H", "AH")
    assert state.hand_points == [points, 0]
    outcome = state.outcome()
    if points:
        assert outcome.places == (1, 3, 1, 3) and outcome.returns[0] == pytest.approx(2 / 3)
    else:
        assert outcome.places == (1, 1, 1, 1) and outcome.returns == (0.0,) * 4


def test_double_thirteen_scores():
    state = deal(*SPADES, single_hand=True)
    play(state, "double 13", "pass", "pass", "pass", "trump spades")
    top_down(state)
    assert state.hand_points == [26, 0]
    state = deal(single_hand=True)
    play(state, "double 13", "pass", "pass", "pass", "trump spades", "AS", "5S", "2S")
    play(state, "2C", "4C", "QC")  # player_3 takes a trick: the double thirteen is lost
    assert state.phase == OVER and state.hand_points == [0, 52]


def test_game_ends_when_a_side_reaches_the_target():
    state = deal(target=9, log=True)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    top_down(state)
    assert state.phase == BIDDING and state.scores == [8, 0]  # 8 < 9: a second hand
    game = make_game(4, target=8)
    state = game.new_state(deck_of(*STRONG), seed=0)
    play(state, "bid 8", "pass", "pass", "pass", "trump spades")
    top_down(state)
    outcome = state.outcome()
    assert state.phase == OVER and outcome.places == (1, 3, 1, 3)
    assert outcome.scores == (8.0, 0.0, 8.0, 0.0) and outcome.teams == (0, 1, 0, 1)
    assert outcome.returns == pytest.approx((2 / 3, -2 / 3, 2 / 3, -2 / 3))


def test_single_hand_places_the_scoring_side_first():
    state = deal(single_hand=True)
    play(state, "pass", "bid 8", "pass", "pass", "trump diamonds")
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    outcome = state.outcome()
    winner = 0 if state.hand_points[0] else 1
    assert outcome.places[winner] == outcome.places[winner + 2] == 1
    assert outcome.places[1 - winner] == 3 and state.hand_no == 0


def test_max_hands_truncates_without_a_result():
    state = deal(all_pass="redeal", max_hands=2)
    play(state, "pass", "pass", "pass", "pass")
    assert not state.is_terminal
    play(state, "pass", "pass", "pass", "pass")
    assert state.is_terminal and state.truncated and state.outcome() is None
    assert state.returns() == [0.0] * 4 and state.legal_actions() == []
