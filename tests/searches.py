"""Checks every compiled search (a game's ``_search.pyx`` on ``core/_search.pxi``) must pass,
written once; each game's ``test_<game>_search.py`` calls them with its own states and
modules, and keeps what only the game has (its rollout policy, its returns, its refusals).

The compiled loops draw other random numbers than the references (``agents/ismcts.py``,
``agents/flat.py``), so what must agree is every part that is not random and the search's
invariants.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from koira_agents.flat import FlatAgent, action_values
from koira_agents.ismcts import ISMCTSAgent
from koira_agents.schedule import TournamentConfig
from koira_agents.tournament import run_tournament
from koira_env.core._shuffle import SearchSeed
from koira_env.core.agent import Turn


def turn_of(state: Any, seed: int) -> Turn:
    """The turn of ``state``'s mover, drawing from ``random.Random(seed)``."""
    return Turn(state.view(state.current), state.game, random.Random(seed), state)


def check_deals(
    cases: Iterable[tuple[Any, int]],
    search: Any,
    snapshot: Callable[[Any], Any],
    rng: random.Random,
    fresh: tuple[str, ...] = ("seed",),
) -> int:
    """For the same shuffle of the hidden cards, the search's deal (``search.determinized``)
    is the state ``determinize`` makes (its ``getrandbits`` and ``shuffle`` replayed on a
    copy of the generator), for each ``(state, seat)``; ``fresh`` are the attributes a
    deal makes anew (the reference's from its generator). Returns how many were checked."""
    checked = 0
    for state, seat in cases:
        replay = random.Random()
        replay.setstate(rng.getstate())
        replay.getrandbits(63)  # the reference's fresh seed comes first
        shuffled = search.hidden_cards(state, seat)
        replay.shuffle(shuffled)
        expected = state.determinize(seat, rng)
        got = search.determinized(state, seat, shuffled)
        for name in fresh:
            setattr(got, name, getattr(expected, name))
        assert snapshot(got) == snapshot(expected)
        checked += 1
    return checked


def check_rollout(
    states: Iterable[Any], action: Callable[[Any], int], reference: Callable[[Any], int]
) -> int:
    """The compiled rollout's move (``action``) is the reference policy's at every state that
    is not over, and a finished state is refused. Returns how many states were checked."""
    checked = 0
    for state in states:
        if state.is_terminal:
            with pytest.raises(ValueError, match="game is over"):
                action(state)
            continue
        assert action(state) == reference(state), state.history
        checked += 1
    return checked


def check_returns(states: Iterable[Any], search: Any) -> int:
    """The search credits each state with the engine's returns (float32 as the vector env's);
    returns how many finished games (not truncated) were among them."""
    ended = 0
    for state in states:
        assert search.search_returns(state) == pytest.approx(state.returns(), abs=1e-7)
        ended += state.is_terminal and not state.truncated
    return ended


def check_redeals(
    cases: Iterable[tuple[Any, int]],
    search: Any,
    snapshot: Callable[[Any], Any],
    moves: int = 80,
) -> int:
    """A search whose deal is the core's own (core/_search_redeal.pxi) deals, for a seed, the
    state ``determinize`` makes from ``random.Random`` of that seed, for each ``(state,
    seat)``, but its deck and its seed's kind: it keeps the decks dealt so far (a prefix of
    the state's) where ``determinize``'s copy keeps none, and its seed is the same number as
    a ``SearchSeed``. Both play on alike until the next deal (at most ``moves`` random
    moves), and a deal after rollouts keeps no deck they dealt. Returns how many were
    checked."""

    def bare(state: Any) -> Any:
        copy = state.clone()
        copy.deck, copy.seed = [], 0
        return snapshot(copy)

    checked = 0
    for k, (state, seat) in enumerate(cases):
        expected = state.determinize(seat, random.Random(k))
        got = search.dealt(state, seat, k)
        assert got.deck == state.deck[: len(got.deck)]
        assert isinstance(got.seed, SearchSeed) and got.seed.value == expected.seed
        later = search.dealt(state, seat, k, after=3)  # after rollouts that dealt hands to come
        assert later.deck == state.deck[: len(later.deck)]
        rng = random.Random(k)
        for _ in range(moves):
            assert bare(got) == bare(expected)
            if expected.is_terminal:
                break
            action = rng.choice(expected.legal_actions())
            got.apply(action)
            expected.apply(action)
            if expected.deck:  # the next deal, from either seed's own decks
                break
        checked += 1
    return checked


def check_invariants(states: Iterable[Any], search: Any, snapshot: Callable[[Any], Any]) -> None:
    """Legal moves only, one root visit per iteration, the same result for a seed, flat values
    in legal order within [-1, 1], one iteration when the time is up, and the state left as
    it was; a seat not to act is refused."""
    for state in states:
        legal = state.legal_actions()
        seat = state.current
        before = snapshot(state)
        for rollout in (False, True):
            visits = search.search(state, seat, 200, 0.7, rollout, 11)
            assert set(visits) <= set(legal) and sum(visits.values()) == 200
            assert visits == search.search(state, seat, 200, 0.7, rollout, 11)
            values = search.action_values(state, seat, 20, 5, rollout)
            assert [a for a, _ in values] == legal
            assert all(-1.0 <= v <= 1.0 for _, v in values)
            assert values == search.action_values(state, seat, 20, 5, rollout)
        assert sum(search.search(state, seat, 300, 0.7, False, 1, max_seconds=0.0).values()) == 1
        assert snapshot(state) == before
        other = (seat + 1) % state.n
        with pytest.raises(ValueError, match=f"player_{other} is not to act"):
            search.search(state, other, 10, 0.7, False, 1)
        with pytest.raises(ValueError, match=f"player_{other} is not to act"):
            search.action_values(state, other, 10, 1)


def check_plugins(state: Any, others: Iterable[Any], bots: Any, search: Any) -> None:
    """``bots.FLAT`` (where the game's flat Monte Carlo is this search's) and ``bots.SEARCH``
    run the compiled loops on a compiled ``state`` and return None for ``others`` (the
    reference engine's states, or ones the search refuses), where the agents run their
    reference loops."""
    seat = state.current
    flat = getattr(bots, "FLAT", None)
    if flat is not None:
        assert flat(turn_of(state, 1), 10, 7) == search.action_values(state, seat, 10, 7)
    assert bots.SEARCH(turn_of(state, 1), 50, 0.7, False, 7, None) == search.search(
        state, seat, 50, 0.7, False, 7
    )
    assert sum(ISMCTSAgent(20).search(turn_of(state, 1)).values()) == 20
    for other in others:
        if flat is not None:
            assert flat(turn_of(other, 1), 10, 7) is None
            values = FlatAgent(4).values(turn_of(other, 1))  # the reference loop runs
            assert [a for a, _ in values] == other.legal_actions()
        assert bots.SEARCH(turn_of(other, 1), 10, 0.7, False, 7, None) is None
        assert sum(ISMCTSAgent(20).search(turn_of(other, 1)).values()) == 20


def flat_gaps(
    states: Iterable[Any],
    search: Any,
    rollout: Callable[[Any], int],
    playouts: int,
    centre: Callable[[list[tuple[int, float]]], dict[int, float]] = dict,
) -> Iterator[tuple[list[float], list[float]]]:
    """Per state, how far the compiled loop's flat value of each legal move (``search``'s
    ``action_values``) lies from the reference loop's (``koira_agents.flat.action_values``
    with ``rollout``), ``playouts`` each: with the game's rollout policy, then with random
    rollouts (the compiled loop's). ``centre`` maps a loop's values to ``{move: value}``."""
    for state in states:
        seat = state.current
        reference = centre(action_values(state, seat, playouts, random.Random(1), rollout))
        fast = centre(search.action_values(state, seat, playouts, 2))
        random_rollout = centre(search.action_values(state, seat, playouts, 2, True))
        assert fast.keys() == reference.keys()
        yield (
            [abs(fast[a] - reference[a]) for a in fast],
            [abs(random_rollout[a] - reference[a]) for a in fast],
        )


def check_tournament_parity(game: str, third: str, measure: str, folder: Any) -> dict[str, Any]:
    """A 100-deal duplicate tournament (seed 7) of the compiled ``ismcts:50``, the reference
    loop's and ``third``: the two loops' 95% intervals of ``measure`` (``"win"`` or
    ``"loss"``) overlap. Returns the rows by agent, for what a game checks beside."""
    config = TournamentConfig(
        agents=("compiled=ismcts:50", "reference=ismcts:50::python", third),
        game=game,
        deals=100,
        seed=7,
    )
    rows = {a["agent"]: a for a in run_tournament(config, folder, workers=2)["agents"]}
    (low, high), (low2, high2) = (
        rows["compiled"][f"{measure}_ci"],
        rows["reference"][f"{measure}_ci"],
    )
    assert low <= high2 and low2 <= high, rows
    return rows
