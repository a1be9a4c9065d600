"""A game's weight-vector family, written once: the heuristic strategy whose every decision is
a weighted valuation (its weights read from TOML files), the plans that are points of its
weight space, and `tuned`, the points `moaisim tune` found, one file per player count
(docs/strategies.md). A game names its weights, its shipped folder and its compiled form; the
reading, the checks and the choice of a file live here (`moaisim.weight_files` reads one).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim import weight_files
from moaisim.errors import UnknownStrategyError


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
        return weight_files.read_weights(table, source, self.names)

    def shipped(self, name: str) -> dict[str, float]:
        """The weights of a shipped file, read once."""
        if name not in self._read:
            self._read[name] = weight_files.read_weights_file(self.path(name), self.names)
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
        base = weight_files.shipped_base(self.shipped, self.preset, self.family.path(""),
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
