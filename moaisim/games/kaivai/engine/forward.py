"""Kaivai's forward model: games as state machines a program drives, copies and looks ahead
in (docs/design.md, "The forward model"), over the compiled machine (`batch.Batch`).

    games = Games.new(Rules.make(4), seed=7, games=range(100))
    for pend in games.pending():            # one group per (kind, seat)
        games.apply(pend, choose(pend))     # an index into each row's options
    games.play([Strategy()] * 4)            # or play on with floor strategies

Every seat is asked from outside: a group's `legal` [n, A] marks each game's options (the
first n_k of A, in the reference engine's order) and `info["options"]` holds them as the
machine lists them (`batch.Batch.option` names one). `clone(rows, seed=...)` copies games
mid-turn; with a seed the copies' dice (R8.2.2) and seats' draws come from streams of their
own. `observe(seat)` is the view the seat would be given (R11).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from moaisim import engine
from moaisim.engine.answers import BadAnswer, check
from moaisim.errors import UserError
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.engine.decisions import KINDS, Kind
from moaisim.games.kaivai.engine.views import SeatView, arrays_seen
from moaisim.games.kaivai.rules.model import Rules
from moaisim.rng import SeatRandom, Streams
from moaisim.strategy_params import Parameterised


class Machine(Batch):
    """The compiled machine as the forward model drives it (`moaisim.engine.Machine`): every
    seat asked from outside, answers checked and put into the games' slots, copies, views."""

    @classmethod
    def asking(cls, rules: Rules, seed: int, games: Sequence[int] | np.ndarray) -> Machine:
        """Games `games` of root seed `seed`, set up, every seat asked from outside."""
        out = super().new(rules, seed, games)
        out._lineup = out.lineup([None] * rules.players)
        return out

    @staticmethod
    def holding(rules: Rules, g: m.Arrays, seed: int, games: np.ndarray) -> Machine:
        """A machine of `rules` over the state `g` (copies, stacks, determinized worlds),
        every seat asked from outside."""
        out = Machine(rules, g, seed, np.asarray(games, dtype=np.int64))
        out._lineup = out.lineup([None] * rules.players)
        return out

    def next_decisions(self) -> list[engine.Pending]:
        """Every game played on to its next question; the questions grouped by (kind, seat),
        kinds in the machine's order, then seats."""
        cur = self.g.cur
        todo = np.flatnonzero((cur[:, m.C_PAUSED] == 0) & (cur[:, m.C_STEP] < m.OVER))
        if len(todo):
            self._resume(todo)
        waiting = np.flatnonzero(cur[:, m.C_PAUSED])
        if not len(waiting):
            return []
        options = []
        for r in waiting:
            n = m.pending_options(self.g, self.geo, self.sc, self.c, int(r))
            options.append(self.sc[m.W_OPTS, :n].copy())
        out = []
        kinds, seats = cur[waiting, m.C_PEND_KIND], cur[waiting, m.C_PEND_SEAT]
        for key in sorted(set(zip(kinds.tolist(), seats.tolist(), strict=True))):
            pick = np.flatnonzero((kinds == key[0]) & (seats == key[1]))
            width = max(len(options[i]) for i in pick)
            legal = np.zeros((len(pick), width), dtype=bool)
            codes = np.full((len(pick), width), -1, dtype=np.int64)
            for k, i in enumerate(pick):
                legal[k, : len(options[i])] = True
                codes[k, : len(options[i])] = options[i]
            out.append(engine.Pending(KINDS[key[0]], waiting[pick],
                                      np.full(len(pick), key[1], dtype=np.int64), legal,
                                      {"options": codes}))  # fmt: skip
        return out

    def checked(self, pend: engine.Pending, actions: Any) -> np.ndarray:
        try:
            return check(actions, pend.legal)
        except BadAnswer as bad:
            game = int(self.games[pend.rows[bad.rows[0]]]) if len(bad.rows) else -1
            raise UserError(f"{pend.name}: got {bad.problem.removeprefix('returned ')} in "
                            f"game {game}") from None  # fmt: skip

    def put(self, pend: engine.Pending, actions: np.ndarray) -> None:
        """Each answer into its game's slot: the game plays on when next asked."""
        cur = self.g.cur
        cur[pend.rows, m.C_SLOT] = actions
        cur[pend.rows, m.C_FILLED] = 1
        cur[pend.rows, m.C_PAUSED] = 0

    def _copied(self, rows: np.ndarray) -> m.Arrays:
        return m.Arrays(*(a[rows].copy() for a in self.g))

    def take(self, rows: np.ndarray, games: np.ndarray | None) -> Machine:
        ids = self.games[rows] if games is None else np.asarray(games, dtype=np.int64)
        return self.holding(self.rules, self._copied(rows), self.seed, ids)

    def fork(self, rows: np.ndarray, seed: int, games: np.ndarray) -> Machine:
        """Copies whose dice and seats' draws come from the streams of root `seed`, copy k
        as its game `games[k]` (their positions start again at 0)."""
        g = self._copied(rows)
        streams = Streams(seed, np.asarray(games, dtype=np.int64), self.rules.players)
        p = self.rules.players
        g.rand[:, :p] = streams.seat_keys
        g.rand[:, m.R_POS : m.R_POS + p] = 0
        g.rand[:, m.R_CHANCE :] = streams.chance_keys
        return self.holding(self.rules, g, seed, games)

    def view(self, seat: int, rows: np.ndarray, kind: Any, legal: np.ndarray | None = None,
             info: dict[str, np.ndarray] | None = None) -> SeatView:  # fmt: skip
        legal = np.zeros((len(rows), 0), dtype=bool) if legal is None else legal
        rng = SeatRandom(self.g.rand[rows, seat].copy(), self.g.rand[rows, m.R_POS + seat].copy())
        return SeatView(self.rules, seat, kind if kind is not None else Kind.ACTION, legal,
                        dict(info or {}), rng, self.games[rows],
                        **arrays_seen(self.g, self.rules, seat, rows))  # fmt: skip

    def advance(self, seat: int, rows: np.ndarray, rng: SeatRandom) -> None:
        """The seat's stream moved on past what a view's strategy drew."""
        if rng.drawn:
            self.g.rand[rows, m.R_POS + seat] += np.uint64(rng.drawn)

    def scores(self) -> np.ndarray:
        """[B, P] each seat's glory (R10)."""
        return self.g.seat[:, :, m.S_GLORY].copy()

    def shares(self) -> np.ndarray:
        """[B, P] each seat's share of the win were the game to end now: the highest glory,
        ties broken by money, fish, boats on the board and huts built (R10.5)."""
        won = self.finals()[:, :, 5].astype(float)
        return won / won.sum(axis=1, keepdims=True)


class Games(engine.Games):
    """Kaivai's forward model over the compiled machine."""

    Kind = Kind

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, games: Sequence[int] | np.ndarray = (0,),
            **how: Any) -> Self:  # fmt: skip
        return cls(Machine.asking(rules, seed, np.atleast_1d(np.asarray(games, np.int64))))

    @staticmethod
    def concat(machines: Sequence[Machine]) -> Machine:
        first = machines[0]
        g = m.Arrays(*(np.concatenate(parts) for parts in zip(*(x.g for x in machines),
                                                                strict=True)))  # fmt: skip
        games = np.concatenate([x.games for x in machines])
        return first.holding(first.rules, g, first.seed, games)

    def play(self, strategies: Sequence[Any]) -> Self:
        """Every game to its end, seat q asked through strategies[q] (a method per `Kind`,
        answering a view with an index into each game's options)."""
        if len(strategies) != self.rules.players:
            raise UserError(f"{self.rules.players} players need {self.rules.players} "
                            f"strategies, got {len(strategies)}")  # fmt: skip
        mach = self.machine
        for q, seat in enumerate(strategies):
            if hasattr(seat, "start"):  # a strategy that picks its weights by the rules
                seat.start(self.rules, q, self.games)
        while waiting := mach.next_decisions():
            for pend in waiting:
                q = int(pend.seat[0])
                view = mach.view(q, pend.rows, pend.kind, pend.legal, pend.info)
                actions = mach.checked(pend, getattr(strategies[q], pend.name)(view))
                mach.advance(q, pend.rows, view.rng)
                mach.put(pend, actions)
        self.expire()
        return self


class Game(engine.Game):
    """One game of Kaivai as a forward model."""

    games_type = Games


class Strategy(Parameterised):
    """The floor's base of a Kaivai strategy: a method per `Kind`, each answering a view
    with one index per game into its options; by default uniformly random among them, one
    value of the seat's stream a decision (as the reference engine's `RandomStrategy` and
    the machine's compiled random draw). Parameters: `params`, `bounds`."""

    name = "random"
    #: The machine's compiled form of `by_policy` (`batch.Batch.lineup`): a subclass that
    #: overrides `by_policy` declares its own.
    compiled = "random"

    def by_policy(self, view: SeatView) -> np.ndarray:
        """Every decision's answer unless a method of its kind is overridden."""
        return view.rng.choice(view.legal)


def _asks_by_policy(kind: Kind) -> Any:
    def ask(self: Strategy, view: SeatView) -> np.ndarray:
        return self.by_policy(view)

    ask.__name__ = ask.__qualname__ = kind.value
    ask.__doc__ = f"The `{kind.value}` decision: `by_policy` unless overridden."
    return ask


for _kind in Kind:  # one method per decision kind, each asking `by_policy`
    setattr(Strategy, _kind.value, _asks_by_policy(_kind))


def conserved(games: Games) -> list[str]:
    """Where the machine's games break what the rules keep (R0, R1.4, R8): each seat's huts,
    boats and statues (supply + board) as dealt, glory the sum of its parts, money, fish,
    influence and glory never negative, fish on a hut within its room, islands never
    merged (a hut next to two islands)."""
    mach, out = games.machine, []
    g, c, p = mach.g, mach.c, mach.rules.players
    kind, owner, island = g.hexes[:, m.H_KIND], g.hexes[:, m.H_OWNER], g.hexes[:, m.H_ISLAND]
    for i in range(len(mach)):
        name = f"game {int(mach.games[i])}"
        for s in range(p):
            st = g.seat[i, s]
            huts = int(((kind[i] >= 0) & (kind[i] != m.SITE) & (owner[i] == s)).sum())
            temples = int(((kind[i] == m.TEMPLE) & (owner[i] == s)).sum())
            boats = int((g.hexes[i, m.H_BOAT] == s).sum())
            if huts + st[m.S_HUTS] != c.huts:
                out.append(f"{name}: seat {s} has {huts} huts built and {st[m.S_HUTS]} left")
            if temples + st[m.S_STATUES] != c.statues:
                out.append(f"{name}: seat {s} has {temples} temples and {st[m.S_STATUES]} "
                           "statues left")  # fmt: skip
            if boats + st[m.S_BOATS] != c.boats:
                out.append(f"{name}: seat {s} has {boats} boats out and {st[m.S_BOATS]} left")
            parts = st[m.S_FEASTS] + st[m.S_HUT_GLORY] + st[m.S_SITES] + st[m.S_PIRACY]
            if parts != st[m.S_GLORY] or st[m.S_GLORY] < 0 or st[m.S_INFLUENCE] < 0:
                out.append(f"{name}: seat {s} glory {st[m.S_GLORY]} (parts {parts}), "
                           f"influence {st[m.S_INFLUENCE]}")  # fmt: skip
            if (g.vals[i, s] < 0).any():
                out.append(f"{name}: seat {s} holds a negative count of shells or fish")
        if ((g.hexes[i, m.H_FISH] < 0) | (g.hexes[i, m.H_FISH] > c.capacity)).any():
            out.append(f"{name}: a hut holds fish beyond its room")
        for h in np.flatnonzero(kind[i] >= 0):
            near = mach.geo.nbr[h][mach.geo.nbr[h] >= 0]
            others = {int(island[i, x]) for x in near if kind[i, x] >= 0} - {int(island[i, h])}
            if others:
                out.append(f"{name}: hex {int(h)} of island {int(island[i, h])} touches "
                           f"island {sorted(others)[0]}")  # fmt: skip
    return out
