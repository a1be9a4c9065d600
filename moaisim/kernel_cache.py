"""Where numba keeps moaisim's compiled kernels: one folder per version of their sources.

numba's on-disk cache checks only the file of the function it compiled, but a kernel carries
every kernel it calls compiled into it: the compiled path's step loop (`games/moai/engine/compiled/
machine.py`) holds the phases, the policies, `seen` and the rules' kernels of a dozen other
files. Edit one of those and numba would go on loading the old loop from its cache, playing
the old games. So the cache lives in a folder named by a digest of every source file a kernel
can come from (`sources()`: the engine, the rules, the random streams, the jit decorator and
the built-in strategies): an edit there starts a fresh folder (the kernels are compiled again
once, about a minute), an edit elsewhere (the runner, the studies, the CLI) compiles nothing,
and a folder not used for 30 days is removed. This module is imported first by
`moaisim/__init__.py`, before any kernel is defined: numba fixes a function's cache folder
when the function is decorated.

Each game's kernels have a folder of their own (`game_folder`): its digest covers the shared
sources (the random streams, the jit decorator, this module) and that game's package and
built-in strategies only, so an edit to one game never compiles another's kernels again.
`moaisim.jit.kernel` points each kernel at its game's folder when it is decorated; `FOLDER`,
the folder of every source, holds the kernels that belong to no game (and is the
NUMBA_CACHE_DIR processes started by moaisim inherit).

The folder is `$NUMBA_CACHE_DIR/moaisim-<digest>` when the user sets NUMBA_CACHE_DIR, else
`moaisim-<digest>` under the user's cache folder (`$XDG_CACHE_HOME`, `~/.cache`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from importlib.util import find_spec
from pathlib import Path

#: Days a cache folder of other sources is kept after its last use.
KEEP_DAYS = 30
PREFIX = "moaisim-"


#: Where the kernels live, in the package: every jitted function is defined in one of these
#: (tests/test_kernel_cache.py checks it), so only these files can change compiled code. The
#: runner, the studies, the analysis and the CLI are left out: editing them compiles nothing.
KERNEL_ROOTS = ("games", "rng.py", "jit.py", "kernel_cache.py", "learned_model.py")


#: The sources every game's kernels may carry (the random streams, the jit decorator, the
#: learned policies' tree walk, this module): part of every game's folder digest.
SHARED_ROOTS = ("rng.py", "jit.py", "kernel_cache.py", "learned_model.py")


def _strategy_roots() -> list[Path]:
    """The built-in strategies' folders (installed as `moaisim.strategies`, from the
    top-level strategies/)."""
    spec = find_spec("moaisim.strategies")
    if spec is not None and spec.submodule_search_locations:
        return [Path(p).resolve() for p in spec.submodule_search_locations]
    return []


def sources(game: str | None = None) -> list[Path]:
    """The Python files whose code the kernels may carry: the games' engines and rules, the
    random streams and the jit decorator (`KERNEL_ROOTS`) and the built-in strategies; with
    `game` (a package name under moaisim/games, e.g. "rapa_nui"), only the shared sources
    and that game's package and built-in strategies."""
    here = Path(__file__).resolve().parent
    if game is None:
        roots = [here / name for name in KERNEL_ROOTS] + _strategy_roots()
    else:
        roots = [here / name for name in SHARED_ROOTS] + [here / "games" / game]
        roots += [p / game for p in _strategy_roots()]
    return _files(roots)


def _files(roots: list[Path]) -> list[Path]:
    """The .py files of `roots` (files, or folders walked), sorted."""
    files = set()
    for root in roots:
        if root.is_file():
            files.add(root)
        elif root.is_dir():
            files |= {p for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    return sorted(files)


def digest(files: list[Path]) -> str:
    """SHA-256 (16 hex digits) of the files' names and bytes, in the order given."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def base() -> Path:
    """The folder that holds the cache folders (see the module's docstring). A process
    started by moaisim inherits NUMBA_CACHE_DIR set to a cache folder: its parent, then."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user).parent if Path(user).name.startswith(PREFIX) else Path(user)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "moaisim"


def folder() -> Path:
    """This version's cache folder (not created here: numba creates it when it writes)."""
    return base() / f"{PREFIX}{digest(sources())}"


def game_of_module(module: str) -> str | None:
    """The game package a module belongs to ("moaisim.games.moai.engine.x" -> "moai",
    "moaisim.strategies.rapa_nui.greedy" -> "rapa_nui"), or None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[0] == "moaisim" and parts[1] in ("games", "strategies"):
        return parts[2]
    return None


_GAME_FOLDERS: dict[str, Path] = {}


def game_folder(module: str) -> Path:
    """The cache folder of a kernel defined in `module`: its game's (named by the shared
    sources and that game's own), the shared sources' own for moaisim's other modules (the
    random streams), else `FOLDER`."""
    game = game_of_module(module)
    if game is None and module.startswith("moaisim."):
        game = ""  # the shared sources alone
    elif game is None or not (Path(__file__).resolve().parent / "games" / game).is_dir():
        return FOLDER
    if game not in _GAME_FOLDERS:
        files = sources(game) if game else _files([Path(__file__).resolve().parent / n
                                                   for n in SHARED_ROOTS])  # fmt: skip
        where = base() / f"{PREFIX}{game or 'shared'}-{digest(files)}"
        if where.exists():
            os.utime(where)  # in use: not pruned by another version
        _GAME_FOLDERS[game] = where
    return _GAME_FOLDERS[game]


def prune(keep: Path, days: float = KEEP_DAYS, keep_also: set[Path] | None = None) -> None:
    """Remove the other versions' cache folders not used for `days` (best effort: a folder
    another process is using is at worst compiled again); `keep_also`: more folders kept."""
    cutoff = time.time() - days * 86400
    kept = {keep, *(keep_also or set())}
    try:
        others = [p for p in keep.parent.glob(f"{PREFIX}*") if p not in kept and p.is_dir()]
        for old in others:
            if old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


def install() -> Path:
    """Point numba's cache at this version's folder, for this process and the processes it
    starts (parallel workers import moaisim and agree). Returns the folder."""
    where = folder()
    os.environ["NUMBA_CACHE_DIR"] = str(where)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba imported before moaisim: set its live config too
        config.CACHE_DIR = str(where)
    if where.exists():
        os.utime(where)  # in use: not pruned by another version
    games = Path(__file__).resolve().parent / "games"
    for package in sorted(p for p in games.iterdir() if (p / "__init__.py").is_file()):
        game_folder(f"moaisim.games.{package.name}")  # this version's: touched, kept
    game_folder("moaisim.rng")
    prune(where, keep_also=set(_GAME_FOLDERS.values()))
    return where


FOLDER = install()
