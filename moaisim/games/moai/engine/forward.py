"""The forward model: a game as a state machine that a program drives, copies and looks ahead
in (docs/design.md, "The forward model").

`Game` is one game, `Games` many at once (the batch engine's machine, `engine.batch.machine`,
driven from outside instead of by strategies: every seat a Python seat, every decision handed
out):

    game = Game.new(rules, seed=7, game=0)
    while not game.is_over():
        kind, seats, legal = game.legal()       # what the game waits for, and from whom
        game.apply(choose(kind, seats, legal))  # one action (sealed bids: one per seat)
    game.returns()                              # each seat's share of the win

`clone()` copies a game mid-phase (the cursor is part of the state); a copy given a stream
seed (`clone(seed=...)`) draws its future chance (the reshuffles of R7.1) from a stream space
of its own, never from the real game's. `observe(seat)` is the sealed view the seat would be
given, and `determinize(view, seed, n)` samples n full games consistent with what a view shows
(R5.9): the worlds a searching strategy plays its rollouts in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim import engine, interrupts
from moaisim.checks import check_seed, game_indices
from moaisim.errors import UserError
from moaisim.files import GAME_COLUMN
from moaisim.games.moai.engine import warm
from moaisim.games.moai.engine.batch.machine import Machine
from moaisim.games.moai.engine.batch.state import BatchState
from moaisim.games.moai.engine.compiled.policy import EVERY
from moaisim.games.moai.engine.compiled.unseen import PROBLEMS, draw_unseen
from moaisim.games.moai.engine.compiled.work import phase_counts
from moaisim.games.moai.engine.decisions import Kind, strengths
from moaisim.games.moai.engine.events import Event
from moaisim.games.moai.engine.possible import impossible, shape_problem
from moaisim.games.moai.engine.results import COLUMNS, frame, provenance, ranks, win_shares
from moaisim.games.moai.engine.seats import Seats
from moaisim.games.moai.engine.state import COUNTERS
from moaisim.games.moai.engine.steps import DECISION, Pending, Step
from moaisim.games.moai.engine.views import FIELDS, HIDDEN, SeatView, next_epochs
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, RESERVE, TILE_OUT, TILE_SUPPLY
from moaisim.rng import DRAWS_STREAM, SeatRandom, Streams, stream_keys


class Games(engine.Games):
    """Many games as one forward model (see the module's docstring) over the batch engine's
    machine: `pending()` lists the decisions they wait for, `apply(pending, actions)` answers
    one of them, `answer` asks strategies for the answer, `play` plays on with strategies."""

    Kind = Kind
    VECTOR_KINDS = frozenset({Kind.BID})  # R3.3: a bid is six card counts
    ROUNDS = True  # R2: play(last_round=k) stops after round k (a search's horizon)
    machine: Machine

    def __init__(self, machine: Machine) -> None:
        super().__init__(machine)
        self.seats: Seats | None = None  # the strategies seated (`play`, `answer`)

    @classmethod
    @interrupts.passes_signals
    def new(
        cls,
        rules: Rules,
        seed: int,
        games: Sequence[int] | np.ndarray,
        log: Sequence[int] | None = None,
        rounds: bool = False,
        state: BatchState | None = None,
        strategy_seed: int | None = None,
    ) -> Games:
        """Games `games` of root seed `seed`, set up (R1): each the same deal as in a run.
        `log` names games whose event log is kept (`events`); `rounds` keeps the per-round
        table (`round_table`); `state` starts from a position set up by hand (scenario tests)
        instead of the deal. `strategy_seed` gives the seats' strategy streams those of
        another root seed: the same deals and chance, other strategy draws (replays that
        tell the deal's part of an outcome from the play's: the balance sheet's luck)."""
        if not isinstance(rules, Rules):
            raise UserError(f"Games.new needs a Rules (Rules.make(players, ...)), got {rules!r}")
        index = game_indices(_as_list(games), "games")
        streams = None
        if strategy_seed is not None:
            streams = Streams(check_seed(seed), index, rules.players)
            fresh = Streams(check_seed(strategy_seed, "strategy_seed"), index, rules.players)
            streams.seat_keys = fresh.seat_keys
        machine = Machine(rules, check_seed(seed), index, log, state, streams, rounds)
        return cls(machine)

    @property
    def state(self) -> BatchState:
        """The games' state (the batch engine's arrays; read it, do not write it)."""
        return self.machine.state

    @interrupts.passes_signals
    def pending(self) -> list[Pending]:
        """The decisions the games wait for, one group per step (sealed bids: every seat of a
        game in one group, R3.3), after playing on every step that needs none
        (`moaisim.engine.Games.pending`)."""
        with warm.compiling("compiled"):
            return super().pending()

    @interrupts.passes_signals
    def apply(self, pend: Pending, actions: Any) -> None:
        """One action per row of a pending group (for a bid, [n, 6] card counts), checked as
        the engine checks a strategy's answer (`moaisim.engine.Games.apply`)."""
        super().apply(pend, actions)

    concat = staticmethod(Machine.concat)

    @interrupts.passes_signals
    def play(
        self,
        strategies: Sequence[Any],
        last_round: int | None = None,
        names: Sequence[str] | None = None,
        *,
        compiled: bool = True,
    ) -> Games:
        """Play the games on with strategies (one instance per seat for every game, as in a
        run: their `start` hook is called once, when they are first seated here), to their
        end or to the end of round `last_round`; `names` name them in results and errors.
        Returns the games (played).

        The games are played in numba, game by game (`engine.compiled`): a strategy that
        offers a compiled policy (`Strategy.compiled`: the built-ins) decides there, any other
        is asked through views whenever it decides (the games wait meanwhile): the same games,
        draws and results either way. `compiled=False` asks every seat through views."""
        seats = self._seated(strategies, names)
        self.expire()  # every pending group issued so far is out of date
        m = self.machine
        forms = seats.forms() if compiled else [None] * m.rules.players
        with warm.compiling("compiled"):
            _, decided, asked = m.play(forms, lambda pend: seats.answer(m, pend), last_round)
        seats.decided += decided
        seats.asked += asked
        return self

    @interrupts.passes_signals
    def answer(
        self,
        pend: Pending,
        strategies: Sequence[Any],
        seats: Sequence[int] | None = None,
        names: Sequence[str] | None = None,
    ) -> np.ndarray:
        """The actions the strategies (one per seat, seated as by `play`) give for a pending
        group, asked through their sealed views exactly as a run asks them (their streams
        move on); with `seats`, only those seats' entries are asked, the others left 0 (a
        searching seat answers for itself). `apply` them to play them."""
        own = self._own(pend)
        return self._seated(strategies, names).answer(self.machine, own, seats)

    def _seated(self, strategies: Sequence[Any], names: Sequence[str] | None) -> Seats:
        """The seats of these strategy instances: the ones already seated, or a new seating
        (their `start` hooks called)."""
        strategies = list(strategies)
        same = self.seats is not None and self.seats.holds(strategies)
        if not same or (names is not None and list(names) != self.seats.names):
            self.seats = Seats(self.rules, strategies, names)
            self.seats.start(self.machine)
        assert self.seats is not None
        return self.seats

    @interrupts.passes_signals
    def results(self) -> pd.DataFrame:
        """The per-seat results table (results schema), game by game, seat by seat; the
        strategies are named as seated (`play`)."""
        m, p = self.machine, self.rules.players
        s, b = m.state, m.b
        names = self.seats.names if self.seats is not None else ["?"] * p
        scores = m.scores()
        rk = ranks(scores)
        p_of = np.tile(np.arange(p), b)
        cols: dict[str, object] = {
            "game": np.repeat(m.games, p),
            "seed": np.full(b * p, m.seed, dtype=np.uint64),
            "players": np.full(b * p, p),
            **provenance(self.rules),
            "seat": p_of,
            "strategy": _strategy_column(names, p_of),
            "score": scores.ravel(),
            "moai_height": m.moai_heights().ravel(),
            "moai_count": m.tiles_held().sum(axis=2).ravel(),
            "pawns": (s.loc >= CAMP).sum(axis=2).ravel(),
            "wood": s.wood.ravel(),
            "rank": rk.ravel(),
            "win": (rk == 1).ravel(),
            "win_share": win_shares(rk).ravel(),
            "rounds": np.repeat(s.round, p),
        }
        for name in COUNTERS:
            cols[name] = s.counters[name].ravel()
        assert set(cols) == set(COLUMNS) - {GAME_COLUMN}  # `frame` names the game
        return frame(cols)  # type: ignore[arg-type]

    def round_table(self) -> pd.DataFrame:
        """The per-round table (a row per game, round and seat, as each round's review ends)
        of games made with `rounds=True`."""
        return self.machine.round_table()

    @property
    def events(self) -> dict[int, list[Event]]:
        """The event logs of the games named by `log` (game index -> events), so far."""
        return self.machine.events

    @property
    def strategies(self) -> list[Any]:
        """The strategy instances seated (`play`, `answer`), seat by seat; [] before."""
        return list(self.seats.strategies) if self.seats is not None else []

    @interrupts.passes_signals
    def run(self, decide: Any, last_round: int | None = None) -> None:
        """Play the games on, `decide(pending) -> actions` answering each decision, to their
        end or to the end of round `last_round` (`Machine.play`, every seat asked)."""
        self.expire()  # every pending group issued so far is out of date
        m = self.machine
        with warm.compiling("compiled"):
            m.play([EVERY] * m.rules.players, decide, last_round)


class Game(engine.Game):
    """One game as a forward model (see the module's docstring): `legal()` gives sealed bids
    (R3.3) as every seat at once, each with its hand [P, 6]; `apply` takes an int, a bid [6],
    or sealed bids [P, 6] in the order `legal` gives the seats."""

    games_type = Games


def _strategy_column(names: Sequence[str], seat_of_row: np.ndarray) -> pd.Categorical:
    """The results' strategy column: each row's seat's name, as categories (sorted)."""
    categories, codes = np.unique(np.asarray(names, dtype=object), return_inverse=True)
    return pd.Categorical.from_codes(codes[seat_of_row], categories)


# --- determinization -----------------------------------------------------------------------


def determinize(view: SeatView, seed: int | SeatRandom | Sequence[int] | np.ndarray, n: int,
                rows: int | Sequence[int] | np.ndarray = 0, *,
                check_rows: bool = True) -> Games:  # fmt: skip
    """n full games per game `rows` of `view` (one seat's view with every field, at a
    decision), each consistent with what the view shows of its game (R5.9): the rivals'
    hands drawn from the cards the seat has not seen (the public hand sizes kept), the
    decks' orders and the epoch cards left out by V3 at random, the strengths of face-down
    and camp pawns drawn from what each clan's counts allow, the rivals' Moai tiles drawn
    among those not in the supply. World w of the k-th row given is game k * n + w of the
    result: at the same decision as the view, drawing its future chance from a stream space
    of its own (root `seed`). `seed` may be the seat's stream (two values drawn per game of
    the view, the first row's used), or one seed per row. The frame is the floor's
    (`moaisim.engine.determinize`: the seeds, and a view no game can show is one `UserError`,
    `possible.impossible`)."""
    return engine.determinize(WORLDS, view, seed, n, rows, check_rows=check_rows)


def _misshapen(view: SeatView) -> str | None:
    """A view that lacks a field (a strategy's `reads` left it out) or the cursor, or one
    whose field is not an array of whole numbers of the shape its meaning gives."""
    missing = [f for f in FIELDS if not hasattr(view, f)]
    if missing or view._cursor is None:  # noqa: SLF001
        return ("determinize needs a view with every field (declare no `reads` for the "
                "decision, or use Games.observe)")  # fmt: skip
    return shape_problem(view)


def _build(view: SeatView, rows: np.ndarray, n: int, seeds: np.ndarray) -> Games:
    """n worlds per game `rows` of the view, row k's unseen parts and future chance drawn
    from root `seeds[k]` alone (its worlds numbered 0 ... n-1 in that stream space)."""
    try:
        state = _worlds(view, rows, n, seeds)
    except (ValueError, IndexError) as exc:  # a view whose fields were changed by hand
        raise UserError(f"determinize: no game is consistent with this view ({exc})") from None
    rules = view.rules
    everyone = np.arange(state.b)
    next_epochs(state.epoch_deck, state.public, everyone, rules)
    streams = engine.world_streams(seeds, n, rules.players)
    machine = Machine(rules, int(seeds[0]), everyone, state=state, streams=streams)
    at_work = everyone[state.step == Step.WORK]
    if len(at_work):  # the work phase's counts, from the pawns
        counts = phase_counts(state.loc, state.boats, state.covered, at_work, rules.layout)
        for mine, theirs in zip(state.work, counts, strict=True):
            mine[at_work] = theirs
    return Games(machine)


#: The steps whose decision the seat at the step's turn position makes (R4.1, R4.3, R5, R6.2,
#: R6.3, R7.2-R7.4), and the one the disaster's victim makes (R4.4); the others ask every
#: seat (R3.3's sealed bid) or the bird-man (R3.4, R6.1).
BY_POSITION = frozenset({Step.PICK, Step.TARGET, Step.WORK, Step.VOLCANO, Step.FEED,
                         Step.REST, Step.BIRTH, Step.BOAT})  # fmt: skip


def _decision(view: SeatView, row: int) -> tuple[Kind, int | None]:
    """The decision a world of the row waits for (its cursor's step's) and the seat it asks:
    a world whose machine went on past the cursor to the same kind of decision of another
    seat (the seat at the cursor had no choice) shows another game than the view."""
    cur = view._cursor[row]  # noqa: SLF001
    step = Step(int(cur["step"]))
    if step in BY_POSITION:
        return DECISION[step], int(np.asarray(view.turn)[row, int(cur["step_pos"])])
    if step == Step.LOSS:
        return DECISION[step], int(cur["step_target"])
    return DECISION[step], None


#: What Moai supplies the floor's `determinize`.
WORLDS = engine.Worlds(SeatView, _misshapen, impossible, _build, _decision)


def _worlds(view: SeatView, rows: np.ndarray, n: int, seeds: np.ndarray) -> BatchState:
    """The state of n worlds per game `rows` of the view (`determinize`), at its decision:
    what the seat sees copied, what it cannot see drawn by `compiled.unseen.draw_unseen`, row
    k's from `Draws(seeds[k])`'s stream."""
    rules, q = view.rules, view.seat
    c, b = rules.components, n * len(rows)
    state = BatchState(rules, b)
    record = view._record[rows]  # noqa: SLF001 - the view's own copy
    state.public[:] = np.repeat(record, n)
    cursor = view._cursor[rows]  # noqa: SLF001
    for name in cursor.dtype.names:
        getattr(state, name)[:] = np.repeat(cursor[name], n, axis=0)
    keys = stream_keys(seeds, np.zeros(len(rows), dtype=np.int64),
                       np.array([DRAWS_STREAM], dtype=np.uint64))[:, 0]  # fmt: skip
    cards = c.epoch_cards
    wide = lambda a: np.ascontiguousarray(np.asarray(a)[rows], dtype=np.int64)  # noqa: E731
    flags = lambda a: np.ascontiguousarray(np.asarray(a)[rows], dtype=np.bool_)  # noqa: E731
    problems = draw_unseen(
        keys,
        n,
        q,
        np.asarray(c.cards, dtype=np.int64),
        wide(view.hand),
        wide(view.discard),
        wide(view.hand_sizes),
        np.stack([record["deck_pos"], record["deck_len"]], axis=1).astype(np.int64),
        np.array([cd.epoch for cd in cards], dtype=np.int64),
        np.array([cd.id for cd in cards], dtype=np.int64),
        np.array([cd.is_admiral for cd in cards], dtype=np.bool_),
        np.asarray(rules.removals, dtype=np.int64),
        flags(view.revealed),
        np.stack([record["epoch_pos"], record["epoch_len"]], axis=1).astype(np.int64),
        np.ascontiguousarray(strengths(rules), dtype=np.int64),
        wide(view.shown_loc),
        wide(view.hidden_count),
        wide(view.camp_size),
        wide(view.reserve),
        wide(view.own_loc),
        flags(view.own_up),
        flags(view.moai_supply),
        flags(view.own_tiles),
        wide(view.moai_count),
        HIDDEN,
        CAMP,
        RESERVE,
        TILE_OUT,
        TILE_SUPPLY,
        state.hand,
        state.deck,
        state.epoch_deck,
        state.loc,
        state.up,
        state.moai_owner,
    )
    bad = np.flatnonzero(problems)
    if len(bad):  # the state is dropped: `_build` makes it a `UserError`
        raise ValueError(f"determinize: {PROBLEMS[int(problems[bad[0]])]}")
    return state


def _as_list(games: Any) -> np.ndarray:
    """Game numbers as a 1-d array for `checks.game_indices`: an integer array as it is
    (checked as a whole), anything else as objects (each item checked on its own: a bool,
    a float or a number past int64 is refused, not converted)."""
    if isinstance(games, np.ndarray) and games.dtype.kind in "iu":
        return np.atleast_1d(games)
    return np.atleast_1d(np.asarray(games, dtype=object))
