"""The Whist 22 rules engine: a mutable state with a cheap ``clone()``.

This is the readable reference (``engine="python"``); the compiled core ``_compiled.pyx``,
the default engine (game.py), mirrors it method by method.

No RL imports here. Each rule is decided in one method; RULES.md (section Whist 22) points at
them. The state is plain lists and ints plus one ``loc`` bytearray (where each of the 22
cards is), so the observation encoder can turn card locations into one-hot blocks with
``bytes.translate`` and search can clone cheaply.

Cards and actions share numbers: card ``c`` (0 = the Fool, 1..21 = the numbered trumps) is
played by action ``c``, except that the Fool has two actions, ``FOOL_LOW`` (0, "Fool=0") and
``FOOL_HIGH`` (22, "Fool=22"): an action of 0..22 is the value the card counts for. Action
``BID + b`` bids ``b`` tricks.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import events
from ...core.deck import hand_deck
from ...core.game import Outcome, outcome_by_scores, places_from_scores
from ...core.state import EngineState

if TYPE_CHECKING:
    from .game import WhistGame

NUM_CARDS = 22
FOOL = 0  # the card id of the Fool (ids 1..21 are the numbered trumps)
FOOL_LOW = 0  # action: play the Fool declared 0
FOOL_HIGH = 22  # action: play the Fool declared 22
BID = 23  # action BID + b: bid b tricks

# Values of State.loc: where each card is.
HAND = 0  # HAND + p: in player p's hand
PLAYED = 4  # PLAYED + p: played by p in a finished trick of this hand
TRICK = 8  # TRICK + p: played by p to the current trick
ASIDE = 12  # set aside unseen for this hand

BIDDING, PLAYING, OVER = 0, 1, 2
PHASE_NAMES = ("bid", "play", "over")


def card_name(card: int) -> str:
    """``"Fool"`` or the trump's number as a string."""
    if type(card) is not int or not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id must be 0..{NUM_CARDS - 1}, got {card!r}")
    return "Fool" if card == FOOL else str(card)


def card_id(name: str) -> int:
    """The card named ``name``: "Fool" (also "F", any case) or "1".."21"."""
    text = name.strip() if isinstance(name, str) else ""
    if text.lower() in ("fool", "f"):
        return FOOL
    if text.isdigit() and 1 <= int(text) <= 21 and text[0] != "0":
        return int(text)
    raise ValueError(f"unknown card {name!r}: the cards are 'Fool' (or 'F') and '1'..'21'")


def action_name(action: int) -> str:
    if action == FOOL_LOW:
        return "Fool=0"
    if action == FOOL_HIGH:
        return "Fool=22"
    if action < BID:
        return str(action)
    return f"bid {action - BID}"


class WhistView(NamedTuple):
    """What one seat may know: its hand and the public memory a careful player keeps.

    Player-indexed tuples are by absolute seat. ``bids`` holds -1 for players yet to bid;
    ``trick`` is the current trick as (player, value) pairs in play order (the Fool's value
    is 0 or 22 as declared); ``played`` is every card each player has played this hand, the
    current trick included, in play order; ``fool`` is the Fool's declared value this hand or
    -1 if it has not been played; ``forbidden_bid`` is the bid the hook rule denies the
    player to bid now, or -1.
    """

    seat: int
    legal: tuple[int, ...]
    hand: tuple[int, ...]
    phase: str
    current: int
    hand_number: int
    hand_size: int
    dealer: int
    leader: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    played: tuple[tuple[int, ...], ...]
    fool: int
    forbidden_bid: int
    scores: tuple[int, ...]


class State(EngineState):
    """A Whist 22 game in progress; build it with ``WhistGame.new_state``.

    Hands are kept sorted by card id, so the Fool (id 0) is first when held and the legal
    plays are the hand itself (plus ``FOOL_HIGH``) in increasing order.
    """

    __slots__ = (
        "best",
        "best_player",
        "bid_total",
        "bids",
        "bids_made",
        "first",
        "fool",
        "hand_no",
        "hands",
        "leader",
        "loc",
        "phase",
        "played",
        "scores",
        "size",
        "trick",
        "tricks_played",
        "won",
    )
    COPIED = ("bids", "loc", "scores", "trick", "won")
    NESTED = ("hands", "played")

    def __init__(self, game: WhistGame, deck: list[int], seed: Any, log: bool = False) -> None:
        n = game.num_players
        super().__init__(game, n, deck, seed, log)  # never truncated: the game always ends
        self.scores = [game.rules.start_score] * n
        self.hand_no = 0
        self._deal()

    # ------------------------------------------------------------------ hands
    def _deal(self) -> None:
        """Deal hand ``hand_no``: one card at a time from the dealer's left, the rest aside."""
        n = self.n
        k = self.hand_no
        size = self.game.hand_size(k)
        cards = hand_deck(self.deck, self.seed, k, NUM_CARDS)
        first = k % n  # left of the dealer: first to bid and to lead
        hands: list[list[int]] = [[] for _ in range(n)]
        loc = bytearray([ASIDE]) * NUM_CARDS
        for i in range(n * size):
            p = (first + i) % n
            hands[p].append(cards[i])
            loc[cards[i]] = HAND + p
        for hand in hands:
            hand.sort()
        self.size = size
        self.first = first
        self.hands = hands
        self.loc = loc
        self.bids = [-1] * n
        self.bid_total = 0
        self.bids_made = 0
        self.won = [0] * n
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, int]] = []
        self.best = -1
        self.best_player = -1
        self.tricks_played = 0
        self.fool = -1
        self.leader = first
        self.current = first
        self.phase = BIDDING
        if self.log is not None:
            self._event(
                events.DEAL,
                hand=k,
                size=size,
                dealer=(first - 1) % n,
                hands=[[card_name(c) for c in h] for h in hands],
                aside=[card_name(c) for c in cards[n * size :]],
            )

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def dealer(self) -> int:
        return (self.first - 1) % self.n

    def forbidden_bid(self) -> int:
        """The bid the hook rule denies the dealer (the last bidder) now, or -1."""
        if self.phase != BIDDING or self.bids_made != self.n - 1 or not self.game.rules.hook:
            return -1
        rest = self.size - self.bid_total
        return rest if rest >= 0 else -1

    def _legal(self) -> list[int]:
        phase = self.phase
        if phase == PLAYING:
            hand = self.hands[self.current]
            return [*hand, FOOL_HIGH] if hand[0] == FOOL else hand[:]
        if phase == BIDDING:
            bids = list(range(BID, BID + self.size + 1))
            forbidden = self.forbidden_bid()
            if forbidden >= 0:
                del bids[forbidden]
            return bids
        return []

    def outcome(self) -> Outcome | None:
        """Places by final score (highest first, equal scores share), once the game is over."""
        if self.phase != OVER:
            return None
        return outcome_by_scores(self.scores, extra={"hands": self.hand_no})

    # ------------------------------------------------------------------ apply
    def _bid(self, bid: int) -> None:
        """Bids go once round from the dealer's left; the dealer's bid starts the play."""
        p = self.current
        self.bids[p] = bid
        self.bid_total += bid
        self.bids_made += 1
        if self.log is not None:
            self._event(events.BID, player=p, bid=bid)
        if self.bids_made == self.n:
            self.phase = PLAYING
            self.current = self.first
        else:
            self.current = (p + 1) % self.n

    def _act(self, value: int) -> None:
        """Any card may be played; the highest value (the Fool as declared) wins the trick.
        A bid is ``_bid``'s (the play is here, not in a method of its own: one call less on
        the hot path)."""
        if value >= BID:
            self._bid(value - BID)
            return
        p = self.current
        card = FOOL if value == FOOL_HIGH else value
        self.hands[p].remove(card)
        self.loc[card] = TRICK + p
        self.played[p].append(card)
        self.trick.append((p, value))
        if card == FOOL:
            self.fool = value
        if value > self.best:
            self.best = value
            self.best_player = p
        if self.log is not None:
            self._event(events.PLAY, player=p, card=card_name(card), value=value)
        if len(self.trick) == self.n:
            self._end_trick()
        else:
            self.current = (p + 1) % self.n

    def _end_trick(self) -> None:
        winner = self.best_player
        self.won[winner] += 1
        loc = self.loc
        for q, value in self.trick:
            loc[FOOL if value == FOOL_HIGH else value] = PLAYED + q
        if self.log is not None:
            self._event(events.TRICK, winner=winner, value=self.best)
        self.trick = []
        self.best = -1
        self.tricks_played += 1
        if self.tricks_played == self.size:
            self._end_hand()
        else:
            self.leader = self.current = winner

    def _end_hand(self) -> None:
        """A missed bid costs one point per trick over or under; then end or deal again."""
        rules = self.game.rules
        lost = [abs(w - b) for w, b in zip(self.won, self.bids, strict=True)]
        scores = self.scores
        for p in range(self.n):
            scores[p] -= lost[p]
            if rules.floor_at_zero and scores[p] < 0:
                scores[p] = 0
        if self.log is not None:
            self._event(
                events.HAND_END,
                hand=self.hand_no,
                bids=self.bids[:],
                tricks=self.won[:],
                lost=lost,
                scores=scores[:],
            )
        self.hand_no += 1
        if min(scores) <= 0 or self.hand_no == rules.max_hands:
            self.phase = OVER
            if self.log is not None:
                self._event(events.GAME_OVER, scores=scores[:], places=places_from_scores(scores))
        else:
            self._deal()

    # ------------------------------------------------------------------ information
    def view(self, seat: int) -> WhistView:
        """What ``seat`` may know (see ``WhistView``)."""
        over = self.phase == OVER
        return WhistView(
            seat=seat,
            legal=tuple(self.legal_actions()) if seat == self.current and not over else (),
            hand=tuple(self.hands[seat]),
            phase=PHASE_NAMES[self.phase],
            current=self.current,
            hand_number=self.hand_no,
            hand_size=self.size,
            dealer=self.dealer,
            leader=self.leader,
            bids=tuple(self.bids),
            tricks=tuple(self.won),
            trick=tuple(self.trick),
            played=tuple(tuple(p) for p in self.played),
            fool=self.fool,
            forbidden_bid=self.forbidden_bid(),
            scores=tuple(self.scores),
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view(seat)``: the other hands and the cards set
        aside re-dealt at random among themselves (counts kept), no history, log or deck
        order, and a fresh seed so later hands are unknown too. Play never reveals anything
        about a hand beyond the cards it played (any card may be played), so a uniform
        re-deal is exactly the seat's belief."""
        c = self._unseen_copy(rng)
        loc = c.loc
        hidden = [card for card in range(NUM_CARDS) if loc[card] < PLAYED and loc[card] != seat]
        hidden += [card for card in range(NUM_CARDS) if loc[card] == ASIDE]
        rng.shuffle(hidden)
        start = 0
        for p in range(c.n):
            if p == seat:
                continue
            count = len(c.hands[p])
            hand = sorted(hidden[start : start + count])
            start += count
            c.hands[p] = hand
            for card in hand:
                loc[card] = HAND + p
        for card in hidden[start:]:
            loc[card] = ASIDE
        return c
