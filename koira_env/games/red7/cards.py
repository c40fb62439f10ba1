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


# A palette also keeps its **groups**: one list of 16 small ints, so that the legal turns and
# the key updates read single words instead of shifting 49-bit masks:
# groups[k] (k < 7): the 7-bit set of its cards of number k + 1 (bit 6 - colour, as in ids);
# groups[CGROUP + c]: the numbers of its cards of colour c (bit k for number k + 1);
# groups[NUMBERS] / groups[COLOURS_IN]: the 7-bit sets of numbers / colours present.
CGROUP, NUMBERS, COLOURS_IN = 7, 14, 15
NUM = tuple(c // 7 for c in range(NUM_CARDS))  # the number's index k = number - 1
NBIT = tuple(1 << c % 7 for c in range(NUM_CARDS))  # the card's bit in its number group
KBIT = tuple(1 << c // 7 for c in range(NUM_CARDS))  # its number's bit
CBIT = tuple(1 << COLOUR[c] for c in range(NUM_CARDS))  # its colour's bit
CGI = tuple(CGROUP + COLOUR[c] for c in range(NUM_CARDS))  # index of its colour group
ODD = tuple(NUMBER[c] % 2 for c in range(NUM_CARDS))  # 0 for the even numbers (green)
HIGH = tuple(int(NUMBER[c] > 3) for c in range(NUM_CARDS))  # 0 below 4 (violet)
TOP_BIT = (-1, *(g.bit_length() - 1 for g in range(1, 128)))
# ORANGE_PLUS[x][g]: the key of card x's number group once x joins it (g: the group before);
# YELLOW_PLUS the same for its colour group. The palette's key under orange / yellow is its
# best group's, so "x makes the palette lead under orange" is one lookup and one comparison.
ORANGE_PLUS = tuple(
    tuple((g | NBIT[x]).bit_count() << 6 | (7 * NUM[x] + TOP_BIT[g | NBIT[x]]) for g in range(128))
    for x in range(NUM_CARDS)
)
YELLOW_PLUS = tuple(
    tuple(
        (g | KBIT[x]).bit_count() << 6 | (7 * TOP_BIT[g | KBIT[x]] + 6 - COLOUR[x])
        for g in range(128)
    )
    for x in range(NUM_CARDS)
)
NEVER = NUM_CARDS  # a card threshold no card is above


def groups_of(mask: int) -> list[int]:
    """The groups of a palette (see ``CGROUP``)."""
    groups = [0] * 16
    for card in cards_of(mask):
        add_card(groups, card)
    return groups


def add_card(groups: list[int], card: int) -> None:
    """Add ``card`` to a palette's groups, in place."""
    groups[NUM[card]] |= NBIT[card]
    groups[CGI[card]] |= KBIT[card]
    groups[NUMBERS] |= KBIT[card]
    groups[COLOURS_IN] |= CBIT[card]


def keys_plus(keys: list[int], groups: list[int], card: int) -> list[int]:
    """``rule_keys`` of the palette with ``card`` added, from its keys and its groups: only
    the groups the card joins can change."""
    k = NUM[card]
    red, orange, yellow, green, blue, _, violet = keys
    top = red & 63
    best = card if card > top or not red else top
    key = ORANGE_PLUS[card][groups[k]]
    if key > orange:
        orange = key
    key = YELLOW_PLUS[card][groups[CGI[card]]]
    if key > yellow:
        yellow = key
    if not ODD[card]:
        green = ((green >> 6) + 1) << 6 | (card if card > (green & 63) or not green else green & 63)
    if not HIGH[card]:
        violet = ((violet >> 6) + 1) << 6 | (
            card if card > (violet & 63) or not violet else violet & 63
        )
    length, high = RUN[groups[NUMBERS] | KBIT[card]]
    group = groups[high] | NBIT[card] if high == k else groups[high]
    return [
        64 | best,
        orange,
        yellow,
        green,
        ((blue >> 6) + (0 if groups[CGI[card]] else 1)) << 6 | best,
        length << 6 | (7 * high + TOP_BIT[group]),
        violet,
    ]


def turn_wins(
    hand: list[int], base: int, todo: int, keys: list[int], best: list[int], groups: list[int]
) -> list[int]:
    """For each card of ``hand``: the rules (a 7-bit set) under which a palette of these
    ``keys`` and ``groups`` leads once the card joins it. ``base``: the rules it leads
    already (adding a card never lowers a key); ``todo``: the other rules to check (the rest
    are left out); ``best``: the leading key under each rule.

    The legal turns' whole question, asked for every card in hand, so each rule is one
    comparison per card: the new key ``count << 6 | max(best counted card, x)`` beats
    ``best`` exactly when ``x`` is above a threshold, or for orange / yellow / indigo when the
    key of the group the card joins does."""
    if not todo:
        return [base] * len(hand)
    # 0 / NEVER: not asked (a palette's orange, yellow and indigo keys are never 0)
    red = best[RED] - 64 if todo & 1 else NEVER  # the palette's own top is below the leader's
    orange = best[ORANGE] if todo & 2 else 0
    yellow = best[YELLOW] if todo & 4 else 0
    indigo = best[INDIGO] if todo & 32 else 0
    green = violet = blue = (NEVER, NEVER)  # indexed by ODD, HIGH, colour present
    if todo & 8:
        green = (_cut(keys[GREEN], best[GREEN]), NEVER)
    if todo & 64:
        violet = (_cut(keys[VIOLET], best[VIOLET]), NEVER)
    if todo & 16:  # a new colour counts one more card; the count decides first
        count, top = keys[BLUE] >> 6, keys[BLUE] & 63
        new = best[BLUE] - ((count + 1) << 6)
        blue = (-1 if top > new else new, best[BLUE] - (count << 6))
    colours = groups[COLOURS_IN]
    wins = []
    for x in hand:
        w = base
        if x > red:
            w |= 1
        if orange and ORANGE_PLUS[x][groups[NUM[x]]] > orange:
            w |= 2
        if yellow and YELLOW_PLUS[x][groups[CGI[x]]] > yellow:
            w |= 4
        if x > green[ODD[x]]:
            w |= 8
        if x > blue[colours >> COLOUR[x] & 1]:
            w |= 16
        if indigo:
            length, high = RUN[groups[NUMBERS] | KBIT[x]]
            group = groups[high] | NBIT[x] if high == NUM[x] else groups[high]
            if (length << 6 | (7 * high + TOP_BIT[group])) > indigo:
                w |= 32
        if x > violet[HIGH[x]]:
            w |= 64
        wins.append(w)
    return wins


def _cut(key: int, best: int) -> int:
    """Green / violet: the card a palette of key ``key`` must add above to beat ``best`` with
    one more counted card (-1: any counted card does)."""
    cut = best - (((key >> 6) + 1) << 6)
    return -1 if key and key & 63 > cut else cut


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
