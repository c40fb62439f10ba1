"""Who plays a tournament: agent entries (``"spec"`` or ``"label=spec"``) and a game's default
entrants, among them each shipped policy that fits the game's table."""

from __future__ import annotations

import importlib.util

from koira_env.core.game import Game

from .net import NetPolicy, net_path
from .ppo import check_compatible, model_path, read_metadata, shipped_models
from .registry import default_agents, resolve


def default_entrants(game: Game) -> list[str]:
    """``default_agents(game)``, plus each shipped policy that can play ``game`` (as ``ppo``,
    or ``ppo-<name>`` when several can), when the train extra is installed. Policies are named
    (``ppo:koira4-ppo``), not located, so a results folder means the same in any install.
    An alias of a shipped policy (Koira's ``champion-net``) plays only where that policy fits,
    and under the alias's name only."""
    agents = [name for name in default_agents(game.id) if _fits(name, game)]
    named = {resolve(name, game.id) for name in agents}
    fitting = [
        p for p in shipped_models() if f"ppo:{p.stem}" not in named and _fits(f"ppo:{p.stem}", game)
    ]
    if len(fitting) == 1:
        return [*agents, f"ppo=ppo:{fitting[0].stem}"]
    return [*agents, *(f"ppo-{path.stem}=ppo:{path.stem}" for path in fitting)]


def _has_torch() -> bool:
    return all(importlib.util.find_spec(m) for m in ("torch", "sb3_contrib"))


def _fits(name: str, game: Game) -> bool:
    """Whether a shipped policy named by ``name`` (``ppo:``, ``net:``, or an alias of one) can
    play ``game``'s table and rules; any other agent can."""
    kind, _, arg = resolve(name, game.id).partition(":")
    try:
        if kind == "net":
            NetPolicy.load(net_path(arg), game)
        elif kind == "ppo":
            path = model_path(arg)
            if not _has_torch():
                return False
            check_compatible(read_metadata(path), game, path)
    except ValueError:
        return False
    return True


def parse_entrant(entry: str) -> tuple[str, str]:
    """``"label=spec"`` or ``"spec"`` -> (label, spec); labels tell apart copies of one spec."""
    label, sep, spec = entry.partition("=")
    if not sep:
        label = spec = entry
    label, spec = label.strip(), spec.strip()
    if not label or not spec:
        raise ValueError(f"bad agent entry {entry!r}: expected 'spec' or 'label=spec'")
    return label, spec
