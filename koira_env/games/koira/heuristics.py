"""Rule-of-thumb bots: one cheap parametrised policy, several named strategies.

Every named bot (``greedy``, ``dumper``, ``warrior``, ``gambler``, ``cautious``, ``hoarder``)
is a ``HeuristicAgent`` with different knobs, so each real choice of the game is decided in
one place and the bots differ only where their strategies differ. Decisions read the view's
tuples directly and use precomputed per-action tables: a few microseconds per move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...cards import RANK_OF, SUIT_OF
from .engine import FIRST_RUN, PHASE_ONE, RISK, RUNS, TAKE, action_cards

if TYPE_CHECKING:  # base imports the registry, so the bots import it only for type hints
    from ...core.agent import Turn
    from .info import SeatView

_ALL_ACTIONS = range(FIRST_RUN + len(RUNS))
# Per action id: rank and suit of its (lowest) card and how many cards it sheds.
ACT_RANK = tuple(RANK_OF[action_cards(a)[0]] if action_cards(a) else -1 for a in _ALL_ACTIONS)
ACT_SUIT = tuple(SUIT_OF[action_cards(a)[0]] if action_cards(a) else -1 for a in _ALL_ACTIONS)
ACT_LEN = tuple(len(action_cards(a)) for a in _ALL_ACTIONS)

# What a phase-one card does to the round as played so far.
WIN, WAR, LOSE = 0, 1, 2


def round_summary(round_cards: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """(bitmask of ranks played, highest rank played or -1, highest tied rank or -1)."""
    mask = 0
    top = -1
    tie = -1
    for _, card in round_cards:
        r = RANK_OF[card]
        bit = 1 << r
        if mask & bit and r > tie:
            tie = r
        mask |= bit
        if r > top:
            top = r
    return mask, top, tie


def card_outcome(rank: int, mask: int, top: int, tie: int, any_tie: bool) -> int:
    """Whether ``rank`` would lead the round (WIN), start a war (WAR) or neither, so far.

    Mirrors the engine's war trigger (``_tied_players``) from the public round cards; later
    players can still change the result.
    """
    if mask >> rank & 1:
        if (any_tie and rank >= tie) or rank == top:
            return WAR
        return LOSE
    if rank > top and (not any_tie or tie < 0):
        return WIN
    return LOSE


def players_after(view: SeatView, risk_in_war: bool) -> int:
    """How many players may still play in this phase-one round after the seat (public facts)."""
    seat = view.seat
    stock_ok = view.stock_size >= 2
    sizes = view.hand_sizes
    count = 0
    if view.war_players:
        order = view.war_players
        stock_ok = stock_ok and risk_in_war
        for q in order[order.index(seat) + 1 :]:
            if sizes[q] or stock_ok:
                count += 1
        return count
    n = view.num_players
    leader = view.round_cards[0][0] if view.round_cards else seat
    for k in range(1, (leader - seat) % n or n):
        if sizes[(seat + k) % n] or stock_ok:
            count += 1
    return count


class HeuristicAgent:
    """A parametrised rule-of-thumb player.

    Phase one knobs:
      ``win``: when to play the lowest card that takes the lead rather than dump the lowest
        card that cannot: ``"always"``, ``"last"`` (only as the round's last player, a sure
        win) or ``"never"``.
      ``war``: +1 match a played rank to start a war when possible, -1 never tie, 0 ignore.
      ``risk_below``: risk the top stock card when the best card in hand ranks below this
        (0-12; 0 never risks for this reason).
      ``risk_when_beaten``: risk when no card in hand can take the lead.
    Phase two knobs:
      ``hoard_from``: trumps of this rank or higher are kept: when only such a trump beats
        the trick and a voluntary take is allowed, take instead (13 never hoards).
      ``runs_first``: prefer the play that sheds the most cards (sequences).
    """

    name = "heuristic"

    def __init__(
        self,
        win: str = "always",
        war: int = 0,
        risk_below: int = 0,
        risk_when_beaten: bool = False,
        hoard_from: int = 13,
        runs_first: bool = True,
        name: str | None = None,
    ) -> None:
        if win not in ("always", "last", "never"):
            raise ValueError(f"win must be 'always', 'last' or 'never', got {win!r}")
        self.win = win
        self.war = war
        self.risk_below = risk_below
        self.risk_when_beaten = risk_when_beaten
        self.hoard_from = hoard_from
        self.runs_first = runs_first
        if name is not None:
            self.name = name

    def act(self, turn: Turn) -> int:
        view = turn.view
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase == PHASE_ONE:
            rules = turn.rules
            aim_win = self.win == "always" or (
                self.win == "last" and players_after(view, rules.risk_in_war) == 0
            )
            return self.phase_one(legal, view.round_cards, rules.war_trigger == "any_tie", aim_win)
        return self.phase_two(legal, bool(view.trick), view.trump_suit, turn.rules.voluntary_take)

    # ------------------------------------------------------------------ phase one
    def phase_one(
        self,
        legal: Sequence[int],
        round_cards: Sequence[tuple[int, int]],
        any_tie: bool,
        aim_win: bool,
    ) -> int:
        mask, top, tie = round_summary(round_cards)
        best_win = best_war = best_lose = -1
        win_rank = war_rank = lose_rank = 99
        high = -1
        for a in legal:
            if a == RISK:
                continue
            r = RANK_OF[a]
            if r > high:
                high = r
            kind = card_outcome(r, mask, top, tie, any_tie)
            if kind == WIN:
                if r < win_rank:
                    best_win, win_rank = a, r
            elif kind == WAR:
                if r < war_rank:
                    best_war, war_rank = a, r
            elif r < lose_rank:
                best_lose, lose_rank = a, r
        if legal[-1] == RISK and (
            high < self.risk_below or (self.risk_when_beaten and best_win < 0 and best_war < 0)
        ):
            return RISK
        if best_war >= 0 and self.war > 0:
            return best_war
        if aim_win:
            order = (best_win, best_lose, best_war)
        else:
            order = (best_lose, best_win, best_war)
        if self.war < 0 and best_war >= 0 and order[0] < 0 and order[1] < 0:
            return best_war  # only tying cards left
        for a in order:
            if a >= 0:
                return a
        return legal[0]

    # ------------------------------------------------------------------ phase two
    def phase_two(
        self, legal: tuple[int, ...], following: bool, trump: int, voluntary: bool
    ) -> int:
        """Lead or beat with the cheapest play: non-trumps before trumps, low before high."""
        best = -1
        best_key = (99, 99, 99)
        runs_first = self.runs_first
        for a in legal:
            if a == TAKE:
                continue
            is_trump = ACT_SUIT[a] == trump
            key = (is_trump, -ACT_LEN[a] if runs_first else ACT_LEN[a], ACT_RANK[a])
            if key < best_key:
                best, best_key = a, key
        if best < 0:
            return TAKE
        if following and voluntary and best_key[0] and ACT_RANK[best] >= self.hoard_from:
            return TAKE
        return best


def _int_arg(arg: str, what: str) -> int:
    try:
        return int(arg)
    except ValueError:
        raise ValueError(f"{what} needs an integer argument, got {arg!r}") from None


def _no_arg(arg: str, what: str) -> None:
    if arg:
        raise ValueError(f"{what} takes no argument, got {arg!r}")


def greedy(arg: str = "") -> HeuristicAgent:
    """Win tricks cheaply, never risk; in phase two beat with the cheapest card."""
    _no_arg(arg, "greedy")
    return HeuristicAgent(name="greedy")


def dumper(arg: str = "") -> HeuristicAgent:
    """Collect as few cards as possible: always shed the lowest card that cannot win."""
    _no_arg(arg, "dumper")
    return HeuristicAgent(win="never", war=-1, name="dumper")


def warrior(arg: str = "") -> HeuristicAgent:
    """Start wars whenever a played rank can be matched, else win cheaply."""
    _no_arg(arg, "warrior")
    return HeuristicAgent(war=1, name="warrior")


def gambler(arg: str = "") -> HeuristicAgent:
    """Risk the stock when holding nothing of rank ``arg`` or higher (8 = a ten) or when beaten."""
    threshold = _int_arg(arg, "gambler") if arg else 8
    return HeuristicAgent(risk_below=threshold, risk_when_beaten=True, name="gambler")


def cautious(arg: str = "") -> HeuristicAgent:
    """Take a trick only when sure to (last to play), else dump low; never tie or risk."""
    _no_arg(arg, "cautious")
    return HeuristicAgent(win="last", war=-1, name="cautious")


def hoarder(arg: str = "") -> HeuristicAgent:
    """Keep trumps from rank ``arg`` (default 9 = a jack) up: take rather than spend them."""
    threshold = _int_arg(arg, "hoarder") if arg else 9
    return HeuristicAgent(hoard_from=threshold, name="hoarder")


HEURISTICS = {
    "greedy": greedy,
    "dumper": dumper,
    "warrior": warrior,
    "gambler": gambler,
    "cautious": cautious,
    "hoarder": hoarder,
}
