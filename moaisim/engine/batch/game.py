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
from moaisim.rules.codes import CAMP, score


class BatchGame(BatchCore):
    """Plays games `games` of root seed `seed` together; `play()` runs them all to the end.

    Games that have ended sit idle while the others finish their rounds. `log` names games
    (indices in the run) whose event logs are kept in `events[game]`, identical to the
    reference engine's.
    """

    def play(self) -> BatchGame:
        s = self.state
        active = np.arange(self.b)
        while len(active):  # R2: rounds of five phases until the review of the last round
            birdman_phase(self, active)
            epoch_phase(self, active)
            work_phase(self, active)
            production_phase(self, active)
            review_phase(self, active)
            ended = s.last_round[active]
            if self.log_mask is not None:
                done = active[ended]
                scores = self.scores()
                for i in self.logged(done):
                    r = done[i]
                    self.emit(r, "end", scores=scores[r].tolist(), rounds=int(s.round[r]))
            active = active[~ended]
        return self

    def scores(self) -> np.ndarray:
        """R8.2: Moai height + living pawns (board and camp) + 2 per wood, [B, P]."""
        s = self.state
        living = (s.loc >= CAMP).sum(axis=2)
        return score.py_func(self.moai_heights(), living, s.wood.astype(np.int64))

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
