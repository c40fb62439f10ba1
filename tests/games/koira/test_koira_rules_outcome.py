"""Outcome and termination (RULES.md points 22-23) on whole games from fixed deals."""

from __future__ import annotations

import random

import pytest
from koira_scenario import PRESET_NAMES, events

from koira_env import IllegalActionError, new_game
from koira_env.games.koira.rules import PLAYER_RANGE


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("reward", ["loser", "placement"])
def test_whole_games_end_with_one_loser_and_zero_sum_rewards(preset: str, reward: str) -> None:
    lo, hi = PLAYER_RANGE[preset]
    for n in range(lo, hi + 1):
        s = new_game(n, preset, seed=n, log=True, reward=reward)
        rng = random.Random(n)
        while not s.is_terminal:
            s.apply(rng.choice(s.legal_actions()))
        assert not s.truncated and s.actions_taken < s.rules.max_actions
        assert sorted(s.placements) == list(range(n))
        assert events(s, "game_over")[0]["loser"] == s.loser == s.placements[-1]
        assert s.returns()[s.loser] == -1.0 and sum(s.returns()) == pytest.approx(0.0)


def test_truncation_safeguard_stops_the_game_without_rewards() -> None:
    s = new_game(4, "koira", seed=1, log=True, max_actions=100)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert s.truncated and s.actions_taken == 100
    assert events(s, "truncated") == [{"type": "truncated", "actions": 100}]
    assert s.returns() == [0.0] * 4 and s.loser == -1 and s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply(0)


def cards_in_play(s) -> int:
    return sum(len(h) for h in s.hands) + sum(len(cards) for _, cards in s.trick)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_literal_emptied_trick_rule_can_cycle_forever(preset: str) -> None:
    """With emptied_trick="ends" (source B's letter) phase two need not end: a card nobody can
    beat is led, the next player takes it (emptying the trick) and the player after leads on.
    Always playing the highest legal action does this; only the truncation safeguard ends it."""
    s = new_game(4, preset, seed=4, log=True, emptied_trick="ends")
    while not s.is_terminal and s.actions_taken < 4000:
        s.apply(s.legal_actions()[-1])
    held = cards_in_play(s)
    mark = len(s.log)
    while not s.is_terminal:
        s.apply(s.legal_actions()[-1])
    assert s.truncated and s.actions_taken == s.rules.max_actions
    tail = {e["type"] for e in s.log[mark:]}
    assert tail == {"play", "take", "trick_emptied", "truncated"}  # no trick ever completes
    assert cards_in_play(s) == held  # nothing was discarded


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("options", [{}, {"sequences": 3, "take_one_card": True}])
def test_fixed_policies_always_finish_within_the_proven_bound(preset: str, options: dict) -> None:
    """Default emptied_trick="continues": every trick ends after n plays and discards a card,
    so even the policies that cycle forever under the literal rule finish, far below the bound."""
    lo, hi = PLAYER_RANGE[preset]
    for n in range(lo, hi + 1):
        for pick in (0, -1):
            for seed in range(5):
                s = new_game(n, preset, seed=seed, **options)
                while not s.is_terminal:
                    s.apply(s.legal_actions()[pick])
                assert not s.truncated
                assert s.actions_taken <= action_bound(n, s.rules.sequences > 0)


def action_bound(n: int, runs: bool) -> int:
    """Phase one plays each card at most once; phase two has at most 52 tricks (each discards
    a card), each of at most n plays plus as many takes as cards were played into it."""
    cards_per_play = 13 if runs else 1
    return 52 + 52 * (n + n * cards_per_play)
