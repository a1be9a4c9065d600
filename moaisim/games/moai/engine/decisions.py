"""Decision kinds and their action encodings (docs/rules.md section D).

Every decision a strategy makes is one of `Kind`. Each kind has a fixed action space for a
given `Rules` (`action_size`), so a batch of games asks one question with one mask array
[n, A]. The one exception is `bid`, whose action is a vector of card counts [n, 6] bounded by
the hand (`legal` then holds those bounds). Multi-part choices are asked one part at a time
(one tied bidder placed, one Moai finished, one starving pawn, one pawn rested, one birth),
each part ending with the engine asking again until the rules or a "stop" action end it.

The encodings (`WorkCodec`, `FeedCodec`, `BIRTH_PAIRS`) are numba-friendly records: the
kernels of the batch engine encode and decode actions with the same functions as Python code.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import NamedTuple

import numpy as np

from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import N_CARD_TYPES, N_RAID_COMBOS, birth_strength

# What a disaster_loss decision is about (`SeatView.info["what"]`): the rules' codes of R4.4,
# named here too for the code that reads the decisions.
from moaisim.games.moai.rules.epoch_cards import LOSS_BOAT as LOSS_BOAT
from moaisim.games.moai.rules.epoch_cards import LOSS_MOAI as LOSS_MOAI
from moaisim.games.moai.rules.epoch_cards import LOSS_PAWN as LOSS_PAWN
from moaisim.jit import kernel


class Kind(StrEnum):
    """The decision kinds, one per item of docs/rules.md section D; values are Strategy
    methods."""

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


#: The numbers of one answer of each kind (its width): a bid is a count per card type (R3.3,
#: each bounded by the hand: the legal row holds the bounds), any other kind one action of its
#: mask. The toolkit reads it through the GameSpec (`ACTION_WIDTHS`), never a kind's name.
ACTION_WIDTHS: dict[Kind, int] = {k: N_CARD_TYPES if k is Kind.BID else 1 for k in Kind}


#: Unordered pairs of card types (t1 <= t2) that a birth can discard (R7.3), and the strength
#: of the pawn each pair gives; the action after the last pair stops.
BIRTH_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(N_CARD_TYPES) for b in range(a, N_CARD_TYPES)
)
BIRTH_STOP = len(BIRTH_PAIRS)
PAIR_A = np.array([a for a, _ in BIRTH_PAIRS], dtype=np.int64)
PAIR_B = np.array([b for _, b in BIRTH_PAIRS], dtype=np.int64)
PAIR_STRENGTH = np.array([birth_strength.py_func(a, b) for a, b in BIRTH_PAIRS], dtype=np.int64)
for _a in (PAIR_A, PAIR_B, PAIR_STRENGTH):
    _a.setflags(write=False)


@cache
def strengths(rules: Rules) -> np.ndarray:
    """Strength (1-3) of each pawn index of a colour, computed once per `Rules`; read-only."""
    return rules.layout.strengths()


def swap_pairs(pawns: int) -> tuple[np.ndarray, np.ndarray]:
    """All pairs (i < j) of pawn indices, in a fixed order: the swap part of the work space."""
    i, j = np.triu_indices(pawns, k=1)
    return i.astype(np.int64), j.astype(np.int64)


class WorkCodec(NamedTuple):
    """Action encoding of the work phase (R5).

    place: strength s (1-3) on target t -> (s-1) * targets + t, where the targets are the
    forest spaces 0..F-1, the fields F, the clan's volcano spaces F+1..F+V and "a free boat"
    F+V+1 (the targets equal the location codes, except that all boats are one target: boats
    are interchangeable). Then `pass`, then one action per pair of own pawns to swap
    (pair k swaps pawns pair_i[k] and pair_j[k]).
    """

    targets: int
    boat_target: int
    pass_action: int
    swap0: int
    size: int
    pair_i: np.ndarray
    pair_j: np.ndarray

    @classmethod
    def of(cls, rules: Rules) -> WorkCodec:
        """The work codec of a set of rules (its board's location codes)."""
        lay = rules.layout
        targets = lay.ocean0 + 1
        pair_i, pair_j = swap_pairs(lay.pawns)
        pass_action = 3 * targets
        return cls(
            targets=targets,
            boat_target=lay.ocean0,
            pass_action=pass_action,
            swap0=pass_action + 1,
            size=pass_action + 1 + len(pair_i),
            pair_i=pair_i,
            pair_j=pair_j,
        )

    @property
    def pairs(self) -> np.ndarray:
        """[pairs, 2] pawn indices of each swap action."""
        return np.stack([self.pair_i, self.pair_j], axis=1)

    def place(self, strength: int, target: int) -> int:
        """The action that places a pawn of this strength on location code `target`."""
        return place_action.py_func(self, strength, target)

    def swap(self, i: int, j: int) -> int:
        """The action that swaps own pawns i and j (R5.6)."""
        i, j = min(i, j), max(i, j)
        hit = np.flatnonzero((self.pair_i == i) & (self.pair_j == j))
        return self.swap0 + int(hit[0])

    def decode(self, action: int) -> tuple[str, int, int]:
        """('place', strength, target) | ('pass', 0, 0) | ('swap', i, j)."""
        if action < self.pass_action:
            return "place", *placement.py_func(self, action)
        if action == self.pass_action:
            return "pass", 0, 0
        k = action - self.swap0
        return "swap", int(self.pair_i[k]), int(self.pair_j[k])


@kernel
def place_action(codec: WorkCodec, strength: int, target: int) -> int:
    """The work action that places a pawn of `strength` on `target`."""
    return (strength - 1) * codec.targets + target


@kernel
def placement(codec: WorkCodec, action: int) -> tuple[int, int]:
    """(strength, target) of a placing work action."""
    return action // codec.targets + 1, action % codec.targets


class FeedCodec(NamedTuple):
    """Action encoding of feeding (R6.3-R6.4): starve own pawn i -> i (0..N-1); raid the
    rival pawn (seat q, pawn j) with raid combo c (`codes.RAID_COMBOS`) ->
    N + (q * N + j) * 6 + c."""

    pawns: int
    size: int

    @classmethod
    def of(cls, rules: Rules) -> FeedCodec:
        """The feed codec of a set of rules (pawns per colour, players)."""
        n = rules.layout.pawns
        return cls(pawns=n, size=n + rules.players * n * N_RAID_COMBOS)

    def raid(self, victim_seat: int, victim_pawn: int, combo: int) -> int:
        """The action that raids pawn `victim_pawn` of `victim_seat` with Raid combination
        `combo` (R6.4)."""
        return raid_action.py_func(self, victim_seat, victim_pawn, combo)

    def decode(self, action: int) -> tuple[str, int, int, int]:
        """('starve', pawn, 0, 0) | ('raid', victim_seat, victim_pawn, combo)."""
        if action < self.pawns:
            return "starve", action, 0, 0
        return "raid", *raid_of.py_func(self, action)


@kernel
def raid_action(codec: FeedCodec, victim: int, pawn: int, combo: int) -> int:
    """The feed action that raids rival `victim`'s pawn with raid combo `combo`."""
    return codec.pawns + (victim * codec.pawns + pawn) * N_RAID_COMBOS + combo


@kernel
def raid_of(codec: FeedCodec, action: int) -> tuple[int, int, int]:
    """(victim seat, victim pawn, combo) of a raiding feed action."""
    x, combo = divmod(action - codec.pawns, N_RAID_COMBOS)
    victim, pawn = divmod(x, codec.pawns)
    return victim, pawn, combo


@cache
def work_codec(rules: Rules) -> WorkCodec:
    """The (shared, computed once) work-phase encoding of a `Rules`."""
    return WorkCodec.of(rules)


@cache
def feed_codec(rules: Rules) -> FeedCodec:
    """The (shared, computed once) feeding encoding of a `Rules`."""
    return FeedCodec.of(rules)


def action_size(rules: Rules, kind: Kind) -> int:
    """Size of the action space of a kind (bid: the 6 card types)."""
    return action_sizes(rules)[kind]


def largest_action(rules: Rules) -> int:
    """The largest action space of any kind (the width of a decision's mask)."""
    return max(action_sizes(rules).values())


@cache
def action_sizes(rules: Rules) -> dict[Kind, int]:
    """Each kind's action space size (computed once per set-up: asked at every decision)."""
    c, lay, p = rules.components, rules.layout, rules.players
    sizes = {
        Kind.BID: N_CARD_TYPES,
        Kind.ORDER_TIES: p,
        Kind.PICK_EPOCH: p + 1,
        Kind.DISASTER_TARGET: p,
        Kind.DISASTER_LOSS: max(lay.pawns, lay.boats, c.n_tiles),
        Kind.WORK: work_codec(rules).size,
        Kind.FOREST_TIE: p,
        Kind.FINISH_MOAI: lay.volcano + 1,
        Kind.FEED: feed_codec(rules).size,
        Kind.REST: lay.pawns,
        Kind.BIRTH: BIRTH_STOP + 1,
        Kind.BOAT: 2,
    }
    return sizes
