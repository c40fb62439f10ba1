"""The ``koira`` command: demo games, tournaments between bots, playing, replaying records and
training, for every game of the suite (``--game``; default koira)."""

from __future__ import annotations

import argparse
import importlib
import itertools
import random
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

from koira_agents.entrants import default_entrants
from koira_agents.exploit import ExploitConfig, run_exploit
from koira_agents.registry import default_opponent, make_agent, resolve
from koira_agents.tournament import TIMING, TournamentConfig, run_tournament
from koira_env import __version__
from koira_env.core.files import write_json
from koira_env.core.game import Game
from koira_env.core.jobs import BACKENDS, Backend
from koira_env.core.record import describe_event, load_record
from koira_env.registry import games, make_game, replay_states, spec
from koira_experiments.common import WORKERS, run_from_args

DEFAULT_DEALS = 3500  # all default bots at 4-player tables: 14,000 games, 10-50 s on 2 cores
SERVE_PORT = 8765  # koira serve's default: not mkdocs serve's 8000


def parse_option(text: str) -> tuple[str, Any]:
    """``"war_trigger=highest_tie"`` -> a (name, value) pair; true/false and ints are typed."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise ValueError(f"rule option {text!r} must look like name=value")
    own = {"num_players": "--players", "game": "--game"}.get(name.strip())
    if own:  # make_game's own arguments (as an option: TypeError, multiple values)
        raise ValueError(f"{name.strip()} is not a rule option: give it as {own}")
    value = value.strip()
    typed: Any = value
    if value.lower() in ("true", "false"):
        typed = value.lower() == "true"
    elif value.lstrip("-").isdigit():
        typed = int(value)
    return name.strip(), typed


def _options(args: argparse.Namespace) -> tuple[tuple[str, Any], ...]:
    """``--option`` pairs, after the game's one-hand options when ``--single-hand`` is given;
    ``ValueError`` for ``--rules`` with a game that has no presets."""
    if args.rules is not None and args.game not in preset_games():
        raise ValueError(
            f"{args.game} has no rule presets; --rules applies to {', '.join(preset_games())} "
            "(use --option NAME=VALUE for its rule options)"
        )
    options = dict(spec(args.game).single_hand) if args.single_hand else {}
    if args.single_hand and not options:
        raise ValueError(f"{args.game} has no one-hand option: a game is one hand already")
    options.update(parse_option(o) for o in args.option)
    return tuple(options.items())


def preset_games() -> dict[str, list[str]]:
    """The games that have rule presets (their ``make_game`` takes ``rules``) and the presets'
    names (``GameSpec.presets``): Koira's koira, koira-b and mattis."""
    return {game: list(presets) for game in games() if (presets := spec(game).load("presets"))}


def _game(args: argparse.Namespace) -> Game:
    preset = {} if args.rules is None else {"rules": args.rules}
    return make_game(args.game, args.players, **preset, **dict(_options(args)))


def _at_least(low: int) -> Any:
    """An argparse type: an integer no smaller than ``low`` (a clean usage error else)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its messages
    return parse


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _demo(args: argparse.Namespace) -> int:
    game = _game(args)
    state = game.new_state(seed=args.seed, log=True)
    rng = random.Random(args.seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    for event in state.log:
        print(describe_event(game, event))
    return 0


def tournament_config(
    args: argparse.Namespace, agents: list[str], options: tuple[tuple[str, Any], ...] = ()
) -> TournamentConfig:
    """The tournament of ``agents`` a command line asks for: ``--game``, ``--rules``,
    ``--players``, ``--games`` (deals, each played in every rotation) and ``--seed``."""
    return TournamentConfig(
        agents=tuple(agents),
        game=args.game,
        rules=args.rules,
        players=_game(args).num_players,
        deals=args.games,
        seed=args.seed,
        options=options,
    )


def _tournament(args: argparse.Namespace) -> int:
    agents = _split(args.agents) if args.agents else default_entrants(_game(args))
    config = tournament_config(args, agents, _options(args))
    summary = run_tournament(
        config,
        args.out,
        workers=args.workers,
        max_games=args.max_games,
        save_records=args.save_records,
        progress=not args.quiet and sys.stderr.isatty(),
        backend=Backend(args.backend, args.address),
        exploits=[Path(p) for p in args.exploit],
    )
    times = {row["agent"]: row["ms_per_decision"] for row in summary["timing"]}
    _print_leaderboard(summary, times)
    print(
        f"results in {args.out}/ (results.json, leaderboard.csv, head_to_head.csv/.png, {TIMING})"
    )
    _say_if_stopped(summary)
    return 0


def _say_if_stopped(summary: dict[str, Any]) -> None:
    """The line a resumable run prints when ``--max-games`` stopped it early."""
    if not summary["complete"]:
        print(
            f"stopped after {summary['games_played']} of {summary['games_total']} games; "
            "run the same command again to continue"
        )


def _ci(value: float | None, ci: list[float | None], digits: int) -> str:
    if value is None or ci[0] is None or ci[1] is None:
        return "-"
    return f"{value:.{digits}f} [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _exploit(args: argparse.Namespace) -> int:
    config = ExploitConfig(
        agent=args.agent,
        game=args.game,
        rules=args.rules,
        players=_game(args).num_players,
        field=tuple(_split(args.field)),
        model=args.model,
        iterations=args.iterations,
        deals=args.games,
        seed=args.seed,
        options=_options(args),
    )
    summary = run_exploit(
        config,
        args.out,
        workers=args.workers,
        max_games=args.max_games,
        progress=not args.quiet and sys.stderr.isatty(),
        backend=Backend(args.backend, args.address),
    )
    measure = summary["measure"].replace("_", " ")
    print(
        f"{args.game}: {args.agent} over {summary['deals']} deals, {measure}: itself "
        f"{_ci(summary['baseline']['value'], summary['baseline']['ci'], 3)}, the exploiter "
        f"{_ci(summary['exploiter']['value'], summary['exploiter']['ci'], 3)}; gain "
        f"{_ci(summary['gain']['value'], summary['gain']['ci'], 3)} (positive: exploitable)"
    )
    print(f"results in {args.out}/ (exploit.json, deals.csv, gain.png, cost.json)")
    _say_if_stopped(summary)
    return 0


def _print_leaderboard(summary: dict[str, Any], times: dict[str, float | None]) -> None:
    from rich.console import Console
    from rich.table import Table

    config = summary["config"]
    variant = config["game"] + (f" ({config['rules']})" if config["rules"] else "")
    table = Table(
        title=f"{variant}, {config['players']} players: {summary['games_played']} games "
        f"({summary['games_truncated']} truncated); ranked by {summary['rank_by']}",
        caption="95% CIs clustered by deal; rating: openskill Plackett-Luce, mu - 3 sigma; "
        "ms/decision: process CPU time per decision asked (forced moves are not)",
    )
    exploits = any(a["exploit"] for a in summary["agents"])
    for column, justify in [
        ("#", "right"),
        ("agent", "left"),
        ("games", "right"),
        ("loss rate [95% CI]", "right"),
        ("win rate [95% CI]", "right"),
        ("mean place [95% CI]", "right"),
        ("rating (mu ± sigma)", "right"),
        ("ms/decision", "right"),
        *([("exploitability gain [95% CI]", "right")] if exploits else []),
    ]:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for rank, a in enumerate(summary["agents"], 1):
        gain = a["exploit"]
        shown = _ci(gain["gain"], gain["ci"], 3) if gain else "-"
        table.add_row(
            str(rank),
            a["agent"],
            str(a["games"]),
            _ci(a["loss_rate"], a["loss_ci"], 3),
            _ci(a["win_rate"], a["win_ci"], 3),
            _ci(a["mean_place"], a["place_ci"], 2),
            f"{a['rating']:.1f} ({a['rating_mu']:.1f} ± {a['rating_sigma']:.1f})",
            f"{times[a['agent']]:.3f}" if times.get(a["agent"]) is not None else "-",
            *([shown] if exploits else []),
        )
    Console(width=max(140, Console().width)).print(table)


def _play(args: argparse.Namespace) -> int:
    from koira_experiments.human_play import GameAbandoned, play_human

    game = _game(args)
    specs = _split(args.opponents) or [default_opponent(args.game)]
    n = game.num_players
    labels = [specs[i % len(specs)] for i in range(n - 1)]  # shown as asked: "champion"
    opponents = [make_agent(text, args.game) for text in labels]
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    print(f"seed {seed} (replay this deal with --seed {seed}); type 'quit' to stop")
    try:
        play_human(game, opponents, args.seat, seed, input, sys.stdout, args.save_record, labels)
    except GameAbandoned as why:
        print(f"game abandoned: {why}")
        return 1
    return 0


def _default_opponents() -> str:
    """Each game's default opponent, for ``koira play --help`` (an alias with what it names)."""
    words = []
    for game in games():
        name = default_opponent(game)
        meant = resolve(name, game)
        words.append(f"{game} {name}" + (f" ({meant})" if meant != name else ""))
    return ", ".join(words)


def _policy_aliases() -> str:
    """The aliases naming a shipped policy, for ``koira tournament --help``: Koira's
    ``ppo:koira4-ppo`` plays as ``champion-net``."""
    named = [
        f"{meant} as {alias}"
        for game in games()
        for alias, meant in spec(game).choices.aliases.items()
        if meant.partition(":")[0] in ("ppo", "net")
    ]
    return ", ".join(named) or "none today"


def _analyze(args: argparse.Namespace) -> int:
    from koira_experiments.analyze import analyze, render

    result = analyze(load_record(args.file), args.agent, args.deals, args.max_cards)
    print(render(result))
    if args.json:
        write_json(Path(args.json), result)
    return 0


def _replay(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    states = replay_states(record)
    game = states[0].game
    if args.gif:
        return _gif(states, args.gif, args.seat)
    print(
        f"{args.file}: {game.title} ({game.variant}), {game.num_players} players, "
        f"{len(states) - 1} actions"
    )
    if "players" in record:
        print(
            "players: "
            + ", ".join(f"player_{p} {name}" for p, name in enumerate(record["players"]))
        )
    print(game.render(states[0], states[0].current))
    for before, after in itertools.pairwise(states):
        for event in after.log[len(before.log) :]:
            print(describe_event(game, event))
        if not after.is_terminal:
            print(game.render(after, after.current))
        if args.step:
            try:
                input("(Enter for the next move) ")
            except EOFError:
                break
    return 0


def _gif(states: list[Any], path: str, seat: int | None) -> int:
    """The record as an animation: one frame per state, as ``seat`` saw it (default: all)."""
    from koira_env.core.picture import picture, save_gif

    n = states[0].n
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"--seat must be in 0..{n - 1}, got {seat}")
    count = save_gif((picture(state, seat) for state in states), path)
    print(f"{count} frames written to {path}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from koira_experiments.web.app import serve  # starlette and uvicorn only when serving

    return serve(args.host, args.port, args.records)


def _add_rule_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="koira", choices=games(), help="the game (default koira)")
    presets = "; ".join(f"{g}: {', '.join(names)}" for g, names in preset_games().items())
    p.add_argument("--rules", default=None, help=f"the game's rules preset ({presets})")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="table size (default: the game's usual table; 2 for Koira's --rules mini)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a rule option, e.g. --option war_trigger=highest_tie (repeatable)",
    )
    p.add_argument(
        "--single-hand",
        action="store_true",
        help="play one hand of a game that lasts many (Whist 22, Kop)",
    )


def _add_run_args(p: argparse.ArgumentParser, workers: str, stop: str, stopped: str) -> None:
    """Where and how far a resumable run goes: ``--workers`` (default ``workers``), the
    backend and its address, ``stop`` (after this many new ``stopped``) and ``--quiet``."""
    p.add_argument(
        "--workers", type=_at_least(1), help=f"processes, or Ray tasks at once (default {workers})"
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where the games run: local processes (default) or a Ray cluster (docs/ray.md)",
    )
    p.add_argument(
        "--address",
        help="with --backend ray: the cluster (head host:port, ray://host:port or auto); "
        "default: the Ray job's cluster, else a Ray started on this machine",
    )
    p.add_argument(stop, type=_at_least(0), help=f"stop after this many new {stopped} (resumable)")
    p.add_argument("--quiet", action="store_true", help="no progress output")


def _train(args: argparse.Namespace) -> int:
    from koira_training.train import main as train_main  # torch only when training

    return train_main(args.flags)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="koira", description=__doc__)
    parser.add_argument("--version", action="version", version=f"koira-rl {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play and print one game between random players")
    _add_rule_args(demo)
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(func=_demo)

    tour = sub.add_parser(
        "tournament",
        help="round-robin between bots: duplicate deals in every seat rotation",
        description="Every table of the listed agents plays each deal in every seat rotation. "
        "Results are appended per game; rerun the same command to resume.",
    )
    tour.add_argument(
        "--agents",
        help="comma-separated agent specs, optionally labelled (label=spec); "
        "default: every built-in bot except search bots, every alias, and each shipped "
        "policy that fits the table and rules when the train extra is installed, under the "
        f"alias that names it ({_policy_aliases()}), else as 'ppo'",
    )
    _add_rule_args(tour)
    tour.add_argument(
        "--games",
        type=_at_least(1),
        default=DEFAULT_DEALS,
        help=f"deals (each played in every rotation; default {DEFAULT_DEALS})",
    )
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--out", default="results/tournament", help="results folder")
    _add_run_args(tour, "all cores; with Ray: the cluster's", "--max-games", "games")
    tour.add_argument(
        "--save-records",
        type=_at_least(0),
        default=0,
        metavar="N",
        help="save game records of the first N games to OUT/records/",
    )
    tour.add_argument(
        "--exploit",
        action="append",
        default=[],
        metavar="PATH",
        help="a koira exploit result (its exploit.json or any folder above it; repeatable): "
        "the leaderboard shows each measured agent's exploitability gain",
    )
    tour.set_defaults(func=_tournament)

    exploit = sub.add_parser(
        "exploit",
        help="approximate exploitability: how much a best response takes from an agent",
        description="A search best response (every other seat modelled by its agent) plays "
        "each seat of every deal against the frozen agent (or --field); the baseline is the "
        "agent itself in that seat on the same deals. The gain, in the game's headline "
        "measure with a 95% interval clustered by deal, is a lower bound on how much the "
        "agent can be exploited (docs/exploitability.md). Rerun the same command to resume.",
    )
    exploit.add_argument("--agent", required=True, help="the frozen agent's spec (champion)")
    exploit.add_argument(
        "--field",
        default="",
        help="comma-separated specs for the other seats, in turn (default: the agent in each)",
    )
    exploit.add_argument(
        "--model",
        default="",
        help="the agent the exploiter takes the frozen agent for, in its search (default: "
        "the agent itself; a cheaper stand-in for a search agent, such as its champion-net)",
    )
    exploit.add_argument(
        "--iterations",
        type=_at_least(1),
        default=64,
        help="the exploiter's search iterations per decision (default 64)",
    )
    _add_rule_args(exploit)
    exploit.add_argument(
        "--games",
        type=_at_least(1),
        default=100,
        help="deals, each played with the exploiter in every seat (default 100)",
    )
    exploit.add_argument("--seed", type=int, default=0)
    exploit.add_argument("--out", default="results/exploit", help="results folder (resumable)")
    _add_run_args(exploit, "all cores; with Ray: the cluster's", "--max-games", "games")
    exploit.set_defaults(func=_exploit)

    play = sub.add_parser("play", help="play against bots in the terminal")
    _add_rule_args(play)
    play.add_argument(
        "--opponents",
        default="",
        help="agent specs for the other seats, comma-separated, e.g. expert,ppo:koira4-ppo "
        f"(default: {_default_opponents()})",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (0 plays first)")
    play.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    play.add_argument("--save-record", metavar="FILE", help="save the game record as JSON")
    play.set_defaults(func=_play)

    replay = sub.add_parser("replay", help="step through a saved game record")
    replay.add_argument("file")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each move")
    replay.add_argument("--gif", metavar="OUT", help="save the game as an animated GIF instead")
    replay.add_argument(
        "--seat", type=int, default=None, help="with --gif: that seat's view (default: all)"
    )
    replay.set_defaults(func=_replay)

    analyze = sub.add_parser(
        "analyze",
        help="value every decision of a game record and list the mistakes",
        description=(
            "Every decision of a record of any game, each legal move valued: Koira's phase "
            "two within --max-cards exactly (each move's escape share over deals of what the "
            "mover could not see and the solver's verdict on the true state), every other "
            "decision by the game's analyst (its champion's search where that values moves, "
            "flat Monte Carlo elsewhere), and the mistakes (docs/solver.md)."
        ),
    )
    analyze.add_argument("file")
    analyze.add_argument("--agent", default=None, help="also show this agent's move (champion)")
    analyze.add_argument("--deals", type=_at_least(1), default=8)
    analyze.add_argument("--max-cards", type=_at_least(2), default=26)
    analyze.add_argument("--json", metavar="OUT", default=None, help="write the analysis as JSON")
    analyze.set_defaults(func=_analyze)

    serve = sub.add_parser(
        "serve",
        help=f"the web page: play the bots, replay records (http://127.0.0.1:{SERVE_PORT})",
        description="A local web app: a lobby, a table to play any game against its bots, "
        "and a replay viewer for game records (docs/web.md).",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1: this machine only; 0.0.0.0 opens it to "
        "the network)",
    )
    serve.add_argument(
        "--port",
        type=_at_least(1),
        default=SERVE_PORT,
        help=f"port to listen on (default {SERVE_PORT}; mkdocs serve takes 8000)",
    )
    serve.add_argument(
        "--records",
        action="append",
        default=None,
        metavar="DIR",
        help="a folder whose game records the replay viewer may open (repeatable; default: "
        "results, where tournaments write)",
    )
    serve.set_defaults(func=_serve)

    # Flags are defined by koira_training.train.Args; "+" as prefix hands every "--flag" through.
    train = sub.add_parser(
        "train",
        help="train a network: self-play MaskablePPO, or search distillation with --algo "
        "distill (koira train --help)",
        add_help=False,
        prefix_chars="+",
    )
    train.add_argument("flags", nargs="*")
    train.set_defaults(func=_train)

    exp = sub.add_parser(
        "experiment",
        help="research experiments: risk, probe, wars",
        description="Koira research experiments, each writing its tables, JSON and figures "
        "to its results folder (--out); a stopped run resumes with the same command.",
    )
    kinds = exp.add_subparsers(dest="experiment", required=True)
    for name in EXPERIMENTS:
        module = importlib.import_module(f"koira_experiments.{name}")
        doc = module.__doc__.replace("``", "")
        e = kinds.add_parser(
            name,
            help=first_sentence(doc),
            description=doc,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        e.add_argument("--quick", action="store_true", help="the small setting used by the tests")
        e.add_argument("--out", default=f"results/{name}", help="results folder (resumable)")
        e.add_argument("--seed", type=int, default=0)
        _add_run_args(e, "2; with Ray: the cluster's cores", "--max-tasks", "games/tasks")
        module.add_arguments(e)
        e.set_defaults(func=_experiment, run=module.run, headline=module.headline)
    return parser


EXPERIMENTS = ("risk", "probe", "wars")


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, for a one-line summary: the
    first line alone stops mid-sentence when the sentence wraps."""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    return re.split(r"(?<=[.?!])\s", paragraph, maxsplit=1)[0]


def _experiment(args: argparse.Namespace) -> int:
    if args.workers is None and args.backend == "process":
        args.workers = WORKERS
    result = run_from_args(args.run, args)
    print(args.headline(result))
    print(f"results in {args.out}/")
    if not result["complete"]:
        print("stopped early; run the same command again to continue")
    return 0


def _one_line_error(self: argparse.ArgumentParser, message: str) -> NoReturn:
    """argparse's usage error as one line that names the command's help (no usage block)."""
    self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def main(argv: list[str] | None = None) -> int:
    usage_error = argparse.ArgumentParser.error  # every parser's, koira train's own too:
    argparse.ArgumentParser.error = _one_line_error  # type: ignore[method-assign]
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except (ValueError, OSError) as err:
        print(f"koira: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("koira: interrupted", file=sys.stderr)
        return 130
    finally:
        argparse.ArgumentParser.error = usage_error  # type: ignore[method-assign]


if __name__ == "__main__":
    sys.exit(main())
