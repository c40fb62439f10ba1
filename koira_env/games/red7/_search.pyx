# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Red7 core: Red7's parts of the loops of ``agents/ismcts.py`` and
``agents/flat.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``thrifty`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Red7 state (``bots.compiled_search``,
``bots.compiled_flat``); the results differ from theirs only in the random streams. A deal
(``_compiled``'s ``find_hidden`` and ``place_hidden``, as ``State.determinize`` deals) is the
reference's distribution: the cards the seat cannot see (other hands, folded hands of others,
the draw pile) shuffled uniformly into the same places, as ``engine.State.determinize`` does.
Rollouts play ``thrifty`` in every seat (``bots.thrifty_rollout``: the legal turn with the
smallest ``bots.spend``, the first on a tie) or uniformly random legal turns. Returns are the
engine's (``returns_from_places`` of the places). A points game (``scoring="points"``) deals
new rounds from its deck, which a deal of the hidden cards cannot know, so this module
refuses it and the reference loops run.

``thrifty_action``, ``hidden_cards``, ``determinized`` and ``search_returns`` expose the pieces
so that tests can compare them with ``bots.thrifty_rollout``, ``engine.State.determinize`` and
``State.returns``.
"""

from libc.stdint cimport uint8_t, uint64_t

from koira_env.core._rng cimport Rng, below
from koira_env.core._tree cimport Search

from koira_env.games.red7._compiled cimport (
    MAX_LEGAL,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PASS,
    SLOTS,
    Data,
    State,
    find_hidden,
    place_hidden,
)

cdef enum:
    SPEND_SHIFT = 8  # bots.spend as one int: (cards, canvas) above, the cards' worth below


# ============================================================================ rollout policy
cdef inline int spend(int action) noexcept nogil:
    """bots.spend as one int ordered as its tuple: cards played, whether it changes the rule,
    then the cards' worth (``pass``: (3, 1, 0))."""
    cdef int palette, canvas
    if action == PASS:
        return (3 * 2 + 1) << SPEND_SHIFT
    palette = action // SLOTS - 1
    canvas = action % SLOTS - 1
    return (
        (((palette >= 0) + (canvas >= 0)) * 2 + (canvas >= 0)) << SPEND_SHIFT
    ) + palette + canvas + 2


cdef inline int thrifty(const short* legal, int count) noexcept nogil:
    """bots.thrifty_rollout: the legal turn with the smallest ``spend``, the first on a tie."""
    cdef int i, key
    cdef int best = legal[0]
    cdef int best_key = spend(best)
    for i in range(1, count):
        key = spend(legal[i])
        if key < best_key:
            best_key = key
            best = legal[i]
    return best


def thrifty_action(State state):
    """The turn the compiled rollout plays in ``state`` (for the tests against
    ``bots.thrifty_rollout``)."""
    cdef short legal[MAX_LEGAL]
    cdef int count = state.legal_into(legal)
    if count == 0:
        raise ValueError("the game is over: no turn to play")
    return thrifty(legal, count)


# ============================================================================ returns
cdef void returns_into(State s, double* out) noexcept:
    """engine.State.returns of a finished one-round game: ``returns_from_places`` of its
    places (the winner first; the others share place 2, or with ``places="elimination"``
    rank by how long they stayed in); zeros when truncated."""
    cdef Data* d = &s.d
    cdef int n = s.opt.n
    cdef int p, rank
    for p in range(n):
        out[p] = 0.0
    if not d.h.is_terminal or d.h.truncated:
        return
    if s.opt.elimination:
        out[d.winner] = 1.0
        for rank in range(d.eliminated_len):  # the last one out is second
            out[d.eliminated[d.eliminated_len - 1 - rank]] = 1.0 - 2.0 * (rank + 1) / (n - 1)
    else:
        for p in range(n):
            out[p] = 1.0 if p == d.winner else -1.0 / (n - 1)


def search_returns(State state):
    """The returns the search credits for ``state`` (for the tests against
    ``state.returns()``); a points game is refused as the search refuses it."""
    cdef double returns[MAX_PLAYERS]
    if state.opt.points:
        raise ValueError("search plays one round: a points game deals rounds it cannot know")
    returns_into(state, returns)
    return [returns[p] for p in range(state.opt.n)]


cdef int check(State state, int seat) except -1:
    """The search reads one round of the game in progress, with ``seat`` to act."""
    if state.opt.points:
        raise ValueError("search plays one round: a points game deals rounds it cannot know")
    if state.d.h.is_terminal or state.d.h.current != seat:
        raise ValueError(f"player_{seat} is not to act")
    return 0


# ============================================================================ the search
cdef class Red7Search(Search):
    """Red7's part of the searches from ``seat``'s information set in ``state``."""

    cdef State s  # the working state: a deal, then the turns of one iteration
    cdef Data root

    def __init__(self, State state, int seat, bint random_rollout=False):
        self.root = state.d
        self.s = state.clone_c()
        self.s.history = None  # search copies keep no history (apply_legal)
        self.s.log = None
        self.seat = seat
        self.num_actions = NUM_ACTIONS
        self.max_legal = MAX_LEGAL
        self.random_rollout = random_rollout
        find_hidden(&self.root, seat, &self.hidden)

    cdef void place(self, const uint8_t* shuffled) noexcept:
        place_hidden(&self.s.d, &self.root, &self.hidden, shuffled, self.s.opt.n, self.seat)

    cdef int legal(self, short* out, int* mover) noexcept:
        if self.s.d.h.is_terminal:
            return 0
        mover[0] = self.s.d.h.current
        return self.s.legal_into(out)

    cdef int play(self, int action) except -1:
        return self.s.apply_legal(action)

    cdef void finish(self, Rng* rng, double* returns) noexcept:
        """Play the game out: ``thrifty`` in every seat, or uniformly random legal turns."""
        cdef State s = self.s
        cdef short legal[MAX_LEGAL]
        cdef int count
        while not s.d.h.is_terminal:
            count = s.legal_into(legal)
            if self.random_rollout:
                s.apply_legal(legal[below(rng, count)])
            else:
                s.apply_legal(thrifty(legal, count))
        returns_into(s, returns)


def hidden_cards(State state, int seat):
    """The cards ``seat`` cannot see, in id order (engine.State.determinize's ``hidden``)."""
    return Red7Search(state, seat).hidden_cards()


def determinized(State state, int seat, shuffled):
    """``state`` with the hidden cards (``hidden_cards``) replaced by ``shuffled``, in that
    order, as the search deals them (for tests: engine.State.determinize places the same
    shuffle the same way)."""
    cdef Red7Search search = Red7Search(state, seat)
    search.deal_as(shuffled)
    search.s.deck = []
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
    if iterations < 1:
        raise ValueError(f"search needs at least 1 iteration, got {iterations}")
    check(state, seat)
    return Red7Search(state, seat, random_rollout).visits(
        iterations, exploration, seed, max_seconds
    )


# ============================================================================ flat Monte Carlo
def action_values(State state, int seat, int playouts, uint64_t seed, bint random_rollout=False):
    """``[(action, mean return of seat)]`` for each legal turn of ``state`` (``seat`` to act),
    in legal order: ``playouts`` times, deal the cards ``seat`` cannot see afresh, play the
    turn and finish the game with the rollout policy in every seat. Every turn sees the same
    deals (common random numbers), so their differences are not noise from the deals
    (``agents/flat.py``); random rollouts draw from a second generator, seeded by the deal,
    so that they do not move the deals of the next turns."""
    check(state, seat)
    return Red7Search(state, seat, random_rollout).values(playouts, seed, True)
