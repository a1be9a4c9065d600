"""Weights files and the strategies made of them, for every game's weight-vector family: a
TOML document's weights read and checked against the family's names, a plan strategy made
from its shipped file, and the spec a skill level stands for. Each game's strategies
(`strategies/<game>/heuristic.py`, `plans.py`, `levels.py`) name their own family, folder and
pool; the reading is written once here."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from moaisim.errors import UnknownStrategyError
from moaisim.files import GAME_KEY


def read_weights(table: dict[str, Any], source: str, names: Sequence[str]) -> dict[str, float]:
    """The weights of a TOML document or table: its `[weights]` table if it has one, else its
    top-level numbers (other tables, such as `[tuned]`, are notes, and so is the game the
    file names, `GAME_KEY`: its strategy's registry checks it). A name not in `names` or a
    value that is not a finite number is an error (one clear line)."""
    if "weights" in table and isinstance(table["weights"], dict):
        table = table["weights"]
    out: dict[str, float] = {}
    for key, value in table.items():
        if isinstance(value, dict) or (key == GAME_KEY and isinstance(value, str)):
            continue
        if key not in names:
            raise UnknownStrategyError(f"{source}: unknown weight {key!r} (weights: "
                                       f"{', '.join(names)})")  # fmt: skip
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UnknownStrategyError(f"{source}: weight {key} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise UnknownStrategyError(f"{source}: weight {key} must be finite, got {value!r}")
        out[key] = float(value)
    return out


def read_weights_file(path: Path, names: Sequence[str]) -> dict[str, float]:
    """The weights of a weights file (`read_weights`); an unreadable file is one line."""
    try:
        doc = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UnknownStrategyError(f"weights file {str(path)!r}: {exc.strerror}") from None
    return read_weights(doc, str(path), names)


def shipped_base(name: str, preset: str, folder: Path, label: str, plan: str = "") -> str:
    """The shipped weights file a heuristic starts from: its `shipped=` parameter `name`
    (a file of `folder`, by its name alone, so that a shipped mixture file can name its
    members from any directory), else the class's `preset`. `label` names the folder in
    errors (one line each); `plan`: the strategy's name when it is a plan, which plays its own
    file (shipped= is refused for it)."""
    if not name:
        return preset
    if plan:
        raise UnknownStrategyError(f"strategy {plan!r}: shipped= is heuristic's parameter (it "
                                   "plays its own weights file)")  # fmt: skip
    if "/" in name or "\\" in name or not name.endswith(".toml") or name.startswith("nash-"):
        raise UnknownStrategyError(f"strategy 'heuristic': shipped= names a weights file of "
                                   f"{label} by its name, got {name!r}")  # fmt: skip
    if not (folder / name).is_file():
        raise UnknownStrategyError(f"strategy 'heuristic': no shipped weights file {name!r} "
                                   f"among {label}")  # fmt: skip
    return name


def plan_class(name: str, base: type, path: Path, module: str) -> type:
    """The strategy class of the plan whose weights file is `path`: a subclass of `base` (the
    game's weight-vector family) named `name`, playing that file (`preset`), its docstring the
    file's `[plan]` summary."""
    try:
        doc = tomllib.loads(path.read_text("utf-8"))
        summary = doc["plan"]["summary"]
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise UnknownStrategyError(f"plan {name!r}: {path} has no [plan] summary ({exc})") from None
    cls_name = f"{name.capitalize()}Strategy"
    return type(cls_name, (base,), {"name": name, "preset": path.name, "__doc__": summary,
                                    "__module__": module, "__qualname__": cls_name})  # fmt: skip


def level_spec(level: str, players: int, levels: Sequence[str], pool: Sequence[str],
               nash: Path, made_by: str) -> str:  # fmt: skip
    """The strategy spec that plays a field of skill `level` at `players` players: L0 random
    play, L1 greedy, L2 the library `pool` (each seat draws one of it per game), L3 the
    meta-game's Nash mixture (`nash`, the game's shipped `nash-<P>p.toml`; `made_by` the
    command that makes one), L4 search."""
    if level not in levels:
        raise UnknownStrategyError(f"unknown skill level {level!r} (levels: {', '.join(levels)})")
    if level == "L0":
        return "random"
    if level == "L1":
        return "greedy"
    if level == "L4":
        return "search"
    if level == "L2":
        share = 1.0 / len(pool)
        return "mixture(weights={" + ", ".join(f"'{s}': {share!r}" for s in pool) + "})"
    if not nash.is_file():
        raise UnknownStrategyError(
            f"skill level L3 has no Nash mixture for {players} players (no {nash.name} among "
            f"the shipped weights; make one with {made_by})"
        )
    return f"mixture(file={nash})"
