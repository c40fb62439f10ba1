"""The Red7 rules engine: a mutable state with a cheap ``clone()``.

One action is one whole turn: an optional card to the palette, then an optional card to the
canvas, or nothing (``pass``: the player is out). Only turns that leave the mover winning
are legal, besides ``pass``, so "whoever is not winning at the end of their turn is out"
reduces to "whoever passes is out" (RULES.md, section Red7, says why nothing is lost).

Each palette is a 49-bit int and carries its seven rule keys (``cards.rule_keys``), updated
in place when a card joins it; the legal turns compare the mover's keys, with each hand card
added, against the best of the other players' keys under each rule. Card locations live in
one ``loc`` bytearray that the observation reads with ``bytes.translate``.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.deck import hand_deck
from ...core.game import (
    IllegalActionError,
    Outcome,
    as_action,
    places_from_scores,
    returns_from_places,
)
from .cards import (
    BIT,
    COLOUR,
    NUM_CARDS,
    NUM_COLOURS,
    NUMBER,
    RED,
    TBIT,
    card_name,
    cards_of,
    counted,
    keys_plus,
    rule_keys,
    winning_additions,
)

if TYPE_CHECKING:
    from .game import Red7Game

# Card locations (values of State.loc); "+ p" for the seat holding them.
HAND = 0  # in p's hand (hidden)
PALETTE = 4  # on p's palette (face up)
CANVAS = 8  # on the canvas (face up)
DRAW = 9  # in the draw pile (hidden)
FOLDED = 10  # an eliminated p's hand, face down (seen by p only)
DEAD = 14  # an eliminated p's palette, face down now but seen by all
SCORED = 18  # scored by p in an earlier round (points scoring; face down, seen by all)

NO_KEYS = [0] * NUM_COLOURS  # an empty palette's keys
SLOTS = 50  # action = SLOTS * (1 + palette card, or 0) + (1 + canvas card, or 0)
NUM_ACTIONS = SLOTS * SLOTS
PASS = 0
HAND_SIZE = 7


def action_of(palette: int | None, canvas: int | None) -> int:
    """The action playing ``palette`` to the palette and then ``canvas`` to the canvas
    (``None``: no card there; both ``None``: pass)."""
    return SLOTS * (0 if palette is None else palette + 1) + (0 if canvas is None else canvas + 1)


def action_cards(action: int) -> tuple[int, int]:
    """(palette card, canvas card) of an action; -1 where the action plays no card."""
    return action // SLOTS - 1, action % SLOTS - 1


def action_name(action: int) -> str:
    """``"pass"``, ``"palette R7"``, ``"canvas B3"`` or ``"palette R7 canvas B3"``."""
    palette, canvas = action_cards(action)
    if palette == canvas < 0:
        return "pass"
    parts = []
    if palette >= 0:
        parts.append(f"palette {card_name(palette)}")
    if canvas >= 0:
        parts.append(f"canvas {card_name(canvas)}")
    return " ".join(parts)


class Red7View(NamedTuple):
    """What one seat knows: its hand and everything on the table this round."""

    seat: int
    legal: tuple[int, ...]  # empty unless the seat is to act
    hand: tuple[int, ...]  # card ids, lowest first
    palettes: tuple[tuple[int, ...], ...]  # per seat, in play order (eliminated: what it had)
    active: tuple[bool, ...]  # still in the round
    canvas: tuple[int, ...]  # cards on the canvas, bottom first (the "Red" card not included)
    rule: int  # the colour whose rule is in force (0 = red .. 6 = violet)
    winning: int  # the seat winning under the rule now, -1 if nobody
    hand_sizes: tuple[int, ...]
    draw_size: int
    folded: tuple[int, ...]  # this seat's own folded hand, if it is out
    eliminated: tuple[int, ...]  # seats out this round, in order
    current: int  # the seat to act, -1 when the game is over
    round: int  # 0-based
    scores: tuple[int, ...]  # points (scoring="points"), else zeros
    scored: tuple[tuple[int, ...], ...]  # per seat: the cards it has scored
    target: int  # points to win (scoring="points"), else 0


class State:
    """A game of Red7 in progress; build it with ``Red7Game.new_state``."""

    __slots__ = (
        "actions_taken",
        "active",
        "alive",
        "cached_legal",
        "canvas",
        "colours",
        "current",
        "deck",
        "draw",
        "eliminated",
        "folded",
        "game",
        "hands",
        "history",
        "keys",
        "leaders",
        "loc",
        "log",
        "masks",
        "n",
        "numbers",
        "over",
        "palettes",
        "round",
        "rule",
        "scored",
        "scores",
        "seed",
        "tmasks",
        "truncated",
        "winner",
    )

    def __init__(self, game: Red7Game, deck: list[int], seed: Any, log: bool) -> None:
        n = game.num_players
        self.game = game
        self.n = n
        self.deck = deck
        self.seed = seed
        self.log: list[dict[str, Any]] | None = [] if log else None
        self.history: list[int] = []
        self.actions_taken = 0
        self.truncated = False
        self.over = False
        self.winner = -1
        self.loc = bytearray(NUM_CARDS)
        self.scores = [0] * n
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.round = 0
        self._deal()

    # ------------------------------------------------------------------ dealing
    def _deal(self) -> None:
        """Deal round ``self.round`` from its deck, leaving out the cards scored so far: seven
        cards to each hand one at a time from player_0, then one card face up to each palette
        in seat order; the rest is the draw pile, ``deck``'s next card on top."""
        n = self.n
        loc = self.loc
        order = hand_deck(self.deck, self.seed, self.round, NUM_CARDS)
        gone = {c for cards in self.scored for c in cards}
        cards = [c for c in order if c not in gone] if gone else order
        dealt = HAND_SIZE * n
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(dealt):
            hands[i % n].append(cards[i])
            loc[cards[i]] = HAND + i % n
        for hand in hands:
            hand.sort()
        self.hands = hands
        firsts = cards[dealt : dealt + n]
        self.palettes = [[card] for card in firsts]
        self.masks = [BIT[card] for card in firsts]
        self.tmasks = [TBIT[card] for card in firsts]
        self.numbers = [1 << card // 7 for card in firsts]
        self.colours = [1 << COLOUR[card] for card in firsts]
        self.keys = [keys_plus(0, 0, NO_KEYS, 0, card) for card in firsts]
        self._find_leaders()
        for p, card in enumerate(firsts):
            loc[card] = PALETTE + p
        self.draw = cards[: dealt + n - 1 : -1]  # pop() takes the top: cards[dealt + n]
        for card in self.draw:
            loc[card] = DRAW
        self.canvas: list[int] = []
        self.rule = RED
        self.active = [True] * n
        self.alive = n
        self.folded: list[list[int]] = [[] for _ in range(n)]
        self.eliminated: list[int] = []
        if self.game.rules.first_player == "left_of_leader":
            leader = max(range(n), key=lambda p: self.palettes[p][0])
            self.current = (leader + 1) % n
        else:
            self.current = self.round % n
        self.cached_legal: list[int] | None = None
        if self.log is not None:
            self._event(
                "deal",
                round=self.round,
                hands=[[card_name(c) for c in h] for h in hands],
                palettes=[card_name(p[0]) for p in self.palettes],
                first=self.current,
            )

    def clone(self) -> State:
        """A deep copy sharing only immutable parts; cheap enough for search."""
        c = State.__new__(State)
        c.game = self.game
        c.n = self.n
        c.deck = self.deck[:]
        c.seed = self.seed
        c.log = None if self.log is None else list(self.log)
        c.history = self.history[:]
        c.actions_taken = self.actions_taken
        c.truncated = self.truncated
        c.over = self.over
        c.winner = self.winner
        c.loc = self.loc[:]
        c.scores = self.scores[:]
        c.scored = [s[:] for s in self.scored]
        c.round = self.round
        c.hands = [h[:] for h in self.hands]
        c.palettes = [p[:] for p in self.palettes]
        c.masks = self.masks[:]
        c.tmasks = self.tmasks[:]
        c.keys = self.keys[:]  # key lists are replaced, never changed in place
        c.leaders = self.leaders[:]
        c.numbers = self.numbers[:]
        c.colours = self.colours[:]
        c.draw = self.draw[:]
        c.canvas = self.canvas[:]
        c.rule = self.rule
        c.active = self.active[:]
        c.alive = self.alive
        c.folded = [f[:] for f in self.folded]
        c.eliminated = self.eliminated[:]
        c.current = self.current
        c.cached_legal = None
        return c

    # ------------------------------------------------------------------ queries
    @property
    def is_terminal(self) -> bool:
        return self.over

    def opponent_keys(self, seat: int) -> list[int]:
        """Per rule, the largest key among the other players (those out have zero keys)."""
        keys = self.keys
        if self.n == 2:
            return keys[1 - seat]
        return list(map(max, *keys[:seat], *keys[seat + 1 :]))

    def _find_leaders(self) -> None:
        """``leaders``: per rule, the seat that would be winning under it now, -1 if nobody
        has a card it counts (those out have zero keys). Kept up to date by ``_play``."""
        columns = list(zip(*self.keys, strict=True))
        bests = map(max, columns)
        self.leaders = [
            col.index(best) if best else -1 for col, best in zip(columns, bests, strict=True)
        ]

    def leader(self) -> int:
        """The seat winning under the rule in force, or -1 when nobody has a card it counts."""
        return self.leaders[self.rule]

    def legal_actions(self) -> list[int]:
        """``pass`` and every turn that leaves the mover winning, in increasing order."""
        if self.cached_legal is None:
            self.cached_legal = self._legal()
        return self.cached_legal[:]

    def _legal(self) -> list[int]:
        if self.over:
            return []
        p = self.current
        hand = self.hands[p]
        opp = self.opponent_keys(p)
        mine = self.keys[p]
        rule = self.rule
        held = 0
        needed = 1 << rule
        by_colour: list[list[int]] = [[], [], [], [], [], [], []]
        for c in hand:
            held |= BIT[c]
            needed |= 1 << COLOUR[c]
            by_colour[COLOUR[c]].append(c)
        palette = (self.masks[p], self.tmasks[p], self.numbers[p], self.colours[p])
        wins = winning_additions(palette, mine, opp, held, needed)
        acts = [PASS]
        for r, cards in enumerate(by_colour):
            if not cards:
                continue
            if mine[r] > opp[r]:  # to the canvas only
                acts += [c + 1 for c in cards]
            won = wins[r]
            if won:  # to the palette, then this colour to the canvas
                for card in hand:
                    if won & BIT[card]:
                        base = SLOTS * (card + 1) + 1
                        acts += [base + c for c in cards if c != card]
        won = wins[rule]  # to the palette only
        acts += [SLOTS * (card + 1) for card in hand if won & BIT[card]]
        acts.sort()
        return acts

    def returns(self) -> list[float]:
        """Zero-sum returns from the places (``outcome``); zeros before the end and when
        truncated."""
        outcome = self.outcome()
        return [0.0] * self.n if outcome is None else list(outcome.returns)

    def _places(self) -> list[int]:
        n = self.n
        if self.game.points:
            return places_from_scores(self.scores)
        if self.game.rules.places == "winner":
            return [1 if p == self.winner else 2 for p in range(n)]
        places = [1] * n
        for rank, p in enumerate(reversed(self.eliminated)):
            places[p] = rank + 2
        return places

    def outcome(self) -> Outcome | None:
        if not self.over or self.truncated:
            return None
        places = self._places()
        if self.game.points:
            scores = tuple(float(s) for s in self.scores)
        else:
            scores = tuple(1.0 if p == self.winner else 0.0 for p in range(self.n))
        return Outcome(
            places=tuple(places),
            returns=tuple(returns_from_places(places)),
            scores=scores,
            extra={
                "round_winner": self.winner,
                "rule": self.rule,
                "rounds": self.round + 1,
                "eliminated": self.eliminated[:],
            },
        )

    # ------------------------------------------------------------------ apply
    def apply(self, action: int) -> None:
        """Play one turn; ``IllegalActionError`` (nothing changes) if it is not legal."""
        if type(action) is not int:
            action = as_action(action)
        legal = self.cached_legal
        if legal is None:
            legal = self.cached_legal = self._legal()
        if action not in legal:
            raise IllegalActionError(self._illegal(action))
        self.cached_legal = None
        p = self.current
        self.history.append(action)
        self.actions_taken += 1
        if action == PASS:
            self._eliminate(p)
        else:
            self._play(p, action // SLOTS - 1, action % SLOTS - 1)
        if self.alive == 1:
            self._end_round()
            return
        q = p + 1 if p + 1 < self.n else 0
        while not self.active[q]:
            q = q + 1 if q + 1 < self.n else 0
        self.current = q

    def _play(self, p: int, palette: int, canvas: int) -> None:
        hand = self.hands[p]
        drew = -1
        if palette >= 0:
            hand.remove(palette)
            self.palettes[p].append(palette)
            keys = self.keys[p] = keys_plus(
                self.masks[p], self.tmasks[p], self.keys[p], self.numbers[p], palette
            )
            leaders = self.leaders  # keys only grow: p leads wherever it now beats the leader
            for r in range(NUM_COLOURS):
                q = leaders[r]
                if q != p and keys[r] > (self.keys[q][r] if q >= 0 else 0):
                    leaders[r] = p
            self.masks[p] |= BIT[palette]
            self.tmasks[p] |= TBIT[palette]
            self.numbers[p] |= 1 << palette // 7
            self.colours[p] |= 1 << COLOUR[palette]
            self.loc[palette] = PALETTE + p
        if canvas >= 0:
            hand.remove(canvas)
            self.canvas.append(canvas)
            self.rule = COLOUR[canvas]
            self.loc[canvas] = CANVAS
            draw = self.draw
            if self.game.rules.canvas_draw and draw and NUMBER[canvas] > len(self.palettes[p]):
                drew = draw.pop()
                insort(hand, drew)
                self.loc[drew] = HAND + p
        if self.log is not None:
            event: dict[str, Any] = {"player": p}
            if palette >= 0:
                event["palette"] = card_name(palette)
            if canvas >= 0:
                event["canvas"] = card_name(canvas)
            if drew >= 0:
                event["drew"] = card_name(drew)  # the record's truth; no view shows it
            self._event("play", **event)

    def _eliminate(self, p: int) -> None:
        """``p`` is out for the round: hand and palette face down in front of it."""
        self.active[p] = False
        self.alive -= 1
        self.eliminated.append(p)
        loc = self.loc
        for card in self.hands[p]:
            loc[card] = FOLDED + p
        for card in self.palettes[p]:
            loc[card] = DEAD + p
        self.folded[p] = self.hands[p]
        self.hands[p] = []
        self.keys[p] = NO_KEYS  # its palette no longer counts
        if p in self.leaders:
            self._find_leaders()
        if self.log is not None:
            self._event("out", player=p, cards_left=len(self.folded[p]))

    def _end_round(self) -> None:
        """The last player in wins the round; with points scoring it scores the cards its
        palette's rule counts, and a new round is dealt unless the game is over."""
        w = self.active.index(True)
        self.winner = w
        if not self.game.points:
            self.over = True
            self.current = -1
            if self.log is not None:
                self._event("game_over", winner=w, rule=self.rule)
            return
        scored = counted(self.masks[w], self.rule)
        won = cards_of(scored)
        points = sum(NUMBER[c] for c in won)
        self.scores[w] += points
        self.scored[w] += won
        self.palettes[w] = [c for c in self.palettes[w] if not scored & BIT[c]]
        self.masks[w] &= ~scored
        self.keys[w] = rule_keys(self.masks[w])
        self._find_leaders()
        for card in won:
            self.loc[card] = SCORED + w
        if self.log is not None:
            names = [card_name(c) for c in won]
            self._event("round_won", player=w, rule=self.rule, cards=names, points=points)
        left = NUM_CARDS - sum(len(s) for s in self.scored)
        if self.scores[w] >= self.game.rules.points_to_win or left < (HAND_SIZE + 1) * self.n:
            self.over = True
        elif self.round + 1 >= self.game.rules.max_rounds:
            self.over = self.truncated = True
        if self.over:
            self.current = -1
            if self.log is not None:
                kind = "truncated" if self.truncated else "game_over"
                self._event(kind, scores=self.scores[:], rounds=self.round + 1)
            return
        self.round += 1
        self._deal()

    def _illegal(self, action: Any) -> str:
        if self.over:
            return "the game is over: no action is legal"
        legal = ", ".join(f"{a} ({action_name(a)})" for a in self.legal_actions())
        return f"illegal action {action!r} for player_{self.current}; legal actions: {legal}"

    def _event(self, kind: str, **data: Any) -> None:
        if self.log is not None:
            data["type"] = kind
            self.log.append(data)

    # ------------------------------------------------------------------ information
    def view(self, seat: int) -> Red7View:
        """Everything ``seat`` may know: its hand (and its own folded hand), every palette,
        the canvas, who is out, the sizes of the hidden hands and of the draw pile."""
        return Red7View(
            seat=seat,
            legal=tuple(self.legal_actions()) if seat == self.current and not self.over else (),
            hand=tuple(self.hands[seat]),
            palettes=tuple(map(tuple, self.palettes)),
            active=tuple(self.active),
            canvas=tuple(self.canvas),
            rule=self.rule,
            winning=self.leader(),
            hand_sizes=tuple(map(len, self.hands)),
            draw_size=len(self.draw),
            folded=tuple(self.folded[seat]),
            eliminated=tuple(self.eliminated),
            current=-1 if self.over else self.current,
            round=self.round,
            scores=tuple(self.scores),
            scored=tuple(map(tuple, self.scored)),
            target=self.game.rules.points_to_win if self.game.points else 0,
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A copy with every card ``seat`` cannot see (other hands, folded hands of others,
        the draw pile) dealt afresh among those places, counts kept; no history, log or deck,
        and a fresh seed, so later rounds are unknown too."""
        c = self.clone()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        loc = c.loc
        places = [code for code in loc if _hidden_from(code, seat)]
        hidden = [card for card in range(NUM_CARDS) if _hidden_from(loc[card], seat)]
        rng.shuffle(hidden)
        for q in range(self.n):
            if q != seat:
                c.hands[q] = []
                c.folded[q] = []
        draw = []
        for card, code in zip(hidden, places, strict=True):
            loc[card] = code
            if code == DRAW:
                draw.append(card)
            elif code < PALETTE:
                c.hands[code].append(card)
            else:
                c.folded[code - FOLDED].append(card)
        for q in range(self.n):
            c.hands[q].sort()
        c.draw = draw
        return c


def _hidden_from(code: int, seat: int) -> bool:
    """Whether a card at location ``code`` is hidden from ``seat``."""
    return (
        code == DRAW
        or (code < PALETTE and code != seat)
        or (FOLDED <= code < DEAD and code - FOLDED != seat)
    )
