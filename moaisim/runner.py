"""The runner: a study grid of seeded games, cut into chunks, played in parallel, written as
Parquet parts (docs/design.md, "Runs and scale").

A study is a grid of cells: player counts x variants x rule options x component files x
strategy lineups, each cell playing games 0..N-1 of one root seed. Game i is the same deal in
every cell (common random numbers), and a lineup is rotated over the seats: game i seats it
in rotation i mod R (cyclic: R = players; "all": every distinct seating), so every strategy
sits in every seat equally often. Work is cut into chunks of games, one joblib task each
(loky on one machine, or a dask.distributed cluster); a chunk returns a compact table, and a
run on disk writes it at once as a Parquet part (atomically) and records it in the manifest,
so an interrupted run resumes where it stopped, and a run asked for more games plays only the
new ones. Results never depend on the number of jobs, the backend, the chunk size or the
order in which chunks finish: rows are sorted by cell, game and seat.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import logging
import os
import pickle
import platform
import queue
import shutil
import sys
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import cloudpickle  # what loky pickles tasks with
import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from moaisim.errors import UserError
from moaisim.files import GAME_COLUMN, GAME_KEY, check_game
from moaisim.fingerprint import differences, fingerprint
from moaisim.games import GameSpec, check_name, game_of, load_game
from moaisim.games.base import RulesLike
from moaisim.progress import Progress
from moaisim.registry import StrategySpec, parse_lineup
from moaisim.rundir import (
    FORMAT,
    LOCK,
    RunDir,
    SerializedPart,
    identity_game,
    manifest_game,
    now,
    serialize,
    study_digest,
)

ROTATIONS = ("cyclic", "all", "none")
#: The most games a cell may play (game indices stay far below 2**63; plans are lazy, so a
#: large run costs no memory to plan).
MAX_GAMES = 10**12
#: The most result rows a run kept in memory may hold (about 100 bytes each): more needs --out.
MEMORY_ROWS = 50_000_000
#: Parallel jobs on one machine: at most this many per core (more only costs memory).
MAX_JOBS_PER_CORE = 4


def max_jobs() -> int:
    """The most parallel jobs (loky processes) on this machine."""
    return MAX_JOBS_PER_CORE * (os.cpu_count() or 1)


def check_jobs(n_jobs: int, backend: str = "loky", scheduler: str | None = None) -> None:
    """A number of parallel jobs: a positive whole number (at most `max_jobs()` on this
    machine's loky backend), or -1 for every core; a scheduler only for the dask backend."""
    if scheduler and backend != "dask":
        raise UserError("a scheduler address is for the dask backend: add --backend dask "
                        "(backend='dask' in Python)")  # fmt: skip
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int | np.integer):
        raise UserError(f"jobs must be a whole number, got {n_jobs!r}")
    if n_jobs == 0 or n_jobs < -1:
        raise UserError(f"jobs must be a positive whole number (or -1: every core), got {n_jobs}")
    if backend == "loky" and n_jobs > max_jobs():
        raise UserError(
            f"jobs must be at most {max_jobs()} on this machine ({MAX_JOBS_PER_CORE} per core), "
            f"got {n_jobs}"
        )
    if backend not in BACKENDS:
        raise UserError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")


ENGINES = ("batch", "reference")
BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class Cell:
    """One cell of a study: a set-up (`Rules`) and a lineup, with its seatings."""

    index: int
    rules: RulesLike
    components: str | None  # the component file as given (None: the default set)
    lineup_id: int
    lineup: tuple[StrategySpec, ...]  # one per seat, the lineup repeated to fill the seats
    rotation: str

    @property
    def label(self) -> str:
        """The lineup's label: its strategies' labels, comma-separated."""
        return ",".join(s.label for s in self.lineup)

    def seatings(self) -> list[tuple[int, ...]]:
        """The seatings games rotate through: seating r puts lineup[seating[s]] at seat s."""
        p = len(self.lineup)
        if self.rotation == "none":
            return [tuple(range(p))]
        if self.rotation == "cyclic":
            return [tuple((s + r) % p for s in range(p)) for r in range(p)]
        seen: dict[tuple[str, ...], tuple[int, ...]] = {}
        for perm in itertools.permutations(range(p)):
            seen.setdefault(tuple(self.lineup[k].label for k in perm), perm)
        return list(seen.values())

    def describe(self) -> dict[str, Any]:
        """What the manifest records of the cell (and what identifies it)."""
        r = self.rules
        return {
            "cell": self.index,
            "players": r.players,
            "variant": r.variant,
            **r.options(),
            "components": self.components,
            "rules_digest": r.digest(),
            "setup": r.setup,
            **r.params(),
            "lineup_id": self.lineup_id,
            "lineup": self.label,
            "seatings": len(self.seatings()),
        }


@dataclass(frozen=True)
class Study:
    """A grid of cells, the games each plays, the root seed, and how the work is cut."""

    seed: int
    games: int
    cells: tuple[Cell, ...]
    rotation: str = "cyclic"
    chunk_size: int = 5_000
    rounds: bool = False
    engine: str = "batch"
    batch_size: int = 10_000
    #: the chunk size is the default, not the user's (a resumed run keeps its own)
    chunk_default: bool = False
    #: the game the cells play (`moaisim.games`): always given, by name
    game: str = field(kw_only=True)

    @property
    def spec(self) -> GameSpec:
        """The game the study plays (its `GameSpec`)."""
        return load_game(self.game)

    def identity(self) -> dict[str, Any]:
        """What must match for a run directory to continue this study (all but `games`)."""
        return {
            "seed": self.seed,
            "rotation": self.rotation,
            "chunk_size": self.chunk_size,
            "rounds": self.rounds,
            "engine": self.engine,
            "cells": [c.describe() for c in self.cells],
            # a run made before games had names continues as one (`identity_game`)
            **identity_game(self.game),
        }

    def chunks(self, done: Iterable[tuple[int, int, int]] = ()) -> list[tuple[int, int, int]]:
        """(cell, start, end) of the chunks still to play (`plan`), as a list."""
        return list(self.plan(done))

    def plan(self, done: Iterable[tuple[int, int, int]] = ()) -> Iterator[tuple[int, int, int]]:
        """(cell, start, end) of the chunks still to play, one at a time (a plan of a billion
        games costs no memory): every gap that the `done` chunks leave in games 0..N-1 of
        each cell (chunks finish in any order, so a stopped parallel run can miss a chunk
        between two finished ones), cut at multiples of the chunk size."""
        spans = _spans(done)
        for c in self.cells:
            start = 0
            for a, b in [*spans.get(c.index, []), (self.games, self.games)]:
                while start < min(a, self.games):
                    end = min(a, (start // self.chunk_size + 1) * self.chunk_size)
                    yield (c.index, start, end)
                    start = end
                start = max(start, b)

    def seating_cost(self) -> str | None:
        """What `rotation = "all"` implies, said up front (None for the other rotations): how
        many seatings the largest cell rotates through, the games each then gets, and what
        giving every seating as many games as cyclic rotation gives each of its seatings
        would cost; flagged as a warning when that multiplies the run by more than 2."""
        if self.rotation != "all" or not self.cells:
            return None
        worst = max(self.cells, key=lambda c: len(c.seatings()) / c.rules.players)
        count, p = len(worst.seatings()), worst.rules.players
        ratio = count / p
        per = self.games / count
        text = (
            f"rotation all: up to {count} distinct seatings per cell (cyclic rotation uses "
            f"{p}), so each seating gets about {per:,.1f} of the {self.games:,} games of a cell; "
            f"giving each seating as many games as cyclic rotation would take {ratio:g} times "
            "the games"
        )
        if self.games % count:
            text += f" (a multiple of {count} games plays every seating equally)"
        return ("warning: " if ratio > 2 else "") + text

    def games_left(self, done: Iterable[tuple[int, int, int]] = ()) -> int:
        """How many games the `plan` still holds (counted, not listed)."""
        spans = _spans(done)
        left = 0
        for c in self.cells:
            covered, reach = 0, 0
            for a, b in spans.get(c.index, []):
                a, b = max(a, reach), min(b, self.games)
                if b > a:
                    covered += b - a
                reach = max(reach, b)
            left += self.games - covered
        return left


def _spans(done: Iterable[tuple[int, int, int]]) -> dict[int, list[tuple[int, int]]]:
    """The finished game ranges of each cell, sorted."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for cell, start, end in done:
        spans.setdefault(cell, []).append((start, end))
    return {c: sorted(v) for c, v in spans.items()}


def round_robin(names: Sequence[str], players: Iterable[int]) -> dict[int, list[str]]:
    """A tournament's lineups: at each player count, every set of distinct strategies that
    fills the seats (each rotated over the seats by the study)."""
    names = list(dict.fromkeys(names))
    out = {}
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int | np.integer):
            raise UserError(f"players must be whole numbers from 2 to 5, got {p!r}")
        if len(names) < p:
            raise UserError(f"a tournament at {p} players needs at least {p} strategies")
        out[int(p)] = [",".join(c) for c in itertools.combinations(names, int(p))]
    return out


def _lineups_for(lineups: Sequence[Any] | Mapping[int, Sequence[Any]], players: int) -> list[Any]:
    """The lineups a set-up plays: all of them, or those listed for its player count."""
    if isinstance(lineups, Mapping):
        if players not in lineups or not lineups[players]:
            raise UserError(f"no strategy lineup given for {players} players")
        return list(lineups[players])
    return list(lineups)


def _listed(value: Any) -> list[Any]:
    if value is None:
        return [None]
    if isinstance(value, str | int | Path) or not isinstance(value, Iterable):
        return [value]
    return list(value)


def make_study(
    players: int | Sequence[int],
    games: int,
    lineups: Sequence[Any] | Mapping[int, Sequence[Any]],
    variants: str | Sequence[str] | None = None,
    seed: int = 0,
    components: str | Path | Sequence[str | Path] | None = None,
    rotation: str = "cyclic",
    chunk_size: int | None = None,
    rounds: bool = False,
    engine: str = "batch",
    batch_size: int = 10_000,
    rules: RulesLike | None = None,
    params: Mapping[str, int | Sequence[int]] | None = None,
    vary: str = "grid",
    *,
    game: str,
    **options: str | Sequence[str] | None,
) -> Study:
    """Check every part of a study and build its cells (one clear `UserError` per mistake,
    before anything is played or written). Each of players, variants, components, the rule
    options and the rule parameters (`params={"removed_epoch3": [0, 1, 2]}`) may be one value
    or a list (a grid dimension); a variant combines names with '+'. `vary` says how the rule
    parameters' lists combine (`VARY`): "grid", every combination; "one-at-a-time", each
    list's first value for all (the base) and each other value alone, the rest at their
    first (three parameters of four values: 10 set-ups, not 64). `lineups` apply to every
    player count, or map each player count to its own (`round_robin` builds a tournament's).
    `game` names the game played (`moaisim games`; the rules, the options and the
    strategies are that game's)."""
    _check_run_settings(games, seed, rotation, engine, batch_size, chunk_size)
    spec = load_game(check_name(game))
    OPTIONS = spec.OPTIONS  # noqa: N806
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise UserError(f"unknown argument {unknown[0]!r} (rule options are {', '.join(OPTIONS)})")
    if not lineups:
        raise UserError("a study needs at least one strategy lineup")
    grid_options = {name: _listed(options.get(name)) for name in OPTIONS}
    grid_params = _grid_params(spec, params)
    if vary not in VARY:
        raise UserError(f"vary must be one of {', '.join(VARY)}, got {vary!r}")
    if rules is not None:
        setups = _setups_of_rules(spec, rules, players, variants, grid_options, params)
    else:
        setups = _setups_of_grid(spec, players, variants, components, grid_options, grid_params,
                                 vary)  # fmt: skip
    cells = _cells(setups, lineups, rotation)
    chunked = chunk_size if chunk_size is not None else default_chunk(cells, engine, games)
    return Study(int(seed), int(games), tuple(cells), rotation, chunked, rounds, engine,
                 batch_size, chunk_size is None, game=spec.INFO.name)  # fmt: skip


#: Games per chunk unless a study says: the reference engine's, the batch engine's through
#: views, and at most this many on the compiled path, where a chunk's own cost (its results
#: table, its Parquet bytes, its record: about 3 % of 5 000 games) is worth cutting
#: (benchmarks/README.md, "The compiled path": 20 000 took 200 000 games with --jobs 2 from
#: 25-28 s to 23-24 s), as long as a cell still makes `CHUNKS_AT_LEAST` chunks to share out.
CHUNK_SIZE = {"reference": 50, "batch": 5_000, "compiled": 20_000}
CHUNKS_AT_LEAST = 8


def study_of_rules(
    rules: Sequence[RulesLike], games: int, lineups: Sequence[Any], seed: int = 0,
    rounds: bool = False, rotation: str = "cyclic",
) -> Study:  # fmt: skip
    """A study of given set-ups (`Rules` objects, any player counts: a balance search's
    base game and finalists), each with every lineup, checked as `make_study` checks."""
    _check_run_settings(games, seed, rotation, "batch", 10_000, None)
    if not rules or not lineups:
        raise UserError("a study needs at least one set-up and one lineup")
    names = {r.game for r in rules}
    if len(names) > 1:
        raise UserError(f"a study plays one game, these rules are of {', '.join(sorted(names))}")
    cells = _cells([(r, None) for r in rules], list(lineups), rotation)
    chunk = default_chunk(cells, "batch", games)
    return Study(int(seed), int(games), tuple(cells), rotation, chunk, rounds, "batch",
                 10_000, True, game=names.pop())  # fmt: skip


def default_chunk(cells: Sequence[Cell], engine: str, games: int) -> int:
    """The default chunk size of a study (`CHUNK_SIZE`). When every cell's lineup plays on
    the compiled path (every seat a built-in with a compiled form): games / 8 per chunk in
    thousands, from the batch engine's 5 000 up to 20 000 (a cell of 100 000 games: 12 000);
    else its engine's."""
    if engine != "batch":
        return CHUNK_SIZE[engine]
    if not plays_compiled(cells):
        return CHUNK_SIZE["batch"]
    share = games // CHUNKS_AT_LEAST // 1_000 * 1_000
    return min(max(share, CHUNK_SIZE["batch"]), CHUNK_SIZE["compiled"])


def plays_compiled(cells: Sequence[Cell]) -> bool:
    """Every cell's lineup plays on the compiled path: every seat a built-in with a compiled
    form (no user code runs in its games). A user's strategy is not made here (its
    constructor runs in the workers)."""
    for cell in cells:
        if not all(spec.cls.__module__.startswith(BUILT_IN) for spec in cell.lineup):
            return False
        forms = game_of(cell.rules).compiled_forms
        if forms(cell.rules, [spec() for spec in cell.lineup]) is None:
            return False
    return True


#: The package the built-in strategies are installed in (`registry.BUILTIN`).
BUILT_IN = "moaisim.strategies."


def _check_run_settings(
    games: int, seed: int, rotation: str, engine: str, batch_size: int, chunk_size: int | None
) -> None:
    """The study's settings that take one value: games per cell (at most `MAX_GAMES`), the
    root seed (64 bits), the rotation, the engine, the batch and chunk sizes."""
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or games < 1:
        raise UserError(f"games must be a count of at least 1, got {games!r}")
    if games > MAX_GAMES:
        raise UserError(
            f"games must be at most {MAX_GAMES:,} per cell, got {games:,} (at 10,000 games/s "
            f"that many take {games / 1e4 / 86400 / 365:,.0f} years): split the study"
        )
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**64:
        raise UserError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    if rotation not in ROTATIONS:
        raise UserError(f"rotation must be one of {', '.join(ROTATIONS)}, got {rotation!r}")
    if engine not in ENGINES:
        raise UserError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise UserError(f"batch_size must be a positive integer, got {batch_size!r}")
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise UserError(f"chunk_size must be a positive integer, got {chunk_size!r}")


def _grid_params(spec: GameSpec, params: Mapping[str, int | Sequence[int]] | None
                 ) -> dict[str, list[Any]]:  # fmt: skip
    """The rule parameters' values, each a list (a grid dimension): known names, distinct
    values (a repeated value would name a cell twice)."""
    if params is not None and not isinstance(params, Mapping):
        raise UserError(f"params must map rule parameters to values, got {params!r}")
    spec.check_names(params or {})
    grid_params = {name: _listed(value) for name, value in (params or {}).items()}
    for name, values in grid_params.items():
        if not values or len(set(map(repr, values))) != len(values):
            raise UserError(f"rule parameter {name}: give distinct values, got {values!r}")
    return grid_params


def _setups_of_rules(
    spec: GameSpec,
    rules: RulesLike,
    players: int | Sequence[int],
    variants: str | Sequence[str] | None,
    grid_options: dict[str, list[Any]],
    params: Mapping[str, int | Sequence[int]] | None,
) -> list[tuple[RulesLike, str | None]]:
    """The set-ups of a study given a `Rules` object: its rules at each player count, which
    fix the rule parameters and the options (one value of each, agreeing with the rules)."""
    if not isinstance(rules, spec.Rules):
        raise UserError(f"rules must be a rules object of {spec.INFO.title} "
                        f"({spec.INFO.name}'s Rules), "
                        f"got {type(rules).__name__}")  # fmt: skip
    if params:
        raise UserError("a Rules object fixes the rule parameters: give them to Rules.make")
    setups: list[tuple[RulesLike, str | None]] = []
    for p in _listed(players):
        single = {k: v[0] for k, v in grid_options.items() if len(v) == 1}
        if any(len(v) > 1 for v in grid_options.values()):
            raise UserError("a Rules object fixes the rule options: give one value of each")
        setups.append((spec.make_rules(p, variants, rules, None, **single), None))
    return setups


#: How a study's rule-parameter lists combine (`make_study`'s `vary`).
VARY = ("grid", "one-at-a-time")


def param_sets(grid_params: dict[str, list[Any]], vary: str = "grid") -> list[dict[str, Any]]:
    """The rule parameters' value sets a study plays: every combination ("grid"), or the
    first values together and each other value alone ("one-at-a-time"), in list order."""
    if vary == "grid":
        return [dict(zip(grid_params, vs, strict=True))
                for vs in itertools.product(*grid_params.values())]  # fmt: skip
    first = {k: v[0] for k, v in grid_params.items()}
    return [first, *({**first, k: x} for k, v in grid_params.items() for x in v[1:])]


def _setups_of_grid(
    spec: GameSpec,
    players: int | Sequence[int],
    variants: str | Sequence[str] | None,
    components: str | Path | Sequence[str | Path] | None,
    grid_options: dict[str, list[Any]],
    grid_params: dict[str, list[Any]],
    vary: str = "grid",
) -> list[tuple[RulesLike, str | None]]:
    """The set-ups of a study's grid, each with its component file as given (None: the
    default set): every combination of player count, variant, component file, rule options
    and rule parameters' sets (`param_sets`), in that nesting order (the order of the
    cells)."""
    setups: list[tuple[RulesLike, str | None]] = []
    for p, v, comp, *opts, given in itertools.product(
        _listed(players),
        _listed(variants),
        _listed(components),
        *grid_options.values(),
        param_sets(grid_params, vary),
    ):
        chosen = {k: o for k, o in zip(spec.OPTIONS, opts, strict=True) if o is not None}
        r = spec.Rules.make(p, spec.parse_variants(v), comp, params=given, **chosen)
        setups.append((r, None if comp is None else str(comp)))
    return setups


def _cells(
    setups: list[tuple[RulesLike, str | None]],
    lineups: Sequence[Any] | Mapping[int, Sequence[Any]],
    rotation: str,
) -> list[Cell]:
    """The study's cells: each set-up with each lineup of its player count, numbered in that
    order; no cell twice."""
    cells = []
    for r, comp in setups:
        for lineup_id, lineup in enumerate(_lineups_for(lineups, r.players)):
            specs = tuple(parse_lineup(lineup, r.players, r.game))
            cells.append(Cell(len(cells), r, comp, lineup_id, specs, rotation))
    keys = [(c.rules, c.label) for c in cells]
    if len(set(keys)) != len(keys):
        raise UserError("the grid names the same cell twice (a repeated value in a list?)")
    return cells


def play_chunk(
    study: Study, cell: Cell, games: np.ndarray
) -> tuple[pd.DataFrame, pd.DataFrame | None, dict[str, Any]]:
    """Play the games of a cell (each in its seating, game i in seating i mod R) and return
    their results, the per-round table if asked, and what it cost: CPU seconds, and the
    process (pid) and its peak memory so far (a worker's, in a parallel run)."""
    clock = time.thread_time()  # this thread's: a run's serial writer thread is not counted
    seatings = cell.seatings()
    parts, rounds = [], []
    games = np.asarray(games, dtype=np.int64)
    rotation = games % len(seatings)
    groups: dict[tuple[str, ...], list[int]] = {}  # seatings that seat the same strategies
    for r, seating in enumerate(seatings):
        groups.setdefault(tuple(cell.lineup[k].label for k in seating), []).append(r)
    for rs in groups.values():
        mine = games[np.isin(rotation, rs)]
        specs = [cell.lineup[k] for k in seatings[rs[0]]]
        names = [s.label for s in specs]
        for b in range(0, len(mine), study.batch_size):
            batch = mine[b : b + study.batch_size]
            if study.engine == "batch":
                g = study.spec.Games.new(cell.rules, study.seed, batch, rounds=study.rounds)
                g.play([s() for s in specs], names=names)
                res = g.results()
                if study.rounds:
                    rounds.append(g.round_table())
            else:
                res = pd.concat(
                    [_reference_game(cell, specs, names, study.seed, int(i)) for i in batch]
                )
            res["rotation"] = res["game"].to_numpy() % len(seatings)
            parts.append(res)
    results = _tag(pd.concat(parts, ignore_index=True) if parts else _empty(study.spec), cell)
    table = None
    if study.rounds:
        table = pd.concat(rounds, ignore_index=True) if rounds else _empty_rounds(study.spec)
        table["cell"] = np.int32(cell.index)
        # the rules the rows were played under, as the results' rows carry them (a part of
        # another rule set is refused when a run is read: `rundir._rows_problem`)
        table["rules_digest"] = pd.Categorical([cell.rules.digest()] * len(table))
        table = with_game_column(table, study.game)  # every row names its game
        table = table.sort_values(["game", "round", "seat"], ignore_index=True)
    cost = {
        "cpu_seconds": round(time.thread_time() - clock, 3),
        "pid": os.getpid(),
        "peak_rss_mib": round(peak_rss_mib(), 1),
    }
    return results, table, cost


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB (0 where it cannot be read). On
    Linux its own high-water mark (VmHWM): `ru_maxrss` is carried across `exec`, so a worker
    (or a run started by a large process, a benchmark's) would report its parent's peak."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 2**10
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux or macOS
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


def _reference_game(
    cell: Cell, specs: list[StrategySpec], names: list[str], seed: int, game: int
) -> pd.DataFrame:
    spec = game_of(cell.rules)
    g = spec.ReferenceGame(cell.rules, [s() for s in specs], seed=seed, game=game, names=names)
    g.play()
    return spec.RESULTS.frame(spec.RESULTS.seat_rows(g.state, seed, game, names))


def _empty(spec: GameSpec) -> pd.DataFrame:
    out = spec.RESULTS.frame({c: [] for c in spec.RESULTS.columns})
    out["rotation"] = np.zeros(0, dtype=np.int8)
    return out


def _empty_rounds(spec: GameSpec) -> pd.DataFrame:
    out = pd.DataFrame({c: [] for c in spec.RESULTS.round_columns}).astype(
        spec.RESULTS.round_dtypes
    )
    return with_game_column(out, spec.INFO.name)


def _names(game: str, n: int) -> pd.Categorical:
    """The `GAME_COLUMN` of n rows of one game: a categorical of that one name."""
    return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), [game])


def with_game_column(df: pd.DataFrame, game: str) -> pd.DataFrame:
    """A results or per-round table whose rows name their game (`GAME_COLUMN`): a table
    written before rows named it (a run's older Parquet parts) gets the column, filled with
    `game` (the run's, from its manifest), after its `game` column."""
    if GAME_COLUMN not in df:
        at = int(df.columns.get_loc("game")) + 1 if "game" in df else 0
        df.insert(at, GAME_COLUMN, _names(game, len(df)))
    return df


def _tag(df: pd.DataFrame, cell: Cell) -> pd.DataFrame:
    """The results of a cell's chunk with its cell columns, sorted by game and seat."""
    df = df.sort_values(["game", "seat"], kind="stable", ignore_index=True)
    df["cell"] = np.int32(cell.index)
    df["lineup_id"] = np.int16(cell.lineup_id)
    df["lineup"] = cell.label
    df["rotation"] = df["rotation"].astype(np.int16)
    return df


def finish(df: pd.DataFrame, game: str) -> pd.DataFrame:
    """A whole results table: sorted by cell, game and seat; categoricals restored; a run
    made before the `win_share` column had it given (1/k to each of k tied winners), one
    made before a rule parameter of `parameters.LATER` its column (the value all its games
    were played with), after the parameter columns it has, and one made before rows named
    their game its `GAME_COLUMN`. `game`: the game the rows are of (a run's, from its
    manifest)."""
    spec = load_game(game)
    df = df.sort_values(["cell", "game", "seat"], kind="stable", ignore_index=True)
    df = with_game_column(df, spec.INFO.name)
    if "win_share" not in df and "win" in df:
        winners = df.groupby(["cell", "game"], observed=True)["win"].transform("sum")
        df.insert(int(df.columns.get_loc("win")) + 1, "win_share",
                  np.where(df["win"], 1.0 / np.maximum(winners, 1), 0.0))  # fmt: skip
    for name, value in spec.LATER.items():
        have = [p for p in spec.PARAMETERS if p in df]
        if name not in df and have:
            at = int(df.columns.get_loc(have[-1])) + 1
            df.insert(at, name, np.full(len(df), value, dtype=spec.RESULTS.dtypes[name]))
    for col in (*spec.RESULTS.categories, "lineup"):
        if col in df:
            df[col] = df[col].astype("category")
    df.attrs["game"] = spec.INFO.name  # kept for code that reads it; the rows say it too
    return df


# --- running -----------------------------------------------------------------------------------

#: How often (seconds) a run rewrites its manifest's totals as chunks finish (each write is
#: synced to disk: a write per chunk cost the run more than its chunks' own writes).
MANIFEST_EVERY = 2.0
#: A chunk: (cell, start, end), games start..end-1 of the cell.
Chunk = tuple[int, int, int]
#: What playing a chunk gives (`play_chunk`): results, the per-round table, the cost.
Played = tuple[pd.DataFrame, pd.DataFrame | None, dict[str, Any]]
#: How long (seconds) a run tries to connect to a dask scheduler (distributed's timeout).
DASK_CONNECT = 5.0
#: How long (seconds) a run waits on a dask cluster that cannot play: for its first worker,
#: and with no worker left while chunks wait. A chunk that plays for hours is not cut short.
DASK_WAIT = 30.0
#: The loggers through which dask.distributed and its event loop write to standard error.
DASK_LOGGERS = ("distributed", "tornado", "asyncio")


def run_chunks(
    study: Study,
    todo: Iterable[tuple[int, int, int]],
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    stored: bool = False,
) -> Iterator[tuple[Chunk, Any]]:
    """Play the chunks (a list or a lazy plan), yielding each one's result as it finishes
    (in any order): its tables (`play_chunk`), or with `stored`, the chunk ready to be
    written (`Stored`: its parts serialized where it was played, so that a parallel run's
    own process only writes bytes). n_jobs 1: serially, in this process, without joblib
    (for debugging and profiling; a run on disk played compiled makes each chunk's bytes in
    a thread while the next plays, `_serial_stored`). In parallel, a chunk that fails
    starts no new chunk, and the failure raised is the earliest chunk's of the plan, the one
    n_jobs 1 raises, whichever chunk failed first: chunks start in the plan's order, so once
    every chunk started before the earliest failure has finished (and been yielded), no
    earlier one can fail; the chunks after it still playing are then stopped, as they are on
    any error."""
    todo = iter(todo)
    first = next(todo, None)
    if first is None:
        return
    todo = itertools.chain([first], todo)
    if n_jobs == 1 and backend == "loky":
        if stored and study.engine == "batch" and plays_compiled(study.cells):
            yield from _serial_stored(study, todo)
            return
        for c, a, b in todo:
            yield _task(study, c, a, b, stored)
        return
    warm_up(study)
    _send_user_strategies_by_value(study)
    failed: list[tuple[Chunk, _Failure]] = []
    playing: set[Chunk] = set()  # started, not finished (joblib's thread starts loky's)

    def plan() -> Iterator[Chunk]:
        for chunk in todo:
            if failed:  # no new chunk after a failure
                return
            playing.add(chunk)
            yield chunk

    outcomes: Generator[tuple[Chunk, Played | _Failure], None, None]
    if backend == "dask":
        outcomes = _dask_outcomes(study, plan(), scheduler, stored)
    else:
        tasks = (delayed(_outcome)(study, c, a, b, stored) for c, a, b in plan())
        outcomes = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered")(tasks)
    try:
        for chunk, out in outcomes:
            playing.discard(chunk)
            if isinstance(out, _Failure):
                failed.append((chunk, out))
            else:
                yield chunk, out
            if failed:
                earliest = min(c for c, _ in failed)
                if all(earliest < c for c in list(playing)):
                    break  # no chunk still playing comes before the earliest failure
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # joblib's word on the chunks it stops
            outcomes.close()
    if failed:
        raise min(failed, key=lambda f: f[0])[1].error()


def warm_up(study: Study) -> None:
    """Before parallel workers start: the kernels the study's cells play on, compiled once
    in this process and announced (`warm.compiling`) when they are not in numba's cache yet,
    so that the workers load them instead of each compiling them, silently, at once (a cold
    `--jobs 2` run spent twice the CPU and printed nothing for minutes). One game of a cell
    per path is played and thrown away; a failure there is left to the run to report."""
    warm = study.spec.warm
    cold = {path for path in ("compiled", "view") if warm.cold(path)}
    if study.engine != "batch" or not cold:  # the usual case: nothing to compile
        return
    first: dict[str, Cell] = {}
    for cell in study.cells:
        first.setdefault("compiled" if plays_compiled([cell]) else "view", cell)
    for path, cell in first.items():
        if path in cold:
            with contextlib.suppress(Exception):
                play_chunk(replace(study, rounds=False), cell, np.zeros(1, dtype=np.int64))


def send_by_value(specs: Iterable[StrategySpec]) -> None:
    """A user's own strategy modules (`module:Class`) travel to parallel workers by value
    (`_send_user_strategies_by_value`)."""
    for spec in specs:
        module = sys.modules.get(spec.cls.__module__)
        top = spec.cls.__module__.split(".")[0]
        if module is not None and top not in ("moaisim", "strategies", "builtins"):
            cloudpickle.register_pickle_by_value(module)


def _send_user_strategies_by_value(study: Study) -> None:
    """A user's own strategy modules (`module:Class`, e.g. a file in the working directory)
    travel to the workers by value (cloudpickle), so a worker need not import them: loky
    reuses its workers between runs, and a worker started before the module was on the path
    (another run of the same session, a notebook) could not import it; nor can the machines
    of a dask cluster (whose tasks carry the study as cloudpickle's bytes: `_by_value`)."""

    send_by_value(spec for cell in study.cells for spec in cell.lineup)


@dataclass(frozen=True)
class Stored:
    """A chunk played for a run on disk, ready to be written: its results (and per-round
    table) as Parquet bytes, what it cost, and its tally for the run's summary."""

    results: SerializedPart
    rounds: SerializedPart | None
    cost: dict[str, Any]
    tally: Tally


def _task(study: Study, c: int, a: int, b: int, stored: bool = False) -> tuple[Chunk, Any]:
    """A task: play games a..b-1 of cell c; their tables (`play_chunk`), or `Stored`."""
    played = _play(study, c, a, b)
    if not stored:
        return (c, a, b), played
    return _stored((c, a, b), played)


def _play(study: Study, c: int, a: int, b: int
          ) -> tuple[pd.DataFrame, pd.DataFrame | None, dict[str, Any]]:  # fmt: skip
    """Games a..b-1 of cell c played (`play_chunk`)."""
    return play_chunk(study, study.cells[c], np.arange(a, b, dtype=np.int64))


def _stored(chunk: Chunk, played: tuple[pd.DataFrame, pd.DataFrame | None, dict[str, Any]]
            ) -> tuple[Chunk, Stored]:  # fmt: skip
    """A chunk's tables (`play_chunk`) ready to be written: `Stored`."""
    results, table, cost = played
    rounds = serialize(table) if table is not None else None
    return chunk, Stored(serialize(results), rounds, cost, tally(results))


def _serial_stored(study: Study, todo: Iterable[Chunk]) -> Iterator[tuple[Chunk, Stored]]:
    """n_jobs 1 for a run on disk played on the compiled path (`run_chunks`): the chunks
    in the plan's order, each one's Parquet bytes and tally made in a thread while the next
    chunk plays (the compiled kernels release the GIL; a Python strategy would hold it, and
    nothing would be gained), so that with a core to spare they cost no time. A
    chunk is yielded once the next has played; when that one fails, the chunk before it is
    yielded first (its part written, as playing chunk by chunk would have written it).
    No user code runs in these games: none can fork this process while the thread lives
    (a child would have no writer thread to wait for)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="moaisim-store") as pool:
        waiting: Future[tuple[Chunk, Stored]] | None = None
        for c, a, b in todo:
            try:
                played = _play(study, c, a, b)
            except BaseException:
                if waiting is not None:
                    done, waiting = waiting.result(), None
                    yield done
                raise
            if waiting is not None:
                yield waiting.result()
            waiting = pool.submit(_stored, (c, a, b), played)
        if waiting is not None:
            yield waiting.result()


@dataclass(frozen=True)
class _Failure:
    """A chunk's exception, returned by its parallel task instead of raised, so that the
    chunks already started can finish and the earliest failure be chosen (`run_chunks`);
    `trace` is the worker's traceback (the error's cause, which --debug shows)."""

    exception: Exception
    trace: str

    def error(self) -> Exception:
        """The exception to raise, with the worker's traceback as its cause."""
        self.exception.__cause__ = _RemoteTraceback(self.trace)
        return self.exception


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in another process, as text."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


def _outcome(study: Study, c: int, a: int, b: int, stored: bool = False) -> tuple[Chunk, Any]:
    """A parallel task: `_task`, its exception returned (a `_Failure`) rather than raised."""
    try:
        return _task(study, c, a, b, stored)
    except Exception as exc:
        return (c, a, b), _Failure(exc, traceback.format_exc())


def _dask_outcomes(
    study: Study, todo: Iterator[Chunk], scheduler: str | None, stored: bool = False
) -> Generator[tuple[Chunk, Any], None, None]:
    """`_outcome` of each chunk, played on a dask.distributed cluster, as they finish.

    Each task carries the study as bytes pickled by value (`_by_value`): dask pickles a
    task with plain pickle first, which names a class by its module, and its scheduler
    unpickles the task graph, so a user's own strategy (a module in the working directory,
    which neither the scheduler nor the workers can import) hung the run (joblib's dask
    backend lost the error). At most two chunks per worker thread wait at a time (a plan of
    a billion games stays lazy). Every wait on the cluster has a deadline: no worker at the
    start, or none left for `DASK_WAIT` seconds while chunks wait, is one line, and so is
    a task the cluster cannot load (a module the strategy imports that the workers lack) or
    run (its workers died): a `UserError`, never a hang. distributed's own logging is
    silenced (`_quiet_dask`)."""
    with _quiet_dask() as failed:
        client = _dask_client(scheduler)
        waiting: dict[Any, Chunk] = {}  # dask futures and their chunks
        finished: queue.Queue[Any] = queue.Queue()  # futures as they finish (or fail)
        try:
            try:
                client.wait_for_workers(1, timeout=DASK_WAIT)
            except (TimeoutError, OSError):
                raise UserError(
                    f"the dask scheduler {scheduler!r} has no worker after {DASK_WAIT:g} s: start "
                    f"workers (dask worker {scheduler}), then run again"
                ) from None
            blob = _by_value(study)
            width = 2 * max(1, sum(client.nthreads().values()))
            run = uuid.uuid4().hex[:8]
            seen = time.monotonic()  # when a worker was last seen
            while True:
                for c, a, b in itertools.islice(todo, max(0, width - len(waiting))):
                    key = f"moaisim-{run}-cell{c}-games{a}-{b}"
                    future = client.submit(_dask_task, blob, c, a, b, stored, key=key)
                    waiting[future] = (c, a, b)
                    future.add_done_callback(finished.put)
                if not waiting:
                    return
                try:
                    future = finished.get(timeout=min(5.0, DASK_WAIT))
                except queue.Empty:
                    if client.nthreads():
                        seen = time.monotonic()
                    elif time.monotonic() - seen > DASK_WAIT:
                        raise UserError(
                            f"the dask scheduler {scheduler!r} has had no worker for "
                            f"{DASK_WAIT:g} s while games wait: start workers, then run again "
                            "(with --resume if the run has --out)"
                        ) from None
                    continue
                seen = time.monotonic()
                chunk = waiting.pop(future)
                out = _dask_result(future, chunk)
                if isinstance(out, _Failure):
                    failed.append(chunk)
                yield chunk, out
        finally:
            with contextlib.suppress(Exception):
                client.cancel(list(waiting))
            with contextlib.suppress(Exception):
                client.close(timeout=10)


def _by_value(study: Study) -> bytes:
    """The study pickled by cloudpickle, a user's strategy modules by value (registered by
    `_send_user_strategies_by_value`): a dask worker unpickles it without importing them,
    and the scheduler never unpickles it (to it a task's bytes are only bytes)."""

    try:
        return cloudpickle.dumps(study)
    except Exception as exc:
        what = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise UserError(f"the study cannot be sent to the dask cluster ({what})") from None


def _dask_task(blob: bytes, c: int, a: int, b: int, stored: bool = False) -> tuple[Chunk, Any]:
    """A dask task: `_outcome` of games a..b-1 of cell c of the study in `blob`. A worker
    that cannot unpickle the study (it lacks a module) raises: the client reports that as
    the cluster's failure (`_dask_result`), not as the strategy's."""
    return _outcome(_unpickled(blob), c, a, b, stored)


@functools.lru_cache(maxsize=4)
def _unpickled(blob: bytes) -> Study:
    """The study in `blob`, unpickled once per worker process (its chunks share it)."""
    study: Study = pickle.loads(blob)
    return study


def _dask_result(future: Any, chunk: Chunk) -> Played | _Failure:
    """A finished dask task's outcome (a chunk's own failure is a `_Failure`); a task the
    cluster could not load or run is one line (a `UserError`)."""
    try:
        _, out = future.result()
    except Exception as exc:
        c, a, b = chunk
        what = " ".join(f"{type(exc).__name__}: {exc}".split())
        hint = ""
        if isinstance(exc, ImportError):
            hint = (
                ": every machine of the cluster needs moaisim and the modules the strategies "
                "import (a strategy's own module travels with the task)"
            )
        raise UserError(
            f"the dask cluster could not play games {a}-{b - 1} of cell {c} ({what}){hint}"
        ) from exc
    return out


@contextlib.contextmanager
def _quiet_dask() -> Iterator[list[Chunk]]:
    """dask.distributed's logging silenced while a run uses a cluster: what matters reaches
    the user as a result or as one line, while distributed logs connections closing and
    tasks cancelled (a failed run printed a 45-line `CommClosedError` traceback before its
    line). After a failed run (an exception, or a failed chunk added to the list it gives)
    it stays silenced: the client's event loop may still be closing connections when the
    error is printed, and after."""
    with contextlib.suppress(ImportError):  # its import sets its loggers' levels: first
        import distributed  # noqa: F401
    names = {*DASK_LOGGERS}
    names.update(n for n in logging.root.manager.loggerDict if n.split(".")[0] in DASK_LOGGERS)
    loggers = [logging.getLogger(n) for n in sorted(names)]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    failed: list[Chunk] = []
    yield failed  # an exception leaves them silenced
    if not failed:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def _dask_client(scheduler: str | None) -> Any:
    """A dask client connected to `scheduler` (not made dask's default client), or one line.
    Connecting has a deadline of its own: distributed's timeout covers a refused or silent
    address, but not one that accepts the connection and never answers as a scheduler
    (another service's port: the client waited forever), so the client is made in a
    thread of its own and given up after twice `DASK_CONNECT` seconds."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - the dask extra is not installed
        raise UserError(
            "the dask backend needs dask.distributed: pip install 'moaisim[dask]'"
        ) from None
    if not scheduler:
        raise UserError("the dask backend needs a scheduler address (--scheduler tcp://...)")
    made: dict[str, Any] = {}

    def connect() -> None:
        client = Client.__new__(Client)  # kept, to be disarmed if it fails
        try:
            client.__init__(scheduler, timeout=DASK_CONNECT, set_as_default=False)
        except Exception as exc:
            client.status = "closed"  # else its finalizer waits 10 s, then prints a traceback
            made["error"] = exc
        else:
            made["client"] = client

    thread = threading.Thread(target=connect, name="moaisim-dask-connect", daemon=True)
    thread.start()
    thread.join(2 * DASK_CONNECT)
    if thread.is_alive():
        raise UserError(
            f"cannot reach the dask scheduler {scheduler!r} (no answer as a dask scheduler "
            f"after {2 * DASK_CONNECT:g} s: is it the scheduler's address, tcp://HOST:8786?)"
        )
    if "error" in made:
        exc = made["error"]
        what = str(exc) if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
        raise UserError(f"cannot reach the dask scheduler {scheduler!r} "
                        f"({' '.join(what.split())})")  # fmt: skip
    return made["client"]


def check_memory(study: Study, games: int | None = None) -> None:
    """A study played in memory keeps every row: refuse one too large to hold (one clear
    line; a run on disk has no such limit)."""
    per_cell = study.games if games is None else games
    rows = sum(per_cell * c.rules.players for c in study.cells)
    if rows > MEMORY_ROWS:
        raise UserError(
            f"{per_cell:,} games x {len(study.cells)} cells make {rows:,} result rows, too many "
            f"to keep in memory (about {rows * 100 / 2**30:,.0f} GiB; the limit is "
            f"{MEMORY_ROWS:,}): write the run to disk with --out (out= in Python)"
        )


def run_in_memory(
    study: Study, n_jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
    progress: Progress | None = None, games: np.ndarray | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame | None]:  # fmt: skip
    """Play a whole study and return its results (and per-round table) in memory; `games`
    (game indices) replaces games 0..N-1 when given (played serially)."""
    parts, rounds = [], []
    if progress is not None:
        progress.plan((study.games if games is None else len(games)) * len(study.cells))
    if games is not None:
        done = ((c.index, play_chunk(study, c, games)) for c in study.cells)
        chunks = (((c, 0, len(games)), out) for c, out in done)
    else:
        chunks = run_chunks(study, study.plan(), n_jobs, backend, scheduler)
    for (_, a, b), (res, table, _) in chunks:
        parts.append(res)
        if table is not None:
            rounds.append(table)
        if progress is not None:
            progress.update(b - a)
    whole = pd.concat(parts, ignore_index=True) if parts else _empty_cells(study.spec)
    results = finish(whole, study.game)
    if not study.rounds:
        return results, None
    table = pd.concat(rounds, ignore_index=True) if rounds else _empty_rounds(study.spec)
    return results, table.sort_values(["cell", "game", "round", "seat"], ignore_index=True)


def _empty_cells(spec: GameSpec) -> pd.DataFrame:
    out = _empty(spec)
    out["cell"] = np.zeros(0, dtype=np.int32)
    out["lineup_id"] = np.zeros(0, dtype=np.int16)
    out["lineup"] = pd.Series([], dtype=object)
    return out


# --- runs on disk ------------------------------------------------------------------------------


def versions() -> dict[str, str]:
    """The versions of Python and of the packages a run depends on (for the manifest)."""
    out = {"python": platform.python_version()}
    for pkg in ("moaisim", "numpy", "pandas", "numba", "pyarrow", "joblib", "scipy"):
        with contextlib.suppress(PackageNotFoundError):  # a missing package: not recorded
            out[pkg] = version(pkg)
    return out


def run_to_disk(
    study: Study,
    out: str | Path,
    resume: bool = False,
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: Progress | None = None,
    command: str | None = None,
    force_resume: bool = False,
    notify: Callable[[str], None] | None = None,
    option: str = "--out",
    tallies: list[Tally] | None = None,
) -> dict[str, Any]:
    """Play a study into a run directory and return its manifest (`moaisim.rundir`); the
    tally of every chunk played is appended to `tallies` when given (the run's summary
    without reading its parts again, `summary_of`).

    The directory is locked while the run writes it (a second run on it is an error). With
    `resume`, a directory holding the same study (same seed and grid) goes on where it
    stopped, or plays the games that a larger `games` adds; every finished part is checked
    against its checksum first, and one that is missing, cut short, changed or foreign is
    played again (`notify` says so; default: a `RunWarning`). The code must be the code that
    started the run (`moaisim.fingerprint`): another version of the engine, the rules or a
    strategy (its source, its defaults, the files it reads) is an error naming what changed,
    unless `force_resume` (recorded in the manifest as `forced_resumes`). A directory holding
    another study, or a run without `resume`, is an error; nothing is written then, and an
    error before the first part leaves nothing that blocks a plain rerun. `option` is how
    messages name the run directory's option (`--out`; an experiment's `--runs`).
    """
    run = RunDir(out)
    say = notify if notify is not None else _warn
    identity = json.loads(json.dumps(study.identity(), default=str))
    prints = fingerprint(spec for c in study.cells for spec in c.lineup)
    created = not run.path.exists()
    wrote = False
    try:
        with run.locked():
            if run.holds_nothing():
                run.clear()
                manifest, done = _new_manifest(study, identity, prints), []
            else:
                study, identity = _kept_chunks(run, study, identity)
                manifest, done = _resumed(run, study, identity, prints, resume, force_resume,
                                          option, say)  # fmt: skip
            manifest["command"] = command
            study_id = study_digest(manifest["study"])
            spans = [(c["cell"], c["start"], c["end"]) for c in done]
            manifest["games_played"] = sum(b - a for _, a, b in spans)
            manifest["complete"] = False
            run.write(manifest)
            if progress is not None:
                progress.plan(study.games_left(spans))
            clock = written = time.perf_counter()
            elapsed = float(manifest.get("seconds", 0.0))
            todo = study.plan(spans)
            for (c, a, b), chunk in run_chunks(study, todo, n_jobs, backend, scheduler,
                                               stored=True):  # fmt: skip
                _record_part(run, study_id, (c, a, b), chunk)
                wrote = True
                spans.append((c, a, b))
                if tallies is not None:
                    tallies.append(chunk.tally)
                _count_part(manifest, b - a, chunk.cost, elapsed + time.perf_counter() - clock)
                if time.perf_counter() - written >= MANIFEST_EVERY:  # the parts list is the
                    run.write(manifest)  # truth on resume; the manifest's totals follow it
                    written = time.perf_counter()
                if progress is not None:
                    progress.update(b - a)
            manifest["complete"] = study.games_left(spans) == 0
            run.write(manifest)
            wrote = True
            return manifest
    except BaseException:
        run.guard()  # a child forked by a strategy ends here: it removes nothing of the run
        if not wrote:  # nothing of this run is worth keeping: leave the directory as it was
            _leave_as_found(run, created)
        raise


def _new_manifest(study: Study, identity: dict[str, Any], prints: dict[str, Any]) -> dict[str, Any]:
    """The manifest a new run starts with: the study, the code that plays it, the package
    versions, when it started; no time spent yet."""
    return {
        "format": FORMAT,
        GAME_KEY: study.game,
        "study": identity,
        "games": study.games,
        "seed": study.seed,
        "fingerprint": prints,
        "versions": versions(),
        "started": now(),
        "seconds": 0.0,
        "cpu_seconds": 0.0,
    }


def _kept_chunks(run: RunDir, study: Study, identity: dict[str, Any]
                 ) -> tuple[Study, dict[str, Any]]:  # fmt: skip
    """A study whose chunk size is the default goes on with the chunks of the run it
    resumes (a run made before a default changed, or by another lineup's default)."""
    if not study.chunk_default or not run.exists():
        return study, identity  # not a run directory: `_resumed` says so
    saved = run.read().get("study")
    kept = saved.get("chunk_size") if isinstance(saved, dict) else None
    if isinstance(kept, int) and kept != study.chunk_size:
        study = dataclasses.replace(study, chunk_size=kept)
        identity = {**identity, "chunk_size": kept}
    return study, identity


def _resumed(
    run: RunDir, study: Study, identity: dict[str, Any], prints: dict[str, Any], resume: bool,
    force_resume: bool, option: str, say: Callable[[str], None],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:  # fmt: skip
    """The manifest and the verified parts of the run a directory already holds, to go on
    with: refused unless it is a run directory, `resume` is asked, the study is the same and
    so is the code (or `force_resume`); parts that fail their checks are left out (their
    games are played again) and the part list rewritten without them."""
    if not run.exists():
        raise UserError(f"{run.path} exists and is not a run directory: choose another {option}")
    manifest = run.read()
    check_game(manifest_game(manifest), study.game, run.path, "a run")
    if not resume:
        raise UserError(
            f"{run.path} already holds a run: add --resume to continue or extend "
            f"it, or choose another {option}"
        )
    if manifest["study"] != identity:
        what = "; ".join(study_differences(manifest["study"], identity))
        raise UserError(f"{run.path} holds a different run ({what}): choose "
                        f"another {option}")  # fmt: skip
    _check_code(run, manifest, prints, force_resume, option)
    done = _verified_parts(run, manifest, say)
    run.rewrite(done)
    manifest["games"] = max(manifest["games"], study.games)
    return manifest, done


def _record_part(run: RunDir, study_id: str, chunk: Chunk, stored: Stored) -> None:
    """Write a finished chunk's results (and per-round table) as Parquet parts and record
    them in the part list, with their checksums and what the chunk cost."""
    c, a, b = chunk
    entry = {"cell": c, "start": a, "end": b, "study": study_id,
             **run.write_part("parts", stored.results, c, a, b)}  # fmt: skip
    if stored.rounds is not None:
        rounds = run.write_part("rounds", stored.rounds, c, a, b)
        entry.update({f"rounds_{k}" if k != "file" else "rounds_file": v
                      for k, v in rounds.items()})  # fmt: skip
    run.record({**entry, **stored.cost})


def _count_part(manifest: dict[str, Any], games: int, cost: dict[str, Any], seconds: float) -> None:
    """The manifest's totals after a recorded chunk of `games` games: games played, CPU and
    wall-clock seconds (`seconds`: the run's, earlier sessions included), speed, last update."""
    manifest["cpu_seconds"] = round(manifest["cpu_seconds"] + cost["cpu_seconds"], 3)
    manifest["seconds"] = round(seconds, 3)
    manifest["games_played"] += games
    manifest["games_per_second"] = round(
        manifest["games_played"] / max(manifest["seconds"], 1e-9), 1
    )
    manifest["updated"] = now()


def _leave_as_found(run: RunDir, created: bool) -> None:
    """Undo a run that stopped or failed before its first part: remove the directory it
    created, or empty the one it was given (its lock file too), so a plain rerun works."""
    if created:
        shutil.rmtree(run.path, ignore_errors=True)
    elif run.holds_nothing():
        run.clear()
        with contextlib.suppress(OSError):
            (run.path / LOCK).unlink()


class RunWarning(UserWarning):
    """Something a run found and dealt with (a part played again), worth telling the user."""


def _warn(message: str) -> None:
    """The default `notify`: a message that starts 'warning: ' becomes a `RunWarning`."""
    if message.startswith("warning: "):
        warnings.warn(message[len("warning: ") :], RunWarning, stacklevel=3)


def study_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two studies' identities, in words ('seed 5 -> 6')."""
    out = []
    for key in ("seed", "rotation", "chunk_size", "rounds", "engine"):
        if old.get(key) != new.get(key):
            out.append(f"{key.replace('_', ' ')} {old.get(key)!r} -> {new.get(key)!r}")
    cells_a, cells_b = old.get("cells", []), new.get("cells", [])
    if len(cells_a) != len(cells_b):
        out.append(f"the grid has {len(cells_b)} cells, the run {len(cells_a)}")
    else:
        for a, b in zip(cells_a, cells_b, strict=True):
            first = ["players", "setup", "lineup", "components", "rules_digest"]
            keys = [k for k in [*first, *sorted(set(a) | set(b))] if a.get(k) != b.get(k)]
            if keys:
                k = keys[0]
                out.append(f"cell {a.get('cell')}: {k} {a.get(k)!r} -> {b.get(k)!r}")
                break
    return out or ["another study"]


def _check_code(
    run: RunDir, manifest: dict[str, Any], prints: dict[str, Any], force: bool, option: str
) -> None:
    """Resuming needs the code that started the run (or `force`, recorded)."""
    changed = differences(manifest.get("fingerprint", {}), prints)
    if not changed:
        return
    if not force:
        raise UserError(
            f"{run.path} was played by other code ({'; '.join(changed)} changed): resume it "
            f"with the code that started it, or choose another {option} (--force-resume "
            "mixes them, and the run records it)"
        )
    manifest.setdefault("forced_resumes", []).append(
        {"at": now(), "changed": changed, "fingerprint": prints}
    )
    manifest["fingerprint"] = prints


def _verified_parts(
    run: RunDir, manifest: dict[str, Any], say: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The finished parts whose files are the ones recorded, holding the games their records
    name; the others (and records that are malformed, of another study or of games another
    part holds) are reported through `say` and left out (their games are played again)."""
    done = []
    for entry in run.parts(manifest, strict=False, say=say):
        for key in ("file", "rounds_file"):
            if key not in entry:
                continue
            _, problem = run.check(entry, key, manifest=manifest)
            if problem:
                games = f"{entry['start']}-{entry['end'] - 1}"
                say(f"warning: {run.path / entry[key]} {problem}: playing games {games} of cell "
                    f"{entry['cell']} again")  # fmt: skip
                break
        else:
            done.append(entry)
    return done


def load_results(path: str | Path, table: str = "results") -> pd.DataFrame:
    """The results (or `table="rounds"`, the per-round table) of a run directory, sorted
    by cell, game (round) and seat, with the study's cell columns. Every part is checked
    against its checksum and its record first (one clear line naming a part that is not the
    run's: changed, cut short, from another study, or not the games its record names)."""
    run = RunDir(path)
    if not run.exists():
        raise UserError(f"{run.path} is not a run directory (no manifest.json)")
    if table not in ("results", "rounds"):
        raise UserError(f"table must be 'results' or 'rounds', got {table!r}")
    manifest = run.read()
    if table == "rounds" and not manifest["study"].get("rounds"):
        raise UserError(f"{run.path} was run without --rounds: it has no per-round table")
    key = "file" if table == "results" else "rounds_file"
    game = manifest_game(manifest)
    # each part's rows name their game (a part written before they did: the run's game)
    parts = [with_game_column(run.read_part(c, key, manifest=manifest), game)
             for c in run.parts(manifest) if key in c]  # fmt: skip
    if not parts:
        spec = load_game(game)
        return finish(_empty_cells(spec), game) if table == "results" else _empty_rounds(spec)
    df = pd.concat(parts, ignore_index=True)
    if table == "rounds":
        df[GAME_COLUMN] = df[GAME_COLUMN].astype("category")
        return df.sort_values(["cell", "game", "round", "seat"], ignore_index=True)
    return finish(df, game)


#: The columns the summary reads from a run's parts.
SUMMARY_COLUMNS = ["cell", "game", "players", "setup", "seat", "strategy", "score", "win"]
SUMMARY_KEYS = ["cell", "players", "setup", "strategy"]


@dataclass(frozen=True)
class Tally:
    """What a summary needs of some games (`tally`): per cell and strategy, seats, score
    and win-share sums; per cell, the games; per cell and seat, the win-share sums. Tallies
    of disjoint games add up."""

    sums: pd.DataFrame
    games: pd.Series
    seats: pd.Series


def tally(df: pd.DataFrame) -> Tally:
    """The summary's sums over the rows of some games (shared wins split evenly)."""
    winners = df.groupby(["cell", "game"], observed=True)["win"].transform("sum")
    df = df.assign(share=np.where(df["win"], 1.0 / winners, 0.0))
    sums = df.groupby(SUMMARY_KEYS, observed=True).agg(
        seats=("game", "size"), score=("score", "sum"), share=("share", "sum")
    )
    by_seat = df.groupby(["cell", "seat"], observed=True)["share"].sum()
    return Tally(sums, df.groupby("cell", observed=True)["game"].nunique(), by_seat)


def summary_of(tallies: Iterable[Tally]) -> pd.DataFrame:
    """Per cell and strategy: games, mean score and win share, and the cell's win share of
    each seat in order (seat 0 first, who holds the bird-man token before round 1), from
    tallies of disjoint games (a run's parts never share a game of a cell)."""
    tallies = [t for t in tallies if len(t.sums)]
    if not tallies:
        return pd.DataFrame(
            columns=[*SUMMARY_KEYS, "games", "mean_score", "win_share", "seat_shares"]
        )
    total = pd.concat([t.sums for t in tallies]).groupby(level=SUMMARY_KEYS, observed=True).sum()
    per_cell = pd.concat([t.games for t in tallies]).groupby(level=0).sum()
    out = pd.DataFrame({
        "mean_score": total["score"] / total["seats"],
        "win_share": total["share"] / total["seats"],
    }).reset_index()  # fmt: skip
    out.insert(4, "games", out["cell"].map(per_cell).astype(int))
    seats = pd.concat([t.seats for t in tallies]).groupby(level=[0, 1]).sum()
    said = {
        cell: " / ".join(f"{100 * x / per_cell[cell]:.1f}" for x in part.to_numpy()) + " %"
        for cell, part in seats.groupby(level=0)
    }
    out["seat_shares"] = out["cell"].map(said)
    return out


def summary(results: pd.DataFrame | str | Path) -> pd.DataFrame:
    """Per cell and strategy: games, mean score and win share (shared wins split evenly), of
    a results DataFrame or of a run directory. A run is read one part at a time, only the
    columns needed, so its memory does not grow with the run."""
    if isinstance(results, pd.DataFrame):
        return summary_of([tally(results)] if len(results) else [])
    run = RunDir(results)
    if not run.exists():
        raise UserError(f"{run.path} is not a run directory (no manifest.json)")
    manifest = run.read()
    parts = (
        run.read_part(c, columns=SUMMARY_COLUMNS, manifest=manifest) for c in run.parts(manifest)
    )
    return summary_of(tally(df) for df in parts if len(df))
