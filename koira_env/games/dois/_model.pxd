# What other compiled modules use of Dois's model playouts (_model.pyx has the documentation):
# the rules ``bots._bid`` and ``bots._shown_strength`` in C, which the compiled search's
# rollout (_search.pyx, ``bots.greedy_rollout``) shares with ``counter``'s.
#
#     from koira_env.games.dois._model cimport counter_bid, shown_strength

cdef int counter_bid(int* counts, int trump, int n) noexcept  # counts per card kind
cdef int shown_strength(int kind, int trump) noexcept
