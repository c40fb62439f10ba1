"""Instructions of the compiled open-card trick solvers under valgrind's callgrind, per game.

    python benchmarks/instructions_solvers.py [--tree DIR] [--what kop whist22 ...] [--scale 1]

A fixed, seeded set of solves for each workload (positions taken the way the solver tests
take them, from random play): ``kop`` (``root_values`` and ``solve`` of positions in play,
``sample_deals``), ``whist22`` (the paranoid ``root_values``/``bid_values``/``solve``),
``whist22-model`` (``model_values``/``model_bid_values``), ``whist22-totals`` (PIMC's
``pimc_totals`` and ``model_totals`` from the seat's view, 8 deals each) and ``teka``
(``root_values`` and ``solve`` of positions with at most 20 cards left, ``playout``,
``sample_deals``). Each runs under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``) once
with the solves and once with only the positions built, and the difference is printed, so
the interpreter's start-up, the imports and the random play cancel out: what is left is the
solver calls. Instructions do not drift with the load of a shared machine as times do
(``instructions.py`` says more), so two builds of the solvers compare by them.

``--tree`` names the source tree whose ``koira_env`` is measured (default: the current
directory), so one copy of this script measures a branch and main alike; each workload
also prints a checksum of its inputs and answers, which two trees must share for their
counts to compare (and which shows that a change kept every value and every sampled deal).
Needs ``valgrind`` on the PATH; the default scale takes a few minutes in all.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

WHAT = ("kop", "whist22", "whist22-model", "whist22-totals", "teka")
_COLLECTED = re.compile(r"Collected\s*:\s*([\d,]+)")
# the solver modules' Python entry points (Cython's wrappers): instructions count inside them
ENTRY = "__pyx_pw_9koira_env_5games_*_7_solver_*"

Call = tuple[Callable[..., Any], tuple[Any, ...]]
DEALS = 16  # deals a sampled position is solved on, as the champions' PIMC does


def _pimc(
    sample: Callable[..., Any], dealt: tuple[Any, ...], root_values: Callable[..., Any], *rest: Any
) -> list[Any]:
    """``root_values`` on each deal ``sample(*dealt)`` gives: one PIMC decision."""
    return [root_values(hands, *rest) for hands in sample(*dealt)]


def _kop(scale: int) -> list[Call]:
    """Kop: the value of random positions in play (``tests/games/kop/test_kop_solver.py``) and every
    legal card's value on 16 deals sampled for the mover."""
    from koira_env.games.kop import _solver, solver
    from koira_env.games.kop.engine import PLAY
    from koira_env.registry import make_game

    game = make_game("kop", 4)
    rng = random.Random(3)
    work: list[Call] = []
    for i in range(200 * scale):
        state = game.new_state(seed=3000 + i)
        while state.phase != PLAY:
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.choice(range(0, 14))):
            state.apply(rng.choice(state.legal_actions()))
        if state.phase != PLAY or state.hand_no != 0:
            continue
        hands, trick, leader, queens = solver.position(state)
        dealt = (hands, sum(hands) - hands[state.current], [0] * 4, DEALS, i)
        work.append((_solver.solve, (hands, trick, leader, queens)))
        work.append(
            (_pimc, (_solver.sample_deals, dealt, _solver.root_values, trick, leader, queens))
        )
    return work


def _whist22_states(count: int, seed: int, max_cards: int, steps: int = 40) -> list[Any]:
    """Random Whist 22 states at 3 and 4 players with at most ``max_cards`` cards in hands
    (``tests/games/whist22/test_whist22_solver.py``)."""
    from koira_env.registry import make_game

    found = []
    rng = random.Random(seed)
    for n in (3, 4):
        for i in range(count):
            state = make_game("whist22", n).new_state(seed=seed * 1000 + i)
            moves = rng.randrange(steps)  # random moves, then more down to max_cards
            while not state.is_terminal and (moves > 0 or sum(map(len, state.hands)) > max_cards):
                state.apply(rng.choice(state.legal_actions()))
                moves -= 1
            found += [] if state.is_terminal else [state]
    return found


def _whist22(scale: int) -> list[Call]:
    """Whist 22's paranoid solver: each legal bid's or card's value, and the position's."""
    from koira_env.games.whist22 import _solver, solver
    from koira_env.games.whist22.engine import BID, BIDDING

    work: list[Call] = []
    for state in _whist22_states(30 * scale, 2, 20):
        seat = state.current
        hands, trick, leader, _, need = solver.position(state, seat)
        if state.phase == BIDDING:
            bids = [a - BID for a in state.legal_actions()]
            work.append((_solver.bid_values, (hands, leader, seat, bids)))
        else:
            work.append((_solver.root_values, (hands, trick, leader, seat, need)))
            work.append((_solver.solve, (hands, trick, leader, seat, need)))
    return work


def _whist22_model(scale: int) -> list[Call]:
    """Whist 22's model solver (the others play ``counter``): each legal bid's or card's
    value."""
    from koira_env.games.whist22 import _solver
    from koira_env.games.whist22.engine import ASIDE, BID, BIDDING

    work: list[Call] = []
    for state in _whist22_states(60 * scale, 5, 28):
        seat = state.current
        hands = tuple(sum(1 << c for c in hand) for hand in state.hands)
        aside = sum(1 << c for c in range(22) if state.loc[c] == ASIDE)
        if state.phase == BIDDING:
            bids = [a - BID for a in state.legal_actions()]
            args = (hands, aside, state.leader, seat, state.bids, bids, state.size, True)
            work.append((_solver.model_bid_values, args))
        else:
            needs = [b - w for b, w in zip(state.bids, state.won, strict=True)]
            trick = tuple(v for _, v in state.trick)
            work.append((_solver.model_values, (hands, aside, trick, state.leader, seat, needs)))
    return work


def _whist22_totals(scale: int) -> list[Call]:
    """Whist 22's PIMC calls from the seat's view: ``model_totals`` (the champion's) and, in
    play with at most 16 cards in hands, ``pimc_totals``, 16 deals each."""
    from koira_env.games.whist22 import _solver, search
    from koira_env.games.whist22.engine import BID, BIDDING, PLAYING

    work: list[Call] = []
    for i, state in enumerate(_whist22_states(20 * scale, 7, 28, steps=30)):
        seat = state.current
        pos = search.view_position(state.view(seat))
        head = (pos["n"], seat, pos["hand"], pos["hidden"], pos["sizes"])
        bids = [a - BID for a in state.legal_actions()] if state.phase == BIDDING else None
        model = (*head, pos["trick"], pos["leader"], pos["needs"], pos["bids"], bids)
        work.append((_solver.model_totals, (*model, state.size, True, DEALS, i)))
        if state.phase == PLAYING and sum(pos["sizes"]) <= 16:
            paranoid = (*head, pos["trick"], pos["leader"], pos["needs"][seat], None, DEALS, i)
            work.append((_solver.pimc_totals, paranoid))
    return work


def _teka(scale: int) -> list[Call]:
    """Teka: the tricks of random positions in play with at most 20 cards left in the active
    hands (``tests/games/teka/test_teka_solver.py``) and a playout of each, and every legal card's
    tricks on 16 deals sampled for the mover."""
    from koira_env.games.teka import _solver, solver
    from koira_env.games.teka.engine import DOUBLE, NUM_CARDS, PLAY
    from koira_env.registry import make_game

    game = make_game("teka", 4, early_end=False)
    rng = random.Random(3)
    work: list[Call] = []
    for i in range(30 * scale):
        state = game.new_state(seed=3000 + i)
        while state.phase != PLAY:
            legal = state.legal_actions()
            calls = [a for a in legal if a != DOUBLE] if rng.random() > 0.1 else []
            state.apply(rng.choice(calls or legal))
        target = rng.choice(range(12, 25))
        while state.phase == PLAY and state.hand_no == 0 and _teka_left(state) > target:
            state.apply(rng.choice([a for a in state.legal_actions() if a < NUM_CARDS]))
        if state.phase != PLAY or state.hand_no != 0:
            continue
        pos = solver.position(state)
        hands = pos[0]
        moves = sum(1 << a for a in state.legal_actions() if a < NUM_CARDS)
        dealt = (hands, sum(hands) - hands[state.current], [0] * 4, (), DEALS, i)
        work.append((_solver.solve, pos))
        work.append((_solver.playout, pos))
        work.append((_pimc, (_solver.sample_deals, dealt, _solver.root_values, *pos[1:], moves)))
    return work


def _teka_left(state: Any) -> int:
    return sum(len(h) for p, h in enumerate(state.hands) if p != state.out)


WORKLOADS: dict[str, Callable[[int], list[Call]]] = {
    "kop": _kop,
    "whist22": _whist22,
    "whist22-model": _whist22_model,
    "whist22-totals": _whist22_totals,
    "teka": _teka,
}


def run(what: str, scale: int) -> str:
    """Make ``what``'s calls; returns their number and a checksum of their inputs and
    answers."""
    work = WORKLOADS[what](scale)
    digest = hashlib.sha256()
    for function, args in work:
        digest.update(repr([a for a in args if not callable(a)]).encode())
        digest.update(repr(function(*args)).encode())
    return f"{len(work)} calls, checksum {digest.hexdigest()[:16]}"


def count(tree: Path, what: str, scale: int) -> tuple[int, str]:
    """(instructions, calls and checksum) of one ``run`` under callgrind on ``tree``'s
    ``koira_env``, counted only inside the solver modules' Python entry points."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    cmd += [f"--toggle-collect={ENTRY}", sys.executable, __file__]
    cmd += ["--child", str(tree), what, str(scale)]
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True, cwd=tree)
    match = _COLLECTED.search(done.stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(match.group(1).replace(",", "")), done.stdout.strip().split("\n")[-1]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        tree, what, scale = argv[1:]
        sys.path.insert(0, tree)  # this tree's koira_env, not the installed one
        import koira_env

        if Path(koira_env.__file__).resolve().parent.parent != Path(tree).resolve():
            raise SystemExit(f"imported {koira_env.__file__}, not {tree}'s koira_env")
        print(run(what, int(scale)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=Path.cwd(), help="source tree measured")
    parser.add_argument("--what", nargs="+", choices=WHAT, default=list(WHAT))
    parser.add_argument("--scale", type=int, default=1, help="positions, a multiple of the base")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not on the PATH (apt install valgrind)")
    tree = args.tree.resolve()
    print(tree)
    for what in args.what:
        total, calls = count(tree, what, args.scale)
        print(f"{what:<15} {total:>15,} instructions  {calls}")


if __name__ == "__main__":
    main()
