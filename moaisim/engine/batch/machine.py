"""The batch engine as a state machine: B games, each with a cursor (`steps.Step`).

A `Machine` holds a batch's state (`BatchState`, the cursor included), its random streams and
its event log, and knows the rules' steps, nothing about strategies:

- `advance(rows)` runs the given games through every step that needs no decision, and
  returns the decisions they then wait for, as `Pending` groups (one per step: the games, the
  deciding seat of each, the legal masks and what the question is about);
- `apply(pending, actions)` applies one action per game of a group and moves those games on.

The forward model (`engine.forward.Games`) is the loop outside: it asks the strategies for
each pending group (`engine.seats.Seats`) and applies their answers until every game is over.
A search strategy uses the same door to look ahead: `Games.clone` copies games (mid-phase too,
since the cursor is state, `take` here), and a copy given its own `Streams` draws its chance
from them, never from the real game's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.engine.batch import birdman, epoch, production, review, work
from moaisim.engine.batch.state import RESET, BatchState
from moaisim.engine.decisions import Kind, action_size, feed_codec, work_codec
from moaisim.engine.events import Event, EventMaker
from moaisim.engine.results import ROUND_COLUMNS, ROUND_DTYPES
from moaisim.engine.steps import IN_TURN, PHASE, Pending, Step
from moaisim.rng import Streams
from moaisim.rules import Rules
from moaisim.rules.codes import CAMP, ZONES, score
from moaisim.rules.epoch_cards import EpochTable, epoch_table

#: What each step does: run by itself (returns nothing) or ready its games' decision.
STEPS: dict[Step, Any] = {**birdman.STEPS, **epoch.STEPS, **work.STEPS, **production.STEPS,
                          **review.STEPS}  # fmt: skip
#: How each decision step applies the actions.
APPLY: dict[Step, Any] = {**birdman.APPLY, **epoch.APPLY, **work.APPLY, **production.APPLY,
                          **review.APPLY}  # fmt: skip


class Machine:
    """B games of root seed `seed` (indices `games`), their state and streams (see the
    module's docstring). `log` names games whose event log is kept in `events[game]`;
    `state` starts from a position set by hand (scenario tests) instead of the setup (R1);
    `streams` replaces the games' own streams (a copy looking ahead)."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        games: Sequence[int] | np.ndarray,
        log: Sequence[int] | None = None,
        state: BatchState | None = None,
        streams: Streams | None = None,
        keep_rounds: bool = False,
    ) -> None:
        self.rules, self.seed = rules, int(seed)
        self.games = np.asarray(games, dtype=np.int64)
        self.b = len(self.games)
        if len(np.unique(self.games)) != self.b:
            raise ValueError("the games of a batch must be distinct")
        self.sizes = {k: action_size(rules, k) for k in Kind}
        self.epoch_cards: EpochTable = epoch_table(rules)  # what the steps read of a card
        self.work_codec = work_codec(rules)
        self.feed_codec = feed_codec(rules)
        self.tile_heights = np.asarray(rules.components.moai_heights, dtype=np.int64)
        self.streams = streams or Streams(self.seed, self.games, rules.players)
        self.keep_rounds = keep_rounds
        self._rounds: list[dict[str, np.ndarray]] = []
        # log: games (indices in the run) whose event log is kept
        self.log_mask: np.ndarray | None = None
        self.events: dict[int, list[Event]] = {}
        self.make_event = EventMaker(rules)
        if log is not None and len(log):
            wanted = set(int(g) for g in log)
            self.log_mask = np.array([g in wanted for g in self.games.tolist()], dtype=bool)
            self.events = {int(g): [] for g in self.games[self.log_mask]}
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

    # --- the cursor ------------------------------------------------------------------------
    def goto(self, rows: np.ndarray, step: Step) -> None:
        """Move games to the start of a step: the cursor's scalar counters back to their
        reset values (docs: `steps`). The steps that use the other fields reset them as
        they leave (REST its rests per zone, VOLCANO its spaces done, HILL the order)."""
        self.state.cursor[rows] = AT[step]

    def pending(
        self, step: Step, rows: np.ndarray, seat: np.ndarray, legal: np.ndarray, **info: np.ndarray
    ) -> Pending:
        """The decision `rows` wait for, sorted by seat (each seat's games side by side, in
        the order given within a seat)."""
        seat = np.asarray(seat, dtype=np.int64)
        if len(seat) > 1 and not (seat[1:] >= seat[:-1]).all():
            order = by_seat(seat, self.rules.players)
            rows, seat, legal = rows[order], seat[order], legal[order]
            info = {k: v[order] for k, v in info.items()}
        return Pending(step, rows, seat, legal, info)

    def seat_order(self, rows: np.ndarray, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`rows` and their deciding `seat`, sorted by seat (stably), before their masks are
        computed: a pending group then needs no reordering of its masks."""
        if len(seat) > 1 and not (seat[1:] >= seat[:-1]).all():
            order = by_seat(seat, self.rules.players)
            return rows[order], seat[order]
        return rows, seat

    def over(self) -> np.ndarray:
        """[B] bool: the game is over."""
        return self.state.step == Step.OVER

    def advance(self, rows: np.ndarray | None = None) -> list[Pending]:
        """Run the games `rows` (default: every game not over) through the steps that need no
        decision; return the decisions they wait for, one group per step, in step order."""
        s = self.state
        todo = np.flatnonzero(~self.over()) if rows is None else np.asarray(rows, np.int64)
        waiting: dict[Step, list[Pending]] = {}
        mark = np.zeros(self.b, dtype=bool)
        while len(todo):
            steps = s.step[todo]
            present = np.flatnonzero(np.bincount(steps, minlength=len(Step)))
            nxt = []
            for code in present.tolist():
                if code == Step.OVER:
                    continue
                mine = todo if len(present) == 1 else todo[steps == code]
                pend = STEPS[Step(code)](self, mine)
                if pend is not None:
                    waiting.setdefault(Step(code), []).append(pend)
                    mark[pend.rows] = True
                    moved = mine[~mark[mine]]
                    mark[pend.rows] = False
                else:
                    moved = mine
                nxt.append(moved)
            todo = np.concatenate(nxt) if len(nxt) > 1 else (nxt[0] if nxt else todo[:0])
        return [Pending.merge(waiting[k]) for k in sorted(waiting)]

    def run(
        self,
        decide: Callable[[Pending], np.ndarray],
        rows: np.ndarray | None = None,
        stop: frozenset[Step] = frozenset({Step.OVER}),
        last_round: int | None = None,
    ) -> None:
        """Play the games `rows` (default: every game not over) to their end, or until each
        reaches one of the steps `stop`, `decide` answering each pending decision. The games
        furthest behind move first (`progress`): each step, with or without a decision, then
        runs for every game that has reached it, so the games of a batch stay together and
        each strategy is asked about as many games as possible at once. `last_round`: games
        also stop as that round ends (at the next round's ROUND step; a look-ahead's
        horizon)."""
        s = self.state
        self._stop = [Step(k) in stop for k in range(len(Step))]
        self._last_round = last_round
        queue: dict[int, list[np.ndarray]] = {}
        mark = np.zeros(self.b, dtype=bool)  # the games asked, among those of one step
        todo = np.flatnonzero(~self.over()) if rows is None else np.asarray(rows, np.int64)
        self._queue(queue, todo, together=False)
        while queue:
            key = min(queue)
            parts = queue.pop(key)
            # in increasing order: each seat's games then lie in memory order
            rows = parts[0] if len(parts) == 1 else np.concatenate(parts)
            if len(rows) > 1 and not (rows[1:] > rows[:-1]).all():
                rows = np.sort(rows)
            step = Step(int(s.step[rows[0]]))
            pend = STEPS[step](self, rows)
            if pend is None:
                self._queue(queue, rows)
                continue
            if len(pend.rows) != len(rows) or step == Step.BID:
                mark[pend.rows] = True
                self._queue(queue, rows[~mark[rows]])
                mark[pend.rows] = False
            self._queue(queue, self.apply(pend, decide(pend)))

    def _queue(
        self, queue: dict[int, list[np.ndarray]], rows: np.ndarray, together: bool = True
    ) -> None:
        """Put games in the queue of `run` by how far they are (`progress`). `together`: the
        games left one queue entry (one round) by one step, so those at one step are in one
        round."""
        if not len(rows):
            return
        s = self.state
        if not together:
            rounds = s.round[rows]
            if rounds.min() != rounds.max():
                for r in np.unique(rounds).tolist():
                    self._queue(queue, rows[rounds == r])
                return
        step = s.step[rows]
        low, high = int(step.min()), int(step.max())
        codes = [low] if low == high else np.flatnonzero(np.bincount(step)).tolist()
        for code in codes:
            if self._stop[code]:
                continue
            mine = rows if low == high else rows[step == code]
            last = self._last_round  # the games at one step are in one round (`together`)
            if code == Step.ROUND and last is not None and int(s.round[mine[0]]) >= last:
                continue
            if _IN_TURN[code]:
                pos = s.step_pos[mine]
                if pos.min() != pos.max():
                    for k in np.unique(pos).tolist():
                        self._put(queue, mine[pos == k])
                    continue
            self._put(queue, mine)

    def _put(self, queue: dict[int, list[np.ndarray]], rows: np.ndarray) -> None:
        """Queue games that are equally far (`progress`)."""
        s, r = self.state, int(rows[0])
        key = progress(int(s.round[r]), int(s.step[r]), int(s.step_pos[r]))
        queue.setdefault(key, []).append(rows)

    def apply(self, pend: Pending, actions: np.ndarray) -> np.ndarray:
        """Apply one action per entry of a pending group; returns the games it moved (to be
        advanced again)."""
        APPLY[pend.step](self, pend, actions)
        if pend.step == Step.BID and not self.rules.open_bidding:
            return np.unique(pend.rows)  # a sealed bid asks each game once per seat
        return pend.rows

    def round_end(self, rows: np.ndarray) -> None:
        """ROUND_END, R8.1: the round's row of the per-round table; the end of the game after
        the last round (R8.2), else a new round."""
        s = self.state
        if self.keep_rounds:
            self._record_round(rows)
        last = s.last_round[rows]
        ended = rows[last]
        if self.log_mask is not None and len(ended):
            scores = self.scores()
            for i in self.logged(ended):
                r = ended[i]
                self.emit(r, "end", scores=scores[r].tolist(), rounds=int(s.round[r]))
        self.goto(ended, Step.OVER)
        self.goto(rows[~last], Step.ROUND)

    def _record_round(self, rows: np.ndarray) -> None:
        """The per-round table's rows of games whose round just ended (`ROUND_COLUMNS`)."""
        s, lay, p = self.state, self.rules.layout, self.rules.players
        c = self.rules.components
        loc = s.loc[rows]
        zones = lay.zones(loc)
        held = self.tiles_held()[rows]
        heights = (held * self.tile_heights).sum(axis=2)
        living = (loc >= CAMP).sum(axis=2)
        position = np.argsort(s.order[rows], axis=1)  # the position of each seat
        row = {
            "game": np.repeat(self.games[rows], p),
            "round": np.repeat(s.round[rows], p),
            "seat": np.tile(np.arange(p), len(rows)),
            "hill_position": position,
            "birdman": s.birdman[rows][:, None] == np.arange(p)[None, :],
            "epoch_card": s.round_held[rows],
            **{z: (zones == k).sum(axis=2) for k, z in enumerate(ZONES)},
            "camp": (loc == CAMP).sum(axis=2),
            "wood": s.wood[rows],
            "moai_count": held.sum(axis=2),
            "moai_height": heights,
            "cards": s.hand[rows].sum(axis=2),
            "births": s.counters["births"][rows] - s.round_births[rows],
            "starved": s.counters["starved"][rows] - s.round_starved[rows],
            "score": score.py_func(
                heights, living, s.wood[rows].astype(np.int64), c.wood_points, c.moai_points
            ),  # fmt: skip
        }
        self._rounds.append({k: np.asarray(v).reshape(-1) for k, v in row.items()})

    def round_table(self) -> pd.DataFrame:
        """The per-round table (`ROUND_COLUMNS`: a row per game, round and seat, as each
        round's review ends) of a machine that keeps it."""
        parts = self._rounds
        cols = {k: np.concatenate([r[k] for r in parts]) if parts else [] for k in ROUND_COLUMNS}
        df = pd.DataFrame(cols).astype(ROUND_DTYPES)
        return df.sort_values(["game", "round", "seat"], kind="stable", ignore_index=True)

    def scores(self) -> np.ndarray:
        """R8.2: Moai points per metre of Moai height + living pawns (board and camp) + wood
        points per wood, [B, P]."""
        s, c = self.state, self.rules.components
        living = (s.loc >= CAMP).sum(axis=2)
        wood = s.wood.astype(np.int64)
        return score.py_func(self.moai_heights(), living, wood, c.wood_points, c.moai_points)

    def moai_heights(self) -> np.ndarray:
        """Total height of each clan's Moai tiles [B, P]."""
        return (self.tiles_held() * self.tile_heights).sum(axis=2)

    def tiles_held(self) -> np.ndarray:
        """[B, P, T] bool: the clan holds the tile."""
        p = self.rules.players
        return self.state.moai_owner[:, None, :] == np.arange(p)[None, :, None]

    def shares(self) -> np.ndarray:
        """[B, P]: each clan's share of the win (R8.2: 1/k for a k-way shared win, else 0)."""
        scores = self.scores()
        top = scores == scores.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)

    # --- copies -----------------------------------------------------------------------------
    def take(self, rows: np.ndarray, games: np.ndarray | None = None,
             streams: Streams | None = None) -> Machine:  # fmt: skip
        """A new machine of copies of the games at `rows` (a row may repeat), numbered
        `games` (default: their own indices, which must then be distinct) and drawing from
        `streams` (default: the games' own streams where they stand, so a copy plays on as
        the original would). Nothing is logged."""
        rows = np.asarray(rows, dtype=np.int64)
        games = self.games[rows] if games is None else np.asarray(games, dtype=np.int64)
        state = self.state.take(rows)
        streams = self.streams.take(rows) if streams is None else streams
        return Machine(self.rules, self.seed, games, None, state, streams, self.keep_rounds)

    # --- shared by the steps -------------------------------------------------------------
    def discard_wood(self, rows: np.ndarray, n: int) -> None:
        """R3.1: a wood token discarded or spent goes back to the supply, or out of the game
        under `spent_wood = out` (A1)."""
        if self.rules.spent_wood == "out":
            self.state.wood_out[rows] += n
        else:
            self.state.wood_supply[rows] += n

    def logged(self, rows: np.ndarray) -> list[int]:
        """Positions in `rows` of the games whose log is kept (call only when logging)."""
        assert self.log_mask is not None
        return np.flatnonzero(self.log_mask[rows]).tolist()

    def emit(self, row: int, e: str, **data: Any) -> None:
        """Append an event to the log of the game at `row`."""
        self.events[int(self.games[row])].append(self.make_event(e, **data))


STEPS[Step.ROUND_END] = Machine.round_end

#: The cursor's scalar fields at the start of each step (`Machine.goto`).
AT = np.repeat(RESET[None, :], len(Step), axis=0)
AT[:, 0] = np.arange(len(Step))
AT.setflags(write=False)


def by_seat(seat: np.ndarray, players: int) -> np.ndarray:
    """The order that sorts entries by seat, stably: a stable sort of the seats as bytes,
    which numpy does by radix sort in linear time (measured faster than a pass per seat at
    every size, and than a sort of wider integers)."""
    assert players < 128
    return np.argsort(seat.astype(np.int8), kind="stable")


#: `progress`'s tables: each step's part of the round, and whether it moves in turn order.
_PHASE = [PHASE[Step(k)] for k in range(len(Step))]
_IN_TURN = [Step(k) in IN_TURN for k in range(len(Step))]


def progress(round_: int, step: int, pos: int) -> int:
    """How far a game is through the game, as one number: its round, the part of the round
    (`steps.PHASE`), its turn position where the step moves in turn order (`steps.IN_TURN`,
    open bids too), the step."""
    key = round_ * 100_000 + _PHASE[step] * 1_000 + step
    return key + pos * 20 if _IN_TURN[step] else key
