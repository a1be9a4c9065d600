"""Where the analysis reads results from: a run directory, read block by block, or a DataFrame.

Every table of `moaisim.analysis` is computed from sufficient statistics summed over blocks
of games, so a report never holds a whole run in memory: a block is one game range of every
cell of the run (the runner cuts every cell at the same chunk boundaries, so a block is a
handful of Parquet parts, a few thousand games per cell). Paired comparisons between cells
(the same game indices) need nothing more than one block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim.errors import UserError
from moaisim.files import GAME_COLUMN
from moaisim.games import GameSpec, check_name, load_game
from moaisim.rundir import RunDir, manifest_game

#: Games per block when the source is a DataFrame.
BLOCK_GAMES = 5_000
#: The columns that may name a results table's game: `game_name` (`GAME_COLUMN`: every row of
#: a results or per-round table), or `game` when it holds names (in the runner's tables `game`
#: is the game's number within its run).
GAME_COLUMNS = (GAME_COLUMN, "game")


def game_of_table(df: pd.DataFrame) -> str:
    """The game (`moaisim games`) a results table is of: its game-name column (`GAME_COLUMNS`),
    else `df.attrs["game"]`; a table that names no game (its rows cut to other columns, and
    its attrs lost) or several is a one-line `UserError`."""
    named = game_named_by(df)
    if named is None:
        raise UserError(f"the results table names no game: give it the {GAME_COLUMN} column "
                        "its rows had (moaisim.simulate and moaisim.load_results write "
                        "it)")  # fmt: skip
    return named


def game_named_by(df: pd.DataFrame) -> str | None:
    """The game a table names (`game_of_table`), or None when it names none; a table of
    several games is a one-line `UserError`."""
    for col in GAME_COLUMNS:
        if col in df and not pd.api.types.is_numeric_dtype(df[col]):
            names = sorted({str(x) for x in pd.unique(df[col]) if not pd.isna(x)})
            if len(names) > 1:
                raise UserError(f"the table holds games of {', '.join(names)}: analyse one "
                                "game at a time")  # fmt: skip
            if names:
                return check_name(names[0])
    named = df.attrs.get("game") if isinstance(df.attrs, dict) else None
    return check_name(named) if isinstance(named, str) and named else None


def spec_of_table(df: pd.DataFrame) -> GameSpec:
    """The `GameSpec` of a results table's game (`game_of_table`)."""
    return load_game(game_of_table(df))


@dataclass
class Source:
    """Results to analyse: a run directory or in-memory tables (results, and per-round)."""

    results: pd.DataFrame | None = None
    rounds: pd.DataFrame | None = None
    run: RunDir | None = None
    pool: bool = False  # the lineups of each set-up pooled into one cell (`pooled`)

    @classmethod
    def of(cls, data: Any, rounds: pd.DataFrame | None = None) -> Source:
        """A Source from a run directory path, a Source, or a results DataFrame."""
        if isinstance(data, Source):
            return data
        if isinstance(data, pd.DataFrame):
            if "cell" not in data:
                data = data.assign(cell=0)
            return cls(results=data, rounds=rounds)
        if isinstance(data, str | Path):
            run = RunDir(data)
            if not run.exists():
                raise UserError(f"{run.path} is not a run directory (no manifest.json)")
            return cls(run=run)
        raise UserError(
            f"cannot analyse a {type(data).__name__}: give a run directory or a results DataFrame"
        )

    @cached_property
    def manifest(self) -> dict[str, Any] | None:
        """The run's manifest, read once."""
        return self.run.read() if self.run is not None else None

    @cached_property
    def game(self) -> str:
        """The game the results are of: a run's manifest says it (`manifest_game`), a
        table's rows (`game_of_table`)."""
        if self.run is not None:
            assert self.manifest is not None
            return check_name(manifest_game(self.manifest))
        if self.results is None:
            raise UserError("no results to analyse: give a run directory or a results table")
        return game_of_table(self.results)

    @property
    def spec(self) -> GameSpec:
        """The `GameSpec` of the results' game (`game`)."""
        return load_game(self.game)

    @property
    def has_rounds(self) -> bool:
        """The source has the per-round table (a run played with `--rounds`)."""
        if self.run is not None:
            return bool(self.manifest["study"].get("rounds"))
        return self.rounds is not None

    def pooled(self) -> Source:
        """The same games with every lineup of a set-up (players, variant, options,
        components) pooled into one cell: for a study of many lineups (a tournament), where a
        table per lineup would be too long to read. Each lineup is rotated over the seats, so
        a pooled seat balance still compares seats, not strategies. Game numbers are made
        unique per lineup (lineup k's game i becomes k * 2**32 + i), which keeps games paired
        across set-ups."""
        return replace(self, pool=True)

    def lineups_per_setup(self) -> int:
        """The largest number of lineups a set-up plays."""
        cells = self._cells()
        keys = _setup_key(cells, self.spec)
        return int(cells.groupby(keys, dropna=False)["lineup"].nunique().max())

    def cells(self) -> pd.DataFrame:
        """One row per cell: players, variant, options, lineup (and components)."""
        cells = self._cells()
        if not self.pool:
            return cells
        group, _ = self._pooling(cells, self.spec)
        out = cells.assign(cell=cells["cell"].map(group))
        count = out.groupby("cell")["lineup"].transform("nunique")
        out["lineup"] = np.where(count > 1, count.map("all {} lineups".format), out["lineup"])
        if "lineup_id" in out:
            out["lineup_id"] = 0
        return out.drop_duplicates("cell").reset_index(drop=True)

    @staticmethod
    def _pooling(cells: pd.DataFrame, spec: GameSpec) -> tuple[dict[int, int], dict[int, int]]:
        """Each cell's pooled cell (its set-up) and its lineup's number."""
        group = cells.groupby(_setup_key(cells, spec), dropna=False, sort=False).ngroup()
        lineup = pd.factorize(cells["lineup"])[0]
        cell = cells["cell"].astype(int).tolist()
        return dict(zip(cell, group.astype(int).tolist(), strict=True)), dict(
            zip(cell, lineup.tolist(), strict=True)
        )

    def _pool(self, table: pd.DataFrame | None, group: dict, lineup: dict) -> pd.DataFrame | None:
        if table is None:
            return None
        cell = table["cell"].astype(int)
        return table.assign(
            game=cell.map(lineup).to_numpy(dtype=np.int64) * 2**32
            + table["game"].to_numpy(dtype=np.int64),
            cell=cell.map(group).to_numpy(dtype=np.int64),
        )

    def _cells(self) -> pd.DataFrame:
        if self.run is not None:
            return _with_setup(pd.DataFrame(self.manifest["study"]["cells"]), self.spec)
        df = self.results
        cols = [c for c in cell_keys(self.spec) if c in df]
        cells = df.groupby("cell", observed=True)[cols[1:]].first().reset_index()
        # plain values, as a run directory's manifest gives them (not categories)
        for c in cells.columns:
            if isinstance(cells[c].dtype, pd.CategoricalDtype):
                cells[c] = cells[c].astype(cells[c].cat.categories.dtype)
        return _with_setup(cells, self.spec)

    def blocks(
        self, rounds: bool = False, columns: tuple[Any, Any] | None = None
    ) -> Iterator[tuple[pd.DataFrame, pd.DataFrame | None]]:
        """(results, per-round table or None) of each block of games, every cell. `columns`
        (results columns, per-round columns; None: all) limits what is read from a run."""
        cols = columns or (None, None)
        if self.run is not None:
            blocks = self._run_blocks(rounds, *cols)
        else:
            blocks = self._frame_blocks(rounds)
        if not self.pool:
            yield from blocks
            return
        group, lineup = self._pooling(self._cells(), self.spec)
        for res, table in blocks:
            yield self._pool(res, group, lineup), self._pool(table, group, lineup)

    def _frame_blocks(self, rounds: bool) -> Iterator[tuple[pd.DataFrame, pd.DataFrame | None]]:
        df = self.results
        table = self.rounds if rounds else None
        if table is not None and "cell" not in table:
            table = table.assign(cell=0)
        games = np.sort(df["game"].unique())
        res_game, res_order = _sorted(df["game"])
        if table is not None:
            round_game, round_order = _sorted(table["game"])
        for k in range(0, len(games), BLOCK_GAMES):
            lo, hi = games[k], games[min(k + BLOCK_GAMES, len(games)) - 1]
            part = df.iloc[_between(res_game, res_order, lo, hi)]
            block = None
            if table is not None:
                block = table.iloc[_between(round_game, round_order, lo, hi)]
            yield part, block

    def _run_blocks(
        self, rounds: bool, columns: Any = None, round_columns: Any = None
    ) -> Iterator[tuple[pd.DataFrame, pd.DataFrame | None]]:
        run = self.run
        assert run is not None
        by_range: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for c in run.parts(self.manifest):
            by_range.setdefault((c["start"], c["end"]), []).append(c)

        def read(entry: dict[str, Any], key: str, cols: Any) -> pd.DataFrame:
            columns = None if cols is None else list(cols)
            return run.read_part(entry, key, columns=columns, manifest=self.manifest)

        for key in sorted(by_range):
            group = by_range[key]
            res = pd.concat([read(c, "file", columns) for c in group], ignore_index=True)
            table = None
            if rounds and all("rounds_file" in c for c in group):
                table = pd.concat(
                    [read(c, "rounds_file", round_columns) for c in group], ignore_index=True
                )
            yield res, table


def _sorted(games: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Game numbers in order, and the row order that sorts them (stable)."""
    order = np.argsort(games.to_numpy(), kind="stable")
    return games.to_numpy()[order], order


def _between(games: np.ndarray, order: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """The rows (in their original order) whose game lies in lo..hi."""
    a, b = np.searchsorted(games, lo, "left"), np.searchsorted(games, hi, "right")
    return np.sort(order[a:b])


def _with_setup(cells: pd.DataFrame, spec: GameSpec) -> pd.DataFrame:
    """Cells with their set-up label (`Rules.setup`); tables that lack it (results made by
    hand) get it from the variant and the game's rule options."""
    if "setup" in cells:
        return cells

    def label(row: pd.Series) -> str:
        parts = [] if row.get("variant", "base") == "base" else [str(row["variant"])]
        parts += [f"{o}={row[o]}" for o, v in spec.OPTIONS.items() if o in row and row[o] != v[0]]
        return ", ".join(parts) or "base"

    return cells.assign(setup=cells.apply(label, axis=1) if len(cells) else [])


def cell_keys(spec: GameSpec) -> tuple[str, ...]:
    """The columns that say which cell a row is from (the game's rule options among them)."""
    return ("cell", "players", "setup", "variant", *spec.OPTIONS, "rules_digest", "lineup_id",
            "lineup")  # fmt: skip


def _setup_key(cells: pd.DataFrame, spec: GameSpec) -> list[str]:
    """The columns of a set-up: everything that names a cell but its lineup."""
    keys = [c for c in cell_keys(spec) if c in cells and c not in ("cell", "lineup_id", "lineup")]
    return keys + (["components"] if "components" in cells else [])
