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
KERNEL_ROOTS = ("games", "rng.py", "jit.py", "kernel_cache.py")


def sources() -> list[Path]:
    """The Python files whose code the kernels may carry: the games' engines and rules, the
    random streams and the jit decorator (`KERNEL_ROOTS`) and the built-in strategies (installed as
    `moaisim.strategies`, from the top-level strategies/)."""
    here = Path(__file__).resolve().parent
    roots = [here / name for name in KERNEL_ROOTS]
    spec = find_spec("moaisim.strategies")
    if spec is not None and spec.submodule_search_locations:
        roots += [Path(p).resolve() for p in spec.submodule_search_locations]
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


def prune(keep: Path, days: float = KEEP_DAYS) -> None:
    """Remove the other versions' cache folders not used for `days` (best effort: a folder
    another process is using is at worst compiled again)."""
    cutoff = time.time() - days * 86400
    try:
        others = [p for p in keep.parent.glob(f"{PREFIX}*") if p != keep and p.is_dir()]
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
    prune(where)
    return where


FOLDER = install()
