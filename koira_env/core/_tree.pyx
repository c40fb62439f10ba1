# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""SO-ISMCTS and flat Monte Carlo on a compiled game core: the loops of ``agents/ismcts.py``
and ``agents/flat.py`` in C, written once for every game that has a compiled search.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms;
the results differ from theirs only in the random streams (splitmix64, ``_rng.pxd``). A game's
``_search.pyx`` subclasses ``Search`` with what only the game knows:

* its deals (``deal``, started from a seed by ``begin``): by default a shuffle of the cards
  its seat cannot see (``hidden``) placed into the working state (``place``), as a
  ``State.determinize`` that is one shuffle places it (core/_search_shuffle.pxi); a game
  whose play constrains the deal makes ``determinize``'s own deal instead
  (core/_search_redeal.pxi);
* its legal moves and who moves (``legal``, 0 when the game is over) and a move (``play``);
* its rollout policy and returns (``finish``: play the game out, write every seat's return).

Per SO-ISMCTS iteration (``visits``): deal the hidden cards afresh, walk the tree through the
children legal in that deal (UCB with availability counts, the first best in legal order),
expand one untried child drawn uniformly, finish the game and add the return of the seat that
moved into each node on the path. Nodes are structs in one array (an iteration adds at most
one), so a decision allocates once. Flat Monte Carlo (``values``) plays each legal move of the
root on the same deals (common random numbers) and finishes each game.
"""

from libc.math cimport log, sqrt
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from time import perf_counter

from koira_env.core._hidden cimport MAX_HIDDEN, copy_order, hidden_list
from koira_env.core._rng cimport Rng, below, next_u64, shuffle


cdef class Search:
    """One search from ``seat``'s information set: the subclass makes it from a game state."""

    cdef void place(self, const uint8_t* shuffled) noexcept:
        """Put ``shuffled[i]`` where ``hidden.cards[i]`` lies in the working state (the game's)."""
        pass

    cdef int legal(self, short* out, int* mover) noexcept:
        """The working state's legal moves into ``out`` (at most ``max_legal``) and the seat to
        move into ``mover``; returns how many, 0 when the game is over (the game's)."""
        return 0

    cdef int play(self, int action) except -1:
        """Play ``action``, one that ``legal`` gave, in the working state (the game's)."""
        return 0

    cdef void finish(self, Rng* rng, double* returns) noexcept:
        """Play the working state out with the rollout policy (random moves drawn from ``rng``)
        and write every seat's return into ``returns`` (the game's)."""
        pass

    cdef int begin(self, uint64_t seed) except -1:
        """Start the deals from ``seed``: the same seed gives the same deals (a subclass
        whose deals draw from a generator of their own seeds it here too)."""
        self.rng.s = seed
        return 0

    cdef int deal(self, Rng* rng) except -1:
        """A fresh deal: the hidden cards, a Fisher-Yates shuffle on ``rng``, placed."""
        cdef uint8_t shuffled[MAX_HIDDEN]
        cdef int i
        for i in range(self.hidden.count):
            shuffled[i] = self.hidden.cards[i]
        shuffle(shuffled, self.hidden.count, rng)
        self.place(shuffled)
        return 0

    cdef int deal_as(self, shuffled) except -1:
        """The deal that puts ``shuffled`` (the hidden cards in some order) where the hidden
        cards lie, for the tests against the reference's ``State.determinize``."""
        cdef uint8_t order[MAX_HIDDEN]
        if sorted(shuffled) != sorted(hidden_list(&self.hidden)):
            raise ValueError("shuffled must be the hidden cards in some order")
        copy_order(&self.hidden, list(shuffled), order)
        self.place(order)
        return 0

    def hidden_cards(self) -> list:
        """The cards the seat cannot see, in ``find_hidden``'s order (``State.determinize``
        shuffles this list: id order, or Whist 22's other hands, then the cards set aside)."""
        return hidden_list(&self.hidden)

    cdef dict visits(self, int iterations, double exploration, uint64_t seed, max_seconds):
        """Root visit counts ``{action: visits}`` of ``iterations`` SO-ISMCTS iterations (fewer
        if ``max_seconds`` runs out)."""
        cdef Node* nodes = <Node*>malloc((iterations + 1) * sizeof(Node))
        cdef int* path = <int*>malloc((iterations + 1) * sizeof(int))
        cdef int* tag_of = <int*>malloc(self.num_actions * sizeof(int))  # step tag when legal
        cdef int* seen_of = <int*>malloc(self.num_actions * sizeof(int))  # ... when it had a child
        cdef int* child_of = <int*>malloc(self.num_actions * sizeof(int))  # that child
        cdef short* legal = <short*>malloc(2 * self.max_legal * sizeof(short))
        cdef short* untried = legal + self.max_legal
        cdef double returns[MAX_SEATS]
        cdef int it, count, u, i, a, node, child, action, mover, depth, tag = 0, num_nodes = 1
        cdef double score, best, c = exploration
        cdef bint expanded
        deadline = None if max_seconds is None else perf_counter() + max_seconds
        try:
            if not (nodes and path and tag_of and seen_of and child_of and legal):
                raise MemoryError()
            self.begin(seed)
            for i in range(self.num_actions):
                tag_of[i] = -1
                seen_of[i] = -1
            nodes[0].player = self.seat
            nodes[0].visits = 0
            nodes[0].avail = 1
            nodes[0].total = 0.0
            nodes[0].first_child = -1
            nodes[0].next_sibling = -1
            nodes[0].action = -1
            for it in range(iterations):
                self.deal(&self.rng)
                node = 0
                depth = 0
                while True:
                    count = self.legal(legal, &mover)
                    if count == 0:
                        break
                    tag += 1
                    for i in range(count):
                        tag_of[legal[i]] = tag
                    child = nodes[node].first_child
                    while child >= 0:
                        a = nodes[child].action
                        if tag_of[a] == tag:
                            nodes[child].avail += 1
                            seen_of[a] = tag
                            child_of[a] = child
                        child = nodes[child].next_sibling
                    u = 0
                    for i in range(count):
                        if seen_of[legal[i]] != tag:
                            untried[u] = legal[i]
                            u += 1
                    expanded = u > 0
                    if expanded:
                        action = untried[below(&self.rng, u)]
                        child = num_nodes
                        num_nodes += 1
                        nodes[child].player = mover
                        nodes[child].visits = 0
                        nodes[child].avail = 1
                        nodes[child].total = 0.0
                        nodes[child].first_child = -1
                        nodes[child].next_sibling = nodes[node].first_child
                        nodes[child].action = action
                        nodes[node].first_child = child
                    else:
                        best = -1e300
                        action = legal[0]
                        for i in range(count):
                            a = legal[i]
                            child = child_of[a]
                            score = (
                                nodes[child].total / nodes[child].visits
                                + c * sqrt(log(nodes[child].avail) / nodes[child].visits)
                            )
                            if score > best:
                                best = score
                                action = a
                        child = child_of[action]
                    self.play(action)
                    path[depth] = child
                    depth += 1
                    node = child
                    if expanded:
                        break
                self.finish(&self.rng, returns)
                for i in range(depth):
                    nodes[path[i]].visits += 1
                    nodes[path[i]].total += returns[nodes[path[i]].player]
                if deadline is not None and perf_counter() > deadline:
                    break
            visits = {}
            child = nodes[0].first_child
            while child >= 0:
                visits[nodes[child].action] = nodes[child].visits
                child = nodes[child].next_sibling
            return visits
        finally:
            free(nodes)
            free(path)
            free(tag_of)
            free(seen_of)
            free(child_of)
            free(legal)

    cdef list values(self, int playouts, uint64_t seed):
        """``[(move, mean return of the seat)]`` for each legal move of the root, in legal order:
        ``playouts`` times, deal the hidden cards afresh, play the move and finish the game.
        Every move sees the same deals (common random numbers), so their differences are not
        noise from the deals; the rollouts draw from a second generator, seeded by the deal,
        so that random rollouts do not move the deals of the next moves."""
        cdef short* moves = <short*>malloc(self.max_legal * sizeof(short))
        cdef double returns[MAX_SEATS]
        cdef double total
        cdef Rng rollouts
        cdef int it, i, mover, num_moves
        if playouts < 1:
            free(moves)
            raise ValueError(f"playouts must be at least 1, got {playouts}")
        if moves == NULL:
            raise MemoryError()
        try:
            num_moves = self.legal(moves, &mover)
            out = []
            for i in range(num_moves):
                self.begin(seed)
                total = 0.0
                for it in range(playouts):
                    self.deal(&self.rng)
                    rollouts.s = next_u64(&self.rng)
                    self.play(moves[i])
                    self.finish(&rollouts, returns)
                    total += returns[self.seat]
                out.append((moves[i], total / playouts))
            return out
        finally:
            free(moves)
