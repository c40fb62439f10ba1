# A Python list of ints from a C array, built without a Python call per item (the compiled
# cores' legal actions, Red7's card lists, the compiled shuffle's order), written once:
#
#     from koira_env.core._lists cimport int_list

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLong
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint8_t

ctypedef fused small_int:
    uint8_t
    short
    int


cdef inline list int_list(const small_int* values, int count):
    """``[values[0], ..., values[count - 1]]`` as Python ints."""
    cdef list result = PyList_New(count)
    cdef int i
    for i in range(count):
        item = PyLong_FromLong(values[i])
        Py_INCREF(item)  # PyList_SET_ITEM steals the reference Cython still holds
        PyList_SET_ITEM(result, i, item)
    return result
