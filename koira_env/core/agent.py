"""The agent interface: what a bot of any game sees and returns.

An agent gets a ``Turn``: its seat's view (only what that seat may know: the game's
``state.view(seat)``), the game (rules and table size), its own random generator, and
``sample_state()``, which deals the hidden cards at random for search. It never sees the
true state. It lives here, below every game package, so that each game's bots implement it
without importing ``agents`` (which builds on the games).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .game import Game, State


@dataclass
class Turn:
    view: Any  # the game's view NamedTuple: at least ``seat`` and ``legal``
    game: Game
    rng: random.Random
    _state: State = field(repr=False)

    @property
    def rules(self) -> Any:
        return self.game.rules

    def sample_state(self) -> State:
        """A full state consistent with this seat's knowledge (hidden cards dealt at random)."""
        return self._state.determinize(self.view.seat, self.rng)


class Agent(Protocol):
    name: str

    def act(self, turn: Turn) -> int:
        """Return one of ``turn.view.legal``."""
        ...


def no_argument(make: Callable[[], Any], name: str, about: str = "") -> Callable[..., Any]:
    """The factory ``make_agent`` calls (``factory(arg)``) for a bot that takes no argument:
    any argument is a ``ValueError`` naming the bot. ``about`` ends its docstring."""

    def factory(arg: str = "") -> Any:
        if arg:
            raise ValueError(f"{name} takes no argument, got {arg!r}")
        return make()

    factory.__doc__ = f"``{name}`` (no argument)" + (f": {about}" if about else ".")
    return factory


class PolicyBot:
    """A named bot playing a fixed policy of its view (``policy(view) -> action``)."""

    def __init__(self, name: str, policy: Callable[[Any], int]) -> None:
        self.name = name
        self._policy = policy

    def act(self, turn: Turn) -> int:
        return self._policy(turn.view)


def policy_bots(**policies: Callable[[Any], int]) -> dict[str, Callable[..., Any]]:
    """``BOTS`` entries for bots that are a policy of their view, by name, each documented by
    its policy's first docstring line."""
    return {
        name: no_argument(
            lambda name=name, policy=policy: PolicyBot(name, policy),
            name,
            (policy.__doc__ or "").strip().partition("\n")[0],
        )
        for name, policy in policies.items()
    }
