"""Decks as the carrier of chance: parsing fixed decks and extending a deal hand by hand.

A state's ``deck`` is a flat list of card ids, one whole deck (a permutation of
``range(size)``) per hand dealt so far; ``seed`` shuffles any deck beyond it
(``game.deck_for_hand``). Games that deal once (Koira, Mätäpesä) use one deck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .game import deck_for_hand


def parse_decks(
    deck: Sequence[Any],
    size: int,
    card_id: Callable[[str], int],
    card_name: Callable[[int], str],
    max_decks: int | None = None,
    cards: Sequence[int] | None = None,
) -> list[int]:
    """Card names or ids, one or more whole decks of ``size`` cards, as ids.

    ``cards`` are the ids of one deck when it is not ``range(size)`` (a rule set that plays
    with part of the game's cards, as mini Koira's 6 of the 52).
    ``ValueError`` says what is wrong: not a list, an unknown name, a bad id, a card not in
    play, a length that is not a whole number of decks, a card repeated or missing within a
    deck.
    """
    if isinstance(deck, str | bytes) or not hasattr(deck, "__len__"):
        raise ValueError(
            f"deck must be a list of {size} card names or ids, got {type(deck).__name__}"
        )
    in_play = None if cards is None else frozenset(cards)
    if in_play is not None and max_decks == 1 and len(deck) != size:  # e.g. 52 cards for 6
        names = " ".join(card_name(c) for c in sorted(in_play))
        raise ValueError(f"deck must hold all {size} cards in play ({names}), got {len(deck)}")
    ids = []
    for i, item in enumerate(deck):
        if isinstance(item, str):
            try:
                ids.append(card_id(item))
            except ValueError as err:
                raise ValueError(f"deck[{i}]: {err}") from None
        elif (
            isinstance(item, int)
            and not isinstance(item, bool)
            and (item in in_play if in_play is not None else 0 <= item < size)
        ):
            ids.append(int(item))
        else:
            if in_play is not None:
                raise ValueError(
                    f"deck[{i}] is {item!r}: expected one of the {size} cards in play, "
                    f"{' '.join(card_name(c) for c in sorted(in_play))}, by name or id"
                )
            raise ValueError(
                f"deck[{i}] is {item!r}: expected a card name like {card_name(size - 1)!r} "
                f"or an id 0..{size - 1}"
            )
        if in_play is not None and ids[-1] not in in_play:
            raise ValueError(
                f"deck[{i}] is {item!r}, not in play: the deck holds only "
                f"{' '.join(card_name(c) for c in sorted(in_play))}"
            )
    if max_decks == 1 and len(ids) != size:
        raise ValueError(f"deck must hold all {size} cards, got {len(ids)}")
    if not ids or len(ids) % size or (max_decks is not None and len(ids) > max_decks * size):
        most = "" if max_decks is None else f" (at most {max_decks})"
        raise ValueError(
            f"deck must hold all {size} cards, or several whole decks of {size}{most}, "
            f"got {len(ids)}"
        )
    for start in range(0, len(ids), size):
        seen: set[int] = set()
        for i in range(start, start + size):
            if ids[i] in seen:
                where = "" if len(ids) == size else f" (deck {start // size})"
                raise ValueError(
                    f"deck[{i}] repeats {card_name(ids[i])}{where}: "
                    "every card must appear exactly once"
                )
            seen.add(ids[i])
    return ids


def hand_deck(deck: list[int], seed: Any, hand: int, size: int) -> list[int]:
    """The deck of hand ``hand``: from ``deck`` if dealt already, else shuffled by ``seed``
    and appended to ``deck`` (so the state's deck always holds every card order used)."""
    start = hand * size
    while len(deck) < start + size:
        deck.extend(deck_for_hand(seed, len(deck) // size, size))
    return deck[start : start + size]
