"""Phase two (RULES.md points 14-19, 21): beating, taking, trick ends, going out.

Positions are set with ``koira_scenario.phase_two``: spades are trump unless said otherwise.
"""

from __future__ import annotations

import pytest
from koira_scenario import PRESET_NAMES, action, events, ids, legal, mini, phase_two, play

from koira_env import TAKE
from koira_env.games.koira.engine import GAME_OVER, HAND, PHASE_TWO

B_LIKE = ("koira-b", "mattis")


def acts(*names: str) -> set[int]:
    return {action(n) for n in names}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_leader_plays_any_card(preset: str) -> None:
    s = phase_two(3, preset, [["8H", "2S", "AC"], ["9H"], ["3D"]], "S")
    assert legal(s) == acts("8H", "2S", "AC")


# ---------------------------------------------------------------- point 16: how to beat
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_beat_with_a_higher_card_of_the_suit(preset: str) -> None:
    s = play(phase_two(3, preset, [["8H", "AC"], ["5H", "9H", "QH", "AD"], ["3D"]], "C"), "8H")
    assert legal(s) == acts("9H", "QH") | ({TAKE} if preset in B_LIKE else set())


@pytest.mark.parametrize(
    ("preset", "options", "trump_allowed"),
    [
        ("koira", {}, False),
        ("koira-b", {}, True),
        ("mattis", {}, True),
        ("koira", {"trump_only_when_void": False}, True),
        ("mattis", {"trump_only_when_void": True}, False),
    ],
)
def test_trump_only_when_void_in_the_suit(preset: str, options: dict, trump_allowed: bool) -> None:
    s = play(phase_two(3, preset, [["8H", "AC"], ["5H", "2S"], ["3D"]], "S", **options), "8H")
    assert (action("2S") in legal(s)) == trump_allowed
    void = play(phase_two(3, preset, [["8H", "AC"], ["5C", "2S"], ["3D"]], "S", **options), "8H")
    assert action("2S") in legal(void)  # void in hearts: any trump beats a plain card


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_trump_on_top_needs_a_higher_trump(preset: str) -> None:
    s = play(
        phase_two(3, preset, [["8H", "AC"], ["5S", "2C"], ["4S", "9S", "AH"]], "S"), "8H", "5S"
    )
    assert legal(s) == acts("9S") | ({TAKE} if preset in B_LIKE else set())


# ---------------------------------------------------------------- point 17: taking
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_player_who_cannot_beat_must_take(preset: str) -> None:
    s = play(phase_two(3, preset, [["8H", "AC"], ["2H", "3C"], ["3D"]], "S"), "8H")
    assert legal(s) == {TAKE}
    play(s, "take")
    assert events(s, "take") == [{"type": "take", "player": 1, "cards": ["8H"]}]
    assert s.hands[1] == sorted(ids("2H", "3C", "8H")) and s.pub[action("8H")] == HAND + 1
    assert s.current == 2  # taking ends the turn


@pytest.mark.parametrize(
    ("preset", "options", "taken"),
    [
        ("koira", {}, "8H"),  # A: the first card played to the trick
        ("koira-b", {}, "5S"),  # B: the lowest face rank, trump or not
        ("mattis", {}, "5S"),
        ("koira", {"take": "lowest"}, "5S"),
        ("mattis", {"take": "bottom"}, "8H"),
    ],
)
def test_take_bottom_or_lowest_card(preset: str, options: dict, taken: str) -> None:
    hands = [["8H", "AC"], ["5S", "2C"], ["4S", "2H", "KD"]]
    s = play(phase_two(3, preset, hands, "S", **options), "8H", "5S")
    assert legal(s) == {TAKE}
    play(s, "take")
    assert events(s, "take")[-1]["cards"] == [taken]
    assert [p for p, _ in s.trick] == ([1] if taken == "8H" else [0])


def test_lowest_ties_go_to_the_earlier_play() -> None:
    hands = [["8H", "AC"], ["8S", "2C"], ["4S", "2H", "KD"]]
    s = play(phase_two(3, "koira-b", hands, "S"), "8H", "8S", "take")
    assert events(s, "take")[-1]["cards"] == ["8H"]


@pytest.mark.parametrize(
    ("preset", "options", "voluntary"),
    [
        ("koira", {}, False),
        ("koira-b", {}, True),
        ("mattis", {}, True),
        ("koira", {"voluntary_take": True}, True),
    ],
)
def test_voluntary_take(preset: str, options: dict, voluntary: bool) -> None:
    s = play(phase_two(3, preset, [["8H", "AC"], ["9H", "3C"], ["3D"]], "S", **options), "8H")
    assert legal(s) == acts("9H") | ({TAKE} if voluntary else set())


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_blue_player_must_take(preset: str) -> None:
    s = play(phase_two(3, preset, [["8H", "AC"], [], ["3D", "4D"]], "S"), "8H")
    assert s.current == 1 and not s.out[1]  # no cards, still in the game
    assert legal(s) == {TAKE}
    play(s, "take")
    assert s.hands[1] == ids("8H")


# ---------------------------------------------------------------- point 18: trick end
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_trick_ends_after_as_many_plays_as_players_taken_plays_count(preset: str) -> None:
    hands = [["5H", "9H", "AC"], ["7H", "KC"], ["2C", "3C"]]
    s = play(phase_two(3, preset, hands, "S"), "5H", "7H", "take")
    assert events(s, "take")[-1]["cards"] == ["5H"]
    assert s.trick_count == 2 and s.current == 0
    play(s, "9H")  # the third play ends the trick although 5H was taken back
    assert events(s, "trick_discarded") == [
        {"type": "trick_discarded", "winner": 0, "cards": ["7H", "9H"]}
    ]
    assert s.current == 0 and s.trick == [] and s.hands[2] == ids("2C", "3C", "5H")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_trick_needs_plays_of_everyone_in_at_its_start(preset: str) -> None:
    hands = [["5H", "2C"], ["7H"], ["8H", "3D"], ["9H", "4D"]]
    s = play(phase_two(4, preset, hands, "S"), "5H", "7H")
    assert s.out[1] and s.trick_needed == 4
    play(s, "8H")
    assert s.trick  # three plays are not enough
    play(s, "9H")
    assert events(s, "trick_discarded")[0]["winner"] == 3
    assert s.current == 3 and s.trick_needed == 3


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("emptied_trick", ["continues", "ends"])
def test_emptied_trick_is_led_by_next_holder_after_last_taker(
    preset: str, emptied_trick: str
) -> None:
    hands = [["5H", "2C"], ["7H", "3C"], [], ["2D", "3D"]]
    s = play(phase_two(4, preset, hands, "S", emptied_trick=emptied_trick), "5H", "7H")
    play(s, "take", "take")
    # player 2 took 5H, player 3 took 7H; player 0 is next but holds cards: leads.
    assert events(s, "trick_emptied") == [{"type": "trick_emptied", "next_leader": 0}]
    assert s.current == 0 and s.trick == []
    assert s.trick_count == (2 if emptied_trick == "continues" else 0)
    hands = [["5H", "2C"], ["3C"], [], ["2D"]]
    s = play(phase_two(4, preset, hands, "S", emptied_trick=emptied_trick), "5H", "take")
    assert events(s, "trick_emptied")[0]["next_leader"] == 3  # player 2 has nothing to lead


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_emptied_trick_continues_and_ends_after_as_many_plays_as_players(preset: str) -> None:
    """Default: an emptied trick is not over; its plays still count, so it ends after n plays."""
    hands = [["AS", "2C"], ["3C", "4D"], ["5C", "6D"]]
    s = play(phase_two(3, preset, hands, "S"), "AS", "take")  # nobody can beat the trump ace
    assert s.trick == [] and s.trick_count == 1 and s.current == 2
    play(s, "6D")  # player 2 leads into the same trick: a new bottom card
    assert s.trick_count == 2 and not events(s, "trick_discarded")
    assert legal(s) == {TAKE}  # player 0 holds no diamond and no trump: must take
    play(s, "take")
    assert s.current == 1 and s.trick == [] and s.trick_count == 2
    play(s, "3C")  # the third play completes the trick
    assert events(s, "trick_discarded") == [
        {"type": "trick_discarded", "winner": 1, "cards": ["3C"]}
    ]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_winner_who_went_out_passes_the_lead(preset: str) -> None:
    hands = [["5H", "2C"], ["7H", "3D"], ["9H"]]
    s = play(phase_two(3, preset, hands, "S"), "5H", "7H", "9H")
    assert events(s, "out") == [{"type": "out", "player": 2, "place": 1}]
    assert events(s, "trick_discarded")[0]["winner"] == 2
    assert s.current == 0


# ---------------------------------------------------------------- point 19, 22: going out
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize(
    ("reward", "returns"), [("loser", [0.5, 0.5, -1.0]), ("placement", [1.0, 0.0, -1.0])]
)
def test_last_player_holding_cards_loses(preset: str, reward: str, returns: list) -> None:
    s = phase_two(3, preset, [["9H"], ["TH"], ["2C", "3C"]], "S", reward=reward)
    assert s.returns() == [0.0, 0.0, 0.0]
    play(s, "9H")
    assert s.out == [True, False, False] and s.current == 1  # the trick goes on
    play(s, "TH")
    assert s.phase == GAME_OVER and s.loser == 2 and s.placements == [0, 1, 2]
    assert events(s, "game_over") == [{"type": "game_over", "loser": 2, "placements": [0, 1, 2]}]
    assert s.returns() == returns and sum(s.returns()) == 0


def test_placement_rewards_are_linear_for_four_players() -> None:
    s = phase_two(4, "koira", [["9H"], ["TH"], ["JH"], ["2C"]], "S", reward="placement")
    play(s, "9H", "TH", "JH")
    assert s.returns() == pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])


# ---------------------------------------------------------------- point 21: B variation
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("on", [True, False])
def test_trump_ends_trick_variation(preset: str, on: bool) -> None:
    hands = [["8H", "AC", "5S"], ["2S", "7S", "3C"], ["KD", "QD"]]
    s = play(phase_two(3, preset, hands, "S", trump_ends_trick=on), "8H", "2S")
    if on:  # a trump on a non-trump trick ends it at once; its player wins and leads
        assert events(s, "trick_discarded") == [
            {"type": "trick_discarded", "winner": 1, "cards": ["8H", "2S"]}
        ]
        assert s.current == 1
    else:
        assert s.current == 2 and len(s.trick) == 2
    t = play(phase_two(3, preset, hands, "S", trump_ends_trick=on), "5S", "7S")
    assert t.current == 2 and len(t.trick) == 2  # a trump-led trick goes on


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("on", [True, False])
def test_trump_ends_trick_judges_an_emptied_trick_by_its_new_lead(preset: str, on: bool) -> None:
    """Issue 28: after an emptied trick continues (18b), the play leading into it again is the
    trick's lead for variation 2, not the trick's first play (taken back into a hand)."""
    hands = [["AS", "2C"], ["4C", "5H"], ["6D", "7C"], ["2S", "3C"]]
    s = play(phase_two(4, preset, hands, "S", trump_ends_trick=on), "AS", "take", "6D")
    assert s.trick_count == 2  # a trump led the trick; a diamond now leads into it again
    play(s, "2S")  # a trump on the diamond lead (the trick's first play, AS, was a trump)
    if on:
        assert events(s, "trick_discarded") == [
            {"type": "trick_discarded", "winner": 3, "cards": ["6D", "2S"]}
        ]
        assert s.current == 3
    else:
        assert s.current == 0 and s.trick_count == 3 and not events(s, "trick_discarded")
    hands = [["5H", "2C"], ["3C", "4C"], ["4S", "7D"], ["9S", "3D"]]
    t = play(phase_two(4, preset, hands, "S", trump_ends_trick=on), "5H", "take", "4S", "9S")
    # a plain card led the trick, but a trump leads into it again: a higher trump goes on
    assert t.current == 0 and t.trick_count == 3 and not events(t, "trick_discarded")


# ---------------------------------------------------------------- mini Koira: the same rules
def test_mini_phase_two_with_the_trump_and_the_loser() -> None:
    """QS-KH and QH-AH make player 0 the trump card's holder (AS): spades are trump. In
    phase two player 1 holds a heart, so may not trump QH; player 0 beats the trump QS only
    with the higher trump AS, leads AH last and goes out: player 1 loses holding KS."""
    s = play(mini([["QS", "AH"], ["KH", "KS"]], ["QH", "AS"]), "QS", "KH", "QH", "AH")
    assert s.phase == PHASE_TWO and (s.trump_holder, s.trump_suit, s.current) == (0, 3, 0)
    assert s.hands == [ids("QH", "AH", "AS"), ids("KH", "QS", "KS")]
    play(s, "QH")
    assert legal(s) == acts("KH")  # holds a heart: no trump on QH
    play(s, "KH", "QS")  # player 1 won the trick and leads a trump
    assert legal(s) == acts("AS")  # only a higher trump beats it
    play(s, "AS", "AH")
    assert s.phase == GAME_OVER and s.placements == [0, 1] and s.loser == 1
    assert s.returns() == [1.0, -1.0] and s.hands == [[], ids("KS")]


def test_mini_player_without_cards_in_phase_two_must_take() -> None:
    """After the war of test_mini_war_with_a_risk_a_second_war_and_a_dropout player 0 holds
    all six cards and player 1 none ("Blue Mattis"): player 1 is still in and must take."""
    s = play(mini([["KH", "QH"], ["KS", "AS"]], ["AH", "QS"]), "KH", "KS", "risk", "AS")
    assert s.current == 0 and s.hands[1] == [] and len(s.hands[0]) == 6
    play(s, "QH")
    assert legal(s) == {TAKE}
    play(s, "take")
    assert s.hands[1] == ids("QH") and s.current == 0 and not s.out[1]
