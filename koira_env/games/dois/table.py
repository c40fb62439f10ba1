"""Dois's table for the web page and the ``rgb_array`` picture (``Game.table``).

A seat's dict comes from its ``DoisView``: its own hand, what everyone shows (the suit card
and the number card on top of their piles), every card each has played this hand, bids,
tricks and scores, the trump suit and the cards of the trick being played; the other hands
and the undealt cards are counts. In the event log a deal shows the seat only its own hand.
The full view (``seat`` ``None``) shows every hand and the undealt cards.
"""

from __future__ import annotations

from typing import Any

from ...core.table import (
    card_faces,
    legal_moves,
    score_sheet,
    seat_entry,
    table_dict,
    visible_hands,
    zone,
)
from .cards import HAND_SIZE, KIND_NAMES, SUIT_COLOURS, SUITS, kind_names, suit_words
from .engine import BID, DoisView, State

# The suit cards in their colour, the trump cards (black-backed) black with their suit's
# colour as on the web table, the number cards plain; the legend says what the letters mean.
FACES = card_faces(
    {
        name: colour
        for suit, colour in zip(SUITS, SUIT_COLOURS, strict=True)
        for name in (suit, "T" + suit)
    },
    "Cards",
    [
        *(
            (suit, f"{colour} suit", colour)
            for suit, colour in zip(SUITS, SUIT_COLOURS, strict=True)
        ),
        (" ".join("T" + suit for suit in SUITS), "trump cards", "black"),
        ("1-8", "number cards", "white"),
    ],
    dark={"T" + suit for suit in SUITS},
)


def _move_cards(action: int) -> list[str]:
    return [KIND_NAMES[action]] if action < BID else []


def _seat(view: DoisView, p: int, hand: Any) -> dict[str, Any]:
    shown = [] if hand is None else [KIND_NAMES[k] for k in hand]
    held = HAND_SIZE - len(view.plays[p]) if view.phase != "over" else 0
    bid = view.bids[p]
    info = [f"bid {bid}" if bid >= 0 else "no bid yet", f"won {view.won[p]}"]
    info.append(f"score {view.scores[p]}")
    flags = ["dealer"] if p == view.dealer and view.phase != "over" else []
    showing = [KIND_NAMES[s] for s in (view.suits[p],) if s >= 0]
    showing += [str(v) for v in (view.numbers[p],) if v]
    piles = [
        zone("shows", cards=showing),
        zone("played", cards=[KIND_NAMES[k] for k in view.plays[p]]),
    ]
    return seat_entry(p, shown, held - len(shown), piles, info, flags)


def _status(view: DoisView) -> str:
    if view.phase == "over":
        return f"game over after {view.hand_no} hand(s)"
    hand = f"hand {view.hand_no + 1}, trump {suit_words(view.trump)}"
    if view.phase == "bid":
        return f"{hand}: player_{view.current} to bid"
    return f"{hand}, trick {view.trick_no + 1}: player_{view.current} to play"


def _trick(view: DoisView, n: int) -> list[tuple[int, list[str]]]:
    """Who played what to the trick being played: two cards each in the first trick (one so
    far for a player between its suit card and its number card), one card later."""
    first = view.phase == "first trick"
    done = [(view.leader + i) % n for i in range(view.in_trick)]
    plays = [(p, view.plays[p][-2:] if first else view.plays[p][-1:]) for p in done]
    if first and len(view.plays[view.current]) == 1:
        plays.append((view.current, view.plays[view.current]))
    return [(p, [KIND_NAMES[k] for k in kinds]) for p, kinds in plays]


def table(state: State, seat: int | None) -> dict[str, Any]:
    """Dois's table dict (schema: ``koira_env.core.table``)."""
    full = seat is None
    view = state.view(0 if full else seat)
    n = state.n
    hands = visible_hands(state, seat)
    zones = []
    if view.phase != "over":
        zones.append(zone("trump", text=suit_words(view.trump)))
        zones.append(zone("trick", plays=_trick(view, n)))
        if full:
            zones.append(zone("undealt", cards=kind_names(state.remains)))
        else:
            zones.append(zone("undealt", count=sum(state.remains)))
    return table_dict(
        state,
        seat,
        status=_status(view),
        seats=[_seat(view, p, hands[p]) for p in range(n)],
        zones=zones,
        moves=legal_moves(state.game, view.legal, _move_cards),
        face_down=("undealt",),
        scores=score_sheet(
            state,
            "score after each hand (the hand's change)",
            [f"player_{p}" for p in range(n)],
            lambda e: [f"{s} ({d:+d})" for s, d in zip(e["scores"], e["change"], strict=True)],
        ),
        faces=FACES,
    )
