"""The work phase's derived counts of a batch (R5), kept up to date as pawns are placed."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class WorkCounts(NamedTuple):
    """Derived counts of a batch's games during their work phase (row r = game r)."""

    camp: np.ndarray  # [B, P, 3] camp pawns per clan and strength
    camp_total: np.ndarray  # [B] camp pawns of every clan
    free_fields: np.ndarray  # [B] fields with no pawn and no disaster token (R5.5)
    used: np.ndarray  # [B, P, V] bool: own volcano spaces in use
    built: np.ndarray  # [B, P, K] bool: built boats
    manned: np.ndarray  # [B, P, K] bool: a pawn stands on the boat
