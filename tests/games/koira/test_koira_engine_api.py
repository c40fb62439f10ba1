"""The engine's public API: card names, deck parsing, rule building, and misuse errors.

Every error must be a ``ValueError`` whose message names the problem (and the valid choices),
because researchers meet these messages first when they mistype a rule or a deck.
"""

from __future__ import annotations

import random
import re

import pytest

from koira_env import (
    RISK,
    TAKE,
    IllegalActionError,
    State,
    card_id,
    card_name,
    make_rules,
    new_game,
    parse_deck,
)
from koira_env.games.koira.engine import FIRST_RUN, RUNS, action_cards, action_name, num_actions

FULL_DECK = [card_name(c) for c in range(52)]


# ------------------------------------------------------------------ card names
def test_every_card_name_round_trips() -> None:
    names = [card_name(c) for c in range(52)]
    assert len(set(names)) == 52
    assert [card_id(name) for name in names] == list(range(52))
    assert names[:2] == ["2C", "3C"] and names[-1] == "AS" and card_name(50) == "KS"


@pytest.mark.parametrize("name", ["10S", "TS", "ts", "10s", " tS ", "Ts"])
def test_ten_of_spades_has_several_spellings(name: str) -> None:
    assert card_id(name) == 3 * 13 + 8
    assert card_name(card_id(name)) == "TS"


@pytest.mark.parametrize("name", ["", "S", "1S", "11S", "QX", "QSS", "ZS", "S Q", "10", "♠Q"])
def test_bad_card_names_say_what_a_card_looks_like(name: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(name)) + ".*rank.*suit"):
        card_id(name)


@pytest.mark.parametrize("bad", [None, 12, 3.0, b"QS"])
def test_card_id_wants_a_string(bad: object) -> None:
    with pytest.raises(ValueError, match="must be a string"):
        card_id(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 52, 1.0, "QS", None])
def test_card_name_wants_an_id(bad: object) -> None:
    with pytest.raises(ValueError, match=r"0\.\.51"):
        card_name(bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ decks
def test_parse_deck_accepts_names_ids_and_a_mix() -> None:
    order = list(range(52))
    random.Random(3).shuffle(order)
    names = [card_name(c) for c in order]
    assert parse_deck(names) == order
    assert parse_deck(order) == order
    mixed = [c if i % 2 else card_name(c).lower() for i, c in enumerate(order)]
    assert parse_deck(mixed) == order
    assert parse_deck(tuple(names)) == order  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (FULL_DECK[:51], "all 52 cards, got 51"),
        ([*FULL_DECK, "2C"], "all 52 cards, got 53"),
        ([], "all 52 cards, got 0"),
        ([*FULL_DECK[:51], "2C"], r"deck\[51\] repeats 2C"),
        ([*FULL_DECK[:10], "ZZ", *FULL_DECK[11:]], r"deck\[10\]: unknown card 'ZZ'"),
        ([*FULL_DECK[:5], 52, *FULL_DECK[6:]], r"deck\[5\] is 52"),
        ([*FULL_DECK[:5], -1, *FULL_DECK[6:]], r"deck\[5\] is -1"),
        ([*FULL_DECK[:5], True, *FULL_DECK[6:]], r"deck\[5\] is True"),
        ([*FULL_DECK[:5], 7.0, *FULL_DECK[6:]], r"deck\[5\] is 7.0"),
        ([*FULL_DECK[:5], None, *FULL_DECK[6:]], r"deck\[5\] is None"),
        (" ".join(FULL_DECK), "deck must be a list.*got str"),
        (None, "deck must be a list.*got NoneType"),
        (52, "deck must be a list.*got int"),
    ],
)
def test_bad_decks_name_the_problem(deck: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_deck(deck)  # type: ignore[arg-type]
    if deck is not None:  # new_game(deck=None) shuffles instead
        with pytest.raises(ValueError, match=message):
            new_game(4, deck=deck)  # type: ignore[arg-type]


def test_a_deck_fixes_the_deal_and_a_seed_fixes_the_shuffle() -> None:
    order = list(range(51, -1, -1))
    state = new_game(4, deck=[card_name(c) for c in order])
    assert state.deck == tuple(order)
    assert state.hands[0] == [order[0], order[4], order[8]]
    assert new_game(4, seed=7).deck == new_game(4, seed=7).deck
    assert new_game(4, seed=7).deck != new_game(4, seed=8).deck
    assert sorted(new_game(4, seed=7).deck) == list(range(52))


# ------------------------------------------------------------------ rules
@pytest.mark.parametrize(
    ("n", "preset", "message"),
    [
        (1, "koira", "'koira' is played by 2-8 players, got num_players=1"),
        (9, "koira", "'koira' is played by 2-8 players, got num_players=9"),
        (2, "koira-b", "'koira-b' is played by 3-8 players.*use rules='koira' for 2 players"),
        (2, "mattis", "'mattis' is played by 3-8 players"),
        (9, "mattis", "'mattis' is played by 3-8 players, got num_players=9"),
        (4.0, "koira", "num_players must be an int, got 4.0"),
        (True, "koira", "num_players must be an int, got True"),
        ("4", "koira", "num_players must be an int, got '4'"),
    ],
)
def test_bad_player_counts_name_the_preset_range(n: object, preset: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_rules(n, preset)  # type: ignore[arg-type]


def test_every_preset_accepts_its_whole_player_range() -> None:
    for preset, (lo, hi) in {"koira": (2, 8), "koira-b": (3, 8), "mattis": (3, 8)}.items():
        for n in range(lo, hi + 1):
            assert make_rules(n, preset).num_players == n


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(ValueError, match=r"unknown rules preset 'koira-c'.*'koira', 'koira-b'"):
        make_rules(4, "koira-c")


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(ValueError, match=r"unknown rule option\(s\) \['sequence'\].*'sequences'"):
        make_rules(4, "koira", sequence=2)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"war_mode": "war"}, r"war_mode='war' is not valid; choose one of \['play_on', 'split'\]"),
        ({"sequences": 4}, r"sequences=4 is not valid; choose one of \[0, 2, 3\]"),
        ({"sequences": True}, r"sequences=True is not valid"),
        ({"reward": "winner"}, r"reward='winner'.*\['loser', 'placement'\]"),
        ({"phase_one_end": None}, r"phase_one_end=None.*'one_holder'"),
        ({"risk_in_war": "yes"}, "risk_in_war must be True or False, got 'yes'"),
        ({"voluntary_take": 1}, "voluntary_take must be True or False, got 1"),
        ({"max_actions": 50}, "max_actions must be an int >= 100, got 50"),
        ({"max_actions": 1e4}, "max_actions must be an int >= 100"),
        ({"take_one_card": True}, "take_one_card=True .* needs sequences=2 or sequences=3"),
        ({"sequences_from_two": True}, "sequences_from_two=True .* needs sequences=2"),
    ],
)
def test_bad_option_values_name_the_valid_choices(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_rules(4, "koira", **options)
    with pytest.raises(ValueError, match=message):
        new_game(4, "koira", seed=0, **options)


def test_overrides_apply_on_top_of_the_preset() -> None:
    rules = make_rules(5, "koira-b", war_mode="split", sequences=3)
    assert (rules.preset, rules.num_players) == ("koira-b", 5)
    assert (rules.war_mode, rules.sequences, rules.take) == ("split", 3, "lowest")
    assert make_rules(6, rules).num_players == 6
    assert make_rules(5, rules, reward="placement").war_mode == "split"


# ------------------------------------------------------------------ actions
def test_action_ids_cover_cards_risk_take_and_runs() -> None:
    assert (RISK, TAKE, FIRST_RUN) == (52, 53, 54)
    assert len(RUNS) == 4 * sum(range(1, 13)) == len(set(RUNS))
    for i, run in enumerate(RUNS):
        assert len({c // 13 for c in run}) == 1 and list(run) == list(range(run[0], run[-1] + 1))
        assert action_cards(FIRST_RUN + i) == run and len(run) >= 2
    assert action_name(RISK) == "risk" and action_name(TAKE) == "take"
    assert action_cards(RISK) == action_cards(TAKE) == ()
    assert action_name(FIRST_RUN) == "2C-3C" and action_name(47) == "TS"
    assert num_actions(make_rules(4)) == 54
    assert num_actions(make_rules(4, sequences=2)) == 54 + len(RUNS)


@pytest.mark.parametrize("bad", [-1, 999, RISK + 2, None, "QS", 2.5])
def test_an_illegal_action_lists_the_legal_ones(bad: object) -> None:
    state = new_game(4, seed=11)
    legal = state.legal_actions()
    before = (bytes(state.loc), state.current, list(state.history))
    with pytest.raises(IllegalActionError, match="legal actions: ") as err:
        state.apply(bad)  # type: ignore[arg-type]
    assert isinstance(err.value, ValueError)
    assert "player_0" in str(err.value)
    for action in legal:
        assert f"{action} ({action_name(action)})" in str(err.value)
    assert (bytes(state.loc), state.current, list(state.history)) == before


def test_another_players_card_is_illegal() -> None:
    state = new_game(4, seed=2)
    with pytest.raises(IllegalActionError, match=card_name(state.hands[1][0])):
        state.apply(state.hands[1][0])


def test_take_is_illegal_in_phase_one_and_risk_in_phase_two() -> None:
    state = new_game(4, seed=5)
    with pytest.raises(IllegalActionError):
        state.apply(TAKE)
    rng = random.Random(5)
    while state.phase == 1:
        state.apply(rng.choice(state.legal_actions()))
    assert state.phase == 2
    with pytest.raises(IllegalActionError, match="risk"):
        state.apply(RISK)


def _play_out(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_apply_after_game_over_raises() -> None:
    state = _play_out(new_game(4, seed=9), 9)
    assert not state.truncated and state.legal_actions() == []
    for action in (0, RISK, TAKE, *range(52)):
        with pytest.raises(IllegalActionError, match="game is over"):
            state.apply(action)
    assert len(state.history) == state.actions_taken


def test_a_truncated_game_has_no_loser_and_no_rewards() -> None:
    state = _play_out(new_game(8, "mattis", seed=1, max_actions=100), 1)
    assert state.truncated and state.actions_taken == 100
    assert state.is_terminal and state.loser == -1
    assert state.returns() == [0.0] * 8 and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(0)
