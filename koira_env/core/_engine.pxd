# The compiled game cores' engines share their Python face, written once here: an engine
# holds one rule set as C values and writes observations. Each core's ``Engine`` subclasses
# ``CompiledEngine`` and writes only ``write``: check the state and seat, then write the
# observation.
#
#     from koira_env.core._engine cimport CompiledEngine


cdef class CompiledEngine:
    cdef readonly object rules
    cdef readonly int num_actions
    cdef readonly int size  # observation size
    cdef int write(self, object state, int seat, float* out) except -1
