"""Property-based tests: any deal, any table size, any option mix, any legal play.

Hypothesis draws the deck order, the rules and the moves; the engine invariants of
``test_invariants`` must hold after every action, and a game record (through JSON) must
replay to the very same state. Derandomized, so CI runs the same examples every time.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_koira_invariants import check_state, play_checked, snapshot

from koira_env.core.record import game_record
from koira_env.games.koira.engine import new_game
from koira_env.games.koira.rules import (
    BOOL_OPTIONS,
    CHOICES,
    PLAYER_RANGE,
    Rules,
    deck_cards,
    make_rules,
)
from koira_env.registry import replay

PROFILE = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """A preset, a player count it allows, and any valid mix of option overrides."""
    preset = draw(st.sampled_from(sorted(PLAYER_RANGE)))
    lo, hi = PLAYER_RANGE[preset]
    n = draw(st.integers(lo, hi))
    optional: dict[str, st.SearchStrategy[Any]] = {
        name: st.sampled_from(values) for name, values in CHOICES.items()
    }
    optional.update({name: st.booleans() for name in BOOL_OPTIONS})
    optional.update(
        deck_ranks=st.integers(1, 13),
        deck_suits=st.sampled_from(["CDHS", "HS", "S", "CD", "DHS"]),
        hand_size=st.integers(1, 5),
    )
    options = draw(st.fixed_dictionaries({}, optional=optional))
    if not options.get("sequences"):  # these two only exist with sequences on
        options.pop("sequences_from_two", None)
        options.pop("take_one_card", None)
    try:
        return make_rules(n, preset, **options)
    except ValueError:  # a deck too small for the hands: the preset's deck instead
        for name in ("deck_ranks", "deck_suits", "hand_size"):
            options.pop(name, None)
        return make_rules(n, preset, **options)


decks = st.permutations(range(52))


def in_play(rules: Rules, deck: list[int]) -> list[int]:
    """The cards of ``rules``' deck in the order of a 52-card permutation (all of it for the
    full deck): a random order of the cards in play."""
    cards = set(deck_cards(rules))
    return [c for c in deck if c in cards]


@PROFILE
@given(rules=rule_sets(), deck=decks, rng=st.randoms(use_true_random=False))
def test_any_game_keeps_invariants_and_replays_from_its_record(
    rules: Rules, deck: list[int], rng: random.Random
) -> None:
    state = play_checked(new_game(rules=rules, deck=in_play(rules, deck), log=True), rng, deep=True)
    assert state.actions_taken < 0.6 * rules.max_actions
    record = json.loads(json.dumps(game_record(state)))
    again = replay(record)
    assert snapshot(again) == snapshot(state)
    assert record["result"]["placements"] == state.placements


@PROFILE
@given(
    rules=rule_sets(),
    deck=decks,
    rng=st.randoms(use_true_random=False),
    stop=st.integers(0, 300),
)
def test_a_game_stopped_anywhere_replays_to_the_same_state(
    rules: Rules, deck: list[int], rng: random.Random, stop: int
) -> None:
    state = new_game(rules=rules, deck=in_play(rules, deck), log=True)
    legal = check_state(state)
    while legal and state.actions_taken < stop:
        state.apply(rng.choice(legal))
        legal = check_state(state)
    again = replay(json.loads(json.dumps(game_record(state))))
    assert snapshot(again) == snapshot(state)
    assert again.legal_actions() == state.legal_actions()


@PROFILE
@given(rules=rule_sets())
def test_rules_survive_a_round_trip_through_their_dict(rules: Rules) -> None:
    data = json.loads(json.dumps(rules.to_dict()))
    options = {k: v for k, v in data.items() if k not in ("num_players", "preset")}
    assert make_rules(data["num_players"], data["preset"], **options) == rules
