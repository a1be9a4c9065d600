"""The per-seat results table (docs/design.md, "Results schema")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.files import GAME_COLUMN
from moaisim.games import tables
from moaisim.games.base import ResultsInfo
from moaisim.games.moai.engine.state import COUNTERS, State
from moaisim.games.moai.rules import OPTIONS, Rules
from moaisim.games.moai.rules.parameters import LATER, PARAMETERS

#: The rules each row was played under: its variant, each rule option, the digest of the
#: whole set-up (component file included), the set-up's label (every difference from the
#: base game: `Rules.setup`), the component set's name and each rule parameter's value, so
#: that tables of different runs concatenate.
PROVENANCE: tuple[str, ...] = (
    "variant", *OPTIONS, "rules_digest", "setup", "components", *PARAMETERS,
)  # fmt: skip
#: The columns; `game_name` (`GAME_COLUMN`) names every row's game (`frame` writes it).
COLUMNS: tuple[str, ...] = (
    "game", GAME_COLUMN, "seed", "players", *PROVENANCE, "seat", "strategy", "score",
    "moai_height", "moai_count", "pawns", "wood", "rank", "win", "win_share", "rounds",
    *COUNTERS,
)  # fmt: skip
#: Columns stored as pandas categoricals.
CATEGORIES: tuple[str, ...] = (
    GAME_COLUMN, *(c for c in PROVENANCE if c not in PARAMETERS), "strategy",
)  # fmt: skip

DTYPES: dict[str, str] = {
    "game": "int64",
    "seed": "uint64",
    "players": "int8",
    "seat": "int8",
    "score": "int32",
    "moai_height": "int32",
    "moai_count": "int16",
    "pawns": "int8",
    "wood": "int16",
    "rank": "int8",
    "win": "bool",
    "win_share": "float64",
    "rounds": "int16",
    **{name: "int16" for name in COUNTERS},
    **{name: "int16" for name in PARAMETERS},
}


#: The per-round table's column types.
ROUND_DTYPES = {
    "game": "int64", "round": "int16", "seat": "int8", "hill_position": "int8",
    "birdman": "bool", "epoch_card": "int16", "forest": "int8", "fields": "int8",
    "volcano": "int8", "ocean": "int8", "camp": "int8", "wood": "int16",
    "moai_count": "int16", "moai_height": "int32", "cards": "int16", "births": "int16",
    "starved": "int16", "score": "int32",
}  # fmt: skip

#: The per-round table: one row per game, round and seat, as each round's review ends.
ROUND_COLUMNS: dict[str, str] = {
    "game": "game index in the run",
    "round": "the round, from 1",
    "seat": "the seat (seat 0 holds the bird-man token before round 1)",
    "hill_position": "the seat's position in this round's hill order (0 = bird-man)",
    "birdman": "the seat was this round's bird-man",
    "epoch_card": "id of the epoch card the seat took this round (-1: none)",
    "forest": "pawns in the forest after the round",
    "fields": "pawns in the fields",
    "volcano": "pawns on the volcano",
    "ocean": "pawns on boats",
    "camp": "pawns in camp",
    "wood": "wood held",
    "moai_count": "Moai tiles held",
    "moai_height": "their total height",
    "cards": "Rapa Nui cards in hand",
    "births": "births this round",
    "starved": "pawns starved this round",
    "score": "the score if the game ended after this round (R8.2)",
}


def ranks(scores: np.ndarray) -> np.ndarray:
    """R8.2: rank 1 = best; tied scores share a rank (1 + number of strictly better seats)."""
    scores = np.asarray(scores)
    return 1 + (scores[..., None, :] > scores[..., :, None]).sum(axis=-1)


def win_shares(rk: np.ndarray) -> np.ndarray:
    """R8.2's shared victory as a share: 1/k to each of the k seats tied for first (rank 1),
    0 to the others, so that a game's shares sum to 1 (ranks: [..., seats])."""
    first = np.asarray(rk) == 1
    return first / first.sum(axis=-1, keepdims=True)


def statue_points(results: pd.DataFrame) -> pd.Series:
    """Each result row's points from statues (R8.2: Moai height times the `moai_points`
    parameter; a table without that column, made before it existed, scores 1 per metre)."""
    points = results.get("moai_points", LATER["moai_points"])
    return results["moai_height"].astype(float) * np.asarray(points, dtype=float)


def seat_rows(state: State, seed: int, game: int, strategies: Sequence[str]) -> dict[str, list]:
    """The result columns of one finished game, as lists (one entry per seat)."""
    rules, p = state.rules, state.rules.players
    heights = np.asarray(rules.components.moai_heights)
    scores = np.array([state.score(q) for q in range(p)])
    rk = ranks(scores)
    cols: dict[str, list] = {
        "game": [game] * p,
        "seed": [seed] * p,
        "players": [p] * p,
        **{k: [v] * p for k, v in provenance(rules).items()},
        "seat": list(range(p)),
        "strategy": list(strategies),
        "score": scores.tolist(),
        "moai_height": [int(heights[state.moai_owner == q].sum()) for q in range(p)],
        "moai_count": [int((state.moai_owner == q).sum()) for q in range(p)],
        "pawns": [int((state.loc[q] >= -1).sum()) for q in range(p)],
        "wood": state.wood.tolist(),
        "rank": rk.tolist(),
        "win": (rk == 1).tolist(),
        "win_share": win_shares(rk).tolist(),
        "rounds": [state.round] * p,
    }
    for name in COUNTERS:
        cols[name] = state.counters[name].tolist()
    return cols


def provenance(rules: Rules) -> dict[str, str | int]:
    """The provenance columns' values for games played under `rules`."""
    return {
        "variant": rules.variant,
        **rules.options(),
        "rules_digest": rules.digest(),
        "setup": rules.setup,
        "components": rules.components.name,
        **rules.params(),
    }


def frame(columns: Mapping[str, Any]) -> pd.DataFrame:
    """A results DataFrame in the schema's column order and types, from one value per column
    (`tables.frame`: a sequence with one entry per row, or a scalar every row shares). Every
    row names its game."""
    return tables.frame(columns, game=Rules.game, order=COLUMNS, categories=CATEGORIES,
                        dtypes=DTYPES)  # fmt: skip


#: The results tables as the toolkit reads them (`GameSpec.RESULTS`).
RESULTS = ResultsInfo(COLUMNS, DTYPES, CATEGORIES, ROUND_COLUMNS, ROUND_DTYPES, frame, seat_rows)
