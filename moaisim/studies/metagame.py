"""Playing a meta-game: every composition of a library of strategies at one player count, on
the same deals (docs/running.md, "The meta-game of a library"), into the payoff table
(`MetaGame`) that every solver of `moaisim.analysis.metagame` takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from moaisim.analysis.metagame import MetaGame, compositions
from moaisim.errors import UserError
from moaisim.registry import load_strategy
from moaisim.runner import check_jobs, make_study, run_in_memory


def play(
    library: Sequence[Any], players: int, games: int, seed: int = 0, n_jobs: int = 1,
    variants: str | Sequence[str] | None = None, progress: Any = None,
) -> MetaGame:  # fmt: skip
    """Play every composition of the library at `players` for games 0..games-1 of `seed`
    (the same deals in every composition, seats in cyclic rotation)."""
    specs = [load_strategy(s) for s in library]
    names = [s.label for s in specs]
    if len(set(names)) != len(names):
        raise UserError(f"the library names a strategy twice: {', '.join(names)}")
    if len(specs) < 2:
        raise UserError("a meta-game needs at least two strategies in its library")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise UserError(f"players must be from 2 to 5, got {players!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise UserError(f"games must be a positive whole number, got {games!r}")
    check_jobs(n_jobs)
    counts = compositions(len(specs), players)
    lineups = [[specs[i] for i in range(len(specs)) for _ in range(c[i])] for c in counts]
    study = make_study(players, games, {players: lineups}, variants, seed, rotation="cyclic")
    if len(study.cells) != len(counts):
        raise UserError("metagame: give one variant (the compositions are the study's cells)")
    results, _ = run_in_memory(study, n_jobs=n_jobs, progress=progress)
    per_game = np.full((len(counts), games, len(specs)), np.nan)
    carved = np.full((len(counts), len(specs)), np.nan)  # Moai per copy and game
    for cell, part in results.groupby("cell", observed=True):
        c = int(cell)
        part = part.sort_values(["game", "seat"])
        win = part["win"].to_numpy().reshape(games, players)
        share = win / win.sum(axis=1, keepdims=True)
        who = part["strategy"].to_numpy().reshape(games, players)
        moai = part["moai_count"].to_numpy().reshape(games, players)
        for i, name in enumerate(names):
            if counts[c, i]:
                mask = who == name
                per_game[c, :, i] = (share * mask).sum(axis=1) / mask.sum(axis=1)
                carved[c, i] = float(moai[mask].mean())
    return MetaGame(players, names, counts, per_game, seed,
                    {"games": games, "variants": variants, "library": list(names),
                     "carved": carved})  # fmt: skip
