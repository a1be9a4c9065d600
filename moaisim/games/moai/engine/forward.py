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

from moaisim import interrupts
from moaisim.checks import check_count, check_seed, game_indices, positions, whole
from moaisim.errors import UserError
from moaisim.games.moai.engine import warm
from moaisim.games.moai.engine.answers import BadAnswer, check
from moaisim.games.moai.engine.batch.machine import Machine
from moaisim.games.moai.engine.batch.state import BatchState
from moaisim.games.moai.engine.compiled.policy import EVERY
from moaisim.games.moai.engine.compiled.work import phase_counts
from moaisim.games.moai.engine.decisions import Kind, strengths
from moaisim.games.moai.engine.events import Event
from moaisim.games.moai.engine.possible import impossible
from moaisim.games.moai.engine.results import COLUMNS, frame, provenance, ranks, win_shares
from moaisim.games.moai.engine.seats import Seats
from moaisim.games.moai.engine.state import COUNTERS
from moaisim.games.moai.engine.steps import Pending, Step
from moaisim.games.moai.engine.views import FIELDS, HIDDEN, PARTS, SeatView, make_view, next_epochs
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, N_CARD_TYPES, RESERVE, TILE_OUT, TILE_SUPPLY
from moaisim.rng import Draws, SeatRandom, Streams

#: Every part of a game a view can show (`observe` shows them all).
EVERY_PART = frozenset(PARTS)
#: The most worlds `determinize` builds at once (about 1 KB of state each).
MAX_WORLDS = 1_000_000


def _sealed(pend: Pending) -> Pending:
    """A group as handed out by `Games.pending`: read-only copies of its arrays (the engine
    keeps its own, which `apply` checks answers against)."""
    info = {k: _read_only(v) for k, v in pend.info.items()}
    return Pending(pend.step, _read_only(pend.rows), _read_only(pend.seat),
                   _read_only(pend.legal), info, pend.ticket, pend.owner)  # fmt: skip


def _read_only(a: np.ndarray) -> np.ndarray:
    out = np.array(a, copy=True)
    out.flags.writeable = False
    return out


class Games:
    """Many games as one forward model (see the module's docstring): `pending()` lists the
    decisions they wait for, `apply(pending, actions)` answers one of them, `answer` asks
    strategies for the answer, `play` plays on with strategies."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.seats: Seats | None = None  # the strategies seated (`play`, `answer`)
        # the pending groups issued, so that only the current decision of a game is answered:
        # each group gets a ticket; a game holds the ticket of the group that asks it, -1
        # once answered (or played on), and `apply` refuses any other group
        self._owner = object()
        self._ticket = np.full(machine.b, -1, dtype=np.int64)
        self._tickets = 0
        # the engine's own copy of each group still waiting, by ticket: `apply` checks an
        # answer against the rules' legal masks kept here, never against the arrays handed
        # out (read-only copies a caller could still copy, edit and hand back)
        self._issued: dict[int, Pending] = {}

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
    def rules(self) -> Rules:
        """The rules the games are played under."""
        return self.machine.rules

    @property
    def state(self) -> BatchState:
        """The games' state (the batch engine's arrays; read it, do not write it)."""
        return self.machine.state

    def nbytes(self) -> int:
        """Memory held by the games' state (what `moaisim bench` reports)."""
        return self.machine.state.nbytes()

    def __len__(self) -> int:
        return self.machine.b

    @interrupts.passes_signals
    def pending(self) -> list[Pending]:
        """The decisions the games wait for, one group per step (runs what needs none). Each
        group is the current decision of its games until it is answered (`apply`) or the
        games are played on (`run`, `play`); `pending()` again gives the same decisions."""
        m = self.machine
        with warm.compiling("compiled"):
            groups = m.play([EVERY] * m.rules.players)[0]
        out = []
        self._issued = {}  # every waiting game is in a group issued now: older ones are dead
        for pend in groups:
            pend.ticket, pend.owner = self._tickets, self._owner
            self._ticket[pend.rows] = self._tickets
            self._issued[self._tickets] = pend
            self._tickets += 1
            out.append(_sealed(pend))
        return out

    @interrupts.passes_signals
    def apply(self, pend: Pending, actions: Any) -> None:
        """One action per entry of a pending group (for a bid, [n, 6] card counts), checked as
        the engine checks a strategy's answer (integers of the right shape, legal); a group
        that is not the games' current decision (answered already, issued before they moved
        on, or by other games) is refused. A refused call changes nothing."""
        own = self._own(pend)
        rows = own.rows
        try:
            checked = check(own.kind, actions, own.legal)  # the rules' masks (R5.9), not pend's
        except BadAnswer as bad:
            game = int(self.machine.games[rows[bad.rows[0]]]) if len(bad.rows) else None
            where = f" in game {game}" if game is not None else ""
            problem = bad.problem.replace("returned ", "got ", 1)
            raise UserError(f"{own.kind.value}: {problem}{where}") from None
        self.machine.put(own, checked)
        self._ticket[rows] = -1

    def _own(self, pend: Pending) -> Pending:
        """The engine's own copy of the group `pend` was handed out as (or of the part of it
        `pend` keeps, `Pending.subset`), if it is the current decision of its games, issued
        by these games' `pending()`; a clear line otherwise."""
        if not isinstance(pend, Pending):
            raise UserError(f"expected a pending group from pending(), got {pend!r}")
        if pend.owner is not self._owner:
            raise UserError(f"{pend.kind.value}: this pending group was not issued by these "
                            "games (call their own pending())")  # fmt: skip
        own = self._issued.get(pend.ticket)
        try:
            rows = np.asarray(pend.rows, dtype=np.int64)
        except (TypeError, ValueError):
            rows = np.zeros(0, dtype=np.int64)
        current = (
            own is not None
            and rows.ndim == 1
            and bool(((rows >= 0) & (rows < self.machine.b)).all())
            and bool((self._ticket[rows] == pend.ticket).all())
        )
        if not current or own is None:
            raise UserError(f"{pend.kind.value}: this pending group is not the current "
                            "decision of its games (answered already, or they have moved on): "
                            "call pending() again")  # fmt: skip
        if len(rows) == len(own.rows) and (rows == own.rows).all():
            return own
        keep = np.isin(own.rows, rows)
        part = own.subset(keep)
        if len(part.rows) != len(rows) or not (part.rows == rows).all():
            raise UserError(f"{pend.kind.value}: the group's games were changed: answer the "
                            "group pending() gave, or a part of it (Pending.subset)")  # fmt: skip
        return part

    def clone(self, rows: Sequence[int] | np.ndarray | None = None, seed: int | None = None,
              games: Sequence[int] | np.ndarray | None = None) -> Games:  # fmt: skip
        """Copies of the games at `rows` (default all; a row may repeat). With `seed`, the
        copies draw their future chance and their seats' streams from a stream space of
        their own (root seed `seed`), never the real games', copy k as game `games[k]` of
        that space (default k): copies given the same number draw the same numbers (common
        random numbers, e.g. one world tried with several actions). Without `seed`, they
        are exact copies that play on as the originals would; `games` then numbers them
        (what a mixture's per-game draw reads), default their own numbers, or their places
        when a row repeats."""
        m = self.machine
        rows = positions(np.arange(m.b) if rows is None else rows, m.b, "clone: rows")
        if not len(rows):
            raise UserError("clone: rows must name at least one game")
        if seed is None:
            if games is not None:
                ids = game_indices(_as_list(games), "clone: games", distinct=False)
                if ids.shape != rows.shape:
                    raise UserError(f"games= needs one number per copy ({len(rows)}), got "
                                    f"{ids.shape}")  # fmt: skip
                return Games(m.take(rows, games=ids))
            distinct = len(np.unique(rows)) == len(rows)
            return Games(m.take(rows, games=None if distinct else np.arange(len(rows))))
        ids = (
            np.arange(len(rows))
            if games is None
            else game_indices(_as_list(games), "clone: games", distinct=False)
        )
        if ids.shape != rows.shape:
            raise UserError(f"games= needs one number per copy ({len(rows)}), got {ids.shape}")
        seed = check_seed(seed)
        streams = Streams(seed, ids, m.rules.players)
        copy = m.take(rows, games=np.arange(len(rows)), streams=streams)
        copy.seed = seed
        return Games(copy)

    def observe(self, seat: int, rows: np.ndarray | None = None,
                kind: Kind | None = None) -> SeatView:  # fmt: skip
        """The sealed view of `seat` over the games `rows` (default all): every field a
        strategy may read (R5.9), as at a decision of `kind`; its `legal` and `info` are
        empty, and its random stream draws from a stream of its own."""
        m = self.machine
        if not whole(seat) or not 0 <= seat < m.rules.players:
            raise UserError(f"observe: seat must be 0 to {m.rules.players - 1}, got {seat!r}")
        if kind is not None and not isinstance(kind, Kind):
            raise UserError(f"observe: kind must be a Kind, got {kind!r}")
        rows = positions(np.arange(m.b) if rows is None else rows, m.b, "observe: rows")
        s = m.state
        rng = m.streams.seat(int(seat), rows)
        legal = np.zeros((len(rows), 0), dtype=bool)
        games, cursor = m.games[rows].copy(), s.cursor_records(rows)
        return make_view(kind or Kind.WORK, seat, m.rules, EVERY_PART, s.public, s.secrets(),
                         rows, games, legal, rng, {}, cursor)  # fmt: skip

    @staticmethod
    def stack(parts: Sequence[Games]) -> Games:
        """One forward model over the games of several, one after the other (numbered
        0..n-1; each keeps its own streams, whatever its root seed)."""
        if not parts or not all(isinstance(p, Games) for p in parts):
            raise UserError("stack needs a list of Games (at least one)")
        machines = [p.machine for p in parts]
        rules = machines[0].rules
        for k, m in enumerate(machines[1:], 1):
            if m.rules != rules:
                raise UserError(f"stack: set {k} ({m.rules.setup}) is played under other "
                                f"rules than set 0 ({rules.setup}): a batch has one set of "
                                "rules")  # fmt: skip
        state = BatchState.concat([m.state for m in machines])
        streams = Streams.concat([m.streams for m in machines])
        first = machines[0]
        return Games(Machine(first.rules, first.seed, np.arange(state.b), state=state,
                             streams=streams))  # fmt: skip

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
        self._ticket[:] = -1  # every pending group issued so far is out of date
        self._issued = {}
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
        assert set(cols) == set(COLUMNS)
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

    @property
    def games(self) -> np.ndarray:
        """[n] the games' indices (in their root seed's run)."""
        return self.machine.games.copy()

    @interrupts.passes_signals
    def run(self, decide: Any, last_round: int | None = None) -> None:
        """Play the games on, `decide(pending) -> actions` answering each decision, to their
        end or to the end of round `last_round` (`Machine.play`, every seat asked)."""
        self._ticket[:] = -1  # every pending group issued so far is out of date
        self._issued = {}
        m = self.machine
        with warm.compiling("compiled"):
            m.play([EVERY] * m.rules.players, decide, last_round)

    def over(self) -> np.ndarray:
        """[n] bool: the game is over (R8)."""
        return self.machine.over()

    def scores(self) -> np.ndarray:
        """[n, P] each seat's score now (R8.2)."""
        return self.machine.scores()

    def returns(self) -> np.ndarray:
        """[n, P] each seat's share of the win (1/k for a k-way shared win) of the games over;
        nan for the others."""
        out = self.machine.shares().astype(float)
        out[~self.over()] = np.nan
        return out


class Game:
    """One game as a forward model (see the module's docstring)."""

    def __init__(self, games: Games) -> None:
        if not isinstance(games, Games) or len(games) != 1:
            raise UserError("a Game is one game: Game.new(rules, seed, game), or "
                            "Game(games) of a Games holding one")  # fmt: skip
        self.games = games
        self._pending: Pending | None = None

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, game: int = 0) -> Game:
        """Game `game` of root seed `seed`, set up (R1): the same deal as in a run."""
        return cls(Games.new(rules, seed, [game]))

    @property
    def rules(self) -> Rules:
        """The rules the game is played under."""
        return self.games.rules

    def _next(self) -> Pending | None:
        """The pending decision, after the steps that need none (None: the game is over)."""
        if self._pending is None and not self.games.over()[0]:
            waiting = self.games.pending()
            self._pending = waiting[0] if waiting else None
        return self._pending

    def legal(self) -> tuple[Kind, np.ndarray, np.ndarray]:
        """(the decision's kind, the seats that decide, their legal masks): one seat and its
        mask [1, A], or for sealed bids (R3.3) every seat, each with its hand [P, 6]."""
        pend = self._next()
        if pend is None:
            raise UserError("the game is over: no decision is pending")
        return pend.kind, pend.seat.copy(), pend.legal.copy()

    def apply(self, action: Any) -> None:
        """The decision's action: an int (a bid: card counts [6]); sealed bids one per seat
        ([P, 6], in the order `legal` gives the seats)."""
        pend = self._next()
        if pend is None:
            raise UserError("the game is over: no decision is pending")
        try:
            actions = np.asarray(action)
        except (TypeError, ValueError):
            raise UserError(f"{pend.kind.value}: got {action!r}; expected an integer "
                            "action") from None  # fmt: skip
        # an int for one seat, [6] for one bid; anything else goes as it is to the engine's
        # check (sealed bids must be [P, 6]: a flat array is never read as P bids)
        if len(pend) == 1 and actions.ndim == (1 if pend.kind is Kind.BID else 0):
            actions = actions[None]
        self.games.apply(pend, actions)
        self._pending = None

    def clone(self, seed: int | None = None) -> Game:
        """A copy of the game as it stands (mid-phase too); with `seed`, its future chance
        comes from a stream space of its own (`Games.clone`)."""
        return Game(self.games.clone(seed=seed))

    def observe(self, seat: int) -> SeatView:
        """The sealed view of `seat` (R5.9), as at the pending decision."""
        pend = self._next()
        kind = pend.kind if pend is not None else None
        return self.games.observe(seat, kind=kind)

    def is_over(self) -> bool:
        """The game is over (R8): no decision is left (the steps that need none are run
        first, so a game whose last decision is taken is over)."""
        self._next()
        return bool(self.games.over()[0])

    def scores(self) -> np.ndarray:
        """[P] each seat's score now (R8.2)."""
        return self.games.scores()[0]

    def returns(self) -> np.ndarray:
        """[P] each seat's share of the win (1/k for a k-way shared win); nan before the
        end."""
        return self.games.returns()[0]


def _strategy_column(names: Sequence[str], seat_of_row: np.ndarray) -> pd.Categorical:
    """The results' strategy column: each row's seat's name, as categories (sorted)."""
    categories, codes = np.unique(np.asarray(names, dtype=object), return_inverse=True)
    return pd.Categorical.from_codes(codes[seat_of_row], categories)


# --- determinization -----------------------------------------------------------------------


def determinize(
    view: SeatView,
    seed: int | SeatRandom,
    n: int,
    rows: int | Sequence[int] | np.ndarray = 0,
) -> Games:
    """n full games per game `rows` of `view` (one seat's view with every field, at a
    decision), each consistent with what the view shows of its game (R5.9): the rivals'
    hands drawn from the cards the seat has not seen (the public hand sizes kept), the
    decks' orders and the epoch cards left out by V3 at random, the strengths of face-down
    and camp pawns drawn from what each clan's counts allow, the rivals' Moai tiles drawn
    among those not in the supply. World w of the k-th row given is game k * n + w of the
    result: at the same decision as the view, drawing its future chance from a stream space
    of its own (root `seed`). `seed` may be the seat's stream (two values drawn per game of
    the view, the first row's used)."""
    if not isinstance(view, SeatView):
        raise UserError(f"determinize needs a SeatView (a strategy's view or Games.observe), "
                        f"got {type(view).__name__}")  # fmt: skip
    missing = [f for f in FIELDS if not hasattr(view, f)]
    if missing or view._cursor is None:  # noqa: SLF001
        raise UserError("determinize needs a view with every field (declare no `reads` for "
                        "the decision, or use Games.observe)")  # fmt: skip
    rows = positions(rows, len(view.games), "determinize: rows")
    if not len(rows):
        raise UserError("determinize: rows must name at least one game of the view")
    n = check_count(n, "determinize: n (worlds per game)", 1, MAX_WORLDS // len(rows))
    for row in rows.tolist():
        problem = impossible(view, row)
        if problem:
            game = int(view.games[row])
            raise UserError(f"determinize: no game can show this view (game {game}): {problem}")
    stream = seed if isinstance(seed, SeatRandom) else None
    if stream is not None:  # peeked: the stream moves on only once the worlds are made
        u = SeatRandom(stream.keys, stream.position).uniform(2)[rows[0]]
        seed = int(u[0] * 2**32) * 2**32 + int(u[1] * 2**32)
    seed = check_seed(seed, "determinize: seed")
    try:
        state = _worlds(view, rows, n, Draws(seed))
    except (ValueError, IndexError) as exc:  # a view whose fields were changed by hand
        raise UserError(f"determinize: no game is consistent with this view ({exc})") from None
    rules = view.rules
    everyone = np.arange(state.b)
    next_epochs(state.epoch_deck, state.public, everyone, rules)
    machine = Machine(rules, seed, everyone, state=state,
                      streams=Streams(seed, everyone, rules.players))  # fmt: skip
    at_work = everyone[state.step == Step.WORK]
    if len(at_work):  # the work phase's counts, from the pawns
        counts = phase_counts(state.loc, state.boats, state.covered, at_work, rules.layout)
        for mine, theirs in zip(state.work, counts, strict=True):
            mine[at_work] = theirs
    worlds = Games(machine)
    for pend in worlds.pending():  # every world waits at the view's step (any seat's view)
        row = int(rows[pend.rows[0] // n])
        asked = Step(int(view._cursor[row]["step"]))  # noqa: SLF001
        if pend.step != asked:  # e.g. a decision with one legal action, taken unasked
            raise UserError(f"determinize: no game can show this view (game "
                            f"{int(view.games[row])}): its fields wait at {asked.name}, a game "
                            f"there at {pend.step.name}")  # fmt: skip
    if stream is not None:
        stream.uniform(2)
    return worlds


def _worlds(view: SeatView, rows: np.ndarray, n: int, draws: Draws) -> BatchState:
    """The state of n worlds per game `rows` of the view (`determinize`), at its decision."""
    state = BatchState(view.rules, n * len(rows))
    for k, row in enumerate(rows.tolist()):
        worlds = np.arange(k * n, (k + 1) * n)
        state.public[worlds] = view._record[row]  # noqa: SLF001 - the view's own copy
        cursor = view._cursor[row]  # noqa: SLF001
        for name in cursor.dtype.names:
            getattr(state, name)[worlds] = cursor[name]
        _hands(state, worlds, view, row, draws)
        _epoch_deck(state, worlds, view, row, draws)
        _pawns(state, worlds, view, row, draws)
        _tiles(state, worlds, view, row, draws)
    return state


def _orders(draws: Draws, n: int, k: int) -> np.ndarray:
    """[n, k]: n random orders of 0..k-1."""
    return np.argsort(draws.uniform(n * k).reshape(n, k), axis=1, kind="stable")


def _hands(state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws) -> None:
    """R1.6, R5.9: the seat's own hand; the rivals' hands and the deck from the cards it has
    not seen (every card is in a hand, the deck or the discard pile)."""
    c, q, n = view.rules.components, view.seat, len(worlds)
    own = view.hand[row].astype(np.int64)
    unseen = np.asarray(c.cards, dtype=np.int64) - own - view.discard[row]
    pool = np.repeat(np.arange(N_CARD_TYPES), unseen)
    dealt = pool[_orders(draws, n, len(pool))]  # [n, unseen cards]
    one_hot = np.eye(N_CARD_TYPES, dtype=np.int16)
    state.hand[worlds] = 0
    state.hand[worlds, q] = own
    k = 0
    for r in range(view.rules.players):
        if r == q:
            continue
        size = int(view.hand_sizes[row, r])
        state.hand[worlds, r] = one_hot[dealt[:, k : k + size]].sum(axis=1)
        k += size
    pos, end = int(view._record[row]["deck_pos"]), int(view._record[row]["deck_len"])  # noqa: SLF001
    if len(pool) - k != end - pos:
        raise ValueError("determinize: the deck does not hold the cards nobody has seen")
    state.deck[worlds] = -1
    state.deck[worlds, pos:end] = dealt[:, k:]


def _epoch_deck(
    state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws
) -> None:
    """R1.7, V3: the epoch deck: in each epoch the cards not yet revealed, less the cards V3
    removed (unseen, at random, never the Admiral), shuffled; epoch 1 on 2 on 3."""
    rules, n = view.rules, len(worlds)
    cards = rules.components.epoch_cards
    rec = view._record[row]  # noqa: SLF001
    pos, end = int(rec["epoch_pos"]), int(rec["epoch_len"])
    seen = view.revealed[row]
    parts = []
    for e in (1, 2, 3):
        pile = [cd for cd in cards if cd.epoch == e]
        keep = len(pile) - rules.removals[e - 1] - sum(bool(seen[cd.id]) for cd in pile)
        admiral = np.array([cd.id for cd in pile if not seen[cd.id] and cd.is_admiral], int)
        others = np.array([cd.id for cd in pile if not seen[cd.id] and not cd.is_admiral], int)
        chosen = others[_orders(draws, n, len(others))[:, : keep - len(admiral)]]
        kept = np.concatenate([chosen, np.broadcast_to(admiral, (n, len(admiral)))], axis=1)
        parts.append(np.take_along_axis(kept, _orders(draws, n, kept.shape[1]), axis=1))
    deck = np.concatenate(parts, axis=1)
    if deck.shape[1] != end - pos:
        raise ValueError("determinize: the epoch deck's size does not match the cards left")
    state.epoch_deck[worlds] = 0
    state.epoch_deck[worlds, pos:end] = deck


def _pawns(state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws) -> None:
    """R5.9: the seat's own pawns; each rival's face-up pawns as shown, and its face-down
    board pawns and camp pawns given strengths drawn from those its face-up and reserve pawns
    leave (pawns are numbered by strength, so a strength is a run of pawn indices)."""
    rules, q, n = view.rules, view.seat, len(worlds)
    lay = rules.layout
    strength = strengths(rules)
    state.loc[worlds] = RESERVE
    state.up[worlds] = False
    state.loc[worlds, q] = view.own_loc[row]
    state.up[worlds, q] = view.own_up[row]
    for r in range(rules.players):
        if r == q:
            continue
        shown = view.shown_loc[row, r]
        up = shown != HIDDEN
        state.loc[worlds[:, None], r, np.flatnonzero(up)[None, :]] = shown[up]
        state.up[worlds[:, None], r, np.flatnonzero(up)[None, :]] = True
        hidden_at = view.hidden_count[row, r].astype(np.int64)
        slots = np.repeat(np.arange(lay.size), hidden_at)
        slots = np.concatenate([slots, np.full(int(view.camp_size[row, r]), CAMP)])
        free, hidden = [], []
        for s in (1, 2, 3):
            idx = np.flatnonzero((strength == s) & ~up)
            free.append(idx)
            hidden += [s] * (len(idx) - int(view.reserve[row, r, s - 1]))
        if len(hidden) != len(slots):
            raise ValueError("determinize: a clan's hidden pawns do not fill its places")
        drawn = np.asarray(hidden, dtype=np.int64)[_orders(draws, n, len(hidden))]  # [n, H]
        for s in (1, 2, 3):
            mine = drawn == s
            w, k = np.nonzero(mine)
            rank = (np.cumsum(mine, axis=1) - 1)[w, k]
            state.loc[worlds[w], r, free[s - 1][rank]] = slots[k]


def _tiles(state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws) -> None:
    """R6.5: the supply's tiles and the seat's own as they are; each rival holds as many of
    the others as its count says (which ones is drawn), the rest left the game (topple)."""
    q, n = view.seat, len(worlds)
    supply, own = view.moai_supply[row], view.own_tiles[row]
    owner = np.full((n, len(supply)), TILE_OUT, dtype=np.int8)
    owner[:, supply] = TILE_SUPPLY
    owner[:, own] = q
    others = np.flatnonzero(~supply & ~own)
    drawn = others[_orders(draws, n, len(others))]  # [n, len(others)]
    k = 0
    for r in range(view.rules.players):
        if r == q:
            continue
        count = int(view.moai_count[row, r])
        np.put_along_axis(owner, drawn[:, k : k + count], r, axis=1)
        k += count
    state.moai_owner[worlds] = owner


def _as_list(games: Any) -> np.ndarray:
    """Game numbers as a 1-d array for `checks.game_indices`: an integer array as it is
    (checked as a whole), anything else as objects (each item checked on its own: a bool,
    a float or a number past int64 is refused, not converted)."""
    if isinstance(games, np.ndarray) and games.dtype.kind in "iu":
        return np.atleast_1d(games)
    return np.atleast_1d(np.asarray(games, dtype=object))
