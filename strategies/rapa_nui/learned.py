"""`learned`: Rapa Nui's ranker learned from search (expert iteration, `moaisim learn --game
rapa-nui --mode ranker`; docs/rapa-nui.md, "A learned ranker"), the toolkit's `Ranker` on
Rapa Nui's kernels.

At each decision its experts (strategies of the heuristic family: `tuned`, L3's members, the
plans, `greedy`) each propose their best action, and boosted trees value every distinct
proposal from the seat's context and the proposal's own features (`engine.learned.RANK`);
the best valued is played. It plays compiled, like every built-in, and draws nothing.

`model` names a shipped model file (strategies/rapa_nui/weights/, by its name alone) or any
model file by its path (the toolkit's format, `moaisim.learned_model`; mode "ranker").
"""

from __future__ import annotations

from typing import ClassVar

from moaisim import learned_model
from moaisim.engine.ranker import FORMAT, Ranker
from moaisim.games.rapa_nui.engine.answers import ranked_candidates
from moaisim.games.rapa_nui.engine.learned import CONTEXT, RANK
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.heuristic import weights_path

__all__ = ["FORMAT", "LearnedStrategy"]


class LearnedStrategy(Ranker, Strategy):
    """A ranker: its experts propose, boosted trees value each proposal, the best is played
    (model=...)."""

    name = "learned"  # set on the class itself: the registry names a class by its own
    game = "rapa-nui"
    CONTEXT: ClassVar[tuple[str, ...]] = CONTEXT
    RANK: ClassVar[tuple[str, ...]] = RANK
    #: Its candidates: its experts' distinct proposals, or those and every other legal action.
    CANDIDATES: ClassVar[tuple[str, ...]] = learned_model.CANDIDATES
    PLAYERS: ClassVar[tuple[int, int]] = (2, 4)
    weights_path = staticmethod(weights_path)
    ranked = staticmethod(ranked_candidates)
