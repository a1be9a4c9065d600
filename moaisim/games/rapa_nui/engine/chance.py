"""Rapa Nui's chance purposes (docs/rapa-nui-rules.md, R1.6): the game has no chance after the
deal, so it names one purpose, the deck's shuffle. `moaisim.rng` is the mechanism (a purpose is
the number of its sub-stream) and names no game's purposes."""

from __future__ import annotations

from enum import IntEnum


class Chance(IntEnum):
    """Rapa Nui's chance purposes, each the number of its sub-stream (`Streams.chance`). The
    numbers are the streams: changing one changes every game."""

    DEAL = 0  # R1.6: the deck's shuffle (one key per card)
