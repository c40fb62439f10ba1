"""The Teka rules engine: a mutable game state with a cheap ``clone()``.

This is the readable reference (``engine="python"``); the compiled core ``_compiled.pyx``,
the default engine (game.py), mirrors it method by method.

No RL imports here. Each rule is decided in one method; RULES.md (section Teka) points at
them. Card locations live in two bytearrays so the observation is a few ``bytes.translate``
calls: ``loc`` (in a hand, in the trick, or played in a finished trick: the truth) and ``by``
(who played each card this hand, ``NOBODY`` if unplayed: public).

Cards are the suite's 52 (``koira_env.cards``): ``suit * 13 + rank``, suits C D H S, ranks 2
(0) to A (12), so within a suit a higher id is a higher card and a sorted hand holds each
suit's cards together.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from ...cards import NUM_CARDS, SUIT_OF, card_name
from ...core import events
from ...core.deal import constrained_deal
from ...core.deck import hand_deck
from ...core.game import Outcome, outcome_by_scores
from ...core.state import EngineState

# --- actions ----------------------------------------------------------------------------------
# 0..51 play that card; then the calls, the trump suits, the raises and the new-deal round.
PASS, TER, BEHI_TER = 52, 53, 54
BID = 55  # BID + (b - 8): bid b tricks, b = 8..13
DOUBLE = 61  # "double thirteen": all 13 tricks, alone
TRUMP = 62  # TRUMP + suit: name trumps (clubs, diamonds, hearts, spades)
RAISE = 66  # RAISE + (b - 9): raise the contract to b tricks, b = 9..13
KEEP, NEW_DEAL = 71, 72
NUM_ACTIONS = 73
MIN_BID = 8
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_NAMES = {PASS: "pass", TER: "ter", BEHI_TER: "behi ter", DOUBLE: "double 13"}
_NAMES.update({BID + b - MIN_BID: f"bid {b}" for b in range(MIN_BID, 14)})
_NAMES.update({TRUMP + s: f"trump {word}" for s, word in enumerate(SUIT_WORDS)})
_NAMES.update({RAISE + b - 9: f"raise {b}" for b in range(9, 14)})
_NAMES.update({KEEP: "keep", NEW_DEAL: "new deal"})


def action_name(action: int) -> str:
    """A card's name (``"QS"``) or a call (``"bid 9"``, ``"double 13"``, ``"trump hearts"``)."""
    return card_name(action) if action < NUM_CARDS else _NAMES[action]


def call_value(call: int) -> int:
    """The strength of an auction call: 0 for the passes, b for ``bid b``, 14 for double 13."""
    if call == DOUBLE:
        return 14
    return call - BID + MIN_BID if call >= BID else 0


# --- card locations (values of State.loc) -----------------------------------------------------
HAND = 0  # HAND + p: in player p's hand
TRICK = 4  # in the trick being played
PLAYED = 5  # in a finished trick of this hand
NOBODY = 4  # State.by of an unplayed card

ASK, BIDDING, TRUMPS, PLAY, OVER = range(5)
PHASE_NAMES = ("ask", "bid", "trump", "play", "over")
PLAYERS = 4
HAND_SIZE = 13
TRICKS = 13
HONOURS = tuple(c for c in range(NUM_CARDS) if c % 13 >= 9)  # J, Q, K, A
HONOURS_SET = frozenset(HONOURS)
IS_HONOUR = tuple(c % 13 >= 9 for c in range(NUM_CARDS))
SUIT_CARDS = tuple(frozenset(range(13 * s, 13 * s + 13)) for s in range(4))


def has_honour(cards: Any) -> bool:
    """Whether a hand holds an ace, king, queen or jack."""
    return any(IS_HONOUR[c] for c in cards)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes a trick now won by ``best``: higher in its suit, or a trump."""
    suit = SUIT_OF[card]
    if suit == SUIT_OF[best]:
        return card > best
    return suit == trump


class TekaView(NamedTuple):
    """What one seat may know: its hand and the public table.

    Player-indexed tuples are by absolute seat. ``calls`` holds each seat's auction call
    (an action id) or -1 if it has not spoken; ``contract`` is the number of tricks the
    declarer's side must win now (raises included), 13 for a double thirteen; ``out`` is the
    declarer's partner sitting out a double thirteen, else -1; ``raises`` are (tricks played
    so far, new contract) pairs; ``scores`` are the two sides' points (side 0: players 0 and 2).
    """

    seat: int
    legal: tuple[int, ...]
    hand: tuple[int, ...]
    phase: str
    current: int
    hand_no: int  # 0-based; hand k is dealt by player (k - 1) mod 4, who speaks last
    dealer: int
    first: int  # the first to speak: the dealer's right, the next seat in turn order
    calls: tuple[int, ...]
    declarer: int
    contract: int
    double: bool
    trump: int  # suit 0-3 (C D H S), -1 until named
    out: int
    raises: tuple[tuple[int, int], ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick being played, in order
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner) done
    played_by: tuple[int, ...]  # per card: who played it this hand, -1 if unplayed
    won: tuple[int, ...]  # tricks each seat took this hand
    scores: tuple[int, ...]


class State(EngineState):
    """A game of Teka in progress: build it with ``TekaGame.new_state``; advance with ``apply``."""

    __slots__ = (
        "best",
        "best_seat",
        "by",
        "calls",
        "contract",
        "deal_no",
        "dealer",
        "declarer",
        "double",
        "first",
        "hand_no",
        "hand_points",
        "hands",
        "high",
        "leader",
        "loc",
        "out",
        "phase",
        "raised",
        "raises",
        "rules",
        "scores",
        "trick",
        "tricks",
        "trump",
        "won",
    )
    OVER = OVER
    COPIED = ("by", "calls", "hand_points", "loc", "raises", "scores", "trick", "tricks", "won")
    NESTED = ("hands",)

    def __init__(self, game: Any, deck: list[int], seed: Any, log: bool = False) -> None:
        super().__init__(game, PLAYERS, deck, seed, log)
        self.rules = game.rules
        self.scores = [0, 0]
        self.hand_points = [0, 0]
        self.hand_no = 0
        self.deal_no = 0
        self._deal()

    # ------------------------------------------------------------------ dealing
    def _deal(self) -> None:
        """Hand k is dealt by player (k - 1) mod 4: a fresh deck (``hand_deck``, one per deal,
        redeals included), 13 cards at once to each player, starting with the first speaker,
        player k mod 4 (the dealer's right; play goes round in seat order). With
        ``no_honours="redeal"`` a deal giving someone no ace, king, queen or jack is replaced
        at once by the next deck."""
        first = self.hand_no % PLAYERS
        while True:
            order = hand_deck(self.deck, self.seed, self.deal_no, NUM_CARDS)
            hands = [
                sorted(order[HAND_SIZE * i : HAND_SIZE * (i + 1)])
                for i in ((p - first) % PLAYERS for p in range(PLAYERS))
            ]
            if self.rules.no_honours != "redeal" or all(has_honour(h) for h in hands):
                break
            if self.log is not None:
                poor = [p for p in range(PLAYERS) if not has_honour(hands[p])]
                self._event("redeal", hand=self.hand_no, deal=self.deal_no, players=poor)
            self.deal_no += 1
        self.first = first
        self.dealer = (first - 1) % PLAYERS
        self.hands = hands
        self.loc = bytearray(NUM_CARDS)
        for p, hand in enumerate(hands):
            for card in hand:
                self.loc[card] = HAND + p
        self.by = bytearray([NOBODY]) * NUM_CARDS
        self.calls = [-1] * PLAYERS
        self.high = 0
        self.declarer = -1
        self.double = False
        self.contract = 0
        self.trump = -1
        self.out = -1
        self.raises: list[tuple[int, int]] = []
        self.raised = False
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.won = [0] * PLAYERS
        self.best = self.best_seat = -1
        self.leader = first
        self.cached_legal = None
        self.phase = ASK if self.rules.no_honours == "ask" else BIDDING
        self.current = first
        if self.log is not None:
            names = [[card_name(c) for c in h] for h in hands]
            self._event(
                events.DEAL, hand=self.hand_no, deal=self.deal_no, dealer=self.dealer, hands=names
            )

    def next_seat(self, p: int) -> int:
        """The next seat in turn order, skipping a double thirteen's partner."""
        p = (p + 1) % PLAYERS
        return (p + 1) % PLAYERS if p == self.out else p

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _legal(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_play()
        if phase == BIDDING:
            return self._legal_calls()
        if phase == TRUMPS:
            hand = self.hands[self.current]
            return [TRUMP + s for s in range(4) if any(SUIT_OF[c] == s for c in hand)]
        if phase == ASK:
            return [KEEP] if has_honour(self.hands[self.current]) else [KEEP, NEW_DEAL]
        return []

    def _legal_play(self) -> list[int]:
        """Follow the led suit if able, else any card; the declarer leads a trump to the first
        trick (it named a suit it holds). At each of its turns, before its card, the declarer
        may raise a number contract (``raise_targets``)."""
        hand = self.hands[self.current]
        trick = self.trick
        if trick:
            led = SUIT_OF[trick[0]]
            cards = [c for c in hand if SUIT_OF[c] == led] or hand[:]
        elif not self.tricks:
            trump = self.trump
            cards = [c for c in hand if SUIT_OF[c] == trump]
        else:
            cards = hand[:]
        if self.current == self.declarer:
            cards += [RAISE + b - 9 for b in self.raise_targets()]
        return cards

    def tricks_to_go(self) -> tuple[int, int]:
        """(tricks the declaring side still needs to make the contract, tricks the other side
        still needs to beat it): the hand is decided when either is 0. During the auction, for
        the highest call so far; (0, 0) before any bid."""
        if self.declarer < 0:
            return 0, 0
        side = self.declarer % 2
        taken = self.won[side] + self.won[side + 2]
        lost = len(self.tricks) - taken
        return max(0, self.contract - taken), max(0, TRICKS - self.contract + 1 - lost)

    def raise_targets(self) -> range:
        """The contracts the declarer may raise to now: above the current one, at most 13 and
        still within reach (tricks won by its side plus tricks left); once per turn, and once
        per hand under ``raises="once"``; never for a double thirteen."""
        rules = self.rules
        if (
            self.raised
            or self.double
            or rules.raises == "never"
            or (rules.raises == "once" and self.raises)
        ):
            return range(0)
        side = self.declarer % 2
        reach = self.won[side] + self.won[side + 2] + TRICKS - len(self.tricks)
        return range(self.contract + 1, min(13, reach) + 1)

    def _legal_calls(self) -> list[int]:
        """One call each, from the first speaker: a pass (with ``pass_signals``, the first two
        speakers also have "ter" and "behi ter"), a number above the highest number so far
        (none after a double thirteen), or double thirteen, which beats everything before it,
        an earlier double thirteen included. Under ``all_pass="dealer"`` the dealer may not
        pass after three passes."""
        p = self.current
        calls = []
        if not (self.rules.all_pass == "dealer" and p == self.dealer and self.declarer < 0):
            calls.append(PASS)
            if self.rules.pass_signals and (p - self.first) % PLAYERS < 2:
                calls += (TER, BEHI_TER)
        if not self.double:
            calls += range(BID + max(MIN_BID, self.high + 1) - MIN_BID, DOUBLE)
        calls.append(DOUBLE)
        return calls

    # ------------------------------------------------------------------ acting
    def _act(self, action: int) -> None:
        if action < NUM_CARDS:
            self._play(action)
        elif action < TRUMP:
            self._call(action)
        elif action < RAISE:
            self._name_trump(action - TRUMP)
        elif action < KEEP:
            self._raise(action - RAISE + 9)
        else:
            self._ask(action)

    def _ask(self, action: int) -> None:
        """``no_honours="ask"``: each seat in turn keeps its hand or, holding no ace, king,
        queen or jack, asks for a new deal (the same dealer deals again)."""
        p = self.current
        if self.log is not None:
            self._event("ask", player=p, choice=action_name(action))
        if action == NEW_DEAL:
            self.deal_no += 1
            self._deal()
            return
        self.current = (p + 1) % PLAYERS
        if self.current == self.first:
            self.phase = BIDDING

    def _call(self, call: int) -> None:
        """Record one auction call; after the dealer's, the highest bidder names trumps (a
        double thirteen's partner sits out), or with no bid the hand is thrown in."""
        p = self.current
        self.calls[p] = call
        if call == DOUBLE:
            self.declarer, self.double, self.contract = p, True, 13
        elif call >= BID:
            self.high = self.contract = call - BID + MIN_BID
            self.declarer = p
        if self.log is not None:
            self._event("call", player=p, call=action_name(call))
        if p != self.dealer:
            self.current = (p + 1) % PLAYERS
        elif self.declarer < 0:
            if self.log is not None:
                self._event("throw_in", hand=self.hand_no)
            self.hand_points = [0, 0]
            self._next_hand(played=False)
        else:
            if self.double:
                self.out = (self.declarer + 2) % PLAYERS
            self.phase = TRUMPS
            self.current = self.declarer

    def _name_trump(self, suit: int) -> None:
        self.trump = suit
        if self.log is not None:
            self._event("trump", player=self.current, suit=SUIT_WORDS[suit])
        self.phase = PLAY
        self.leader = self.current

    def _raise(self, bid: int) -> None:
        """The declarer's side now needs ``bid`` tricks; the declarer still plays its card."""
        self.contract = bid
        self.raised = True
        self.raises.append((len(self.tricks), bid))
        if self.log is not None:
            self._event("raise", player=self.current, contract=bid)

    def _play(self, card: int) -> None:
        p = self.current
        self.raised = False
        self.hands[p].remove(card)
        self.loc[card] = TRICK
        self.by[card] = p
        self.trick.append(card)
        if self.best < 0 or beats(card, self.best, self.trump):
            self.best, self.best_seat = card, p
        if self.log is not None:
            self._event(events.PLAY, player=p, card=card_name(card))
        if len(self.trick) < (3 if self.double else PLAYERS):
            self.current = self.next_seat(p)
            return
        winner = self.best_seat
        for c in self.trick:
            self.loc[c] = PLAYED
        self.won[winner] += 1
        self.tricks.append((self.leader, tuple(self.trick), winner))
        if self.log is not None:
            names = [card_name(c) for c in self.trick]
            self._event(events.TRICK, winner=winner, cards=names)
        self.trick = []
        self.best = self.best_seat = -1
        self.current = self.leader = winner
        to_make, to_beat = self.tricks_to_go()
        if len(self.tricks) == TRICKS or (self.rules.early_end and not (to_make and to_beat)):
            self._end_hand(not to_make)

    # ------------------------------------------------------------------ scoring
    def _end_hand(self, made: bool) -> None:
        """A made contract scores its number of tricks for the declarer's side (26 for a
        double thirteen); a failed one scores for the opponents by ``failed_bid`` (52 for a
        double thirteen)."""
        side = self.declarer % 2
        if made:
            scorer, points = side, 26 if self.double else self.contract
        else:
            scorer = 1 - side
            if self.double:
                points = 52
            else:
                points = {"opponents": 1, "double": 2, "nothing": 0}[self.rules.failed_bid]
                points *= self.contract
        self.hand_points = [0, 0]
        self.hand_points[scorer] = points
        self.scores[scorer] += points
        if self.log is not None:
            self._event(
                events.HAND_END,
                hand=self.hand_no,
                declarer=self.declarer,
                contract=self.contract,
                double=self.double,
                tricks=self.won[side] + self.won[side + 2],
                made=made,
                points=self.hand_points[:],
                scores=self.scores[:],
            )
        self._next_hand(played=True)

    def _next_hand(self, played: bool) -> None:
        """The game ends after the hand in which a side reaches ``target`` (or after the first
        played hand with ``single_hand``); else the deal passes to the first speaker."""
        rules = self.rules
        if (rules.single_hand and played) or max(self.scores) >= rules.target:
            self._end_game(scores=self.scores[:])
        elif self.hand_no + 1 >= rules.max_hands:
            self._end_game(truncated=True, scores=self.scores[:])
        else:
            self.hand_no += 1
            self.deal_no += 1
            self._deal()

    def outcome(self) -> Outcome | None:
        """Sides share places (``teams``: side 0 is players 0 and 2). Whole game: by points,
        the side that reached ``target`` first; single hand: by the hand's points."""
        if self.phase != OVER or self.truncated:
            return None
        team = self.hand_points if self.rules.single_hand else self.scores
        scores = [team[p % 2] for p in range(PLAYERS)]
        extra = {"hands": self.hand_no + 1, "points": self.scores[:]}
        return outcome_by_scores(scores, teams=(0, 1, 0, 1), extra=extra)

    # ------------------------------------------------------------------ copies and views

    def view(self, seat: int) -> TekaView:
        leader = self.leader
        trick = []
        p = leader
        for card in self.trick:
            trick.append((p, card))
            p = self.next_seat(p)
        return TekaView(
            seat=seat,
            legal=tuple(self.legal_actions()) if seat == self.current else (),
            hand=tuple(self.hands[seat]),
            phase=PHASE_NAMES[self.phase],
            current=self.current,
            hand_no=self.hand_no,
            dealer=self.dealer,
            first=self.first,
            calls=tuple(self.calls),
            declarer=self.declarer,
            contract=self.contract,
            double=self.double,
            trump=self.trump,
            out=self.out,
            raises=tuple(self.raises),
            trick=tuple(trick),
            tricks=tuple(self.tricks),
            played_by=tuple(-1 if b == NOBODY else b for b in self.by),
            won=tuple(self.won),
            scores=tuple(self.scores),
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """The cards ``seat`` cannot see re-dealt among the other hands (a double thirteen's
        idle partner included), counts kept, within everything public: the suits a seat
        showed it lacks, a trump in the declarer's hand until it leads one, and (under
        ``no_honours="redeal"``) an honour in every hand as dealt."""
        c = self._unseen_copy(rng)
        if c.phase == OVER:
            return c
        others = [p for p in range(PLAYERS) if p != seat]
        hidden = [card for p in others for card in self.hands[p]]
        needs: list[tuple[int, frozenset[int]]] = []
        if self.rules.no_honours == "redeal":
            shown = {self.by[card] for card in HONOURS}
            needs += [(p, HONOURS_SET) for p in others if p not in shown]
        if self.phase == PLAY and not self.tricks and not self.trick and self.declarer != seat:
            needs.append((self.declarer, SUIT_CARDS[self.trump]))
        room = {p: len(self.hands[p]) for p in others}
        deal = constrained_deal(hidden, others, self._voids(), room, rng, needs)
        assert deal is not None, "the true deal satisfies every constraint"
        for p in others:
            c.hands[p] = sorted(card for card in hidden if deal[card] == p)
            for card in c.hands[p]:
                c.loc[card] = HAND + p
        return c

    def _voids(self) -> dict[int, set[int]]:
        """Per seat, the cards it cannot hold: every suit it failed to follow this hand."""
        forbidden: dict[int, set[int]] = {p: set() for p in range(PLAYERS)}
        plays = [(lead, cards) for lead, cards, _ in self.tricks]
        if self.trick:
            plays.append((self.leader, tuple(self.trick)))
        for lead, cards in plays:
            led = SUIT_OF[cards[0]]
            p = lead
            for card in cards[1:]:
                p = self.next_seat(p)
                if SUIT_OF[card] != led:
                    forbidden[p] |= SUIT_CARDS[led]
        return forbidden
