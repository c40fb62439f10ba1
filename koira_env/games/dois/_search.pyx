# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Search on the compiled Dois core: Dois's parts of the loops of ``agents/ismcts.py`` and
``agents/flat.py`` that ``koira_env/core/_tree.pyx`` runs for every compiled game, with
``greedy_rollout`` as the rollout policy.

``agents/ismcts.py`` and ``agents/flat.py`` are the readable references of the algorithms and
call ``search`` / ``action_values`` here for a compiled Dois state (``bots.SEARCH``,
``bots.FLAT``); the results differ from theirs only in the random streams. Every deal is
``State.determinize``'s (core/_search_redeal.pxi): the hidden hands and the undealt cards
dealt again within everything public (voids, the suit and number cards each hand keeps, the
hands shown for a redeal) and a fresh seed for the hands to come. Rollouts play
``greedy_rollout`` in every seat (``bots.greedy_rollout``) or uniformly random legal moves.
Returns are the engine's (``State.result_into``).

``rollout_action``, ``dealt`` and ``search_returns`` expose the pieces so that tests can
compare them with ``bots.greedy_rollout``, ``State.determinize`` and ``State.returns``; the
search class and ``search`` / ``action_values`` are core/_search.pxi's.
"""

from koira_env.games.dois._compiled cimport (
    BID,
    DECK_SIZE,
    FIRST,
    MAX_LEGAL,
    MAXP,
    NUM_KINDS,
    NUM_SUITS,
    Data,
    State,
    deal_hidden,
    trick_winner,
)
from koira_env.games.dois._model cimport counter_bid, shown_strength


# ============================================================================ rollout policy
cdef int greedy(State s, const short* legal, int count) noexcept:
    """bots.greedy_rollout: ``GreedyBot`` on the full state, reading only the mover's hand
    and the public table. It bids its hand's expected tricks; in play it values each legal
    card by whether it takes the trick as it stands (a first-trick suit card with the best,
    or the worst, number card in hand for the purpose), takes the best value when it wants
    tricks and the least otherwise, and among those shows the least strength (``_choose``
    with ``margin`` 0)."""
    cdef Data* d = &s.d
    cdef int p = d.h.current, n = d.n
    cdef int i, q, k, x, value, judged, target, pick = -1
    cdef bint pairing, want
    cdef int counts[NUM_KINDS]
    cdef int suits[MAXP]
    cdef int numbers[MAXP]
    cdef int values[MAX_LEGAL]
    if count == 1:
        return legal[0]
    if legal[0] >= BID:
        for k in range(NUM_KINDS):
            counts[k] = d.hands[p][k]
        return counter_bid(counts, d.trump, n)
    pairing = d.phase == FIRST and not d.step
    want = d.won[p] < d.bids[p]
    for i in range(count):
        k = legal[i]
        for q in range(n):
            suits[q] = d.suit[q]
            numbers[q] = d.number[q]
        if k < NUM_SUITS:
            suits[p] = k
        else:
            numbers[p] = k - NUM_SUITS + 1
        if pairing:
            judged = -1
            for x in range(NUM_SUITS, NUM_KINDS):
                if d.hands[p][x]:
                    numbers[p] = x - NUM_SUITS + 1
                    value = trick_winner(n, suits, numbers, d.leader, d.trump) == p
                    if judged < 0 or (value > judged if want else value < judged):
                        judged = value
            values[i] = judged
        else:
            values[i] = trick_winner(n, suits, numbers, d.leader, d.trump) == p
    target = values[0]
    for i in range(1, count):
        if (values[i] > target) if want else (values[i] < target):
            target = values[i]
    for i in range(count):
        if values[i] == target and (
            pick < 0
            or shown_strength(legal[i], d.trump) < shown_strength(pick, d.trump)
            or (
                shown_strength(legal[i], d.trump) == shown_strength(pick, d.trump)
                and legal[i] < pick
            )
        ):
            pick = legal[i]
    return pick


# ============================================================================ returns
cdef inline void returns_into(State s, double* out) noexcept:
    result_returns(s, out)


cdef Py_ssize_t dealt_cards(const Data* d) noexcept:
    """A deck a deal and a redraw: the decks used so far."""
    return d.decks_used * DECK_SIZE


cdef int refuse(State state) except -1:
    """Every state of a game in progress can be searched."""
    return 0


cdef inline int rollout(State s, short* legal, int count) noexcept:
    return greedy(s, legal, count)


include "../../core/_search_redeal.pxi"
include "../../core/_search.pxi"
