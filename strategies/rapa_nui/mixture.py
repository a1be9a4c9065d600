"""`mixture` and the meta-game's `dispatch` for Rapa Nui: the toolkit's
(`moaisim.engine.mixture`: the draw, the play, `components`, `drawn`) over Rapa Nui's
strategies. When every component has a compiled form, the seat is a `Choice` of their
families, weights and forbid bits, which the fast machine plays game by game (`batch.lineup`).

`mixture(weights={'greedy': 0.5, 'priest': 0.5})`, or a TOML file given as `weights=` or
`file=` (a `[mixture]` table of `"strategy spec" = probability` lines, and `players`).
"""

from __future__ import annotations

from typing import Any

from moaisim.engine import mixture
from moaisim.games.rapa_nui.engine import machine as m
from moaisim.games.rapa_nui.engine.batch import compiled_family
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.strategies.rapa_nui.base import Strategy


class PerGame(mixture.PerGame, Strategy):
    """Rapa Nui's seat that plays one strategy per game: a component's compiled form is its
    machine family, weights and forbid bits."""

    game, kinds = "rapa-nui", Kind

    def component_form(self, inst: Any, rules: Any) -> tuple[int, Any, int] | None:
        """(family, weights, bits) of a component the machine plays (`compiled_family`);
        None for one asked through views."""
        form = compiled_family(inst, rules)
        return None if form[0] == m.PAUSE else form


class MixtureStrategy(mixture.Mixture, PerGame):
    """Plays, game by game, a strategy drawn from a mixture (weights= or file=)."""

    name = "mixture"


class DispatchStrategy(mixture.Dispatch, PerGame):
    """The meta-game's seat: in game r of its batch it plays `specs[table[r]]`."""

    name = "dispatch"
