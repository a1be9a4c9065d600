"""Inference for balance claims, from the sufficient statistics the tables add block by block.

Paired differences, Holm-compatible intervals, equivalence tests (TOST), minimum detectable
effects, cluster-robust means (a game's seats are not independent), a heterogeneity test across
fields and the seat-balance RMS with bootstrap intervals. Pure numerics (numpy and scipy): every
function that resamples takes an explicit `np.random.Generator`, never the global random state.

Vectorised functions broadcast their array arguments and return numpy arrays (a numpy scalar,
which is a `float`, when every argument is a scalar).
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, stats

from moaisim.analysis.stats import holm_steps

__all__ = [
    "cluster_mean",
    "cluster_sums",
    "heterogeneity",
    "holm_intervals",
    "mde",
    "paired_from_sums",
    "seat_rms",
    "seat_rms_interval",
    "seat_rms_paired",
    "tost_paired",
]

#: A sum of squared deviations below this fraction of the sum of squares is rounding error of
#: the sums (all values equal), not spread: win-share differences never have sd/|mean| < 1e-6.
_REL_TOL = 1e-12
#: Bootstrap resamples are drawn in chunks of about this many row indices (bounded memory).
_CHUNK = 4_000_000


def _check_alpha(alpha: float) -> None:
    """Reject a level outside (0, 1): it is a probability of a type I error."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")


def paired_from_sums(
    n: np.ndarray | float, sum_d: np.ndarray | float, sum_d2: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean paired difference, its standard error (sd with ddof=1 over sqrt(n)) and df = n - 1,
    from the count, sum and sum of squares of the differences (so tables can add them block by
    block). se is exactly 0 when every difference is equal (up to rounding of the sums), so that
    callers can tell "identical by construction" apart; n < 2 gives a nan se."""
    n = np.asarray(n, dtype=float)
    sum_d = np.asarray(sum_d, dtype=float)
    sum_d2 = np.asarray(sum_d2, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sum_d / n
        ss = sum_d2 - sum_d * mean
        ss = np.where(ss <= _REL_TOL * np.abs(sum_d2), 0.0, ss)
        se = np.sqrt(ss / (n - 1) / n)
    se = np.where(n < 2, np.nan, se)
    return mean[()], se[()], (n - 1)[()]


def holm_intervals(
    delta: np.ndarray,
    se: np.ndarray,
    df: np.ndarray,
    p: np.ndarray,
    alpha: float = 0.05,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intervals delta ± t(1 - level/2, df) * se for one family of tests, whose per-row `level`
    makes them agree with Holm's step-down test (`stats.holm_steps`, the step-down `stats.holm`
    adjusts by): with p sorted ascending, rank i of m is tested at alpha / (m - i + 1) while
    every earlier rank was rejected; from the first rank k Holm keeps (its adjusted p at least
    alpha) on, every row gets alpha / (m - k + 1). So an interval excludes 0 exactly when Holm
    rejects (when p is the two-sided t test of the same delta, se, df).

    Rows with a nan p are left out of the family (nan level and interval); rows with se == 0
    (identical by construction) get [delta, delta]. Note: the rejected rows' intervals are
    compatible with the test but not simultaneous 1 - alpha intervals.
    """
    _check_alpha(alpha)
    delta, se, df, p = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (delta, se, df, p))
    )
    if delta.ndim != 1:
        raise ValueError("holm_intervals takes one family: 1-D arrays")
    level = np.full(delta.shape, np.nan)
    order, factor, adjusted = holm_steps(p)  # the one step-down (`stats.holm`)
    tested = alpha / factor  # rank i (0-based) of m tested at alpha / (m - i)
    kept = np.flatnonzero(adjusted >= alpha)  # Holm stops at the first rank it keeps
    if kept.size:
        tested[kept[0] :] = tested[kept[0]]
    level[order] = tested
    with np.errstate(invalid="ignore"):
        half = stats.t.ppf(1 - level / 2, df) * se
    lo, hi = delta - half, delta + half
    exact = se == 0
    lo = np.where(exact, delta, lo)
    hi = np.where(exact, delta, hi)
    return lo, hi, level


def tost_paired(
    n: np.ndarray | float,
    sum_d: np.ndarray | float,
    sum_d2: np.ndarray | float,
    margin: np.ndarray | float,
) -> np.ndarray:
    """p-value of the two one-sided t tests (TOST, df = n - 1) that the mean paired difference
    lies within (-margin, +margin): small p supports equivalence. From the count, sum and sum of
    squares of the differences. With se == 0 the mean is known: p = 0 if |mean| < margin, else
    1; n < 2 gives nan."""
    mean, se, df = paired_from_sums(n, sum_d, sum_d2)
    margin = np.asarray(margin, dtype=float)
    if np.any(margin <= 0):
        raise ValueError("margin must be > 0")
    with np.errstate(invalid="ignore", divide="ignore"):
        p_low = stats.t.sf((mean + margin) / se, df)  # H0: mean <= -margin
        p_upp = stats.t.cdf((mean - margin) / se, df)  # H0: mean >= +margin
        p = np.maximum(p_low, p_upp)
    p = np.where(se == 0, np.where(np.abs(mean) < margin, 0.0, 1.0), p)
    p = np.where(np.isnan(se), np.nan, p)
    return p[()]


def _power(nc: float, df: float, crit: float) -> float:
    """Exact power of the two-sided t test (critical value crit) at noncentrality nc >= 0.

    The far tail P(T < -crit) is at most alpha / 2 and vanishes fast as nc grows; scipy's
    noncentral t returns nan for it at some (df, nc) of few degrees of freedom (df = 1 at
    nc = 14.5), where its true value is below 1e-15: it is taken as 0 there."""
    near = float(stats.nct.sf(crit, df, nc))
    far = float(stats.nct.cdf(-crit, df, nc))
    return near + (far if np.isfinite(far) else 0.0)


def _mde_nc(df: float, alpha: float, power: float) -> float:
    """The noncentrality at which the two-sided t test with df degrees of freedom has `power`."""
    if not np.isfinite(df) or df <= 0:
        return float("nan")
    crit = float(stats.t.isf(alpha / 2, df))

    def gap(nc: float) -> float:
        return _power(nc, df, crit) - power

    hi = crit + float(stats.norm.ppf(power)) + 1.0
    while gap(hi) < 0:
        hi *= 2
    return float(optimize.brentq(gap, 0.0, hi, xtol=1e-14, rtol=1e-14, maxiter=500))


def mde(
    se: np.ndarray | float,
    df: np.ndarray | float,
    alpha: float = 0.05,
    power: float = 0.8,
) -> np.ndarray | float:
    """Minimum detectable effect of a two-sided one-sample (paired) t test: the |effect| at
    which the test at level alpha has exactly `power` (noncentral t, noncentrality effect / se),
    given the standard error se and df of the mean. What a study can see before it is run."""
    _check_alpha(alpha)
    if not alpha < power < 1:
        raise ValueError(f"power must be in (alpha, 1), got {power}")
    se, df = np.broadcast_arrays(np.asarray(se, dtype=float), np.asarray(df, dtype=float))
    nc = np.full(df.shape, np.nan)
    uniq, inverse = np.unique(df, return_inverse=True)
    solved = np.array([_mde_nc(float(d), alpha, power) for d in uniq])
    if solved.size:
        nc = solved[inverse.reshape(df.shape)]
    return (nc * se)[()]


def cluster_sums(y: np.ndarray, groups: np.ndarray) -> tuple[int, float, float, float, float, int]:
    """Sufficient statistics of `cluster_mean` from raw unit values y and their cluster labels:
    (N, sum y, sum_g S_g^2, sum_g S_g n_g, sum_g n_g^2, G) with S_g, n_g the sum and count of
    cluster g. They add across blocks as long as no cluster (game) spans two blocks."""
    y = np.asarray(y, dtype=float).ravel()
    groups = np.asarray(groups).ravel()
    if y.shape != groups.shape:
        raise ValueError("y and groups must have the same length")
    _, inverse = np.unique(groups, return_inverse=True)
    s = np.bincount(inverse, weights=y)
    c = np.bincount(inverse).astype(float)
    return (
        len(y),
        float(y.sum()),
        float(np.sum(s * s)),
        float(np.sum(s * c)),
        float(np.sum(c * c)),
        len(s),
    )


def cluster_mean(
    n: np.ndarray | float,
    sum_y: np.ndarray | float,
    sum_s2: np.ndarray | float,
    sum_sn: np.ndarray | float,
    sum_n2: np.ndarray | float,
    clusters: np.ndarray | float,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean of N unit values in G clusters (a game's seats) and its cluster-robust (CR1)
    standard error, because seats of one game are correlated (their win shares sum to 1):
    var = G / (G - 1) * sum_g (S_g - n_g * mean)^2 / N^2, from the sums of `cluster_sums`.
    G < 2 gives a nan se."""
    n, sum_y, sum_s2, sum_sn, sum_n2, g = (
        np.asarray(x, dtype=float) for x in (n, sum_y, sum_s2, sum_sn, sum_n2, clusters)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sum_y / n
        resid = sum_s2 - 2 * mean * sum_sn + mean**2 * sum_n2
        resid = np.where(resid <= _REL_TOL * np.abs(sum_s2), 0.0, resid)
        var = g / (g - 1) * resid / n**2
    se = np.where(g < 2, np.nan, np.sqrt(var))
    return mean[()], se[()]


def heterogeneity(delta: np.ndarray, se: np.ndarray) -> tuple[float, int, float, float]:
    """Cochran's Q test that the effects measured in several fields are equal (fixed-effect
    weights 1 / se^2): (Q, df = k - 1, chi-square p, I^2 = max(0, (Q - df) / Q)), I^2 being the
    share of the spread beyond sampling error. Rows with a nan delta or se are left out; fewer
    than two rows give nan. se must be > 0 (a known effect has no sampling error to weigh)."""
    delta = np.asarray(delta, dtype=float).ravel()
    se = np.asarray(se, dtype=float).ravel()
    ok = ~(np.isnan(delta) | np.isnan(se))
    delta, se = delta[ok], se[ok]
    if np.any(se <= 0):
        raise ValueError("heterogeneity needs se > 0 for every field")
    k = len(delta)
    if k < 2:
        return float("nan"), max(k - 1, 0), float("nan"), float("nan")
    w = 1 / se**2
    pooled = np.sum(w * delta) / np.sum(w)
    q = float(np.sum(w * (delta - pooled) ** 2))
    df = k - 1
    p = float(stats.chi2.sf(q, df))
    i2 = max(0.0, (q - df) / q) if q > 0 else 0.0
    return q, df, p, i2


def _check_shares(shares: np.ndarray) -> np.ndarray:
    """Shares as a float [G, P] array (G games, P seats) with at least one game."""
    shares = np.asarray(shares, dtype=float)
    if shares.ndim != 2 or shares.shape[0] < 1:
        raise ValueError("shares must be a [games, seats] array with at least one game")
    return shares


def _rms_of_means(means: np.ndarray, fair: np.ndarray | float) -> np.ndarray:
    """RMS over seats (last axis) of the seats' mean shares from the fair share."""
    return np.sqrt(np.mean((means - fair) ** 2, axis=-1))


def seat_rms(shares: np.ndarray, fair: np.ndarray | float) -> float:
    """Seat imbalance: sqrt(mean over seats of (mean over games of the seat's win share - fair)^2)
    for a [G, P] array of win shares (rows sum to 1, ties split); 0 for perfectly fair seats."""
    shares = _check_shares(shares)
    return float(_rms_of_means(shares.mean(axis=0), fair))


def _boot_means(
    arrays: tuple[np.ndarray, ...], rng: np.random.Generator, n_boot: int
) -> list[np.ndarray]:
    """Column means of each [G, P] array over n_boot resamples of the same G rows (games)."""
    if n_boot < 1:
        raise ValueError("n_boot must be >= 1")
    g, p = arrays[0].shape
    out = [np.empty((n_boot, p)) for _ in arrays]
    chunk = max(1, _CHUNK // g)
    for start in range(0, n_boot, chunk):
        b = min(chunk, n_boot - start)
        idx = rng.integers(0, g, size=(b, g))
        counts = np.bincount((idx + g * np.arange(b)[:, None]).ravel(), minlength=b * g)
        counts = counts.reshape(b, g).astype(float) / g
        for o, a in zip(out, arrays, strict=True):
            o[start : start + b] = counts @ a
    return out


def _rms_bootstrap(
    arrays: tuple[np.ndarray, ...],
    fair: np.ndarray | float,
    rng: np.random.Generator,
    n_boot: int,
    alpha: float,
) -> tuple[float, float, float]:
    """The RMS of one [G, P] share array, or of the second of two minus that of the first,
    with its percentile bootstrap interval (1 - alpha): the same rows (games) of every array
    resampled together."""
    _check_alpha(alpha)
    arrays = tuple(_check_shares(a) for a in arrays)
    if any(a.shape != arrays[0].shape for a in arrays):
        shapes = " vs ".join(str(a.shape) for a in arrays)
        raise ValueError(f"paired share arrays differ in shape: {shapes}")
    rms = [_rms_of_means(m, fair) for m in _boot_means(arrays, rng, n_boot)]
    point = [seat_rms(a, fair) for a in arrays]
    if len(arrays) == 2:
        rms, point = [rms[1] - rms[0]], [point[1] - point[0]]
    lo, hi = np.quantile(rms[0], [alpha / 2, 1 - alpha / 2])
    return point[0], float(lo), float(hi)


def seat_rms_interval(
    shares: np.ndarray,
    fair: np.ndarray | float,
    rng: np.random.Generator,
    n_boot: int = 2000,
    alpha: float = 0.05,
) -> tuple[float, float, float]:
    """`seat_rms` with its percentile bootstrap interval (1 - alpha), resampling games (rows),
    which keeps each game's seats together. The RMS is biased upward by sampling noise, so the
    interval of a fair game does not reach 0: compare with a reference, not with 0."""
    return _rms_bootstrap((shares,), fair, rng, n_boot, alpha)


def seat_rms_paired(
    a: np.ndarray,
    b: np.ndarray,
    fair: np.ndarray | float,
    rng: np.random.Generator,
    n_boot: int = 2000,
    alpha: float = 0.05,
) -> tuple[float, float, float]:
    """RMS(b) - RMS(a) for two [G, P] share arrays of the SAME games (e.g. a rules change
    replayed on the same seeds), with a paired percentile bootstrap interval: the same rows of
    both are resampled, so the games' common noise cancels."""
    return _rms_bootstrap((a, b), fair, rng, n_boot, alpha)
