"""The meta-game of a library of strategies: which mixture of them is a stable field.

Empirical game-theoretic analysis. For a player count P and a library of k strategies, every
composition of a table (a multiset of P strategies from the library, C(k+P-1, P) of them) is
played for the same G games (game i is the same deal in every composition: common random
numbers), seated in cyclic rotation i mod P, so each strategy of a composition sits in every
seat. A composition's payoff to a strategy is the mean win share of its copies (a win shared
by k counts 1/k). From these tables:

- **the population game**: seats are filled independently from a mixture x of the library;
  the fitness of strategy i is its expected payoff when the other P - 1 seats are drawn from x
  (`fitness`). A symmetric Nash mixture (`nash`) is a mixture no strategy beats: its
  **gain** (`Population.gain`: the best pure strategy's fitness minus the mixture's) is 0;
  a field's exploitability. Found by replicator dynamics (time-averaged, from several starts)
  refined by minimising the gain (scipy SLSQP); the answer's gain is always reported.
- **the invasion matrix** (`invasion`): one copy of X among P - 1 copies of Y, X's win share
  with its Wilson interval, against the fair 1/P;
- **alpha-Rank** (`alpha_rank`): the stationary distribution of the Markov chain of
  monomorphic populations (Omidshafiei et al. 2019) for the P-player game, with an alpha sweep;
- **Nash averaging** (`nash_averaging`, Balduzzi et al. 2018): the maximum-entropy Nash of
  the antisymmetric invasion game and each strategy's skill against it (invariant to copies);
- **bootstrap** (`bootstrap_nash`): the mixture re-solved on tables resampled by game (the
  same games in every composition, so pairing is kept), its sampling spread.

`write_mixture` saves a mixture as the TOML the `mixture` strategy reads.
"""

from __future__ import annotations

import itertools
import math
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import optimize
from scipy.special import gammaln

from moaisim.analysis import equilibria, stats, tables
from moaisim.errors import UserError

#: The alphas of the sweep `alpha_sweep` reports by default.
ALPHAS: tuple[float, ...] = (0.1, 1.0, 10.0, 100.0)


def compositions(k: int, players: int) -> np.ndarray:
    """Every multiset of `players` strategies out of k, as count vectors [m, k] (in the
    order of itertools.combinations_with_replacement)."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(k), players):
        rows.append(np.bincount(np.asarray(combo, dtype=np.int64), minlength=k))
    return np.array(rows, dtype=np.int64).reshape(-1, k)


@dataclass
class MetaGame:
    """A played meta-game: the payoff of each strategy in each composition.

    `per_game[c]` is [G, k]: game g's mean win share of the copies of each strategy in
    composition c (nan for strategies absent from it); `payoff` is its mean over games.
    """

    players: int
    names: list[str]
    counts: np.ndarray  # [m, k] compositions
    per_game: np.ndarray  # [m, G, k]
    seed: int = 0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def k(self) -> int:
        return len(self.names)

    @property
    def games(self) -> int:
        return int(self.per_game.shape[1])

    @property
    def payoff(self) -> np.ndarray:
        """[m, k] mean payoff per composition (nan where the strategy is absent)."""
        return _mean_over_games(self.per_game)

    def index(self, counts: Sequence[int]) -> int:
        """The row of a composition."""
        hit = np.flatnonzero((self.counts == np.asarray(counts)).all(axis=1))
        if not len(hit):
            raise KeyError(tuple(counts))
        return int(hit[0])

    def resample(self, rng: np.random.Generator) -> np.ndarray:
        """A bootstrap payoff table: games drawn with replacement, the same draw in every
        composition (common random numbers keep their pairing)."""
        pick = rng.integers(0, self.games, self.games)
        return _mean_over_games(self.per_game[:, pick, :])


def _mean_over_games(per_game: np.ndarray) -> np.ndarray:
    """[m, k]: the mean over axis 1, nan where the strategy is absent (all nan)."""
    present = ~np.isnan(per_game[:, :1, :]).all(axis=1)
    total = np.nansum(per_game, axis=1) / max(per_game.shape[1], 1)
    return np.where(present, total, np.nan)


# --- the population game ------------------------------------------------------------------
def _log_multinomial(counts: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log of the multinomial probability of each row of counts under x (-inf if 0)."""
    n = counts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logx = np.where(x > 0, np.log(np.where(x > 0, x, 1.0)), -np.inf)
        terms = np.where(counts > 0, counts * logx[None, :], 0.0)
    return gammaln(n + 1) - gammaln(counts + 1).sum(axis=1) + terms.sum(axis=1)


class Population:
    """The fitness of each strategy against seats drawn from a mixture (precomputed: which
    composition each (strategy, others) pair is)."""

    def __init__(self, counts: np.ndarray, payoff: np.ndarray) -> None:
        self.k = counts.shape[1]
        self.players = int(counts[0].sum())
        self.others = compositions(self.k, self.players - 1)  # [o, k]
        lookup = {tuple(c): r for r, c in enumerate(counts.tolist())}
        self.value = np.full((self.k, len(self.others)), np.nan)
        for i in range(self.k):
            for o, rest in enumerate(self.others):
                c = rest.copy()
                c[i] += 1
                self.value[i, o] = payoff[lookup[tuple(c.tolist())], i]
        if np.isnan(self.value).any():
            raise UserError("the meta-game's table has a composition without payoff")

    def fitness(self, x: np.ndarray) -> np.ndarray:
        """[k]: each strategy's expected win share, the other seats drawn from x."""
        prob = np.exp(_log_multinomial(self.others, np.asarray(x, dtype=float)))
        return self.value @ prob

    def gain(self, x: np.ndarray) -> float:
        """The best pure strategy's fitness minus the mixture's (0 at a Nash mixture)."""
        f = self.fitness(x)
        return float(f.max() - x @ f)


def population(meta: MetaGame, payoff: np.ndarray | None = None) -> Population:
    return Population(meta.counts, meta.payoff if payoff is None else payoff)


def _replicator_average(pop: Population, x0: np.ndarray, steps: int) -> np.ndarray:
    """The time average of discrete replicator dynamics from x0 (the average converges to a
    Nash mixture in the cycling games where the path itself does not)."""
    x = x0.copy()
    total = np.zeros_like(x)
    for _ in range(steps):
        f = pop.fitness(x) + 1.0  # payoffs are shares in [0, 1]: positive
        x = x * f / (x @ f)
        x = np.maximum(x, 1e-300)
        x /= x.sum()
        total += x
    return total / steps


def _refine(pop: Population, x0: np.ndarray) -> np.ndarray:
    """Minimise the gain from x0: min t subject to fitness_i(x) - x.f(x) <= t, x in the
    simplex (SLSQP)."""
    k = pop.k

    def cons(z: np.ndarray) -> np.ndarray:
        x = z[:k]
        f = pop.fitness(np.clip(x, 0, None))
        return z[k] - (f - x @ f)

    z0 = np.append(x0, pop.gain(x0))
    res = optimize.minimize(
        lambda z: z[k], z0, method="SLSQP",
        bounds=[(0.0, 1.0)] * k + [(None, None)],
        constraints=[{"type": "eq", "fun": lambda z: z[:k].sum() - 1.0},
                     {"type": "ineq", "fun": cons}],
        options={"maxiter": 500, "ftol": 1e-12},
    )  # fmt: skip
    x = np.clip(res.x[:k], 0.0, None)
    return x / x.sum() if x.sum() > 0 else x0


def nash(pop: Population, starts: int = 4, steps: int = 2000, seed: int = 0) -> np.ndarray:
    """A symmetric Nash mixture of the population game: replicator averages from the
    uniform mixture and `starts` - 1 random interior ones (a fixed seed: the answer is
    reproducible), each refined (and each start refined directly), also with its traces
    below 1 % dropped, and the pure strategies; the one of least gain (ties: the most
    even)."""
    rng = np.random.default_rng(seed)
    best, best_key = None, (np.inf, 0.0)
    pure = list(np.eye(pop.k))  # an equilibrium in pure strategies, found exactly
    for s in range(starts):
        x0 = np.full(pop.k, 1.0 / pop.k) if s == 0 else rng.dirichlet(np.ones(pop.k))
        x = _replicator_average(pop, x0, steps)
        # refined from the replicator's average, and from the start itself (the average of
        # a cycling replicator can sit far from an interior equilibrium)
        found = [x, _refine(pop, x), _refine(pop, x0)]
        # a replicator average creeps towards a boundary equilibrium without reaching it:
        # the candidates with their traces (< 1 %) dropped, refined again
        for c in list(found):
            trimmed = np.where(c < 0.01, 0.0, c)
            if trimmed.sum() > 0 and (trimmed > 0).sum() < (c > 0).sum():  # traces dropped
                trimmed = trimmed / trimmed.sum()
                found += [trimmed, _refine(pop, trimmed)]
        for cand in found + (pure if s == 0 else []):
            cand = np.where(cand < 1e-9, 0.0, cand)
            cand = cand / cand.sum()
            entropy = -float((cand[cand > 0] * np.log(cand[cand > 0])).sum())
            key = (round(pop.gain(cand), 10), -entropy)
            if key < best_key:
                best, best_key = cand, key
    assert best is not None
    return best


# --- invasion, alpha-Rank, Nash averaging -------------------------------------------------
def invasion(meta: MetaGame) -> pd.DataFrame:
    """One copy of X (`invader`) among P - 1 copies of Y (`resident`): X's mean win share,
    its Wilson 95 % interval, and the fair share 1/P; X = Y rows are self-play (1/P by
    construction, no interval)."""
    p, rows = meta.players, []
    for x, y in itertools.product(range(meta.k), repeat=2):
        c = np.zeros(meta.k, dtype=np.int64)
        c[y] = p - 1
        c[x] += 1
        shares = meta.per_game[meta.index(c), :, x]
        share = float(shares.mean())
        if x == y:
            lo = hi = np.nan
        else:
            lo, hi = (float(v) for v in stats.wilson(shares.sum(), len(shares)))
        rows.append({"invader": meta.names[x], "resident": meta.names[y], "share": share,
                     "lo": lo, "hi": hi, "fair": 1 / p, "games": len(shares),
                     "invades": bool(lo > 1 / p) if x != y else False})  # fmt: skip
    return pd.DataFrame(rows)


def invasion_matrix(meta: MetaGame, payoff: np.ndarray | None = None) -> np.ndarray:
    """[k, k]: M[x, y] = the share of one x among P - 1 copies of y (M[y, y] = 1/P)."""
    pay = meta.payoff if payoff is None else payoff
    p, m = meta.players, np.empty((meta.k, meta.k))
    for x, y in itertools.product(range(meta.k), repeat=2):
        c = np.zeros(meta.k, dtype=np.int64)
        c[y] = p - 1
        c[x] += 1
        m[x, y] = pay[meta.index(c), x]
    return m


def alpha_rank(meta: MetaGame, alpha: float, population_size: int = 50,
               payoff: np.ndarray | None = None) -> np.ndarray:  # fmt: skip
    """Single-population alpha-Rank for the P-player game: a monomorphic population of Y
    (size N = `population_size`) is invaded by one mutant X with probability 1/(k-1) per
    X; the mutant fixes with the Fermi fixation probability of the Moran process, the
    fitness of each type with j mutants being its expected payoff when its P - 1 co-players
    are drawn without replacement from the other N - 1 members. Returns the stationary
    distribution over the k monomorphic states."""
    pay = meta.payoff if payoff is None else payoff
    k, p, n = meta.k, meta.players, population_size
    if n < p:
        raise UserError(f"alpha-Rank: the population ({n}) must be at least the players ({p})")
    lookup = {tuple(c): r for r, c in enumerate(meta.counts.tolist())}

    def pay_in(x: int, y: int, nx: int, who: int) -> float:
        # the payoff to `who` at a table of nx copies of x and P - nx copies of y
        c = [0] * k
        c[x] += nx
        c[y] += p - nx
        return float(pay[lookup[tuple(c)], who])

    def hyper(a: int, pool: int, marked: int) -> float:
        # P(a marked among p - 1 drawn from pool containing `marked`)
        if a > marked or p - 1 - a > pool - marked:
            return 0.0
        return math.comb(marked, a) * math.comb(pool - marked, p - 1 - a) / math.comb(pool, p - 1)

    t = np.zeros((k, k))
    for y, x in itertools.product(range(k), repeat=2):
        if x == y:
            continue
        logs = 0.0
        total = 1.0
        for j in range(1, n):  # j mutants in the population
            # a mutant meets a other mutants among its P - 1 co-players (j - 1 mutants
            # among the N - 1 others), a resident meets a mutants (j among N - 1)
            fx = sum(hyper(a, n - 1, j - 1) * pay_in(x, y, a + 1, x) for a in range(p))
            fy = sum(hyper(a, n - 1, j) * pay_in(x, y, a, y) for a in range(p))
            logs += -alpha * (fx - fy)
            total += math.exp(min(logs, 700.0))
        rho = 1.0 / total
        t[y, x] = rho / (k - 1)
    for y in range(k):
        t[y, y] = 1.0 - t[y].sum()
    vals, vecs = np.linalg.eig(t.T)
    pi = np.real(vecs[:, np.argmin(np.abs(vals - 1.0))])
    pi = np.abs(pi)
    return pi / pi.sum()


def alpha_sweep(meta: MetaGame, alphas: Sequence[float] = ALPHAS,
                population_size: int = 50) -> pd.DataFrame:  # fmt: skip
    """alpha-Rank's stationary mass of each strategy (columns) for each alpha (rows)."""
    rows = [alpha_rank(meta, a, population_size) for a in alphas]
    return pd.DataFrame(rows, index=pd.Index(list(alphas), name="alpha"), columns=meta.names)


def nash_averaging(meta: MetaGame) -> pd.DataFrame:
    """Nash averaging of the invasion game: the antisymmetric A = M - M^T of the invasion
    matrix M, its maximum-entropy Nash p (`equilibria.nash_average`) and each strategy's
    skill (A p)_i: how much one copy of it gains over the field p on average."""
    p, skill = equilibria.nash_average(invasion_matrix(meta))
    return pd.DataFrame({"strategy": meta.names, "nash_weight": p, "skill": skill})


# --- sampling -----------------------------------------------------------------------------
def bootstrap_nash(
    meta: MetaGame,
    resamples: int = 200,
    seed: int = 0,
    solve: Callable[[Population], np.ndarray] | None = None,
) -> np.ndarray:
    """[resamples, k]: the Nash mixture of tables resampled by game (`MetaGame.resample`)."""
    rng = np.random.default_rng(seed)
    solve = solve or (lambda pop: nash(pop, starts=2, steps=600))
    out = np.empty((resamples, meta.k))
    for b in range(resamples):
        out[b] = solve(population(meta, meta.resample(rng)))
    return out


def mixture_table(meta: MetaGame, x: np.ndarray, boot: np.ndarray | None = None) -> pd.DataFrame:
    """The mixture with each strategy's fitness against it and, given bootstrap mixtures,
    their mean, 95 % percentile interval and how often the strategy is in the support."""
    pop = population(meta)
    f = pop.fitness(x)
    df = pd.DataFrame({"strategy": meta.names, "weight": x, "fitness": f,
                       "vs_mixture": f - x @ f})  # fmt: skip
    if boot is not None and len(boot):
        df["boot_mean"] = boot.mean(axis=0)
        df["boot_lo"] = np.percentile(boot, 2.5, axis=0)
        df["boot_hi"] = np.percentile(boot, 97.5, axis=0)
        df["in_support"] = (boot > 1e-3).mean(axis=0)
    return df


# --- mixtures as files --------------------------------------------------------------------
def write_mixture(path: str | Path, names: Sequence[str], x: np.ndarray, players: int,
                  source: str = "", gain: float | None = None) -> Path:  # fmt: skip
    """Save a mixture as the TOML `mixture(file=...)` reads: a [mixture] table of
    strategy spec = probability (zero weights left out), with its player count and source."""
    path = Path(path)
    x = np.asarray(x, dtype=float)
    keep = x > 1e-9
    weights = x[keep] / x[keep].sum()
    # rounded for the file, the last weight taking the remainder so they sum to 1 exactly
    shown = [round(float(w), 12) for w in weights]
    shown[-1] = round(1.0 - sum(shown[:-1]), 12)
    lines = [f"# A mixture of strategies (moaisim metagame): {source}".rstrip(": "),
             f"players = {players}"]  # fmt: skip
    if gain is not None:
        lines.append(f"nash_gain = {gain:.6g}")
    lines += ["", "[mixture]"]
    for name, w in zip([n for n, k in zip(names, keep, strict=True) if k], shown, strict=True):
        lines.append(f"{_toml_key(name)} = {w!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read_mixture(path: str | Path) -> dict[str, float]:
    """The [mixture] table of a mixture file."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"mixture file {str(path)!r}: {exc}") from None
    table = data.get("mixture")
    if not isinstance(table, dict) or not table:
        raise UserError(f"mixture file {str(path)!r}: no [mixture] table")
    return {str(k): float(v) for k, v in table.items()}


def _toml_key(text: str) -> str:
    return text if text.replace("_", "").replace("-", "").isalnum() else '"' + text.replace(
        "\\", "\\\\").replace('"', '\\"') + '"'  # fmt: skip


# --- the whole analysis -------------------------------------------------------------------
@dataclass
class Analysis:
    """Every table of a meta-game (see the module's docstring)."""

    meta: MetaGame
    mixture: np.ndarray  # the Nash mixture
    gain: float  # its gain on the played tables (0 at an exact equilibrium)
    tables: dict[str, pd.DataFrame]


def analyse(
    meta: MetaGame, resamples: int = 200, alphas: Sequence[float] = ALPHAS, seed: int = 0
) -> Analysis:
    """The Nash mixture (with its bootstrap spread), the invasion table, the alpha-Rank
    sweep and Nash averaging of a played meta-game."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 0:
        raise UserError(f"bootstrap resamples must be a count, got {resamples!r}")
    if not alphas or any(not a > 0 for a in alphas):
        raise UserError(f"alphas must be positive numbers, got {list(alphas)!r}")
    pop = population(meta)
    x = nash(pop, seed=seed)
    boot = bootstrap_nash(meta, resamples, seed) if resamples else None
    tables = {
        "mixture": mixture_table(meta, x, boot),
        "invasion": invasion(meta),
        "alpha_rank": alpha_sweep(meta, alphas).reset_index(),
        "nash_averaging": nash_averaging(meta),
    }
    return Analysis(meta, x, pop.gain(x), tables)


def markdown(an: Analysis) -> str:
    """The analysis as Markdown: the mixture first, then the invasion matrix (share of one
    invader among residents, * where its interval is above the fair share), alpha-Rank
    and Nash averaging."""
    meta, p = an.meta, an.meta.players
    out = [f"### {p} players: {meta.k} strategies, {len(meta.counts)} compositions x "
           f"{meta.games:,} games\n"]  # fmt: skip
    mix = an.tables["mixture"]
    support = ", ".join(f"`{s}` {w:.3f}" for s, w in zip(mix["strategy"], mix["weight"],
                                                         strict=True) if w > 1e-6)  # fmt: skip
    out.append(f"**Nash mixture**: {support} (gain on the played tables {an.gain:.1e}).\n")
    cols = ["strategy", "weight", "fitness", "vs_mixture"]
    if "boot_lo" in mix:
        cols += ["boot_lo", "boot_hi", "in_support"]
    out.append(_md(mix[cols], {"weight": 3, "fitness": 3, "vs_mixture": 3, "boot_lo": 3,
                               "boot_hi": 3, "in_support": 2}))  # fmt: skip
    out.append("\n**Invasion matrix**: the win share of one invader (row) among "
               f"{p - 1} residents (column); fair {1 / p:.3f}; * its 95 % interval is above "
               "fair.\n")  # fmt: skip
    inv = an.tables["invasion"]
    grid = inv.pivot(index="invader", columns="resident", values="share")
    mark = inv.pivot(index="invader", columns="resident", values="invades")
    grid = grid.loc[meta.names, meta.names]
    cells = grid.map(lambda v: f"{v:.3f}").where(~mark.loc[meta.names, meta.names],
                                                 grid.map(lambda v: f"{v:.3f}*"))  # fmt: skip
    cells.index.name = "invader \\ resident"
    out.append(_md(cells.reset_index(), {}))
    out.append("\n**alpha-Rank** (stationary mass of each strategy; population 50):\n")
    out.append(_md(an.tables["alpha_rank"], dict.fromkeys(meta.names, 3)))
    out.append("\n**Nash averaging** of the invasion game (skill: mean share gained over "
               "its maximum-entropy Nash):\n")  # fmt: skip
    out.append(_md(an.tables["nash_averaging"], {"nash_weight": 3, "skill": 3}))
    return "\n".join(out) + "\n"


def _number(v: Any, digits: int) -> str:
    if isinstance(v, float | np.floating):
        return "–" if np.isnan(v) else f"{v:.{digits}f}"
    return str(v)


def _md(df: pd.DataFrame, digits: dict[str, int]) -> str:
    """A DataFrame as a Markdown table (`tables.markdown_table`), the columns named in
    `digits` rounded to that many decimals (nan as a dash), strategies in code spans."""
    shown = df.copy()
    for c in shown.columns:
        if c in digits:
            shown[c] = [_number(v, digits[c]) for v in shown[c]]
        elif c in ("strategy", "invader \\ resident"):
            shown[c] = [f"`{v}`" for v in shown[c]]
    return tables.markdown_table(shown)
