# The compiled Koira core's Python attribute adapters (included by _compiled.pyx):
# engine.State's attributes as properties over the state's struct, built on each read (for
# tools, bots and tests: not for hot loops), on ``StateAttributes``, the base of ``State``
# that holds the struct (an include cannot go inside a class body); and the checks of the
# values Python hands the state (cards, seats, bounded ints).

cdef int _seat(StateAttributes state, value) except -1:
    if type(value) is not int or not 0 <= value < state.opt.n:
        raise ValueError(f"a seat must be an int in 0..{state.opt.n - 1}, got {value!r}")
    return value


cdef int _bounded(value, int low, int high, str what) except? -1:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be an int in {low}..{high}, got {value!r}")
    return value


class _Codes(bytearray):
    """A copy of ``State.loc`` or ``State.pub`` whose item writes go back into the state, so
    tests and tools set up positions in place (``s.loc[c] = HAND``) as on the reference."""

    __slots__ = ("_name", "_state")

    def __setitem__(self, key, value):
        bytearray.__setitem__(self, key, value)
        setattr(self._state, self._name, self)

    def __repr__(self):
        return repr(bytearray(self))


cdef _codes(StateAttributes state, str name, uint8_t* codes):
    copy = _Codes(<bytes>(<char*>codes)[:NUM_CARDS])
    copy._state = state
    copy._name = name
    return copy


cdef int _card(value) except -1:
    if type(value) is not int or not 0 <= value < NUM_CARDS:
        raise ValueError(f"a card must be an int in 0..51, got {value!r}")
    return value


cdef class StateAttributes:
    """engine.State's attributes over ``d``; ``State``, the rules, subclasses it."""

    # engine.State's attributes, built on each read (for tools, bots and tests: not for hot
    # loops). Those that tests and tools assign to set up positions have setters; a list read
    # from the state is a copy, so assign the whole attribute (``s.hands = [...]``).
    @property
    def max_actions(self):
        return self.opt.max_actions

    @property
    def current(self):
        return self.d.h.current

    @current.setter
    def current(self, value):
        self.d.h.current = _seat(self, value)

    @property
    def phase(self):
        return self.d.phase

    @phase.setter
    def phase(self, value):
        self.d.phase = _bounded(value, PHASE_ONE, GAME_OVER, "phase")
        if value == PHASE_TWO:
            self.d.hands_sorted = True
        elif value == PHASE_ONE:
            self.d.hands_sorted = False

    @property
    def loc(self):
        return _codes(self, "loc", self.d.loc)

    @loc.setter
    def loc(self, value):
        self._set_codes(self.d.loc, value)

    @property
    def pub(self):
        return _codes(self, "pub", self.d.pub)

    @pub.setter
    def pub(self, value):
        self._set_codes(self.d.pub, value)

    cdef _set_codes(self, uint8_t* codes, value):
        data = bytes(value)
        if len(data) != NUM_CARDS or max(data) >= NUM_CODES:
            raise ValueError(f"card locations must be {NUM_CARDS} codes below {NUM_CODES}")
        memcpy(codes, <char*>data, NUM_CARDS)

    @property
    def hands(self):
        return [self._cards(self.d.hand[p], not self.d.hands_sorted) for p in range(self.opt.n)]

    @hands.setter
    def hands(self, value):
        self._set_piles(self.d.hand, value)

    @property
    def won(self):
        return [self._cards(self.d.won[p], True) for p in range(self.opt.n)]

    @won.setter
    def won(self, value):
        self._set_piles(self.d.won, value)

    cdef list _cards(self, uint64_t mask, bint by_arrival):
        cdef uint8_t cards[NUM_CARDS]
        cdef int count = in_order(&self.d, mask, by_arrival, cards)
        return [cards[i] for i in range(count)]

    cdef _set_piles(self, uint64_t* piles, value):
        """One list of cards per seat, each in arrival order."""
        cdef uint64_t masks[MAX_PLAYERS]
        cdef int p, card
        if len(value) != self.opt.n:
            raise ValueError(f"give one list of cards per seat ({self.opt.n}), got {len(value)}")
        for p in range(self.opt.n):
            masks[p] = 0
            for c in value[p]:
                card = _card(c)
                masks[p] |= bit(card)
                self.d.stamp[card] = self.d.next_stamp
                self.d.next_stamp += 1
        memcpy(piles, masks, self.opt.n * sizeof(uint64_t))

    @property
    def stock(self):
        return [self.d.stock[i] for i in range(self.d.stock_len)]

    @stock.setter
    def stock(self, value):
        cards = [_card(c) for c in value]  # checked before anything changes
        for i, card in enumerate(cards):
            self.d.stock[i] = card
        self.d.stock_len = len(cards)

    @property
    def trump_card(self):
        return self.d.trump_card

    @trump_card.setter
    def trump_card(self, value):
        self.d.trump_card = _bounded(value, -1, NUM_CARDS - 1, "trump_card")

    @property
    def trump_holder(self):
        return self.d.trump_holder

    @trump_holder.setter
    def trump_holder(self, value):
        self.d.trump_holder = _bounded(value, -1, self.opt.n - 1, "trump_holder")

    @property
    def trump_suit(self):
        return self.d.trump_suit

    @trump_suit.setter
    def trump_suit(self, value):
        self.d.trump_suit = _bounded(value, -1, 3, "trump_suit")

    @property
    def last_winner(self):
        return self.d.last_winner

    @last_winner.setter
    def last_winner(self, value):
        self.d.last_winner = _bounded(value, -1, self.opt.n - 1, "last_winner")

    @property
    def pile(self):
        return [(self.d.pile_player[i], self.d.pile_card[i]) for i in range(self.d.pile_len)]

    @pile.setter
    def pile(self, value):
        plays = [(_seat(self, p), _card(c)) for p, c in value]
        for i, (p, c) in enumerate(plays):
            self.d.pile_player[i] = p
            self.d.pile_card[i] = c
        self.d.pile_len = len(plays)

    @property
    def round_cards(self):
        return [(self.d.round_player[i], self.d.round_card[i]) for i in range(self.d.round_len)]

    @round_cards.setter
    def round_cards(self, value):
        plays = [(_seat(self, p), _card(c)) for p, c in value]
        if len(plays) > self.opt.n:
            raise ValueError(f"a round has at most one play per seat, got {len(plays)}")
        for i, (p, c) in enumerate(plays):
            self.d.round_player[i] = p
            self.d.round_card[i] = c
        self.d.round_len = len(plays)

    @property
    def round_players(self):
        return [self.d.round_players[i] for i in range(self.d.round_players_len)]

    @round_players.setter
    def round_players(self, value):
        players = [_seat(self, p) for p in value]
        if len(players) > self.opt.n:
            raise ValueError(f"a round has at most {self.opt.n} players, got {len(players)}")
        for i, p in enumerate(players):
            self.d.round_players[i] = p
        self.d.round_players_len = len(players)

    @property
    def round_pos(self):
        return self.d.round_pos

    @round_pos.setter
    def round_pos(self, value):
        self.d.round_pos = _bounded(value, 0, self.opt.n, "round_pos")

    @property
    def in_war(self):
        return self.d.in_war

    @in_war.setter
    def in_war(self, value):
        self.d.in_war = bool(value)

    @property
    def war_rank(self):
        return self.d.war_rank

    @war_rank.setter
    def war_rank(self, value):
        self.d.war_rank = _bounded(value, -1, 12, "war_rank")

    @property
    def war_depth(self):
        return self.d.war_depth

    @war_depth.setter
    def war_depth(self, value):
        self.d.war_depth = _bounded(value, 0, NUM_CARDS, "war_depth")

    @property
    def dropped(self):
        return [self.d.dropped[i] for i in range(self.d.dropped_len)]

    @property
    def trick(self):
        return [
            [self.d.trick_player[i], list(range(self.d.trick_first[i], self.d.trick_first[i] + self.d.trick_size[i]))]
            for i in range(self.d.trick_len)
        ]

    @trick.setter
    def trick(self, value):
        """``[[player, [cards of one play]], ...]``, bottom first; a play is one card or a run."""
        plays = []
        for player, cards in value:
            cards = [_card(c) for c in cards]
            if not cards or cards != list(range(cards[0], cards[0] + len(cards))) or (
                cards[0] // 13 != cards[len(cards) - 1] // 13
            ):
                raise ValueError(f"a trick play is one card or a run of one suit, got {cards}")
            plays.append((_seat(self, player), cards[0], len(cards)))
        if len(plays) > MAX_PLAYERS:
            raise ValueError(f"a trick holds at most {MAX_PLAYERS} plays, got {len(plays)}")
        for i, (player, first, size) in enumerate(plays):
            self.d.trick_player[i] = player
            self.d.trick_first[i] = first
            self.d.trick_size[i] = size
        self.d.trick_len = len(plays)

    @property
    def trick_count(self):
        return self.d.trick_count

    @trick_count.setter
    def trick_count(self, value):
        self.d.trick_count = _bounded(value, 0, MAX_PLAYERS, "trick_count")

    @property
    def trick_needed(self):
        return self.d.trick_needed

    @trick_needed.setter
    def trick_needed(self, value):
        self.d.trick_needed = _bounded(value, 0, MAX_PLAYERS, "trick_needed")

    @property
    def led_suit(self):
        return self.d.led_suit

    @led_suit.setter
    def led_suit(self, value):
        self.d.led_suit = _bounded(value, -1, 3, "led_suit")

    @property
    def out(self):
        return [bool(self.d.out[p]) for p in range(self.opt.n)]

    @out.setter
    def out(self, value):
        if len(value) != self.opt.n:
            raise ValueError(f"give one flag per seat ({self.opt.n}), got {len(value)}")
        for p in range(self.opt.n):
            self.d.out[p] = bool(value[p])

    @property
    def placements(self):
        return [self.d.placements[i] for i in range(self.d.placed)]

    @placements.setter
    def placements(self, value):
        seats = [_seat(self, p) for p in value]
        if len(set(seats)) != len(seats):
            raise ValueError(f"placements name each seat at most once, got {seats}")
        for i, p in enumerate(seats):
            self.d.placements[i] = p
        self.d.placed = len(seats)
