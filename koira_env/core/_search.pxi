# A compiled core's search, written once: the class that gives core/_tree.pyx's loops
# (SO-ISMCTS, flat Monte Carlo) the core's moves, and the module's functions. A game's
# _search.pyx cimports from its _compiled ``State``, ``Data``, ``MAX_LEGAL``, ``find_hidden``
# and ``place_hidden``, defines
#
#     cdef int rollout(State s, short* legal, int count) noexcept  # the rollout policy's move
#     cdef void returns_into(State s, double* out) noexcept  # a finished game's returns
#     cdef int refuse(State state) except -1  # raise for a state its search cannot read
#     cdef void reseed(State s, Rng* rng) noexcept  # after a deal: what else a deal makes anew
#                                                   # (Whist 22: the seed of the hands to come)
#
# and then includes this file; the game's State is final, so every call here is direct.

from libc.stdint cimport uint8_t, uint64_t

from koira_env.core._rng cimport Rng, below
from koira_env.core._tree cimport Search


cdef class GameSearch(Search):
    """The game's part of the searches from ``seat``'s information set in ``state``."""

    cdef State s  # the working state: a deal, then the moves of one iteration
    cdef Data root

    def __init__(self, State state, int seat, bint random_rollout=False):
        self.root = state.d
        self.s = state.clone_c()
        self.s.history = None  # search copies keep no history (apply_legal)
        self.s.log = None
        self.seat = seat
        self.num_actions = state.engine.num_actions
        self.max_legal = MAX_LEGAL
        self.random_rollout = random_rollout
        find_hidden(&self.root, seat, &self.hidden)

    cdef void place(self, const uint8_t* shuffled) noexcept:
        place_hidden(&self.s.d, &self.root, &self.hidden, shuffled, self.s.opt.n, self.seat)

    cdef void deal(self, Rng* rng) noexcept:
        Search.deal(self, rng)
        reseed(self.s, rng)

    cdef int legal(self, short* out, int* mover) noexcept:
        if self.s.d.h.is_terminal:
            return 0
        mover[0] = self.s.d.h.current
        return self.s.legal_into(out)

    cdef int play(self, int action) except -1:
        return self.s.apply_legal(action)

    cdef void finish(self, Rng* rng, double* returns) noexcept:
        """Play the game out: the rollout policy in every seat, or uniformly random moves."""
        cdef State s = self.s
        cdef short legal[MAX_LEGAL]
        cdef int count
        while not s.d.h.is_terminal:
            count = s.legal_into(legal)
            if self.random_rollout:
                s.apply_legal(legal[below(rng, count)])
            else:
                s.apply_legal(rollout(s, legal, count))
        returns_into(s, returns)


cdef int check(State state, int seat) except -1:
    """A search starts from a state it can read, with ``seat`` to act."""
    refuse(state)
    if state.d.h.is_terminal or state.d.h.current != seat:
        raise ValueError(f"player_{seat} is not to act")
    return 0


def hidden_cards(State state, int seat):
    """The cards ``seat`` cannot see, in the order engine.State.determinize shuffles them."""
    return GameSearch(state, seat).hidden_cards()


def determinized(State state, int seat, shuffled):
    """``state`` with the hidden cards (``hidden_cards``) replaced by ``shuffled``, in that
    order, as the search deals them (for tests: engine.State.determinize places the same
    shuffle the same way)."""
    cdef GameSearch search = GameSearch(state, seat)
    search.deal_as(shuffled)
    search.s.deck = search.s.deck[:0]
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
    return GameSearch(state, seat, random_rollout).visits(
        iterations, exploration, seed, max_seconds
    )


def action_values(State state, int seat, int playouts, uint64_t seed, bint random_rollout=False):
    """``[(action, mean return of seat)]`` for each legal action of ``state`` (``seat`` to
    act), in legal order: ``playouts`` times, deal the cards ``seat`` cannot see afresh, play
    the action and finish the game with the rollout policy in every seat. Every action sees
    the same deals (common random numbers), so their differences are not noise from the deals
    (``agents/flat.py``)."""
    check(state, seat)
    return GameSearch(state, seat, random_rollout).values(playouts, seed)
