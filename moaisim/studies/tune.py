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
"""

from __future__ import annotations

import hashlib
import json
import math
import pickle
import shlex
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cma
import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from moaisim.analysis.stats import wilson
from moaisim.engine.forward import Games
from moaisim.errors import UserError
from moaisim.files import check_writable_file, read_text, write_atomic
from moaisim.fingerprint import fingerprint
from moaisim.registry import StrategySpec, load_strategy, split_top
from moaisim.rules import Rules
from moaisim.rundir import make_dir
from moaisim.runner import check_jobs
from moaisim.strategies import heuristic as h
from moaisim.strategies.heuristic import HeuristicStrategy


def _spec(strategy: str | type | StrategySpec) -> StrategySpec:
    return load_strategy(strategy)


def _field_list(field: Any) -> list[Any]:
    """The field's strategies: a list, one spec, or a comma-separated string of specs."""
    if isinstance(field, str):
        return [f.strip() for f in split_top(field, ",") if f.strip()]
    if isinstance(field, type | StrategySpec):
        return [field]
    return list(field)


def lineups(
    players: int,
    candidate: str | type | StrategySpec,
    field: str | type | StrategySpec | Sequence[str | type | StrategySpec],
) -> list[list[StrategySpec]]:
    """One lineup per seat of the candidate: rotation s puts it in seat s and the field's
    strategies in the other seats, in order (a field shorter than players - 1 repeats). A
    field given as a string may list strategies separated by commas ("greedy,moai")."""
    others = [_spec(f) for f in _field_list(field)]
    if not others:
        raise UserError("the field of opponents is empty")
    cand = _spec(candidate)
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
    rules: Rules | None = None,
    batch_size: int = 10_000,
    table: bool = True,
) -> pd.DataFrame | np.ndarray:
    """Play `games` (a count n: games 0..n-1, or game indices) of root seed `seed` once per
    rotation (the candidate in each seat in turn) on the batch engine.

    table=True: the per-seat results (results schema) with a `rotation` column (= the
    candidate's seat). table=False: the candidate's share of each game's win [R, G] (1/k for
    a k-way shared win, 0 for a loss), and its rank, as a stacked array [2, R, G].
    """
    rules = rules if rules is not None else Rules.make(players)
    if rules.players != players:
        raise UserError(f"rules are for {rules.players} players, not {players}")
    index = np.arange(games) if isinstance(games, int | np.integer) else np.asarray(games)
    index = index.astype(np.int64)
    parts: list[pd.DataFrame] = []
    shares = np.zeros((2, players, len(index)))
    for s, lineup in enumerate(lineups(players, candidate, field)):
        names = [spec.label for spec in lineup]
        for start in range(0, len(index), batch_size):
            chunk = index[start : start + batch_size]
            g = Games.new(rules, seed, chunk).play([spec() for spec in lineup], names=names)
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
    rules: Rules | None = None,
) -> Strength:
    """The candidate's win share against the field over `games` games per rotation (so
    players x games games in all), with its Wilson interval."""
    got = rotated(players, candidate, field, games, seed, rules, table=False)
    assert isinstance(got, np.ndarray)
    share, rank = float(got[0].mean()), float(got[1].mean())
    n = got[0].size
    low, high = (float(v) for v in wilson(share * n, n))
    return Strength(share, low, high, n, rank)


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


def _candidate(
    weights: dict[str, float], label: str = "candidate", forbid: Sequence[str] = ()
) -> StrategySpec:
    """heuristic with these weights; with `forbid`, wrapped in `restrict` (restricted play:
    the weights tuned under the restriction)."""

    if forbid:
        inner = "heuristic(weights={" + ", ".join(f"{k!r}: {float(v)!r}" for k, v in
                                                  weights.items()) + "})"  # fmt: skip
        spec = load_strategy("restrict", strategy=inner, forbid=list(forbid))
    else:
        spec = load_strategy(HeuristicStrategy, weights=dict(weights))
    return StrategySpec(spec.cls, spec.params, label)


def _evaluate(
    players: int,
    weights: dict[str, float],
    field: list[StrategySpec],
    games: int,
    seed: int,
    rules: Rules,
    forbid: Sequence[str] = (),
) -> tuple[float, float]:
    """(win share, mean rank) of the weights against the field, seats rotated."""
    got = rotated(players, _candidate(weights, forbid=forbid), field, games, seed, rules,
                  table=False)  # fmt: skip
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


def _round(x: float) -> float:
    return float(f"{x:.4g}")


def tune(
    players: int,
    field: str | Sequence[str] = "greedy",
    games: int = 300,
    generations: int = 40,
    popsize: int | None = None,
    seed: int = 0,
    out: str | Path = ".",
    resume: bool = True,
    progress: Callable[[TuneProgress], None] | None = None,
    variants: str | None = None,
    start: str | Path | dict[str, float] | None = None,
    sigma: float = 0.3,
    held_out_games: int = 2000,
    held_out_seed: int | None = None,
    objective: str = "win",
    names: Sequence[str] | None = None,
    n_jobs: int = 1,
    state: str | Path | None = None,
    command: str | None = None,
    forbid: Sequence[str] = (),
    **options: str,
) -> TuneResult:
    """Find `heuristic` weights that play well against `field` at `players` players.

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

    Returns a `TuneResult`. KeyboardInterrupt leaves the state of the last finished
    generation; calling `tune` again with the same arguments resumes from it, and the run
    ends with the same weights as an uninterrupted one.
    """

    if objective not in OBJECTIVES:
        raise UserError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    for what, value in (("games", games), ("held_out_games", held_out_games)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UserError(f"{what} must be a positive integer, got {value!r}")
    if isinstance(generations, bool) or not isinstance(generations, int) or generations < 0:
        raise UserError(f"generations must be a count, got {generations!r}")
    if popsize is not None and (
        isinstance(popsize, bool) or not isinstance(popsize, int) or popsize < 2
    ):
        raise UserError(f"popsize must be at least 2 candidates per generation, got {popsize!r}")
    if isinstance(sigma, bool) or not isinstance(sigma, int | float) or not 0 < sigma <= 10:
        raise UserError(f"sigma must be a number above 0 and at most 10, got {sigma!r}")
    for what, value in (("seed", seed), ("held_out_seed", held_out_seed)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64
        ):
            raise UserError(f"{what} must be an integer from 0 to 2**64-1, got {value!r}")
    check_jobs(n_jobs)
    forbid = list(forbid)
    if forbid:
        load_strategy("restrict", strategy="greedy", forbid=forbid)  # checks the names
    rules = Rules.make(players, variants, **options)
    field_specs = [load_strategy(f) for f in _field_list(field)]
    if not field_specs:
        raise UserError("the field of opponents is empty")
    if len(field_specs) > players - 1:
        raise UserError(
            f"the field names {len(field_specs)} strategies for the {players - 1} other seats "
            f"of a {players}-player game (give at most {players - 1})"
        )
    field_labels = [spec.label for spec in field_specs]
    if isinstance(start, str | Path):
        try:
            doc = tomllib.loads(read_text(start, "start weights file"))
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"start weights {str(start)!r}: {exc}") from None
        start_weights = h.read_weights(doc, str(start))
    else:
        start_weights = h.read_weights(dict(start or {}), "start weights")
    w0 = {**h.defaults(), **start_weights}
    tuned_names = list(names) if names else list(h.NAMES)
    unknown = [k for k in tuned_names if k not in h.INDEX]
    if unknown:
        raise UserError(f"unknown weights {', '.join(unknown)} (weights: {', '.join(h.NAMES)})")
    twice = sorted({k for k in tuned_names if tuned_names.count(k) > 1})
    if twice:
        raise UserError(f"weight {twice[0]!r} is named twice")
    if len(tuned_names) < 2:
        raise UserError("tune at least 2 weights (CMA-ES searches 2 or more dimensions)")
    scales = np.array([h.SCALES[h.INDEX[k]] for k in tuned_names])
    x0 = np.array([w0[k] for k in tuned_names]) / scales
    if held_out_seed is None:
        held_seed = seed + 1 if seed + 1 < 2**64 else seed - 1
    else:
        held_seed = held_out_seed
    if held_seed == seed:
        raise UserError("held_out_seed must differ from seed (held-out games are unseen)")
    out_dir = Path(out)
    make_dir(out_dir)
    weights_file = out_dir / f"tuned-{players}p.toml"
    log_file = out_dir / f"tuned-{players}p.log"
    state_file = Path(state) if state is not None else out_dir / f"tuned-{players}p.state"
    for path, what in ((weights_file, "weights file"), (log_file, "log"),
                       (state_file, "search state")):  # fmt: skip
        check_writable_file(path, what)
    config = {
        "players": players, "field": [fingerprint([f]) for f in field_specs], "games": games,
        "popsize": popsize,
        "seed": seed, "sigma": sigma, "start": w0, "names": tuned_names,
        "objective": objective, "rules": rules.digest(),
        **({"forbid": sorted(forbid)} if forbid else {}),
    }  # fmt: skip
    search_id = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()
    if command is None:
        parts = ["moaisim", "tune", "--players", str(players), "--field", ",".join(field_labels),
                 "--games", str(games), "--generations", str(generations), "--seed", str(seed),
                 "--held-out-games", str(held_out_games), "--out", str(out_dir)]  # fmt: skip
        if popsize:
            parts += ["--popsize", str(popsize)]
        if variants:
            parts += ["--variant", variants]
        for k, v in options.items():
            parts += [f"--{k.replace('_', '-')}", str(v)]
        if held_out_seed is not None:
            parts += ["--held-out-seed", str(held_out_seed)]
        if sigma != 0.3:
            parts += ["--sigma", str(sigma)]
        if objective != "win":
            parts += ["--objective", objective]
        if names:
            parts += ["--names", ",".join(tuned_names)]
        if isinstance(start, str | Path):
            parts += ["--start", str(start)]
        if forbid:
            parts += ["--forbid", ",".join(forbid)]
        command = shlex.join(parts)

    def weights_of(x: np.ndarray) -> dict[str, float]:
        got = dict(w0)
        got.update({k: float(v) for k, v in zip(tuned_names, np.asarray(x) * scales, strict=True)})
        return got

    def value(result: tuple[float, float]) -> float:
        return -result[0] if objective == "win" else result[1]

    def shown(f: float) -> float:
        return -f if objective == "win" else f

    saved: dict[str, Any] | None = None
    if resume and state_file.exists():
        try:
            saved = pickle.loads(state_file.read_bytes())
        except Exception as exc:  # a damaged state file
            raise UserError(f"cannot read the tuner state {str(state_file)!r} ({exc})") from None
        keys = {"fingerprint", "es", "history", "evaluations", "best", "best_x", "elapsed"}
        if not isinstance(saved, dict) or not keys <= set(saved):
            raise UserError(f"{str(state_file)!r} is not a tuner state: remove it, or start "
                            "again (moaisim tune --restart; resume=False in Python)")  # fmt: skip
        if saved.get("fingerprint") != search_id:
            raise UserError(
                f"{str(state_file)!r} holds another search (other players, field, games, seed, "
                "popsize, sigma, start, weights, rules or code): start again (moaisim tune "
                "--restart; resume=False in Python), or give another --out"
            )
    if saved is None:
        opts = {"seed": np.nan, "randn": _Randn(seed), "verbose": -9, "verb_log": 0,
                "verb_disp": 0, "tolx": 0, "tolfun": 0, "tolflatfitness": 10**9,
                "tolfunhist": 0, "tolstagnation": 10**9, "maxiter": 10**9}  # fmt: skip
        if popsize:
            opts["popsize"] = popsize
        es = cma.CMAEvolutionStrategy(x0, sigma, opts)
        saved = {"fingerprint": search_id, "es": es, "history": [], "evaluations": 0,
                 "best": math.inf, "best_x": x0, "elapsed": 0.0}  # fmt: skip
    resumed = bool(saved["history"])
    es = saved["es"]
    history: list[dict[str, float]] = saved["history"]
    evaluate = _evaluator(players, field_specs, games, seed, rules, n_jobs, forbid)
    t0 = time.perf_counter() - saved["elapsed"]
    while len(history) < generations:
        xs = es.ask()
        points = [weights_of(x) for x in xs] + [weights_of(es.mean)]
        results = evaluate(points)
        fs = [value(r) for r in results]
        es.tell(xs, fs[:-1])
        k = int(np.argmin(fs[:-1]))
        if fs[k] < saved["best"]:
            saved["best"], saved["best_x"] = fs[k], np.asarray(xs[k]).copy()
        saved["evaluations"] += len(points)
        history.append({
            "generation": len(history) + 1, "best": shown(fs[k]),
            "median": shown(float(np.median(fs[:-1]))), "mean_point": shown(fs[-1]),
            "sigma": float(es.sigma), "evaluations": saved["evaluations"],
            "seconds": round(time.perf_counter() - t0, 1),
        })  # fmt: skip
        saved["elapsed"] = time.perf_counter() - t0
        _write_atomic(state_file, pickle.dumps(saved))
        _write_log(log_file, command, history, objective)
        if progress is not None:
            progress(TuneProgress("search", len(history), generations, saved["evaluations"],
                                  shown(saved["best"]), shown(fs[-1]), float(es.sigma),
                                  time.perf_counter() - t0, resumed))  # fmt: skip
    # the result: the search distribution's mean, rounded as it is written
    final = {k: _round(v) for k, v in weights_of(es.mean).items()}
    if progress is not None:
        last = history[-1]["mean_point"] if history else math.nan
        progress(TuneProgress("held-out", len(history), generations, saved["evaluations"],
                              shown(saved["best"]), last, float(es.sigma),
                              time.perf_counter() - t0, resumed))  # fmt: skip
    held = strength(players, _candidate(final, "tuned", forbid), field_specs, held_out_games,
                    held_seed, rules)  # fmt: skip
    base = strength(players, _candidate(w0, "start", forbid), field_specs, held_out_games,
                    held_seed, rules)  # fmt: skip
    notes = {
        "command": command,
        "players": players,
        "field": field_labels,
        "variant": rules.variant,
        **rules.options(),
        "objective": objective,
        **({"forbid": list(forbid)} if forbid else {}),
        "seed": seed,
        "games_per_seat": games,
        "games_per_candidate": games * players,
        "generations": len(history),
        "popsize": int(es.popsize),
        "evaluations": saved["evaluations"],
        "sigma0": sigma,
        "tuned_weights": len(tuned_names),
        "held_out_seed": held_seed,
        "held_out_games": held.games,
        "held_out_win_share": round(held.share, 4),
        "held_out_interval": [round(held.low, 4), round(held.high, 4)],
        "held_out_mean_rank": round(held.rank, 3),
        "start_held_out_win_share": round(base.share, 4),
        "start_held_out_interval": [round(base.low, 4), round(base.high, 4)],
        "made": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    _write_weights(weights_file, final, notes, h.WEIGHTS)
    with log_file.open("a", encoding="utf-8") as f:
        f.write(f"# held-out (seed {held_seed}, {held.games} games): tuned {held}; "
                f"start {base}\n")  # fmt: skip
    if progress is not None:
        last = history[-1]["mean_point"] if history else math.nan
        progress(TuneProgress("done", len(history), generations, saved["evaluations"],
                              shown(saved["best"]), last, float(es.sigma),
                              time.perf_counter() - t0, resumed, held))  # fmt: skip
    return TuneResult(final, weights_file, log_file, state_file, held, base, len(history),
                      saved["evaluations"], list(history))  # fmt: skip


def _evaluator(
    players: int,
    field: list[StrategySpec],
    games: int,
    seed: int,
    rules: Rules,
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


def _write_log(path: Path, command: str, history: list[dict[str, float]], objective: str) -> None:
    what = "win share" if objective == "win" else "mean rank"
    lines = [f"# {command}", f"# generation: best candidate, median candidate, mean point "
             f"({what} on the training games), sigma, evaluations, seconds"]  # fmt: skip
    for row in history:
        lines.append(
            f"{row['generation']:4d}  best {row['best']:.4f}  median {row['median']:.4f}  "
            f"mean {row['mean_point']:.4f}  sigma {row['sigma']:.3f}  "
            f"evals {row['evaluations']}  {row['seconds']}s"
        )
    _write_atomic(path, ("\n".join(lines) + "\n").encode())


def _write_weights(
    path: Path, weights: dict[str, float], notes: dict[str, Any], docs: Sequence[tuple]
) -> None:
    """The weights file: a header, the `[tuned]` notes, then `[weights]` with each weight's
    meaning (`heuristic(weights=this file)` plays it)."""
    meaning = {name: doc for name, _, doc in docs}
    lines = [
        f"# Weights of the `heuristic` strategy found by `moaisim tune` ({notes['made']}).",
        f"# Made by: {notes['command']}",
        f"# Held-out strength against {', '.join(notes['field'])}: win share "
        f"{notes['held_out_win_share']} {notes['held_out_interval']} over "
        f"{notes['held_out_games']} games (start: {notes['start_held_out_win_share']}).",
        "",
        "[tuned]",
        *(f"{k} = {_toml_value(v)}" for k, v in notes.items()),
        "",
        "[weights]",
        *(f"{k} = {_toml_value(v)}  # {meaning.get(k, '')}" for k, v in weights.items()),
    ]
    _write_atomic(path, ("\n".join(lines) + "\n").encode())


__all__ = [
    "OBJECTIVES", "Strength", "TuneProgress", "TuneResult", "lineups", "rotated", "strength",
    "tune",
]  # fmt: skip
