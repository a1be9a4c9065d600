"""The commands about runs: `simulate` a study grid into a run directory, `report` on a run,
and run a declarative `experiment` (a study and its report).

`moaisim.analysis` and `moaisim.studies` are imported inside the commands that use them: they
pull scipy, matplotlib, cma and choix, which would double the start of every command."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer

from moaisim.api import simulate as run_study
from moaisim.cli.common import (
    PARAM_HELP,
    STRATEGIES_HELP,
    FileGame,
    FileJobs,
    GameName,
    ReportsDir,
    RuleOptionGrid,
    RunGame,
    RunsDir,
    RunSeed,
    app,
    assignments,
    command_line,
    interrupted,
    option_values,
    rule_option_grid,
    runnable,
    same_game,
    say,
    stop_code,
    stopped,
    where_report,
)
from moaisim.errors import UserError
from moaisim.games import available, load_game
from moaisim.progress import Bar
from moaisim.progress import bar as make_bar
from moaisim.runner import make_study, summary


def _grid_help(name: str) -> str:
    """The help of a rule option of the default game in a grid: its values."""
    return f"Rule option {' | '.join(option_values(name))} (repeat: a grid)."


#: How each game's metrics name seat 0 (the help of `report --metric`).
SEAT_ZERO = "; ".join(f"{name}: {load_game(name).INFO.vocabulary['seat_zero_name']}"
                      for name in available())  # fmt: skip


# Options of `simulate`, declared apart to keep its signature short: the rule options and
# parameters (a grid when repeated), the seating, and how the run is run.
TurnOrders = Annotated[list[str] | None, typer.Option(help=_grid_help("turn_order"))]
VolcanoesAfterMoai = Annotated[
    list[str] | None, typer.Option(help=_grid_help("volcano_after_moai"))
]
SpentWoods = Annotated[list[str] | None, typer.Option(help=_grid_help("spent_wood"))]
ParamGrid = Annotated[
    list[str] | None,
    typer.Option(
        "--param", metavar="NAME=VALUE", help=PARAM_HELP + " A list sweeps: removed_epoch3=0,1,2."
    ),
]
Rotation = Annotated[
    str,
    typer.Option(
        help="Seat rotation: cyclic (game i in rotation i mod players), all "
        "(every seating) or none."
    ),
]
Backend = Annotated[
    str, typer.Option(help="loky (this machine) or dask (a dask.distributed cluster).")
]
Scheduler = Annotated[
    str | None, typer.Option(help="The dask scheduler's address, e.g. tcp://host:8786.")
]
ChunkSize = Annotated[
    int | None,
    typer.Option(
        help="Games per task (default: up to 20 000, a cell's games / 8, when every seat "
        "plays compiled, else 5 000; fixed by a run)."
    ),
]
ForceResume = Annotated[
    bool,
    typer.Option(
        help="Resume even though the code changed since the run started (the run "
        "records it; its games then come from two versions)."
    ),
]


@app.command(short_help="Play a study grid of seeded games, in parallel, to Parquet.")
def simulate(
    players: Annotated[
        list[int], typer.Option("--players", "-p", help="Player counts (repeat for a grid).")
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="Games per cell.")],
    strategies: Annotated[
        list[str] | None,
        typer.Option(help=STRATEGIES_HELP + " Repeat the option for several lineups."),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="Variants, '+' combining (repeat for a grid)."),
    ] = None,
    seed: RunSeed = 0,
    components: Annotated[
        list[Path] | None,
        typer.Option("--components", help="Component files (repeat for a grid)."),
    ] = None,
    turn_order: TurnOrders = None,
    volcano_after_moai: VolcanoesAfterMoai = None,
    spent_wood: SpentWoods = None,
    option: RuleOptionGrid = None,
    param: ParamGrid = None,
    rotation: Rotation = "cyclic",
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Parallel jobs (1: serial, no joblib).")
    ] = 1,
    backend: Backend = "loky",
    scheduler: Scheduler = None,
    chunk_size: ChunkSize = None,
    batch_size: Annotated[
        int, typer.Option(help="Games the batch engine plays at once in a task.")
    ] = 10_000,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Run directory: Parquet parts and manifest.json."),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Continue (or extend) the run in --out, skipping done chunks.")
    ] = False,
    force_resume: ForceResume = False,
    rounds: Annotated[
        bool, typer.Option(help="Also keep a per-round table (rounds/*.parquet).")
    ] = False,
    engine: Annotated[
        str, typer.Option("--engine", "-e", help="Engine: batch | reference (same games).")
    ] = "batch",
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")
    ] = False,
    *,
    game: GameName,
) -> None:
    """Play a study grid: player counts x variants x rule options x component files x
    lineups, N games per cell. Game i is the same deal in every cell; lineups rotate over
    the seats. With --out the rows go to Parquet parts as chunks finish (load them with
    moaisim.load_results); Ctrl-C or SIGTERM stops cleanly and --resume goes on (with the
    same code: a run records what played it)."""

    bar = Bar(0) if not quiet and sys.stderr.isatty() else None  # the runner plans its total
    command = command_line("simulate")
    options = rule_option_grid(game, option, turn_order=turn_order,
                               volcano_after_moai=volcano_after_moai,
                               spent_wood=spent_wood)  # fmt: skip
    from moaisim.studies.versus import search_notice, searches, study_search_cpu

    if any(searches(x) for x in strategies or []):  # search thinks at every decision: its CPU first
        study = make_study(players, games, strategies or [], variants=variant or None,
                           seed=seed, components=components or None,
                           params=assignments(param, game), rotation=rotation, game=game,
                           **options)  # fmt: skip
        say(search_notice(study_search_cpu(study), game, players))
    try:
        got = run_study(
            players, games, variants=variant or None, seed=seed, engine=engine,
            batch_size=batch_size, components=components or None, lineups=strategies or None,
            out=out, resume=resume, force_resume=force_resume,
            params=assignments(param, game), rotation=rotation,
            n_jobs=jobs, backend=backend, scheduler=scheduler, chunk_size=chunk_size,
            rounds=rounds, progress=bar or False, command=command, notify=say,
            game_name=game, **options,
        )  # fmt: skip
    except KeyboardInterrupt as exc:
        if bar is not None:
            bar.close()
        interrupted(out, command, exc)
        raise typer.Exit(stop_code(exc)) from None
    if not quiet:
        _print_simulated(got, out, games)


def _print_simulated(
    got: pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame], out: Path | None, games: int
) -> None:
    """What `simulate` prints at the end: the run's summary table (each cell's games) and
    where its rows are."""
    results = got[0] if isinstance(got, tuple) else got
    table = results if out is not None else summary(results)
    typer.echo(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    where = f"rows in {out} (moaisim.load_results('{out}'))" if out else "rows not kept: add --out"
    games_done = int(table["games"].max()) if len(table) else games
    typer.echo(f"{games_done} games per cell, {table['cell'].nunique()} cells; {where}")


@app.command(short_help="Write a run's balance report: Markdown, HTML, CSV, figures.")
def report(
    run: Annotated[Path, typer.Argument(help="A run directory (moaisim simulate --out).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the report.")],
    title: Annotated[str | None, typer.Option(help="The report's title.")] = None,
    question: Annotated[
        str | None, typer.Option(help="The question the report answers (its answer box).")
    ] = None,
    field: Annotated[
        Path | None,
        typer.Option(
            help="A field study's report directory: which fields are exploitable (a "
            "challenger gains more than 10 points against them) and whether L3 is certified."
        ),  # fmt: skip
    ] = None,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            help="An equivalence margin, METRIC=VALUE (repeatable; METRIC a variants "
            "metric or 'share' for every share of games), e.g. share=0.02."
        ),  # fmt: skip
    ] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option(
            help="A metric the answer box answers (repeatable, in order): a variants metric, "
            "\"<seat 0>'s share against fair\", 'ranking' or 'head to head: A vs B', where "
            f"<seat 0> is the game's name for seat 0 ({SEAT_ZERO}). Default: seat 0's win "
            "share, the mean score and whether the leader after round 3 wins."
        ),  # fmt: skip
    ] = None,
    check: Annotated[
        Path | None,
        typer.Option(
            help="A check run: the same root seed and set-ups, with the checked lineup and L4 "
            "(search in every seat) at each player count, on fewer games (moaisim simulate "
            "--strategies L3 --strategies L4 -n 300 ...). The box then says whether each "
            "answer holds under search play."
        ),  # fmt: skip
    ] = None,
    check_lineup: Annotated[
        str, typer.Option(help="The lineup the check run sets beside L4.")
    ] = "L3",
    game: RunGame = None,
) -> None:
    """Write the balance report of a run: report.md and a self-contained report.html, a CSV
    per table, the figures, the run's manifest and the commands that reproduce it."""
    from moaisim.analysis.report import check_metrics, make_report
    from moaisim.analysis.source import Source

    if game is not None:  # the run names its game (`moaisim games`)
        same_game(Source.of(run).game, game, f"the run {run}")
    margins = _margins(margin or [])
    metrics = check_metrics(metric, Source.of(run).game) if metric else None
    command = f"moaisim report {run} --out {out}" + (
        f" --title {shlex.quote(title)}" if title else ""
    ) + (f" --question {shlex.quote(question)}" if question else "") + (
        f" --field {field}" if field else ""
    ) + "".join(
        f" --margin {shlex.quote(m)}" for m in margin or []
    ) + "".join(f" --metric {shlex.quote(m)}" for m in metric or []) + (
        f" --check {check}" if check else ""
    ) + (f" --check-lineup {shlex.quote(check_lineup)}" if check and check_lineup != "L3"
         else "")  # fmt: skip
    path = make_report(run, out, title=title, command=command, margins=margins or None,
                       field=field, metrics=metrics, question=question or "",
                       say=say, check=check, check_lineup=check_lineup)  # fmt: skip
    where_report(path)


def _margins(given: list[str]) -> dict[str, float]:
    """--margin METRIC=VALUE options as a dict (one clear line per mistake)."""
    out = {}
    for item in given:
        metric, sep, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if not sep or not metric.strip() or not number > 0:
            raise UserError(f"--margin {item!r}: give METRIC=VALUE with a positive VALUE, "
                            "e.g. share=0.02")  # fmt: skip
        out[metric.strip()] = number
    return out


@app.command(short_help="Run a declarative study (TOML) and write its report.")
def experiment(
    file: Annotated[Path, typer.Argument(help="The experiment file (see experiments/).")],
    runs: RunsDir = Path("out/runs"),
    reports: ReportsDir = Path("out/reports"),
    jobs: FileJobs = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", help="Games per cell instead of the file's (a quick look)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            help="Root seed instead of the file's: an independent replication, into "
            "RUNS/<name>-seed<S> and REPORTS/<name>-seed<S>.",
        ),
    ] = None,
    force_resume: Annotated[
        bool,
        typer.Option(
            help="Resume the run even though the code changed since it started "
            "(the run records it)."
        ),  # fmt: skip
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    game: FileGame = None,
) -> None:
    """Run the study an experiment file declares into RUNS/<name> (a stopped or smaller run of
    the same study is resumed), then write its report into REPORTS/<name> (a directory holding
    another study's report is never overwritten). With --games N the study plays N games per
    cell, into RUNS/<name>-N and REPORTS/<name>-N; with --seed S the same design plays new
    games (every seed of the study derives from S), into RUNS/<name>-seedS."""
    from moaisim.studies.experiment import (
        check_study,
        load_experiment,
        reseeded,
        run_experiment,
        study_of,
    )
    from moaisim.studies.versus import search_notice, study_search_cpu

    exp = reseeded(load_experiment(file), seed)
    same_game(exp.game, game, str(file))
    bar = None
    if exp.field is None:
        study = study_of(exp, games)  # every mistake before anything runs
        cost = study.seating_cost()
        if cost:
            say(cost)
        # search seats (a lineup with L4, and the check field's L4 self-play): their CPU first
        parts = [study, *([check_study(exp, games)] if exp.check is not None else [])]
        cpu = sum(study_search_cpu(x) for x in parts)
        if cpu > 0:
            counts = [c.rules.players for x in parts for c in x.cells]
            say(f"{search_notice(cpu, exp.game, counts)}, the study and its check field")
    if exp.field is None and not quiet and sys.stderr.isatty():
        bar = make_bar(study.games * len(study.cells))
    try:
        path = run_experiment(file, runs, reports, jobs, bar, games, notify=say,
                              force_resume=force_resume, seed=seed)  # fmt: skip
    except KeyboardInterrupt as exc:
        if bar is not None:
            bar.close()
        again = runnable(command_line("experiment"))
        typer.echo(f"moaisim: {stopped(exc)}; run the same command again to resume: {again}",
                   err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    finally:
        if bar is not None:
            bar.close()
    where_report(path)


@app.command(short_help="The smallest rule change that meets a balance file's targets.")
def balance(
    file: Annotated[
        Path, typer.Argument(help="The balance file (experiments/balance-3to5p.toml).")
    ],
    runs: RunsDir = Path("out/runs"),
    reports: ReportsDir = Path("out/reports"),
    jobs: FileJobs = None,
    trials: Annotated[
        int | None,
        typer.Option(
            "--trials",
            "-t",
            help="Trials instead of the file's (a quick look): "
            "into RUNS/<name>-<T> and REPORTS/<name>-<T>.",
        ),  # fmt: skip
    ] = None,
    game: FileGame = None,
) -> None:
    """Search the rule space for the smallest change that meets a balance file's targets.

    Optuna's NSGA-II with successive halving (fewer changed settings preferred), the same
    deals for every candidate, judged in L2 and L3 unless the file names its fields; then, on
    fresh games paired with the base game: the finalists verified, every setting changed
    alone (the one-change screen) and each finalist reduced to its smallest fix, judged
    again with re-tuned bots and look-ahead search; the report (answer, screen, Pareto front,
    fixes, verdicts, balance sheets) into REPORTS/<name>. A stopped study resumes where it
    stopped."""
    try:  # the import inside: a stop while the modules load is one line too
        from moaisim.studies.balance_report import run_balance
        from moaisim.studies.balance_space import load_space

        if game is not None:
            same_game(load_space(file).game, game, str(file))
        out = run_balance(file, runs, reports, jobs, say=say, trials=trials)
    except KeyboardInterrupt as exc:
        again = runnable(command_line("balance"))
        typer.echo(f"moaisim: {stopped(exc)}; run the same command again to resume: {again}",
                   err=True)  # fmt: skip
        raise typer.Exit(stop_code(exc)) from None
    where_report(out.report)
