"""Rapa Nui's `search` (skill level L4): the toolkit's look-ahead by determinized rollouts
(`moaisim.engine.search`) on Rapa Nui's forward model. Its worlds draw the draw
pile's order and the rivals' face-down sacrifice types (R10); every decision kind is searched;
a rollout plays on to the end of the game (Rapa Nui has no rounds to stop at, R8), every seat
by `rollout` (compiled, so thousands of rollouts cost little); the candidates are the rollout
policy's answer and other legal actions drawn at random, up to `candidates` (all of them by
default), cut by successive halving over `worlds`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from moaisim.engine.search import PARAMS, Search
from moaisim.strategies.rapa_nui.base import Strategy


class SearchStrategy(Search, Strategy):
    """Tries candidate actions in sampled worlds, plays them out (rollout=...), takes the best
    mean share of the win (worlds=...)."""

    name = "search"

    game = "rapa-nui"
    params: ClassVar[dict[str, Any]] = {**PARAMS, "worlds": 16, "rollout": "heuristic",
                                        "opponents": "heuristic", "horizon": -1,
                                        "candidates": 256}  # fmt: skip
    by_policy = Search._decide
