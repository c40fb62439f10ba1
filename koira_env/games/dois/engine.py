"""The Dois rules engine: a mutable game state with a cheap ``clone()``.

This is the readable reference (``engine="python"``); the compiled core ``_compiled.pyx``,
the default engine (game.py), mirrors it method by method.

No RL imports here. Each rule is decided in one method; RULES.md (section Dois) points at
them. Hands, the undealt cards and the played cards are counts per card kind (copies are
interchangeable: ``cards``), kept in bytearrays so the observation is a few ``bytes`` calls.
What each player shows is two ints: ``suit[p]`` (a suit 0-3, -1 before the first trick) and
``number[p]`` (1-8, 0 before).

Actions: 0-3 play a suit card (R Y G B), 4-11 a number card (1-8), ``BID + b`` bids b tricks.
In the first trick a player plays two cards as two actions, the suit card first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import factorial
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import events
from ...core.deck import hand_deck
from ...core.game import Outcome, outcome_by_scores, places_from_scores
from ...core.state import EngineState
from . import SPEC
from .cards import (
    COPIES,
    COPY_IDS,
    DECK_SIZE,
    HAND_SIZE,
    KIND_NAMES,
    KIND_OF,
    MIN_OF_EACH,
    NUM_KINDS,
    NUM_SUITS,
    PLAY_CARDS,
    SUITS,
    TRUMP_CARD,
    kind_names,
)

if TYPE_CHECKING:
    from .game import DoisGame

TRICKS = HAND_SIZE - 1  # the first trick takes two cards from each hand, the others one
BID = NUM_KINDS  # action BID + b: bid b tricks
NUM_ACTIONS = BID + TRICKS + 1
NUMBERS_VOID = 1 << NUM_SUITS  # bit of State.void: no number card left in that hand
SUIT_KINDS = range(NUM_SUITS)
NUMBER_KINDS = range(NUM_SUITS, NUM_KINDS)
TRUMP_BLOCK = 4  # the trump pile is reshuffled after every fourth hand

BIDDING, FIRST, PLAYING, OVER = 0, 1, 2, 3
PHASE_NAMES = ("bid", "first trick", "play", "over")
SHUFFLE_TRIES = 12  # determinize: plain shuffles tried before the constructive deal
SEARCH_STEPS = 2_000  # determinize: steps of the constructive deal before it starts again


def action_name(action: int) -> str:
    """``"R"`` .. ``"B"`` (a suit card), ``"1"`` .. ``"8"`` (a number card), ``"bid 3"``."""
    return KIND_NAMES[action] if action < BID else f"bid {action - BID}"


# [table size][leader]: the players in play order from the leader
PLAY_ORDER = {
    n: [tuple((lead + i) % n for i in range(n)) for lead in range(n)]
    for n in range(SPEC.players[0], SPEC.players[1] + 1)
}


def trick_winner(suits: Sequence[int], numbers: Sequence[int], leader: int, trump: int) -> int:
    """Who takes a trick, from what everyone shows: the highest number shown with the trump
    suit if anyone shows the trump suit, else the highest number shown with the lead suit (the
    leader's); on a tie the later of the tied players (in play order from the leader). The
    observation asks it of every card the seat may play (``DoisGame``'s ``takes``), so the
    play order comes from a table."""
    target = trump if trump in suits else suits[leader]
    best = winner = -1
    for q in PLAY_ORDER[len(suits)][leader]:
        if suits[q] == target and numbers[q] >= best:
            best, winner = numbers[q], q
    return winner


def _suits(counts: Any) -> int:
    return sum(counts[k] for k in SUIT_KINDS)


def _numbers(counts: Any) -> int:
    return sum(counts[k] for k in NUMBER_KINDS)


def _good(counts: Any) -> bool:
    """A hand to keep: at least 3 suit cards and 3 number cards."""
    return _suits(counts) >= MIN_OF_EACH and _numbers(counts) >= MIN_OF_EACH


def _counts(kinds: list[int]) -> bytearray:
    counts = bytearray(NUM_KINDS)
    for kind in kinds:
        counts[kind] += 1
    return counts


def _orders(counts: Sequence[int]) -> int:
    """How many distinct orders a multiset of kinds has (``counts`` per kind)."""
    total = factorial(sum(counts))
    for c in counts:
        total //= factorial(c)
    return total


def _rank(kinds: Sequence[int], counts: Sequence[int]) -> int:
    """The place of ``kinds`` among every order of its multiset (``counts`` per kind), in
    lexicographic order: 0 to ``_orders(counts) - 1``, each order its own."""
    left = list(counts)
    n = len(kinds)
    total = _orders(left)
    rank = 0
    for kind in kinds:
        for k in range(kind):
            if left[k]:
                rank += total * left[k] // n  # the orders that put kind k here
        total = total * left[kind] // n
        left[kind] -= 1
        n -= 1
    return rank


def _unrank(rank: int, counts: Sequence[int]) -> list[int]:
    """The order of the multiset ``counts`` at place ``rank`` (``_rank``'s inverse)."""
    left = list(counts)
    n = sum(left)
    total = _orders(left)
    kinds = []
    while n:
        k = 0
        while rank >= (block := total * left[k] // n):  # the orders that put kind k here
            rank -= block
            k += 1
        kinds.append(k)
        total = block
        left[k] -= 1
        n -= 1
    return kinds


DECK_ORDERS = _orders(COPIES)  # the orders of the 64 play cards' kinds, about 4.4e59


def redraw_order(pool: Sequence[int], deck: Sequence[int]) -> list[int]:
    """The kinds ``pool`` in the order a redraw takes them, decided by ``deck``: the rank of
    the deck's play-card kinds among every order of the 64 play cards (``_rank``; trump cards
    ignored), modulo the number of orders of the pool, is the rank of the pool's order.

    It reads only the order of the kinds, so a deck written by names (a game record) redraws
    the same. A uniformly random deck gives each order of the pool a chance within
    ``1 / DECK_ORDERS`` of uniform, so off by less than (the pool's orders) / ``DECK_ORDERS``
    of it: below 4e-26 at 3 players (38 cards, at most 1.6e34 orders), 3e-39 at 4 (25 cards,
    1.3e21). Ranks invert, so ``redraw_deck`` builds a deck for any wanted order directly."""
    counts = _counts(pool)
    rank = _rank([KIND_OF[c] for c in deck if c < PLAY_CARDS], COPIES)
    return _unrank(rank % _orders(counts), counts)


def redraw_deck(order: Sequence[int], rng: random.Random) -> list[int]:
    """A deck (card ids) whose ``redraw_order`` of ``order``'s kinds is ``order``: a random
    deck rank with the order's rank as remainder (uniform among those decks, the bias of
    ``redraw_order`` aside), the trump cards at random places."""
    counts = _counts(order)
    orders = _orders(counts)
    rank = _rank(order, counts)
    rank += orders * rng.randrange((DECK_ORDERS - 1 - rank) // orders + 1)
    ids = list(range(DECK_SIZE))
    rng.shuffle(ids)
    return _with_kinds(ids, _unrank(rank, COPIES), rng)


class DoisView(NamedTuple):
    """What one seat may know: its hand and the public memory a careful player keeps.

    Player-indexed tuples are by absolute seat. ``suits``/``numbers`` are what each player
    shows (-1/0 before the first trick); ``plays`` every card kind each played this hand, in
    order; ``voids`` per player the bit mask of kinds it cannot hold (bit s: suit s, bit 4:
    every number), as shown by the follow rule; ``bids`` -1 for a bid not made (or sealed);
    ``shown`` the hands shown for a redeal this hand, (player, counts per kind).
    """

    seat: int
    legal: tuple[int, ...]  # empty unless the seat is to act
    hand: tuple[int, ...]  # the kinds held, in order (a kind is also its first card's id)
    counts: tuple[int, ...]  # the hand as counts per kind
    phase: str
    current: int
    hand_no: int  # 0-based
    dealer: int
    trump: int  # the trump suit
    trumps_seen: tuple[int, ...]  # trump suits revealed since the trump pile was shuffled
    leader: int  # of the trick being played
    trick_no: int  # tricks finished this hand
    in_trick: int  # players done with the current trick, from the leader
    lead: int  # the lead suit of the current trick once its leader has played, else -1
    suits: tuple[int, ...]
    numbers: tuple[int, ...]
    plays: tuple[tuple[int, ...], ...]
    played: tuple[int, ...]  # counts per kind played this hand by everyone
    voids: tuple[int, ...]
    bids: tuple[int, ...]
    won: tuple[int, ...]
    scores: tuple[int, ...]
    shown: tuple[tuple[int, tuple[int, ...]], ...]


class State(EngineState):
    """A game of Dois in progress: build it with ``DoisGame.new_state``; advance with ``apply``."""

    __slots__ = (
        "bids",
        "decks_used",
        "first",
        "hand_delta",
        "hand_no",
        "hands",
        "in_trick",
        "leader",
        "number",
        "phase",
        "played",
        "plays",
        "remains",
        "rules",
        "scores",
        "shown",
        "step",
        "suit",
        "tricks_played",
        "trump",
        "trumps_seen",
        "void",
        "won",
    )
    COPIED = (
        "bids",
        "hand_delta",
        "number",
        "played",
        "remains",
        "scores",
        "suit",
        "trumps_seen",
        "void",
        "won",
    )
    NESTED = ("hands", "plays")

    def __init__(self, game: DoisGame, deck: list[int], seed: Any, log: bool = False) -> None:
        n = game.num_players
        super().__init__(game, n, deck, seed, log)  # never truncated: every game ends (RULES.md)
        self.rules = game.rules
        self.scores = [0] * n
        self.hand_delta = [0] * n
        self.hand_no = 0
        self.decks_used = 0
        self.trumps_seen: list[int] = []
        self._deal()

    # ------------------------------------------------------------------ dealing
    def _next_deck(self) -> list[int]:
        """The next deck of the game's sequence (``hand_deck``): one per deal and redeal."""
        order = hand_deck(self.deck, self.seed, self.decks_used, DECK_SIZE)
        self.decks_used += 1
        return order

    def _deal_from(self, order: list[int]) -> tuple[list[list[int]], list[int]]:
        """The kinds of 13 play cards to each player, one at a time from the dealer's left,
        in deck order (trump cards skipped); the rest stay undealt."""
        cards = [KIND_OF[c] for c in order if c < PLAY_CARDS]
        n = self.n
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            hands[(self.first + i) % n].append(cards[i])
        return hands, cards[HAND_SIZE * n :]

    def _deal(self) -> None:
        """Hand k: dealt from player k mod n (the dealer, on their right, rotates one seat a
        hand); the trump card revealed; bad hands dealt again (``_redeal``)."""
        n = self.n
        k = self.hand_no
        self.first = k % n
        if k % TRUMP_BLOCK == 0:
            self.trumps_seen = []
        order = self._next_deck()
        # the top card of the shuffled trump pile: the first trump card of this deck not yet
        # revealed since the pile was last shuffled
        self.trump = next(
            c - TRUMP_CARD
            for c in order
            if c >= TRUMP_CARD and c - TRUMP_CARD not in self.trumps_seen
        )
        self.trumps_seen.append(self.trump)
        hands, rest = self._deal_from(order)
        shows = self._redeal(hands, rest)
        self.hands = [_counts(h) for h in hands]
        self.remains = _counts(rest)
        self.shown = shows
        self.suit = [-1] * n
        self.number = [0] * n
        self.played = bytearray(NUM_KINDS)
        self.plays: list[list[int]] = [[] for _ in range(n)]
        self.void = [0] * n
        self.bids = [-1] * n
        self.won = [0] * n
        self.tricks_played = 0
        self.in_trick = 0
        self.step = 0
        self.leader = self.current = self.first
        self.phase = BIDDING
        self.cached_legal = None
        if self.log is not None:
            self._event(
                events.DEAL,
                hand=k,
                dealer=self.dealer,
                trump=SUITS[self.trump],
                hands=[kind_names(h) for h in self.hands],
                undealt=kind_names(self.remains),
            )

    def _redeal(
        self, hands: list[list[int]], rest: list[int]
    ) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Each hand with fewer than 3 suit or 3 number cards, from the dealer's left, is
        dealt again until it is good: under ``redeal="player"`` its holder shows it and draws
        13 from it and the undealt cards, in the order the next deck decides
        (``redraw_order``); under ``"all"`` (or when those cards cannot make a good hand)
        everyone is dealt again from the next deck. Returns the public shows: (player, kinds
        shown, players whose hands were already final then and so hold none of those
        cards)."""
        n = self.n
        shows: list[tuple[int, tuple[int, ...]]] = []
        i = 0
        while i < n:
            p = (self.first + i) % n
            counts = _counts(hands[p])
            if _good(counts):
                i += 1
                continue
            pool = hands[p] + rest
            mode = "player" if self.rules.redeal == "player" and _good(_counts(pool)) else "all"
            if self.log is not None:
                self._event("redeal", player=p, shown=kind_names(counts), mode=mode)
            order = self._next_deck()
            if mode == "player":
                shows.append((p, tuple(counts)))
                pool = redraw_order(pool, order)
                hands[p], rest[:] = pool[:HAND_SIZE], pool[HAND_SIZE:]
            else:
                shows = []
                hands[:], rest[:] = self._deal_from(order)
                i = 0
        return [
            (
                p,
                counts,
                tuple(q for q in range(n) if q != p and all(r != q for r, _ in shows[j + 1 :])),
            )
            for j, (p, counts) in enumerate(shows)
        ]

    @property
    def dealer(self) -> int:
        return (self.first - 1) % self.n

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def lead(self) -> int:
        """The lead suit of the current trick: what its leader shows once they have played."""
        return self.suit[self.leader] if self.in_trick or self.step else -1

    def _legal(self) -> list[int]:
        """Bids: 0 to 12. First trick: a suit card (the lead suit if held, unless leading),
        then any number card. Later tricks (``_follow``)."""
        phase = self.phase
        if phase == PLAYING:
            return self._follow()
        if phase == BIDDING:
            return list(range(BID, NUM_ACTIONS))
        if phase == FIRST:
            hand = self.hands[self.current]
            if self.step:
                return [k for k in NUMBER_KINDS if hand[k]]
            lead = self.suit[self.leader] if self.in_trick else -1
            if lead >= 0 and hand[lead]:
                return [lead]
            return [k for k in SUIT_KINDS if hand[k]]
        return []

    def _follow(self) -> list[int]:
        """Tricks 2-12. The leader covers either of their cards. A follower who does not show
        the lead suit must play it if held; one who shows it may cover it only with the lead
        suit (a number card is always allowed), unless their hand is only other suits."""
        p = self.current
        hand = self.hands[p]
        held = [k for k in range(NUM_KINDS) if hand[k]]
        if not self.in_trick:
            return held
        lead = self.suit[self.leader]
        if self.suit[p] != lead:
            return [lead] if hand[lead] else held
        return [k for k in held if k >= NUM_SUITS or k == lead] or held

    # ------------------------------------------------------------------ acting
    def _act(self, action: int) -> None:
        if action >= BID:
            self._bid(action - BID)
        else:
            self._play(action)

    def _bid(self, bid: int) -> None:
        """Bids go once round from the dealer's left; the last one starts the first trick,
        led by the dealer's left."""
        p = self.current
        self.bids[p] = bid
        if self.log is not None:
            self._event(events.BID, player=p, bid=bid)
        self.current = (p + 1) % self.n
        if self.current == self.first:
            self.phase = FIRST

    def _play(self, kind: int) -> None:
        p = self.current
        self.hands[p][kind] -= 1
        self.played[kind] += 1
        self.plays[p].append(kind)
        if self.in_trick:
            self._note_void(p, kind)
        if kind < NUM_SUITS:
            self.suit[p] = kind
        else:
            self.number[p] = kind - NUM_SUITS + 1
        if self.log is not None:
            self._event(events.PLAY, player=p, card=KIND_NAMES[kind])
        if self.phase == FIRST and not self.step:
            self.step = 1  # the same player now plays a number card
            return
        self.step = 0
        self.in_trick += 1
        if self.in_trick < self.n:
            self.current = (p + 1) % self.n
        else:
            self._end_trick()

    def _note_void(self, p: int, kind: int) -> None:
        """What a follower's card shows about their hand (public: the follow rule). Not
        playing the lead suit when it had to: no lead suit left. Covering a shown lead suit
        with another suit: no lead suit and no number card left."""
        lead = self.suit[self.leader]
        if kind == lead:
            return
        if kind < NUM_SUITS:
            if self.phase == PLAYING and self.suit[p] == lead:
                self.void[p] |= NUMBERS_VOID | 1 << lead
            else:
                self.void[p] |= 1 << lead
        elif self.phase == PLAYING and self.suit[p] != lead:
            self.void[p] |= 1 << lead

    def _end_trick(self) -> None:
        """The trick goes to ``trick_winner``, who leads the next."""
        suit, number = self.suit, self.number
        winner = trick_winner(suit, number, self.leader, self.trump)
        self.won[winner] += 1
        self.tricks_played += 1
        if self.log is not None:
            shows = [f"{SUITS[suit[q]]}{number[q]}" for q in range(self.n)]
            self._event(events.TRICK, winner=winner, shows=shows, trump_shown=self.trump in suit)
        self.phase = PLAYING
        self.in_trick = 0
        self.leader = self.current = winner
        if self.tricks_played == TRICKS:
            self._end_hand()

    # ------------------------------------------------------------------ scoring
    def _end_hand(self) -> None:
        """An exact bid scores the bid; a miss loses the difference. Then the next hand, or the
        end after ``rules.hands`` hands."""
        delta = [b if w == b else -abs(w - b) for w, b in zip(self.won, self.bids, strict=True)]
        self.hand_delta = delta
        for p in range(self.n):
            self.scores[p] += delta[p]
        if self.log is not None:
            self._event(
                events.HAND_END,
                hand=self.hand_no,
                bids=self.bids[:],
                won=self.won[:],
                change=delta,
                scores=self.scores[:],
            )
        self.hand_no += 1
        if self.hand_no < self.rules.hands:
            self._deal()
            return
        self.phase = OVER
        self.cached_legal = None
        if self.log is not None:
            places = places_from_scores(self.scores)
            self._event(events.GAME_OVER, places=places, scores=self.scores[:])

    def outcome(self) -> Outcome | None:
        """Places by total score (equal scores share a place), once the game is over."""
        if self.phase != OVER:
            return None
        return outcome_by_scores(self.scores, extra={"hands": self.hand_no})

    # ------------------------------------------------------------------ copies and views

    def public_bids(self, seat: int) -> list[int]:
        """The bids ``seat`` knows: all once bidding is over; while it lasts, the bids made so
        far under open bidding, only its own under sealed bidding."""
        if self.phase != BIDDING or self.rules.bidding == "open":
            return self.bids
        return [b if p == seat else -1 for p, b in enumerate(self.bids)]

    def view(self, seat: int) -> DoisView:
        return DoisView(
            seat=seat,
            legal=tuple(self.legal_actions()) if seat == self.current else (),
            hand=tuple(k for k in range(NUM_KINDS) for _ in range(self.hands[seat][k])),
            counts=tuple(self.hands[seat]),
            phase=PHASE_NAMES[self.phase],
            current=self.current,
            hand_no=self.hand_no,
            dealer=self.dealer,
            trump=self.trump,
            trumps_seen=tuple(self.trumps_seen),
            leader=self.leader,
            trick_no=self.tricks_played,
            in_trick=self.in_trick,
            lead=self.lead,
            suits=tuple(self.suit),
            numbers=tuple(self.number),
            plays=tuple(tuple(p) for p in self.plays),
            played=tuple(self.played),
            voids=tuple(self.void),
            bids=tuple(self.public_bids(seat)),
            won=tuple(self.won),
            scores=tuple(self.scores),
            shown=tuple((p, counts) for p, counts, _ in self.shown),
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """The cards ``seat`` cannot see (the other hands and the undealt cards) dealt again
        at random, counts kept, within everything public: the voids the follow rule showed,
        that every hand began with 3 suit and 3 number cards or more, and that at each
        redeal's show the shown hand, the hands shown later (held then) and the hands final
        then were different cards (``_show_groups``)."""
        c = self._unseen_copy(rng)
        if c.phase == OVER:
            return c
        others = [p for p in range(self.n) if p != seat]
        pool = bytearray(NUM_KINDS)
        for hand in [*(self.hands[p] for p in others), self.remains]:
            for k in range(NUM_KINDS):
                pool[k] += hand[k]
        rooms = [sum(self.hands[p]) for p in others] + [sum(self.remains)]
        caps = [self._caps(p) for p in others] + [list(COPIES)]
        needs = [self._needs(p) for p in others] + [(0, 0)]
        groups = _show_groups(self.shown, self.plays, self.hands, seat, others)
        deal = _constrained_deal(pool, rooms, caps, needs, rng, groups)
        for p, counts in zip(others, deal, strict=False):
            c.hands[p] = bytearray(counts)
        c.remains = bytearray(deal[-1])
        return c

    def _caps(self, p: int) -> list[int]:
        """Per kind, the most ``p`` can hold now: none of a void kind; for a hand that was
        final when another showed theirs, its copies minus the shown ones and its own plays."""
        void = self.void[p]
        caps = [
            0
            if (k < NUM_SUITS and void >> k & 1) or (k >= NUM_SUITS and void & NUMBERS_VOID)
            else COPIES[k]
            for k in range(NUM_KINDS)
        ]
        for _, counts, final in self.shown:
            if p in final:
                mine = self.plays[p]
                for k in range(NUM_KINDS):
                    caps[k] = min(caps[k], COPIES[k] - counts[k] - mine.count(k))
        return caps

    def _needs(self, p: int) -> tuple[int, int]:
        """The suit and number cards ``p`` must still hold: its hand began with 3 of each."""
        suits = sum(1 for k in self.plays[p] if k < NUM_SUITS)
        numbers = len(self.plays[p]) - suits
        return max(MIN_OF_EACH - suits, 0), max(MIN_OF_EACH - numbers, 0)


def _show_groups(
    shown: Any, plays: Any, hands: Any, seat: int, others: list[int]
) -> list[tuple[list[int], list[int]]]:
    """For each show of ``shown``, the hidden hands final then (their places in ``others``)
    and per kind the most they may hold together now. At the show every hand was different
    cards: the shown one, each hand its player shows later (held then) and each final hand
    (what it holds now and has played), so together they fit in the deck. Without this the
    determinized hands could not all have been dealt (``dealing_decks`` finds no deck)."""
    groups = []
    for j, (p, counts, final) in enumerate(shown):
        cap = [COPIES[k] - counts[k] for k in range(NUM_KINDS)]
        held = {}  # each later shower's hand at this show: the next one it shows
        for r, later, _ in shown[j + 1 :]:
            if r != p:
                held.setdefault(r, later)
        for later in held.values():
            for k in range(NUM_KINDS):
                cap[k] -= later[k]
        for q in final:
            for kind in plays[q]:
                cap[kind] -= 1
            if q == seat:
                for k in range(NUM_KINDS):
                    cap[k] -= hands[q][k]
        places = [i for i, q in enumerate(others) if q in final]
        same = [g for g in groups if g[0] == places]
        if same:  # the same hands at an earlier show: the tighter caps
            same[0][1][:] = [min(a, b) for a, b in zip(same[0][1], cap, strict=True)]
        elif places:
            groups.append((places, cap))
    return groups


def _fits(counts: list[int], cap: list[int], need: tuple[int, int]) -> bool:
    return (
        all(counts[k] <= cap[k] for k in range(NUM_KINDS))
        and _suits(counts) >= need[0]
        and _numbers(counts) >= need[1]
    )


def _constrained_deal(
    pool: bytearray,
    rooms: list[int],
    caps: list[list[int]],
    needs: list[tuple[int, int]],
    rng: random.Random,
    groups: Sequence[tuple[list[int], list[int]]] = (),
) -> list[list[int]]:
    """Counts per kind for each place, filling each ``rooms[j]`` from ``pool`` with at most
    ``caps[j][k]`` of kind k, at least ``needs[j]`` suit and number cards, and for each of
    ``groups`` (places, caps) at most ``caps[k]`` of kind k in those places together: a few
    plain shuffles first (uniform among the valid deals when one fits), then a depth-first
    deal, kind by kind (the most constrained first), places and amounts in random order. The
    true deal satisfies every constraint, so one exists."""
    cards = [k for k in range(NUM_KINDS) for _ in range(pool[k])]
    places = range(len(rooms))
    for _ in range(SHUFFLE_TRIES):
        rng.shuffle(cards)
        deal = []
        start = 0
        for j in places:
            counts = [0] * NUM_KINDS
            for k in cards[start : start + rooms[j]]:
                counts[k] += 1
            start += rooms[j]
            if not _fits(counts, caps[j], needs[j]):
                break
            deal.append(counts)
        else:
            if all(
                sum(deal[j][k] for j in places) <= cap[k]
                for places, cap in groups
                for k in range(NUM_KINDS)
            ):
                return deal
    kinds = [k for k in range(NUM_KINDS) if pool[k]]
    deal = [[0] * NUM_KINDS for _ in places]
    room = rooms[:]
    steps = [0]  # the search's steps so far, against its budget

    def feasible(index: int) -> bool:
        """Whether the kinds from ``index`` on can still fill every place and its needs."""
        rest = kinds[index:]
        for j in places:
            supply_s = sum(min(pool[k], caps[j][k]) for k in rest if k < NUM_SUITS)
            supply_n = sum(min(pool[k], caps[j][k]) for k in rest if k >= NUM_SUITS)
            need_s = max(needs[j][0] - _suits(deal[j]), 0)
            need_n = max(needs[j][1] - _numbers(deal[j]), 0)
            if supply_s < need_s or supply_n < need_n or supply_s + supply_n < room[j]:
                return False
            if room[j] < need_s + need_n:
                return False
        for members, cap in groups:  # the group's places, filled within its caps
            supply_s = supply_n = 0
            for k in rest:
                most = min(pool[k], cap[k], sum(caps[j][k] for j in members))
                if k < NUM_SUITS:
                    supply_s += most
                else:
                    supply_n += most
            need_s = sum(max(needs[j][0] - _suits(deal[j]), 0) for j in members)
            need_n = sum(max(needs[j][1] - _numbers(deal[j]), 0) for j in members)
            if supply_s < need_s or supply_n < need_n:
                return False
            if supply_s + supply_n < sum(room[j] for j in members):
                return False
            # what the group cannot take the other places must
            outside = sum(
                max(pool[k] - min(cap[k], sum(caps[j][k] for j in members)), 0) for k in rest
            )
            if outside > sum(room[j] for j in places if j not in members):
                return False
        return True

    def place(index: int) -> bool:
        if index == len(kinds):
            return True
        kind = kinds[index]
        order = list(places)
        rng.shuffle(order)

        def spread(i: int, left: int) -> bool:
            steps[0] += 1
            if steps[0] > budget:
                raise _OverBudget
            j = order[i]
            most = min(left, room[j], caps[j][kind])
            if i == len(order) - 1:
                amounts = [left] if left <= most else []
            else:
                amounts = list(range(most + 1))
                rng.shuffle(amounts)
            for give in amounts:
                if give and any(
                    j in places and sum(deal[i][kind] for i in places) + give > cap[kind]
                    for places, cap in groups
                ):
                    continue
                deal[j][kind] += give
                room[j] -= give
                if i == len(order) - 1:
                    if feasible(index + 1) and place(index + 1):
                        return True
                elif spread(i + 1, left - give):
                    return True
                deal[j][kind] -= give
                room[j] += give
            return False

        return spread(0, pool[kind])

    budget = SEARCH_STEPS
    while True:  # restarts from new random orders, each with a larger budget, until found
        rng.shuffle(kinds)
        kinds.sort(key=lambda k: sum(1 for j in places if caps[j][k]))
        deal = [[0] * NUM_KINDS for _ in places]
        room[:] = rooms
        steps[0] = 0
        try:
            found = place(0)
        except _OverBudget:
            budget *= 2
            continue
        assert found, "the true deal satisfies every constraint"
        return deal


class _OverBudget(Exception):
    """A depth-first deal took more steps than its budget: start again, in a new order."""


def dealing_decks(
    state: Any, sampled: Any, decks: list[int], rng: random.Random
) -> list[int] | None:
    """``decks`` (every deck ``state`` was dealt, flat) changed so that this hand's deal gives
    each hand its cards in ``sampled`` (a ``determinize`` of ``state``) and the undealt cards
    the rest, or ``None`` when none can (a redraw ``sampled`` asks for that its pool cannot
    give, or whose pool could not make a good hand, so everyone would be dealt again). Read
    from views only, so either engine's states do. The hand's decks are the last ones: the
    deck that dealt every hand last (its first deck, or the last deck of a redeal for
    everyone), then one deck per show of the view's ``shown``. Decks before that one stay as
    they are, so the trump and any redeal for everyone happen as before; that deck's play
    cards are given kinds that deal each player that showed the hand it first showed and each
    other player its sampled hand (trump cards keep their places, so the trump stays); each
    show's deck is built (``redraw_deck``) to draw the next hand shown or, after the player's
    last show, its sampled hand, first, then the rest of the pool, each in random order.
    Copies of a kind are interchangeable, so the ids of each kind go to its places in random
    order."""
    first = state.view(0)
    if first.phase == PHASE_NAMES[OVER]:
        return decks[:]
    n = len(first.scores)
    views = [sampled.view(p) for p in range(n)]
    start_of_hand = (first.dealer + 1) % n
    dealt = []  # each hand as dealt: what it holds now and what it played this hand
    for p, view in enumerate(views):
        counts = list(view.counts)
        for kind in view.plays[p]:
            counts[kind] += 1
        dealt.append(counts)
    shows = list(first.shown)
    base = len(decks) - (len(shows) + 1) * DECK_SIZE
    if base < 0:
        return None
    # what the base deck deals each player: its first show, or its hand
    initial = [list(c) for c in dealt]
    for p, counts in reversed(shows):
        initial[p] = list(counts)
    rest = list(COPIES)
    for counts in initial:
        for k in range(NUM_KINDS):
            rest[k] -= counts[k]
    if min(rest) < 0:
        return None
    order = decks[base : base + DECK_SIZE]
    hands = [[k for k in range(NUM_KINDS) for _ in range(c[k])] for c in initial]
    for hand in hands:
        rng.shuffle(hand)
    undealt = [k for k in range(NUM_KINDS) for _ in range(rest[k])]
    rng.shuffle(undealt)
    kinds = [hands[(start_of_hand + i) % n][i // n] for i in range(HAND_SIZE * n)] + undealt
    new_decks = decks[:base] + _with_kinds(order, kinds, rng)
    # the redraws, one deck each
    pool_rest = undealt
    for j, (p, _shown) in enumerate(shows):
        if j + 1 < len(shows) and shows[j + 1][0] == p:
            target = list(shows[j + 1][1])
        else:
            target = dealt[p]
        pool = _counts(hands[p] + pool_rest)
        left = [pool[k] - target[k] for k in range(NUM_KINDS)]
        if min(left) < 0 or not _good(pool):
            return None
        hand = [k for k in range(NUM_KINDS) for _ in range(target[k])]
        others = [k for k in range(NUM_KINDS) for _ in range(left[k])]
        rng.shuffle(hand)
        rng.shuffle(others)
        new_decks += redraw_deck(hand + others, rng)
        hands[p], pool_rest = hand, others
    return new_decks


def _with_kinds(order: list[int], kinds: list[int], rng: random.Random) -> list[int]:
    """``order`` with its play cards, in order, replaced by copies of ``kinds`` (the trump
    cards keep their places); each kind's ids in random order."""
    ids = [list(COPY_IDS[k]) for k in range(NUM_KINDS)]
    for copies in ids:
        rng.shuffle(copies)
    play = iter(kinds)
    deck = []
    for card in order:
        deck.append(card if card >= PLAY_CARDS else ids[next(play)].pop())
    return deck
