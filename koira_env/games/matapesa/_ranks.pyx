# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""Mätäpesä's flat Monte Carlo in C: rank-count deals and rule-of-thumb playouts.

``engine.py`` is the readable reference and ``search.py`` the Python side of the search;
this module only makes playouts cheap. Suits never matter, so a position here is what the
engine's rank counts say: per seat 13 counts, the trick so far (the rank to reach, the highest
rank, its seat, how many have played), the leader, the mover and the tricks left. The rules
(``apply``, ``legal``) mirror ``State._act``, ``State._end_trick`` and ``State._legal``, and
``tests/games/matapesa/test_matapesa_ranks.py`` plays both side by side.

Hidden cards are dealt at rank level (``deal``): the ranks in the other hands, shuffled and
handed out by hand size, each seat refusing ranks below its *floor* (a seat that gave up a
card below the rank to reach gave up its lowest, so it holds nothing lower; ``search.py``
reads the floors off the view). Not reentrant across threads: a call holds the GIL.
"""

from libc.string cimport memset

from koira_env.core._rng cimport Rng, below, shuffle

cdef enum:
    NUM_RANKS = 13
    MAX_PLAYERS = 8
    MAX_CARDS = 52

# playout policies (``POLICIES`` names them); MIXED draws shed or keeper per seat per playout
cdef enum:
    SHED = 0
    KEEPER = 1
    RANDOM = 2
    MIXED = 3

POLICIES = {"shed": SHED, "keeper": KEEPER, "random": RANDOM, "mixed": MIXED}


cdef struct Pos:
    int n
    int current
    int leader
    int need  # the rank to reach; -1 while leading
    int high  # the trick's highest rank so far; -1 before the lead
    int winner  # the seat taking the trick so far; -1 before the lead
    int in_trick  # cards played to the trick so far
    int tricks_left
    int loser  # -1 until the last trick is won
    int follow_highest
    int lowest_anytime
    int tie_last
    unsigned char counts[MAX_PLAYERS][NUM_RANKS]


cdef inline int _lowest(Pos* p, int seat) noexcept nogil:
    cdef int r
    for r in range(NUM_RANKS):
        if p.counts[seat][r]:
            return r
    return -1


cdef inline int _highest(Pos* p, int seat) noexcept nogil:
    cdef int r
    for r in range(NUM_RANKS - 1, -1, -1):
        if p.counts[seat][r]:
            return r
    return -1


cdef int _legal(Pos* p, int* out) noexcept nogil:
    """The mover's legal ranks in ascending order (``State._legal``); returns how many."""
    cdef int k = 0, r, low
    cdef unsigned char* mine = p.counts[p.current]
    if p.loser >= 0:
        return 0
    if p.need < 0:
        for r in range(NUM_RANKS):
            if mine[r]:
                out[k] = r
                k += 1
        return k
    low = _lowest(p, p.current)
    if low < p.need:
        out[0] = low
        k = 1
    for r in range(p.need, NUM_RANKS):
        if mine[r]:
            out[k] = r
            k += 1
    if k > 1 and out[0] < p.need and not p.lowest_anytime:
        for r in range(k - 1):  # the lowest only when nothing reaches
            out[r] = out[r + 1]
        k -= 1
    return k


cdef void _apply(Pos* p, int rank) noexcept nogil:
    """The mover plays a card of ``rank`` (``State._act`` and ``State._end_trick``)."""
    cdef int me = p.current
    p.counts[me][rank] -= 1
    if rank > p.high or (rank == p.high and p.tie_last):
        p.high = rank
        p.winner = me
    p.need = p.high if p.follow_highest else rank
    p.in_trick += 1
    if p.in_trick < p.n:
        p.current = me + 1 if me + 1 < p.n else 0
        return
    p.tricks_left -= 1
    if p.tricks_left == 0:
        p.loser = p.winner
        p.need = -1
        return
    p.leader = p.current = p.winner
    p.need = p.high = p.winner = -1
    p.in_trick = 0


cdef inline int _shed(Pos* p) noexcept nogil:
    """``bots.shed_policy``: the highest legal rank."""
    cdef int top = _highest(p, p.current)
    if p.need < 0 or top >= p.need:
        return top
    return _lowest(p, p.current)


cdef inline int _keeper(Pos* p) noexcept nogil:
    """``bots.keeper_policy``: lead the second-lowest rank held, follow with the lowest rank
    that reaches, the lowest card only when nothing reaches."""
    cdef int r, low
    cdef unsigned char* mine = p.counts[p.current]
    low = _lowest(p, p.current)
    if p.need < 0:
        for r in range(low + 1, NUM_RANKS):
            if mine[r]:
                return r
        return low
    for r in range(p.need, NUM_RANKS):
        if mine[r]:
            return r
    return low


cdef int _playout(Pos* p, int* policy, Rng* s) noexcept nogil:
    """Finish the game, seat ``q`` playing ``policy[q]``; returns the loser."""
    cdef int legal[NUM_RANKS]
    cdef int k, rank
    while p.loser < 0:
        kind = policy[p.current]
        if kind == SHED:
            rank = _shed(p)
        elif kind == KEEPER:
            rank = _keeper(p)
        else:
            k = _legal(p, legal)
            rank = legal[below(s, k)]
        _apply(p, rank)
    return p.loser


cdef void _table(Pos* p, tuple rules, tuple table) except *:
    """Fill ``p``'s rules and trick from Python: ``rules`` is ``(n, follow_highest,
    lowest_anytime, tie_last)`` and ``table`` ``(current, leader, need, high, winner, in_trick,
    tricks_left)`` (``search.rules_key`` and ``search.table_key``); hands are left empty."""
    p.n, p.follow_highest, p.lowest_anytime, p.tie_last = rules
    if not 3 <= p.n <= MAX_PLAYERS:
        raise ValueError(f"Mätäpesä is played by 3 to 8, got {p.n} seats")
    p.current, p.leader, p.need, p.high, p.winner, p.in_trick, p.tricks_left = table
    if not (0 <= p.leader < p.n and 0 <= p.in_trick < p.n and 0 < p.tricks_left <= 52 // p.n
            and p.current == (p.leader + p.in_trick) % p.n
            and -1 <= p.need <= p.high < NUM_RANKS and (p.in_trick == 0) == (p.high < 0)
            and (p.in_trick == 0) == (p.winner < 0) and p.winner < p.n):
        raise ValueError(f"not a Mätäpesä trick in play at {p.n} players: {table}")
    p.loser = -1
    memset(p.counts, 0, sizeof(p.counts))


cdef int _hand_size(Pos* p, int seat) noexcept nogil:
    """The cards ``seat`` holds in this position: one fewer once it played to the trick."""
    return p.tricks_left - ((seat - p.leader + p.n) % p.n < p.in_trick)


cdef void _hand(Pos* p, int seat, object counts) except *:
    """Set ``seat``'s 13 rank counts, checking them against the trick."""
    cdef int r, total = 0
    if len(counts) != NUM_RANKS:
        raise ValueError(f"a hand is {NUM_RANKS} rank counts, got {len(counts)}")
    for r in range(NUM_RANKS):
        if not 0 <= counts[r] <= 4:
            raise ValueError(f"a rank count is 0 to 4, got {counts[r]}")
        p.counts[seat][r] = counts[r]
        total += counts[r]
    if total != _hand_size(p, seat):
        raise ValueError(f"player_{seat} holds {_hand_size(p, seat)} cards here, got {total}")


cdef void _position(Pos* p, tuple rules, tuple table, object counts) except *:
    """A full position: the trick and every seat's hand."""
    _table(p, rules, table)
    if len(counts) != p.n:
        raise ValueError(f"need the hands of {p.n} seats, got {len(counts)}")
    for q in range(p.n):
        _hand(p, q, counts[q])


cdef int _policy_code(object name, bint mixed) except -1:
    """``POLICIES[name]``; "mixed" only where a playout is drawn (``action_values``)."""
    if name not in POLICIES or (name == "mixed" and not mixed):
        choices = sorted(n for n in POLICIES if mixed or n != "mixed")
        raise ValueError(f"playout policy must be one of {choices}, got {name!r}")
    return POLICIES[name]


cdef void _score(Pos* deal, int* legal, int k, int* policy, int seat, double* total,
                 Rng* s) noexcept nogil:
    """Add to ``total[a]`` the seat's return when it plays ``legal[a]`` in ``deal`` and every
    seat then plays its ``policy``: +1/(n-1), or -1 when it loses (``returns_from_places``)."""
    cdef Pos game
    cdef int a
    for a in range(k):
        game = deal[0]
        _apply(&game, legal[a])
        if _playout(&game, policy, s) == seat:
            total[a] -= 1.0
        else:
            total[a] += 1.0 / (deal.n - 1)


def legal(tuple rules, tuple table, counts) -> list:
    """The mover's legal ranks of a position (``State.legal_actions``)."""
    cdef Pos p
    cdef int out[NUM_RANKS]
    _position(&p, rules, table, counts)
    cdef int k = _legal(&p, out)
    return [out[i] for i in range(k)]


def playout(tuple rules, tuple table, counts, policies, unsigned long long seed=0) -> int:
    """The loser when every seat plays its policy (``policies``: a name of ``POLICIES`` a
    seat, not "mixed") from this position to the end; ``seed`` drives "random"."""
    cdef Pos p
    cdef int policy[MAX_PLAYERS]
    cdef Rng s
    s.s = seed
    _position(&p, rules, table, counts)
    if len(policies) != p.n:
        raise ValueError(f"need one playout policy a seat, got {len(policies)}")
    for q in range(p.n):
        policy[q] = _policy_code(policies[q], False)
    return _playout(&p, policy, &s)


def deal_values(tuple rules, tuple table, deals, policies, unsigned long long seed=0) -> list:
    """``[(rank, mean return of the mover)]`` in legal order over given full ``deals`` (each
    the hands of every seat), deal ``i`` finished with ``policies[i]`` (a name a seat): the
    scoring of ``action_values`` on chosen deals, which the tests replay on the engine."""
    cdef Pos deal
    cdef int legal[NUM_RANKS]
    cdef int policy[MAX_PLAYERS]
    cdef double total[NUM_RANKS]
    cdef Rng s
    s.s = seed
    cdef int k = 0, a, q
    if not deals or len(deals) != len(policies):
        raise ValueError(f"need deals and one policy list each, got {len(deals)} and {len(policies)}")
    for a in range(NUM_RANKS):
        total[a] = 0.0
    for i in range(len(deals)):
        _position(&deal, rules, table, deals[i])
        if len(policies[i]) != deal.n:
            raise ValueError(f"need one playout policy a seat, got {len(policies[i])}")
        for q in range(deal.n):
            policy[q] = _policy_code(policies[i][q], False)
        if i == 0:
            k = _legal(&deal, legal)
        elif _legal(&deal, legal) != k:  # the mover's hand is the same in every deal
            raise ValueError("every deal must give the mover the same hand")
        _score(&deal, legal, k, policy, deal.current, total, &s)
    return [(legal[a], total[a] / len(deals)) for a in range(k)]


cdef int _deal(Pos* p, int seat, int* pool, int pool_size, int* floors,
               Rng* s) noexcept nogil:
    """Deal the hidden ranks ``pool`` to the seats other than ``seat``, as many as each holds
    (``_hand_size``), no seat getting a rank below ``floors[q]``; 1 on success, 0 when the
    shuffle broke a floor (the caller shuffles again: rejection keeps the deal uniform among
    the consistent ones)."""
    cdef int i, q, k = 0
    shuffle(pool, pool_size, s)
    for q in range(p.n):
        if q == seat:
            continue
        memset(p.counts[q], 0, NUM_RANKS)
        for i in range(_hand_size(p, q)):
            if pool[k] < floors[q]:
                return 0
            p.counts[q][pool[k]] += 1
            k += 1
    return 1


cdef class _Dealer:
    """The root position (the seat's hand, the trick) and the pool of hidden ranks."""

    cdef Pos root
    cdef int seat
    cdef int pool[MAX_CARDS]
    cdef int pool_size
    cdef int floors[MAX_PLAYERS]

    def __init__(self, tuple rules, tuple table, hand, hidden, floors):
        cdef int q, r, i, need = 0
        _table(&self.root, rules, table)
        self.seat = self.root.current
        _hand(&self.root, self.seat, hand)
        if len(hidden) != NUM_RANKS or len(floors) != self.root.n:
            raise ValueError(f"need {NUM_RANKS} hidden rank counts and {self.root.n} floors")
        self.pool_size = 0
        for r in range(NUM_RANKS):
            if not 0 <= hidden[r] <= 4 - self.root.counts[self.seat][r]:
                raise ValueError(f"hidden rank counts are 0 to 4 with the hand, got {hidden[r]}")
            for i in range(hidden[r]):
                self.pool[self.pool_size] = r
                self.pool_size += 1
        for q in range(self.root.n):
            self.floors[q] = floors[q]
            if q != self.seat:
                need += _hand_size(&self.root, q)
        if need != self.pool_size:
            raise ValueError(f"the other hands hold {need} cards, the hidden ranks {self.pool_size}")

    cdef void draw(self, Pos* deal, Rng* s) noexcept nogil:
        """A deal consistent with the floors (or, if 1,000 shuffles find none, ignoring them
        from then on: the floors are sound, so this guards only against a bad argument)."""
        cdef int tries = 0, q
        deal[0] = self.root
        while not _deal(deal, self.seat, self.pool, self.pool_size, self.floors, s):
            tries += 1
            if tries == 1000:
                for q in range(self.root.n):
                    self.floors[q] = 0


def deal(tuple rules, tuple table, hand, hidden, floors, unsigned long long seed=0) -> list:
    """One random deal of the ``hidden`` ranks (13 counts) to the seats other than the mover,
    whose ``hand`` is given: every seat's rank counts, as ``action_values`` draws them."""
    cdef _Dealer dealer = _Dealer(rules, table, hand, hidden, floors)
    cdef Pos p
    cdef Rng s
    s.s = seed
    dealer.draw(&p, &s)
    return [list(p.counts[q][:NUM_RANKS]) for q in range(p.n)]


def action_values(tuple rules, tuple table, hand, hidden, floors, int playouts,
                  policy="mixed", unsigned long long seed=0) -> list:
    """``[(rank, mean return of the mover)]`` over its legal ranks, in legal order: every rank
    tried on the same ``playouts`` deals (``deal``: the ``hidden`` ranks to the other seats,
    none below its floor), each finished with ``policy`` (``POLICIES``; "mixed": shed or
    keeper, drawn per seat and deal) for every seat."""
    cdef _Dealer dealer = _Dealer(rules, table, hand, hidden, floors)
    cdef Pos deal
    cdef int legal[NUM_RANKS]
    cdef int policy_of[MAX_PLAYERS]
    cdef double total[NUM_RANKS]
    cdef Rng s
    s.s = seed
    cdef int k, i, a, q, kind = _policy_code(policy, True)
    cdef int n = dealer.root.n
    if playouts < 1:
        raise ValueError(f"need at least one playout, got {playouts}")
    k = _legal(&dealer.root, legal)
    for a in range(k):
        total[a] = 0.0
    with nogil:
        for i in range(playouts):
            dealer.draw(&deal, &s)
            for q in range(n):
                if kind == MIXED:
                    policy_of[q] = SHED if below(&s, 2) else KEEPER
                else:
                    policy_of[q] = kind
            _score(&deal, legal, k, policy_of, dealer.seat, total, &s)
    return [(legal[a], total[a] / playouts) for a in range(k)]
