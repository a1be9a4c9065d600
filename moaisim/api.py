"""The public Python API (docs/design.md)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim.checks import GAMES, check_count, check_seed, game_indices, whole
from moaisim.engine.forward import Games
from moaisim.engine.record import NOT_A_LOG, GameRecord, compare_events, logged_rules, read_log
from moaisim.engine.reference import ReferenceGame
from moaisim.engine.results import frame, seat_rows
from moaisim.engine.views import SeatView
from moaisim.errors import StrategyError, UserError
from moaisim.progress import bar
from moaisim.registry import StrategySpec, parse_lineup
from moaisim.rules import Rules
from moaisim.rules.model import make_rules
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
from moaisim.strategies.base import Strategy

#: Games the batch engine plays at once in `simulate` (memory grows linearly with it).
BATCH_SIZE = 10_000


def play(
    players: int,
    seed: int,
    game: int = 0,
    strategies: str | type | StrategySpec | Sequence[str | type | StrategySpec] = "greedy",
    variants: str | Iterable[str] | None = None,
    rules: Rules | None = None,
    engine: str = "reference",
    components: str | Path | None = None,
    params: Mapping[str, int] | None = None,
    **options: str | None,
) -> GameRecord:
    """Play game `game` of root seed `seed` and return its record (events, text, result).

    strategies: one spec for every seat or one per seat (names, 'module:Class', classes).
    options: rule options, e.g. turn_order="clockwise", volcano_after_moai="camp".
    """
    _check_engine(engine)
    check_seed(seed)
    if not whole(game) or not 0 <= game < GAMES:
        raise UserError(f"game must be an integer from 0 to 2**63-1, got {game!r}")
    r = make_rules(players, variants, rules, components, params, **options)
    specs = parse_lineup(strategies, r.players)
    names = [spec.label for spec in specs]
    if engine == "batch":
        b = Games.new(r, seed, [game], log=[game]).play([s() for s in specs], names=names)
        return GameRecord(r, seed, game, names, b.events[game], b.results())
    g = ReferenceGame(r, [s() for s in specs], seed=seed, game=game, names=names)
    events = g.play()
    result = frame(seat_rows(g.state, seed, game, names))
    return GameRecord(r, seed, game, names, events, result)


def simulate(
    players: int | Sequence[int],
    games: int | Iterable[int],
    strategies: str | type | StrategySpec | Sequence[str | type | StrategySpec] = "greedy",
    variants: str | Sequence[str] | None = None,
    seed: int = 0,
    engine: str = "batch",
    rules: Rules | None = None,
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
    by default those that matter are `RunWarning`s.
    """
    index = _chosen_games(games)
    count = len(index) if index is not None else games
    study = make_study(players, count, list(lineups) if lineups is not None else [strategies],
                       variants, seed, components, rotation, chunk_size, rounds, engine,
                       batch_size, rules, params, **options)  # fmt: skip
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


def replay(log: str, components: str | Path | None = None) -> GameRecord:
    """Play a game's log (`GameRecord.jsonl`, `moaisim play --json`) again: the rules its
    header names (players, variants, rule options, rule parameters, and `components`, the
    component file, when the set is not the default one), its seed and game, and each
    seat's logged decisions fed back as the seat's answers. The game must make the log's
    events one by one: a log is then evidence of its scores, whatever strategies played
    it. A log that does not replay, or whose header is not the rules it was played with,
    is a `UserError` (one line)."""
    header, events = read_log(log)
    rules = logged_rules(header, components)
    players = rules.players
    decisions: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for e in events:
        if e.get("e") == "decision" and not e.get("forced"):
            seat = e.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < players or "action" not in e:
                raise UserError(f"{NOT_A_LOG}: a decision names no seat of the game or no action")
            decisions[seat].append(e)
    names = [str(n) for n in header["strategies"]]
    if len(names) != players:
        raise UserError(
            f"{NOT_A_LOG}: its header names {len(names)} strategies for {players} seats"
        )
    game = ReferenceGame(rules, [Replay(d) for d in decisions], seed=header["seed"],
                game=header["game"], names=names)  # fmt: skip
    try:
        made = game.play()
    except StrategyError as exc:  # ran out of decisions, or one the game does not allow
        compare_events(events, game.events, partial=True)  # the first event that differs, if any
        raise UserError(f"the log does not replay: seat {exc.seat}'s decision {exc.kind!r}: "
                        f"{exc.problem}") from None  # fmt: skip
    compare_events(events, made)
    result = frame(seat_rows(game.state, header["seed"], header["game"], names))
    return GameRecord(rules, header["seed"], header["game"], names, made, result)


class Replay(Strategy):
    """Answers with one seat's logged, unforced decisions, in order (`replay`)."""

    name = "replay"

    def __init__(self, decisions: list[dict[str, Any]]) -> None:
        super().__init__()
        self.decisions = list(decisions)

    def _answer(self, view: SeatView) -> np.ndarray:
        if not self.decisions:
            raise ValueError("the log has no more decisions for this seat")
        d = self.decisions.pop(0)
        if d.get("kind") != view.kind.value:
            raise ValueError(f"the log's next decision is a {d.get('kind')!r}")
        return np.asarray([d["action"]])

    bid = order_ties = pick_epoch = disaster_target = disaster_loss = work = _answer
    forest_tie = finish_moai = feed = rest = birth = boat = _answer


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
