"""What Moai's results measure, for the toolkit's tables (R8.2): the parts a seat's score
splits into, the per-seat measures a strategies table averages and the per-game metrics the
paired comparison of set-ups reports."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from moaisim.games.base import MeasuresInfo
from moaisim.games.moai.rules.parameters import LATER
from moaisim.games.moai.words import (
    SCORE_PARTS as SCORE_PARTS,  # statues (Moai height x `moai_points`),
)

# living pawns, points from wood

#: The per-seat measures a strategies table averages besides the score, as (label, short
#: word): Moai height, living pawns, points for the Moai (the statues' part), points for wood.
SEAT_MEASURES: dict[str, tuple[str, str]] = {
    "moai_height": ("Moai height (m)", "Moai"),
    "pawns": ("living pawns", "pawns"),
    "moai_score": ("points for Moai", "statues"),
    "wood_score": ("points for wood", "wood"),
}
#: The seat measures that add up to the score (in `SCORE_PARTS` order), and those a report's
#: strategies table and a versus table show.
SCORE_MEASURES: tuple[str, ...] = ("moai_score", "pawns", "wood_score")
SHOWN_MEASURES: tuple[str, ...] = ("moai_height", "pawns", "wood_score")
#: The results columns these read, and the rule parameters they read (a run's results parts
#: are read without the parameter columns: the toolkit adds them from its cells).
MEASURE_COLUMNS: tuple[str, ...] = ("moai_height", "pawns", "wood")
MEASURE_PARAMETERS: tuple[str, ...] = ("moai_points",)
#: The results columns a balance search's block sums keep besides the score and the points
#: from statues (its cache of measured blocks, `blocks.jsonl`): the wood left.
BLOCK_COLUMNS: tuple[str, ...] = ("wood",)

#: The per-game metrics of the paired comparison: the mean Moai height a seat carved (m) and
#: the share of all points of a game that statues scored; each as (how a sentence names it,
#: the unit of an effect on it, its default equivalence margin or None).
HEIGHT = "Moai height per seat (m)"
STATUE_SHARE = "statues' share of the points"
GAME_METRICS: dict[str, tuple[str, str, float | None]] = {
    HEIGHT: ("the Moai height a seat carves", "metres", 0.25),
    STATUE_SHARE: ("the statues' share of the points", "percentage points of all points scored",
                   None),
}  # fmt: skip


def _per_metre(results: pd.DataFrame) -> np.ndarray:
    """Each row's points per metre of Moai height (the `moai_points` parameter; the
    rulebook's where the table does not say: results recorded before it existed)."""
    default = float(LATER["moai_points"])
    if "moai_points" not in results:
        return np.full(len(results), default)
    return results["moai_points"].astype(float).fillna(default).to_numpy()


def score_parts(results: pd.DataFrame) -> pd.DataFrame:
    """Each result row's points from each part of the score (`SCORE_PARTS`), as floats."""
    statues = results["moai_height"].to_numpy(dtype=float) * _per_metre(results)
    pawns = results["pawns"].to_numpy(dtype=float)
    wood = results["score"].to_numpy(dtype=float) - statues - pawns
    return pd.DataFrame({"statues": statues, "pawns": pawns, "wood": wood}, index=results.index)


def seat_measures(results: pd.DataFrame) -> pd.DataFrame:
    """Each result row's `SEAT_MEASURES`, as floats."""
    parts = score_parts(results)
    return pd.DataFrame(
        {
            "moai_height": results["moai_height"].to_numpy(dtype=float),
            "pawns": parts["pawns"].to_numpy(),
            "moai_score": parts["statues"].to_numpy(),
            "wood_score": parts["wood"].to_numpy(),
        },
        index=results.index,
    )


def game_metrics(results: pd.DataFrame, by: Sequence[str] = ("cell", "game")) -> pd.DataFrame:
    """Per game (the rows with the same `by` values): the `GAME_METRICS` (a game where
    nobody scored has no statues' share: nothing to share)."""
    statues = results["moai_height"].to_numpy(dtype=float) * _per_metre(results)
    g = results.assign(_statues=statues).groupby(list(by), observed=True)
    total = g["score"].sum()
    return pd.DataFrame(
        {
            HEIGHT: g["moai_height"].mean(),
            STATUE_SHARE: g["_statues"].sum() / total.where(total > 0),
        }
    )


#: The measures as the toolkit reads them (`GameSpec.MEASURES`).
MEASURES = MeasuresInfo(score_parts, SEAT_MEASURES, seat_measures, SCORE_MEASURES, SHOWN_MEASURES,
                        MEASURE_COLUMNS, MEASURE_PARAMETERS, BLOCK_COLUMNS, GAME_METRICS,
                        game_metrics)  # fmt: skip
