# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""SO-ISMCTS and flat Monte Carlo on the compiled Koira core: Koira's parts of the loops that
``koira_env/core/_tree.pyx`` runs for every compiled game.

``agents/ismcts.py`` is the readable reference of the algorithm and calls ``search`` here for
a compiled Koira state (``agents/flat.py`` likewise ``action_values``); the two differ only in
their random streams. What is Koira's: the cards the seat cannot see and how a shuffle of
them is placed (``_compiled``'s ``find_hidden`` and ``place_hidden``, as ``State.determinize``
deals: the reference's distribution), the rollout policy (``dumper``: the move
``bots.dumper_move`` picks, or uniformly random moves) and the returns (``returns_into``).

``rollout_action(state)`` exposes the rollout policy so that a test can compare it with
``bots.dumper_move`` on many states; ``hidden_cards`` and ``determinized`` expose the deals.
"""

from koira_env.core._rng cimport Rng
from koira_env.games.koira._compiled cimport (
    GAME_OVER,
    MAX_LEGAL,
    PHASE_ONE,
    RISK,
    TAKE,
    Data,
    State,
    find_hidden,
    place_hidden,
)

from .heuristics import ACT_LEN, ACT_RANK, ACT_SUIT

cdef enum:
    NUM_ACTION_IDS = MAX_LEGAL  # action ids are 0 .. 365
    WIN = 0
    WAR = 1
    LOSE = 2

# per action id (heuristics.py's tables): rank and suit of its lowest card, cards it sheds
cdef signed char A_RANK[NUM_ACTION_IDS]
cdef signed char A_SUIT[NUM_ACTION_IDS]
cdef signed char A_LEN[NUM_ACTION_IDS]


cdef void _fill_tables() except *:
    cdef int a
    for a in range(NUM_ACTION_IDS):
        A_RANK[a] = ACT_RANK[a] if a < len(ACT_RANK) else -1
        A_SUIT[a] = ACT_SUIT[a] if a < len(ACT_SUIT) else -1
        A_LEN[a] = ACT_LEN[a] if a < len(ACT_LEN) else 0


_fill_tables()


# ============================================================================ rollout policy
cdef inline int card_outcome(int rank, int mask, int top, int tie, bint any_tie) noexcept nogil:
    """heuristics.card_outcome."""
    if mask >> rank & 1:
        if (any_tie and rank >= tie) or rank == top:
            return WAR
        return LOSE
    if rank > top and (not any_tie or tie < 0):
        return WIN
    return LOSE


cdef int dumper(State s, short* legal, int count) noexcept:
    """bots.dumper_move (HeuristicAgent(win="never", war=-1)): in phase one the lowest card
    that neither leads nor ties the round, else the lowest that leads, else the lowest tie,
    never a risk; in phase two the cheapest play (non-trumps first, longest run, lowest rank),
    a take only when nothing else is legal. Ties go to the first in legal order."""
    cdef Data* d = &s.d
    cdef int i, a, r, kind, bit
    cdef int mask = 0, top = -1, tie = -1
    cdef int best_win = -1, best_war = -1, best_lose = -1
    cdef int win_rank = 99, war_rank = 99, lose_rank = 99
    cdef int best = -1, key, best_key = 1 << 30
    if count == 1:
        return legal[0]
    if d.phase == PHASE_ONE:
        for i in range(d.round_len):  # heuristics.round_summary
            r = d.round_card[i] % 13
            bit = 1 << r
            if mask & bit and r > tie:
                tie = r
            mask |= bit
            if r > top:
                top = r
        for i in range(count):
            a = legal[i]
            if a == RISK:
                continue
            r = a % 13
            kind = card_outcome(r, mask, top, tie, s.opt.war_any_tie)
            if kind == WIN:
                if r < win_rank:
                    best_win, win_rank = a, r
            elif kind == WAR:
                if r < war_rank:
                    best_war, war_rank = a, r
            elif r < lose_rank:
                best_lose, lose_rank = a, r
        if best_lose >= 0:
            return best_lose
        if best_win >= 0:
            return best_win
        if best_war >= 0:
            return best_war
        return legal[0]
    for i in range(count):
        a = legal[i]
        if a == TAKE:
            continue
        # the key (is_trump, -length, rank) of heuristics.phase_two, as one int
        key = (A_SUIT[a] == d.trump_suit) * 4096 + (64 - A_LEN[a]) * 64 + A_RANK[a]
        if key < best_key:
            best, best_key = a, key
    return TAKE if best < 0 else best


cdef void returns_into(State s, double* out) noexcept:
    """engine.State.returns: zero-sum terminal rewards (zeros when truncated)."""
    cdef Data* d = &s.d
    cdef int n = s.opt.n
    cdef int p, place
    for p in range(n):
        out[p] = 0.0
    if d.phase != GAME_OVER or d.h.truncated:
        return
    if not s.opt.reward_placement:
        for p in range(n):
            out[p] = 1.0 / (n - 1)
        out[d.placements[d.placed - 1]] = -1.0
    else:
        for place in range(d.placed):
            out[d.placements[place]] = 1.0 - 2.0 * place / (n - 1)


cdef int refuse(State state) except -1:
    """Every state of a game in progress can be searched."""
    return 0


cdef inline void reseed(State s, Rng* rng) noexcept:
    """A deal makes nothing anew but the hidden cards."""
    pass


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return dumper(s, legal, count)


include "../../core/_search_shuffle.pxi"
include "../../core/_search.pxi"
