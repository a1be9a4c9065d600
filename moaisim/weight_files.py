"""Weights files and the strategies made of them, written once for every game's weight-vector
family: a TOML document's weights read and checked against the family's names; the family
itself (`Family`: its weights, its shipped folder, its tuned files); the heuristic whose every
decision is a weighted valuation (`Heuristic`), the plans that are points of its weight space
(`plan_class`) and `tuned`, the points `moaisim tune` found, one file per player count
(`Tuned`); and the spec a skill level stands for (docs/strategies.md). Each game's strategies
(`strategies/<game>/heuristic.py`, `plans.py`, `tuned.py`, `levels.py`) name their own
weights, folder, compiled form and pool."""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.files import GAME_KEY

#: A weights file named in a spec: `weights='path'`, `weights="path"` or `weights=path`.
WEIGHTS_ARG = re.compile(r"weights=(?:'([^']+)'|\"([^\"]+)\"|([^,)\s]+))")


def named_weights(spec: str) -> list[str]:
    """Every weights file a strategy spec names (`WEIGHTS_ARG`), in order."""
    return [next(g for g in m.groups() if g) for m in WEIGHTS_ARG.finditer(spec)]


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
    cls_name = "".join(part.capitalize() for part in name.replace("_", "-").split("-"))
    cls_name += "Strategy"  # "fisher-seller" -> FisherSellerStrategy, a module attribute
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


@dataclass(frozen=True)
class Family:
    """A weight-vector family: each weight as (name, scale, meaning), the folder of the
    shipped weights files (`label`: how errors name it) and the player counts a tuned file
    may be made for."""

    weights: tuple[tuple[str, float, str], ...]
    folder: Path
    label: str
    counts: Sequence[int]
    _read: dict[str, dict[str, float]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        """The weights' names, in the kernels' order."""
        return tuple(w[0] for w in self.weights)

    @property
    def scales(self) -> np.ndarray:
        """The scale each weight moves in (a tuner's step)."""
        return np.array([w[1] for w in self.weights])

    def path(self, name: str) -> Path:
        """A shipped weights or mixture file: `<folder>/<name>`."""
        return self.folder / name

    def read(self, table: dict[str, Any], source: str) -> dict[str, float]:
        """The weights of a TOML document or table (its `[weights]`, or its top-level numbers),
        each checked to be one of the family's (one line)."""
        return read_weights(table, source, self.names)

    def shipped(self, name: str) -> dict[str, float]:
        """The weights of a shipped file, read once."""
        if name not in self._read:
            self._read[name] = read_weights_file(self.path(name), self.names)
        return dict(self._read[name])

    def defaults(self) -> dict[str, float]:
        """The default weights (`heuristic.toml`), every name."""
        found = self.shipped("heuristic.toml")
        missing = [k for k in self.names if k not in found]
        if missing:
            raise UnknownStrategyError(f"heuristic.toml lacks weights {', '.join(missing)}")
        return found

    def vector(self, weights: dict[str, float]) -> np.ndarray:
        """The weights as the kernels' array, in `names` order (missing names: defaults)."""
        full = {**self.defaults(), **weights}
        return np.array([full[k] for k in self.names], dtype=np.float64)

    def tuned_file(self, players: int) -> str:
        """The tuned weights file a player count plays: its own, else the nearest count's
        that ships one (the larger on a tie)."""
        have = [p for p in self.counts if self.path(f"tuned-{p}p.toml").is_file()]
        if not have:
            raise UnknownStrategyError(f"strategy 'tuned': no tuned-<P>p.toml in {self.label}")
        nearest = min(have, key=lambda p: (abs(p - players), -p))
        return f"tuned-{nearest}p.toml"


def retuned_key(rules: Any) -> str:
    """The name a re-tuned weights file has for the rules it was tuned under: the player count
    and the start of the rules' digest (rule parameters and components included)."""
    return f"{rules.players}p-{rules.digest()[:16]}"


class Heuristic:
    """The weighted heuristic's weights (a mixin: a game's `HeuristicStrategy` is `Heuristic`
    and its `Strategy`, with its `family` and compiled form): `w`, the vector it plays, from
    its `preset` file (or `shipped=`) with `weights=` on top."""

    name = "heuristic"
    family: ClassVar[Family]
    #: The weights file the class starts from (a plan: its own file).
    preset: ClassVar[str] = "heuristic.toml"
    #: weights: a table or a TOML file over the preset's; shipped: the name of a shipped
    #: weights file to start from instead of the preset, so that a shipped mixture file can
    #: name its members' weights from any directory
    params: ClassVar[dict[str, Any]] = {"weights": {}, "shipped": ""}
    weights: dict[str, Any]
    shipped: str

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)  # type: ignore[call-arg]
        given = self.family.read(self.weights, f"strategy {self.name!r}")
        # the game's heuristic itself may start from another shipped file; a subclass (a plan,
        # tuned) plays its own weights
        plan = "" if "family" in type(self).__dict__ else self.name
        base = shipped_base(self.shipped, self.preset, self.family.path(""),
                                         self.family.label, plan)  # fmt: skip
        self.w = self.family.vector({**self.family.shipped(base), **given})


class Tuned(Heuristic):
    """`tuned`: the heuristic with the weights `moaisim tune` found for its player count; with
    `retuned` (a directory), those re-tuned for the very rules it is seated under when the
    directory holds them (`<retuned>/<retuned_key>.toml`), else the shipped ones."""

    name = "tuned"
    params: ClassVar[dict[str, Any]] = {**Heuristic.params, "retuned": ""}
    retuned: str

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._vectors: dict[Any, np.ndarray] = {}

    def check_players(self, players: int) -> None:
        """A player count with no tuned file near it is refused before any game."""
        self.family.tuned_file(players)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """Load the weights tuned for the rules' player count into `w`."""
        self.w = self.tuned(rules)

    def tuned(self, rules: Any) -> np.ndarray:
        """The weights tuned for the rules' player count (or re-tuned for these very rules),
        the given weights on top (read once per rules)."""
        found = self._vectors.get(rules)
        if found is None:
            base = self.family.shipped(self.family.tuned_file(rules.players))
            if self.retuned:
                path = Path(self.retuned) / f"{retuned_key(rules)}.toml"
                if path.is_file():
                    doc = tomllib.loads(path.read_text("utf-8"))
                    base = {**base, **self.family.read(doc, str(path))}
            given = self.family.read(self.weights, f"strategy {self.name!r}")
            found = self._vectors[rules] = self.family.vector({**base, **given})
        return found
