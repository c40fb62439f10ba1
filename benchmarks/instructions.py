"""Instructions per step under valgrind's callgrind: a speed measure the VM's noise cannot move.

    python benchmarks/instructions.py [--what env engine ceiling vector peer] [--games 200]
                                      [--config koira:4 kop:4 ...] [--engine compiled python]
                                      [--json instructions.json]

On the shared 2-core VM the clocks drift by 5-10% between runs of ``bench.py``, more than
most single changes gain. The number of instructions a loop executes does not drift (repeat
runs agree to about 0.5%), so a change can be judged by it first and confirmed with
``bench.py`` after. Each measurement runs ``bench.py``'s loop for ``--games`` games and for no
games under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``) and divides the difference by
the number of steps, so start-up and imports cancel out. Instructions are not time (cache
misses and branch mispredictions are not counted), and valgrind runs the loop about 50
times slower: 200 games take about 40 s. Needs ``valgrind`` on the PATH. ``--engine`` counts
a game on its compiled core (the default), its pure-Python reference engine, or both.

Besides ``bench.py``'s ``env``, ``engine`` and ``ceiling`` loops, ``vector`` counts its
``vector_env(256)`` loop (``--games`` // 10 calls of 16 batch steps; per env step) and
``peer`` the same random games of the config's nearest OpenSpiel game (``bench.NEAREST``,
its observation into a reused buffer; needs ``open_spiel``), so a game and its peer compare
without a clock.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from koira_env.core.env import CardGameEnv

WHAT = ("env", "engine", "ceiling", "vector", "peer")
_COLLECTED = re.compile(r"Collected\s*:\s*([\d,]+)")


def _bench():
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench

    return bench


def play(what: str, config: str, games: int, engine: str | None = None) -> int:
    """Run ``bench.py``'s loop for ``what`` over seeds ``0..games-1``; return the steps taken."""
    bench = _bench()
    game = bench.make_config(config, engine)
    split = config.endswith(bench.SPLIT)
    if what == "engine":
        return bench.bench_engine(game, games)[0]
    if what == "vector":
        return bench.vector_loop(game, split)(games // 10)[0]
    if what == "peer":
        peer = bench.yardstick(bench.NEAREST[game.id])
        if peer is None:
            raise ImportError("the peer loop needs open_spiel (pip install -e '.[openspiel]')")
        return peer(games)[0]
    env = CardGameEnv(game, split_actions=split)
    if what == "ceiling":
        env = bench.null_like(env, bench.drive(env, 50)[0])
    bench.drive(env, 2)  # warm up: first calls specialize the bytecode
    return sum(bench.drive(env, games)[0])


def instructions(stderr: str) -> int:
    """The total from callgrind's "Collected : N" line."""
    match = _COLLECTED.search(stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def count(what: str, config: str, games: int, engine: str | None) -> tuple[int, int]:
    """(instructions, steps) of one run of ``play`` under callgrind."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        what,
        config,
        str(games),
        *([engine] if engine else []),
    ]
    # one BLAS thread: OpenBLAS's idle worker threads spin under valgrind and add ~1% noise
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    return instructions(done.stderr), int(done.stdout.split()[-1])


def per_step(what: str, config: str, games: int, engine: str | None = None) -> float:
    """Instructions per step, start-up cancelled out by a run of no games."""
    total, steps = count(what, config, games, engine)
    base, _ = count(what, config, 0, engine)
    return (total - base) / steps


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        what, config, games, *engine = argv[1:]
        print(play(what, config, int(games), *engine))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--what", nargs="+", choices=WHAT, default=list(WHAT))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--config", nargs="+", default=["koira:4"], help="game:players or koira-preset:players"
    )
    parser.add_argument(
        "--engine",
        nargs="+",
        choices=("compiled", "python"),
        default=None,
        help="games with a compiled core",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not on the PATH (apt install valgrind)")
    engines = args.engine or [None]
    for config in args.config:
        for engine in engines:
            _bench().make_config(config, engine)  # a bad config fails here, not in valgrind
    rows = []
    for config in args.config:
        for engine in engines:
            for what in args.what:
                if engine == "python" and what in ("ceiling", "peer"):
                    continue  # no engine in them: the compiled row is the same loop
                steps = per_step(what, config, args.games, engine)
                label = f"{what} ({engine})" if engine else what
                print(f"{config:<10} {label:<19} {steps:>9,.0f} instructions/step", flush=True)
                rows.append({"config": config, "what": label, "instructions": steps})
    if args.json:
        args.json.write_text(json.dumps({"games": args.games, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
