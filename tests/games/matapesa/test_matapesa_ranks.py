"""Mätäpesä's compiled flat Monte Carlo (``search.py``, ``_ranks.pyx``) against the engine.

The compiled rank-count core must play exactly the engine's games: the same legal ranks in
every position, the same loser when every seat plays ``shed`` or ``keeper`` (the bots), and
the same move values on the same deals (``search.reference_values`` replays them on the
engine). The deals it draws keep what the seat knows, the floors it reads off the view are
sound, a seed fixes everything, and bad arguments are refused with a clear error. The
``champion`` alias plays legal moves, reproducibly, and beats ``shed``.
"""

from __future__ import annotations

import random

import pytest

from koira_agents.base import play_game
from koira_agents.registry import make_agent, resolve
from koira_env.core.agent import Turn
from koira_env.games.matapesa import _ranks, search
from koira_env.games.matapesa.bots import keeper_policy, shed_policy
from koira_env.games.matapesa.engine import State
from koira_env.games.matapesa.game import MatapesaGame
from koira_env.registry import make_game

OPTION_SETS = [{}, {"follow": "previous"}, {"lowest_anytime": False}, {"tie_winner": "first"}]
CASES = [(n, options) for n in range(3, 9) for options in OPTION_SETS]
BOTS = {"shed": shed_policy, "keeper": keeper_policy}


def _case_id(case: tuple[int, dict[str, object]]) -> str:
    n, options = case
    return "-".join([f"{n}p", *(f"{k}={v}" for k, v in options.items())])


def positions(game: MatapesaGame, seed: int, count: int) -> list[State]:
    """``count`` states in play, each after a random number of random legal moves."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        state = game.new_state(seed=seed * 1000 + i)
        for _ in range(rng.randrange(game.num_players * game.num_tricks)):
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def counts(state: State) -> list[bytes]:
    return [bytes(c) for c in state.counts]


def keys(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The rules and the trick of ``state`` as ``_ranks`` reads them."""
    return search.rules_key(state.game), search.table_key(state.view(state.current))


def finish(state: State, names: list[str]) -> int:
    """The engine's loser when seat q plays the bot ``names[q]`` from ``state`` on."""
    game = state.clone()
    while not game.is_terminal:
        game.apply(BOTS[names[game.current]](game.view(game.current)))
    return game.loser


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_legal_ranks_and_playouts_are_the_engines(case):
    n, options = case
    game = make_game("matapesa", n, **options)
    rng = random.Random(n)
    for state in positions(game, n, 40):
        rules, table = keys(state)
        assert _ranks.legal(rules, table, counts(state)) == state.legal_actions()
        names = [rng.choice(list(BOTS)) for _ in range(n)]
        assert _ranks.playout(rules, table, counts(state), names) == finish(state, names)
        loser = _ranks.playout(rules, table, counts(state), ["random"] * n, 5)
        assert 0 <= loser < n


@pytest.mark.parametrize("case", CASES[::3], ids=_case_id)
def test_move_values_on_given_deals_are_the_engines(case):
    n, options = case
    game = make_game("matapesa", n, **options)
    rng = random.Random(100 + n)
    for state in positions(game, 100 + n, 6):
        rules, table = keys(state)
        deals = [state.determinize(state.current, rng) for _ in range(4)]
        names = [[rng.choice(list(BOTS)) for _ in range(n)] for _ in deals]
        compiled = _ranks.deal_values(rules, table, [counts(d) for d in deals], names)
        reference = search.reference_values(deals, names)
        assert [a for a, _ in compiled] == [a for a, _ in reference] == state.legal_actions()
        assert [v for _, v in compiled] == pytest.approx([v for _, v in reference], abs=1e-12)


def test_floors_are_sound_and_informative():
    """No seat ever holds a rank below the floor the view gives it, and the floors do say
    something (random play gives up low cards below the trick often)."""
    informative = 0
    for n, options in CASES[::2]:
        game = make_game("matapesa", n, **options)
        for state in positions(game, 7 + n, 30):
            low = search.floors(state.view(state.current), game)
            for seat, floor in enumerate(low):
                hand = state.counts[seat]
                assert not any(hand[:floor]), (seat, floor, list(hand))
            informative += any(low)
    assert informative > 20


def test_deals_keep_what_the_seat_knows():
    game = make_game("matapesa", 5)
    for state in positions(game, 3, 40):
        view = state.view(state.current)
        rules, table = keys(state)
        low = search.floors(view, game)
        hands = _ranks.deal(rules, table, view.hand_ranks, view.unseen_ranks, low, 11)
        assert hands[view.seat] == list(view.hand_ranks)
        assert [sum(h) for h in hands] == list(view.hand_sizes)
        in_hands = [sum(h[r] for h in hands) for r in range(13)]
        assert in_hands == list(state.in_hands)
        for seat, floor in enumerate(low):
            assert not any(hands[seat][:floor])
    # all of one seat's hidden ranks differ between seeds: the deal is random
    state = game.new_state(seed=1)
    view = state.view(0)
    rules, table = keys(state)
    drawn = {
        tuple(_ranks.deal(rules, table, view.hand_ranks, view.unseen_ranks, [0] * 5, s)[1])
        for s in range(20)
    }
    assert len(drawn) == 20


def test_a_seed_fixes_the_values():
    game = make_game("matapesa", 4)
    state = positions(game, 9, 1)[0]
    turn = Turn(state.view(state.current), game, random.Random(0), state)
    first = search.flat_values(turn, 50, 123)
    assert first == search.flat_values(turn, 50, 123)
    assert [a for a, _ in first] == state.legal_actions()
    assert all(-1 <= v <= 1 / 3 for _, v in first)
    others = [search.flat_values(turn, 50, seed) for seed in range(5)]
    assert any(values != first for values in others)


def test_bad_arguments_are_refused():
    game = make_game("matapesa", 4)
    state = game.new_state(seed=2)
    rules, table = keys(state)
    view = state.view(0)
    hand, hidden = view.hand_ranks, view.unseen_ranks
    with pytest.raises(ValueError, match="at least one playout"):
        _ranks.action_values(rules, table, hand, hidden, [0] * 4, 0)
    with pytest.raises(ValueError, match="playout policy must be one of"):
        _ranks.action_values(rules, table, hand, hidden, [0] * 4, 10, "greedy")
    with pytest.raises(ValueError, match="playout policy must be one of"):
        _ranks.playout(rules, table, counts(state), ["mixed"] * 4)
    with pytest.raises(ValueError, match="played by 3 to 8"):
        _ranks.legal((9, 1, 1, 1), table, counts(state))
    with pytest.raises(ValueError, match="not a Mätäpesä trick"):
        _ranks.legal(rules, (1, *table[1:]), counts(state))  # not the leader's turn
    with pytest.raises(ValueError, match="holds 13 cards here"):
        _ranks.legal(rules, table, [bytes(13)] * 4)
    with pytest.raises(ValueError, match="rank count is 0 to 4"):
        _ranks.legal(rules, table, [bytes([5] + [1] * 12)] * 4)
    with pytest.raises(ValueError, match="the other hands hold 39 cards"):
        _ranks.action_values(rules, table, hand, bytes(13), [0] * 4, 10)
    with pytest.raises(ValueError, match="one policy list each"):
        _ranks.deal_values(rules, table, [counts(state)], [])
    with pytest.raises(ValueError, match="one playout policy a seat"):
        _ranks.playout(rules, table, counts(state), ["shed"])


def test_champion_plays_legal_moves_reproducibly_and_beats_shed():
    """The alias is the compiled flat search; every move it makes is legal (the engine raises
    on any other), a seed replays the game, and with shed at the other three seats it loses
    far less than shed's own quarter."""
    assert resolve("champion", "matapesa") == "flat:200"
    game = make_game("matapesa", 4)
    losses = games = 0
    for deal in range(20):
        for seat in range(4):
            agents = [make_agent("champion" if s == seat else "shed", "matapesa") for s in range(4)]
            result = play_game(agents, game, None, seed=deal, deal_seed=700 + deal)
            losses += result.returns[seat] < 0
            games += 1
    again = [make_agent("champion" if s == 3 else "shed", "matapesa") for s in range(4)]
    assert play_game(again, game, None, seed=19, deal_seed=719).actions == result.actions
    assert losses / games < 0.15
