"""Two-part actions: an env that asks for a game's action in two decisions.

Some games' action ids are pairs, ``first * parts + second`` (``Game.action_parts``; 0 for a
game whose actions are single). A Red7 turn is one: a palette card or none, then a canvas card
or none, 2,500 ids of which about eleven are legal. An env built with ``split_actions=True``
asks for the first part (its legal ones: the distinct first parts of the legal actions), then
for the second (those completing the first into a legal action), and plays the whole action
after the second. Its action space is ``max(num_actions // parts, parts)`` wide (Red7: 50), and
the observation gains one block, the first part chosen (one-hot, ``FIRST_PART``), which only
the seat choosing the second part sees. This is the readable reference; a compiled core's
engine does the same in C (``core/_engine.pyx``: ``part_mask``, ``part_observation``,
``legal_part``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FIRST_PART = "first_part"  # the observation field of a split env's chosen first part
NO_PART = -1  # no first part chosen yet: the next decision is a first part


def part_actions(legal: Sequence[int], parts: int, pending: int) -> list[int]:
    """The legal decisions, increasing: with no first part chosen (``pending`` -1) the distinct
    first parts of ``legal``; after first part ``pending``, the second parts that complete it
    into an action of ``legal``."""
    if pending == NO_PART:
        return sorted({action // parts for action in legal})
    return sorted(action % parts for action in legal if action // parts == pending)


def decision_sizes(game: Any, split_actions: bool) -> tuple[int, int]:
    """(observation size, action count) of an env's decisions on ``game``: the game's own, or
    with split actions its observation plus the first-part block (one entry a first part) and
    the parts' width."""
    if not split_actions:
        return game.observation_size, game.num_actions
    firsts = -(-game.num_actions // game.action_parts)
    return game.observation_size + firsts, max(firsts, game.action_parts)


def illegal_part(legal: Sequence[int], parts: int, pending: int, part: object, seat: int) -> str:
    """The one wording of an illegal part in the AEC env (the raw env raises it)."""
    which, after = (
        ("first", "") if pending == NO_PART else ("second", f" after first part {pending}")
    )
    allowed = ", ".join(map(str, part_actions(legal, parts, pending)))
    return f"illegal {which} part {part!r}{after} for player_{seat}; legal {which} parts: {allowed}"


def check_split(game: Any, split_actions: Any) -> None:
    """``ValueError`` unless ``split_actions`` is a bool, and True only for a game whose
    actions are pairs (``Game.action_parts``)."""
    if type(split_actions) is not bool:
        raise ValueError(f"split_actions must be True or False, got {split_actions!r}")
    if split_actions and not game.action_parts:
        raise ValueError(
            "split_actions=True is for games whose actions are pairs (Red7's turns); "
            f"{game.title}'s actions are single"
        )


def part_decisions(legal: Sequence[int], parts: int, action: int) -> list[tuple[int, int]]:
    """The decisions a split env asks for to play ``action`` (one of ``legal``): (the first part
    chosen or -1, the part) for each part with more than one legal choice (a part with one is
    nobody's decision: learners and demonstrations skip it)."""
    first, second = divmod(action, parts)
    decisions = []
    if len(part_actions(legal, parts, NO_PART)) > 1:
        decisions.append((NO_PART, first))
    if len(part_actions(legal, parts, first)) > 1:
        decisions.append((first, second))
    return decisions
