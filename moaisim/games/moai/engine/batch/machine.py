"""The batch engine: B games, each with a cursor (`steps.Step`), played on by the compiled
kernels (`compiled.machine`), a Python seat's decisions handed out and answered in between.

A `Machine` holds a batch's state (`BatchState`, the cursor included), its random streams and
the decisions of the games whose log is kept, and knows nothing about strategies:
`play(forms, answer)` plays the games on, each seat by its compiled form (`Policy`, `Choice`)
or, where it has none (None), by `answer(pending)`: the kernels play each game until a Python
seat decides, `waiting` groups the decisions the paused games wait for (`Pending`: the games,
the deciding seat of each, the legal masks and the question's info), `answer` gives their
actions, `put` writes them into the games' slots and the kernels play on (with no `answer`,
the groups are returned: the forward model). `take` copies games mid-phase (the cursor is
state), a copy given its own `Streams` drawing its chance from them.

A game whose log is kept (`log`) is asked every decision through views, forced ones included;
its event log (`events`) is those decisions narrated by the reference engine, which plays them
again from the same deal and must take them all and reach the same table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim.errors import GameLengthError, StrategyError, UserError
from moaisim.games.moai.engine.answers import BadAnswer, check
from moaisim.games.moai.engine.batch.state import RESET, BatchState
from moaisim.games.moai.engine.compiled.arrays import arrays_of, consts, put_back, scratch
from moaisim.games.moai.engine.compiled.machine import play_rows
from moaisim.games.moai.engine.compiled.policy import EVERY, Form, lineup
from moaisim.games.moai.engine.compiled.question import NO_QUESTION
from moaisim.games.moai.engine.decisions import Kind, action_sizes
from moaisim.games.moai.engine.events import Event, EventMaker
from moaisim.games.moai.engine.record import Told
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.results import ROUND_COLUMNS, ROUND_DTYPES
from moaisim.games.moai.engine.steps import DECISION, Pending, Step
from moaisim.games.moai.engine.views import PARTS, make_view
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, ZONES, score
from moaisim.games.moai.rules.epoch_cards import EpochTable, epoch_table
from moaisim.mixture_parts import Choice, drawn_by_views
from moaisim.rng import Streams


class Machine:
    """B games of root seed `seed` (indices `games`), their state and streams (see the
    module's docstring). `log` names games whose event log is kept (`events`); `state`
    starts from a position set by hand (scenario tests) instead of the setup (R1); `streams`
    replaces the games' own streams (a copy looking ahead)."""

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
        self.sizes = dict(action_sizes(rules))
        self.epoch_cards: EpochTable = epoch_table(rules)  # what the steps read of a card
        self.tile_heights = np.asarray(rules.components.moai_heights, dtype=np.int64)
        self.streams = streams or Streams(self.seed, self.games, rules.players)
        self.keep_rounds = keep_rounds
        self._rounds: list[dict[str, np.ndarray]] = []
        self.log_mask: np.ndarray | None = None  # the games whose log is kept
        self.decisions: dict[int, list[Event]] = {}  # their decisions, in order
        self.make_event = EventMaker(rules)
        if log is not None and len(log):
            wanted = set(int(g) for g in log)
            self.log_mask = np.array([g in wanted for g in self.games.tolist()], dtype=bool)
            self.decisions = {int(g): [] for g in self.games[self.log_mask]}
        self.state = state if state is not None else BatchState.setup(rules, self.streams)

    # --- the cursor ------------------------------------------------------------------------
    def goto(self, rows: np.ndarray, step: Step) -> None:
        """Move games to the start of a step (the cursor's other fields reset, `steps`)."""
        self.state.cursor[rows] = AT[step]

    def over(self) -> np.ndarray:
        """[B] bool: the game is over."""
        return self.state.step == Step.OVER

    def __len__(self) -> int:
        return self.b

    def nbytes(self) -> int:
        """Memory held by the games' state."""
        return self.state.nbytes()

    # --- the forward model's machine (`moaisim.engine.Machine`) ------------------------------
    def next_decisions(self) -> list[Pending]:
        """Every game played on to its next decision, every seat asked from outside (`EVERY`:
        forced decisions too), and the groups waiting."""
        return self.play([EVERY] * self.rules.players)[0]

    def checked(self, pend: Pending, actions: Any) -> np.ndarray:
        """An answer to a group checked as a strategy's (`answers.check`), or one line."""
        try:
            return check(pend.kind, actions, pend.legal)
        except BadAnswer as bad:
            game = int(self.games[pend.rows[bad.rows[0]]]) if len(bad.rows) else None
            where = f" in game {game}" if game is not None else ""
            problem = bad.problem.replace("returned ", "got ", 1)
            raise UserError(f"{pend.kind.value}: {problem}{where}") from None

    def fork(self, rows: np.ndarray, seed: int, games: np.ndarray) -> Machine:
        """Copies of the games at `rows` drawing their future chance and their seats' streams
        from root `seed`'s stream space (copy k as its game `games[k]`), numbered 0..n-1."""
        copy = self.take(rows, games=np.arange(len(rows)),
                         streams=Streams(seed, games, self.rules.players))  # fmt: skip
        copy.seed = seed
        return copy

    def view(self, seat: int, rows: np.ndarray, kind: Kind | None) -> Any:
        """Seat `seat`'s sealed view of the games `rows` (every part, R5.9), as at a decision
        of `kind` (None: work's); its random stream draws from a stream of its own."""
        s = self.state
        rng = self.streams.seat(int(seat), rows)
        legal = np.zeros((len(rows), 0), dtype=bool)
        games, cursor = self.games[rows].copy(), s.cursor_records(rows)
        return make_view(kind or Kind.WORK, seat, self.rules, EVERY_PART, s.public, s.secrets(),
                         rows, games, legal, rng, {}, cursor)  # fmt: skip

    @staticmethod
    def concat(machines: Sequence[Machine]) -> Machine:
        """One machine of the games of several, one after the other (numbered 0..n-1; each
        keeps its own streams, whatever its root seed)."""
        state = BatchState.concat([m.state for m in machines])
        streams = Streams.concat([m.streams for m in machines])
        first = machines[0]
        return Machine(first.rules, first.seed, np.arange(state.b), state=state,
                       streams=streams)  # fmt: skip

    # --- play ------------------------------------------------------------------------------
    def play(self, forms: Sequence[Form | None], answer: Callable[[Pending], Any] | None = None,
             last_round: int | None = None, stop: frozenset[Step] = frozenset(),
             rows: np.ndarray | None = None) -> tuple[list[Pending], int, int]:  # fmt: skip
        """Play the games `rows` (default: all) on, seat q by `forms[q]` (None: `answer`),
        to their end, the end of round `last_round` or a step of `stop`; without `answer`,
        until each waits for a Python seat. Returns the groups waiting (without `answer`), the
        decisions taken in the kernels and those asked of their policies."""
        s, streams = self.state, self.streams
        pol, drawn = lineup(forms, self.rules, self.games, streams.seat_keys, self.log_mask)
        choices = any(isinstance(f, Choice) for f in forms)
        g = arrays_of(s, streams)
        g.seat_pos[:] += drawn  # what a choice's components drew by views before: streams go on
        c, sc = consts(self.rules), scratch(self.rules)
        last = -1 if last_round is None else int(last_round)
        halt = np.zeros(len(Step), dtype=bool)
        halt[[int(x) for x in stop]] = True
        todo = np.flatnonzero(~self.over()) if rows is None else np.asarray(rows, np.int64)
        # a game paused for a seat that now plays compiled (`pending()` paused every seat; a
        # sealed bid answered in part): that seat decides in the kernels when its step is
        # entered again, drawing where a view would have drawn
        compiled = np.array([f is not None for f in forms], dtype=bool)
        if compiled.any() and s.paused[todo].any():
            s.wait[todo] &= ~compiled
            s.paused[todo] = s.wait[todo].any(axis=1)
        try:
            while len(todo):
                play_rows(g, c, pol, sc, todo, last, self.keep_rounds, halt, NO_QUESTION)
                put_back(g, s, streams)  # the views and the round's row read the record
                self.check_length(todo)
                paused = todo[s.paused[todo]]
                ends = todo[(s.step[todo] == Step.ROUND_END) & ~s.paused[todo]]
                if self.keep_rounds and len(ends) and not halt[Step.ROUND_END]:
                    self.round_end(ends)
                    ends = ends[s.step[ends] != Step.OVER]
                else:
                    ends = ends[:0]
                groups = self.waiting(paused) if len(paused) else []
                if groups and answer is None:
                    return groups, int(sc.tally[0]), int(sc.tally[1])
                for pend in groups:
                    self.put(pend, answer(pend))  # type: ignore[misc]
                g.seat_pos[:] = np.stack(streams.counters, axis=1)  # what the seats drew
                if choices:  # and what a choice's components drew answering through views
                    g.seat_pos[:] += drawn_by_views(forms, self.games, streams.seat_keys)
                todo = np.sort(np.concatenate([paused, ends]))
        finally:
            put_back(g, s, streams)
        return [], int(sc.tally[0]), int(sc.tally[1])

    def check_length(self, rows: np.ndarray) -> None:
        """A game of `rows` the kernels stopped past its rules' bound on a game's length (at
        a ROUND step, `max_rounds` rounds played: `steps.round_bound`) is a `GameLengthError`
        naming the first such game."""
        s, bound = self.state, consts(self.rules).max_rounds
        past = s.round[rows] >= bound
        if past.any():
            long = rows[past & (s.step[rows] == Step.ROUND)]
            if len(long):
                raise GameLengthError(int(self.games[long[0]]), self.seed, bound, "rounds")

    def waiting(self, rows: np.ndarray) -> list[Pending]:
        """The decisions the paused games `rows` wait for, one group per step (in step
        order), sorted by seat (each seat's games in row order)."""
        s, out = self.state, []
        rows = np.asarray(rows, dtype=np.int64)
        if not len(rows):
            return out
        seat = np.argmax(s.wait[rows], axis=1)
        steps = s.step[rows].astype(np.int64)
        # one stable sort by (step, seat): each step's group in step order, each seat's
        # games in the order of `rows` (a bid's games all in that order: sorted below)
        key = steps * np.int64(self.rules.players) + np.where(steps == Step.BID, 0, seat)
        order = np.argsort(key, kind="stable")
        rows, seat, key = rows[order], seat[order], key[order] // self.rules.players
        cut = np.flatnonzero(key[1:] != key[:-1]) + 1
        for a, b in zip([0, *cut.tolist()], [*cut.tolist(), len(rows)], strict=True):
            step = Step(int(key[a]))
            mine = rows[a:b]
            if step == Step.BID:  # sealed bids: every seat still to bid, at once
                k, q = np.nonzero(s.wait[mine])
                order = np.argsort(q.astype(np.int8), kind="stable")
                mine, q = mine[k[order]], q[order].astype(np.int64)
                legal = s.hand[mine, q]
            else:
                q = seat[a:b]
                legal = s.pend_legal[mine, : self.sizes[DECISION[step]]]
            out.append(Pending(DECISION[step], mine, q, legal, self.info(step, mine)))
        return out

    def info(self, step: Step, rows: np.ndarray) -> dict[str, np.ndarray]:
        """What a question is about (`view.info`), per game waiting at `step`."""
        s = self.state
        card = s.step_card[rows].astype(np.int64)
        if step == Step.HILL:  # the seats tied at the bid (placed or not), and the bid
            top = s.pend_info[rows]
            return {"tied": s.bids[rows] == top[:, None], "bid": top.copy()}
        if step in (Step.TARGET, Step.BOAT):
            return {"card": card}
        if step == Step.LOSS:
            return {"what": self.epoch_cards.loss[card], "card": card}
        if step == Step.FOREST:
            return {"space": s.step_count[rows].astype(np.int64)}
        if step == Step.FEED:
            return {"deficit": s.step_left[rows].astype(np.int64)}
        return {}

    def put(self, pend: Pending, actions: np.ndarray) -> None:
        """A waiting group's answers into its games' slots, which the kernels take them from."""
        s, r, q = self.state, pend.rows, pend.seat
        if pend.kind is Kind.BID:
            s.slot[r, q] = actions
        else:
            s.slot[r, q, 0] = actions
        s.filled[r, q] = True
        s.wait[r, q] = False
        s.paused[r] = s.wait[r].any(axis=1)

    # --- the per-round table and the scores ------------------------------------------------
    def round_end(self, rows: np.ndarray) -> None:
        """ROUND_END, R8.1: the round's row of the per-round table; the end of the game after
        the last round (R8.2), else a new round."""
        s = self.state
        if self.keep_rounds:
            self._record_round(rows)
        last = s.last_round[rows]
        self.goto(rows[last], Step.OVER)
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

    # --- the logs ----------------------------------------------------------------------------
    def logged(self, rows: np.ndarray) -> list[int]:
        """Positions in `rows` of the games whose log is kept (call only when logging)."""
        assert self.log_mask is not None
        return np.flatnonzero(self.log_mask[rows]).tolist()

    def emit(self, row: int, e: str, **data: Any) -> None:
        """Record a decision of the game at `row` (`seats.Seats.ask`)."""
        self.decisions[int(self.games[row])].append(self.make_event(e, **data))

    @property
    def events(self) -> dict[int, list[Event]]:
        """The event logs of the games named by `log`, so far (see the module's docstring)."""
        return {game: self.narrate(game, made) for game, made in self.decisions.items()}

    def narrate(self, game: int, made: list[Event]) -> list[Event]:
        """Game `game`'s decisions played again by the reference engine from its deal: the
        events it makes up to the batch's next decision, after checking that it takes the
        same decisions and, once the game is over, reaches the same scores (a difference is
        the engines' bug)."""
        p = self.rules.players
        told: list[list[Event]] = [[] for _ in range(p)]
        for e in made:
            if not e["forced"]:
                told[e["seat"]].append(e)
        ref = ReferenceGame(self.rules, [Told(t) for t in told], seed=self.seed, game=game)
        with contextlib.suppress(StrategyError):  # its decisions ran out: the game goes on
            ref.play()
        at = [k for k, e in enumerate(ref.events) if e["e"] == "decision"]
        row = int(np.flatnonzero(self.games == game)[0])
        scores = self.scores()[row].tolist() if self.over()[row] else None
        if [ref.events[k] for k in at[: len(made)]] != made or (
                scores is not None and ref.events[-1].get("scores") != scores):  # fmt: skip
            raise RuntimeError(f"game {game}: the reference engine does not replay the batch "
                               "engine's decisions to the same game")  # fmt: skip
        # it took forced decisions beyond the batch's: the events up to the batch's next one
        return ref.events[: at[len(made)]] if len(at) > len(made) else ref.events


#: Every part of a game a view can show (`Machine.view` shows them all).
EVERY_PART = frozenset(PARTS)
#: The cursor's scalar fields at the start of each step (`Machine.goto`).
AT = np.repeat(RESET[None, :], len(Step), axis=0)
AT[:, 0] = np.arange(len(Step))
AT.setflags(write=False)
