"""Strength by simulation, and the tuner that finds strong `heuristic` weights.

`rotated` plays one strategy against a field of opponents with seats rotated: the same game
indices (common random numbers: the same deals and decks) once with the strategy in each seat,
the field filling the other seats in order, on the batch engine. `strength` turns that into a
win share (a k-way shared win counts 1/k) with a Wilson 95 % interval and the mean rank.

`tune` searches the `heuristic` weight space with CMA-ES (the `cma` package): every candidate
plays the same fixed games, seats rotated, against a named field; the objective is its win
share (or its mean rank). It saves its state after every generation (atomically: a temporary
file, then a rename), so an interrupted run resumes where it stopped and ends with the same
result as an uninterrupted one; it writes the best weights as a TOML file that records how
they were made, with their strength on held-out games (another root seed), and a short log.
`search` is the same with the settings of the search as one `TuneSettings`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import pickle
import shlex
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cma
import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from moaisim.analysis.stats import wilson
from moaisim.errors import UserError
from moaisim.files import (
    GAME_KEY,
    check_game,
    check_writable_file,
    read_text,
    shown,
    write_atomic,
)
from moaisim.fingerprint import fingerprint
from moaisim.games import load_game
from moaisim.games.base import RulesLike
from moaisim.registry import StrategySpec, file_game, level_or_spec, load_strategy, split_top
from moaisim.rundir import identity_game, make_dir, recorded_game
from moaisim.runner import check_jobs


def _spec(strategy: str | type | StrategySpec, game: str) -> StrategySpec:
    return load_strategy(strategy, game=game)


def weights_home(game: str) -> Path:
    """The folder of a game's shipped weights and mixture files (`GameSpec.weights_path`)."""
    return Path(load_game(game).weights_path("heuristic.toml")).parent


def _field_list(field: Any, players: int | None = None, *, game: str) -> list[Any]:
    """The field's strategies: a list, one spec, or a comma-separated string of specs; with
    `players`, a skill level (L0-L4) stands for its field at that player count."""
    if isinstance(field, str):
        items = [f.strip() for f in split_top(field, ",") if f.strip()]
        return items if players is None else [level_or_spec(f, players, game) for f in items]
    if isinstance(field, type | StrategySpec):
        return [field]
    return list(field)


def lineups(
    players: int,
    candidate: str | type | StrategySpec,
    field: str | type | StrategySpec | Sequence[str | type | StrategySpec],
    game: str,
) -> list[list[StrategySpec]]:
    """One lineup per seat of the candidate: rotation s puts it in seat s and the field's
    strategies in the other seats, in order (a field shorter than players - 1 repeats). A
    field given as a string may list strategies separated by commas ("greedy,moai")."""
    others = [_spec(f, game) for f in _field_list(field, players, game=game)]
    if not others:
        raise UserError("the field of opponents is empty")
    cand = _spec(candidate, game)
    out = []
    for s in range(players):
        rest = [others[k % len(others)] for k in range(players - 1)]
        out.append([*rest[:s], cand, *rest[s:]])
    return out


def rotated(
    players: int,
    candidate: str | type | StrategySpec,
    field: str | type | StrategySpec | Sequence[str | type | StrategySpec],
    games: int | Sequence[int] | np.ndarray,
    seed: int = 0,
    rules: RulesLike | None = None,
    batch_size: int = 10_000,
    table: bool = True,
    *,
    game: str,
) -> pd.DataFrame | np.ndarray:
    """Play `games` (a count n: games 0..n-1, or game indices) of root seed `seed` once per
    rotation (the candidate in each seat in turn) on the batch engine; the game is the
    rules' (`game` without rules: its base game).

    table=True: the per-seat results (results schema) with a `rotation` column (= the
    candidate's seat). table=False: the candidate's share of each game's win [R, G] (1/k for
    a k-way shared win, 0 for a loss), and its rank, as a stacked array [2, R, G].
    """
    game = rules.game if rules is not None else game
    the_game = load_game(game)
    rules = rules if rules is not None else the_game.make_rules(players)
    if rules.players != players:
        raise UserError(f"rules are for {rules.players} players, not {players}")
    index = np.arange(games) if isinstance(games, int | np.integer) else np.asarray(games)
    index = index.astype(np.int64)
    parts: list[pd.DataFrame] = []
    shares = np.zeros((2, players, len(index)))
    for s, lineup in enumerate(lineups(players, candidate, field, game)):
        names = [spec.label for spec in lineup]
        for start in range(0, len(index), batch_size):
            chunk = index[start : start + batch_size]
            g = the_game.Games.new(rules, seed, chunk).play([spec() for spec in lineup],
                                                             names=names)  # fmt: skip
            if table:
                df = g.results()
                df.insert(0, "rotation", np.int8(s))
                parts.append(df)
            else:
                scores = g.scores()
                top = scores.max(axis=1)
                winners = (scores == top[:, None]).sum(axis=1)
                mine = scores[:, s]
                shares[0, s, start : start + len(chunk)] = (mine == top) / winners
                shares[1, s, start : start + len(chunk)] = 1 + (scores > mine[:, None]).sum(1)
    if not table:
        return shares
    out = pd.concat(parts, ignore_index=True)
    out["strategy"] = out["strategy"].astype("category")
    return out


@dataclass(frozen=True)
class Strength:
    """A strategy's results in seat-rotated games against a field: win share (shared wins
    1/k) with its Wilson 95 % interval over n games, and mean rank (1 = best)."""

    share: float
    low: float
    high: float
    games: int
    rank: float

    def __str__(self) -> str:
        return (
            f"{self.share:.3f} [{self.low:.3f}, {self.high:.3f}] (n={self.games}, "
            f"mean rank {self.rank:.2f})"
        )


def strength(
    players: int,
    candidate: str | type | StrategySpec,
    field: str | type | StrategySpec | Sequence[str | type | StrategySpec],
    games: int,
    seed: int = 0,
    rules: RulesLike | None = None,
    *,
    game: str,
) -> Strength:
    """The candidate's win share against the field over `games` games per rotation (so
    players x games games in all), with its Wilson interval."""
    got = rotated(players, candidate, field, games, seed, rules, table=False, game=game)
    assert isinstance(got, np.ndarray)
    share, rank = float(got[0].mean()), float(got[1].mean())
    n = got[0].size
    low, high = (float(v) for v in wilson(share * n, n))
    return Strength(share, low, high, n, rank)


def shares(
    players: int,
    candidates: Sequence[str | type | StrategySpec],
    field: str | type | StrategySpec | Sequence[str | type | StrategySpec],
    games: int,
    seed: int = 0,
    n_jobs: int = 1,
    *,
    game: str,
) -> list[float]:
    """Each candidate's win share against the field (`strength`, the same games for all),
    the candidates played in parallel (`n_jobs`)."""
    if n_jobs == 1 or len(candidates) <= 1:
        return [strength(players, c, field, games, seed, game=game).share for c in candidates]
    got = Parallel(n_jobs=n_jobs)(delayed(strength)(players, c, field, games, seed, game=game)
                                  for c in candidates)  # fmt: skip
    return [s.share for s in got]


# --- the tuner ------------------------------------------------------------------------------
OBJECTIVES = ("win", "rank")


@dataclass
class TuneProgress:
    """What `tune` reports to its `progress` callback: after every generation
    (phase "search"), before the held-out games ("held-out") and at the end ("done")."""

    phase: str
    generation: int  # generations done
    generations: int  # generations asked for
    evaluations: int  # candidates played so far (each: players x games games)
    best: float  # best training objective so far (win share, or mean rank)
    mean: float  # the objective of the last generation's mean point (the search's estimate)
    sigma: float  # the search's step size (in units of the weights' scales)
    elapsed: float  # seconds of search, resumed runs included
    resumed: bool = False  # this run went on from a saved state
    held_out: Strength | None = None  # at "done": the tuned weights on the held-out games


@dataclass
class TuneResult:
    """The outcome of `tune`: the weights (also written to `path`), the log, and the
    strength of the tuned and of the starting weights on the held-out games."""

    weights: dict[str, float]
    path: Path
    log: Path
    state: Path
    held_out: Strength
    start_held_out: Strength
    generations: int
    evaluations: int
    history: list[dict[str, float]] = field(default_factory=list)


class _Randn:
    """CMA-ES's normal draws from a generator of its own (pickled with the search state),
    so the search never touches numpy's global random state."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape)


def candidate(
    weights: dict[str, float],
    label: str = "candidate",
    forbid: Sequence[str] = (),
    *,
    game: str,
) -> StrategySpec:
    """The game's tunable strategy (`heuristic`) with these weights; with `forbid`, wrapped
    in `restrict` (restricted play: the weights tuned under the restriction)."""

    if forbid:
        inner = "heuristic(weights={" + ", ".join(f"{k!r}: {float(v)!r}" for k, v in
                                                  weights.items()) + "})"  # fmt: skip
        spec = load_strategy("restrict", game, strategy=inner, forbid=list(forbid))
    else:
        spec = load_strategy(load_game(game).TUNABLE, game, weights=dict(weights))
    return StrategySpec(spec.cls, spec.params, label)


def _evaluate(
    players: int,
    weights: dict[str, float],
    field: list[StrategySpec],
    games: int,
    seed: int,
    rules: RulesLike,
    forbid: Sequence[str] = (),
) -> tuple[float, float]:
    """(win share, mean rank) of the weights against the field, seats rotated."""
    got = rotated(players, candidate(weights, forbid=forbid, game=rules.game), field, games,
                  seed, rules, table=False, game=rules.game)  # fmt: skip
    assert isinstance(got, np.ndarray)
    return float(got[0].mean()), float(got[1].mean())


def _write_atomic(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (one clear line if the disk refuses)."""
    write_atomic(path, data, "tuner output")


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(str(v))  # a TOML basic string


def rounded(x: float) -> float:
    """A weight as weights files write it (4 significant digits)."""
    return float(f"{x:.4g}")


@dataclass(frozen=True)
class TuneSettings:
    """A search as asked: its players, field and training games, its steps, the weights it
    moves and from where, the rules and the held-out evaluation (the arguments of `tune`,
    which documents each). What decides the search is recorded in its state file: only the
    same search resumes (a larger `generations` goes on)."""

    players: int
    field: str | Sequence[str | type | StrategySpec] = "greedy"
    games: int = 300
    generations: int = 40
    popsize: int | None = None
    seed: int = 0
    variants: str | None = None
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    start: str | Path | Mapping[str, float] | None = None
    sigma: float = 0.3
    held_out_games: int = 2000
    held_out_seed: int | None = None
    objective: str = "win"
    names: Sequence[str] | None = None
    forbid: Sequence[str] = ()
    #: the rules to tune under, whole (a study cell's: rule parameters and components
    #: included); given, it replaces `variants` and `options` (and `game`: its own)
    rules: RulesLike | None = None
    #: the game tuned (`moaisim.games`; given `rules`, theirs)
    game: str = dataclasses.field(kw_only=True)


def tune(
    players: int,
    field: str | Sequence[str | type | StrategySpec] = "greedy",
    games: int = 300,
    generations: int = 40,
    popsize: int | None = None,
    seed: int = 0,
    out: str | Path = ".",
    *,
    resume: bool = True,
    progress: Callable[[TuneProgress], None] | None = None,
    variants: str | None = None,
    start: str | Path | Mapping[str, float] | None = None,
    sigma: float = 0.3,
    held_out_games: int = 2000,
    held_out_seed: int | None = None,
    objective: str = "win",
    names: Sequence[str] | None = None,
    n_jobs: int = 1,
    state: str | Path | None = None,
    command: str | None = None,
    forbid: Sequence[str] = (),
    game: str,
    **options: str,
) -> TuneResult:
    """Find `heuristic` weights that play well against `field` at `players` players (the
    settings as arguments: `search(TuneSettings(...), out, ...)` is the same).

    Arguments:
      players: player count (2-5).
      field: the opponents: a strategy spec, a list of them or a comma-separated string
        ("greedy,forester,moai"); they fill the other seats in order, repeating if short.
      games: games per seat rotation and candidate: each candidate plays games 0..games-1
        of root seed `seed` once in each seat (players x games games), the same games for
        every candidate (common random numbers).
      generations: CMA-ES generations to run in all (a resumed run goes on to this many).
      popsize: candidates per generation (default: CMA-ES's 4 + 3 ln(number of weights)).
      seed: root seed of the training games; also seeds the search itself.
      out: directory of the results: `tuned-<P>p.toml` (the weights and how they were
        made) and `tuned-<P>p.log` (one line per generation).
      resume: go on from the saved state of the same search if there is one (else start).
      progress: called with a `TuneProgress` after every generation and at the end.
      variants, options: the rules (`short`, turn_order="clockwise", ...).
      start: the starting weights (a TOML file or a dict; default heuristic's defaults).
      sigma: the search's initial step, in units of each weight's scale (`WEIGHTS`).
      held_out_games: games per rotation of the final evaluation, on root seed
        `held_out_seed` (default seed + 1), which the search never plays.
      objective: "win" (maximise the win share, a k-way shared win counting 1/k) or "rank"
        (minimise the mean rank).
      names: the weights to tune (default: all); the others stay at `start`.
      n_jobs: candidates evaluated in parallel (joblib processes).
      forbid: restricted play: every candidate plays as `restrict(heuristic(...),
        forbid=...)` (the weights tuned under the restriction; the file records it).
      state: the search state file (default `out/tuned-<P>p.state`), written after every
        generation; delete it, or pass resume=False, to start again.
      command: the command line to record in the weights file (default: the equivalent
        `moaisim tune` command).
      game: the game whose tunable strategy is tuned (`moaisim games`; default Moai).

    Returns a `TuneResult`. KeyboardInterrupt leaves the state of the last finished
    generation; calling `tune` again with the same arguments resumes from it, and the run
    ends with the same weights as an uninterrupted one.
    """

    settings = TuneSettings(
        players, field, games, generations, popsize, seed, variants=variants,
        options=dict(options), start=start, sigma=sigma, held_out_games=held_out_games,
        held_out_seed=held_out_seed, objective=objective, names=names, forbid=forbid,
        game=game,
    )  # fmt: skip
    return search(settings, out, resume=resume, progress=progress, n_jobs=n_jobs, state=state,
                  command=command)  # fmt: skip


def search(
    settings: TuneSettings,
    out: str | Path = ".",
    *,
    resume: bool = True,
    progress: Callable[[TuneProgress], None] | None = None,
    n_jobs: int = 1,
    state: str | Path | None = None,
    command: str | None = None,
) -> TuneResult:
    """Run the search `settings` asks for, writing into `out` (see `tune` for every argument):
    check the settings (one line per mistake, before anything is written), set up or resume
    the search, run its generations (the state saved after each), then play the held-out
    games and write the weights file and the log's last line."""

    _check(settings)
    check_jobs(n_jobs)
    plan = _resolve(settings)
    files = _Files.make(Path(out), settings.players, state)
    if command is None:
        command = plan.command(Path(out))
    saved = _resumed(files.state, plan) if resume and files.state.exists() else None
    saved = saved if saved is not None else _started(plan)
    resumed = bool(saved["history"])
    es, history = saved["es"], saved["history"]
    evaluate = _evaluator(settings.players, plan.field, settings.games, settings.seed,
                          plan.rules, n_jobs, plan.forbid)  # fmt: skip
    t0 = time.perf_counter() - saved["elapsed"]

    def report(phase: str, mean: float, held: Strength | None = None) -> None:
        if progress is not None:
            progress(TuneProgress(phase, len(history), settings.generations,
                                  saved["evaluations"], plan.shown(saved["best"]), mean,
                                  float(es.sigma), time.perf_counter() - t0, resumed,
                                  held))  # fmt: skip

    while len(history) < settings.generations:
        mean = _generation(plan, saved, evaluate, t0)
        saved["elapsed"] = time.perf_counter() - t0
        _write_atomic(files.state, pickle.dumps(saved))
        _write_log(files.log, command, history, settings.objective, plan.game)
        report("search", mean)
    # the result: the search distribution's mean, rounded as it is written
    final = {k: rounded(v) for k, v in plan.weights(es.mean).items()}
    last = history[-1]["mean_point"] if history else math.nan
    report("held-out", last)
    held, base = (strength(settings.players, candidate(w, label, plan.forbid, game=plan.game),
                           plan.field, settings.held_out_games, plan.held_out_seed, plan.rules,
                           game=plan.game)
                  for w, label in ((final, "tuned"), (plan.start, "start")))  # fmt: skip
    _write_results(files, plan, command, saved, final, held, base)
    report("done", last, held)
    return TuneResult(final, files.weights, files.log, files.state, held, base, len(history),
                      saved["evaluations"], list(history))  # fmt: skip


def _count(value: Any, least: int) -> bool:
    """An int (not a bool) of at least `least`."""
    return not isinstance(value, bool) and isinstance(value, int) and value >= least


def _check(s: TuneSettings) -> None:
    """The settings' numbers and objective, each refused with one line."""
    if s.objective not in OBJECTIVES:
        raise UserError(f"objective must be one of {', '.join(OBJECTIVES)}, got {s.objective!r}")
    for what, value in (("games", s.games), ("held_out_games", s.held_out_games)):
        if not _count(value, 1):
            raise UserError(f"{what} must be a positive integer, got {value!r}")
    if not _count(s.generations, 0):
        raise UserError(f"generations must be a count, got {s.generations!r}")
    if s.popsize is not None and not _count(s.popsize, 2):
        raise UserError(f"popsize must be at least 2 candidates per generation, got {s.popsize!r}")
    sigma = s.sigma
    if isinstance(sigma, bool) or not isinstance(sigma, int | float) or not 0 < sigma <= 10:
        raise UserError(f"sigma must be a number above 0 and at most 10, got {sigma!r}")
    for what, value in (("seed", s.seed), ("held_out_seed", s.held_out_seed)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64
        ):
            raise UserError(f"{what} must be an integer from 0 to 2**64-1, got {value!r}")


@dataclass(frozen=True)
class WeightSpace:
    """Where a CMA-ES search over heuristic weights moves: the weights `names`, each in units
    of its scale (`GameSpec.WEIGHT_SCALES`), the others held at `start` (every weight)."""

    start: Mapping[str, float]
    names: Sequence[str]
    game: str

    @property
    def scales(self) -> np.ndarray:
        """The moved weights' scales (the search moves in their units)."""
        spec = load_game(self.game)
        index = {name: k for k, name in enumerate(spec.WEIGHT_NAMES)}
        return np.array([spec.WEIGHT_SCALES[index[k]] for k in self.names])

    @property
    def x0(self) -> np.ndarray:
        """The start, as a point of the search."""
        return np.array([self.start[k] for k in self.names]) / self.scales

    def weights(self, x: np.ndarray) -> dict[str, float]:
        """Every weight, at point `x` of the search (the others at the start)."""
        got = dict(self.start)
        got.update({k: float(v) for k, v in zip(self.names, np.asarray(x) * self.scales,
                                                 strict=True)})  # fmt: skip
        return got


@dataclass(frozen=True)
class _Plan:
    """A checked search, resolved: its rules, field, every starting weight, the weights it
    moves (in units of their scales) and its held-out seed."""

    settings: TuneSettings
    rules: RulesLike
    field: list[StrategySpec]
    start: dict[str, float]
    names: list[str]
    held_out_seed: int

    @property
    def forbid(self) -> list[str]:
        """The mechanisms every candidate plays without (restricted play)."""
        return list(self.settings.forbid)

    @property
    def game(self) -> str:
        """The game tuned (its rules')."""
        return self.rules.game

    @property
    def space(self) -> WeightSpace:
        """The weights the search moves, around its start."""
        return WeightSpace(self.start, self.names, self.game)

    @property
    def x0(self) -> np.ndarray:
        """The starting point of the search."""
        return self.space.x0

    def weights(self, x: np.ndarray) -> dict[str, float]:
        """Every weight, at point `x` of the search (the others at the start)."""
        return self.space.weights(x)

    def value(self, result: tuple[float, float]) -> float:
        """What CMA-ES minimises: minus the win share, or the mean rank."""
        return -result[0] if self.settings.objective == "win" else result[1]

    def shown(self, f: float) -> float:
        """A minimised value as the user reads it (a win share, or a mean rank)."""
        return -f if self.settings.objective == "win" else f

    def search_id(self) -> str:
        """The digest of what decides the search (a saved state resumes only the same)."""
        s = self.settings
        config = {
            "players": s.players, "field": [fingerprint([f]) for f in self.field],
            "games": s.games, "popsize": s.popsize, "seed": s.seed, "sigma": s.sigma,
            "start": self.start, "names": self.names, "objective": s.objective,
            "rules": self.rules.digest(), **({"forbid": sorted(s.forbid)} if s.forbid else {}),
            # a search made before games had names resumes as one
            **identity_game(self.game),
        }  # fmt: skip
        return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()

    def command(self, out: Path) -> str:
        """The `moaisim tune` command of this search (recorded when none is given)."""
        s = self.settings
        parts = ["moaisim", "tune", "--game", self.game, "--players", str(s.players), "--field",
                 ",".join(spec.label for spec in self.field), "--games", str(s.games),
                 "--generations", str(s.generations), "--seed", str(s.seed),
                 "--held-out-games", str(s.held_out_games), "--out", str(out)]  # fmt: skip
        if s.popsize:
            parts += ["--popsize", str(s.popsize)]
        if s.rules is not None:  # a study's set-up: its rules say it in words
            parts += ["# under", self.rules.setup]
        if s.variants:
            parts += ["--variant", s.variants]
        for k, v in s.options.items():
            parts += [f"--{k.replace('_', '-')}", str(v)]
        if s.held_out_seed is not None:
            parts += ["--held-out-seed", str(s.held_out_seed)]
        if s.sigma != 0.3:
            parts += ["--sigma", str(s.sigma)]
        if s.objective != "win":
            parts += ["--objective", s.objective]
        if s.names:
            parts += ["--names", ",".join(self.names)]
        if isinstance(s.start, str | Path):
            parts += ["--start", str(s.start)]
        if s.forbid:
            parts += ["--forbid", ",".join(s.forbid)]
        return shlex.join(parts)


def start_weights(start: str | Path | Mapping[str, float] | None, game: str
                  ) -> dict[str, float]:  # fmt: skip
    """Every weight at the start: the tunable strategy's defaults, with `start`'s (a TOML
    file or a dict) over them."""
    spec = load_game(game)
    if isinstance(start, str | Path):
        try:
            doc = tomllib.loads(read_text(start, "start weights file"))
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"start weights {str(start)!r}: {exc}") from None
        check_game(file_game(start), game, start, "a weights file")
        given = spec.read_weights(doc, str(start))
    else:
        given = spec.read_weights(dict(start or {}), "start weights")
    return {**spec.default_weights(), **given}


def tuned_names(names: Sequence[str] | None, game: str) -> list[str]:
    """The weights the search moves (default: all), each known and named once."""
    every = load_game(game).WEIGHT_NAMES
    tuned = list(names) if names else list(every)
    unknown = [k for k in tuned if k not in every]
    if unknown:
        raise UserError(f"unknown weights {', '.join(unknown)} (weights: {', '.join(every)})")
    twice = sorted({k for k in tuned if tuned.count(k) > 1})
    if twice:
        raise UserError(f"weight {twice[0]!r} is named twice")
    if len(tuned) < 2:
        raise UserError("tune at least 2 weights (CMA-ES searches 2 or more dimensions)")
    return tuned


def _resolve(s: TuneSettings) -> _Plan:
    """The settings resolved: the restriction's names, the rules, the field (it fills the
    other seats), the start weights, the tuned names and the held-out seed, each mistake
    refused with one line."""
    game = s.rules.game if s.rules is not None else s.game
    if s.forbid:  # checks the names
        load_strategy("restrict", game, strategy="greedy", forbid=list(s.forbid))
    rules = (s.rules if s.rules is not None
             else load_game(game).make_rules(s.players, s.variants, **s.options))  # fmt: skip
    if rules.players != s.players:
        raise UserError(f"the rules are for {rules.players} players, the search for {s.players}")
    field_specs = [load_strategy(f, game) for f in _field_list(s.field, s.players, game=game)]
    if not field_specs:
        raise UserError("the field of opponents is empty")
    if len(field_specs) > s.players - 1:
        raise UserError(
            f"the field names {len(field_specs)} strategies for the {s.players - 1} other seats "
            f"of a {s.players}-player game (give at most {s.players - 1})"
        )
    start = start_weights(s.start, game)
    names = tuned_names(s.names, game)
    if s.held_out_seed is None:
        held_seed = s.seed + 1 if s.seed + 1 < 2**64 else s.seed - 1
    else:
        held_seed = s.held_out_seed
    if held_seed == s.seed:
        raise UserError("held_out_seed must differ from seed (held-out games are unseen)")
    return _Plan(s, rules, field_specs, start, names, held_seed)


@dataclass(frozen=True)
class _Files:
    """A search's files: the weights, the log and the search state."""

    weights: Path
    log: Path
    state: Path

    @classmethod
    def make(cls, out: Path, players: int, state: str | Path | None) -> _Files:
        """The files in `out` (made if missing; the state elsewhere if given), each
        checked writable."""
        make_dir(out)
        stem = out / f"tuned-{players}p"
        files = cls(stem.with_suffix(".toml"), stem.with_suffix(".log"),
                    Path(state) if state is not None else stem.with_suffix(".state"))  # fmt: skip
        for path, what in ((files.weights, "weights file"), (files.log, "log"),
                           (files.state, "search state")):  # fmt: skip
            check_writable_file(path, what)
        return files


def _resumed(path: Path, plan: _Plan) -> dict[str, Any]:
    """The saved state of this search (refused if damaged, or another search's)."""
    try:
        saved = pickle.loads(path.read_bytes())
    except Exception as exc:  # a damaged state file
        raise UserError(f"cannot read the tuner state {str(path)!r} ({exc})") from None
    keys = {"fingerprint", "es", "history", "evaluations", "best", "best_x", "elapsed"}
    if not isinstance(saved, dict) or not keys <= set(saved):
        raise UserError(f"{str(path)!r} is not a tuner state: remove it, or start "
                        "again (moaisim tune --restart; resume=False in Python)")  # fmt: skip
    # a state saved before files named their game: `recorded_game`
    check_game(recorded_game(saved), plan.game, path, "a tuner state")
    if saved.get("fingerprint") != plan.search_id():
        raise UserError(
            f"{str(path)!r} holds another search (other players, field, games, seed, "
            "popsize, sigma, start, weights, rules or code): start again (moaisim tune "
            "--restart; resume=False in Python), or give another --out"
        )
    return saved


def cma_options(seed: int, popsize: int | None = None) -> dict[str, Any]:
    """CMA-ES options for a search that runs its stated generations (no early stop, quiet),
    its normal draws from a generator of its own seeded by `seed`."""
    opts = {"seed": np.nan, "randn": _Randn(seed), "verbose": -9, "verb_log": 0,
            "verb_disp": 0, "tolx": 0, "tolfun": 0, "tolflatfitness": 10**9,
            "tolfunhist": 0, "tolstagnation": 10**9, "maxiter": 10**9}  # fmt: skip
    if popsize:
        opts["popsize"] = popsize
    return opts


def _started(plan: _Plan) -> dict[str, Any]:
    """The state of a new search: CMA-ES at the start weights, no generation done."""
    s = plan.settings
    x0 = plan.x0
    es = cma.CMAEvolutionStrategy(x0, s.sigma, cma_options(s.seed, s.popsize))
    return {"fingerprint": plan.search_id(), "es": es, "history": [], "evaluations": 0,
            "best": math.inf, "best_x": x0, "elapsed": 0.0, GAME_KEY: plan.game}  # fmt: skip


def _generation(
    plan: _Plan,
    saved: dict[str, Any],
    evaluate: Callable[[list[dict[str, float]]], list[tuple[float, float]]],
    t0: float,
) -> float:
    """One generation: the candidates and the mean point played, CMA-ES told, the best kept
    and a row added to the history (all in `saved`); the mean point's objective, as shown."""
    es, history = saved["es"], saved["history"]
    xs = es.ask()
    points = [plan.weights(x) for x in xs] + [plan.weights(es.mean)]
    fs = [plan.value(r) for r in evaluate(points)]
    es.tell(xs, fs[:-1])
    k = int(np.argmin(fs[:-1]))
    if fs[k] < saved["best"]:
        saved["best"], saved["best_x"] = fs[k], np.asarray(xs[k]).copy()
    saved["evaluations"] += len(points)
    history.append({
        "generation": len(history) + 1, "best": plan.shown(fs[k]),
        "median": plan.shown(float(np.median(fs[:-1]))), "mean_point": plan.shown(fs[-1]),
        "sigma": float(es.sigma), "evaluations": saved["evaluations"],
        "seconds": round(time.perf_counter() - t0, 1),
    })  # fmt: skip
    return plan.shown(fs[-1])


def _write_results(files: _Files, plan: _Plan, command: str, saved: dict[str, Any],
                   final: dict[str, float], held: Strength, base: Strength) -> None:  # fmt: skip
    """The weights file (the weights, how they were made, their held-out strength) and the
    log's last line."""
    s, es = plan.settings, saved["es"]
    notes = {
        "command": command,
        "players": s.players,
        "field": [spec.label for spec in plan.field],
        "variant": plan.rules.variant,
        **plan.rules.options(),
        "objective": s.objective,
        **({"forbid": list(s.forbid)} if s.forbid else {}),
        "seed": s.seed,
        "games_per_seat": s.games,
        "games_per_candidate": s.games * s.players,
        "generations": len(saved["history"]),
        "popsize": int(es.popsize),
        "evaluations": saved["evaluations"],
        "sigma0": s.sigma,
        "tuned_weights": len(plan.names),
        "held_out_seed": plan.held_out_seed,
        "held_out_games": held.games,
        "held_out_win_share": round(held.share, 4),
        "held_out_interval": [round(held.low, 4), round(held.high, 4)],
        "held_out_mean_rank": round(held.rank, 3),
        "start_held_out_win_share": round(base.share, 4),
        "start_held_out_interval": [round(base.low, 4), round(base.high, 4)],
        "made": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    _write_weights(files.weights, final, notes, load_game(plan.game).WEIGHTS, plan.game)
    with files.log.open("a", encoding="utf-8") as f:
        f.write(f"# held-out (seed {plan.held_out_seed}, {held.games} games): tuned {held}; "
                f"start {base}\n")  # fmt: skip


def _evaluator(
    players: int,
    field: list[StrategySpec],
    games: int,
    seed: int,
    rules: RulesLike,
    n_jobs: int,
    forbid: Sequence[str] = (),
) -> Callable[[list[dict[str, float]]], list[tuple[float, float]]]:
    """A function that evaluates a list of weight dicts, in this process or in parallel."""
    if n_jobs == 1:
        return lambda points: [_evaluate(players, w, field, games, seed, rules, forbid)
                               for w in points]  # fmt: skip

    pool = Parallel(n_jobs=n_jobs)

    def run(points: list[dict[str, float]]) -> list[tuple[float, float]]:
        jobs = (delayed(_evaluate)(players, w, field, games, seed, rules, forbid)
                for w in points)  # fmt: skip
        return list(pool(jobs))

    return run


def _write_log(path: Path, command: str, history: list[dict[str, float]], objective: str,
               game: str) -> None:  # fmt: skip
    """The search's log: its command, its game, then a line per generation."""
    what = "win share" if objective == "win" else "mean rank"
    lines = [f"# {command}", f"# {GAME_KEY} {game}; each generation: best candidate, median "
             f"candidate, mean point ({what} on the training games), sigma, evaluations, "
             "seconds"]  # fmt: skip
    for row in history:
        lines.append(
            f"{row['generation']:4d}  best {row['best']:.4f}  median {row['median']:.4f}  "
            f"mean {row['mean_point']:.4f}  sigma {row['sigma']:.3f}  "
            f"evals {row['evaluations']}  {row['seconds']}s"
        )
    _write_atomic(path, ("\n".join(lines) + "\n").encode())


def _write_weights(
    path: Path,
    weights: dict[str, float],
    notes: dict[str, Any],
    docs: Sequence[tuple],
    game: str,
) -> None:
    """The weights file: a header, the `[tuned]` notes, then `[weights]` with each weight's
    meaning (`heuristic(weights=this file)` plays it)."""
    header = [
        f"# Weights of the `heuristic` strategy found by `moaisim tune` ({notes['made']}).",
        f"# Made by: {notes['command']}",
        f"# Held-out strength against {', '.join(notes['field'])}: win share "
        f"{notes['held_out_win_share']} {notes['held_out_interval']} over "
        f"{notes['held_out_games']} games (start: {notes['start_held_out_win_share']}).",
    ]
    write_weights_file(path, weights, "tuned", notes, header, docs, game=game)


def write_weights_file(path: Path, weights: Mapping[str, float], section: str,
                       notes: Mapping[str, Any], header: Sequence[str],
                       docs: Sequence[tuple] | None = None, *, game: str
                       ) -> None:  # fmt: skip
    """A weights file, whole or not at all: the `header` comment lines, the game it is of
    (`GAME_KEY`: another game's strategies refuse it), the `[section]` notes (how it was
    made), then `[weights]` with each weight's meaning (`docs`: the game's `WEIGHTS`,
    default the game's)."""
    docs = load_game(game).WEIGHTS if docs is None else docs
    meaning = {name: doc for name, _, doc in docs}
    # no path of this machine in a file that may be shipped (`files.shown`)
    header = [shown(x) for x in header]
    notes = {k: shown(v) if isinstance(v, str) else
             [shown(x) if isinstance(x, str) else x for x in v] if isinstance(v, list) else v
             for k, v in notes.items()}  # fmt: skip
    lines = [
        *header,
        "",
        f"{GAME_KEY} = {_toml_value(game)}",
        "",
        f"[{section}]",
        *(f"{k} = {_toml_value(v)}" for k, v in notes.items()),
        "",
        "[weights]",
        *(f"{k} = {_toml_value(v)}  # {meaning.get(k, '')}" for k, v in weights.items()),
    ]
    _write_atomic(path, ("\n".join(lines) + "\n").encode())


__all__ = [
    "OBJECTIVES", "Strength", "TuneProgress", "TuneResult", "TuneSettings", "lineups", "rotated",
    "search", "strength", "tune",
]  # fmt: skip
