# The compiled game cores share their Python face, written once here.
#
# An engine holds one rule set as C values and writes observations. Each core's ``Engine``
# subclasses ``CompiledEngine``, sets ``players`` and writes only ``write``: check that the
# state is the engine's, then write the observation (the seat is checked already).
#
# A state is one C struct, the core's ``Data``, whose first member is a ``Header`` (what the
# protocol reads of any game). Each core's ``State`` subclasses ``CompiledState``, points
# ``head`` at its ``Data`` and sets ``data_size`` in ``__cinit__``, and writes its rules:
# ``legal_into``, ``apply_c`` (the legality check), ``apply_legal``, ``clone_c`` (starting
# from ``copy_into``), and ``_bind`` (after the base's, it keeps what it reads of the engine);
# the protocol's attributes, ``legal_actions``, ``apply``, ``clone``, pickling and the wording
# of an illegal action are the base's. ``engine_type`` (a class attribute) is the core's Engine.
# A core starts a game in ``_begin`` (the base's ``__init__`` binds the game, sets the
# protocol's fields and zeroes the struct first; Koira's core, which takes its ``seed`` after
# ``log``, writes an ``__init__`` of its own), and may write ``deal_size`` (the base's: 0),
# so that the base's ``deal_next`` deals the batched env's next game without going through
# Python, and ``deals_again`` (the base's: False), so that the batched env shuffles the next
# deck of such a game ahead, beside others; ``result_into`` (the base's reads ``returns()``
# and ``outcome()``), a finished game's result likewise; and ``parts_into`` (the base's
# filters ``legal_into``), the legal parts of a split env's decision (``core.parts``).
#
#     from koira_env.core._engine cimport CompiledEngine, CompiledState, Header

from libc.stdint cimport int64_t


cdef class CompiledEngine:
    cdef readonly object rules
    cdef readonly int num_actions
    cdef readonly int size  # observation size
    cdef int players  # the table's size: the seats observed
    cdef public int parts  # Game.action_parts where its actions are pairs, else 0
    cdef int write(self, object state, int seat, float* out) except -1
    cdef int seat_of_table(self, int seat) except -1


cdef enum:
    LEGAL_BUFFER = 512  # legal actions at the most in any compiled core (its MAX_LEGAL)


ctypedef struct Header:
    int current
    int actions_taken
    bint truncated
    bint is_terminal


cdef class CompiledState:
    cdef Header* head  # the first member of the core's Data
    cdef Py_ssize_t data_size  # sizeof(Data): a clone or a pickle copies it whole
    cdef CompiledEngine engine  # the rule set (the core's Engine: the core casts it)
    cdef readonly object game
    cdef public object deck
    cdef public object seed
    cdef public object history  # a list; None in search copies (apply_legal keeps none)
    cdef public object log

    # the core's part
    cdef int legal_into(self, short* out) noexcept
    cdef int apply_c(self, int action) except -1
    cdef int apply_legal(self, int action) except -1
    cdef CompiledState clone_c(self)
    cdef void _bind(self, game) except *
    cdef int deal_size(self) noexcept  # optional: the cards of deal_next's deck (0: none)
    cdef bint deals_again(self) noexcept  # optional: a game may deal a later deck (False)
    cdef CompiledState deal_next(self, object seed, list deck)  # from deal_size and _start
    cdef int _start(self, deck, seed, log) except -1  # __init__ after the binding: _begin
    cdef int _begin(self) except -1  # the core's start of a game (its struct zeroed)
    cdef int result_into(self, float* returns, int64_t* places) except -1
    # optional: the legal parts of a split env's decision (core.parts), increasing; the base
    # filters legal_into, a core whose actions are pairs may find them without the list
    cdef int parts_into(self, int parts, int pending, short* out) noexcept
    # the mechanism
    cdef int copy_into(self, CompiledState c) except -1


# core.game's result helpers in C, for the cores' result_into (the same values)
cdef void places_of_scores(int n, const double* scores, int64_t* places) noexcept
cdef void returns_of_places(int n, const int64_t* places, float* returns) noexcept
