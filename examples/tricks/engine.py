"""Tricks' rules engine: a state on the engine kit, each rule in one place.

``core.state.EngineState`` supplies the protocol: ``apply`` (integers only, the legality
check, the error wording), ``legal_actions`` (computed once a turn), ``returns``, the event
log and the copying of its own fields. A game writes its rules: ``_legal``, ``_act``,
``outcome``, ``view``, ``determinize`` and the ``clone`` of its own fields.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from koira_env import cards as std
from koira_env.core import events
from koira_env.core.deck import hand_deck
from koira_env.core.game import Outcome, places_from_scores, returns_from_places
from koira_env.core.state import EngineState

SUITS, RANKS = "CDHS", "TJQKA"
NUM_CARDS = 20  # card = suit * 5 + rank: 0 = TC ... 19 = AS, so a higher id of a suit is higher


def card_name(card: int) -> str:
    """``card_name(19) == "AS"``; the action of playing a card has the card's name."""
    if type(card) is not int or not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id must be an int in 0..{NUM_CARDS - 1}, got {card!r}")
    return RANKS[card % 5] + SUITS[card // 5]


def card_id(name: str) -> int:
    """Parse ``"AS"``, ``"10C"`` or ``"tc"`` (the standard deck's names, ten to ace only)."""
    standard = std.card_id(name)
    suit, rank = divmod(standard, 13)
    if rank < 8:
        raise ValueError(f"{name!r} is not a Tricks card: Tricks uses only 10, J, Q, K and A")
    return suit * 5 + rank - 8


def suit(card: int) -> int:
    return card // 5


class TricksView(NamedTuple):
    """What one seat may know: its hand and everything played in the open."""

    seat: int
    legal: tuple[int, ...]  # empty unless the seat is to act
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]  # cards each seat still holds
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick being played, in order
    played: tuple[int, ...]  # every card played so far, in order
    tricks_won: tuple[int, ...]


class State(EngineState):
    """A game of Tricks in progress: build it with ``TricksGame.new_state``."""

    __slots__ = ("hands", "is_terminal", "played", "trick", "tricks_won")
    COPIED = ("played", "trick", "tricks_won")  # clone copies these lists, and
    NESTED = ("hands",)  # these lists of lists; the other slots are shared

    def __init__(self, game: Any, deck: list[int], seed: Any, log: bool = False) -> None:
        super().__init__(game, game.num_players, deck, seed, log)
        size = game.rules.hand_size
        order = hand_deck(self.deck, seed, 0, NUM_CARDS)
        self.hands = [sorted(order[p * size : (p + 1) * size]) for p in range(self.n)]
        self.trick: list[tuple[int, int]] = []
        self.played: list[int] = []
        self.tricks_won = [0] * self.n
        self.current = 0  # player_0 leads the first trick
        self.is_terminal = False
        if self.log is not None:
            self._event(events.DEAL, hands=[[card_name(c) for c in h] for h in self.hands])

    # ------------------------------------------------------------------ the rules
    def _legal(self) -> list[int]:
        """Follow the led suit if you can; otherwise any card."""
        if self.is_terminal:
            return []
        hand = self.hands[self.current]
        if self.trick:
            led = suit(self.trick[0][1])
            follow = [c for c in hand if suit(c) == led]
            if follow:
                return follow
        return hand[:]

    def _act(self, card: int) -> None:
        p = self.current
        self.hands[p].remove(card)
        self.trick.append((p, card))
        self.played.append(card)
        self._event(events.PLAY, player=p, card=card_name(card))
        if len(self.trick) < self.n:
            self.current = (p + 1) % self.n
            return
        self._end_trick()

    def _end_trick(self) -> None:
        """The highest card of the led suit takes the trick and leads the next; the game ends
        when the hands are empty."""
        led = suit(self.trick[0][1])
        winner = max((c, s) for s, c in self.trick if suit(c) == led)[1]
        self.tricks_won[winner] += 1
        self._event(events.TRICK, winner=winner, cards=[card_name(c) for _, c in self.trick])
        self.trick = []
        self.current = winner
        if not self.hands[winner]:
            self.is_terminal = True
            outcome = self.outcome()
            self._event(events.GAME_OVER, places=list(outcome.places))

    def outcome(self) -> Outcome | None:
        """Places by tricks taken, more is better; equal counts share a place."""
        if not self.is_terminal:
            return None
        places = places_from_scores(self.tricks_won)
        return Outcome(tuple(places), tuple(returns_from_places(places)), tuple(self.tricks_won))

    # ------------------------------------------------------------------ information
    def view(self, seat: int) -> TricksView:
        mine = seat == self.current and not self.is_terminal
        return TricksView(
            seat,
            tuple(self.legal_actions()) if mine else (),
            tuple(self.hands[seat]),
            tuple(len(h) for h in self.hands),
            tuple(self.trick),
            tuple(self.played),
            tuple(self.tricks_won),
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """The other hands re-dealt (same sizes) from every card ``seat`` has not seen (the
        cards a short table leaves undealt are unseen too). Kept short on purpose: it ignores
        the voids a seat showed by not following suit, which the suite's games respect."""
        c = self._unseen_copy(rng)
        seen = set(self.hands[seat]) | set(self.played)
        pool = [card for card in range(NUM_CARDS) if card not in seen]
        rng.shuffle(pool)
        for p in range(self.n):
            if p != seat:
                size = len(self.hands[p])
                c.hands[p] = sorted(pool[:size])
                del pool[:size]
        return c
