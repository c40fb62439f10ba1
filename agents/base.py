"""The agent interface and the pure match runner, for every game of the registry.

An agent gets a ``Turn`` (``koira_env.core.agent``): its seat's view (only what that seat may
know), the game, its own random generator, and ``sample_state()`` which deals the hidden
cards at random for search. It never sees the true state. This module imports no agent
implementation: ``koira_agents.registry`` builds agents from their names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from koira_env.core.agent import Agent, Turn
from koira_env.core.game import Game, State

__all__ = ["Agent", "GameResult", "Turn", "play_game", "play_out"]


@dataclass(frozen=True)
class GameResult:
    places: tuple[int, ...]  # per seat: 1 = best, ties and partners share (empty if truncated)
    returns: tuple[float, ...]
    num_actions: int
    truncated: bool
    actions: tuple[int, ...]  # every action of the game, forced ones too: replays it
    deck: tuple[int, ...]  # every deck dealt, flat: with ``actions``, the whole game


def play_game(
    agents: Sequence[Agent],
    game: Game,
    deck: Sequence[Any] | None,
    seed: int,
    deal_seed: Any = None,
) -> GameResult:
    """Play one game; a pure function of (agents, game, deck, seed, deal_seed) so any executor
    can run it. ``deck`` fixes the first decks, ``deal_seed`` shuffles any later ones."""
    if len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents for a {game.num_players}-player table")
    state = play_out(game.new_state(deck, seed=deal_seed), agents, seed)
    outcome = state.outcome()
    return GameResult(
        outcome.places if outcome is not None else (),
        tuple(state.returns()),
        state.actions_taken,
        state.truncated,
        tuple(state.history),
        tuple(state.deck),
    )


def play_out(
    state: State,
    agents: Sequence[Agent],
    seed: int,
    after: Callable[[State], None] | None = None,
) -> State:
    """Play ``state`` to the end, seat s drawing from ``Random(seed * 1_000_003 + s)``;
    ``after`` sees the state after every action. A seat with a single legal move is not asked:
    a third of Koira's moves are forced, and building their views was the runner's largest
    cost."""
    game = state.game
    rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(state.n)]
    while not state.is_terminal:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        else:
            seat = state.current
            state.apply(agents[seat].act(Turn(state.view(seat), game, rngs[seat], state)))
        if after is not None:
            after(state)
    return state
