"""What decides a run's results, as digests: the code and each strategy's resolved set-up.

A run on disk records this fingerprint in its manifest, and `--resume` (or extending a run)
refuses to go on with other code: games 0..999 played by one version of `greedy` and games
1000..1999 by another, both labelled `greedy`, would be a silent wrong answer. The fingerprint
holds:

- `moaisim`: the package version;
- `code`: one SHA-256 per part of the package that decides what a game is and how it is
  played: the games (`moaisim/games`: each game's rules with their component files and its
  engines), the random streams (`moaisim/rng.py`), the built-in strategies
  (`moaisim.strategies`, their weights files included) and the runner (`moaisim/runner.py`:
  seatings and result columns);
- `strategies`: per strategy label, its class path, a digest of the source files of its
  classes (a user's own `module:Class` included) and its resolved parameters (every
  parameter, defaults included, with tables read from their files), so that a changed
  default or an edited weights file shows up even when the label does not change.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Iterable
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import moaisim.strategies
from moaisim.registry import StrategySpec
from moaisim.version import __version__

#: The parts of the package whose sources decide results: name -> (package path, suffixes).
CODE_PARTS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "games": (("games", (".py", ".toml")), ("rng.py", (".py",))),
    "strategies": (("strategies", (".py", ".toml")),),
    "runner": (("runner.py", (".py",)),),
}


def package_version() -> str:
    """The installed moaisim's version (the source tree's when it is not installed)."""
    try:
        return version("moaisim")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return __version__


def _files(root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    if root.is_file():
        return [root]
    return sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix in suffixes
        and "__pycache__" not in p.parts
    )  # fmt: skip


def digest_files(files: Iterable[tuple[Path, str]]) -> str:
    """SHA-256 of (file, name) pairs: each name and file content, in the order given."""
    h = hashlib.sha256()
    for path, name in files:
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@cache
def code_digests() -> dict[str, str]:
    """One digest per part of the package that decides results (`CODE_PARTS`)."""
    pkg = Path(__file__).resolve().parent
    roots = {"strategies": Path(moaisim.strategies.__file__).parent}
    out = {}
    for part, entries in CODE_PARTS.items():
        files: list[tuple[Path, str]] = []
        for rel, suffixes in entries:
            path = roots.get(rel, pkg / rel)
            base = path.parent if path.is_file() else path
            files += [(f, str(f.relative_to(base))) for f in _files(path, suffixes)]
        out[part] = digest_files(files)
    return out


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes ('' when there is no such file)."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""


@cache
def play_digest() -> str:
    """One digest of what decides games between built-in strategies, L3's mixture files
    aside: the games (rules and engines), the random streams and the built-in strategies with
    their weights files but
    `nash-<P>p.toml`. Studies key what they keep on disk (a meta-game's tables, a
    certificate, strong-play games) by it, so that shipping new weights never reuses games
    the old ones played; a meta-game does not play L3, so shipping a new L3 made from it
    does not invalidate it (what plays L3 adds that file's digest to its key)."""
    pkg = Path(__file__).resolve().parent
    files: list[tuple[Path, str]] = []
    for root in (pkg / "games", pkg / "rng.py"):
        files += [(f, str(f.relative_to(pkg))) for f in _files(root, (".py", ".toml"))]
    home = Path(moaisim.strategies.__file__).parent
    files += [(f, str(f.relative_to(home))) for f in _files(home, (".py", ".toml", ".json"))
              if not f.name.startswith("nash-")]  # fmt: skip
    return digest_files(files)


def _source_files(cls: type) -> list[Path]:
    """The source files of a strategy class and of its bases (but `object`)."""
    out: list[Path] = []
    for klass in cls.__mro__:
        if klass is object:
            continue
        try:
            src = inspect.getsourcefile(klass)
        except TypeError:  # a built-in class
            continue
        if src and Path(src).is_file() and Path(src) not in out:
            out.append(Path(src))
    return out


def _canonical(value: Any) -> Any:
    """A JSON-able form of a parameter value (tables sorted, paths and others as text)."""
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    return str(value)


def strategy_fingerprint(spec: StrategySpec) -> dict[str, Any]:
    """A strategy's class path, the digest of its classes' sources, and its resolved
    parameters (every one, defaults included)."""
    cls = spec.cls
    resolve = getattr(cls, "resolve_params", None)
    params = resolve(dict(spec.params), spec.label) if resolve is not None else {}
    extra = getattr(cls, "fingerprint_extra", None)
    out = {
        "class": f"{cls.__module__}:{cls.__qualname__}",
        "source": digest_files((f, f.name) for f in _source_files(cls)),
        "params": _canonical(params),
    }
    if extra is not None:  # what else decides its play (e.g. the files it reads by itself)
        out["extra"] = _canonical(extra())
    return out


def fingerprint(specs: Iterable[StrategySpec]) -> dict[str, Any]:
    """The fingerprint of a study whose lineups hold these strategies."""
    strategies: dict[str, Any] = {}
    for spec in specs:
        strategies.setdefault(spec.label, strategy_fingerprint(spec))
    return {
        "moaisim": package_version(),
        "code": code_digests(),
        "strategies": dict(sorted(strategies.items())),
    }


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What changed between two fingerprints, in words (empty: the same)."""
    out = []
    if old.get("moaisim") != new.get("moaisim"):
        out.append(f"moaisim version {old.get('moaisim')} -> {new.get('moaisim')}")
    old_code, new_code = old.get("code", {}), new.get("code", {})
    for part in sorted(set(old_code) | set(new_code)):
        if old_code.get(part) != new_code.get(part):
            out.append(f"the {part} source")
    old_s, new_s = old.get("strategies", {}), new.get("strategies", {})
    for label in sorted(set(old_s) | set(new_s)):
        a, b = old_s.get(label), new_s.get(label)
        if a is None or b is None:
            continue  # a strategy of another lineup: the study identity tells
        if a.get("class") != b.get("class"):
            out.append(f"strategy {label!r}: class {a.get('class')} -> {b.get('class')}")
        if a.get("source") != b.get("source"):
            out.append(f"strategy {label!r}: its source")
        if a.get("params") != b.get("params"):
            out.append(f"strategy {label!r}: its parameters ({_changed(a['params'], b['params'])})")
        if a.get("extra") != b.get("extra"):
            out.append(f"strategy {label!r}: the files it reads")
    return out


def _changed(a: Any, b: Any) -> str:
    """The parameters that differ, shortly: 'moai_height 7 -> 8'."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return "changed"
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    parts = []
    for k in keys:
        x, y = a.get(k), b.get(k)
        if isinstance(x, dict | list) or isinstance(y, dict | list):
            parts.append(f"{k} changed")
        else:
            parts.append(f"{k} {json.dumps(x)} -> {json.dumps(y)}")
    return ", ".join(parts) or "changed"
