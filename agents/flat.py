"""Flat Monte Carlo: every legal move scored by playing it and finishing the game with the
game's rollout policy, over fresh deals of the cards the seat cannot see.

One step of policy improvement over the rollout policy (Tesauro and Galperin's rollouts; the
"PIMC" of card-game programs without a tree). Every move is tried on the same deals (common
random numbers), so the differences between moves are not noise from the deals. Against
Koira's ``dumper`` this is strong because the rollouts model those opponents exactly, and
phase two is nearly perfect information (docs/bots.md measures it). A game may ship the loop
compiled (``bots.FLAT``: its ``_search.action_values``, as every built-in game but Mätäpesä,
whose flat Monte Carlo is its rank-count core's); this module's loop is the
readable reference and runs otherwise, or when asked (``flat:8::python``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from koira_env.core.agent import Turn
from koira_env.core.game import State
from koira_env.registry import spec

from .ismcts import check_engine, game_rollout, rollout_move


@cache
def game_flat(game_id: str) -> Callable[..., list[tuple[int, float]] | None] | None:
    """The game's compiled flat Monte Carlo (``GameSpec.flat``), or ``None``."""
    return spec(game_id).load("flat")


def action_values(
    state: State, seat: int, playouts: int, rng: random.Random, policy: Any
) -> list[tuple[int, float]]:
    """``[(action, mean return of seat)]`` for the legal actions of ``state`` (``seat`` to act),
    in legal order; ``policy`` (``State -> action``, ``None``: uniform random) finishes the
    games. The reference of the compiled loops."""
    deals = [state.determinize(seat, rng) for _ in range(playouts)]
    seeds = [rng.getrandbits(32) for _ in range(playouts)]
    out = []
    for action in state.legal_actions():
        total = 0.0
        for deal, seed in zip(deals, seeds, strict=True):
            game = deal.clone()
            game.apply(action)
            moves = random.Random(seed)
            while not game.is_terminal:
                if policy is None:
                    legal = game.legal_actions()
                    game.apply(legal[moves.randrange(len(legal))])
                else:
                    game.apply(policy(game))
            total += game.returns()[seat]
        out.append((action, total / playouts))
    return out


class FlatAgent:
    """``flat:PLAYOUTS``: the legal move with the best mean return over ``playouts`` deals (the
    first in legal order on a tie). With ``phase`` it plays the game's rollout move outside
    that phase (as ``ismcts:N:P``)."""

    name = "flat"

    def __init__(self, playouts: int = 8, engine: str = "auto", phase: int | None = None) -> None:
        if playouts < 1:
            raise ValueError(f"flat needs at least one playout, got {playouts}")
        self.playouts = playouts
        self.engine = check_engine(engine)
        self.phase = phase

    def searches(self, turn: Turn) -> bool:
        """Whether this turn is scored by playouts (else the rollout policy moves)."""
        if self.phase is None:
            return True
        view_phase = getattr(turn.view, "phase", None)
        if view_phase is None:
            raise ValueError(f"flat: {turn.game.title} has no phases to search by")
        return view_phase == self.phase

    def values(self, turn: Turn) -> list[tuple[int, float]]:
        """Each legal move's mean return, in legal order."""
        seed = turn.rng.getrandbits(63)
        fast = game_flat(turn.game.id) if self.engine == "auto" else None
        if fast is not None:
            values = fast(turn, self.playouts, seed)
            if values is not None:
                return values
        state = turn.sample_state()
        policy = game_rollout(turn.game.id)
        return action_values(state, turn.view.seat, self.playouts, random.Random(seed), policy)

    def act(self, turn: Turn) -> int:
        if len(turn.view.legal) == 1:
            return turn.view.legal[0]
        if not self.searches(turn):
            return rollout_move(turn)
        values = self.values(turn)
        return max(values, key=lambda av: av[1])[0]


def flat(arg: str = "") -> FlatAgent:
    """``flat`` (8 playouts), ``flat:PLAYOUTS``, ``flat:PLAYOUTS:PHASE`` (playouts only in that
    phase of a game with phases, Koira's 1 or 2; the rollout move elsewhere) or
    ``flat:PLAYOUTS:PHASE:python`` (the reference loop even where a compiled one exists; PHASE
    may be empty: ``flat:8::python``)."""
    playouts, _, rest = arg.partition(":")
    phase, _, engine = rest.partition(":")
    try:
        count = int(playouts) if playouts else 8
    except ValueError:
        raise ValueError(f"flat needs an integer playout count, got {playouts!r}") from None
    if phase and (not phase.isdigit() or int(phase) < 1):
        raise ValueError(f"flat phase must be a phase number (Koira: 1 or 2), got {phase!r}")
    return FlatAgent(count, engine or "auto", int(phase) if phase else None)
