"""What Kaivai's results measure, for the toolkit's tables (docs/kaivai-rules.md, R10): the
parts a seat's glory splits into, the per-seat measures a strategies table averages and the
per-game metrics the paired comparison of set-ups reports.

Each part of the glory is a results column, as the engine scored it (`engine.results.PARTS`):
the measures read those columns as played, so whatever rule option or parameter a game was
played under, its parts add up to its glory and no parameter is read (`MEASURE_PARAMETERS`
is empty). Piracy's part is the glory paid for sinkings, a negative number (R8.4.3).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from moaisim.games import tables
from moaisim.games.base import MeasuresInfo
from moaisim.games.kaivai.words import SCORE_PARTS as SCORE_PARTS

#: The results column of each part of the glory (`SCORE_PARTS`, the headline part first).
PART_COLUMNS: dict[str, str] = {
    "feasts": "feast_points",
    "huts": "hut_points",
    "sites": "site_points",
    "piracy": "piracy_points",
}
#: The per-seat measures a strategies table averages besides the glory, as (label, short
#: word): the feasts celebrated (the headline part's count), then each part's points.
SEAT_MEASURES: dict[str, tuple[str, str]] = {
    "celebrations": ("feasts celebrated", "feasts"),
    "feast_points": ("glory of feasts", "feast glory"),
    "hut_points": ("glory of huts at the end", "huts"),
    "site_points": ("glory of cult sites won", "sites"),
    "piracy_points": ("glory paid for sinkings", "piracy"),
}
#: The seat measures that add up to the glory (in `SCORE_PARTS` order), and those a report's
#: strategies table and a versus table show.
SCORE_MEASURES: tuple[str, ...] = tuple(PART_COLUMNS.values())
SHOWN_MEASURES: tuple[str, ...] = ("celebrations", "feast_points", "hut_points", "site_points",
                                   "piracy_points")  # fmt: skip
#: The results columns these read (besides the glory) and the rule parameters (none).
MEASURE_COLUMNS: tuple[str, ...] = ("celebrations", *PART_COLUMNS.values())
MEASURE_PARAMETERS: tuple[str, ...] = ()
#: The results columns a balance search's block sums keep besides the glory and the feasts'
#: points: the feasts celebrated and the huts built.
BLOCK_COLUMNS: tuple[str, ...] = ("celebrations", "huts")

#: The per-game metrics of the paired comparison: the feasts a seat celebrates, and the
#: share of a game's glory that feasts gave (R8.6.2); (how a sentence names it, the unit of
#: an effect, its equivalence margin or None: a share's). A tenth of a feast per seat is
#: about a glory of a celebrant's third and its hut owners' fish.
FEASTS_PER_SEAT = "feasts per seat"
FEAST_SHARE = "feasts' share of the glory"
GAME_METRICS: dict[str, tuple[str, str, float | None]] = {
    FEASTS_PER_SEAT: ("the feasts a seat celebrates", "feasts", 0.1),
    FEAST_SHARE: ("the feasts' share of the glory", "percentage points of all glory", None),
}


def score_parts(results: pd.DataFrame) -> pd.DataFrame:
    """Each result row's points from each part of the glory (`SCORE_PARTS`), as floats: the
    results columns R10's parts were recorded in, so they add up to the glory."""
    return tables.float_columns(results, PART_COLUMNS)


def seat_measures(results: pd.DataFrame) -> pd.DataFrame:
    """Each result row's `SEAT_MEASURES`, as floats."""
    return tables.float_columns(results, {name: name for name in SEAT_MEASURES})


def game_metrics(results: pd.DataFrame, by: Sequence[str] = ("cell", "game")) -> pd.DataFrame:
    """Per game (the rows with the same `by` values): the `GAME_METRICS` (a game where nobody
    scored has no feasts' share)."""
    g = results.groupby(list(by), observed=True)
    total = g["score"].sum()
    return pd.DataFrame(
        {
            FEASTS_PER_SEAT: g["celebrations"].mean().astype(float),
            FEAST_SHARE: g["feast_points"].sum() / total.where(total > 0),
        }
    )


#: The measures as the toolkit reads them (`GameSpec.MEASURES`).
MEASURES = MeasuresInfo(score_parts, SEAT_MEASURES, seat_measures, SCORE_MEASURES, SHOWN_MEASURES,
                        MEASURE_COLUMNS, MEASURE_PARAMETERS, BLOCK_COLUMNS, GAME_METRICS,
                        game_metrics)  # fmt: skip
