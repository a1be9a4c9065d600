"""The public Python API (docs/design.md)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim.checks import GAMES, check_count, check_seed, game_indices, whole
from moaisim.errors import UserError
from moaisim.games import DEFAULT, GameSpec, check_name, load_game
from moaisim.games.base import RulesLike
from moaisim.progress import bar
from moaisim.registry import StrategySpec, parse_lineup
from moaisim.rundir import recorded_game
from moaisim.runner import (
    ENGINES,
    Progress,
    RunWarning,
    Study,
    Tally,
    check_jobs,
    check_memory,
    make_study,
    run_in_memory,
    run_to_disk,
    summary,
    summary_of,
)

#: Games the batch engine plays at once in `simulate` (memory grows linearly with it).
BATCH_SIZE = 10_000


def play(
    players: int,
    seed: int,
    game: int = 0,
    strategies: str | type | StrategySpec | Sequence[str | type | StrategySpec] = "greedy",
    variants: str | Iterable[str] | None = None,
    rules: RulesLike | None = None,
    engine: str = "reference",
    components: str | Path | None = None,
    params: Mapping[str, int] | None = None,
    game_name: str | None = None,
    **options: str | None,
) -> Any:
    """Play game `game` (its index) of root seed `seed` and return its record (events, text,
    result).

    strategies: one spec for every seat or one per seat (names, 'module:Class', classes).
    options: rule options, e.g. turn_order="clockwise", volcano_after_moai="camp".
    game_name: the game played (`moaisim games`; default: the rules' game, else moai).
    """
    _check_engine(engine)
    check_seed(seed)
    if not whole(game) or not 0 <= game < GAMES:
        raise UserError(f"game must be an integer from 0 to 2**63-1, got {game!r}")
    spec = _game(game_name, rules)
    r = spec.make_rules(players, variants, rules, components, params, **options)
    specs = parse_lineup(strategies, r.players, spec.INFO.name)
    names = [s.label for s in specs]
    if engine == "batch":
        b = spec.Games.new(r, seed, [game], log=[game]).play([s() for s in specs], names=names)
        return spec.GameRecord(r, seed, game, names, b.events[game], b.results())
    g = spec.ReferenceGame(r, [s() for s in specs], seed=seed, game=game, names=names)
    events = g.play()
    result = spec.RESULTS.frame(spec.RESULTS.seat_rows(g.state, seed, game, names))
    return spec.GameRecord(r, seed, game, names, events, result)


def _game(game_name: str | None, rules: RulesLike | None) -> GameSpec:
    """The game named, else the rules' game, else the default (moai: the public API is an
    edge where the default game is applied); rules of another game than the one named are a
    one-line error."""
    if game_name is None:
        return load_game(rules.game if rules is not None else DEFAULT)
    spec = load_game(check_name(game_name))
    if rules is not None and rules.game != spec.INFO.name:
        raise UserError(f"these rules are {rules.game}'s, not {spec.INFO.name}'s")
    return spec


def simulate(
    players: int | Sequence[int],
    games: int | Iterable[int],
    strategies: str | type | StrategySpec | Sequence[str | type | StrategySpec] = "greedy",
    variants: str | Sequence[str] | None = None,
    seed: int = 0,
    engine: str = "batch",
    rules: RulesLike | None = None,
    batch_size: int = BATCH_SIZE,
    components: str | Path | Sequence[str | Path] | None = None,
    *,
    lineups: Sequence[Any] | None = None,
    rotation: str = "cyclic",
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    chunk_size: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    rounds: bool = False,
    progress: bool | Progress = False,
    force_resume: bool = False,
    params: Mapping[str, int | Sequence[int]] | None = None,
    command: str | None = None,
    notify: Callable[[str], None] | None = None,
    game_name: str | None = None,
    **options: str | Sequence[str] | None,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Play a study and return its per-seat results (results schema + cell columns).

    A study is a grid: `players`, `variants` (each a variant, '+' combining names),
    `components`, every rule option (`turn_order=...`) and every rule parameter
    (`params={"removed_epoch3": [0, 1, 2]}`) may be one value or a list, and
    `lineups` lists several lineups (`strategies` is one). Each cell plays games 0..n-1 of
    root seed `seed` (or the game indices given): game i is the same deal in every cell,
    seated in rotation i mod R of its lineup (`rotation`: "cyclic", "all" seatings, or
    "none"). Game i is the same game whatever the engine, the jobs, the backend, the chunk
    and batch sizes. `n_jobs` > 1 plays chunks in parallel (loky), `backend="dask"` on the
    dask.distributed cluster at `scheduler`.

    With `out`, the run is written to that directory (Parquet parts and a manifest; with
    `resume`, an existing run of the same study and the same code goes on or grows;
    `force_resume` lets changed code go on, recorded) and the per-cell summary is returned:
    `load_results(out)` gives the rows. With `rounds`, a per-round table is kept too; in
    memory, (results, rounds) is returned.

    `progress` shows a progress bar (True) or reports to a `moaisim.progress.Progress`;
    `command` is what a run on disk records as the command that made it; `notify` is told
    what the run finds worth saying (the cost of `rotation="all"`, a part played again);
    by default those that matter are `RunWarning`s. `game_name` names the game played
    (`moaisim games`; default: the rules' game, else moai).
    """
    index = _chosen_games(games)
    count = len(index) if index is not None else games
    study = make_study(players, count, list(lineups) if lineups is not None else [strategies],
                       variants, seed, components, rotation, chunk_size, rounds, engine,
                       batch_size, rules, params, game=_game(game_name, rules).INFO.name,
                       **options)  # fmt: skip
    check_jobs(n_jobs, backend, scheduler)
    _check_destination(study, index, out, resume, force_resume)
    _tell_seating_cost(study, notify)
    bar = _progress_bar(study, index) if progress is True else (progress or None)
    try:
        if out is not None:
            played: list[Tally] = []
            manifest = run_to_disk(study, out, resume, n_jobs, backend, scheduler, bar,
                                   command or "moaisim.simulate(...)", force_resume, notify,
                                   tallies=played)  # fmt: skip
            if sum(int(t.games.sum()) for t in played) == manifest["games_played"]:
                return summary_of(played)  # every game was played now: no part read again
            return summary(out)
        results, table = run_in_memory(study, n_jobs, backend, scheduler, bar, index)
    finally:
        if bar is not None:
            bar.close()
    return (results, table) if rounds else results


def _chosen_games(games: int | Iterable[int]) -> np.ndarray | None:
    """The game indices `simulate` was given (checked, at least one), or None when it was
    given a count (games 0..n-1, checked by `make_study`)."""
    if isinstance(games, int | np.integer) and not isinstance(games, bool):
        return None
    index = _game_indices(games)
    if not len(index):
        raise UserError("games: the list of game indices is empty (give at least one)")
    return index


def _check_destination(
    study: Study, index: np.ndarray | None, out: str | Path | None, resume: bool,
    force_resume: bool,
) -> None:  # fmt: skip
    """Where the results go, checked before anything is played: a run kept in memory cannot
    resume and must fit in memory; a run on disk plays games 0..n-1 (a count, not indices)."""
    if out is None:
        if resume or force_resume:
            raise UserError("resume needs the run's directory (--out; out= in Python)")
        check_memory(study, None if index is None else len(index))
    elif index is not None:
        raise UserError("a run on disk plays games 0..n-1: give games as a count")


def _tell_seating_cost(study: Study, notify: Callable[[str], None] | None) -> None:
    """Say what `rotation="all"` costs (`Study.seating_cost`): to `notify`, or else as a
    `RunWarning` when it is a warning (attributed to the caller of `simulate`)."""
    cost = study.seating_cost()
    if cost and notify is not None:
        notify(cost)
    elif cost and cost.startswith("warning: "):
        warnings.warn(cost[len("warning: ") :], RunWarning, stacklevel=3)


def replay(log: str, components: str | Path | None = None) -> Any:
    """Play a game's log (`GameRecord.jsonl`, `moaisim play --json`) again: the rules its
    header names (players, variants, rule options, rule parameters, and `components`, the
    component file, when the set is not the default one), its seed and game, and each
    seat's logged decisions fed back as the seat's answers. The game must make the log's
    events one by one: a log is then evidence of its scores, whatever strategies played
    it. A log that does not replay, or whose header is not the rules it was played with,
    is a `UserError` (one line). The log's header names its game (`game_name`; a log
    without one is Moai's)."""
    return load_game(log_game(log)).replay(log, components)


def log_game(log: str) -> str:
    """The game a log (`moaisim play --json`) was played in: its header's `game_name` (a log
    written before logs named their game names none: `rundir.recorded_game`)."""
    first = next((line for line in str(log).splitlines() if line.strip()), "")
    try:
        header = json.loads(first)
    except ValueError:
        header = None  # the game's own reader says what is wrong with it
    named = header.get("game_name") if isinstance(header, dict) else None
    return check_name(recorded_game() if named is None else named)


def _progress_bar(study: Study, index: np.ndarray | None) -> Progress:
    """A rich progress bar (games, games/s, time left) fed by the runner's `Progress`."""

    per_cell = study.games if index is None else len(index)
    return bar(per_cell * len(study.cells))


def _check_engine(engine: str) -> None:
    if engine not in ENGINES:
        raise UserError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")


def _game_indices(games: int | Iterable[int]) -> np.ndarray:
    """Game indices of a run: n -> 0..n-1, or the given indices (distinct, 0 to 2**63-1)."""
    if whole(games):
        return np.arange(check_count(games, "games", 1), dtype=np.int64)
    if isinstance(games, str | bytes) or not hasattr(games, "__iter__"):
        raise UserError(f"games must be a count or a list of game indices, got {games!r}")
    return game_indices(games)
