"""Card ids and names: the one place that knows how a card is encoded.

A card is an int ``suit * 13 + rank`` with suits C, D, H, S (0-3) and ranks 2..A (0-12).
Plain ints keep the engine's hot paths free of object overhead.
"""

from __future__ import annotations

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "♣♦♥♠"
NUM_CARDS = 52

SUIT_OF = tuple(c // 13 for c in range(NUM_CARDS))
RANK_OF = tuple(c % 13 for c in range(NUM_CARDS))


def card_name(card: int) -> str:
    """``card_name(50) == "KS"``; tens are written ``"TS"``."""
    if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id must be an int in 0..51, got {card!r}")
    return RANKS[card % 13] + SUITS[card // 13]


def card_id(name: str) -> int:
    """Parse ``"QS"``, ``"10S"``, ``"TS"`` or ``"qs"`` into a card id."""
    if not isinstance(name, str):
        raise ValueError(f"card name must be a string like 'QS', got {name!r}")
    text = name.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(
            f"unknown card {name!r}: expected a rank in 2-10/T/J/Q/K/A "
            "followed by a suit in C/D/H/S"
        )
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def parse_deck(deck: list[str] | list[int]) -> list[int]:
    """A full 52-card deck order as ids; ``ValueError`` says what is wrong with a bad one."""
    from .core.deck import parse_decks

    return parse_decks(deck, NUM_CARDS, card_id, card_name, max_decks=1)
