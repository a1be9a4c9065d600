"""The state of one game, as small numpy arrays, and its setup (docs/rules.md R1)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from moaisim.games.moai.engine.chance import setup_draws
from moaisim.games.moai.engine.decisions import strengths
from moaisim.games.moai.engine.views import CURSOR_FIELDS, STATE_FIELDS, cursor_dtype, public_dtype
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import (
    CAMP,
    N_CARD_TYPES,
    RESERVE,
    TILE_SUPPLY,
    free_fields,
    score,
)
from moaisim.rng import Streams

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
    """One game's state (the reference engine's). Its array fields have the names and layouts
    of the batch engine's (`engine.batch.state.BatchState`) without the leading games axis, so
    that a game moves between the engines field by field (`BatchState.from_states`,
    `write_back`)."""

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
    reshuffles: int = 0  # R7.1: reshuffles so far
    offer: np.ndarray = field(default=None)  # type: ignore[assignment]
    held: np.ndarray = field(default=None)  # type: ignore[assignment]
    bids: np.ndarray = field(default=None)  # type: ignore[assignment]
    wood: np.ndarray = field(default=None)  # type: ignore[assignment]
    wood_supply: int = 0
    wood_out: int = 0  # R3.1 `spent_wood = out`: wood tokens out of the game
    forest_wood: np.ndarray = field(default=None)  # type: ignore[assignment]
    covered: int = 0
    disaster_supply: int = 0
    boats: np.ndarray = field(default=None)  # type: ignore[assignment]
    moai_owner: np.ndarray = field(default=None)  # type: ignore[assignment]
    counters: dict[str, np.ndarray] = field(default_factory=dict)
    revealed: np.ndarray = field(default=None)  # type: ignore[assignment]  # R3.1, by card id
    # where the game stands (`steps`): set by the engine before each decision
    step: int = 0
    step_pos: int = 0
    step_count: int = 0
    step_card: int = -1
    step_target: int = -1
    step_left: int = 0
    step_taken: np.ndarray = field(default=None)  # type: ignore[assignment]
    step_done: np.ndarray = field(default=None)  # type: ignore[assignment]
    step_hill: np.ndarray = field(default=None)  # type: ignore[assignment]

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
            moai_owner=np.full(c.n_tiles, TILE_SUPPLY, dtype=np.int8),
            counters={name: np.zeros(p, dtype=np.int16) for name in COUNTERS},
            revealed=np.zeros(len(c.epoch_cards), dtype=bool),
            step_taken=np.zeros(4, dtype=np.int8),
            step_done=np.zeros(lay.volcano, dtype=bool),
            step_hill=np.full(p, -1, dtype=np.int8),
        )

    def at(
        self, step: int, pos: int = 0, count: int = 0, card: int = -1, target: int = -1,
        left: int = 0, taken: np.ndarray | None = None, done: set[int] | None = None,
        hill: list[int] | None = None,
    ) -> None:  # fmt: skip
        """Set where the game stands (`steps`: the cursor of a game waiting for a decision);
        what is not given is at its reset value."""
        self.step, self.step_pos, self.step_count = step, pos, count
        self.step_card, self.step_target, self.step_left = card, target, left
        self.step_taken[:] = 0 if taken is None else taken
        self.step_done[:] = False
        if done:
            self.step_done[sorted(done)] = True
        self.step_hill[:] = -1
        if hill:
            self.step_hill[: len(hill)] = hill

    @classmethod
    def setup(cls, rules: Rules, streams: Streams) -> State:
        """R1: the table before round 1, with the chance of `chance.setup_draws`."""
        s = cls.empty(rules)
        c, p = rules.components, rules.players
        # R1.1 disaster tokens on fields
        s.covered = c.covered_at(p)
        s.disaster_supply = c.disaster_tokens - s.covered
        # R1.5 pawns: 3 of each strength in camp, the rest in the reserve
        per = c.pawns_per_strength
        for k in range(3):
            s.loc[:, k * per : k * per + c.camp_per_strength] = CAMP
        epoch, deck, bid_order = setup_draws(rules, streams, np.zeros(1, dtype=np.int64))
        s.epoch_deck = [int(x) for x in epoch[0]]  # R1.7 (and V3)
        s.deck = [int(x) for x in deck[0]]  # R1.6: 5 cards each, dealt seat by seat
        for seat in range(p):
            for _ in range(c.hand):
                s.hand[seat, s.deck.pop(0)] += 1
        if bid_order is not None:  # V2: round 1's bidding order is random
            s.bid_order = [int(x) for x in bid_order[0]]
        return s

    def record(self) -> np.ndarray:
        """This game's public record (`views.RECORD`), made afresh for a view."""
        rec = np.zeros(1, dtype=public_dtype(self.rules))
        decks = {"deck_pos": 0, "deck_len": len(self.deck), "epoch_pos": 0}
        decks["epoch_len"] = len(self.epoch_deck)
        for name in STATE_FIELDS:
            rec[name] = decks[name] if name in decks else getattr(self, name)
        if self.epoch_deck:
            rec["next_epoch"] = self.rules.components.epoch_cards[self.epoch_deck[0]].epoch
        return rec

    def cursor_record(self) -> np.ndarray:
        """Where this game stands (`views.CURSOR`), made afresh for a view."""
        rec = np.zeros(1, dtype=cursor_dtype(self.rules))
        for name in CURSOR_FIELDS:
            rec[name] = getattr(self, name)
        return rec

    # --- small readable helpers ------------------------------------------------------------
    @property
    def strength(self) -> np.ndarray:
        """Strength (1-3) of each pawn index of a colour."""
        return strengths(self.rules)

    def pawns_at(self, seat: int, loc: int) -> np.ndarray:
        """Indices of the seat's pawns at a location code."""
        return np.flatnonzero(self.loc[seat] == loc)

    def camp(self, seat: int) -> np.ndarray:
        """Indices of the seat's pawns in its camp."""
        return self.pawns_at(seat, CAMP)

    def on_board(self, seat: int) -> np.ndarray:
        """Indices of the seat's pawns on the board (any zone)."""
        return np.flatnonzero(self.loc[seat] >= 0)

    def free_fields(self) -> int:
        """Fields with neither a pawn nor a disaster token (R5.5)."""
        in_fields = int((self.loc == self.rules.layout.fields).sum())
        return free_fields.py_func(self.rules.layout, self.covered, in_fields)

    def moai_height(self, seat: int) -> int:
        """Total height of the seat's Moai tiles (R8.2)."""
        heights = np.asarray(self.rules.components.moai_heights)
        return int(heights[self.moai_owner == seat].sum())

    def score(self, seat: int) -> int:
        """R8.2: Moai height + living pawns (board and camp) + 2 per wood (points per metre
        and per wood: the `moai_points` and `wood_points` parameters)."""
        c = self.rules.components
        living = int((self.loc[seat] >= CAMP).sum())
        return score.py_func(
            self.moai_height(seat), living, int(self.wood[seat]), c.wood_points, c.moai_points
        )
