"""The balance sheet's measures: what a publisher asks of a game at one player count, each
with its interval, from games already played (`moaisim.studies.sheet` plays them).

- **Seat fairness** (`seat_fairness`): each seat's win share against the fair share 1/P
  (Wilson intervals), a chi-square test of equal seats, and the root mean square of the
  seats' gaps from fair in points, with a bootstrap interval over games.
- **Skill** (`skill_matrix`, `better_wins`): each level of play as one seat against copies
  of each other level; does the better level win more than its share, and by how much.
- **Luck** (`luck`): the same deals replayed with the strategies' own random draws renewed:
  how often the same seat wins, against the rate two independent games would agree, and the
  share of the variance of a seat's win share that the deal carries (the intraclass
  correlation of a one-way random-effects model, deals as groups: 1 for a game the deal
  decides, 0 for one it does not touch).
- **Decisiveness** (`decisiveness`): how often the sole leader after round k wins, and how
  often the lead changes; **length** (`length`): rounds per game.
- **Where the points come from** (`score_sources`): the shares of the score from statues
  (Moai height, at the `moai_points` parameter's points per metre), living pawns and wood
  (R8.2), for every seat and for the winners.
- **A set-up beside another** (`compare`): the headline measures of two set-ups' games on
  the same deals, and the paired difference of each with its 95 % interval.
- **Strategic diversity** (`diversity`): the Nash mixture's support and effective number of
  strategies (the exponential of its entropy, a Hill number of order 1) and the alpha-Rank
  leaders, read from a field study's report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from moaisim.analysis import stats
from moaisim.analysis.source import spec_of_table

#: Bootstrap resamples of the sheet's intervals that have no closed form.
BOOTSTRAP = 1000


def seat_fairness(shares: np.ndarray, seed: int = 0) -> tuple[pd.DataFrame, dict[str, float]]:
    """Per seat of games [G, P] of win shares (a k-way shared win 1/k each): the win share
    with its Wilson interval and its gap from fair; and overall the chi-square p of equal
    seats and the root mean square gap in points with its bootstrap 95 % interval."""
    shares = np.asarray(shares, dtype=float)
    g, p = shares.shape
    won = shares.sum(axis=0)
    rows = []
    for s in range(p):
        lo, hi = stats.wilson(float(won[s]), g)
        rows.append({"seat": s, "games": g, "win_share": won[s] / g, "lo": lo, "hi": hi,
                     "fair": 1 / p, "vs_fair": won[s] / g - 1 / p})  # fmt: skip
    chi = scipy_stats.chisquare(won) if g else None
    rng = np.random.default_rng([seed, 1])
    picks = rng.integers(0, g, size=(BOOTSTRAP, g))
    boot = np.sqrt(((shares[picks].mean(axis=1) - 1 / p) ** 2).mean(axis=1))
    rms = float(np.sqrt(((won / g - 1 / p) ** 2).mean()))
    lo, hi = np.quantile(boot, [0.025, 0.975])
    return pd.DataFrame(rows), {
        "rms": rms, "rms_lo": float(lo), "rms_hi": float(hi),
        "p_equal": float(chi.pvalue) if chi is not None else float("nan"), "games": g,
    }  # fmt: skip


def luck(shares: np.ndarray, seed: int = 0) -> dict[str, float]:
    """Luck from replays: `shares` [D, K, P] is the win share of each seat in replay k of
    deal d (the same deal, the strategies' own draws renewed). Returns

    - `same_winner`: the chance that two replays of a deal have the same winner (a shared
      win split: the sum over seats of the product of their shares), and `independent`,
      what two games of different deals give (the sum of the squared mean shares);
    - `deal_share`: the share of the variance of a seat's win share carried by the deal,
      the seats pooled: sigma_b^2 / (sigma_b^2 + sigma_w^2) with the one-way ANOVA
      estimates sigma_w^2 = MSW and sigma_b^2 = (MSB - MSW) / K (0 when negative);
    - bootstrap 95 % intervals over deals (`*_lo`, `*_hi`)."""
    y = np.asarray(shares, dtype=float)
    d, k, _ = y.shape
    if d < 2 or k < 2:
        raise ValueError("luck needs at least two deals and two replays of each")
    same, independent, deal = luck_measures(y)
    rng = np.random.default_rng([seed, 2])
    boot = np.array([luck_measures(y[rng.integers(0, d, d)]) for _ in range(BOOTSTRAP // 5)])
    lo, hi = np.array([percentile_interval(b) for b in boot.T]).T
    return {
        "deals": d, "replays": k, "same_winner": same, "same_winner_lo": lo[0],
        "same_winner_hi": hi[0], "independent": independent, "deal_share": deal,
        "deal_share_lo": lo[2], "deal_share_hi": hi[2],
    }  # fmt: skip


#: The ends of a 95 % percentile interval, as `scipy.stats.bootstrap` computes them.
SCIPY_ENDS = ((1 - 0.95) / 2, 1 - (1 - 0.95) / 2)


def percentile_interval(boot: np.ndarray, quantile: Callable[..., np.ndarray] = np.quantile,
                        ends: tuple[float, float] = (0.025, 0.975)
                        ) -> tuple[float, float]:  # fmt: skip
    """The 95 % percentile interval of bootstrap values (`quantile` at `ends`), over those
    that could be computed (a resample of deals whose replays never differ has no share of
    variance: nan); nan and nan when none could (too few games to say), instead of numpy's
    or scipy's warning."""
    finite = boot[np.isfinite(boot)]
    if not len(finite):
        return float("nan"), float("nan")
    lo, hi = quantile(finite, np.array(ends))
    return float(lo), float(hi)


def luck_measures(y: np.ndarray) -> tuple[float, float, float]:
    """`luck`'s three point estimates of replays y [D, K, P]: the same winner on two
    replays, two unrelated games' agreement and the deal's share of the variance."""
    d, k, _ = y.shape
    pairs = np.einsum("dks,dls->dkl", y, y)
    off = (pairs.sum(axis=(1, 2)) - np.trace(pairs, axis1=1, axis2=2)) / (k * (k - 1))
    same = float(off.mean())
    independent = float((y.mean(axis=(0, 1)) ** 2).sum())
    group = y.mean(axis=1)  # [D, P]
    msw = ((y - group[:, None, :]) ** 2).sum(axis=(0, 1)) / (d * (k - 1))
    msb = k * ((group - group.mean(axis=0)) ** 2).sum(axis=0) / (d - 1)
    between = np.maximum((msb - msw) / k, 0.0)
    total = (between + msw).sum()
    return same, independent, float(between.sum() / total) if total > 0 else float("nan")


def skill_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """The skill matrix from versus rows (`studies.versus.summarise`: a `candidate` and a
    `field` level per row): the candidate level's gain over fair as one seat against copies
    of the field level, with its interval, one row per pair."""
    cand = table[table["side"] == "candidate"]
    return cand[["candidate", "field", "games", "win_share", "lo", "hi", "vs_fair",
                 "vs_fair_lo", "vs_fair_hi"]].reset_index(drop=True)  # fmt: skip


def better_wins(matrix: pd.DataFrame, order: Sequence[str]) -> dict[str, float]:
    """Does the better level win? Over the pairs of distinct levels (`order` weakest first):
    how many times the better one, as one seat against the weaker's copies, wins more than
    its fair share with its interval's lower end above it, and the weaker one, against the
    better's copies, less with the upper end below it; the smallest and largest such gains."""
    rank = {x: k for k, x in enumerate(order)}
    up = matrix[matrix["candidate"].map(rank) > matrix["field"].map(rank)]
    down = matrix[matrix["candidate"].map(rank) < matrix["field"].map(rank)]
    return {
        "pairs_up": len(up), "better_wins": int((up["vs_fair_lo"] > 0).sum()),
        "pairs_down": len(down), "weaker_loses": int((down["vs_fair_hi"] < 0).sum()),
        "gain_min": float(up["vs_fair"].min()) if len(up) else float("nan"),
        "gain_max": float(up["vs_fair"].max()) if len(up) else float("nan"),
    }  # fmt: skip


def decisiveness(rounds: pd.DataFrame, results: pd.DataFrame) -> pd.DataFrame:
    """Per round k but the last: in how many games a sole leader after round k (the
    per-round table's score, R8.2, strictly highest) went on to win (shared wins split), with
    its Wilson interval; `games` counts the games with a sole leader then."""
    final = results.pivot_table(index="game", columns="seat", values="win_share")
    rows = []
    for k, part in rounds.groupby("round"):
        score = part.pivot_table(index="game", columns="seat", values="score")
        top = score.max(axis=1)
        sole = (score.eq(top, axis=0)).sum(axis=1) == 1
        leader = score[sole].idxmax(axis=1)
        if not len(leader):
            continue
        won = final.loc[leader.index].to_numpy()[np.arange(len(leader)), leader.to_numpy()]
        n, x = len(won), float(won.sum())
        lo, hi = stats.wilson(x, n)
        rows.append({"round": int(k), "games": n, "leader_wins": x / n, "lo": lo, "hi": hi})
    out = pd.DataFrame(rows)
    last = int(results["rounds"].min())
    return out[out["round"] < last].reset_index(drop=True)


def sole_leaders(rounds: pd.DataFrame) -> pd.DataFrame:
    """The sole leader after each round of each game (the per-round table's score, R8.2,
    strictly highest; -1 when the lead is tied): columns game, round, leader."""
    score = rounds.pivot(index=["game", "round"], columns="seat", values="score")
    arr = score.to_numpy()
    sole = (arr == arr.max(axis=1, keepdims=True)).sum(axis=1) == 1
    index = score.index.to_frame(index=False)
    return index.assign(leader=np.where(sole, arr.argmax(axis=1), -1))


def lead_changes_per_game(rounds: pd.DataFrame) -> pd.Series:
    """Changes of the sole leader between rounds, per game (index: game); a round with a
    tied lead keeps the last sole leader."""
    lead = sole_leaders(rounds)
    sole = lead[lead["leader"] >= 0].sort_values(["game", "round"])
    same_game = sole["game"].eq(sole["game"].shift())
    changed = same_game & sole["leader"].ne(sole["leader"].shift())
    games = np.sort(lead["game"].unique())
    return changed.groupby(sole["game"]).sum().reindex(games, fill_value=0).astype(float)


def lead_changes(rounds: pd.DataFrame) -> tuple[float, float, float]:
    """Mean changes of the sole leader between rounds per game, with its t interval (a
    round with a tied lead keeps the last sole leader)."""
    x = lead_changes_per_game(rounds).to_numpy()
    mean, _, lo, hi = stats.mean_interval(len(x), x.sum(), (x**2).sum())
    return float(mean), float(lo), float(hi)


def length(results: pd.DataFrame) -> dict[str, float]:
    """Rounds per game: mean with its t interval, and the shortest and longest."""
    r = results.groupby("game")["rounds"].first().to_numpy(dtype=float)
    mean, _, lo, hi = stats.mean_interval(len(r), r.sum(), (r**2).sum())
    return {"mean": float(mean), "lo": float(lo), "hi": float(hi), "min": float(r.min()),
            "max": float(r.max())}  # fmt: skip


def score_sources(results: pd.DataFrame) -> pd.DataFrame:
    """The shares of the score from each of its parts (the game's `SCORE_PARTS`: for Moai
    statues, living pawns and wood), over all seats and over the winners (seats with a share
    of the win, weighted by it)."""
    spec = spec_of_table(results)
    names = tuple(spec.INFO.score_parts)
    parts = spec.MEASURES.score_parts(results).assign(score=results["score"])
    rows = []
    for who, w in (("every seat", np.ones(len(results))), ("winners", results["win_share"])):
        total = float((parts["score"] * w).sum())
        row: dict[str, object] = {"who": who, "mean_score": total / float(w.sum())}
        for k in names:
            row[f"from_{k}"] = float((parts[k] * w).sum()) / total if total else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def diversity(mixture: pd.DataFrame, alpha_rank: pd.DataFrame | None) -> dict[str, object]:
    """From a field study's Nash mixture (strategy, weight) and alpha-Rank table (one row per
    alpha): the mixture's support, its effective number of strategies exp(-sum w ln w), and
    the alpha-Rank leader at the largest alpha with its mass."""
    w = mixture.set_index("strategy")["weight"].astype(float)
    w = w[w > 0] / w[w > 0].sum()
    out: dict[str, object] = {
        "support": ", ".join(f"{s} {x:.2f}" for s, x in w.sort_values(ascending=False).items()),
        "support_size": len(w),
        "effective": float(np.exp(-(w * np.log(w)).sum())),
    }
    if alpha_rank is not None and len(alpha_rank):
        row = alpha_rank.sort_values("alpha").iloc[-1].drop("alpha").astype(float)
        out["alpha"] = float(alpha_rank["alpha"].max())
        out["alpha_leader"] = str(row.idxmax())
        out["alpha_mass"] = float(row.max())
    return out


# --- a set-up beside another on the same deals ---------------------------------------------------

#: The round after which the headline asks whether the sole leader goes on to win.
LEADER_ROUND = 3


def per_game(results: pd.DataFrame, rounds: pd.DataFrame) -> dict[str, np.ndarray]:
    """L3 self-play game by game, in game order (two set-ups' games of one root seed pair
    up by index: the same deals): `game`, the seats' win shares [G, P], rounds, the points
    from each part of the score (`score_parts` names them) and the score summed over the
    seats, whether a sole leader
    stood after round `LEADER_ROUND` and the share of the win that leader took, and the
    lead changes."""
    r = results.sort_values(["game", "seat"])
    p = int(r["seat"].nunique())
    games = r["game"].to_numpy()[::p]

    def summed(x: pd.Series | np.ndarray) -> np.ndarray:
        return np.asarray(x, dtype=float).reshape(-1, p).sum(axis=1)

    shares = r["win_share"].to_numpy(dtype=float).reshape(-1, p)
    spec = spec_of_table(r)
    parts = spec.MEASURES.score_parts(r)
    score = summed(r["score"])
    lead = sole_leaders(rounds)
    at = lead[lead["round"] == LEADER_ROUND].set_index("game")["leader"]
    leader = at.reindex(games, fill_value=-1).to_numpy()
    has = leader >= 0
    won = np.where(has, shares[np.arange(len(games)), np.maximum(leader, 0)], 0.0)
    return {
        "game": games, "shares": shares, "seat0": shares[:, 0],
        "rounds": r["rounds"].to_numpy(dtype=float)[::p],
        **{k: summed(parts[k]) for k in spec.INFO.score_parts},
        "score_parts": np.array(spec.INFO.score_parts), "score": score,
        "has_leader": has.astype(float),
        "leader_won": won, "changes": lead_changes_per_game(rounds).reindex(games).to_numpy(),
    }  # fmt: skip


def _spread(d: dict[str, np.ndarray], i: np.ndarray) -> float:
    """The root mean square of the seats' gaps from the fair share 1/P."""
    won = d["shares"][i].mean(axis=0)
    return float(np.sqrt(((won - 1 / len(won)) ** 2).mean()))


def _ratio(top: str, bottom: str) -> Callable[[dict[str, np.ndarray], np.ndarray], float]:
    """The ratio of two per-game sums (a share of the points, the leader's wins)."""

    def value(d: dict[str, np.ndarray], i: np.ndarray) -> float:
        below = float(d[bottom][i].sum())
        return float(d[top][i].sum()) / below if below else float("nan")

    return value


def _mean(column: str) -> Callable[[dict[str, np.ndarray], np.ndarray], float]:
    def value(d: dict[str, np.ndarray], i: np.ndarray) -> float:
        return float(d[column][i].mean())

    return value


@dataclass(frozen=True)
class Compared:
    """A headline measure two set-ups are compared by: its name, its unit ('share' or a
    count), its value on the games (or deals) picked, and the per-game column whose mean it
    is (a paired t interval) or None (a paired bootstrap). Units: 'share' (a share of games
    or points), 'points' (a gap between shares, in points of share) or a count."""

    key: str
    label: str
    unit: str
    value: Callable[[dict[str, np.ndarray], np.ndarray], float]
    column: str | None = None


#: Seat 0's win share where no game names it (`compared_games`).
SEAT_SHARE = "seat 0's win share"


def compared_games(parts: Sequence[str], seat: str = SEAT_SHARE) -> tuple[Compared, ...]:
    """The self-play measures of a comparison sheet (`parts`: the score's, `SCORE_PARTS`;
    `seat`: seat 0's win share in the game's words, "the first bird-man's win share")."""
    return (Compared("seat0", seat, "share", _mean("seat0"), "seat0"), *_COMPARED,
            *(Compared(f"from_{k}", f"share of the points from {k}", "share",
                                   _ratio(k, "score")) for k in parts))  # fmt: skip


#: The self-play measures of a comparison sheet besides seat 0's win share and the shares of
#: the score's parts.
_COMPARED = (
    Compared("spread", "the seats' spread from fair (root mean square, points)", "points",
             _spread),
    Compared("length", "rounds per game", "rounds", _mean("rounds"), "rounds"),
    Compared("lead_changes", "lead changes per game", "changes", _mean("changes"), "changes"),
    Compared("leader_wins", f"the sole leader after round {LEADER_ROUND} wins", "share",
             _ratio("leader_won", "has_leader")),
)  # fmt: skip


def _luck_value(which: int) -> Callable[[dict[str, np.ndarray], np.ndarray], float]:
    def value(d: dict[str, np.ndarray], i: np.ndarray) -> float:
        return luck_measures(d["y"][i])[which]

    return value


def compared_luck(level: str) -> tuple[Compared, ...]:
    """The luck measures of a comparison sheet in a level's self-play (over deals)."""
    return (
        Compared(f"same_winner_{level}", f"the same winner on a replay ({level})", "share",
                 _luck_value(0)),
        Compared(f"deal_share_{level}", f"the deal's share of the variation ({level})", "share",
                 _luck_value(2)),
    )  # fmt: skip


def paired_difference(
    a: dict[str, np.ndarray], b: dict[str, np.ndarray], m: Compared, seed: int = 0
) -> dict[str, float]:
    """Measure `m` of set-up a and of set-up b on the same games (or deals), and a minus
    b with its 95 % interval: a paired t interval of the per-game differences for a mean
    (`stats.paired_test`), else the percentile interval of a bootstrap over the pairs (one
    resample picks the same games of both; scipy's resamples and quantiles, over the
    resamples where the measure can be computed). A measure that cannot be computed in
    either set-up (nan: too few games to say) has no difference and no interval (nan)."""
    n = len(next(iter(a.values())))
    every = np.arange(n)
    va, vb = m.value(a, every), m.value(b, every)
    if m.column is not None:
        d = a[m.column] - b[m.column]
        diff, lo, hi, _ = stats.paired_test(n, d.sum(), (d**2).sum())
    elif not (np.isfinite(va) and np.isfinite(vb)):
        diff = lo = hi = float("nan")
    else:  # the resamples of `scipy.stats.bootstrap(method="percentile")`, drawn alike
        rng = np.random.default_rng([seed, 3, sum(map(ord, m.key))])
        picks = rng.integers(0, n, (BOOTSTRAP, n))
        boot = np.array([m.value(a, i) - m.value(b, i) for i in picks])
        diff = va - vb
        lo, hi = percentile_interval(boot, scipy_stats.quantile, SCIPY_ENDS)
    return {"setup": va, "against": vb, "diff": float(diff), "lo": float(lo), "hi": float(hi),
            "n": n}  # fmt: skip


def compare(
    games: tuple[dict[str, np.ndarray], dict[str, np.ndarray]],
    luck: dict[str, tuple[np.ndarray, np.ndarray]],
    seed: int = 0,
    seat: str = SEAT_SHARE,
) -> pd.DataFrame:
    """A set-up beside another on the same deals: per headline measure (`compared_games`
    over the pair's self-play games `per_game`, `compared_luck` over each level's replays
    [D, K, P]) its value in each and the paired difference with its 95 % interval. `seat`
    names seat 0's win share in the game's words."""
    a, b = games
    if not np.array_equal(a["game"], b["game"]):
        raise ValueError("the two set-ups' games are not the same deals")
    rows = [{"key": m.key, "measure": m.label, "unit": m.unit, "over": "games",
             "method": "paired t" if m.column else "paired bootstrap",
             **paired_difference(a, b, m, seed)}
            for m in compared_games([str(k) for k in a["score_parts"]], seat)]  # fmt: skip
    for level, (ya, yb) in luck.items():
        for m in compared_luck(level):
            rows.append({"key": m.key, "measure": m.label, "unit": m.unit, "over": "deals",
                         "method": "paired bootstrap",
                         **paired_difference({"y": ya}, {"y": yb}, m, seed)})  # fmt: skip
    return pd.DataFrame(rows)


# --- under search play: L4 self-play, the check field --------------------------------------------


def holds_under_search(lo: float, hi: float) -> str:
    """Whether an L3 self-play value holds under search play, from the paired difference
    L4 - L3 on the same deals (its 95 % interval): "yes" when the interval holds 0, else
    "no" (search play moves it)."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "not measured"
    return "yes" if lo <= 0 <= hi else "no"


def effect_holds(l3: tuple[float, float], l4: tuple[float, float]) -> str:
    """Whether a set-up's effect seen in L3 self-play holds in L4 self-play, from the two
    paired differences' 95 % intervals (set-up minus the other, each on its own deals):
    "holds" when both leave 0 out on the same side, "reversed" on opposite sides, "not
    shown under search" when only L3's leaves it out (search plays fewer games), "only
    under search" when only L4's does, "no effect in either" when both hold 0."""

    def side(lo: float, hi: float) -> int:
        return 1 if lo > 0 else -1 if hi < 0 else 0

    if not all(np.isfinite(x) for x in (*l3, *l4)):
        return "not measured"
    a, b = side(*l3), side(*l4)
    if a and b:
        return "holds" if a == b else "reversed"
    if a:
        return "not shown under search"
    return "only under search" if b else "no effect in either"
