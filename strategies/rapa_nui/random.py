"""`random`: Rapa Nui's uniform play (skill level L0), the base class's own decisions."""

from __future__ import annotations

from moaisim.strategies.rapa_nui.base import Strategy


class RandomStrategy(Strategy):
    """Takes a uniformly random legal action at every decision (one draw of its stream)."""

    name = "random"
