"""The encoding kit: how every game builds its observation from bytes.

An observation is one ``bytes`` string of small integer codes, turned into float32 by a single
numpy multiply with a per-entry scale (numpy calls, not arithmetic, dominate at this size).
A game declares its fields once as ``(name, size, scale)`` in vector order; ``layout`` gives
the name -> slice map and the scale vector from them. Its blocks come from tables built when
the game is made, so observing is lookups and joins only:

* ``code_table(codes)``: a ``bytes.translate`` table: a card-location bytearray translated by
  it is the 0/1 block of the cards whose code is in ``codes`` (no Python loop over cards);
* ``one_hot(size, index)``: a block with a 1 at ``index``; ``one_hots(size)`` all of them, plus
  a zero block at index -1 (``table[-1]``: nothing to show);
* ``seat_one_hots(n)``: per observer, a seat's one-hot relative to it ("r seats after me").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

Field = tuple[str, int, float | Sequence[float]]  # name, size, scale (one, or one an entry)


def layout(fields: Sequence[Field]) -> tuple[dict[str, slice], np.ndarray]:
    """The name -> slice map of ``fields`` (in vector order) and their float32 scale vector."""
    slices: dict[str, slice] = {}
    start = 0
    for name, size, _ in fields:
        slices[name] = slice(start, start + size)
        start += size
    scale = np.concatenate(
        [np.broadcast_to(np.asarray(s, np.float32), size) for _, size, s in fields]
    )
    return slices, scale


def code_table(codes: Iterable[int], one: bytes = b"\x01") -> bytes:
    """A ``bytes.translate`` table sending each of ``codes`` to ``one`` and every other code to
    zeros. A one of k bytes (Red7's float32 1.0) is for locations stored k bytes a card, the
    code in the first: the table then has 256 // k codes."""
    codes = set(codes)
    zero = bytes(len(one))
    return b"".join(one if code in codes else zero for code in range(256 // len(one)))


def one_hot(size: int, index: int, one: bytes = b"\x01") -> bytes:
    """``size`` entries with ``one`` at ``index`` and zeros elsewhere; all zeros if ``index``
    is negative."""
    zero = bytes(len(one))
    if index < 0:
        return zero * size
    return zero * index + one + zero * (size - 1 - index)


def one_hots(size: int) -> list[bytes]:
    """Every ``one_hot(size, i)``, then the zero block, so ``table[-1]`` shows nothing."""
    return [one_hot(size, i) for i in range(size)] + [bytes(size)]


def exact_past_a_byte(obs: np.ndarray, count: int, limit: int) -> np.ndarray:
    """``obs`` with its last entry, a count coded as one byte (255 at most) and scaled by
    ``1 / limit``, made exact when the count is past a byte (a ``max_hands`` above 256)."""
    if count > 255:
        obs[-1] = count / limit
    return obs


def seat_one_hots(n: int, one: bytes = b"\x01") -> list[list[bytes]]:
    """``[observer][seat]``: ``seat``'s one-hot counted from ``observer`` (``[observer][-1]``:
    no seat), so every observation is seat-relative."""
    return [
        [one_hot(n, (p - s) % n, one) for p in range(n)] + [one_hot(n, -1, one)] for s in range(n)
    ]
