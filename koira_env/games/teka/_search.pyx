# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Teka core: Teka's parts of the loops of ``agents/ismcts.py`` and
``agents/flat.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``greedy_move`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Teka state (``bots.SEARCH``,
``bots.FLAT``); the results differ from theirs only in the random streams. Every deal is
``State.determinize``'s (core/_search_redeal.pxi): the other hands re-dealt within what the
play showed (voids, the declarer's trump lead, an honour in every hand under
``no_honours="redeal"``) and a fresh seed for the hands to come, which the core deals in C.
Rollouts play ``greedy_move`` in every seat (``bots.greedy_move``) or uniformly random legal
moves. Returns are the engine's (``State.result_into``).

``rollout_action``, ``dealt`` and ``search_returns`` expose the pieces so that tests can
compare them with ``bots.greedy_move``, ``State.determinize`` and ``State.returns``; the
search class and ``search`` / ``action_values`` are core/_search.pxi's.
"""

from libc.stdint cimport uint64_t

from koira_env.games.teka._compiled cimport (
    BID,
    DOUBLE,
    MAX_LEGAL,
    NEW_DEAL,
    NUM_CARDS,
    PASS,
    TRUMP,
    Data,
    State,
    beats,
    deal_hidden,
)

from koira_env.games.teka import bots


# ============================================================================ rollout policy
cdef int HCP[NUM_CARDS]  # bots.HCP: J 1, Q 2, K 3, A 4
cdef int SUIT[NUM_CARDS]
cdef int RANK_KEY[NUM_CARDS]  # bots._cheapest's key but for trumps (the rank, then the card)


cdef void _tables():
    cdef int c
    for c in range(NUM_CARDS):
        HCP[c] = bots.HCP[c]
        SUIT[c] = c // 13
        RANK_KEY[c] = c % 13 * 64 + c


_tables()


cdef int longest_suit(uint64_t hand) noexcept:
    """bots._longest_suit: the suit with the most cards, the most honour points on ties (the
    first such suit)."""
    cdef int c, suit, best = 0, best_key = -1
    cdef int size[4]
    cdef int points[4]
    for suit in range(4):
        size[suit] = points[suit] = 0
    for c in range(NUM_CARDS):
        if hand >> c & 1:
            size[c // 13] += 1
            points[c // 13] += HCP[c]
    for suit in range(4):
        if size[suit] * 64 + points[suit] > best_key:
            best_key = size[suit] * 64 + points[suit]
            best = suit
    return best


cdef inline int cheap_key(int card, int trump) noexcept:
    """bots._cheapest's key (a trump, the rank), then the card: as one int."""
    return (SUIT[card] == trump) * 13 * 64 + RANK_KEY[card]


cdef int greedy(State s, const short* legal, int count) noexcept:
    """bots.greedy_move: a new deal when allowed; the lowest legal bid with 16+ honour points
    (else pass, or the lowest bid when forced); its longest suit as trumps; never a raise; in
    play, the cheapest card that takes the trick from the opponents, else the cheapest."""
    cdef Data* d = &s.d
    cdef int p = d.h.current
    cdef int i, a, key, points, bid = -1, winner = -1, cheapest = -1
    cdef int winner_key = 1 << 30, cheapest_key = 1 << 30
    cdef bint can_pass = False, contest
    if count == 1:
        return legal[0]
    if legal[0] >= NUM_CARDS:
        for i in range(count):
            a = legal[i]
            if a == NEW_DEAL:
                return NEW_DEAL
            if a == PASS:
                can_pass = True
            elif BID <= a < DOUBLE and bid < 0:
                bid = a
        if legal[0] >= TRUMP:
            return TRUMP + longest_suit(d.hand[p])
        if bid >= 0:
            if not can_pass:
                return bid
            points = 0
            for i in range(NUM_CARDS):
                if d.hand[p] >> i & 1:
                    points += HCP[i]
            if points >= 16:
                return bid
        return PASS if can_pass else DOUBLE
    contest = d.trick_len and d.best_seat % 2 != p % 2  # the opponents hold the trick
    for i in range(count):
        a = legal[i]
        if a >= NUM_CARDS:
            continue
        key = cheap_key(a, d.trump)
        if key < cheapest_key:
            cheapest_key, cheapest = key, a
        if contest and key < winner_key and beats(a, d.best, d.trump):
            winner_key, winner = key, a
    return winner if winner >= 0 else cheapest


# ============================================================================ returns
cdef inline void returns_into(State s, double* out) noexcept:
    result_returns(s, out)


cdef Py_ssize_t dealt_cards(const Data* d) noexcept:
    """A deck a deal (a redeal takes the next): those of the deals so far."""
    return (d.deal_no + 1) * NUM_CARDS


cdef int refuse(State state) except -1:
    """Every state of a game in progress can be searched."""
    return 0


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return greedy(s, legal, count)


include "../../core/_search_redeal.pxi"
include "../../core/_search.pxi"
