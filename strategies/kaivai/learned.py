"""`learned`: Kaivai's ranker learned from search (expert iteration, `moaisim learn --game
kaivai --mode ranker`; docs/kaivai.md, "A learned ranker"), the toolkit's `Ranker` on
Kaivai's kernels (`moaisim.games.kaivai.engine.learned`).

At each decision its experts (strategies of the heuristic family: `tuned`, L3's members, the
plans) each propose the option their weights value most, and boosted trees value every
distinct proposal from the seat's context and the proposal's own features (`RANK`); the best
valued is played. It plays compiled, like every built-in, and draws nothing.

`model` names a shipped model file (strategies/kaivai/weights/, by its name alone) or any
model file by its path (the toolkit's format, `moaisim.learned_model`; mode "ranker", its
candidates the experts' proposals).
"""

from __future__ import annotations

from typing import ClassVar

from moaisim.engine.ranker import FORMAT, Ranker
from moaisim.games.kaivai.engine.answers import ranked_candidates
from moaisim.games.kaivai.engine.forward import Strategy
from moaisim.games.kaivai.engine.learned import CONTEXT, RANK
from moaisim.strategies.kaivai.heuristic import weights_path

__all__ = ["FORMAT", "LearnedStrategy"]


class LearnedStrategy(Ranker, Strategy):
    """A ranker: its experts propose, boosted trees value each proposal, the best is played
    (model=...)."""

    name = "learned"  # set on the class itself: the registry names a class by its own
    game = "kaivai"
    CONTEXT: ClassVar[tuple[str, ...]] = CONTEXT
    RANK: ClassVar[tuple[str, ...]] = RANK
    PLAYERS: ClassVar[tuple[int, int]] = (3, 4)
    weights_path = staticmethod(weights_path)
    ranked = staticmethod(ranked_candidates)
