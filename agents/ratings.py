"""Statistics for tournaments: confidence intervals, head-to-head counts, Plackett-Luce ratings.

Games come in clusters: every deal is played in every seat rotation, so the games of one deal
are correlated. Intervals therefore treat the deal as the unit of sampling (cluster-robust
variance), not the single game.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval and the sample it came from."""

    value: float
    low: float
    high: float
    n: int  # observations (seat appearances)
    clusters: int  # deals


def t_quantile(p: float, df: int) -> float:
    """Student-t quantile (exact for df 1 and 2, Cornish-Fisher expansion above: error < 0.004)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def _cluster_sums(clusters: Iterable[Sequence[float]]) -> tuple[list[float], list[int]]:
    sums, counts = [], []
    for values in clusters:
        if values:
            sums.append(float(sum(values)))
            counts.append(len(values))
    return sums, counts


def _cluster_variance(sums: list[float], counts: list[int], mean: float) -> float:
    """Cluster-robust variance of the ratio mean sum(values) / count (CR1 small-sample factor)."""
    g, total = len(sums), sum(counts)
    resid = sum((s - mean * c) ** 2 for s, c in zip(sums, counts, strict=True))
    return g / (g - 1) * resid / total**2


def cluster_mean(clusters: Iterable[Sequence[float]], bounds: tuple[float, float]) -> Estimate:
    """Mean over all values with a t interval over clusters (df = clusters - 1), clipped to bounds.

    With a single cluster nothing is known about the spread, so the interval is ``bounds``.
    """
    sums, counts = _cluster_sums(clusters)
    if not sums:
        return Estimate(math.nan, math.nan, math.nan, 0, 0)
    total = sum(counts)
    mean = sum(sums) / total
    if len(sums) == 1:
        return Estimate(mean, bounds[0], bounds[1], total, 1)
    half = t_quantile(0.975, len(sums) - 1) * math.sqrt(_cluster_variance(sums, counts, mean))
    return Estimate(
        mean, max(bounds[0], mean - half), min(bounds[1], mean + half), total, len(sums)
    )


def wilson(p: float, n_eff: float) -> tuple[float, float]:
    """Wilson score 95% interval for a proportion ``p`` from ``n_eff`` independent trials."""
    if n_eff <= 0:
        return 0.0, 1.0
    if math.isinf(n_eff):
        return p, p
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = Z95 / (1 + z2 / n_eff) * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff))
    return max(0.0, centre - half), min(1.0, centre + half)


def cluster_rate(clusters: Iterable[Sequence[int]]) -> Estimate:
    """A proportion of 0/1 outcomes with a Wilson interval on the design-effect sample size.

    The effective sample size is p(1-p) / (cluster-robust variance): fewer than the games when
    a deal's rotations agree, more when they cancel. With no spread to measure (one deal, or
    p of 0 or 1) it falls back to the number of deals.
    """
    sums, counts = _cluster_sums(clusters)
    if not sums:
        return Estimate(math.nan, math.nan, math.nan, 0, 0)
    total = sum(counts)
    p = sum(sums) / total
    g = len(sums)
    variance = _cluster_variance(sums, counts, p) if g > 1 else 0.0
    if g == 1 or p in (0.0, 1.0):
        n_eff = float(g)
    elif variance == 0.0:
        n_eff = math.inf
    else:
        n_eff = p * (1 - p) / variance
    low, high = wilson(p, n_eff)
    return Estimate(p, low, high, total, g)


def head_to_head(
    games: Iterable[tuple[Sequence[str], Sequence[int]]], names: Sequence[str]
) -> tuple[list[list[float]], list[list[int]]]:
    """From games as (agent per seat, place per seat): ``ahead[a][b]`` and ``met[a][b]``.

    Every pair of seats at a table counts once, so an agent sitting twice meets its rival twice;
    a tie (partners, equal scores) counts half to each; an agent is never compared with itself.
    """
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    ahead = [[0.0] * k for _ in range(k)]
    met = [[0] * k for _ in range(k)]
    for seats, places in games:
        ids = [index[name] for name in seats]
        for i, a in enumerate(ids):
            for j in range(i + 1, len(ids)):
                b = ids[j]
                if a == b:
                    continue
                met[a][b] += 1
                met[b][a] += 1
                if places[i] < places[j]:
                    ahead[a][b] += 1
                elif places[j] < places[i]:
                    ahead[b][a] += 1
                else:
                    ahead[a][b] += 0.5
                    ahead[b][a] += 0.5
    return ahead, met


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate, mu - 3 sigma, for ranking."""
        return self.mu - 3 * self.sigma


def plackett_luce(
    games: Iterable[tuple[Sequence[str], Sequence[int]]], names: Sequence[str]
) -> dict[str, Rating]:
    """openskill Plackett-Luce ratings from games as (agent per seat, place per seat), updated
    in the given game order; tied places are tied ranks.

    An agent sitting in several seats of one game gets one copy of its rating per seat; its new
    rating is the mean of the copies' updates.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = dict.fromkeys(names, (model.mu, model.sigma))
    for seats, places in games:
        teams = [[model.rating(mu=ratings[n][0], sigma=ratings[n][1])] for n in seats]
        updated = model.rate(teams, ranks=list(places))
        new: dict[str, list[tuple[float, float]]] = {}
        for name, (r,) in zip(seats, updated, strict=True):
            new.setdefault(name, []).append((r.mu, r.sigma))
        for name, values in new.items():
            ratings[name] = (
                sum(v[0] for v in values) / len(values),
                sum(v[1] for v in values) / len(values),
            )
    return {name: Rating(mu, sigma) for name, (mu, sigma) in ratings.items()}
