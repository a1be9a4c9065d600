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

import copy
from collections.abc import Sequence
from typing import Any, ClassVar, Self

import numpy as np
import pandas as pd

from moaisim import engine
from moaisim.checks import check_seed, game_indices, whole
from moaisim.engine.answers import BadAnswer, check
from moaisim.engine.forms import Formed
from moaisim.errors import StrategyError, UserError
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.asked import ReferenceGame
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
    def asking(cls, rules: Rules, seed: int, games: Sequence[int] | np.ndarray,
               rounds: bool = False) -> Machine:  # fmt: skip
        """Games `games` of root seed `seed`, set up, every seat asked from outside."""
        out = super().new(rules, seed, games, rounds=rounds)
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
        """[B, P] each seat's glory were the game to end now before its islands are scored:
        its glory, and until the final scoring has begun 2 a hut on the board (R10.1)."""
        g = self.g
        glory = g.seat[:, :, m.S_GLORY].copy()
        huts = self.c.huts - g.seat[:, :, m.S_HUTS]
        before = (g.count[:, m.G_ROUND] <= self.c.rounds)[:, None]
        return glory + np.where(before, 2 * huts, 0)

    def shares(self) -> np.ndarray:
        """[B, P] each seat's share of the win were the game to end now: the highest glory,
        ties broken by money, fish, boats on the board and huts built (R10.5)."""
        won = self.finals()[:, :, 5].astype(float)
        return won / won.sum(axis=1, keepdims=True)


class Games(engine.Games):
    """Kaivai's forward model over the compiled machine."""

    Kind = Kind
    machine: Machine
    #: Played in rounds (R2): `play(..., last_round=k)` stops after round k (a search's
    #: rollouts to a horizon).
    ROUNDS: ClassVar[bool] = True

    def __init__(self, machine: Machine) -> None:
        super().__init__(machine)
        self.names: list[str] = []
        #: the games whose event log is kept (`events`), and the logs once played
        self.logged: list[int] = []
        self.events: dict[int, list[dict[str, Any]]] = {}

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, games: Sequence[int] | np.ndarray | int = (0,),
            log: Sequence[int] | None = None, rounds: bool = False,
            strategy_seed: int | None = None) -> Self:  # fmt: skip
        """Games `games` of root seed `seed`, set up (R1) as in a run. `log` names games whose
        event log is kept (`events`, after `play`: the reference engine's log of the same
        game, checked to end with the machine's glory); `rounds` keeps the per-round table
        (`round_table`). `strategy_seed` gives the seats' streams those of another root seed:
        the same board and dice, other strategy draws (the balance sheet's luck)."""
        if not isinstance(rules, Rules):
            raise UserError(f"Games.new needs Kaivai's Rules (make_rules(players, ...)), "
                            f"got {type(rules).__name__}")  # fmt: skip
        listed = [games] if whole(games) else list(games)  # type: ignore[arg-type]
        index = game_indices(np.asarray(listed, dtype=np.int64), "games")
        made = cls(Machine.asking(rules, check_seed(seed), index, rounds=bool(rounds)))
        if strategy_seed is not None:
            fresh = Streams(check_seed(strategy_seed, "strategy_seed"), index, rules.players)
            made.machine.g.rand[:, : rules.players] = fresh.seat_keys
        if log is not None:
            wanted = game_indices(np.asarray(list(log), dtype=np.int64), "log")
            missing = sorted(set(wanted.tolist()) - set(index.tolist()))
            if missing:
                raise UserError(f"log: game {missing[0]} is not one of these games")
            made.logged = wanted.tolist()
        return made

    @staticmethod
    def concat(machines: Sequence[Machine]) -> Machine:
        first = machines[0]
        g = m.Arrays(*(np.concatenate(parts) for parts in zip(*(x.g for x in machines),
                                                                strict=True)))  # fmt: skip
        games = np.concatenate([x.games for x in machines])
        return first.holding(first.rules, g, first.seed, games)

    def _made(self, machine: engine.Machine) -> Self:
        made = type(self)(machine)  # type: ignore[arg-type]
        made.names = list(self.names)
        return made

    def play(self, strategies: Sequence[Any], names: Sequence[str] | None = None,
             last_round: int | None = None) -> Self:  # fmt: skip
        """Every game to its end (or, with `last_round`, to the end of that round), seat q
        played by strategies[q] (a method per `Kind`, answering a view with an index into
        each game's options), named `names[q]` in the results (default: each strategy's
        name). A seat with a compiled form plays in the machine; the others are asked
        through views, every seat's games at a decision of a kind at once."""
        p = self.rules.players
        if len(strategies) != p:
            raise UserError(f"{p} players need {p} strategies, got {len(strategies)}")
        if names is not None and len(names) != p:
            raise UserError(f"{p} players need {p} names, got {len(names)}")
        self.names = [str(n) for n in names] if names is not None else []
        fresh = copy.deepcopy(list(strategies)) if self.logged else []
        mach = self.machine
        mach.seat(strategies)
        asking = mach._lineup
        mach._lineup = mach.lineup(strategies)
        mach.last_round = max(0, int(last_round)) if last_round is not None else 0
        try:
            while waiting := mach.next_decisions():
                for pend in waiting:
                    self._ask(pend, strategies)
        finally:
            mach._lineup, mach.last_round = asking, 0
        self.expire()
        if self.logged:
            self._log(fresh)
        return self

    def _ask(self, pend: engine.Pending, strategies: Sequence[Any]) -> None:
        """A group's seat answers its games through a view; the answers go into the games."""
        mach, q = self.machine, int(pend.seat[0])
        view = mach.view(q, pend.rows, pend.kind, pend.legal, pend.info)
        strategy = strategies[q]
        name = self.names[q] if self.names else getattr(strategy, "name", type(strategy).__name__)
        game = int(mach.games[pend.rows[0]])
        try:
            answer = getattr(strategy, pend.name)(view)
        except Exception as exc:
            raise StrategyError(str(name), pend.name, game, mach.seed, q,
                                f"raised {type(exc).__name__}: {exc}") from exc  # fmt: skip
        try:
            actions = check(answer, pend.legal)
        except BadAnswer as bad:
            raise StrategyError(str(name), pend.name, game, mach.seed, q,
                                f"{bad.problem}: not one legal action per game of the "
                                "view") from None  # fmt: skip
        mach.advance(q, pend.rows, view.rng)
        mach.put(pend, actions)

    def _log(self, strategies: list[Any]) -> None:
        """The event log of each logged game: the reference engine's log of the same game
        (the same seed, game and seats, copies of the strategies as they were seated),
        checked to end with the machine's glory."""
        scores = self.scores()
        for game in self.logged:
            row = int(np.flatnonzero(self.machine.games == game)[0])
            ref = ReferenceGame(self.rules, copy.deepcopy(strategies), seed=self.seed,
                                game=game, names=self.names or None)  # fmt: skip
            self.events[game] = ref.play()
            if ref.final_scores() != scores[row].tolist():
                raise AssertionError(f"game {game}: the reference engine scores "
                                     f"{ref.final_scores()}, the machine "
                                     f"{scores[row].tolist()}")  # fmt: skip

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
    """One game of Kaivai as a forward model."""

    games_type = Games


class Strategy(Formed, Parameterised):
    """The floor's base of a Kaivai strategy: a method per `Kind`, each answering a view
    with one index per game into its options; by default uniformly random among them, one
    value of the seat's stream a decision (as the reference engine's `RandomStrategy` and
    the machine's compiled random draw). Parameters: `params`, `bounds`."""

    name = "random"
    #: The decision kinds (`moaisim.engine.forms.Formed`: which methods a compiled form
    #: leaves alone); `form`, the compiled form of `by_policy` (`batch.FAMILIES`), "random".
    decision_kinds: ClassVar[Any] = Kind
    form: ClassVar[str] = "random"

    def check_players(self, players: int) -> None:
        """Refuse, with an `UnknownStrategyError`, a player count the strategy is not made
        for; called as a lineup is read. Default: every count."""

    def start(self, rules: object, seat: int, games: np.ndarray) -> None:
        """Called before a batch's games start (a mixture draws its components, `tuned`
        reads its player count's weights). Default: nothing."""

    def vector(self, rules: object) -> np.ndarray:
        """A heuristic form's weights under `rules` (`policy.NAMES` order); none for random."""
        return np.zeros(0)

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
