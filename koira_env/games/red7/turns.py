"""What each legal turn of Red7 leaves on the table: one row of features per turn, for a
network that scores turns one by one (``agents/turnnet.py``) rather than reading 2,500 logits.

A Red7 turn's worth is mostly in its afterstate: which rule is in force, whether the mover
leads every opponent under each rule, by how much, and how many of the cards it cannot see
would let an opponent overtake it. A flat network over the observation has to work all that
out from card planes for each of 2,500 actions; here the rules engine does it once per legal
turn, and the network shares one scorer across turns. Measured on Red7's four-player table
(docs/games/red7.md "champion-net"): 16% less regret against flat Monte Carlo's values than
the same scorer given only the turn's card ids.

This is the readable reference; the compiled core writes the same rows
(``_compiled.Engine.turn_features``, tested equal; ``benchmarks/bench_turns.py`` times both).
Only what the seat may know is read: its hand, the palettes, the canvas, the rule, who is out,
and the set of cards it cannot see (never where they are), so re-dealing the hidden cards leaves
every row unchanged.

Row layout (``TURN_FEATURES`` = 180 floats, opponents are "player r", r seats after the mover,
up to three; a pass is only its flag):

====== ==================================================================================
0-48   the card played to the palette (one-hot, none for a canvas-only turn)
49-97  the card played to the canvas (one-hot, none if the rule stays)
98-104 the rule in force after the turn (one-hot)
105-111 the rules under which the mover then leads every opponent
112-114 pass, one card, two cards
115-177 per rule (7) and opponent (3): the mover's count minus the opponent's, (d + 7) / 14;
        best card minus the opponent's, (d + 48) / 96; the share of unseen cards that, added
        to the opponent's palette, would put it above the mover under that rule (0 for an
        opponent who is out)
178    the mover's hand size after the turn, / 7
179    the largest such share under the rule left in force
====== ==================================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .cards import ALL, BIT, COLOUR, NUM_CARDS, NUM_COLOURS, groups_of, keys_plus, rule_keys
from .cards import turn_wins as _turn_wins
from .engine import HAND_SIZE, PASS, SLOTS

TURN_FEATURES = 180
MAX_OPPONENTS = 3
PALETTE_CARD, CANVAS_CARD, RULE_AFTER, LEADS = 0, NUM_CARDS, 2 * NUM_CARDS, 2 * NUM_CARDS + 7
PASSES, ONE_CARD, TWO_CARDS = 112, 113, 114
MARGINS, HAND_LEFT, THREAT_IN_FORCE = 115, 178, 179


def unseen_cards(view: Any) -> list[int]:
    """The cards ``view``'s seat cannot see: the draw pile, other hands, others' folded hands."""
    seen = 0
    for cards in (view.hand, view.canvas, view.folded, *view.palettes, *view.scored):
        for card in cards:
            seen |= BIT[card]
    free = ALL & ~seen
    return [c for c in range(NUM_CARDS) if free >> c & 1]


def threats(
    rivals: Sequence[tuple[list[int], list[int]] | None], target: Sequence[int], unseen: list[int]
) -> np.ndarray:
    """(7, 3): per rule and opponent, the share of ``unseen`` cards that would put the
    opponent's palette (``rivals``, in seat order: its keys and groups, None once it is out)
    above ``target`` (the mover's keys) under that rule, once the card joins it."""
    out = np.zeros((NUM_COLOURS, MAX_OPPONENTS), np.float32)
    if not unseen:
        return out
    for j, rival in enumerate(rivals):
        if rival is None:
            continue
        keys, groups = rival
        ahead = sum(1 << r for r in range(NUM_COLOURS) if keys[r] > target[r])
        wins = _turn_wins(unseen, ahead, 127 & ~ahead, keys, list(target), groups)
        for r in range(NUM_COLOURS):
            out[r, j] = sum(w >> r & 1 for w in wins) / len(unseen)
    return out


def turn_features(view: Any, legal: Sequence[int]) -> np.ndarray:
    """(len(legal), TURN_FEATURES) float32: one row per turn of ``legal`` (any order) for the
    seat of ``view`` (a ``Red7View``)."""
    n = len(view.palettes)
    seats = [(view.seat + r) % n for r in range(n)]
    masks = [sum(BIT[c] for c in view.palettes[s]) for s in seats]
    active = [view.active[s] for s in seats]
    keys = [
        rule_keys(m) if live else [0] * NUM_COLOURS for m, live in zip(masks, active, strict=True)
    ]
    mine, opponents = keys[0], keys[1:]
    best_other = [max(k[r] for k in opponents) for r in range(NUM_COLOURS)]
    groups = groups_of(masks[0])
    rivals = [
        (k, groups_of(m)) if live else None
        for m, k, live in zip(masks[1:], opponents, active[1:], strict=True)
    ]
    unseen = unseen_cards(view)
    by_palette_card: dict[int, tuple[list[int], np.ndarray]] = {}
    rows = np.zeros((len(legal), TURN_FEATURES), np.float32)
    for row, action in zip(rows, legal, strict=True):
        action = int(action)
        if action == PASS:
            row[PASSES] = 1.0
            continue
        x, c = action // SLOTS - 1, action % SLOTS - 1
        if x not in by_palette_card:
            after = keys_plus(mine, groups, x) if x >= 0 else mine
            by_palette_card[x] = after, threats(rivals, after, unseen)
        after, threat = by_palette_card[x]
        if x >= 0:
            row[PALETTE_CARD + x] = 1.0
        if c >= 0:
            row[CANVAS_CARD + c] = 1.0
        rule = COLOUR[c] if c >= 0 else view.rule
        row[RULE_AFTER + rule] = 1.0
        for r in range(NUM_COLOURS):
            row[LEADS + r] = after[r] > best_other[r]
        row[TWO_CARDS if x >= 0 and c >= 0 else ONE_CARD] = 1.0
        at = MARGINS
        for r in range(NUM_COLOURS):
            for j in range(MAX_OPPONENTS):
                if j + 1 < n and active[j + 1]:
                    theirs = opponents[j][r]
                    row[at] = ((after[r] >> 6) - (theirs >> 6) + 7) / 14
                    row[at + 1] = ((after[r] & 63) - (theirs & 63) + 48) / 96
                    row[at + 2] = threat[r, j]
                at += 3
        row[HAND_LEFT] = (len(view.hand) - (x >= 0) - (c >= 0)) / HAND_SIZE
        row[THREAT_IN_FORCE] = threat[rule].max()
    return rows
