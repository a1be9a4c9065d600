"""The game's integer codes and the arithmetic on them: one home for each rule fact.

Both engines, the compiled kernels and the strategies import these. The functions are compiled
with numba so that kernels can call them; the reference engine, which reads one value at a
time, calls the same source through `.py_func` (the Layout methods do so).

Rule ids refer to docs/rules.md.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from moaisim.jit import kernel

# --- where a pawn is (R0, R5) ------------------------------------------------------------------
RESERVE = -2  # R0: a clan's unused or dead pawns
CAMP = -1  # R0: pawns in front of the player, not on the board
#: Zones of the board (R0), and the zone of a pawn that is not on the board.
FOREST, FIELDS, VOLCANO, OCEAN = 0, 1, 2, 3
OFF_BOARD = -1
ZONES: tuple[str, ...] = ("forest", "fields", "volcano", "ocean")

# --- Moai tiles (C2, R6.2, R6.5, C3) -----------------------------------------------------------
#: Owner code of a tile that is still in the supply, and of one that left the game (topple).
TILE_SUPPLY = -1
TILE_OUT = -2

# --- Rapa Nui cards (C1) -----------------------------------------------------------------------
#: Card types, in canonical order: values 1-3, then Raid cards of values 1-3.
CARD_TYPES: tuple[str, ...] = ("1", "2", "3", "raid1", "raid2", "raid3")
N_CARD_TYPES = len(CARD_TYPES)
FIRST_RAID = 3

#: V3 `short`: epoch cards removed before setup, per epoch 1, 2, 3 (never the Admiral).
SHORT_REMOVALS: tuple[int, int, int] = (2, 2, 1)


def _rule(fn):  # type: ignore[no-untyped-def]
    """Compile a rule function for the kernels; `.py_func` keeps the plain-Python original."""
    return kernel(fn)


@_rule
def card_value(card_type: int) -> int:
    """Value (1-3) of a card type; a Raid card counts its value (R3.3, R6.4, R7.3)."""
    return card_type % 3 + 1


@_rule
def is_raid(card_type: int) -> bool:
    """A Raid card (R6.4)."""
    return card_type >= FIRST_RAID


@_rule
def card_type(value: int, raid: bool) -> int:
    """The card type of a value (1-3), plain or Raid."""
    return (FIRST_RAID if raid else 0) + value - 1


@_rule
def holds_raid(hand: np.ndarray) -> bool:
    """The hand (counts per type) holds a Raid card: without one no raid is possible (R6.4:
    a raid discards one)."""
    for t in range(FIRST_RAID, N_CARD_TYPES):  # noqa: SIM110 - numba has no any() of a generator
        if hand[t] > 0:
            return True
    return False


@_rule
def holds_pair(hand: np.ndarray, a: int, b: int) -> bool:
    """The hand (counts per type) holds a card of type a and another of type b."""
    if a == b:
        return hand[a] >= 2
    return hand[a] >= 1 and hand[b] >= 1


@_rule
def birth_strength(a: int, b: int) -> int:
    """R7.3: two cards give a pawn of the lower card's value."""
    return min(card_value(a), card_value(b))


#: R6.4 raid combinations: (value r of the Raid card, the second card is a Raid card too).
#: Combo c has r = c // 2 + 1 and a Raid second card when c is odd (`raid_cards`).
RAID_COMBOS: tuple[tuple[int, bool], ...] = tuple(
    (r, raid) for r in (1, 2, 3) for raid in (False, True)
)
N_RAID_COMBOS = len(RAID_COMBOS)


@_rule
def raid_cards(combo: int, victim_strength: int) -> tuple[int, int]:
    """R6.4: the card types a raid discards: a Raid card, and a second card (plain or Raid)
    whose value is the strength of the rival pawn removed."""
    return card_type(combo // 2 + 1, True), card_type(victim_strength, combo % 2 == 1)


# --- the board's location codes ----------------------------------------------------------------
class Layout(NamedTuple):
    """Integer location codes of the board, shared by both engines, kernels and views.

    A pawn's location is RESERVE, CAMP or a board code: forest spaces 0..F-1; the fields F
    (fields are interchangeable, R1.1, so they are one code); the clan's own volcano spaces
    F+1..F+V (a volcano space only ever holds one clan's pawns, R5.6, so each clan numbers
    its own, one per pawn at most); its boats F+1+V..F+V+K (one pawn per boat, R5.7).
    Pawn i of a colour has strength i // per_strength + 1 (pawns are numbered by strength).
    """

    forest: int  # F forest spaces, codes 0..F-1
    fields: int  # the code of the fields
    volcano0: int  # the first volcano space's code
    volcano: int  # V volcano spaces per clan
    ocean0: int  # the first boat's code
    boats: int  # K boat slots per clan
    size: int  # number of board codes
    n_fields: int  # field spaces on the board (R1.1)
    per_strength: int  # pawns of each strength per colour
    pawns: int  # pawns per colour

    @classmethod
    def of(cls, forest: int, boats: int, n_fields: int, per_strength: int) -> Layout:
        """The location codes of a board: forest spaces, fields, volcano spaces and boats."""
        pawns = 3 * per_strength
        return cls(
            forest=forest,
            fields=forest,
            volcano0=forest + 1,
            volcano=pawns,
            ocean0=forest + 1 + pawns,
            boats=boats,
            size=forest + 1 + pawns + boats,
            n_fields=n_fields,
            per_strength=per_strength,
            pawns=pawns,
        )

    def zone(self, loc: int) -> int:
        """Zone of a location code (OFF_BOARD for camp and reserve)."""
        return zone_of.py_func(self, loc)

    def zones(self, locs: np.ndarray) -> np.ndarray:
        """`zone` of every code of an array."""
        locs = np.asarray(locs, dtype=np.int64)
        return zones_of(self, locs.ravel()).reshape(locs.shape)

    def strength(self, pawn: int) -> int:
        """Strength (1-3) of a pawn index."""
        return strength_of.py_func(self, pawn)

    def strengths(self) -> np.ndarray:
        """Strength of each pawn index of a colour (read-only)."""
        out = np.array([strength_of.py_func(self, i) for i in range(self.pawns)], dtype=np.int8)
        out.setflags(write=False)
        return out

    def name(self, loc: int) -> str:
        """Readable name of a location code, e.g. 'forest 2', 'volcano space 1', 'boat 1'."""
        if loc == RESERVE:
            return "reserve"
        if loc == CAMP:
            return "camp"
        z = self.zone(loc)
        if z == FOREST:
            return f"forest {loc + 1}"
        if z == FIELDS:
            return "fields"
        if z == VOLCANO:
            return f"volcano space {loc - self.volcano0 + 1}"
        return f"boat {loc - self.ocean0 + 1}"


@_rule
def zone_of(lay: Layout, loc: int) -> int:
    """Zone (FOREST, FIELDS, VOLCANO, OCEAN) of a board code; OFF_BOARD for camp and reserve."""
    if loc < 0:
        return OFF_BOARD
    if loc < lay.fields:
        return FOREST
    if loc == lay.fields:
        return FIELDS
    if loc < lay.ocean0:
        return VOLCANO
    return OCEAN


@_rule
def zones_of(lay: Layout, locs: np.ndarray) -> np.ndarray:
    """`zone_of` of every code of a 1-d array."""
    out = np.empty(len(locs), dtype=np.int8)
    for k in range(len(locs)):
        out[k] = zone_of(lay, locs[k])
    return out


@_rule
def strength_of(lay: Layout, pawn: int) -> int:
    """Strength (1-3) of a pawn index: pawns are numbered by strength (R1.5)."""
    return pawn // lay.per_strength + 1


@_rule
def feeds(lay: Layout, loc: int) -> bool:
    """R6.3: pawns in the fields and on boats feed the clan (and eat first)."""
    z = zone_of(lay, loc)
    return z in (FIELDS, OCEAN)


@_rule
def placed_face_up(lay: Layout, loc: int, open_pawns: bool) -> bool:
    """R5.4-R5.7: a pawn is placed face up in the fields and on a boat, face down in the
    forest and on the volcano; under V1 every pawn is placed face up."""
    return open_pawns or feeds(lay, loc)


@_rule
def raidable(lay: Layout, loc: int) -> bool:
    """R6.3-R6.4: pawns in the forest and on the volcano may starve or be raided."""
    z = zone_of(lay, loc)
    return z in (FOREST, VOLCANO)


@_rule
def swap_place(lay: Layout, loc: int) -> int:
    """R5.3: where a pawn stands for the swap rule: all fields are one place (one code
    already), and all of a clan's boats are one place."""
    return loc if loc < lay.ocean0 else lay.ocean0


@_rule
def free_fields(lay: Layout, covered: int, in_fields: int) -> int:
    """R5.5: fields with neither a pawn nor a disaster token."""
    return lay.n_fields - covered - in_fields


@_rule
def score(moai_height: int, living: int, wood: int, wood_points: int, moai_points: int) -> int:
    """R8.2: Moai height + living pawns (board and camp) + 2 per wood token; the rule
    parameters `moai_points` (1) and `wood_points` (2) are the points per metre of Moai height
    and per wood token."""
    return moai_points * moai_height + living + wood_points * wood


@_rule
def moai_tile(owner: np.ndarray, heights: np.ndarray, height: int) -> int:
    """R6.2: the tile a statue of `height` takes: the tallest tile left in the supply that is
    not taller than the statue (the first of equal ones); -1 if there is none."""
    best = -1
    for t in range(len(heights)):
        fits = owner[t] == TILE_SUPPLY and heights[t] <= height
        if fits and (best < 0 or heights[t] > heights[best]):
            best = t
    return best


# --- the hill order (R3.4-R3.5) ------------------------------------------------------------------
@_rule
def placed(hill: np.ndarray, pos: int, seat: int) -> bool:
    """The seat holds one of the first `pos` places of the hill order `hill`."""
    for j in range(pos):  # noqa: SIM110 - numba has no any() of a generator
        if hill[j] == seat:
            return True
    return False


@_rule
def hill_order(hill: np.ndarray, pos: int, bids: np.ndarray, birdman: int, strict: bool,
               legal: np.ndarray, tied: np.ndarray) -> tuple[int, int]:  # fmt: skip
    """R3.4 (V4 `open-bidding-strict`, `strict`: its own tie rule): the hill order, highest
    bid first, filled into hill [P] from place `pos` on (hill[:pos] placed already) while the
    highest bid of the seats not placed yet is one seat's alone. At a tie the bird-man in
    office names the next seat: returns (the place he fills, the tied bid), legal [P] then
    holding his choices (the tied seats not placed yet; himself excluded while others remain,
    R3.4: he places himself behind the others he is tied with; under V4 only at place 0: a
    bird-man tied for first cannot take it) and tied [P] every seat of that bid, placed or
    not. Returns (P, 0) once the order is complete (R3.5: hill[0] is the new bird-man)."""
    p = len(bids)
    while pos < p:
        best = -(1 << 20)
        for q in range(p):
            if not placed(hill, pos, q) and bids[q] > best:
                best = bids[q]
        count, only = 0, -1
        for q in range(p):
            if not placed(hill, pos, q) and bids[q] == best:
                count += 1
                only = q
        if count == 1:
            hill[pos] = only
            pos += 1
            continue
        bar = not strict or pos == 0  # the bird-man may not take this place
        for q in range(p):
            tied[q] = bids[q] == best
            legal[q] = tied[q] and not placed(hill, pos, q) and not (bar and q == birdman)
        return pos, best
    return pos, 0


# --- the volcano (R5.6, R6.2) --------------------------------------------------------------------
@_rule
def new_volcano_space(used: np.ndarray) -> int:
    """R5.6: the new volcano space a clan's pawn may open (used [V]: the clan's spaces holding
    its pawns; a space never holds another clan's, so each clan numbers its own): its lowest
    space without a pawn, the spaces being unlimited; -1 when it has pawns on all of them."""
    for v in range(len(used)):
        if not used[v]:
            return v
    return -1


@_rule
def volcano_open(used: np.ndarray, space: int, new: int) -> bool:
    """R5.6: a clan's pawn may go on its volcano space `space`: one holding the clan's pawns
    (used [V]), or the new one (`new`: `new_volcano_space(used)`)."""
    return used[space] or space == new


@_rule
def statue_heights(lay: Layout, loc: np.ndarray, height: np.ndarray) -> None:
    """R6.2: the height of the statue on each of a clan's volcano spaces, its pawns' total
    strength there, from the clan's pawn locations loc [pawns], added into height [V] (given
    cleared)."""
    for i in range(len(loc)):
        v = loc[i] - lay.volcano0
        if 0 <= v < lay.volcano:
            height[v] += strength_of(lay, i)


@_rule
def finishable(height: np.ndarray, done: np.ndarray, wood: int, owner: np.ndarray,
               tile_heights: np.ndarray, legal: np.ndarray) -> bool:  # fmt: skip
    """R6.2: the volcano spaces a clan may announce finished, into legal [V] (given cleared):
    those with a statue (height [V], `statue_heights`) not finished this turn (done [V]),
    while the clan has a wood to pay for transport and a tile no taller than the statue is
    left in the supply (`moai_tile`). Returns whether there is one."""
    if wood < 1:
        return False
    some = False
    for v in range(len(height)):
        if height[v] > 0 and not done[v]:
            legal[v] = moai_tile(owner, tile_heights, height[v]) >= 0
            some = some or legal[v]
    return some
