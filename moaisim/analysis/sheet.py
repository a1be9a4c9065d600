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
- **Strategic diversity** (`diversity`): the Nash mixture's support and effective number of
  strategies (the exponential of its entropy, a Hill number of order 1) and the alpha-Rank
  leaders, read from a field study's report.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from moaisim.analysis import stats
from moaisim.engine.results import statue_points

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

    def measures(y: np.ndarray) -> tuple[float, float, float]:
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

    same, independent, deal = measures(y)
    rng = np.random.default_rng([seed, 2])
    boot = np.array([measures(y[rng.integers(0, d, d)]) for _ in range(BOOTSTRAP // 5)])
    lo, hi = np.nanquantile(boot, [0.025, 0.975], axis=0)
    return {
        "deals": d, "replays": k, "same_winner": same, "same_winner_lo": lo[0],
        "same_winner_hi": hi[0], "independent": independent, "deal_share": deal,
        "deal_share_lo": lo[2], "deal_share_hi": hi[2],
    }  # fmt: skip


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


def lead_changes(rounds: pd.DataFrame) -> tuple[float, float, float]:
    """Mean changes of the sole leader between rounds per game, with its t interval (a
    round with a tied lead keeps the last sole leader)."""
    per_game = []
    for _, part in rounds.groupby("game"):
        score = part.pivot_table(index="round", columns="seat", values="score").to_numpy()
        top = score.max(axis=1, keepdims=True)
        sole = (score == top).sum(axis=1) == 1
        leaders = score.argmax(axis=1)[sole]
        per_game.append(int((leaders[1:] != leaders[:-1]).sum()))
    x = np.asarray(per_game, dtype=float)
    mean, _, lo, hi = stats.mean_interval(len(x), x.sum(), (x**2).sum())
    return float(mean), float(lo), float(hi)


def length(results: pd.DataFrame) -> dict[str, float]:
    """Rounds per game: mean with its t interval, and the shortest and longest."""
    r = results.groupby("game")["rounds"].first().to_numpy(dtype=float)
    mean, _, lo, hi = stats.mean_interval(len(r), r.sum(), (r**2).sum())
    return {"mean": float(mean), "lo": float(lo), "hi": float(hi), "min": float(r.min()),
            "max": float(r.max())}  # fmt: skip


def score_sources(results: pd.DataFrame) -> pd.DataFrame:
    """The shares of the score from statues (Moai height times the `moai_points` parameter),
    living pawns and wood, over all seats and over the winners (seats with a share of the
    win, weighted by it)."""
    statues = statue_points(results)
    wood = results["score"] - statues - results["pawns"]
    parts = pd.DataFrame({"statues": statues, "pawns": results["pawns"],
                          "wood": wood, "score": results["score"]})  # fmt: skip
    rows = []
    for who, w in (("every seat", np.ones(len(results))), ("winners", results["win_share"])):
        total = float((parts["score"] * w).sum())
        row: dict[str, object] = {"who": who, "mean_score": total / float(w.sum())}
        for k in ("statues", "pawns", "wood"):
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
