"""What the commands of `moaisim` share: the typer app, the options several commands declare
alike, and how a command says things, names itself and stops (Ctrl-C, SIGTERM).

The command modules (`game`, `runs`, `studies`) register their commands on `app`;
`moaisim.cli` runs it."""

from __future__ import annotations

import shlex
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from moaisim import interrupts
from moaisim.errors import UserError
from moaisim.games import DEFAULT, available, check_name, load_game
from moaisim.registry import split_top
from moaisim.rundir import RunDir, recorded_game
from moaisim.version import __version__

HELP = """Balance analysis for board games (Moai first): seeded games between pluggable strategies.

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
    """Balance analysis for board games (Moai first): seeded games between pluggable strategies."""


# --- options declared alike by several commands ---------------------------------------------


def check_game(name: str | None) -> str | None:
    """--game: a known game's name (`moaisim.games.check_name`: an unknown name or a number is
    one line, exit code 2, before anything is done); None stays None."""
    return None if name is None else check_name(name)


#: The help of the --game option.
GAME_HELP = (
    f"The game played: {', '.join(available())} (default {DEFAULT}; `moaisim games` lists "
    "them). The game number within a run is --index (play)."
)
#: --game of every command that plays, reads or describes a game: the command line is an
#: edge where the default game is applied (here, once: a command declares `game: GameName`).
GameName = Annotated[
    str,
    typer.Option(
        "--game",
        help=GAME_HELP,
        callback=check_game,
        default_factory=lambda: DEFAULT,
        show_default=False,
    ),
]


def _named_game(what: str) -> Any:
    """--game of a command whose `what` (a run, a log, a file) names its game: None (its
    own) unless given, and then `same_game` checks it."""
    return Annotated[
        str | None,
        typer.Option(
            "--game",
            help=f"The game {what} must be of: {', '.join(available())} (default: the one it "
            f"names; {recorded_game()}, when it was written before files named their game).",
            callback=check_game,
        ),
    ]


#: --game of `replay` (a log), `report` (a run), `experiment` and `balance` (a file).
LogGame = _named_game("the log")
RunGame = _named_game("the run")
FileGame = _named_game("the file's study")


def same_game(found: str, wanted: str | None, what: str) -> str:
    """The game `what` is of (`found`), checked against --game when it was given."""
    if wanted is not None and found != wanted:
        raise UserError(f"{what} is of the game {found}, not {wanted} (--game)")
    return found


#: The help of the --param option (the default game's parameters: `moaisim variants --game
#: NAME` lists another game's).
PARAM_HELP = (
    "A rule parameter of the game, name=value (repeat for several): "
    f"{DEFAULT}'s are {load_game(DEFAULT).parameter_listing()} (`moaisim variants --game NAME` "
    "lists a game's, with their defaults)."
)
#: The help of the --option option (any game's rule options: checked against the game played).
OPTION_HELP = (
    "A rule option of the game, name=value (repeat for several): `moaisim variants --game "
    "NAME` lists them."
)


def option_values(name: str) -> tuple[str, ...]:
    """The values of a rule option that has a flag of its own (`OPTION_FLAGS`), the first the
    default: the first game's (in the registry's order) that has it."""
    return next(load_game(g).OPTIONS[name] for g in available()
                if name in load_game(g).OPTIONS)  # fmt: skip


def _option_help(name: str) -> str:
    """The help of a rule option's own flag: its values, the first the default."""
    values = option_values(name)
    return f"Rule option: {' | '.join(values)} (default {values[0]})."


#: The help of an option that takes a strategy lineup.
STRATEGIES_HELP = (
    "Strategies by seat, comma-separated: 'greedy,random'. A lineup shorter than the players "
    "repeats; a strategy takes parameters as 'greedy(moai_height=8)'; 'module:Class' loads "
    "your own (from the current directory too)."
)

#: --players of a command about one player count.
Players = Annotated[
    int,
    typer.Option("--players", "-p", help="Number of players (the game's counts: `moaisim games`)."),
]
#: --players of a command over several player counts.
PlayerCounts = Annotated[
    list[int] | None, typer.Option("--players", "-p", help="Player counts (repeat).")
]
#: --param name=value, one value each (`single_params`).
Param = Annotated[list[str] | None, typer.Option("--param", metavar="NAME=VALUE", help=PARAM_HELP)]
#: --option name=value, any game's rule options, one value each (`rule_options`).
RuleOption = Annotated[
    list[str] | None, typer.Option("--option", metavar="NAME=VALUE", help=OPTION_HELP)
]
#: --option name=value of a command whose set-ups are a grid: a list of values sweeps
#: (`rule_option_grid`).
RuleOptionGrid = Annotated[
    list[str] | None,
    typer.Option(
        "--option", metavar="NAME=VALUE", help=OPTION_HELP + " A list sweeps: name=v1,v2."
    ),
]
#: The rule options that have flags of their own (the default game's three: typer declares
#: options statically); any game's are given as --option name=value.
OPTION_FLAGS = ("turn_order", "volcano_after_moai", "spent_wood")
#: Those flags, one value each; None: the game's default (`rule_options` checks them against
#: the game played and merges them with --option).
TurnOrder = Annotated[str | None, typer.Option(help=_option_help("turn_order"))]
VolcanoAfterMoai = Annotated[str | None, typer.Option(help=_option_help("volcano_after_moai"))]
SpentWood = Annotated[str | None, typer.Option(help=_option_help("spent_wood"))]
#: --seed of the commands that play games (not a run's).
GamesSeed = Annotated[int, typer.Option("--seed", "-s", help="Root seed of the games.")]
#: --seed of a run.
RunSeed = Annotated[int, typer.Option("--seed", "-s", help="Root seed of the run.")]
#: A file-driven study's folders and jobs (`experiment`, `balance`).
RunsDir = Annotated[Path, typer.Option("--runs", help="Where runs go: RUNS/<name>.")]
ReportsDir = Annotated[Path, typer.Option("--reports", help="Where reports go: REPORTS/<name>.")]
FileJobs = Annotated[
    int | None, typer.Option("--jobs", "-j", help="Parallel jobs (default: the file's).")
]
#: --jobs of the studies.
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Parallel jobs.")]
#: The opponents of one strategy.
Field = Annotated[
    str,
    typer.Option(
        help="The opponents, comma-separated; they fill the other seats. A skill level "
        "(L0-L4) plays that level's field at each player count (L3: nash-<P>p.toml)."
    ),
]
#: --summary of the commands that print a game.
Summary = Annotated[
    bool,
    typer.Option("--summary", help="One line per round instead of every event of the log."),
]


def parse_options(
    texts: Iterable[str], options: Mapping[str, Sequence[str]], game: str, sweep: bool = False
) -> dict[str, list[str]]:
    """--option name=value texts checked against a game's rule options (`options`: name ->
    its values, the first the default): name -> the values given, in order. A name may be
    written with '-' for '_'; with `sweep`, a value may be a list (name=v1,v2). Each mistake
    is a one-line `UserError`: no '=', an unknown name or value, a list where one value is
    taken, the same option given twice with other values."""
    out: dict[str, list[str]] = {}
    for text in texts:
        raw, eq, rest = text.partition("=")
        name = raw.strip().replace("-", "_")
        if not eq or not name:
            raise UserError(f"--option {text!r}: expected name=value, e.g. "
                            f"{_example(options, game)}")  # fmt: skip
        if name not in options:
            raise UserError(f"--option {text!r}: {raw.strip()!r} is not a rule option of {game} "
                            f"(its options: {', '.join(options) or 'none'})")  # fmt: skip
        value = rest.strip()
        values = [value] if value in options[name] else [v.strip() for v in value.split(",")]
        if len(values) > 1 and not sweep:
            raise UserError(f"--option {text!r}: give one value here (a study sweeps a list)")
        for v in values:
            _check_value(name, v, options[name], game)
        if len(set(values)) != len(values):
            raise UserError(f"--option {text!r}: a value is given twice")
        if name in out and set(out[name]) != set(values):
            raise UserError(f"--option {name} is given twice, as {','.join(out[name])} and "
                            f"{','.join(values)}: give it once")  # fmt: skip
        out[name] = values
    return out


def _check_value(name: str, value: str, values: Sequence[str], game: str) -> None:
    """A rule option's value, one of `values` (a one-line `UserError` otherwise)."""
    if value not in values:
        raise UserError(f"rule option {name} = {value!r} is not one of {', '.join(values)} "
                        f"({game}; `moaisim variants --game {game}` lists them)")  # fmt: skip


def _example(options: Mapping[str, Sequence[str]], game: str) -> str:
    """An --option example of the game: its first option at its last value."""
    for name, values in options.items():
        return f"{name}={values[-1]}"
    return f"none: {game} has no rule options"


def _merged(game: str, texts: list[str] | None, sweep: bool,
            flags: Mapping[str, str | Sequence[str] | None]) -> dict[str, list[str]]:  # fmt: skip
    """--option texts and the dedicated flags (`flags`: each a value, a list or None) merged:
    name -> values, every one checked against `game`'s rule options; a flag that says
    other than --option is a one-line `UserError`."""
    options = load_game(game).OPTIONS
    out = parse_options(texts or [], options, game, sweep)
    for name, given in flags.items():
        if given is None or (not isinstance(given, str) and not given):
            continue
        flag = f"--{name.replace('_', '-')}"
        if name not in options:
            raise UserError(f"{flag} is not a rule option of {game} "
                            f"(its options: {', '.join(options) or 'none'})")  # fmt: skip
        values = list(dict.fromkeys([given] if isinstance(given, str) else given))
        for v in values:
            _check_value(name, v, options[name], game)
        if name in out and set(out[name]) != set(values):
            raise UserError(f"--option {name}={','.join(out[name])} and {flag} "
                            f"{' '.join(values)} disagree: give the option once")  # fmt: skip
        out.setdefault(name, values)
    return out


def rule_options(game: str, texts: list[str] | None = None, **flags: str | None) -> dict[str, str]:
    """The rule options given, one value each: --option name=value `texts` merged with the
    dedicated flags (`flags`, those not None), each checked against `game`'s rule options
    (a one-line `UserError` otherwise)."""
    return {name: values[0] for name, values in _merged(game, texts, False, flags).items()}


def rule_option_grid(
    game: str, texts: list[str] | None = None, **flags: Sequence[str] | None
) -> dict[str, list[str]]:
    """The rule options of a grid: --option name=v1,v2 `texts` merged with the dedicated
    flags (`flags`, each repeated for a grid), each a list of values swept."""
    return _merged(game, texts, True, flags)


def assignments(texts: list[str] | None, game: str) -> dict[str, list[int]]:
    """--param name=value[,value...] options of `game` (`parse_assignments`)."""
    return load_game(game).parse_assignments(texts or [])


def single_params(texts: list[str] | None, game: str) -> dict[str, int] | None:
    """--param name=value options, one value each (a study's lists are refused here)."""

    if not texts:
        return None
    parsed = assignments(texts, game)
    for name, values in parsed.items():
        if len(values) > 1:
            raise UserError(f"--param {name}: give one value here (a study sweeps a list)")
    return {name: values[0] for name, values in parsed.items()}


def library_names(text: str, game: str) -> list[str]:
    """--library: the strategies, comma-separated (a spec's own commas kept); default the
    game's L2 pool."""

    names = [x.strip() for x in split_top(text, ",") if x.strip()]
    return names or list(load_game(game).LEVEL_POOL)


# --- saying things, naming the command, stopping ------------------------------------------

#: The arguments `main` is running (what the runs and the tuner record as their command).
ARGS: list[str] = []


def command_line(name: str) -> str:
    """The command being run, as a shell line (recorded in manifests and weights files)."""
    return "moaisim " + shlex.join(ARGS) if ARGS else f"moaisim {name}"


def say(message: str) -> None:
    """What a run says as it goes (its warnings start 'warning: '), one line on stderr."""
    typer.echo(f"moaisim: {message}", err=True)


def where_report(path: Path) -> None:
    """Where a report is, and how to open it."""
    html = path.with_suffix(".html")
    typer.echo(f"report: {path} and {html} (in a browser: {html.resolve().as_uri()})")


class Terminated(KeyboardInterrupt):
    """SIGTERM, stopped like Ctrl-C: whole chunks kept, workers ended."""


def on_sigterm(signum: int, frame: object) -> None:
    """The SIGTERM handler `main` installs: stop as Ctrl-C stops (`Terminated`)."""
    interrupts.note()  # a signal, not a strategy's own KeyboardInterrupt
    raise Terminated()


def stop_code(exc: BaseException) -> int:
    """Exit code of a stopped command: 128 + the signal (130 Ctrl-C, 143 SIGTERM)."""
    return 143 if isinstance(exc, Terminated) else 130


def stopped(exc: BaseException) -> str:
    """How a stop is told: 'terminated' (SIGTERM) or 'interrupted' (Ctrl-C)."""
    return "terminated" if isinstance(exc, Terminated) else "interrupted"


def interrupted(out: Path | None, command: str, exc: BaseException) -> None:
    """Ctrl-C or SIGTERM: what finished is kept; say how to go on (a command that works as
    copied: the run's directory exists and holds whole parts)."""
    what = stopped(exc)
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
    typer.echo(f"moaisim: {what}; {done} chunks kept in {out}. Resume with: {runnable(again)}",
               err=True)  # fmt: skip


def runnable(command: str) -> str:
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
