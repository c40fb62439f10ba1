"""Phase one (RULES.md points 5-13): tricks, wars, risking it, refill, trump card, the end."""

from __future__ import annotations

import pytest
from koira_scenario import (
    END,
    PRESET_NAMES,
    THREE_HANDS,
    endgame,
    events,
    game,
    ids,
    legal,
    mini,
    play,
    risk_down_to,
)

from koira_env import RISK, card_id
from koira_env.games.koira.engine import (
    HAND,
    PHASE_ONE,
    PHASE_TWO,
    TRICK,
    TRUMP_ASIDE,
    UNKNOWN,
    WON,
)


def plays(state) -> list[tuple[int, str]]:
    return [(e["player"], e["card"]) for e in events(state, "play")]


# ---------------------------------------------------------------- point 5: order of play
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_first_trick_led_by_player_0_in_seat_order(preset: str) -> None:
    s = game(3, preset, [["8C", "9C", "2C"], ["5D", "9D", "3D"], ["6H", "TH", "4H"]])
    assert s.current == 0
    play(s, "2C")
    assert s.current == 1
    play(s, "3D")
    assert s.current == 2
    play(s, "TH")
    assert events(s, "trick_won") == [
        {"type": "trick_won", "player": 2, "cards": ["2C", "3D", "TH"]}
    ]
    assert s.current == 2  # the winner leads the next trick
    play(s, "6H", "8C", "5D")
    assert plays(s)[3:] == [(2, "6H"), (0, "8C"), (1, "5D")]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_trick_winner_takes_all_cards_face_up_to_won_pile(preset: str) -> None:
    s = play(
        game(3, preset, [["8C", "9C", "2C"], ["5D", "9D", "3D"], ["6H", "TH", "4H"]]),
        "2C",
        "3D",
        "TH",
    )
    for card in ids("2C", "3D", "TH"):
        assert s.loc[card] == WON + 2
        assert s.pub[card] == WON + 2  # everyone saw who won it
    assert s.won == [[], [], ids("2C", "3D", "TH")]


# ---------------------------------------------------------------- point 6: what starts a war
@pytest.mark.parametrize(
    ("preset", "options", "war"),
    [
        ("koira", {}, True),
        ("koira-b", {}, False),
        ("mattis", {}, False),
        ("koira", {"war_trigger": "highest_tie"}, False),
        ("koira-b", {"war_trigger": "any_tie"}, True),
    ],
)
def test_king_five_five(preset: str, options: dict, war: bool) -> None:
    s = play(game(3, preset, THREE_HANDS, **options), "KC", "5D", "5H")
    if war:  # A: the fives fight, the king cannot win
        assert events(s, "war") == [{"type": "war", "players": [1, 2], "rank": "5", "depth": 1}]
        assert s.won == [[], [], []] and s.current == 1
    else:  # B, Mattis: only a tie for the highest card matters
        assert events(s, "war") == []
        assert s.won[0] == ids("KC", "5D", "5H")


@pytest.mark.parametrize(
    ("preset", "war_rank"), [("koira", "9"), ("koira-b", None), ("mattis", None)]
)
def test_several_tied_ranks_only_the_highest_fights(preset: str, war_rank: str | None) -> None:
    hands = [
        ["KC", "2C", "3C"],
        ["5D", "2D", "3D"],
        ["5H", "2H", "3H"],
        ["9S", "2S", "3S"],
        ["9C", "4D", "4H"],
    ]
    s = play(game(5, preset, hands), "KC", "5D", "5H", "9S", "9C")
    wars = events(s, "war")
    if war_rank is None:
        assert wars == [] and s.won[0] == ids("KC", "5D", "5H", "9S", "9C")
    else:
        assert wars == [{"type": "war", "players": [3, 4], "rank": war_rank, "depth": 1}]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_tie_for_the_highest_card_is_a_war_in_every_preset(preset: str) -> None:
    hands = [["5C", "2C", "3C"], ["5D", "2D", "3D"], ["9H", "2H", "3H"], ["9S", "4C", "4D"]]
    s = play(game(4, preset, hands), "5C", "5D", "9H", "9S")
    assert events(s, "war") == [{"type": "war", "players": [2, 3], "rank": "9", "depth": 1}]


# ---------------------------------------------------------------- point 7: war play
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_war_players_play_again_in_seat_order_from_the_leader(preset: str) -> None:
    hands = [["5C", "9C", "2C"], ["3D", "8D", "4D"], ["AH", "6H", "7H"], ["4S", "9S", "TS"]]
    s = play(game(4, preset, hands), "5C", "3D", "AH", "4S")
    assert s.current == 2  # player 2 won and leads: seat order 2, 3, 0, 1
    play(s, "6H", "9S", "9C")
    assert s.current == 1 and not s.in_war
    play(s, "8D")
    assert events(s, "war")[-1]["players"] == [3, 0]
    assert s.round_players == [3, 0]  # player 1 sits the war out
    assert s.current == 3 and legal(s) == set(s.hands[3]) | {RISK}
    play(s, "TS")
    assert s.current == 0
    play(s, "2C")
    # the highest new card wins every card of the trick and the war
    assert events(s, "trick_won")[-1] == {
        "type": "trick_won",
        "player": 3,
        "cards": ["6H", "9S", "9C", "8D", "TS", "2C"],
    }
    assert s.current == 3


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_tie_among_war_cards_starts_another_war_among_those(preset: str) -> None:
    hands = [["9C", "7C", "2C"], ["9D", "7D", "3D"], ["9H", "4H", "2H"], ["5S", "3S", "4S"]]
    s = play(game(4, preset, hands), "9C", "9D", "9H", "5S")
    assert events(s, "war")[0]["players"] == [0, 1, 2]
    play(s, "7C", "7D", "4H")
    assert events(s, "war")[1] == {"type": "war", "players": [0, 1], "rank": "7", "depth": 2}
    assert legal(s) == set(ids("2C")) | {RISK}
    play(s, "2C", "3D")
    won = events(s, "trick_won")
    assert won[-1]["player"] == 1 and len(won[-1]["cards"]) == 9


def test_any_tie_trigger_also_applies_inside_a_war() -> None:
    hands = [["9C", "AC", "2C"], ["9D", "3D", "4D"], ["9H", "3H", "2H"], ["5S", "3S", "4S"]]
    s = play(game(4, "koira", hands), "9C", "9D", "9H", "5S", "AC", "3D", "3H")
    assert events(s, "war")[1]["players"] == [1, 2]  # the threes fight, the ace cannot win
    b = play(game(4, "koira-b", hands), "9C", "9D", "9H", "5S", "AC", "3D", "3H")
    assert len(events(b, "war")) == 1 and events(b, "trick_won")[0]["player"] == 0


# ---------------------------------------------------------------- point 10: risking it
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_risk_plays_the_top_stock_card_face_up(preset: str) -> None:
    s = game(3, preset, THREE_HANDS, stock=["QS", "JS"])
    assert RISK in legal(s)
    play(s, "risk")
    assert events(s, "play") == [{"type": "play", "player": 0, "card": "QS", "risked": True}]
    queen = card_id("QS")
    assert s.loc[queen] == s.pub[queen] == TRICK
    assert s.hands[0] == ids(*THREE_HANDS[0])  # the hand is untouched
    assert s.stock[-1] == card_id("JS")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_risk_needs_two_cards_in_stock(preset: str) -> None:
    s = risk_down_to(game(3, preset, THREE_HANDS), 2)
    assert len(s.stock) == 2 and RISK in legal(s)
    s.apply(RISK)
    assert len(s.stock) == 1
    assert RISK not in legal(s)  # the last card is the trump card
    assert legal(s) == set(s.hands[s.current])


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("risk_in_war", [True, False])
def test_risk_during_a_war(preset: str, risk_in_war: bool) -> None:
    s = play(game(3, preset, THREE_HANDS, stock=["QS"], risk_in_war=risk_in_war), "KC", "5D", "TH")
    assert s.won[0]  # king wins; player 0 leads the next trick
    play(s, "9C", "9D", "4H")
    assert s.in_war and s.current == 0
    assert (RISK in legal(s)) == risk_in_war


# ---------------------------------------------------------------- point 8: dropout, stalemate
DROP = [["9C", "8C", "7C"], ["9D", "8D", "7D"], ["2H", "3H", "4H"]]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_war_player_who_cannot_play_drops_out_last_one_wins(preset: str) -> None:
    # player 1 risked 9S into the tie, so player 0 runs out first; no risking in wars.
    s = game(3, preset, DROP, stock=["9S"], risk_in_war=False)
    play(s, "9C", "risk", "2H", "8C", "8D", "7C", "7D")
    assert [e["depth"] for e in events(s, "war")] == [1, 2, 3]
    assert events(s, "war_dropout") == [{"type": "war_dropout", "player": 0}]
    won = events(s, "trick_won")
    assert won == [
        {"type": "trick_won", "player": 1, "cards": ["9C", "9S", "2H", "8C", "8D", "7C", "7D"]}
    ]
    assert s.current == 1


def test_war_player_with_no_cards_may_risk_instead_of_dropping_out() -> None:
    s = play(game(3, "koira", DROP, stock=["9S"]), "9C", "risk", "2H", "8C", "8D", "7C", "7D")
    assert s.in_war and s.current == 0 and s.hands[0] == []
    assert legal(s) == {RISK}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_war_stalemate_deals_the_pile_to_the_war_players_won_piles(preset: str) -> None:
    s = game(3, preset, DROP, risk_in_war=False)
    play(s, "9C", "9D", "2H", "8C", "8D", "7C", "7D")
    assert s.hands[0] == s.hands[1] == [] or events(s, "draw")  # both were out of cards
    shares = events(s, "stalemate")[0]["shares"]
    # face up, in play order, round-robin from the first tied player
    assert shares == [
        {"player": 0, "cards": ["9C", "2H", "8D", "7D"]},
        {"player": 1, "cards": ["9D", "8C", "7C"]},
    ]
    assert s.won[0] == ids("9C", "2H", "8D", "7D") and s.won[1] == ids("9D", "8C", "7C")
    assert all(s.pub[c] == WON + 0 for c in s.won[0])
    assert events(s, "trick_won") == []
    assert s.current == 0 and len(s.hands[0]) == 3  # refilled; the first tied player leads


# ---------------------------------------------------------------- point 11-12: refill, trump
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_refill_winner_first_then_seat_order(preset: str) -> None:
    hands = [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["AH", "3H", "4H"], ["2S", "3S", "4S"]]
    s = play(game(4, preset, hands, stock=["KS", "QS", "JS", "TS"]), "2C", "3D", "AH", "4S")
    assert [e["player"] for e in events(s, "draw")] == [2, 3, 0, 1]
    assert [h[-1] for h in s.hands] == ids("JS", "TS", "KS", "QS")
    assert all(s.pub[h[-1]] == UNKNOWN for h in s.hands)  # draws are private


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_winner_who_would_draw_last_stock_card_gets_trump_card(preset: str) -> None:
    s = risk_down_to(game(3, preset, END), 1)
    assert s.stock == ids("KS") and s.current == 2
    play(s, "QH", "KC", "AD")
    king = card_id("KS")
    assert (s.trump_card, s.trump_holder) == (king, 1)
    revealed = preset != "koira"
    assert events(s, "trump_card") == [
        {"type": "trump_card", "player": 1, "card": "KS", "revealed": revealed}
    ]
    if revealed:  # B, Mattis: into hand face up, playable, trump suit known
        assert s.hands[1] == ids("7D", "3D", "KS")
        assert s.pub[king] == HAND + 1 and s.trump_suit == 3
    else:  # A: set aside hidden
        assert s.hands[1] == ids("7D", "3D") and s.loc[king] == TRUMP_ASIDE
        assert s.pub[king] == UNKNOWN and s.trump_suit == -1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_trump_card_goes_to_whoever_would_draw_it_in_refill_order(preset: str) -> None:
    hands = [["2C", "2D", "2H"], ["3C", "3D", "3H"], ["4C", "4D", "4H"], ["5C", "5D", "5H"]]
    s = risk_down_to(game(4, preset, hands), 4)
    leader = s.current
    assert len(s.stock) == 4 and s.stock[-1] == card_id("JS")
    s.apply(RISK)  # the risked jack wins, so the leader needs no card
    for _ in range(3):
        s.apply(s.hands[s.current][0])
    assert events(s, "trick_won")[-1]["player"] == leader
    after = [(leader + k) % 4 for k in (1, 2, 3)]
    assert [e["player"] for e in events(s, "draw")[-2:]] == after[:2]
    assert s.trump_holder == after[2] and s.stock == []


# ---------------------------------------------------------------- point 13: end of phase one
def test_koira_phase_one_ends_when_one_player_holds_cards() -> None:
    s = endgame("koira")
    assert s.phase == PHASE_TWO
    assert events(s, "trick_won")[-1]["player"] == 0
    ace = card_id("AS")
    assert ace in s.hands[2]  # the last holder keeps its cards for phase two
    assert events(s, "phase_two")[0]["leader"] == 1 == s.current  # the trump card's holder


def test_koira_b_phase_one_goes_on_until_nobody_holds_cards() -> None:
    s = endgame("koira-b")
    assert s.phase == PHASE_ONE and s.hands == [[], ids("KS"), ids("AS")]
    assert s.current == 1  # player 0 won but has nothing: skipped
    play(s, "KS", "AS")
    assert plays(s)[-2:] == [(1, "KS"), (2, "AS")]
    assert s.phase == PHASE_TWO
    assert events(s, "phase_two")[0]["leader"] == 2 == s.current  # the last trick's winner


def test_mattis_phase_one_ends_when_the_due_player_has_no_cards() -> None:
    s = endgame("mattis")
    assert s.phase == PHASE_TWO  # player 0 won the war but has no card to lead
    assert events(s, "phase_two")[0]["leader"] == 0 == s.current
    for p, card in ((1, "KS"), (2, "AS")):  # remaining cards are kept, shown to all
        assert card_id(card) in s.hands[p] and s.pub[card_id(card)] == HAND + p


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_phase_one_end_is_an_option(preset: str) -> None:
    hidden = {"trump_card": "hidden"}  # only player 2 holds a card after the war
    assert endgame(preset, phase_one_end="one_holder", **hidden).phase == PHASE_TWO
    s = endgame(preset, phase_one_end="all_played", **hidden)
    assert s.phase == PHASE_ONE and s.current == 2
    play(s, "AS")
    assert s.phase == PHASE_TWO and events(s, "trick_won")[-1]["cards"] == ["AS"]


def test_mattis_unfinished_last_trick_goes_back_to_its_players() -> None:
    s = risk_down_to(game(3, "mattis", END), 1)
    play(s, "QH", "KC", "AD", "KS", "AS", "7C")
    assert events(s, "trick_won")[-1]["player"] == 2
    play(s, "2H", "4C", "7D")  # player 1 wins; players 0 and 2 are empty
    play(s, "3D")  # player 2 is due and has nothing: phase one ends
    assert events(s, "trick_returned") == [
        {"type": "trick_returned", "shares": [{"player": 1, "cards": ["3D"]}]}
    ]
    assert s.phase == PHASE_TWO and card_id("3D") in s.hands[1]
    assert s.pub[card_id("3D")] == HAND + 1


@pytest.mark.parametrize("preset", ["koira-b", "mattis"])
def test_war_after_the_stock_is_gone(preset: str) -> None:
    s = risk_down_to(game(3, preset, END), 1)
    play(s, "QH", "KC", "AD", "KS", "AS", "4C", "2H", "7C", "7D")
    assert events(s, "war")[-1]["players"] == [0, 1]  # player 0 tied with its last card
    if preset == "koira-b":  # player 0 drops out: player 1 wins the pile at once
        assert events(s, "war_dropout") == [{"type": "war_dropout", "player": 0}]
        assert events(s, "trick_won")[-1] == {
            "type": "trick_won",
            "player": 1,
            "cards": ["2H", "7C", "7D"],
        }
    else:  # Mattis: player 0 is due with no cards, so phase one ends and the trick goes back
        assert events(s, "trick_returned")[0]["shares"] == [
            {"player": 2, "cards": ["2H"]},
            {"player": 0, "cards": ["7C"]},
            {"player": 1, "cards": ["7D"]},
        ]
        assert s.phase == PHASE_TWO and events(s, "war_dropout") == []


# ---------------------------------------------------------------- phase two entry (14, 15)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_phase_two_hand_is_hand_plus_won_pile(preset: str) -> None:
    s = risk_down_to(game(3, preset, END), 1)
    play(s, "QH", "KC", "AD", "7D", "2H", "7C", "3D")
    before = [h[:] for h in s.hands], [w[:] for w in s.won]
    play(s, "4C")
    if s.phase == PHASE_ONE:
        play(s, *(["KS", "AS"] if preset == "koira-b" else []))
    assert s.phase == PHASE_TWO
    assert s.out == [False] * 3
    assert sum(len(h) for h in s.hands) == 52
    assert all(h == sorted(h) for h in s.hands)  # phase-two hands are kept sorted
    if preset == "koira":  # the hidden trump card joins its holder's won pile
        hands, won = before
        assert s.hands[1] == sorted(hands[1] + [card_id("KS")] + won[1])
        last_trick = ids(*events(s, "trick_won")[-1]["cards"])
        assert s.hands[0] == sorted(won[0] + last_trick)
        assert s.hands[2] == sorted(hands[2] + won[2])
        assert s.trump_suit == 3 and s.pub[card_id("KS")] == HAND + 1


@pytest.mark.parametrize(
    ("preset", "options", "leader"),
    [
        ("koira", {}, 1),
        ("koira", {"phase_two_leader": "last_winner"}, 0),
        ("mattis", {}, 0),
        ("mattis", {"phase_two_leader": "trump_holder"}, 1),
        ("koira-b", {"trump_card": "hidden", "phase_one_end": "one_holder"}, 0),
    ],
)
def test_phase_two_leader(preset: str, options: dict, leader: int) -> None:
    s = endgame(preset, **options)
    assert s.phase == PHASE_TWO
    assert s.current == leader


# ---------------------------------------------------------------- B variation 1: split ties
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_split_variation_shares_the_trick_among_tied_players(preset: str) -> None:
    hands = [
        ["9C", "2C", "3C"],
        ["4D", "2D", "3D"],
        ["9H", "2H", "3H"],
        ["6S", "5S", "4S"],
        ["KC", "5C", "5D"],
    ]
    s = play(
        game(5, preset, hands, war_mode="split", war_trigger="highest_tie"),
        "9C",
        "4D",
        "9H",
        "6S",
        "5C",
    )
    assert events(s, "war") == []
    # tied players keep their nines; the rest ascending: the last player (4) gets the lowest,
    # the others are dealt round-robin to the tied players from the first one.
    assert events(s, "split")[0]["shares"] == [
        {"player": 0, "cards": ["9C", "5C"]},
        {"player": 2, "cards": ["9H", "6S"]},
        {"player": 4, "cards": ["4D"]},
    ]
    assert s.won[0] == ids("9C", "5C") and s.won[4] == ids("4D")
    assert s.current == 0  # the first tied player leads


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_split_variation_orders_equal_ranks_by_suit(preset: str) -> None:
    """Issue 28: the shared cards go in ascending rank, equal ranks by card id (suits C, D, H,
    S), whatever order they were played in."""
    hands = [
        ["9C", "2C", "3C"],
        ["4S", "2D", "3D"],
        ["9H", "2H", "6H"],
        ["4C", "5C", "6C"],
        ["4D", "5D", "6D"],
        ["3H", "7H", "8H"],
    ]
    s = play(game(6, preset, hands, war_mode="split"), "9C", "4S", "9H", "4C", "4D", "3H")
    # the rest in order: 3H, then the fours as 4C 4D 4S (played 4S, 4C, 4D); the last player
    # (5) gets 3H, the fours go round the tied players from the first one
    assert events(s, "split")[0]["shares"] == [
        {"player": 0, "cards": ["9C", "4C", "4S"]},
        {"player": 2, "cards": ["9H", "4D"]},
        {"player": 5, "cards": ["3H"]},
    ]
    assert s.won[0] == ids("9C", "4C", "4S") and s.won[2] == ids("9H", "4D")


# ---------------------------------------------------------------- mini Koira: the same rules
def test_mini_first_trick_refill_and_the_hidden_trump_card() -> None:
    """AH beats KH; the winner draws the one stock card first (back to two), so the loser
    would draw the last card: the trump card AS, set aside hidden. Then QS-KS: player 1 wins,
    only player 0 still holds a card (QH), and phase one is over."""
    s = play(mini([["AH", "QS"], ["KH", "KS"]], ["QH", "AS"]), "AH", "KH")
    assert s.won == [ids("AH", "KH"), []] and s.hands == [ids("QS", "QH"), ids("KS")]
    assert (s.trump_holder, s.trump_card, s.stock) == (1, card_id("AS"), [])
    assert s.loc[card_id("AS")] == TRUMP_ASIDE and s.pub[card_id("AS")] == UNKNOWN
    assert s.current == 0 and s.phase == PHASE_ONE
    play(s, "QS", "KS")
    assert s.phase == PHASE_TWO and events(s, "phase_two")[0]["leader"] == 1  # the trump holder
    assert s.hands == [ids("QH", "KH", "AH"), ids("QS", "KS", "AS")] and s.trump_suit == 3


def test_mini_war_with_a_risk_a_second_war_and_a_dropout() -> None:
    """KH-KS tie: a war. Player 0 risks the top stock card (AH), player 1 answers AS: a
    second war, on aces. Player 1 has no card left and the stock holds only the trump card,
    so player 1 drops out and player 0 wins the pile at once, then draws the trump card (QS)
    as the first to refill; only player 0 holds a card (QH), so phase one is over."""
    s = play(mini([["KH", "QH"], ["KS", "AS"]], ["AH", "QS"]), "KH", "KS")
    assert events(s, "war")[0]["players"] == [0, 1] and legal(s) == {card_id("QH"), RISK}
    play(s, "risk")
    assert s.pile[-1] == (0, card_id("AH")) and legal(s) == {card_id("AS")}
    play(s, "AS")
    assert [e["rank"] for e in events(s, "war")] == ["K", "A"]
    assert events(s, "war_dropout") == [{"player": 1, "type": "war_dropout"}]
    assert events(s, "trick_won")[0]["cards"] == ["KH", "KS", "AH", "AS"]
    assert (s.trump_holder, s.trump_card, s.phase) == (0, card_id("QS"), PHASE_TWO)
    assert s.hands == [sorted(ids("KH", "KS", "AH", "AS", "QH", "QS")), []]
