"""The agent interface: what a bot of any game sees and returns.

An agent gets a ``Turn``: its seat's view (only what that seat may know: the game's
``state.view(seat)``), the game (rules and table size), its own random generator, and
``sample_state()``, which deals the hidden cards at random for search. It never sees the
true state. It lives here, below every game package, so that each game's bots implement it
without importing ``agents`` (which builds on the games).
"""

from __future__ import annotations

import random
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
