"""The batch engine's plumbing: asking strategies for a whole batch at once, and the log.

`BatchGame.ask` takes one decision for many games: rows with a single legal action are
applied without asking (as in the reference engine); the others are grouped by deciding seat,
and each seat's strategy is called once with a `SeatView` over its games. Answers are checked
against the masks with array operations. The event log is kept only for the games asked for
(`log=`); when none is asked for, logging costs one `is None` test per logging point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from moaisim.engine.answers import BadAnswer, answer, failure
from moaisim.engine.batch.state import BatchState
from moaisim.engine.decisions import Kind, action_size, feed_codec, work_codec
from moaisim.engine.events import Event, EventMaker
from moaisim.engine.views import check_reads, make_view, parts_for, start_strategies
from moaisim.rng import Streams
from moaisim.rules import Rules
from moaisim.rules.codes import N_CARD_TYPES


class BatchCore:
    """State, streams, strategies and the ask/log machinery shared by the phase modules."""

    def __init__(
        self,
        rules: Rules,
        strategies: Sequence[Any],
        seed: int,
        games: Sequence[int] | np.ndarray,
        names: Sequence[str] | None = None,
        log: Sequence[int] | None = None,
        state: BatchState | None = None,
    ) -> None:
        if len(strategies) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} strategies")
        self.rules, self.seed = rules, int(seed)
        self.games = np.asarray(games, dtype=np.int64)
        self.b = len(self.games)
        self.strategies = list(strategies)
        self.names = list(names) if names else [type(s).__name__ for s in strategies]
        self.methods = {k: [getattr(s, k.value) for s in self.strategies] for k in Kind}
        for strategy, name in zip(self.strategies, self.names, strict=True):
            check_reads(strategy, name)
        #: the parts of a game each seat's views of each kind copy (views.parts_for)
        self.parts = {k: [parts_for(s, k) for s in self.strategies] for k in Kind}
        self.sizes = {k: action_size(rules, k) for k in Kind}
        self.cards = rules.components.epoch_cards
        self.work_codec = work_codec(rules)
        self.feed_codec = feed_codec(rules)
        self.tile_heights = np.asarray(rules.components.moai_heights, dtype=np.int64)
        self.streams = Streams(self.seed, self.games, rules.players)
        self.asked = 0  # decisions put to strategies (game-decisions, forced ones excluded)
        self.decided = 0  # all decisions, forced ones included
        # log: games (indices in the run) whose event log is kept
        self.log_mask: np.ndarray | None = None
        self.events: dict[int, list[Event]] = {}
        self.make_event = EventMaker(rules)
        if len(np.unique(self.games)) != self.b:
            raise ValueError("the games of a batch must be distinct")
        if log is not None and len(log):
            wanted = set(int(g) for g in log)
            self.log_mask = np.array([g in wanted for g in self.games.tolist()], dtype=bool)
            self.events = {int(g): [] for g in self.games[self.log_mask]}
        start_strategies(self.strategies, rules, self.games, self.names, self.seed)
        if state is not None:  # a position set up by hand (scenario tests): no setup event
            self.state = state
            return
        self.state = BatchState.setup(rules, self.streams)
        if self.log_mask is not None:
            s = self.state
            for r in np.flatnonzero(self.log_mask).tolist():
                self.emit(
                    r,
                    "setup",
                    epoch_deck=s.epoch_deck[r, s.epoch_pos[r] : s.epoch_len[r]].tolist(),
                    deck=s.deck[r, s.deck_pos[r] : s.deck_len[r]].tolist(),
                    hands=s.hand[r].tolist(),
                    covered=int(s.covered[r]),
                    bid_order=s.bid_order[r].tolist(),
                )

    def discard_wood(self, rows: np.ndarray, n: int) -> None:
        """R3.1: a wood token discarded or spent goes back to the supply, or out of the game
        under `spent_wood = out` (A1)."""
        if self.rules.spent_wood == "out":
            self.state.wood_out[rows] += n
        else:
            self.state.wood_supply[rows] += n

    # --- the log ---------------------------------------------------------------------------
    def logged(self, rows: np.ndarray) -> list[int]:
        """Positions in `rows` of the games whose log is kept (call only when logging)."""
        assert self.log_mask is not None
        return np.flatnonzero(self.log_mask[rows]).tolist()

    def emit(self, row: int, e: str, **data: Any) -> None:
        self.events[int(self.games[row])].append(self.make_event(e, **data))

    def seats_at(self, rows: np.ndarray, pos: int) -> tuple[np.ndarray, np.ndarray]:
        """The games `rows` sorted by the seat at turn position `pos`, and those seats.

        Each seat's games then sit side by side, so asking them takes slices, not copies.
        Games are independent, so their order within a sub-step changes nothing.
        """
        seat = self.state.turn[rows, pos].astype(np.int64)
        order = np.argsort(seat, kind="stable")
        return rows[order], seat[order]

    # --- decisions -------------------------------------------------------------------------
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

        Rows sorted by seat (as the work phase passes them) give slices, so the views see
        the engine's arrays without copies.
        """
        p = self.rules.players
        if isinstance(seat, (int, np.integer)):
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
        view = make_view(
            kind, seat, self.rules, parts, s.public, s.secrets(), rows, games, legal, rng, info
        )
        try:
            actions = answer(self.methods[kind][seat], view, kind, legal)
        except BadAnswer as bad:
            raise failure(bad, self.names[seat], kind, games, self.seed, seat) from bad.raised
        self.streams.advance(seat, rows, rng)
        return actions


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
