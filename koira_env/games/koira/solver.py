"""Exact phase-two answers: can a seat make sure it is not the loser?

Once phase two starts nothing is drawn and, in a full state (or a determinization of a seat's
view), every card's place is known: the rest of the game is a game of perfect information,
and a finite one (RULES.md point 23; under ``emptied_trick="ends"`` takes can cycle, and a
game that goes on for ever has no loser, as a truncated one). Whether ``seat`` escapes is a
two-sided question when the other seats are treated as one coalition that wants ``seat`` to
lose ("paranoid" search): ``seat`` escapes if some move of its own escapes at each of its
turns, whatever every other seat plays. The answer is exact, not an estimate: ``True`` means
a strategy that never loses exists, ``False`` that the others can force the loss.

``solve`` and ``solve_moves`` answer on the compiled solver (``_solver.pyx``) when it is built,
converting a reference-engine state first. This module's ``ReferenceSolver`` is the readable
reference: the same AND/OR search over the engine's own ``legal_actions``/``apply``, with a
table of proven positions and nothing else. ``brute_force`` (no table, no shortcuts) is the
independent check the tests compare both against on small positions.

The solver ignores the ``max_actions`` safeguard, which never truncates a correct game
(RULES.md point 23). A position that repeats on the searched line (``emptied_trick="ends"``
only) counts as an endless game, so ``seat`` is not the loser; such answers depend on the
line and are not stored.
"""

from __future__ import annotations

from typing import Any

from .engine import PHASE_ONE

try:
    from . import _compiled, _solver
except ImportError:  # a source checkout whose extensions are not built: the reference answers
    _compiled = _solver = None  # type: ignore[assignment]

Verdict = bool | None  # True: seat escapes; False: seat is caught; None: undecided in budget


def check_solvable(state: Any, seat: Any = 0) -> None:
    """Raise ``ValueError`` for a state the solver cannot answer (phase one) or a bad seat."""
    if state.phase == PHASE_ONE:
        raise ValueError(
            "the solver answers phase-two states only: in phase one cards are still drawn "
            "from the stock and risked, so no exact endgame exists yet"
        )
    if type(seat) is not int or not 0 <= seat < state.n:
        raise ValueError(f"seat must be an int in 0..{state.n - 1}, got {seat!r}")


def settled(state: Any, seat: int) -> Verdict:
    """The verdict without search when the game has decided it, else ``None``: ``seat`` is
    out (not the loser), or the game is over (a truncated game has no loser)."""
    if state.is_terminal:
        return state.loser != seat
    if state.out[seat]:
        return True
    return None


def position_key(state: Any) -> tuple:
    """Everything that decides the rest of phase two: hands, the trick's plays (cards only:
    who made a play never matters again), its counts and led suit, who is in, who moves."""
    return (
        state.current,
        tuple(map(tuple, state.hands)),
        tuple(tuple(cards) for _, cards in state.trick),
        state.trick_count,
        state.trick_needed,
        state.led_suit,
        tuple(state.out),
    )


class ReferenceSolver:
    """AND/OR depth-first search for one seat, with a table of proven positions.

    A position where ``seat`` moves is an OR node (one escaping move suffices), any other an
    AND node (every move must escape). ``max_nodes`` bounds the positions expanded per
    ``value`` call; past it the unexplored answers are ``None`` and so are the positions whose
    verdict needed them.
    """

    def __init__(self, seat: int, max_nodes: int | None = None) -> None:
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[tuple, bool] = {}
        self.line: set[tuple] = set()
        self.repeats = 0  # repetitions met: answers found after one depend on the line

    def value(self, state: Any) -> Verdict:
        """The verdict for ``self.seat`` in ``state`` (a phase-two or finished state)."""
        check_solvable(state, self.seat)
        self.nodes = 0
        self.line.clear()
        verdict = settled(state, self.seat)
        return self._search(state) if verdict is None else verdict

    def _search(self, state: Any) -> Verdict:
        key = position_key(state)
        known = self.table.get(key)
        if known is not None:
            return known
        if key in self.line:
            self.repeats += 1
            return True  # an endless game: nobody loses
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return None
        self.nodes += 1
        seat_moves = state.current == self.seat
        repeats = self.repeats
        self.line.add(key)
        verdict: Verdict = not seat_moves  # OR nodes start caught, AND nodes escaped
        undecided = False
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            value = settled(child, self.seat)
            if value is None:
                value = self._search(child)
            if value is None:
                undecided = True
            elif value == seat_moves:  # an escape at an OR node, a catch at an AND node
                verdict = value
                break
        else:
            if undecided:
                verdict = None
        self.line.discard(key)
        if verdict is not None and self.repeats == repeats:
            self.table[key] = verdict
        return verdict


def brute_force(state: Any, seat: int, line: frozenset = frozenset()) -> bool:
    """The verdict by trying every line of play to its end: no table, no budget, no ordering.
    Exponential; the tests' independent check on small positions."""
    verdict = settled(state, seat)
    if verdict is not None:
        return verdict
    key = position_key(state)
    if key in line:
        return True
    line = line | {key}
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        values.append(brute_force(child, seat, line))
    return any(values) if state.current == seat else all(values)


def solve(state: Any, seat: int, max_nodes: int | None = None) -> Verdict:
    """Can ``seat`` make sure it is not the loser, whatever the others play?

    ``state`` is a full phase-two (or finished) state of either engine, any preset, table
    size and options. ``True``: it can; ``False``: the others can force ``seat`` to lose;
    ``None``: undecided within ``max_nodes`` positions. A phase-one state is a ``ValueError``.
    """
    check_solvable(state, seat)
    verdict = settled(state, seat)
    if verdict is not None:
        return verdict
    if _solver is None:
        return ReferenceSolver(seat, max_nodes).value(state)
    return _solver.solve(compiled_copy(state), seat, max_nodes)


def solve_moves(
    state: Any, max_nodes: int | None = None, first_escape: bool = False
) -> dict[int, Verdict]:
    """Every legal move's verdict for the seat to move (``solve`` of the position after it,
    each within ``max_nodes``): ``{action: True | False | None}``. With ``first_escape``, only
    the moves up to the first that escapes (in the solver's order): enough to play one."""
    check_solvable(state, state.current)
    if state.is_terminal:
        return {}
    if _solver is None:
        search = ReferenceSolver(state.current, max_nodes)
        verdicts = {}
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            verdicts[action] = search.value(child)
            if first_escape and verdicts[action] is True:
                break
        return verdicts
    return _solver.solve_moves(compiled_copy(state), max_nodes, first_escape)


def compiled_copy(state: Any) -> Any:
    """The same phase-two position on the compiled core (``state`` itself if it is there)."""
    if isinstance(state, _compiled.State):
        return state
    from .game import game_for

    twin = game_for(state.rules, "compiled").new_state(seed=0)
    twin.phase = state.phase
    for name in (
        "loc",
        "pub",
        "hands",
        "won",
        "stock",
        "trump_card",
        "trump_holder",
        "trump_suit",
        "last_winner",
        "current",
        "trick",
        "trick_count",
        "trick_needed",
        "led_suit",
        "out",
        "placements",
    ):
        setattr(twin, name, getattr(state, name))
    return twin
