"""The meta-game of a library of strategies: its payoff table and every solver of it.

Empirical game-theoretic analysis (docs/running.md, "The meta-game of a library"). For a
player count P and a library of k strategies, every composition of a table (a multiset of P
strategies, C(k+P-1, P) of them) is played for the same G games (`moaisim.studies.metagame`);
a composition's payoff to a strategy is the mean win share of its copies. That table is a
`MetaGame`, the one type every solver here takes (OpenSpiel's heuristic payoff table); a
symmetric two-player matrix game is the case P = 2 (`MetaGame.from_matrix`). The solvers:

- **the population game** (`Population`): seats are filled independently from a mixture x of
  the library; strategy i's fitness is its expected payoff when its P - 1 co-players are
  drawn from x (at two players, (A x)_i). Its **gain** at x (the best strategy's fitness
  minus the mixture's) is x's exploitability: 0 at a symmetric Nash mixture;
- **replicator dynamics** (`replicator`) of the population game, and the **Nash mixture**
  (`nash`): the equilibrium a population reaches by selection, solved exactly on its support;
- **the invasion matrix** (`invasion`): one copy of X among P - 1 copies of Y, X's win share
  with its Wilson interval, against the fair 1/P;
- **alpha-Rank** (`alpha_rank`, `alpha_sweep`; Omidshafiei et al. 2019): the stationary
  distribution of the Markov chain of monomorphic populations of the P-player game;
- **Nash averaging** (`nash_averaging`; Balduzzi et al. 2018): the maximum-entropy Nash of the
  antisymmetric invasion game and each strategy's skill against it (invariant to copies);
- **bootstrap** (`bootstrap_nash`): the mixture re-solved on tables resampled by game (the
  same games in every composition, so pairing is kept), its sampling spread.

`analyse` gathers them, `markdown` reports them and `write_mixture` saves a mixture as the
TOML the `mixture` strategy reads. Pure numerics (numpy, scipy): nothing here plays a game,
and every random draw comes from an explicit seed.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import linalg, optimize
from scipy.special import gammaln, logsumexp, softmax

from moaisim.analysis import stats, text
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game
from moaisim.registry import file_game

#: The alphas of the sweep `alpha_sweep` reports by default.
ALPHAS: tuple[float, ...] = (0.1, 1.0, 10.0, 100.0)
#: Time step of the replicator run inside `nash` (payoffs scaled to a spread of 1).
_DT = 0.25
#: A replicator state within this L1 distance of a verified equilibrium has converged to it;
#: within the looser one, it has if the distance at least halved since the last check.
_CONVERGED = 1e-4
_APPROACHING = 1e-2
#: Relative thresholds that turn a replicator state into candidate supports.
_THRESHOLDS = (1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12)
#: Newton steps at most when solving a support's indifference (at two players: one).
_NEWTON = 30


def compositions(k: int, players: int) -> np.ndarray:
    """Every multiset of `players` strategies out of k, as count vectors [m, k] (in the
    order of itertools.combinations_with_replacement): the tables a meta-game plays."""
    rows = [
        np.bincount(np.asarray(combo, dtype=np.int64), minlength=k)
        for combo in itertools.combinations_with_replacement(range(k), players)
    ]
    return np.array(rows, dtype=np.int64).reshape(-1, k)


@dataclass
class MetaGame:
    """A meta-game's payoff table, the type every solver of this module takes.

    `counts[c]` is composition c (copies of each strategy; every composition of `players`
    strategies out of the library, once); `per_game[c, g, i]` is game g's mean payoff (win
    share) of the copies of strategy i in composition c, nan where i is absent. `seed` and
    `meta` record how it was played (`meta["carved"]`: Moai per copy and game)."""

    players: int
    names: list[str]
    counts: np.ndarray  # [m, k] compositions
    per_game: np.ndarray  # [m, G, k]
    seed: int = 0
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Check the table (a `ValueError` of one line per mistake), so that every solver
        can rely on it: a payoff exactly where a strategy plays, every composition once."""
        self.players = operator.index(self.players)
        self.names = [str(n) for n in self.names]
        self.counts = np.asarray(self.counts, dtype=np.int64)
        self.per_game = np.asarray(self.per_game, dtype=float)
        k, p = len(self.names), self.players
        if p < 2 or k < 1 or len(set(self.names)) != k:
            raise ValueError(f"a meta-game needs 2 or more players and distinct strategy "
                             f"names, got {p} players and {self.names}")  # fmt: skip
        if self.counts.ndim != 2 or self.counts.shape[1] != k:
            raise ValueError(f"counts must have one column per strategy ({k}), got shape "
                             f"{self.counts.shape}")  # fmt: skip
        want = compositions(k, p)
        if self.counts.shape != want.shape or not np.array_equal(
            np.unique(self.counts, axis=0), np.unique(want, axis=0)
        ):
            raise ValueError(f"the table must hold each of the {len(want)} compositions of "
                             f"{p} strategies out of {k} once")  # fmt: skip
        shape = self.per_game.shape
        if len(shape) != 3 or (shape[0], shape[2]) != want.shape or not shape[1]:
            raise ValueError(f"per_game must have shape ({len(want)}, games, {k}), got {shape}")
        present = np.broadcast_to(self.counts[:, None, :] > 0, self.per_game.shape)
        if not np.isfinite(self.per_game[present]).all():
            raise ValueError("the table lacks a payoff (NaN or infinite) where a strategy plays")
        if not np.isnan(self.per_game[~present]).all():
            raise ValueError("the table has a payoff for a strategy absent from its composition")

    @classmethod
    def from_matrix(
        cls, payoff: ArrayLike, players: int = 2, names: Sequence[str] | None = None
    ) -> MetaGame:
        """The table of a pairwise game: at a table, strategy i earns the mean of
        payoff[i, j] over its P - 1 co-players j. At two players it is the symmetric matrix
        game itself (textbook games, tests); at more, its population game has the same
        fitness (A x)_i, hence the same Nash mixtures."""
        a = np.asarray(payoff, dtype=float)
        if a.ndim != 2 or a.shape[0] != a.shape[1] or a.size == 0:
            raise ValueError(f"payoff must be a non-empty square matrix, got shape {a.shape}")
        if not np.isfinite(a).all():
            raise ValueError("payoff contains NaN or infinite values")
        k = len(a)
        counts = compositions(k, players)
        others = counts[:, None, :] - np.eye(k, dtype=np.int64)[None]  # [m, i, j]
        per = np.einsum("mij,ij->mi", others, a) / (players - 1)
        per = np.where(counts > 0, per, np.nan)[:, None, :]
        return cls(players, list(names) if names else [f"s{i}" for i in range(k)], counts, per)

    @property
    def k(self) -> int:
        """The number of strategies in the library."""
        return len(self.names)

    @property
    def games(self) -> int:
        """The number of games played per composition."""
        return int(self.per_game.shape[1])

    @property
    def payoff(self) -> np.ndarray:
        """[m, k] mean payoff per composition (nan where the strategy is absent)."""
        return self.per_game.mean(axis=1)

    def rows(self, counts: ArrayLike) -> np.ndarray:
        """The table's row of each composition in `counts` ([..., k] -> [...]); `KeyError`
        if one is not a composition of the table."""
        q = np.asarray(counts, dtype=np.int64)
        flat = q.reshape(-1, self.k)
        m = len(self.counts)
        _, inverse = np.unique(np.vstack([self.counts, flat]), axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        where = np.full(inverse.max() + 1, -1)
        where[inverse[:m]] = np.arange(m)
        out = where[inverse[m:]]
        if (out < 0).any():
            raise KeyError(tuple(flat[int(np.argmin(out))].tolist()))
        return out.reshape(q.shape[:-1])

    def resample(self, rng: np.random.Generator) -> MetaGame:
        """A bootstrap table: games drawn with replacement, the same draw in every
        composition (common random numbers keep their pairing)."""
        pick = rng.integers(0, self.games, self.games)
        return MetaGame(self.players, self.names, self.counts, self.per_game[:, pick, :],
                        self.seed, self.meta)  # fmt: skip


# --- the population game ------------------------------------------------------------------
def _multinomial(counts: np.ndarray) -> np.ndarray:
    """The multinomial coefficient of each row of counts."""
    n = counts.sum(axis=1)
    return np.exp(gammaln(n + 1) - gammaln(counts + 1).sum(axis=1))


def _mixture(x: ArrayLike, k: int) -> np.ndarray:
    """A mixture over k strategies as a float array (checked: length, sign, sum), summing
    to 1."""
    s = np.asarray(x, dtype=float)
    if s.shape != (k,):
        raise ValueError(f"mixture must have shape ({k},), got {s.shape}")
    if not np.isfinite(s).all() or (s < 0).any() or s.sum() <= 0:
        raise ValueError("mixture must be finite, non-negative and not all zero")
    return s / s.sum()


class Population:
    """The population game of a table: every seat drawn independently from a mixture x of
    the library. Precomputes, for each strategy, its payoff at each draw of its co-players,
    so that fitness and its derivative are one matrix product each."""

    def __init__(self, game: MetaGame) -> None:
        k, p = game.k, game.players
        eye = np.eye(k, dtype=np.int64)
        pay = game.payoff
        self.k, self.players = k, p
        self.others = compositions(k, p - 1)  # the co-players of a seat
        rows = game.rows(eye[:, None, :] + self.others[None])
        self.value = pay[rows, np.arange(k)[:, None]]  # [i, o]
        self.pairs = compositions(k, p - 2)  # the co-players besides one of strategy j
        rows = game.rows(eye[:, None, None, :] + eye[None, :, None, :] + self.pairs[None, None])
        self.pair_value = pay[rows, np.arange(k)[:, None, None]]  # [i, j, q]
        self._coef_others = _multinomial(self.others)
        self._coef_pairs = _multinomial(self.pairs)
        played = pay[~np.isnan(pay)]
        self.spread = float(np.ptp(played))  # the payoffs' range (the replicator's time unit)
        self.scale = max(1.0, float(np.abs(played).max()))  # the tolerances' unit

    def fitness(self, x: np.ndarray) -> np.ndarray:
        """[k]: each strategy's expected payoff, its co-players drawn from x (a polynomial
        in x, also evaluated off the simplex by Newton's method)."""
        return self.value @ (self._coef_others * np.prod(x[None, :] ** self.others, axis=1))

    def jacobian(self, x: np.ndarray) -> np.ndarray:
        """[k, k]: d fitness_i / d x_j, (P - 1) times i's payoff with one co-player j and the
        other P - 2 drawn from x (at two players, the payoff matrix)."""
        draws = self._coef_pairs * np.prod(x[None, :] ** self.pairs, axis=1)
        return (self.players - 1) * (self.pair_value @ draws)

    def gain(self, x: ArrayLike) -> float:
        """The best strategy's fitness against the mixture minus the mixture's own: how much
        a deviation gains (0 at a Nash mixture, > 0 otherwise)."""
        s = _mixture(x, self.k)
        f = self.fitness(s)
        return float(f.max() - s @ f)


def _flow(pop: Population, x: np.ndarray, steps: int, dt: float, trajectory: bool) -> np.ndarray:
    """`replicator` on a population game: RK4 in log coordinates from x."""
    with np.errstate(divide="ignore"):
        u = np.log(x)
    path = np.empty((steps + 1, pop.k)) if trajectory else None
    if path is not None:
        path[0] = x

    def velocity(v: np.ndarray) -> np.ndarray:
        e = np.exp(v - v.max())
        return pop.fitness(e / e.sum())

    for step in range(1, steps + 1):
        k1 = velocity(u)
        k2 = velocity(u + 0.5 * dt * k1)
        k3 = velocity(u + 0.5 * dt * k2)
        k4 = velocity(u + dt * k3)
        u = u + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        u = u - u.max()
        if path is not None:
            path[step] = softmax(u)
    return path if path is not None else softmax(u)


def replicator(
    game: MetaGame,
    x0: ArrayLike | None = None,
    *,
    steps: int = 1000,
    dt: float = 0.01,
    trajectory: bool = False,
) -> np.ndarray:
    """The replicator dynamics dx_i/dt = x_i (fitness_i(x) - x.fitness(x)) of the population
    game from x0 (default: uniform) for `steps` steps of length `dt` (time in payoff units):
    how selection moves a population, the path `nash` follows to its equilibrium.

    RK4 in log coordinates (u = log x, du/dt = fitness(softmax(u))): the state stays exactly
    on the simplex and strictly positive, and a strategy on its way out decays without
    underflow trouble. Returns the final state (k,) or, with `trajectory=True`, all states
    (steps+1, k)."""
    pop = Population(game)
    x = np.full(pop.k, 1.0 / pop.k) if x0 is None else _mixture(x0, pop.k)
    if steps < 0 or not dt > 0:
        raise ValueError("steps must be >= 0 and dt > 0")
    return _flow(pop, x, steps, dt, trajectory)


# --- the Nash mixture ---------------------------------------------------------------------
def _indifferent(pop: Population, support: tuple[int, ...], start: np.ndarray) -> np.ndarray | None:
    """The mixture on `support` whose strategies all earn the same (fitness_S(y) = v,
    sum(y) = 1), by Newton's method from `start`: one linear solve at two players, where
    fitness is linear; least squares, so degenerate supports (copies) still give one. None
    if it ends with negative weights."""
    idx = np.asarray(support)
    s = len(idx)
    y = np.zeros(pop.k)
    w = np.clip(start[idx], 0.0, None)
    y[idx] = w / w.sum() if w.sum() > 0 else 1.0 / s
    v = float(y @ pop.fitness(y))
    for _ in range(_NEWTON):
        resid = np.append(pop.fitness(y)[idx] - v, y[idx].sum() - 1.0)
        if np.abs(resid).max() <= 1e-14 * pop.scale:
            break
        jac = np.zeros((s + 1, s + 1))
        jac[:s, :s] = pop.jacobian(y)[np.ix_(idx, idx)]
        jac[:s, s] = -1.0
        jac[s, :s] = 1.0
        step = np.linalg.lstsq(jac, resid, rcond=None)[0]
        y[idx] -= step[:s]
        v -= float(step[s])
    if not np.isfinite(y).all() or y[idx].min() < -1e-10:
        return None
    y = np.clip(y, 0.0, None)
    return y / y.sum() if y.sum() > 0 else None


class _Equilibria:
    """The equilibria found on supports (`_indifferent`, verified: gain within `bound`),
    remembered by support."""

    def __init__(self, pop: Population, bound: float) -> None:
        self.pop, self.bound = pop, bound
        self.found: dict[tuple[int, ...], np.ndarray] = {}

    def on(self, support: tuple[int, ...], start: np.ndarray) -> np.ndarray | None:
        """The verified equilibrium on `support` (solved from `start`), or None."""
        if support not in self.found:
            y = _indifferent(self.pop, support, start)
            if y is None or self.pop.gain(y) > self.bound:
                return None
            self.found[support] = y
        return self.found[support]


def _candidate_supports(pop: Population, x: np.ndarray) -> list[tuple[int, ...]]:
    """Supports suggested by a (near-)equilibrium state x: its strategies above a range of
    relative thresholds, and its best responses."""
    supports = {tuple(np.flatnonzero(x >= t * x.max()).tolist()) for t in _THRESHOLDS}
    values = pop.fitness(x)
    supports.add(tuple(np.flatnonzero(values >= values.max() - 1e-6 * pop.spread).tolist()))
    return sorted(supports, key=len)


def _select(
    pop: Population, eq: _Equilibria, max_iter: int
) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Replicator dynamics from the uniform mixture (payoffs scaled to a spread of 1, RK4
    steps of 0.25), checked at doubling intervals: (the verified equilibrium the state has
    converged to, or is closing in on, or None; the last state; the time average over the
    run's second half)."""
    x = np.full(pop.k, 1.0 / pop.k)
    last: dict[tuple[int, ...], float] = {}  # distance to each verified candidate at last check
    pieces = [x[None, :]]
    done, chunk = 0, 50
    while done < max_iter:
        n = min(chunk, max_iter - done)
        path = _flow(pop, x, n, _DT / pop.spread, trajectory=True)
        pieces.append(path[1:])
        x = path[-1]
        done, chunk = done + n, chunk * 2
        for support in _candidate_supports(pop, x):
            y = eq.on(support, x)
            if y is None:
                continue
            dist = float(np.abs(y - x).sum())
            before = last.get(support)
            last[support] = dist
            if dist <= _CONVERGED or (before is not None and dist <= min(_APPROACHING, before / 2)):
                return y, x, x
    run = np.concatenate(pieces)
    return None, x, run[len(run) // 2 :].mean(axis=0)


def _least_gain(pop: Population, x0: np.ndarray) -> np.ndarray:
    """The last resort of `nash`: minimise the gain from x0 (min t subject to
    fitness_i(x) - x.fitness(x) <= t, x in the simplex; SLSQP)."""
    k = pop.k

    def excess(z: np.ndarray) -> np.ndarray:
        x = np.clip(z[:k], 0.0, None)
        f = pop.fitness(x)
        return z[k] - (f - x @ f)

    res = optimize.minimize(
        lambda z: z[k], np.append(x0, pop.gain(x0)), method="SLSQP",
        bounds=[(0.0, 1.0)] * k + [(None, None)],
        constraints=[{"type": "eq", "fun": lambda z: z[:k].sum() - 1.0},
                     {"type": "ineq", "fun": excess}],
        options={"maxiter": 500, "ftol": 1e-12},
    )  # fmt: skip
    x = np.clip(res.x[:k], 0.0, None)
    return x / x.sum() if x.sum() > 0 else x0


def _entropy(p: np.ndarray) -> float:
    """The entropy of a mixture (how even it is)."""
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def nash(game: MetaGame, *, tol: float = 1e-9, max_iter: int = 4000) -> np.ndarray:
    """A symmetric Nash mixture of the population game: no strategy's fitness against it
    exceeds the mixture's (`Population.gain` <= tol, times the payoffs' magnitude above 1).

    Why this way: among several equilibria, the one a population reaches by selection is the
    meaningful one for balance. So: (1) replicator dynamics from the uniform mixture (up to
    `max_iter` steps, `_select`); the supports its state suggests are solved for the mixture
    that makes their strategies indifferent (`_indifferent`, to rounding), and once the state is
    within 1e-4 of such a verified equilibrium, or within 1e-2 and closing in, that is the
    answer. (2) If the dynamics do not settle (cycles), the supports of the last state, of
    the time average and of the whole library; (3) if none, every support; (4) if still
    none, the least gain SLSQP finds. Among the equilibria verified on the way, the one
    nearest the time average (ties: the most even).

    Two-player constant-sum games (A + A^T constant: two players' win shares) skip this:
    their replicator orbits cycle for ever and their equilibria are the maximin mixtures, so
    the maximum-entropy one (Nash averaging's, the centre the cycles average to when it is
    interior) is returned.
    """
    pop = Population(game)
    k = pop.k
    if k == 1 or pop.spread == 0.0:
        return np.full(k, 1.0 / k)
    bound = tol * pop.scale
    if pop.players == 2:
        a = pop.pair_value[:, :, 0]  # the matrix game
        if np.ptp(a + a.T) <= 1e-12 * pop.scale:
            p = _max_entropy_nash(a - a.T)
            if pop.gain(p) <= bound:
                return p
    eq = _Equilibria(pop, bound)
    y, x, centre = _select(pop, eq, max_iter)
    if y is not None:
        return y
    for s in {*_candidate_supports(pop, x), *_candidate_supports(pop, centre), tuple(range(k))}:
        eq.on(s, x)
        eq.on(s, centre)
    if not eq.found:
        for size in range(1, k + 1):
            for s in itertools.combinations(range(k), size):
                eq.on(s, np.ones(k))
    found = list(eq.found.values())  # every equilibrium verified on the way
    if found:
        return min(found, key=lambda y: (round(float(np.abs(y - centre).sum()), 9), -_entropy(y)))
    tried = [_least_gain(pop, start) for start in (centre, np.full(k, 1.0 / k))]
    for t in list(tried):  # each one's support solved exactly, if that does better
        y = _indifferent(pop, tuple(np.flatnonzero(t > 1e-9).tolist()), t)
        tried += [] if y is None else [y]
    return min(tried, key=lambda t: (pop.gain(t), -_entropy(t)))


# --- invasion and Nash averaging ----------------------------------------------------------
def _pair_tables(game: MetaGame) -> np.ndarray:
    """[x, y, n]: the row of the table of n copies of x and P - n of y (n = 0 .. P)."""
    k, p = game.k, game.players
    eye = np.eye(k, dtype=np.int64)
    n = np.arange(p + 1)[None, None, :, None]
    return game.rows(n * eye[:, None, None, :] + (p - n) * eye[None, :, None, :])


def invasion_matrix(game: MetaGame) -> np.ndarray:
    """[k, k]: M[x, y] = the payoff of one x among P - 1 copies of y (M[y, y]: self-play;
    at two players, the payoff matrix itself)."""
    rows = _pair_tables(game)[:, :, 1]
    return game.payoff[rows, np.arange(game.k)[:, None]]


def invasion(game: MetaGame) -> pd.DataFrame:
    """One copy of X (`invader`) among P - 1 copies of Y (`resident`): X's mean win share,
    its Wilson 95 % interval, and the fair share 1/P; X = Y rows are self-play (1/P by
    construction, no interval)."""
    p, rows = game.players, []
    table = _pair_tables(game)[:, :, 1]
    for x, y in itertools.product(range(game.k), repeat=2):
        shares = game.per_game[table[x, y], :, x]
        lo, hi = (np.nan, np.nan) if x == y else stats.wilson(shares.sum(), len(shares))
        rows.append({"invader": game.names[x], "resident": game.names[y],
                     "share": float(shares.mean()), "lo": float(lo), "hi": float(hi),
                     "fair": 1 / p, "games": len(shares),
                     "invades": bool(lo > 1 / p) if x != y else False})  # fmt: skip
    return pd.DataFrame(rows)


def _largest_support(a: np.ndarray) -> np.ndarray:
    """The strategies some equilibrium of the symmetric zero-sum game `a` (antisymmetric)
    uses: over the cone {q >= 0, A q <= 0} (the equilibria, unnormalised), maximise sum t_i
    with t_i <= q_i, t_i <= 1, so every such strategy gets q_i >= 1 and the others 0: a
    clean split whatever the solver's tolerances. Returns q."""
    k = a.shape[0]
    res = optimize.linprog(
        np.concatenate([np.zeros(k), -np.ones(k)]),
        A_ub=np.block([[a, np.zeros((k, k))], [-np.eye(k), np.eye(k)]]),
        b_ub=np.zeros(2 * k),
        bounds=[(0.0, None)] * k + [(0.0, 1.0)] * k,
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"Nash averaging: linear program failed ({res.message})")
    return res.x[:k]


def _max_entropy_nash(a: np.ndarray) -> np.ndarray:
    """The maximum-entropy Nash equilibrium of the symmetric zero-sum game `a`
    (antisymmetric). Its value is 0, so the equilibria are {p >= 0, sum p = 1, A p <= 0};
    on the largest support S of one (`_largest_support`) every equilibrium has (A p)_S = 0,
    and the entropy is maximised over that affine set (SLSQP in its null-space coordinates,
    the other rows' A p <= 0 kept as constraints)."""
    k = a.shape[0]
    q = _largest_support(a)
    support, rest = np.flatnonzero(q >= 0.5), np.flatnonzero(q < 0.5)
    eq = np.vstack([a[np.ix_(support, support)], np.ones((1, len(support)))])
    rhs = np.zeros(len(support) + 1)
    rhs[-1] = 1.0
    null = linalg.null_space(eq, rcond=1e-10)
    if null.shape[1] == 0:
        ps = np.linalg.lstsq(eq, rhs, rcond=None)[0]
    else:
        # The centre projected onto the affine set, so the equalities hold to rounding.
        centre = q[support] / q[support].sum()
        base = centre + np.linalg.lstsq(eq, rhs - eq @ centre, rcond=None)[0]
        a_rest = a[np.ix_(rest, support)]

        def neg_entropy(z: np.ndarray) -> float:
            p = np.clip(base + null @ z, 1e-300, None)
            return float((p * np.log(p)).sum())

        def neg_entropy_grad(z: np.ndarray) -> np.ndarray:
            p = np.clip(base + null @ z, 1e-300, None)
            return null.T @ (np.log(p) + 1.0)

        constraints = [{"type": "ineq", "fun": lambda z: base + null @ z, "jac": lambda z: null}]
        if len(rest):
            constraints.append({"type": "ineq", "fun": lambda z: -(a_rest @ (base + null @ z)),
                                "jac": lambda z: -(a_rest @ null)})  # fmt: skip
        res = optimize.minimize(neg_entropy, np.zeros(null.shape[1]), jac=neg_entropy_grad,
                                constraints=constraints, method="SLSQP",
                                options={"ftol": 1e-15, "maxiter": 1000})  # fmt: skip
        ps = base + null @ res.x
    p = np.zeros(k)
    p[support] = np.clip(ps, 0.0, None)
    return p / p.sum()


def nash_averaging(game: MetaGame) -> pd.DataFrame:
    """Nash averaging of the invasion game: the antisymmetric A = M - M^T of the invasion
    matrix M, its maximum-entropy Nash p and each strategy's skill (A p)_i (<= 0; 0 on p's
    support): how much one copy of it gains over the field p. Why maximum entropy: it is
    unique and invariant to copies of a strategy (a copy shares the original's mass, nobody's
    skill changes), so adding clones cannot game the evaluation (where the equilibrium is
    unique up to copies, as in generic games)."""
    m = invasion_matrix(game)
    a = m - m.T
    p = _max_entropy_nash(a)
    return pd.DataFrame({"strategy": game.names, "nash_weight": p, "skill": a @ p})


# --- alpha-Rank ---------------------------------------------------------------------------
def _co_players(population_size: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """[j - 1, a]: the chance that a mutant (first) or a resident (second) meets a mutants
    among its P - 1 co-players, drawn without replacement from the N - 1 others of a
    population of N with j mutants (j = 1 .. N - 1)."""
    n, p = population_size, players
    total = math.comb(n - 1, p - 1)
    mutant = [[math.comb(j - 1, a) * math.comb(n - j, p - 1 - a) / total for a in range(p)]
              for j in range(1, n)]  # fmt: skip
    resident = [[math.comb(j, a) * math.comb(n - 1 - j, p - 1 - a) / total for a in range(p)]
                for j in range(1, n)]  # fmt: skip
    return np.array(mutant), np.array(resident)


def _log_fixation(game: MetaGame, alpha: float, population_size: int) -> np.ndarray:
    """log rho[x, y]: the log of the probability that one mutant x fixes in a population of
    N - 1 residents y (Moran process, Fermi selection of intensity alpha), for all pairs.
    With j mutants, each type's fitness is its expected payoff with its P - 1 co-players
    drawn from the N - 1 others; rho = 1 / sum_{l<N} exp(-alpha sum_{j<=l} (f_x(j) - f_y(j)))
    (1/N when neutral), computed in log space so that any alpha is exact."""
    k, p = game.k, game.players
    tables = _pair_tables(game)  # [x, y, copies of x]
    pay = game.payoff
    mutant = pay[tables, np.arange(k)[:, None, None]][:, :, 1:]  # x with a more x's
    resident = pay[tables, np.arange(k)[None, :, None]][:, :, :p]  # y among a x's
    h_mutant, h_resident = _co_players(population_size, p)
    gap = np.einsum("ja,xya->xyj", h_mutant, mutant) - np.einsum("ja,xya->xyj", h_resident,
                                                                  resident)  # fmt: skip
    partial = np.cumsum(gap, axis=2)
    exponents = np.concatenate([np.zeros((k, k, 1)), -alpha * partial], axis=2)
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


def alpha_rank(game: MetaGame, alpha: float, population_size: int = 50) -> np.ndarray:
    """Single-population alpha-Rank for the P-player game: the stationary distribution over
    the k monomorphic populations (of size N = `population_size`) in the small-mutation
    limit, each invaded by one mutant of another strategy (probability 1/(k-1) each) that
    fixes with the Fermi fixation probability (`_log_fixation`). As alpha grows the mass
    goes to the chain's sink strongly connected components; any alpha >= 0 works."""
    if not np.isfinite(alpha) or alpha < 0:
        raise ValueError(f"alpha must be finite and >= 0, got {alpha}")
    if population_size < game.players:
        raise ValueError(f"alpha-Rank: the population ({population_size}) must be at least "
                         f"the players ({game.players})")  # fmt: skip
    if game.k == 1:
        return np.ones(1)
    log_rho = _log_fixation(game, float(alpha), int(population_size))  # [invader, resident]
    return _log_stationary(log_rho.T - np.log(game.k - 1))  # [from resident, to invader]


def alpha_sweep(
    game: MetaGame, alphas: Sequence[float] = ALPHAS, population_size: int = 50
) -> pd.DataFrame:
    """alpha-Rank's stationary mass of each strategy (columns) for each alpha (rows): where
    the ranking settles as selection strengthens (the paper's sweep)."""
    rows = [alpha_rank(game, float(a), population_size) for a in alphas]
    index = pd.Index([float(a) for a in alphas], name="alpha")
    return pd.DataFrame(np.reshape(rows, (len(rows), game.k)), index=index, columns=game.names)


# --- sampling -----------------------------------------------------------------------------
def bootstrap_nash(game: MetaGame, resamples: int = 200, seed: int = 0) -> np.ndarray:
    """[resamples, k]: the Nash mixture of tables resampled by game (`MetaGame.resample`),
    to show how much the mixture moves with the payoffs' sampling noise."""
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, game.k))
    for b in range(resamples):
        out[b] = nash(game.resample(rng))
    return out


def mixture_table(game: MetaGame, x: np.ndarray, boot: np.ndarray | None = None) -> pd.DataFrame:
    """The mixture with each strategy's fitness against it and, given bootstrap mixtures,
    their mean, 95 % percentile interval and how often the strategy is in the support."""
    f = Population(game).fitness(x)
    df = pd.DataFrame({"strategy": game.names, "weight": x, "fitness": f,
                       "vs_mixture": f - x @ f})  # fmt: skip
    if boot is not None and len(boot):
        df["boot_mean"] = boot.mean(axis=0)
        df["boot_lo"] = np.percentile(boot, 2.5, axis=0)
        df["boot_hi"] = np.percentile(boot, 97.5, axis=0)
        df["in_support"] = (boot > 1e-3).mean(axis=0)
    return df


# --- mixtures as files --------------------------------------------------------------------
def check_mixture_file(path: str | Path, game: str) -> None:
    """A mixture file of `game` may be written at `path`: nothing is there, or a mixture file
    that is not another game's (`registry.file_game`); a `UserError` naming both games
    otherwise. Checked before the games that make it are played."""
    path = Path(path)
    if path.is_file():
        check_game(file_game(path), game, path, "a mixture file")


def write_mixture(path: str | Path, names: Sequence[str], x: np.ndarray, players: int,
                  source: str = "", gain: float | None = None, *, game: str
                  ) -> Path:  # fmt: skip
    """Save a mixture as the TOML `mixture(file=...)` reads: a [mixture] table of
    strategy spec = probability (zero weights left out), with its player count, its game
    (`GAME_KEY`: another game's strategies refuse it) and source. A mixture file of another
    game at `path` is refused (`check_mixture_file`), not replaced."""
    path = Path(path)
    check_mixture_file(path, game)
    x = np.asarray(x, dtype=float)
    keep = x > 1e-9
    weights = x[keep] / x[keep].sum()
    # rounded for the file, the last weight taking the remainder so they sum to 1 exactly
    shown = [round(float(w), 12) for w in weights]
    shown[-1] = round(1.0 - sum(shown[:-1]), 12)
    lines = [f"# A mixture of strategies (moaisim metagame): {source}".rstrip(": "),
             f'{GAME_KEY} = "{game}"', f"players = {players}"]  # fmt: skip
    if gain is not None:
        lines.append(f"nash_gain = {gain:.6g}")
    lines += ["", "[mixture]"]
    for name, w in zip([n for n, k in zip(names, keep, strict=True) if k], shown, strict=True):
        lines.append(f"{_toml_key(name)} = {w!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _toml_key(text: str) -> str:
    """A strategy spec as a TOML key (quoted unless bare)."""
    return text if text.replace("_", "").replace("-", "").isalnum() else '"' + text.replace(
        "\\", "\\\\").replace('"', '\\"') + '"'  # fmt: skip


# --- the whole analysis -------------------------------------------------------------------
@dataclass
class Analysis:
    """Every table of a meta-game (see the module's docstring)."""

    game: MetaGame
    mixture: np.ndarray  # the Nash mixture
    gain: float  # its gain on the played tables (0 at an exact equilibrium)
    tables: dict[str, pd.DataFrame]


def analyse(
    game: MetaGame, resamples: int = 200, alphas: Sequence[float] = ALPHAS, seed: int = 0
) -> Analysis:
    """The Nash mixture (with its bootstrap spread over `resamples` tables drawn from
    `seed`), the invasion table, the alpha-Rank sweep and Nash averaging of a meta-game."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 0:
        raise UserError(f"bootstrap resamples must be a count, got {resamples!r}")
    if not alphas or any(not a > 0 for a in alphas):
        raise UserError(f"alphas must be positive numbers, got {list(alphas)!r}")
    x = nash(game)
    boot = bootstrap_nash(game, resamples, seed) if resamples else None
    found = {
        "mixture": mixture_table(game, x, boot),
        "invasion": invasion(game),
        "alpha_rank": alpha_sweep(game, alphas).reset_index(),
        "nash_averaging": nash_averaging(game),
    }
    return Analysis(game, x, Population(game).gain(x), found)


#: How the meta-game's tables print their numbers (shares and weights to 3 decimals).
SHARE = ".3f"
#: The invasion matrix's corner: rows are invaders, columns residents.
INVADER = "invader \\ resident"


def markdown(an: Analysis) -> str:
    """The analysis as Markdown: the mixture first, then the invasion matrix (share of one
    invader among residents, * where its interval is above the fair share), alpha-Rank
    and Nash averaging."""
    game, p = an.game, an.game.players
    out = [f"### {p} players: {game.k} strategies, {len(game.counts)} compositions x "
           f"{game.games:,} games\n"]  # fmt: skip
    mix = an.tables["mixture"]
    support = ", ".join(f"`{s}` {text.num(w, SHARE)}" for s, w in zip(mix["strategy"],
                        mix["weight"], strict=True) if w > 1e-6)  # fmt: skip
    out.append(f"**Nash mixture**: {support} (gain on the played tables "
               f"{text.num(an.gain, '.1e')}).\n")  # fmt: skip
    cols = ["strategy", "weight", "fitness", "vs_mixture"]
    if "boot_lo" in mix:
        cols += ["boot_lo", "boot_hi", "in_support"]
    digits = {**dict.fromkeys(cols[1:], SHARE), "in_support": ".2f"}
    out.append(text.markdown_table(mix[cols], digits, code=["strategy"]))
    out.append("\n**Invasion matrix**: the win share of one invader (row) among "
               f"{p - 1} residents (column); fair {1 / p:.3f}; * its 95 % interval is above "
               "fair.\n")  # fmt: skip
    inv = an.tables["invasion"].assign(
        cell=lambda d: [text.num(v, SHARE) + ("*" if i else "")
                        for v, i in zip(d["share"], d["invades"], strict=True)]
    )  # fmt: skip
    cells = inv.pivot(index="invader", columns="resident", values="cell")
    cells = cells.loc[game.names, game.names]
    cells.index.name = INVADER
    out.append(text.markdown_table(cells.reset_index(), code=[INVADER]))
    out.append("\n**alpha-Rank** (stationary mass of each strategy; population 50):\n")
    out.append(text.markdown_table(an.tables["alpha_rank"], dict.fromkeys(game.names, SHARE)))
    out.append("\n**Nash averaging** of the invasion game (skill: mean share gained over "
               "its maximum-entropy Nash):\n")  # fmt: skip
    nash_avg = an.tables["nash_averaging"]
    out.append(text.markdown_table(nash_avg, {"nash_weight": SHARE, "skill": SHARE},
                                   code=["strategy"]))  # fmt: skip
    return "\n".join(out) + "\n"
