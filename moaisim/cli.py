"""The `moaisim` command line: thin typer commands over the library functions.

Exit codes: 0 done; 2 a mistake in what was asked (`moaisim: error: ...`, one line: unknown
name, bad rules file, bad option...); 1 a strategy failed during a game (`moaisim: strategy
error: ...`, one line naming the strategy, decision, game and seed); 130 interrupted.
`--debug`, anywhere on the line, prints the traceback as well.
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Annotated

import typer

from moaisim.api import play as play_game
from moaisim.errors import StrategyError, UserError
from moaisim.rules import OPTIONS, VARIANTS

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
        from moaisim import __version__

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
    json: Annotated[
        bool, typer.Option("--json", help="Print the event log as JSON lines instead.")
    ] = False,
    engine: Annotated[
        str, typer.Option("--engine", "-e", help="Engine: reference | batch (same game).")
    ] = "reference",
) -> None:
    """Play one seeded game and print its log round by round, then the scores."""
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
    )
    sys.stdout.write(record.jsonl() if json else record.text() + "\n")


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
    from moaisim.docs import document, document_path

    if components:
        from importlib import resources

        sys.stdout.write(resources.files("moaisim.rules").joinpath("default.toml").read_text())
    elif path:
        typer.echo(str(document_path("rules.md")))
    else:
        sys.stdout.write(document("rules.md"))


@app.command("events", short_help="Print the event log's schema (play --json).")
def event_schema() -> None:
    """Print the event log's schema: every event kind of `play --json` and its fields."""
    from moaisim.engine.events import schema_markdown

    sys.stdout.write(schema_markdown())


@app.command("strategies", short_help="List the strategies and their parameters.")
def list_strategies() -> None:
    """List the strategies that --strategies accepts, with their plan and parameters (any
    'module:Class' works too)."""
    from moaisim.registry import describe

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
        str, typer.Option(help="Lineups to time, one strategy in every seat: 'greedy,random'.")
    ] = "greedy,random",
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
) -> None:
    """Time the batch and reference engines on the same games; measure a batch's memory.

    Progress goes to stderr, the Markdown table (with machine and command) to stdout.
    """
    from moaisim import bench as bench_lib

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
    text = bench_lib.report(
        config,
        "moaisim bench",
        markdown_path=str(markdown) if markdown else None,
        csv_path=str(csv) if csv else None,
        progress=lambda line: typer.echo(line, err=True),
    )
    sys.stdout.write(text)


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app; a user mistake is one line and exit code 2, a strategy's
    failure one line and exit code 1 (with --debug, the traceback too)."""
    command = typer.main.get_command(app)
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    args = [a for a in args if a != "--debug"]
    if os.getcwd() not in sys.path:  # 'module:Class' strategies from the current directory
        sys.path.insert(0, os.getcwd())
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
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("moaisim: aborted", err=True)
        return 130
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
        raise
    return code if isinstance(code, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
