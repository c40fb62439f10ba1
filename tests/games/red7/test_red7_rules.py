"""Red7 scenario tests: one per rule decision of RULES.md (section Red7), from fixed deals."""

from __future__ import annotations

import random

import pytest
from red7_scenario import deal, deck_of, names, turn

from koira_env.games.red7.cards import (
    BLUE,
    GREEN,
    INDIGO,
    NUM_CARDS,
    ORANGE,
    RED,
    VIOLET,
    YELLOW,
    card_id,
    card_name,
    cards_of,
    counted,
    rule_keys,
)
from koira_env.games.red7.engine import CANVAS, DEAD, DRAW, FOLDED, HAND, PALETTE, PASS, SCORED
from koira_env.games.red7.game import make_game
from koira_env.games.red7.rules import make_rules


def mask(text: str) -> int:
    return sum(1 << card_id(c) for c in text.split())


def winner(rule: int, *palettes: str) -> int:
    """The index of the palette winning under ``rule`` (-1: none has a card it counts)."""
    keys = [rule_keys(mask(p))[rule] for p in palettes]
    best = max(keys)
    return keys.index(best) if best else -1


# ------------------------------------------------------------------ cards and deal
def test_cards_rank_by_number_then_colour():
    assert [card_name(c) for c in (0, 1, 6, 7, 48)] == ["V1", "I1", "R1", "V2", "R7"]
    assert card_id("r7") == 48 and card_id(" V1 ") == 0
    assert card_id("V2") > card_id("R1") and card_id("O6") > card_id("Y6")
    assert sorted(card_name(c) for c in range(NUM_CARDS)) == sorted(
        f"{c}{k}" for c in "ROYGBIV" for k in range(1, 8)
    )
    for bad in ("R8", "X1", "R", "10R", 7):
        with pytest.raises(ValueError, match="colour initial"):
            card_id(bad)


def test_deal_seven_each_one_at_a_time_then_one_palette_card_each():
    deck = [card_name(c) for c in range(NUM_CARDS)]
    random.Random(3).shuffle(deck)
    state = make_game(3).new_state(deck, seed=0)
    for p in range(3):
        assert names(state.hands[p]) == names(sorted(card_id(c) for c in deck[p:21:3]))
        assert names(state.palettes[p]) == [deck[21 + p]]
    assert names(state.draw[::-1]) == deck[24:]  # the draw pile, its top first
    assert state.rule == RED and state.canvas == [] and state.alive == 3
    assert all(state.loc[c] == DRAW for c in state.draw)


def test_first_player_is_left_of_the_highest_palette_card():
    assert deal(["", "", ""], "B5 R5 I5").current == 2  # player_1 leads at red
    assert deal(["", "", ""], "B5 I5 R5").current == 0
    assert deal(["", ""], "O7 R6").current == 1  # the number first: O7 beats R6


def test_first_player_option_player_0_then_the_next_seat_each_round():
    state = deal(["", ""], "O5 R5", first_player="player_0", scoring="points")
    assert state.current == 0
    state.apply(PASS)  # player_1 wins the round; the next round starts at player_1
    assert state.round == 1 and state.current == 1


# ------------------------------------------------------------------ the seven rules
def test_red_highest_card():
    assert winner(RED, "R3", "O7 V1") == 1
    assert winner(RED, "R6", "O6") == 0  # same number: red beats orange


def test_orange_most_of_one_number():
    assert winner(ORANGE, "R1 O1", "Y7 G7") == 1  # two each: Y7 beats O1
    assert winner(ORANGE, "R1 O1 Y1", "Y7 G7") == 0


def test_yellow_most_of_one_colour():
    assert winner(YELLOW, "R1 R2", "B6 B7") == 1
    assert winner(YELLOW, "R1 R2 R3", "B6 B7 G7") == 0


def test_green_most_even_cards():
    assert winner(GREEN, "R2 O4", "G6 V1") == 0
    assert winner(GREEN, "R2", "O2 V7") == 0  # one even card each: R2 beats O2


def test_blue_most_different_colours():
    assert winner(BLUE, "R1 O1 Y1", "G7 B7") == 0
    assert winner(BLUE, "R1 R2", "O1") == 0  # one colour each: R2 is the best card


def test_indigo_most_cards_in_a_row():
    assert winner(INDIGO, "R1 O2 Y3", "G5 B6 V6") == 0  # a run of three beats a run of two
    assert winner(INDIGO, "V1 V2 R5", "O6 O7") == 1  # runs of two: O7 beats V2
    assert names(cards_of(counted(mask("V1 V2 V4 V5 R5"), INDIGO))) == ["V4", "R5"]


def test_violet_most_cards_below_4():
    assert winner(VIOLET, "R1 O2", "Y3 G4") == 0
    assert winner(VIOLET, "V3", "R3 O7") == 1


def test_ties_go_to_the_best_card_the_rule_counts():
    """R7 does not count under orange: the pair of 2s beats the pair of 1s."""
    assert winner(ORANGE, "R7 V1 I1", "O2 Y2") == 1
    assert names(cards_of(counted(mask("R7 V1 I1 O2"), ORANGE))) == ["V1", "I1"]
    assert names(cards_of(counted(mask("R7 V1 I1 O1"), ORANGE))) == ["V1", "I1", "O1"]


def test_a_palette_with_no_card_the_rule_counts_is_not_winning():
    assert winner(GREEN, "R1", "O3") == -1 and winner(VIOLET, "R7", "O4") == -1
    state = deal(["G1 G3 V5", ""], "R1 O3")  # nobody holds an even card or one below 4
    assert state.current == 0 and turn(canvas="G1") not in state.legal_actions()


# ------------------------------------------------------------------ a turn
TWO = (["R6 G2 G4 V1 Y5 B7 I3", ""], "O5 R5")  # player_1 leads at red: player_0 starts


def test_the_four_kinds_of_turn():
    state = deal(*TWO)
    assert state.current == 0
    legal = state.legal_actions()
    assert legal[0] == PASS  # doing nothing is always allowed (and puts the player out)
    assert turn("R6") in legal  # to the palette: R6 beats R5
    assert turn("V1") not in legal  # the palette card must leave it winning
    assert turn(canvas="B7") not in legal  # blue: one colour each, R5 beats O5
    assert turn("Y5", "B7") in legal  # blue after Y5: two colours against one
    assert turn(canvas="I3") not in legal  # indigo: a run of one each, R5 beats O5
    assert turn("G2", "G4") in legal  # palette, then canvas (green: G2 counts)
    assert turn(canvas="G4") not in legal  # green alone: nobody has an even card
    assert turn("B7", "R6") in legal  # a palette card, then a red card: B7 is highest


def test_blue_counts_colours_not_cards():
    state = deal(["O1 Y1 B1", ""], "O5 R5")
    legal = state.legal_actions()
    assert turn("O1", "B1") not in legal  # O5 O1: one colour, and R5 beats O5
    assert turn("Y1", "B1") in legal  # O5 Y1: two colours against one


def test_the_palette_card_counts_under_the_new_rule():
    state = deal(*TWO, log=True)
    state.apply(turn("G2", "G4"))
    assert state.rule == GREEN and names(state.palettes[0]) == ["O5", "G2"]
    assert names(state.canvas) == ["G4"] and state.loc[card_id("G4")] == CANVAS
    assert state.loc[card_id("G2")] == PALETTE + 0 and state.leader() == 0
    assert state.log[-1] == {"type": "play", "player": 0, "palette": "G2", "canvas": "G4"}
    assert state.current == 1


def test_pass_is_always_legal_and_puts_the_player_out():
    state = deal(["R1 O1", "Y1 G1", "B1 I1"], "R7 O6 Y4")  # player_0 leads: player_1 starts
    assert state.current == 1
    hand = state.hands[1][:]
    state.apply(PASS)
    assert state.active == [True, False, True] and state.eliminated == [1]
    assert state.hands[1] == [] and state.folded[1] == hand
    assert all(state.loc[c] == FOLDED + 1 for c in hand)
    assert state.loc[card_id("O6")] == DEAD + 1
    assert state.current == 2


def test_players_out_are_skipped_and_their_palettes_no_longer_count():
    state = deal(["R1", "Y1", "G1"], "R7 O6 Y4")
    assert winner(GREEN, "O6", "Y4") == 0  # O6 would beat Y4 under green
    state.apply(PASS)  # player_1 (O6) is out
    assert turn(canvas="G1") in state.legal_actions()  # player_2 now leads under green
    state.apply(turn(canvas="G1"))
    assert state.current == 0  # player_1 is skipped


def test_a_player_with_no_cards_can_only_pass():
    game = make_game(2)
    for seed in range(200):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if not state.hands[state.current]:
                assert state.legal_actions() == [PASS]
                return
            state.apply(rng.choice(state.legal_actions()[1:] or [PASS]))
    raise AssertionError("no player ran out of cards in 200 games")


DRAWS = (["G4 V3 O2", ""], "V2 R5")  # player_0 starts and leads under green and violet


def test_basic_game_never_draws():
    state = deal(*DRAWS)
    state.apply(turn(canvas="G4"))  # 4 > palette size 1, but the basic game has no draw
    assert len(state.hands[0]) == 6 and len(state.draw) == NUM_CARDS - 16


# ------------------------------------------------------------------ the end of the game
def test_last_player_in_wins_one_round():
    state = deal(*TWO, log=True)
    state.apply(PASS)
    assert state.is_terminal and state.winner == 1 and state.legal_actions() == []
    outcome = state.outcome()
    assert outcome.places == (2, 1) and outcome.returns == (-1.0, 1.0)
    assert outcome.scores == (0.0, 1.0) and outcome.extra["round_winner"] == 1
    assert state.log[-1]["type"] == "game_over"


def test_places_winner_ties_the_rest_elimination_ranks_them():
    for places, expected in (("winner", (1, 2, 2)), ("elimination", (1, 3, 2))):
        state = deal(["R1", "Y1", "G1"], "R7 O6 Y4", places=places)
        state.apply(PASS)  # player_1 out first
        state.apply(PASS)  # then player_2: player_0 is the last in
        assert state.outcome().places == expected


# ------------------------------------------------------------------ Advanced Red7
def test_canvas_draw_when_the_number_beats_the_palette_size():
    state = deal(*DRAWS, draw="Y7 Y6", canvas_draw=True, log=True)
    state.apply(turn(canvas="G4"))  # 4 > 1 card in the palette: draw the top card
    assert "Y7" in names(state.hands[0]) and len(state.hands[0]) == 7
    assert state.loc[card_id("Y7")] == HAND + 0 and state.log[-1]["drew"] == "Y7"
    assert names(state.draw[-1:]) == ["Y6"]
    state = deal(*DRAWS, draw="Y7", canvas_draw=True)
    state.apply(turn("O2", "V3"))  # violet: 3 is above the 2 cards of the palette
    assert "Y7" in names(state.hands[0]) and len(state.hands[0]) == 6
    state = deal(["G4 V3 O2 O1", ""], "V2 R5", draw="Y7", canvas_draw=True)
    state.apply(turn("O2", "O1"))  # orange (a pair of 2s): 1 is not above 2 cards
    assert "Y7" not in names(state.hands[0]) and len(state.hands[0]) == 5


def test_points_round_winner_scores_the_cards_the_rule_counts():
    state = deal(["Y5 O1", ""], "O5 R5", scoring="points", log=True)
    state.apply(turn("Y5", "O1"))  # orange: O5 and Y5 against R5
    state.apply(PASS)  # player_1 is out: player_0 wins the round
    assert state.scores == [10, 0] and names(state.scored[0]) == ["Y5", "O5"]
    assert state.log[-2]["type"] == "round_won" and state.log[-2]["points"] == 10
    assert state.round == 1 and not state.is_terminal and len(state.deck) == 2 * NUM_CARDS
    assert all(state.loc[c] == SCORED + 0 for c in state.scored[0])
    in_play = [c for h in state.hands for c in h] + [p[0] for p in state.palettes] + state.draw
    assert sorted(in_play + state.scored[0]) == list(range(NUM_CARDS))  # the rest redealt


def test_points_target_ends_the_game_published_targets_by_player_count():
    assert [make_rules(n).points_to_win for n in (2, 3, 4)] == [40, 35, 30]
    assert make_rules(3, target=12).points_to_win == 12
    state = deal(["", ""], "O5 R5", scoring="points", target=5)
    state.apply(PASS)
    assert state.is_terminal and state.scores == [0, 5]
    assert state.outcome().places == (2, 1) and state.outcome().scores == (0.0, 5.0)


def test_points_game_ends_when_the_deck_cannot_deal_a_round():
    game = make_game(4, scoring="points", target=1000, max_rounds=10_000)
    rng = random.Random(0)
    for seed in range(20):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        left = NUM_CARDS - sum(map(len, state.scored))
        assert not state.truncated and left < 32
        outcome = state.outcome()
        assert outcome.places[state.scores.index(max(state.scores))] == 1


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_every_points_round_scores_so_a_game_has_at_most_50_minus_8n_rounds(engine):
    """Issue 28: the last player in always has a card the rule counts (its own last card turn
    left it winning, or nobody played a card and red counts every palette), so every round
    scores at least one card, which leaves the game; a round needs 8n cards, so a points game
    has at most 50 - 8n rounds and the default ``max_rounds`` (100) never truncates one."""
    rng = random.Random(28)
    games = 200 if engine == "compiled" else 40
    for n in (2, 3, 4):
        for canvas_draw in (False, True):
            for first_player in ("left_of_leader", "player_0"):
                game = make_game(
                    n,
                    scoring="points",
                    target=1000,  # no early end: as many rounds as the cards allow
                    canvas_draw=canvas_draw,
                    first_player=first_player,
                    engine=engine,
                )
                for seed in range(games):
                    state = game.new_state(seed=seed, log=True)
                    while not state.is_terminal:
                        state.apply(rng.choice(state.legal_actions()))
                    won = [e for e in state.log if e["type"] == "round_won"]
                    assert len(won) == state.round + 1 <= 50 - 8 * n
                    assert all(e["cards"] and e["points"] >= 1 for e in won)
                    assert not state.truncated and state.outcome() is not None


def test_max_rounds_truncates_a_points_game():
    state = deal(["", ""], "O5 R5", scoring="points", max_rounds=1)
    state.apply(PASS)  # a round of 5 points, far from 40: the safeguard stops the game
    assert state.is_terminal and state.truncated
    assert state.outcome() is None and state.returns() == [0.0, 0.0]


def test_deck_of_builds_whole_decks():
    deck = deck_of(["R1", "O1"], "Y1 G1", "B1")
    assert len(deck) == NUM_CARDS == len(set(deck))
