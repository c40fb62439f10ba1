"""Mini Koira solved exactly: its whole game tree as arrays, CFR+ on them, exact best responses.

The tree holds one deck order for each of the 180 distinct deals (the four orders of a deal
play the same tree: ``tests/games/koira/test_koira_mini_tree.py``), each dealt with chance
1/180, and every legal play from it. Nodes are stored level by level (a node's level is the
number of actions before it), so a parent always comes before its children and one numpy
pass per level walks the tree either way.

An information set is the acting seat and everything it has seen, in order: each action
and its whole view after it, from the deal on (perfect recall, as RULES.md "Mini Koira"
counts the sets; ``check_perfect_recall`` checks it when the tree is built). The nodes of
one set are all on one level, which lets a best response be chosen level by level from the
bottom. Values are player_0's returns (the game is zero-sum: player_1 gets minus that).

``python -m koira_env.games.koira.mini_solve --out results/mini-cfr`` runs CFR+ and writes
the NashConv curve (CSV and PNG) and the average strategy; it resumes from its checkpoint.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np

from koira_env.core.agent import Turn
from koira_env.core.files import pyplot, save_figure, write_arrays, write_csv

from .engine import RISK
from .game import KoiraGame, make_game

TREE_FILE = "tree.npz"
CHECKPOINT = "cfr.npz"


def deal_key(order: tuple[int, ...]) -> tuple:
    """What matters of a deck order: each hand as a set, the stock card, the trump card."""
    return (frozenset(order[0:4:2]), frozenset(order[1:4:2]), order[4], order[5])


def deal_orders(game: KoiraGame) -> list[tuple[int, ...]]:
    """One deck order per distinct deal (the first in ``permutations`` order): 180."""
    seen: dict[tuple, tuple[int, ...]] = {}
    for order in permutations(game.deck_cards):
        seen.setdefault(deal_key(order), order)
    return list(seen.values())


@dataclass
class Tree:
    """The game tree of mini Koira as flat arrays (see the module docstring).

    Per node: ``parent`` (-1 for a deal's root), ``slot`` (its index among the parent's legal
    actions), ``action`` (the action id leading to it, -1 at a root), ``player`` (the seat to
    act, -1 at a terminal node), ``infoset`` (-1 at a terminal node), ``ret`` (player_0's
    return at a terminal node), ``deal`` (index into ``orders``). ``levels[k]:levels[k+1]``
    are the nodes after k actions. Per information set: ``iset_player``, ``iset_start``
    (its first entry in the flat per-action arrays; ``iset_start[-1]`` is their length),
    ``iset_node`` (one node of it). ``ia`` gives each non-root node's entry in the per-action
    arrays: its parent's set's start plus its slot (-1 at a root).
    """

    parent: np.ndarray
    slot: np.ndarray
    action: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    ret: np.ndarray
    deal: np.ndarray
    levels: np.ndarray
    iset_player: np.ndarray
    iset_start: np.ndarray
    iset_node: np.ndarray
    orders: np.ndarray

    def __post_init__(self) -> None:
        self.ia = np.full(len(self.parent), -1, dtype=np.int64)
        child = self.parent >= 0
        self.ia[child] = self.iset_start[self.infoset[self.parent[child]]] + self.slot[child]
        self.n_actions = np.diff(self.iset_start)
        self.ia_iset = np.repeat(np.arange(self.n_isets), self.n_actions)
        self.roots = np.flatnonzero(self.parent < 0)
        # edges (non-root nodes) per level, with their parents' players
        self.level_edges = [
            np.arange(self.levels[k], self.levels[k + 1]) for k in range(1, len(self.levels) - 1)
        ]
        self.level_dec = [
            k + np.flatnonzero(self.player[k:k_end] >= 0)
            for k, k_end in zip(self.levels[:-2], self.levels[1:-1], strict=True)
        ]
        self.edge_player = np.full(len(self.parent), -1, dtype=np.int8)
        self.edge_player[child] = self.player[self.parent[child]]
        self.seat_edges = [np.flatnonzero(self.edge_player == seat) for seat in (0, 1)]

    @property
    def n_nodes(self) -> int:
        return len(self.parent)

    @property
    def n_isets(self) -> int:
        return len(self.iset_player)

    @property
    def n_ia(self) -> int:
        return int(self.iset_start[-1])

    ARRAYS = (
        "parent",
        "slot",
        "action",
        "player",
        "infoset",
        "ret",
        "deal",
        "levels",
        "iset_player",
        "iset_start",
        "iset_node",
        "orders",
    )

    def save(self, path: Path) -> None:
        write_arrays(path, {name: getattr(self, name) for name in self.ARRAYS})

    @classmethod
    def load(cls, path: Path) -> Tree:
        with np.load(path) as data:
            return cls(**{name: data[name] for name in cls.ARRAYS})

    def history(self, node: int) -> list[int]:
        """The actions from the deal's root to ``node``."""
        actions = []
        while self.parent[node] >= 0:
            actions.append(int(self.action[node]))
            node = int(self.parent[node])
        return actions[::-1]

    def state(self, game: KoiraGame, node: int) -> Any:
        """The engine state at ``node``, replayed from its deal."""
        state = game.new_state(deck=[int(c) for c in self.orders[self.deal[node]]])
        for action in self.history(node):
            state.apply(action)
        return state

    def legal(self, game: KoiraGame, iset: int) -> list[int]:
        return list(self.state(game, int(self.iset_node[iset])).legal_actions())


def build_tree(game: KoiraGame | None = None, orders: list[tuple[int, ...]] | None = None) -> Tree:
    """Enumerate every legal play from each deck order in ``orders`` (default: the 180 deals)."""
    game = game or make_game(2, "mini")
    orders = orders if orders is not None else deal_orders(game)
    isets: dict[tuple, int] = {}
    iset_player: list[int] = []
    iset_nact: list[int] = []
    iset_legal: list[tuple] = []
    iset_node: list[int] = []
    cols: dict[str, list] = {
        k: [] for k in ["parent", "slot", "action", "player", "infoset", "ret", "deal"]
    }
    levels = [0]
    seen: dict[tuple, int] = {}  # (what a seat had seen, the action, its view now) -> id
    frontier = [
        (game.new_state(deck=list(o)), -1, -1, -1, d, (-1, -1)) for d, o in enumerate(orders)
    ]
    while frontier:
        nxt = []
        for state, parent, slot, action, deal, before in frontier:
            node = len(cols["parent"])
            now = tuple(
                seen.setdefault((before[s], action, _digest(state.view(s))), len(seen))
                for s in (0, 1)
            )
            cols["parent"].append(parent)
            cols["slot"].append(slot)
            cols["action"].append(action)
            cols["deal"].append(deal)
            if state.is_terminal:
                returns = state.returns()
                assert returns[0] == -returns[1]
                cols["player"].append(-1)
                cols["infoset"].append(-1)
                cols["ret"].append(returns[0])
                continue
            seat = state.current
            legal = state.legal_actions()
            key = (seat, now[seat])
            iset = isets.get(key)
            if iset is None:
                iset = isets[key] = len(iset_player)
                iset_player.append(seat)
                iset_nact.append(len(legal))
                iset_legal.append(tuple(legal))
                iset_node.append(node)
            elif iset_legal[iset] != tuple(legal):  # one set, one seat, one list of actions
                raise AssertionError(f"set {iset} has two lists of legal actions")
            cols["player"].append(seat)
            cols["infoset"].append(iset)
            cols["ret"].append(0.0)
            for i, a in enumerate(legal):
                child = state.clone()
                child.apply(a)
                nxt.append((child, node, i, a, deal, now))
        levels.append(len(cols["parent"]))
        frontier = nxt
    ints = {"parent": np.int32, "slot": np.int8, "action": np.int8, "player": np.int8}
    arrays = {k: np.asarray(v, dtype=ints.get(k, np.int32)) for k, v in cols.items()}
    arrays["ret"] = np.asarray(cols["ret"], dtype=np.float64)
    return Tree(
        **arrays,
        levels=np.asarray(levels, dtype=np.int64),
        iset_player=np.asarray(iset_player, dtype=np.int8),
        iset_start=np.concatenate([[0], np.cumsum(iset_nact)]).astype(np.int64),
        iset_node=np.asarray(iset_node, dtype=np.int64),
        orders=np.asarray(orders, dtype=np.int16),
    )


def _digest(view: Any) -> bytes:
    """A 16-byte digest of everything in a seat's view."""
    return hashlib.blake2b(repr(view).encode(), digest_size=16).digest()


def check_perfect_recall(tree: Tree) -> None:
    """Each set's nodes share the seat's previous set and action (or have none), and the
    same level: what perfect recall requires of the keys."""
    n = tree.n_nodes
    prev = np.full(n, -1, dtype=np.int64)  # per node, per seat: last own (set, slot) before it
    prev_by_seat = [np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)]
    for edges in tree.level_edges:
        p = tree.parent[edges]
        for seat in (0, 1):
            own = tree.player[p] == seat
            prev_by_seat[seat][edges] = np.where(own, tree.ia[edges], prev_by_seat[seat][p])
    decision = np.flatnonzero(tree.infoset >= 0)
    seat = tree.player[decision]
    prev[decision] = np.where(seat == 0, prev_by_seat[0][decision], prev_by_seat[1][decision])
    iset = tree.infoset[decision]
    first = tree.iset_node[iset]
    if not np.array_equal(prev[decision], prev[first]):
        raise AssertionError("a set's nodes remember differently: no perfect recall")
    level = np.searchsorted(tree.levels, np.arange(n), side="right") - 1
    if not np.array_equal(level[decision], level[first]):
        raise AssertionError("a set spans two levels")


def get_tree(out: Path | None = None, game: KoiraGame | None = None) -> Tree:
    """The 180-deal tree, cached as ``out/tree.npz`` when ``out`` is given."""
    if out is not None and (out / TREE_FILE).exists():
        return Tree.load(out / TREE_FILE)
    tree = build_tree(game)
    check_perfect_recall(tree)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        tree.save(out / TREE_FILE)
    return tree


# --- strategies on the tree ----------------------------------------------------------------


def uniform(tree: Tree) -> np.ndarray:
    """The uniform strategy: a probability per (information set, action) entry."""
    return 1.0 / tree.n_actions[tree.ia_iset]


def normalize(tree: Tree, weights: np.ndarray) -> np.ndarray:
    """Per set, ``weights`` divided by their sum; uniform where the sum is zero."""
    total = np.add.reduceat(weights, tree.iset_start[:-1])[tree.ia_iset]
    out = uniform(tree)
    pos = total > 0
    out[pos] = weights[pos] / total[pos]
    return out


def reach(tree: Tree, sigma: np.ndarray, seats: tuple[int, ...]) -> np.ndarray:
    """Per node: chance (1/deals) times the probability that the ``seats`` play to it."""
    out = np.empty(tree.n_nodes)
    out[tree.roots] = 1.0 / len(tree.roots)
    for edges in tree.level_edges:
        p = tree.parent[edges]
        w = np.where(np.isin(tree.edge_player[edges], seats), sigma[tree.ia[edges]], 1.0)
        out[edges] = out[p] * w
    return out


def values(tree: Tree, sigma: np.ndarray) -> np.ndarray:
    """Per node: player_0's expected return from it when both seats play ``sigma``."""
    v = tree.ret.copy()
    for edges, dec in zip(reversed(tree.level_edges), reversed(tree.level_dec), strict=True):
        _back_up(tree, v, edges, dec, sigma[tree.ia[edges]])
    return v


def _back_up(tree: Tree, v: np.ndarray, edges: np.ndarray, dec: np.ndarray, w: np.ndarray) -> None:
    """``v`` at the decision nodes ``dec`` (one level) from their children ``edges``."""
    lo = int(dec[0])
    v[dec] = np.bincount(
        tree.parent[edges] - lo, weights=w * v[edges], minlength=int(dec[-1]) - lo + 1
    )[dec - lo]


def game_value(tree: Tree, sigma: np.ndarray) -> float:
    """player_0's expected return over the deals when both seats play ``sigma``."""
    return float(values(tree, sigma)[tree.roots].mean())


def best_response(tree: Tree, sigma: np.ndarray, seat: int) -> tuple[float, np.ndarray]:
    """The value (for ``seat``) of its best response to the other seat playing ``sigma``, and
    that response as a 0/1 strategy on ``seat``'s sets (``sigma`` elsewhere).

    Bottom-up, level by level: at each of ``seat``'s sets, the action whose counterfactual
    value (the other seat's and chance's reach times the value, summed over the set's nodes)
    is highest, the first of equals."""
    sign = 1.0 if seat == 0 else -1.0
    opp = reach(tree, sigma, (1 - seat,))
    v = sign * tree.ret
    br = sigma.copy()
    for edges, dec in zip(reversed(tree.level_edges), reversed(tree.level_dec), strict=True):
        p = tree.parent[edges]
        ia = tree.ia[edges]
        mine = tree.edge_player[edges] == seat
        if mine.any():
            q = np.zeros(tree.n_ia)
            np.add.at(q, ia[mine], opp[p[mine]] * v[edges[mine]])
            isets = np.unique(tree.infoset[p[mine]])
            starts = tree.iset_start[isets]
            ends = tree.iset_start[isets + 1]
            best = _first_argmax(q, starts, ends)
            br[_ranges(starts, ends - starts)] = 0.0
            br[best] = 1.0
        _back_up(tree, v, edges, dec, br[ia])
    return float(v[tree.roots].mean()), br


def _first_argmax(q: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Per segment ``starts[i]:ends[i]`` of ``q``: the index of its first maximum."""
    lengths = ends - starts
    idx = _ranges(starts, lengths)
    seg_max = np.maximum.reduceat(q[idx], _offsets(lengths))
    seg = np.repeat(np.arange(len(starts)), lengths)
    hit = q[idx] >= seg_max[seg] - 1e-12
    big = np.iinfo(np.int64).max
    return np.minimum.reduceat(np.where(hit, idx, big), _offsets(lengths))


def _offsets(lengths: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of ``arange(s, s + n)`` for each start and length."""
    return np.arange(int(lengths.sum())) + np.repeat(starts - _offsets(lengths), lengths)


def nash_conv(tree: Tree, sigma: np.ndarray) -> tuple[float, float, float]:
    """(NashConv, player_0's best-response value, player_1's): the sum of what each seat gains
    by switching to its best response, which in this zero-sum game is the sum of the two
    best-response values."""
    b0, _ = best_response(tree, sigma, 0)
    b1, _ = best_response(tree, sigma, 1)
    return b0 + b1, b0, b1


# --- CFR+ ------------------------------------------------------------------------------------


class CFRPlus:
    """CFR+ on a ``Tree``: regret matching+ (regrets floored at zero), alternating updates
    (player_0 then player_1 in each iteration, player_1 seeing player_0's new strategy) and
    the average strategy weighted by the iteration number (linear averaging)."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.regret = np.zeros(tree.n_ia)
        self.avg = np.zeros(tree.n_ia)  # reach-weighted sums of the current strategies
        self.iterations = 0

    def current(self) -> np.ndarray:
        return normalize(self.tree, self.regret)

    def average(self) -> np.ndarray:
        return normalize(self.tree, self.avg)

    def iterate(self, n: int = 1) -> None:
        tree = self.tree
        for _ in range(n):
            self.iterations += 1
            t = self.iterations
            for seat in (0, 1):
                sigma = self.current()
                own = reach(tree, sigma, (seat,))  # includes chance: a common factor
                opp = reach(tree, sigma, (1 - seat,))
                v = values(tree, sigma)
                if seat == 1:
                    v = -v
                edges = tree.seat_edges[seat]
                p = tree.parent[edges]
                ia = tree.ia[edges]
                gain = opp[p] * (v[edges] - v[p])
                self.regret += np.bincount(ia, weights=gain, minlength=tree.n_ia)
                np.maximum(self.regret, 0.0, out=self.regret)
                self.avg += t * np.bincount(ia, weights=own[p] * sigma[ia], minlength=tree.n_ia)

    def save(self, path: Path, curve: list[tuple]) -> None:
        arrays = {"regret": self.regret, "avg": self.avg, "iterations": self.iterations}
        write_arrays(path, {**arrays, "curve": np.asarray(curve, np.float64).reshape(-1, 4)})

    def load(self, path: Path) -> list[tuple]:
        with np.load(path) as data:
            self.regret = data["regret"]
            self.avg = data["avg"]
            self.iterations = int(data["iterations"])
            return [tuple(row) for row in data["curve"]]


# --- fixed agents ----------------------------------------------------------------------------


def agent_strategy(
    tree: Tree, game: KoiraGame, agent: Any, samples: int = 1, seed: int = 0
) -> np.ndarray:
    """An agent's strategy on the tree: at each set with a choice, the share of ``samples``
    calls of ``agent.act`` (on one node of the set, with its seat's view) that chose each
    action; a set with one legal action plays it. An agent named ``random`` is uniform."""
    if getattr(agent, "name", "") == "random":
        return uniform(tree)
    sigma = np.ones(tree.n_ia)
    rng = random.Random(seed)
    for iset in np.flatnonzero(tree.n_actions > 1):
        state = tree.state(game, int(tree.iset_node[iset]))
        seat = int(tree.iset_player[iset])
        legal = list(state.legal_actions())
        counts = np.zeros(len(legal))
        for _ in range(samples):
            counts[legal.index(agent.act(Turn(state.view(seat), game, rng, state)))] += 1
        start = tree.iset_start[iset]
        sigma[start : start + len(legal)] = counts / samples
    return sigma


def exploitability(tree: Tree, sigma: np.ndarray) -> dict[str, float]:
    """How much a best response wins against ``sigma`` played from both seats: ``br0`` (the
    best response sits in player_0's seat, ``sigma`` in player_1's), ``br1``, and
    ``exploitability``, their mean: the average over the two seats of what ``sigma`` loses
    against a best response beyond the game value (the value cancels out), NashConv / 2."""
    total, b0, b1 = nash_conv(tree, sigma)
    return {"br0": b0, "br1": b1, "exploitability": total / 2, "value": game_value(tree, sigma)}


# --- the command -----------------------------------------------------------------------------


def solve(
    out: Path, iterations: int, every: int, seconds: float = float("inf"), log: bool = True
) -> tuple[CFRPlus, list[tuple]]:
    """Run CFR+ to ``iterations`` (or ``seconds`` more), measuring NashConv of the average
    strategy at ``next_measure``'s counts; resume from ``out/cfr.npz`` and save it atomically
    at each measurement, with the curve so far (iterations, seconds, NashConv, value)."""
    out.mkdir(parents=True, exist_ok=True)
    tree = get_tree(out)
    cfr = CFRPlus(tree)
    curve: list[tuple] = []
    if (out / CHECKPOINT).exists():
        curve = cfr.load(out / CHECKPOINT)
    spent = curve[-1][1] if curve else 0.0
    start = time.perf_counter()
    while cfr.iterations < iterations and time.perf_counter() - start < seconds:
        tick = time.perf_counter()
        cfr.iterate(min(next_measure(cfr.iterations, every), iterations) - cfr.iterations)
        spent += time.perf_counter() - tick  # CFR+ time only, the measurements excluded
        avg = cfr.average()
        conv = nash_conv(tree, avg)[0]
        curve.append((cfr.iterations, spent, conv, game_value(tree, avg)))
        cfr.save(out / CHECKPOINT, curve)
        if log:
            print(f"{cfr.iterations:6d} it {spent:8.1f} s  NashConv {conv:.6f}", flush=True)
    write_curve(out, curve)
    np.save(out / "average.npy", cfr.average())
    return cfr, curve


def next_measure(done: int, every: int) -> int:
    """The next iteration count to measure at after ``done``: 1, 2, 5, 10, 20, 50, ... below
    ``every``, then every multiple of ``every``."""
    early = [m * 10**e for e in range(7) for m in (1, 2, 5) if m * 10**e < every]
    return next((n for n in early if n > done), (done // every + 1) * every)


def write_curve(out: Path, curve: list[tuple]) -> None:
    """``curve.csv`` and ``curve.png``: NashConv of the average strategy against iterations."""
    rows = [
        {"iterations": int(i), "seconds": round(s, 2), "nashconv": c, "value": v}
        for i, s, c, v in curve
    ]
    write_csv(out / "curve.csv", ["iterations", "seconds", "nashconv", "value"], rows)
    fig, ax = pyplot().subplots(figsize=(6, 4))
    ax.loglog([r[0] for r in curve], [r[2] for r in curve], marker=".")
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("NashConv of the average strategy")
    ax.set_title("Mini Koira, CFR+ (180 deals, exact)")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, out / "curve.png", dpi=120)


def first_decisions(tree: Tree, game: KoiraGame, sigma: np.ndarray, seat: int) -> list[dict]:
    """``seat``'s strategy at its first decision of the game, one row per hand it holds:
    the chance of risking it and of playing each card, averaged over the first decisions
    (sets) with that hand, weighted by how often they are reached under ``sigma``."""
    reached = reach(tree, sigma, (0, 1))
    rows: dict[tuple, dict] = {}
    level = 0 if seat == 0 else 1
    nodes = np.arange(tree.levels[level], tree.levels[level + 1])
    nodes = nodes[tree.player[nodes] == seat]
    weights = np.bincount(tree.infoset[nodes], weights=reached[nodes], minlength=tree.n_isets)
    for iset in np.unique(tree.infoset[nodes]):
        state = tree.state(game, int(tree.iset_node[iset]))
        hand = tuple(sorted(state.view(seat).hand))
        row = rows.setdefault(hand, {"hand": hand, "weight": 0.0, "risk": 0.0, "low": 0.0})
        start = tree.iset_start[iset]
        legal = list(state.legal_actions())
        probs = dict(zip(legal, sigma[start : start + len(legal)], strict=True))
        w = weights[iset]
        row["weight"] += w
        row["risk"] += w * probs.get(RISK, 0.0)
        row["low"] += w * probs.get(min(hand, key=lambda c: c % 13), 0.0)
    for row in rows.values():
        row["risk"] /= row["weight"]
        row["low"] /= row["weight"]
    return sorted(rows.values(), key=lambda r: r["hand"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("results/mini-cfr"))
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--every", type=int, default=50, help="iterations between measurements")
    parser.add_argument("--seconds", type=float, default=float("inf"), help="stop after this")
    args = parser.parse_args(argv)
    solve(args.out, args.iterations, args.every, args.seconds)


if __name__ == "__main__":
    main()
