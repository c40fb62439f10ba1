"""Kop invariants over many random games: card conservation, termination, zero-sum returns,
determinism, replay, and that no seat observes what it may not know."""

from __future__ import annotations

import random

import pytest
from helpers import (
    check_redeals_along_random_games,
    observe,
    play_in_step,
    random_game,
    random_games,
    random_moves,
    replayed,
    swapped_deals,
)
from kop_scenario import deal, declare, play

from koira_env.games.kop.cards import NUM_CARDS, POINTS, QC, QS, card_id
from koira_env.games.kop.engine import DECLARE, HAND, NOBODY, PASS, SILENT, SOLO, TRICK, WON, State
from koira_env.games.kop.game import make_game

GAMES = 1500


def check_cards(state: State) -> None:
    """Every card in exactly one place, and the location table agrees with the hands."""
    places = [c for h in state.hands for c in h] + state.trick
    places += [c for _, cards, _ in state.tricks for c in cards]
    assert sorted(places) == list(range(NUM_CARDS))
    for p, hand in enumerate(state.hands):
        assert hand == sorted(hand)
        assert all(state.loc[c] == HAND + p and state.by[c] == NOBODY for c in hand)
    assert all(state.loc[c] == TRICK for c in state.trick)
    for _, cards, winner in state.tricks:
        assert all(state.loc[c] == WON + winner for c in cards)
    assert sum(state.points) == sum(POINTS[c] for _, cards, _ in state.tricks for c in cards)


def test_random_games_conserve_cards_end_and_are_zero_sum():
    game = make_game(4)
    rng = random.Random(1)
    longest = 0
    for seed in range(GAMES):
        state = game.new_state(seed=seed)
        steps = 0
        while not state.is_terminal:
            if steps % 5 == 0 or (state.hand_no and not state.tricks):
                check_cards(state)
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            if steps % 20 < 4:  # the declaration round: every seat once, from the leader
                assert state.phase == DECLARE and state.current == (state.leader + steps) % 4
                assert (legal == [PASS]) == (state.current != state.decider)
            state.apply(rng.choice(legal))
            steps += 1
        assert not state.truncated and steps == 20 * (state.hand_no + 1)
        longest = max(longest, state.hand_no + 1)
        assert sum(state.vc) == 20 and min(state.vc) <= 0
        assert sum(state.returns()) == pytest.approx(0)
        assert state.legal_actions() == []
    assert longest < 100  # far below max_hands=200 (RULES.md: termination)


def test_single_hand_games_are_zero_sum_with_partners_sharing_places():
    game = make_game(4, single_hand=True)
    for seed in range(GAMES):
        state = random_game(game, seed)
        outcome = state.outcome()
        assert sum(outcome.returns) == pytest.approx(0)
        assert sum(state.points) == 104 and state.hand_no == 0
        for p in range(4):
            for q in range(4):
                if outcome.teams[p] == outcome.teams[q]:
                    assert outcome.places[p] == outcome.places[q]


def test_same_seed_same_game_and_records_replay():
    game = make_game(4)
    for state in replayed(game, range(40)):
        assert len(state.deck) == 16 * (state.hand_no + 1)


# ---------------------------------------------------------------- information


def quiet(state: State) -> int:
    """The declaration that announces nothing: a pass, or a holder's silence."""
    return SILENT if SILENT in state.legal_actions() else PASS


def quietly(two: State, action: int) -> int:
    """The other deal's move for ``action``: silence and a pass match."""
    return quiet(two) if action in (PASS, SILENT) else action


def test_hidden_cards_swapped_change_nothing_a_seat_observes_until_seen():
    """Swap two cards of two other seats in the deal (which may make or unmake a holder of
    both black queens): the seat observes and views the same things (observation bytes and
    its legal actions) until one of them is played or a public call is made; silence and a
    pass match."""
    game = make_game(4)
    checked = 0
    for one, two, seat, hidden, rng in swapped_deals(game, range(400), lambda i: i % 4):
        moves = random_moves(rng)
        checked += play_in_step(one, two, [seat], moves, hidden.__contains__, translate=quietly)
    assert checked > 1000


def compare_until_seen(one: State, two: State, seats: tuple[int, ...], moved: set[int]) -> int:
    """Play both deals in step (declaring quietly, then the highest legal card) and check
    that ``seats`` observe and view the same until a card of ``moved`` is played; returns
    how many positions were compared."""

    def choose(state: State) -> int:
        return quiet(state) if state.phase == DECLARE else state.legal_actions()[-1]

    return play_in_step(one, two, seats, choose, moved.__contains__, translate=quietly)


def test_a_silent_choice_is_invisible_to_the_others():
    """player_1 holds both black queens and stays silent; in the other deal QS sits with
    player_2. Players 0 and 3 see nothing different, turn by turn: the same declaration
    round (player_1's silence is a pass to them), then the same play."""
    silent = deal("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD")
    normal = deal("JC TD TH AC", "QC JD JS AH", "QS JH QH AD", "TC TS AS QD")
    assert silent.decider == 1 and normal.decider == -1
    moved = {card_id("QS"), card_id("JD")}
    assert compare_until_seen(silent, normal, (0, 3), moved) >= 8
    assert silent.side == [1, 0, 1, 1] and normal.side == [1, 0, 0, 1]
    assert observe(silent, 1) != observe(normal, 1)  # the chooser itself knows


def test_which_seat_holds_both_black_queens_is_invisible_to_a_third():
    """Two deals differing only in whether player_1 or player_3 holds both black queens (and
    stays silent): player_0 and player_2, who hold neither, observe and view exactly the
    same things until a moved card is played, and the log announces four passes in both."""
    one = deal("JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD", log=True)
    two = deal("JC TD TH AC", "TC TS AS QD", "JD JH QH AD", "QC QS JS AH", log=True)
    assert (one.decider, two.decider) == (1, 3)
    assert compare_until_seen(one, two, (0, 2), set(one.hands[1] + one.hands[3])) >= 5
    assert one.history[:4] == [PASS, SILENT, PASS, PASS]
    assert two.history[:4] == [PASS, PASS, PASS, SILENT]
    for state in (one, two):
        announced = [e["announce"] for e in state.log if e["type"] == "declare"]
        assert announced == ["pass"] * 4


def test_determinize_keeps_what_the_seat_observes_and_respects_the_play():
    check_redeals_along_random_games(make_game(4), range(80), check_cards)


def test_determinize_puts_a_public_callers_cards_back_in_their_hand():
    hands = ["JC TD TH AC", "QC QS JS AH", "JD JH QH AD", "TC TS AS QD"]
    rng = random.Random(0)
    for choice in ("call", "solo"):
        state = deal(*hands)
        play(state, "pass", choice)
        world = state.determinize(0, rng)
        assert {QC, QS} <= set(world.hands[1]) and world.decision == state.decision
        play(state, "pass", "pass")
        for _ in range(30):
            world = state.determinize(0, rng)
            assert {QC, QS} <= set(world.hands[1]) and world.side == state.side
    state = deal("AH TD TH AC", "QC QS JC JS", "JD JH QH AD", "TC TS AS QD")
    play(state, "pass", "call", "pass", "pass")  # calls JH: player_1 holds JC and JS, not JH
    for _ in range(30):
        world = state.determinize(0, rng)
        assert {card_id("JC"), card_id("JS")} <= set(world.hands[1])
        assert card_id("JH") not in world.hands[1]


def test_determinize_puts_a_silent_or_pending_holder_only_where_a_pass_allows():
    """No announcement yet, player_2 to declare: a re-deal may give any other seat both black
    queens; one that already passed is then a silent holder, one still to declare chooses
    on its turn."""
    state = deal("JC TD TH AC", "QC JD JS AH", "QS JH QH AD", "TC TS AS QD")
    play(state, "pass", "pass")
    rng = random.Random(0)
    seen = set()
    for _ in range(300):
        world = state.determinize(0, rng)
        seen.add(world.decider)
        assert world.decision == (SILENT if world.decider == 1 else -1)
        assert world.current == 2 and world.phase == DECLARE
        declare(world, "solo")
        if world.decider in (2, 3):
            assert world.decision == SOLO
    assert seen == {-1, 1, 2, 3}


def test_determinize_respects_voids():
    state = deal("TC QC JD TS", "QS JS AS AD", "AC AH TH JC", "QH QD JH TD")
    declare(state)
    play(state, "TC", "AD")  # player_1 trumps the club lead: no clubs in that hand
    rng = random.Random(0)
    seen = set()
    for _ in range(60):
        world = state.determinize(0, rng)
        assert card_id("AC") not in world.hands[1]
        seen.add(world.loc[card_id("AC")])
    assert len(seen) == 2  # player_2 or player_3


@pytest.mark.slow
def test_many_more_random_games():
    for state in random_games(make_game(4), 30_000):
        assert state.outcome() is not None
