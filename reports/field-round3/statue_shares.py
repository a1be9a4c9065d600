"""Statue shares per level: the share of the points from statues and how often a seat carves
one, in each level's self-play (L0-L3) and for the L4 seat of the round's field study's
games of one L4 seat against L3 (reports/field-seed2044, "search gap"; its games are kept in
`l4/l4-against-l3-<P>p.parquet`), at 2-5 players. Each share with a 95 % bootstrap interval
over games (scipy), so two levels can be told apart.

    .venv/bin/python reports/field-round3/statue_shares.py [--games 2000] [--seed 4490]

Writes statue_shares.csv beside this file and prints the table as Markdown.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import moaisim

HERE = Path(__file__).resolve().parent
LEVELS = ("L0", "L1", "L2", "L3")


def shares(games: pd.DataFrame, seed: int) -> dict[str, float]:
    """The share of the given seats' points from statues and the share of them that carve,
    with percentile bootstrap intervals over games."""
    g = games.groupby(["rotation", "game"]).agg(
        statues=("moai_height", "sum"), score=("score", "sum"),
        carved=("moai_height", lambda h: float((h > 0).sum())), seats=("seat", "size"),
    )  # fmt: skip
    arrays = tuple(g[c].to_numpy(dtype=float) for c in ("statues", "score", "carved", "seats"))
    rng = np.random.default_rng(seed)
    out: dict[str, float] = {"games": len(g)}
    for key, (top, bottom) in {"from_statues": (0, 1), "carves": (2, 3)}.items():

        def ratio(*cols: np.ndarray, axis: int = -1, t: int = top, b: int = bottom) -> np.ndarray:
            return cols[t].sum(axis=axis) / cols[b].sum(axis=axis)

        ci = stats.bootstrap(arrays, ratio, paired=True, vectorized=True, n_resamples=2000,
                             method="percentile", rng=rng).confidence_interval  # fmt: skip
        out[key] = float(ratio(*arrays))
        out[f"{key}_lo"], out[f"{key}_hi"] = float(ci.low), float(ci.high)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=4490)
    a = ap.parse_args()
    rows = []
    for p in (2, 3, 4, 5):
        for level in LEVELS:
            t = moaisim.simulate(p, a.games, strategies=level, seed=a.seed)
            rows.append({"players": p, "level": level, "games_of": "self-play",
                         **shares(t, a.seed + p)})  # fmt: skip
        l4 = pd.read_parquet(HERE / "l4" / f"l4-against-l3-{p}p.parquet")
        l4 = l4[l4["strategy"] == "search"]
        rows.append({"players": p, "level": "L4", "games_of": "one seat against L3",
                     **shares(l4, a.seed + 10 + p)})  # fmt: skip
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "statue_shares.csv", index=False)

    def show(r: pd.Series, key: str) -> str:
        return f"{100 * r[key]:.0f} % [{100 * r[f'{key}_lo']:.0f}, {100 * r[f'{key}_hi']:.0f}]"

    print("| players | level | games | points from statues | seats that carve |")
    print("| ---: | --- | --- | --- | --- |")
    for _, r in table.iterrows():
        print(
            f"| {r['players']} | {r['level']} | {int(r['games']):,} ({r['games_of']}) | "
            f"{show(r, 'from_statues')} | {show(r, 'carves')} |"
        )


if __name__ == "__main__":
    main()
