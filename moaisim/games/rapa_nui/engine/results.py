"""Rapa Nui's per-seat results table (docs/rapa-nui-rules.md, R9; docs/design.md, "Results
schema"): one row per seat of each game, its provenance (the rules it was played under), its
score and the score's parts, and what the seat did."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.files import GAME_COLUMN
from moaisim.games import tables
from moaisim.games.base import ResultsInfo
from moaisim.games.rapa_nui.rules.codes import HG, LUMBERJACK, MOAI, PRIEST
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.games.rapa_nui.rules.options import OPTIONS
from moaisim.games.rapa_nui.rules.parameters import PARAMETERS
from moaisim.games.rapa_nui.rules.scoring import PARTS  # R9.1: the score's parts, in order

#: The rules each row was played under (as Moai's: its variant, each rule option, the digest
#: of the whole set-up, its label, the component set's name, each rule parameter's value).
PROVENANCE: tuple[str, ...] = (
    "variant", *OPTIONS, "rules_digest", "setup", "components", *PARAMETERS,
)  # fmt: skip
#: What each seat did (its village at the end, its turns, its purchases...).
DEEDS: tuple[str, ...] = (
    "moai", "priests", "lumberjacks", "hunter_gatherers", "wood", "stock", "face_down",
    "bought", "gained", "discarded", "turns",
)  # fmt: skip
#: The columns; `game_name` (`GAME_COLUMN`) names every row's game (`frame` writes it).
COLUMNS: tuple[str, ...] = (
    "game", GAME_COLUMN, "seed", "players", *PROVENANCE, "seat", "strategy", "score", *PARTS,
    *DEEDS, "rank", "win", "win_share", "game_turns", "rounds",
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
    **{name: "int32" for name in PARTS},
    **{name: "int16" for name in DEEDS},
    "rank": "int8",
    "win": "bool",
    "win_share": "float64",
    "game_turns": "int16",
    "rounds": "int16",
    **{name: "int16" for name in PARAMETERS},
}
#: What each column holds (docs/rapa-nui-rules.md; `moaisim schema --game rapa-nui`).
MEANING: dict[str, str] = {
    "glory": "glory taken during the game (R7.3, R7.4, R7.6)",
    "moai_points": "glory of the Moai in the village at the end (R9.1)",
    "wood_points": "glory of the wood left, one per full wood_per_glory (R9.1)",
    "stock_points": "glory of the sacrifice cards left in the stock (R9.2)",
    "moai": "Moai in the village at the end",
    "priests": "priests in the village",
    "lumberjacks": "lumberjacks in the village (the start card included)",
    "hunter_gatherers": "H&G in the village, all types",
    "wood": "wood left",
    "stock": "sacrifice cards left in the stock",
    "face_down": "sacrifice cards the seat put face down on the stone (R5.2)",
    "bought": "sacrifice cards bought (R3)",
    "gained": "sacrifice cards taken at evaluations (R7.5, R7.6)",
    "discarded": "cards discarded from a stuck hand (R4.3)",
    "turns": "turns the seat played",
    "rank": "1 + the seats with a strictly higher score (R9.4)",
    "win": "the seat shares the win (R9.4, winner_tie)",
    "win_share": "1/k for each of the k seats sharing the win, else 0",
    "game_turns": "turns played in the game, all seats",
    "rounds": "rounds of turns begun in the game (each seat's turn once, from seat 0; R8.3)",
}
#: The per-round table: one row per game, round of turns (R8.3: each seat's turn once, from
#: seat 0) and seat, as the round ends (and as the game ends, in a round begun).
ROUND_COLUMNS: dict[str, str] = {
    "game": "game index in the run",
    "round": "the round of turns, from 1",
    "seat": "the seat (seat 0 plays first)",
    "score": "the seat's score if the game ended now (R9.1; the stone's face-down cards "
             "counted, R9.2)",
    "moai": "Moai in the seat's village",
    "glory": "glory taken so far",
    "wood": "wood held",
    "stock": "sacrifice cards in the stock",
}  # fmt: skip
#: The round table's measures, in the machine's order (`machine.record_round`).
TRACKED: tuple[str, ...] = ("score", "moai", "glory", "wood", "stock")
ROUND_DTYPES: dict[str, str] = {
    "game": "int64", "round": "int16", "seat": "int8", "score": "int32", "moai": "int16",
    "glory": "int32", "wood": "int16", "stock": "int16",
}  # fmt: skip


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


def rounds_of(turns: Any, players: int) -> Any:
    """The rounds of turns begun after `turns` turns (a number or an array)."""
    return -(-turns // players)


def ranks_and_shares(scores: Sequence[int], wood: Sequence[int],
                     winner_tie: str) -> tuple[list[int], list[float]]:  # fmt: skip
    """R9.4: each seat's rank (1 + the seats ranked strictly above it: by score, and under
    `most_wood` by wood among equal scores) and its share of the win (1/k for the k seats
    ranked first)."""
    keys = [(s, w if winner_tie == "most_wood" else 0) for s, w in zip(scores, wood, strict=True)]
    rank = [1 + sum(other > mine for other in keys) for mine in keys]
    first = rank.count(1)
    return rank, [1.0 / first if r == 1 else 0.0 for r in rank]


def ranked(scores: np.ndarray, wood: np.ndarray, winner_tie: str) -> tuple[np.ndarray, np.ndarray]:
    """`ranks_and_shares` of many games at once ([B, P] scores and wood): R9.4's ranks [B, P]
    and shares of the win [B, P], computed on arrays (the batch engine's results and a
    search's rollouts read thousands of games at a time)."""
    scores = np.asarray(scores, dtype=np.int64)
    tie = np.asarray(wood, dtype=np.int64) if winner_tie == "most_wood" else np.zeros_like(scores)
    above = (scores[:, None, :] > scores[:, :, None]) | (
        (scores[:, None, :] == scores[:, :, None]) & (tie[:, None, :] > tie[:, :, None])
    )  # [B, mine, other]: other ranked strictly above mine
    rank = 1 + above.sum(axis=2)
    first = (rank == 1).sum(axis=1, keepdims=True)
    return rank, np.where(rank == 1, 1.0 / first, 0.0)


def seat_rows(game: Any, seed: int, index: int, strategies: Sequence[str]) -> dict[str, list]:
    """The result columns of one finished reference game (`ReferenceGame`), one entry per
    seat."""
    rules, t, p = game.rules, game.t, game.rules.players
    parts = game.parts()
    scores = [sum(parts[k][q] for k in PARTS) for q in range(p)]
    rank, share = ranks_and_shares(scores, t.wood, rules.winner_tie)
    cols: dict[str, list] = {
        "game": [index] * p,
        "seed": [seed] * p,
        "players": [p] * p,
        **{k: [v] * p for k, v in provenance(rules).items()},
        "seat": list(range(p)),
        "strategy": list(strategies),
        "score": scores,
        **{k: list(parts[k]) for k in PARTS},
        "moai": [v[MOAI] for v in t.village],
        "priests": [v[PRIEST] for v in t.village],
        "lumberjacks": [v[LUMBERJACK] for v in t.village],
        "hunter_gatherers": [sum(v[HG:]) for v in t.village],
        "wood": list(t.wood),
        "stock": [sum(s) for s in t.stock],
        "face_down": [sum(d) for d in t.down],
        "bought": [sum(b) for b in t.bought],
        "gained": [sum(x) for x in t.gained],
        "discarded": [sum(d) for d in t.discarded],
        "turns": list(t.turns),
        "rank": rank,
        "win": [r == 1 for r in rank],
        "win_share": share,
        "game_turns": [t.turn] * p,
        "rounds": [rounds_of(t.turn, p)] * p,
    }
    return cols


def frame(columns: Mapping[str, Any]) -> pd.DataFrame:
    """A results DataFrame in the schema's column order and types, from one value per column
    (`tables.frame`: a sequence with one entry per row, or a scalar every row shares). Every
    row names its game."""
    return tables.frame(columns, game=Rules.game, order=COLUMNS, categories=CATEGORIES,
                        dtypes=DTYPES)  # fmt: skip


#: The results tables as the toolkit reads them (`GameSpec.RESULTS`).
RESULTS = ResultsInfo(COLUMNS, DTYPES, CATEGORIES, ROUND_COLUMNS, ROUND_DTYPES, frame, seat_rows)
