# The compiled Mätäpesä core's Python attribute adapters (included by _compiled.pyx):
# engine.State's attributes as properties over the state's struct, built on each read (for
# tools, bots and tests: not for hot loops), on ``StateAttributes``, the base of ``State``
# that holds the struct (an include cannot go inside a class body).

cdef class StateAttributes:
    """engine.State's attributes over ``d``, of the reference's types; ``State``, the rules,
    subclasses it. A list or bytearray read from the state is a copy."""

    @property
    def loc(self):
        """Each card's location code (``HAND + p``, ``PLAYED + p``, ``OUT_OF_PLAY``)."""
        return bytearray((<char*>self.d.loc)[:NUM_CARDS])

    @property
    def counts(self):
        return [bytearray((<char*>self.d.counts[p])[:NUM_RANKS]) for p in range(self.opt.n)]

    @property
    def played(self):
        return [bytearray((<char*>self.d.played[p])[:NUM_RANKS]) for p in range(self.opt.n)]

    @property
    def in_hands(self):
        return bytearray((<char*>self.d.in_hands)[:NUM_RANKS])

    @property
    def out_counts(self):
        return (<char*>self.d.out_counts)[:NUM_RANKS]

    @property
    def hand_sizes(self):
        return [self.d.hand_sizes[p] for p in range(self.opt.n)]

    @property
    def plays(self):
        return int_list(self.d.plays, self.d.plays_len)

    @property
    def tricks_won(self):
        return [self.d.tricks_won[p] for p in range(self.opt.n)]

    @property
    def tricks_done(self):
        return self.d.tricks_done

    @property
    def loser(self):
        return self.d.loser

    @property
    def leader(self):
        return self.d.leader

    @property
    def trick_start(self):
        return self.d.trick_start

    @property
    def need(self):
        return self.d.need

    @property
    def high(self):
        return self.d.high

    @property
    def winner(self):
        return self.d.winner
