"""Fair tie-breaks for the built-in strategies.

Every built-in strategy takes the best-scored legal action, and when several legal actions
score the same (within a relative 1e-9), it picks one of them uniformly at random with one
value of its seat's stream per game and decision (`SeatView.rng`). It never prefers a lower
seat or action index: in self-play of one symmetric strategy the seats the rules make
exchangeable stay exchangeable. One value per game per decision keeps every game's draws
independent of the games beside it in a batch (docs/design.md, "Seeds and per-game streams").
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled.ties import NEG as NEG
from moaisim.games.moai.engine.compiled.ties import TIE as TIE
from moaisim.games.moai.engine.compiled.ties import pick_best as pick_best
from moaisim.games.moai.engine.compiled.ties import pick_row as pick_row
from moaisim.games.moai.engine.views import SeatView


def tie_values(view: SeatView) -> np.ndarray:
    """One uniform per game of the view from the seat's stream, for `pick_best` [n]."""
    return view.rng.uniform(1)[:, 0]


def best(scores: np.ndarray, view: SeatView, legal: np.ndarray | None = None) -> np.ndarray:
    """The best-scored legal action of each game of `view`, ties broken at random (one draw
    per game from the seat's stream)."""
    legal = view.legal if legal is None else legal
    return pick_best(np.asarray(scores, dtype=np.float64), legal, tie_values(view))
