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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from moaisim.checks import check_count, check_seed, game_indices, positions, whole
from moaisim.errors import StrategyError, UserError
from moaisim.games.rapa_nui.engine import machine as m
from moaisim.games.rapa_nui.engine.batch import Batch, lineup
from moaisim.games.rapa_nui.engine.decisions import Kind, action_size
from moaisim.games.rapa_nui.engine.possible import impossible, misshapen, unseen_cards
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
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
#: The most worlds `determinize` builds at once.
MAX_WORLDS = 1_000_000


@dataclass(frozen=True)
class Pending:
    """A decision games wait for: seat `player`'s decision of `kind` in the games `rows`, its
    legal masks [n, A] and what it is about (`info`), as `Games.pending` hands it out (one
    seat per group; `seat` is it game by game, as the toolkit reads a group)."""

    kind: Kind
    player: int
    rows: np.ndarray
    legal: np.ndarray
    info: dict[str, np.ndarray]
    ticket: int = -1
    owner: object = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def seat(self) -> np.ndarray:
        """[n] the seat that decides in each game of the group (all `player`)."""
        return np.full(len(self.rows), self.player, dtype=np.int64)

    def subset(self, keep: np.ndarray) -> Pending:
        """The part of the group at the positions `keep` (a bool mask or indices)."""
        return Pending(self.kind, self.player, self.rows[keep], self.legal[keep],
                       {k: v[keep] for k, v in self.info.items()}, self.ticket,
                       self.owner)  # fmt: skip


def _read_only(a: np.ndarray) -> np.ndarray:
    out = np.array(a)
    out.setflags(write=False)
    return out


class Games(Batch):
    """Many games as one forward model (see the module's docstring)."""

    def __init__(self, rules: Rules, seed: int, games: Sequence[int] | np.ndarray,
                 arrays: m.Arrays | None = None, rounds: bool = False) -> None:  # fmt: skip
        super().__init__(rules, seed, games, rounds)
        if arrays is not None:
            self.g = arrays
        self.names: list[str] = []
        #: the games whose event log is kept (`events`), and the logs once played
        self.logged: list[int] = []
        self.events: dict[int, list[dict[str, Any]]] = {}
        self._owner = object()
        self._ticket = np.full(len(self.games), -1, dtype=np.int64)
        self._tickets = 0
        self._issued: dict[int, Pending] = {}

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
        made = cls(rules, check_seed(seed), index, rounds=bool(rounds))
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

    # --- deciding from outside ------------------------------------------------------------
    def pending(self) -> list[Pending]:
        """The decisions the games wait for, one group per (seat, kind), after playing on
        every step that needs none. A group stays the current decision of its games until it
        is answered (`apply`); `pending()` again gives the same decisions."""
        g = self.g
        todo = np.flatnonzero(~self.over() & ~g.paused)
        if len(todo):  # every seat asked from outside (no strategy: `PAUSE`)
            pol = lineup(self.rules, [None] * self.rules.players, g.seat_keys)
            m.play_rows(g, self.c, pol, todo, self.legal, self.due)
        waiting = np.flatnonzero(g.paused)
        out = []
        for rows, seat, kind in self.groups(waiting):
            ticket = int(self._ticket[rows[0]])
            own = self._issued.get(ticket)
            if own is None or len(own) != len(rows) or not (own.rows == rows).all():
                self._tickets += 1
                ticket = self._tickets
                size = action_size(self.rules, kind)
                own = Pending(kind, seat, rows, g.pend_legal[rows, :size].copy(),
                              self.info(rows, kind), ticket, self._owner)  # fmt: skip
                self._issued[ticket] = own
                self._ticket[rows] = ticket
            out.append(Pending(own.kind, own.player, _read_only(own.rows), _read_only(own.legal),
                               {k: _read_only(v) for k, v in own.info.items()}, own.ticket,
                               own.owner))  # fmt: skip
        return out

    def apply(self, pend: Pending, actions: Any) -> None:
        """One action per game of a pending group, checked (integers, legal); a group that
        is not the games' current decision is refused. A refused call changes nothing."""
        own = self._own(pend)
        try:
            acts = np.asarray(actions)
        except (TypeError, ValueError):
            acts = np.zeros(0)
        acts = acts.reshape(-1) if acts.ndim <= 1 else acts
        if acts.shape != (len(own),) or not np.issubdtype(acts.dtype, np.integer):
            raise UserError(
                f"{own.kind.value}: expected one integer action per game "
                f"({len(own)}), got {np.asarray(actions).tolist()!r}"[:200]
            )
        size = own.legal.shape[1]
        bad = (acts < 0) | (acts >= size)
        bad[~bad] = ~own.legal[np.flatnonzero(~bad), acts[~bad]]
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise UserError(f"{own.kind.value}: action {int(acts[k])} is not legal in game "
                            f"{int(self.games[own.rows[k]])} (legal: "
                            f"{np.flatnonzero(own.legal[k]).tolist()})")  # fmt: skip
        g, rows = self.g, own.rows
        g.slot[rows, own.player] = acts
        g.filled[rows, own.player] = True
        g.wait[rows, own.player] = False
        g.paused[rows] = False
        self._ticket[rows] = -1

    def _own(self, pend: Pending) -> Pending:
        """The engine's own copy of a handed-out group (or of the part `pend` keeps), if it
        is the current decision of its games; a clear line otherwise."""
        if not isinstance(pend, Pending):
            raise UserError(f"expected a pending group from pending(), got {pend!r}")
        if pend.owner is not self._owner:
            raise UserError(f"{pend.kind.value}: this pending group was not issued by these "
                            "games (call their own pending())")  # fmt: skip
        own = self._issued.get(pend.ticket)
        rows = np.asarray(pend.rows, dtype=np.int64)
        current = (own is not None and rows.ndim == 1 and len(rows) > 0
                   and bool(((rows >= 0) & (rows < len(self))).all())
                   and bool((self._ticket[rows] == pend.ticket).all()))  # fmt: skip
        if not current or own is None:
            raise UserError(f"{pend.kind.value}: this pending group is not the current "
                            "decision of its games (answered already): call pending() "
                            "again")  # fmt: skip
        if len(rows) == len(own) and (rows == own.rows).all():
            return own
        return own.subset(np.isin(own.rows, rows))

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
        super().play(strategies)
        self._ticket[:] = -1
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
        if seats is not None and own.player not in set(seats):
            return out
        g, rows = self.g, own.rows
        rng = SeatRandom(g.seat_keys[rows, own.player].copy(), g.seat_pos[rows, own.player].copy())
        view = SeatView(self.rules, own.player, own.kind, own.legal.copy(), own.info, rng,
                        self.fields(rows, own.player))  # fmt: skip
        view.rows = rows
        strategy = strategies[own.player]
        name = (names[own.player] if names is not None
                else getattr(strategy, "name", type(strategy).__name__))  # fmt: skip
        acts = np.asarray(getattr(strategy, own.kind.value)(view)).reshape(-1)
        size = own.legal.shape[1]
        ok = len(acts) == len(own) and np.issubdtype(acts.dtype, np.integer)
        ok = ok and bool(((acts >= 0) & (acts < size)).all())
        if not ok or not own.legal[np.arange(len(own)), acts].all():
            raise StrategyError(str(name), own.kind.value, int(self.games[rows[0]]), self.seed,
                                own.player, f"answered {acts.tolist()[:8]}: not one legal "
                                "action per game of the view")  # fmt: skip
        g.seat_pos[rows, own.player] += np.uint64(view.rng.drawn)
        return acts.astype(np.int64)

    def _log(self, strategies: list[Any]) -> None:
        """The event log of each logged game: the reference engine's log of the same game
        (the same seed, game and seats, copies of the strategies as they were seated),
        checked to end with the machine's scores."""
        scores = self.scores()
        names = self.names or None
        for game in self.logged:
            row = int(np.flatnonzero(self.games == game)[0])
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
        return super().results(self.names or None)

    # --- copies and views -----------------------------------------------------------------
    def clone(self, rows: Sequence[int] | np.ndarray | None = None, seed: int | None = None,
              games: Sequence[int] | np.ndarray | None = None) -> Games:  # fmt: skip
        """Copies of the games at `rows` (default all; a row may repeat). With `seed`, the
        copies' seats draw their random choices from streams of root `seed` (copy k as game
        `games[k]` of it, default k); without, they are exact copies that play on as the
        originals would."""
        rows = positions(np.arange(len(self)) if rows is None else rows, len(self),
                         "clone: rows")  # fmt: skip
        if not len(rows):
            raise UserError("clone: rows must name at least one game")
        arrays = m.Arrays(*(np.ascontiguousarray(a[rows]) for a in self.g))
        if seed is None:
            if games is not None:
                raise UserError("games= numbers the copies of a new stream space: give seed=")
            ids = self.games[rows] if len(np.unique(rows)) == len(rows) else np.arange(len(rows))
            copy = Games(self.rules, self.seed, ids, arrays, self.c.keep_rounds)
        else:
            ids = np.arange(len(rows))
            if games is not None:
                ids = game_indices(np.asarray(games), "clone: games", distinct=False)
            if ids.shape != rows.shape:
                raise UserError(f"games= needs one number per copy ({len(rows)}), got "
                                f"{ids.shape}")  # fmt: skip
            seed = check_seed(seed)
            fresh = Streams(seed, ids, self.rules.players)
            arrays.seat_keys[:] = fresh.seat_keys
            arrays.seat_pos[:] = 0
            copy = Games(self.rules, seed, ids, arrays, self.c.keep_rounds)
        copy.names = list(self.names)
        return copy

    @staticmethod
    def stack(parts: Sequence[Games]) -> Games:
        """One forward model over the games of several, one after the other (numbered
        0..n-1; each keeps its own seats' streams)."""
        if not parts or not all(isinstance(p, Games) for p in parts):
            raise UserError("stack needs a list of Games (at least one)")
        rules = parts[0].rules
        if any(p.rules != rules for p in parts[1:]):
            raise UserError("stack: the games are played under other rules: a batch has one "
                            "set of rules")  # fmt: skip
        arrays = m.Arrays(*(np.concatenate(col) for col in zip(*(p.g for p in parts),
                                                                strict=True)))  # fmt: skip
        n = sum(len(p) for p in parts)
        return Games(rules, parts[0].seed, np.arange(n), arrays, parts[0].c.keep_rounds)

    def observe(self, seat: int, rows: np.ndarray | None = None,
                kind: Kind | None = None) -> SeatView:  # fmt: skip
        """Seat `seat`'s view of the games `rows` (default all), as at a decision of `kind`
        (R10); its `legal` and `info` are empty and its stream is a copy of the seat's."""
        p = self.rules.players
        if not whole(seat) or not 0 <= seat < p:
            raise UserError(f"observe: seat must be 0 to {p - 1}, got {seat!r}")
        if kind is not None and not isinstance(kind, Kind):
            raise UserError(f"observe: kind must be a Kind, got {kind!r}")
        rows = positions(np.arange(len(self)) if rows is None else rows, len(self),
                         "observe: rows")  # fmt: skip
        g = self.g
        rng = SeatRandom(g.seat_keys[rows, seat].copy(), g.seat_pos[rows, seat].copy())
        legal = np.zeros((len(rows), 0), dtype=bool)
        return SeatView(self.rules, int(seat), kind or Kind.PLAY, legal, {}, rng,
                        self.fields(rows, int(seat)))  # fmt: skip

    # --- where the games stand ------------------------------------------------------------
    def scores(self) -> np.ndarray:
        """[n, P] each seat's score now (R9.1, the stock at the stone's values now)."""
        return sum(self.parts().values())  # type: ignore[return-value]

    def returns(self) -> np.ndarray:
        """[n, P] each seat's share of the win of the games over (R9.4); nan for the others."""
        scores = self.scores().astype(np.int64)
        key = scores * (1 << 20)
        if self.rules.winner_tie == "most_wood":  # R9.4: wood breaks a tie of scores
            key = key + self.g.wood
        first = key == key.max(axis=1, keepdims=True)
        out = first / first.sum(axis=1, keepdims=True)
        out[~self.over()] = np.nan
        return out


class Game:
    """One game as a forward model (see the module's docstring)."""

    def __init__(self, games: Games) -> None:
        if not isinstance(games, Games) or len(games) != 1:
            raise UserError("a Game is one game: Game.new(rules, seed, game), or Game(games) "
                            "of a Games holding one")  # fmt: skip
        self.games = games

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, game: int = 0) -> Game:
        """Game `game` of root seed `seed`, dealt (R1) as in a run."""
        return cls(Games.new(rules, seed, [game]))

    @property
    def rules(self) -> Rules:
        """The rules the game is played under."""
        return self.games.rules

    def _next(self) -> Pending | None:
        waiting = self.games.pending() if not self.games.over()[0] else []
        return waiting[0] if waiting else None

    def legal(self) -> tuple[Kind, np.ndarray, np.ndarray]:
        """(the decision's kind, the seat that decides [1], its legal mask [1, A])."""
        pend = self._next()
        if pend is None:
            raise UserError("the game is over: no decision is pending")
        return pend.kind, np.array([pend.player]), pend.legal.copy()

    def apply(self, action: Any) -> None:
        """The pending decision's action: an int (or a list of the one game's one action,
        as `Games.apply` takes); anything else is refused as it is, never flattened (as
        Moai's `Game.apply` does)."""
        pend = self._next()
        if pend is None:
            raise UserError("the game is over: no decision is pending")
        try:
            actions = np.asarray(action)
        except (TypeError, ValueError):
            raise UserError(f"{pend.kind.value}: got {action!r}; expected an integer "
                            "action") from None  # fmt: skip
        self.games.apply(pend, actions[None] if actions.ndim == 0 else actions)

    def clone(self, seed: int | None = None) -> Game:
        """A copy of the game as it stands; with `seed`, its seats' streams of its own."""
        return Game(self.games.clone(seed=seed))

    def observe(self, seat: int) -> SeatView:
        """Seat `seat`'s view (R10), as at the pending decision."""
        pend = self._next()
        return self.games.observe(seat, kind=pend.kind if pend is not None else None)

    def is_over(self) -> bool:
        """The game is over (R8): no decision is left."""
        self._next()
        return bool(self.games.over()[0])

    def scores(self) -> np.ndarray:
        """[P] each seat's score now."""
        return self.games.scores()[0]

    def returns(self) -> np.ndarray:
        """[P] each seat's share of the win; nan before the end."""
        return self.games.returns()[0]


# --- determinization -------------------------------------------------------------------------
def determinize(view: SeatView, seed: int | SeatRandom, n: int,
                rows: int | Sequence[int] | np.ndarray = 0) -> Games:  # fmt: skip
    """n full games per game `rows` of `view`, each consistent with what the view shows of
    its game (R10): the draw pile's cards (the deck less the display and every card taken,
    R10.3) in a random order, each rival's face-down sacrifice types drawn among the cards
    of its public stock, its hand as the public record gives it. World w of the k-th row
    given is game k * n + w of the result, at the same decision as the view (its kind,
    seat, turn); the seats' random choices draw from streams of root `seed`. `seed` may be
    the seat's stream (two values drawn per game of the view, the first row's used)."""
    if not isinstance(view, SeatView):
        raise UserError(f"determinize needs a SeatView (a strategy's view or Games.observe), "
                        f"got {type(view).__name__}")  # fmt: skip
    rows = positions(rows, len(view), "determinize: rows")
    if not len(rows):
        raise UserError("determinize: rows must name at least one game of the view")
    n = check_count(n, "determinize: n (worlds per game)", 1, MAX_WORLDS // len(rows))
    problem = misshapen(view)
    if problem:
        raise UserError(f"determinize: no game can show this view: {problem}")
    for row in rows.tolist():
        problem = impossible(view, row)
        if problem:  # checked here, at the door: the machine's loops index by these counts
            raise UserError(f"determinize: no game can show this view (row {row}): {problem}")
    stream = seed if isinstance(seed, SeatRandom) else None
    if stream is not None:  # peeked: the stream moves on only once the worlds are made
        u = SeatRandom(stream.keys, stream.position).uniform(2)[rows[0]]
        seed = int(u[0] * 2**32) * 2**32 + int(u[1] * 2**32)
    seed = check_seed(seed, "determinize: seed")
    draws = Draws(seed)
    parts = [_worlds(view, row, n, draws, seed, k) for k, row in enumerate(rows.tolist())]
    for row, part in zip(rows.tolist(), parts, strict=True):
        waiting = [(pend.kind, pend.player, len(pend)) for pend in part.pending()]
        if waiting != [(view.kind, view.seat, n)]:  # e.g. a decision with one legal action
            asked = ", ".join(f"{k.value} of seat {q}" for k, q, _ in waiting) or "nothing"
            raise UserError(f"determinize: no game can show this view (row {row}): its "
                            f"fields do not ask seat {view.seat} {view.kind.value} (a game "
                            f"there asks {asked})")  # fmt: skip
    if stream is not None:
        stream.uniform(2)
    return parts[0] if len(parts) == 1 else Games.stack(parts)


def _worlds(view: SeatView, row: int, n: int, draws: Draws, seed: int, k: int) -> Games:
    """n worlds of row `row` of the view (games k * n ... of root `seed`)."""
    rules, c, p, me = view.rules, view.rules.components, view.players, view.seat
    ids = np.arange(k * n, (k + 1) * n, dtype=np.int64)
    worlds = Games(rules, seed, ids)
    g = worlds.g
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
    worlds.g = g
    return worlds


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
