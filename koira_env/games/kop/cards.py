"""Kop's 16 cards: ids, names, points and the one trick order every module reads.

A card is ``suit * 4 + rank`` with suits C, D, H, S (0-3, as in ``koira_env.cards``) and
ranks 10, J, Q, A (0-3): ``0 = TC``, ``1 = JC``, ... ``15 = AS``. Twelve cards are trumps and
form one suit; only A♣ 10♣ and A♠ 10♠ are plain. Names parse like the 52-card deck's
(``"10C"``, ``"TC"``, ``"tc"``), so ``koira_env.cards.card_id`` does the parsing.
"""

from __future__ import annotations

from ... import cards as std

SUITS = "CDHS"
RANKS = "TJQA"
NUM_CARDS = 16

TRUMP, CLUBS, SPADES = 0, 1, 2  # the three suits of play ("led suit")
SUIT_NAMES = ("trumps", "clubs", "spades")

TC, JC, QC, AC, TD, JD, QD, AD, TH, JH, QH, AH, TS, JS, QS, AS = range(NUM_CARDS)
BLACK_QUEENS = (QC, QS)
JACKS_HIGH_FIRST = (JC, JS, JH, JD)  # "the highest jack" is the first one not held
TRUMPS_LOW_FIRST = (TD, AD, JD, JH, JS, JC, QD, QH, QS, QC, TH, AH)
TOTAL_POINTS = 104
TO_WIN = 53

# SUIT_OF[c]: TRUMP, CLUBS or SPADES; STRENGTH[c]: higher takes the trick within a suit
# (plain cards 1-2, trumps 10-21, so any trump is above any plain card).
SUIT_OF = tuple(CLUBS if c in (TC, AC) else SPADES if c in (TS, AS) else TRUMP for c in range(16))
STRENGTH = tuple(
    10 + TRUMPS_LOW_FIRST.index(c) if SUIT_OF[c] == TRUMP else 1 + (c % 4 == 3)
    for c in range(NUM_CARDS)
)
POINTS = tuple((10, 2, 3, 11)[c % 4] for c in range(NUM_CARDS))
NAMES = tuple(RANKS[c % 4] + SUITS[c // 4] for c in range(NUM_CARDS))
_FROM_STANDARD = {std.card_id(name): c for c, name in enumerate(NAMES)}


def card_name(card: int) -> str:
    """``card_name(10) == "QH"``; tens are written ``"TH"``."""
    if type(card) is not int or not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id must be an int in 0..15, got {card!r}")
    return NAMES[card]


def card_id(name: str) -> int:
    """Parse ``"QH"``, ``"10H"``, ``"TH"`` or ``"qh"``; ``ValueError`` for any other card."""
    standard = std.card_id(name)
    if standard not in _FROM_STANDARD:
        raise ValueError(f"{name!r} is not a Kop card: Kop uses only 10, J, Q and A of each suit")
    return _FROM_STANDARD[standard]


def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes a trick now won by ``best`` (same suit and stronger, or trump)."""
    suit = SUIT_OF[card]
    if suit == SUIT_OF[best]:
        return STRENGTH[card] > STRENGTH[best]
    return suit == TRUMP
