"""The forward model: a game as a state machine that a program drives, copies and looks ahead
in (docs/design.md, "The forward model").

`Game` is one game, `Games` many at once (the batch engine's machine, `engine.batch.machine`,
driven from outside instead of by strategies):

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

from moaisim.engine.batch.machine import Machine, Pending
from moaisim.engine.batch.state import BatchState
from moaisim.engine.batch.work import phase_counts
from moaisim.engine.decisions import Kind, strengths
from moaisim.engine.steps import Step
from moaisim.engine.views import FIELDS, HIDDEN, PARTS, SeatView, make_view, next_epochs
from moaisim.errors import UserError
from moaisim.rng import Draws, SeatRandom, Streams
from moaisim.rules import Rules
from moaisim.rules.codes import CAMP, N_CARD_TYPES, RESERVE, TILE_OUT, TILE_SUPPLY

#: Every part of a game a view can show (`observe` shows them all).
EVERY_PART = frozenset(PARTS)


class Games:
    """Many games as one forward model (see the module's docstring): `pending()` lists the
    decisions they wait for, `apply(pending, actions)` answers one of them."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    @classmethod
    def new(cls, rules: Rules, seed: int, games: Sequence[int] | np.ndarray) -> Games:
        """Games `games` of root seed `seed`, set up (R1): each the same deal as in a run."""
        return cls(Machine(rules, seed, games))

    @property
    def rules(self) -> Rules:
        return self.machine.rules

    @property
    def state(self) -> BatchState:
        return self.machine.state

    def __len__(self) -> int:
        return self.machine.b

    def pending(self) -> list[Pending]:
        """The decisions the games wait for, one group per step (runs what needs none)."""
        return self.machine.advance()

    def apply(self, pend: Pending, actions: np.ndarray) -> None:
        """One action per entry of a pending group (for a bid, [n, 6] card counts)."""
        actions = np.asarray(actions)
        shape = (len(pend), N_CARD_TYPES) if pend.kind is Kind.BID else (len(pend),)
        if actions.shape != shape:
            raise UserError(f"{pend.kind.value}: expected actions of shape {shape}, got "
                            f"{actions.shape}")  # fmt: skip
        if pend.kind is Kind.BID:
            bad = ((actions < 0) | (actions > pend.legal)).any(axis=1)
        else:
            inside = (actions >= 0) & (actions < pend.legal.shape[1])
            bad = ~inside
            bad[inside] = ~pend.legal[np.flatnonzero(inside), actions[inside]]
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise UserError(f"{pend.kind.value}: illegal action {actions[k].tolist()} in game "
                            f"{int(self.machine.games[pend.rows[k]])}")  # fmt: skip
        self.machine.apply(pend, actions)

    def clone(self, rows: Sequence[int] | np.ndarray | None = None, seed: int | None = None,
              games: Sequence[int] | np.ndarray | None = None) -> Games:  # fmt: skip
        """Copies of the games at `rows` (default all; a row may repeat). With `seed`, the
        copies draw their future chance and their seats' streams from a stream space of
        their own (root seed `seed`, numbered `games`, default 0..n-1), never the real
        games'; without, they are exact copies that play on as the originals would."""
        m = self.machine
        rows = np.arange(m.b) if rows is None else np.asarray(rows, dtype=np.int64)
        if seed is None:
            if games is not None:
                raise UserError("games= numbers the copies of a new stream space: give seed=")
            return Games(m.take(rows))
        ids = np.arange(len(rows)) if games is None else np.asarray(games, dtype=np.int64)
        streams = Streams(int(seed) % 2**64, ids, m.rules.players)
        copy = m.take(rows, games=ids, streams=streams)
        copy.seed = int(seed) % 2**64
        return Games(copy)

    def observe(self, seat: int, rows: np.ndarray | None = None,
                kind: Kind | None = None) -> SeatView:  # fmt: skip
        """The sealed view of `seat` over the games `rows` (default all): every field a
        strategy may read (R5.9), as at a decision of `kind`; its `legal` and `info` are
        empty, and its random stream draws from a stream of its own."""
        m = self.machine
        rows = np.arange(m.b) if rows is None else np.asarray(rows, dtype=np.int64)
        s = m.state
        rng = Streams(m.seed, m.games[rows], m.rules.players).seat(seat, np.arange(len(rows)))
        legal = np.zeros((len(rows), 0), dtype=bool)
        games, cursor = m.games[rows].copy(), s.cursor_records(rows)
        return make_view(kind or Kind.WORK, seat, m.rules, EVERY_PART, s.public, s.secrets(),
                         rows, games, legal, rng, {}, cursor)  # fmt: skip

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
        if len(games) != 1:
            raise ValueError("a Game is one game")
        self.games = games
        self._pending: Pending | None = None

    @classmethod
    def new(cls, rules: Rules, seed: int = 0, game: int = 0) -> Game:
        """Game `game` of root seed `seed`, set up (R1): the same deal as in a run."""
        return cls(Games.new(rules, seed, [game]))

    @property
    def rules(self) -> Rules:
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
        actions = np.asarray(action)
        if pend.kind is Kind.BID:
            actions = actions.reshape(len(pend), N_CARD_TYPES)
        else:
            actions = actions.reshape(len(pend))
        self.games.apply(pend, actions.astype(np.int64))
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


# --- determinization -----------------------------------------------------------------------


def determinize(view: SeatView, seed: int | SeatRandom, n: int, row: int = 0) -> Games:
    """n full games consistent with what `view` (one seat's view with every field, at a
    decision) shows of its game `row` (R5.9): the rivals' hands drawn from the cards the seat
    has not seen (the public hand sizes kept), the decks' orders and the epoch cards left out
    by V3 at random, the strengths of face-down and camp pawns drawn from what each clan's
    counts allow, the rivals' Moai tiles drawn among those not in the supply. Each world is
    at the same decision and draws its future chance from a stream space of its own (root
    `seed`, worlds numbered 0..n-1). `seed` may be the seat's stream (one value drawn)."""
    missing = [f for f in FIELDS if not hasattr(view, f)]
    if missing or view._cursor is None:  # noqa: SLF001
        raise UserError("determinize needs a view with every field (declare no `reads` for "
                        "the decision, or use Games.observe)")  # fmt: skip
    if isinstance(seed, SeatRandom):
        u = seed.uniform(2)[row]
        seed = int(u[0] * 2**32) * 2**32 + int(u[1] * 2**32)
    draws = Draws(int(seed))
    rules, q = view.rules, view.seat
    state = BatchState(rules, n)
    state.public[:] = view._record[row]  # noqa: SLF001 - the view's own copy
    cursor = view._cursor[row]  # noqa: SLF001
    for name in cursor.dtype.names:
        getattr(state, name)[:] = cursor[name]
    for w in range(n):
        _hands(state, view, row, q, w, draws)
        _decks(state, view, row, w, draws)
        _pawns(state, view, row, q, w, draws)
        _tiles(state, view, row, q, w, draws)
    next_epochs(state.epoch_deck, state.public, np.arange(n), rules)
    machine = Machine(rules, int(seed) % 2**64, np.arange(n), state=state,
                      streams=Streams(int(seed) % 2**64, np.arange(n), rules.players))  # fmt: skip
    if Step(int(cursor["step"])) == Step.WORK:  # the work phase's counts, from the pawns
        counts = phase_counts(machine, np.arange(n))
        for mine, theirs in zip(state.work, counts, strict=True):
            mine[:] = theirs
    return Games(machine)


def _hands(state: BatchState, view: SeatView, row: int, q: int, w: int, draws: Draws) -> None:
    """R1.6, R5.9: the seat's own hand; the rivals' hands and the deck from the cards it has
    not seen (every card is in a hand, the deck or the discard pile)."""
    c = view.rules.components
    p = view.rules.players
    own = view.hand[row].astype(np.int64)
    unseen = np.asarray(c.cards, dtype=np.int64) - own - view.discard[row]
    pool = np.repeat(np.arange(N_CARD_TYPES), unseen)[draws.permutation(int(unseen.sum()))]
    state.hand[w] = 0
    state.hand[w, q] = own
    k = 0
    for r in range(p):
        if r == q:
            continue
        size = int(view.hand_sizes[row, r])
        state.hand[w, r] = np.bincount(pool[k : k + size], minlength=N_CARD_TYPES)
        k += size
    deck = pool[k:]
    pos, end = int(view._record[row]["deck_pos"]), int(view._record[row]["deck_len"])  # noqa: SLF001
    if len(deck) != end - pos:
        raise ValueError("determinize: the deck does not hold the cards nobody has seen")
    state.deck[w] = -1
    state.deck[w, pos:end] = deck


def _decks(state: BatchState, view: SeatView, row: int, w: int, draws: Draws) -> None:
    """R1.7, V3: the epoch deck: in each epoch the cards not yet revealed, less the cards V3
    removed (unseen, at random, never the Admiral), shuffled; epoch 1 on 2 on 3."""
    rules = view.rules
    cards = rules.components.epoch_cards
    rec = view._record[row]  # noqa: SLF001
    pos, end = int(rec["epoch_pos"]), int(rec["epoch_len"])
    seen = view.revealed[row]
    deck: list[int] = []
    for e in (1, 2, 3):
        pile = [c for c in cards if c.epoch == e]
        left = [c.id for c in pile if not seen[c.id]]
        keep = len(pile) - rules.removals[e - 1] - sum(bool(seen[c.id]) for c in pile)
        admiral = [cid for cid in left if cards[cid].is_admiral]
        others = [cid for cid in left if not cards[cid].is_admiral]
        chosen = [others[i] for i in draws.permutation(len(others))[: keep - len(admiral)]]
        kept = chosen + admiral
        deck += [kept[i] for i in draws.permutation(len(kept))]
    if len(deck) != end - pos:
        raise ValueError("determinize: the epoch deck's size does not match the cards left")
    state.epoch_deck[w] = 0
    state.epoch_deck[w, pos:end] = deck


def _pawns(state: BatchState, view: SeatView, row: int, q: int, w: int, draws: Draws) -> None:
    """R5.9: the seat's own pawns; each rival's face-up pawns as shown, and its face-down
    board pawns and camp pawns given strengths drawn from those its face-up and reserve pawns
    leave (pawns are numbered by strength, so a strength is a pawn index)."""
    rules = view.rules
    lay = rules.layout
    per = lay.per_strength
    strength = strengths(rules)
    state.loc[w] = RESERVE
    state.up[w] = False
    state.loc[w, q] = view.own_loc[row]
    state.up[w, q] = view.own_up[row]
    for r in range(rules.players):
        if r == q:
            continue
        shown = view.shown_loc[row, r]
        up = shown != HIDDEN
        state.loc[w, r, up] = shown[up]
        state.up[w, r, up] = True
        slots = [x for x in range(lay.size) for _ in range(int(view.hidden_count[row, r, x]))]
        slots += [CAMP] * int(view.camp_size[row, r])
        hidden: list[int] = []
        free: dict[int, list[int]] = {}
        for s in (1, 2, 3):
            idx = [i for i in range(3 * per) if strength[i] == s and not up[i]]
            count = len(idx) - int(view.reserve[row, r, s - 1])
            free[s] = idx
            hidden += [s] * count
        if len(hidden) != len(slots):
            raise ValueError("determinize: a clan's hidden pawns do not fill its places")
        hidden = [hidden[i] for i in draws.permutation(len(hidden))]
        for s, x in zip(hidden, slots, strict=True):
            state.loc[w, r, free[s].pop(0)] = x


def _tiles(state: BatchState, view: SeatView, row: int, q: int, w: int, draws: Draws) -> None:
    """R6.5: the supply's tiles and the seat's own as they are; each rival holds as many of
    the others as its count says (which ones is drawn), the rest left the game (topple)."""
    supply, own = view.moai_supply[row], view.own_tiles[row]
    owner = np.full(len(supply), TILE_OUT, dtype=np.int8)
    owner[supply] = TILE_SUPPLY
    owner[own] = q
    others = np.flatnonzero(~supply & ~own)
    others = others[draws.permutation(len(others))]
    k = 0
    for r in range(view.rules.players):
        if r == q:
            continue
        count = int(view.moai_count[row, r])
        owner[others[k : k + count]] = r
        k += count
    state.moai_owner[w] = owner
