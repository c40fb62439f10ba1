"""Dois's model playouts and the PIMC agent on them (``champion``).

The compiled ``counter`` against the bot on random positions; the compiled playouts against
the reference that runs the engine and ``bots.CounterBot`` on the same deals; the compiled
deals against the constraints ``State.determinize`` keeps; the agent through whole games,
legal and reproducible; bad arguments refused."""

from __future__ import annotations

import random

import pytest
from helpers import check_champion_repeats

from koira_agents.base import play_game
from koira_agents.pimc import pimc
from koira_agents.registry import make_agent, resolve
from koira_env.core.agent import Turn
from koira_env.games.dois import _model as compiled
from koira_env.games.dois import search
from koira_env.games.dois.bots import CounterBot
from koira_env.games.dois.cards import COPIES, HAND_SIZE, NUM_KINDS, NUM_SUITS
from koira_env.games.dois.engine import NUMBERS_VOID, State
from koira_env.registry import make_game


def _turn(state: State, seed: int = 1) -> Turn:
    return Turn(state.view(state.current), state.game, random.Random(seed), state)


def _states(count: int, seed: int, players=(3, 4), steps=120) -> list[State]:
    """States in progress, reached by ``counter`` mixed with random moves (so that voids,
    misses and every phase occur)."""
    found = []
    rng = random.Random(seed)
    bot = CounterBot()
    for n in players:
        game = make_game("dois", n)
        for i in range(count):
            state = game.new_state(seed=seed * 1000 + i)
            for _ in range(rng.randrange(steps)):
                legal = state.legal_actions()
                move = bot.act(_turn(state)) if rng.random() < 0.7 else rng.choice(legal)
                state.apply(move)
            found.append(state)
    return found


def test_compiled_counter_is_the_bot():
    """Every player's model: ``_model``'s ``counter`` bids and plays as ``CounterBot``, also
    with another margin, in every phase."""
    checked = 0
    for margin in (0.1, 0.0):
        bot = CounterBot(margin)
        for state in _states(25, 1, steps=300):
            for _ in range(40):  # the states that follow, each compared
                if state.is_terminal:
                    break
                view = state.view(state.current)
                expected = bot.act(_turn(state))
                pos = search.view_position(view)
                assert compiled.counter_action(pos, [list(h) for h in state.hands], margin) == (
                    expected
                )
                checked += 1
                state.apply(expected)
    assert checked > 2500


def test_compiled_playouts_agree_with_the_reference_on_the_same_deals():
    """``model_totals`` on Python's deals gives ``model_move_values``' values exactly, with
    and without the bonus for a win."""
    checked = 0
    rng = random.Random(2)
    for state in _states(10, 2):
        if state.is_terminal:
            continue
        seat = state.current
        deals = [state.determinize(seat, rng) for _ in range(2)]
        bonus = 100 * (checked % 2)  # the game's last hand: a win outweighs any hand's score
        expected = dict.fromkeys(state.legal_actions(), 0.0)
        for dealt in deals:
            for action, value in search.model_move_values(dealt, seat, 0.1, bonus).items():
                expected[action] += value
        fixed = [[list(h) for h in dealt.hands] for dealt in deals]
        pos = search.view_position(state.view(seat))
        got = compiled.model_totals(pos, state.legal_actions(), 2, 1, 0.1, fixed, bonus)
        assert dict(got) == expected
        checked += 1
    assert checked > 15


def test_compiled_deals_keep_what_the_seat_knows():
    """A compiled deal keeps the seat's hand and every hand's size, deals exactly the unseen
    cards, and gives no player a kind its voids exclude or fewer suit or number cards than
    its hand must still hold."""
    checked = 0
    for state in _states(15, 3, steps=200):
        if state.is_terminal or state.shown:
            continue
        seat = state.current
        view = state.view(seat)
        pos = search.view_position(view)
        for seed in range(3):
            hands = compiled.deal_hands(pos, seed)
            assert hands is not None
            assert hands[seat] == list(view.counts)
            dealt = [0] * NUM_KINDS
            for q, hand in enumerate(hands):
                assert sum(hand) == HAND_SIZE - len(view.plays[q])
                void = view.voids[q]
                for k in range(NUM_KINDS):
                    dealt[k] += hand[k]
                    barred = void >> k & 1 if k < NUM_SUITS else void & NUMBERS_VOID
                    assert not (barred and hand[k] and q != seat)
                suits = sum(hand[:NUM_SUITS])
                need_s, need_n = pos["needs"][q]
                assert suits >= need_s and sum(hand) - suits >= need_n
            assert all(dealt[k] + view.played[k] <= COPIES[k] for k in range(NUM_KINDS))
            checked += 1
        assert compiled.deal_hands(pos, 5) == compiled.deal_hands(pos, 5)
    assert checked > 40


def test_a_redeal_show_takes_pythons_deals():
    """After a shown redeal the deals come from ``State.determinize`` (the only one that
    knows the show's constraint), so both engines score the same deals the same."""
    game = make_game("dois", 4)
    state = next(s for s in (game.new_state(seed=i) for i in range(400)) if s.shown)
    assert search.move_values(_turn(state, 7), 3, 1) == search.move_values(
        _turn(state, 7), 3, 1, "python"
    )


@pytest.mark.parametrize("players", [3, 4])
def test_champion_plays_legal_reproducible_games(players):
    check_champion_repeats(make_game("dois", players, hands=2))


def test_reference_engine_plays_a_hand():
    """``pimc:N::python``: the reference (engine, ``CounterBot``) through one hand."""
    agents = [pimc("2::python"), make_agent("counter", "dois")] * 2
    result = play_game(agents, make_game("dois", 4, hands=1), None, seed=4, deal_seed=4)
    assert not result.truncated


def test_bad_arguments_are_refused():
    assert resolve("champion", "dois").startswith("pimc:")
    state = _states(1, 9, players=(4,), steps=30)[0]
    turn = _turn(state)
    with pytest.raises(ValueError, match="engine"):
        search.move_values(turn, 2, 1, "fast")
    with pytest.raises(ValueError, match="at least one deal"):
        search.move_values(turn, 0, 1)
    pos = search.view_position(turn.view)
    illegal = next(a for a in range(25) if a not in turn.view.legal)
    with pytest.raises(ValueError, match="not legal"):
        compiled.model_totals(pos, [illegal], 2, 1)
    with pytest.raises(ValueError, match="actions"):
        compiled.model_totals(pos, [], 2, 1)
    with pytest.raises(ValueError, match="fixed deals"):
        compiled.model_totals(pos, list(turn.view.legal), 2, 1, 0.1, [])
