# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""SO-ISMCTS on the compiled Koira core: the loop of ``agents/ismcts.py``, in C.

``agents/ismcts.py`` is the readable reference of the algorithm and calls ``search`` here for
a compiled Koira state; the two differ only in their random streams. Per iteration: deal the
cards the seat cannot see afresh (``determinize``: the reference's distribution, a uniform
shuffle of the hidden cards into the same places), walk the tree through the children legal
in that deal (UCB with availability counts, the first best in legal order), expand one
untried child drawn uniformly, finish the game with the ``dumper`` rollout (``dumper``
here: the move ``bots.dumper_move`` picks) or uniformly at random, and add the return of the
seat that moved into each node on the path. Nodes are structs in one array (an iteration
adds at most one), so a decision allocates once.

``dumper_action(state)`` exposes the rollout policy so that a test can compare it with
``bots.dumper_move`` on many states.
"""

cimport cython
from libc.math cimport log, sqrt
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from time import perf_counter

from koira_env.core._bits cimport lowest

from koira_env.games.koira._compiled cimport (
    GAME_OVER,
    HAND,
    MAX_LEGAL,
    NUM_CARDS,
    PHASE_ONE,
    RISK,
    TAKE,
    TRUMP_ASIDE,
    UNKNOWN,
    Data,
    State,
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
    """Uniform in 0 .. n - 1 (the bias of a 64-bit modulus is below 2**-54 here)."""
    return <int>(next_u64(r) % <uint64_t>n)


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


# ============================================================================ determinization
cdef struct Hidden:
    int count
    uint64_t mask
    uint8_t cards[NUM_CARDS]


cdef void hidden_from(Data* d, int seat, Hidden* h) noexcept:
    """engine.State.determinize's hidden cards: unknown to ``seat`` and not its own (nor the
    trump card it set aside)."""
    cdef int c
    h.count = 0
    h.mask = 0
    for c in range(NUM_CARDS):
        if (
            d.pub[c] == UNKNOWN
            and d.loc[c] != HAND + seat
            and not (d.loc[c] == TRUMP_ASIDE and d.trump_holder == seat)
        ):
            h.cards[h.count] = c
            h.count += 1
            h.mask |= (<uint64_t>1) << c


cdef void determinize_into(Data* out, const Data* root, const Hidden* h, int n, Rng* rng) noexcept:
    """``root`` with its hidden cards shuffled into each other's places: engine.State.
    determinize, a Fisher-Yates shuffle on our generator."""
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
    place_hidden(out, root, h, shuffled, n)


cdef void place_hidden(
    Data* out, const Data* root, const Hidden* h, const uint8_t* shuffled, int n
) noexcept:
    """``root`` with hidden card ``shuffled[i]`` where ``h.cards[i]`` was (its location and its
    place in hand), as engine.State.determinize places its shuffle."""
    cdef int new_for[NUM_CARDS]
    cdef int i, p, old, new
    cdef uint64_t old_hand
    out[0] = root[0]
    if h.count == 0:
        return
    for i in range(NUM_CARDS):
        new_for[i] = i
    for i in range(h.count):
        old = h.cards[i]
        new = shuffled[i]
        new_for[old] = new
        out.loc[new] = root.loc[old]
        out.stamp[new] = root.stamp[old]  # the new card takes the old one's place in hand
    for p in range(n):
        old_hand = out.hand[p] & h.mask
        out.hand[p] &= ~h.mask
        while old_hand:
            out.hand[p] |= (<uint64_t>1) << new_for[lowest(old_hand)]
            old_hand &= old_hand - 1
    if out.phase != PHASE_ONE:
        out.hands_sorted = True  # the reference sorts hands outside phase one
    for i in range(out.stock_len):
        out.stock[i] = new_for[out.stock[i]]
    if out.trump_card >= 0:
        out.trump_card = new_for[out.trump_card]


def hidden_cards(State state, int seat):
    """The cards ``seat`` cannot see, in id order (engine.State.determinize's ``hidden``)."""
    cdef Hidden h
    hidden_from(&state.d, seat, &h)
    return [h.cards[i] for i in range(h.count)]


def determinized(State state, int seat, shuffled):
    """``state`` with the hidden cards (``hidden_cards``) replaced by ``shuffled``, in that
    order, as the search deals them (for tests: engine.State.determinize places the same
    shuffle the same way)."""
    cdef Hidden h
    cdef uint8_t order[NUM_CARDS]
    cdef State out = state.clone_c()
    cdef int i
    hidden_from(&state.d, seat, &h)
    if sorted(shuffled) != [h.cards[i] for i in range(h.count)]:
        raise ValueError("shuffled must be the hidden cards in some order")
    for i in range(h.count):
        order[i] = shuffled[i]
    place_hidden(&out.d, &state.d, &h, order, state.opt.n)
    out.deck = ()
    out.history = []
    out.log = None
    return out


# ============================================================================ the search
cdef struct Node:
    int player  # the seat whose move led here
    int visits
    int avail
    double total
    int first_child
    int next_sibling
    short action


cdef void returns_into(State s, double* out) noexcept:
    """engine.State.returns: zero-sum terminal rewards (zeros when truncated)."""
    cdef Data* d = &s.d
    cdef int n = s.opt.n
    cdef int p, place
    for p in range(n):
        out[p] = 0.0
    if d.phase != GAME_OVER or d.truncated:
        return
    if not s.opt.reward_placement:
        for p in range(n):
            out[p] = 1.0 / (n - 1)
        out[d.placements[d.placed - 1]] = -1.0
    else:
        for place in range(d.placed):
            out[d.placements[place]] = 1.0 - 2.0 * place / (n - 1)


@cython.boundscheck(False)
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
    cdef Rng rng
    cdef Hidden hidden
    cdef Data root_data = state.d
    cdef State s = state.clone_c()
    cdef Node* nodes = <Node*>malloc((iterations + 1) * sizeof(Node))
    cdef int* path = <int*>malloc((iterations + 1) * sizeof(int))
    cdef short legal[MAX_LEGAL]
    cdef short untried[MAX_LEGAL]
    cdef int tag_of[NUM_ACTION_IDS]  # step tag when the action was legal
    cdef int child_of[NUM_ACTION_IDS]  # its child at this node, when tag_of matches
    cdef int seen_of[NUM_ACTION_IDS]  # step tag when it had a child
    cdef double returns[8]
    cdef int n = state.opt.n
    cdef int it, count, u, i, a, node, child, action, depth, tag = 0, num_nodes = 1
    cdef double score, best, c = exploration
    cdef bint expanded
    deadline = None if max_seconds is None else perf_counter() + max_seconds
    if nodes == NULL or path == NULL:
        free(nodes)
        free(path)
        raise MemoryError()
    try:
        rng.s = seed
        s.history = None  # search states keep no history (apply_legal)
        s.log = None
        hidden_from(&root_data, seat, &hidden)
        for i in range(NUM_ACTION_IDS):
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
            determinize_into(&s.d, &root_data, &hidden, n, &rng)
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
                    child = child_of[action]
                    for i in range(count):
                        a = legal[i]
                        score = (
                            nodes[child_of[a]].total / nodes[child_of[a]].visits
                            + c * sqrt(log(nodes[child_of[a]].avail) / nodes[child_of[a]].visits)
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
            while not s.d.is_terminal:
                count = s.legal_into(legal)
                if random_rollout:
                    s.apply_legal(legal[below(&rng, count)])
                else:
                    s.apply_legal(dumper(s, legal, count))
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
def action_values(State state, int seat, int playouts, uint64_t seed):
    """``[(action, mean return of seat)]`` for each legal action of ``state`` (seat to act):
    ``playouts`` times, deal the cards ``seat`` cannot see afresh, play the action and finish
    the game with the dumper in every seat. Every action sees the same deals (common random
    numbers), so their differences are not noise from the deals. ``agents/flat.py``."""
    cdef Rng rng
    cdef Hidden hidden
    cdef Data root_data = state.d
    cdef State s = state.clone_c()
    cdef short legal[MAX_LEGAL]
    cdef short moves[MAX_LEGAL]
    cdef double returns[8]
    cdef double total
    cdef int n = state.opt.n
    cdef int it, i, count, num_moves
    if playouts < 1:
        raise ValueError(f"playouts must be at least 1, got {playouts}")
    if state.d.is_terminal or state.d.current != seat:
        raise ValueError(f"player_{seat} is not to act")
    num_moves = state.legal_into(moves)
    s.history = None
    s.log = None
    hidden_from(&root_data, seat, &hidden)
    out = []
    for i in range(num_moves):
        rng.s = seed
        total = 0.0
        for it in range(playouts):
            determinize_into(&s.d, &root_data, &hidden, n, &rng)
            s.apply_legal(moves[i])
            while not s.d.is_terminal:
                count = s.legal_into(legal)
                s.apply_legal(dumper(s, legal, count))
            returns_into(s, returns)
            total += returns[seat]
        out.append((moves[i], total / playouts))
    return out
