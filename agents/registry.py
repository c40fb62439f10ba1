"""Every named bot and how to build it from a ``make_agent`` spec argument."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .expert import ExpertAgent
from .heuristics import HEURISTICS
from .ismcts import ismcts
from .ppo import PPOAgent  # torch is imported only when a model is loaded


def expert(arg: str = "") -> ExpertAgent:
    """``expert`` (no argument)."""
    if arg:
        raise ValueError(f"expert takes no argument, got {arg!r}")
    return ExpertAgent()


BOTS: dict[str, Callable[..., Any]] = {
    **HEURISTICS,
    "expert": expert,
    "ismcts": ismcts,
    "ppo": PPOAgent,
}
