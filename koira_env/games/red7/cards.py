"""Red7's 49 cards and the seven colour rules, on palettes held as 49-bit ints.

A card is ``7 * (number - 1) + (6 - colour)`` with colours red, orange, yellow, green, blue,
indigo, violet (0-6, high to low): ``0 = V1`` ... ``48 = R7``. So a higher id is a better card
("number first, then colour"), a palette is an int with bit ``c`` set for each card ``c`` it
holds, and the best card of any set of cards is its highest bit.

A palette's standing under a rule is one int, its **key**: ``count << 6 | best``, where
``count`` is how many of its cards the rule counts and ``best`` the best card among them (the
published tie-break), or 0 when the rule counts none of its cards (such a palette cannot be
winning). Cards are distinct, so two non-zero keys never tie: "winning" is "the largest key".
"""

from __future__ import annotations

NUM_CARDS = 49
NUM_COLOURS = 7
COLOURS = "ROYGBIV"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "indigo", "violet")
RULE_NAMES = (
    "highest card",
    "most of one number",
    "most of one colour",
    "most even cards",
    "most different colours",
    "most cards in a row",
    "most cards below 4",
)
RED, ORANGE, YELLOW, GREEN, BLUE, INDIGO, VIOLET = range(NUM_COLOURS)

NUMBER = tuple(c // 7 + 1 for c in range(NUM_CARDS))  # 1..7
COLOUR = tuple(6 - c % 7 for c in range(NUM_CARDS))  # 0 = red .. 6 = violet
BIT = tuple(1 << c for c in range(NUM_CARDS))
ALL = (1 << NUM_CARDS) - 1
GROUP = 0x7F  # the seven cards of one number: bits 7k .. 7k + 6
NUMBER_MASK = tuple(GROUP << 7 * k for k in range(7))  # index: number - 1
COLOUR_MASK = tuple(sum(BIT[7 * k + 6 - c] for k in range(7)) for c in range(NUM_COLOURS))
EVEN_MASK = NUMBER_MASK[1] | NUMBER_MASK[3] | NUMBER_MASK[5]
LOW_MASK = NUMBER_MASK[0] | NUMBER_MASK[1] | NUMBER_MASK[2]  # numbers below 4


def card_name(card: int) -> str:
    """``"R7"``: the colour's initial and the number."""
    return f"{COLOURS[COLOUR[card]]}{NUMBER[card]}"


def card_id(name: str) -> int:
    """The id of ``"R7"`` (any case); ``ValueError`` naming the form otherwise."""
    text = name.strip().upper() if isinstance(name, str) else ""
    if len(text) != 2 or text[0] not in COLOURS or text[1] not in "1234567":
        raise ValueError(
            f"unknown card {name!r}: a Red7 card is a colour initial (R O Y G B I V) and a "
            "number 1-7, like 'R7' or 'v1'"
        )
    return 7 * (int(text[1]) - 1) + 6 - COLOURS.index(text[0])


def _longest_runs() -> tuple[tuple[int, int], ...]:
    """RUN[numbers] for a 7-bit set of numbers present (bit k: number k + 1): the length of
    the longest run of consecutive numbers and its top number's index, the highest run among
    the longest (its top card is the best card of any longest run)."""
    table = []
    for present in range(128):
        best = (0, -1)
        length = 0
        for k in range(7):
            length = length + 1 if present >> k & 1 else 0
            if length and length >= best[0]:
                best = (length, k)
        table.append(best)
    return tuple(table)


RUN = _longest_runs()


def numbers_present(mask: int) -> int:
    """The 7-bit set of numbers a palette holds (bit k: number k + 1)."""
    return sum(1 << k for k in range(7) if mask & NUMBER_MASK[k])


def _key(cards: int) -> int:
    """The key of a set of cards that all count: ``count << 6 | best``, 0 when empty."""
    return cards.bit_count() << 6 | (cards.bit_length() - 1) if cards else 0


def rule_keys(mask: int) -> list[int]:
    """The palette's key under each of the seven rules, red first."""
    if not mask:
        return [0] * NUM_COLOURS
    top = mask.bit_length() - 1
    orange = 0
    for k in range(7):
        group = mask >> 7 * k & GROUP
        if group:
            key = group.bit_count() << 6 | (7 * k + group.bit_length() - 1)
            orange = max(orange, key)
    yellow = max(_key(mask & m) for m in COLOUR_MASK)
    colours = 0
    for k in range(7):
        colours |= mask >> 7 * k & GROUP
    length, k = RUN[numbers_present(mask)]
    indigo = length << 6 | (7 * k + (mask >> 7 * k & GROUP).bit_length() - 1)
    return [
        64 | top,
        orange,
        yellow,
        _key(mask & EVEN_MASK),
        colours.bit_count() << 6 | top,
        indigo,
        _key(mask & LOW_MASK),
    ]


# Tables for ``keys_plus``: GROUP_KEY[g] is the key of a 7-bit group ``g`` of one number
# (``count << 6 | top bit``); COLOUR_KEY[c][g] that of colour c's cards whose numbers are the
# bits of ``g`` (a palette's "colour groups" are kept as a second, transposed mask).
TBIT = tuple(1 << (7 * COLOUR[c] + NUMBER[c] - 1) for c in range(NUM_CARDS))
GROUP_KEY = (0, *(g.bit_count() << 6 | (g.bit_length() - 1) for g in range(1, 128)))
TOP_BIT = (-1, *(g.bit_length() - 1 for g in range(1, 128)))
COLOUR_KEY = tuple(
    (0, *(g.bit_count() << 6 | (7 * (g.bit_length() - 1) + 6 - c) for g in range(1, 128)))
    for c in range(NUM_COLOURS)
)


def keys_plus(mask: int, tmask: int, keys: list[int], numbers: int, card: int) -> list[int]:
    """``rule_keys(mask | BIT[card])`` from the palette's keys, transposed mask (``TBIT``) and
    numbers present: only the groups the new card joins can change. The hot path of the
    legal moves, hence tables and no calls."""
    k = card // 7
    c = COLOUR[card]
    new = mask | BIT[card]
    red, orange, yellow, green, blue, _, violet = keys
    best = card if card > (red & 63) or not red else red & 63
    key = GROUP_KEY[new >> 7 * k & GROUP] + 7 * k
    if key > orange:
        orange = key
    colour = tmask >> 7 * c & GROUP
    key = COLOUR_KEY[c][colour | 1 << k]
    if key > yellow:
        yellow = key
    if k & 1:  # numbers 2, 4, 6
        green = ((green >> 6) + 1) << 6 | (card if card > (green & 63) or not green else green & 63)
    if k < 3:  # numbers below 4
        violet = ((violet >> 6) + 1) << 6 | (
            card if card > (violet & 63) or not violet else violet & 63
        )
    length, top = RUN[numbers | 1 << k]
    return [
        64 | best,
        orange,
        yellow,
        green,
        ((blue >> 6) + (0 if colour else 1)) << 6 | best,
        length << 6 | (7 * top + TOP_BIT[new >> 7 * top & GROUP]),
        violet,
    ]


def counted(mask: int, rule: int) -> int:
    """The cards of a palette that the rule counts, as a mask: the set behind its key (for
    blue and indigo the best card of each colour or number; ties for the most go to the set
    holding the best card). Advanced Red7 scores these cards."""
    if not mask:
        return 0
    if rule == RED:
        return 1 << (mask.bit_length() - 1)
    if rule == GREEN:
        return mask & EVEN_MASK
    if rule == VIOLET:
        return mask & LOW_MASK
    if rule == ORANGE:
        groups = [mask & m for m in NUMBER_MASK]
    elif rule == YELLOW:
        groups = [mask & m for m in COLOUR_MASK]
    else:  # one card per colour (blue) or per number of the longest run (indigo)
        if rule == BLUE:
            groups = [mask & m for m in COLOUR_MASK]
            chosen = [1 << (g.bit_length() - 1) for g in groups if g]
        else:
            length, top = RUN[numbers_present(mask)]
            chosen = [
                1 << ((mask & NUMBER_MASK[k]).bit_length() - 1)
                for k in range(top - length + 1, top + 1)
            ]
        return sum(chosen)
    return max(groups, key=_key)


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


ABOVE = (*(ALL & ~((2 << b) - 1) for b in range(NUM_CARDS)), ALL)  # ABOVE[-1]: every card
COLOUR_SET_MASK = tuple(
    sum(COLOUR_MASK[c] for c in range(NUM_COLOURS) if cs >> c & 1) for cs in range(128)
)


def _gain(count: int, best: int, opp: int, cards: int) -> int:
    """The cards of ``cards`` whose addition gives key ``count << 6 | max(best, card)``
    above ``opp`` (``best`` -1 when nothing else counts)."""
    need = opp >> 6
    if count != need:
        return cards if count > need else 0
    top = opp & 63
    return cards if best > top else cards & ABOVE[top]


def winning_additions(
    palette: tuple[int, int, int, int],
    keys: list[int],
    opp: list[int],
    hand: int,
    needed: int,
) -> list[int]:
    """Per rule in ``needed`` (a 7-bit set; 0 for the others), the cards of ``hand`` (a mask)
    whose addition to the palette (mask, transposed mask, numbers and colours present) makes
    its key beat ``opp`` under that rule: the legal moves' whole question, answered per group
    of cards (a number, a colour) instead of per card."""
    mask, tmask, numbers, colours = palette
    wins = []
    for rule in range(NUM_COLOURS):
        o = opp[rule]
        key = keys[rule]
        if key > o:  # adding a card never lowers a key
            wins.append(hand)
            continue
        if not needed >> rule & 1 or (rule < GREEN and (key >> 6) + 1 < o >> 6):
            wins.append(0)  # not asked, or one more card of a group cannot reach
            continue
        best = key & 63 if key else -1
        if rule == RED:
            won = hand & ABOVE[o & 63]
        elif rule == GREEN:
            won = _gain((key >> 6) + 1, best, o, hand & EVEN_MASK)
        elif rule == VIOLET:
            won = _gain((key >> 6) + 1, best, o, hand & LOW_MASK)
        elif rule == BLUE:
            have = COLOUR_SET_MASK[colours]
            won = _gain((key >> 6) + 1, best, o, hand & ~have)  # a new colour
            won |= _gain(key >> 6, best, o, hand & have)
        elif rule == YELLOW:
            won = 0
            for c in range(NUM_COLOURS):
                cards = hand & COLOUR_MASK[c]
                if cards:
                    group = tmask >> 7 * c & GROUP
                    top = 7 * TOP_BIT[group] + 6 - c if group else -1
                    won |= _gain(group.bit_count() + 1, top, o, cards)
        else:  # ORANGE or INDIGO: per number
            won = 0
            for k in range(7):
                cards = hand & NUMBER_MASK[k]
                if not cards:
                    continue
                group = mask >> 7 * k & GROUP
                top = 7 * k + TOP_BIT[group] if group else -1
                if rule == ORANGE:
                    won |= _gain(group.bit_count() + 1, top, o, cards)
                    continue
                length, high = RUN[numbers | 1 << k]
                if high == k:
                    won |= _gain(length, top, o, cards)
                elif (length << 6 | (7 * high + TOP_BIT[mask >> 7 * high & GROUP])) > o:
                    won |= cards
        wins.append(won)
    return wins
