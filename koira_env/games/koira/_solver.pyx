# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The phase-two solver of ``solver.py`` on the compiled core: the same AND/OR search, in C.

``solver.ReferenceSolver`` is the readable reference; the two give the same verdicts (tests).
One working state is searched in place: a move is made by the core's own ``apply_legal``
(the rules are decided there, once) and unmade by copying the saved ``Data`` back. Proven
positions go to one table shared by the calls (buckets of four slots; a generation per call,
so nothing is ever cleared), keyed by the whole position, not a hash of it: two positions
share an entry only if they are equal. A probe reads the bucket's four 16-byte heads
(generation, a tag of the hash, df-pn's work) in one cache line, fetched while the
position's moves are listed, and compares a key only where a tag agrees. Beyond the
reference, and not changing any answer:

moves are ordered (a move that empties the mover's hand first, then plays from the lowest
card up, a take last), a position's only legal move is played where it is met (``advance``:
the search keys and stores only positions with a choice), and ranks in keys are renumbered
over the cards still in play. A position the depth-first search has not settled within
``DFS_NODES`` goes on with a depth-first proof-number search (df-pn) in the same table,
except where positions repeat (``emptied_trick="ends"``). Cards that look equivalent (one hand, one suit, no card in play
ranked between them) are not: one can be taken back later and meet the other in a trick, so
every move is tried.

Not reentrant: the buffers and the table are the module's, and a search holds the GIL.
"""

cimport cython
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, malloc
from libc.string cimport memcpy, memset

from koira_env.core._bits cimport lowest, popcount
from koira_env.core._rng cimport Rng, next_u64

from koira_env.games.koira._compiled cimport (
    GAME_OVER,
    MAX_LEGAL,
    MAX_PLAYERS,
    NUM_CARDS,
    TAKE,
    Data,
    State,
)

from .heuristics import ACT_LEN, ACT_RANK

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <xmmintrin.h>
    static inline void solver_fetch(const void* p) { _mm_prefetch((const char*)p, _MM_HINT_T0); }
    #else
    static inline void solver_fetch(const void* p) { __builtin_prefetch(p); }
    #endif
    """
    void fetch_line "solver_fetch"(const void* p) noexcept nogil  # a cache line

cdef enum:
    KEY_WORDS = 11  # eight hands, two words of trick plays, one of counters
    TABLE_BITS = 20  # the table's slots: 2^20 at the most, 2^14 at the least (SLOTS)
    MIN_TABLE_BITS = 14
    PROBES = 4
    KEPT = 16  # df-pn: a position's moves whose keys it keeps for their own searches (mid)
    MAX_DEPTH = 2048  # a line longer than this is left undecided
    UNKNOWN = 2
    # positions the depth-first search gets before df-pn takes over (emptied_trick="continues"):
    # it settles most positions in far fewer, df-pn the long ones (docs/solver.md)
    DFS_NODES = 100000
    PER_SUIT = 1
    ACROSS_SUITS = 2

# proof and disproof numbers: INF is a proven or disproven position, sums stop below it
cdef uint32_t INF = 0x7FFFFFFF


cdef struct Head:  # what a probe reads first: a bucket's PROBES heads share one cache line
    uint32_t gen
    uint32_t tag  # the hash's high half: the key is compared only where the tag agrees
    uint32_t work  # df-pn: positions expanded under it (which entry a full bucket replaces)
    uint32_t pad  # four heads to a cache line

cdef struct Entry:
    uint64_t key[KEY_WORDS]
    uint32_t pn  # the proof and disproof numbers of "seat escapes" (pn 0: it escapes, dn 0:
    uint32_t dn  # it is caught; the depth-first search's verdicts are stored so too)

cdef struct Ctx:
    int seat
    int n
    long long nodes
    long long max_nodes  # < 0: no limit
    long long repeats
    bint cycles  # emptied_trick="ends": a position may repeat on a line
    int compress  # how ranks are renumbered in keys: PER_SUIT or ACROSS_SUITS
    bint runs  # sequences: a run of discarded ranks stays one rank (cards touch only if they did)
    int depth
    bint aborted  # df-pn: the budget or the depth limit was met
    long long dfs_nodes  # positions for the depth-first search before df-pn (< 0: all)
    # make_key's renumbered ranks (``renumber``) and the cards in play they were made for:
    # they change only when a trick is discarded, so most positions reuse them
    uint64_t coded
    uint8_t code[NUM_CARDS]

cdef Entry* TABLE = NULL
cdef Head* HEADS = NULL  # slot i's head, aligned to the cache line (HEADS_BLOCK)
cdef void* HEADS_BLOCK = NULL
cdef uint32_t GEN = 0
# The slots a call uses, less one: the least power of two holding a quarter of its budget in
# positions (``_start``; 2^20 without a budget). A call stores at most one entry per position
# it expands, most never read again, and a table sized for them stays in the processor's
# cache, where 2^20 slots (117 MB) made nearly every probe a miss to memory. On 280 hard
# koira-b and mattis positions at 200,000 positions a call, 2^16 slots instead of 2^20
# expanded 0.2% more positions, 1.5-1.7x faster (docs/solver.md).
cdef size_t SLOTS = (1 << TABLE_BITS) - 1
cdef Data* SAVED = NULL  # per depth: the position before the move being searched
cdef short* MOVES = NULL  # per depth: the moves to try, MAX_LEGAL each (one spare: df-pn counts)
cdef uint64_t* LINE = NULL  # per depth: the key of the position (repetitions)
cdef uint32_t* CHILD_PN = NULL  # df-pn, per depth: the proof numbers of the moves' positions
cdef uint32_t* CHILD_DN = NULL  # and their disproof numbers
cdef uint64_t* CHILD_KEY = NULL  # df-pn, per depth: the keys of the first KEPT moves' positions
cdef uint64_t* CHILD_HASH = NULL  # and their hashes
# per action id (heuristics.py's tables): cards it puts on the table, rank of its lowest card
cdef signed char A_LEN[MAX_LEGAL]
cdef signed char A_RANK[MAX_LEGAL]
cdef uint8_t SUIT_OF[NUM_CARDS]
cdef uint64_t MIX[KEY_WORDS]  # hash_key's odd constant per key word


cdef void _allocate() except *:
    global TABLE, HEADS, HEADS_BLOCK, SAVED, MOVES, LINE, CHILD_PN, CHILD_DN, CHILD_KEY
    global CHILD_HASH
    cdef int a
    cdef Rng mix
    TABLE = <Entry*>calloc(1 << TABLE_BITS, sizeof(Entry))
    HEADS_BLOCK = calloc((1 << TABLE_BITS) + PROBES, sizeof(Head))
    HEADS = <Head*>((<size_t>HEADS_BLOCK + 63) & ~(<size_t>63))
    SAVED = <Data*>malloc(MAX_DEPTH * sizeof(Data))
    MOVES = <short*>malloc((MAX_DEPTH + 1) * MAX_LEGAL * sizeof(short))
    LINE = <uint64_t*>malloc(MAX_DEPTH * KEY_WORDS * sizeof(uint64_t))
    CHILD_PN = <uint32_t*>malloc(MAX_DEPTH * MAX_LEGAL * sizeof(uint32_t))
    CHILD_DN = <uint32_t*>malloc(MAX_DEPTH * MAX_LEGAL * sizeof(uint32_t))
    CHILD_KEY = <uint64_t*>malloc(MAX_DEPTH * KEPT * KEY_WORDS * sizeof(uint64_t))
    CHILD_HASH = <uint64_t*>malloc(MAX_DEPTH * KEPT * sizeof(uint64_t))
    if not (
        TABLE and HEADS_BLOCK and SAVED and MOVES and LINE and CHILD_PN and CHILD_DN
        and CHILD_KEY and CHILD_HASH
    ):
        raise MemoryError("the Koira solver could not allocate its table")
    for a in range(NUM_CARDS):
        SUIT_OF[a] = a // 13
    mix.s = 0
    for a in range(KEY_WORDS):  # the suite's splitmix64 stream from 0, made odd
        MIX[a] = next_u64(&mix) | 1
    for a in range(MAX_LEGAL):
        A_LEN[a] = ACT_LEN[a] if a < len(ACT_LEN) else 0
        A_RANK[a] = ACT_RANK[a] if a < len(ACT_RANK) else -1


_allocate()


cdef Data _LAYOUT
# the bytes of ``Data`` a phase-two move may write: those before ``hands_sorted`` (the core
# orders its fields so), 384 of 904; not a constant to the compiler (``copy_data``)
cdef size_t DATA_BYTES = <char*>&_LAYOUT.hands_sorted - <char*>&_LAYOUT
COPIED_BYTES = DATA_BYTES  # for the test that phase-two moves write nothing beyond them


cdef inline void copy_data(Data* to, const Data* source) noexcept nogil:
    """The state's bytes a phase-two move may change (``DATA_BYTES``; the whole state took
    7-10% more time on the hard positions of docs/solver.md), by libc's ``memcpy`` (vector
    moves): with a size it knows, the compiler wrote ``rep movsq``, 3% slower."""
    memcpy(to, source, DATA_BYTES)


cdef inline void make_key(Data* d, Ctx* c, uint64_t* key) noexcept nogil:
    """The position: hands, the trick's plays (first card and size: who made a play never
    matters again), counters, who is out and who moves. Ranks are renumbered over the cards
    still in play (``renumber``, made again only when they change): positions that differ
    only in which cards were discarded behave alike and share a key."""
    cdef int p, i, n = c.n
    cdef uint64_t play, outs = 0, live = live_cards(d, c)
    cdef uint8_t* code = c.code
    memset(key, 0, KEY_WORDS * sizeof(uint64_t))
    if live != c.coded:
        renumber(live, c)
    for p in range(n):
        key[p] = recode(d.hand[p], code)
        outs |= (<uint64_t>(d.out[p] != 0)) << p
    for i in range(d.trick_len):  # at most MAX_PLAYERS plays, 10 bits each
        play = code[d.trick_first[i]]
        play = (play << 4) | d.trick_size[i]
        key[8 + i // 6] |= play << (10 * (i % 6))
    key[10] = (
        <uint64_t>d.h.current
        | (<uint64_t>d.trick_count << 4)
        | (<uint64_t>d.trick_needed << 8)
        | (<uint64_t>(d.led_suit + 1) << 12)
        | (<uint64_t>d.trick_len << 16)
        | (outs << 20)
    )


cdef inline uint64_t live_cards(Data* d, Ctx* c) noexcept nogil:
    """The cards in play: in hands or in the trick (the others never matter again)."""
    cdef uint64_t live = 0
    cdef int i
    for i in range(c.n):
        live |= d.hand[i]
    for i in range(d.trick_len):
        live |= ((<uint64_t>1 << d.trick_size[i]) - 1) << d.trick_first[i]
    return live


cdef inline void renumber(uint64_t live, Ctx* c) noexcept nogil:
    """``c.code[card]``: each ``live`` card with its rank renumbered among the cards in play
    (in hands or in the trick), within its suit (``PER_SUIT``: ranks are compared only within
    a suit) or across suits (``ACROSS_SUITS``: ``take="lowest"`` compares face ranks of
    different suits). With runs (``c.runs``) a run of ranks no live card holds counts as one
    rank, before the first live rank too: cards are consecutive in codes only if they are in
    play, and a 2 stays a 2 (``sequences_from_two``). Only the live cards get a code (the keys
    read no other): the loops visit them alone, not all 52 cards."""
    cdef uint64_t ranks
    cdef uint8_t* code = c.code
    cdef int i, s, r, k, prev
    cdef uint8_t rank_code[13]
    c.coded = live
    if c.compress == PER_SUIT:
        for s in range(4):
            ranks = (live >> (13 * s)) & 0x1FFF
            k = 0
            prev = -1
            while ranks:
                r = lowest(ranks)
                ranks &= ranks - 1
                k += c.runs and r > prev + 1
                code[13 * s + r] = 13 * s + k
                k += 1
                prev = r
        return
    ranks = (live | live >> 13 | live >> 26 | live >> 39) & 0x1FFF  # ranks any suit holds
    k = 0
    prev = -1
    while ranks:
        r = lowest(ranks)
        ranks &= ranks - 1
        k += c.runs and r > prev + 1
        rank_code[r] = k
        k += 1
        prev = r
    while live:  # one loop over the live cards (per suit, 4% slower on the hard positions)
        i = lowest(live)
        live &= live - 1
        s = SUIT_OF[i]
        code[i] = 13 * s + rank_code[i - 13 * s]


cdef inline uint64_t recode(uint64_t mask, uint8_t* code) noexcept nogil:
    cdef uint64_t out = 0
    while mask:
        out |= <uint64_t>1 << code[lowest(mask)]
        mask &= mask - 1
    return out


cdef inline uint64_t hash_key(uint64_t* key) noexcept nogil:
    """Each word times its own odd constant, summed, then mixed: the products do not wait on
    each other, where a word-by-word mix made the table's address wait on eleven multiplies
    in a row."""
    cdef uint64_t h = 0
    cdef int i
    for i in range(KEY_WORDS):
        h += key[i] * MIX[i]
    h ^= h >> 32
    h *= <uint64_t>0xBF58476D1CE4E5B9
    return h ^ (h >> 29)


cdef inline bint same_key(const uint64_t* a, const uint64_t* b) noexcept nogil:
    """Two keys equal, word by word: most slots probed differ in the first word, where
    ``memcmp`` would be a call into libc comparing all 88 bytes."""
    cdef int i
    for i in range(KEY_WORDS):
        if a[i] != b[i]:
            return False
    return True


cdef inline size_t bucket(uint64_t h) noexcept nogil:
    """The first of the PROBES slots hash ``h`` may use (their heads: one cache line)."""
    return h & SLOTS & ~(<size_t>PROBES - 1)


cdef inline Entry* probe(const uint64_t* key, uint64_t h) noexcept nogil:
    """The position's entry of this call, else NULL (any slot of the bucket: entries are
    replaced in place, so a free slot does not end the search)."""
    cdef size_t b = bucket(h), i
    cdef uint32_t tag = <uint32_t>(h >> 32)
    cdef Head* head
    for i in range(b, b + PROBES):
        head = &HEADS[i]
        if head.gen == GEN and head.tag == tag and same_key(TABLE[i].key, key):
            return &TABLE[i]
    return NULL


cdef inline void put(
    const uint64_t* key, uint64_t h, uint32_t pn, uint32_t dn, uint32_t work
) noexcept nogil:
    """Store the numbers in the position's own slot, else a free one, else over the bucket's
    entry of least work, proven or not: a proof of the depth-first search (work 1) is cheap
    to find again, and keeping every proof before df-pn's own positions left more positions
    undecided (docs/solver.md)."""
    cdef size_t b = bucket(h), i, victim = b + PROBES
    cdef uint32_t tag = <uint32_t>(h >> 32)
    cdef uint32_t least = <uint32_t>-1
    cdef Head* head
    for i in range(b, b + PROBES):
        head = &HEADS[i]
        if head.gen != GEN:
            if victim == b + PROBES or HEADS[victim].gen == GEN:
                victim = i
                least = 0
            continue
        if head.tag == tag and same_key(TABLE[i].key, key):
            victim = i
            break
        if head.work < least:
            victim = i
            least = head.work
    head = &HEADS[victim]
    head.gen = GEN
    head.tag = tag
    head.work = work
    memcpy(TABLE[victim].key, key, KEY_WORDS * sizeof(uint64_t))
    TABLE[victim].pn = pn
    TABLE[victim].dn = dn


cdef inline int lookup(uint64_t* key, uint64_t h) noexcept nogil:
    """The depth-first search's verdict for the position, else ``UNKNOWN``."""
    cdef Entry* e = probe(key, h)
    if e == NULL:
        return UNKNOWN
    return 1 if e.pn == 0 else 0 if e.dn == 0 else UNKNOWN


cdef inline void store(uint64_t* key, uint64_t h, int value) noexcept nogil:
    """A proven verdict, in df-pn's numbers too (the searches of one call share the table)."""
    put(key, h, 0 if value else INF, INF if value else 0, 1)


cdef int order_moves(Data* d, short* moves, int count) noexcept:
    """A hand-emptying move first, then plays from the lowest up, a take last (measured on
    dumper games' positions: the fewest positions expanded of the orders tried, docs/solver.md).
    """
    cdef int size = popcount(d.hand[d.h.current])
    cdef int score[MAX_LEGAL]
    cdef int i, j, best, a, t
    cdef short tmp
    for i in range(count):
        a = moves[i]
        if a == TAKE:
            score[i] = 0
        elif A_LEN[a] == size:
            score[i] = 100
        else:
            score[i] = 20 - A_RANK[a]
    for i in range(count):  # selection sort: counts are small
        best = i
        for j in range(i + 1, count):
            if score[j] > score[best]:
                best = j
        if best != i:
            tmp = moves[i]
            moves[i] = moves[best]
            moves[best] = tmp
            t = score[i]
            score[i] = score[best]
            score[best] = t
    return count


cdef inline int settled_c(Data* d, Ctx* c) noexcept:
    """The verdict the game has decided (1 escaped, 0 caught), else ``UNKNOWN``."""
    if d.phase == GAME_OVER:
        return d.h.truncated or d.placements[d.placed - 1] != c.seat
    if d.out[c.seat]:
        return 1
    return UNKNOWN


cdef inline int advance(State st, Ctx* c, short* moves, int* count) except -1:
    """The verdict the game has decided, else ``UNKNOWN`` with the position's moves listed in
    ``moves`` (``count``). A position with one legal move is no choice: its verdict is its
    successor's, so that move is played here, and again, until a position with a choice
    (each forced move counts as a position in the budget; none is played past it). Where
    positions may repeat (``c.cycles``) a line of forced moves could go round forever:
    nothing is played."""
    cdef Data* d = &st.d
    cdef int v
    while True:
        v = settled_c(d, c)
        if v != UNKNOWN:
            return v
        count[0] = st.legal_into(moves)
        if count[0] != 1 or c.cycles or (c.max_nodes >= 0 and c.nodes >= c.max_nodes):
            return UNKNOWN
        st.apply_legal(moves[0])
        c.nodes += 1


cdef int search(State st, Ctx* c, int count) except -1:
    """The verdict for ``c.seat`` in ``st`` (not finished, the seat still in): 1 escapes,
    0 caught, ``UNKNOWN`` undecided within the node budget or the depth limit. ``st`` is left
    as the last move searched made it: the caller puts back its own copy (one copy of the
    state a position fewer)."""
    cdef Data* d = &st.d
    cdef uint64_t key[KEY_WORDS]
    cdef uint64_t h
    cdef short* moves
    cdef int i, v, verdict, depth, listed
    cdef bint seat_moves, undecided = False
    cdef long long repeats
    make_key(d, c, key)
    h = hash_key(key)
    # the position's slot is fetched while its moves are ordered: most positions are new, and
    # the table's read, a miss to the processor's last cache, was the search's longest wait
    fetch_line(&HEADS[bucket(h)])
    depth = c.depth
    moves = &MOVES[depth * MAX_LEGAL]
    order_moves(d, moves, count)
    v = lookup(key, h)
    if v != UNKNOWN:
        return v
    if c.cycles:
        for i in range(c.depth):
            if same_key(&LINE[i * KEY_WORDS], key):
                c.repeats += 1
                return 1  # an endless game: nobody loses
    if c.depth >= MAX_DEPTH or (c.max_nodes >= 0 and c.nodes >= c.max_nodes):
        return UNKNOWN
    c.nodes += 1
    seat_moves = d.h.current == c.seat
    if count > 1:  # a forced move needs no copy: the caller puts its own back
        copy_data(&SAVED[depth], d)
    memcpy(&LINE[depth * KEY_WORDS], key, KEY_WORDS * sizeof(uint64_t))
    repeats = c.repeats
    c.depth = depth + 1
    verdict = 0 if seat_moves else 1
    for i in range(count):
        if i:  # the position back before the next move (the caller restores after the last)
            copy_data(d, &SAVED[depth])
        st.apply_legal(moves[i])
        v = advance(st, c, &MOVES[(depth + 1) * MAX_LEGAL], &listed)
        if v == UNKNOWN:
            v = search(st, c, listed)
        if v == UNKNOWN:
            undecided = True
        elif v == seat_moves:  # an escape at the seat's turn, a catch at another's
            verdict = v
            undecided = False
            break
    c.depth = depth
    if undecided:
        return UNKNOWN
    if c.repeats == repeats:
        store(key, h, verdict)
    return verdict


cdef inline uint32_t capped(uint64_t value) noexcept:
    return <uint32_t>(value if value < INF else INF)


cdef int mid(
    State st, Ctx* c, int count, uint32_t thpn, uint32_t thdn, uint32_t* result,
    const uint64_t* known=NULL, uint64_t known_hash=0
) except -1:
    """Depth-first proof-number search (df-pn, Nagai 2002) of ``st`` (not settled; its
    ``count`` moves listed at its depth of ``MOVES``) for ``c.seat``, until its proof number
    reaches ``thpn`` or its disproof number ``thdn``: ``result`` gets both. It expands the
    move whose position looks cheapest to settle (the fewest positions left to prove an
    escape at the seat's turn, to disprove it at the others'), which the fixed move order of
    ``search`` cannot know. Games without repetitions only (``emptied_trick="continues"``): a position's numbers do not depend on
    the line that reached it. ``c.aborted`` at the budget or the depth limit.

    ``known`` is the position's key and ``known_hash`` its hash, as the position before it
    made them (else NULL). The position is not looked up: the one before looked it up and
    searches it only below its thresholds (0.08% more positions expanded, where numbers a
    transposition changed meanwhile would have returned at once; 12% fewer instructions
    with the kept keys, docs/solver.md)."""
    cdef Data* d = &st.d
    cdef uint64_t own[KEY_WORDS]
    cdef uint64_t spare[KEY_WORDS]
    cdef const uint64_t* key = known
    cdef uint64_t* child
    cdef uint64_t* keys  # the keys and hashes of this position's first KEPT moves
    cdef uint64_t* hashes
    cdef uint64_t h = known_hash, hc, total, first, second
    cdef uint64_t pn, dn, child_thpn, child_thdn
    cdef uint32_t got[2]
    cdef short* moves
    cdef uint32_t* cpn
    cdef uint32_t* cdn
    cdef Entry* e
    cdef int i, v, best, listed, depth = c.depth
    cdef bint seat_moves = d.h.current == c.seat
    cdef long long start = c.nodes
    if key == NULL:
        make_key(d, c, own)
        key = own
        h = hash_key(own)
    moves = &MOVES[depth * MAX_LEGAL]
    order_moves(d, moves, count)
    if depth >= MAX_DEPTH or (c.max_nodes >= 0 and c.nodes >= c.max_nodes):
        c.aborted = True
        return 0
    c.nodes += 1
    cpn = &CHILD_PN[depth * MAX_LEGAL]
    cdn = &CHILD_DN[depth * MAX_LEGAL]
    keys = &CHILD_KEY[depth * KEPT * KEY_WORDS]
    hashes = &CHILD_HASH[depth * KEPT]
    copy_data(&SAVED[depth], d)
    # each move's numbers: a new position starts from its move count (df-pn+'s mobility); the
    # first KEPT are looked up after the loop, their slots fetched while the next are made
    for i in range(count):
        st.apply_legal(moves[i])
        v = advance(st, c, &MOVES[(depth + 1) * MAX_LEGAL], &listed)
        if v == UNKNOWN:
            cpn[i] = 1 if d.h.current == c.seat else listed
            cdn[i] = listed if d.h.current == c.seat else 1
            child = &keys[i * KEY_WORDS] if i < KEPT else spare
            make_key(d, c, child)
            hc = hash_key(child)
            if i < KEPT:
                hashes[i] = hc
                fetch_line(&HEADS[bucket(hc)])
            else:  # past the kept keys: looked up now
                e = probe(child, hc)
                if e != NULL:
                    cpn[i] = e.pn
                    cdn[i] = e.dn
        else:
            cpn[i] = 0 if v else INF
            cdn[i] = INF if v else 0
        copy_data(d, &SAVED[depth])
    for i in range(min(count, KEPT)):
        if cpn[i] and cdn[i]:
            e = probe(&keys[i * KEY_WORDS], hashes[i])
            if e != NULL:
                cpn[i] = e.pn
                cdn[i] = e.dn
    c.depth = depth + 1
    while True:
        best = 0
        first = second = INF
        total = 0
        for i in range(count):  # OR: pn the least, dn the sum; AND: the other way round
            v = cpn[i] if seat_moves else cdn[i]
            total += cdn[i] if seat_moves else cpn[i]
            if v < first:
                second = first
                first = v
                best = i
            elif v < second:
                second = v
        pn = first if seat_moves else capped(total)
        dn = capped(total) if seat_moves else first
        if pn >= thpn or dn >= thdn:
            break
        # the child may run until it passes the second best by the second best's number
        # (1+ε with ε = 1: fewer returns to this position than ε = 1/2, docs/solver.md)
        if seat_moves:
            child_thpn = min(thpn, second + 1 + second)
            child_thdn = capped(thdn - dn + cdn[best])
        else:
            child_thdn = min(thdn, second + 1 + second)
            child_thpn = capped(thpn - pn + cpn[best])
        st.apply_legal(moves[best])
        advance(st, c, &MOVES[(depth + 1) * MAX_LEGAL], &listed)  # its forced moves again
        mid(  # with the move's key and hash, if kept
            st, c, listed, <uint32_t>child_thpn, <uint32_t>child_thdn, got,
            &keys[best * KEY_WORDS] if best < KEPT else NULL, hashes[best] if best < KEPT else 0,
        )
        copy_data(d, &SAVED[depth])
        if c.aborted:
            c.depth = depth
            return 0
        cpn[best] = got[0]
        cdn[best] = got[1]
    c.depth = depth
    put(key, h, <uint32_t>pn, <uint32_t>dn, capped(c.nodes - start))
    result[0] = <uint32_t>pn
    result[1] = <uint32_t>dn
    return 0


cdef State _working_copy(State state):
    """A copy that keeps no history or log and counts no actions (the solver ignores the
    ``max_actions`` safeguard)."""
    cdef State st = state.clone_c()
    st.history = None
    st.log = None
    st.d.h.actions_taken = 0
    return st


cdef void _start(Ctx* c, State st, int seat, max_nodes, long long dfs_nodes) noexcept:
    global GEN, SLOTS
    cdef int bits = TABLE_BITS
    if max_nodes is not None:  # SLOTS: the least table holding a quarter of the budget
        bits = MIN_TABLE_BITS
        while bits < TABLE_BITS and (<long long>1 << (bits + 2)) < <long long>max_nodes:
            bits += 1
    SLOTS = (<size_t>1 << bits) - 1
    GEN += 1
    if GEN == 0:  # wrapped: forget every generation
        memset(HEADS, 0, (1 << TABLE_BITS) * sizeof(Head))
        GEN = 1
    c.seat = seat
    c.n = st.opt.n
    c.max_nodes = -1 if max_nodes is None else max_nodes
    c.dfs_nodes = dfs_nodes
    c.nodes = 0
    c.coded = 0
    c.repeats = 0
    c.depth = 0
    c.aborted = False
    c.cycles = st.opt.emptied_ends
    c.runs = st.opt.sequences != 0
    if st.opt.take_lowest:
        c.compress = ACROSS_SUITS
    else:
        c.compress = PER_SUIT


cdef object _answer(State st, Ctx* c):
    """The verdict of ``st`` (a copy the search may use) as True, False or None."""
    cdef Data* d = &st.d
    cdef Data root
    cdef int v, count
    cdef uint32_t got[2]
    cdef long long budget
    c.nodes = 0
    v = advance(st, c, MOVES, &count)  # the root's moves, listed at depth 0
    if v != UNKNOWN:
        return v == 1
    if c.cycles or c.dfs_nodes != 0:  # the depth-first search first, within its share
        budget = c.max_nodes
        if c.dfs_nodes > 0 and not 0 <= budget <= c.dfs_nodes:
            c.max_nodes = c.dfs_nodes
        root = d[0]
        v = search(st, c, count)
        d[0] = root
        c.max_nodes = budget
        if v != UNKNOWN or c.cycles or c.dfs_nodes < 0 or c.nodes >= budget >= 0:
            return None if v == UNKNOWN else v == 1
    c.aborted = False
    c.depth = 0
    mid(st, c, count, INF, INF, got)
    if c.aborted or (got[0] and got[1]):
        return None
    return got[0] == 0


def solve(State state, int seat, max_nodes=None):
    """``solver.solve`` for a compiled phase-two state (checked by the caller)."""
    return nodes_searched(state, seat, max_nodes)[0]


def solve_moves(State state, max_nodes=None, bint first_escape=False):
    """``solver.solve_moves`` for a compiled phase-two state (checked by the caller): every
    legal move's verdict for the seat to move, each within ``max_nodes``; with
    ``first_escape``, moves in the search's order up to the first that escapes."""
    cdef Ctx c
    cdef State st = _working_copy(state)
    cdef Data saved = st.d
    cdef short moves[MAX_LEGAL]
    cdef int count = st.legal_into(moves)
    cdef int i
    _start(&c, st, st.d.h.current, max_nodes, DFS_NODES)
    if first_escape:
        count = order_moves(&st.d, moves, count)
    verdicts = {}
    for i in range(count):
        st.apply_legal(moves[i])
        verdict = _answer(st, &c)
        verdicts[moves[i]] = verdict
        st.d = saved
        if first_escape and verdict is True:
            break
    return verdicts


def nodes_searched(State state, int seat, max_nodes=None, long long dfs_nodes=DFS_NODES):
    """``solve`` and the positions it expanded (benchmarks); ``dfs_nodes`` sets the
    depth-first search's share before df-pn (tests: ``0`` df-pn only, ``-1`` no df-pn)."""
    cdef Ctx c
    cdef State st = _working_copy(state)
    _start(&c, st, seat, max_nodes, dfs_nodes)
    verdict = _answer(st, &c)
    return verdict, c.nodes


def rank_codes(State state):
    """``renumber``'s code of every card in ``state``'s keys, by card id, ``None`` for a card
    out of play (tests: the codes must keep every order and every adjacency in play that the
    rules read)."""
    cdef Ctx c
    cdef uint64_t live
    cdef int card
    _start(&c, state, 0, None, DFS_NODES)
    live = live_cards(&state.d, &c)
    renumber(live, &c)
    return [c.code[card] if live >> card & 1 else None for card in range(NUM_CARDS)]
