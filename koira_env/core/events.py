"""The event vocabulary every game's log shares, and the names earlier releases wrote.

A state built with ``log=True`` appends one dict per event, ``{"type": kind, ...}``; records
keep them and ``replay`` checks them. The kinds every game shares are spelled here once, so a
tool reading logs of several games (replays, the web table, statistics) can rely on them;
a game adds its own kinds (``bid``, ``declare``, ``war``, ...) for what only it does.
The compiled cores (Koira's, Red7's) write the same names.
"""

from __future__ import annotations

from typing import Any

DEAL = "deal"  # a hand is dealt
PLAY = "play"  # a seat plays a card (or cards)
BID = "bid"  # a seat bids (Dois, Whist 22)
TRICK = "trick_won"  # a trick is taken
HAND_END = "hand_end"  # a hand is scored
GAME_OVER = "game_over"  # the game ended with a result
TRUNCATED = "truncated"  # the game hit its action or hand limit: no result

# kinds the release before the kit wrote: Kop, Teka and Dois ended with "game_end" and Whist 22
# with "end"; those four named a taken trick "trick"; Dois and Whist 22 a scored hand "score"
RENAMED = {"game_end": GAME_OVER, "end": GAME_OVER, "trick": TRICK, "score": HAND_END}


def upgrade(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with the kinds of earlier releases renamed, so a stored record's events can
    be compared with what replaying its actions logs today."""
    return [{**e, "type": RENAMED[e["type"]]} if e.get("type") in RENAMED else e for e in events]
