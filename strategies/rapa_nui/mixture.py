"""`mixture`: each seat plays, game by game, a strategy drawn from a mixture; and the meta-game's
`DispatchStrategy`, which plays, game by game, the strategy a table assigns.

`mixture(weights={'greedy': 0.5, 'priest': 0.5})`, or a TOML file given as `weights=` or
`file=`: a `[mixture]` table of `"strategy spec" = probability` lines beside metadata keys
(`players`: the player count(s) it is meant for, checked when a lineup is read; anything
else kept as it is). Probabilities are at least 0 and sum to 1 within 1e-9.

**The draw.** In each game each seat that plays the mixture draws one component from a
uniform of a stream of its own: a pure function of the key of the seat's stream in that game
(the root seed, the game, the seat) hashed with the purpose tag of `DRAW_SEED`. It reads
neither the game nor the seat's stream, so game i of a root seed draws the same component in
every cell of a study, in both engines, at any batch size. Components are ordered by their
labels before the draw.

**The play.** A game in which a seat drew C is exactly the game with C in that seat: when
every component has a compiled form, the fast machine plays each game's component compiled
(its family and weights, game by game: `compiled_rows`); otherwise each component is asked
about its own games through a view of just those, drawing from the seat's stream where that
component left it in each game.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.rapa_nui.engine.batch import compiled_family
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.mixture_parts import draw_uniforms, sub_view
from moaisim.registry import load_strategy
from moaisim.rng import SeatRandom
from moaisim.strategies.rapa_nui.base import Strategy

#: Largest distance of the probabilities' sum from 1.
TOLERANCE = 1e-9
#: The game these strategies play (the registry's name).
GAME = "rapa-nui"


class PerGame(Strategy):
    """A seat that plays, game by game, one of several strategies (its components, one
    instance each): which one is `assign`'s choice from the seat's stream key in the game."""

    labels: tuple[str, ...]
    instances: list[Any]

    def assign(self, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """[n] the component each game plays: the games' positions in their batch (`rows`)
        and the seat's stream keys in them."""
        raise NotImplementedError

    def _setup(self, specs: Sequence[Any]) -> None:
        self.labels = tuple(s.label for s in specs)
        self.instances = [s() for s in specs]
        self._used: dict[int, np.ndarray] = {}  # component -> {stream key: values drawn}
        self._drawn: dict[int, dict[int, int]] = {k: {} for k in range(len(specs))}

    def check_players(self, players: int) -> None:
        """Each component's own player counts."""
        for inst in self.instances:
            inst.check_players(players)

    def compiled(self, rules: object) -> str | None:
        """ "rows" (each game's component compiled, `compiled_rows`) when every component
        has a compiled form, else None (asked through views)."""
        forms = [inst.compiled(rules) for inst in self.instances]
        return "rows" if all(f is not None for f in forms) else None

    def compiled_rows(self, rules: Any, rows: np.ndarray,
                      keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """The machine's family [n] and weights [n, NW] of each game's component."""
        forms = [compiled_family(inst, rules) for inst in self.instances]
        comp = self.assign(rows, keys)
        family = np.array([f for f, _ in forms], dtype=np.int64)[comp]
        weights = np.stack([w for _, w in forms])[comp]
        return family, weights

    def by_policy(self, view: SeatView) -> np.ndarray:
        """Each component's answers for the games it plays, through a view of just those
        games drawing from the seat's stream where that component left it in each."""
        keys, base = view.rng.keys, view.rng.position
        comp = self.assign(getattr(view, "rows", np.arange(len(view))), keys)
        out = np.zeros(len(view), dtype=np.int64)
        for k in np.unique(comp).tolist():
            rows = np.flatnonzero(comp == k)
            drawn = self._drawn[k]
            used = np.array([drawn.get(int(x), 0) for x in keys[rows]], dtype=np.uint64)
            rng = SeatRandom(keys[rows].copy(), base[rows] + used)
            answer = getattr(self.instances[k], view.kind.value)(sub_view(view, rows, rng))
            out[rows] = np.asarray(answer, dtype=np.int64).reshape(-1)
            for x in keys[rows].tolist():
                drawn[int(x)] = drawn.get(int(x), 0) + rng.drawn
        return out


for _kind in Kind:
    setattr(PerGame, _kind.value, PerGame.by_policy)


class MixtureStrategy(PerGame):
    """Plays, game by game, a strategy drawn from a mixture (weights= or file=)."""

    name = "mixture"
    params: ClassVar[dict[str, Any]] = {"weights": {}, "file": ""}
    weights: dict[str, Any]
    file: str

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        table = self.weights
        if self.file:
            if table:
                raise UnknownStrategyError("strategy 'mixture': give weights= or file=, not both")
            try:
                table = tomllib.loads(Path(self.file).read_text("utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise UnknownStrategyError(f"strategy 'mixture': cannot read {self.file!r} "
                                           f"({exc})") from None  # fmt: skip
        entries = table.get("mixture", table) if isinstance(table, dict) else None
        if not isinstance(entries, dict) or not entries:
            raise UnknownStrategyError("strategy 'mixture': needs a [mixture] table of "
                                       "'strategy spec = probability' lines")  # fmt: skip
        self.players = table.get("players") if "mixture" in table else None
        probs: dict[str, float] = {}
        for spec, p in entries.items():
            if isinstance(p, bool) or not isinstance(p, int | float) or not math.isfinite(p):
                raise UnknownStrategyError(f"strategy 'mixture': the probability of {spec!r} "
                                           f"must be a number, got {p!r}")  # fmt: skip
            if p < 0:
                raise UnknownStrategyError(f"strategy 'mixture': the probability of {spec!r} "
                                           f"is negative ({p})")  # fmt: skip
            if p > 0:
                probs[str(spec)] = float(p)
        if abs(sum(entries.values()) - 1.0) > TOLERANCE:
            raise UnknownStrategyError(f"strategy 'mixture': probabilities sum to "
                                       f"{sum(entries.values())!r}, not 1")  # fmt: skip
        specs = sorted((load_strategy(s, GAME) for s in probs), key=lambda s: s.label)
        self._setup(specs)
        by_label = {load_strategy(s, GAME).label: p for s, p in probs.items()}
        self.cumulative = np.cumsum([by_label[lab] for lab in self.labels])

    def check_players(self, players: int) -> None:
        """The file's `players` (when it names them), then each component's."""
        meant = self.players
        if meant is not None:
            counts = meant if isinstance(meant, list) else [meant]
            if players not in counts:
                raise UnknownStrategyError(f"strategy 'mixture' is meant for {meant} players, "
                                           f"not {players}")  # fmt: skip
        super().check_players(players)

    def assign(self, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The component whose cumulative probability first exceeds the game's uniform."""
        u = draw_uniforms(keys)
        last = len(self.labels) - 1
        return np.minimum(np.searchsorted(self.cumulative, u, side="right"), last)


class DispatchStrategy(PerGame):
    """The meta-game's seat: in the game at position r of its batch it plays
    `specs[table[r]]` (the composition that row stands for)."""

    name = "dispatch"

    def __init__(self, specs: Sequence[Any], table: np.ndarray) -> None:
        super().__init__()
        self._setup(list(specs))
        self.table = np.asarray(table, dtype=np.int64)

    def assign(self, rows: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """The component the table gives each game's position in the batch."""
        return self.table[np.asarray(rows, dtype=np.int64)]
