"""The balance tables: pandas DataFrames, each rate with its interval and its n.

Every function takes a run directory, a `Source` or a results DataFrame (from
`moaisim.simulate` or `moaisim.load_results`), reads it block by block (`Source.blocks`) and
sums sufficient statistics, so a run of any size fits in memory; `compute` makes several
tables in one pass over the run (what a report does). Shared wins are split evenly: a k-way
tie for the win counts 1/k of a win for each winner. Intervals are 95 %: Wilson for shares,
t for means; p-values of families of comparisons are Holm-corrected. Each table carries a
sample-size line in `df.attrs["sample_size"]`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import choix
import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from moaisim.analysis import inference, stats, verdicts
from moaisim.analysis.source import Source, spec_of_table
from moaisim.errors import UserError
from moaisim.games import GameSpec


def cell_columns(spec: GameSpec) -> tuple[str, ...]:
    """The columns that describe a cell in every table (the game's rule options among them)."""
    return ("players", "setup", "variant", *spec.OPTIONS, "lineup")


def option_defaults(spec: GameSpec) -> dict[str, str]:
    """Each rule option of the game at its default (the first value)."""
    return {name: values[0] for name, values in spec.OPTIONS.items()}


def result_columns(spec: GameSpec) -> tuple[str, ...]:
    """The results columns the tables read (a run's Parquet parts are read for these only):
    the game's own are those its measures read (`MEASURE_COLUMNS`)."""
    return ("cell", "game", "players", "seat", "strategy", "score", *spec.MEASURES.columns,
            "rank", "win", "rounds")  # fmt: skip


#: The per-round columns game quality reads.
ROUND_COLUMNS = ("cell", "game", "round", "seat", "score")


def _cells(src: Source) -> pd.DataFrame:
    cells = src.cells()
    return cells[["cell", *[c for c in cell_columns(src.spec) if c in cells]]]


def _with_cells(df: pd.DataFrame, src: Source) -> pd.DataFrame:
    out = _cells(src).merge(df, on="cell", how="right")
    return out.sort_values(["cell", *[c for c in df.columns if c != "cell"][:1]]).reset_index(
        drop=True
    )


def win_shares(df: pd.DataFrame, by: Sequence[str] = ("cell", "game")) -> pd.Series:
    """Each seat's share of its game's win: 1/k for each of k tied winners, else 0 (a game
    is the rows with the same `by` values)."""
    winners = df.groupby(list(by), observed=True)["win"].transform("sum")
    return pd.Series(np.where(df["win"], 1.0 / np.maximum(winners, 1), 0.0), index=df.index)


def _sample(
    df: pd.DataFrame, width_cols: tuple[str, str], n_col: str, unit: str = "games"
) -> pd.DataFrame:
    """Attach the table's sample-size line: its widest interval and the n behind it."""
    widths = df[width_cols[1]] - df[width_cols[0]]
    widest = widths.idxmax() if len(df) and widths.notna().any() else None
    width = float(widths[widest]) if widest is not None else np.nan
    n = float(df.loc[widest, n_col]) if widest is not None else 0.0
    df.attrs["sample_size"] = stats.sample_size_line(width, n, unit)
    return df


def _add(total: pd.DataFrame | pd.Series | None, part: Any) -> Any:
    """Running sums of grouped statistics (index-aligned, missing as 0)."""
    return part if total is None else total.add(part, fill_value=0)


#: A block's per-game quality, by cell (`_quality_of_games`), or None when no table of the
#: pass reads it: computed once per block for every table that does.
Quality = list[tuple[int, pd.DataFrame, pd.DataFrame]] | None


class _Table:
    """One table made in a pass over a run: `add` each block (results with each seat's win
    share in `share`; the per-round table when `rounds`; the block's per-game quality when
    `quality`), then `result`."""

    rounds = False
    quality = False

    def __init__(self, src: Source) -> None:
        self.src = src

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        raise NotImplementedError

    def result(self) -> pd.DataFrame:
        raise NotImplementedError


def compute(
    data: Any, *names: str, margins: Mapping[str, float] | None = None
) -> dict[str, pd.DataFrame]:
    """Several tables in one pass over the run (all of them by default): a dict by name
    (`seat_balance`, `seat_imbalance`, `seat_lead`, `strategies`, `head_to_head`, `ratings`,
    `variants`, `game_shape`, `game_quality`). `margins`: the study's equivalence margins
    (`variants`)."""
    src = Source.of(data)
    for name in names:
        if name not in TABLES:
            raise UserError(f"unknown table {name!r} (tables: {', '.join(TABLES)})")
    if not names:  # every table that applies
        names = tuple(
            n
            for n in TABLES
            if (n != "game_quality" or src.has_rounds)
            and (n != "variants" or _baseline_of(src.cells()))
        )
    made = {
        name: TABLES[name](src, margins) if name == "variants" else TABLES[name](src)
        for name in names
    }
    need_rounds = any(t.rounds for t in made.values())
    columns = result_columns(src.spec), ROUND_COLUMNS if need_rounds else None
    found = False
    params: dict[str, pd.Series] | None = None
    for res, table in src.blocks(rounds=need_rounds, columns=columns):
        if res.empty:
            continue
        found = True
        if params is None:
            params = _cell_parameters(src, res)
        res = res.assign(share=win_shares(res), **_mapped(res, params))
        quality = (
            _quality_of_games(table, res)
            if table is not None and not table.empty and any(t.quality for t in made.values())
            else None
        )
        for t in made.values():
            t.add(res, table, quality)
    if not found:
        raise UserError("no games to analyse")
    out = {name: t.result() for name, t in made.items()}
    for df in out.values():  # the game the tables are of (`source.game_of_table`)
        df.attrs["game"] = src.game
    return out


# --- seat balance ------------------------------------------------------------------------------


class _SeatBalance(_Table):
    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.acc: pd.DataFrame | None = None

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        g = res.groupby(["cell", "seat"], observed=True)["share"].agg(["size", "sum"])
        self.acc = _add(self.acc, g.astype(float))

    def result(self) -> pd.DataFrame:
        df = self.acc.reset_index().rename(columns={"size": "games", "sum": "wins"})
        df[["cell", "seat"]] = df[["cell", "seat"]].astype(int)
        df["win_share"] = df["wins"] / df["games"]
        df["lo"], df["hi"] = stats.wilson(df["wins"], df["games"])
        df["fair"] = 1.0 / df.groupby("cell")["seat"].transform("size")
        df["p_equal"] = df.groupby("cell")["wins"].transform(lambda w: stats.equal_shares(w.values))
        # the cells' chi-square tests are one family: Holm over them
        per_cell = df.groupby("cell")["p_equal"].first()
        adjusted = pd.Series(stats.holm(per_cell.to_numpy()), index=per_cell.index)
        df["p_equal_holm"] = df["cell"].map(adjusted)
        return _sample(_with_cells(df, self.src), ("lo", "hi"), "games")


#: Games per cell whose seat shares the imbalance measure keeps (the first ones by index, so
#: paired cells keep the same games); its point estimate and bootstrap use these.
IMBALANCE_GAMES = 50_000
#: Bootstrap resamples of the imbalance intervals.
IMBALANCE_BOOT = 1_000


class _SeatImbalance(_Table):
    """All seats at once: the RMS deviation of the seats' win shares from the fair share."""

    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.parts: dict[int, list[pd.DataFrame]] = {}

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        keep = res[res["game"] < IMBALANCE_GAMES]
        for cell, part in keep.groupby("cell", observed=True):
            wide = part.pivot_table(index="game", columns="seat", values="share", aggfunc="sum")
            self.parts.setdefault(int(cell), []).append(wide)

    def result(self) -> pd.DataFrame:
        wide = {c: pd.concat(p).sort_index() for c, p in self.parts.items()}
        base_of = _baseline_of(self.src.cells())
        rows = []
        for cell, w in sorted(wide.items()):
            x = w.to_numpy(dtype=float)
            fair = 1.0 / x.shape[1]
            rng = np.random.default_rng([cell, 20])
            rms, lo, hi = inference.seat_rms_interval(x, fair, rng, IMBALANCE_BOOT)
            row = {"cell": cell, "games": len(x), "rms": rms, "lo": lo, "hi": hi,
                   "noise_floor": _noise_floor(x)}  # fmt: skip
            if cell in base_of and base_of[cell][0] in wide:
                b = wide[base_of[cell][0]]
                common = w.index.intersection(b.index)
                a_x, b_x = b.loc[common].to_numpy(float), w.loc[common].to_numpy(float)
                d, dlo, dhi = inference.seat_rms_paired(a_x, b_x, fair, rng, IMBALANCE_BOOT)
                row |= {"change": base_of[cell][1], "vs_base": d, "vs_base_lo": dlo,
                        "vs_base_hi": dhi}  # fmt: skip
            rows.append(row)
        df = _with_cells(pd.DataFrame(rows), self.src)
        return _sample(df, ("lo", "hi"), "games")


def _noise_floor(x: np.ndarray) -> float:
    """The RMS deviation that sampling noise alone gives with these games when the seats are
    fair (its expectation: the root mean of each seat share's variance over the games)."""
    g = len(x)
    return float(np.sqrt(np.mean(x.var(axis=0, ddof=1) / g))) if g > 1 else float("nan")


def seat_imbalance(data: Any) -> pd.DataFrame:
    """Per cell, fairness over every seat at once: the RMS deviation of the seats' win shares
    from the fair share 1/players, with a bootstrap interval over games (the first
    `IMBALANCE_GAMES` games of each cell), the noise floor (what fair seats would show with
    that many games), and against the cell's base (same players and lineup) the paired
    difference of the two RMS with its bootstrap interval (`vs_base`)."""
    return compute(data, "seat_imbalance")["seat_imbalance"]


def seat_balance(data: Any) -> pd.DataFrame:
    """Win share of each seat (seat 0 holds the bird-man at the start) in each cell, with its
    Wilson interval, n (games), the fair share 1/players, and the p-value of a chi-square
    test that every seat wins equally often (`p_equal`, one per cell)."""
    return compute(data, "seat_balance")["seat_balance"]


#: The points of a game at which `seat_lead` reads each seat's lead from the per-round table:
#: the end of the round that closes each fifth of the game (the game's own length).
LEAD_STAGES: tuple[int, ...] = (20, 40, 60, 80, 100)


def _leads(frame: pd.DataFrame, keys: list[str], columns: Sequence[str]) -> pd.DataFrame:
    """Each row's lead in `columns`: its value minus the mean of the other seats' values of
    the same game (rows grouped by `keys`)."""
    g = frame.groupby(keys, observed=True)
    seats = g["seat"].transform("size").to_numpy(dtype=float)
    out = {}
    for c in columns:
        x = frame[c].to_numpy(dtype=float)
        total = g[c].transform("sum").to_numpy(dtype=float)
        out[c] = x - (total - x) / np.maximum(seats - 1, 1)
    return pd.DataFrame(out, index=frame.index)


class _SeatLead(_Table):
    """Each seat's lead in points over the mean of the other seats of its game: in the score
    and in each part of it (the game's `SCORE_MEASURES`), and with the per-round table at
    the end of each fifth of the game (`LEAD_STAGES`): where a seat's edge comes from."""

    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.rounds = src.has_rounds
        self.parts = ("score", *src.spec.MEASURES.score)
        self.acc: pd.DataFrame | None = None

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        frame = pd.DataFrame({"cell": res["cell"].to_numpy(), "game": res["game"].to_numpy(),
                              "seat": res["seat"].to_numpy(),
                              "score": res["score"].to_numpy(dtype=float)})  # fmt: skip
        measures = self.src.spec.MEASURES.seat_measures(res)
        for c in self.parts[1:]:
            frame[c] = measures[c].to_numpy(dtype=float)
        lead = _leads(frame, ["cell", "game"], self.parts)
        if table is not None and not table.empty:
            rnd = table[["cell", "game", "round", "seat", "score"]]
            length = rnd.groupby(["cell", "game"], observed=True)["round"].transform("max")
            at = _leads(rnd, ["cell", "game", "round"], ["score"])["score"]
            key = pd.MultiIndex.from_frame(frame[["cell", "game", "seat"]])
            for stage in LEAD_STAGES:
                # the round that closes this share of the game (at least the first)
                mark = np.maximum(np.ceil(length.to_numpy() * stage / 100), 1)
                pick = rnd[rnd["round"].to_numpy() == mark]
                by = pd.Series(
                    at[pick.index].to_numpy(),
                    index=pd.MultiIndex.from_frame(pick[["cell", "game", "seat"]]),
                )
                lead[f"at_{stage}"] = by.reindex(key).to_numpy()
        cols = list(lead.columns)
        sums = lead.assign(cell=frame["cell"], seat=frame["seat"])
        for c in cols:
            sums[c + "2"] = sums[c] ** 2
            sums[c + "_n"] = sums[c].notna().astype(float)
        g = sums.groupby(["cell", "seat"], observed=True)
        agg = g[[*cols, *(c + "2" for c in cols), *(c + "_n" for c in cols)]].sum(min_count=0)
        self.acc = _add(self.acc, agg)

    def result(self) -> pd.DataFrame:
        table = self.acc.reset_index()
        out = table[["cell", "seat"]].astype(int)
        out["games"] = table["score_n"].to_numpy()
        cols = [c for c in table.columns if c.endswith("_n")]
        for c in (c[: -len("_n")] for c in cols):
            n = table[c + "_n"].to_numpy()
            mean, _, lo, hi = stats.mean_interval(n, table[c], table[c + "2"])
            out[c], out[c + "_lo"], out[c + "_hi"] = mean, lo, hi
        return _sample(_with_cells(out, self.src), ("score_lo", "score_hi"), "games")


def seat_lead(data: Any) -> pd.DataFrame:
    """Per cell and seat: the seat's mean lead in points over the mean of its game's other
    seats, in the score and in each score part (columns named as the game's
    `SCORE_MEASURES`), each with its 95 % t interval over games; with the per-round table,
    also its score lead at the end of each fifth of the game (`at_20` ... `at_100`, the
    last the final standing as the per-round table tracks it)."""
    return compute(data, "seat_lead")["seat_lead"]


# --- strategies --------------------------------------------------------------------------------


def seat_parts(spec: GameSpec) -> tuple[str, ...]:
    """The score and the game's per-seat measures (`SEAT_MEASURES`: for Moai its height,
    living pawns and the points from statues and from wood, R8.2), each averaged per
    strategy."""
    return ("score", *spec.MEASURES.seat)


def _cell_parameters(src: Source, res: pd.DataFrame) -> dict[str, pd.Series]:
    """The rule parameters the game's measures read (`MEASURE_PARAMETERS`) that the results
    lack (a run's parts are read without them), by cell, where the cells say."""
    missing = [p for p in src.spec.MEASURES.parameters if p not in res]
    if not missing:
        return {}
    cells = src.cells()
    index = cells["cell"].astype(int)
    return {p: pd.Series(cells[p].to_numpy(), index=index.to_numpy()) for p in missing
            if p in cells}  # fmt: skip


def _mapped(res: pd.DataFrame, params: Mapping[str, pd.Series]) -> dict[str, np.ndarray]:
    """The cells' parameters (`_cell_parameters`) as columns of a block."""
    cells = res["cell"].astype(int)
    return {p: cells.map(by_cell).to_numpy() for p, by_cell in params.items() if p not in res}


class _Strategies(_Table):
    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.acc: pd.DataFrame | None = None
        self.parts = seat_parts(src.spec)

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        frame = pd.DataFrame(
            {
                "cell": res["cell"].to_numpy(),
                "strategy": res["strategy"].astype(str).to_numpy(),
                "share": res["share"].to_numpy(),
                "score": res["score"].to_numpy(dtype=float),
            }
        )
        measures = self.src.spec.MEASURES.seat_measures(res)
        for c in self.parts[1:]:
            frame[c] = measures[c].to_numpy(dtype=float)
        for c in self.parts:
            frame[c + "2"] = frame[c] ** 2
        g = frame.groupby(["cell", "strategy"])
        agg = g.sum()
        agg["n"] = g.size().astype(float)
        # a game's seats are not independent: the sums for standard errors clustered by game
        frame["game"] = res["game"].to_numpy()
        per = frame.groupby(["cell", "strategy", "game"])["share"].agg(["sum", "size"])
        per = per.assign(s2=per["sum"] ** 2, sn=per["sum"] * per["size"], n2=per["size"] ** 2)
        by = per.groupby(level=["cell", "strategy"])
        agg["clusters"] = by.size().astype(float)
        agg[["c_s2", "c_sn", "c_n2"]] = by[["s2", "sn", "n2"]].sum().astype(float)
        self.acc = _add(self.acc, agg)

    def result(self) -> pd.DataFrame:
        table = self.acc.reset_index()
        out = table[["cell", "strategy", "n"]].copy()
        out["cell"] = out["cell"].astype(int)
        cols = ("n", "share", "c_s2", "c_sn", "c_n2", "clusters")
        mean, se = inference.cluster_mean(*(table[c].to_numpy() for c in cols))
        half = np.asarray(
            scipy_stats.t.ppf(0.5 + stats.LEVEL / 2, np.maximum(table["clusters"] - 1, 1)) * se
        )
        players = _cells(self.src).set_index("cell")["players"]
        fair = 1.0 / players.reindex(out["cell"]).to_numpy(dtype=float)
        # self-play: one strategy in every seat wins 1/players by construction (no interval)
        alone = out.groupby("cell")["strategy"].transform("size").to_numpy() == 1
        out["win_share"] = mean
        out["lo"] = np.where(alone, np.nan, mean - half)
        out["hi"] = np.where(alone, np.nan, mean + half)
        out["fair"] = fair
        out["vs_fair"] = np.where(alone, 0.0, mean - fair)
        out["vs_fair_lo"], out["vs_fair_hi"] = out["lo"] - fair, out["hi"] - fair
        out["by_construction"] = alone
        for part in self.parts:
            mean, _, lo, hi = stats.mean_interval(table["n"], table[part], table[part + "2"])
            out[part], out[part + "_lo"], out[part + "_hi"] = mean, lo, hi
        return _sample(_with_cells(out, self.src), ("lo", "hi"), "n", "seats")


def strategies(data: Any) -> pd.DataFrame:
    """Per cell and strategy: n (seats played), win share with its 95 % interval (standard
    errors clustered by game: a strategy's seats in one game are not independent; none in
    self-play, where the share is 1/players by construction: `by_construction`), the fair
    share and the difference from it with its interval (`vs_fair`), mean score and the mean
    of each of the game's per-seat measures (`seat_parts`), each with its t interval."""
    return compute(data, "strategies")["strategies"]


# A set-up: what the rules of a game are (player count, variant, options, component set).
# Head to head and ratings count each set-up apart: the set-ups of a study play the same
# deals (common random numbers), so their games are paired, not independent trials.
def setup_columns(spec: GameSpec) -> list[str]:
    """The columns of a set-up of the game (its rule options among them)."""
    return ["players", "setup", "variant", *spec.OPTIONS, "rules_digest"]


def _setups(src: Source) -> dict[int, tuple]:
    """Each cell's set-up, as a tuple of the `setup_columns` values (the player count an
    int)."""
    cells = src.cells()
    columns = setup_columns(src.spec)
    for col in columns:
        if col not in cells:
            cells[col] = {"variant": "base", **option_defaults(src.spec)}.get(col, "")
    return {
        int(row["cell"]): (int(row["players"]), *(str(row[c]) for c in columns[1:]))
        for _, row in cells.iterrows()
    }


def _by_setup(res: pd.DataFrame, setups: dict[int, tuple]) -> Iterator[tuple[tuple, pd.DataFrame]]:
    """A block's rows by set-up (the key's first item is the player count)."""
    cells = res["cell"].astype(int).to_numpy()
    present = [int(c) for c in np.unique(cells)]
    for setup in sorted({setups[c] for c in present}):
        yield setup, res[np.isin(cells, [c for c in present if setups[c] == setup])]


def _by_game(part: pd.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Strategy names and ranks of a block's games at one player count, as [games, seats]."""
    part = part.sort_values(["cell", "game", "seat"])
    strat = part["strategy"].astype(str).to_numpy().reshape(-1, players)
    ranks = part["rank"].to_numpy().reshape(-1, players)
    return strat, ranks


class _HeadToHead(_Table):
    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.acc: pd.DataFrame | None = None
        self.setups = _setups(src)
        self.columns = setup_columns(src.spec)

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        for setup, part in _by_setup(res, self.setups):
            p = setup[0]
            strat, ranks = _by_game(part, p)
            i, j = np.array([(i, j) for i in range(p) for j in range(p) if i != j]).T
            a, b = strat[:, i].ravel(), strat[:, j].ravel()
            ri, rj = ranks[:, i].ravel(), ranks[:, j].ravel()
            differ = a != b
            if not differ.any():
                continue
            pairs = pd.DataFrame(
                {
                    **dict(zip(self.columns, setup, strict=True)),
                    "strategy": a[differ],
                    "opponent": b[differ],
                    "above": ((ri < rj) + 0.5 * (ri == rj))[differ],
                }
            )
            keys = [*self.columns, "strategy", "opponent"]
            g = pairs.groupby(keys)["above"].agg(["size", "sum"])
            self.acc = _add(self.acc, g.astype(float))

    def result(self) -> pd.DataFrame:
        cols = [*self.columns, "strategy", "opponent", "n", "above"]
        if self.acc is None:
            df = pd.DataFrame(columns=cols)
        else:
            df = self.acc.reset_index().rename(columns={"size": "n", "sum": "above"})[cols]
            df = df.sort_values(cols[:-2])
        df["above_share"] = df["above"] / df["n"]
        df["lo"], df["hi"] = stats.wilson(df["above"], df["n"])
        return _sample(df.reset_index(drop=True), ("lo", "hi"), "n", "meetings")


def head_to_head(data: Any) -> pd.DataFrame:
    """For every pair of strategies that met, by set-up (players, variant, options, component
    set; the set-ups of a study share their deals, so each is counted apart): how often the
    first finished above the second (a tie counts half), with its Wilson interval and n
    (meetings)."""
    return compute(data, "head_to_head")["head_to_head"]


class _Ratings(_Table):
    max_games = 50_000
    seed = 0

    def __init__(self, src: Source) -> None:
        super().__init__(src)
        # per set-up: the sampled games' rankings and their random keys (a uniform
        # sample without replacement: the max_games smallest keys seen so far)
        self.found: dict[tuple, np.ndarray] = {}
        self.keys: dict[tuple, np.ndarray] = {}
        self.names: dict[tuple, list[str]] = {}
        self.rng: np.random.Generator | None = None
        self.setups = _setups(src)
        self.columns = setup_columns(src.spec)

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        if self.rng is None:
            self.rng = np.random.default_rng(self.seed)
        for p, part in _by_setup(res, self.setups):
            strat, ranks = _by_game(part, p[0])
            distinct = (np.sort(strat, axis=1)[:, 1:] != np.sort(strat, axis=1)[:, :-1]).all(1)
            if not distinct.any():
                continue
            known = self.names.setdefault(p, [])
            for s in sorted(set(strat[distinct].ravel()) - set(known)):
                known.append(s)
            index = {s: k for k, s in enumerate(known)}
            ids = np.vectorize(index.get)(strat[distinct])
            # tied seats in random order (a uniform draw per game and seat from the table's
            # own seeded stream), never by seat: a tie is split evenly in expectation
            noise = self.rng.random(ranks[distinct].shape) * 0.5
            order = np.argsort(ranks[distinct] + noise, axis=1, kind="stable")
            rankings = np.take_along_axis(ids, order, axis=1)
            keys = self.rng.random(len(rankings))
            if p in self.found:
                rankings = np.concatenate([self.found[p], rankings])
                keys = np.concatenate([self.keys[p], keys])
            if len(keys) > self.max_games:
                keep = np.sort(np.argpartition(keys, self.max_games)[: self.max_games])
                rankings, keys = rankings[keep], keys[keep]
            self.found[p], self.keys[p] = rankings, keys

    def result(self) -> pd.DataFrame:

        rows = []
        for setup, rankings in sorted(self.found.items()):
            items = len(self.names[setup])
            if items < 2 or len(rankings) < 10:
                continue
            est = choix.ilsr_rankings(items, rankings.tolist(), alpha=0.01)
            est = est - est.mean()
            cov = sum_zero_covariance(plackett_luce_information(items, rankings, est))
            half = stats.Z * np.sqrt(np.maximum(np.diag(cov), 0.0))
            for k, name in enumerate(self.names[setup]):
                rows.append(
                    (*setup, name, len(rankings), est[k], est[k] - half[k], est[k] + half[k])
                )
        cols = self.columns
        df = pd.DataFrame(rows, columns=[*cols, "strategy", "games", "rating", "lo", "hi"])
        df = df.sort_values([*cols, "rating"], ascending=[True] * len(cols) + [False],
                            ignore_index=True)  # fmt: skip
        df = _sample(df, ("lo", "hi"), "games")
        if len(df) and df["games"].max() >= self.max_games:
            df.attrs["sample_size"] += (
                f" (the ratings use a sample of {self.max_games:,} games: pass a larger "
                "max_games to ratings() for more)"
            )
        return df


def sum_zero_covariance(info: np.ndarray) -> np.ndarray:
    """The covariance of log-strengths that sum to 0, from their Fisher information (whose
    null space is the common shift, the all-ones direction): the inverse of the information
    with that direction filled in, J/n, less J/n, projected onto the sum-zero plane. A plain
    pseudo-inverse keeps the null direction whenever rounding leaves its eigenvalue just
    above the cut-off, and every interval then spans the whole line."""
    n = len(info)
    j = np.full((n, n), 1.0 / n)
    centre = np.eye(n) - j
    return centre @ (np.linalg.inv(info + j) - j) @ centre


def plackett_luce_information(items: int, rankings: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """The observed Fisher information of a Plackett-Luce model at log-strengths `theta`,
    for full rankings [games, places] of item ids (best first). Each place is a choice of
    one item among those still unplaced; a choice among a set S with probabilities p adds
    diag(p) - p p^T on S. Its pseudo-inverse is the covariance of the ratings under the
    constraint that they sum to 0 (the Wald intervals of `ratings`)."""
    uniq, counts = np.unique(rankings, axis=0, return_counts=True)
    w = np.exp(theta - theta.max())
    info = np.zeros((items, items))
    for k in range(uniq.shape[1] - 1):
        left = uniq[:, k:]
        prob = w[left] / w[left].sum(axis=1, keepdims=True)
        for a in range(left.shape[1]):
            np.add.at(info, (left[:, a], left[:, a]), counts * prob[:, a])
            for b in range(left.shape[1]):
                np.add.at(info, (left[:, a], left[:, b]), -counts * prob[:, a] * prob[:, b])
    return info


def ratings(data: Any, max_games: int = 50_000, seed: int = 0) -> pd.DataFrame:
    """A Plackett-Luce rating of the strategies, by set-up (choix's ILSR), from the
    games whose seats all play different strategies (all of them, or a uniform random sample
    of `max_games` of them, drawn with `seed`, when there are more): log-strengths centred on
    0, with 95 % Wald intervals from the observed Fisher information. Seats tied for a place
    are ordered at random (drawn with `seed`), never by seat, so a tie counts half each way
    in expectation (tests/test_verdicts.py checks the intervals against a bootstrap)."""
    src = Source.of(data)
    table = _Ratings(src)
    table.max_games, table.seed = max_games, seed
    for res, _ in src.blocks(columns=(result_columns(src.spec), None)):
        table.add(res, None, None)
    return table.result()


# --- variants and options against base, paired ------------------------------------------------


def _baseline_of(cells: pd.DataFrame) -> dict[int, tuple[int, str]]:
    """For each cell that is not a baseline: the cell that plays the same games (same
    players and lineup) under the base game, and what differs (its set-up label: a variant,
    a rule option, a rule parameter, a component file, or several of them). A group of cells
    without a base cell is compared with its cell closest to base (fewest differences), and
    the change says so: 'removed_epoch3=2 (against wood_points=3)'."""
    out = {}
    for _, group in cells.groupby(["players", "lineup"], dropna=False):
        parts = {int(r["cell"]): _parts(str(r["setup"])) for _, r in group.iterrows()}
        b = min(parts, key=lambda c: (len(parts[c]), c))
        ref = parts[b]
        for cell, mine in parts.items():
            if cell == b:
                continue
            change = ", ".join([p for p in mine if p not in ref] or ["(none)"])
            if ref:
                change += f" (against {', '.join(ref)})"
            out[cell] = (b, change)
    return out


def _parts(setup: str) -> list[str]:
    """The differences from base a set-up label lists ('base': none)."""
    return [] if setup == "base" else [p.strip() for p in setup.split(", ")]


def _game_metrics(res: pd.DataFrame, spec: GameSpec | None = None) -> pd.DataFrame:
    """Per cell and game: mean score, score spread (sd over seats), rounds, seat 0's win
    share (`verdicts.seat_share_metric`), the game's own metrics (`GAME_METRICS`, from its
    `game_metrics`; the rule parameters they read are columns of `res`, else the rulebook's)
    and each strategy's win share (per seat it plays). `spec`: the table's game's."""
    spec = spec_of_table(res) if spec is None else spec
    g = res.groupby(["cell", "game"], observed=True)
    seat0 = res[res["seat"] == 0].set_index(["cell", "game"])["share"]
    out = pd.DataFrame(
        {
            "mean score": g["score"].mean(),
            "score spread (sd over seats)": g["score"].std(ddof=0),
            "rounds": g["rounds"].first().astype(float),
            verdicts.seat_share_metric(spec): seat0,
        }
    )
    own = spec.MEASURES.game_metrics(res, ("cell", "game"))
    for name in spec.MEASURES.metrics:
        out[name] = own[name]
    per = res.groupby(["cell", "game", "strategy"], observed=True)["share"].mean().unstack()
    # a strategy's win share is a finding only where it meets another (in self-play it is 1/p)
    kinds = res.groupby("cell", observed=True)["strategy"].nunique()
    mixed = kinds.reindex(per.index.get_level_values("cell")).to_numpy() > 1
    for s in per.columns:
        if mixed.any():
            out[f"win share: {s}"] = per[s].where(mixed)
    return out


class _Variants(_Table):
    def __init__(self, src: Source, margins: Mapping[str, float] | None = None) -> None:
        super().__init__(src)
        self.base_of = _baseline_of(src.cells())
        self.acc: dict[tuple[int, str], np.ndarray] = {}
        self.margins = margins
        # with the per-round table the game-quality metrics are compared too
        self.rounds = self.quality = src.has_rounds

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        if not self.base_of:
            return
        m = _game_metrics(res, self.src.spec)
        if quality:
            m = m.join(_quality_metrics(quality))
        present = set(m.index.get_level_values(0))
        for cell, (b, _) in self.base_of.items():
            if cell not in present or b not in present:
                continue
            t, base = m.xs(cell, level="cell"), m.xs(b, level="cell")
            joined = t.merge(
                base, left_index=True, right_index=True, how="inner", suffixes=("", " base")
            )
            for metric in t.columns:
                if metric + " base" not in joined:
                    continue
                x, y = joined[metric], joined[metric + " base"]
                ok = x.notna() & y.notna()
                d = (x - y)[ok]
                v = np.array([ok.sum(), d.sum(), (d**2).sum(), x[ok].sum(), y[ok].sum()])
                self.acc[(cell, metric)] = self.acc.get((cell, metric), 0) + v

    def result(self) -> pd.DataFrame:
        if not self.base_of:
            raise UserError(
                "no set-up to compare: the study needs a base cell and another cell with the "
                "same players and lineup that differs from it (a variant, a rule option or "
                "parameter, a component file)"
            )
        rows = []
        for (cell, metric), (n, s, s2, tx, ty) in self.acc.items():
            if n == 0:
                continue
            mean, lo, hi, p = stats.paired_test(n, s, s2)
            base, change = self.base_of[cell]
            rows.append((cell, base, change, metric, n, ty / n, tx / n, float(mean), s, s2,
                         float(p)))  # fmt: skip
        cols = ["cell", "base_cell", "change", "metric", "games", "base", "treatment", "delta",
                "sum_d", "sum_d2", "p"]  # fmt: skip
        df = verdicts.judge_variants(pd.DataFrame(rows, columns=cols), self.margins)
        df = _cells(self.src)[["cell", "players", "lineup"]].merge(df, on="cell", how="right")
        df = df.sort_values(["players", "lineup", "change", "metric"], ignore_index=True)
        return _sample(df, ("lo", "hi"), "games")


def variants(data: Any, margins: Mapping[str, float] | None = None) -> pd.DataFrame:
    """Each variant or option against `base` with default options, on the same games
    (paired: common random numbers): for seat 0's win share, the mean score, the
    score spread, the game length, each strategy's win share and (runs with the per-round
    table) the game-quality metrics, the baseline and treatment means, the mean paired
    difference, n (games paired), the paired t test's p-value and its Holm correction over
    the whole table, the interval adjusted as Holm tests it (`lo`, `hi`, at `level`), the
    equivalence test against `margin` (TOST, Holm-adjusted: `p_tost_holm`), the minimum
    detectable effect at 80 % power (`mde`) and the `verdict` (`verdicts`: changes,
    equivalent, inconclusive, identical by construction). `margins` overrides the default
    equivalence margins by metric name ("share" for every win share)."""
    src = Source.of(data)
    if not _baseline_of(src.cells()):
        _Variants(src).result()  # the error: nothing to compare
    return compute(src, "variants", margins=margins)["variants"]


# --- game shape and game quality ---------------------------------------------------------------

SHAPE = ("rounds", "score", "margin")


class _GameShape(_Table):
    def __init__(self, src: Source) -> None:
        super().__init__(src)
        self.acc: pd.DataFrame | None = None
        self.rounds_hist: pd.Series | None = None
        self.score_hist: pd.Series | None = None

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        g = res.groupby(["cell", "game"], observed=True)
        winners = g["win"].sum()
        top = g["score"].max()
        second = res[~res["win"]].groupby(["cell", "game"], observed=True)["score"].max()
        margin = (top - second.reindex(top.index)).where(winners == 1, 0).fillna(0)
        per = pd.DataFrame(
            {
                "rounds": g["rounds"].first().astype(float),
                "score": g["score"].mean(),
                "margin": margin.astype(float),
                "shared": (winners > 1).astype(float),
            }
        )
        for c in SHAPE:
            per[c + "2"] = per[c] ** 2
        by_cell = per.groupby(level="cell")
        agg = by_cell.sum()
        agg["n"] = by_cell.size().astype(float)
        self.acc = _add(self.acc, agg)
        rounds = per.assign(rounds=per["rounds"].astype(int)).groupby(["cell", "rounds"]).size()
        self.rounds_hist = _add(self.rounds_hist, rounds)
        scores = pd.DataFrame(
            {
                "cell": res["cell"].to_numpy(),
                "strategy": res["strategy"].astype(str).to_numpy(),
                "score": res["score"].to_numpy(),
            }
        )
        self.score_hist = _add(
            self.score_hist, scores.groupby(["cell", "strategy", "score"]).size()
        )

    def result(self) -> pd.DataFrame:
        v = self.acc
        df = pd.DataFrame({"cell": v.index.astype(int), "games": v["n"].to_numpy()})
        for c in SHAPE:
            mean, sd, lo, hi = stats.mean_interval(v["n"], v[c], v[c + "2"])
            df[c], df[f"{c}_sd"] = np.asarray(mean), np.asarray(sd)
            df[f"{c}_lo"], df[f"{c}_hi"] = np.asarray(lo), np.asarray(hi)
        df["shared_win_share"] = (v["shared"] / v["n"]).to_numpy()
        lo, hi = stats.wilson(v["shared"], v["n"])
        df["shared_lo"], df["shared_hi"] = np.asarray(lo), np.asarray(hi)
        df = _with_cells(df, self.src)
        df.attrs["rounds_hist"] = self.rounds_hist.astype(int)
        df.attrs["score_hist"] = self.score_hist.astype(int)
        return _sample(df, ("shared_lo", "shared_hi"), "games")


def game_shape(data: Any) -> pd.DataFrame:
    """Per cell: game length (rounds), score, winning margin (the winner's lead over the best
    other seat; 0 when the win is shared) as means with t intervals, and the share of games
    with a shared win (Wilson). `df.attrs["rounds_hist"]` and `["score_hist"]` hold the
    distributions (counts by value)."""
    return compute(data, "game_shape")["game_shape"]


#: The per-game quality metrics reported as means (t intervals) and as shares of games
#: (Wilson intervals; a game where a share is undefined, e.g. no sole leader after the
#: checkpoint round, is left out of it).
QUALITY_MEANS = ("lead_changes", "deficit", "rounds_behind", "decided",
                 "lead_changes_per_round", "tied_lead_rounds")  # fmt: skip
QUALITY_SHARES = ("comeback", "close", "leader_wins", "close_relative")
#: A close game by the score scale: the final margin at most this share of the winner's score.
CLOSE_SHARE = 0.05
#: The round after which "the leader wins" is measured (does a rule entrench the leader?).
CHECKPOINT = 3
#: The per-game quality metrics a variant is compared on, paired (name in the variants
#: table: column of `_quality_of_games`).
QUALITY_PAIRED = {
    "lead changes per round (sole leader)": "lead_changes_per_round",
    "rounds with a tied lead": "tied_lead_rounds",
    f"leader after round {CHECKPOINT} wins": "leader_wins",
    f"close game (margin <= {CLOSE_SHARE:.0%} of the winner's score)": "close_relative",
}


def paired_metrics(spec: GameSpec) -> tuple[str, ...]:
    """Every metric the variants table compares paired, besides each strategy's own win
    share: the game's own (`GAME_METRICS`) among them."""
    return ("mean score", "score spread (sd over seats)", "rounds",
            verdicts.seat_share_metric(spec), *spec.MEASURES.metrics, *QUALITY_PAIRED)  # fmt: skip


def _quality_metrics(quality: list[tuple[int, pd.DataFrame, pd.DataFrame]]) -> pd.DataFrame:
    """The per-game quality metrics of a block (`QUALITY_PAIRED`), indexed by cell and game,
    for the paired comparison of variants."""
    parts = []
    for cell, per_game, _ in quality:
        part = per_game.set_index("game")[list(QUALITY_PAIRED.values())]
        part.columns = list(QUALITY_PAIRED)
        parts.append(part.assign(cell=cell).set_index("cell", append=True).swaplevel())
    return pd.concat(parts) if parts else pd.DataFrame(columns=list(QUALITY_PAIRED))


@np.errstate(invalid="ignore")
def _quality_of_games(rounds: pd.DataFrame, results: pd.DataFrame) -> list[tuple[Any, ...]]:
    """Per cell of one block: a DataFrame per game (lead changes, the eventual winner's
    deepest deficit (points behind the leader after a round) and rounds spent behind, the
    share of the game from which it led for good, whether it came from behind, whether the
    final margin was at most 2), and by round the count, sum and sum of squares of the gap
    between the eventual winner and the mean of the other seats."""
    out = []
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"(All-NaN slice|Mean of empty slice)", RuntimeWarning)
        for cell, part in rounds.groupby("cell", observed=True):
            part = part.sort_values(["game", "round", "seat"])
            p = int(part["seat"].max()) + 1
            games = part["game"].unique()
            max_r = int(part["round"].max())
            score = np.full((len(games), max_r, p), np.nan)
            gi = np.searchsorted(games, part["game"].to_numpy())
            score[gi, part["round"].to_numpy() - 1, part["seat"].to_numpy()] = part["score"]
            length = (~np.isnan(score[:, :, 0])).sum(axis=1)
            res = results[results["cell"] == cell].set_index(["game", "seat"])["win"]
            win = res.reindex(pd.MultiIndex.from_product([games, range(p)])).to_numpy()
            win = win.reshape(len(games), p).astype(bool)
            top = np.nanmax(score, axis=2)
            leading = score == top[:, :, None]  # [G, R, P]
            best_winner = np.nanmax(np.where(win[:, None, :], score, -np.inf), axis=2)
            deficit = np.where(np.isnan(top), np.nan, top - best_winner)
            valid = ~np.isnan(top)
            code = (leading * (1 << np.arange(p))).sum(axis=2)  # the set of leaders, as bits
            changes = ((code[:, 1:] != code[:, :-1]) & valid[:, 1:]).sum(axis=1)
            behind = (deficit > 0) & valid
            last = np.where(behind.any(axis=1), max_r - np.argmax(behind[:, ::-1], axis=1), 0)
            others = np.where(~win[:, None, :], score, np.nan)
            gap = best_winner - np.nanmean(others, axis=2)  # [G, R]
            final = np.sort(score[np.arange(len(games)), length - 1], axis=1)  # ascending
            margin = final[:, -1] - final[:, -2]
            # ties counted apart: changes of the sole leader between rounds led by one seat
            sole = np.where(valid & (leading.sum(axis=2) == 1), np.argmax(leading, axis=2), -1)
            sole_changes = np.zeros(len(games))
            last_sole = np.full(len(games), -1)
            for r in range(max_r):
                now = sole[:, r]
                here = now >= 0
                sole_changes += here & (last_sole >= 0) & (now != last_sole)
                last_sole = np.where(here, now, last_sole)
            tied = (valid & (leading.sum(axis=2) > 1)).sum(axis=1)
            third = sole[:, CHECKPOINT - 1] if max_r >= CHECKPOINT else np.full(len(games), -1)
            leader_wins = np.where(
                third >= 0, win[np.arange(len(games)), np.maximum(third, 0)], np.nan
            )
            per_game = pd.DataFrame(
                {
                    "game": games,
                    "sole_lead_changes": sole_changes,
                    "lead_changes_per_round": sole_changes / np.maximum(length - 1, 1),
                    "tied_lead_rounds": tied.astype(float),
                    "leader_wins": leader_wins,
                    "close_relative": (margin <= CLOSE_SHARE * final[:, -1]).astype(float),
                    "lead_changes": changes.astype(float),
                    "deficit": np.nanmax(np.where(valid, deficit, np.nan), axis=1),
                    "rounds_behind": behind.sum(axis=1).astype(float),
                    "decided": (last + 1) / length,  # led (or tied) for good from this share
                    "comeback": (behind[:, 1:].any(axis=1)).astype(float),
                    "close": (margin <= 2).astype(float),
                }
            )
            ok = np.isfinite(gap)
            by_round = pd.DataFrame(
                {
                    "n": ok.sum(axis=0).astype(float),
                    "sum": np.where(ok, gap, 0).sum(axis=0),
                    "sum2": np.where(ok, gap**2, 0).sum(axis=0),
                },
                index=pd.MultiIndex.from_product([[int(cell)], range(1, max_r + 1)]),
            )
            out.append((int(cell), per_game, by_round))
    return out


class _GameQuality(_Table):
    rounds = True
    quality = True

    def __init__(self, src: Source) -> None:
        super().__init__(src)
        if not src.has_rounds:
            raise UserError("game quality needs the per-round table: run the study with --rounds")
        self.acc: dict[int, pd.Series] = {}
        self.gaps: pd.DataFrame | None = None

    def add(self, res: pd.DataFrame, table: pd.DataFrame | None, quality: Quality) -> None:
        for cell, part, by_round in quality or []:
            sums = {"n": len(part)}
            for c in QUALITY_MEANS:
                sums |= {c: part[c].sum(), f"{c}2": (part[c] ** 2).sum()}
            for c in QUALITY_SHARES:
                x = part[c].dropna()
                sums |= {c: x.sum(), f"{c}_n": len(x)}
            self.acc[cell] = _add(self.acc.get(cell), pd.Series(sums, dtype=float))
            self.gaps = _add(self.gaps, by_round)

    def result(self) -> pd.DataFrame:
        rows = []
        for cell, v in sorted(self.acc.items()):
            row: dict[str, float] = {"cell": cell, "games": v["n"]}
            for c in QUALITY_MEANS:
                mean, _, lo, hi = stats.mean_interval(v["n"], v[c], v[f"{c}2"])
                row |= {c: float(mean), f"{c}_lo": float(lo), f"{c}_hi": float(hi)}
            for c in QUALITY_SHARES:
                k, m = v[c], v[f"{c}_n"]
                row[f"{c}_share"] = k / m if m else np.nan
                row[f"{c}_lo"], row[f"{c}_hi"] = (float(x) for x in stats.wilson(k, m))
            rows.append(row)
        df = _with_cells(pd.DataFrame(rows), self.src)
        lead = self.gaps.rename_axis(["cell", "round"]).reset_index()
        lead = lead[lead["n"] > 0]
        mean, _, lo, hi = stats.mean_interval(lead["n"], lead["sum"], lead["sum2"])
        lead = lead.assign(gap=mean, lo=lo, hi=hi).drop(columns=["sum", "sum2"])
        df.attrs["lead_by_round"] = _with_cells(lead.reset_index(drop=True), self.src)
        return _sample(df, ("comeback_lo", "comeback_hi"), "games")


def game_quality(data: Any) -> pd.DataFrame:
    """From the per-round table (a run with --rounds), per cell, in the spirit of the Ludii
    game-evaluation metrics (lead change, drama, decisiveness): how often the leader changes
    between rounds (lead changes per game), the share of games the eventual winner won from
    behind (it trailed after some round but the first), how far behind (deepest deficit, in
    points) and for how many rounds, from which point of the game it led for good (0-1:
    share of the rounds played), and the share of close games (final margin of at most 2
    points). Means with t intervals, shares with Wilson intervals. `df.attrs["lead_by_round"]`
    holds the mean gap by round between the eventual winner and the other seats."""
    return compute(data, "game_quality")["game_quality"]


#: Every table `compute` makes, by name.
TABLES: dict[str, type[_Table]] = {
    "seat_balance": _SeatBalance,
    "seat_imbalance": _SeatImbalance,
    "seat_lead": _SeatLead,
    "strategies": _Strategies,
    "head_to_head": _HeadToHead,
    "ratings": _Ratings,
    "variants": _Variants,
    "game_shape": _GameShape,
    "game_quality": _GameQuality,
}
