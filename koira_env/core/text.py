"""The text every game shares: one wording for the lines that say the same thing in each.

``Game.render`` and ``Game.describe_event`` are a game's own, but the pieces that are not
about its rules (a count with its noun, the seats' values, the dealt hands, the result line,
the shared event kinds of ``core.events``) are worded here once, so ``koira replay`` reads
alike for every game and a change of wording is one edit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import events

# what a limit counts, the ``truncated`` event's field holding the count, and the option
LIMITS = (
    ("hand", "hands", "max_hands"),
    ("round", "rounds", "max_rounds"),
    ("action", "actions", "max_actions"),
)


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


def hand_and_moves(game: Any, seat: int, cards: Iterable[str], legal: Iterable[int]) -> list[str]:
    """The lines of a render that end a seat's part: its hand (``-`` when empty) and, when it
    is to act, its legal moves by name (commas between: names may hold spaces)."""
    lines = [f"Hand of player_{seat}: {' '.join(cards) or '-'}"]
    moves = ", ".join(game.action_name(a) for a in legal)
    return [*lines, f"Legal: {moves}"] if moves else lines


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


def describe_shared(event: dict[str, Any], templates: Mapping[str, str] | None = None) -> str:
    """The line of an event ``Game.describe_event`` words without code of the game's: one of
    the game's ``templates`` (kind -> ``str.format_map`` of the event), else a kind every game
    words alike (a bid, a card played, a result by places, a limit reached); ``KeyError`` for any
    other kind (``core.record.describe_event`` then shows the raw JSON)."""
    kind = event["type"]
    if templates and kind in templates:
        return templates[kind].format_map(event)
    if kind == events.BID:
        return f"player_{event['player']} bids {event['bid']}"
    if kind == events.PLAY and "card" in event:
        return f"player_{event['player']} plays {event['card']}"
    if kind == events.GAME_OVER and "places" in event:
        line = f"Game over. Places: {per_seat(event['places'])}"
        return f"{line}; scores: {per_seat(event['scores'])}" if "scores" in event else line
    if kind == events.TRUNCATED:
        for unit, field, limit in LIMITS:
            if field in event:
                return stopped_line(event[field], unit, limit)
    raise KeyError(kind)
