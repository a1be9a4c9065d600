"""The state of one game, as small numpy arrays, and its setup (RULES.md R1)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from moaisim.engine.decisions import TABLE_FIELDS, strengths
from moaisim.rng import CHANCE, Streams
from moaisim.rules import CAMP, RESERVE, Rules
from moaisim.rules.components import N_CARD_TYPES

COUNTERS: tuple[str, ...] = (
    "births",
    "starved",
    "raids_made",
    "raids_suffered",
    "boats_built",
    "disasters_aimed",
    "disasters_suffered",
    "birdman_rounds",
    "forest_wood",
    "moai_finished",
)


@dataclass
class State:
    """One game's state. Array fields use the names and layouts of `decisions.Tables`."""

    rules: Rules
    hand: np.ndarray  # [P, 6] cards by type
    deck: list[int]  # Rapa Nui card types, top first
    epoch_deck: list[int]  # epoch card ids, top first
    loc: np.ndarray  # [P, N] location codes
    up: np.ndarray  # [P, N] face up
    round: int = 0
    last_round: bool = False
    birdman: int = 0
    bid_order: list[int] = field(default_factory=list)  # V2/V4: who bids first
    order: np.ndarray = field(default=None)  # type: ignore[assignment]
    turn: np.ndarray = field(default=None)  # type: ignore[assignment]
    discard: np.ndarray = field(default=None)  # type: ignore[assignment]
    offer: np.ndarray = field(default=None)  # type: ignore[assignment]
    held: np.ndarray = field(default=None)  # type: ignore[assignment]
    bids: np.ndarray = field(default=None)  # type: ignore[assignment]
    wood: np.ndarray = field(default=None)  # type: ignore[assignment]
    wood_supply: int = 0
    forest_wood: np.ndarray = field(default=None)  # type: ignore[assignment]
    covered: int = 0
    disaster_supply: int = 0
    boats: np.ndarray = field(default=None)  # type: ignore[assignment]
    moai_owner: np.ndarray = field(default=None)  # type: ignore[assignment]
    counters: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def empty(cls, rules: Rules) -> State:
        """A table with nothing dealt: every pawn in its reserve, decks empty (for scenarios)."""
        p, c, lay = rules.players, rules.components, rules.layout
        return cls(
            rules=rules,
            hand=np.zeros((p, N_CARD_TYPES), dtype=np.int16),
            deck=[],
            epoch_deck=[],
            loc=np.full((p, c.pawns), RESERVE, dtype=np.int8),
            up=np.zeros((p, c.pawns), dtype=bool),
            order=np.arange(p, dtype=np.int8),
            turn=np.arange(p, dtype=np.int8),
            bid_order=list(range(p)),
            discard=np.zeros(N_CARD_TYPES, dtype=np.int16),
            offer=np.full(p + 1, -1, dtype=np.int16),
            held=np.full(p, -1, dtype=np.int16),
            bids=np.full(p, -1, dtype=np.int16),
            wood=np.zeros(p, dtype=np.int16),
            wood_supply=c.wood,
            forest_wood=np.zeros(c.forest_spaces, dtype=bool),
            covered=0,
            disaster_supply=c.disaster_tokens,
            boats=np.full((p, lay.boats), -1, dtype=np.int16),
            moai_owner=np.full(c.n_tiles, -1, dtype=np.int8),
            counters={name: np.zeros(p, dtype=np.int16) for name in COUNTERS},
        )

    @classmethod
    def setup(cls, rules: Rules, streams: Streams) -> State:
        """R1: the table before round 1, drawing the decks' order from the chance stream.

        Chance draws, in this order: one key per epoch card (canonical order), one key per Rapa
        Nui card, and for V2/V4 one key per seat (the first bidding order). A shuffle is the
        argsort of the keys, so both engines shuffle identically.
        """
        s = cls.empty(rules)
        c, p = rules.components, rules.players
        # R1.1 disaster tokens on fields
        s.covered = c.covered_at(p)
        s.disaster_supply = c.disaster_tokens - s.covered
        # R1.5 pawns: 3 of each strength in camp, the rest in the reserve
        per = c.pawns_per_strength
        for k in range(3):
            s.loc[:, k * per : k * per + c.camp_per_strength] = CAMP
        # R1.7 epoch deck (V3 removes cards first)
        s.epoch_deck = shuffle_epoch_deck(rules, streams.draw_one_game(CHANCE, len(c.epoch_cards)))
        # R1.6 Rapa Nui deck, 5 cards each, dealt seat by seat
        keys = streams.draw_one_game(CHANCE, c.n_cards)
        types = np.repeat(np.arange(N_CARD_TYPES), c.cards)
        s.deck = [int(t) for t in types[np.argsort(keys, kind="stable")]]
        for seat in range(p):
            for _ in range(c.hand):
                s.hand[seat, s.deck.pop(0)] += 1
        if rules.open_bidding:  # V2: round 1's bidding order is random
            s.bid_order = [
                int(x) for x in np.argsort(streams.draw_one_game(CHANCE, p), kind="stable")
            ]
        return s

    # --- small readable helpers ------------------------------------------------------------
    @property
    def strength(self) -> np.ndarray:
        return strengths(self.rules)

    def pawns_at(self, seat: int, loc: int) -> np.ndarray:
        """Indices of the seat's pawns at a location code."""
        return np.flatnonzero(self.loc[seat] == loc)

    def camp(self, seat: int) -> np.ndarray:
        return self.pawns_at(seat, CAMP)

    def on_board(self, seat: int) -> np.ndarray:
        return np.flatnonzero(self.loc[seat] >= 0)

    def zone_of(self, loc: int) -> int:
        return self.rules.layout.zone(loc)

    def free_fields(self) -> int:
        """Fields with neither a pawn nor a disaster token (R5.5)."""
        return (
            self.rules.components.fields
            - self.covered
            - int((self.loc == self.rules.layout.fields).sum())
        )

    def moai_height(self, seat: int) -> int:
        heights = np.asarray(self.rules.components.moai_heights)
        return int(heights[self.moai_owner == seat].sum())

    def score(self, seat: int) -> int:
        """R8.2: Moai height + living pawns (board and camp) + 2 per wood."""
        living = int((self.loc[seat] >= CAMP).sum())
        return self.moai_height(seat) + living + 2 * int(self.wood[seat])


def shuffle_epoch_deck(rules: Rules, keys: np.ndarray) -> list[int]:
    """R1.7 (and V3): shuffle each epoch by its cards' keys, stack 1 on 2 on 3.

    V3 removes the first 2 epoch-1, 2 epoch-2 and the first non-Admiral epoch-3 card of the
    shuffled piles: the same as removing them at random.
    """
    cards = rules.components.epoch_cards
    remove = {1: 2, 2: 2, 3: 1} if rules.has("short") else {1: 0, 2: 0, 3: 0}
    deck: list[int] = []
    for epoch in (1, 2, 3):
        ids = [c.id for c in cards if c.epoch == epoch]
        pile = sorted(ids, key=lambda i: (keys[i], i))
        drop = [i for i in pile if not cards[i].is_admiral][: remove[epoch]]
        deck += [i for i in pile if i not in drop]
    return deck


class TablesOfOne:
    """The `decisions.Tables` of one game: the state's arrays with a games axis of length 1.

    Only the fields of `decisions.TABLE_FIELDS` are served (never the decks' order).
    """

    def __init__(self, state: State) -> None:
        self.__state = state

    def __getattr__(self, name: str) -> np.ndarray:
        if name not in TABLE_FIELDS:
            raise AttributeError(name)
        s = self.__state
        if name == "deck_size":
            return np.array([len(s.deck)])
        if name == "epoch_deck_size":
            return np.array([len(s.epoch_deck)])
        return np.asarray(getattr(s, name))[None]
