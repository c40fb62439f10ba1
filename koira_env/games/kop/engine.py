"""The Kop rules engine: a mutable game state with a cheap ``clone()``.

This is the readable reference (``engine="python"``); the compiled core ``_compiled.pyx``,
the default engine (game.py), mirrors it method by method.

No RL imports here. Each rule is decided in one method; RULES.md (section Kop) points at
them. Card locations live in two bytearrays so the observation is a few ``bytes.translate``
calls: ``loc`` (in a hand, in the trick, or won by a seat: the truth) and ``by`` (who played
each card this hand, ``NOBODY`` if unplayed: public).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from ...core import events
from ...core.deal import constrained_deal
from ...core.deck import hand_deck
from ...core.game import Outcome, outcome_by_scores
from ...core.state import EngineState
from .cards import (
    BLACK_QUEENS,
    JACKS_HIGH_FIRST,
    NUM_CARDS,
    POINTS,
    QC,
    QS,
    SUIT_OF,
    TO_WIN,
    TOTAL_POINTS,
    TRUMP,
    beats,
    card_name,
)

# --- actions: 0..15 play that card; the black-queen holder's three choices; everyone else's pass
CALL, SILENT, SOLO, PASS = 16, 17, 18, 19
NUM_ACTIONS = 20
CHOICE_NAMES = {CALL: "call", SILENT: "silent", SOLO: "solo", PASS: "pass"}


def action_name(action: int) -> str:
    """A card's name (``"QC"``) or a declaration (``"call"``, ``"pass"``, ...)."""
    return card_name(action) if action < NUM_CARDS else CHOICE_NAMES[action]


# --- card locations (values of State.loc) -----------------------------------------------------
HAND = 0  # HAND + p: in player p's hand
TRICK = 4  # in the trick being played
WON = 5  # WON + p: in a trick player p took
NOBODY = 4  # State.by of an unplayed card

DECLARE, PLAY, OVER = 0, 1, 2
SUIT_CARDS = tuple(frozenset(c for c in range(NUM_CARDS) if SUIT_OF[c] == s) for s in range(3))
BEATERS = tuple(frozenset(c for c in range(NUM_CARDS) if beats(c, b)) for b in range(NUM_CARDS))
PLAYERS = 4
HAND_SIZE = 4
TRICKS = 4


class KopView(NamedTuple):
    """What one seat may know: its hand, the public table and its own black-queen choice."""

    seat: int
    legal: tuple[int, ...]  # empty unless the seat is to act
    hand: tuple[int, ...]
    hand_no: int  # 0-based; hand k is led by player k mod 4
    leader: int  # who led (or leads) the first trick of this hand
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick being played, in order
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner) done
    played_by: tuple[int, ...]  # per card: who played it this hand, -1 if unplayed
    points: tuple[int, ...]  # card points each seat took this hand
    victory_cards: tuple[int, ...]
    caller: int  # the seat holding both black queens, if it called publicly (or is me)
    call: str | None  # "call", "solo", or "silent" (only in the silent player's own view)
    called_jack: int  # the called jack, -1 unless a partner was called
    declaring: int  # whose turn it is in the declaration round, -1 once play has begun
    deciding: bool  # I hold both black queens and must choose now


class State(EngineState):
    """A game of Kop in progress: build it with ``KopGame.new_state``; advance with ``apply``."""

    __slots__ = (
        "best",
        "best_seat",
        "by",
        "called_jack",
        "decider",
        "decision",
        "hand_delta",
        "hand_no",
        "hands",
        "leader",
        "loc",
        "phase",
        "points",
        "rules",
        "side",
        "side_points",
        "trick",
        "trick_leader",
        "tricks",
        "vc",
    )
    OVER = OVER
    COPIED = ("by", "hand_delta", "loc", "points", "side", "side_points", "trick", "tricks", "vc")
    NESTED = ("hands",)

    def __init__(self, game: Any, deck: list[int], seed: Any, log: bool = False) -> None:
        super().__init__(game, PLAYERS, deck, seed, log)
        self.rules = game.rules
        self.vc = [self.rules.victory_cards] * PLAYERS
        self.hand_no = 0
        self.hand_delta = [0] * PLAYERS
        self.side_points = [0, 0]
        self._deal()

    # ------------------------------------------------------------------ dealing
    def _deal(self) -> None:
        """Hand k: a fresh deck (``hand_deck``), one card at a time from its leader, player k
        mod 4 (the dealer, on the leader's right, rotates one seat a hand)."""
        order = hand_deck(self.deck, self.seed, self.hand_no, NUM_CARDS)
        leader = self.hand_no % PLAYERS
        self.leader = self.trick_leader = leader
        self.hands = [sorted(order[(p - leader) % PLAYERS :: PLAYERS]) for p in range(PLAYERS)]
        self.loc = bytearray(NUM_CARDS)
        for p, hand in enumerate(self.hands):
            for card in hand:
                self.loc[card] = HAND + p
        self.by = bytearray([NOBODY]) * NUM_CARDS
        self.points = [0] * PLAYERS
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.best = self.best_seat = -1
        self.decision = self.called_jack = -1
        self.side: list[int] = []
        self.cached_legal = None
        if self.log is not None:
            hands = [[card_name(c) for c in h] for h in self.hands]
            self._event(events.DEAL, hand=self.hand_no, leader=leader, hands=hands)
        self.decider = self.loc[QC] if self.loc[QC] == self.loc[QS] else -1
        self.phase = DECLARE
        self.current = leader

    def _start_play(self) -> None:
        """After the declaration round: fix the sides (``side[p]`` 0: the black queens' side)
        and hand the lead over."""
        self.side = self._sides()
        self.phase = PLAY
        self.current = self.leader

    def _sides(self) -> list[int]:
        """The black queens' holders; a caller and the called jack's holder; or a soloist
        (called or silent) against the other three. Owners come from ``loc`` and ``by`` so a
        re-dealt (determinized) position gets the sides of its own deal."""
        owner = self._owner
        if self.decision in (SOLO, SILENT):
            queens = {self.decider}
        elif self.decision == CALL:
            queens = {self.decider, owner(self.called_jack)}
        else:
            queens = {owner(QC), owner(QS)}
        return [0 if p in queens else 1 for p in range(PLAYERS)]

    def _owner(self, card: int) -> int:
        """Who was dealt ``card`` this hand."""
        where = self.loc[card]
        return where - HAND if where < TRICK else self.by[card]

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _legal(self) -> list[int]:
        """Declare: the holder of both black queens has the three choices (no call if
        ``call_own_jack="no_call"`` and the jack of clubs is in hand), everyone else only
        ``pass``, so the turn order never depends on who holds them. Play: follow the led
        suit, else trump, else anything; and among those, a card that takes the trick as it
        stands if there is one."""
        if self.phase == PLAY:
            hand = self.hands[self.current]
            if not self.trick:
                return hand[:]
            led = SUIT_OF[self.trick[0]]
            allowed = [c for c in hand if SUIT_OF[c] == led]
            if not allowed:
                allowed = [c for c in hand if SUIT_OF[c] == TRUMP] or hand[:]
            best = self.best
            return [c for c in allowed if beats(c, best)] or allowed
        if self.phase == DECLARE:
            if self.current != self.decider:
                return [PASS]
            if self.rules.call_own_jack == "no_call" and self.loc[JACKS_HIGH_FIRST[0]] == (
                HAND + self.current
            ):
                return [SILENT, SOLO]
            return [CALL, SILENT, SOLO]
        return []

    # ------------------------------------------------------------------ acting
    def _act(self, action: int) -> None:
        if action < NUM_CARDS:
            self._play(action)
        else:
            self._declare(action)

    def _declare(self, action: int) -> None:
        """One seat's turn in the declaration round. The holder of both black queens calls the
        highest jack they do not hold, stays silent (a secret solo: announced as a pass) or
        calls solo; calls are public, silence is not. Once all four have declared, the leader
        leads."""
        p = self.current
        if action != PASS:
            self.decision = action
            if action == CALL:
                mine = HAND + p
                self.called_jack = next(j for j in JACKS_HIGH_FIRST if self.loc[j] != mine)
        if self.log is not None:
            jack = card_name(self.called_jack) if action == CALL else None
            public = "pass" if action == SILENT else CHOICE_NAMES[action]
            choice = CHOICE_NAMES[action]
            self._event("declare", player=p, announce=public, choice=choice, jack=jack)
        self.current = (p + 1) % PLAYERS
        if self.current == self.leader:
            self._start_play()

    def _declared(self, seat: int) -> bool:
        """Whether ``seat`` has had its turn in this hand's declaration round."""
        if self.phase != DECLARE:
            return True
        return (seat - self.leader) % PLAYERS < (self.current - self.leader) % PLAYERS

    def _play(self, card: int) -> None:
        p = self.current
        self.hands[p].remove(card)
        self.loc[card] = TRICK
        self.by[card] = p
        self.trick.append(card)
        if self.best < 0 or beats(card, self.best):
            self.best, self.best_seat = card, p
        if self.log is not None:
            self._event(events.PLAY, player=p, card=card_name(card))
        if len(self.trick) < PLAYERS:
            self.current = (p + 1) % PLAYERS
            return
        winner = self.best_seat
        taken = WON + winner
        for c in self.trick:
            self.loc[c] = taken
        won = sum(POINTS[c] for c in self.trick)
        self.points[winner] += won
        self.tricks.append((self.trick_leader, tuple(self.trick), winner))
        if self.log is not None:
            names = [card_name(c) for c in self.trick]
            self._event(events.TRICK, winner=winner, cards=names, points=won)
        self.trick = []
        self.best = self.best_seat = -1
        self.current = self.trick_leader = winner
        if len(self.tricks) == TRICKS:
            self._end_hand()

    # ------------------------------------------------------------------ scoring
    def _end_hand(self) -> None:
        """53 of the 104 points wins. A team's winners each take one victory card from each
        loser; a soloist takes or pays 2 per opponent (1 for a silent one under
        ``silent_scoring="team"``). 52-52 per ``rules.tie``."""
        side = self.side
        queens = sum(pts for p, pts in enumerate(self.points) if side[p] == 0)
        self.side_points = [queens, TOTAL_POINTS - queens]
        if queens >= TO_WIN:
            winner = 0
        elif TOTAL_POINTS - queens >= TO_WIN or self.rules.tie == "queens_lose":
            winner = 1
        else:
            winner = -1
        delta = [0] * PLAYERS
        if winner >= 0:
            solo = self.decision in (SOLO, SILENT)
            stake = 1 if self.decision == SILENT and self.rules.silent_scoring == "team" else 2
            for p in range(PLAYERS):
                sign = 1 if side[p] == winner else -1
                if not solo:
                    delta[p] = 2 * sign  # one from (or to) each of the two on the other side
                elif side[p] == 0:
                    delta[p] = 3 * stake * sign
                else:
                    delta[p] = stake * sign
        self.hand_delta = delta
        for p in range(PLAYERS):
            self.vc[p] += delta[p]
        if self.log is not None:
            self._event(
                events.HAND_END,
                hand=self.hand_no,
                side=side[:],
                points=self.side_points[:],
                winner=None if winner < 0 else winner,
                change=delta,
                victory_cards=self.vc[:],
            )
        if self.rules.single_hand:
            self._end_game(scores=delta[:])
        elif min(self.vc) <= 0:
            self._end_game(scores=self.vc[:])
        elif self.hand_no + 1 >= self.rules.max_hands:
            self._end_game(truncated=True, victory_cards=self.vc[:])
        else:
            self.hand_no += 1
            self._deal()

    def outcome(self) -> Outcome | None:
        """Single hand: the winning side first (partners share a place; 52-52 ties all);
        scores are the hand's victory-card changes. Whole game: places by victory cards."""
        if self.phase != OVER or self.truncated:
            return None
        if self.rules.single_hand:
            extra = {"points": self.side_points[:]}
            return outcome_by_scores(self.hand_delta, teams=tuple(self.side), extra=extra)
        return outcome_by_scores(self.vc, extra={"hands": self.hand_no + 1})

    # ------------------------------------------------------------------ copies and views

    def public_call(self, seat: int) -> int:
        """The decision ``seat`` knows of: a call or solo (public), or its own silence."""
        if self.decision in (CALL, SOLO) or (self.decision == SILENT and seat == self.decider):
            return self.decision
        return -1

    def view(self, seat: int) -> KopView:
        call = self.public_call(seat)
        declaring = self.current if self.phase == DECLARE else -1
        deciding = declaring == seat == self.decider
        return KopView(
            seat=seat,
            legal=tuple(self.legal_actions()) if seat == self.current else (),
            hand=tuple(self.hands[seat]),
            hand_no=self.hand_no,
            leader=self.leader,
            trick=tuple(((self.trick_leader + i) % PLAYERS, c) for i, c in enumerate(self.trick)),
            tricks=tuple(self.tricks),
            played_by=tuple(-1 if b == NOBODY else b for b in self.by),
            points=tuple(self.points),
            victory_cards=tuple(self.vc),
            caller=self.decider if call >= 0 or deciding else -1,
            call=CHOICE_NAMES.get(call),
            called_jack=self.called_jack if call == CALL else -1,
            declaring=declaring,
            deciding=deciding,
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """The cards ``seat`` cannot see re-dealt among the other hands, counts kept, within
        everything public: voids and must-win refusals shown by the play, and a public
        caller's black queens and jacks (``core.deal.constrained_deal``). A pass is no
        constraint: it is what a seat without both black queens, or a silent holder,
        announces."""
        c = self._unseen_copy(rng)
        if c.phase == OVER:
            return c
        others = [p for p in range(PLAYERS) if p != seat]
        hidden = [card for p in others for card in self.hands[p]]
        forbidden = self._forbidden()
        for card, p in self._required(seat).items():
            for q in others:
                if q != p:
                    forbidden[q].add(card)
        room = {p: len(self.hands[p]) for p in others}
        deal = constrained_deal(hidden, others, forbidden, room, rng)
        assert deal is not None, "the true deal satisfies every constraint"
        for p in others:
            c.hands[p] = sorted(card for card in hidden if deal[card] == p)
            for card in c.hands[p]:
                c.loc[card] = HAND + p
        if self.decision not in (CALL, SOLO):
            # no public announcement: the new deal's holder of both black queens (if any) is
            # silent if its turn to declare has passed (a pass looks the same), else still to
            # choose; the seat's own hand is kept, so its own choice stays as it was
            owners = {c._owner(q) for q in BLACK_QUEENS}
            c.decider = owners.pop() if len(owners) == 1 else -1
            c.decision = SILENT if c.decider >= 0 and c._declared(c.decider) else -1
        if c.phase != DECLARE:
            c.side = c._sides()
        return c

    def _forbidden(self) -> list[set[int]]:
        """Per seat, cards it cannot hold: a suit it did not follow (and trumps when it did not
        trump), and the cards of its allowed suit that would have taken a trick it let go."""
        forbidden: list[set[int]] = [set() for _ in range(PLAYERS)]
        plays = [(lead, cards) for lead, cards, _ in self.tricks]
        if self.trick:
            plays.append((self.trick_leader, tuple(self.trick)))
        for lead, cards in plays:
            led = SUIT_OF[cards[0]]
            best = cards[0]
            for i in range(1, len(cards)):
                card = cards[i]
                gone = forbidden[(lead + i) % PLAYERS]
                suit = SUIT_OF[card]
                if suit != led:
                    gone |= SUIT_CARDS[led]
                    if suit != TRUMP:
                        gone |= SUIT_CARDS[TRUMP]
                if beats(card, best):
                    best = card
                elif suit in (led, TRUMP):
                    gone |= BEATERS[best] & SUIT_CARDS[suit]
                else:
                    gone |= BEATERS[best]
        return forbidden

    def _required(self, seat: int) -> dict[int, int]:
        """Unplayed cards a public call puts in the caller's hand: both black queens, and for
        a jack call the higher jacks it skipped (the called jack itself is not theirs)."""
        if self.decision not in (CALL, SOLO) or self.decider == seat:
            return {}
        cards = list(BLACK_QUEENS)
        if self.decision == CALL:
            cards += JACKS_HIGH_FIRST[: JACKS_HIGH_FIRST.index(self.called_jack)]
        return {card: self.decider for card in cards if self.by[card] == NOBODY}
