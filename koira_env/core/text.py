"""The text every game shares: one wording for the lines that say the same thing in each.

``Game.render`` and ``Game.describe_event`` are a game's own, but the pieces that are not
about its rules (a count with its noun, the seats' values, the dealt hands, the result line,
the shared event kinds of ``core.events``) are worded here once, so ``koira replay`` reads
alike for every game and a change of wording is one edit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import events

# what a game counts when a limit stops it, the event field holding the count, and the option
LIMITS = (("hand", "hands", "max_hands"), ("round", "rounds", "max_rounds"))
ACTION_LIMIT = ("action", "actions", "max_actions")


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``: a count with its noun in the right number (``plural``:
    when it is not the noun plus "s")."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def per_seat(values: Iterable[Any]) -> str:
    """``"player_0 1, player_1 2"``: one value per seat, in seat order."""
    return ", ".join(f"player_{p} {v}" for p, v in enumerate(values))


def dealt_hands(event: dict[str, Any]) -> str:
    """A ``deal`` event's hands, ``"player_0: AS KD; player_1: ..."``."""
    return "; ".join(f"player_{p}: {' '.join(h)}" for p, h in enumerate(event["hands"]))


def stopped_line(count: int, unit: str, limit: str) -> str:
    """The line of a game a limit stopped after ``count`` ``unit``s (option ``limit``)."""
    return f"Stopped after {counted(count, unit)} ({limit}): no result"


def result_line(state: Any, played: int, unit: str = "hand", limit: str = "max_hands") -> str:
    """A finished game's last line of ``render``: the places, or (no outcome) that ``limit``
    stopped it after ``played`` ``unit``s."""
    outcome = state.outcome()
    if outcome is None:
        return stopped_line(played, unit, limit)
    return f"Game over. Places: {per_seat(outcome.places)}"


def describe_shared(event: dict[str, Any]) -> str:
    """The line of an event of a kind every game words alike (``Game.describe_event``'s
    default): a card played, a result by places, a limit reached; ``KeyError`` for any
    other kind (``core.record.describe_event`` then shows the raw JSON)."""
    kind = event["type"]
    if kind == events.PLAY and "card" in event:
        return f"player_{event['player']} plays {event['card']}"
    if kind == events.GAME_OVER and "places" in event:
        line = f"Game over. Places: {per_seat(event['places'])}"
        return f"{line}; scores: {per_seat(event['scores'])}" if "scores" in event else line
    if kind == events.TRUNCATED:
        for unit, field, limit in (*LIMITS, ACTION_LIMIT):
            if field in event:
                return stopped_line(event[field], unit, limit)
    raise KeyError(kind)
