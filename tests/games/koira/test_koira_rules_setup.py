"""Setup rules (RULES.md points 1-4 and the mini section): player counts, rule errors, the
deal, two-player removal, the deck options and mini Koira's deal."""

from __future__ import annotations

import pytest
from koira_scenario import MINI_CARDS, PRESET_NAMES, action, deck, game, ids, mini, mini_deck

import koira_env
from koira_env import RISK, card_name, make_rules, new_game
from koira_env.games.koira.engine import HAND, REMOVED, STOCK, UNKNOWN
from koira_env.games.koira.game import make_game
from koira_env.games.koira.rules import deck_cards


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


# ---------------------------------------------------------------- mini Koira and the deck options
def test_mini_deals_two_cards_each_from_six_with_a_stock_of_two() -> None:
    s = mini([["AH", "QS"], ["KH", "KS"]], ["QH", "AS"])
    assert s.deck == tuple(ids("AH", "KH", "QS", "KS", "QH", "AS"))  # one at a time from seat 0
    assert s.hands == [ids("AH", "QS"), ids("KH", "KS")]
    assert s.stock == ids("AS", "QH")  # QH on top (the one card to risk), AS the trump card
    assert s.current == 0 and sorted(s.legal_actions()) == sorted([*ids("AH", "QS"), RISK])
    in_play = set(ids(*MINI_CARDS))
    for card in range(52):
        if card in in_play:  # nothing removed unseen: every card of the deck is played
            assert s.loc[card] != REMOVED and s.pub[card] == UNKNOWN
        else:  # the 46 cards not in the deck are out, and everyone knows it
            assert s.loc[card] == s.pub[card] == REMOVED
    assert s.game.deck_size == 6 and s.game.deck_cards == tuple(sorted(in_play))
    assert s.game.env_name == "mini_v0" and s.rules.hand_size == 2


def test_mini_is_played_by_two_players_only() -> None:
    assert make_rules(2, "mini").deck_ranks == 3
    for n in (3, 4):
        with pytest.raises(ValueError, match=r"preset 'mini' is played by 2 players, got num_pl"):
            make_rules(n, "mini")


def test_mini_seeds_shuffle_only_the_cards_in_play() -> None:
    decks = {make_game(2, "mini").new_state(seed=seed).deck for seed in range(200)}
    assert all(sorted(d) == ids(*MINI_CARDS) for d in decks) and len(decks) > 100
    assert new_game(2, "mini", seed=5).deck == new_game(2, "mini", seed=5).deck


def test_a_mini_deck_holds_exactly_the_cards_in_play() -> None:
    order = mini_deck([["AH", "QS"], ["KH", "KS"]], ["QH", "AS"])
    assert new_game(2, "mini", deck=ids(*order)).deck == tuple(ids(*order))  # ids work too
    full = [card_name(c) for c in range(52)]
    with pytest.raises(ValueError, match=r"all 6 cards in play \(QH KH AH QS KS AS\), got 52"):
        new_game(2, "mini", deck=full)
    with pytest.raises(ValueError, match=r"deck\[2\] is '2C', not in play: .*QH KH AH QS KS AS"):
        new_game(2, "mini", deck=["AH", "KH", "2C", "KS", "QH", "AS"])
    with pytest.raises(ValueError, match=r"deck\[2\] is 0: expected one of the 6 cards in play"):
        new_game(2, "mini", deck=[38, 37, 0, 50, 36, 51])
    with pytest.raises(ValueError, match=r"deck\[5\] repeats AH"):
        new_game(2, "mini", deck=["AH", "KH", "QS", "KS", "QH", "AH"])
    env = koira_env.make("koira", 2, rules="mini")
    env.reset(options={"deck": order})
    assert env.unwrapped.state_object.deck == tuple(ids(*order))
    venv = koira_env.vector_env(2, 2, rules="mini")
    venv.reset(options={"decks": [order, list(reversed(order))]})
    assert [s.deck for s in venv.states] == [tuple(ids(*order)), tuple(ids(*order[::-1]))]
    with pytest.raises(ValueError, match=r"options\['decks'\]\[1\]: deck must hold all 6"):
        venv.reset(options={"decks": [order, full]})


def test_deck_options_shrink_the_deck_on_any_preset() -> None:
    rules = make_rules(3, "koira-b", deck_ranks=5, deck_suits="CDH", hand_size=2)
    cards = deck_cards(rules)
    assert [card_name(c) for c in cards[:5]] == ["TC", "JC", "QC", "KC", "AC"]
    assert len(cards) == 15 and {c // 13 for c in cards} == {0, 1, 2}
    s = new_game(rules=rules, seed=1)
    assert sorted(s.deck) == list(cards) and len(s.stock) == 15 - 6
    assert [len(h) for h in s.hands] == [2, 2, 2]
    assert all(s.pub[c] == REMOVED for c in range(52) if c not in cards)


def test_hand_size_deals_and_refills_to_that_size() -> None:
    s = new_game(4, "koira", seed=3, hand_size=5)
    assert [len(h) for h in s.hands] == [5, 5, 5, 5] and len(s.stock) == 32
    while len(s.stock) == 32:
        s.apply(s.hands[s.current][0])  # a trick of hand cards (wars too), then the refill
    assert [len(h) for h in s.hands] == [5, 5, 5, 5]


@pytest.mark.parametrize(
    ("options", "stock", "removed"),
    [({"hand_size": 2}, 38, 10), ({"deck_ranks": 12}, 42, 0), ({"deck_suits": "CDH"}, 33, 0)],
)
def test_two_player_removal_applies_to_the_full_deck_only(
    options: dict, stock: int, removed: int
) -> None:
    s = new_game(2, "koira", seed=0, **options)
    assert len(s.stock) == stock
    unseen = [c for c in range(52) if s.loc[c] == REMOVED and s.pub[c] == UNKNOWN]
    assert unseen == sorted(s.deck[len(s.deck) - removed :]) if removed else unseen == []


@pytest.mark.parametrize(
    ("players", "preset", "options", "message"),
    [
        (2, "koira", {"deck_ranks": 0}, "deck_ranks must be an int in 1..13, got 0"),
        (2, "koira", {"deck_ranks": 14}, "deck_ranks must be an int in 1..13, got 14"),
        (2, "mini", {"deck_ranks": "3"}, "deck_ranks must be an int in 1..13, got '3'"),
        (2, "koira", {"deck_suits": "SH"}, r"deck_suits must be suit letters from 'CDHS', each"),
        (2, "koira", {"deck_suits": "HX"}, r"in that order \(e.g. 'HS'\), got 'HX'"),
        (2, "koira", {"deck_suits": ""}, "deck_suits must be suit letters"),
        (2, "koira", {"deck_suits": "HH"}, "deck_suits must be suit letters"),
        (2, "mini", {"hand_size": 0}, "hand_size must be an int >= 1, got 0"),
        (2, "mini", {"hand_size": True}, "hand_size must be an int >= 1, got True"),
        (2, "mini", {"hand_size": 3}, r"a deck of 6 cards .* cannot deal hand_size=3 to each of 2"),
        (2, "mini", {"deck_suits": "S"}, r"a deck of 3 cards .* it needs at least 5 cards"),
        (8, "koira", {"hand_size": 7}, r"a deck of 52 cards .* it needs at least 57 cards"),
        (2, "koira", {"hand_size": 21}, r"trump card \(plus the 10 removed unseen\): .* 53 cards"),
        (3, "mattis", {"deck_ranks": 2, "deck_suits": "CD"}, r"a deck of 4 cards .* at least 10"),
    ],
)
def test_impossible_deck_mixes_are_refused(
    players: int, preset: str, options: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        make_rules(players, preset, **options)


def test_the_smallest_decks_that_deal_still_play() -> None:
    for players, preset, options in [
        (2, "mini", {"hand_size": 1, "deck_suits": "S"}),  # three spades: one each, the trump
        (2, "koira", {"hand_size": 20}),  # 40 dealt, the trump card, ten removed unseen
        (8, "koira", {"hand_size": 6}),  # 48 dealt, a stock of four
    ]:
        s = new_game(players, preset, seed=2, **options)
        while not s.is_terminal:
            s.apply(s.legal_actions()[-1])
        assert not s.truncated and sorted(s.returns())[0] == -1.0
        assert all(s.loc[c] != HAND for c in range(52)) or s.placements
