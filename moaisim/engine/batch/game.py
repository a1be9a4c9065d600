"""`BatchGame`: B seeded games played by strategies on the batch engine's machine (R2, R8).

The machine (`machine.Machine`) knows where each game stands and what it waits for; the loop
here asks the strategies: each pending decision goes to each deciding seat's strategy once,
through a sealed view over the games where that seat decides (rows with a single legal action
are applied without asking, as in the reference engine), and the answers are checked with
array operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from moaisim.engine.answers import BadAnswer, answer, failure
from moaisim.engine.batch.machine import ROUND_COLUMNS, ROUND_DTYPES, Machine, Pending
from moaisim.engine.batch.state import BatchState
from moaisim.engine.decisions import Kind
from moaisim.engine.results import COLUMNS, frame, provenance, ranks
from moaisim.engine.state import COUNTERS
from moaisim.engine.steps import Step
from moaisim.engine.views import check_reads, make_view, parts_for, start_strategies
from moaisim.rng import Streams
from moaisim.rules import Rules
from moaisim.rules.codes import CAMP, N_CARD_TYPES

__all__ = ["ROUND_COLUMNS", "ROUND_DTYPES", "BatchGame"]


class BatchGame(Machine):
    """Plays games `games` of root seed `seed` together; `play()` runs them all to the end.

    Games that have ended sit idle while the others finish their rounds. `log` names games
    (indices in the run) whose event logs are kept in `events[game]`, identical to the
    reference engine's. With `rounds=True`, `round_table()` gives a row per game, round and
    seat (`ROUND_COLUMNS`).
    """

    def __init__(
        self,
        rules: Rules,
        strategies: Sequence[Any],
        seed: int,
        games: Sequence[int] | np.ndarray,
        names: Sequence[str] | None = None,
        log: Sequence[int] | None = None,
        state: BatchState | None = None,
        streams: Streams | None = None,
    ) -> None:
        if len(strategies) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} strategies")
        self.strategies = list(strategies)
        self.names = list(names) if names else [type(s).__name__ for s in strategies]
        super().__init__(rules, seed, games, log, state, streams)
        self.methods = {k: [getattr(s, k.value) for s in self.strategies] for k in Kind}
        for strategy, name in zip(self.strategies, self.names, strict=True):
            check_reads(strategy, name)
        #: the parts of a game each seat's views of each kind copy (views.parts_for)
        self.parts = {k: [parts_for(s, k) for s in self.strategies] for k in Kind}
        self.asked = 0  # decisions put to strategies (game-decisions, forced ones excluded)
        self.decided = 0  # all decisions, forced ones included
        start_strategies(self.strategies, rules, self.games, self.names, self.seed)

    def play(self, rounds: bool = False) -> BatchGame:
        """R2: every game to its end (R8): the machine runs what needs no decision, the
        strategies answer what it waits for (`Machine.run`)."""
        self.keep_rounds = rounds
        self.run(self.decide)
        return self

    def decide(self, pend: Pending) -> np.ndarray:
        """The action of each entry of a pending group (`ask`). Sealed bids (R3.3) are asked
        seat by seat, as the reference engine asks them."""
        if pend.step != Step.BID or self.rules.open_bidding:
            return self.ask(pend.kind, pend.seat, pend.rows, pend.legal, **pend.info)
        out = np.zeros((len(pend), N_CARD_TYPES), dtype=np.int16)
        for q in range(self.rules.players):
            sel = np.flatnonzero(pend.seat == q)
            out[sel] = self.ask(pend.kind, q, pend.rows[sel], pend.legal[sel])
        return out

    def ask(
        self,
        kind: Kind,
        seat: np.ndarray | int,
        rows: np.ndarray,
        legal: np.ndarray,
        **info: np.ndarray,
    ) -> np.ndarray:
        """One decision of `kind` in each game of `rows`, by `seat` ([n] or one seat for all).

        legal: [n, A] bool masks (for BID: the [n, 6] hand counts that bound the bid).
        info: arrays [n, ...] shown to the strategy as `view.info`.
        Returns the actions: [n] ints, or [n, 6] card counts for BID.
        """
        n = len(rows)
        if kind is Kind.BID:
            forced = ~legal.any(axis=1)
            action = np.zeros((n, N_CARD_TYPES), dtype=np.int16)
        else:
            forced, action = single_legal(legal)
        self.decided += n
        if not forced.all():
            for q, sel in self._groups(seat, forced):
                action[sel] = self._ask_seat(kind, q, rows[sel], legal[sel], info, sel)
        if self.log_mask is not None:
            seats = np.broadcast_to(seat, (n,))
            for i in self.logged(rows):
                a = action[i]
                self.emit(
                    rows[i],
                    "decision",
                    seat=int(seats[i]),
                    kind=kind.value,
                    action=[int(x) for x in a] if kind is Kind.BID else int(a),
                    forced=bool(forced[i]),
                )
        return action

    def _groups(
        self, seat: np.ndarray | int, forced: np.ndarray
    ) -> list[tuple[int, slice | np.ndarray]]:
        """The rows each seat is asked about (forced rows left out), as (seat, selection).

        Rows sorted by seat (as pending groups are) give slices, so the views see the
        engine's arrays without copies.
        """
        p = self.rules.players
        if isinstance(seat, int | np.integer):
            return [(int(seat), np.flatnonzero(~forced) if forced.any() else slice(None))]
        if len(seat) > 1 and (seat[1:] >= seat[:-1]).all():
            bounds = np.searchsorted(seat, np.arange(p + 1)).tolist()
            out: list[tuple[int, slice | np.ndarray]] = []
            for q in range(p):
                a, b = bounds[q], bounds[q + 1]
                if a < b:
                    f = forced[a:b]
                    if not f.any():
                        out.append((q, slice(a, b)))
                    elif not f.all():
                        out.append((q, a + np.flatnonzero(~f)))
            return out
        groups = [(q, np.flatnonzero((seat == q) & ~forced)) for q in range(p)]
        return [(q, sel) for q, sel in groups if len(sel)]

    def _ask_seat(
        self,
        kind: Kind,
        seat: int,
        rows: np.ndarray,
        legal: np.ndarray,
        info: dict[str, np.ndarray],
        sel: np.ndarray | slice,
    ) -> np.ndarray:
        """Ask `seat`'s strategy about the games `rows` through a sealed view (copies only),
        check its answer, and move its random stream on by what it drew."""
        self.asked += len(rows)
        rng = self.streams.seat(seat, rows)
        info = {k: v[sel] for k, v in info.items()}
        games = self.games[rows]
        s, parts = self.state, self.parts[kind][seat]
        cursor = s.cursor_records(rows) if "cursor" in parts else None
        view = make_view(kind, seat, self.rules, parts, s.public, s.secrets(), rows, games,
                         legal, rng, info, cursor)  # fmt: skip
        try:
            actions = answer(self.methods[kind][seat], view, kind, legal)
        except BadAnswer as bad:
            raise failure(bad, self.names[seat], kind, games, self.seed, seat) from bad.raised
        self.streams.advance(seat, rows, rng)
        return actions

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


@njit(cache=True, nogil=True)
def single_legal(legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a legal mask: (exactly one action is legal, the first legal action or 0)."""
    n, size = legal.shape
    forced = np.zeros(n, dtype=np.bool_)
    first = np.zeros(n, dtype=np.int64)
    for r in range(n):
        count = 0
        for a in range(size):
            if legal[r, a]:
                if count == 0:
                    first[r] = a
                count += 1
                if count > 1:
                    break
        forced[r] = count == 1
    return forced, first
