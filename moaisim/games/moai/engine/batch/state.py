"""The batch state: every game of a batch as arrays with a leading games axis (R1 setup).

Field names and layouts are those of the reference engine's `engine.state.State`, with a
leading games axis; the decks are fixed-size arrays with a read position (the top card) and a
length, so drawing is an index shift, not a list pop.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from moaisim.games.moai.engine.chance import setup_draws
from moaisim.games.moai.engine.decisions import largest_action
from moaisim.games.moai.engine.state import COUNTERS, State
from moaisim.games.moai.engine.views import (
    CURSOR_FIELDS,
    STATE_FIELDS,
    Pawns,
    cursor_dtype,
    next_epochs,
    public_dtype,
)
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, N_CARD_TYPES, RESERVE, TILE_SUPPLY
from moaisim.rng import Streams

#: The cursor's scalar fields (`views.CURSOR`), columns of `BatchState.cursor`, and their
#: reset values (`Machine.goto`).
SCALARS: tuple[str, ...] = ("step", "step_pos", "step_count", "step_card", "step_target",
                            "step_left")  # fmt: skip
RESET = np.array([0, 0, 0, -1, -1, 0], dtype=np.int32)


class WorkCounts(NamedTuple):
    """Derived counts of a batch's games during their work phase (row r = game r)."""

    camp: np.ndarray  # [B, P, 3] camp pawns per clan and strength
    camp_total: np.ndarray  # [B] camp pawns of every clan
    free_fields: np.ndarray  # [B] fields with no pawn and no disaster token (R5.5)
    used: np.ndarray  # [B, P, V] bool: own volcano spaces in use
    built: np.ndarray  # [B, P, K] bool: built boats
    manned: np.ndarray  # [B, P, K] bool: a pawn stands on the boat


class BatchState:
    """B games' state: the public records (`public`, one per game, see `views.RECORD`), whose
    fields are also attributes (`state.round`, `state.order`... are views into `public`),
    and the secret arrays: hands [B, P, 6], the decks, the pawn block loc/up [B, P, N], the
    Moai tiles' owners [B, T]; plus the per-seat counters of the results."""

    def __init__(self, rules: Rules, b: int) -> None:
        p, c, lay = rules.players, rules.components, rules.layout
        self.rules, self.b = rules, b
        self.public = np.zeros(b, dtype=public_dtype(rules))
        for name in STATE_FIELDS:  # the public state: views into the records
            setattr(self, name, self.public[name])
        # where each game stands (`steps`): its scalar fields as columns of one array (one
        # assignment moves games to a step), the others as arrays of their own
        self.cursor = np.zeros((b, len(SCALARS)), dtype=np.int32)
        self.cursor[:] = RESET
        for k, name in enumerate(SCALARS):
            setattr(self, name, self.cursor[:, k])
        self.revealed = np.zeros((b, len(c.epoch_cards)), dtype=bool)
        self.step_taken = np.zeros((b, 4), dtype=np.int8)
        self.step_done = np.zeros((b, lay.volcano), dtype=bool)
        self.step_hill = np.full((b, p), -1, dtype=np.int8)
        self.order[:] = np.arange(p)
        self.turn[:] = self.order
        self.bid_order[:] = self.order  # V2/V4: who bids first
        self.offer[:] = -1
        self.held[:] = -1
        self.bids[:] = -1
        self.wood_supply[:] = c.wood
        self.disaster_supply[:] = c.disaster_tokens
        self.boats[:] = -1
        # the secrets
        self.hand = np.zeros((b, p, N_CARD_TYPES), dtype=np.int16)
        self.deck = np.zeros((b, c.n_cards), dtype=np.int8)  # card types, top at deck_pos
        self.epoch_deck = np.zeros((b, len(c.epoch_cards)), dtype=np.int16)
        self.loc = np.full((b, p, lay.pawns), RESERVE, dtype=np.int8)
        self.up = np.zeros((b, p, lay.pawns), dtype=bool)
        self.moai_owner = np.full((b, c.n_tiles), TILE_SUPPLY, dtype=np.int8)
        self.pawns = Pawns(self.loc, self.up)
        self.counters = {name: np.zeros((b, p), dtype=np.int16) for name in COUNTERS}
        # the work phase's counts, kept up to date as pawns are placed (`work.WorkCounts`);
        # valid while a game is in its work phase
        self.work = WorkCounts(
            camp=np.zeros((b, p, 3), dtype=np.int64),
            camp_total=np.zeros(b, dtype=np.int64),
            free_fields=np.zeros(b, dtype=np.int64),
            used=np.zeros((b, p, lay.volcano), dtype=bool),
            built=np.zeros((b, p, lay.boats), dtype=bool),
            manned=np.zeros((b, p, lay.boats), dtype=bool),
        )
        # what the per-round table needs from the round's start (`game.round_table`)
        self.round_held = np.full((b, p), -1, dtype=np.int16)  # the epoch cards taken
        self.round_births = np.zeros((b, p), dtype=np.int16)  # births before the round
        self.round_starved = np.zeros((b, p), dtype=np.int16)  # pawns starved before it
        # the decisions Python's seats answer (`compiled.policy`, PAUSE): who waits, the
        # answers and whether one is there, the decision's mask and info, the games paused
        size = largest_action(rules)
        self.wait = np.zeros((b, p), dtype=bool)
        self.slot = np.zeros((b, p, N_CARD_TYPES), dtype=np.int64)
        self.filled = np.zeros((b, p), dtype=bool)
        self.pend_legal = np.zeros((b, size), dtype=bool)
        self.pend_info = np.zeros(b, dtype=np.int64)
        self.paused = np.zeros(b, dtype=bool)

    #: The arrays of a state besides the public records (`take` copies them row by row).
    ROW_ARRAYS: tuple[str, ...] = ("cursor", "revealed", "step_taken", "step_done", "step_hill",
                                   "hand", "deck", "epoch_deck", "loc", "up", "moai_owner",
                                   "round_held", "round_births", "round_starved", "wait",
                                   "slot", "filled", "pend_legal", "pend_info",
                                   "paused")  # fmt: skip

    def cursor_records(self, rows: np.ndarray) -> np.ndarray:
        """The cursor records (`views.CURSOR`) of the games `rows`, for a view."""
        out = np.zeros(len(rows), dtype=cursor_dtype(self.rules))
        for name in CURSOR_FIELDS:
            out[name] = getattr(self, name)[rows]
        return out

    def take(self, rows: np.ndarray) -> BatchState:
        """A new state holding copies of the games at `rows` (a row may repeat: each copy
        is a game of its own from then on)."""
        rows = np.asarray(rows, dtype=np.int64)
        out = BatchState(self.rules, len(rows))
        out.public[:] = self.public[rows]
        for name in self.ROW_ARRAYS:
            getattr(out, name)[:] = getattr(self, name)[rows]
        for name in COUNTERS:
            out.counters[name][:] = self.counters[name][rows]
        for mine, theirs in zip(out.work, self.work, strict=True):
            mine[:] = theirs[rows]
        return out

    @staticmethod
    def concat(parts: list[BatchState]) -> BatchState:
        """One state holding the games of several, one after the other."""
        out = BatchState(parts[0].rules, sum(p.b for p in parts))
        out.public[:] = np.concatenate([p.public for p in parts])
        for name in BatchState.ROW_ARRAYS:
            getattr(out, name)[:] = np.concatenate([getattr(p, name) for p in parts])
        for name in COUNTERS:
            out.counters[name][:] = np.concatenate([p.counters[name] for p in parts])
        for k, mine in enumerate(out.work):
            mine[:] = np.concatenate([p.work[k] for p in parts])
        return out

    def secrets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The secret arrays a view reads its own seat's part of (`views.make_view`)."""
        return self.hand, self.loc, self.up, self.moai_owner

    def nbytes(self) -> int:
        """Memory held by the state's arrays."""
        arrays = [self.public, *(getattr(self, n) for n in self.ROW_ARRAYS),
                  *self.counters.values(), *self.work]  # fmt: skip
        return sum(a.nbytes for a in arrays)

    @classmethod
    def setup(cls, rules: Rules, streams: Streams) -> BatchState:
        """R1 for every game, with the chance of `chance.setup_draws`."""
        b = len(streams.games)
        s = cls(rules, b)
        c, p = rules.components, rules.players
        s.covered[:] = c.covered_at(p)  # R1.1
        s.disaster_supply[:] = c.disaster_tokens - c.covered_at(p)
        per = c.pawns_per_strength
        for k in range(3):  # R1.5
            s.loc[:, :, k * per : k * per + c.camp_per_strength] = CAMP
        epoch, deck, bid_order = setup_draws(rules, streams, np.arange(b))
        s.epoch_len[:] = epoch.shape[1]  # R1.7 (and V3)
        s.epoch_deck[:, : epoch.shape[1]] = epoch
        s.deck[:] = deck  # R1.6: dealt seat by seat, 5 cards each
        s.deck_len[:] = c.n_cards
        for seat in range(p):
            dealt = s.deck[:, seat * c.hand : (seat + 1) * c.hand]
            s.hand[:, seat] = count_types(dealt)
        s.deck_pos[:] = p * c.hand
        if bid_order is not None:  # V2: round 1's bidding order is random
            s.bid_order[:] = bid_order
        next_epochs(s.epoch_deck, s.public, np.arange(b), rules)
        return s

    #: Fields that a reference `State` and a batch share under the same name and layout.
    SAME: tuple[str, ...] = (
        "round", "last_round", "birdman", "order", "turn", "bid_order", "hand", "discard",
        "reshuffles", "offer", "held", "bids", "loc", "up", "wood", "wood_supply", "wood_out",
        "forest_wood", "covered", "disaster_supply", "boats", "moai_owner", "revealed",
        "step", "step_pos", "step_count", "step_card", "step_target", "step_left", "step_taken",
        "step_done", "step_hill",
    )  # fmt: skip

    @classmethod
    def from_states(cls, states: list[State]) -> BatchState:
        """A batch holding these reference games' states, game k in row k (positions set by
        hand in scenario tests then play on in the batch engine)."""
        rules = states[0].rules
        s = cls(rules, len(states))
        for k, one in enumerate(states):
            for name in cls.SAME:
                getattr(s, name)[k] = getattr(one, name)
            for name in COUNTERS:
                s.counters[name][k] = one.counters[name]
            s.deck[k, : len(one.deck)] = one.deck
            s.deck_pos[k], s.deck_len[k] = 0, len(one.deck)
            s.epoch_deck[k, : len(one.epoch_deck)] = one.epoch_deck
            s.epoch_pos[k], s.epoch_len[k] = 0, len(one.epoch_deck)
        next_epochs(s.epoch_deck, s.public, np.arange(len(states)), rules)
        return s

    def write_back(self, row: int, one: State) -> None:
        """Copy game `row` into a reference `State`, in place."""
        for name in self.SAME:
            value = getattr(self, name)[row]
            if isinstance(getattr(one, name), np.ndarray):
                getattr(one, name)[...] = value
            elif name == "bid_order":
                one.bid_order = [int(x) for x in value]
            else:
                setattr(one, name, value.item())
        for name in COUNTERS:
            one.counters[name][:] = self.counters[name][row]
        one.deck = self.deck[row, self.deck_pos[row] : self.deck_len[row]].tolist()
        one.epoch_deck = self.epoch_deck[row, self.epoch_pos[row] : self.epoch_len[row]].tolist()


def count_types(cards: np.ndarray) -> np.ndarray:
    """[n, k] card types -> [n, 6] counts per type (entries < 0 are ignored)."""
    return (cards[:, :, None] == np.arange(N_CARD_TYPES)[None, None, :]).sum(axis=1)
