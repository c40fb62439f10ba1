"""The base of the compiled cores' engines (``_engine.pxd`` says what a core writes)."""

cimport numpy as cnp

from koira_env.core._mask cimport legal_mask

cnp.import_array()


cdef class CompiledEngine:
    """One rule set as C values, and the observation writer of its core."""

    cdef int write(self, object state, int seat, float* out) except -1:
        """Write what ``seat`` may know of ``state`` into ``out`` (``size`` floats), after
        checking that the state is this engine's and the seat one of its table."""
        raise NotImplementedError

    def observation(self, state, int seat):
        """A fresh float32 vector of everything ``seat`` may know (``observation_layout``)."""
        cdef cnp.npy_intp size = self.size
        array = cnp.PyArray_EMPTY(1, &size, cnp.NPY_FLOAT32, 0)
        self.write(state, seat, <float*>cnp.PyArray_DATA(array))
        return array

    def observe_into(self, state, int seat, float[::1] out):
        """Write ``observation(state, seat)`` into ``out``, a float32 row of ``size`` entries
        (for batched envs that keep one preallocated array)."""
        if out.shape[0] != self.size:
            raise ValueError(f"out must hold {self.size} floats, got {out.shape[0]}")
        self.write(state, seat, &out[0])

    def action_mask(self, legal):
        """A fresh int8 vector with 1 at each legal action id."""
        return legal_mask(legal, self.num_actions)
