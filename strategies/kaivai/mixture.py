"""`mixture` and the meta-game's `dispatch` for Kaivai: the toolkit's (`moaisim.engine.mixture`:
the draw, the play, `components`, `drawn`) over Kaivai's strategies. When every component has a
compiled form, the seat is a `Choice` of their families, weights and forbid bits, which the
machine plays game by game (`batch.Batch.lineup`).

`mixture(weights={'greedy': 0.5, 'builder': 0.5})`, or a TOML file given as `weights=` or
`file=` (a `[mixture]` table of `"strategy spec" = probability` lines, and `players`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.engine import mixture
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import compiled_family
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.forward import Strategy


class PerGame(mixture.PerGame, Strategy):
    """Kaivai's seat that plays one strategy per game: a component's compiled form is its
    machine family and weights."""

    game, kinds = "kaivai", Kind

    def component_form(self, inst: Any, rules: Any) -> tuple[int, np.ndarray, int] | None:
        """(family, weights, forbid bits) of a component the machine plays
        (`compiled_family`); None for one asked through views."""
        form = compiled_family(inst, rules)
        return None if form[0] == m.PAUSE else form


class MixtureStrategy(mixture.Mixture, PerGame):
    """Plays, game by game, a strategy drawn from a mixture (weights= or file=)."""

    name = "mixture"


class DispatchStrategy(mixture.Dispatch, PerGame):
    """The meta-game's seat: in game r of its batch it plays `specs[table[r]]`."""

    name = "dispatch"
