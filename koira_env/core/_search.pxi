# A compiled core's search, written once: the class that gives core/_tree.pyx's loops
# (SO-ISMCTS, flat Monte Carlo) the core's moves, and the module's functions. A game's
# _search.pyx cimports from its _compiled ``State``, ``Data`` and ``MAX_LEGAL``, defines
#
#     cdef int rollout(State s, short* legal, int count) noexcept  # the rollout policy's move
#     cdef void returns_into(State s, double* out) noexcept  # a finished game's returns
#     cdef int refuse(State state) except -1  # raise for a state its search cannot read
#
# then includes the file of its deals, which defines ``Deals`` (the working state, and a deal
# of the hidden cards into it):
#
# * core/_search_shuffle.pxi where ``determinize`` is one shuffle of the hidden cards into
#   the places they lay (Koira, Red7, Whist 22): the search shuffles them on its own
#   generator, with the core's ``find_hidden`` and ``place_hidden``;
# * core/_search_redeal.pxi where the public play constrains the deal (voids, a public call,
#   a shown card; Kop, Teka, Dois, Mätäpesä): each deal is the core's own ``deal_hidden``,
#   drawing from a ``random.Random`` seeded with the search;
#
# and then this file. The game's State is final, so every call here is direct. ``rollout_action``
# and ``search_returns`` expose the rollout and the returns to the tests.

from libc.stdint cimport int64_t, uint64_t

from koira_env.core._rng cimport Rng, below
from koira_env.core._tree cimport MAX_SEATS


cdef class GameSearch(Deals):
    """The game's part of the searches from ``seat``'s information set in ``state``."""

    def __init__(self, State state, int seat, bint random_rollout=False):
        self.root = state.d
        self.s = state.clone_c()
        self.s.history = None  # search copies keep no history (apply_legal)
        self.s.log = None
        self.seat = seat
        self.num_actions = state.engine.num_actions
        self.max_legal = MAX_LEGAL
        self.random_rollout = random_rollout
        self.start(state)

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


def rollout_action(State state):
    """The move the compiled rollout policy plays in ``state`` (for the tests against the
    game's ``bots.ROLLOUT``)."""
    cdef short legal[MAX_LEGAL]
    if state.d.h.is_terminal:
        raise ValueError("the game is over: no move to choose")
    return rollout(state, legal, state.legal_into(legal))


def search_returns(State state):
    """The returns the search credits for ``state`` (for the tests against
    ``state.returns()``); a state the search refuses is refused."""
    cdef double returns[MAX_SEATS]
    refuse(state)
    returns_into(state, returns)
    return [returns[p] for p in range(state.engine.players)]


cdef void result_returns(State s, double* out) noexcept:
    """``returns_into`` for a core that writes ``result_into`` in C: the finished game's
    returns as the vector env's (float32, within 1e-7 of ``State.returns``); zeros before
    the end and when truncated."""
    cdef float returns[MAX_SEATS]
    cdef int64_t places[MAX_SEATS]
    cdef int p, n = s.engine.players
    if s.d.h.is_terminal and not s.d.h.truncated:
        s.result_into(returns, places)
        for p in range(n):
            out[p] = returns[p]
    else:
        for p in range(n):
            out[p] = 0.0
