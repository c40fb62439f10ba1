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

``dumper_action(state)`` exposes the rollout policy so that a test can compare it with
``bots.dumper_move`` on many states; ``hidden_cards`` and ``determinized`` expose the deals.
"""

from libc.stdint cimport uint8_t, uint64_t

from koira_env.core._rng cimport Rng, below
from koira_env.core._tree cimport Search

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


def dumper_action(State state):
    """The rollout policy's move in ``state`` (for tests: it must be ``bots.dumper_move``'s)."""
    cdef short legal[MAX_LEGAL]
    cdef int count = state.legal_into(legal)
    if count == 0:
        raise ValueError("the game is over: no move to choose")
    return dumper(state, legal, count)


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


# ============================================================================ the search
cdef class KoiraSearch(Search):
    """Koira's part of the searches from ``seat``'s information set in ``state``."""

    cdef State s  # the working state: a deal, then the moves of one iteration
    cdef Data root

    def __init__(self, State state, int seat, bint random_rollout=False):
        self.root = state.d
        self.s = state.clone_c()
        self.s.history = None  # search states keep no history (apply_legal)
        self.s.log = None
        self.seat = seat
        self.num_actions = NUM_ACTION_IDS
        self.max_legal = MAX_LEGAL
        self.random_rollout = random_rollout
        find_hidden(&self.root, seat, &self.hidden)

    cdef void place(self, const uint8_t* shuffled) noexcept:
        place_hidden(&self.s.d, &self.root, &self.hidden, shuffled, self.s.opt.n)

    cdef int legal(self, short* out, int* mover) noexcept:
        if self.s.d.h.is_terminal:
            return 0
        mover[0] = self.s.d.h.current
        return self.s.legal_into(out)

    cdef int play(self, int action) except -1:
        return self.s.apply_legal(action)

    cdef void finish(self, Rng* rng, double* returns) noexcept:
        """The game played out by the dumper in every seat, or by random moves."""
        cdef State s = self.s
        cdef short legal[MAX_LEGAL]
        cdef int count
        while not s.d.h.is_terminal:
            count = s.legal_into(legal)
            if self.random_rollout:
                s.apply_legal(legal[below(rng, count)])
            else:
                s.apply_legal(dumper(s, legal, count))
        returns_into(s, returns)


def hidden_cards(State state, int seat):
    """The cards ``seat`` cannot see, in id order (engine.State.determinize's ``hidden``)."""
    return KoiraSearch(state, seat).hidden_cards()


def determinized(State state, int seat, shuffled):
    """``state`` with the hidden cards (``hidden_cards``) replaced by ``shuffled``, in that
    order, as the search deals them (for tests: engine.State.determinize places the same
    shuffle the same way)."""
    cdef KoiraSearch search = KoiraSearch(state, seat)
    search.deal_as(shuffled)
    search.s.deck = ()
    search.s.history = []
    return search.s


def search(
    State state,
    int seat,
    int iterations,
    double exploration,
    bint random_rollout,
    uint64_t seed,
    max_seconds=None,
):
    """Root visit counts ``{action: visits}`` of ``iterations`` SO-ISMCTS iterations from
    ``seat``'s information set in ``state`` (fewer if ``max_seconds`` runs out)."""
    return KoiraSearch(state, seat, random_rollout).visits(
        iterations, exploration, seed, max_seconds
    )


# ============================================================================ flat Monte Carlo
def action_values(State state, int seat, int playouts, uint64_t seed):
    """``[(action, mean return of seat)]`` for each legal action of ``state`` (seat to act):
    ``playouts`` times, deal the cards ``seat`` cannot see afresh, play the action and finish
    the game with the dumper in every seat. Every action sees the same deals (common random
    numbers), so their differences are not noise from the deals. ``agents/flat.py``."""
    if state.d.h.is_terminal or state.d.h.current != seat:
        raise ValueError(f"player_{seat} is not to act")
    return KoiraSearch(state, seat).values(playouts, seed, False)
