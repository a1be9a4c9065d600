"""`moaisim experiment FILE.toml`: a declarative study, run (resumably) and reported.

An experiment file names the study (`[study]`: the grid, lineups, games, seed) and the report
(`title`, `question`); `run_experiment` plays it into `<runs>/<name>` (resuming a stopped or
smaller run of the same study) and writes its report into `<reports>/<name>`:

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
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moaisim.errors import UserError
from moaisim.rules import OPTIONS

#: The keys of an experiment file and of its [study] table.
TOP = {"name", "title", "question", "study", "run"}
STUDY = {"players", "variants", "strategies", "lineups", "tournament", "games", "seed",
         "rotation", "rounds", "components", "chunk_size", "batch_size", *OPTIONS}  # fmt: skip
RUN = {"jobs"}


@dataclass(frozen=True)
class Experiment:
    path: Path
    name: str
    title: str
    question: str
    study: dict[str, Any]
    jobs: int


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file: one clear `UserError` per mistake."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UserError(f"{path}: cannot read the experiment file ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None
    for key in data:
        if key not in TOP:
            raise UserError(f"{path}: unknown key {key!r} (expected {', '.join(sorted(TOP))})")
    name = data.get("name")
    if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum():
        raise UserError(f"{path}: name must be a word such as 'seat-balance', got {name!r}")
    study = data.get("study")
    if not isinstance(study, dict):
        raise UserError(f"{path}: missing table [study]")
    for key in study:
        if key not in STUDY:
            raise UserError(
                f"{path}: unknown key study.{key} (expected one of {', '.join(sorted(STUDY))})"
            )
    for key in ("players", "games"):
        if key not in study:
            raise UserError(f"{path}: missing key study.{key}")
    given = [k for k in ("strategies", "lineups", "tournament") if k in study]
    if len(given) > 1:
        raise UserError(
            f"{path}: give one of study.strategies (one lineup), study.lineups or "
            f"study.tournament, not {' and '.join(given)}"
        )

    def strings(x: Any) -> bool:
        return isinstance(x, list) and all(isinstance(v, str) for v in x)

    if "tournament" in study and not strings(study["tournament"]):
        raise UserError(f"{path}: study.tournament must be a list of strategy names")
    lineups = study.get("lineups", [])
    if isinstance(lineups, dict):
        # a table of lineups by player count: [study.lineups] "3" = [...], "4" = [...]
        if not all(k.isdigit() and strings(v) for k, v in lineups.items()):
            raise UserError(
                f"{path}: study.lineups must be a list of strings, or a table of them by "
                'player count ("3" = ["moai,fisher,forester"])'
            )
        study = {**study, "lineups": {int(k): v for k, v in lineups.items()}}
    elif not strings(lineups):
        raise UserError(f"{path}: study.lineups must be a list of strings")
    run = data.get("run", {})
    if not isinstance(run, dict) or any(k not in RUN for k in run):
        raise UserError(f"{path}: [run] takes only {', '.join(sorted(RUN))}")
    jobs = run.get("jobs", 1)
    title, question = data.get("title", name), data.get("question", "")
    for key, value in (("title", title), ("question", question)):
        if not isinstance(value, str):
            raise UserError(f"{path}: {key} must be a string")
    return Experiment(path, name, title, question, study, jobs)


def study_of(exp: Experiment, games: int | None = None) -> Any:
    """The runner's `Study` of an experiment (checked: a bad grid is one clear line);
    `games` overrides the file's games per cell (a quick look before the full study)."""
    from moaisim.runner import make_study, round_robin

    s = dict(exp.study)
    if games is not None:
        s["games"] = games
    lineups = s.pop("lineups", None) or [s.pop("strategies", "greedy")]
    s.pop("strategies", None)
    try:
        if "tournament" in s:
            players = s["players"] if isinstance(s["players"], list) else [s["players"]]
            lineups = round_robin(s.pop("tournament"), players)
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
            **s,
        )
    except UserError as exc:
        raise UserError(f"{exp.path}: {exc}") from None


def run_experiment(
    path: str | Path,
    runs: str | Path = "runs",
    reports: str | Path = "reports",
    jobs: int | None = None,
    progress: Any = None,
    games: int | None = None,
) -> Path:
    """Run an experiment into `<runs>/<name>` (resuming) and report it into
    `<reports>/<name>`; returns the report's path. `games` overrides the file's games per
    cell: the run and report go to `<name>-<games>` so they never mix with the full study."""
    from moaisim.analysis.report import make_report
    from moaisim.runner import run_to_disk

    exp = load_experiment(path)
    study = study_of(exp, games)
    name = exp.name if games is None else f"{exp.name}-{games}"
    command = f"moaisim experiment {exp.path}" + ("" if games is None else f" --games {games}")
    run_dir = Path(runs) / name
    run_to_disk(study, run_dir, resume=True, n_jobs=jobs or exp.jobs, progress=progress,
                command=command)  # fmt: skip
    return make_report(
        run_dir, Path(reports) / name, title=exp.title, command=command, question=exp.question
    )
