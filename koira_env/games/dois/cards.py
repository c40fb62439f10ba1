"""Dois's 68 cards: ids, names, kinds, and the parsing of decks with identical copies.

Every card shows a suit or a number, never both; four trump cards (black backs) only name a
suit. RULES.md (section Dois) says where this composition comes from: 8 copies of each of
the suits R Y G B and 4 copies of each of the numbers 1-8 (64 cards), and the 4 trump cards.

Copies of a card are interchangeable, so the engine works with **kinds**: kinds 0-3 are the
suit cards R Y G B, kinds 4-11 the numbers 1-8 (kind ``3 + n``), named "R" .. "B" and
"1" .. "8". Card ids number the copies so that a kind is also the id of its first copy:

* ids 0-47: copy ``c`` (0-3) of kind ``k`` is ``c * 12 + k``;
* ids 48-63: the other suit copies, copy ``c`` (4-7) of suit ``s`` is ``48 + (c - 4) * 4 + s``;
* ids 64-67: the trump cards "TR" "TY" "TG" "TB", ``64 + suit``.

A card's name is its kind's ("R", "5") or "T" and a suit; ``parse_deck`` reads a repeated
name as the next copy, so a deck is written with names alone and a game record, which keeps
names, replays the same game (the engine depends on the order of the kinds only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.deck import parse_decks

SUITS = "RYGB"
SUIT_COLOURS = ("red", "yellow", "green", "blue")  # the colour each suit letter stands for
NUM_SUITS = 4
NUM_NUMBERS = 8
NUM_KINDS = NUM_SUITS + NUM_NUMBERS  # 12
COPIES = (8,) * NUM_SUITS + (4,) * NUM_NUMBERS  # per kind
PLAY_CARDS = sum(COPIES)  # 64
TRUMP_CARD = PLAY_CARDS  # ids TRUMP_CARD + suit: the four trump cards
DECK_SIZE = PLAY_CARDS + NUM_SUITS  # 68
HAND_SIZE = 13
MIN_OF_EACH = 3  # a hand with fewer suit cards or fewer number cards is dealt again

KIND_NAMES = tuple(SUITS) + tuple(str(v) for v in range(1, NUM_NUMBERS + 1))
COPY_IDS = tuple(  # per kind: the ids of its copies, first copy (the kind itself) first
    tuple(c * NUM_KINDS + k if c < 4 else 48 + (c - 4) * NUM_SUITS + k for c in range(COPIES[k]))
    for k in range(NUM_KINDS)
)
KIND_OF = tuple(c % NUM_KINDS if c < 48 else (c - 48) % NUM_SUITS for c in range(PLAY_CARDS))
NAMES = tuple(KIND_NAMES[k] for k in KIND_OF) + tuple("T" + s for s in SUITS)
_IDS = {name: k for k, name in enumerate(KIND_NAMES)} | {
    "T" + s: TRUMP_CARD + i for i, s in enumerate(SUITS)
}


def suit_words(suit: int) -> str:
    """``"G (green)"``: a suit's letter, as on the cards, and its colour in words."""
    return f"{SUITS[suit]} ({SUIT_COLOURS[suit]})"


def number_of(kind: int) -> int:
    """The number a number kind shows (kind 4 is the 1)."""
    return kind - NUM_SUITS + 1


def kind_names(counts: Sequence[int]) -> list[str]:
    """The names of the cards counted per kind, in kind order (``[2, 0, ...]`` -> R R ...)."""
    return [KIND_NAMES[k] for k in range(NUM_KINDS) for _ in range(counts[k])]


def card_name(card: int) -> str:
    """``"R"`` (a red suit card), ``"5"`` (a number card) or ``"TR"`` (the red trump card)."""
    if type(card) is not int or not 0 <= card < DECK_SIZE:
        raise ValueError(f"card id must be an int in 0..{DECK_SIZE - 1}, got {card!r}")
    return NAMES[card]


def card_id(name: str) -> int:
    """The id of ``name``, any case (for a suit or number card: its first copy)."""
    text = "".join(name.split()).upper() if isinstance(name, str) else ""
    if text not in _IDS:
        raise ValueError(
            f"unknown card {name!r}: the cards are the suits R Y G B, the numbers 1-8 and "
            "the trump cards TR TY TG TB"
        )
    return _IDS[text]


def copies_of(card: int) -> tuple[int, ...]:
    """The ids of every copy of ``card``'s kind, first copy first (a trump card is unique)."""
    return COPY_IDS[KIND_OF[card]] if card < PLAY_CARDS else (card,)


def parse_deck(deck: Sequence[Any]) -> list[int]:
    """Card names or ids, one or more whole decks of 68, as ids; a name stands for the next
    copy of its card not given by id or named before in the same deck. ``ValueError`` names
    the fault (``core.deck.parse_decks``)."""
    return parse_decks(deck, DECK_SIZE, card_id, card_name, copies=copies_of)
