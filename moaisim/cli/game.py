"""The commands about one game: `play` and `replay` one, and what a game is made of: its
rule `variants`, the `rules` book, the `events` of its log, the `strategies` that play it."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from moaisim.api import play as play_game
from moaisim.api import replay as replay_log
from moaisim.cli.common import (
    STRATEGIES_HELP,
    Param,
    Players,
    RunSeed,
    SpentWood,
    Summary,
    TurnOrder,
    VolcanoAfterMoai,
    app,
    single_params,
)
from moaisim.docs import document, document_path
from moaisim.engine.events import schema_markdown
from moaisim.engine.record import GameRecord
from moaisim.files import read_text
from moaisim.registry import describe
from moaisim.rules import OPTIONS, VARIANTS
from moaisim.rules.model import default_components
from moaisim.rules.parameters import PARAMETERS
from moaisim.rules.parameters import values as parameter_values


def _print_record(record: GameRecord, json: bool, summary: bool) -> None:
    """A game as `play` prints it: its log as JSON lines, a line per round, or every event."""
    if json:
        sys.stdout.write(record.jsonl())
    else:
        sys.stdout.write((record.summary() if summary else record.text()) + "\n")


@app.command(short_help="Play one seeded game and print its log.")
def play(
    players: Players = 4,
    seed: RunSeed = 0,
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
    turn_order: TurnOrder = "hill",
    volcano_after_moai: VolcanoAfterMoai = "stay",
    spent_wood: SpentWood = "supply",
    param: Param = None,
    json: Annotated[
        bool, typer.Option("--json", help="Print the event log as JSON lines instead.")
    ] = False,
    summary: Summary = False,
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
        params=single_params(param),
    )
    _print_record(record, json, summary)


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
    summary: Summary = False,
) -> None:
    """Play a game's log again: the rules its header names (variant, rule options, rule
    parameters, component set), its seed and game, and its decisions fed back seat by seat.
    The game must make the log's events one by one; then its log and scores are printed as
    `play` prints them."""

    text = sys.stdin.read() if str(log) == "-" else read_text(log, "game log")
    _print_record(replay_log(text, components), json, summary)


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
