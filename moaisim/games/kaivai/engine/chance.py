"""Kaivai's chance purposes (docs/kaivai-rules.md, section D "Chance"): each draw on a
sub-stream of its own, read at fixed positions, so that a rule option that changes one part
of the game never moves the chance of another (the same extra sites and round-1 order under
every fishing variant; the k-th fishing step's dice at the same positions whatever came
before)."""

from __future__ import annotations

from enum import IntEnum


class Chance(IntEnum):
    """Kaivai's chance purposes, each the number of its sub-stream (`Streams.chance`)."""

    EXTRA_SITES = 0  # R1.2: value k draws the k-th extra site (or pair, O1)
    ORDER = 1  # R1.7: the round-1 bidding order, one value per seat
    DICE = 2  # R8.2.2: the k-th fishing step reads values 4k .. 4k + 3, die i at 4k + i
    HIDDEN = 3  # a determinized world's unseen parts (`worlds`): seat t's influence at t,
    # its secret island bid at P + t


#: Values of the DICE stream a fishing step owns (one per die, at most 4 dice).
DICE_PER_STEP = 4
