# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Red7 core: the loops of ``agents/ismcts.py`` and ``agents/flat.py``
in C, with ``thrifty`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Red7 state (``bots.compiled_search``,
``bots.compiled_flat``); the results differ from theirs only in the random streams. A deal
(``determinize_into``) is the reference's distribution: the cards the seat cannot see (other
hands, folded hands of others, the draw pile) shuffled uniformly into the same places, as
``engine.State.determinize`` does. Rollouts play ``thrifty`` in every seat (``bots.
thrifty_rollout``: the legal turn with the smallest ``bots.spend``, the first on a tie) or
uniformly random legal turns. Returns are the engine's (``returns_from_places`` of the
places). A points game (``scoring="points"``) deals new rounds from its deck, which a deal
of the hidden cards cannot know, so this module refuses it and the reference loops run.

``thrifty_action``, ``hidden_cards``, ``determinized`` and ``search_returns`` expose the pieces
so that tests can compare them with ``bots.thrifty_rollout``, ``engine.State.determinize`` and
``State.returns``.
"""

from libc.math cimport log, sqrt
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from time import perf_counter

from koira_env.games.red7._compiled cimport (
    DRAW,
    FOLDED,
    DEAD,
    MAX_LEGAL,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    PALETTE,
    PASS,
    SLOTS,
    Data,
    State,
)

cdef enum:
    SPEND_SHIFT = 8  # bots.spend as one int: (cards, canvas) above, the cards' worth below


# ============================================================================ random numbers
cdef struct Rng:
    uint64_t s  # splitmix64: one word of state, every seed is fine


cdef inline uint64_t next_u64(Rng* r) noexcept nogil:
    cdef uint64_t z
    r.s += <uint64_t>0x9E3779B97F4A7C15
    z = r.s
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int below(Rng* r, int n) noexcept nogil:
    """Uniform in 0 .. n - 1 (the bias of a 64-bit modulus is below 2**-57 here)."""
    return <int>(next_u64(r) % <uint64_t>n)


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


cdef inline void finish(State s, bint random_rollout, Rng* rng) noexcept:
    """Play the game out: ``thrifty`` in every seat, or uniformly random legal turns."""
    cdef short legal[MAX_LEGAL]
    cdef int count
    while not s.d.is_terminal:
        count = s.legal_into(legal)
        if random_rollout:
            s.apply_legal(legal[below(rng, count)])
        else:
            s.apply_legal(thrifty(legal, count))


# ============================================================================ determinization
cdef struct Hidden:
    int count
    uint8_t cards[NUM_CARDS]  # in id order
    uint8_t places[NUM_CARDS]  # their location codes


cdef inline bint hidden_from(int code, int seat) noexcept nogil:
    """engine._hidden_from: a card at location ``code`` is hidden from ``seat``."""
    return (
        code == DRAW
        or (code < PALETTE and code != seat)
        or (FOLDED <= code < DEAD and code - FOLDED != seat)
    )


cdef void find_hidden(const Data* d, int seat, Hidden* h) noexcept:
    """The cards ``seat`` cannot see and where they lie (engine.State.determinize's)."""
    cdef int c
    h.count = 0
    for c in range(NUM_CARDS):
        if hidden_from(d.loc[c], seat):
            h.cards[h.count] = c
            h.places[h.count] = d.loc[c]
            h.count += 1


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n, int seat
) noexcept:
    """``root`` with ``shuffled[i]`` put where ``h.cards[i]`` lay, hands, draw pile and folded
    hands rebuilt in that order, as engine.State.determinize places its shuffle."""
    cdef int i, q, card, code
    out[0] = root[0]
    for q in range(n):
        if q != seat:
            out.hand[q] = 0
            out.folded_len[q] = 0
    out.draw_len = 0
    for i in range(h.count):
        card = shuffled[i]
        code = h.places[i]
        out.loc[card] = code
        if code == DRAW:
            out.draw[out.draw_len] = card
            out.draw_len += 1
        elif code < PALETTE:
            out.hand[code] |= (<uint64_t>1) << card
        else:
            q = code - FOLDED
            out.folded[q][out.folded_len[q]] = card
            out.folded_len[q] += 1


cdef void determinize_into(
    Data* out, const Data* root, const Hidden* h, int n, int seat, Rng* rng
) noexcept:
    """A fresh deal of the hidden cards: a Fisher-Yates shuffle on our generator."""
    cdef uint8_t shuffled[NUM_CARDS]
    cdef int i, j
    cdef uint8_t tmp
    for i in range(h.count):
        shuffled[i] = h.cards[i]
    for i in range(h.count - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = shuffled[i]
        shuffled[i] = shuffled[j]
        shuffled[j] = tmp
    place_hidden(out, root, h, shuffled, n, seat)


def hidden_cards(State state, int seat):
    """The cards ``seat`` cannot see, in id order (engine.State.determinize's ``hidden``)."""
    cdef Hidden h
    find_hidden(&state.d, seat, &h)
    return [h.cards[i] for i in range(h.count)]


def determinized(State state, int seat, shuffled):
    """``state`` with the hidden cards (``hidden_cards``) replaced by ``shuffled``, in that
    order, as the search deals them (for tests: engine.State.determinize places the same
    shuffle the same way)."""
    cdef Hidden h
    cdef uint8_t order[NUM_CARDS]
    cdef State out = state.clone_c()
    cdef int i
    find_hidden(&state.d, seat, &h)
    if sorted(shuffled) != [h.cards[i] for i in range(h.count)]:
        raise ValueError("shuffled must be the hidden cards in some order")
    for i in range(h.count):
        order[i] = shuffled[i]
    place_hidden(&out.d, &state.d, &h, order, state.opt.n, seat)
    out.deck = []
    out.history = []
    out.log = None
    return out


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
    if not d.is_terminal or d.truncated:
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
    if state.d.is_terminal or state.d.current != seat:
        raise ValueError(f"player_{seat} is not to act")
    return 0


# ============================================================================ the search
cdef struct Node:
    int player  # the seat whose move led here
    int visits
    int avail
    double total
    int first_child
    int next_sibling
    short action


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
    ``seat``'s information set in ``state`` (fewer if ``max_seconds`` runs out): the loop of
    ``agents/ismcts.py``, nodes in one array (an iteration adds at most one)."""
    cdef Rng rng
    cdef Hidden hidden
    cdef Data root_data
    cdef State s
    cdef Node* nodes
    cdef int* path
    cdef short legal[MAX_LEGAL]
    cdef short untried[MAX_LEGAL]
    cdef int tag_of[NUM_ACTIONS]  # step tag when the action was legal
    cdef int child_of[NUM_ACTIONS]  # its child at this node, when seen_of matches
    cdef int seen_of[NUM_ACTIONS]  # step tag when it had a child
    cdef double returns[MAX_PLAYERS]
    cdef int n = state.opt.n
    cdef int it, count, u, i, a, node, child, action, depth, tag = 0, num_nodes = 1
    cdef double score, best, c = exploration
    cdef bint expanded
    if iterations < 1:
        raise ValueError(f"search needs at least 1 iteration, got {iterations}")
    check(state, seat)
    deadline = None if max_seconds is None else perf_counter() + max_seconds
    root_data = state.d
    s = state.clone_c()
    nodes = <Node*>malloc((iterations + 1) * sizeof(Node))
    path = <int*>malloc((iterations + 1) * sizeof(int))
    if nodes == NULL or path == NULL:
        free(nodes)
        free(path)
        raise MemoryError()
    try:
        rng.s = seed
        s.history = None  # search copies keep no history (apply_legal)
        s.log = None
        find_hidden(&root_data, seat, &hidden)
        for i in range(NUM_ACTIONS):
            tag_of[i] = -1
            seen_of[i] = -1
        nodes[0].player = seat
        nodes[0].visits = 0
        nodes[0].avail = 1
        nodes[0].total = 0.0
        nodes[0].first_child = -1
        nodes[0].next_sibling = -1
        nodes[0].action = -1
        for it in range(iterations):
            determinize_into(&s.d, &root_data, &hidden, n, seat, &rng)
            node = 0
            depth = 0
            while not s.d.is_terminal:
                count = s.legal_into(legal)
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
                    action = untried[below(&rng, u)]
                    child = num_nodes
                    num_nodes += 1
                    nodes[child].player = s.d.current
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
                s.apply_legal(action)
                path[depth] = child
                depth += 1
                node = child
                if expanded:
                    break
            finish(s, random_rollout, &rng)
            returns_into(s, returns)
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


# ============================================================================ flat Monte Carlo
def action_values(State state, int seat, int playouts, uint64_t seed, bint random_rollout=False):
    """``[(action, mean return of seat)]`` for each legal turn of ``state`` (``seat`` to act),
    in legal order: ``playouts`` times, deal the cards ``seat`` cannot see afresh, play the
    turn and finish the game with the rollout policy in every seat. Every turn sees the same
    deals (common random numbers), so their differences are not noise from the deals
    (``agents/flat.py``); random rollouts draw from a second generator, seeded by the deal,
    so that they do not move the deals of the next turns."""
    cdef Rng rng, moves_rng
    cdef Hidden hidden
    cdef Data root_data
    cdef State s
    cdef short moves[MAX_LEGAL]
    cdef double returns[MAX_PLAYERS]
    cdef double total
    cdef int n = state.opt.n
    cdef int it, i, num_moves
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    check(state, seat)
    root_data = state.d
    s = state.clone_c()
    num_moves = state.legal_into(moves)
    s.history = None
    s.log = None
    find_hidden(&root_data, seat, &hidden)
    out = []
    for i in range(num_moves):
        rng.s = seed
        total = 0.0
        for it in range(playouts):
            determinize_into(&s.d, &root_data, &hidden, n, seat, &rng)
            moves_rng.s = next_u64(&rng)
            s.apply_legal(moves[i])
            finish(s, random_rollout, &moves_rng)
            returns_into(s, returns)
            total += returns[seat]
        out.append((moves[i], total / playouts))
    return out
