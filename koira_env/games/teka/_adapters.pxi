# The compiled Teka core's Python attribute adapters (included by _compiled.pyx): engine.State's
# attributes as properties over the state's struct, built on each read (for tools, bots, the
# solvers and tests: not for hot loops), on ``StateAttributes``, the base of ``State`` that
# holds the struct (an include cannot go inside a class body).

cdef class StateAttributes:
    """engine.State's attributes over ``d``; ``State``, the rules, subclasses it. A list read
    from the state is a copy."""

    @property
    def rules(self):
        return self.engine.rules

    @property
    def phase(self):
        return self.d.phase

    @property
    def hand_no(self):
        return self.d.hand_no

    @property
    def deal_no(self):
        return self.d.deal_no

    @property
    def first(self):
        return self.d.first

    @property
    def dealer(self):
        return self.d.dealer

    @property
    def high(self):
        return self.d.high

    @property
    def declarer(self):
        return self.d.declarer

    @property
    def double(self):
        return bool(self.d.double)

    @property
    def contract(self):
        return self.d.contract

    @property
    def trump(self):
        return self.d.trump

    @property
    def out(self):
        return self.d.out

    @property
    def raised(self):
        return bool(self.d.raised)

    @property
    def leader(self):
        return self.d.leader

    @property
    def best(self):
        return self.d.best

    @property
    def best_seat(self):
        return self.d.best_seat

    @property
    def calls(self):
        return [self.d.calls[p] for p in range(PLAYERS)]

    @property
    def won(self):
        return [self.d.won[p] for p in range(PLAYERS)]

    @property
    def scores(self):
        return [self.d.scores[0], self.d.scores[1]]

    @property
    def hand_points(self):
        return [self.d.hand_points[0], self.d.hand_points[1]]

    @property
    def hands(self):
        return [mask_list(self.d.hand[p]) for p in range(PLAYERS)]

    @property
    def raises(self):
        """(tricks played, new contract) of each raise this hand."""
        return [(self.d.raise_at[i], self.d.raise_to[i]) for i in range(self.d.raises_len)]

    @property
    def trick(self):
        """The cards of the trick being played, in play order."""
        return [self.d.trick[i] for i in range(self.d.trick_len)]

    @property
    def tricks(self):
        """The finished tricks of this hand as (leader, cards, winner)."""
        return [
            (
                self.d.trick_lead[k],
                tuple([self.d.trick_cards[k][i] for i in range(self.d.trick_size[k])]),
                self.d.trick_win[k],
            )
            for k in range(self.d.tricks_len)
        ]

    @property
    def loc(self):
        """Each card's location code (``HAND + p`` ...): a copy."""
        return bytearray((<char*>self.d.loc)[:NUM_CARDS])

    @property
    def by(self):
        """Who played each card this hand (``NOBODY`` if unplayed): a copy."""
        return bytearray((<char*>self.d.by)[:NUM_CARDS])
