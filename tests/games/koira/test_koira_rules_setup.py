"""Setup rules (RULES.md points 1-4): player counts, rule errors, the deal, two-player removal."""

from __future__ import annotations

import pytest
from koira_scenario import PRESET_NAMES, action, deck, game, ids

from koira_env import RISK, card_name, make_rules, new_game
from koira_env.games.koira.engine import REMOVED, STOCK, UNKNOWN


@pytest.mark.parametrize(
    ("preset", "low", "high"), [("koira", 2, 8), ("koira-b", 3, 8), ("mattis", 3, 8)]
)
def test_player_counts_per_preset(preset: str, low: int, high: int) -> None:
    for n in range(low, high + 1):
        assert make_rules(n, preset).num_players == n
    for n in (low - 1, high + 1):
        with pytest.raises(ValueError, match=rf"{preset!r} is played by {low}-{high} players"):
            make_rules(n, preset)


def test_two_players_outside_koira_points_to_koira() -> None:
    with pytest.raises(ValueError, match="use rules='koira' for 2 players"):
        new_game(2, "mattis")


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(
        ValueError, match=r"unknown rules preset 'dog'.*'koira', 'koira-b', 'mattis'"
    ):
        make_rules(4, "dog")


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(ValueError, match=r"unknown rule option\(s\) \['war'\].*'war_trigger'"):
        make_rules(4, "koira", war="any_tie")


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("war_trigger", "all", r"war_trigger='all' is not valid; choose one of \['any_tie'"),
        ("sequences", 4, r"sequences=4 is not valid; choose one of \[0, 2, 3\]"),
        ("take", True, r"take=True is not valid; choose one of \['bottom', 'lowest'\]"),
        ("risk_in_war", "yes", "risk_in_war must be True or False"),
        ("max_actions", 10, "max_actions must be an int >= 100"),
    ],
)
def test_bad_option_value_names_the_choices(option: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_rules(4, "koira", **{option: value})


@pytest.mark.parametrize("option", ["sequences_from_two", "take_one_card"])
def test_sequence_variations_need_sequences(option: str) -> None:
    with pytest.raises(ValueError, match=rf"{option}=True .* needs sequences=2 or sequences=3"):
        make_rules(4, "koira-b", **{option: True})
    assert getattr(make_rules(4, "koira-b", sequences=2, **{option: True}), option)


def test_every_preset_option_can_be_switched_on_any_preset() -> None:
    b = make_rules(4, "koira-b")
    mixed = make_rules(4, "koira", war_trigger=b.war_trigger, take=b.take, voluntary_take=True)
    assert (mixed.war_trigger, mixed.take, mixed.voluntary_take) == ("highest_tie", "lowest", True)
    assert mixed.trump_card == "hidden"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_deal_one_card_at_a_time_from_player_0(preset: str) -> None:
    hands = [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2H", "3H", "4H"], ["2S", "3S", "4S"]]
    order = deck(4, hands, stock=["AS", "KD"])
    assert order[:5] == ["2C", "2D", "2H", "2S", "3C"]
    s = new_game(4, preset, deck=order)
    assert s.hands == [ids(*h) for h in hands]
    assert len(s.stock) == 40
    s.apply(RISK)  # the top of the stock is deck[3n]
    assert s.pile == [(0, action("AS"))]
    assert s.stock[-1] == action("KD")


def test_two_player_game_removes_last_ten_unseen() -> None:
    removed = ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC", "QD"]
    s = game(2, "koira", [["2C", "3C", "4C"], ["2D", "3D", "4D"]], removed=removed)
    assert s.deck[-10:] == tuple(ids(*removed))
    assert len(s.stock) == 32 + 4 == 36
    for card in ids(*removed):
        assert s.loc[card] == REMOVED
        assert s.pub[card] == UNKNOWN
    assert all(s.loc[c] == STOCK for c in s.stock)
    while not s.is_terminal:
        s.apply(s.legal_actions()[0])
    assert not s.truncated
    seen = {c for e in s.log if e["type"] == "play" for c in e.get("cards", [e.get("card")])}
    assert seen.isdisjoint(removed)
    assert {card_name(c) for c in range(52) if s.loc[c] == REMOVED} == set(removed)
