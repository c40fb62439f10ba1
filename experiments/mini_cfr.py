"""Exact exploitability of the suite's agents on mini Koira (RULES.md "Mini Koira").

Each agent's strategy is read off the whole game tree (``koira_env.games.koira.mini_solve``:
its action at every information set with a choice; ``random`` is uniform), then the exact
best response to it is computed from each seat. The CFR+ average strategy of
``python -m koira_env.games.koira.mini_solve --out DIR`` (``DIR/average.npy``) is the last row.
With ``--exploit-deals N`` each agent is also measured by ``koira exploit`` (the search best
response of ``koira_agents.exploit``, on N deals, in ``DIR/exploit-<agent>``), beside the
exact gain it approximates: a game has one loser, so a best response that gains ``e`` in
returns of +1 and -1 gains ``e / 2`` in loss rate.

    python -m koira_experiments.mini_cfr --out results/mini-cfr --exploit-deals 1000
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np

from koira_agents.exploit import ExploitConfig, run_exploit
from koira_agents.registry import make_agent
from koira_env.core.files import write_csv
from koira_env.games.koira import mini_solve
from koira_env.games.koira.engine import RISK
from koira_env.games.koira.game import make_game

HANDS = ("Q", "K", "A", "QQ", "QK", "QA", "KK", "KA", "AA")  # the ranks a seat can hold
AGENTS = ("random", "dumper", "greedy", "warrior", "gambler", "cautious", "hoarder")


def table(
    out: Path, agents: tuple[str, ...] = AGENTS, samples: int = 1, exploit_deals: int = 0
) -> list[dict]:
    """One row per agent (and ``cfr+`` if ``out/average.npy`` exists): the best responses'
    values from each seat, their mean (the exploitability), and player_0's value when the
    agent plays itself; with ``exploit_deals``, the search best response's gain in loss rate
    beside the exact one (``exact_gain``) and the share of it recovered."""
    game = make_game(2, "mini")
    tree = mini_solve.get_tree(out)
    strategies = {}
    for name in agents:
        tick = time.perf_counter()
        strategies[name] = mini_solve.agent_strategy(tree, game, make_agent(name, "koira"), samples)
        print(f"{name}: strategy read in {time.perf_counter() - tick:.0f} s", flush=True)
    if (out / "average.npy").exists():
        strategies["cfr+"] = np.load(out / "average.npy")
    rows = [{"agent": name, **mini_solve.exploitability(tree, s)} for name, s in strategies.items()]
    if exploit_deals:
        for row in rows[: len(agents)]:
            row.update(searched(out, row["agent"], row["exploitability"], exploit_deals))
    with open(out / "exploitability.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def searched(out: Path, agent: str, exploitability: float, deals: int) -> dict[str, float]:
    """``koira exploit``'s gain against ``agent`` on mini Koira and the exact gain in loss
    rate (half the exploitability: returns are +1 and -1 and a game has one loser)."""
    config = ExploitConfig(agent=agent, rules="mini", deals=deals, iterations=64)
    gain = run_exploit(config, out / f"exploit-{agent}", workers=2)["gain"]
    exact = exploitability / 2
    return {
        "exact_gain": exact,
        "search_gain": gain["value"],
        "search_low": gain["ci"][0],
        "search_high": gain["ci"][1],
        "recovered": gain["value"] / exact,
    }


def equilibrium_choices(out: Path) -> list[dict]:
    """How the CFR+ average strategy (``out/average.npy``) risks and plays wars in phase one,
    reach-weighted over its decisions (both seats playing it, every deal): per situation
    (leading a trick, answering one, inside a war), stock size and ranks in hand, how
    often risking it is legal and how often the strategy then risks, and the same for tying
    the highest card so far (starting a war). Written to ``out/equilibrium.csv``."""
    game = make_game(2, "mini")
    tree = mini_solve.get_tree(out)
    sigma = np.load(out / "average.npy")
    weights = np.bincount(
        tree.infoset[tree.player >= 0],
        weights=mini_solve.reach(tree, sigma, (0, 1))[tree.player >= 0],
        minlength=tree.n_isets,
    )
    cells: dict[tuple, dict] = {}
    for iset in np.flatnonzero((tree.n_actions > 1) & (weights > 0)):
        state = tree.state(game, int(tree.iset_node[iset]))
        view = state.view(int(tree.iset_player[iset]))
        if view.phase != 1:
            continue
        start = tree.iset_start[iset]
        probs = dict(zip(view.legal, sigma[start : start + len(view.legal)], strict=True))
        if view.war_players:
            where = "in a war"
        else:
            where = "answering" if view.round_cards else "leading"
        top = max((card % 13 for _, card in view.round_cards), default=-1)
        ties = [c for c in view.hand if c % 13 == top and not view.war_players]
        key = (
            where,
            view.stock_size,
            "".join(sorted(("QKA"[c % 13 - 10] for c in view.hand), key="QKA".index)),
        )
        names = ("weight", "can_risk", "risk", "can_tie", "tie")
        cell = cells.setdefault(key, dict.fromkeys(names, 0.0))
        w = float(weights[iset])
        cell["weight"] += w
        if RISK in probs:
            cell["can_risk"] += w
            cell["risk"] += w * probs[RISK]
        if ties:
            cell["can_tie"] += w
            cell["tie"] += w * sum(probs[c] for c in ties)
    total = sum(c["weight"] for c in cells.values())
    rows = [
        {
            "situation": where,
            "stock": stock,
            "hand": hand,
            "share": cell["weight"] / total,
            "can_risk": cell["can_risk"] / cell["weight"],
            "risk": cell["risk"] / cell["can_risk"] if cell["can_risk"] else None,
            "can_tie": cell["can_tie"] / cell["weight"],
            "tie": cell["tie"] / cell["can_tie"] if cell["can_tie"] else None,
        }
        for (where, stock, hand), cell in sorted(cells.items(), key=lambda kv: _order(kv[0]))
    ]
    write_csv(out / "equilibrium.csv", list(rows[0]), rows)
    return rows


def _order(key: tuple) -> tuple:
    where, stock, hand = key
    return (["leading", "answering", "in a war"].index(where), -stock, len(hand), HANDS.index(hand))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("results/mini-cfr"))
    parser.add_argument("--agents", nargs="+", default=list(AGENTS))
    parser.add_argument("--samples", type=int, default=1, help="calls per set (random agents)")
    parser.add_argument(
        "--exploit-deals", type=int, default=0, help="also measure each agent by koira exploit"
    )
    parser.add_argument(
        "--equilibrium",
        action="store_true",
        help="only how the CFR+ average strategy risks and ties in phase one (equilibrium.csv)",
    )
    args = parser.parse_args(argv)
    if args.equilibrium:
        print("| situation | stock | hand | share | can risk | risks | can tie | ties |")
        print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
        for r in equilibrium_choices(args.out):
            risk, tie = ("-" if x is None else f"{x:.2f}" for x in (r["risk"], r["tie"]))
            print(
                f"| {r['situation']} | {r['stock']} | {r['hand']} | {r['share']:.3f} "
                f"| {r['can_risk']:.2f} | {risk} | {r['can_tie']:.2f} | {tie} |"
            )
        return
    rows = table(args.out, tuple(args.agents), args.samples, args.exploit_deals)
    print("| agent | BR as player_0 | BR as player_1 | exploitability | self-play value |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| {r['agent']} | {r['br0']:.4f} | {r['br1']:.4f} | {r['exploitability']:.4f} "
            f"| {r['value']:.4f} |"
        )
    if args.exploit_deals:
        print("\n| agent | exact gain (loss rate) | koira exploit [95% CI] | recovered |")
        print("| --- | ---: | ---: | ---: |")
        for r in rows:
            if "search_gain" in r:
                print(
                    f"| {r['agent']} | {r['exact_gain']:.3f} | {r['search_gain']:.3f} "
                    f"[{r['search_low']:.3f}, {r['search_high']:.3f}] | {r['recovered']:.0%} |"
                )


if __name__ == "__main__":
    main()
