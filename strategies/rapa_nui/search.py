"""Rapa Nui's `search` (skill level L4): the toolkit's look-ahead by determinized rollouts
(`moaisim.engine.search`) on Rapa Nui's forward model. Its worlds draw the draw
pile's order and the rivals' face-down sacrifice types (R10); every decision kind is searched;
a rollout plays on to the end of the game (Rapa Nui has no rounds to stop at, R8), itself by
`rollout`, by default the strongest shipped field below search at the player count (`auto`:
L3, compiled, so thousands of rollouts cost little), and the rivals by `opponents`, by
default `OPPONENTS`; the candidates are the rollout policy's answer and its proposers'
(`PROPOSERS`), cut by successive halving over `worlds`, and a decision where they all agree
is not searched.

Until 2026-12-05 the rollouts and the opponent model were the default `heuristic`, weaker
than L3, and search lost to L3 at 2 players; now it beats L3 at 2 to 4 players and, on the
same games, is no weaker than the search of before against L3 or `tuned` (stronger in five
of the six pairings, level against L3 at 4 players), for less CPU (docs/rapa-nui.md,
"Look-ahead search").
"""

from __future__ import annotations

from typing import Any, ClassVar

from moaisim.engine.search import PARAMS, Search
from moaisim.strategies.rapa_nui.base import Strategy

#: The default proposers: the library pool's strategies but the heuristic (2026-12-05: with
#: them and L3 rollouts, search beats L3 at 2-4 players for less CPU than every legal action
#: tried over `heuristic` rollouts; every legal action over L3 rollouts is stronger still,
#: for about twice the CPU: docs/rapa-nui.md).
PROPOSERS = "tuned,greedy,builder,priest,lumberjack,sacrificer"
#: The default opponent model: each rival, in each rollout game, the heuristic or `tuned`,
#: half and half (2026-12-05: modelling the rivals as L3 wins more against L3 but loses to the
#: search of before against `tuned` at 4 players; this mixture is no weaker than the search of
#: before against either field at 2-4 players, docs/rapa-nui.md).
OPPONENTS = "mixture(weights={'heuristic': 0.5, 'tuned': 0.5})"


class SearchStrategy(Search, Strategy):
    """Tries candidate actions in sampled worlds, plays them out (rollout=...), takes the best
    mean share of the win (worlds=...)."""

    name = "search"

    game = "rapa-nui"
    params: ClassVar[dict[str, Any]] = {**PARAMS, "worlds": 16, "horizon": -1,
                                        "candidates": 256, "propose": PROPOSERS,
                                        "opponents": OPPONENTS}  # fmt: skip
    by_policy = Search._decide
