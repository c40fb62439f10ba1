"""Named agents of every game: the generic ones (``random``, ``ismcts``, ``flat``, ``ppo``,
``net``) and each game's own bots (``GameSpec.bots``), built from ``"name"`` or
``"name:argument"``."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from koira_env.registry import spec

from .flat import flat
from .ismcts import best_response, ismcts
from .net import NetAgent
from .pimc import pimc
from .ppo import PPOAgent  # torch is imported only when a model is loaded
from .random_agent import random_agent
from .solver import solver

GENERIC: dict[str, Callable[..., Any]] = {
    "random": random_agent,
    "ismcts": ismcts,
    "flat": flat,
    "ppo": PPOAgent,
    "net": NetAgent,
    "solver": solver,
    "pimc": pimc,
    "br": best_response,
}
SEARCH_BOTS = frozenset(
    {"ismcts", "flat", "solver", "pimc", "br"}
)  # too slow for a default tournament; name them to include
_STUDY_AGENTS: dict[str, dict[str, Callable[..., Any]]] = {}  # game -> name -> factory


def register(game: str, name: str, factory: Callable[..., Any]) -> None:
    """Add a study's own agent family (``koira_experiments.risk``'s ``risk:...``) for ``game``, in
    this process and the worker processes it forks."""
    spec(game)  # an unknown game is an error here, not at first use
    _STUDY_AGENTS.setdefault(game, {})[name] = factory


def agent_factories(game: str = "koira") -> dict[str, Callable[..., Any]]:
    """Every named agent of ``game``: the generic agents, the game's bots, study agents."""
    return {**GENERIC, **spec(game).load("bots"), **_STUDY_AGENTS.get(game, {})}


def needs_argument(factory: Callable[..., Any]) -> bool:
    """Whether a factory has a required parameter (``ppo:model``, ``risk:...``)."""
    return any(
        p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in inspect.signature(factory).parameters.values()
    )


def default_agents(game: str = "koira") -> list[str]:
    """Every agent of ``game`` that needs no argument except the search bots (their cost
    depends on their argument), and every alias: an alias names a shipped agent chosen to fit
    a time budget (Koira's ``champion`` takes less time per decision than ``ismcts:50``)."""
    named = [
        name
        for name, factory in agent_factories(game).items()
        if name not in SEARCH_BOTS and not needs_argument(factory)
    ]
    return sorted([*named, *spec(game).choices.aliases])


def default_opponent(game: str = "koira") -> str:
    """The game's chosen opponent (``AgentChoices.opponent``, Koira's ``champion``), else its first
    bot other than ``random``: who ``koira play`` and the web lobby seat when none is named."""
    chosen = spec(game).choices.opponent
    return chosen or next(b for b in default_agents(game) if b != "random")


def resolve(text: str, game: str = "koira") -> str:
    """The agent spec an alias of ``game`` stands for (``"champion"`` -> ``"ismcts:..."``);
    any other spec unchanged."""
    return spec(game).choices.aliases.get(text, text)


def make_agent(text: str, game: str = "koira") -> Any:
    """An agent of ``game`` from its name (``"random"``, ...), ``"kind:argument"`` spec or
    alias (``AgentChoices.aliases``: ``"champion"``)."""
    kind, _, arg = resolve(text, game).partition(":")
    factories = agent_factories(game)
    if kind not in factories:
        known = sorted([*factories, *spec(game).choices.aliases])
        raise ValueError(f"unknown agent {text!r} for {game}; known agents: {known}")
    factory = factories[kind]
    if arg:
        return factory(arg)
    if needs_argument(factory):
        hint = " (a shipped model or a file: ppo:koira4-ppo, ppo:path/to/model.zip)"
        hint = hint if kind == "ppo" else ""
        raise ValueError(f"{kind} needs an argument{hint}: write it as {kind}:argument")
    return factory()
