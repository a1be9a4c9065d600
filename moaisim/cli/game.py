"""The commands about one game: the `games` moaisim knows, `play` and `replay` one, and what
a game is made of: its rule `variants`, the `rules` book, the `events` of its log, the
`strategies` that play it. Each reaches its game through `moaisim.games` (`--game NAME`)."""

from __future__ import annotations

import json as json_lib
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from moaisim.api import log_game
from moaisim.api import play as play_game
from moaisim.api import replay as replay_log
from moaisim.cli.common import (
    OPTION_FLAGS,
    STRATEGIES_HELP,
    GameName,
    LogGame,
    Param,
    Players,
    RuleOption,
    RunSeed,
    SpentWood,
    Summary,
    TurnOrder,
    VolcanoAfterMoai,
    app,
    check_game,
    rule_options,
    same_game,
    single_params,
)
from moaisim.docs import document, document_path
from moaisim.files import read_text
from moaisim.games import DEFAULT, available, load_game
from moaisim.registry import describe


def _print_record(record: Any, json: bool, summary: bool) -> None:
    """A game as `play` prints it: its log as JSON lines, a line per round, or every event."""
    if json:
        sys.stdout.write(record.jsonl())
    else:
        sys.stdout.write((record.summary() if summary else record.text()) + "\n")


@app.command(short_help="Play one seeded game and print its log.")
def play(
    players: Players = 4,
    seed: RunSeed = 0,
    index: Annotated[
        int,
        typer.Option(
            "--index", "-i", help="The game's number within the run of --seed (game i of it)."
        ),
    ] = 0,
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
    turn_order: TurnOrder = None,
    volcano_after_moai: VolcanoAfterMoai = None,
    spent_wood: SpentWood = None,
    option: RuleOption = None,
    param: Param = None,
    json: Annotated[
        bool, typer.Option("--json", help="Print the event log as JSON lines instead.")
    ] = False,
    summary: Summary = False,
    engine: Annotated[
        str, typer.Option("--engine", "-e", help="Engine: reference | batch (same game).")
    ] = "reference",
    *,
    game: GameName,
) -> None:
    """Play game --index of root seed --seed (game 0 by default) and print its log round by
    round, then the scores (--summary: a line per round; --json: the event log as JSON
    lines). The same seed and index play the same game."""
    options = rule_options(game, option, turn_order=turn_order,
                           volcano_after_moai=volcano_after_moai,
                           spent_wood=spent_wood)  # fmt: skip
    record = play_game(
        players,
        seed,
        game=index,
        strategies=strategies,
        variants=variant,
        components=components,
        engine=engine,
        params=single_params(param, game),
        game_name=game,
        **options,
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
    game: LogGame = None,
) -> None:
    """Play a game's log again: the rules its header names (variant, rule options, rule
    parameters, component set), its seed and game number, and its decisions fed back seat by
    seat. The game must make the log's events one by one; then its log and scores are printed
    as `play` prints them."""

    text = sys.stdin.read() if str(log) == "-" else read_text(log, "game log")
    same_game(log_game(text), game, "the log")
    _print_record(replay_log(text, components), json, summary)


@app.command("games", short_help="List the games moaisim plays (--game NAME).")
def list_games(
    json: Annotated[bool, typer.Option("--json", help="Print the list as JSON instead.")] = False,
    game: Annotated[
        str | None, typer.Option("--game", help="Only this game.", callback=check_game)
    ] = None,
) -> None:
    """List every registered game: its name (what --game takes), title, player counts,
    one line about it and how many strategies it ships."""

    rows = []
    for name in [game] if game is not None else available():
        spec = load_game(name)
        counts = list(spec.INFO.players)
        rows.append({"name": name, "title": spec.INFO.title, "players": counts,
                     "strategies": len(spec.STRATEGIES), "summary": spec.INFO.summary})  # fmt: skip
    if json:
        typer.echo(json_lib.dumps(rows, indent=2))
        return
    for row in rows:
        counts = row["players"]
        span = f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])
        default = " (default)" if row["name"] == DEFAULT else ""
        typer.echo(f"{row['name']:<10} {row['title']}{default}: {span} players, "
                   f"{row['strategies']} built-in strategies")  # fmt: skip
        typer.echo(f"{'':<10} {row['summary']}")


@app.command(short_help="List the rule variants and rule options.")
def variants(
    markdown: Annotated[
        bool,
        typer.Option("--markdown", help="Print the rule parameters as the rules book's table."),
    ] = False,
    *,
    game: GameName,
) -> None:
    """List the game's rule variants (combine with '+'), rule options and rule parameters."""
    spec = load_game(game)
    if markdown:  # made from the parameters' records (docs/design.md, "Adding a rule parameter")
        sys.stdout.write(spec.parameter_table())
        return
    typer.echo("variants:")
    typer.echo(f"  {'base':<21} the rules as written (docs/{spec.INFO.rules_book})")
    for name, text in spec.VARIANTS.items():
        typer.echo(f"  {name:<21} {text}")
    _list_options(spec)

    defaults = spec.parameter_values(spec.default_components())
    typer.echo("rule parameters (--param name=value; the default is the rulebook's):")
    for name, p in spec.PARAMETERS.items():
        typer.echo(f"  {name:<21} {p.meaning} (default {defaults[name]}; {p.rule})")


def _list_options(spec: Any) -> None:
    """The rule options of `variants`: each with its values (the first the default), what it
    decides (`OPTION_HELP`), and its own flag where it has one (`OPTION_FLAGS`: the default
    game's)."""
    typer.echo("rule options (--option name=value; the first value is the default):")
    if not spec.OPTIONS:
        typer.echo("  none")
    for name, values in spec.OPTIONS.items():
        flag = f" (or --{name.replace('_', '-')})" if name in OPTION_FLAGS else ""
        typer.echo(f"  {name:<21} {' | '.join(values)}{flag}")
        typer.echo(f"  {'':<21} {spec.OPTION_HELP[name]}")


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
    *,
    game: GameName,
) -> None:
    """Print the game's rules book the engines play by (Moai's: rule ids R1-R8, V1-V5,
    C1-C5)."""

    spec = load_game(game)
    if components:
        package, name = spec.INFO.components_file
        sys.stdout.write(resources.files(package).joinpath(name).read_text("utf-8"))
    elif path:
        typer.echo(str(document_path(spec.INFO.rules_book)))
    else:
        sys.stdout.write(document(spec.INFO.rules_book))


@app.command("events", short_help="Print the event log's schema (play --json).")
def event_schema(game: GameName) -> None:
    """Print the game's event log schema: every event kind of `play --json` and its fields."""

    sys.stdout.write(load_game(game).schema_markdown())


@app.command("strategies", short_help="List the strategies and their parameters.")
def list_strategies(game: GameName) -> None:
    """List the strategies of the game that --strategies accepts, with their plan and
    parameters (any 'module:Class' works too)."""

    for name, plan, params in describe(game):
        typer.echo(f"{name:<10} {plan}")
        if params:
            typer.echo(f"{'':<10} parameters: {params}")
