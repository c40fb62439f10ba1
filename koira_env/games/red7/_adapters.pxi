# The compiled Red7 core's Python attribute adapters (included by _compiled.pyx):
# engine.State's attributes as properties over the state's struct, built on each read (for
# tools, bots and tests: not for hot loops), on ``StateAttributes``, the base of ``State``
# that holds the struct (an include cannot go inside a class body).

cdef class StateAttributes:
    """engine.State's attributes over ``d``; ``State``, the rules, subclasses it."""

    # engine.State's attributes, built on each read (for tools, bots and tests: not for hot
    # loops); a list read from the state is a copy.
    @property
    def over(self):
        return self.d.h.is_terminal

    @property
    def round(self):
        return self.d.round

    @property
    def rule(self):
        return self.d.rule

    @property
    def alive(self):
        return self.d.alive

    @property
    def winner(self):
        return self.d.winner

    @property
    def hands(self):
        return [mask_list(self.d.hand[p]) for p in range(self.opt.n)]

    @property
    def palettes(self):
        return [int_list(self.d.palette[p], self.d.palette_len[p]) for p in range(self.opt.n)]

    @property
    def masks(self):
        return [self.d.mask[p] for p in range(self.opt.n)]

    @property
    def keys(self):
        return [[self.d.keys[p][r] for r in range(NUM_COLOURS)] for p in range(self.opt.n)]

    @property
    def groups(self):
        return [[self.d.groups[p][i] for i in range(NUM_GROUPS)] for p in range(self.opt.n)]

    @property
    def best(self):
        return [self.d.best[r] for r in range(NUM_COLOURS)]

    @property
    def leaders(self):
        return [self.d.leaders[r] for r in range(NUM_COLOURS)]

    @property
    def leading(self):
        return [self.d.leading[p] for p in range(self.opt.n)]

    @property
    def draw(self):
        return int_list(self.d.draw, self.d.draw_len)

    @property
    def canvas(self):
        return int_list(self.d.canvas, self.d.canvas_len)

    @property
    def active(self):
        return [bool(self.d.active[p]) for p in range(self.opt.n)]

    @property
    def folded(self):
        return [int_list(self.d.folded[p], self.d.folded_len[p]) for p in range(self.opt.n)]

    @property
    def eliminated(self):
        return int_list(self.d.eliminated, self.d.eliminated_len)

    @property
    def scores(self):
        return [self.d.scores[p] for p in range(self.opt.n)]

    @property
    def scored(self):
        return [int_list(self.d.scored[p], self.d.scored_len[p]) for p in range(self.opt.n)]

    @property
    def loc(self):
        """Each card's location code (``HAND + p`` ...): a copy."""
        return bytearray((<char*>self.d.loc)[:NUM_CARDS])

    @property
    def locs(self):
        """``engine.State.locs``: location code ``v`` of card ``c`` as the four bytes ``4v ..
        4v + 3`` at ``4c .. 4c + 3``; a copy."""
        return bytearray(b"".join([reference.LOC4[self.d.loc[c]] for c in range(NUM_CARDS)]))
