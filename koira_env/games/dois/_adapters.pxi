# The compiled Dois core's Python attribute adapters (included by _compiled.pyx):
# engine.State's attributes as properties over the state's struct, built on each read (for
# tools, bots, the search and tests: not for hot loops), on ``StateAttributes``, the base of
# ``State`` that holds the struct (an include cannot go inside a class body).

cdef class StateAttributes:
    """engine.State's attributes over ``d``; ``State``, the rules, subclasses it. A list or
    bytearray read from the state is a copy."""

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
    def decks_used(self):
        return self.d.decks_used

    @property
    def first(self):
        return self.d.first

    @property
    def dealer(self):
        return (self.d.first - 1 + self.d.n) % self.d.n

    @property
    def trump(self):
        return self.d.trump

    @property
    def trumps_seen(self):
        return [self.d.trumps_seen[i] for i in range(self.d.trumps_seen_len)]

    @property
    def leader(self):
        return self.d.leader

    @property
    def tricks_played(self):
        return self.d.tricks_played

    @property
    def in_trick(self):
        return self.d.in_trick

    @property
    def step(self):
        return self.d.step

    @property
    def lead(self):
        """The lead suit of the current trick: what its leader shows once they have played."""
        return self.d.suit[self.d.leader] if self.d.in_trick or self.d.step else -1

    @property
    def hands(self):
        """Per player, the hand as counts per kind (bytearrays)."""
        return [bytearray(counts_list(self.d.hands[p])) for p in range(self.d.n)]

    @property
    def remains(self):
        return bytearray(counts_list(self.d.remains))

    @property
    def played(self):
        return bytearray(counts_list(self.d.played))

    @property
    def plays(self):
        """Per player, every card kind it played this hand, in order."""
        return [
            [self.d.plays[p][i] for i in range(self.d.plays_len[p])] for p in range(self.d.n)
        ]

    @property
    def shown(self):
        """The hands shown for a redeal this hand: (player, counts, players already final)."""
        cdef int i, q
        return [
            (
                self.d.show_player[i],
                tuple(counts_list(self.d.show_counts[i])),
                tuple([q for q in range(self.d.n) if self.d.show_final[i] >> q & 1]),
            )
            for i in range(self.d.shows_len)
        ]

    @property
    def suit(self):
        return [self.d.suit[p] for p in range(self.d.n)]

    @property
    def number(self):
        return [self.d.number[p] for p in range(self.d.n)]

    @property
    def void(self):
        return [self.d.void[p] for p in range(self.d.n)]

    @property
    def bids(self):
        return [self.d.bids[p] for p in range(self.d.n)]

    @property
    def won(self):
        return [self.d.won[p] for p in range(self.d.n)]

    @property
    def scores(self):
        return [self.d.scores[p] for p in range(self.d.n)]

    @property
    def hand_delta(self):
        return [self.d.hand_delta[p] for p in range(self.d.n)]
