"""What Rapa Nui's results measure, for the toolkit's tables (docs/rapa-nui-rules.md, R9.1):
the parts a seat's score splits into, the per-seat measures a strategies table averages and
the per-game metrics the paired comparison of set-ups reports.

R9.1 adds a score up from four parts, and the engine records each as a results column
(`engine.results.PARTS`: glory, moai_points, wood_points, stock_points) as it scored it. The
measures read those columns as played rather than work them out again from the rule
parameters (`moai_glory`, `wood_per_glory`, the R9.2 values of the stock): whatever rule
option or parameter a game was played under, its parts are what it scored, and a run's
results read without their parameter columns need nothing added (`MEASURE_PARAMETERS` is
empty).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from moaisim.games import tables
from moaisim.games.base import MeasuresInfo
from moaisim.games.rapa_nui.words import SCORE_PARTS as SCORE_PARTS

#: `SCORE_PARTS`, the parts a seat's score splits into (R9.1), headline part first: the
#: glory of the Moai
#: in the village at the end (`moai_glory` each), the glory taken during the game at
#: evaluations (R7.3, R7.4, R7.6), the glory of the wood left (one per full `wood_per_glory`)
#: and the glory of the sacrifice cards left in the stock (R9.2). The Moai lead because they
#: are what the game is about and what a designer asks about first (B2: is a Moai priced
#: right?); the others follow R9.1's order. A Moai's income at evaluations (R7.4) is glory
#: taken during the game: the results do not tell it from a priest's.
#:
#: The results column of each part (`engine.results.PARTS`, R9.1).
PART_COLUMNS: dict[str, str] = {
    "Moai": "moai_points",
    "glory": "glory",
    "wood": "wood_points",
    "stock": "stock_points",
}
#: The per-seat measures a strategies table averages besides the score, as (label, short
#: word): the Moai in the village at the end (the headline part's count, `headline_column`),
#: then the points from each part of the score (R9.1), each named as its results column.
SEAT_MEASURES: dict[str, tuple[str, str]] = {
    "moai": ("Moai in the village", "Moai"),
    "moai_points": ("points for Moai", "Moai points"),
    "glory": ("glory taken in play", "glory"),
    "wood_points": ("points for wood", "wood"),
    "stock_points": ("points for the stock", "stock"),
}
#: The seat measures that add up to the score (in `SCORE_PARTS` order), and those a report's
#: strategies table and a versus table show (the Moai count stands for the Moai's points:
#: `moai_glory` each).
SCORE_MEASURES: tuple[str, ...] = ("moai_points", "glory", "wood_points", "stock_points")
SHOWN_MEASURES: tuple[str, ...] = ("moai", "glory", "wood_points", "stock_points")
#: The results columns these read (besides the score), and the rule parameters they read:
#: none, since every part is a results column (the module's docstring says why).
MEASURE_COLUMNS: tuple[str, ...] = ("moai", *PART_COLUMNS.values())
MEASURE_PARAMETERS: tuple[str, ...] = ()
#: The results columns a balance search's block sums keep besides the score and the points
#: from Moai (its cache of measured blocks, `blocks.jsonl`): the Moai built (B2) and the wood
#: left (B5: does the wood economy run away?).
BLOCK_COLUMNS: tuple[str, ...] = ("moai", "wood")

#: The per-game metrics of the paired comparison: the mean number of Moai a seat has in its
#: village at the end, and the share of all points of a game that the Moai scored at the end
#: (R9.1); each as (how a sentence names it, the unit of an effect on it, its default
#: equivalence margin or None: a share's). A tenth of a Moai per seat is worth 0.4 glory at
#: the end (4 per Moai, R9.1), about the mean score's own margin.
MOAI_PER_SEAT = "Moai per seat"
MOAI_SHARE = "Moai's share of the points"
GAME_METRICS: dict[str, tuple[str, str, float | None]] = {
    MOAI_PER_SEAT: ("the Moai a seat builds", "Moai", 0.1),
    MOAI_SHARE: ("the Moai's share of the points", "percentage points of all points scored",
                 None),
}  # fmt: skip


def score_parts(results: pd.DataFrame) -> pd.DataFrame:
    """Each result row's points from each part of the score (`SCORE_PARTS`), as floats: the
    results columns R9.1's parts were recorded in, so they add up to the score."""
    return tables.float_columns(results, PART_COLUMNS)


def seat_measures(results: pd.DataFrame) -> pd.DataFrame:
    """Each result row's `SEAT_MEASURES`, as floats."""
    return tables.float_columns(results, {name: name for name in SEAT_MEASURES})


def game_metrics(results: pd.DataFrame, by: Sequence[str] = ("cell", "game")) -> pd.DataFrame:
    """Per game (the rows with the same `by` values): the `GAME_METRICS` (a game where nobody
    scored has no Moai's share: nothing to share)."""
    g = results.groupby(list(by), observed=True)
    total = g["score"].sum()
    return pd.DataFrame(
        {
            MOAI_PER_SEAT: g["moai"].mean().astype(float),
            MOAI_SHARE: g["moai_points"].sum() / total.where(total > 0),
        }
    )


#: The measures as the toolkit reads them (`GameSpec.MEASURES`).
MEASURES = MeasuresInfo(score_parts, SEAT_MEASURES, seat_measures, SCORE_MEASURES, SHOWN_MEASURES,
                        MEASURE_COLUMNS, MEASURE_PARAMETERS, BLOCK_COLUMNS, GAME_METRICS,
                        game_metrics)  # fmt: skip
