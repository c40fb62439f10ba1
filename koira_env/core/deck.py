"""Decks as the carrier of chance: parsing fixed decks and extending a deal hand by hand.

A state's ``deck`` is a flat list of card ids, one whole deck (a permutation of
``range(size)``) per hand dealt so far; ``seed`` shuffles any deck beyond it
(``game.deck_for_hand``). Games that deal once (Koira, Mätäpesä) use one deck.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from .game import deck_for_hand


def parse_decks(
    deck: Sequence[Any],
    size: int,
    card_id: Callable[[str], int],
    card_name: Callable[[int], str],
    max_decks: int | None = None,
    *,
    copies: Callable[[int], Sequence[int]] | None = None,
    cards: Sequence[int] | None = None,
) -> list[int]:
    """Card names or ids, one or more whole decks of ``size`` cards, as ids.

    ``ValueError`` says what is wrong: not a list, an entry that is neither a card name nor an
    id (a number out of range, ``None``, a list, a dict...), an unknown name, a length that is
    not a whole number of decks, a card repeated or missing within a deck. This is the one
    place every game's deck entries are checked.

    ``copies``, for a game with identical copies of a card (Dois), gives the ids of the copies
    of the card a name reads as (``card_id(name)``): each name then stands for the next copy
    not given by id or named before in the same deck.

    ``cards`` are the ids of one deck when it is not ``range(size)`` (a rule set that plays
    with part of the game's cards, as mini Koira's 6 of the 52): any other card is refused.
    """
    if isinstance(deck, str | bytes | Mapping | AbstractSet) or not hasattr(deck, "__len__"):
        raise ValueError(
            f"deck must be a list of {size} card names or ids, got {type(deck).__name__}"
        )
    in_play = None if cards is None else frozenset(cards)
    if in_play is not None and max_decks == 1 and len(deck) != size:  # e.g. 52 cards for 6
        names = " ".join(card_name(c) for c in sorted(in_play))
        raise ValueError(f"deck must hold all {size} cards in play ({names}), got {len(deck)}")
    ids = []
    named = []  # the positions of names (the others are ids)
    for i, item in enumerate(deck):
        if isinstance(item, str):
            named.append(i)
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
        elif in_play is not None:
            raise ValueError(
                f"deck[{i}] is {item!r}: expected one of the {size} cards in play, "
                f"{' '.join(card_name(c) for c in sorted(in_play))}, by name or id"
            )
        else:
            raise ValueError(
                f"deck[{i}] is {item!r}: expected a card name like {card_name(size - 1)!r} "
                f"or an id 0..{size - 1}"
            )
        if in_play is not None and ids[-1] not in in_play:
            raise ValueError(
                f"deck[{i}] is {item!r}, not in play: the deck holds only "
                f"{' '.join(card_name(c) for c in sorted(in_play))}"
            )
    if copies is not None:
        _name_copies(named, ids, size, copies, card_name)
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


def _name_copies(
    named: list[int],
    ids: list[int],
    size: int,
    copies: Callable[[int], Sequence[int]],
    card_name: Callable[[int], str],
) -> None:
    """Turn each entry of ``ids`` at the positions ``named`` (a name, read as its card's first
    copy) into the next copy of that card not given by id or named before in the same deck,
    in place."""
    names = frozenset(named)
    for start in range(0, len(ids), size):
        part = range(start, min(start + size, len(ids)))
        used = {ids[i] for i in part if i not in names}
        for i in (i for i in part if i in names):
            choices = copies(ids[i])
            free = next((c for c in choices if c not in used), None)
            if free is None:
                raise ValueError(
                    f"deck[{i}]: more than {len(choices)} {card_name(ids[i])!r} card(s) in deck "
                    f"{start // size}: every card must appear exactly once"
                )
            used.add(free)
            ids[i] = free


def hand_deck(deck: list[int], seed: Any, hand: int, size: int) -> list[int]:
    """The deck of hand ``hand``: from ``deck`` if dealt already, else shuffled by ``seed``
    and appended to ``deck`` (so the state's deck always holds every card order used)."""
    start = hand * size
    while len(deck) < start + size:
        deck.extend(deck_for_hand(seed, len(deck) // size, size))
    return deck[start : start + size]
