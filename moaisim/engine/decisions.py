"""Decision kinds, their action encodings and legal masks, and the seat views (RULES.md D).

Every decision a strategy makes is one of `Kind`. Each kind has a fixed action space for a
given `Rules` (`action_size`), so a batch of games asks one question with one mask array
[n, A]. The one exception is `bid`, whose action is a vector of card counts [n, 6] bounded by
the hand (`legal` then holds those bounds). Multi-part choices are asked one part at a time
(one tied bidder placed, one Moai finished, one starving pawn, one pawn rested, one birth),
each part ending with the engine asking again until the rules or a "stop" action end it.

A `SeatView` shows one seat what R5.9 and R6.5 let it see: its own hand and pawns, the public
board, and for what is hidden (other hands, face-down and camp pawns, Moai heights) only the
counts that the table shows. (A strategy with memory can still deduce what the physical game
lets a player deduce, e.g. tile heights from the supply.) Every array has a leading games axis.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache, cached_property
from typing import Any, Protocol

import numpy as np

from moaisim.engine.kernels import clan_counts, shown_and_hidden
from moaisim.rng import SeatRandom
from moaisim.rules import RESERVE, Rules
from moaisim.rules.components import N_CARD_TYPES

HIDDEN = -3  # location shown for a pawn whose place or strength a seat may not see


class Kind(StrEnum):
    """The decision kinds, one per item of RULES.md section D; values are Strategy methods."""

    BID = "bid"  # R3.3 (in turn for V2/V4): card counts per type [6]
    ORDER_TIES = "order_ties"  # R3.4: the bird-man names the next of a tied group (a seat)
    PICK_EPOCH = "pick_epoch"  # R4.1: a slot of the offer
    DISASTER_TARGET = "disaster_target"  # R4.3: the clan a disaster hits (a seat)
    DISASTER_LOSS = "disaster_loss"  # R4.4: what the victim loses (pawn, boat slot or tile)
    WORK = "work"  # R5: place a pawn, pass or swap
    FOREST_TIE = "forest_tie"  # R6.1: the bird-man breaks a forest tie (a seat)
    FINISH_MOAI = "finish_moai"  # R6.2: a volcano space to finish, or stop
    FEED = "feed"  # R6.3-R6.4: starve one own pawn, or raid to save it
    REST = "rest"  # R7.2: one pawn back to camp
    BIRTH = "birth"  # R7.3: two cards for a pawn, or stop
    BOAT = "boat"  # R7.4: 0 keep the wood, 1 build the boat


#: What a disaster_loss decision is about (`SeatView.info["what"]`).
LOSS_PAWN, LOSS_BOAT, LOSS_MOAI = 0, 1, 2

#: Unordered pairs of card types (t1 <= t2) that a birth can discard (R7.3).
BIRTH_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(N_CARD_TYPES) for b in range(a, N_CARD_TYPES)
)
BIRTH_STOP = len(BIRTH_PAIRS)

#: Raid card combinations (R6.4): (raid card value r, second card is a Raid card).
RAID_COMBOS: tuple[tuple[int, bool], ...] = tuple(
    (r, raid) for r in (1, 2, 3) for raid in (False, True)
)


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of an array: what a view hands a strategy of the engine's arrays
    (`legal`, `info`), the same in both engines. Copy one before editing it."""
    out = a.view()
    out.flags.writeable = False
    return out


@cache
def strengths(rules: Rules) -> np.ndarray:
    """Strength (1-3) of each pawn index of a colour: pawns are numbered by strength.

    Computed once per `Rules` and read-only.
    """
    out = np.repeat(np.arange(1, 4, dtype=np.int8), rules.components.pawns_per_strength)
    out.setflags(write=False)
    return out


@cache
def zone_table(rules: Rules) -> np.ndarray:
    """Zone of each location code `loc` at index loc + 2 (0 forest, 1 fields, 2 volcano,
    3 ocean; -1 for camp and reserve): `zone_table(rules)[loc + 2]`. Read-only."""
    lay = rules.layout
    out = lay.zones(np.arange(-2, lay.size)).astype(np.int8)
    out.setflags(write=False)
    return out


def swap_pairs(pawns: int) -> np.ndarray:
    """All pairs (i < j) of pawn indices, in a fixed order: the swap part of the work space."""
    i, j = np.triu_indices(pawns, k=1)
    return np.stack([i, j], axis=1).astype(np.int16)


class WorkCodec:
    """Action encoding of the work phase (R5).

    place: strength s (1-3) on target t -> (s-1) * T + t, where targets are the forest spaces
    0..F-1, the fields F, the clan's volcano spaces F+1..F+V and "a free boat" F+V+1 (the
    targets equal the location codes, except that all boats are one target: boats are
    interchangeable). Then `pass`, then one action per pair of own pawns to swap.
    """

    def __init__(self, rules: Rules) -> None:
        lay = rules.layout
        self.targets = lay.ocean0 + 1
        self.boat_target = lay.ocean0
        self.pass_action = 3 * self.targets
        self.pairs = swap_pairs(rules.components.pawns)
        self.swap0 = self.pass_action + 1
        self.size = self.swap0 + len(self.pairs)

    def place(self, strength: int, target: int) -> int:
        return (strength - 1) * self.targets + target

    def swap(self, i: int, j: int) -> int:
        i, j = min(i, j), max(i, j)
        hit = np.flatnonzero((self.pairs[:, 0] == i) & (self.pairs[:, 1] == j))
        return self.swap0 + int(hit[0])

    def decode(self, action: int) -> tuple[str, int, int]:
        """('place', strength, target) | ('pass', 0, 0) | ('swap', i, j)."""
        if action < self.pass_action:
            return "place", action // self.targets + 1, action % self.targets
        if action == self.pass_action:
            return "pass", 0, 0
        i, j = self.pairs[action - self.swap0]
        return "swap", int(i), int(j)


class FeedCodec:
    """Action encoding of feeding (R6.3-R6.4): starve own pawn i -> i (0..N-1); raid the
    opponent pawn (seat q, pawn j) with combo c of `RAID_COMBOS` -> N + (q * N + j) * 6 + c."""

    def __init__(self, rules: Rules) -> None:
        self.pawns = rules.components.pawns
        self.size = self.pawns + rules.players * self.pawns * len(RAID_COMBOS)

    def raid(self, victim_seat: int, victim_pawn: int, combo: int) -> int:
        return self.pawns + (victim_seat * self.pawns + victim_pawn) * len(RAID_COMBOS) + combo

    def decode(self, action: int) -> tuple[str, int, int, int]:
        """('starve', pawn, 0, 0) | ('raid', victim_seat, victim_pawn, combo)."""
        if action < self.pawns:
            return "starve", action, 0, 0
        q, c = divmod(action - self.pawns, len(RAID_COMBOS))
        seat, pawn = divmod(q, self.pawns)
        return "raid", seat, pawn, c


@cache
def work_codec(rules: Rules) -> WorkCodec:
    """The (shared, computed once) work-phase encoding of a `Rules`."""
    return WorkCodec(rules)


@cache
def feed_codec(rules: Rules) -> FeedCodec:
    """The (shared, computed once) feeding encoding of a `Rules`."""
    return FeedCodec(rules)


def raid_cards(combo: int, victim_strength: int) -> tuple[int, int]:
    """Card types a raid discards: the Raid card and the second card of value v (R6.4)."""
    r, second_raid = RAID_COMBOS[combo]
    return 3 + r - 1, (3 if second_raid else 0) + victim_strength - 1


def action_size(rules: Rules, kind: Kind) -> int:
    """Size of the action space of a kind (bid: the 6 card types)."""
    c, lay, p = rules.components, rules.layout, rules.players
    sizes = {
        Kind.BID: N_CARD_TYPES,
        Kind.ORDER_TIES: p,
        Kind.PICK_EPOCH: p + 1,
        Kind.DISASTER_TARGET: p,
        Kind.DISASTER_LOSS: max(c.pawns, lay.boats, c.n_tiles),
        Kind.WORK: work_codec(rules).size,
        Kind.FOREST_TIE: p,
        Kind.FINISH_MOAI: lay.volcano + 1,
        Kind.FEED: feed_codec(rules).size,
        Kind.REST: c.pawns,
        Kind.BIRTH: BIRTH_STOP + 1,
        Kind.BOAT: 2,
    }
    return sizes[kind]


class Tables(Protocol):
    """The game state as arrays with a leading games axis: what both engines expose to views.

    Shapes (B games, P players, N pawns per colour, F forest spaces, K boat slots, T tiles):
    round, birdman, deck_size, epoch_deck_size, wood_supply, covered, disaster_supply [B];
    last_round [B] bool; order (hill order), turn (order of phases R4-R7), wood, held,
    bids (-1 until revealed) [B, P]; offer [B, P+1] (epoch card id or -1); hand [B, P, 6];
    discard [B, 6]; loc [B, P, N] (location code); up [B, P, N] bool (face up);
    forest_wood [B, F] bool; boats [B, P, K] (card id or -1); moai_owner [B, T]
    (seat, -1 supply, -2 out of the game).
    """

    round: np.ndarray
    last_round: np.ndarray
    birdman: np.ndarray
    order: np.ndarray
    turn: np.ndarray
    hand: np.ndarray
    deck_size: np.ndarray
    discard: np.ndarray
    epoch_deck_size: np.ndarray
    offer: np.ndarray
    held: np.ndarray
    bids: np.ndarray
    loc: np.ndarray
    up: np.ndarray
    wood: np.ndarray
    wood_supply: np.ndarray
    forest_wood: np.ndarray
    covered: np.ndarray
    disaster_supply: np.ndarray
    boats: np.ndarray
    moai_owner: np.ndarray


TABLE_FIELDS: frozenset[str] = frozenset(Tables.__annotations__)


class SeatView:
    """What one seat sees of the games `rows` of `tables`, plus the question it is asked.

    Attributes computed on first use; all arrays have a leading axis of len(games). Fields:
    kind, seat, rules, games (game indices in the run), legal ([n, A] bool mask; for bid the
    [n, 6] hand counts that bound the bid), rng (the seat's stream), info (arrays specific to
    the decision, e.g. info["deficit"] for feed; see the engine's docstrings). `legal` and
    the `info` arrays are read-only (they may be the engine's own): copy them to edit.
    """

    def __init__(
        self,
        kind: Kind,
        seat: int,
        rules: Rules,
        tables: Tables,
        rows: np.ndarray,
        games: np.ndarray,
        legal: np.ndarray,
        rng: SeatRandom,
        info: dict[str, Any] | None = None,
    ) -> None:
        self.kind, self.seat, self.rules = kind, seat, rules
        # The full tables stay private: every public attribute below is filtered for `seat`.
        self.__tables, self.__rows = tables, rows
        self.games, self.legal, self.rng = games, legal, rng
        self.info: dict[str, Any] = info or {}
        self.__fields: dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.__rows)

    def _table(self, name: str) -> np.ndarray:
        """A whole table field (every game): for the kernels, which read only `rows`."""
        return np.asarray(getattr(self.__tables, name))

    def _own(self, name: str) -> np.ndarray:
        """This seat's slice of a [B, P, ...] table field (gathered alone if the whole field
        is not needed)."""
        got = self.__fields.get(name)
        if got is not None:
            return got[:, self.seat]
        return np.asarray(getattr(self.__tables, name))[self.__rows, self.seat]

    def _get(self, name: str) -> np.ndarray:
        """The view's rows of a table field (each field gathered once per view)."""
        got = self.__fields.get(name)
        if got is None:
            got = self.__fields[name] = np.asarray(getattr(self.__tables, name))[self.__rows]
        return got

    # --- public state (R5.9) ---------------------------------------------------------------
    @cached_property
    def round(self) -> np.ndarray:
        return self._get("round")

    @cached_property
    def last_round(self) -> np.ndarray:
        return self._get("last_round")

    @cached_property
    def birdman(self) -> np.ndarray:
        return self._get("birdman")

    @cached_property
    def order(self) -> np.ndarray:
        """Hill order [n, P]: seats by position, position 0 = bird-man."""
        return self._get("order")

    @cached_property
    def turn(self) -> np.ndarray:
        """Turn order of phases R4-R7 [n, P] (hill order, or clockwise by rule option)."""
        return self._get("turn")

    @cached_property
    def position(self) -> np.ndarray:
        """This seat's position in the turn order [n]."""
        return np.argmax(self.turn == self.seat, axis=1)

    @cached_property
    def hand_sizes(self) -> np.ndarray:
        return self._get("hand").sum(axis=2)

    @cached_property
    def deck_size(self) -> np.ndarray:
        return self._get("deck_size")

    @cached_property
    def discard(self) -> np.ndarray:
        """Discard pile [n, 6] counts by card type (public)."""
        return self._get("discard")

    @cached_property
    def epoch_deck_size(self) -> np.ndarray:
        return self._get("epoch_deck_size")

    @cached_property
    def offer(self) -> np.ndarray:
        """Epoch cards on offer [n, P+1] (card ids, -1 for a taken slot)."""
        return self._get("offer")

    @cached_property
    def held(self) -> np.ndarray:
        """Epoch card each clan holds this round [n, P] (-1: none)."""
        return self._get("held")

    @cached_property
    def bids(self) -> np.ndarray:
        """Bid totals revealed so far this round [n, P] (-1: not revealed)."""
        return self._get("bids")

    @cached_property
    def wood(self) -> np.ndarray:
        return self._get("wood")

    @cached_property
    def wood_supply(self) -> np.ndarray:
        return self._get("wood_supply")

    @cached_property
    def forest_wood(self) -> np.ndarray:
        """[n, F] bool: a wood token lies on the forest space."""
        return self._get("forest_wood")

    @cached_property
    def covered(self) -> np.ndarray:
        """Fields covered by a disaster token [n]."""
        return self._get("covered")

    @cached_property
    def disaster_supply(self) -> np.ndarray:
        return self._get("disaster_supply")

    @cached_property
    def free_fields(self) -> np.ndarray:
        """Fields with no pawn and no disaster token [n] (R5.5)."""
        in_fields = (self._get("loc") == self.rules.layout.fields).sum(axis=(1, 2))
        return self.rules.components.fields - self.covered - in_fields

    @cached_property
    def boats(self) -> np.ndarray:
        """[n, P, K] bool: the clan has built a boat in that slot."""
        return self._get("boats") >= 0

    @cached_property
    def boats_manned(self) -> np.ndarray:
        """[n, P, K] bool: a pawn stands on that boat."""
        lay = self.rules.layout
        loc = self._get("loc")
        n, p, _ = loc.shape
        slot = np.where(loc >= lay.ocean0, loc - lay.ocean0, lay.boats)  # K: not on a boat
        out = np.zeros((n, p, lay.boats + 1), dtype=bool)
        out[np.arange(n)[:, None, None], np.arange(p)[None, :, None], slot] = True
        return out[:, :, : lay.boats]

    @cached_property
    def moai_count(self) -> np.ndarray:
        """Moai tiles held by each clan [n, P] (public, R6.5)."""
        return self._counts[:, :, 2]

    @cached_property
    def _counts(self) -> np.ndarray:
        """[n, P, 3]: pawns on the board, in camp, Moai tiles, per clan (all public)."""
        return clan_counts(self._table("loc"), self._table("moai_owner"), self.__rows)

    @cached_property
    def moai_supply(self) -> np.ndarray:
        """[n, T] bool: that tile (tiles sorted by height) is still in the supply."""
        return self._get("moai_owner") == -1

    @cached_property
    def tile_heights(self) -> np.ndarray:
        return np.asarray(self.rules.components.moai_heights, dtype=np.int16)

    @cached_property
    def camp_size(self) -> np.ndarray:
        """Pawns in each clan's camp [n, P] (public)."""
        return self._counts[:, :, 1]

    @cached_property
    def reserve(self) -> np.ndarray:
        """[n, P, 3]: pawns of strength 1, 2, 3 in each clan's reserve (public supply)."""
        res = self._get("loc") == RESERVE
        per = self.rules.components.pawns_per_strength
        return res.reshape(res.shape[0], res.shape[1], 3, per).sum(axis=3)

    @cached_property
    def shown_loc(self) -> np.ndarray:
        """[n, P, N]: location of each face-up pawn on the board, HIDDEN otherwise.

        Pawns are numbered by strength, so only face-up pawns are shown by index.
        """
        return self._shown_and_hidden[0]

    @cached_property
    def hidden_count(self) -> np.ndarray:
        """[n, P, L]: face-down pawns of each clan on each board location (counts only)."""
        return self._shown_and_hidden[1]

    @cached_property
    def _shown_and_hidden(self) -> tuple[np.ndarray, np.ndarray]:
        loc, up = self._table("loc"), self._table("up")
        return shown_and_hidden(loc, up, self.__rows, self.rules.layout.size, HIDDEN)

    @cached_property
    def on_board(self) -> np.ndarray:
        """Pawns of each clan on the board [n, P] (public)."""
        return self._counts[:, :, 0]

    # --- own, secret state ---------------------------------------------------------------
    @cached_property
    def hand(self) -> np.ndarray:
        """Own hand [n, 6]: counts by card type (CARD_TYPES order)."""
        return self._own("hand")

    @cached_property
    def own_loc(self) -> np.ndarray:
        """Own pawns' location codes [n, N] (pawn i has strength `strengths(rules)[i]`)."""
        return self._own("loc")

    @cached_property
    def own_up(self) -> np.ndarray:
        return self._own("up")

    @cached_property
    def own_tiles(self) -> np.ndarray:
        """[n, T] bool: the tiles this clan holds (heights in `tile_heights`)."""
        return self._get("moai_owner") == self.seat

    @cached_property
    def strength(self) -> np.ndarray:
        """Strength of each pawn index [N]."""
        return strengths(self.rules)
