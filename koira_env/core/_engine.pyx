# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
# cython: binding=False
"""The bases of the compiled cores' engines and states (``_engine.pxd`` says what a core
writes)."""

cimport numpy as cnp
from libc.stdint cimport int64_t
from libc.string cimport memcpy, memset

from koira_env.core._lists cimport int_list
from koira_env.core._mask cimport legal_mask

from .game import IllegalActionError
from .state import EngineState

cnp.import_array()


cdef class CompiledEngine:
    """One rule set as C values, and the observation writer of its core."""

    cdef int write(self, object state, int seat, float* out) except -1:
        """Write what ``seat`` (one of the table) may know of ``state`` into ``out`` (``size``
        floats), after checking that the state is this engine's."""
        raise NotImplementedError

    cdef int seat_of_table(self, int seat) except -1:
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}, got {seat}")
        return 0

    def observation(self, state, int seat):
        """A fresh float32 vector of everything ``seat`` may know (``observation_layout``)."""
        cdef cnp.npy_intp size = self.size
        self.seat_of_table(seat)
        array = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
        self.write(state, seat, <float*>cnp.PyArray_DATA(array))
        return array

    def observe_into(self, state, int seat, float[::1] out):
        """Write ``observation(state, seat)`` into ``out``, a float32 row of ``size`` entries
        (for batched envs that keep one preallocated array)."""
        if out.shape[0] != self.size:
            raise ValueError(f"out must hold {self.size} floats, got {out.shape[0]}")
        self.seat_of_table(seat)
        self.write(state, seat, &out[0])

    def action_mask(self, legal):
        """A fresh int8 vector with 1 at each legal action id."""
        return legal_mask(legal, self.num_actions)

    def legal_mask(self, CompiledState state):
        """``action_mask(state.legal_actions())`` without the list between them (``Game
        .legal_mask``: the env's mask at every step)."""
        cdef short legal[LEGAL_BUFFER]
        cdef cnp.npy_intp size = self.num_actions
        cdef int count, k
        if state.engine.num_actions != size:
            raise ValueError("the state was not dealt under this engine's rules")
        mask = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)
        cdef signed char* data = <signed char*>cnp.PyArray_DATA(mask)
        count = state.legal_into(legal)
        for k in range(count):
            data[legal[k]] = 1
        return mask


    # ------------------------------------------------------------------ two-part actions
    def part_observation(self, state, int seat, int pending):
        """``Game.part_observation``: the observation, then the first part chosen (one-hot;
        zeros unless ``seat`` is to act and has chosen ``pending``)."""
        cdef cnp.npy_intp firsts = (self.num_actions + self.parts - 1) // self.parts
        cdef cnp.npy_intp size = self.size + firsts
        cdef CompiledState s = <CompiledState?>state
        self.seat_of_table(seat)
        array = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
        cdef float* data = <float*>cnp.PyArray_DATA(array)
        self.write(state, seat, data)
        memset(data + self.size, 0, firsts * sizeof(float))
        if 0 <= pending < firsts and seat == s.head.current and not s.head.is_terminal:
            data[self.size + pending] = 1.0
        return array

    def part_mask(self, CompiledState state, int pending):
        """``Game.part_mask``: a fresh int8 vector of the split action space, 1 at each legal
        part after ``pending`` (-1: the first parts)."""
        cdef short legal[LEGAL_BUFFER]
        cdef int firsts = (self.num_actions + self.parts - 1) // self.parts
        cdef cnp.npy_intp size = firsts if firsts > self.parts else self.parts
        cdef int count, k
        if state.engine.num_actions != self.num_actions:
            raise ValueError("the state was not dealt under this engine's rules")
        mask = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)
        cdef signed char* data = <signed char*>cnp.PyArray_DATA(mask)
        count = state.parts_into(self.parts, pending, legal)
        for k in range(count):
            data[legal[k]] = 1
        return mask

    def legal_part(self, CompiledState state, int pending, part):
        """``Game.legal_part``: whether ``part`` (an int) is a legal part after ``pending``."""
        cdef short legal[LEGAL_BUFFER]
        cdef int count, k, value
        if type(part) is not int or not 0 <= part < self.num_actions:
            return False
        value = part
        count = state.parts_into(self.parts, pending, legal)
        for k in range(count):
            if legal[k] == value:
                return True
        return False


cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object value, int* overflow) except? -1


cdef extern from *:
    """
    #ifndef SUITE_LAYOUT
    #define SUITE_LAYOUT "unrecorded"
    #endif
    """
    const char* SUITE_LAYOUT  # setup.py: a digest of every .pxd, where the cores' structs are

# the layout of every core's ``Data`` in this build: a pickled state records it, and a state
# of another layout is refused, even of the same size (its fields would be misread)
LAYOUT = SUITE_LAYOUT.decode()


def _restore(cls, game, bytes data, deck, seed, history, log, layout=None):
    """Unpickle a compiled state (``CompiledState.__reduce__``); ``layout`` is None in
    pickles of builds that did not record it."""
    cdef CompiledState state = cls.__new__(cls)
    if len(data) != state.data_size or layout != LAYOUT:
        raise ValueError(
            f"pickled {cls.__module__}.State from another build of the core (its struct "
            f"layout {layout or 'unrecorded'}, {len(data)} bytes; this build's {LAYOUT}, "
            f"{state.data_size} bytes): keep a game as its deck, seed and history to replay it "
            "in any build"
        )
    state._bind(game)
    memcpy(state.head, <char*>data, state.data_size)
    state.deck, state.seed, state.history, state.log = deck, seed, history, log
    return state


cdef class CompiledState:
    """A game in progress on a compiled core: the protocol's face, written once."""

    # ------------------------------------------------------------------ the core's part
    cdef int legal_into(self, short* out) noexcept:
        """The legal actions into ``out`` (``LEGAL_BUFFER`` holds them), increasing as
        ``legal_actions``; returns how many."""
        return 0

    cdef int apply_c(self, int action) except -1:
        """Play ``action``, or ``IllegalActionError`` (nothing changes) if it is not legal."""
        raise NotImplementedError

    cdef int apply_legal(self, int action) except -1:
        """``apply_c`` without the check, for an action ``legal_into`` gave (search copies keep
        no history: ``history`` None)."""
        raise NotImplementedError

    cdef CompiledState clone_c(self):
        """A deep copy that shares only immutable parts (``copy_into`` does the protocol's)."""
        raise NotImplementedError

    cdef void _bind(self, game) except *:
        """Attach ``game`` and its engine: the one it compiled, or one of ``engine_type`` for
        its rules (the core's ``_bind`` then keeps what it reads of the engine)."""
        engine = getattr(game, "compiled", None)
        self.engine = engine if engine is not None else self.engine_type(game.rules)
        self.game = game

    cdef int deal_size(self) noexcept:
        """The cards of the deck ``deal_next`` deals a new game from, or 0: the core has no
        ``deal_next``."""
        return 0

    cdef bint deals_again(self) noexcept:
        """Whether the game may deal another deck from its seed (``hand_deck``) after those it
        holds: the batched env then shuffles the next one ahead, beside other envs' decks
        (``_shuffle.shuffle_ahead``), where a deck shuffled alone costs several times more. A
        hint: a wrong answer costs time, never a different deck."""
        return False

    cdef CompiledState deal_next(self, object seed, list deck):
        """A fresh game of this state's game seeded by ``seed``, the one
        ``Game.new_state(seed=seed)`` deals (no log), built in C from ``deck``, its first
        deck (``deck_for_hand(seed, 0, deal_size())``, which the caller shuffled with others
        at once). The batched env deals its next games this way: for a game of a few steps
        the Python round trip was most of its cost. None where the core has none; a core
        that has it writes ``deal_size``, and this builds the state (``_start``)."""
        cdef CompiledState c
        if not self.deal_size():
            return None
        c = type(self).__new__(type(self))
        c._bind(self.game)
        c._start(deck, seed, None)
        return c

    def __init__(self, game, deck, seed, log=False):
        """engine.State.__init__: a new game of ``game`` dealt from ``deck``, the later decks
        shuffled by ``seed``; ``log`` keeps the event log."""
        self._bind(game)
        self._start(deck, seed, [] if log else None)

    cdef int _start(self, deck, seed, log) except -1:
        """``__init__`` after the binding (and ``deal_next``'s): the protocol's fields, the
        core's struct zeroed, then the core's own start (``_begin``)."""
        memset(self.head, 0, self.data_size)
        self.deck = deck
        self.seed = seed
        self.log = log
        self.history = []
        return self._begin()

    cdef int _begin(self) except -1:
        """The core's start of a game, its struct zeroed and the protocol's fields set: the
        rest of its fields, then the first deal."""
        raise NotImplementedError

    cdef int result_into(self, float* returns, int64_t* places) except -1:
        """A finished (not truncated) game's ``returns()`` and its outcome's places, one
        per seat, into ``returns`` and ``places`` (the batched env's result). This default
        reads them from Python; a core may write them in C without building the outcome."""
        cdef int p, n = self.engine.players
        values = self.returns()
        outcome = self.outcome()
        assert outcome is not None  # terminal and not truncated
        seats = outcome.places
        if len(values) != n or len(seats) != n:
            raise ValueError(f"a result of {len(values)} seats for a table of {n}")
        for p in range(n):
            returns[p] = values[p]
            places[p] = seats[p]
        return 0

    # ------------------------------------------------------------------ the mechanism
    cdef int parts_into(self, int parts, int pending, short* out) noexcept:
        """``core.parts.part_actions`` of the legal actions into ``out``; returns how many
        (``legal_into`` lists them increasing, so their first parts come sorted)."""
        cdef short legal[LEGAL_BUFFER]
        cdef int count = self.legal_into(legal)
        cdef int k, first, n = 0
        for k in range(count):
            first = legal[k] // parts
            if pending < 0:
                if n == 0 or out[n - 1] != first:
                    out[n] = first
                    n += 1
            elif first == pending:
                out[n] = legal[k] - first * parts
                n += 1
        return n

    cdef int copy_into(self, CompiledState c) except -1:
        """The protocol's part of ``clone_c``: the data whole, the engine, game, deck and seed
        shared (a list deck copied), the history and log copied."""
        memcpy(c.head, self.head, self.data_size)
        c.engine = self.engine
        c.game = self.game
        c.deck = self.deck[:]
        c.seed = self.seed
        c.history = self.history[:]
        c.log = None if self.log is None else list(self.log)
        return 0

    def clone(self):
        """A deep copy that shares only immutable parts (the rules); cheap enough for search."""
        return self.clone_c()

    def __reduce__(self):
        data = (<char*>self.head)[:self.data_size]
        args = (type(self), self.game, data, self.deck, self.seed, self.history, self.log)
        return _restore, (*args, LAYOUT)

    def legal_actions(self):
        """Legal action ids for ``current`` in increasing order (empty once the game is over)."""
        cdef short buf[LEGAL_BUFFER]
        return int_list(buf, self.legal_into(buf))

    def apply(self, action):
        """Play ``action`` for ``current``: integers only (numpy's too); ``IllegalActionError``
        (nothing changes) if it is not legal, a finished game included."""
        cdef int overflow = 0
        cdef long value
        if type(action) is not int:  # 13.0 == 13: a float would pass the checks below
            action = EngineState._integer(self, action)
        value = PyLong_AsLongAndOverflow(action, &overflow)
        if overflow or not 0 <= value < self.engine.num_actions:
            raise IllegalActionError(self._illegal(action))
        self.apply_c(<int>value)

    def _illegal(self, action):
        return EngineState._illegal(self, action)

    # ------------------------------------------------------------------ the protocol's fields
    @property
    def n(self):
        return self.engine.players

    @property
    def is_terminal(self):
        return self.head.is_terminal

    @property
    def truncated(self):
        return self.head.truncated

    @property
    def actions_taken(self):
        return self.head.actions_taken

    @property
    def current(self):
        return self.head.current


cdef void places_of_scores(int n, const double* scores, int64_t* places) noexcept:
    """``core.game.places_from_scores(scores)``: competition ranking, the highest score first."""
    cdef int p, q
    for p in range(n):
        places[p] = 1
        for q in range(n):
            if scores[q] > scores[p]:
                places[p] += 1


cdef void returns_of_places(int n, const int64_t* places, float* returns) noexcept:
    """``core.game.returns_from_places(places)`` as float32 (the same doubles, rounded as numpy
    rounds them): seat ``p``'s tie group spans ranks ``i..j`` of the sorted places."""
    cdef int p, q, before, tied
    for p in range(n):
        if n < 2:
            returns[p] = 0.0
            continue
        before = tied = 0
        for q in range(n):
            if places[q] < places[p]:
                before += 1
            elif places[q] == places[p]:
                tied += 1
        returns[p] = <float>(1.0 - 2.0 * ((before + before + tied - 1) / 2.0) / (n - 1))
