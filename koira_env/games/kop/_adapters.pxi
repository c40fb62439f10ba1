# The compiled Kop core's Python attribute adapters (included by _compiled.pyx): engine.State's
# attributes as properties over the state's struct, built on each read (for tools, bots, the
# solvers and tests: not for hot loops), on ``StateAttributes``, the base of ``State`` that
# holds the struct (an include cannot go inside a class body).

cdef class StateAttributes:
    """engine.State's attributes over ``d``; ``State``, the rules, subclasses it. A list read
    from the state is a copy."""

    @property
    def rules(self):
        return self.game.rules

    @property
    def phase(self):
        return self.d.phase

    @property
    def hand_no(self):
        return self.d.hand_no

    @property
    def leader(self):
        return self.d.leader

    @property
    def trick_leader(self):
        return self.d.trick_leader

    @property
    def best(self):
        return self.d.best

    @property
    def best_seat(self):
        return self.d.best_seat

    @property
    def decider(self):
        return self.d.decider

    @property
    def decision(self):
        return self.d.decision

    @property
    def called_jack(self):
        return self.d.called_jack

    @property
    def vc(self):
        return [self.d.vc[p] for p in range(PLAYERS)]

    @property
    def hand_delta(self):
        return [self.d.hand_delta[p] for p in range(PLAYERS)]

    @property
    def points(self):
        return [self.d.points[p] for p in range(PLAYERS)]

    @property
    def side_points(self):
        return [self.d.side_points[0], self.d.side_points[1]]

    @property
    def side(self):
        """Per seat 0 (the black queens' side) or 1; empty in the declaration round."""
        if self.d.phase == DECLARE:
            return []
        return [self.d.side[p] for p in range(PLAYERS)]

    @property
    def hands(self):
        return [mask_list(self.d.hand[p]) for p in range(PLAYERS)]

    @property
    def trick(self):
        """The cards of the trick being played, in play order."""
        return [self.d.trick[i] for i in range(self.d.trick_len)]

    @property
    def tricks(self):
        """The finished tricks of this hand as (leader, cards, winner)."""
        return [
            (
                self.d.trick_leaders[t],
                tuple([self.d.trick_cards[t][i] for i in range(PLAYERS)]),
                self.d.trick_winners[t],
            )
            for t in range(self.d.tricks_len)
        ]

    @property
    def loc(self):
        """Each card's location code (``HAND + p`` ...): a copy."""
        return bytearray((<char*>self.d.loc)[:NUM_CARDS])

    @property
    def by(self):
        """Who played each card this hand (``NOBODY`` if unplayed): a copy."""
        return bytearray((<char*>self.d.by)[:NUM_CARDS])
