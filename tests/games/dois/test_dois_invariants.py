"""Dois invariants over many random games: card conservation, termination, zero-sum returns,
determinism, replay, and that no seat observes what it may not know."""

from __future__ import annotations

import random

import numpy as np
import pytest
from dois_scenario import H4, bids, deal, names, play
from helpers import (
    check_redeal,
    observe,
    observed_positions,
    play_checked,
    play_in_step,
    play_on_in_the_hand,
    random_games,
    random_moves,
    replayed,
)

from koira_env.games.dois.cards import COPIES, DECK_SIZE, KIND_OF, NUM_SUITS
from koira_env.games.dois.engine import BIDDING, FIRST, PLAYING, State
from koira_env.games.dois.game import make_game

GAMES = 200  # whole games of eight hands per table size (about 90,000 positions)


def check_cards(state: State) -> None:
    """Every card in exactly one place (a hand, the undealt cards or the played ones), the
    played ones matching each player's plays, and the shown cards the last ones played."""
    for k in range(12):
        held = sum(hand[k] for hand in state.hands)
        assert held + state.remains[k] + state.played[k] == COPIES[k]
        assert state.played[k] == sum(plays.count(k) for plays in state.plays)
    for p, plays in enumerate(state.plays):
        suits = [k for k in plays if k < NUM_SUITS]
        numbers = [k - NUM_SUITS + 1 for k in plays if k >= NUM_SUITS]
        assert state.suit[p] == (suits[-1] if suits else -1)
        assert state.number[p] == (numbers[-1] if numbers else 0)
        assert sum(state.hands[p]) + len(plays) == 13
    assert len(state.trumps_seen) == (state.hand_no % 4) + 1 or state.is_terminal
    assert state.trump == state.trumps_seen[-1] and len(set(state.trumps_seen)) == len(
        state.trumps_seen
    )


@pytest.mark.parametrize("n", [3, 4])
def test_random_games_conserve_cards_end_and_are_zero_sum(n):
    game = make_game(n)
    for seed in range(GAMES):
        state, steps = play_checked(game, seed, random.Random(seed), check_cards, every=7)
        assert steps == 8 * (n + 2 * n + 11 * n)  # bids, two cards, then eleven tricks
        assert state.hand_no == 8 and not state.truncated
        assert sum(state.returns()) == pytest.approx(0) and state.legal_actions() == []
        assert len(state.deck) == DECK_SIZE * state.decks_used


def test_same_seed_same_game_and_records_replay():
    for n in (3, 4):
        game = make_game(n, bidding="sealed")
        replayed(game, range(15))


# ---------------------------------------------------------------- information


def test_observation_values_and_layout():
    for n in (3, 4):
        game = make_game(n)
        layout = game.observation_layout
        for state, seat, obs in observed_positions(game, range(10)):
            hand = np.rint(obs[layout["hand"]] * np.array(COPIES))
            assert hand.tolist() == list(state.hands[seat])


def derived(state: State, seat: int) -> tuple[list[str], list[str], list[float]]:
    """The observation's derived fields for ``seat``: the kinds that ``takes`` and ``holds``
    flag, and ``need`` followed by ``need_count`` in tricks."""
    game = state.game
    layout = game.observation_layout
    obs = game.observation(state, seat)
    takes = [k for k, f in enumerate(obs[layout["takes"]]) if f]
    holds = [k for k, f in enumerate(obs[layout["holds"]]) if f]
    need = obs[layout["need"]].tolist() + np.rint(obs[layout["need_count"]] * 12).tolist()
    return names(takes), names(holds), need


def test_derived_trick_fields_at_known_positions():
    """A fixed deck (trump Y): the tricks each seat is short of or over its bid, and which card
    would take the trick against those who have played and also against those to play."""
    state = deal(*H4, trump="Y")
    assert derived(state, 0) == ([], [], [0, 0, 0, 0, 0])  # no bid yet, nothing to play
    bids(state, 3, 0, 3, 3)
    assert derived(state, 0) == ([], [], [1, 0, 0, 3, 0])  # 3 short
    assert derived(state, 1) == ([], [], [0, 1, 0, 0, 0])  # bid 0: exact so far
    assert derived(state, 0)[:2] == ([], [])  # the first trick's suit card: no number yet
    play(state, "R")
    assert derived(state, 0)[:2] == (list("1234567"),) * 2  # alone: any number takes
    play(state, "7", "R")
    assert derived(state, 1)[:2] == (["8"],) * 2  # R8 beats R7; R1-R4 do not
    assert derived(state, 0)[:2] == ([], [])  # not to play
    play(state, "8", "G")
    assert derived(state, 2)[:2] == ([], [])  # G is neither the lead suit R nor trump Y
    play(state, "5", "R", "4")
    assert state.leader == 1 and state.suit == [0, 0, 2, 0] and state.number == [7, 8, 5, 4]
    assert derived(state, 1)[2] == [0, 0, 1, 0, 1]  # bid 0, took the trick: one over
    # player_1 leads: every card takes the empty trick; against what the others show (R7 G5
    # R4), R8, Y8 (trump) and G8 hold, R1-R3 lose to R7, R4 ties player_3's R4 (the later
    # player takes a tie)
    assert derived(state, 1)[:2] == (list("RYG12348"), list("RYG8"))
    play(state, "1")  # R1 leads; player_2 shows G5
    assert derived(state, 2)[:2] == (["Y"], ["Y"])  # Y5 shows trump; B5 and G5-G8 do not
    play(state, "B")  # B5
    # player_3 shows R4: R1 ties player_1's R1 and comes later, R2-R4 beat it; player_0's R7
    # is still to play, so none holds
    assert derived(state, 3)[:2] == (list("1234"), [])


def test_derived_trick_fields_agree_with_the_trick_winner():
    """At random positions: the flags are set only for legal cards of the seat to play,
    ``holds`` implies ``takes``, and for the last player of a later trick both say whether
    playing the card wins the trick."""
    game = make_game(4)
    layout = game.observation_layout
    checked = 0
    for state, seat, obs in observed_positions(game, range(20)):
        takes, holds = obs[layout["takes"]], obs[layout["holds"]]
        assert not (holds > takes).any()
        if seat != state.current or state.phase not in (FIRST, PLAYING):
            assert not takes.any()
            continue
        assert set(np.flatnonzero(takes)) <= set(state.legal_actions())
        if state.phase == PLAYING and state.in_trick == 3 and state.tricks_played < 11:
            for kind in state.legal_actions():
                after = state.clone()
                after.apply(kind)  # the trick's winner leads the next
                assert takes[kind] == holds[kind] == (after.leader == seat)
                checked += 1
    assert checked > 1000


def test_observation_is_seat_relative():
    state = deal(*H4)
    for b in (1, 2, 3, 4):
        state.apply(12 + b)
    game = state.game
    layout = game.observation_layout
    for seat in range(4):
        obs = game.observation(state, seat)
        for r in range(4):
            bid = obs[layout[f"bid_{r}"]].tolist().index(1.0)
            assert bid == 1 + (seat + r) % 4


def test_hidden_cards_swapped_change_nothing_a_seat_observes_until_played():
    """Swap two cards of different kinds in the deal, both hidden from one seat (in two other
    hands, or one of them undealt): that seat observes the same things (observation bytes
    and its legal actions) until a card of either kind is played. Deals that need a redeal
    are skipped (a bad hand is shown to everyone)."""
    checked = 0
    for n in (3, 4):
        game = make_game(n)
        for seed in range(150):
            rng = random.Random(seed)
            deck = game.new_state(seed=seed).deck[:DECK_SIZE]
            seat = rng.randrange(n)
            play = [i for i, c in enumerate(deck) if c < 64]
            owner = {i: (k % n if k < 13 * n else -1) for k, i in enumerate(play)}
            hidden = [i for i in play if owner[i] != seat]
            a, b = rng.sample(hidden, 2)
            moved = {KIND_OF[deck[a]], KIND_OF[deck[b]]}
            one = game.new_state(deck, seed=seed)
            swapped = deck[:]
            swapped[a], swapped[b] = swapped[b], swapped[a]
            two = game.new_state(swapped, seed=seed)
            if one.decks_used > 1 or two.decks_used > 1 or owner[a] == owner[b]:
                continue
            if len(moved) < 2:
                continue
            checked += play_in_step(one, two, [seat], random_moves(rng), moved.__contains__)
    assert checked > 1000


def test_sealed_bids_are_not_observed_before_all_have_bid():
    game = make_game(4, bidding="sealed")
    one, two = game.new_state(seed=1), game.new_state(seed=1)
    one.apply(12 + 2)
    two.apply(12 + 7)
    for seat in (1, 2, 3):
        assert observe(one, seat) == observe(two, seat)
    assert observe(one, 0) != observe(two, 0)


def test_determinize_keeps_what_the_seat_observes_and_respects_the_play():
    for n in (3, 4):
        game = make_game(n)
        for seed in range(8):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                seat = state.current
                world = check_redeal(state, seat, rng, check_cards)
                for p in range(n):
                    caps, (need_s, need_n) = state._caps(p), state._needs(p)
                    assert all(world.hands[p][k] <= caps[k] for k in range(12))
                    assert sum(world.hands[p][:4]) >= need_s
                    assert sum(world.hands[p][4:]) >= need_n
                if state.phase != BIDDING and rng.random() < 0.05:
                    play_on_in_the_hand(world, state.hand_no, rng)  # the re-deal plays on
                state.apply(rng.choice(state.legal_actions()))


def test_determinize_respects_shown_voids():
    state = deal(*H4, trump="Y")
    for action in (15, 15, 15, 15, 0, 10, 0, 11, 2, 8, 0, 7):
        state.apply(action)  # bids 3; R7, R8, G5 (player_2 has no R), R4
    assert state.void == [0, 0, 1, 0]
    rng = random.Random(0)
    holders = set()
    for _ in range(60):
        world = state.determinize(0, rng)
        assert world.hands[2][0] == 0  # no red card for player_2
        holders |= {p for p in (1, 3) if world.hands[p][0]}
        holders |= {-1} if world.remains[0] else set()
    assert holders == {1, 3, -1}


def test_determinize_puts_no_shown_card_in_a_hand_final_before_the_show():
    """player_1 showed 2 suit cards and 11 number cards, among them both copies of 5 not
    elsewhere: player_0, whose hand was final then, cannot hold those in any deal."""
    game = make_game(4)
    for seed in range(400):
        state = game.new_state(seed=seed)
        if state.shown:
            break
    else:
        raise AssertionError("no redeal in 400 deals")
    shower, shown, final = state.shown[0]
    rng = random.Random(0)
    seat = next(p for p in range(4) if p != shower)
    for _ in range(100):
        world = state.determinize(seat, rng)
        for p in final:
            if p != seat:
                assert all(world.hands[p][k] <= COPIES[k] - shown[k] for k in range(12))


@pytest.mark.slow
def test_many_more_random_games():
    for n in (3, 4):
        for state in random_games(make_game(n), 5000):
            assert state.outcome() is not None
