"""Card ids and names: the one place that knows how a card is encoded.

A card is an int ``suit * 13 + rank`` with suits C, D, H, S (0-3) and ranks 2..A (0-12).
Plain ints keep the engine's hot paths free of object overhead.
"""

from __future__ import annotations

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "♣♦♥♠"
NUM_CARDS = 52

# every valid deck_suits option: the non-empty sets of suits, as letters in CDHS order
SUIT_SETS = tuple("".join(s for i, s in enumerate(SUITS) if mask >> i & 1) for mask in range(1, 16))
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


def ranked_cards(ranks: int, suits: str) -> tuple[int, ...]:
    """The ids of part of the deck, in id order: the ``ranks`` highest ranks of each suit in
    ``suits`` (``ranked_cards(3, "HS")`` is Q, K, A of hearts and spades; ``(13, "CDHS")`` all
    52). The deck options of the games that can play with fewer cards (mini Koira) read it."""
    return tuple(
        suit * 13 + rank
        for suit, letter in enumerate(SUITS)
        if letter in suits
        for rank in range(13 - ranks, 13)
    )


def check_ranked_deck(ranks: object, suits: object) -> None:
    """``ValueError`` naming the fault unless ``ranks`` (option ``deck_ranks``) is an int in
    1..13 and ``suits`` (``deck_suits``) suit letters of ``"CDHS"``, each once, in that order."""
    if not isinstance(ranks, int) or isinstance(ranks, bool) or not 1 <= ranks <= 13:
        raise ValueError(f"option deck_ranks must be an int in 1..13, got {ranks!r}")
    if not isinstance(suits, str) or suits not in SUIT_SETS:
        raise ValueError(
            f"option deck_suits must be suit letters from {SUITS!r}, each at most once "
            f"and in that order (e.g. 'HS'), got {suits!r}"
        )
