"""Reading the small text files a user gives (component sets, experiments, weights), and
checking the files and directories moaisim is asked to write, with one clear line for each
thing that can go wrong, before any work starts."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tomllib
from pathlib import Path
from typing import Any

from moaisim.errors import UserError

#: The largest text file moaisim reads as input (a component set or weights file is a few KB).
MAX_TEXT_BYTES = 4 * 2**20


def read_text(path: str | Path, what: str, error: type[UserError] = UserError) -> str:
    """The UTF-8 text of a regular file of at most `MAX_TEXT_BYTES`, or `error` with one
    line (a device such as /dev/zero, a pipe, a directory, a missing or unreadable file, a
    huge file, bytes that are not UTF-8)."""
    p = Path(path)
    try:
        info = p.stat()
    except FileNotFoundError:
        raise error(f"{p}: no such {what}") from None
    except OSError as exc:
        raise error(f"{p}: cannot read the {what} ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{p}: is a directory, not a {what}")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{p}: not a regular file (a device or a pipe?): give a {what}")
    if info.st_size > MAX_TEXT_BYTES:
        raise error(f"{p}: {info.st_size:,} bytes is too large for a {what}")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise error(f"{p}: cannot read the {what} ({exc.strerror or exc})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{p}: not a UTF-8 text file ({exc.reason})") from None


def check_writable_file(path: str | Path, what: str) -> Path:
    """A file moaisim will write later: its directory exists (or can be made) and is
    writable, and the path is not a directory or a link to nothing. Checked before long work
    starts, so no result is lost to a bad path at the end."""
    p = Path(path)
    if p.is_symlink() and not p.exists():
        raise UserError(f"{p}: the {what} is a symbolic link to nothing")
    if p.is_dir():
        raise UserError(f"{p}: is a directory; the {what} must be a file")
    parent = p.parent if str(p.parent) else Path(".")
    if parent.exists() and not parent.is_dir():
        raise UserError(f"{p}: {parent} is not a directory")
    if not parent.exists():
        raise UserError(f"{p}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UserError(f"{p}: cannot write the {what} there (permission denied)")
    return p


def check_writable_dir(path: Path, option: str) -> None:
    """A directory moaisim will create or write into later: refused now, in one line, when
    the nearest directory on its way that exists (itself, or a parent) does not take a new
    file (no permission, a read-only file system) or is a file. A probe file is created
    there and removed."""
    path = Path(path)
    here = path
    while not here.exists() and not here.is_symlink() and here.parent != here:
        here = here.parent
    if here.is_symlink() and not here.exists():
        raise UserError(f"{option} {path}: {here} is a symbolic link to nothing")
    if not here.is_dir():
        raise UserError(f"{option} {path}: {here} is a file, not a directory")
    probe = here / f".moaisim-probe-{os.getpid()}"
    try:
        with open(probe, "a"):
            pass
    except OSError as exc:
        raise UserError(f"{option} {path}: cannot write into {here} "
                        f"({exc.strerror or exc})") from None  # fmt: skip
    probe.unlink(missing_ok=True)


def write_atomic(path: str | Path, data: bytes, what: str = "file") -> None:
    """Write a file whole or not at all (a temporary file beside it, then a rename); a
    failure (a full disk...) is one line naming the file, and neither it nor an interrupt
    (Ctrl-C) leaves a temporary file."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise UserError(f"cannot write the {what} {p} ({exc.strerror or exc})") from None
    except BaseException:  # Ctrl-C (KeyboardInterrupt) mid-write: no temporary file left
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def swap_in(tmp: Path, out: Path) -> None:
    """Put a directory written whole beside its place (`tmp`) at `out`, replacing what was
    there: the old one is renamed away first and removed only once the new one is in."""
    old = out.parent / f".{out.name}.old"
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)


#: The checkout moaisim runs from (the directory above the package).
CHECKOUT = Path(__file__).resolve().parents[1]


def shipped(path: str | Path) -> bool:
    """Whether a file a history or a note cites is in the checkout (a path relative to it,
    or absolute): notes and certificates cite only files that ship, and say so of the others."""
    p = Path(path)
    return (p if p.is_absolute() else CHECKOUT / p).is_file()


def shown(text: str) -> str:
    """Text a shipped file or a report keeps, with this machine's paths under the working
    directory or the checkout made relative ("strategies/moai/weights/nash-4p.toml"), so that a
    file read in another checkout names the files as that checkout has them."""
    for root in dict.fromkeys((Path.cwd(), CHECKOUT)):
        text = text.replace(f"{root}/", "")
    return text


#: The key of a JSON or TOML document (and the column of a CSV table) that names the game
#: (`moaisim games`) a study's file is of. Every file a study writes records it, and every
#: reader checks it (`check_game`): nothing of one game is read as another's.
GAME_KEY = "game"
#: The column of a results table (per seat, per round) that names each row's game: a
#: categorical of game names. Not `GAME_KEY`: a results table's `game` is the game's number
#: within its run.
GAME_COLUMN = "game_name"


def named_game(doc: Any, legacy: str | None = None) -> str | None:
    """The game a document names (its `GAME_KEY`), or `legacy` when it names none (a file
    written before files named their game)."""
    found = doc.get(GAME_KEY) if isinstance(doc, dict) else None
    return found if isinstance(found, str) and found else legacy


def game_in_file(path: str | Path) -> str | None:
    """The game a small TOML or JSON file names at its top level (`GAME_KEY`); None when it
    names none, or is not a readable TOML or JSON file (its own reader says why)."""
    p = Path(path)
    try:
        text = read_text(p, "file")
        doc = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
    except (UserError, ValueError):  # tomllib.TOMLDecodeError is a ValueError
        return None
    return named_game(doc)


def check_game(found: str | None, wanted: str, path: str | Path, what: str,
               error: type[UserError] = UserError) -> None:  # fmt: skip
    """A file read for the game `wanted`: refused with one line that names the file and both
    games when it is of another game (`found`; None: a file whose game is not known, read
    as it is). Checked before anything is written."""
    if found is not None and found != wanted:
        raise error(
            f"{path} is {what} of the game {found}, not {wanted} (one game's files are never "
            "taken for another's)"
        )
