"""The agent interface, the registry of named agents, and the pure match runner.

An agent gets a ``Turn``: its seat's ``SeatView`` (only what that seat may know), the rules,
its own random generator, and ``sample_state()`` which deals the hidden cards at random for
search. It never sees the true state.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from koira_env.engine import State, new_game
from koira_env.info import SeatView, determinize, seat_view
from koira_env.rules import Rules

from .registry import BOTS


@dataclass
class Turn:
    view: SeatView
    rules: Rules
    rng: random.Random
    _state: State = field(repr=False)

    def sample_state(self) -> State:
        """A full state consistent with this seat's knowledge (hidden cards dealt at random)."""
        return determinize(self._state, self.view.seat, self.rng)


class Agent(Protocol):
    name: str

    def act(self, turn: Turn) -> int:
        """Return one of ``turn.view.legal``."""
        ...


class RandomAgent:
    """Uniformly random legal moves: the floor every other bot must beat."""

    name = "random"

    def act(self, turn: Turn) -> int:
        return turn.rng.choice(turn.view.legal)


REGISTRY: dict[str, Callable[..., Agent]] = {"random": RandomAgent, **BOTS}


def needs_argument(factory: Callable[..., Agent]) -> bool:
    """Whether a registered factory has a required parameter (``ppo:path``, ``risk:...``)."""
    return any(
        p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in inspect.signature(factory).parameters.values()
    )


def make_agent(spec: str) -> Agent:
    """An agent from its name (``"random"``, ...) or ``"kind:argument"`` spec."""
    kind, _, arg = spec.partition(":")
    if kind not in REGISTRY:
        raise ValueError(f"unknown agent {spec!r}; known agents: {sorted(REGISTRY)}")
    factory = REGISTRY[kind]
    if arg:
        return factory(arg)  # type: ignore[call-arg]
    if needs_argument(factory):
        hint = " (a model path: ppo:path/to/model.zip)" if kind == "ppo" else ""
        raise ValueError(f"{kind} needs an argument{hint}: write it as {kind}:argument")
    return factory()


@dataclass(frozen=True)
class GameResult:
    placements: tuple[int, ...]  # seats in the order they went out, loser last
    returns: tuple[float, ...]
    num_actions: int
    truncated: bool
    actions: tuple[int, ...]  # every action of the game, forced ones too: replays it for a record


def play_game(agents: Sequence[Agent], rules: Rules, deck: Sequence[int], seed: int) -> GameResult:
    """Play one game; a pure function of (agents, rules, deck, seed) so any executor can run it.

    A seat with a single legal move is not asked: a third of all moves are forced, and
    building their views was the runner's largest cost.
    """
    if len(agents) != rules.num_players:
        raise ValueError(f"{len(agents)} agents for a {rules.num_players}-player table")
    state = play_out(new_game(rules=rules, deck=list(deck)), agents, seed)
    return GameResult(
        tuple(state.placements),
        tuple(state.returns()),
        state.actions_taken,
        state.truncated,
        tuple(state.history),
    )


def play_out(
    state: State,
    agents: Sequence[Agent],
    seed: int,
    after: Callable[[State], None] | None = None,
) -> State:
    """Play ``state`` to the end, seat s drawing from ``Random(seed * 1_000_003 + s)``;
    ``after`` sees the state after every action. Forced moves are played without asking."""
    rules = state.rules
    rngs = [random.Random(seed * 1_000_003 + seat) for seat in range(state.n)]
    while not state.is_terminal:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        else:
            seat = state.current
            state.apply(agents[seat].act(Turn(seat_view(state, seat), rules, rngs[seat], state)))
        if after is not None:
            after(state)
    return state
