"""`moaisim experiment FILE.toml`: a declarative study, run (resumably) and reported.

An experiment file names its game (`game`, optional: Moai by default; `moaisim games` lists
them), the study (`[study]`: the grid, lineups, games, seed) and the report (`title`,
`question`); `run_experiment` plays it into `<runs>/<name>` (resuming a stopped or smaller
run of the same study) and writes its report into `<reports>/<name>`:

    game = "moai"                # the game played (the rules, options and strategies are its)
    name = "short-game"
    title = "Does the short variant change who wins?"
    question = "V3 removes five epoch cards: shorter games, but the same winners?"

    [study]
    players = [3, 4]
    variants = ["base", "short"]
    strategies = "greedy"        # one lineup; or lineups = ["greedy", "moai,greedy"], or a
                                 # table of lineups by player count ([study.lineups] "3" = [...]),
                                 # or tournament = ["greedy", "moai", "fisher", ...]:
                                 # every set of distinct strategies that fills the seats
    games = 20000
    seed = 2026
    rounds = true
    components = "alt.toml"      # component files: relative to the experiment file
    vary = "grid"                # how the parameters' lists combine: "grid" (every
                                 # combination) or "one-at-a-time" (the first values, and
                                 # each other value alone)

    [study.params]               # rule parameters (`moaisim variants` lists them): a value,
    removed_epoch3 = [0, 1, 2]   # or a list the study sweeps

Every key is checked (type and range) before any strategy is imported; a 'module:Class'
strategy is imported from the current directory only when the file says, at its top level,
`trust_local_code = true` (an experiment file is data: running it must not run code that
merely happens to lie beside it).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from moaisim.analysis import check as checking
from moaisim.analysis.report import apart, check_metrics, check_report_dir, make_report
from moaisim.analysis.verdicts import field_report
from moaisim.errors import UserError
from moaisim.files import check_writable_dir, read_text
from moaisim.games import check_key, load_game
from moaisim.registry import local_code
from moaisim.rundir import recorded_game
from moaisim.runner import ROTATIONS, VARY, check_jobs, make_study, round_robin, run_to_disk
from moaisim.studies.field import check_field, check_field_dirs, run_field
from moaisim.studies.retune import RetuneSettings, retune, retuned_lineups

#: The keys of an experiment file and of its [study] table.
TOP = {"game", "name", "title", "question", "study", "field", "run", "report", "trust_local_code",
       "retune", "check"}  # fmt: skip
#: The [study] keys of every game; its rule options (`GameSpec.OPTIONS`) come beside them.
STUDY = {"players", "variants", "strategies", "lineups", "tournament", "games", "seed",
         "rotation", "rounds", "components", "chunk_size", "batch_size", "params",
         "vary"}  # fmt: skip
RUN = {"jobs"}
#: The keys of [check], the check field (`analysis.check`): L4 and the checked lineup's
#: self-play on each set-up's first `games` deals.
CHECK = {"games", "lineup"}
#: The most games a set-up's check field plays (L4: about 0.10 s of CPU per seat and game).
MAX_CHECK_GAMES = 100_000
#: Under `--games N` the check field plays N // QUICK_CHECK deals (at least 2).
QUICK_CHECK = 10


def study_keys(game: str) -> set[str]:
    """The keys a [study] table may hold for `game`: `STUDY` and the game's rule options."""
    return STUDY | set(load_game(game).OPTIONS)


@dataclass(frozen=True)
class Experiment:
    """A checked experiment file: its study (a grid, or a field study), its report's title,
    question and settings, and the jobs to run it with."""

    path: Path
    name: str
    title: str
    question: str
    study: dict[str, Any]
    jobs: int
    trust_local_code: bool = False
    #: a field study (`studies.field`) instead of a grid: the checked [field] table
    field: dict[str, Any] | None = None
    #: [report] margins: the study's equivalence margins by metric (`verdicts.MARGINS`)
    margins: dict[str, float] | None = None
    #: [report] field: a field study's report, the meta-game the fields are measured against
    field_report: Path | None = None
    #: command-line options that changed the study (`--seed S`), for its Reproduce line
    options: str = ""
    #: [report] metrics: what the question asks about, the answer box's rows (`box_metrics`)
    metrics: tuple[str, ...] | None = None
    #: [retune]: `tuned` re-tuned under each set-up before the study (`studies.retune`)
    retune: RetuneSettings | None = None
    #: the game played (the file's top-level `game`: `recorded_game` for a file that names
    #: none)
    game: str = dataclasses.field(kw_only=True)
    #: [check]: the check field's games per set-up and checked lineup (`analysis.check`)
    check: dict[str, Any] | None = None


def reseeded(exp: Experiment, seed: int | None) -> Experiment:
    """The experiment with another root seed (its study's or its field study's): an
    independent replication of the same design; unchanged when `seed` is None."""
    if seed is None:
        return exp
    if not _whole(seed) or not 0 <= seed < 2**63:
        raise UserError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}")
    if exp.field is not None:
        return replace(exp, field={**exp.field, "seed": seed}, options=f" --seed {seed}")
    return replace(exp, study={**exp.study, "seed": seed}, options=f" --seed {seed}")


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file, every key's type and range, before anything is
    imported or played: one clear `UserError` per mistake."""
    path = Path(path)
    try:
        data = tomllib.loads(read_text(path, "experiment file"))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None

    def bad(message: str) -> UserError:
        return UserError(f"{path}: {message}")

    for key in data:
        if key not in TOP:
            raise bad(f"unknown key {key!r} (expected {', '.join(sorted(TOP))})")
    try:
        game = check_key(data["game"]) if "game" in data else recorded_game()
    except UserError as exc:
        raise bad(str(exc)) from None
    name = data.get("name")
    if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum():
        raise bad(f"name must be a word such as 'seat-balance', got {name!r}")
    if "field" in data:  # a field study: the meta-game, its certificate, restricted play
        if "check" in data:
            raise bad("[check] belongs to a grid study ([study]), not to a field study")
        if "study" in data:
            raise bad("give [study] (a grid of games) or [field] (a field study), not both")
        try:
            checked = check_field(data["field"])
        except UserError as exc:
            raise bad(str(exc)) from None
        return Experiment(path, name, *_header(data, bad, name), {}, *_run(data, bad),
                          field=checked, game=game)  # fmt: skip
    study = data.get("study")
    if not isinstance(study, dict):
        raise bad("missing table [study] (or [field])")
    keys = study_keys(game)
    for key in study:
        if key not in keys:
            raise bad(f"unknown key study.{key} (expected one of {', '.join(sorted(keys))})")
    for key in ("players", "games"):
        if key not in study:
            raise bad(f"missing key study.{key}")
    given = [k for k in ("strategies", "lineups", "tournament") if k in study]
    if len(given) > 1:
        raise bad(
            "give one of study.strategies (one lineup), study.lineups or study.tournament, "
            f"not {' and '.join(given)}"
        )
    study = dict(study)
    for key, value in study.items():
        problem = _check_study_value(key, value, game)
        if problem:
            raise bad(f"study.{key} {problem}")
    if isinstance(study.get("lineups"), dict):
        study["lineups"] = {int(k): v for k, v in study["lineups"].items()}
        extra = sorted(set(study["lineups"]) - set(_listed(study["players"])))
        if extra:
            raise bad(f"study.lineups has lineups for {extra[0]} players, a player count the "
                      "study does not play (study.players)")  # fmt: skip
    if "components" in study:  # paths relative to the experiment file
        study["components"] = [
            str(c if Path(c).is_absolute() else path.parent / c)
            for c in _listed(study["components"])
        ]
    margins, field, metrics = _report_options(data, path, bad, game)
    retune = None
    if "retune" in data:
        if "tournament" in study:
            raise bad("[retune] needs study.lineups or study.strategies (not a tournament)")
        try:
            retune = RetuneSettings.of(data["retune"], game)
        except UserError as exc:
            raise bad(str(exc)) from None
    check = _check_options(data, study, bad)
    return Experiment(path, name, *_header(data, bad, name), study, *_run(data, bad),
                      margins=margins, field_report=field, metrics=metrics,
                      retune=retune, game=game, check=check)  # fmt: skip


def _check_options(data: dict[str, Any], study: dict[str, Any], bad: Any) -> dict[str, Any] | None:
    """[check]: `games` (each set-up's first deals, at least 2) and `lineup` (the checked
    lineup, "L3" by default), which the study must play at every player count."""
    if "check" not in data:
        return None
    check = data["check"]
    if not isinstance(check, dict):
        raise bad('[check] must be a table (games = 300, lineup = "L3")')
    for key in check:
        if key not in CHECK:
            raise bad(f"unknown key check.{key} (expected {', '.join(sorted(CHECK))})")
    if "tournament" in study:
        raise bad("[check] needs study.lineups or study.strategies (not a tournament)")
    games = check.get("games")
    if not _whole(games) or not 2 <= games <= MAX_CHECK_GAMES:
        raise bad(f"check.games must be a whole number from 2 to {MAX_CHECK_GAMES:,} (L4 "
                  f"self-play's games per set-up), got {games!r}")  # fmt: skip
    lineup = check.get("lineup", checking.CHECKED)
    if not isinstance(lineup, str) or not lineup.strip():
        raise bad(f'check.lineup must be a lineup as a string ("L3"), got {lineup!r}')
    if lineup.strip() in checking.SEARCH_NAMES:
        raise bad("check.lineup must be a lineup other than L4: the check field plays L4 beside it")
    for players in _listed(study["players"]):
        played = _lineups_at(study, players)
        if lineup not in played:
            raise bad(f"check.lineup {lineup!r} is not among the study's lineups at {players} "
                      f"players ({', '.join(played)}): the check compares L4 with a lineup "
                      "the study plays")  # fmt: skip
    return {"games": games, "lineup": lineup}


def _lineups_at(study: dict[str, Any], players: int) -> list[str]:
    """The lineups a [study] table plays at a player count (`strategies`: one)."""
    lineups = study.get("lineups")
    if isinstance(lineups, dict):
        return [str(x) for x in lineups.get(players, [])]
    if lineups is not None:
        return [str(x) for x in lineups]
    return [str(study.get("strategies", "greedy"))]


def _report_options(
    data: dict[str, Any], path: Path, bad: Any, game: str
) -> tuple[dict[str, float] | None, Path | None, tuple[str, ...] | None]:
    """[report]: `margins = {metric = margin, ...}` (positive numbers, by a variants
    metric's name or "share" for every share of games), `field = "<dir>"` (a field study's
    report, relative to the experiment file, which says which fields are exploitable) and
    `metrics = [...]` (what the question asks about: `box_metrics` by default)."""
    report = data.get("report", {})
    if not isinstance(report, dict):
        raise bad("[report] must be a table")
    for key in report:
        if key not in ("margins", "field", "metrics"):
            raise bad(f"unknown key report.{key} (expected margins, field or metrics)")
    margins, field = report.get("margins"), report.get("field")
    metrics = _box_metrics(report.get("metrics"), bad, game)
    if margins is not None:
        if not isinstance(margins, dict):
            raise bad("report.margins must be a table of metric = margin")
        for k, v in margins.items():
            if isinstance(v, bool) or not isinstance(v, int | float) or not v > 0:
                raise bad(f"report.margins.{k} must be a positive number, got {v!r}")
        margins = {str(k): float(v) for k, v in margins.items()}
    if field is not None:
        if not isinstance(field, str):
            raise bad(f"report.field must be a directory name, got {field!r}")

        try:
            field = field_report(
                Path(field) if Path(field).is_absolute() else path.parent / field, game
            )
        except UserError as exc:
            raise bad(f"report.field: {exc}") from None
    return margins, field, metrics


def _box_metrics(metrics: Any, bad: Any, game: str) -> tuple[str, ...] | None:
    """`[report] metrics`: a non-empty list of metric names (`report.check_metrics`)."""
    if metrics is None:
        return None
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise bad("report.metrics must be a non-empty list of metric names")
    try:
        return check_metrics(metrics, game)
    except UserError as exc:
        raise bad(f"report.metrics: {exc}") from None


def _header(data: dict[str, Any], bad: Any, name: str) -> tuple[str, str]:
    title, question = data.get("title", name), data.get("question", "")
    for key, value in (("title", title), ("question", question)):
        if not isinstance(value, str):
            raise bad(f"{key} must be a string")
    return title, question


def _run(data: dict[str, Any], bad: Any) -> tuple[int, bool]:
    run = data.get("run", {})
    if not isinstance(run, dict) or any(k not in RUN for k in run):
        raise bad(f"[run] takes only {', '.join(sorted(RUN))}")
    jobs = run.get("jobs", 1)
    if not _whole(jobs) or not (jobs >= 1 or jobs == -1):
        raise bad(f"run.jobs must be a positive whole number (or -1: every core), got {jobs!r}")
    trust = data.get("trust_local_code", False)
    if not isinstance(trust, bool):
        raise bad(f"trust_local_code must be true or false, got {trust!r}")
    return jobs, trust


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _strings(x: Any) -> bool:
    return isinstance(x, list) and bool(x) and all(isinstance(v, str) and v.strip() for v in x)


def _listed(x: Any) -> list[Any]:
    return x if isinstance(x, list) else [x]


def _check_study_value(key: str, value: Any, game: str) -> str | None:
    """What is wrong with a [study] value (None: nothing), checked before any strategy is
    imported (the rule parameters and options are `game`'s)."""
    spec = load_game(game)
    PARAMETERS, OPTIONS = spec.PARAMETERS, spec.OPTIONS  # noqa: N806
    if key == "players":
        items = _listed(value)
        if not items:
            return "is empty: give a player count from 2 to 5, or a list of them"
        if not all(_whole(p) and 2 <= p <= 5 for p in items):
            return f"must be from 2 to 5 (player counts), got {value!r}"
    elif key in ("games", "chunk_size", "batch_size"):
        if not _whole(value) or value < 1:
            return f"must be a whole number of at least 1, got {value!r}"
    elif key == "seed":
        if not _whole(value) or not 0 <= value < 2**64:
            return f"must be a whole number from 0 to 2**64-1, got {value!r}"
    elif key == "rounds":
        if not isinstance(value, bool):
            return f"must be true or false, got {value!r}"
    elif key == "rotation":
        if value not in ROTATIONS:
            return f"must be one of {', '.join(ROTATIONS)}, got {value!r}"
    elif key == "strategies":
        if not isinstance(value, str) or not value.strip():
            return f"must be one lineup as a string ('greedy,random'), got {value!r}"
    elif key == "tournament":
        if not _strings(value):
            return f"must be a list of strategy names, got {value!r}"
    elif key == "lineups":
        if isinstance(value, dict):
            if not value or not all(
                k.isdigit() and 2 <= int(k) <= 5 and _strings(v) for k, v in value.items()
            ):
                return ('must be a list of strings, or a table of them by player count '
                        '("3" = ["moai,fisher,forester"])')  # fmt: skip
        elif not _strings(value):
            return f"must be a non-empty list of lineups (strings), got {value!r}"
    elif key == "params":
        if not isinstance(value, dict) or not value:
            return "must be a table of rule parameters ([study.params] wood_supply = [10, 15])"
        for name, v in value.items():
            if name not in PARAMETERS:
                return f"names {name!r}, not a rule parameter ({', '.join(PARAMETERS)})"
            if not all(_whole(x) for x in _listed(v)) or not _listed(v):
                return f"{name} must be a whole number or a non-empty list of them, got {v!r}"
    elif key == "vary":
        if value not in VARY:
            return f"must be one of {', '.join(repr(v) for v in VARY)}, got {value!r}"
    elif key in ("variants", "components", *OPTIONS):
        items = _listed(value)
        if not items or not all(isinstance(v, str) and v.strip() for v in items):
            return f"must be a string or a non-empty list of strings, got {value!r}"
    return None


def study_of(exp: Experiment, games: int | None = None) -> Any:
    """The runner's `Study` of an experiment (checked: a bad grid is one clear line);
    `games` overrides the file's games per cell (a quick look before the full study). A
    'module:Class' strategy is imported from the current directory only when the file says
    `trust_local_code = true`."""

    s = dict(exp.study)
    if games is not None:
        if not _whole(games) or games < 1:
            raise UserError(f"games must be a whole number of at least 1, got {games!r}")
        s["games"] = games
    lineups = s.pop("lineups", None) or [s.pop("strategies", "greedy")]
    s.pop("strategies", None)
    try:
        if "tournament" in s:
            players = s["players"] if isinstance(s["players"], list) else [s["players"]]
            lineups = round_robin(s.pop("tournament"), players)
        with local_code(exp.trust_local_code):
            return make_study(
                players=s.pop("players"),
                games=s.pop("games"),
                lineups=lineups,
                variants=s.pop("variants", None),
                seed=s.pop("seed", 0),
                components=s.pop("components", None),
                rotation=s.pop("rotation", "cyclic"),
                chunk_size=s.pop("chunk_size", None),
                rounds=s.pop("rounds", False),
                batch_size=s.pop("batch_size", 10_000),
                params=s.pop("params", None),
                vary=s.pop("vary", "grid"),
                game=exp.game,
                **s,
            )
    except UserError as exc:
        raise UserError(f"{exp.path}: {exc}") from None


def check_study(exp: Experiment, games: int | None = None) -> Any:
    """The runner's `Study` of an experiment's check field: the checked lineup and L4 at
    every player count, on every set-up of the grid (variants, options, parameters,
    components), the same root seed, so its games are each set-up's first deals. Under
    `--games N` (a quick look) it plays a tenth as many deals as the look, at least 2 and
    at most the file's: every seat searches (about 0.10 s of CPU per seat and game)."""
    assert exp.check is not None
    n = exp.check["games"]
    if games is not None:
        n = min(n, max(2, games // QUICK_CHECK))
    s = {k: v for k, v in exp.study.items() if k not in ("strategies", "lineups")}
    s["lineups"] = {int(p): [exp.check["lineup"], checking.SEARCH_LINEUP]
                    for p in _listed(exp.study["players"])}  # fmt: skip
    return study_of(replace(exp, study=s), n)


def run_experiment(
    path: str | Path,
    runs: str | Path = "out/runs",
    reports: str | Path = "out/reports",
    jobs: int | None = None,
    progress: Any = None,
    games: int | None = None,
    notify: Any = None,
    force_resume: bool = False,
    seed: int | None = None,
) -> Path:
    """Run an experiment into `<runs>/<name>` (resuming) and report it into
    `<reports>/<name>`; returns the report's path. `games` overrides the file's games per
    cell: the run and report go to `<name>-<games>` so they never mix with the full study.
    `seed` replaces its root seed (an independent replication): into `<name>-seed<seed>`.
    A report directory that holds another study's report is an error (nothing is played)."""

    exp = reseeded(load_experiment(path), seed)
    name = exp.name if games is None else f"{exp.name}-{games}"
    if seed is not None:
        name = f"{name}-seed{seed}"
    if exp.field is not None:
        return _run_field(exp, name, Path(runs), Path(reports), jobs, games, notify)
    retuned_dir = Path(runs) / f"{name}-retuned"
    if exp.retune is not None:  # every tuned seat plays the weights re-tuned for its rules
        lineups = {k: retuned_lineups(v, retuned_dir) for k, v in exp.study.items()
                   if k in ("lineups", "strategies")}  # fmt: skip
        exp = replace(exp, study={**exp.study, **lineups})
    study = study_of(exp, games)
    command = f"moaisim experiment {exp.path}{exp.options}" + (
        "" if games is None else f" --games {games}"
    )
    run_dir, report_dir = Path(runs) / name, Path(reports) / name
    apart(run_dir, report_dir)
    identity = json.loads(json.dumps(study.identity(), default=str))
    check_report_dir(report_dir, study.seed, identity, study.game)
    check_writable_dir(run_dir, "--runs")  # now, not after the games
    check_writable_dir(report_dir.parent, "--reports")
    if jobs is None:
        jobs = exp.jobs
    check_jobs(jobs)
    retuned = None
    if exp.retune is not None:
        say = notify if callable(notify) else None
        retuned = retune(study, retuned_dir, exp.retune, jobs, say)
    check_dir, checks = None, None
    if exp.check is not None:  # checked now (a bad grid is one line), played after the study
        checks = check_study(exp, games)
        check_dir = Path(runs) / f"{name}-check"
        apart(check_dir, report_dir)
        check_writable_dir(check_dir, "--runs")
    run_to_disk(study, run_dir, resume=True, n_jobs=jobs, progress=progress, command=command,
                force_resume=force_resume, notify=notify, option="--runs")  # fmt: skip
    if check_dir is not None and checks is not None and exp.check is not None:
        if callable(notify):
            notify(
                f"check field: {exp.check['lineup']} and L4 self-play on each set-up's "
                f"first {checks.games:,} deals, into {check_dir}"
            )
        run_to_disk(checks, check_dir, resume=True, n_jobs=jobs,
                    progress=progress, command=f"{command} (its check field)",
                    force_resume=force_resume, notify=notify, option="--runs")  # fmt: skip
    return make_report(run_dir, report_dir, title=exp.title, command=command,
                       question=exp.question, margins=exp.margins,
                       field=exp.field_report, metrics=exp.metrics,
                       retuned=retuned, check=check_dir,
                       check_lineup=(exp.check or {}).get("lineup", checking.CHECKED))  # fmt: skip


def _run_field(exp: Experiment, name: str, runs: Path, reports: Path, jobs: int | None,
               games: int | None, notify: Any) -> Path:  # fmt: skip
    """A field study (`analysis.field`) into `<runs>/<name>` and `<reports>/<name>`."""

    if games is not None and (not _whole(games) or games < 1):
        raise UserError(f"games must be a whole number of at least 1, got {games!r}")
    run_dir, report_dir = runs / name, reports / name
    apart(run_dir, report_dir)
    held = report_dir.is_dir() and any(report_dir.iterdir())
    if held and not any(report_dir.glob("invasion-*p.csv")):
        raise UserError(f"{report_dir} holds something other than this field study's report: "
                        "choose another --reports directory")  # fmt: skip
    check_field_dirs(run_dir, report_dir, exp.game)  # another game's: refused, not replaced
    check_writable_dir(run_dir, "--runs")  # now, not after the games
    check_writable_dir(report_dir.parent, "--reports")
    jobs = exp.jobs if jobs is None else jobs
    check_jobs(jobs)
    with local_code(exp.trust_local_code):
        return run_field(exp, run_dir, report_dir, jobs, games, notify)
