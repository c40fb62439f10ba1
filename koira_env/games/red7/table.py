"""Red7's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``Red7View``: its own hand, every palette, the canvas and the rule
it sets, who is winning and who is out, the draw pile's size and the scores of the advanced
game; the other hands are counts. Each move says where its cards go (``"to"``: palette,
canvas) and has a ``"label"`` in words, so the page builds a move from two clicks. Red7's
events are public but for the card a player draws (advanced game), which only the record
keeps: the event log hides it from every other seat. The full view (``seat`` ``None``)
shows every hand.
"""

from __future__ import annotations

from typing import Any

from ...core.table import card_faces, legal_moves, seat_entry, table_dict, visible_hands, zone
from ...core.text import counted
from .cards import COLOUR, COLOUR_NAMES, COLOURS, NUM_CARDS, RULE_NAMES, card_name
from .engine import Red7View, State, action_cards

# Every card in its colour, and the letters in words: colour is the whole of Red7, and the
# letter codes (I indigo, V violet) mean nothing on their own.
FACES = card_faces(
    {card_name(c): COLOUR_NAMES[COLOUR[c]] for c in range(NUM_CARDS)},
    "Colours, highest first",
    [(code, word, word) for code, word in zip(COLOURS, COLOUR_NAMES, strict=True)],
)


def _cards(cards: Any) -> list[str]:
    return [card_name(c) for c in cards]


def _move_cards(action: int) -> list[str]:
    return [card_name(c) for c in action_cards(action) if c >= 0]


def _moves(view: Red7View, game: Any) -> list[dict[str, Any]]:
    """The legal moves, each card with where it goes (``"to"``) and a label in words: the
    page picks a palette card, then a canvas card, and shows "pass" as going out."""
    moves = legal_moves(game, view.legal, _move_cards)
    for move in moves:
        palette, canvas = action_cards(move["action"])
        move["to"] = [where for where, c in (("palette", palette), ("canvas", canvas)) if c >= 0]
        if palette < 0 and canvas < 0:
            move["label"] = "go out (pass: leave the round)"
        elif canvas < 0:
            move["label"] = f"{card_name(palette)} to your palette only"
        elif palette < 0:
            move["label"] = f"{card_name(canvas)} to the canvas only"
        else:
            move["label"] = (
                f"{card_name(palette)} to your palette, {card_name(canvas)} to the canvas"
            )
    return moves


def _seat(view: Red7View, p: int, hand: Any) -> dict[str, Any]:
    shown = [] if hand is None else _cards(hand)
    info = [f"{counted(view.hand_sizes[p], 'card')} in hand"]
    if view.target:
        info.append(f"{view.scores[p]} of {view.target} points")
    flags = []
    if p == view.winning:
        flags.append("winning")
    if p in view.eliminated:
        flags.append("out")
    piles = [zone("palette", cards=_cards(view.palettes[p]))]
    if view.scored[p]:
        piles.append(zone("scored", cards=_cards(view.scored[p])))
    return seat_entry(p, shown, view.hand_sizes[p] - len(shown), piles, info, flags)


def _seen(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event as ``seat`` saw it: a drawn card is known to its drawer only."""
    if event["type"] == "play" and "drew" in event and event["player"] != seat:
        return {**event, "drew": "?"}
    return event


def _status(state: State, view: Red7View) -> str:
    rule = f"{COLOUR_NAMES[view.rule]} rule: {RULE_NAMES[view.rule]}"
    if state.is_terminal:
        return "game stopped at the round limit: no result" if state.truncated else "game over"
    return f"round {view.round + 1}, {rule}; player_{state.current} to play"


def _zones(view: Red7View) -> list[dict[str, Any]]:
    rule = f"{COLOUR_NAMES[view.rule]}: {RULE_NAMES[view.rule]}"
    zones = [zone("canvas", cards=_cards(view.canvas), text=rule)]
    if view.draw_size:
        zones.append(zone("draw pile", count=view.draw_size))
    return zones


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Red7's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    view = state.view(0 if full else seat)
    hands = visible_hands(state, seat)
    return table_dict(
        state,
        seat,
        status=_status(state, view),
        seats=[_seat(view, p, hands[p]) for p in range(state.n)],
        zones=_zones(view),
        moves=_moves(view, state.game),
        seen=_seen,
        faces=FACES,
    )
