# The compiled Whist 22 core's Python attribute adapters (included by _compiled.pyx):
# engine.State's attributes as properties over the state's struct, built on each read (for
# tools, bots, the solvers and tests: not for hot loops), on ``StateAttributes``, the base of
# ``State`` that holds the struct (an include cannot go inside a class body).

cdef class StateAttributes:
    """engine.State's attributes over ``d``; ``State``, the rules, subclasses it. A list read
    from the state is a copy."""

    @property
    def phase(self):
        return self.d.phase

    @property
    def hand_no(self):
        return self.d.hand_no

    @property
    def size(self):
        return self.d.size

    @property
    def first(self):
        return self.d.first

    @property
    def dealer(self):
        return (self.d.first + self.opt.n - 1) % self.opt.n

    @property
    def leader(self):
        return self.d.leader

    @property
    def bid_total(self):
        return self.d.bid_total

    @property
    def bids_made(self):
        return self.d.bids_made

    @property
    def best(self):
        return self.d.best

    @property
    def best_player(self):
        return self.d.best_player

    @property
    def tricks_played(self):
        return self.d.tricks_played

    @property
    def fool(self):
        return self.d.fool

    @property
    def scores(self):
        return [self.d.scores[p] for p in range(self.opt.n)]

    @property
    def bids(self):
        return [self.d.bids[p] for p in range(self.opt.n)]

    @property
    def won(self):
        return [self.d.won[p] for p in range(self.opt.n)]

    @property
    def hands(self):
        return [mask_list(self.d.hand[p]) for p in range(self.opt.n)]

    @property
    def played(self):
        return [int_list(self.d.played[p], self.d.played_len[p]) for p in range(self.opt.n)]

    @property
    def trick(self):
        """The current trick as (player, value) pairs in play order."""
        return [(self.d.trick_player[i], self.d.trick_value[i]) for i in range(self.d.trick_len)]

    @property
    def loc(self):
        """Each card's location code (``HAND + p`` ...): a copy."""
        return bytearray((<char*>self.d.loc)[:NUM_CARDS])
