"""The ``koira`` command."""

from __future__ import annotations

import argparse
import random
import sys

from koira_env import new_game
from koira_env.record import describe_event


def _demo(args: argparse.Namespace) -> int:
    state = new_game(args.players, args.rules, seed=args.seed, log=True)
    rng = random.Random(args.seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    for event in state.log:
        print(describe_event(event))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="koira", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play and print one game between random players")
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--rules", default="koira")
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ValueError as err:
        print(f"koira: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
