"""The `moaisim` command line: thin typer commands over the library functions.

Exit codes: 0 done; 2 a mistake in what was asked (`moaisim: error: ...`, one line: unknown
name, bad rules file, bad option...); 1 a strategy failed during a game (`moaisim: strategy
error: ...`, one line naming the strategy, decision, game and seed); 130 interrupted.
`--debug`, anywhere on the line, prints the traceback as well.
"""

from __future__ import annotations

import shlex
import shutil
import signal
import sys
import traceback
import warnings
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from moaisim import interrupts
from moaisim.analysis import metagame as mg
from moaisim.analysis.report import make_report
from moaisim.api import play as play_game
from moaisim.api import replay as replay_log
from moaisim.api import simulate as run_study
from moaisim.docs import document, document_path
from moaisim.engine.events import schema_markdown
from moaisim.errors import StrategyError, UserError
from moaisim.files import check_writable_file, read_text, write_atomic
from moaisim.progress import Bar
from moaisim.progress import bar as make_bar
from moaisim.registry import LEVEL_POOL, describe, split_top
from moaisim.rules import OPTIONS, VARIANTS
from moaisim.rules.model import default_components
from moaisim.rules.parameters import PARAMETERS, parse_assignments
from moaisim.rules.parameters import listing as parameter_listing
from moaisim.rules.parameters import values as parameter_values
from moaisim.rundir import RunDir, make_dir
from moaisim.runner import summary
from moaisim.studies import bench as bench_lib
from moaisim.studies.experiment import load_experiment, run_experiment, study_of
from moaisim.studies.metagame import play as meta_play
from moaisim.studies.population import certificate_table, state_path
from moaisim.studies.population import population as run_population
from moaisim.studies.tune import TuneProgress
from moaisim.studies.tune import tune as run_tune
from moaisim.studies.versus import text as versus_text
from moaisim.studies.versus import versus as versus_table
from moaisim.version import __version__

HELP = """Balance analysis for the board game Moai: seeded games between pluggable strategies.

Exit codes: 0 done, 2 a mistake in the command (one line), 1 a strategy failed during a game
(one line). Add --debug anywhere to see the traceback."""

app = typer.Typer(
    name="moaisim",
    help=HELP,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={
        "help_option_names": ["-h", "--help"],
        "max_content_width": 100,
        "terminal_width": 100,
    },
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"moaisim {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Balance analysis for the board game Moai: seeded games between pluggable strategies."""


#: The help of the --param option.
PARAM_HELP = (
    f"A rule parameter, name=value (repeat for several): {parameter_listing()} "
    "(`moaisim variants` lists them with their defaults)."
)


def _single_params(texts: list[str] | None) -> dict[str, int] | None:
    """--param name=value options, one value each."""

    if not texts:
        return None
    parsed = parse_assignments(texts)
    for name, values in parsed.items():
        if len(values) > 1:
            raise UserError(f"--param {name}: give one value here (a study sweeps a list)")
    return {name: values[0] for name, values in parsed.items()}


#: The help of an option that takes a strategy lineup.
STRATEGIES_HELP = (
    "Strategies by seat, comma-separated: 'greedy,random'. A lineup shorter than the players "
    "repeats; a strategy takes parameters as 'greedy(moai_height=8)'; 'module:Class' loads "
    "your own (from the current directory too)."
)


@app.command(short_help="Play one seeded game and print its log.")
def play(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players, 2-5.")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the run.")] = 0,
    game: Annotated[int, typer.Option("--game", "-g", help="Game index within the run.")] = 0,
    strategies: Annotated[str, typer.Option(help=STRATEGIES_HELP)] = "greedy",
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="base, or variants joined by '+'.")
    ] = "base",
    components: Annotated[
        Path | None,
        typer.Option(
            "--components", help="A TOML component set replacing the default (see `rules`)."
        ),
    ] = None,
    turn_order: Annotated[str, typer.Option(help="Rule option: hill | clockwise.")] = "hill",
    volcano_after_moai: Annotated[str, typer.Option(help="Rule option: stay | camp.")] = "stay",
    spent_wood: Annotated[str, typer.Option(help="Rule option: supply | out.")] = "supply",
    param: Annotated[list[str] | None, typer.Option("--param", help=PARAM_HELP)] = None,
    json: Annotated[
        bool, typer.Option("--json", help="Print the event log as JSON lines instead.")
    ] = False,
    summary: Annotated[
        bool,
        typer.Option("--summary", help="One line per round instead of every event of the log."),
    ] = False,
    engine: Annotated[
        str, typer.Option("--engine", "-e", help="Engine: reference | batch (same game).")
    ] = "reference",
) -> None:
    """Play one seeded game and print its log round by round, then the scores (--summary: a
    line per round; --json: the event log as JSON lines)."""
    record = play_game(
        players,
        seed,
        game=game,
        strategies=strategies,
        variants=variant,
        components=components,
        turn_order=turn_order,
        volcano_after_moai=volcano_after_moai,
        spent_wood=spent_wood,
        engine=engine,
        params=_single_params(param),
    )
    if json:
        sys.stdout.write(record.jsonl())
    else:
        sys.stdout.write((record.summary() if summary else record.text()) + "\n")


@app.command(short_help="Play a game's log (play --json) again under the rules it names.")
def replay(
    log: Annotated[
        Path, typer.Argument(help="A game's log as `play --json` prints it ('-': standard input).")
    ],
    components: Annotated[
        Path | None,
        typer.Option("--components", help="The game's component file (not the default set)."),
    ] = None,
    json: Annotated[
        bool, typer.Option("--json", help="Print the replayed log as JSON lines instead.")
    ] = False,
    summary: Annotated[
        bool,
        typer.Option("--summary", help="One line per round instead of every event of the log."),
    ] = False,
) -> None:
    """Play a game's log again: the rules its header names (variant, rule options, rule
    parameters, component set), its seed and game, and its decisions fed back seat by seat.
    The game must make the log's events one by one; then its log and scores are printed as
    `play` prints them."""

    text = sys.stdin.read() if str(log) == "-" else read_text(log, "game log")
    record = replay_log(text, components)
    if json:
        sys.stdout.write(record.jsonl())
    else:
        sys.stdout.write((record.summary() if summary else record.text()) + "\n")


@app.command(short_help="List the rule variants and rule options.")
def variants() -> None:
    """List the rule variants (combine with '+') and the rule options."""
    typer.echo("variants:")
    typer.echo(f"  {'base':<21} the rules as written (docs/rules.md R1-R8)")
    for name, text in VARIANTS.items():
        typer.echo(f"  {name:<21} {text}")
    typer.echo("rule options (first value is the default):")
    for name, values in OPTIONS.items():
        typer.echo(f"  --{name.replace('_', '-'):<19} {' | '.join(values)}")

    defaults = parameter_values(default_components())
    typer.echo("rule parameters (--param name=value; the default is the rulebook's):")
    for name, p in PARAMETERS.items():
        typer.echo(f"  {name:<21} {p.meaning} (default {defaults[name]}; {p.rule})")


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
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the run.")] = 0,
    components: Annotated[
        list[Path] | None,
        typer.Option("--components", help="Component files (repeat for a grid)."),
    ] = None,
    turn_order: Annotated[
        list[str] | None, typer.Option(help="Rule option hill | clockwise (repeat: a grid).")
    ] = None,
    volcano_after_moai: Annotated[
        list[str] | None, typer.Option(help="Rule option stay | camp (repeat: a grid).")
    ] = None,
    spent_wood: Annotated[
        list[str] | None, typer.Option(help="Rule option supply | out (repeat: a grid).")
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", help=PARAM_HELP + " A list sweeps: removed_epoch3=0,1,2."),
    ] = None,
    rotation: Annotated[
        str,
        typer.Option(
            help="Seat rotation: cyclic (game i in rotation i mod players), all "
            "(every seating) or none."
        ),
    ] = "cyclic",  # fmt: skip
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Parallel jobs (1: serial, no joblib).")
    ] = 1,
    backend: Annotated[
        str, typer.Option(help="loky (this machine) or dask (a dask.distributed cluster).")
    ] = "loky",
    scheduler: Annotated[
        str | None, typer.Option(help="The dask scheduler's address, e.g. tcp://host:8786.")
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option(help="Games per task (default 5 000; fixed by a run).")
    ] = None,
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
    force_resume: Annotated[
        bool,
        typer.Option(
            help="Resume even though the code changed since the run started (the run "
            "records it; its games then come from two versions)."
        ),
    ] = False,
    rounds: Annotated[
        bool, typer.Option(help="Also keep a per-round table (rounds/*.parquet).")
    ] = False,
    engine: Annotated[
        str, typer.Option("--engine", "-e", help="Engine: batch | reference (same games).")
    ] = "batch",
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")
    ] = False,
) -> None:
    """Play a study grid: player counts x variants x rule options x component files x
    lineups, N games per cell. Game i is the same deal in every cell; lineups rotate over
    the seats. With --out the rows go to Parquet parts as chunks finish (load them with
    moaisim.load_results); Ctrl-C or SIGTERM stops cleanly and --resume goes on (with the
    same code: a run records what played it)."""

    bar = None
    if not quiet and sys.stderr.isatty():
        bar = Bar(0)  # the runner plans its total
    command = _command_line("simulate")
    kind = dict(rotation=rotation, n_jobs=jobs, backend=backend, scheduler=scheduler,
                chunk_size=chunk_size, rounds=rounds, progress=bar or False, command=command,
                notify=_say)  # fmt: skip
    try:
        got = run_study(
            players, games, variants=variant or None, seed=seed, engine=engine,
            batch_size=batch_size, components=components or None, lineups=strategies or None,
            out=out, resume=resume, force_resume=force_resume,
            params=parse_assignments(param or []), turn_order=turn_order,
            volcano_after_moai=volcano_after_moai, spent_wood=spent_wood, **kind,
        )  # fmt: skip
    except KeyboardInterrupt as exc:
        if bar is not None:
            bar.close()
        _interrupted(out, command, exc)
        raise typer.Exit(_stop_code(exc)) from None
    if quiet:
        return
    results = got[0] if isinstance(got, tuple) else got
    table = results if out is not None else summary(results)
    typer.echo(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    where = f"rows in {out} (moaisim.load_results('{out}'))" if out else "rows not kept: add --out"
    games_done = int(table["games"].max()) if len(table) else games
    typer.echo(f"{games_done} games per cell, {table['cell'].nunique()} cells; {where}")


def _where_report(path: Path) -> None:
    """Where a report is, and how to open it."""
    html = path.with_suffix(".html")
    typer.echo(f"report: {path} and {html} (in a browser: {html.resolve().as_uri()})")


def _interrupted(out: Path | None, command: str, exc: BaseException) -> None:
    """Ctrl-C or SIGTERM: what finished is kept; say how to go on (a command that works as
    copied: the run's directory exists and holds whole parts)."""
    what = "terminated" if isinstance(exc, Terminated) else "interrupted"
    if out is None:
        typer.echo(f"moaisim: {what} (nothing kept: the run had no --out)", err=True)
        return

    run = RunDir(out)
    try:
        done = len(run.parts(run.read(), strict=False)) if run.exists() else 0
    except UserError:
        done = 0
    if not done:
        typer.echo(f"moaisim: {what} before the first chunk finished: nothing kept", err=True)
        return
    again = command if "--resume" in command.split() else command + " --resume"
    typer.echo(f"moaisim: {what}; {done} chunks kept in {out}. Resume with: {_runnable(again)}",
               err=True)  # fmt: skip


def _runnable(command: str) -> str:
    """A moaisim command as the user can paste it: with the path of this moaisim when it is
    not on PATH (e.g. .venv/bin/moaisim)."""

    exe = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if exe is None or exe.name != "moaisim" or not command.startswith("moaisim "):
        return command
    found = shutil.which("moaisim")
    if found and Path(found).resolve() == exe.resolve():
        return command
    try:
        shown = exe.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        shown = exe.resolve()
    return shlex.quote(str(shown)) + command[len("moaisim") :]


class Terminated(KeyboardInterrupt):
    """SIGTERM, stopped like Ctrl-C: whole chunks kept, workers ended."""


def _on_sigterm(signum: int, frame: object) -> None:
    interrupts.note()  # a signal, not a strategy's own KeyboardInterrupt
    raise Terminated()


def _stop_code(exc: BaseException) -> int:
    """Exit code of a stopped command: 128 + the signal (130 Ctrl-C, 143 SIGTERM)."""
    return 143 if isinstance(exc, Terminated) else 130


def _say(message: str) -> None:
    """What a run says as it goes (its warnings start 'warning: '), one line on stderr."""
    typer.echo(f"moaisim: {message}", err=True)


@app.command(short_help="One strategy against a field, seats rotated: win share vs fair.")
def versus(
    strategy: Annotated[str, typer.Argument(help="The strategy to measure (a spec).")],
    field: Annotated[
        str, typer.Option(help="The opponents, comma-separated; they fill the other seats.")
    ] = "greedy",
    players: Annotated[
        list[int] | None, typer.Option("--players", "-p", help="Player counts (repeat).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per set-up.")] = 2000,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", help="Variants, '+' combining (repeat for several)."),
    ] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help=PARAM_HELP)] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the games.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parallel jobs.")] = 1,
    csv: Annotated[Path | None, typer.Option("--csv", help="Also write the table as CSV.")] = None,
) -> None:
    """My strategy against this field in one command: the candidate takes one seat, the
    field's strategies fill the others, and the seats rotate (game i in rotation i mod P), at
    each player count and set-up. Prints its win share (shared wins split) with its 95 %
    interval, the difference from the fair share 1/P, its mean rank and its score parts,
    beside the field's."""

    if csv is not None:
        check_writable_file(csv, "CSV table")
    table = versus_table(strategy, field, players or [3, 4], games, variant or None, seed, jobs,
                         params=parse_assignments(param or []))  # fmt: skip
    typer.echo(versus_text(table))
    if csv is not None:
        write_atomic(csv, table.to_csv(index=False).encode(), "CSV table")
        typer.echo(f"table: {csv}")


@app.command(short_help="The meta-game of a library: invasion, alpha-Rank, Nash mixture.")
def metagame(
    players: Annotated[
        list[int] | None, typer.Option("--players", "-p", help="Player counts (repeat).")
    ] = None,
    library: Annotated[
        str, typer.Option(help="The strategies, comma-separated (default: the L2 pool).")
    ] = "",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per composition (a multiple of P).")
    ] = 240,
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="One variant.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the games.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parallel jobs.")] = 1,
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples of the Nash mixture (0: none).")
    ] = 200,
    alphas: Annotated[str, typer.Option(help="alpha-Rank's alphas, comma-separated.")] = (
        "0.1,1,10,100"
    ),
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Directory for the tables (CSV), metagame.md and the mixtures (nash-<P>p.toml).",
        ),  # fmt: skip
    ] = None,
) -> None:
    """Play every composition of a library of strategies (the same games in each, seats
    rotated) and report its meta-game: the symmetric Nash mixture of the population game
    with its bootstrap spread, the invasion matrix (one copy of X among copies of Y),
    alpha-Rank over alphas and Nash averaging. With --out, writes each table as CSV,
    metagame.md, and each mixture as TOML for `mixture(file=...)`."""

    try:
        alpha_list = [float(a) for a in alphas.split(",") if a.strip()]
    except ValueError:
        raise UserError(f"--alphas: expected numbers separated by commas, got {alphas!r}") from None
    names = _library(library)
    counts = players or [3, 4]
    if out is not None:
        make_dir(out)
    parts = [f"# Meta-game of {len(names)} strategies\n",
             f"Command: `{_command_line('metagame')}`\n"]  # fmt: skip
    for p in counts:
        _say(f"metagame: {p} players, {len(mg.compositions(len(names), p))} compositions x "
             f"{games:,} games")  # fmt: skip
        progress = None
        if sys.stderr.isatty():
            progress = make_bar(len(mg.compositions(len(names), p)) * games)
        try:
            meta = meta_play(names, p, games, seed, jobs, variant, progress=progress)
        finally:
            if progress is not None:
                progress.close()
        an = mg.analyse(meta, bootstrap, alpha_list, seed)
        text = mg.markdown(an)
        typer.echo(text)
        parts.append(text)
        if out is not None:
            for name, table in an.tables.items():
                write_atomic(out / f"{name}-{p}p.csv", table.to_csv(index=False).encode(),
                             "CSV table")  # fmt: skip
            path = mg.write_mixture(out / f"nash-{p}p.toml", meta.names, an.mixture, p,
                                    source=_command_line("metagame"), gain=an.gain)  # fmt: skip
            _say(f"mixture: {path}")
    if out is not None:
        write_atomic(out / "metagame.md", "\n".join(parts).encode(), "report")
        _say(f"tables: {out}")


@app.command(short_help="Write a run's balance report: Markdown, HTML, CSV, figures.")
def report(
    run: Annotated[Path, typer.Argument(help="A run directory (moaisim simulate --out).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the report.")],
    title: Annotated[str | None, typer.Option(help="The report's title.")] = None,
    field: Annotated[
        Path | None,
        typer.Option(
            help="A field study's report directory: which fields are far from its "
            "meta-game (degenerate)."
        ),  # fmt: skip
    ] = None,
    margin: Annotated[
        list[str] | None,
        typer.Option(
            help="An equivalence margin, METRIC=VALUE (repeatable; METRIC a variants "
            "metric or 'share' for every share of games), e.g. share=0.02."
        ),  # fmt: skip
    ] = None,
) -> None:
    """Write the balance report of a run: report.md and a self-contained report.html, a CSV
    per table, the figures, the run's manifest and the commands that reproduce it."""

    margins = _margins(margin or [])
    command = f"moaisim report {run} --out {out}" + (
        f" --title {shlex.quote(title)}" if title else ""
    ) + (f" --field {field}" if field else "") + "".join(
        f" --margin {shlex.quote(m)}" for m in margin or []
    )  # fmt: skip
    path = make_report(run, out, title=title, command=command, margins=margins or None,
                       field=field)  # fmt: skip
    _where_report(path)


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
    runs: Annotated[Path, typer.Option(help="Where runs go: RUNS/<name>.")] = Path("out/runs"),
    reports: Annotated[Path, typer.Option(help="Where reports go: REPORTS/<name>.")] = Path(
        "out/reports"
    ),
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Parallel jobs (default: the file's).")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", "-n", help="Games per cell instead of the file's (a quick look)."),
    ] = None,
    force_resume: Annotated[
        bool,
        typer.Option(
            help="Resume the run even though the code changed since it started "
            "(the run records it)."
        ),  # fmt: skip
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Run the study an experiment file declares into RUNS/<name> (a stopped or smaller run of
    the same study is resumed), then write its report into REPORTS/<name> (a directory holding
    another study's report is never overwritten). With --games N the study plays N games per
    cell, into RUNS/<name>-N and REPORTS/<name>-N."""

    exp = load_experiment(file)
    bar = None
    if exp.field is None:
        study = study_of(exp, games)  # every mistake before anything runs
        cost = study.seating_cost()
        if cost:
            _say(cost)
    if exp.field is None and not quiet and sys.stderr.isatty():
        bar = make_bar(study.games * len(study.cells))
    try:
        path = run_experiment(file, runs, reports, jobs, bar, games, notify=_say,
                              force_resume=force_resume)  # fmt: skip
    except KeyboardInterrupt as exc:
        if bar is not None:
            bar.close()
        what = "terminated" if isinstance(exc, Terminated) else "interrupted"
        again = _runnable(_command_line("experiment"))
        typer.echo(f"moaisim: {what}; run the same command again to resume: {again}", err=True)
        raise typer.Exit(_stop_code(exc)) from None
    finally:
        if bar is not None:
            bar.close()
    _where_report(path)


@app.command(short_help="Find strong heuristic weights by simulation (CMA-ES).")
def tune(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players, 2-5.")],
    field: Annotated[
        str, typer.Option(help="The opponents, comma-separated; they fill the other seats.")
    ] = "greedy",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Training games per seat rotation and candidate.")
    ] = 300,
    generations: Annotated[int, typer.Option(help="CMA-ES generations in all.")] = 40,
    popsize: Annotated[
        int | None, typer.Option(help="Candidates per generation (default: CMA-ES's).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the training games.")] = 0,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where tuned-<P>p.toml, .log and .state go.")
    ] = Path("."),
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="base, or variants joined by '+'.")
    ] = None,
    turn_order: Annotated[str, typer.Option(help="Rule option: hill | clockwise.")] = "hill",
    volcano_after_moai: Annotated[str, typer.Option(help="Rule option: stay | camp.")] = "stay",
    spent_wood: Annotated[str, typer.Option(help="Rule option: supply | out.")] = "supply",
    start: Annotated[
        Path | None, typer.Option(help="Starting weights (TOML); default heuristic's.")
    ] = None,
    sigma: Annotated[
        float, typer.Option(help="Initial step, in units of each weight's scale.")
    ] = 0.3,
    held_out_games: Annotated[
        int, typer.Option(help="Games per rotation of the final, held-out evaluation.")
    ] = 2000,
    held_out_seed: Annotated[
        int | None, typer.Option(help="Root seed of the held-out games (default seed + 1).")
    ] = None,
    objective: Annotated[str, typer.Option(help="win (win share) or rank (mean rank).")] = "win",
    names: Annotated[
        str | None, typer.Option(help="Only these weights, comma-separated (default: all).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Candidates played in parallel.")] = 1,
    restart: Annotated[
        bool, typer.Option(help="Start again instead of resuming the saved search in --out.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No line per generation.")] = False,
    forbid: Annotated[
        str,
        typer.Option(
            help="Restricted play: tune under restrict(..., forbid=...), the names "
            "comma-separated (bid, boat, raid, birth, forest, swap, disasters)."
        ),  # fmt: skip
    ] = "",
    population: Annotated[
        bool,
        typer.Option(
            "--population",
            help="PSRO loop: solve the meta-game of --library, tune a "
            "best response to its Nash mixture, add it, repeat (see --epsilon).",
        ),  # fmt: skip
    ] = False,
    library: Annotated[
        str, typer.Option(help="--population: the starting strategies (default: the L2 pool).")
    ] = "",
    epsilon: Annotated[
        float,
        typer.Option(
            help="--population: stop when the best response's held-out gain over the "
            "fair share has its 95 % upper bound below this."
        ),  # fmt: skip
    ] = 0.02,
    iterations: Annotated[int, typer.Option(help="--population: at most this many.")] = 3,
    meta_games: Annotated[
        int, typer.Option(help="--population: games per composition of each meta-game.")
    ] = 120,
) -> None:
    """Search heuristic's weight space with CMA-ES: every candidate plays the same training
    games, seats rotated, against the field; the best weights go to OUT/tuned-<P>p.toml with
    how they were made and their win share on held-out games. Ctrl-C keeps the last finished
    generation; the same command resumes. The field may be a mixture
    (`--field "mixture(file=nash-3p.toml)"`). With --population, the field is the Nash
    mixture of a growing library instead (a PSRO loop), and the last best response's
    held-out gain is the mixture's exploitability certificate."""

    if population:
        _population(players, library, out, epsilon, iterations, meta_games, games, generations,
                    popsize, held_out_games, seed, start, jobs, field, restart)  # fmt: skip
        return

    options = {"turn_order": turn_order, "volcano_after_moai": volcano_after_moai,
               "spent_wood": spent_wood}  # fmt: skip
    options = {k: v for k, v in options.items() if v != OPTIONS[k][0]}

    def report(p: TuneProgress) -> None:
        if quiet:
            return
        if p.phase == "search":
            again = " (resumed)" if p.resumed else ""
            typer.echo(
                f"generation {p.generation}/{p.generations}{again}: best {p.best:.4f}, "
                f"mean point {p.mean:.4f}, sigma {p.sigma:.3f}, {p.evaluations} candidates, "
                f"{p.elapsed:.0f} s",
                err=True,
            )
        elif p.phase == "held-out":
            typer.echo(f"playing {held_out_games} held-out games per seat...", err=True)

    command = _command_line("tune")
    try:
        result = run_tune(
            players, field, games, generations, popsize, seed, out, not restart, report,
            variant, start, sigma, held_out_games, held_out_seed, objective,
            names.split(",") if names else None, jobs, None, command,
            [f.strip() for f in forbid.split(",") if f.strip()], **options,
        )  # fmt: skip
    except KeyboardInterrupt as exc:
        what = "terminated" if isinstance(exc, Terminated) else "interrupted"
        typer.echo(f"moaisim: {what}; the last finished generation is saved: run the same "
                   "command again to resume", err=True)  # fmt: skip
        raise typer.Exit(_stop_code(exc)) from None
    typer.echo(f"held-out win share: tuned {result.held_out}; start {result.start_held_out}")
    spec = f"heuristic(weights={result.path})"
    if forbid.strip():
        listed = [f.strip() for f in forbid.split(",") if f.strip()]
        spec = f"restrict(strategy={spec!r}, forbid={listed!r})"
    typer.echo(f"weights: {result.path} (play them: --strategies {shlex.quote(spec)}); "
               f"log: {result.log}")  # fmt: skip


def _library(text: str) -> list[str]:
    """--library: the strategies, comma-separated (a spec's own commas kept); default the
    L2 pool."""

    return [x.strip() for x in split_top(text, ",") if x.strip()] or list(LEVEL_POOL)


def _population(players: int, library: str, out: Path, epsilon: float, iterations: int,
                meta_games: int, games: int, generations: int, popsize: int | None,
                held_out_games: int, seed: int, start: Path | None, jobs: int, field: str,
                restart: bool) -> None:  # fmt: skip
    """`tune --population`: the PSRO loop (moaisim.studies.population)."""

    if field != "greedy":
        raise UserError("--population tunes against the library's Nash mixture: give the "
                        "starting strategies with --library, not --field")  # fmt: skip
    if restart and state_path(out, players).exists():
        raise UserError(f"--restart: remove {out} (a population loop keeps one state per "
                        "directory) or choose another --out")  # fmt: skip
    names = _library(library)
    result = run_population(players, names, out, epsilon, iterations, meta_games, games,
                            generations, popsize, held_out_games, seed, start, jobs, _say,
                            _command_line("tune"))  # fmt: skip
    for row in certificate_table(result):
        typer.echo(f"iteration {row['iteration']}: {row['members']} strategies, mixture "
                   f"{row['support']}; best-response gain {row['gain']:+.3f} "
                   f"[{row['gain_lo']:+.3f}, {row['gain_hi']:+.3f}]")  # fmt: skip
    last = result.certificate
    verdict = "certified" if result.certified else "NOT certified (more iterations needed)"
    if last is not None:
        typer.echo(f"exploitability certificate ({players} players): gain {last.gain:+.3f}, "
                   f"upper bound {last.gain_hi:+.3f} vs epsilon {epsilon}: {verdict}")  # fmt: skip
    typer.echo(f"state: {state_path(out, players)}")


@app.command("rules", short_help="Print the rules book, or the default component set.")
def rules_book(
    components: Annotated[
        bool,
        typer.Option(
            "--components", help="Print the default component set (TOML) to copy and edit."
        ),
    ] = False,
    path: Annotated[
        bool, typer.Option("--path", help="Print where the rules book is instead of its text.")
    ] = False,
) -> None:
    """Print the rules book the engines play by (rule ids R1-R8, V1-V5, C1-C5)."""

    if components:
        sys.stdout.write(resources.files("moaisim.rules").joinpath("default.toml").read_text())
    elif path:
        typer.echo(str(document_path("rules.md")))
    else:
        sys.stdout.write(document("rules.md"))


@app.command("events", short_help="Print the event log's schema (play --json).")
def event_schema() -> None:
    """Print the event log's schema: every event kind of `play --json` and its fields."""

    sys.stdout.write(schema_markdown())


@app.command("strategies", short_help="List the strategies and their parameters.")
def list_strategies() -> None:
    """List the strategies that --strategies accepts, with their plan and parameters (any
    'module:Class' works too)."""

    for name, plan, params in describe():
        typer.echo(f"{name:<10} {plan}")
        if params:
            typer.echo(f"{'':<10} parameters: {params}")


@app.command(short_help="Time both engines on the same games; measure memory.")
def bench(
    players: Annotated[
        str, typer.Option("--players", "-p", help="Player counts to time, e.g. '2,3,4,5'.")
    ] = "2,3,4,5",
    lineups: Annotated[
        str,
        typer.Option(help="Lineups to time, one strategy in every seat: 'greedy,tuned,random'."),
    ] = "greedy,tuned,random",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Batch-engine games per configuration.")
    ] = 20_000,
    reference_games: Annotated[
        int, typer.Option(help="Reference-engine games per configuration (the first of them).")
    ] = 40,
    repeat: Annotated[
        int, typer.Option(help="Timings per configuration; the best of each engine is kept.")
    ] = 3,
    batch_size: Annotated[
        int, typer.Option(help="Games per batch of the batch engine (as simulate plays them).")
    ] = 10_000,
    memory_games: Annotated[
        str, typer.Option(help="Batch sizes whose peak memory is measured, e.g. '10000,100000'.")
    ] = "10000,100000",
    memory_players: Annotated[
        str, typer.Option(help="Player counts of the memory runs (greedy lineup).")
    ] = "4,5",
    memory: Annotated[
        bool, typer.Option("--memory/--no-memory", help="Measure peak memory in child processes.")
    ] = True,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed of the games.")] = 0,
    markdown: Annotated[
        Path | None, typer.Option("--markdown", help="Also write the Markdown table to this file.")
    ] = None,
    csv: Annotated[
        Path | None, typer.Option("--csv", help="Also write every measured column as CSV.")
    ] = None,
    runner_games: Annotated[
        int, typer.Option(help="Games of the runner benchmark (4p greedy to disk); 0: skip.")
    ] = 1_000_000,
    runner_speedup_games: Annotated[
        int, typer.Option(help="Games timed with --jobs 1 and --runner-jobs (the speed-up).")
    ] = 100_000,
    runner_jobs: Annotated[int, typer.Option(help="Jobs of the runner benchmark.")] = 2,
) -> None:
    """Time the batch and reference engines on the same games; measure a batch's memory.

    Progress goes to stderr, the Markdown table (with machine and command) to stdout.
    """

    config = bench_lib.main_args(
        players=players,
        lineups=lineups,
        games=games,
        reference_games=reference_games,
        memory_games=memory_games,
        memory_players=memory_players,
        memory=memory,
        seed=seed,
        repeat=repeat,
        batch_size=batch_size,
    )
    bench_lib.check_runner_args(runner_games, runner_speedup_games, runner_jobs)
    bench_lib.check_outputs(str(markdown) if markdown else None, str(csv) if csv else None)
    say = lambda line: typer.echo(line, err=True)  # noqa: E731
    text = bench_lib.report(
        config,
        "moaisim bench",
        markdown_path=str(markdown) if markdown else None,
        csv_path=str(csv) if csv else None,
        progress=say,
    )
    sys.stdout.write(text)
    if runner_games > 0 or runner_speedup_games > 0:
        df = bench_lib.runner_speed(
            runner_games, runner_speedup_games, runner_jobs, seed=seed, progress=say
        )
        command = (f"moaisim simulate -p 4 -n N --strategies greedy -s {seed} -j J -o DIR -q "
                   f"(N = {runner_speedup_games:,} with J = 1 and {runner_jobs}; "
                   f"N = {runner_games:,} with J = {runner_jobs})")  # fmt: skip
        runner = "\n" + bench_lib.runner_markdown(df, command)
        sys.stdout.write(runner)
        if markdown:
            write_atomic(markdown, (text + runner).encode(), "Markdown table")


#: The arguments `main` is running (what the runs and the tuner record as their command).
_ARGS: list[str] = []


def _command_line(name: str) -> str:
    """The command being run, as a shell line (recorded in manifests and weights files)."""
    return "moaisim " + shlex.join(_ARGS) if _ARGS else f"moaisim {name}"


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app; a user mistake is one line and exit code 2, a strategy's
    failure one line and exit code 1 (with --debug, the traceback too)."""
    if sys.stdout is None:  # started with standard output closed (`moaisim play >&-`)
        if sys.stderr is not None:
            sys.stderr.write("moaisim: error: standard output is closed\n")
        return 2
    command = typer.main.get_command(app)
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    args = [a for a in args if a != "--debug"]
    _ARGS[:] = args
    try:  # SIGTERM stops like Ctrl-C (only the main thread can handle signals)
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:
        previous = None
    shown = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        code = command.main(args=args, prog_name="moaisim", standalone_mode=False)
    except UserError as exc:
        if debug:
            traceback.print_exc()
        typer.echo(f"moaisim: error: {exc}", err=True)
        return 2
    except StrategyError as exc:
        if debug:
            traceback.print_exc()
        typer.echo(f"moaisim: strategy error: {exc}", err=True)
        return 1
    except BrokenPipeError:
        return 0
    except (typer.Abort, KeyboardInterrupt) as exc:
        typer.echo("moaisim: aborted", err=True)
        return _stop_code(exc)
    except OSError as exc:
        # the file system refused (a full disk, no permission, a path that is a file...):
        # a problem of the machine or of the paths given, not of moaisim
        if debug:
            traceback.print_exc()
        where = f"{exc.filename}: " if exc.filename else ""
        typer.echo(f"moaisim: error: {where}{exc.strerror or exc}", err=True)
        return 2
    except Exception as exc:
        # Usage errors of the command-line parser (click's, or the copy typer ships) carry
        # format_message() and exit_code: print them on one line.
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            if type(exc).__name__ == "NoArgsIsHelpError":
                typer.echo(exc.format_message())
                return 2
            message = " ".join(str(exc.format_message()).split())
            typer.echo(f"moaisim: error: {message}", err=True)
            return 2
        if debug:
            raise
        message = " ".join(str(exc).split())
        typer.echo(f"moaisim: internal error: {type(exc).__name__}: {message} (a bug in "
                   "moaisim: run again with --debug for the traceback, and report it)",
                   err=True)  # fmt: skip
        return 70
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        warnings.showwarning = shown
    return code if isinstance(code, int) else 0


def _show_warning(message: Warning | str, category: type[Warning], *args: object,
                  **kwargs: object) -> None:  # fmt: skip
    """Warnings on one line each, as the errors are."""
    _say("warning: " + " ".join(str(message).split()))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
