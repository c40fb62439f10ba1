"""Whist 22 rule decisions, one scenario per row of RULES.md's Whist 22 section.

Every scenario deals a fixed deck (``deal``: the hands as each player receives them, one card
at a time from the dealer's left, then the cards set aside) and plays named actions.
"""

from __future__ import annotations

import pytest

from koira_env.core.game import deck_for_hand
from koira_env.games.whist22 import SPEC, make_game
from koira_env.games.whist22.engine import ASIDE, BID, FOOL_HIGH, FOOL_LOW

ALL = ["Fool", *(str(v) for v in range(1, 22))]


def deal(hands: list[list[str]], first: int = 0) -> list[str]:
    """A 22-card deck in deal order giving ``hands[p]`` to player p, dealt from ``first``;
    the cards in no hand are set aside (in increasing order)."""
    n = len(hands)
    order = [hands[(first + r) % n][i] for i in range(len(hands[0])) for r in range(n)]
    return order + [c for c in ALL if c not in order]


def play(state, *names: str) -> None:
    for name in names:
        state.apply(state.game.action_id(name))


FOUR = [  # a 4-player first hand: 5 cards each, "1" and "2" aside
    ["Fool", "3", "8", "13", "21"],
    ["4", "9", "14", "18", "20"],
    ["5", "10", "15", "17", "19"],
    ["6", "7", "11", "12", "16"],
]


def test_card_names_and_parsing():
    game = make_game(4)
    assert [game.card_name(c) for c in range(22)] == ALL
    for name in ("Fool", "fool", "F", "f", " FOOL "):
        assert game.card_id(name) == 0
    assert game.card_id("21") == 21
    for bad in ("0", "22", "01", "Excuse", "", "T"):
        with pytest.raises(ValueError, match="Fool"):
            game.card_id(bad)
    assert game.parse_deck(ALL) == list(range(22))


def test_action_ids_and_names():
    game = make_game(4)
    assert game.num_actions == BID + 6
    names = [game.action_name(a) for a in range(game.num_actions)]
    assert names[:3] == ["Fool=0", "1", "2"]
    assert names[21:] == ["21", "Fool=22", "bid 0", "bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    assert make_game(3).action_name(BID + 7) == "bid 7"
    assert game.action_id("fool=22") == FOOL_HIGH


def test_deal_one_card_at_a_time_from_dealers_left_rest_aside():
    game = make_game(4)
    state = game.new_state(deal(FOUR), seed=1)
    assert state.hands == [sorted(game.card_id(c) for c in h) for h in FOUR]
    assert [c for c in range(22) if state.loc[c] == ASIDE] == [1, 2]
    assert state.deck[:4] == [0, 4, 5, 6]  # deck[0] to player_0, deck[1] to player_1, ...
    state3 = make_game(3).new_state(deal([ALL[0:7], ALL[7:14], ALL[14:21]]), seed=1)
    assert [len(h) for h in state3.hands] == [7, 7, 7]
    assert [c for c in range(22) if state3.loc[c] == ASIDE] == [21]


def test_hand_sizes_shrink_to_one_and_grow_back():
    assert [make_game(4).hand_size(k) for k in range(10)] == [5, 4, 3, 2, 1, 2, 3, 4, 5, 4]
    assert [make_game(3).hand_size(k) for k in range(14)] == [
        *(7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 6)
    ]
    repeat = make_game(4, hand_sequence="repeat_ends")
    assert [repeat.hand_size(k) for k in range(12)] == [5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 5, 4]


def test_dealer_rotates_one_seat_each_hand_and_deals_from_its_left():
    game = make_game(4, start_score=30)
    hand1 = [["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "11", "12"]]
    hand1.append(["13", "14", "15", "16"])
    state = game.new_state(deal(FOUR) + deal(hand1, first=1), seed=1)
    assert (state.dealer, state.current) == (3, 0)
    play(state, "bid 0", "bid 0", "bid 0", "bid 0")
    _play_lowest_first(state)
    assert state.hand_no == 1 and state.size == 4
    assert (state.dealer, state.current, state.leader) == (0, 1, 1)
    assert state.hands == [[int(c) for c in h] for h in hand1]  # dealt from player_1
    play(state, "bid 0", "bid 0", "bid 0")
    assert state.current == 0  # the dealer bids last
    play(state, "bid 0")
    assert state.current == 1  # ... and the dealer's left leads


def test_later_hands_are_shuffled_from_the_seed():
    game = make_game(4, start_score=30)
    state = game.new_state(deal(FOUR), seed=123)
    play(state, "bid 0", "bid 0", "bid 0", "bid 0")
    _play_lowest_first(state)
    assert state.hand_no == 1
    assert state.deck[22:] == deck_for_hand(123, 1, 22)
    dealt = sorted(c for h in state.hands for c in h)
    assert dealt == sorted(deck_for_hand(123, 1, 22)[:16])


def test_bidding_from_dealers_left_once_each_zero_to_hand_size():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    assert state.legal_actions() == [BID + b for b in range(6)]
    for p, name in enumerate(["bid 5", "bid 0", "bid 3"]):
        assert state.current == p
        play(state, name)
    assert state.current == 3
    play(state, "bid 4")
    assert state.bids == [5, 0, 3, 4] and state.current == 0
    assert state.legal_actions() == [0, 3, 8, 13, 21, FOOL_HIGH]  # play has begun


def test_hook_rule_text_example_dealer_may_not_make_the_total():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    play(state, "bid 2", "bid 1", "bid 1")  # Tom, Suzy, Billy
    assert state.forbidden_bid() == 1
    assert state.legal_actions() == [BID + b for b in (0, 2, 3, 4, 5)]  # Aggie: not 1
    bids_over = make_game(4).new_state(deal(FOUR), seed=1)
    play(bids_over, "bid 4", "bid 1", "bid 1")  # already over 5: every bid is allowed
    assert bids_over.forbidden_bid() == -1
    assert bids_over.legal_actions() == [BID + b for b in range(6)]


def test_hook_rule_can_be_switched_off_with_a_hand_limit():
    state = make_game(4, hook=False, max_hands=3).new_state(deal(FOUR), seed=1)
    play(state, "bid 2", "bid 1", "bid 1")
    assert state.legal_actions() == [BID + b for b in range(6)]
    with pytest.raises(ValueError, match="max_hands"):
        make_game(4, hook=False)


def test_any_card_may_be_played_no_following():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 1", "bid 1", "bid 1")
    play(state, "21")
    assert state.legal_actions() == [4, 9, 14, 18, 20]  # every card, not only higher ones
    play(state, "4")
    assert state.legal_actions() == [5, 10, 15, 17, 19]


def test_highest_card_wins_and_the_winner_leads_next():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 1", "bid 1", "bid 1")
    play(state, "3", "4", "19", "16")
    assert state.won == [0, 0, 1, 0]
    assert state.current == state.leader == 2


def test_fool_declared_22_beats_21():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 1", "bid 1", "bid 1", "3", "20", "19", "16")  # player_1 wins
    play(state, "18", "17", "12", "Fool=22")  # player_1 leads, player_0 plays last
    assert state.won == [1, 1, 0, 0] and state.fool == 22


def test_fool_declared_0_loses_to_every_card():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 1", "bid 1", "bid 1")
    play(state, "Fool=0", "4", "5", "6")
    assert state.won == [0, 0, 0, 1] and state.fool == 0
    assert FOOL_LOW not in state.legal_actions() and state.legal_actions() == [7, 11, 12, 16]


def _play_lowest_first(state) -> None:
    """Everyone plays their lowest card until the hand ends."""
    hand = state.hand_no
    while state.hand_no == hand and not state.is_terminal:
        state.apply(state.hands[state.current][0])


def test_exact_bid_costs_nothing_missed_bid_one_point_per_trick():
    state = make_game(4).new_state(deal(FOUR), seed=1)
    # lowest-first play: the five tricks go to player_3, 2, 2, 1 and 0
    play(state, "bid 1", "bid 3", "bid 2", "bid 0")
    _play_lowest_first(state)
    assert state.hand_no == 1
    assert state.scores == [14, 12, 14, 13]  # exact, 2 under, exact, 1 over


def test_game_ends_when_a_score_reaches_zero_and_highest_wins():
    state = make_game(4, start_score=3).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 4", "bid 2", "bid 0")
    _play_lowest_first(state)
    assert state.is_terminal and state.scores == [3, 0, 3, 2]
    outcome = state.outcome()
    assert outcome.places == (1, 4, 1, 3)  # ties for the highest score share first place
    assert outcome.scores == (3, 0, 3, 2)
    assert outcome.returns == pytest.approx((2 / 3, -1.0, 2 / 3, -1 / 3))
    assert outcome.extra == {"hands": 1}


def test_game_goes_on_while_every_score_is_above_zero():
    state = make_game(4, start_score=4).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 4", "bid 2", "bid 0")
    _play_lowest_first(state)
    assert not state.is_terminal and state.scores == [4, 1, 4, 3] and state.hand_no == 1


def test_scores_below_zero_are_kept_and_rank_the_losers():
    state = make_game(4, start_score=2).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 5", "bid 2", "bid 4")  # 4 under and 3 under
    _play_lowest_first(state)
    assert state.scores == [2, -2, 2, -1]
    assert state.outcome().places == (1, 4, 1, 3)


def test_floor_at_zero_option_raises_scores_to_zero():
    state = make_game(4, start_score=2, floor_at_zero=True).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 5", "bid 2", "bid 4")
    _play_lowest_first(state)
    assert state.scores == [2, 0, 2, 0]
    assert state.outcome().places == (1, 3, 1, 3)


def test_start_score_option():
    assert make_game(3, start_score=5).new_state(seed=1).scores == [5, 5, 5]
    assert make_game(4).new_state(seed=1).scores == [14] * 4


def test_single_hand_option_plays_one_hand_ranked_by_points_lost():
    assert SPEC.single_hand == {"max_hands": 1}
    state = make_game(4, **SPEC.single_hand).new_state(deal(FOUR), seed=1)
    play(state, "bid 1", "bid 3", "bid 2", "bid 0")
    _play_lowest_first(state)
    assert state.is_terminal and state.hand_no == 1
    assert state.outcome().places == (1, 4, 1, 3)  # lost 0, 2, 0, 1
    assert len(state.deck) == 22  # no second hand was dealt


def test_max_hands_ends_the_game_after_that_many_hands():
    game = make_game(4, start_score=50, max_hands=3)
    state = game.new_state(seed=5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    assert state.hand_no == 3 and min(state.scores) > 0


def test_every_hand_with_the_hook_rule_costs_someone_a_point():
    state = make_game(3, start_score=50).new_state(seed=2, log=True)
    while state.hand_no < 20 and not state.is_terminal:
        state.apply(state.legal_actions()[0])  # everyone bids 0: the hook forces a miss
    lost = [sum(e["lost"]) for e in state.log if e["type"] == "hand_end"]
    assert len(lost) == 20 and min(lost) >= 1
