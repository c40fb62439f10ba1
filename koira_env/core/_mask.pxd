# The action mask of the compiled game cores' engines, defined once for every core:
#
#     from koira_env.core._mask cimport legal_mask
#
# (the cimporting module calls numpy's import_array, as every core does)

cimport numpy as cnp


cdef inline object legal_mask(object legal, cnp.npy_intp size):
    """A fresh int8 vector of ``size`` entries with 1 at each legal action id."""
    cdef Py_ssize_t action
    mask = cnp.PyArray_ZEROS(1, &size, cnp.NPY_INT8, 0)
    cdef signed char* data = <signed char*>cnp.PyArray_DATA(mask)
    for a in legal:
        action = a
        if not 0 <= action < size:
            raise IndexError(f"action {action} is out of range 0..{size - 1}")
        data[action] = 1
    return mask
