"""The batch state: every game of a batch as arrays with a leading games axis (R1 setup).

Field names and layouts are those of `decisions.Tables`; the decks are fixed-size arrays with
a read position (the top card) and a length, so drawing is an index shift, not a list pop.
"""

from __future__ import annotations

import numpy as np

from moaisim.engine.chance import setup_draws
from moaisim.engine.state import COUNTERS, State
from moaisim.engine.views import TABLE_FIELDS
from moaisim.rng import Streams
from moaisim.rules import Rules
from moaisim.rules.codes import CAMP, N_CARD_TYPES, RESERVE, TILE_SUPPLY


class BatchState:
    """B games' state. Shapes as in `decisions.Tables`, plus the decks and counters."""

    def __init__(self, rules: Rules, b: int) -> None:
        p, c, lay = rules.players, rules.components, rules.layout
        self.rules, self.b = rules, b
        self.round = np.zeros(b, dtype=np.int16)
        self.last_round = np.zeros(b, dtype=bool)
        self.birdman = np.zeros(b, dtype=np.int8)
        self.order = np.tile(np.arange(p, dtype=np.int8), (b, 1))
        self.turn = self.order.copy()
        self.bid_order = self.order.copy()  # V2/V4: who bids first
        self.hand = np.zeros((b, p, N_CARD_TYPES), dtype=np.int16)
        self.deck = np.zeros((b, c.n_cards), dtype=np.int8)  # card types, top at deck_pos
        self.deck_pos = np.zeros(b, dtype=np.int16)
        self.deck_len = np.zeros(b, dtype=np.int16)
        self.discard = np.zeros((b, N_CARD_TYPES), dtype=np.int16)
        self.reshuffles = np.zeros(b, dtype=np.int16)  # R7.1: reshuffles so far
        self.epoch_deck = np.zeros((b, len(c.epoch_cards)), dtype=np.int16)
        self.epoch_pos = np.zeros(b, dtype=np.int16)
        self.epoch_len = np.zeros(b, dtype=np.int16)
        self.offer = np.full((b, p + 1), -1, dtype=np.int16)
        self.held = np.full((b, p), -1, dtype=np.int16)
        self.bids = np.full((b, p), -1, dtype=np.int16)
        self.loc = np.full((b, p, c.pawns), RESERVE, dtype=np.int8)
        self.up = np.zeros((b, p, c.pawns), dtype=bool)
        self.wood = np.zeros((b, p), dtype=np.int16)
        self.wood_supply = np.full(b, c.wood, dtype=np.int16)
        self.wood_out = np.zeros(b, dtype=np.int16)  # R3.1 `spent_wood = out`
        self.forest_wood = np.zeros((b, c.forest_spaces), dtype=bool)
        self.covered = np.zeros(b, dtype=np.int16)
        self.disaster_supply = np.full(b, c.disaster_tokens, dtype=np.int16)
        self.boats = np.full((b, p, lay.boats), -1, dtype=np.int16)
        self.moai_owner = np.full((b, c.n_tiles), TILE_SUPPLY, dtype=np.int8)
        self.counters = {name: np.zeros((b, p), dtype=np.int16) for name in COUNTERS}

    @property
    def deck_size(self) -> np.ndarray:
        return self.deck_len - self.deck_pos

    @property
    def epoch_deck_size(self) -> np.ndarray:
        return self.epoch_len - self.epoch_pos

    def nbytes(self) -> int:
        """Memory held by the state's arrays."""
        arrays = [v for v in vars(self).values() if isinstance(v, np.ndarray)]
        return sum(a.nbytes for a in arrays) + sum(a.nbytes for a in self.counters.values())

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
        return s


    #: Fields that a reference `State` and a batch share under the same name and layout.
    SAME: tuple[str, ...] = (
        "round", "last_round", "birdman", "order", "turn", "bid_order", "hand", "discard",
        "reshuffles", "offer", "held", "bids", "loc", "up", "wood", "wood_supply", "wood_out",
        "forest_wood", "covered", "disaster_supply", "boats", "moai_owner",
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


class BatchTables:
    """The `decisions.Tables` of a batch for the views: only `TABLE_FIELDS` are served."""

    __slots__ = ("__state",)

    def __init__(self, state: BatchState) -> None:
        self.__state = state

    def __getattr__(self, name: str) -> np.ndarray:
        if name not in TABLE_FIELDS:
            raise AttributeError(name)
        return getattr(self.__state, name)
