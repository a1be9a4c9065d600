"""`moaisim balance`: search the rule space for a better game (the search itself).

Each candidate (a point of the balance file's space, `studies.balance_space`) is judged by
the fixed fields (self-play of L2 and L3 unless `[balance] fields` says) at every player
count asked, on **common random numbers**: every candidate plays games 0..N-1 of the same
root seed, so two candidates whose rules leave the decks alone play the very same deals, and
the base game is measured on them too (`length_change` is paired with it).

The optimiser is Optuna's NSGA-II (`optuna.samplers.NSGAIISampler`), one objective per
declared objective (what it minimises: `Objective.loss`) and, with `[balance] parsimony`
(the default), one more: the number of settings changed (`Space.changes`); the hard bounds
are constraints (`Objective.violation`). A genetic algorithm keeps a population whose
non-dominated front and crowding survive, which suits a noisy, discrete, multi-objective
space better than a model-based sampler (docs/balance.md says more). Trials come in batches
of one population; each batch runs **successive halving**: every candidate plays the first
rung's games, the best 1/eta (`rank_key`: feasible first, then, among those, fewer changes,
then the smallest total loss) play on to the next rung, and so on to the top rung's
`games`; the extra games of a rung are new games of the same seed (the rungs nest), and a
trial is told the measures of the last rung it reached. A trial that proposes a game already
measured (to the top rung by an earlier batch, or earlier in its own batch) plays nothing
and takes no place in the halving: it is told that game's measures.

A run directory holds the Optuna journal and every measured block of games
(`blocks.jsonl`, keyed by what the candidate's games are made of, `Space.game_key`, and the
game range), so a search stopped at any point and started again re-measures nothing and
proposes the same trials: each trial's sampler is seeded by the root seed and the trial's
number, and the trials asked but not told when the run stopped are measured and told first.

After the search, `Checks` measures candidates on the verification's fresh games (root seed
+ 1, the same deals for all), each game once: the one-change screen (`screen`) and the
reduction of each finalist to its smallest fix (`reduce`).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import optuna
import pandas as pd
from joblib import Parallel, delayed

from moaisim.analysis import metagame as meta_analysis
from moaisim.analysis import stats
from moaisim.errors import UserError
from moaisim.files import check_game
from moaisim.games import load_game
from moaisim.rundir import make_dir, recorded_game
from moaisim.runner import make_study, run_in_memory
from moaisim.studies import metagame
from moaisim.studies.balance_space import (
    DIVERSITY_GAMES,
    EXHAUSTIVE,
    MEASURES,
    Objective,
    Space,
    headline_measure,
    rules_of,
)

STUDY = "balance"
Say = Callable[[str], None]


def key_of(candidate: Mapping[str, Any]) -> str:
    """A candidate's canonical key (its values as sorted JSON)."""
    return json.dumps({k: candidate[k] for k in sorted(candidate)}, sort_keys=True)


def cell_name(p: int, where: str | None = None) -> str:
    """A cell's name as every table and sentence gives it: 'L3, 5 players' (the field, or
    the skill pairing, then the player count), or '5 players'."""
    return f"{where}, {p} players" if where else f"{p} players"


# --- measuring a block of games ------------------------------------------------------------------


def needs_rounds(space: Space) -> bool:
    """Whether an objective reads the per-round table (`decisive`)."""
    return any(o.measure == "decisive" for o in space.objectives)


def measure_block(space: Space, candidate: Mapping[str, Any], a: int, b: int) -> dict[str, Any]:
    """The sums of games a..b-1 (of the root seed) of a candidate, per player count and
    field: games, each seat's win shares, score, score from statues, rounds and their
    squares, and the sole leader after each decisive round and its wins; for each skill
    objective the better level's win shares as one seat; for each diversity objective the
    meta-game's mean payoffs (played once, on its own games, with the first block)."""
    out: dict[str, Any] = {}
    for p, part in parts_of(space):
        out.update(measure_part(space, candidate, a, b, p, part))
    return out


def parts_of(space: Space) -> list[tuple[int, str]]:
    """A candidate's games in parts that play apart: (players, field) for each field, and
    (players, "extras") for the skill and diversity objectives, when there are any."""
    s = space.settings
    extras = any(o.measure in ("skill", "diversity") for o in space.objectives)
    return [(p, x) for p in s.players for x in (*s.fields, *(["extras"] if extras else []))]


def measure_part(space: Space, candidate: Mapping[str, Any], a: int, b: int, p: int,
                 part: str) -> dict[str, Any]:  # fmt: skip
    """One part of `measure_block` (`parts_of`): a field's sums at `p` players, or, for
    `part` "extras", the skill and diversity objectives' there."""
    s = space.settings
    games = np.arange(a, b)
    rules = rules_of(candidate, p, s.keep_totals, game=space.game)
    out: dict[str, Any] = {}
    if part != "extras":
        study = make_study(p, b, {p: [part]}, seed=s.seed, rounds=needs_rounds(space),
                           rules=rules, game=space.game)  # fmt: skip
        res, table = run_in_memory(study, games=games)
        out[f"{p}:{part}"] = field_sums(res, table, p, space)
        return out
    for o in space.objectives:
        if o.measure == "skill":
            lineup = f"{o.better},{o.weaker}"
            study = make_study(p, b, {p: [lineup]}, seed=s.seed, rules=rules, game=space.game)
            res, _ = run_in_memory(study, games=games)
            label = study.cells[0].lineup[0].label  # L2, L3 keep the level's name
            mine = res[res["strategy"] == label]
            out[f"{p}:skill:{o.name}"] = {"n": int(len(mine)),
                                          "wins": float(mine["win_share"].sum())}  # fmt: skip
        elif o.measure == "diversity" and a == 0:
            n = o.games or DIVERSITY_GAMES
            game = metagame.play(list(o.library), p, n, seed=s.seed, rules=rules, game=space.game)
            x = meta_analysis.nash(game)
            w = x[x > 0] / x[x > 0].sum()
            effective = float(np.exp(-(w * np.log(w)).sum()))  # a Hill number of order 1
            out[f"{p}:diversity:{o.name}"] = {"effective": effective,
                                              "mixture": [float(v) for v in x]}  # fmt: skip
    return out


def measure_parts(space: Space, candidates: Sequence[Mapping[str, Any]], a: int, b: int,
                  jobs: int) -> list[dict[str, Any]]:  # fmt: skip
    """`measure_block` of each candidate, its parts (`parts_of`: each field at each player
    count) played as separate tasks, `jobs` at a time: one candidate alone keeps every job
    busy (the reduction measures one subset at a time)."""
    tasks = [(k, p, part) for k in range(len(candidates)) for p, part in parts_of(space)]
    calls = (delayed(measure_part)(space, candidates[k], a, b, p, part) for k, p, part in tasks)
    done = Parallel(n_jobs=jobs)(calls) if jobs > 1 and len(tasks) > 1 else [
        f(*x, **kw) for f, x, kw in calls]  # fmt: skip
    out: list[dict[str, Any]] = [{} for _ in candidates]
    for (k, _, _), got in zip(tasks, done, strict=True):
        out[k].update(got)
    return out


def field_sums(
    res: pd.DataFrame, table: pd.DataFrame | None, p: int, space: Space
) -> dict[str, Any]:
    """A field's sums over a block of games (`measure_block`): the points from the game's
    headline part under its name (`headline_measure`), and the results columns the game
    sums besides (`BLOCK_COLUMNS`)."""
    spec = load_game(space.game)
    shares = res["win_share"].to_numpy(float).reshape(-1, p)
    per_game = res.groupby("game", sort=True)["rounds"].first().to_numpy(float)
    part = spec.INFO.score_parts[0]
    out: dict[str, Any] = {
        "n": int(shares.shape[0]),
        "seats": shares.sum(axis=0).tolist(),
        "seats2": (shares**2).sum(axis=0).tolist(),
        "score": float(res["score"].sum()),
        headline_measure(space.game): float(spec.MEASURES.score_parts(res)[part].sum()),
        **{c: float(res[c].sum()) for c in spec.MEASURES.block_columns},
        "rounds": float(per_game.sum()),
        "rounds2": float((per_game**2).sum()),
    }
    if table is not None:
        final = res.pivot_table(index="game", columns="seat", values="win_share").to_numpy()
        games = np.sort(res["game"].unique())
        index = {g: k for k, g in enumerate(games)}
        for r in sorted({o.round for o in space.objectives if o.measure == "decisive"}):
            part = table[table["round"] == r]
            score = part.pivot_table(index="game", columns="seat", values="score")
            top = score.max(axis=1)
            sole = score.eq(top, axis=0).sum(axis=1) == 1
            leader = score[sole].idxmax(axis=1)
            rows = np.array([index[g] for g in leader.index], dtype=int)
            won = final[rows, leader.to_numpy(int)] if len(rows) else np.zeros(0)
            out[f"lead{r}"] = [int(len(won)), float(won.sum())]
    return out


def add(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    """Two blocks' sums added (nested lists element by element; a diversity entry is kept
    from the first block)."""
    if a is None:
        return json.loads(json.dumps(b))
    out: dict[str, Any] = {}
    for k in a:
        x, y = a[k], b.get(k)
        if k.count(":") == 2 and k.split(":")[1] == "diversity":
            out[k] = x
        elif isinstance(x, dict):
            out[k] = add(x, y)
        elif isinstance(x, list):
            out[k] = [add_value(u, v) for u, v in zip(x, y, strict=True)]
        else:
            out[k] = x + y
    for k in b:
        if k not in out:
            out[k] = b[k]
    return out


def add_value(u: Any, v: Any) -> Any:
    return [add_value(x, y) for x, y in zip(u, v, strict=True)] if isinstance(u, list) else u + v


# --- measures and objectives ---------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    """An objective's value for one candidate: the worst cell's value, that cell (its field
    and player count, `cell_name`), its 95 % interval, and every cell's value."""

    value: float
    where: str
    lo: float
    hi: float
    cells: dict[str, float]


def field_value(o: Objective, x: Mapping[str, Any], p: int,
                base: Mapping[str, Any] | None = None) -> tuple[float, float, float]:  # fmt: skip
    """An objective's value with its 95 % interval from one field's summed games at `p`
    players (`field_sums`); `base` is the base game's sums on the same games (`length_change`:
    the candidate's mean and t interval less the base game's mean, not a paired interval;
    a game's length depends on the deck, which both share, so the base mean's own spread
    is the candidate's). `decisive` counts the games with a sole leader after the round.
    Skill and diversity are not field measures (`cell_values`)."""
    n = x["n"]
    if o.measure == "seat0":
        lo, hi = stats.wilson(x["seats"][0], n)
        return (x["seats"][0] / n - 1 / p) * 100, (lo - 1 / p) * 100, (hi - 1 / p) * 100
    if o.measure == "seat_rms":
        share = np.asarray(x["seats"]) / n
        v = float(np.sqrt(((share - 1 / p) ** 2).mean())) * 100
        se = float(np.sqrt((share * (1 - share) / n).mean())) * 100
        return v, max(0.0, v - 1.96 * se), v + 1.96 * se
    if o.measure not in MEASURES:  # the headline part's share (`headline_measure`)
        v = x[o.measure] / x["score"] * 100 if x["score"] else float("nan")
        return v, v, v
    if o.measure in ("length", "length_change"):
        mean, _, lo, hi = stats.mean_interval(n, x["rounds"], x["rounds2"])
        shift = 0.0
        if o.measure == "length_change":
            if base is None:
                raise ValueError("length_change needs the base game's sums")
            shift = base["rounds"] / base["n"]
        return float(mean) - shift, float(lo) - shift, float(hi) - shift
    if o.measure == "decisive":
        k, won = x[f"lead{o.round}"]
        if not k:
            return float("nan"), float("nan"), float("nan")
        lo, hi = stats.wilson(won, k)
        return won / k * 100, lo * 100, hi * 100
    raise ValueError(f"{o.measure} is not measured in one field")


def cell_values(o: Objective, sums: Mapping[str, Any], base: Mapping[str, Any] | None,
                space: Space) -> dict[str, tuple[float, float, float]]:  # fmt: skip
    """An objective's value in each of its cells ('L3, 5 players' -> value, lo, hi) from
    summed games; `base` is the base game's sums on the same games (for `length_change`)."""
    s = space.settings
    out: dict[str, tuple[float, float, float]] = {}
    for p in s.players:
        if o.measure == "skill":
            y = sums[f"{p}:skill:{o.name}"]
            lo, hi = stats.wilson(y["wins"], y["n"])
            v = (y["wins"] / y["n"] - 1 / p) * 100
            out[cell_name(p, f"{o.better} vs {o.weaker}")] = (v, (lo - 1 / p) * 100,
                                                              (hi - 1 / p) * 100)  # fmt: skip
        elif o.measure == "diversity":
            v = sums[f"{p}:diversity:{o.name}"]["effective"]
            out[cell_name(p)] = (v, v, v)
        elif o.measure in ("seat0", "seat_rms"):
            for f in s.fields:
                out[cell_name(p, f)] = field_value(o, sums[f"{p}:{f}"], p)
        else:
            f = o.field or space.strongest()
            b = None if base is None else base[f"{p}:{f}"]
            out[cell_name(p, f)] = field_value(o, sums[f"{p}:{f}"], p, b)
    return out


def worst_cell(o: Objective, cells: Mapping[str, float]) -> str:
    """The cell an objective is judged by: the largest bound violation, then the largest
    loss (`value_of` over every cell; the balance report over one player count's)."""
    return max(cells, key=lambda c: (o.violation(cells[c]), o.loss(cells[c])))


def value_of(o: Objective, sums: Mapping[str, Any], base: Mapping[str, Any] | None,
             space: Space) -> Value:  # fmt: skip
    """An objective's value: its worst cell (the largest bound violation, then the largest
    loss) over the player counts and fields."""
    cells = cell_values(o, sums, base, space)
    where = worst_cell(o, {c: x[0] for c, x in cells.items()})
    v, lo, hi = cells[where]
    return Value(float(v), where, float(lo), float(hi), {c: float(x[0]) for c, x in cells.items()})


def judge(space: Space, sums: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Value]:
    """Every objective's value of a candidate."""
    return {o.name: value_of(o, sums, base, space) for o in space.objectives}


def losses(space: Space, values: Mapping[str, Value]) -> list[float]:
    """Each declared objective's loss (`Objective.loss`)."""
    return [o.loss(values[o.name].value) for o in space.objectives]


def aims(space: Space, values: Mapping[str, Value], changes: int) -> list[float]:
    """What the optimiser minimises: each objective's loss and, with `[balance] parsimony`,
    the number of settings changed."""
    return losses(space, values) + ([float(changes)] if space.settings.parsimony else [])


def meets(space: Space, values: Mapping[str, Value]) -> bool:
    """Whether every objective's value meets its hard bounds (its estimate: `met`)."""
    return all(v == 0 for v in violations(space, values))


def violations(space: Space, values: Mapping[str, Value]) -> list[float]:
    """Each objective's bound violation (0 when met), in its unit."""
    return [o.violation(values[o.name].value) for o in space.objectives]


def scale(o: Objective) -> float:
    """An objective's scale for ranking (its tightest bound, at least 1)."""
    bounds = [abs(x) for x in (o.within, o.at_most, o.at_least) if x is not None]
    return max(1.0, min(bounds)) if bounds else 1.0


def rank_key(space: Space, values: Mapping[str, Value],
             changes: int = 0) -> tuple[float, int, float]:  # fmt: skip
    """A candidate's place in successive halving, among finalists and in the reduction,
    smaller first: its total bound violation; then, among candidates that meet every target
    and with `[balance] parsimony`, the number of settings it changes (the lexicographic
    tie-break: a designer adopts the smaller fix); then its total loss, each objective
    divided by its scale."""
    viol = round(sum(v / scale(o) for o, v in zip(space.objectives, violations(space, values),
                                                  strict=True)), 9)  # fmt: skip
    loss = sum(x / scale(o) for o, x in zip(space.objectives, losses(space, values), strict=True))
    fewer = changes if viol == 0 and space.settings.parsimony else 0
    return (viol, fewer, loss)


def pareto(points: np.ndarray) -> np.ndarray:
    """[n] True where a row of `points` (to minimise) is dominated by no other: no row at
    most as large everywhere and smaller somewhere."""
    pts = np.asarray(points, dtype=float)
    keep = np.ones(len(pts), dtype=bool)
    for i in range(len(pts)):
        le = (pts <= pts[i]).all(axis=1)
        lt = (pts < pts[i]).any(axis=1)
        if (le & lt).any():
            keep[i] = False
    return keep


# --- the cache of measured blocks ----------------------------------------------------------------


class Blocks:
    """Measured blocks of games by key (what a candidate's games are made of,
    `Space.game_key`) and game range, kept in `blocks.jsonl` (one line per block, appended
    as it is measured; a line cut short by a kill is ignored)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.held: dict[tuple[str, int, int], dict[str, Any]] = {}
        if path.is_file():
            text = path.read_text()
            if text and not text.endswith("\n"):  # a line cut short by a kill: dropped
                text = text[: text.rfind("\n") + 1]
                path.write_text(text)
            for line in text.splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue
                self.held[(row["key"], row["a"], row["b"])] = row["sums"]

    def get(self, key: str, a: int, b: int) -> dict[str, Any] | None:
        return self.held.get((key, a, b))

    def put(self, key: str, a: int, b: int, sums: dict[str, Any]) -> None:
        self.held[(key, a, b)] = sums
        line = json.dumps({"key": key, "a": a, "b": b, "sums": sums}) + "\n"
        with self.path.open("a") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())


def measure(space: Space, blocks: Blocks, candidates: Sequence[Mapping[str, Any]],
            upto: int, jobs: int) -> list[dict[str, Any]]:  # fmt: skip
    """Each candidate's sums over games 0..upto-1, from the blocks of the rungs (measured
    now when missing, `jobs` candidates at a time). Two candidates of the same game
    (`Space.game_key`) share their blocks: each block is played once."""
    edges = [0, *[g for g in space.settings.rung_games() if g <= upto]]
    spans = list(zip(edges[:-1], edges[1:], strict=True))
    keys = [space.game_key(c) for c in candidates]
    todo = {(k, a, b): (c, a, b) for k, c in zip(keys, candidates, strict=True)
            for a, b in spans if blocks.get(k, a, b) is None}  # fmt: skip
    if todo:
        tasks = (delayed(measure_block)(space, c, a, b) for c, a, b in todo.values())
        runner = Parallel(n_jobs=jobs, return_as="generator") if jobs > 1 else None
        done = runner(tasks) if runner is not None else (f(*x, **k) for f, x, k in tasks)
        for (k, a, b), sums in zip(todo, done, strict=True):
            blocks.put(k, a, b, sums)
    out = []
    for k in keys:
        total = None
        for a, b in spans:
            total = add(total, blocks.get(k, a, b))  # type: ignore[arg-type]
        out.append(total)
    return out


# --- the search ----------------------------------------------------------------------------------


@dataclass
class Trial:
    """A finished trial: its number, candidate, rung reached and games per field, each
    objective's value there, the settings it changes, and the earlier trial whose game it
    repeats (told that trial's measures, nothing played), if any."""

    number: int
    candidate: dict[str, Any]
    rung: int
    games: int
    values: dict[str, Value]
    feasible: bool
    key: tuple[float, int, float]
    changes: int = 0
    same_as: int | None = None


def _distributions(space: Space) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for d in space.dimensions:
        if d.kind == "categorical":
            out[d.name] = optuna.distributions.CategoricalDistribution(list(d.choices))
        elif d.kind == "int":
            out[d.name] = optuna.distributions.IntDistribution(int(d.low), int(d.high))  # type: ignore[arg-type]
        else:
            out[d.name] = optuna.distributions.FloatDistribution(d.low, d.high)  # type: ignore[arg-type]
    return out


def _sampler(space: Space, number: int) -> optuna.samplers.BaseSampler:
    """The sampler that proposes trial `number`: NSGA-II seeded by the root seed and the
    trial's number (a resumed run proposes what a straight run would)."""
    s = space.settings
    return optuna.samplers.NSGAIISampler(
        population_size=s.population, seed=(s.seed * 1_000_003 + number) % 2**32
    )


def open_study(space: Space, run: Path) -> optuna.Study:
    """The run directory's Optuna study (created, or loaded when its identity matches)."""
    make_dir(run)
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(run / "journal.log"))
    )
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    identity = json.loads(json.dumps(space.identity(), default=str))
    if STUDY in optuna.get_all_study_names(storage):
        study = optuna.load_study(study_name=STUDY, storage=storage, sampler=_sampler(space, 0))
        kept = study.user_attrs.get("identity")
        if isinstance(kept, dict):  # a space that names no game: `recorded_game`
            check_game(recorded_game(kept), space.game, run, "a balance search")
        if kept != identity:
            raise UserError(f"{run} holds a balance search of another space or settings: "
                            "choose another --runs directory or remove it")  # fmt: skip
        return study
    aims = len(space.objectives) + space.settings.parsimony
    study = optuna.create_study(study_name=STUDY, storage=storage, sampler=_sampler(space, 0),
                                directions=["minimize"] * aims)  # fmt: skip
    study.set_user_attr("identity", identity)
    (run / "space.json").write_text(json.dumps(identity, indent=1))
    return study


def search(space: Space, run: Path, jobs: int | None = None, say: Say | None = None) -> list[Trial]:
    """Run (or resume) the search in `run` until `trials` trials are told; returns every
    told trial (`Trial`), in order. Batch k is trials k * population to (k + 1) *
    population - 1; a batch stopped while it was asked, measured or told is completed
    as a straight run would have done it."""
    s = space.settings
    jobs = s.jobs if jobs is None else jobs
    say = say or (lambda _line: None)
    study = open_study(space, run)
    blocks = Blocks(run / "blocks.jsonl")
    dists = _distributions(space)
    rungs = s.rung_games()
    _finish_asking(space, study, dists)
    started = time.monotonic()
    while True:
        every = study.get_trials(deepcopy=False)
        # a trial asked but not told, or the base game enqueued but not yet asked
        asked = (optuna.trial.TrialState.RUNNING, optuna.trial.TrialState.WAITING)
        running = [t.number for t in every if t.state in asked]
        if not running and len(every) >= s.trials:
            break
        start = min(running) // s.population * s.population if running else len(every)
        end = min(start + s.population, s.trials)
        if not every and space.contains(space.base()):
            study.enqueue_trial(space.base())
        while len(study.get_trials(deepcopy=False)) < end:
            study.sampler = _sampler(space, len(study.get_trials(deepcopy=False)))
            study.ask(dists)
        batch = [t for t in study.get_trials(deepcopy=False) if start <= t.number < end]
        _halving(space, study, blocks, batch, rungs, jobs, say, started, _known(space, study,
                                                                                start))  # fmt: skip
    return trials_of(space, study)


def _known(space: Space, study: optuna.Study, start: int) -> dict[str, Trial]:
    """The games measured to the top rung by the batches before trial `start` (by
    `Space.game_key`, the first trial of each): a trial proposing one again is told its
    measures. Only earlier batches count, so a resumed batch promotes what a straight run
    did."""
    top = len(space.settings.rung_games()) - 1
    out: dict[str, Trial] = {}
    for t in trials_of(space, study):
        fresh_top = t.number < start and t.rung == top and t.same_as is None
        if fresh_top and space.refused(t.candidate) is None:
            out.setdefault(space.game_key(t.candidate), t)
    return out


def _finish_asking(space: Space, study: optuna.Study, dists: Mapping[str, Any]) -> None:
    """A stop (Ctrl-C, SIGTERM) while a trial was asked can leave it created without all its
    settings: ask them now, with the sampler that trial was asked with, as a straight run
    did."""
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        if all(name in t.params for name in dists):
            continue
        study.sampler = _sampler(space, t.number)
        live = optuna.trial.Trial(study, t._trial_id)
        for name, dist in dists.items():  # what `study.ask(dists)` suggests, in its order
            if isinstance(dist, optuna.distributions.CategoricalDistribution):
                live.suggest_categorical(name, list(dist.choices))
            elif isinstance(dist, optuna.distributions.IntDistribution):
                live.suggest_int(name, dist.low, dist.high)
            else:
                live.suggest_float(name, dist.low, dist.high)


def _halving(space: Space, study: optuna.Study, blocks: Blocks, batch: list[Any],
             rungs: list[int], jobs: int, say: Say, started: float,
             known: Mapping[str, Trial]) -> None:  # fmt: skip
    """Successive halving over one batch of trials (every one of them, so that a batch
    stopped while it was told promotes the same trials), then each trial not yet told is
    told its values at the last rung it reached. A trial whose game is `known` (measured to
    the top rung by an earlier batch), or that an earlier trial of the batch plays, takes no
    place in the halving: it is told that trial's rung and values."""
    s = space.settings
    cands = {t.number: {d.name: t.params[d.name] for d in space.dimensions} for t in batch}
    alive = [t.number for t in batch]
    first, last = alive[0] + 1, alive[-1] + 1
    reached: dict[int, tuple[int, dict[str, Value]]] = {}
    same: dict[int, int] = {}  # a trial -> the trial whose game it repeats
    played: dict[str, int] = {}
    for n in list(alive):  # settings the rules refuse together: told unmeasured, never played
        problem = space.refused(cands[n])
        if problem is not None:
            nan = float("nan")
            reached[n] = (0, {o.name: Value(nan, problem, nan, nan, {}) for o in space.objectives})
            alive.remove(n)
            continue
        k = space.game_key(cands[n])
        if k in known:
            same[n] = known[k].number
            reached[n] = (known[k].rung, known[k].values)
            alive.remove(n)
        elif k in played:
            same[n] = played[k]
            alive.remove(n)
        else:
            played[k] = n
    changes = {n: len(space.changes(c)) for n, c in cands.items()}
    for r, games in enumerate(rungs):
        if not alive:
            break
        took = time.monotonic() - started
        say(f"trials {first}-{last} of {s.trials}: rung {r + 1}/{len(rungs)}, {len(alive)} "
            f"candidates x {games} games per field ({took:.0f} s)")  # fmt: skip
        base = measure(space, blocks, [space.base()], games, jobs)[0]
        sums = measure(space, blocks, [cands[n] for n in alive], games, jobs)
        for n, x in zip(alive, sums, strict=True):
            reached[n] = (r, judge(space, x, base))
        if r + 1 < len(rungs):
            alive.sort(key=lambda n: (rank_key(space, reached[n][1], changes[n]), n))
            alive = sorted(alive[: max(1, math.ceil(len(alive) / s.eta))])
    for n, m in same.items():
        if n not in reached:
            reached[n] = reached[m]
    for t in batch:
        if t.state != optuna.trial.TrialState.RUNNING:
            continue
        r, values = reached[t.number]
        live = optuna.trial.Trial(study, t._trial_id)
        live.set_user_attr("rung", r)
        live.set_user_attr("games", rungs[r])
        live.set_user_attr("changes", changes[t.number])
        if t.number in same:
            live.set_user_attr("same_as", same[t.number])
        for o, v in zip(space.objectives, violations(space, values), strict=True):
            if f"constraints:{o.name}" not in t.system_attrs:  # set before a kill: the same
                live.set_constraint(o.name, v)  # NSGA-II: feasible when every one is 0
        live.set_user_attr("values", {k: v.__dict__ for k, v in values.items()})
        study.tell(live, aims(space, values, changes[t.number]))


def trials_of(space: Space, study: optuna.Study) -> list[Trial]:
    """The study's told trials as `Trial`s."""
    out = []
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)):
        values = {k: Value(**v) for k, v in t.user_attrs["values"].items()}
        cand = {d.name: t.params[d.name] for d in space.dimensions}
        changes = int(t.user_attrs.get("changes", 0))
        same = t.user_attrs.get("same_as")
        out.append(Trial(t.number, cand, int(t.user_attrs["rung"]), int(t.user_attrs["games"]),
                         values, meets(space, values), rank_key(space, values, changes),
                         changes, None if same is None else int(same)))  # fmt: skip
    return sorted(out, key=lambda t: t.number)


def trials_table(space: Space, trials: Sequence[Trial]) -> pd.DataFrame:
    """One row per trial: its settings, rung and games, the settings it changes, the earlier
    trial whose game it repeats, each objective's value and worst cell, feasibility and
    whether it is on the Pareto front of the top rung's trials (of what the optimiser
    minimises, `aims`)."""
    top = len(space.settings.rung_games()) - 1
    full = [t for t in trials if t.rung == top]
    front = set()
    if full:
        pts = np.array([aims(space, t.values, t.changes) for t in full])
        front = {t.number for t, k in zip(full, pareto(pts), strict=True) if k}
    rows = []
    for t in trials:
        row: dict[str, Any] = {"trial": t.number, **t.candidate, "rung": t.rung + 1,
                               "games": t.games, "changes": t.changes,
                               "same_as": -1 if t.same_as is None else t.same_as}  # fmt: skip
        for o in space.objectives:
            v = t.values[o.name]
            row[o.name] = v.value
            row[f"{o.name}_where"] = v.where
        row["violation"] = t.key[0]
        row["loss"] = t.key[2]
        row["feasible"] = t.feasible
        row["pareto"] = t.number in front
        row["base"] = key_of(t.candidate) == key_of(space.base())
        rows.append(row)
    return pd.DataFrame(rows)


def choose_finalists(space: Space, trials: Sequence[Trial]) -> tuple[list[Trial], bool]:
    """Up to `finalists` trials of the top rung, other than the base game, each game once
    (`game_key`: two settings that give the same rules are one finalist): the feasible ones
    on the Pareto front first (fewest changes, then smallest total loss first: `rank_key`),
    then the other feasible ones, then the closest (smallest total violation); and whether
    any is feasible."""
    top = len(space.settings.rung_games()) - 1
    base = space.game_key(space.base())
    seen: set[str] = set()
    full = []
    for t in sorted(trials, key=lambda t: (t.key, t.number)):
        if t.rung != top or space.refused(t.candidate) is not None:
            continue
        k = space.game_key(t.candidate)
        if k != base and k not in seen:
            seen.add(k)
            full.append(t)
    if not full:
        return [], False
    pts = np.array([aims(space, t.values, t.changes) for t in full])
    front = pareto(pts)
    feasible = [t for t, f in zip(full, front, strict=True) if f and t.feasible]
    feasible += [t for t in full if t.feasible and t not in feasible]
    rest = [t for t in full if not t.feasible]
    chosen = (feasible + rest)[: space.settings.finalists]
    return chosen, bool(feasible)


# --- after the search: the verification's games, the one-change screen, the reduction -----------


def fresh(space: Space, shift: int) -> Space:
    """The space with its root seed moved by `shift` (new deals, the same for everyone)."""
    return replace(space, settings=replace(space.settings, seed=space.settings.seed + shift))


Measurer = Callable[[Space, Sequence[Mapping[str, Any]], int, int, int], list[dict[str, Any]]]


class Checks:
    """Candidates measured on the verification's games: games 0..`[verify] games`-1 of root
    seed + 1, the same deals for the base game and every candidate (paired), each game
    measured once and kept in `blocks.jsonl` by `Space.game_key`; `measurer` plays what is
    missing (`measure_parts` unless a test gives another), and `played` counts the
    candidates it was asked to play."""

    def __init__(self, space: Space, path: Path, jobs: int,
                 measurer: Measurer | None = None) -> None:  # fmt: skip
        self.space = fresh(space, 1)
        self.games = space.settings.verify_games
        self.jobs = jobs
        self.blocks = Blocks(path)
        self.measurer: Measurer = measurer or measure_parts
        self.played = 0

    def key(self, candidate: Mapping[str, Any]) -> str:
        return self.space.game_key(candidate)

    def known(self, candidate: Mapping[str, Any]) -> bool:
        """Whether a candidate's game is measured already."""
        return self.blocks.get(self.key(candidate), 0, self.games) is not None

    def put(self, candidate: Mapping[str, Any], sums: dict[str, Any]) -> None:
        """Keep sums measured elsewhere on these games (the verification's paired run)."""
        if not self.known(candidate):
            self.blocks.put(self.key(candidate), 0, self.games, sums)

    def sums(self, candidates: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Each candidate's sums, the games not measured yet played now (together)."""
        todo = {self.key(c): c for c in candidates if not self.known(c)}
        if todo:
            got = self.measurer(self.space, list(todo.values()), 0, self.games, self.jobs)
            self.played += len(todo)
            for k, x in zip(todo, got, strict=True):
                self.blocks.put(k, 0, self.games, x)
        return [self.blocks.get(self.key(c), 0, self.games) for c in candidates]  # type: ignore[misc]

    def judge(self, candidates: Sequence[Mapping[str, Any]]) -> list[dict[str, Value]]:
        """Each candidate's objectives, paired with the base game on the same games."""
        base, *rest = self.sums([self.space.base(), *candidates])
        return [judge(self.space, x, base) for x in rest]


def screen_candidates(space: Space, refused: bool = False) -> list[tuple[str, Any, dict[str, Any]]]:
    """The one-change screen's candidates: (setting, value, the base game with that one
    setting at that value) for each setting at each of its screened values
    (`Dimension.screened`), a value that leaves the game as it is left out and two values of
    one game given once; those the rules refuse only when `refused`."""
    base = space.base()
    out = []
    seen = {space.game_key(base)}
    for d in space.dimensions:
        for v in d.screened(space.settings.screen_values):
            if v == base[d.name]:
                continue
            cand = {**base, d.name: v}
            if space.refused(cand) is not None:
                if refused:
                    out.append((d.name, v, cand))
                continue
            k = space.game_key(cand)
            if k not in seen:
                seen.add(k)
                out.append((d.name, v, cand))
    return out


@dataclass
class Screened:
    """One row of the one-change screen: a setting, its value, the candidate (the base game
    with that one setting changed) and its objectives on the verification's games (None:
    the rules refuse it, `note` says why)."""

    setting: str
    value: Any
    candidate: dict[str, Any]
    values: dict[str, Value] | None
    note: str = ""


def screen(space: Space, checks: Checks, say: Say | None = None) -> list[Screened]:
    """The one-change screen: the base game with one setting changed, each setting at each
    of its screened values (`Dimension.screened`: every choice, every value of a short
    whole-number range, else `[verify] screen_values` values spanning the range), against
    the base game on the verification's games. A value that leaves the game as it is (a
    height scale that rounds back to the shipped tiles) is left out; two values of one game
    are one row."""
    rows: list[Screened] = []
    for name, v, cand in screen_candidates(space, refused=True):
        rows.append(Screened(name, v, cand, None, space.refused(cand) or ""))
    todo = [r for r in rows if not r.note]
    if say is not None:
        say(f"one-change screen: {len(todo)} single changes x {checks.games:,} games per field")
    for r, values in zip(todo, checks.judge([r.candidate for r in todo]), strict=True):
        r.values = values
    return rows


@dataclass
class Grown:
    """A set-up of the screen's forward selection: its changes ((setting, value) pairs, the
    base game's values elsewhere), the candidate and its objectives on the verification's
    games."""

    changes: tuple[tuple[str, Any], ...]
    candidate: dict[str, Any]
    values: dict[str, Value]


def grow(space: Space, checks: Checks, screened: Sequence[Screened], depth: int,
         say: Say | None = None) -> list[Grown]:  # fmt: skip
    """The screen carried on when no single change meets every target (forward selection):
    the best single change (`rank_key`) with each other screened change of another setting
    added, on the same games; if none of those meets every target, the best of them with each
    other added, and so on up to `depth` changes (`[verify] screen_depth`). Every set-up
    measured is returned; the search stops at the first size where one meets every target."""
    singles = [r for r in screened if r.values is not None]
    if depth < 2 or not singles or any(meets(space, r.values) for r in singles):  # type: ignore[arg-type]
        return []
    if meets(space, checks.judge([space.base()])[0]):  # no change is needed
        return []
    steps = [((r.setting, r.value),) for r in singles]
    best = min(singles, key=lambda r: rank_key(space, r.values, 1))  # type: ignore[arg-type]
    current: tuple[tuple[str, Any], ...] = ((best.setting, best.value),)
    out: list[Grown] = []
    for size in range(2, depth + 1):
        taken = {n for n, _ in current}
        adds, seen = [], set()
        for ((n, v),) in steps:
            cand = {**space.base(), **dict(current), n: v}
            if n in taken or space.refused(cand) is not None:
                continue
            k = space.game_key(cand)
            if k not in seen:
                seen.add(k)
                adds.append(((*current, (n, v)), cand))
        if not adds:
            break
        if say is not None:
            say(f"one-change screen carried on: {len(adds)} sets of {size} changes")
        found = [Grown(x, c, v) for (x, c), v in zip(adds, checks.judge([c for _, c in adds]),
                                                     strict=True)]  # fmt: skip
        out += found
        if any(meets(space, g.values) for g in found):
            break
        current = min(found, key=lambda g: rank_key(space, g.values, size)).changes
    return out


@dataclass
class Fix:
    """A finalist's smallest fix: the settings it keeps of the finalist's changes (empty: no
    change is needed, the base game meets every target), the candidate, whether it meets
    every target on the verification's games, how it was found, and the subsets judged and
    played on the way (those not played were measured already)."""

    finalist: int
    changes: tuple[str, ...]
    candidate: dict[str, Any]
    values: dict[str, Value]
    meets: bool
    method: str
    judged: int = 0
    played: int = 0
    tried: list[tuple[tuple[str, ...], bool]] = field(default_factory=list)


def reduce(space: Space, checks: Checks, finalist: int, candidate: Mapping[str, Any],
           say: Say | None = None) -> Fix:  # fmt: skip
    """A finalist reduced to its smallest subset of changes that still meets every target
    on the verification's games (paired with the base game; every subset measured once):

    1. the base game meets every target: no change is needed;
    2. the finalist itself misses one: it is not reduced;
    3. each change alone: the best one (`rank_key`) that meets every target is the fix;
    4. with at most `EXHAUSTIVE` changes, every pair, then every triple...: the smallest
       size at which one meets every target, the best of that size;
    5. with more, backward elimination: the changes are dropped one at a time, the least
       helpful alone first (the worst single of step 3), each drop kept when the rest still
       meets every target, pass after pass until a pass drops nothing; then, when at most
       `EXHAUSTIVE` are left, every smaller subset of them is tried too.

    Steps 3 and 4 find the smallest subset; step 5 one from which no change can be dropped
    (it tries about 2k subsets of k changes instead of 2^k)."""
    base = space.base()
    names = tuple(space.changes(candidate))
    tried: list[tuple[tuple[str, ...], bool]] = []
    start = checks.played

    def subset(keep: Sequence[str]) -> dict[str, Any]:
        return {**base, **{n: candidate[n] for n in keep}}

    Judged = list[tuple[tuple[str, ...], dict[str, Value]]]

    def judged(subsets: Sequence[tuple[str, ...]]) -> Judged:
        got = checks.judge([subset(x) for x in subsets])
        for x, values in zip(subsets, got, strict=True):
            tried.append((x, meets(space, values)))
        return list(zip(subsets, got, strict=True))

    def best(found: Judged) -> tuple[str, ...] | None:
        ok = [(rank_key(space, v, len(x)), k, x) for k, (x, v) in enumerate(found)
              if meets(space, v)]  # fmt: skip
        return min(ok)[2] if ok else None

    def done(keep: tuple[str, ...], method: str, met: bool = True) -> Fix:
        values = checks.judge([subset(keep)])[0]
        return Fix(finalist, keep, subset(keep), values, met and meets(space, values), method,
                   len(tried), checks.played - start, tried)  # fmt: skip

    if say is not None:
        say(f"reducing finalist {finalist}: {len(names)} changes")
    if meets(space, checks.judge([base])[0]):
        return done((), "the base game meets every target")
    whole = checks.judge([subset(names)])[0]
    if not meets(space, whole) or len(names) <= 1:
        return done(names, "not reduced: it misses a target" if not meets(space, whole)
                    else "one change: nothing to drop", meets(space, whole))  # fmt: skip
    singles = judged([(n,) for n in names])
    one = best(singles)
    if one is not None:
        return done(one, "one change alone")
    if len(names) <= EXHAUSTIVE:
        for size in range(2, len(names)):
            found = best(judged(list(itertools.combinations(names, size))))
            if found is not None:
                return done(found, f"every subset of {len(names)} changes")
        return done(names, f"every subset of {len(names)} changes")
    ranks = {x[0]: rank_key(space, v, 1) for x, v in singles}
    order = sorted(names, key=lambda n: (ranks[n], names.index(n)), reverse=True)
    keep = names
    dropped = True
    while dropped and len(keep) > 1:
        dropped = False
        for n in order:
            if n not in keep or len(keep) == 1:
                continue
            rest = tuple(m for m in keep if m != n)
            known = dict(tried)  # a subset judged before is not judged again
            ok = known[rest] if rest in known else meets(space, judged([rest])[0][1])
            if ok:
                keep, dropped = rest, True
    method = "backward elimination"
    if 3 <= len(keep) <= EXHAUSTIVE:
        for size in range(2, len(keep) - 1):
            found = best(judged(list(itertools.combinations(keep, size))))
            if found is not None:
                return done(found, method + ", then every smaller subset")
        method += ", then every smaller subset"
    return done(keep, method)
