"""The engine kit's base state: the plumbing of the ``State`` protocol, written once.

A pure-Python engine's ``State`` subclasses ``EngineState`` and writes only its rules:

* ``_legal()``: the legal actions of ``current`` as a fresh list in increasing order, empty
  once the game is over. It is the per-game legality hook: ``legal_actions`` and ``apply``
  compute it once a turn (``cached_legal``), and a game whose legality is cheaper to test
  than to list (Koira's reference engine) overrides ``apply`` and ``legal_actions`` and
  keeps the rest;
* ``_act(action)``: play a legal action (``apply`` has already recorded it);
* ``outcome()``, ``view`` and ``determinize`` (starting from ``_unseen_copy``);
* ``COPIED`` and ``NESTED``: which of its slots ``clone`` copies one level deep (a list, a
  bytearray) or two (a list of lists); every other slot is shared (ints, tuples, the frozen
  rules). ``clone`` is then written out for the class, field by field, the way dataclasses
  writes ``__init__``: search clones all the time, and straight-line code is as fast as a
  hand-written body. A game whose fields need more (Koira's trick of lists) writes its own,
  starting from ``_copy()``.

``apply`` is the template: integers only (numpy's too; ``as_action``), the legality check,
then ``_act``; an illegal action raises ``IllegalActionError`` worded by ``_illegal`` and
changes nothing, a finished game included. ``_event`` logs the vocabulary of
``core.events``. The compiled cores word their errors with the same ``_illegal``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

from . import events
from .game import IllegalActionError, Outcome, as_action

GAME_OVER_MESSAGE = "the game is over: no action is legal"


class EngineState:
    """The protocol fields and the plumbing every pure-Python engine shares (see the module
    docstring); subclasses add their own ``__slots__``."""

    __slots__ = (
        "actions_taken",
        "cached_legal",
        "current",
        "deck",
        "game",
        "history",
        "log",
        "n",
        "seed",
        "truncated",
    )

    OVER: ClassVar[int]  # the game's last ``phase``, for ``_end_game``
    COPIED: ClassVar[tuple[str, ...]] = ()  # own slots ``clone`` copies one level deep
    NESTED: ClassVar[tuple[str, ...]] = ()  # own slots ``clone`` copies two levels deep

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "clone" not in cls.__dict__:
            cls.clone = clone_function(cls)  # type: ignore[attr-defined]

    def __init__(self, game: Any, n: int, deck: list[int], seed: Any, log: bool) -> None:
        self.game = game
        self.n = n
        self.deck = deck
        self.seed = seed
        self.log: list[dict[str, Any]] | None = [] if log else None
        self.history: list[int] = []
        self.actions_taken = 0
        self.truncated = False
        self.cached_legal: list[int] | None = None

    # ------------------------------------------------------------------ the game's part
    def _legal(self) -> list[int]:
        raise NotImplementedError

    def _act(self, action: int) -> None:
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        raise NotImplementedError

    # ------------------------------------------------------------------ the template
    def legal_actions(self) -> list[int]:
        """Legal actions of ``current`` in increasing order (a fresh list; computed once a
        turn)."""
        legal = self.cached_legal
        if legal is None:
            legal = self.cached_legal = self._legal()
        return legal[:]

    def apply(self, action: int) -> None:
        """Play ``action`` for ``current``; ``IllegalActionError`` (nothing changes) if it is
        not legal, a finished game included."""
        if type(action) is not int:  # 13.0 == 13: a float would pass the check below
            action = self._integer(action)
        legal = self.cached_legal
        if legal is None:
            legal = self.cached_legal = self._legal()
        if action not in legal:
            raise IllegalActionError(self._illegal(action))
        self.cached_legal = None
        self.history.append(action)
        self.actions_taken += 1
        self._act(action)

    def _integer(self, action: Any) -> int:
        """``action`` as a plain int (numpy's integers too), or ``IllegalActionError`` worded
        by ``_illegal`` (the compiled cores call it too)."""
        try:
            return as_action(action)
        except IllegalActionError:
            raise IllegalActionError(self._illegal(action)) from None

    def _illegal(self, action: Any) -> str:
        """The one wording of an illegal action (the compiled cores call it too)."""
        if self.is_terminal:  # type: ignore[attr-defined]
            return GAME_OVER_MESSAGE
        name = self.game.action_name
        legal = ", ".join(f"{a} ({name(a)})" for a in sorted(self.legal_actions()))
        try:
            what = f"{action} ({name(action)})"
        except ValueError as error:  # out of range, or not an integer (IllegalActionError)
            what = f"{action!r} ({error})"
        return f"illegal action {what} for player_{self.current}; legal actions: {legal}"

    def _event(self, kind: str, **data: Any) -> None:
        """Log one event (``core.events``) if this state keeps a log; callers whose data
        costs to build check ``self.log is not None`` first."""
        if self.log is not None:
            data["type"] = kind
            self.log.append(data)

    def _end_game(self, truncated: bool = False, **data: Any) -> None:
        """End a game of hands (``phase`` and ``hand_no`` are the game's): no action is legal
        from here, and the log's last event says how it ended: cut off after ``max_hands``
        (``truncated``, with the hands played) or over, with its places; ``data`` (the
        scores) joins either."""
        self.truncated = truncated
        self.phase = self.OVER
        self.cached_legal = None
        if self.log is not None:
            if truncated:
                self._event(events.TRUNCATED, hands=self.hand_no + 1, **data)
            else:
                self._event(events.GAME_OVER, places=list(self.outcome().places), **data)

    def returns(self) -> list[float]:
        """Zero-sum terminal rewards per seat from ``outcome``; zeros before the end and when
        truncated."""
        outcome = self.outcome()
        return [0.0] * self.n if outcome is None else list(outcome.returns)

    # ------------------------------------------------------------------ copies
    def _copy(self) -> Any:
        """A new state of this class with the protocol fields copied: the start of every
        ``clone`` (the log, history and deck are the copy's own)."""
        c = object.__new__(type(self))
        c.game = self.game
        c.n = self.n
        c.current = self.current
        c.deck = self.deck[:]
        c.seed = self.seed
        c.log = None if self.log is None else list(self.log)
        c.history = self.history[:]
        c.actions_taken = self.actions_taken
        c.truncated = self.truncated
        c.cached_legal = self.cached_legal
        return c

    def _unseen_copy(self, rng: random.Random) -> Any:
        """A clone carrying nothing the deal hides (no history, log or deck order) and a fresh
        seed for later hands: the start of every ``determinize``."""
        c = self.clone()  # type: ignore[attr-defined]
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        c.cached_legal = None
        return c


def clone_function(cls: type[EngineState]) -> Callable[[Any], Any]:
    """``cls.clone`` written out from the class's own slots, ``COPIED`` and ``NESTED``."""
    own = [
        name
        for klass in reversed(cls.__mro__)
        if issubclass(klass, EngineState) and klass is not EngineState
        for name in klass.__dict__.get("__slots__", ())
    ]
    unknown = sorted((set(cls.COPIED) | set(cls.NESTED)) - set(own))
    if unknown:
        raise TypeError(f"{cls.__qualname__}: COPIED/NESTED name no slot of it: {unknown}")
    lines = ["def clone(self):", "    c = self._copy()"]
    for name in own:
        if name in cls.NESTED:
            lines.append(f"    c.{name} = [x[:] for x in self.{name}]")
        elif name in cls.COPIED:
            lines.append(f"    c.{name} = self.{name}[:]")
        else:
            lines.append(f"    c.{name} = self.{name}")
    lines.append("    return c")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), {}, namespace)
    clone = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = "A copy sharing only immutable parts (generated from the slots)."
    return clone
