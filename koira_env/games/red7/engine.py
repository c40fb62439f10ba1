"""The Red7 rules engine: a mutable state with a cheap ``clone()``.

One action is one whole turn: an optional card to the palette, then an optional card to the
canvas, or nothing (``pass``: the player is out). Only turns that leave the mover winning
are legal, besides ``pass``, so "whoever is not winning at the end of their turn is out"
reduces to "whoever passes is out" (RULES.md, section Red7, says why nothing is lost).

Each palette is a 49-bit int and carries its seven rule keys (``cards.rule_keys``) and its
groups (``cards.CGROUP``), updated when a card joins it; the state also keeps, per rule, the
best key and who holds it, so the legal turns compare each hand card's effect on the mover's
keys with one number per rule (``cards.turn_wins``). Games are short (6-12 turns at the basic
game), so the deal and the few last observations count as much as a turn: card locations
live in one ``locs`` bytearray, four bytes per card, that the deal fills with one
``bytes.maketrans`` and the observation turns into float32 blocks with ``bytes.translate``.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import events
from ...core.deck import hand_deck
from ...core.game import Outcome, places_from_scores, returns_from_places
from ...core.state import EngineState
from .cards import (
    BIT,
    CBIT,
    COLOUR,
    NUM_CARDS,
    NUM_COLOURS,
    NUMBER,
    RED,
    add_card,
    card_name,
    cards_of,
    counted,
    groups_of,
    keys_plus,
    rule_keys,
    turn_wins,
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
RULE_BIT = tuple(1 << r for r in range(NUM_COLOURS))
SINGLE_KEYS = tuple(rule_keys(BIT[c]) for c in range(NUM_CARDS))  # shared, never changed
SINGLE_GROUPS = tuple(tuple(groups_of(BIT[c])) for c in range(NUM_CARDS))
# DEAL_CODES[n][i]: where the deal puts the card at position i of the deck.
DEAL_CODES = {
    n: bytes(
        HAND + i % n if i < HAND_SIZE * n else PALETTE + i - HAND_SIZE * n if i < 8 * n else DRAW
        for i in range(NUM_CARDS)
    )
    for n in (2, 3, 4)
}
# ``State.locs`` holds location code ``v`` of card ``c`` as bytes ``4v, 4v + 1, 4v + 2, 4v + 3``
# at ``4c .. 4c + 3`` (LOC4[v], written at AT4[c]): one ``translate`` maps it to a float32 per
# card, byte by byte (``Red7Game.observation``); FROM_LOC4 reads the code back.
LOC4 = tuple(bytes(range(4 * v, 4 * v + 4)) for v in range(SCORED + 4))
AT4 = tuple(slice(4 * c, 4 * c + 4) for c in range(NUM_CARDS))
FROM_LOC4 = bytes(b // 4 for b in range(256))


def _fold4(p: int) -> bytes:
    """The ``locs`` translation putting seat p out: its hand FOLDED, its palette DEAD."""
    table = bytearray(range(256))
    for q in range(4):
        table[4 * (HAND + p) + q] = 4 * (FOLDED + p) + q
        table[4 * (PALETTE + p) + q] = 4 * (DEAD + p) + q
    return bytes(table)


FOLD4 = tuple(_fold4(p) for p in range(4))


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


class State(EngineState):
    """A game of Red7 in progress; build it with ``Red7Game.new_state``."""

    __slots__ = (
        "active",
        "alive",
        "best",
        "canvas",
        "draw",
        "eliminated",
        "folded",
        "groups",
        "hands",
        "is_terminal",
        "keys",
        "leaders",
        "leading",
        "locs",
        "masks",
        "palettes",
        "result",
        "round",
        "rule",
        "scored",
        "scores",
        "winner",
    )
    COPIED = (
        "active",
        "best",
        "canvas",
        "draw",
        "eliminated",
        "keys",
        "leaders",
        "leading",
        "locs",
        "masks",
        "scores",
    )
    NESTED = ("folded", "groups", "hands", "palettes", "scored")

    def __init__(self, game: Red7Game, deck: list[int], seed: Any, log: bool) -> None:
        n = game.num_players
        super().__init__(game, n, deck, seed, log)
        self.is_terminal = False
        self.result: Outcome | None = None
        self.winner = -1
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
        order = hand_deck(self.deck, self.seed, self.round, NUM_CARDS)
        scored = [c for cards in self.scored for c in cards]
        cards = [c for c in order if c not in scored] if scored else order
        dealt = HAND_SIZE * n
        self.hands = hands = []
        for p in range(n):
            hands.append(sorted(cards[p:dealt:n]))
        firsts = cards[dealt : dealt + n]
        self.palettes = []
        self.groups = []
        for card in firsts:
            self.palettes.append([card])
            self.groups.append(list(SINGLE_GROUPS[card]))
        self.masks = list(map(BIT.__getitem__, firsts))
        self.keys = list(map(SINGLE_KEYS.__getitem__, firsts))
        self._find_leaders()
        self.draw = cards[: dealt + n - 1 : -1]  # pop() takes the top: cards[dealt + n]
        # every card's location at once: position i of the deal goes to DEAL_CODES[n][i]
        codes = bytes.maketrans(bytes(cards), DEAL_CODES[n][: len(cards)])[:NUM_CARDS]
        if scored:
            codes = bytearray(codes)
            for p, cards_won in enumerate(self.scored):
                for card in cards_won:
                    codes[card] = SCORED + p
        self.locs = bytearray(b"".join(map(LOC4.__getitem__, codes)))
        self.canvas: list[int] = []
        self.rule = RED
        self.active = [True] * n
        self.alive = n
        self.folded: list[list[int]] = [[] for _ in range(n)]
        self.eliminated: list[int] = []
        if self.game.rules.first_player == "left_of_leader":
            self.current = (firsts.index(max(firsts)) + 1) % n
        else:
            self.current = self.round % n
        self.cached_legal = None
        if self.log is not None:
            self._event(
                events.DEAL,
                round=self.round,
                hands=[[card_name(c) for c in h] for h in hands],
                palettes=[card_name(p[0]) for p in self.palettes],
                first=self.current,
            )

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.is_terminal

    @property
    def loc(self) -> bytearray:
        """Each card's location code (``HAND + p`` ...): a copy read from ``locs``."""
        return self.locs[::4].translate(FROM_LOC4)

    def opponent_keys(self, seat: int) -> list[int]:
        """Per rule, the largest key among the other players (those out have zero keys)."""
        keys = self.keys
        if self.n == 2:
            return keys[1 - seat]
        return list(map(max, *keys[:seat], *keys[seat + 1 :]))

    def _find_leaders(self) -> None:
        """``best``, ``leaders`` and ``leading``: per rule the largest key and the seat holding
        it (-1 and 0 when nobody has a card the rule counts; those out have zero keys), and
        per seat the rules it leads. Kept up to date by ``_raise``."""
        columns = list(zip(*self.keys, strict=True))
        self.best = best = list(map(max, columns))
        self.leaders = leaders = []
        self.leading = leading = [0] * self.n
        for r, column in enumerate(columns):
            if best[r]:
                p = column.index(best[r])
                leaders.append(p)
                leading[p] |= RULE_BIT[r]
            else:
                leaders.append(-1)

    def _raise(self, p: int, keys: list[int]) -> None:
        """Seat ``p``'s keys have grown to ``keys``: it leads wherever it now beats the best."""
        best = self.best
        for r in range(NUM_COLOURS):
            if keys[r] > best[r]:
                best[r] = keys[r]
                q = self.leaders[r]
                if q != p:
                    self.leaders[r] = p
                    self.leading[p] |= RULE_BIT[r]
                    if q >= 0:
                        self.leading[q] ^= RULE_BIT[r]

    def leader(self) -> int:
        """The seat winning under the rule in force, or -1 when nobody has a card it counts."""
        return self.leaders[self.rule]

    def _legal(self) -> list[int]:
        """The legal turns, built in increasing order: ``pass``, the canvas cards alone, then
        per palette card (lowest first) that card alone and with each canvas card. A canvas
        card of colour r is legal after palette card x when x makes the mover lead under r
        (``turn_wins``); with no palette card, when it leads under r already."""
        if self.is_terminal:
            return []
        p = self.current
        hand = self.hands[p]
        rule = self.rule
        base = self.leading[p]
        needed = RULE_BIT[rule]
        for card in hand:
            needed |= CBIT[card]
        wins = turn_wins(hand, base, needed & ~base, self.keys[p], self.best, self.groups[p])
        canvas = []  # the canvas cards (ids + 1) legal without a palette card
        for card in hand:
            if base & CBIT[card]:
                canvas.append(card + 1)
        by_rules = {base: canvas}  # rule set -> the canvas cards (ids + 1) of those colours
        acts = [PASS, *canvas]
        for x, w in zip(hand, wins, strict=True):
            canvas = by_rules.get(w)
            if canvas is None:
                canvas = by_rules[w] = []
                for card in hand:
                    if w & CBIT[card]:
                        canvas.append(card + 1)
            palette = SLOTS * (x + 1)
            if w >> rule & 1:
                acts.append(palette)
            for c in canvas:
                acts.append(palette + c)
            if w & CBIT[x]:  # x itself cannot go to the canvas too
                acts.remove(palette + x + 1)
        return acts

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
        """The result, built once when the game ends (the env reads it twice)."""
        if not self.is_terminal or self.truncated:
            return None
        if self.result is None:
            places = self._places()
            if self.game.points:
                scores = tuple(float(s) for s in self.scores)
            else:
                scores = tuple(1.0 if p == self.winner else 0.0 for p in range(self.n))
            self.result = Outcome(
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
        return self.result

    # ------------------------------------------------------------------ apply
    def _act(self, action: int) -> None:
        """One turn: pass (out of the round) or play to the palette and/or the canvas; then
        the round's end when one player is left, else the next player still in."""
        p = self.current
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
        locs = self.locs
        drew = -1
        if palette >= 0:
            hand.remove(palette)
            self.palettes[p].append(palette)
            self.masks[p] |= BIT[palette]
            groups = self.groups[p]
            keys = self.keys[p] = keys_plus(self.keys[p], groups, palette)
            add_card(groups, palette)
            self._raise(p, keys)
            locs[AT4[palette]] = LOC4[PALETTE + p]
        if canvas >= 0:
            hand.remove(canvas)
            self.canvas.append(canvas)
            self.rule = COLOUR[canvas]
            locs[AT4[canvas]] = LOC4[CANVAS]
            draw = self.draw
            if self.game.rules.canvas_draw and draw and NUMBER[canvas] > len(self.palettes[p]):
                drew = draw.pop()
                insort(hand, drew)
                locs[AT4[drew]] = LOC4[HAND + p]
        if self.log is not None:
            event: dict[str, Any] = {"player": p}
            if palette >= 0:
                event["palette"] = card_name(palette)
            if canvas >= 0:
                event["canvas"] = card_name(canvas)
            if drew >= 0:
                event["drew"] = card_name(drew)  # the record's truth; no view shows it
            self._event(events.PLAY, **event)

    def _eliminate(self, p: int) -> None:
        """``p`` is out for the round: hand and palette face down in front of it."""
        self.active[p] = False
        self.alive -= 1
        self.eliminated.append(p)
        self.locs = self.locs.translate(FOLD4[p])  # its HAND and PALETTE cards all at once
        self.folded[p] = self.hands[p]
        self.hands[p] = []
        self.keys[p] = NO_KEYS  # its palette no longer counts
        if self.leading[p]:
            self._find_leaders()
        if self.log is not None:
            self._event("out", player=p, cards_left=len(self.folded[p]))

    def _end_round(self) -> None:
        """The last player in wins the round; with points scoring it scores the cards its
        palette's rule counts, and a new round is dealt unless the game is over."""
        w = self.active.index(True)
        self.winner = w
        if not self.game.points:
            self.is_terminal = True
            self.current = -1
            if self.log is not None:
                self._event(events.GAME_OVER, winner=w, rule=self.rule)
            return
        scored = counted(self.masks[w], self.rule)
        won = cards_of(scored)
        points = sum(NUMBER[c] for c in won)
        self.scores[w] += points
        self.scored[w] += won
        self.palettes[w] = [c for c in self.palettes[w] if not scored & BIT[c]]
        self.masks[w] &= ~scored
        self.keys[w] = rule_keys(self.masks[w])
        self.groups[w] = groups_of(self.masks[w])
        self._find_leaders()
        for card in won:
            self.locs[AT4[card]] = LOC4[SCORED + w]
        if self.log is not None:
            names = [card_name(c) for c in won]
            self._event("round_won", player=w, rule=self.rule, cards=names, points=points)
        left = NUM_CARDS - sum(len(s) for s in self.scored)
        if self.scores[w] >= self.game.rules.points_to_win or left < (HAND_SIZE + 1) * self.n:
            self.is_terminal = True
        elif self.round + 1 >= self.game.rules.max_rounds:
            self.is_terminal = self.truncated = True
        if self.is_terminal:
            self.current = -1
            if self.log is not None:
                kind = events.TRUNCATED if self.truncated else events.GAME_OVER
                self._event(kind, scores=self.scores[:], rounds=self.round + 1)
            return
        self.round += 1
        self._deal()

    # ------------------------------------------------------------------ information
    def view(self, seat: int) -> Red7View:
        """Everything ``seat`` may know: its hand (and its own folded hand), every palette,
        the canvas, who is out, the sizes of the hidden hands and of the draw pile."""
        return Red7View(
            seat=seat,
            legal=tuple(self.legal_actions())
            if seat == self.current and not self.is_terminal
            else (),
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
            current=-1 if self.is_terminal else self.current,
            round=self.round,
            scores=tuple(self.scores),
            scored=tuple(map(tuple, self.scored)),
            target=self.game.rules.points_to_win if self.game.points else 0,
        )

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A copy with every card ``seat`` cannot see (other hands, folded hands of others,
        the draw pile) dealt afresh among those places, counts kept; no history, log or deck,
        and a fresh seed, so later rounds are unknown too."""
        c = self._unseen_copy(rng)
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
        c.locs = bytearray(b"".join(map(LOC4.__getitem__, loc)))
        return c


def _hidden_from(code: int, seat: int) -> bool:
    """Whether a card at location ``code`` is hidden from ``seat``."""
    return (
        code == DRAW
        or (code < PALETTE and code != seat)
        or (FOLDED <= code < DEAD and code - FOLDED != seat)
    )
