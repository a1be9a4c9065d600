"""Rapa Nui's forward model: games as state machines a program drives, copies and looks ahead
in (docs/design.md, "The forward model"), over the fast machine (`batch.Batch`).

    game = Game.new(rules, seed=7, game=0)
    while not game.is_over():
        kind, seats, legal = game.legal()        # what the game waits for, and from whom
        game.apply(choose(kind, seats, legal))   # one action
    game.returns()                               # each seat's share of the win

`Games` is many games at once: `pending()` lists the decisions they wait for, one group per
(seat, kind), `apply(group, actions)` answers one, `play(strategies)` plays on with
strategies, `clone(rows, seed=...)` copies games mid-turn (a copy given a seed draws its
seats' random choices from streams of its own; Rapa Nui has no chance after the deal, R1),
`observe(seat)` is the view the seat would be given (R10), and `determinize(view, seed, n)`
samples n full games consistent with what a view shows: the draw pile's order and the
rivals' face-down sacrifice types (R10.2), the worlds a searching strategy plays its
rollouts in.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from moaisim import engine
from moaisim.checks import check_seed, game_indices, whole
from moaisim.engine.answers import BadAnswer, check
from moaisim.errors import StrategyError, UserError
from moaisim.games.rapa_nui.engine import machine as m
from moaisim.games.rapa_nui.engine.batch import Batch, consts, lineup, widest
from moaisim.games.rapa_nui.engine.decisions import Kind, action_size
from moaisim.games.rapa_nui.engine.possible import impossible, misshapen, unseen_cards
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.results import ranked
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.games.rapa_nui.rules.codes import N_FOODS, N_KINDS
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.rng import Draws, SeatRandom, Streams

#: The machine's step at which each decision kind is asked.
STEP_OF: dict[Kind, int] = {
    Kind.START_SACRIFICE: m.START, Kind.BUY: m.BUY, Kind.PLAY: m.PLAY, Kind.DISCARD: m.PLAY,
    Kind.SACRIFICE: m.SACRIFICE, Kind.OFFERING: m.OFFERING, Kind.TAKE: m.TAKE,
    Kind.MOAI_INCOME: m.EVALUATE, Kind.BONUS: m.EVALUATE,
}  # fmt: skip
Pending = engine.Pending


class Machine(Batch):
    """The fast machine as the forward model drives it (`moaisim.engine.Machine`): every seat
    asked from outside, answers checked and put into the games' slots, copies, views."""

    @classmethod
    def holding(cls, rules: Rules, seed: int, games: np.ndarray, arrays: m.Arrays,
                rounds: bool) -> Machine:  # fmt: skip
        """A machine over games whose state is `arrays` (copies, stacks: no deal)."""
        out = cls.__new__(cls)
        out.rules, out.seed = rules, int(seed)
        out.games = np.asarray(games, dtype=np.int64)
        out.streams = Streams(out.seed, out.games, rules.players)
        out.g, out.c = arrays, consts(rules, rounds)
        out.legal = np.zeros(widest(rules), dtype=bool)
        out.due = np.zeros(rules.players, dtype=np.int64)
        out.strategies = []
        return out

    def next_decisions(self) -> list[Pending]:
        """Every game played on to its next decision, every seat asked from outside; the
        groups waiting, one per (seat, kind)."""
        g = self.g
        todo = np.flatnonzero(~self.over() & ~g.paused)
        if len(todo):  # every seat asked from outside (no strategy: `PAUSE`)
            pol, _, _ = lineup(self.rules, [None] * self.rules.players, self.games, g.seat_keys)
            m.play_rows(g, self.c, pol, todo, self.legal, self.due)
        out = []
        for rows, seat, kind in self.groups(np.flatnonzero(g.paused)):
            size = action_size(self.rules, kind)
            seats = np.full(len(rows), seat, dtype=np.int64)
            legal = g.pend_legal[rows, :size].copy()
            out.append(Pending(kind, rows, seats, legal, self.info(rows, kind)))
        return out

    def checked(self, pend: Pending, actions: Any) -> np.ndarray:
        """An answer to a group checked as a strategy's (`moaisim.engine.answers.check`: one
        legal action a row), or one line naming the first game concerned."""
        try:
            acts = np.asarray(actions)
        except (TypeError, ValueError):
            acts = None
        if acts is not None and acts.ndim == 1 and len(pend) == 1 and len(acts) == 1:
            actions = acts
        try:
            return check(actions, pend.legal)
        except BadAnswer as bad:
            game = int(self.games[pend.rows[bad.rows[0]]]) if len(bad.rows) else None
            where = f" in game {game}" if game is not None else ""
            legal = (f" (legal: {np.flatnonzero(pend.legal[bad.rows[0]]).tolist()})"
                     if bad.shown is not None and len(bad.rows) else "")  # fmt: skip
            problem = bad.problem.replace("returned ", "got ", 1)
            raise UserError(f"{pend.name}: {problem}{where}{legal}"[:300]) from None

    def put(self, pend: Pending, actions: np.ndarray) -> None:
        """Checked answers into the games' slots: each game plays on from there."""
        g, rows, seat = self.g, pend.rows, pend.seat
        g.slot[rows, seat] = actions
        g.filled[rows, seat] = True
        g.wait[rows, seat] = False
        g.paused[rows] = False

    def take(self, rows: np.ndarray, games: np.ndarray | None) -> Machine:
        """Exact copies of the games at `rows` (numbered `games`, default their own)."""
        arrays = m.Arrays(*(np.ascontiguousarray(a[rows]) for a in self.g))
        ids = self.games[rows] if games is None else games
        return Machine.holding(self.rules, self.seed, ids, arrays, self.c.keep_rounds)

    def fork(self, rows: np.ndarray, seed: int, games: np.ndarray) -> Machine:
        """Copies whose seats draw from root `seed`'s streams (copy k as its game `games[k]`;
        Rapa Nui has no chance after the deal, R1)."""
        arrays = m.Arrays(*(np.ascontiguousarray(a[rows]) for a in self.g))
        arrays.seat_keys[:] = Streams(seed, games, self.rules.players).seat_keys
        arrays.seat_pos[:] = 0
        return Machine.holding(self.rules, seed, games, arrays, self.c.keep_rounds)

    @staticmethod
    def concat(machines: Sequence[Machine]) -> Machine:
        """One machine of the games of several, numbered 0..n-1 (each keeps its seats'
        streams)."""
        arrays = m.Arrays(*(_joined(col) for col in zip(*(x.g for x in machines), strict=True)))
        first = machines[0]
        n = sum(len(x) for x in machines)
        return Machine.holding(first.rules, first.seed, np.arange(n), arrays, first.c.keep_rounds)

    def view(self, seat: int, rows: np.ndarray, kind: Kind | None) -> SeatView:
        """Seat `seat`'s view of the games `rows` (R10), as at a decision of `kind` (None: a
        play's); its legal actions and info empty, its stream a copy of the seat's."""
        g = self.g
        rng = SeatRandom(g.seat_keys[rows, seat].copy(), g.seat_pos[rows, seat].copy())
        legal = np.zeros((len(rows), 0), dtype=bool)
        return SeatView(self.rules, seat, kind or Kind.PLAY, legal, {}, rng,
                        self.fields(rows, seat), self.games[rows])  # fmt: skip

    def scores(self) -> np.ndarray:
        """[B, P] each seat's score now (R9.1, the stock at the stone's values now)."""
        return sum(self.parts().values())  # type: ignore[return-value]

    def shares(self) -> np.ndarray:
        """[B, P] each seat's share of the win were the game to end now (R9.4: ties share,
        or under `most_wood` more wood wins first)."""
        return ranked(self.scores(), self.g.wood, self.rules.winner_tie)[1]


def _joined(parts: Sequence[np.ndarray]) -> np.ndarray:
    """Arrays of games one after the other; the per-round tables (`track`), which are as long
    as each batch's longest game may need, padded to the longest (unused rows stay 0)."""
    shape = tuple(max(a.shape[k] for a in parts) for k in range(1, parts[0].ndim))
    padded = [np.pad(a, [(0, 0)] + [(0, n - a.shape[k + 1]) for k, n in enumerate(shape)])
              if a.shape[1:] != shape else a for a in parts]  # fmt: skip
    return np.concatenate(padded)


class Games(engine.Games):
    """Many games as one forward model (see the module's docstring) over the fast machine."""

    Kind = Kind
    machine: Machine

    def __init__(self, machine: Machine) -> None:
        super().__init__(machine)
        self.names: list[str] = []
        #: the games whose event log is kept (`events`), and the logs once played
        self.logged: list[int] = []
        self.events: dict[int, list[dict[str, Any]]] = {}

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, games: Sequence[int] | np.ndarray | int = (0,),
            log: Sequence[int] | None = None, rounds: bool = False,
            strategy_seed: int | None = None) -> Games:  # fmt: skip
        """Games `games` of root seed `seed`, dealt (R1) as in a run. `log` names games whose
        event log is kept (`events`, after `play`: the reference engine's log of the same
        game, checked to end with the machine's scores); `rounds` keeps the per-round table
        (`round_table`). `strategy_seed` gives the seats' streams those of another root seed:
        the same deals, other strategy draws (the balance sheet's luck)."""
        if not isinstance(rules, Rules):
            raise UserError(f"Games.new needs Rapa Nui's Rules (make_rules(players, ...)), "
                            f"got {type(rules).__name__}")  # fmt: skip
        listed = [games] if whole(games) else list(games)  # type: ignore[arg-type]
        index = game_indices(np.asarray(listed, dtype=np.int64), "games")
        made = cls(Machine(rules, check_seed(seed), index, rounds=bool(rounds)))
        if strategy_seed is not None:  # the same deals, the seats' draws of another seed
            fresh = Streams(check_seed(strategy_seed, "strategy_seed"), index, rules.players)
            made.g.seat_keys[:] = fresh.seat_keys
        if log is not None:
            wanted = game_indices(np.asarray(list(log), dtype=np.int64), "log")
            missing = sorted(set(wanted.tolist()) - set(index.tolist()))
            if missing:
                raise UserError(f"log: game {missing[0]} is not one of these games")
            made.logged = wanted.tolist()
        return made

    concat = staticmethod(Machine.concat)

    def _made(self, machine: engine.Machine) -> Games:
        made = type(self)(machine)  # type: ignore[arg-type]
        made.names = list(self.names)
        return made

    # --- the machine's arrays, as the engines and the tests read them ---------------------
    @property
    def g(self) -> m.Arrays:
        """The games' state (the fast machine's arrays; read it, do not write it)."""
        return self.machine.g

    @property
    def c(self) -> m.Consts:
        """The rules' figures as the kernels read them."""
        return self.machine.c

    def fields(self, rows: np.ndarray, seat: int) -> dict[str, np.ndarray]:
        """A view's fields (`views.FIELDS`) of the games `rows` for seat `seat`."""
        return self.machine.fields(rows, seat)

    def parts(self) -> dict[str, np.ndarray]:
        """R9.1: each game's score parts [n, P]."""
        return self.machine.parts()

    # --- playing with strategies ----------------------------------------------------------
    def play(self, strategies: Sequence[Any], names: Sequence[str] | None = None) -> Games:
        """Play every game on to its end, seat q by strategies[q] (named `names[q]` in the
        results, default each strategy's name)."""
        p = self.rules.players
        if len(strategies) != p:
            raise UserError(f"{p} players need {p} strategies, got {len(strategies)}")
        if names is not None and len(names) != p:
            raise UserError(f"{p} players need {p} names, got {len(names)}")
        self.names = [str(n) for n in names] if names is not None else []
        fresh = copy.deepcopy(list(strategies)) if self.logged else []
        self.machine.play(strategies, results=False)
        self.expire()
        if self.logged:
            self._log(fresh)
        return self

    def answer(self, pend: Pending, strategies: Sequence[Any], seats: Sequence[int] | None = None,
               names: Sequence[str] | None = None) -> np.ndarray:  # fmt: skip
        """The actions the strategies (one per seat) give for a pending group, asked through
        the seat's sealed view as a run asks them (the seat's stream moves on); with
        `seats`, a group of another seat is left at 0. `apply` them to play them."""
        own = self._own(pend)
        p = self.rules.players
        if len(strategies) != p:
            raise UserError(f"{p} players need {p} strategies, got {len(strategies)}")
        out = np.zeros(len(own), dtype=np.int64)
        seat = own.player
        if seats is not None and seat not in set(seats):
            return out
        self.machine.seat(strategies)  # started once per seating, as `play` seats them
        g, rows = self.g, own.rows
        rng = SeatRandom(g.seat_keys[rows, seat].copy(), g.seat_pos[rows, seat].copy())
        view = SeatView(self.rules, seat, own.kind, own.legal.copy(), own.info, rng,
                        self.fields(rows, seat), self.games[rows])  # fmt: skip
        strategy = strategies[seat]
        name = (names[seat] if names is not None
                else getattr(strategy, "name", type(strategy).__name__))  # fmt: skip
        acts = np.asarray(getattr(strategy, own.kind.value)(view)).reshape(-1)
        size = own.legal.shape[1]
        ok = len(acts) == len(own) and np.issubdtype(acts.dtype, np.integer)
        ok = ok and bool(((acts >= 0) & (acts < size)).all())
        if not ok or not own.legal[np.arange(len(own)), acts].all():
            raise StrategyError(str(name), own.name, int(self.machine.games[rows[0]]),
                                self.seed, seat, f"answered {acts.tolist()[:8]}: not one "
                                "legal action per game of the view")  # fmt: skip
        g.seat_pos[rows, seat] += np.uint64(view.rng.drawn)
        return acts.astype(np.int64)

    def _log(self, strategies: list[Any]) -> None:
        """The event log of each logged game: the reference engine's log of the same game
        (the same seed, game and seats, copies of the strategies as they were seated),
        checked to end with the machine's scores."""
        scores = self.scores()
        names = self.names or None
        for game in self.logged:
            row = int(np.flatnonzero(self.machine.games == game)[0])
            seats = copy.deepcopy(strategies)
            ref = ReferenceGame(self.rules, seats, seed=self.seed, game=game, names=names)
            self.events[game] = ref.play()
            if list(ref.scores or []) != scores[row].tolist():
                raise AssertionError(
                    f"game {game}: the reference engine scores "
                    f"{ref.scores}, the fast machine {scores[row].tolist()}"
                )

    def results(self) -> pd.DataFrame:
        """The results table of the games (one row per seat of each game; games over)."""
        if not self.over().all():
            raise UserError("results: some games are not over (play them on first)")
        return self.machine.results(self.names or None)

    def round_table(self) -> pd.DataFrame:
        """The per-round table of games made with `rounds=True` (`Batch.round_table`)."""
        return self.machine.round_table()

    @property
    def strategies(self) -> list[Any]:
        """The strategy instances seated (`play`), seat by seat; [] before."""
        return list(self.machine.strategies)


class Game(engine.Game):
    """One game as a forward model (see the module's docstring)."""

    games_type = Games


# --- determinization -------------------------------------------------------------------------
def determinize(view: SeatView, seed: int | SeatRandom | Sequence[int] | np.ndarray, n: int,
                rows: int | Sequence[int] | np.ndarray = 0, *,
                check_rows: bool = True) -> Games:  # fmt: skip
    """n full games per game `rows` of `view`, each consistent with what the view shows of
    its game (R10): the draw pile's cards (the deck less the display and every card taken,
    R10.3) in a random order, each rival's face-down sacrifice types drawn among the cards
    of its public stock, its hand as the public record gives it. World w of the k-th row
    given is game k * n + w of the result, at the same decision as the view (its kind,
    seat, turn); the seats' random choices draw from streams of root `seed`. `seed` may be
    the seat's stream (two values drawn per game of the view, the first row's used), or one
    seed per row. The frame is the floor's (`moaisim.engine.determinize`: the seeds, and a
    view no game can show is one `UserError`, `possible.impossible`); a view must be its
    seat's at its own decision."""
    return engine.determinize(WORLDS, view, seed, n, rows, check_rows=check_rows)


def _build(view: SeatView, rows: np.ndarray, n: int, seeds: np.ndarray) -> Games:
    """n worlds per game `rows` of the view, row k's drawn from root `seeds[k]` alone."""
    parts = [_worlds(view, row, n, Draws(int(seed)), int(seed))
             for row, seed in zip(rows.tolist(), seeds.tolist(), strict=True)]  # fmt: skip
    return parts[0] if len(parts) == 1 else Games.stack(parts)


def _decision(view: SeatView, row: int) -> tuple[Kind, int]:
    """The decision a world of the row waits for: the view's, asking its seat."""
    return view.kind, view.seat


#: What Rapa Nui supplies the floor's `determinize`.
WORLDS = engine.Worlds(SeatView, misshapen, impossible, _build, _decision)


def _worlds(view: SeatView, row: int, n: int, draws: Draws, seed: int) -> Games:
    """n worlds of row `row` of the view (games 0 ... n-1 of root `seed`)."""
    rules, c, p, me = view.rules, view.rules.components, view.players, view.seat
    ids = np.arange(n, dtype=np.int64)
    machine = Machine(rules, seed, ids)
    g = machine.g
    one = lambda name: np.asarray(getattr(view, name)[row])  # noqa: E731
    hands = view.rival_hands()[row]
    hands[me] = one("hand")
    seen = view.rival_stocks()[row]
    for name in ("village", "taken", "played", "discarded", "bought", "gained", "given"):
        getattr(g, name)[:] = one(name)
    g.hand[:] = hands
    g.wood[:], g.glory[:] = one("wood"), one("glory")
    g.supply[:], g.stone[:] = one("supply"), one("stone")
    g.out[:] = one("discarded").sum(axis=0)
    turn, active = int(view.turn[row]), int(view.active[row])
    g.turn[:], g.active[:], g.revealed[:] = turn, active, int(view.revealed[row])
    g.turns[:] = [turn // p + (1 if q < turn % p else 0) for q in range(p)]
    g.passes[:] = int(view.passes[row])
    g.columns[:] = one("display")
    g.col_size[:] = one("column_size")
    # the draw pile: its cards, in an order of each world's own (R10.2)
    unseen = unseen_cards(view, row)
    cards = np.repeat(np.arange(N_KINDS), unseen)
    pile = np.zeros((n, max(1, len(cards))), dtype=np.int64)
    if len(cards):
        keys = draws.uniform(n * len(cards)).reshape(n, len(cards))
        pile[:, : len(cards)] = cards[np.argsort(keys, axis=1, kind="stable")]
    g = g._replace(pile=pile)
    g.pile_pos[:] = 0
    g.pile_len[:] = len(cards)
    g.pile_out[:] = len(cards) == 0 and c.n_cards > c.display_cards
    # stocks: the seat's own as it is; a rival's face-down types drawn from its public stock
    g.stock[:] = seen
    g.down[:] = 0
    g.stock[:, me] = one("stock")
    g.down[:, me] = one("own_down")
    for q in range(p):
        down = int(view.down[row, q])
        if q == me or down == 0:
            continue
        cards_q = np.repeat(np.arange(N_FOODS), seen[q])
        keys = draws.uniform(n * len(cards_q)).reshape(n, len(cards_q))
        picked = cards_q[np.argsort(keys, axis=1, kind="stable")[:, :down]]
        for f in range(N_FOODS):
            count = (picked == f).sum(axis=1)
            g.down[:, q, f] = count
            g.stock[:, q, f] -= count
    _cursor(g, view, row, c.hand)
    machine.g = g
    return Games(machine)


def _cursor(g: m.Arrays, view: SeatView, row: int, hand_size: int) -> None:
    """The worlds' cursor at the view's decision (`machine`'s steps, read from its kind,
    seat and the turn's first column): the step starts again there, asking the same seat."""
    p, seat, active, kind = view.players, view.seat, int(view.active[row]), view.kind
    step = STEP_OF[kind]
    g.cur[:] = 0
    g.cur[:, m.C_STEP] = step
    g.cur[:, m.C_FIRST] = -1
    if kind is Kind.START_SACRIFICE:
        g.cur[:, m.C_POS] = seat
    elif kind in (Kind.SACRIFICE, Kind.MOAI_INCOME, Kind.BONUS):
        g.cur[:, m.C_POS] = (seat - active) % p
        g.cur[:, m.C_PHASE] = 1 if kind is Kind.BONUS else 0
    elif kind is Kind.TAKE:  # R6.1: until the hand is full again; R6.2: the first column
        g.cur[:, m.C_NEED] = max(0, hand_size - int(view.hand[row].sum()))
        g.cur[:, m.C_FIRST] = int(view.first_column[row])
    g.seat_pos[:] = 0
    g.wait[:], g.filled[:], g.paused[:] = False, False, False
