"""Sequences (RULES.md point 20) and source B's two sequence variations."""

from __future__ import annotations

import pytest
from koira_scenario import PRESET_NAMES, action, events, ids, legal, phase_two, play

from koira_env.games.koira.engine import FIRST_RUN, RUNS


def acts(*names: str) -> set[int]:
    return {action(n) for n in names}


def runs(state) -> set[int]:
    return {a for a in legal(state) if a >= FIRST_RUN}


def test_run_actions_name_every_run_of_two_or_more() -> None:
    assert len(RUNS) == 4 * sum(range(1, 13))  # per suit: 12 starts, 13 - start - 1 lengths
    assert RUNS[action("5H-6H-7H") - FIRST_RUN] == tuple(ids("5H", "6H", "7H"))


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, set()),
        ({"sequences": 2}, {"2H-3H", "3H-4H", "2H-3H-4H", "6H-7H"}),
        ({"sequences": 3}, {"2H-3H-4H"}),
        ({"sequences": 2, "sequences_from_two": True}, {"2H-3H", "2H-3H-4H"}),
    ],
)
def test_legal_runs(preset: str, options: dict, expected: set[str]) -> None:
    hands = [["2H", "3H", "4H", "6H", "7H", "9C"], ["2C"], ["3C"]]
    s = phase_two(3, preset, hands, "S", **options)
    assert runs(s) == acts(*expected)
    assert acts("2H", "3H", "4H", "6H", "7H", "9C") <= legal(s)


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        # A: only a higher run of the same length (or a trump run of that length, if void)
        ("koira", {}, {"7H-8H", "8H-9H"}),
        # B: any higher card or run of the suit; taking is always allowed
        ("koira-b", {}, {"7H", "8H", "9H", "7H-8H", "8H-9H", "7H-8H-9H", "take"}),
        ("mattis", {}, {"7H", "8H", "9H", "7H-8H", "8H-9H", "7H-8H-9H", "take"}),
        (
            "koira",
            {"sequence_beat": "any_length"},
            {"7H", "8H", "9H", "7H-8H", "8H-9H", "7H-8H-9H"},
        ),
    ],
)
def test_beating_a_run(preset: str, options: dict, expected: set[str]) -> None:
    hands = [["5H", "6H", "AC"], ["3H", "4H", "7H", "8H", "9H"], ["2C"]]
    s = play(phase_two(3, preset, hands, "S", sequences=2, **options), "5H-6H")
    assert legal(s) == acts(*expected)  # 3H-4H and 4H are lower: never legal


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("koira", {"2S-3S"}),
        ("koira-b", {"2S", "3S", "2S-3S", "take"}),
        ("mattis", {"2S", "3S", "2S-3S", "take"}),
    ],
)
def test_trumps_beat_a_plain_run(preset: str, expected: set[str]) -> None:
    hands = [["5H", "6H", "AC"], ["2S", "3S", "4C"], ["2C"]]
    s = play(phase_two(3, preset, hands, "S", sequences=2), "5H-6H")
    assert legal(s) == acts(*expected)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_player_who_cannot_beat_a_run_takes_all_of_it(preset: str) -> None:
    hands = [["5H", "6H", "7H", "AC"], ["2C", "3D"], ["4C"]]
    s = play(phase_two(3, preset, hands, "S", sequences=2), "5H-6H-7H", "take")
    assert events(s, "take") == [{"type": "take", "player": 1, "cards": ["5H", "6H", "7H"]}]
    assert s.hands[1] == ids("2C", "3D", "5H", "6H", "7H")
    assert s.trick == [] and s.current == 2  # the trick emptied: player 2 leads


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_take_one_card_variation(preset: str) -> None:
    hands = [["5H", "6H", "7H", "9H", "AC"], ["2C", "3D"], ["4C"]]
    s = phase_two(3, preset, hands, "S", sequences=2, take_one_card=True)
    play(s, "5H-6H-7H", "take")
    assert events(s, "take")[-1]["cards"] == ["5H"]  # only the run's lowest card
    assert s.trick == [[0, ids("6H", "7H")]] and s.current == 2
    play(s, "take")
    assert events(s, "take")[-1] == {"type": "take", "player": 2, "cards": ["6H"]}
    # what is left of the run stays in the trick and still counts as one play
    assert s.trick == [[0, ids("7H")]] and s.trick_count == 1 and s.current == 0
    play(s, "9H")
    assert s.trick_count == 2 and s.current == 1
