"""Dealing the cards a seat cannot see so that the deal agrees with what the play showed: the
reference engines' ``determinize`` (Kop, Teka, Mätäpesä) under voids, refusals and "this seat
holds one of these" needs, written once. ``core/_deal.pyx`` is the same deal in C, drawing
the same numbers from the same generator, for the compiled cores."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

SHUFFLE_TRIES = 8  # plain shuffles tried before the backtracking deal


def constrained_deal(
    cards: list[int],
    seats: list[int],
    forbidden: Sequence[set[int]] | Mapping[int, set[int]],
    room: dict[int, int],
    rng: random.Random,
    needs: Sequence[tuple[int, frozenset[int]]] = (),
) -> dict[int, int] | None:
    """A random assignment of ``cards`` to ``seats`` filling each seat's ``room``, avoiding
    ``forbidden`` and giving, for each ``(seat, wanted)`` of ``needs``, at least one wanted
    card to that seat: a few plain shuffles first (uniform among the valid deals when one
    fits), then one card per need placed first (every choice tried, in random order; one card
    may meet two needs of the same seat) and the rest dealt by backtracking."""
    order = cards[:]
    for _ in range(SHUFFLE_TRIES):
        rng.shuffle(order)
        deal = {}
        i = 0
        for p in seats:
            for card in order[i : i + room[p]]:
                deal[card] = p
            i += room[p]
        if all(card not in forbidden[p] for card, p in deal.items()) and all(
            any(deal.get(card) == p for card in wanted) for p, wanted in needs
        ):
            return deal
    choices = []
    for p, wanted in needs:
        options = [card for card in cards if card in wanted and card not in forbidden[p]]
        rng.shuffle(options)
        choices.append(options)
    for picks in itertools.product(*choices):
        placed: dict[int, int] = {}
        for card, (p, _) in zip(picks, needs, strict=True):
            if placed.setdefault(card, p) != p:
                break
        else:
            left = dict(room)
            for p in placed.values():
                left[p] -= 1
            if min(left.values()) < 0:
                continue
            rest = [card for card in cards if card not in placed]
            deal = backtrack(rest, seats, forbidden, left, rng)
            if deal is not None:
                deal.update(placed)
                return deal
    return None


def backtrack(
    cards: list[int],
    seats: list[int],
    forbidden: Sequence[set[int]] | Mapping[int, set[int]],
    room: dict[int, int],
    rng: random.Random,
) -> dict[int, int] | None:
    """``cards`` dealt to ``seats`` within ``room`` and ``forbidden``, or ``None``."""
    options = {card: [p for p in seats if card not in forbidden[p]] for card in cards}
    order = sorted(cards, key=lambda card: (len(options[card]), rng.random()))
    deal: dict[int, int] = {}

    def place(i: int) -> bool:
        if i == len(order):
            return True
        card = order[i]
        choices = [p for p in options[card] if room[p] > 0]
        rng.shuffle(choices)
        for p in choices:
            room[p] -= 1
            deal[card] = p
            if place(i + 1):
                return True
            room[p] += 1
        return False

    return deal if place(0) else None
