"""What players can know (RULES.md information section), pinned on scenario games."""

from __future__ import annotations

import pytest
from koira_scenario import (
    END,
    MINI_CARDS,
    PRESET_NAMES,
    THREE_HANDS,
    endgame,
    game,
    ids,
    mini,
    play,
    risk_down_to,
)

from koira_env import card_id
from koira_env.games.koira.engine import HAND, REMOVED, TRICK, TRUMP_ASIDE, UNKNOWN, WON
from koira_env.games.koira.info import known_locations, known_trump_suit


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hands_and_stock_are_private(preset: str) -> None:
    s = game(3, preset, THREE_HANDS)
    for seat in range(3):
        where = known_locations(s, seat)
        for p in range(3):
            for card in s.hands[p]:
                assert where[card] == (HAND + p if p == seat else UNKNOWN)
        assert all(where[c] == UNKNOWN for c in s.stock)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_plays_risks_and_won_piles_are_public(preset: str) -> None:
    s = play(game(3, preset, THREE_HANDS, stock=["AS"]), "risk")
    assert all(known_locations(s, seat)[card_id("AS")] == TRICK for seat in range(3))
    play(s, "9D", "TH")
    for seat in range(3):
        where = known_locations(s, seat)
        assert [where[c] for c in s.won[0]] == [WON + 0] * 3


def test_hidden_trump_card_is_known_only_to_its_holder_until_phase_two() -> None:
    s = risk_down_to(game(3, "koira", END), 1)
    play(s, "QH", "KC", "AD")
    king = card_id("KS")
    assert s.trump_holder == 1  # who holds it is public, the card is not
    assert known_locations(s, 1)[king] == TRUMP_ASIDE and known_trump_suit(s, 1) == 3
    for seat in (0, 2):
        assert known_locations(s, seat)[king] == UNKNOWN and known_trump_suit(s, seat) == -1
    s = endgame("koira")  # phase one over: revealed onto the holder's pile, now in hand
    assert all(known_locations(s, seat)[king] == HAND + 1 for seat in range(3))
    assert all(known_trump_suit(s, seat) == 3 for seat in range(3))


@pytest.mark.parametrize("preset", ["koira-b", "mattis"])
def test_revealed_trump_card_is_public_at_once(preset: str) -> None:
    s = risk_down_to(game(3, preset, END), 1)
    play(s, "QH", "KC", "AD")
    assert all(known_locations(s, seat)[card_id("KS")] == HAND + 1 for seat in range(3))
    assert all(known_trump_suit(s, seat) == 3 for seat in range(3))


@pytest.mark.parametrize(("preset", "shown"), [("koira", False), ("mattis", True)])
def test_cards_left_in_hand_after_phase_one(preset: str, shown: bool) -> None:
    s = endgame(preset)  # player 2 still holds AS when phase one ends
    ace = card_id("AS")
    assert ace in s.hands[2]
    assert known_locations(s, 0)[ace] == (HAND + 2 if shown else UNKNOWN)
    won = [c for c in s.hands[2] if c != ace]  # the won pile came face up into the hand
    assert won and all(known_locations(s, 0)[c] == HAND + 2 for c in won)


def test_mini_hidden_trump_card_and_the_cards_out_of_play() -> None:
    """Mini: the cards not in the deck are known to be out; the dealt and stock cards are
    private; the trump card and its suit are known to its holder only until phase two."""
    s = mini([["AH", "QS"], ["KH", "KS"]], ["QH", "AS"])
    in_play = set(ids(*MINI_CARDS))
    for seat in (0, 1):
        where = known_locations(s, seat)
        assert all(where[c] == REMOVED for c in range(52) if c not in in_play)
        unknown = {c for c in range(52) if where[c] == UNKNOWN}
        assert unknown == in_play - set(s.hands[seat])  # the other hand and the stock
    play(s, "AH", "KH")
    ace = card_id("AS")
    assert known_locations(s, 1)[ace] == TRUMP_ASIDE and known_trump_suit(s, 1) == 3
    assert known_locations(s, 0)[ace] == UNKNOWN and known_trump_suit(s, 0) == -1
    play(s, "QS", "KS")  # phase one over: the trump card joins its holder's hand, face up
    assert all(known_locations(s, seat)[ace] == HAND + 1 for seat in (0, 1))
    assert all(known_trump_suit(s, seat) == 3 for seat in (0, 1))
