"""The `moaisim` command line: thin typer commands over the library functions.

Exit codes: 0 done; 2 a mistake in what was asked (`moaisim: error: ...`, one line: unknown
name, bad rules file, bad option...); 1 a strategy failed during a game (`moaisim: strategy
error: ...`, one line naming the strategy, decision, game and seed); 130 interrupted.
`--debug`, anywhere on the line, prints the traceback as well. Every command that plays, reads
or describes a game takes `--game NAME` (`moaisim games` lists them; default moai). An option
of one value given twice is a mistake too (`_once`), not the last one kept silently.

The commands live by what they do: `game` (games, play, replay, variants, rules, events,
strategies), `runs` (simulate, report, experiment) and `studies` (versus, metagame, tune,
bench); `common` holds the typer app and what they share. `moaisim.analysis` and
`moaisim.studies` are imported inside the commands that use them, so that `moaisim --help`
and the quick commands start without scipy, matplotlib and cma.
"""

from __future__ import annotations

import signal
import sys
import traceback
import warnings
from typing import Any

import typer
from typer.models import CommandInfo

from moaisim import interrupts
from moaisim.cli import game, runs, studies  # noqa: F401 (importing them adds their commands)
from moaisim.cli.common import ARGS, app, on_sigterm, say, stop_code
from moaisim.errors import StrategyError, UserError

#: The commands in the order `moaisim --help` lists them.
ORDER = ("games", "play", "replay", "variants", "simulate", "versus", "sheet", "atlas", "metagame",
         "report", "experiment", "balance", "tune", "tune-search", "distill", "learn", "certify",
         "certificate-history", "rules",
         "events", "strategies", "bench")  # fmt: skip


def _name(info: CommandInfo) -> str:
    """A registered command's name, as typer derives it."""
    return info.name or getattr(info.callback, "__name__", "").replace("_", "-")


app.registered_commands.sort(key=lambda info: ORDER.index(_name(info)))


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app; a user mistake is one line and exit code 2, a strategy's
    failure one line and exit code 1 (with --debug, the traceback too)."""
    if sys.stdout is None:  # started with standard output closed (`moaisim play >&-`)
        if sys.stderr is not None:
            sys.stderr.write("moaisim: error: standard output is closed\n")
        return 2
    command = typer.main.get_command(app)
    for sub in getattr(command, "commands", {}).values():
        _once(sub)
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    args = [a for a in args if a != "--debug"]
    ARGS[:] = args
    try:  # SIGTERM stops like Ctrl-C (only the main thread can handle signals)
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:
        previous = None
    shown = warnings.showwarning
    warnings.showwarning = _show_warning
    try:
        code = command.main(args=args, prog_name="moaisim", standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt) as exc:
        typer.echo("moaisim: aborted", err=True)
        return stop_code(exc)
    except BrokenPipeError:
        return 0
    except Exception as exc:
        stop = interrupts.signalled(exc)  # Ctrl-C inside a compiled kernel
        if stop is not None:
            typer.echo("moaisim: aborted", err=True)
            return stop_code(stop)
        return _failed(exc, debug)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        warnings.showwarning = shown
    return code if isinstance(code, int) else 0


def _once(command: Any) -> None:
    """Make a command refuse an option of one value given twice (`--game moai --game
    rapa-nui`), in one line naming it (a `UserError`), where the parser would keep the last
    one silently. An option that takes several values (`-p 3 -p 4`) is repeated as before.
    (`command` is a command of click's or of the copy typer ships: read by its fields.)"""
    parse = command.parse_args
    if getattr(parse, "once", False):  # wrapped by an earlier call of `main` already
        return

    def parse_args(ctx: Any, args: list[str]) -> list[str]:
        _, _, order = command.make_parser(ctx).parse_args(args=list(args))
        seen: set[str] = set()
        for param in order:  # each parameter in the order given, once per time it is given
            if getattr(param, "param_type_name", "") != "option" or param.multiple or param.count:
                continue
            if param.name in seen:
                name = next((o for o in param.opts if o.startswith("--")), param.opts[0])
                raise UserError(f"{name} is given twice: give it once")
            seen.add(param.name)
        return parse(ctx, args)

    parse_args.once = True  # type: ignore[attr-defined]
    command.parse_args = parse_args


def _failed(exc: Exception, debug: bool) -> int:
    """A command that failed: its one line on stderr (with --debug, the traceback too), and
    the exit code."""
    if isinstance(exc, UserError | StrategyError):
        if debug:
            traceback.print_exc()
        kind = "error" if isinstance(exc, UserError) else "strategy error"
        typer.echo(f"moaisim: {kind}: {exc}", err=True)
        return 2 if isinstance(exc, UserError) else 1
    if isinstance(exc, OSError):
        # the file system refused (a full disk, no permission, a path that is a file...):
        # a problem of the machine or of the paths given, not of moaisim
        if debug:
            traceback.print_exc()
        where = f"{exc.filename}: " if exc.filename else ""
        typer.echo(f"moaisim: error: {where}{exc.strerror or exc}", err=True)
        return 2
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
        raise exc
    message = " ".join(str(exc).split())
    typer.echo(f"moaisim: internal error: {type(exc).__name__}: {message} (a bug in "
               "moaisim: run again with --debug for the traceback, and report it)",
               err=True)  # fmt: skip
    return 70


def _show_warning(message: Warning | str, category: type[Warning], *args: object,
                  **kwargs: object) -> None:  # fmt: skip
    """Warnings on one line each, as the errors are."""
    say("warning: " + " ".join(str(message).split()))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


__all__ = ["app", "main", "run"]
