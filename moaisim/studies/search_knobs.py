"""Tuning look-ahead's own knobs (`moaisim tune-search`): L4's defaults, found by a small
noisy optimiser against L3.

`search` has knobs besides its worlds (the cost knob, held fixed): how many rounds its
rollouts play after the current one (`horizon`), how many actions it tries (`candidates`),
how mixed its sealed bids are (`temperature`) and how a rollout cut short values a score
lead (`lead`). (`horizon` and `lead` act only in a game played in rounds, `temperature` only
on decisions taken at once: in Rapa Nui, which has neither, only `candidates` changes play;
the other three are searched all the same, to no effect on a trial's games.) Each trial
plays one `search` seat with the trial's knobs against copies of L3 (the shipped Nash
mixture), seats rotated, at each player count asked, on the **same games for every trial**
(common random numbers: the trial's knobs are the only difference), and scores the mean
gain (win share minus the fair 1/P) over the player counts.

The optimiser is Optuna's TPE sampler (a Bayesian optimiser that needs no gradient and
tolerates noise; docs/strategies.md, "search"): the current defaults are trial 0 and
the first trials are random (TPE's start-up). Any game whose `search` has the four knobs can
be tuned; a knob's range (`KNOBS`) is widened to hold the game's shipped default (`ranges`:
Rapa Nui's search ships `horizon=-1` and `candidates=256`), so trial 0 is always a trial of
the space searched, and a game whose search lacks a knob is refused in one line. Every
trial's sampler is seeded by the root seed and the number of finished trials, so a run,
stopped and resumed, proposes the same trials as one that ran straight through; trials are
kept in a journal file in the run directory. A trial whose search costs more CPU per game
and searching seat than `max_seconds` is kept but cannot be chosen.

The best trial is then **verified**: it and the defaults play new games (root seed + 1),
paired game by game, so the gain over the defaults is measured free of the selection's luck.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import optuna
import pandas as pd
from joblib import Parallel, delayed
from scipy import stats

from moaisim.analysis.stats import wilson
from moaisim.analysis.tables import win_shares
from moaisim.errors import UserError
from moaisim.files import GAME_KEY, check_game, write_atomic
from moaisim.games import load_game
from moaisim.registry import level_spec, load_strategy
from moaisim.rundir import check_own_dir, identity_game, make_dir, recorded_game
from moaisim.runner import check_jobs

#: The knobs tuned and their ranges: (kind, choices) or (kind, low, high); kinds: "choice",
#: "int", "log" (a float on a log scale), and, for a range widened to a game's default
#: (`ranges`), "logint" (an int on a log scale) and "float".
KNOBS: dict[str, tuple[Any, ...]] = {
    "horizon": ("choice", (0, 1, 2)),  # -1 (to the end) costs several times the 2 s budget
    "candidates": ("int", 4, 16),
    "temperature": ("log", 0.005, 0.5),
    "lead": ("log", 1.0, 12.0),
}
#: Games per batch of a measurement (search is slow: small batches spread over the jobs).
BATCH = 10
STUDY = "search-knobs"
#: The bounds of a search's counts: trials, and games per seat rotation (search plays about
#: 0.10 s of CPU a game, more with more worlds); root seeds seed Optuna's sampler, which
#: takes 32 bits.
MAX_TRIALS = 10_000
MAX_GAMES = 10_000
SEEDS = 2**32
#: Files that mark a directory as another kind of study's (a report, a sheet).


@dataclass
class Trial:
    """One setting of the knobs, measured: per player count the search seat's gain over
    fair (with its Wilson interval and the games behind it) and its CPU seconds per game."""

    number: int
    knobs: dict[str, Any]
    gains: dict[int, float] = field(default_factory=dict)
    intervals: dict[int, tuple[float, float]] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)

    @property
    def value(self) -> float:
        """The objective: the mean gain over the player counts."""
        return float(np.mean(list(self.gains.values())))


@dataclass
class Verified:
    """The chosen knobs against the defaults on fresh games, paired game by game."""

    players: int
    games: int
    chosen_gain: float
    chosen_interval: tuple[float, float]
    default_gain: float
    default_interval: tuple[float, float]
    difference: float
    difference_interval: tuple[float, float]
    chosen_seconds: float
    default_seconds: float


@dataclass
class KnobsResult:
    players: list[int]
    worlds: int
    trials: list[Trial]
    best: Trial
    verified: list[Verified]
    path: Path
    command: str = ""
    #: the game whose `search` strategy was tuned
    game: str = field(kw_only=True)

    @property
    def adopted(self) -> bool:
        """Whether the best trial's knobs are recommended over the defaults: verified on new
        games, better on average over the player counts, significantly better at one count
        at least and significantly worse at none (else the selection's luck, not the knobs,
        may have made it best); unverified, never."""
        if not self.verified:
            return False
        mean = float(np.mean([v.difference for v in self.verified]))
        return (mean > 0 and any(v.difference_interval[0] > 0 for v in self.verified)
                and all(v.difference_interval[1] >= 0 for v in self.verified))  # fmt: skip

    @property
    def recommended(self) -> dict[str, Any]:
        """The knobs to play: the best trial's if `adopted`, else today's defaults."""
        return dict(self.best.knobs) if self.adopted else defaults(self.game)


def defaults(game: str) -> dict[str, Any]:
    """The knobs as the game's `search` strategy ships them."""
    params = load_strategy("search", game).cls.params
    missing = [k for k in KNOBS if k not in params]
    if missing:
        raise UserError(f"tune-search tunes the knobs {', '.join(KNOBS)}; {game}'s search has "
                        f"none of {', '.join(missing)} (its parameters: "
                        f"{', '.join(params)})")  # fmt: skip
    return {k: params[k] for k in KNOBS}


def ranges(game: str) -> dict[str, tuple[Any, ...]]:
    """The knobs' ranges in `game`: `KNOBS`, each widened to hold the game's shipped default
    (trial 0 plays the defaults, and Optuna takes no trial outside its space): a choice gains
    the default; a range of numbers reaches out to it, on a log scale when it reaches out
    (Rapa Nui's `candidates=256` makes 4-16 into 4-256, sampled evenly in ratio), on a linear
    one where a log scale cannot hold it (a default of 0 or less). A game whose defaults lie
    inside every range (Moai's) searches `KNOBS` itself."""
    shipped = defaults(game)
    out: dict[str, tuple[Any, ...]] = {}
    for name, (kind, *rng) in KNOBS.items():
        d = shipped[name]
        if isinstance(d, bool) or not isinstance(d, int | float) or not math.isfinite(d):
            raise UserError(f"tune-search: {game}'s search ships {name}={d!r}, not a finite "
                            f"number to tune")  # fmt: skip
        if kind == "choice":
            out[name] = (kind, rng[0] if d in rng[0] else tuple(sorted({*rng[0], d})))
        elif kind == "int" and d != int(d):
            raise UserError(f"tune-search: {game}'s search ships {name}={d!r}, not a whole "
                            f"number")  # fmt: skip
        elif rng[0] <= d <= rng[1]:
            out[name] = (kind, *rng)
        else:
            lo, hi = min(rng[0], d), max(rng[1], d)
            if kind == "int":
                out[name] = ("logint" if lo >= 1 else "int", int(lo), int(hi))
            else:
                out[name] = ("log" if lo > 0 else "float", float(lo), float(hi))
    return out


def widened(space: Mapping[str, tuple[Any, ...]]) -> list[str]:
    """What `ranges` widened in `space`, a phrase a knob ("horizon in (-1, 0, 1, 2)",
    "candidates 4 to 256 (log scale)"; none widened: empty)."""
    out = []
    for name, (kind, *rng) in space.items():
        if (kind, *rng) == KNOBS[name]:
            continue
        if kind == "choice":
            out.append(f"{name} in ({', '.join(map(str, rng[0]))})")
        else:
            scale = " (log scale)" if kind in ("log", "logint") else ""
            out.append(f"{name} {rng[0]:g} to {rng[1]:g}{scale}")
    return out


def spec(knobs: Mapping[str, Any], worlds: int) -> str:
    """The search spec of a setting (floats to 4 significant digits)."""
    parts = [f"worlds={worlds}"]
    for k, v in knobs.items():
        parts.append(f"{k}={float(v):.4g}" if isinstance(v, float) else f"{k}={v}")
    return f"search({', '.join(parts)})"


# --- measuring -------------------------------------------------------------------------------
def _batch(
    players: int, lineup: list[str], idx: np.ndarray, seed: int, seat: int, game: str
) -> tuple[np.ndarray, float]:
    """One batch of games: the search seat's win shares and the CPU seconds."""
    the_game = load_game(game)
    rules = the_game.make_rules(players)
    specs = [load_strategy(s, game) for s in lineup]
    cpu = time.process_time()
    g = the_game.Games.new(rules, seed, idx).play([s() for s in specs])
    cpu = time.process_time() - cpu
    res = g.results()
    share = win_shares(res, ("game",)).to_numpy()
    mine = res["seat"].to_numpy() == seat
    return share[mine], cpu


def shares(
    search: str, players: int, games: int, seed: int, n_jobs: int, game: str
) -> tuple[np.ndarray, float]:
    """`games` games per seat rotation of `search` against L3: the search seat's win share
    in each (ordered by rotation, then game) and CPU seconds per game: the median over the
    batches, so a worker's first batch, which may compile the kernels, does not count."""
    l3 = level_spec("L3", players, game)
    tasks = []
    for s in range(players):
        lineup = [search if q == s else l3 for q in range(players)]
        for a in range(0, games, BATCH):
            tasks.append((lineup, np.arange(a, min(games, a + BATCH)), s))
    parts = Parallel(n_jobs=n_jobs)(
        delayed(_batch)(players, lineup, idx, seed, s, game) for lineup, idx, s in tasks
    )
    out = np.concatenate([x for x, _ in parts])
    return out, float(np.median([cpu / len(x) for x, cpu in parts]))


def _gain(x: np.ndarray, players: int) -> tuple[float, tuple[float, float]]:
    lo, hi = wilson(float(x.sum()), len(x))
    fair = 1.0 / players
    return float(x.mean()) - fair, (float(lo) - fair, float(hi) - fair)


def measure(
    knobs: Mapping[str, Any],
    number: int,
    worlds: int,
    players: Sequence[int],
    games: int,
    seed: int,
    n_jobs: int,
    game: str,
) -> Trial:
    """A trial: the knobs' search against L3 at each player count, `games` per rotation."""
    trial = Trial(number, dict(knobs))
    for p in players:
        x, sec = shares(spec(knobs, worlds), p, games, seed, n_jobs, game)
        trial.gains[p], trial.intervals[p] = _gain(x, p)
        trial.games[p], trial.seconds[p] = len(x), sec
    return trial


def verify(
    best: Mapping[str, Any],
    worlds: int,
    players: Sequence[int],
    games: int,
    seed: int,
    n_jobs: int,
    game: str,
) -> list[Verified]:
    """The chosen knobs and the defaults on the same fresh games: each one's gain over fair
    and the paired difference (a t interval over the games' share differences)."""
    out = []
    for p in players:
        mine, sec = shares(spec(best, worlds), p, games, seed, n_jobs, game)
        base, base_sec = shares(spec(defaults(game), worlds), p, games, seed, n_jobs, game)
        d = mine - base
        half = (
            stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
            if len(d) > 1
            else np.inf
        )
        g, gi = _gain(mine, p)
        b, bi = _gain(base, p)
        out.append(
            Verified(
                p,
                len(d),
                g,
                gi,
                b,
                bi,
                float(d.mean()),  # a difference of win shares lies in [-1, 1]
                (max(-1.0, float(d.mean() - half)), min(1.0, float(d.mean() + half))),
                sec,
                base_sec,
            )
        )
    return out


# --- the search ------------------------------------------------------------------------------
def _suggest(trial: Any, knobs: Mapping[str, tuple[Any, ...]]) -> dict[str, Any]:
    """A trial's knobs, each from its range in `knobs` (`ranges`)."""
    out: dict[str, Any] = {}
    for name, (kind, *rng) in knobs.items():
        if kind == "choice":
            out[name] = trial.suggest_categorical(name, list(rng[0]))
        elif kind in ("int", "logint"):
            out[name] = trial.suggest_int(name, rng[0], rng[1], log=kind == "logint")
        else:
            out[name] = trial.suggest_float(name, rng[0], rng[1], log=kind == "log")
    return out


def _settings(players: Sequence[int], worlds: int, games: int, seed: int,
              knobs: Mapping[str, tuple[Any, ...]] = KNOBS) -> dict[str, Any]:  # fmt: skip
    return {
        "players": list(players),
        "worlds": worlds,
        "games": games,
        "seed": seed,
        "knobs": {k: list(map(str, v)) for k, v in knobs.items()},
    }


def _check(
    players: Sequence[int],
    trials: int,
    games: int,
    verify_games: int,
    worlds: int,
    max_seconds: float,
    n_jobs: int,
    seed: int = 0,
    *,
    game: str,
) -> None:
    """Every setting of a search, one line each, before anything is created or played."""
    if not players or any(p not in (2, 3, 4, 5) for p in players):
        raise UserError("tune-search: player counts are 2-5")
    for name, v, least, most in (
        ("--trials", trials, 2, MAX_TRIALS),
        ("--games", games, 1, MAX_GAMES),
        ("--verify-games", verify_games, 0, MAX_GAMES),
    ):
        if v < least:
            raise UserError(f"tune-search: {name} must be at least {least} (got {v})")
        if v > most:
            raise UserError(f"tune-search: {name} must be at most {most:,} (got {v:,})")
    if worlds < 1:
        raise UserError(f"tune-search: --worlds must be at least 1 (got {worlds})")
    knobs = defaults(game)  # the game's search has these knobs (a one-line error if not)
    ranges(game)  # and ships each as a number a range can hold (a one-line error if not)
    try:  # search's own bounds (its worlds among them), as every trial plays it
        load_strategy(spec(knobs, worlds), game)
    except UserError as exc:
        raise UserError(f"tune-search: --worlds {worlds}: {exc}") from None
    if not max_seconds > 0 or not math.isfinite(max_seconds):
        raise UserError(f"tune-search: --max-seconds must be above 0 and finite "
                        f"(got {max_seconds})")  # fmt: skip
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEEDS:
        raise UserError(f"tune-search: --seed must be from 0 to 2**32-1 (Optuna's sampler "
                        f"takes 32 bits), got {seed!r}")  # fmt: skip
    check_jobs(n_jobs)


def check_out(out: Path) -> None:
    """A search may go into `out` if it is new, empty or holds a knob search (its journal);
    a run, a report or anything else there is refused (one line), before it is written."""
    check_own_dir(out, "a knob search", lambda d: (d / "journal.log").is_file())


def tune_search(
    players: Sequence[int],
    out: Path,
    trials: int = 24,
    games: int = 20,
    verify_games: int = 100,
    worlds: int = 32,
    max_seconds: float = 2.0,
    seed: int = 0,
    n_jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    command: str = "",
    *,
    game: str,
) -> KnobsResult:
    """Run (or resume) the search over the knobs of `game`'s `search` in `out`, verify the
    best feasible trial and write `out/trials.csv` and `out/search-knobs.toml`."""
    players = sorted(set(players))
    _check(players, trials, games, verify_games, worlds, max_seconds, n_jobs, seed, game=game)
    check_out(out)
    make_dir(out)
    say = progress or (lambda _line: None)
    space = ranges(game)  # KNOBS, widened to the game's shipped defaults
    if wide := widened(space):
        say(f"{game}'s search ships defaults outside the tuned ranges: searching "
            f"{', '.join(wide)} so that trial 0 plays them")  # fmt: skip
    settings = _settings(players, worlds, games, seed, space)
    settings.update(identity_game(game))  # a search made before games had names resumes
    journal = out / "journal.log"
    storage = optuna.storages.JournalStorage(
        optuna.storages.journal.JournalFileBackend(str(journal))
    )
    # a trial stopped (Ctrl-C, SIGTERM) or refused fails with its own one line: not Optuna's
    # warning with the traceback
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    names = optuna.get_all_study_names(storage)
    if STUDY in names:
        study = optuna.load_study(study_name=STUDY, storage=storage)
        held = study.user_attrs.get("settings")  # one that names no game: `recorded_game`
        check_game(recorded_game(held), game, out, "a knob search")
        if held != settings:
            raise UserError(
                f"{out} holds a knob search of other settings "
                f"({json.dumps(study.user_attrs.get('settings'))}): choose another --out"
            )
    else:
        study = optuna.create_study(study_name=STUDY, storage=storage, direction="maximize")
        study.set_user_attr("settings", settings)

    def done() -> list[Any]:
        return [
            t
            for t in study.get_trials(deepcopy=False)
            if t.state == optuna.trial.TrialState.COMPLETE
        ]

    def objective(t: Any) -> float:
        knobs = _suggest(t, space)
        got = measure(knobs, len(done()), worlds, players, games, seed, n_jobs, game=game)
        t.set_user_attr("trial", json.dumps(asdict(got)))
        return got.value

    while len(finished := done()) < trials:
        n = len(finished)
        waiting = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.WAITING,))
        if not any(t.user_attrs.get("defaults") for t in finished) and not waiting:
            # trial 0: the shipped defaults, on the same games as every trial
            study.enqueue_trial(defaults(game), user_attrs={"defaults": True})
        sampler = optuna.samplers.TPESampler(seed=(seed + n) % SEEDS,
                                             n_startup_trials=max(2, trials // 3))  # fmt: skip
        study.sampler = sampler
        started = time.monotonic()
        study.optimize(objective, n_trials=1, catch=())
        last = done()[-1] if len(done()) > n else None
        if last is not None:
            tr = _trial(last.user_attrs["trial"])
            say(
                f"trial {n + 1}/{trials}: {spec(tr.knobs, worlds)}: mean gain {tr.value:+.3f} "
                f"({', '.join(f'{p}p {g:+.3f}' for p, g in tr.gains.items())}; "
                f"{max(tr.seconds.values()):.2f} s CPU per game; "
                f"{time.monotonic() - started:.0f} s)"
            )
    kept = sorted((_trial(t.user_attrs["trial"]) for t in done()), key=lambda t: t.number)
    feasible = [t for t in kept if max(t.seconds.values()) <= max_seconds]
    if not feasible:
        raise UserError(
            f"tune-search: no trial searched within {max_seconds} s CPU per game: "
            "raise --max-seconds or lower --worlds"
        )
    best = max(feasible, key=lambda t: (t.value, -t.number))
    checked: list[Verified] = []
    if verify_games:
        say(
            f"verifying {spec(best.knobs, worlds)} against the defaults on {verify_games} new "
            "games per seat rotation"
        )
        checked = _verified(
            out / "verified.json",
            best.knobs,
            worlds,
            players,
            verify_games,
            seed + 1,
            n_jobs,
            game,
        )
    result = KnobsResult(players, worlds, kept, best, checked, out / "search-knobs.toml", command,
                         game=game)  # fmt: skip
    write_atomic(out / "trials.csv",
                 table(kept).assign(**{GAME_KEY: game}).to_csv(index=False).encode(),
                 "trials table")  # fmt: skip
    write_atomic(result.path, _toml(result, max_seconds).encode(), "knobs file")
    return result


def _verified(path: Path, knobs: Mapping[str, Any], worlds: int, players: Sequence[int],
              games: int, seed: int, n_jobs: int, game: str
              ) -> list[Verified]:  # fmt: skip
    """`verify`, kept in `path` by its settings: a finished search run again says its
    result without playing the verification again."""
    key = {"knobs": dict(knobs), "worlds": worlds, "players": list(players), "games": games,
           "seed": seed, **identity_game(game)}  # fmt: skip
    if path.is_file():
        kept = json.loads(path.read_text())
        if kept.get("key") == json.loads(json.dumps(key)):
            return [Verified(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})
                    for d in kept["verified"]]  # fmt: skip
    got = verify(knobs, worlds, players, games, seed, n_jobs, game)
    body = {GAME_KEY: game, "key": key, "verified": [asdict(v) for v in got]}
    write_atomic(path, json.dumps(body, indent=1).encode(), "verification")
    return got


def _trial(text: str) -> Trial:
    d = json.loads(text)
    conv = {
        k: {int(p): (tuple(v) if isinstance(v, list) else v) for p, v in d[k].items()}
        for k in ("gains", "intervals", "games", "seconds")
    }
    return Trial(d["number"], d["knobs"], **conv)


def table(trials: Sequence[Trial]) -> pd.DataFrame:
    """One row per trial: its knobs, mean gain and per player count gain, interval, CPU."""
    rows = []
    for t in trials:
        row: dict[str, Any] = {"trial": t.number, **t.knobs, "mean_gain": t.value}
        for p in t.gains:
            row[f"gain_{p}p"] = t.gains[p]
            row[f"lo_{p}p"], row[f"hi_{p}p"] = t.intervals[p]
            row[f"cpu_s_{p}p"] = t.seconds[p]
        rows.append(row)
    return pd.DataFrame(rows)


def _toml(r: KnobsResult, max_seconds: float) -> str:
    lines = [
        "# search's knobs tuned against L3 by moaisim tune-search (TPE, common random numbers)"
    ]
    if r.command:
        lines.append(f"# command: {r.command}")
    lines.append(
        f"# {len(r.trials)} trials; best: trial {r.best.number}, mean gain {r.best.value:+.3f} "
        f"at {', '.join(f'{p}p' for p in r.players)}; at most {max_seconds} s CPU per game"
    )
    for v in r.verified:
        lines.append(
            f"# verified at {v.players}p on {v.games} new games: gain {v.chosen_gain:+.3f} "
            f"[{v.chosen_interval[0]:+.3f}, {v.chosen_interval[1]:+.3f}] vs defaults "
            f"{v.default_gain:+.3f}; difference {v.difference:+.3f} "
            f"[{v.difference_interval[0]:+.3f}, {v.difference_interval[1]:+.3f}]; "
            f"{v.chosen_seconds:.2f} s vs {v.default_seconds:.2f} s CPU per game"
        )
    why = "the best trial" if r.adopted else "the defaults (the best trial is not verified better)"
    lines.append(f"# recommended: {why}")
    lines.append(f'{GAME_KEY} = "{r.game}"')
    lines.append("[search]")
    lines.append(f"worlds = {r.worlds}")
    for k, v in r.recommended.items():
        lines.append(f"{k} = {round(v, 4) if isinstance(v, float) else v}")
    return "\n".join(lines) + "\n"


def summary(r: KnobsResult) -> str:
    """What a run found, in a few lines."""
    out = [
        f"best of {len(r.trials)} trials: {spec(r.best.knobs, r.worlds)}, mean gain "
        f"{r.best.value:+.3f} against L3 (trial 0, the defaults: {r.trials[0].value:+.3f})"
    ]
    for v in r.verified:
        out.append(
            f"  {v.players}p, {v.games} new games: {v.chosen_gain:+.3f} "
            f"[{v.chosen_interval[0]:+.3f}, {v.chosen_interval[1]:+.3f}] vs the defaults' "
            f"{v.default_gain:+.3f}: difference {v.difference:+.3f} "
            f"[{v.difference_interval[0]:+.3f}, {v.difference_interval[1]:+.3f}]"
        )
    out.append(
        f"recommended: {spec(r.recommended, r.worlds)}"
        + ("" if r.adopted else " (the defaults: the best trial is not verified better)")
    )
    out.append(f"written: {r.path}")
    return "\n".join(out)
