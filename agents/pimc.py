"""Perfect-information Monte Carlo (PIMC): ``pimc:DEALS[:FALLBACK[:ENGINE]]``.

The classic approach of card-game programs (Ginsberg's GIB for bridge; Long et al. 2010 on
why it works): deal the cards the seat cannot see ``deals`` times (consistently with everything the
seat knows, as ``turn.sample_state()`` does), solve each deal as an open-card game, and play
the move with the best mean value over the deals (the first in legal order on a tie). Every
move is scored on the same deals.

The game deals and solves (``GameSpec.pimc``: ``(turn, deals, seed, engine) -> [(action, mean
value for the seat)]`` in legal order, or ``None`` where it cannot solve, such as Kop's
declaration round): a game can then draw its deals and solve them in compiled code. Where it
cannot, the ``FALLBACK`` bot (one of the game's own, ``counter``) decides; without
one, the game's rollout move. ``ENGINE`` is ``auto`` (the game's compiled code where built)
or ``python`` (its reference).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from koira_env.core.agent import Turn
from koira_env.registry import spec

from .ismcts import ENGINES, check_engine, rollout_move


@cache
def game_pimc(game_id: str) -> Callable[..., list[tuple[int, float]] | None] | None:
    """The game's open-card move values (``GameSpec.pimc``), or ``None``."""
    return spec(game_id).load("pimc")


class PIMCAgent:
    """The legal move with the best mean open-card value over ``deals`` deals; the
    ``fallback`` agent (or the rollout move) where the game's solver does not reach."""

    name = "pimc"

    def __init__(self, deals: int = 16, fallback: str = "", engine: str = "auto") -> None:
        if deals < 1:
            raise ValueError(f"pimc needs at least 1 deal, got {deals}")
        self.deals = deals
        self.fallback_spec = fallback
        self.engine = check_engine(engine)
        self._fallback: Any = None

    def values(self, turn: Turn) -> dict[int, float] | None:
        """Each legal move's mean value over the deals, or ``None`` out of the solver's reach."""
        solve = game_pimc(turn.game.id)
        if solve is None:
            raise ValueError(f"pimc: {turn.game.title} has no open-card solver")
        values = solve(turn, self.deals, turn.rng.getrandbits(63), self.engine)
        return None if values is None else dict(values)

    def act(self, turn: Turn) -> int:
        legal = turn.view.legal
        if len(legal) == 1:
            return legal[0]
        values = self.values(turn)
        if values is None:
            return self.fallback(turn)
        return max(legal, key=lambda a: values[a])

    def fallback(self, turn: Turn) -> int:
        if not self.fallback_spec:
            return rollout_move(turn)
        if self._fallback is None:
            self._fallback = game_bot(self.fallback_spec, turn.game.id)
        return self._fallback.act(turn)


def game_bot(text: str, game_id: str) -> Any:
    """One of the game's own bots from ``name[:argument]`` (``counter``): the fallback."""
    name, _, arg = text.partition(":")
    bots = spec(game_id).load("bots")
    if name not in bots:
        raise ValueError(f"pimc's fallback must be one of {sorted(bots)}, got {text!r}")
    return bots[name](arg) if arg else bots[name]()


def pimc(arg: str = "") -> PIMCAgent:
    """``pimc`` (16 deals, the rollout move outside the solver's reach), ``pimc:DEALS``,
    ``pimc:DEALS:FALLBACK`` (an agent of the game: ``pimc:16:counter``) or
    ``pimc:DEALS:FALLBACK:python`` (the reference solver; FALLBACK may be empty)."""
    deals, _, rest = arg.partition(":")
    head, _, last = rest.rpartition(":")
    fallback, engine = (head, last) if last in ENGINES and rest != last else (rest, "")
    try:
        count = int(deals) if deals else 16
    except ValueError:
        raise ValueError(f"pimc needs an integer deal count, got {deals!r}") from None
    return PIMCAgent(count, fallback, engine or "auto")
