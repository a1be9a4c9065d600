"""Kaivai's per-seat results table (docs/kaivai-rules.md, R10; docs/design.md, "Results
schema"): one row per seat of each game, the rules it was played under, its glory and the
glory's parts, and what the seat had at the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.files import GAME_COLUMN
from moaisim.games import tables
from moaisim.games.base import ResultsInfo
from moaisim.games.kaivai.rules.model import Rules
from moaisim.games.kaivai.rules.options import OPTIONS
from moaisim.games.kaivai.rules.parameters import PARAMETERS

#: The glory's parts (R10.1): the results column of each, in the reference engine's order
#: (`reference.PARTS`: feasts, huts, sites, piracy).
PARTS: tuple[str, ...] = ("feast_points", "hut_points", "site_points", "piracy_points")
#: The rules each row was played under: the variant, each rule option, the digest of the
#: whole set-up, its label, the component set's name, each rule parameter's value.
PROVENANCE: tuple[str, ...] = (
    "variant", *OPTIONS, "rules_digest", "setup", "components", *PARAMETERS,
)  # fmt: skip
#: What each seat had at the end: R10.5's tie-breaks in order, and its feasts.
DEEDS: tuple[str, ...] = ("money", "fish", "boats_on_board", "huts", "celebrations")
#: The columns; `game_name` (`GAME_COLUMN`) names every row's game (`frame` writes it).
COLUMNS: tuple[str, ...] = (
    "game", GAME_COLUMN, "seed", "players", *PROVENANCE, "seat", "strategy", "score", *PARTS,
    *DEEDS, "rank", "win", "win_share", "decisions",
)  # fmt: skip
#: `rounds`, a rule parameter (R2.1), is also the game's length: every game plays them all.
assert len(set(COLUMNS)) == len(COLUMNS)
#: Columns stored as pandas categoricals.
CATEGORIES: tuple[str, ...] = (
    GAME_COLUMN, *(c for c in PROVENANCE if c not in PARAMETERS), "strategy",
)  # fmt: skip
DTYPES: dict[str, str] = {
    "game": "int64", "seed": "uint64", "players": "int8", "seat": "int8", "score": "int32",
    **{name: "int32" for name in PARTS}, **{name: "int16" for name in DEEDS}, "rank": "int8",
    "win": "bool", "win_share": "float64", "decisions": "int32",
    **{name: "int16" for name in PARAMETERS},
}  # fmt: skip
#: What each column holds (`moaisim schema --game kaivai`).
MEANING: dict[str, str] = {
    "feast_points": "glory of feasts in play: each hut owner's fish eaten, and the celebrant's "
    "1 for every 3 fish of its feasts (R8.6.2)",
    "hut_points": "glory of the huts on the board at the end, 2 each (R10.1)",
    "site_points": "glory of the cult sites of the islands won at the end (R10.4)",
    "piracy_points": "glory lost to sinkings, as a negative number (R8.4.3, piracy_pays)",
    "money": "the shells' worth at the end (R10.5's first tie-break)",
    "fish": "fish held at the end",
    "boats_on_board": "boats on the board at the end",
    "huts": "huts built (the cult sites not counted)",
    "celebrations": "feasts the seat celebrated (R8.6)",
    "rank": "1 + the seats ahead by glory, then money, fish, boats on the board, huts (R10.5)",
    "win": "the seat is among the winners (R10.5: tied on every tie-break, several are)",
    "win_share": "1/k for each of the k winners, else 0",
    "rounds": "rounds played (R2.1): the rule parameter, every game's length",
    "decisions": "decisions taken in the game, all seats (section D)",
}  # fmt: skip
#: The per-round table: one row per game, round and seat, as the round's decay ends it.
ROUND_COLUMNS: dict[str, str] = {
    "game": "game index in the run",
    "round": "the round, from 1",
    "seat": "the seat",
    "score": "the seat's glory so far",
    "money": "the shells' worth",
    "fish": "fish held",
    "huts": "huts built",
    "celebrations": "feasts celebrated so far",
}
#: The round table's measures, in the machine's order (`machine.record_round`).
TRACKED: tuple[str, ...] = ("score", "money", "fish", "huts", "celebrations")
ROUND_DTYPES: dict[str, str] = {
    "game": "int64", "round": "int16", "seat": "int8", "score": "int32", "money": "int16",
    "fish": "int16", "huts": "int16", "celebrations": "int16",
}  # fmt: skip


def provenance(rules: Rules) -> dict[str, str | int]:
    """The provenance columns' values for games played under `rules`."""
    return {"variant": rules.variant, **rules.options(), "rules_digest": rules.digest(),
            "setup": rules.setup, "components": rules.components.name,
            **rules.params()}  # fmt: skip


def ranked(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """R10.5 over many games: `keys` [B, P, K] (glory, money, fish, boats, huts), compared in
    that order; each seat's rank [B, P] (1 + the seats strictly ahead) and share of the win
    [B, P] (1/k for the k seats ranked first)."""
    keys = np.asarray(keys, dtype=np.int64)
    ahead = np.zeros(keys.shape[:2] + keys.shape[1:2], dtype=bool)  # [B, mine, other]
    tied = np.ones_like(ahead)
    for k in range(keys.shape[2]):
        mine, other = keys[:, :, None, k], keys[:, None, :, k]
        ahead |= tied & (other > mine)
        tied &= other == mine
    rank = 1 + ahead.sum(axis=2)
    first = (rank == 1).sum(axis=1, keepdims=True)
    return rank, np.where(rank == 1, 1.0 / first, 0.0)


def seat_rows(game: Any, seed: int, index: int, strategies: Sequence[str]) -> dict[str, list]:
    """The result columns of one finished reference game (`reference.Game`), one entry per
    seat."""
    rules, p = game.rules, game.rules.players
    seats = game.seats
    built = [sum(1 for x in game.board.land.values() if x.owner == s and x.kind != "site")
             for s in range(p)]  # fmt: skip
    boats = [game.boats_on_board(s) for s in range(p)]
    keys = np.array([[[x.glory, x.money, len(x.fish), boats[s], built[s]]
                      for s, x in enumerate(seats)]])  # fmt: skip
    rank, share = ranked(keys)
    parts = {
        column: [x.parts[k] for x in seats]
        for column, k in zip(PARTS, ("feasts", "huts", "sites", "piracy"), strict=True)
    }
    return {
        "game": [index] * p, "seed": [seed] * p, "players": [p] * p,
        **{k: [v] * p for k, v in provenance(rules).items()},
        "seat": list(range(p)), "strategy": list(strategies),
        "score": [x.glory for x in seats], **parts,
        "money": [x.money for x in seats], "fish": [len(x.fish) for x in seats],
        "boats_on_board": boats, "huts": built,
        "celebrations": [x.celebrations for x in seats],
        "rank": rank[0].tolist(), "win": (rank[0] == 1).tolist(), "win_share": share[0].tolist(),
        "decisions": [game.decisions] * p,
    }  # fmt: skip


def frame(columns: Mapping[str, Any]) -> pd.DataFrame:
    """A results DataFrame in the schema's column order and types, from one value per column
    (`tables.frame`: a sequence with one entry per row, or a scalar every row shares). Every
    row names its game."""
    return tables.frame(columns, game=Rules.game, order=COLUMNS, categories=CATEGORIES,
                        dtypes=DTYPES)  # fmt: skip


#: The results tables as the toolkit reads them (`GameSpec.RESULTS`).
RESULTS = ResultsInfo(COLUMNS, DTYPES, CATEGORIES, ROUND_COLUMNS, ROUND_DTYPES, frame, seat_rows)
