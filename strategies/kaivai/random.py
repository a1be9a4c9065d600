"""`random`: Kaivai's uniform play (skill level L0), the floor base class's own decisions."""

from __future__ import annotations

from moaisim.games.kaivai.engine.forward import Strategy


class RandomStrategy(Strategy):
    """Takes a uniformly random option at every decision (one draw of its stream)."""

    name = "random"
