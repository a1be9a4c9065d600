"""Balance analysis of simulated games: tables (pandas), figures (matplotlib) and reports.
This package only reads results; what plays games is `moaisim.studies`.

The tables take a run directory (`moaisim simulate --out`), a `Source` or a results DataFrame
and read it block by block, so a run of any size fits in memory; every rate comes with its
interval and its n (docs/design.md, "Analysis").
"""

from moaisim.analysis.report import make_report
from moaisim.analysis.source import Source
from moaisim.analysis.tables import (
    compute,
    game_quality,
    game_shape,
    head_to_head,
    ratings,
    seat_balance,
    seat_imbalance,
    seat_lead,
    strategies,
    variants,
)

__all__ = [
    "Source",
    "compute",
    "game_quality",
    "game_shape",
    "head_to_head",
    "make_report",
    "ratings",
    "seat_balance",
    "seat_imbalance",
    "seat_lead",
    "strategies",
    "variants",
]
