# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The compiled Red7 core: the rules engine and the observation writer in Cython.

``engine.py`` and ``cards.py`` are the readable reference and RULES.md points at them; this
module plays exactly the same games, faster, and ``tests/games/red7/test_red7_compiled.py`` proves it by
playing both side by side and comparing every step (whose turn, the legal turns, the
observation bytes of every seat, the views, returns, events, records). Each rule is one
function or method named as in the reference; each says which one it mirrors. ``Red7Game``
uses this module unless asked for ``engine="python"`` (game.py).

Python interface: ``State`` behaves as ``engine.State`` does (same attributes, methods, errors
and event dicts; reading ``hands``, ``keys`` and friends builds them, so they are for tools,
bots and tests, not hot loops), and ``Engine(rules)`` writes observations and masks as
``Red7Game.observation`` and ``Game.action_mask`` do: ``observation(state, seat)`` (a fresh
float32 vector), ``observe_into(state, seat, row)`` (into a caller's float32 row) and
``action_mask(legal)``; ``turn_features(state, seat, legal)`` writes ``turns.py``'s rows.

C side (declared in ``_compiled.pxd``, which the compiled search ``_search.pyx`` cimports):
``State.d`` is a plain struct (``Data``): hands and palettes as 49-bit card masks (a
hand is always sorted, so its mask is the list), each palette's play order, keys and groups
(``cards.CGROUP``) as the reference keeps them, per rule the best key and its seat, the draw
pile, the canvas and every card's location code. ``clone()`` copies it whole. Events are
logged only when ``state.log`` is a list (``log=True``), as in the reference.

The module is split by concern, each part mirroring a reference module: ``_tables.pxi``
(cards.py's tables as C arrays), ``_turns.pxi`` (turns.py: the turn features),
``_observation.pxi`` (game.py's observation: ``Engine`` and ``write_observation``),
``_hidden.pxi`` (engine.py: the cards a seat cannot see, which ``determinize`` deals),
``_adapters.pxi`` (engine.State's attributes, on the base class ``StateAttributes``) and, from
core/, ``_determinize.pxi`` (the deal every compiled core's ``determinize`` shares). The
rules, the card functions of cards.py and ``State``, are here.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from koira_env.core._bits cimport cards_of, highest, lowest, popcount
from koira_env.core._engine cimport places_of_scores, returns_of_places
from koira_env.core._hidden cimport MAX_HIDDEN, hide
from koira_env.core._lists cimport int_list
from koira_env.core._mask cimport legal_mask
from koira_env.core._shuffle cimport hand_deck_into

from operator import index

from ...core.game import (
    IllegalActionError,
    Outcome,
    places_from_scores,
    returns_from_places,
)
from . import cards as ref_cards
from . import engine as reference
from . import turns as ref_turns
from .engine import Red7View

cnp.import_array()



include "_tables.pxi"


# ============================================================================ card masks
cdef inline uint64_t bit(int card) noexcept nogil:
    return (<uint64_t>1) << card  # the cast matters: a plain 1 << 48 is a 32-bit shift


cdef inline int key_of(uint64_t cards) noexcept nogil:
    """cards._key: ``count << 6 | best`` of a set of cards that all count, 0 when empty."""
    return popcount(cards) << 6 | highest(cards) if cards else 0


cdef void rule_keys(uint64_t mask, uint16_t* keys) noexcept nogil:
    """cards.rule_keys: the palette's key under each of the seven rules, red first."""
    cdef int k, key, top, best, length, high
    cdef int orange = 0, yellow = 0, colours = 0, numbers = 0
    cdef int group
    if not mask:
        memset(keys, 0, NUM_COLOURS * sizeof(uint16_t))
        return
    top = highest(mask)
    for k in range(7):
        group = (mask >> (7 * k)) & 0x7F
        if group:
            key = popcount(group) << 6 | (7 * k + TOP_BIT[group])
            if key > orange:
                orange = key
            colours |= group
            numbers |= 1 << k
        key = key_of(mask & COLOUR_MASK[k])
        if key > yellow:
            yellow = key
    length = RUN_LEN[numbers]
    high = RUN_HIGH[numbers]
    keys[0] = 64 | top
    keys[1] = orange
    keys[2] = yellow
    keys[3] = key_of(mask & EVEN_MASK)
    keys[4] = popcount(colours) << 6 | top
    keys[5] = length << 6 | (7 * high + TOP_BIT[(mask >> (7 * high)) & 0x7F])
    keys[6] = key_of(mask & LOW_MASK)


cdef inline void add_card(uint8_t* groups, int card) noexcept nogil:
    """cards.add_card: add ``card`` to a palette's groups, in place."""
    groups[NUM[card]] |= NBIT[card]
    groups[CGI[card]] |= KBIT[card]
    groups[NUMBERS] |= KBIT[card]
    groups[COLOURS_IN] |= CBIT[card]


cdef inline void groups_of(uint64_t mask, uint8_t* groups) noexcept nogil:
    """cards.groups_of"""
    memset(groups, 0, NUM_GROUPS)
    while mask:
        add_card(groups, lowest(mask))
        mask &= mask - 1


cdef inline int plus_one(int key, int card) noexcept nogil:
    """A green / violet key with one more counted card (cards.keys_plus)."""
    return ((key >> 6) + 1) << 6 | (card if card > (key & 63) or not key else key & 63)


cdef inline void keys_plus(
    const uint16_t* keys, const uint8_t* groups, int card, uint16_t* out
) noexcept nogil:
    """cards.keys_plus: ``rule_keys`` of the palette with ``card`` added, from its keys and
    its groups (only the groups the card joins can change)."""
    cdef int k = NUM[card]
    cdef int red = keys[0]
    cdef int top = red & 63
    cdef int best = card if card > top or not red else top
    cdef int orange = keys[1], yellow = keys[2], key, numbers, high, group
    key = ORANGE_PLUS[card][groups[k]]
    if key > orange:
        orange = key
    key = YELLOW_PLUS[card][groups[CGI[card]]]
    if key > yellow:
        yellow = key
    numbers = groups[NUMBERS] | KBIT[card]
    high = RUN_HIGH[numbers]
    group = groups[high] | NBIT[card] if high == k else groups[high]
    out[0] = 64 | best
    out[1] = orange
    out[2] = yellow
    out[3] = keys[3] if ODD[card] else plus_one(keys[3], card)
    out[4] = ((keys[4] >> 6) + (0 if groups[CGI[card]] else 1)) << 6 | best
    out[5] = RUN_LEN[numbers] << 6 | (7 * high + TOP_BIT[group])
    out[6] = keys[6] if HIGH[card] else plus_one(keys[6], card)


cdef inline int colours_into(uint64_t hand, uint64_t* by_colour) noexcept nogil:
    """The hand's cards of each colour into ``by_colour``; returns the colours it holds."""
    cdef int r, colours = 0
    for r in range(NUM_COLOURS):
        by_colour[r] = hand & COLOUR_MASK[r]
        if by_colour[r]:
            colours |= 1 << r
    return colours


cdef inline uint64_t canvas_cards(const uint64_t* by_colour, int rules) noexcept nogil:
    """The hand's cards (``by_colour``: by colour) of a colour in ``rules``."""
    cdef uint64_t cards = 0
    while rules:
        cards |= by_colour[lowest(rules)]
        rules &= rules - 1
    return cards


cdef inline int turns_into(uint64_t cards, int palette, short* out) noexcept nogil:
    """The turns ``palette`` + each of ``cards`` to the canvas, lowest first; returns how
    many."""
    cdef int count = 0
    while cards:
        out[count] = palette + lowest(cards) + 1
        count += 1
        cards &= cards - 1
    return count


cdef inline int rules_after(const Data* d, int p, int x, int todo) noexcept nogil:
    """The rules under which seat ``p`` leads once palette card ``x`` joins its palette: those
    it leads now, and of the others in ``todo`` those where ``x`` lifts its key above the
    best (``keys_plus``, the question ``cards.turn_wins`` answers)."""
    cdef uint16_t keys[NUM_COLOURS]
    cdef int r, w = d.leading[p]
    if todo:
        keys_plus(d.keys[p], d.groups[p], x, keys)
        for r in range(NUM_COLOURS):
            if todo >> r & 1 and keys[r] > d.best[r]:
                w |= 1 << r
    return w


cdef inline int highest_in(uint64_t cards) noexcept nogil:
    return highest(cards)


cdef uint64_t counted(uint64_t mask, int rule) noexcept nogil:
    """cards.counted: the cards of a palette that the rule counts (what Advanced Red7
    scores): for orange / yellow the best group (the largest key), for blue the best card of
    each colour, for indigo the best card of each number of the longest run."""
    cdef int k, key, best_key, length, top, numbers
    cdef uint64_t group, chosen = 0
    if not mask:
        return 0
    if rule == 0:
        return bit(highest(mask))
    if rule == 3:
        return mask & EVEN_MASK
    if rule == 6:
        return mask & LOW_MASK
    if rule == 1 or rule == 2:
        best_key = -1
        for k in range(7):
            group = mask & (NUMBER_MASK[k] if rule == 1 else COLOUR_MASK[k])
            key = key_of(group)
            if key > best_key:  # max() keeps the first of equal keys: only empty groups tie
                best_key = key
                chosen = group
        return chosen
    if rule == 4:
        for k in range(7):
            group = mask & COLOUR_MASK[k]
            if group:
                chosen |= bit(highest(group))
        return chosen
    numbers = 0
    for k in range(7):
        if mask & NUMBER_MASK[k]:
            numbers |= 1 << k
    length = RUN_LEN[numbers]
    top = RUN_HIGH[numbers]
    for k in range(top - length + 1, top + 1):
        chosen |= bit(highest(mask & NUMBER_MASK[k]))
    return chosen


# Python access to the ported card functions, for the tests against cards.py
def py_rule_keys(mask):
    cdef uint16_t keys[NUM_COLOURS]
    rule_keys(mask, keys)
    return [keys[r] for r in range(NUM_COLOURS)]


def py_keys_plus(keys, groups, int card):
    cdef uint16_t k[NUM_COLOURS]
    cdef uint16_t out[NUM_COLOURS]
    cdef uint8_t g[NUM_GROUPS]
    cdef int i
    for i in range(NUM_COLOURS):
        k[i] = keys[i]
    for i in range(NUM_GROUPS):
        g[i] = groups[i]
    keys_plus(k, g, card, out)
    return [out[i] for i in range(NUM_COLOURS)]


def py_counted(mask, int rule):
    return counted(mask, rule)


def py_groups_of(mask):
    cdef uint8_t g[NUM_GROUPS]
    groups_of(mask, g)
    return [g[i] for i in range(NUM_GROUPS)]


# ============================================================================ helpers
cdef list mask_list(uint64_t mask):
    cdef uint8_t cards[NUM_CARDS]
    return int_list(cards, cards_of(mask, cards))


cdef list name_list(const uint8_t* cards, int count):
    return [NAMES[cards[i]] for i in range(count)]


include "_hidden.pxi"
include "_turns.pxi"
include "_observation.pxi"
include "_adapters.pxi"
include "../../core/_determinize.pxi"


# returns_from_places by places: at most 4 ** 4 tuples, and the one Python call of an outcome
cdef dict RETURNS = {}

# ============================================================================ the state
@cython.final
cdef class State:
    """A game of Red7 in progress, as ``engine.State`` (build it with ``Red7Game.new_state``)."""

    # ------------------------------------------------------------------ setup
    def __cinit__(self, *args, **kwargs):
        self.head = &self.d.h
        self.data_size = sizeof(Data)

    cdef int _begin(self) except -1:
        """engine.State.__init__ (``CompiledState._start`` set the rest): the first deal."""
        self.d.winner = -1
        return self._deal()

    cdef int deal_size(self) noexcept:
        return NUM_CARDS

    cdef bint deals_again(self) noexcept:
        return self.opt.points  # points scoring plays rounds, each dealt from a new deck

    engine_type = Engine

    cdef void _bind(self, game) except *:
        CompiledState._bind(self, game)
        self.opt = &(<Engine>self.engine).opt

    cdef int _deal(self) except -1:
        """engine.State._deal: deal round ``round`` from its deck, leaving out the cards
        scored so far: seven cards to each hand one at a time from player_0, then one card
        face up to each palette in seat order; the rest is the draw pile, the deck's next card
        on top."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef uint8_t cards[NUM_CARDS]
        cdef int order[NUM_CARDS]
        cdef int count = 0, i, p, card, dealt = HAND_SIZE * n, first = 0
        cdef uint64_t seen = 0
        hand_deck_into(self.deck, self.seed, d.round, NUM_CARDS, order)
        for i in range(NUM_CARDS):
            card = order[i]
            if not 0 <= card < NUM_CARDS or seen & bit(card):
                break
            seen |= bit(card)
            if not d.scored_all & bit(card):
                cards[count] = card
                count += 1
        if seen != bit(NUM_CARDS) - 1:
            start = d.round * NUM_CARDS
            listed = self.deck[start : start + NUM_CARDS]
            raise ValueError(f"a deck must hold each card id 0..48 once, got {listed!r}")
        for p in range(n):
            d.hand[p] = 0
        for i in range(dealt):
            d.hand[i % n] |= bit(cards[i])
            d.loc[cards[i]] = HAND + i % n
        for p in range(n):
            card = cards[dealt + p]
            d.palette[p][0] = card
            d.palette_len[p] = 1
            d.mask[p] = bit(card)
            rule_keys(bit(card), d.keys[p])
            groups_of(bit(card), d.groups[p])
            d.loc[card] = PALETTE + p
            if card > cards[dealt + first]:
                first = p
        self._find_leaders()
        d.draw_len = count - dealt - n
        for i in range(d.draw_len):  # the top (last) card is the deck's next one
            d.draw[i] = cards[count - 1 - i]
            d.loc[d.draw[i]] = DRAW
        for p in range(n):
            for i in range(d.scored_len[p]):
                d.loc[d.scored[p][i]] = SCORED + p
            d.active[p] = True
            d.folded_len[p] = 0
        d.canvas_len = 0
        d.rule = RED
        d.alive = n
        d.eliminated_len = 0
        d.h.current = (first + 1) % n if self.opt.left_of_leader else d.round % n
        if self.log is not None:
            hands = [mask_list(d.hand[p]) for p in range(n)]
            self.log.append(
                {
                    "round": d.round,
                    "hands": [[NAMES[c] for c in hand] for hand in hands],
                    "palettes": [NAMES[d.palette[p][0]] for p in range(n)],
                    "first": d.h.current,
                    "type": "deal",
                }
            )
        return 0

    cdef State clone_c(self):
        """engine.State.clone: a deep copy that shares only immutable parts."""
        cdef State c = State.__new__(State)
        self.copy_into(c)
        c.opt = self.opt
        c.result = self.result
        return c

    # ------------------------------------------------------------------ leaders
    cdef void _find_leaders(self) noexcept:
        """engine.State._find_leaders: per rule the largest key and the first seat holding it
        (-1 when nobody has a card the rule counts), and per seat the rules it leads."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int r, p, best, leader
        for p in range(n):
            d.leading[p] = 0
        for r in range(NUM_COLOURS):
            best = 0
            leader = -1
            for p in range(n):
                if d.keys[p][r] > best:
                    best = d.keys[p][r]
                    leader = p
            d.best[r] = best
            d.leaders[r] = leader
            if leader >= 0:
                d.leading[leader] |= 1 << r

    cdef void _raise(self, int p) noexcept:
        """engine.State._raise: seat ``p``'s keys have grown; it leads wherever it now beats
        the best."""
        cdef Data* d = &self.d
        cdef int r, q
        for r in range(NUM_COLOURS):
            if d.keys[p][r] > d.best[r]:
                d.best[r] = d.keys[p][r]
                q = d.leaders[r]
                if q != p:
                    d.leaders[r] = p
                    d.leading[p] |= 1 << r
                    if q >= 0:
                        d.leading[q] ^= 1 << r

    # ------------------------------------------------------------------ legal turns
    cdef int legal_into(self, short* out) noexcept:
        """engine.State._legal into ``out`` (in increasing order); returns the count: ``pass``,
        the canvas cards alone, then per palette card (lowest first) that card alone and with
        each canvas card. A canvas card of colour r is legal after palette card x when x makes
        the mover lead under r (``rules_after``); with no palette card, when it leads under r
        already. The canvas cards of a set of rules are read off the hand's cards by colour,
        lowest first (a test per hand card and palette card mispredicted: a third of the
        call)."""
        cdef Data* d = &self.d
        cdef uint8_t hand[NUM_CARDS]
        cdef uint64_t by_colour[NUM_COLOURS]
        cdef int count, size, i, x, w, palette, todo
        cdef int p = d.h.current
        cdef int rule = d.rule
        if d.h.is_terminal:
            return 0
        size = cards_of(d.hand[p], hand)
        todo = (colours_into(d.hand[p], by_colour) | 1 << rule) & ~d.leading[p]
        out[0] = PASS
        count = 1 + turns_into(canvas_cards(by_colour, d.leading[p]), 0, out + 1)
        for i in range(size):
            x = hand[i]
            w = rules_after(d, p, x, todo)
            palette = SLOTS * (x + 1)
            if w >> rule & 1:
                out[count] = palette
                count += 1
            count += turns_into(canvas_cards(by_colour, w) & ~bit(x), palette, out + count)
        return count

    cdef int parts_into(self, int parts, int pending, short* out) noexcept:
        """``core.parts``' legal parts of a turn without listing the turns (the base's way):
        with no part chosen, slot 0 (passing is always legal) and each hand card's palette
        slot that some canvas slot completes; after palette slot ``pending``, its canvas
        slots. A split env asks at every decision, and a second part needs one palette
        card's rules, not the whole hand's."""
        cdef Data* d = &self.d
        cdef uint8_t hand[NUM_CARDS]
        cdef uint64_t by_colour[NUM_COLOURS]
        cdef int count, size, i, x, w, todo
        cdef int p = d.h.current
        cdef int rule = d.rule
        if parts != SLOTS:
            return CompiledState.parts_into(self, parts, pending, out)
        if d.h.is_terminal or pending >= SLOTS:
            return 0
        todo = (colours_into(d.hand[p], by_colour) | 1 << rule) & ~d.leading[p]
        out[0] = 0
        count = 1
        if pending == 0:  # no palette card: pass, or a canvas card the mover leads under
            return count + turns_into(canvas_cards(by_colour, d.leading[p]), 0, out + 1)
        if pending > 0:
            x = pending - 1
            if not d.hand[p] & bit(x):
                return 0
            w = rules_after(d, p, x, todo)
            count = 1 if w >> rule & 1 else 0  # slot 0: the palette card alone
            return count + turns_into(canvas_cards(by_colour, w) & ~bit(x), 0, out + count)
        size = cards_of(d.hand[p], hand)
        for i in range(size):
            x = hand[i]
            w = rules_after(d, p, x, todo)
            if w >> rule & 1 or canvas_cards(by_colour, w) & ~bit(x):
                out[count] = x + 1
                count += 1
        return count

    def leader(self):
        """The seat winning under the rule in force, or -1 when nobody has a card it counts."""
        return self.d.leaders[self.d.rule]

    def opponent_keys(self, int seat):
        """Per rule, the largest key among the other players (those out have zero keys)."""
        cdef int r, q, value
        cdef int n = self.opt.n
        if not 0 <= seat < n:
            raise IndexError(f"seat must be in 0..{n - 1}, got {seat}")
        if n == 2:
            return [self.d.keys[1 - seat][r] for r in range(NUM_COLOURS)]
        result = []
        for r in range(NUM_COLOURS):
            value = 0
            for q in range(n):
                if q != seat and self.d.keys[q][r] > value:
                    value = self.d.keys[q][r]
            result.append(value)
        return result

    # ------------------------------------------------------------------ results
    def returns(self):
        """Zero-sum returns from the places (``outcome``); zeros before the end and when
        truncated."""
        outcome = self.outcome()
        return [0.0] * self.opt.n if outcome is None else list(outcome.returns)

    def outcome(self):
        """The result, built once when the game ends (the env reads it twice)."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int p, rank
        if not d.h.is_terminal or d.h.truncated:
            return None
        if self.result is None:
            if self.opt.points:
                places = places_from_scores([d.scores[p] for p in range(n)])
                scores = tuple([float(d.scores[p]) for p in range(n)])
            else:
                if self.opt.elimination:
                    places = [1] * n
                    for rank in range(d.eliminated_len):
                        places[d.eliminated[d.eliminated_len - 1 - rank]] = rank + 2
                else:
                    places = [1 if p == d.winner else 2 for p in range(n)]
                scores = tuple([1.0 if p == d.winner else 0.0 for p in range(n)])
            places = tuple(places)
            returns = RETURNS.get(places)
            if returns is None:
                returns = RETURNS[places] = tuple(returns_from_places(places))
            self.result = Outcome(
                places,
                returns,
                scores,
                None,
                {
                    "round_winner": d.winner,
                    "rule": d.rule,
                    "rounds": d.round + 1,
                    "eliminated": int_list(d.eliminated, d.eliminated_len),
                },
            )
        return self.result

    cdef int result_into(self, float* returns, int64_t* places) except -1:
        """``returns()`` and ``outcome().places`` of the finished game without building the
        outcome (the batched env's result): the places as ``outcome`` gives them."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int p, rank
        cdef double scores[MAX_PLAYERS]
        if self.opt.points:
            for p in range(n):
                scores[p] = d.scores[p]
            places_of_scores(n, scores, places)
        elif self.opt.elimination:
            for p in range(n):
                places[p] = 1
            for rank in range(d.eliminated_len):
                places[d.eliminated[d.eliminated_len - 1 - rank]] = rank + 2
        else:
            for p in range(n):
                places[p] = 1 if p == d.winner else 2
        returns_of_places(n, places, returns)
        return 0

    # ------------------------------------------------------------------ apply
    cdef int apply_c(self, int action) except -1:
        """engine.State.apply, for an int action."""
        cdef short buf[MAX_LEGAL]
        cdef int count = self.legal_into(buf)
        cdef int i
        for i in range(count):
            if buf[i] == action:
                break
        else:
            raise IllegalActionError(self._illegal(action))
        return self.apply_legal(action)

    cdef int apply_legal(self, int action) except -1:
        """``apply_c`` without the legality check, for an action ``legal_into`` gave (search
        copies keep no history: ``history`` None)."""
        cdef Data* d = &self.d
        cdef int p = d.h.current
        cdef int q
        if self.history is not None:
            self.history.append(action)
        d.h.actions_taken += 1
        if action == PASS:
            self._eliminate(p)
        else:
            self._play(p, action // SLOTS - 1, action % SLOTS - 1)
        if d.alive == 1:
            return self._end_round()
        q = p + 1 if p + 1 < self.opt.n else 0
        while not d.active[q]:
            q = q + 1 if q + 1 < self.opt.n else 0
        d.h.current = q
        return 0

    cdef int _play(self, int p, int palette, int canvas) except -1:
        """engine.State._play: a card to the palette, then a card to the canvas (which sets
        the rule and, with canvas_draw, may draw the top card of the draw pile)."""
        cdef Data* d = &self.d
        cdef uint16_t keys[NUM_COLOURS]
        cdef int drew = -1
        if palette >= 0:
            d.hand[p] &= ~bit(palette)
            d.palette[p][d.palette_len[p]] = palette
            d.palette_len[p] += 1
            d.mask[p] |= bit(palette)
            keys_plus(d.keys[p], d.groups[p], palette, keys)
            memcpy(d.keys[p], keys, sizeof(keys))
            add_card(d.groups[p], palette)
            self._raise(p)
            d.loc[palette] = PALETTE + p
        if canvas >= 0:
            d.hand[p] &= ~bit(canvas)
            d.canvas[d.canvas_len] = canvas
            d.canvas_len += 1
            d.rule = COLOUR[canvas]
            d.loc[canvas] = CANVAS
            if self.opt.canvas_draw and d.draw_len and NUMBER[canvas] > d.palette_len[p]:
                d.draw_len -= 1
                drew = d.draw[d.draw_len]
                d.hand[p] |= bit(drew)
                d.loc[drew] = HAND + p
        if self.log is not None:
            event = {"player": p}
            if palette >= 0:
                event["palette"] = NAMES[palette]
            if canvas >= 0:
                event["canvas"] = NAMES[canvas]
            if drew >= 0:
                event["drew"] = NAMES[drew]  # the record's truth; no view shows it
            event["type"] = "play"
            self.log.append(event)
        return 0

    cdef int _eliminate(self, int p) except -1:
        """engine.State._eliminate: ``p`` is out for the round, hand and palette face down."""
        cdef Data* d = &self.d
        cdef int c
        d.active[p] = False
        d.alive -= 1
        d.eliminated[d.eliminated_len] = p
        d.eliminated_len += 1
        for c in range(NUM_CARDS):  # its HAND and PALETTE cards all at once
            if d.loc[c] == HAND + p:
                d.loc[c] = FOLDED + p
            elif d.loc[c] == PALETTE + p:
                d.loc[c] = DEAD + p
        d.folded_len[p] = cards_of(d.hand[p], d.folded[p])
        d.hand[p] = 0
        memset(d.keys[p], 0, sizeof(d.keys[p]))  # its palette no longer counts
        if d.leading[p]:
            self._find_leaders()
        if self.log is not None:
            self.log.append({"player": p, "cards_left": d.folded_len[p], "type": "out"})
        return 0

    cdef int _end_round(self) except -1:
        """engine.State._end_round: the last player in wins the round; with points scoring it
        scores the cards its palette's rule counts, and a new round is dealt unless the game
        is over."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int w = 0, points = 0, i, j, count, left
        cdef uint8_t won[NUM_CARDS]
        cdef uint64_t scored
        while not d.active[w]:
            w += 1
        d.winner = w
        if not self.opt.points:
            d.h.is_terminal = True
            d.h.current = -1
            if self.log is not None:
                self.log.append({"winner": w, "rule": d.rule, "type": "game_over"})
            return 0
        scored = counted(d.mask[w], d.rule)
        count = cards_of(scored, won)
        for i in range(count):
            points += NUMBER[won[i]]
            d.scored[w][d.scored_len[w] + i] = won[i]
            d.loc[won[i]] = SCORED + w
        d.scores[w] += points
        d.scored_len[w] += count
        d.scored_all |= scored
        j = 0
        for i in range(d.palette_len[w]):
            if not scored & bit(d.palette[w][i]):
                d.palette[w][j] = d.palette[w][i]
                j += 1
        d.palette_len[w] = j
        d.mask[w] &= ~scored
        rule_keys(d.mask[w], d.keys[w])
        groups_of(d.mask[w], d.groups[w])
        self._find_leaders()
        if self.log is not None:
            self.log.append(
                {
                    "player": w,
                    "rule": d.rule,
                    "cards": name_list(won, count),
                    "points": points,
                    "type": "round_won",
                }
            )
        left = NUM_CARDS - popcount(d.scored_all)
        if d.scores[w] >= self.opt.target or left < (HAND_SIZE + 1) * n:
            d.h.is_terminal = True
        elif d.round + 1 >= self.opt.max_rounds:
            d.h.is_terminal = d.h.truncated = True
        if d.h.is_terminal:
            d.h.current = -1
            if self.log is not None:
                self.log.append(
                    {
                        "scores": [d.scores[i] for i in range(n)],
                        "rounds": d.round + 1,
                        "type": "truncated" if d.h.truncated else "game_over",
                    }
                )
            return 0
        d.round += 1
        return self._deal()

    # ------------------------------------------------------------------ information
    def view(self, int seat):
        """Everything ``seat`` may know (``engine.Red7View``, as ``engine.State.view``). As
        there, a negative seat counts from the end (-1: the last seat; ``render`` asks for
        ``current``, -1, once the game is over)."""
        cdef Data* d = &self.d
        cdef int n = self.opt.n
        cdef int p
        cdef int at = seat + n if seat < 0 else seat  # the reference indexes lists by seat
        if not 0 <= at < n:
            raise IndexError(f"seat must be in {-n}..{n - 1}, got {seat}")
        return Red7View(
            seat,
            tuple(self.legal_actions()) if seat == d.h.current and not d.h.is_terminal else (),
            tuple(mask_list(d.hand[at])),
            tuple([tuple(int_list(d.palette[p], d.palette_len[p])) for p in range(n)]),
            tuple([bool(d.active[p]) for p in range(n)]),
            tuple(int_list(d.canvas, d.canvas_len)),
            d.rule,
            d.leaders[d.rule],
            tuple([popcount(d.hand[p]) for p in range(n)]),
            d.draw_len,
            tuple(int_list(d.folded[at], d.folded_len[at])),
            tuple(int_list(d.eliminated, d.eliminated_len)),
            -1 if d.h.is_terminal else d.h.current,
            d.round,
            tuple([d.scores[p] for p in range(n)]),
            tuple([tuple(int_list(d.scored[p], d.scored_len[p])) for p in range(n)]),
            self.opt.target if self.opt.points else 0,
        )

    def determinize(self, int seat, rng):
        """engine.State.determinize: a copy with every card ``seat`` cannot see (other hands,
        folded hands of others, the draw pile) dealt afresh among those places, counts kept;
        no history, log or deck, and a fresh seed. The same calls to ``rng`` (``getrandbits``,
        then one ``shuffle``) as the reference, so both engines give the same deal (for any
        int ``seat``, as there: one that is no seat sees no hand)."""
        cdef State c = self.clone_c()
        c.history = []
        c.log = None
        c.deck = []
        c.seed = rng.getrandbits(63)
        deal_hidden(self, c, seat, rng)
        return c
