"""What strong play does: the search gap and where its points come from (statues, pawns,
wood), for the field study (`[field.strong_play]`, moaisim.studies.field).

- **The search gap**: one `search` seat (L4, its rollouts and opponent model the level
  below, `search`'s `auto`) against P - 1 seats of L3 (the shipped Nash mixture), seats
  rotated: its win share minus the fair 1/P, with its Wilson interval. A field close to
  search has a small gap.
- **Statues**: in the same games (the search seat and the L3 seats apart) and in L3's
  self-play under the base components and each alternative component file: the share of the
  score that comes from statues (R8.2: the Moai heights, times the `moai_points`
  parameter), from surviving pawns and from wood; the Moai carved per seat and game, the
  share of seats that finish at least one, and the round in which a seat's first statue is
  finished (the per-round table).

Every game is kept in the run directory as Parquet (one file per table), so a stopped study
plays only what is missing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from moaisim.analysis.stats import wilson
from moaisim.analysis.tables import win_shares
from moaisim.files import write_atomic
from moaisim.games import load_game
from moaisim.registry import level_spec, load_strategy


def _play(players: int, lineup: list[str], games: np.ndarray, seed: int, components: str | None,
          seat_name: dict[int, str], game: str
          ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """One batch: its results (`who` names each seat's role) and its per-round table."""
    the_game = load_game(game)
    rules = the_game.make_rules(players, components=components)
    specs = [load_strategy(s, game) for s in lineup]
    names = [s.label for s in specs]
    g = the_game.Games.new(rules, seed, games, rounds=True).play([s() for s in specs], names=names)
    res = g.results()
    res["who"] = res["seat"].map(lambda s: seat_name.get(int(s), "L3"))
    return res, g.round_table()


def search_games(players: int, games: int, seed: int, search: str = "search",
                 n_jobs: int = 1, *, game: str
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """`games` games per seat rotation: `search` in seat s, L3 in the others; the results
    (column `who`: "L4" for the search seat) and the per-round table, rotation by rotation."""
    l3 = level_spec("L3", players, game)
    tasks = []
    for s in range(players):
        lineup = [search if q == s else l3 for q in range(players)]
        for start in range(0, games, 25):  # small batches: search is slow, spread them
            idx = np.arange(start, min(games, start + 25))
            tasks.append((lineup, idx, {s: "L4"}, s))
    parts = Parallel(n_jobs=n_jobs)(delayed(_play)(players, lineup, idx, seed, None, who, game)
                                    for lineup, idx, who, _ in tasks)  # fmt: skip
    return _joined(parts, [t[3] for t in tasks])


def self_play(players: int, games: int, seed: int, components: str | None = None,
              n_jobs: int = 1, *, game: str
              ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """L3 in every seat, `games` games (under a component file when given)."""
    l3 = level_spec("L3", players, game)
    chunks = [np.arange(a, min(games, a + 5_000)) for a in range(0, games, 5_000)]
    parts = Parallel(n_jobs=min(n_jobs, len(chunks)))(
        delayed(_play)(players, [l3] * players, idx, seed, components, {}, game) for idx in chunks
    )
    return _joined(parts, [0] * len(chunks))


def _joined(parts: list[tuple[pd.DataFrame, pd.DataFrame]], rotations: list[int]
            ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    results, rounds = [], []
    for (res, rnd), rot in zip(parts, rotations, strict=True):
        res.insert(0, "rotation", np.int8(rot))
        rnd.insert(0, "rotation", np.int8(rot))
        results.append(res)
        rounds.append(rnd)
    return pd.concat(results, ignore_index=True), pd.concat(rounds, ignore_index=True)


def gap(results: pd.DataFrame) -> dict[str, float]:
    """The search seat's win share (a k-way shared win counts 1/k) minus the fair 1/P, with
    its Wilson interval, over the games of `search_games`."""
    players = int(results["players"].iloc[0])
    shares = win_shares(results, ("rotation", "game")).to_numpy()
    mine = shares[results["who"].to_numpy() == "L4"]
    n = len(mine)
    lo, hi = wilson(mine.sum(), n)
    fair = 1.0 / players
    return {"players": players, "games": n, "win_share": float(mine.mean()),
            "gap": float(mine.mean()) - fair, "gap_lo": float(lo) - fair,
            "gap_hi": float(hi) - fair}  # fmt: skip


def parts_table(results: pd.DataFrame, rounds: pd.DataFrame, by: Sequence[str] = ("who",),
                *, game: str) -> pd.DataFrame:  # fmt: skip
    """Per group (`by`): seats, mean score, the shares of the score from each of its parts
    (the game's `SCORE_PARTS`, of the group's total points), the headline part's pieces per
    seat and game (`headline_count`: Moai for Moai), the share of seats with at least one,
    and the mean round of a seat's first (among seats that finish one)."""
    spec = load_game(game)
    words, names = spec.INFO.vocabulary, tuple(spec.INFO.score_parts)
    count = words["headline_count"]
    pts = spec.MEASURES.score_parts(results)
    df = results.assign(**{f"_{k}": pts[k].to_numpy() for k in names})
    first = (rounds[rounds[count] > 0].groupby(["rotation", "game", "seat"])["round"]
             .min().rename("_first"))  # fmt: skip
    df = df.join(first, on=["rotation", "game", "seat"])
    rows = []
    for key, part in df.groupby(list(by), observed=True):
        sums = {k: part[f"_{k}"].sum() for k in names}
        total = sum(sums.values())
        rows.append({
            **dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True)),
            "seats": len(part), "score": part["score"].mean(),
            **{f"from_{k}": sums[k] / total for k in names},
            words["pieces_per_seat"]: part[count].mean(),
            "carves": (part[count] > 0).mean(),
            words["first_piece_round"]: part["_first"].mean(),
        })  # fmt: skip
    return pd.DataFrame(rows)


def kept(path: Path, key: dict[str, Any], make: Callable[[], tuple[pd.DataFrame, pd.DataFrame]]
         ) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """The two tables saved at `path` (results.parquet, rounds.parquet) by the same settings
    (`key`, saved beside them as key.json), or made and saved (replacing other settings')."""
    a, b, k = path / "results.parquet", path / "rounds.parquet", path / "key.json"
    wanted = json.dumps(key, sort_keys=True)
    if a.exists() and b.exists() and k.exists() and k.read_text(encoding="utf-8") == wanted:
        return pd.read_parquet(a), pd.read_parquet(b)
    res, rnd = make()
    path.mkdir(parents=True, exist_ok=True)
    for df, p in ((res, a), (rnd, b)):
        tmp = p.with_name(f".{p.name}.tmp")
        df.to_parquet(tmp)
        tmp.replace(p)
    write_atomic(k, wanted.encode(), "key")
    return res, rnd
