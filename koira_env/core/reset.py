"""What the AEC env and the vector env share about ``reset``: its options and its seeds."""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any


def reset_option(options: dict[str, Any] | None, known: Sequence[str], name: str) -> Any:
    """``options[name]`` (or ``None``); unknown keys are ignored with a warning, as PettingZoo
    envs do, rather than failing a training loop that passes extra options."""
    if not options:
        return None
    unknown = sorted(set(options) - set(known))
    if unknown:
        warnings.warn(
            f"ignoring unknown reset option(s) {unknown}; known: {list(known)}", stacklevel=3
        )
    return options.get(name)


class ResetSeeds:
    """The seed of each reset: a given seed as it is; without one, the next number of a sequence
    drawn from the last seed given (the OS's entropy if none was), so a seeded run of resets
    repeats. The generator is built only when a reset without a seed needs it."""

    def __init__(self) -> None:
        self._last: Any = None
        self._rng: random.Random | None = None

    def next(self, seed: Any) -> Any:
        if seed is not None:
            self._last, self._rng = seed, None
            return seed
        if self._rng is None:
            self._rng = random.Random(self._last)
        return self._rng.getrandbits(63)
