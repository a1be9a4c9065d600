"""Kaivai's `greedy` on the engine floor: the compiled greedy policy (`machine.greedy`, the
words of `plain.PlainGreedy`) answering a seat's view (`answers.compiled_answers`), exactly as
a compiled greedy seat plays: deliver, fish, build, a feast where its own fish are the most,
the movement bonus up to 2, else pass; the longest reach when bidding; on an island the least
bid that beats every rival it can see."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.answers import compiled_answers
from moaisim.games.kaivai.engine.forward import Strategy
from moaisim.games.kaivai.engine.views import SeatView


class GreedyStrategy(Strategy):
    """Fixed preferences, one decision at a time (the compiled policy `greedy`)."""

    name = "greedy"
    form: ClassVar[str] = "greedy"

    def by_policy(self, view: SeatView) -> np.ndarray:
        return compiled_answers(view, m.GREEDY)
