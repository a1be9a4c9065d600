"""Meta-game solvers on payoff matrices: symmetric Nash equilibria, exploitability, replicator
dynamics, alpha-Rank, Nash averaging and bootstrap intervals of equilibrium mixtures.

Every function takes a square payoff matrix `payoff[i, j]` = the expected payoff of strategy i
against an opponent (or a population) playing j, as the balance tables estimate it. They are
pure numerics (numpy and scipy): no simulation, no global random state (the bootstrap takes an
explicit `np.random.Generator`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
import pandas as pd
from scipy import linalg, optimize
from scipy.special import logsumexp, softmax

__all__ = [
    "alpha_rank",
    "alpha_sweep",
    "bootstrap_mixtures",
    "mixture_interval",
    "nash_average",
    "nash_gain",
    "replicator",
    "symmetric_nash",
    "validate_payoff",
]

#: Time step of the replicator run inside `symmetric_nash` (payoffs scaled to [0, 1]).
_DT = 0.25
#: A replicator state within this L1 distance of a verified equilibrium has converged to it;
#: within the looser one, it has if the distance at least halved since the last check.
_CONVERGED = 1e-4
_APPROACHING = 1e-2
#: Relative thresholds that turn a replicator state into candidate supports.
_THRESHOLDS = (1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12)


def validate_payoff(payoff: np.ndarray) -> np.ndarray:
    """The payoff matrix as a float array; `ValueError` (one line) if it is empty, not square
    or holds NaN or infinite values, so callers fail early with a clear message."""
    m = np.asarray(payoff, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(f"payoff must be a square matrix, got shape {m.shape}")
    if m.size == 0:
        raise ValueError("payoff must not be empty (0 strategies)")
    if not np.isfinite(m).all():
        raise ValueError("payoff contains NaN or infinite values")
    return m


def _mixture(mixture: np.ndarray, k: int) -> np.ndarray:
    """A mixture over k strategies as a float array (checked: length, sign, sum)."""
    s = np.asarray(mixture, dtype=float)
    if s.shape != (k,):
        raise ValueError(f"mixture must have shape ({k},), got {s.shape}")
    if not np.isfinite(s).all() or (s < 0).any() or s.sum() <= 0:
        raise ValueError("mixture must be finite, non-negative and not all zero")
    return s / s.sum()


def nash_gain(payoff: np.ndarray, mixture: np.ndarray) -> float:
    """Exploitability of a symmetric mixture σ: max_i (payoff σ)_i − σ·payoff·σ, the most a
    pure strategy gains by deviating from a population playing σ (0 exactly at a Nash
    equilibrium, > 0 otherwise)."""
    m = validate_payoff(payoff)
    s = _mixture(mixture, m.shape[0])
    values = m @ s
    return float(values.max() - s @ values)


def replicator(
    payoff: np.ndarray,
    x0: np.ndarray | None = None,
    *,
    steps: int = 1000,
    dt: float = 0.01,
    trajectory: bool = False,
) -> np.ndarray:
    """Integrate the replicator dynamics dx_i/dt = x_i ((payoff x)_i − x·payoff·x) from x0
    (default: uniform) for `steps` steps of length `dt` (time in payoff units).

    RK4 in log coordinates (u = log x, du/dt = payoff softmax(u)): the state stays exactly on
    the simplex and strictly positive, and a strategy on its way out decays without underflow
    trouble. Returns the final state (k,) or, with `trajectory=True`, all states (steps+1, k).
    """
    m = validate_payoff(payoff)
    k = m.shape[0]
    x = np.full(k, 1.0 / k) if x0 is None else _mixture(x0, k)
    if steps < 0 or not dt > 0:
        raise ValueError("steps must be >= 0 and dt > 0")
    with np.errstate(divide="ignore"):
        u = np.log(x)
    path = np.empty((steps + 1, k)) if trajectory else None
    if path is not None:
        path[0] = x

    def field(v: np.ndarray) -> np.ndarray:
        e = np.exp(v - v.max())
        return m @ (e / e.sum())

    for step in range(1, steps + 1):
        k1 = field(u)
        k2 = field(u + 0.5 * dt * k1)
        k3 = field(u + 0.5 * dt * k2)
        k4 = field(u + dt * k3)
        u = u + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        u = u - u.max()
        if path is not None:
            path[step] = softmax(u)
    return path if path is not None else softmax(u)


def _support_solve(m: np.ndarray, support: tuple[int, ...]) -> np.ndarray | None:
    """The mixture on `support` that makes its strategies indifferent (m_SS y = v 1, Σy = 1),
    or None when the system has no non-negative solution (least squares, so degenerate
    supports such as duplicated strategies still give one)."""
    k, s = m.shape[0], len(support)
    idx = np.asarray(support)
    kkt = np.zeros((s + 1, s + 1))
    kkt[:s, :s] = m[np.ix_(idx, idx)]
    kkt[:s, s] = -1.0
    kkt[s, :s] = 1.0
    rhs = np.zeros(s + 1)
    rhs[s] = 1.0
    sol = np.linalg.lstsq(kkt, rhs, rcond=None)[0]
    scale = max(1.0, float(np.abs(m).max()))
    if np.abs(kkt @ sol - rhs).max() > 1e-9 * scale or sol[:s].min() < -1e-10:
        return None
    y = np.zeros(k)
    y[idx] = np.clip(sol[:s], 0.0, None)
    return y / y.sum() if y.sum() > 0 else None


def _candidate_supports(m: np.ndarray, x: np.ndarray) -> list[tuple[int, ...]]:
    """Supports suggested by a (near-)equilibrium state x: its strategies above a range of
    relative thresholds, and its best responses."""
    supports = {tuple(np.flatnonzero(x >= t * x.max()).tolist()) for t in _THRESHOLDS}
    values = m @ x
    spread = max(1e-12, float(np.ptp(m)))
    supports.add(tuple(np.flatnonzero(values >= values.max() - 1e-6 * spread).tolist()))
    return sorted(supports, key=len)


def _enumerate_supports(m: np.ndarray, bound: float) -> list[np.ndarray]:
    """Every symmetric equilibrium found by support enumeration (all 2^k − 1 supports, the
    indifference systems of one size solved together by pseudo-inverse)."""
    k = m.shape[0]
    scale = max(1.0, float(np.abs(m).max()))
    found: list[np.ndarray] = []
    for s in range(1, k + 1):
        sup = np.array(list(itertools.combinations(range(k), s)))
        n = len(sup)
        kkt = np.zeros((n, s + 1, s + 1))
        kkt[:, :s, :s] = m[sup[:, :, None], sup[:, None, :]]
        kkt[:, :s, s] = -1.0
        kkt[:, s, :s] = 1.0
        rhs = np.zeros(s + 1)
        rhs[s] = 1.0
        sol = np.linalg.pinv(kkt) @ rhs
        resid = np.abs(np.einsum("nij,nj->ni", kkt, sol) - rhs).max(axis=1)
        y = sol[:, :s]
        good = (resid <= 1e-9 * scale) & (y.min(axis=1) >= -1e-10)
        full = np.zeros((n, k))
        np.put_along_axis(full, sup, np.clip(y, 0.0, None), axis=1)
        total = full.sum(axis=1)
        good &= total > 0
        full[good] /= total[good, None]
        values = full @ m.T
        gains = values.max(axis=1) - np.einsum("ni,ni->n", full, values)
        found.extend(full[good & (gains <= bound)])
    return found


def _lemke_howson(m: np.ndarray, label: int = 0, max_pivots: int = 100_000) -> np.ndarray | None:
    """A symmetric equilibrium by the symmetric Lemke–Howson path (complementary pivoting on
    {x ≥ 0, A x ≤ 1} with A = payoff shifted positive, lexicographic ratio test so degenerate
    games terminate); always succeeds in exact arithmetic, the last resort here."""
    k = m.shape[0]
    a = m - m.min() + 1.0
    tab = np.hstack([a, np.eye(k), np.ones((k, 1))])
    basis = list(range(k, 2 * k))
    entering = label
    for _ in range(max_pivots):
        col = tab[:, entering]
        cand = np.flatnonzero(col > 1e-12)
        if cand.size == 0:
            return None
        for c in [2 * k, *range(k, 2 * k)]:  # rhs, then the initial basis inverse
            ratios = tab[cand, c] / col[cand]
            low = ratios.min()
            cand = cand[ratios <= low + 1e-12 * max(1.0, abs(low))]
            if cand.size == 1:
                break
        r = int(cand[0])
        tab[r] /= tab[r, entering]
        factors = tab[:, entering].copy()
        factors[r] = 0.0
        tab -= np.outer(factors, tab[r])
        leaving, basis[r] = basis[r], entering
        if leaving in (label, label + k):
            break
        entering = leaving + k if leaving < k else leaving - k
    else:
        return None
    x = np.zeros(k)
    for r, var in enumerate(basis):
        if var < k:
            x[var] = max(tab[r, -1], 0.0)
    return x / x.sum() if x.sum() > 0 else None


def _entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def symmetric_nash(payoff: np.ndarray, *, tol: float = 1e-9, max_iter: int = 4000) -> np.ndarray:
    """A symmetric Nash equilibrium σ of the symmetric two-player (population) game `payoff`:
    no pure strategy earns more than σ against σ (`nash_gain` ≤ tol, scaled by the payoffs'
    magnitude when it exceeds 1).

    Why this way: among several equilibria, the one a population reaches by selection is the
    meaningful one for balance. So: (1) replicator dynamics from the uniform mixture (payoffs
    scaled to [0, 1], up to `max_iter` RK4 steps of 0.25), checked at doubling intervals:
    once its state is within 1e-4 of the exact equilibrium on a support it suggests
    (indifference system solved, equilibrium verified), or within 1e-2 and closing in (the
    distance at least halved since the last check), that equilibrium is returned. (2) If the
    dynamics do not settle (cycles, as in rock–paper–scissors variants), verified equilibria
    on the supports of the final state, of the time average over the run's second half and of
    all strategies are collected; (3) if none, support enumeration over all supports (k ≤ 15
    is cheap); (4) if still none (degenerate games), the symmetric Lemke–Howson path. Among
    several, the one nearest the time average is returned (ties: the higher entropy).

    Constant-sum games (payoff + payoffᵀ constant, e.g. two-player win rates) skip all this:
    their replicator orbits cycle around the equilibria for ever, and their symmetric
    equilibria are the maximin mixtures, so the maximum-entropy one (`nash_average`, the
    centre the cycles average to when it is interior) is returned.
    """
    m = validate_payoff(payoff)
    k = m.shape[0]
    spread = float(m.max() - m.min())
    if k == 1 or spread == 0.0:
        return np.full(k, 1.0 / k)
    scaled = (m - m.min()) / spread
    bound = tol * max(1.0, float(np.abs(m).max()))
    total = m + m.T
    if np.ptp(total) <= 1e-12 * max(1.0, float(np.abs(m).max())):
        p = nash_average(m)[0]
        if nash_gain(m, p) <= bound:
            return p
    solved: dict[tuple[int, ...], np.ndarray | None] = {}

    def verified(support: tuple[int, ...]) -> np.ndarray | None:
        if support not in solved:
            y = _support_solve(m, support)
            solved[support] = y if y is not None and nash_gain(m, y) <= bound else None
        return solved[support]

    x = np.full(k, 1.0 / k)
    last: dict[tuple[int, ...], float] = {}  # distance to each verified candidate at last check
    pieces = [x[None, :]]
    done, chunk = 0, 50
    while done < max_iter:
        n = min(chunk, max_iter - done)
        path = replicator(scaled, x, steps=n, dt=_DT, trajectory=True)
        pieces.append(path[1:])
        x = path[-1]
        done, chunk = done + n, chunk * 2
        for support in _candidate_supports(m, x):
            y = verified(support)
            if y is None:
                continue
            dist = float(np.abs(y - x).sum())
            before = last.get(support)
            last[support] = dist
            closing = before is not None and dist <= min(_APPROACHING, 0.5 * before)
            if dist <= _CONVERGED or closing:
                return y
    run = np.concatenate(pieces)
    centre = run[len(run) // 2 :].mean(axis=0)
    supports = {*_candidate_supports(m, x), *_candidate_supports(m, centre), tuple(range(k))}
    found = [y for y in map(verified, supports) if y is not None]
    if not found:
        found = _enumerate_supports(m, bound)
    if not found:
        y = _lemke_howson(m)
        if y is not None:
            refined = verified(tuple(np.flatnonzero(y > 1e-12).tolist()))
            found = [refined if refined is not None else y]
    if not found:
        raise RuntimeError("symmetric_nash: no equilibrium found (numerical failure)")
    return min(found, key=lambda y: (round(float(np.abs(y - centre).sum()), 9), -_entropy(y)))


def _log_fixation(m: np.ndarray, alpha: float, population_size: int) -> np.ndarray:
    """log ρ[i, j]: log of the probability that one mutant i fixes in a population of
    population_size − 1 residents j (Fermi imitation, selection intensity alpha), for all
    pairs; computed in log space so any alpha is exact."""
    pop = population_size
    kk = np.arange(1, pop)  # number of mutants i
    mii, mij = np.diag(m)[:, None, None], m[:, :, None]
    mji, mjj = m.T[:, :, None], np.diag(m)[None, :, None]
    f_mutant = ((kk - 1) * mii + (pop - kk) * mij) / (pop - 1)
    f_resident = (kk * mji + (pop - kk - 1) * mjj) / (pop - 1)
    partial = np.cumsum(f_mutant - f_resident, axis=2)  # S_l, l = 1 .. pop-1
    exponents = np.concatenate([np.zeros(m.shape + (1,)), -alpha * partial], axis=2)
    return -logsumexp(exponents, axis=2)


def _log_stationary(log_rates: np.ndarray) -> np.ndarray:
    """Stationary distribution of an irreducible Markov chain from the logs of its off-diagonal
    transition probabilities, by the GTH state reduction done in log space (no subtraction,
    so transitions as small as exp(-1000) keep their exact effect)."""
    n = log_rates.shape[0]
    lp = log_rates.astype(float).copy()
    np.fill_diagonal(lp, -np.inf)
    log_out = np.zeros(n)
    for s in range(n - 1, 0, -1):
        log_out[s] = logsumexp(lp[s, :s])
        lp[:s, s] -= log_out[s]
        lp[:s, :s] = np.logaddexp(lp[:s, :s], lp[:s, s][:, None] + lp[s, :s][None, :])
    log_pi = np.zeros(n)
    for s in range(1, n):
        log_pi[s] = logsumexp(log_pi[:s] + lp[:s, s])
    return softmax(log_pi)


def alpha_rank(payoff: np.ndarray, alpha: float, population_size: int = 50) -> np.ndarray:
    """Single-population alpha-Rank (Omidshafiei et al. 2019): the stationary distribution over
    pure strategies of the Markov chain of monomorphic populations, in the small-mutation
    limit of a Moran process with Fermi selection of intensity alpha.

    A mutant i (k copies among population_size, the rest residents j) has fitness
    ((k−1) M[i,i] + (m−k) M[i,j]) / (m−1) and the residents (k M[j,i] + (m−k−1) M[j,j]) / (m−1);
    the fixation probability is ρ = 1 / Σ_{l=0}^{m−1} exp(−alpha Σ_{k≤l} (f_i(k) − f_j(k)))
    (1/m when neutral), and with n strategies the chain moves j → i with probability
    ρ / (n−1). As alpha grows
    the mass goes to the chain's sink strongly connected components. Computed in log space:
    any alpha ≥ 0 works.
    """
    m = validate_payoff(payoff)
    if not np.isfinite(alpha) or alpha < 0:
        raise ValueError(f"alpha must be finite and >= 0, got {alpha}")
    if population_size < 2:
        raise ValueError(f"population_size must be >= 2, got {population_size}")
    k = m.shape[0]
    if k == 1:
        return np.ones(1)
    log_rho = _log_fixation(m, float(alpha), int(population_size))  # [invader, resident]
    return _log_stationary(log_rho.T - np.log(k - 1))  # [from resident, to invader]


def _names(k: int, names: Sequence[str] | None) -> list[str] | list[int]:
    if names is None:
        return list(range(k))
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries for {k} strategies")
    return list(names)


def alpha_sweep(
    payoff: np.ndarray,
    alphas: Sequence[float] | np.ndarray,
    *,
    population_size: int = 50,
    names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """alpha-Rank's distribution for each alpha: rows alpha (the index), columns the strategies
    (their names if given, else indices), to see where the ranking settles as selection
    strengthens (the paper's sweep)."""
    m = validate_payoff(payoff)
    rows = [alpha_rank(m, float(a), population_size) for a in alphas]
    index = pd.Index([float(a) for a in alphas], name="alpha")
    return pd.DataFrame(
        np.array(rows).reshape(len(rows), m.shape[0]),
        index=index,
        columns=_names(m.shape[0], names),
    )


def _evaluation(payoff: np.ndarray, kind: Literal["difference", "logit"]) -> np.ndarray:
    m = validate_payoff(payoff)
    if kind == "difference":
        return m - m.T
    if kind == "logit":
        if (m <= 0).any() or (m >= 1).any():
            raise ValueError("kind='logit' needs win rates strictly between 0 and 1")
        logit = np.log(m) - np.log1p(-m)
        return (logit - logit.T) / 2.0
    raise ValueError(f"kind must be 'difference' or 'logit', got {kind!r}")


def nash_average(
    payoff: np.ndarray, *, kind: Literal["difference", "logit"] = "difference"
) -> tuple[np.ndarray, np.ndarray]:
    """Nash averaging (Balduzzi et al. 2018): the maximum-entropy Nash equilibrium p of the
    antisymmetric zero-sum game A, and the Nash-averaged skill A @ p of every strategy
    (≤ 0; 0 on p's support).

    A = payoff − payoffᵀ (`kind="difference"`; for win rates with P + Pᵀ = 1 this is 2P − 1),
    or, for win rates, A = (logit P − logit Pᵀ) / 2 (`kind="logit"`, the log-odds). Why maximum
    entropy: it is unique and invariant to redundant copies of a strategy (a copy shares the
    original's mass, nobody's skill changes), so adding clones cannot game the evaluation.
    That invariance needs the equilibrium to be unique up to copies (true of generic games);
    where the equilibria form a larger face, a copy of one of its strategies shifts mass to
    it.

    Method: the value of a symmetric zero-sum game is 0, so the equilibria are
    {p ≥ 0, Σp = 1, A p ≤ 0}; one linear program finds the largest support S of an
    equilibrium, on which every equilibrium has (A p)_S = 0; the entropy is then maximised
    over that affine set (SLSQP in its null-space coordinates, the other rows' A p ≤ 0 kept
    as constraints).
    """
    a = _evaluation(payoff, kind)
    k = a.shape[0]
    # The largest support: over the cone {q ≥ 0, A q ≤ 0} (the equilibria, unnormalised),
    # maximise Σ t_i with t_i ≤ q_i, t_i ≤ 1. Every strategy that some equilibrium uses gets
    # q_i ≥ 1 and the others 0: a clean split whatever the solver's tolerances.
    res = optimize.linprog(
        np.concatenate([np.zeros(k), -np.ones(k)]),
        A_ub=np.block([[a, np.zeros((k, k))], [-np.eye(k), np.eye(k)]]),
        b_ub=np.zeros(2 * k),
        bounds=[(0.0, None)] * k + [(0.0, 1.0)] * k,
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"nash_average: linear program failed ({res.message})")
    q = res.x[:k]
    covered = q >= 0.5
    support = np.flatnonzero(covered)
    rest = np.flatnonzero(~covered)
    centre = q[support] / q[support].sum()
    eq = np.vstack([a[np.ix_(support, support)], np.ones((1, len(support)))])
    null = linalg.null_space(eq, rcond=1e-10)
    if null.shape[1] == 0:
        rhs = np.zeros(len(support) + 1)
        rhs[-1] = 1.0
        ps = np.linalg.lstsq(eq, rhs, rcond=None)[0]
    else:
        # Project the centre onto the affine set so the equalities hold to rounding.
        rhs = np.zeros(len(support) + 1)
        rhs[-1] = 1.0
        base = centre + np.linalg.lstsq(eq, rhs - eq @ centre, rcond=None)[0]
        a_rest = a[np.ix_(rest, support)]

        def neg_entropy(z: np.ndarray) -> float:
            q = np.clip(base + null @ z, 1e-300, None)
            return float((q * np.log(q)).sum())

        def neg_entropy_grad(z: np.ndarray) -> np.ndarray:
            q = np.clip(base + null @ z, 1e-300, None)
            return null.T @ (np.log(q) + 1.0)

        constraints = [
            {"type": "ineq", "fun": lambda z: base + null @ z, "jac": lambda z: null},
        ]
        if len(rest):
            constraints.append(
                {
                    "type": "ineq",
                    "fun": lambda z: -(a_rest @ (base + null @ z)),
                    "jac": lambda z: -(a_rest @ null),
                }
            )
        res = optimize.minimize(
            neg_entropy,
            np.zeros(null.shape[1]),
            jac=neg_entropy_grad,
            constraints=constraints,
            method="SLSQP",
            options={"ftol": 1e-15, "maxiter": 1000},
        )
        ps = base + null @ res.x
    p = np.zeros(k)
    p[support] = np.clip(ps, 0.0, None)
    p /= p.sum()
    return p, a @ p


def bootstrap_mixtures(
    sample_payoff: Callable[[np.random.Generator], np.ndarray],
    rng: np.random.Generator,
    n: int,
) -> np.ndarray:
    """n equilibrium mixtures (n × k): each a `symmetric_nash` of one payoff matrix drawn by
    `sample_payoff(rng)` (e.g. a resample of the games behind the table), to show how much
    the equilibrium moves with the payoffs' sampling noise. All draws come from `rng`."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    mixtures = [symmetric_nash(sample_payoff(rng)) for _ in range(n)]
    sizes = {len(x) for x in mixtures}
    if len(sizes) != 1:
        raise ValueError(f"sample_payoff returned matrices of different sizes: {sorted(sizes)}")
    return np.vstack(mixtures)


def mixture_interval(
    mixtures: np.ndarray, level: float = 0.95, *, names: Sequence[str] | None = None
) -> pd.DataFrame:
    """Per strategy: the mean weight over bootstrap mixtures and the central percentile
    interval at `level` (columns mean, low, high; index the strategies)."""
    x = np.asarray(mixtures, dtype=float)
    if x.ndim != 2 or x.shape[0] == 0:
        raise ValueError(f"mixtures must be a non-empty (n, k) array, got shape {x.shape}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    tail = (1.0 - level) / 2.0
    index = pd.Index(_names(x.shape[1], names), name="strategy")
    return pd.DataFrame(
        {
            "mean": x.mean(axis=0),
            "low": np.quantile(x, tail, axis=0),
            "high": np.quantile(x, 1.0 - tail, axis=0),
        },
        index=index,
    )
