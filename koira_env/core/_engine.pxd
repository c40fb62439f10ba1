# The compiled game cores' engines share their Python face, written once here: an engine
# holds one rule set as C values and writes observations. Each core's ``Engine`` subclasses
# ``CompiledEngine``, sets ``players`` and writes only ``write``: check that the state is
# the engine's, then write the observation (the seat is checked already).
#
#     from koira_env.core._engine cimport CompiledEngine


cdef class CompiledEngine:
    cdef readonly object rules
    cdef readonly int num_actions
    cdef readonly int size  # observation size
    cdef int players  # the table's size: the seats observed
    cdef int write(self, object state, int seat, float* out) except -1
    cdef int seat_of_table(self, int seat) except -1
