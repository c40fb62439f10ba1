"""The open-card trick solvers' readable reference, written once for Kop, Whist 22 and Teka.

With every hand seen, the rest of a trick-taking hand is a two-side game of perfect
information: alpha-beta minimax over the legal plays, a trick at a time. What differs between
the games is only their rules, which each game's ``solver.py`` gives as a ``TrickRules``: who
plays next, what may be played, what wins a trick and what a trick is worth. Each game's
``_solver.pyx`` is the same search in C (``core/_tricks.pxi``), and its tests check the two
against each other and this one against ``brute_force`` over the engine's own moves.

A position is ``(hands, trick, leader, state)``: one card mask per seat (bit ``c`` for card
``c``), the plays of the trick being played in order, the seat that led it, and the one
number the game carries from trick to trick (``state``: Whist 22's need; 0 in Kop and Teka,
whose sides are fixed for the hand).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class TrickRules:
    """One game's rules, as the solver needs them: a game's ``solver.py`` subclasses this.
    The defaults fit a game whose plays are its cards and whose sides are fixed for the hand
    (the value is what the tricks add up to)."""

    size: int  # plays in a full trick
    low: int  # below every value: where a maximizing seat starts
    high: int  # above every value: where a minimizing seat starts

    def mover(self, leader: int, n: int) -> int:
        """The seat that plays the trick's ``n``-th card (from 0)."""
        raise NotImplementedError

    def plays(self, hand: int, trick: Sequence[int], best: int) -> list[int]:
        """The legal plays of ``hand`` in search order (``best``: the play winning so far)."""
        raise NotImplementedError

    def takes(self, play: int, best: int) -> bool:
        """Whether ``play`` beats ``best``, the winning play so far."""
        raise NotImplementedError

    def maximizing(self, seat: int) -> bool:
        """Whether ``seat`` plays for the side whose value the solver returns."""
        raise NotImplementedError

    def gain(self, trick: Sequence[int], winner: int) -> int:
        """What a completed trick adds to the value."""
        raise NotImplementedError

    def card(self, play: int) -> int:
        """The card a play takes out of the hand."""
        return play

    def state_after(self, state: int, winner: int) -> int:
        """``state`` for the next trick, once ``winner`` took this one."""
        return state

    def final(self, state: int) -> int:
        """The value once every card is played."""
        return 0


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest id first."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def winning(rules: TrickRules, trick: Sequence[int], leader: int) -> tuple[int, int]:
    """``(best, seat)``: the play winning the trick so far and who played it (-1, -1: none)."""
    best, seat = -1, -1
    for i, play in enumerate(trick):
        if best < 0 or rules.takes(play, best):
            best, seat = play, rules.mover(leader, i)
    return best, seat


def solve(
    rules: TrickRules,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    state: int,
    alpha: int,
    beta: int,
) -> int:
    """The value of the rest of the hand under perfect play of both sides (exact when it lies
    strictly inside ``(alpha, beta)``; otherwise a bound on the same side)."""
    best, seat = winning(rules, trick, leader)
    return _search(rules, list(hands), list(trick), leader, best, seat, state, alpha, beta)


def _search(
    rules: TrickRules,
    hands: list[int],
    trick: list[int],
    leader: int,
    best: int,
    best_seat: int,
    state: int,
    alpha: int,
    beta: int,
) -> int:
    n = len(trick)
    player = rules.mover(leader, n)
    hand = hands[player]
    if not hand:
        return rules.final(state)  # every card played (a trick is never left half played)
    maximize = rules.maximizing(player)
    value = rules.low if maximize else rules.high
    for play in rules.plays(hand, trick, best):
        hands[player] = hand & ~(1 << rules.card(play))
        if n == 0 or rules.takes(play, best):
            new_best, new_seat = play, player
        else:
            new_best, new_seat = best, best_seat
        trick.append(play)
        if n == rules.size - 1:
            gain = rules.gain(trick, new_seat)
            after = rules.state_after(state, new_seat)
            child = gain + _search(
                rules, hands, [], new_seat, -1, -1, after, alpha - gain, beta - gain
            )
        else:
            child = _search(rules, hands, trick, leader, new_best, new_seat, state, alpha, beta)
        trick.pop()
        hands[player] = hand
        if maximize:
            value = max(value, child)
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def after(
    rules: TrickRules,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    state: int,
    play: int,
) -> tuple[int, tuple[int, ...], tuple[int, ...], int, int]:
    """``(gain, hands, trick, leader, state)`` once the mover plays ``play``: ``gain`` is what
    the trick adds to the value if the play completes it."""
    mover = rules.mover(leader, len(trick))
    hands_after = list(hands)
    hands_after[mover] &= ~(1 << rules.card(play))
    new_trick = (*trick, play)
    if len(new_trick) < rules.size:
        return 0, tuple(hands_after), new_trick, leader, state
    _, winner = winning(rules, new_trick, leader)
    gain = rules.gain(new_trick, winner)
    return gain, tuple(hands_after), (), winner, rules.state_after(state, winner)


def play_values(
    rules: TrickRules,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    state: int,
    plays: Sequence[int],
    rest: Callable[..., int] | None = None,
) -> list[tuple[int, int]]:
    """``[(play, value)]`` for each of the mover's ``plays``: the value from the cards in play
    (the trick's included) if it plays it, the rest then solved (or valued by ``rest``,
    called as ``rest(hands, trick, leader, state)``)."""
    values = []
    for play in plays:
        gain, hands_after, new_trick, new_leader, new_state = after(
            rules, hands, trick, leader, state, play
        )
        if rest is None:
            value = solve(
                rules, hands_after, new_trick, new_leader, new_state, rules.low, rules.high
            )
        else:
            value = rest(hands_after, new_trick, new_leader, new_state)
        values.append((play, gain + value))
    return values


def play_out(
    rules: TrickRules,
    hands: Sequence[int],
    trick: Sequence[int],
    leader: int,
    state: int,
    choose: Callable[[list[int], int, list[int], Sequence[int], int, int], int],
) -> int:
    """The value of the rest of the hand when every seat plays ``choose(hands, player, plays,
    trick, best, best_seat)``, ``plays`` its legal plays: the cheap value of a fixed policy."""
    work = list(hands)
    best, best_seat = winning(rules, trick, leader)
    cur = list(trick)
    player = rules.mover(leader, len(cur))
    value = 0
    while work[player]:
        play = choose(work, player, rules.plays(work[player], cur, best), cur, best, best_seat)
        work[player] &= ~(1 << rules.card(play))
        if not cur or rules.takes(play, best):
            best, best_seat = play, player
        cur.append(play)
        if len(cur) == rules.size:
            value += rules.gain(cur, best_seat)
            state = rules.state_after(state, best_seat)
            player, leader, cur, best = best_seat, best_seat, [], -1
        else:
            player = rules.mover(leader, len(cur))
    return value + rules.final(state)


def brute_force(
    state: Any,
    value_at: Callable[[Any], int | None],
    maximizing: Callable[[Any], bool],
    actions: Callable[[Any], list[int]] | None = None,
) -> int:
    """The hand's value under perfect play by plain minimax over the engine's own moves
    (``clone``/``apply``): ``value_at(s)`` is the value once the hand is over (None before),
    ``maximizing(s)`` whether the mover maximizes, ``actions(s)`` the moves searched (every
    legal action unless given). The tests' yardstick, slow."""
    moves = actions or (lambda s: s.legal_actions())

    def value(s: Any) -> int:
        done = value_at(s)
        if done is not None:
            return done
        results = []
        for action in moves(s):
            child = s.clone()
            child.apply(action)
            results.append(value(child))
        return max(results) if maximizing(s) else min(results)

    return value(state)


def view_deals(
    turn: Any,
    players: int,
    hand_size: int,
    deals: int,
    sample: Callable[[list[int], int], list[tuple[int, ...]]],
) -> list[tuple[int, ...]]:
    """``deals`` deals of the cards the turn's seat cannot see, as one hand mask a seat (its own
    hand kept), for the PIMC plug-ins: ``sample(hands, unseen)`` draws them with the game's
    compiled sampler, which keeps what is not hidden (so each other seat's entry of ``hands``
    is a placeholder of its size) and deals the ``unseen`` mask; ``turn.sample_state()``
    (``State.determinize``) tops up any deal the sampler gave up on."""
    view = turn.view
    mine = sum(1 << c for c in view.hand)
    unseen = sum(1 << c for c, by in enumerate(view.played_by) if by < 0) & ~mine
    sizes = [hand_size - sum(1 for by in view.played_by if by == p) for p in range(players)]
    hands = []
    rest = cards_of(unseen)
    for p in range(players):
        if p == view.seat:
            hands.append(mine)
        else:
            hands.append(sum(1 << c for c in rest[: sizes[p]]))
            rest = rest[sizes[p] :]
    found = sample(hands, unseen)
    while len(found) < deals:
        dealt = turn.sample_state()
        found.append(tuple(sum(1 << c for c in h) for h in dealt.hands))
    return found


def plays_so_far(view: Any) -> list[tuple[int, tuple[int, ...]]]:
    """``(leader, cards in play order)`` of every trick of the hand a trick-taking view shows
    (its finished ``tricks``, then the ``trick`` being played): what the voids and refusals
    of the PIMC plug-ins' constraints are read from."""
    plays = [(lead, cards) for lead, cards, _ in view.tricks]
    if view.trick:
        plays.append((view.trick[0][0], tuple(card for _, card in view.trick)))
    return plays
