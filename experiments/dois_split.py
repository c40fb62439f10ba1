"""Dois's diagnostic agents: ``split:BIDDER+PLAYER`` bids as one agent and plays the cards as
another, and ``noisy:EPS+AGENT`` plays a random legal card with probability EPS, else as AGENT.

They separate bidding from card play (``split:counter+net:runs/x/latest.npz``: counter's bids,
the network's cards) and say how much card-play error a player can afford (``noisy:0.15+counter``
is level with ``counter``): docs/games/dois.md "champion-net" (what made the difference).
``python -m koira_experiments.dois_split tournament --game dois --agents ...`` is ``koira
tournament`` with them registered.
"""

from __future__ import annotations

import sys
from typing import Any

from koira_agents.registry import make_agent, register
from koira_env.core.agent import Turn

BID_PHASE = "bid"  # DoisView.phase while bidding


class SplitAgent:
    """Bids as ``bidder``, plays cards as ``player``."""

    name = "split"

    def __init__(self, bidder: Any, player: Any) -> None:
        self.bidder, self.player = bidder, player

    def act(self, turn: Turn) -> int:
        agent = self.bidder if turn.view.phase == BID_PHASE else self.player
        return agent.act(turn)


class NoisyAgent:
    """``agent``, except that a card (never a bid) is a random legal one with chance ``eps``."""

    name = "noisy"

    def __init__(self, eps: float, agent: Any) -> None:
        if not 0.0 <= eps <= 1.0:
            raise ValueError(f"noisy needs EPS in [0, 1], got {eps}")
        self.eps, self.agent = eps, agent

    def act(self, turn: Turn) -> int:
        if turn.view.phase != BID_PHASE and turn.rng.random() < self.eps:
            return turn.rng.choice(turn.view.legal)
        return self.agent.act(turn)


def _two(arg: str, form: str) -> tuple[str, str]:
    first, sep, second = arg.partition("+")
    if not sep or not first or not second:
        raise ValueError(f"expected {form}, got {arg!r}")
    return first, second


def split_agent(arg: str) -> SplitAgent:
    """``split:BIDDER+PLAYER``: any two agent specs of Dois (a spec may hold ``:`` and ``/``)."""
    bidder, player = _two(arg, "split:BIDDER+PLAYER")
    return SplitAgent(make_agent(bidder, "dois"), make_agent(player, "dois"))


def noisy_agent(arg: str) -> NoisyAgent:
    """``noisy:EPS+AGENT``."""
    eps, spec = _two(arg, "noisy:EPS+AGENT")
    try:
        chance = float(eps)
    except ValueError:
        raise ValueError(f"noisy needs a number EPS, got {eps!r}") from None
    return NoisyAgent(chance, make_agent(spec, "dois"))


register("dois", "split", split_agent)
register("dois", "noisy", noisy_agent)

if __name__ == "__main__":
    from koira_experiments.cli import main

    sys.exit(main(sys.argv[1:]))
