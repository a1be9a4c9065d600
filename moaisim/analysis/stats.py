"""Statistics the tables use (scipy): Wilson intervals, tests, the Holm correction, and the
sample size a table would need for a narrower interval."""

from __future__ import annotations

import numpy as np
from scipy import stats

#: The confidence level of every interval of the reports.
LEVEL = 0.95
Z = float(stats.norm.ppf(0.5 + LEVEL / 2))


def wilson(k: np.ndarray | float, n: np.ndarray | float, level: float = LEVEL
           ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The Wilson score interval (two-sided, 95 % unless `level` says: a simultaneous
    interval of m comparisons is level 1 - 0.05 / m) of a proportion k / n, for arrays of k
    and n. k may be fractional (wins shared by a tie count as a fraction of a win); n = 0
    gives (nan, nan)."""
    z = Z if level == LEVEL else float(stats.norm.ppf(0.5 + level / 2))
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    return centre - half, centre + half


def mean_interval(
    n: np.ndarray, total: np.ndarray, squares: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean, standard deviation and the t interval (95 %) of the mean, from the count, the
    sum and the sum of squares of the values (summed block by block)."""
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.asarray(total, dtype=float) / n
        var = (np.asarray(squares, dtype=float) - n * mean**2) / (n - 1)
        sd = np.sqrt(np.maximum(var, 0.0))
        half = stats.t.ppf(0.5 + LEVEL / 2, np.maximum(n - 1, 1)) * sd / np.sqrt(n)
    return mean, sd, mean - half, mean + half


def paired_test(
    n: np.ndarray, total: np.ndarray, squares: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mean of paired differences, its 95 % interval and the two-sided p-value of a paired
    t test (difference 0), from the count, sum and sum of squares of the differences."""
    mean, sd, lo, hi = mean_interval(n, total, squares)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = mean / (sd / np.sqrt(n))
        p = 2 * stats.t.sf(np.abs(t), np.maximum(n - 1, 1))
    p = np.where(sd == 0, np.where(mean == 0, 1.0, 0.0), p)
    return mean, lo, hi, p


def holm_steps(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Holm's step-down over a family of p-values (rows with a nan p are left out of it): the
    rows' positions in the order it tests them (ascending p, ties in row order), each rank's
    factor m - i (rank i of m, from 0, is tested at alpha / (m - i)) and the adjusted
    p-values in that order (the running maximum of factor x p, at most 1). Holm rejects
    exactly the ranks whose adjusted p is below alpha: it stops at the first it keeps."""
    p = np.asarray(p, dtype=float)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    factor = (len(order) - np.arange(len(order))).astype(float)
    adjusted = np.minimum(np.maximum.accumulate(factor * p[order]), 1.0)
    return order, factor, adjusted


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down correction of a family of p-values (the adjusted p-values; nan where
    p is nan)."""
    p = np.asarray(p, dtype=float)
    out = np.full_like(p, np.nan)
    order, _, adjusted = holm_steps(p)
    out[order] = adjusted
    return out


def equal_shares(observed: np.ndarray) -> float:
    """p-value of a chi-square test that the counts (wins by seat) are equal in expectation."""
    observed = np.asarray(observed, dtype=float)
    if observed.sum() <= 0 or len(observed) < 2:
        return float("nan")
    return float(stats.chisquare(observed).pvalue)


def sample_size_line(width: float, n: float, unit: str = "games") -> str:
    """How wide the table's widest interval is with n, and what halving it takes: the width
    of a 95 % interval shrinks as 1 / sqrt(n), so halving it takes four times the n."""
    if not np.isfinite(width) or n <= 0:
        return "sample size: no interval to report"
    return (
        f"sample size: widest 95 % interval {width:.3g} wide with {n:,.0f} {unit}; "
        f"halving it needs about {4 * n:,.0f} {unit}"
    )
