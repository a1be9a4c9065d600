"""`BatchGame`: B seeded games played in lockstep, round by round (R2, R8)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from moaisim.engine.batch.birdman import birdman_phase
from moaisim.engine.batch.core import BatchCore
from moaisim.engine.batch.epoch import epoch_phase
from moaisim.engine.batch.production import production_phase
from moaisim.engine.batch.review import review_phase
from moaisim.engine.batch.work import work_phase
from moaisim.engine.results import COLUMNS, frame, provenance, ranks
from moaisim.engine.state import COUNTERS
from moaisim.rules.codes import CAMP, ZONES, score

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
    "seat": "the seat (0 held the bird-man at the start)",
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


class BatchGame(BatchCore):
    """Plays games `games` of root seed `seed` together; `play()` runs them all to the end.

    Games that have ended sit idle while the others finish their rounds. `log` names games
    (indices in the run) whose event logs are kept in `events[game]`, identical to the
    reference engine's. With `rounds=True`, `round_table()` gives a row per game, round and
    seat (`ROUND_COLUMNS`).
    """

    def play(self, rounds: bool = False) -> BatchGame:
        s = self.state
        active = np.arange(self.b)
        self._rounds: list[dict[str, np.ndarray]] = []
        while len(active):  # R2: rounds of five phases until the review of the last round
            if rounds:
                before = {k: s.counters[k][active].copy() for k in ("births", "starved")}
            birdman_phase(self, active)
            epoch_phase(self, active)
            taken = s.held[active].copy() if rounds else None
            work_phase(self, active)
            production_phase(self, active)
            review_phase(self, active)
            if rounds:
                self._record_round(active, taken, before)
            ended = s.last_round[active]
            if self.log_mask is not None:
                done = active[ended]
                scores = self.scores()
                for i in self.logged(done):
                    r = done[i]
                    self.emit(r, "end", scores=scores[r].tolist(), rounds=int(s.round[r]))
            active = active[~ended]
        return self

    def _record_round(
        self, active: np.ndarray, taken: np.ndarray, before: dict[str, np.ndarray]
    ) -> None:
        s, lay, p = self.state, self.rules.layout, self.rules.players
        loc = s.loc[active]
        zones = lay.zones(loc)
        heights = (self._tiles_held()[active] * self.tile_heights).sum(axis=2)
        living = (loc >= CAMP).sum(axis=2)
        position = np.argsort(s.order[active], axis=1)  # the position of each seat
        row = {
            "game": np.repeat(self.games[active], p),
            "round": np.repeat(s.round[active], p),
            "seat": np.tile(np.arange(p), len(active)),
            "hill_position": position,
            "birdman": s.birdman[active][:, None] == np.arange(p)[None, :],
            "epoch_card": taken,
            **{z: (zones == k).sum(axis=2) for k, z in enumerate(ZONES)},
            "camp": (loc == CAMP).sum(axis=2),
            "wood": s.wood[active],
            "moai_count": self._tiles_held()[active].sum(axis=2),
            "moai_height": heights,
            "cards": s.hand[active].sum(axis=2),
            "births": s.counters["births"][active] - before["births"],
            "starved": s.counters["starved"][active] - before["starved"],
            "score": score.py_func(
                heights, living, s.wood[active].astype(np.int64), self.rules.components.wood_points
            ),
        }
        self._rounds.append({k: np.asarray(v).reshape(-1) for k, v in row.items()})

    def round_table(self) -> pd.DataFrame:
        """The per-round table (`ROUND_COLUMNS`) of a `play(rounds=True)`, by game, round
        and seat."""
        parts = getattr(self, "_rounds", [])
        cols = {k: np.concatenate([r[k] for r in parts]) if parts else [] for k in ROUND_COLUMNS}
        df = pd.DataFrame(cols).astype(ROUND_DTYPES)
        return df.sort_values(["game", "round", "seat"], kind="stable", ignore_index=True)

    def scores(self) -> np.ndarray:
        """R8.2: Moai height + living pawns (board and camp) + 2 per wood, [B, P]."""
        s = self.state
        living = (s.loc >= CAMP).sum(axis=2)
        points = self.rules.components.wood_points
        return score.py_func(self.moai_heights(), living, s.wood.astype(np.int64), points)

    def moai_heights(self) -> np.ndarray:
        """Total height of each clan's Moai tiles [B, P]."""
        return (self._tiles_held() * self.tile_heights).sum(axis=2)

    def _tiles_held(self) -> np.ndarray:
        """[B, P, T] bool: the clan holds the tile."""
        p = self.rules.players
        return self.state.moai_owner[:, None, :] == np.arange(p)[None, :, None]

    def results(self) -> pd.DataFrame:
        """The per-seat results table (results schema), game by game, seat by seat."""
        s, p, b = self.state, self.rules.players, self.b
        scores = self.scores()
        rk = ranks(scores)
        p_of = np.tile(np.arange(p), b)
        cols: dict[str, object] = {
            "game": np.repeat(self.games, p),
            "seed": np.full(b * p, self.seed, dtype=np.uint64),
            "players": np.full(b * p, p),
            **{k: [v] * (b * p) for k, v in provenance(self.rules).items()},
            "seat": p_of,
            "strategy": [self.names[q] for q in p_of],
            "score": scores.ravel(),
            "moai_height": self.moai_heights().ravel(),
            "moai_count": self._tiles_held().sum(axis=2).ravel(),
            "pawns": (s.loc >= CAMP).sum(axis=2).ravel(),
            "wood": s.wood.ravel(),
            "rank": rk.ravel(),
            "win": (rk == 1).ravel(),
            "rounds": np.repeat(s.round, p),
        }
        for name in COUNTERS:
            cols[name] = s.counters[name].ravel()
        assert set(cols) == set(COLUMNS)
        return frame(cols)  # type: ignore[arg-type]
