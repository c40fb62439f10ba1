"""What each legal turn of Teka does to the trick and the contract: one row of features per
turn, for a network that scores turns one by one (``agents/turnnet.py``).

A card's worth in a trick game is mostly relational: whether it takes the trick as it stands,
whether any card still out can beat it, whether it follows, ruffs or throws away, whether the
partner already holds the trick, and who is still to play after it and has shown a void. A
flat network over the 500-float observation has to work each of those out from card planes
for each of 52 outputs, and the one distilled from ``champion`` agreed with it on 36% of the
leads (docs/games/teka.md "champion-net"). Here the rules are applied once per legal turn
and one scorer is shared across the turns. A raise's row holds the contract after it against
the tricks the declaring side has, needs, and can count on (``counter``'s sure winners).

Only what the seat may know is read (its ``TekaView``: its hand, the cards played and by
whom, the auction, the contract, the trick; voids as ``search.constraints`` reads them from
the plays), so re-dealing the hidden cards (``State.determinize``) leaves every row unchanged.
"Unseen" cards are those in the other hands, as ``Memory`` (``bots.py``) counts them.

Row layout (``TURN_FEATURES`` = 114 floats; blocks that do not apply to a turn are zeros):

======= ================================================================================
0-72    the action (one-hot over the 73 action ids)
73-76   a card's suit, or the suit a trump call names (one-hot)
77      a card's rank, 2 = 0 ... A = 12, / 12
78      the card is a trump
79      the card would take the trick as it stands once played (a lead always does)
80      master: no unseen card of its suit is higher
81      unseen cards of its suit above it, / 12
82      unseen cards of its suit, / 13
83      cards of its suit the seat keeps after the turn (a trump call: holds), / 13
84      the seat's honour points in its suit (A 4, K 3, Q 2, J 1), / 10
85-88   the card leads, follows suit, ruffs (a trump on a plain lead), discards
89, 90  the card is the lowest, the highest the seat holds in its suit
-- the trick (every row of the play: cards and raises) --
91      the partner is winning the trick now
92      an opponent is winning the trick now
93      the card winning the trick now is a master
94-97   cards already in the trick, 0-3 (one-hot)
98      the seat plays last to the trick
99      a card: the seat's side wins the trick as it stands once it is played
100     a card: ... and the trick is sure: the seat plays last, or the winning card is a
        master that is a trump or no unseen trump is left
101     opponents still to play who have shown a void in the trick's suit and may ruff it
        (a plain suit, not shown void in trumps, trumps unseen), / 2
102     the partner is still to play and may ruff the trick's suit, as 101
103     unseen trumps, / 13
-- the contract (every row of the play) --
104     the seat's side declared
105     the contract after the turn (a raise: its number), / 13
106     tricks the declaring side still needs after the turn, / 13
107     tricks the defenders still need to beat the contract after the turn, / 13
108     tricks left to play, / 13
109     the declarer only: its side's tricks plus its sure winners (``counter``'s count:
        trump masters, and plain masters once no trump is unseen) minus the contract after
        the turn, (d + 13) / 26
110     a raise: by how many tricks, / 5
111     a double thirteen
-- the auction --
112     a call's number: bid b gives b / 14, double thirteen 1, a pass 0
113     a call of any kind (pass, bid, double thirteen)
======= ================================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...cards import SUIT_OF
from .bots import HCP, CounterBot, Memory, _trick_state
from .engine import DOUBLE, PASS, RAISE, TRICKS, TRUMP, TekaView, beats, call_value
from .search import constraints, next_seat
from .solver import SUIT_MASK

TURN_FEATURES = 114
ACTION = 0
SUIT, RANK, IS_TRUMP, TAKES, MASTER, HIGHER_OUT, SUIT_OUT, KEPT, SUIT_HCP = range(73, 82)
LEADS, FOLLOWS, RUFFS, DISCARDS, LOWEST, HIGHEST = 85, 86, 87, 88, 89, 90
PARTNER_WINS, OPPONENT_WINS, BEST_MASTER, POSITION, LAST = 91, 92, 93, 94, 98
SIDE_TAKES, SURE, OPPONENTS_RUFF, PARTNER_RUFFS, TRUMPS_OUT = 99, 100, 101, 102, 103
DECLARING, CONTRACT, TO_MAKE, TO_BEAT, LEFT, SURE_MARGIN, STEP, DOUBLE_13 = range(104, 112)
CALL_NUMBER, CALL = 112, 113


def turn_features(view: TekaView, rules: Any, legal: Sequence[int]) -> np.ndarray:
    """(len(legal), TURN_FEATURES) float32: one row per action of ``legal`` (any order, rows
    in its order) for the seat of ``view``; ``rules`` is the game's ``Rules``."""
    rows = np.zeros((len(legal), TURN_FEATURES), np.float32)
    rows[np.arange(len(legal)), np.asarray(legal, np.intp)] = 1.0
    if view.phase == "play":
        _play_rows(view, rules, legal, rows)
        return rows
    hand = view.hand
    for row, action in zip(rows, legal, strict=True):
        action = int(action)
        if TRUMP <= action < RAISE:
            suit = action - TRUMP
            held = [c for c in hand if SUIT_OF[c] == suit]
            row[SUIT + suit] = 1.0
            row[KEPT] = len(held) / 13
            row[SUIT_HCP] = sum(HCP[c] for c in held) / 10
        elif PASS <= action <= DOUBLE:
            row[CALL] = 1.0
            row[CALL_NUMBER] = call_value(action) / 14
    return rows


def _play_rows(view: TekaView, rules: Any, legal: Sequence[int], rows: np.ndarray) -> None:
    """The card, trick and contract blocks of the play's rows."""
    memory = Memory(view)
    out = memory.unseen_by_suit
    seat, trump, trick = view.seat, view.trump, view.trick
    side = seat % 2
    by_suit: list[list[int]] = [[], [], [], []]
    for c in view.hand:
        by_suit[SUIT_OF[c]].append(c)
    trumps_out = len(out[trump])

    # the trick: who wins it now, who is still to play after the seat and may ruff
    size = 3 if view.double else 4
    if trick:
        best, best_seat = _trick_state(view)
        led = SUIT_OF[trick[0][1]]
    else:
        best, best_seat, led = -1, -1, -1
    later = []
    p = seat
    for _ in range(size - len(trick) - 1):
        p = next_seat(p, view.out)
        later.append(p)
    forbidden = constraints(view, rules)[0]

    # per suit: (opponents / 2, partner) still to play who have shown a void in it, a plain
    # suit, and may hold a trump
    ruffers = [(0.0, 0.0)] * 4
    if trumps_out:
        for suit in range(4):
            if suit != trump:
                void, no_trump = SUIT_MASK[suit], SUIT_MASK[trump]
                can = [q for q in later if forbidden[q] & void and not forbidden[q] & no_trump]
                mates = sum(1 for q in can if q % 2 == side)
                ruffers[suit] = ((len(can) - mates) / 2, float(mates))

    # the contract
    declaring = view.declarer % 2
    taken = view.won[declaring] + view.won[declaring + 2]
    lost = len(view.tricks) - taken
    left = TRICKS - len(view.tricks)
    # CounterBot.raise_to with no contract to beat: its side's tricks plus its sure winners
    sure = CounterBot.raise_to(view._replace(contract=-1), memory) if view.declarer == seat else 0

    shared = np.zeros(TURN_FEATURES, np.float32)
    shared[PARTNER_WINS] = best_seat >= 0 and best_seat % 2 == side
    shared[OPPONENT_WINS] = best_seat >= 0 and best_seat % 2 != side
    shared[BEST_MASTER] = best >= 0 and memory.master(best)
    shared[POSITION + len(trick)] = 1.0
    shared[LAST] = not later
    shared[TRUMPS_OUT] = trumps_out / 13
    shared[DECLARING] = declaring == side
    shared[LEFT] = left / 13
    shared[DOUBLE_13] = view.double
    if led >= 0:
        shared[OPPONENTS_RUFF], shared[PARTNER_RUFFS] = ruffers[led]

    for row, action in zip(rows, legal, strict=True):
        action = int(action)
        row += shared
        contract = action - RAISE + 9 if action >= RAISE else view.contract
        row[CONTRACT] = contract / 13
        row[TO_MAKE] = max(0, contract - taken) / 13
        row[TO_BEAT] = max(0, TRICKS - contract + 1 - lost) / 13
        if view.declarer == seat:
            row[SURE_MARGIN] = (sure - contract + 13) / 26
        if action >= RAISE:
            row[STEP] = (contract - view.contract) / 5
            continue
        card = action
        suit = SUIT_OF[card]
        mine = by_suit[suit]
        row[SUIT + suit] = 1.0
        row[RANK] = card % 13 / 12
        row[IS_TRUMP] = suit == trump
        takes = best < 0 or beats(card, best, trump)
        row[TAKES] = takes
        master = memory.master(card)
        row[MASTER] = master
        row[HIGHER_OUT] = sum(1 for c in out[suit] if c > card) / 12
        row[SUIT_OUT] = len(out[suit]) / 13
        row[KEPT] = (len(mine) - 1) / 13
        row[SUIT_HCP] = sum(HCP[c] for c in mine) / 10
        if led < 0:
            row[LEADS] = 1.0
            row[OPPONENTS_RUFF], row[PARTNER_RUFFS] = ruffers[suit]
        elif suit == led:
            row[FOLLOWS] = 1.0
        elif suit == trump:
            row[RUFFS] = 1.0
        else:
            row[DISCARDS] = 1.0
        row[LOWEST] = card == mine[0]
        row[HIGHEST] = card == mine[-1]
        side_takes = takes or best_seat % 2 == side
        row[SIDE_TAKES] = side_takes
        winner = card if takes else best
        row[SURE] = side_takes and (
            not later or (memory.master(winner) and (SUIT_OF[winner] == trump or not trumps_out))
        )
