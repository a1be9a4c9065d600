"""`heuristic`: one parametric strategy; every decision is a weighted sum of clear features.

Each decision scores every legal action by a weighted sum of features the seat can see, and
takes the best one (ties at random from the seat's stream, `strategies/ties.py`). The weights
are data: `strategies/weights/heuristic.toml` holds the defaults, one commented line per
weight; `heuristic(weights=path.toml)` overrides any of them (a TOML file with a `[weights]`
table, or top-level `name = value` lines). The plan strategies (`moai`, `fisher`,
`forester`, `breeder`, `raider`, `bidder`) are points of this weight space, each with its own
file in `strategies/weights/`, and `tuned` is the point `moaisim tune` found.

The features, by decision (weight names in brackets; "points" are score points, R8.2):

**Position value** (work, feeding, famine). Placements and swaps are scored by how much they
change the value V of the clan's own pawns, a sum of three parts:

- *food* (R6.3): -[starve] x max(0, living pawns + [buffer] - food), food being the strength
  in the fields and on boats;
- *forest* (R6.1), per space: if a wood token lies there, the chance of winning it, times
  [wood] (+ [deny] when a rival is there too). The chance is 0.5 + own strength - the rivals'
  estimate, clipped to [0, 1]; a rival's estimate is its face-up strength + [hidden_str] per
  face-down pawn, plus [threat] while some rival still has pawns to place, minus 0.5 when the
  seat is the bird-man (it breaks ties); the token is worth [wood_need] more when the clan
  holds no wood and has a statue that could take a tile (wood for transport). Plus
  [forest_future] per strength standing on a space likely to get wood next round (the expected
  palms of the next epoch fill spaces 1, 2...);
- *volcano* (R6.2), per own space of height h: [moai] x the tile it would take now (the
  tallest tile left that is not taller, 0 if none) + [height] x m + [convex] x m^2 / T, with
  m = min(h, T) and T the tallest tile: the statue's growth, convex to pile onto the tallest
  statue (not in the last round);
- *exposure* (R6.4): -[exposed] per strength of own face-up pawns in the forest or on the
  volcano (raid targets).

A placement adds [forest_str] x strength in the forest, [field_str] x strength in the fields
or on a boat, [boat_pref] on a boat and [new_space] when it starts a statue; a swap must gain
more than [swap_min]; a pass scores 0.

**Rest** (R7.2): [rest_forest], [rest_fields], [rest_volcano], [rest_ocean] by the pawn's zone
+ [rest_str] x strength.

**Pawns and cards.** Losing a pawn costs [pawn] + [pawn_str] x strength + what V loses without
it (starving, famine). Keeping a card is worth [card] + [card_value] x its value (+ [card_raid]
for a Raid card, unless it pays for a raid).

**Feeding** (R6.3-R6.4): starve the pawn that costs least, or raid to save it: [raid] +
[raid_lead] x (the victim's visible score - the seat's) + [raid_str] x the victim's strength -
the two cards.

**Births** (R7.3): [birth] + [birth_str] x the pawn's strength - the two cards - [short] per
card the hand falls below [keep] (cards cost nothing in the last round) - [birth_hungry] if
food is already short of the clan; stopping scores 0.

**Wood** (R6.2, R7.4): a wood token kept is worth [wood_value]. Finishing a statue scores
[tile] x the tile's height - [wood_value] - [wait] x (tallest tile - h) before the last round
- [exposed] x the face-down strength it reveals; a boat scores [boat] - [wood_value] (not in
the last round).

**Epoch cards** (R4.1): [pick_draw] x draw + [pick_hut] x hut + [pick_boat] for a boat card
the clan can build + [pick_disaster] for a disaster it aims + [pick_erosion] for erosion.
**Disasters** (R4.3): the target scores [target_lead] x its visible score + [target_loses] if
it has what the disaster takes (never itself); a famine takes the pawn that costs least, a
storm an unmanned boat, a topple the smallest Moai. **Ties** (R3.4, R6.1): as bird-man, itself
first, then the others by -[tie_lead] x visible score.

**Bid** (R3.3): a target total [bid_base] + [bid_hand] x hand size + [bid_offer] x (the best
card on offer - the mean offer, by the pick scores) + [bid_last] in the last round; the bid is
the cheapest set of cards that reaches it (the cards' values + [short] per card it leaves the
hand below [keep]), nothing when the hand cannot.
In open bidding (V2/V4) it bids just enough to beat the bids shown when that is within its
target, else nothing.

The visible score of a clan is R8.2's score with 6 points guessed per Moai tile (Moai heights
are secret, R6.5): 6 x Moai count + the rule parameter `wood_points` (2) x wood + living
pawns (`features.visible_score`).
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import numpy as np
from numba import njit

from moaisim.engine.decisions import (
    BIRTH_PAIRS,
    PAIR_A,
    PAIR_B,
    PAIR_STRENGTH,
    FeedCodec,
    WorkCodec,
    feed_codec,
    raid_action,
    work_codec,
)
from moaisim.engine.views import SeatView
from moaisim.errors import UnknownStrategyError
from moaisim.rules import CARD_TYPES, Rules
from moaisim.rules.codes import (
    CAMP,
    FIELDS,
    N_RAID_COMBOS,
    OCEAN,
    Layout,
    card_value,
    feeds,
    is_raid,
    raid_cards,
    raidable,
)
from moaisim.rules.epoch_cards import EpochTable, epoch_table
from moaisim.strategies.base import Strategy
from moaisim.strategies.features import (
    LOSES_FIELDS,
    SCORE_FIELDS,
    loses,
    loss_scores,
    rival_forest,
    visible_score,
)
from moaisim.strategies.ties import NEG, best, pick_row, tie_values

#: Each card type's value and whether it is a Raid card (C1), for the cards' keep values.
CARD_VALUES = np.array([card_value.py_func(t) for t in range(len(CARD_TYPES))], dtype=np.float64)
CARD_RAIDS = np.array([is_raid.py_func(t) for t in range(len(CARD_TYPES))], dtype=np.float64)

#: The weights: (name, scale, meaning). The order is the tuner's vector order; `scale` is a
#: typical magnitude (the tuner searches weight / scale). Defaults: weights/heuristic.toml.
WEIGHTS: tuple[tuple[str, float, str], ...] = (
    ("starve", 10.0, "points per unit of food short of living pawns + buffer"),
    ("buffer", 1.0, "food wanted above the number of living pawns"),
    ("field_str", 1.0, "per strength of a pawn placed in the fields or on a boat"),
    ("boat_pref", 1.0, "placing on a boat rather than in the fields"),
    ("wood", 5.0, "winning the wood token of a forest space"),
    ("deny", 2.0, "extra for winning a token a rival contests"),
    ("wood_need", 2.0, "extra for winning wood with none held and a statue to finish"),
    ("threat", 1.0, "strength added to rivals' forest estimates while they still place"),
    ("hidden_str", 1.0, "expected strength of a rival's face-down forest pawn"),
    ("forest_future", 1.0, "per strength on a forest space likely to get wood next round"),
    ("forest_str", 1.0, "per strength of a pawn placed in the forest"),
    ("moai", 1.0, "per metre of the tile a volcano space would take now"),
    ("height", 1.0, "per unit of statue height, up to the tallest tile (growth)"),
    ("convex", 1.0, "per unit of height^2 / tallest tile: piling onto the tallest statue"),
    ("new_space", 2.0, "starting a new statue"),
    ("exposed", 0.5, "cost per strength of own face-up pawns in forest and volcano"),
    ("swap_min", 1.0, "gain a swap must exceed"),
    ("rest_forest", 5.0, "resting a forest pawn"),
    ("rest_fields", 5.0, "resting a fields pawn"),
    ("rest_volcano", 5.0, "resting a volcano pawn"),
    ("rest_ocean", 5.0, "resting a boat pawn"),
    ("rest_str", 1.0, "per strength of the resting pawn"),
    ("pawn", 2.0, "cost of losing a pawn"),
    ("pawn_str", 1.0, "cost per strength of a lost pawn"),
    ("card", 1.0, "value of keeping a card"),
    ("card_value", 0.5, "value of keeping a card, per card value"),
    ("card_raid", 1.0, "extra value of keeping a Raid card"),
    ("keep", 2.0, "cards the clan likes to keep in hand"),
    ("short", 1.0, "cost per card a birth or a bid leaves the hand below keep"),
    ("birth", 2.0, "value of a birth"),
    ("birth_str", 1.0, "value of a birth per strength of the pawn"),
    ("birth_hungry", 2.0, "cost of a birth when food is short"),
    ("raid", 2.0, "value of a raid (besides the pawn it saves)"),
    ("raid_lead", 0.2, "per point of the victim's visible lead over the raider"),
    ("raid_str", 1.0, "per strength of the pawn raided"),
    ("boat", 3.0, "value of building a boat"),
    ("wood_value", 2.0, "value of keeping a wood token"),
    ("tile", 1.0, "per metre of a statue finished"),
    ("wait", 0.5, "per metre a statue could still grow before the last round"),
    ("pick_draw", 1.0, "epoch card: per card drawn"),
    ("pick_hut", 1.0, "epoch card: per pawn resting"),
    ("pick_boat", 2.0, "epoch card: a boat card the clan can build"),
    ("pick_disaster", 2.0, "epoch card: a disaster to aim"),
    ("pick_erosion", 1.0, "epoch card: erosion"),
    ("target_lead", 1.0, "disaster target: per point of visible score"),
    ("target_loses", 10.0, "disaster target: it has what the disaster takes"),
    ("tie_lead", 1.0, "ties: per point of the other clan's visible score (-)"),
    ("bid_base", 2.0, "bid target: constant"),
    ("bid_hand", 0.5, "bid target: per card in hand"),
    ("bid_offer", 1.0, "bid target: per point the best card on offer beats the mean"),
    ("bid_last", 2.0, "bid target: in the last round"),
)
NAMES: tuple[str, ...] = tuple(w[0] for w in WEIGHTS)
SCALES = np.array([w[1] for w in WEIGHTS])
INDEX: dict[str, int] = {name: k for k, name in enumerate(NAMES)}

# the weights' indices, as constants the kernels compile in
(STARVE, BUFFER, FIELD_STR, BOAT_PREF, WOOD, DENY, WOOD_NEED, THREAT, HIDDEN_STR,
 FOREST_FUTURE, FOREST_STR, MOAI, HEIGHT, CONVEX, NEW_SPACE, EXPOSED, SWAP_MIN, REST_FOREST,
 REST_FIELDS, REST_VOLCANO, REST_OCEAN, REST_STR, PAWN, PAWN_STR, CARD, CARD_VALUE, CARD_RAID,
 KEEP, SHORT, BIRTH, BIRTH_STR, BIRTH_HUNGRY, RAID, RAID_LEAD, RAID_STR, BOAT, WOOD_VALUE, TILE,
 WAIT, PICK_DRAW, PICK_HUT, PICK_BOAT, PICK_DISASTER, PICK_EROSION, TARGET_LEAD, TARGET_LOSES,
 TIE_LEAD, BID_BASE, BID_HAND, BID_OFFER, BID_LAST) = range(len(WEIGHTS))  # fmt: skip
assert len(WEIGHTS) - 1 == BID_LAST and NAMES[TILE] == "tile"

WEIGHTS_DIR = "weights"


def weights_path(name: str) -> Path:
    """The path of a shipped weights file (`strategies/weights/<name>`)."""
    return Path(str(resources.files("moaisim.strategies").joinpath(WEIGHTS_DIR, name)))


def read_weights(table: dict[str, Any], source: str) -> dict[str, float]:
    """The weights of a TOML document or table: its `[weights]` table if it has one, else its
    top-level numbers (other tables, such as `[tuned]`, are notes). Unknown names and
    values that are not numbers are errors (one clear line)."""
    if "weights" in table and isinstance(table["weights"], dict):
        table = table["weights"]
    out: dict[str, float] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            continue
        if key not in INDEX:
            raise UnknownStrategyError(
                f"{source}: unknown weight {key!r} (weights: {', '.join(NAMES)})"
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UnknownStrategyError(f"{source}: weight {key} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise UnknownStrategyError(f"{source}: weight {key} must be finite, got {value!r}")
        out[key] = float(value)
    return out


@cache
def shipped(name: str) -> dict[str, float]:
    """The weights of a shipped file (`weights_path(name)`), read once."""
    path = weights_path(name)
    try:
        doc = tomllib.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UnknownStrategyError(f"weights file {str(path)!r}: {exc.strerror}") from None
    return read_weights(doc, str(path))


def defaults() -> dict[str, float]:
    """The default weights (`weights/heuristic.toml`), every name."""
    found = shipped("heuristic.toml")
    missing = [k for k in NAMES if k not in found]
    if missing:
        raise UnknownStrategyError(f"heuristic.toml lacks weights {', '.join(missing)}")
    return dict(found)


def vector(weights: dict[str, float]) -> np.ndarray:
    """The weights as the kernels' array, in `NAMES` order (missing names: defaults)."""
    full = {**defaults(), **weights}
    return np.array([full[k] for k in NAMES], dtype=np.float64)


# --- per-rules constants ------------------------------------------------------------------
class Consts:
    """What a heuristic needs of the rules, computed once per `Rules`."""

    def __init__(self, rules: Rules) -> None:
        c, lay = rules.components, rules.layout
        self.lay: Layout = lay
        self.codec: WorkCodec = work_codec(rules)
        self.feed: FeedCodec = feed_codec(rules)
        self.players = rules.players
        self.heights = np.asarray(c.moai_heights, dtype=np.int64)
        self.hmax = int(self.heights.max()) if len(self.heights) else 0
        self.open_pawns = bool(rules.has("open-pawns"))
        self.cards: EpochTable = epoch_table(rules)
        # R3.1: expected palms among the players + 1 cards of a round, by the next epoch
        frac = np.zeros(4)
        for e in (1, 2, 3):
            pile = (self.cards.epoch == e) & ~self.cards.admiral
            n = int(pile.sum())
            frac[e] = int(self.cards.palm[pile].sum()) / n if n else 0.0
        self.palms = frac * (rules.players + 1)


@cache
def consts(rules: Rules) -> Consts:
    """The arrays the heuristic's kernels read for a set of rules, computed once per `Rules`."""
    return Consts(rules)


# --- the position value, compiled ---------------------------------------------------------
class Seen(NamedTuple):
    """What the position value reads of a seat's games (arrays with a leading games axis):
    the view's fields, and three derived from them (`_context`)."""

    own_loc: np.ndarray  # [n, N] own pawns' location codes
    own_up: np.ndarray  # [n, N] own pawns face up
    shown_loc: np.ndarray  # [n, P, N] face-up pawns' locations (views.HIDDEN otherwise)
    hidden: np.ndarray  # [n, P, L] face-down pawns per location code
    forest_wood: np.ndarray  # [n, F] a wood token lies on the space
    placing: np.ndarray  # [n] some rival still has pawns to place
    supply: np.ndarray  # [n, T] the tile is in the supply
    last: np.ndarray  # [n] the last round
    bird: np.ndarray  # [n] the seat is the bird-man
    future: np.ndarray  # [n, F] the chance the space gets wood next round
    wood: np.ndarray  # [n] own wood


class Board(NamedTuple):
    """The rules' constants the kernels read, and the seat."""

    lay: Layout
    codec: WorkCodec
    feed: FeedCodec
    strength: np.ndarray  # [N] strength of each pawn index
    seat: int
    heights: np.ndarray  # [T] tile heights, ascending
    hmax: int  # the tallest tile
    open_pawns: bool  # V1


# The kernels below unpack `Seen` and `Board` once per call and pass plain arrays and
# scalars to the per-game helpers: a tuple of arrays built or passed per game costs more
# than the game's whole scoring (measured: 2.0 -> 0.6 microseconds per game and decision).


@njit(cache=True, nogil=True, inline="always")
def _clip01(x: float) -> float:
    return min(max(x, 0.0), 1.0)


@njit(cache=True, nogil=True, inline="always")
def _forest(
    x: float, wood: bool, riv: float, thr: float, bird: bool, q: float, need: float, w: np.ndarray
) -> float:
    """Value of own strength x on a forest space (see the module docstring); `need` is
    [wood_need] when the clan holds no wood and has a statue to finish, else 0."""
    v = w[FOREST_FUTURE] * q * x
    if wood and x > 0:
        r = riv + thr - (0.5 if bird else 0.0)
        gain = w[WOOD] + (w[DENY] if riv > 0 else 0.0) + need
        v += _clip01(0.5 + x - r) * gain
    return v


@njit(cache=True, nogil=True, inline="always")
def _volcano(h: int, tv: np.ndarray, hmax: int, last: bool, w: np.ndarray) -> float:
    """Value of an own volcano space of height h."""
    v = w[MOAI] * tv[min(h, len(tv) - 1)]
    if not last:
        top = min(h, hmax)
        v += w[HEIGHT] * top + w[CONVEX] * top * top / max(hmax, 1)
    return v


@njit(cache=True, nogil=True, inline="always")
def _food(food: float, living: float, w: np.ndarray) -> float:
    return -w[STARVE] * max(0.0, living + w[BUFFER] - food)


@njit(cache=True, nogil=True)
def _tile_values(supply: np.ndarray, heights: np.ndarray, tv: np.ndarray) -> None:
    """tv[h]: height of the tallest tile left in the supply not taller than h (0: none)."""
    tv[:] = 0
    for t in range(len(heights)):
        h = heights[t]
        if supply[t] and h < len(tv):
            tv[h] = h
    top = 0
    for h in range(len(tv)):
        top = max(top, tv[h])
        tv[h] = top


def _context(view: SeatView, k: Consts) -> Seen:
    """The `Seen` of a view."""
    lay = k.lay
    camp = view.camp_size.copy()
    camp[:, view.seat] = 0
    placing = camp.max(axis=1) > 0
    last = view.last_round
    palms = k.palms[view.next_epoch]
    q = np.clip(palms[:, None] - np.arange(lay.forest)[None, :], 0.0, 1.0)
    q[last] = 0.0
    return Seen(view.own_loc, view.own_up, view.shown_loc, view.hidden_count, view.forest_wood,
                placing, view.moai_supply, last, view.birdman == view.seat, q,
                view.wood[:, view.seat])  # fmt: skip


def _board(view: SeatView, k: Consts) -> Board:
    return Board(k.lay, k.codec, k.feed, view.strength, view.seat, k.heights, k.hmax,
                 k.open_pawns)  # fmt: skip


#: The view fields the position value reads (`_context`).
CONTEXT = ("own_loc", "own_up", "shown_loc", "hidden_count", "forest_wood", "camp_size",
           "moai_supply", "last_round", "birdman", "next_epoch", "wood")  # fmt: skip


@njit(cache=True, nogil=True)
def _prepare(
    r: int, seen: Seen, strength: np.ndarray, seat: int, heights: np.ndarray, lay: Layout,
    per_hidden: float, by_place: np.ndarray, riv: np.ndarray, est: np.ndarray, tv: np.ndarray,
) -> tuple[float, float]:  # fmt: skip
    """Game r's own strength per location (into by_place), the strongest rival's estimate
    per forest space (riv; est is working space) and the tile values (tv); returns
    (living pawns, food)."""
    own_loc = seen.own_loc
    by_place[:] = 0
    living = 0.0
    for i in range(own_loc.shape[1]):
        x = own_loc[r, i]
        if x >= CAMP:
            living += 1
        if x >= 0:
            by_place[x] += strength[i]
    food = float(by_place[lay.fields])
    for x in range(lay.ocean0, lay.size):
        food += by_place[x]
    rival_forest(r, seen.shown_loc, seen.hidden, strength, seat, per_hidden, est, riv)
    _tile_values(seen.supply[r], heights, tv)
    return living, food


@njit(cache=True, nogil=True, inline="always")
def _local(
    code: int, by: int, wood: np.ndarray, riv: np.ndarray, future: np.ndarray, thr: float,
    bird: bool, need: float, tv: np.ndarray, hmax: int, last: bool, lay: Layout, w: np.ndarray,
) -> float:  # fmt: skip
    """The value of own strength `by` at location `code` of a game's forest or volcano (0 for
    fields and boats: their value is food); wood, riv, future: the game's rows per forest
    space; thr: the rivals' threat, need: [wood_need]."""
    if code < lay.forest:
        return _forest(by, wood[code], riv[code], thr, bird, future[code], need, w)
    if lay.volcano0 <= code < lay.ocean0:
        return _volcano(by, tv, hmax, last, w)
    return 0.0


@njit(cache=True, nogil=True, inline="always")
def _row(
    r: int, seen: Seen, board: Board, w: np.ndarray, by_place: np.ndarray, riv: np.ndarray,
    est: np.ndarray, tv: np.ndarray,
) -> tuple[float, float, float, int, bool, float]:  # fmt: skip
    """What scoring one game's work placements and pawn losses starts from (`_prepare`'s
    living pawns and food, filled scratch arrays): the threat weight while pawns are placed,
    the bird-man, the last round and the wood need (`_need`)."""
    living, food = _prepare(r, seen, board.strength, board.seat, board.heights, board.lay,
                            w[HIDDEN_STR], by_place, riv, est, tv)  # fmt: skip
    thr = w[THREAT] if seen.placing[r] else 0.0
    nd = _need(seen.wood[r], by_place, tv, board.lay, w)
    return living, food, thr, seen.bird[r], seen.last[r], nd


@njit(cache=True, nogil=True, inline="always")
def _need(wood: int, by_place: np.ndarray, tv: np.ndarray, lay: Layout, w: np.ndarray) -> float:
    """[wood_need] when the clan holds no wood and one of its statues could take a tile."""
    if wood > 0:
        return 0.0
    for code in range(lay.volcano0, lay.ocean0):
        if tv[min(by_place[code], len(tv) - 1)] > 0:
            return w[WOOD_NEED]
    return 0.0


@njit(cache=True, nogil=True, inline="always")
def _exposed(code: int, up: bool, s: int, lay: Layout) -> float:
    """Strength a pawn shows to raiders (face up in the forest or on the volcano)."""
    if up and raidable(lay, code):
        return float(s)
    return 0.0


@njit(cache=True, nogil=True, inline="always")
def _place_scores(
    r: int, legal: np.ndarray, scores: np.ndarray, base: np.ndarray, by_place: np.ndarray,
    food: float, living: float, f0: float, wood: np.ndarray, riv: np.ndarray, fut: np.ndarray,
    thr: float, bird: bool, nd: float, tv: np.ndarray, hmax: int, last: bool, lay: Layout,
    targets: int, boat_target: int, open_pawns: bool, w: np.ndarray,
) -> None:  # fmt: skip
    """R5.2: the score of each legal placement of game r (strength s on target t) into
    `scores`: what its place gains (base: each place's value before, worked out once), or
    the food it brings (fields, a boat), plus the strength bonus of its kind of place, less
    what it shows to raiders (V1). Inlined into `_work`, taking plain arrays and scalars as
    the per-game helpers do."""
    forest, fields, volcano0, ocean0 = lay.forest, lay.fields, lay.volcano0, lay.ocean0
    for t in range(targets):  # each target's value before the placement, once
        placed = legal[r, t] or legal[r, targets + t] or legal[r, 2 * targets + t]
        if placed and (t < forest or volcano0 <= t < ocean0):
            base[t] = _local(t, by_place[t], wood, riv, fut, thr, bird, nd, tv, hmax, last,
                             lay, w)  # fmt: skip
    for s in range(1, 4):
        for t in range(targets):
            a = (s - 1) * targets + t
            if not legal[r, a]:
                continue
            if t < forest:
                v = _forest(by_place[t] + s, wood[t], riv[t], thr, bird, fut[t], nd, w) - base[t]
                v += w[FOREST_STR] * s
                if open_pawns:
                    v -= w[EXPOSED] * s
            elif t in (fields, boat_target):
                v = _food(food + s, living, w) - f0 + w[FIELD_STR] * s
                if t == boat_target:
                    v += w[BOAT_PREF]
            else:
                by = by_place[t]
                v = _volcano(by + s, tv, hmax, last, w) - base[t]
                if by == 0:
                    v += w[NEW_SPACE]
                if open_pawns:
                    v -= w[EXPOSED] * s
            scores[a] = v


@njit(cache=True, nogil=True, inline="always")
def _swap_scores(
    r: int, legal: np.ndarray, scores: np.ndarray, own_loc: np.ndarray, own_up: np.ndarray,
    strength: np.ndarray, by_place: np.ndarray, food: float, living: float, f0: float,
    wood: np.ndarray, riv: np.ndarray, fut: np.ndarray, thr: float, bird: bool, nd: float,
    tv: np.ndarray, hmax: int, last: bool, lay: Layout, swap0: int, pair_i: np.ndarray,
    pair_j: np.ndarray, w: np.ndarray,
) -> None:  # fmt: skip
    """R5.3: the score of each legal swap of two own pawns of game r into `scores`: what the
    two places gain, the food it moves, the strength it shows to raiders, less [swap_min].
    Inlined into `_work`, taking plain arrays and scalars as the per-game helpers do."""
    fields = lay.fields
    for k in range(len(pair_i)):
        a = swap0 + k
        if not legal[r, a]:
            continue
        i, j = pair_i[k], pair_j[k]
        ci, cj = own_loc[r, i], own_loc[r, j]
        si, sj = strength[i], strength[j]
        bi, bj = by_place[ci], by_place[cj]
        v = _local(ci, bi - si + sj, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
        v -= _local(ci, bi, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
        v += _local(cj, bj - sj + si, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
        v -= _local(cj, bj, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
        f1 = food
        if feeds(lay, ci):
            f1 += sj - si
        if feeds(lay, cj):
            f1 += si - sj
        v += _food(f1, living, w) - f0
        up_i, up_j = own_up[r, i], own_up[r, j]
        ui = up_i or cj == fields
        uj = up_j or ci == fields
        shown = _exposed(cj, ui, si, lay) + _exposed(ci, uj, sj, lay)
        shown -= _exposed(ci, up_i, si, lay) + _exposed(cj, up_j, sj, lay)
        scores[a] = v - w[EXPOSED] * shown - w[SWAP_MIN]


@njit(cache=True, nogil=True)
def _work(legal: np.ndarray, seen: Seen, board: Board, w: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The work action of each game (see the module docstring, "Position value"): the best
    placement (`_place_scores`) or, once every pawn is placed, the best of passing (0) and
    the swaps (`_swap_scores`)."""
    n, size = legal.shape
    lay, strength, hmax, open_pawns = board.lay, board.strength, board.hmax, board.open_pawns
    codec = board.codec
    targets, boat_target, pass_action, swap0 = (codec.targets, codec.boat_target,
                                                 codec.pass_action, codec.swap0)  # fmt: skip
    pair_i, pair_j = codec.pair_i, codec.pair_j
    own_loc, own_up, forest_wood, future = seen.own_loc, seen.own_up, seen.forest_wood, seen.future
    out = np.zeros(n, dtype=np.int64)
    scores = np.full(size, NEG)
    by_place = np.zeros(lay.size, dtype=np.int64)
    riv = np.zeros(lay.forest)
    est = np.zeros(lay.forest)
    tv = np.zeros(3 * own_loc.shape[1] + 1, dtype=np.int64)
    base = np.zeros(targets)
    for r in range(n):
        living, food, thr, bird, last, nd = _row(r, seen, board, w, by_place, riv, est, tv)
        wood, fut = forest_wood[r], future[r]
        f0 = _food(food, living, w)
        _place_scores(r, legal, scores, base, by_place, food, living, f0, wood, riv, fut, thr,
                      bird, nd, tv, hmax, last, lay, targets, boat_target, open_pawns,
                      w)  # fmt: skip
        if legal[r, pass_action]:
            scores[pass_action] = 0.0
            _swap_scores(r, legal, scores, own_loc, own_up, strength, by_place, food, living, f0,
                         wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, swap0, pair_i,
                         pair_j, w)  # fmt: skip
            out[r] = pick_row(scores, legal[r], u[r])
        else:  # placing: the other actions are illegal
            out[r] = pick_row(scores[:pass_action], legal[r, :pass_action], u[r])
    return out


@njit(cache=True, nogil=True)
def _losses(seen: Seen, board: Board, w: np.ndarray) -> np.ndarray:
    """[n, N]: what losing each own pawn costs, beyond the pawn itself: the position value
    it carries (food, forest, volcano; minus its exposure) plus [pawn_str] x strength."""
    n, pawns = seen.own_loc.shape
    lay, strength, hmax = board.lay, board.strength, board.hmax
    own_loc, own_up, forest_wood, future = seen.own_loc, seen.own_up, seen.forest_wood, seen.future
    out = np.zeros((n, pawns))
    by_place = np.zeros(lay.size, dtype=np.int64)
    riv = np.zeros(lay.forest)
    est = np.zeros(lay.forest)
    tv = np.zeros(3 * pawns + 1, dtype=np.int64)
    for r in range(n):
        living, food, thr, bird, last, nd = _row(r, seen, board, w, by_place, riv, est, tv)
        wood, fut = forest_wood[r], future[r]
        f0 = _food(food, living - 1, w)
        for i in range(pawns):
            code, s = own_loc[r, i], strength[i]
            loss = w[PAWN_STR] * s
            if code >= 0:
                by = by_place[code]
                loss += _local(code, by, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
                loss -= _local(code, by - s, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
                if feeds(lay, code):
                    loss += f0 - _food(food - s, living - 1, w)
                loss -= w[EXPOSED] * _exposed(code, own_up[r, i], s, lay)
            out[r, i] = loss
    return out


@njit(cache=True, nogil=True)
def _feed(
    legal: np.ndarray, board: Board, losses: np.ndarray, lead: np.ndarray, cost: np.ndarray,
    w: np.ndarray, u: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The feeding action of each game: starve the pawn that costs least, or raid (R6.4:
    the Raid card and a second card of the victim's strength, `raid_cards`)."""
    n, size = legal.shape
    pawns = board.feed.pawns
    players = lead.shape[1]
    out = np.zeros(n, dtype=np.int64)
    scores = np.full(size, NEG)
    for r in range(n):
        for i in range(pawns):
            if legal[r, i]:
                scores[i] = -(w[PAWN] + losses[r, i])
        for qq in range(players):
            for j in range(pawns):
                for c in range(N_RAID_COMBOS):
                    a = raid_action(board.feed, qq, j, c)
                    if legal[r, a]:
                        s = board.strength[j]
                        raid, second = raid_cards(c, s)
                        raid_card = w[CARD] + w[CARD_VALUE] * card_value(raid)
                        scores[a] = (
                            w[RAID] + w[RAID_LEAD] * lead[r, qq] + w[RAID_STR] * s
                            - raid_card - cost[second]
                        )  # fmt: skip
        out[r] = pick_row(scores, legal[r], u[r])
    return out


@njit(cache=True, nogil=True)
def _bid(hand, target, cost, keep, short, u):  # fmt: skip
    """The cheapest sub-multiset of each hand whose total reaches the target (ties at random
    by u); nothing when the target is 0 or the hand cannot reach it. A bid costs its cards'
    values + `short` per card it leaves the hand below `keep`."""
    n, types = hand.shape
    out = np.zeros((n, types), dtype=np.int64)
    cur = np.zeros(types, dtype=np.int64)
    for r in range(n):
        need = target[r]
        if need <= 0:
            continue
        combos = 1
        size = 0
        for t in range(types):
            combos *= hand[r, t] + 1
            size += hand[r, t]
        top = np.inf
        count = 0
        for rep in range(2):  # pass 0: the cheapest cost and how many tie; pass 1: pick one
            if rep == 1:
                if count == 0:
                    break
                pick = min(int(u[r] * count), count - 1)
            for k in range(combos):
                x, total, c, cards = k, 0, 0.0, 0
                for t in range(types):
                    m = hand[r, t] + 1
                    cur[t] = x % m
                    x //= m
                    total += cur[t] * card_value(t)  # R3.3: a Raid card counts its value
                    c += cur[t] * cost[t]
                    cards += cur[t]
                if total < need:
                    continue
                c += short * max(0.0, keep - (size - cards))
                c += 1e-6 * total  # prefer not to overbid
                if rep == 0:
                    if c < top - 1e-9:
                        top, count = c, 1
                    elif c <= top + 1e-9:
                        count += 1
                elif c <= top + 1e-9:
                    if pick == 0:
                        out[r, :] = cur
                        break
                    pick -= 1
    return out


class HeuristicStrategy(Strategy):
    """Weighs every legal action by clear features; weights from a TOML file (weights=...)."""

    name = "heuristic"
    #: the weights file of the class, in strategies/weights/ (the defaults for `heuristic`)
    preset: ClassVar[str] = "heuristic.toml"
    params: ClassVar[dict[str, Any]] = {"weights": {}}
    weights: dict[str, Any]
    reads: ClassVar[dict[str, tuple[str, ...]]] = {
        "bid": ("offer", "wood", "last_round", "bids"),
        "order_ties": SCORE_FIELDS,
        "pick_epoch": ("offer", "wood", "last_round"),
        "disaster_target": tuple(dict.fromkeys((*SCORE_FIELDS, *LOSES_FIELDS))),
        "disaster_loss": (*CONTEXT, "boats_manned"),
        "work": CONTEXT,
        "forest_tie": SCORE_FIELDS,
        "finish_moai": ("own_loc", "own_up", "wood", "last_round", "moai_supply"),
        "feed": (*CONTEXT, "on_board", "moai_count"),
        "rest": ("own_loc",),
        "birth": ("own_loc", "last_round", "hand"),
        "boat": ("last_round",),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        given = read_weights(self.weights, f"strategy {self.name!r}")
        self.w = vector({**shipped(self.preset), **given})

    def start(self, rules: Rules, seat: int, games: np.ndarray) -> None:
        """Keep the rules' constants for this batch (`consts`)."""
        self.k = consts(rules)

    def _k(self, view: SeatView) -> Consts:
        """The rules' constants (kept by `start`; looked up if a method is called alone)."""
        k = getattr(self, "k", None)
        return k if k is not None else consts(view.rules)

    def _cost(self) -> np.ndarray:
        """Value of keeping each card type [6] (`card`, `card_value`, `card_raid`)."""
        w = self.w
        return w[CARD] + w[CARD_VALUE] * CARD_VALUES + w[CARD_RAID] * CARD_RAIDS

    # --- R3 ----------------------------------------------------------------------------
    def _card_scores(self, view: SeatView, k: Consts) -> np.ndarray:
        """The pick score of each card on offer [n, P+1] (empty slots: NEG)."""
        w, t = self.w, k.cards
        cid = view.offer  # an empty slot (-1) reads the "no card" entry
        can_build = (view.wood[:, view.seat] >= 1) & ~view.last_round
        scores = (
            w[PICK_DRAW] * t.draw[cid]
            + w[PICK_HUT] * t.hut[cid]
            + w[PICK_BOAT] * (t.boat[cid] & can_build[:, None])
            + w[PICK_DISASTER] * t.targeted[cid]
            + w[PICK_EROSION] * t.erosion[cid]
        )
        return np.where(view.offer >= 0, scores, NEG)

    def bid(self, view: SeatView) -> np.ndarray:
        """R3.3: a bid total aimed at from the hand, the offer's spread and the last round (open
        bidding: one more than the best bid shown, when that is within reach), paid with the cards
        worth least (`_bid`)."""
        w, k = self.w, self._k(view)
        hand = view.legal.astype(np.int64)
        cards = self._card_scores(view, k)
        valid = view.offer >= 0
        count = valid.sum(axis=1)
        top = np.where(count > 0, cards.max(axis=1), 0.0)
        mean = np.where(count > 0, np.where(valid, cards, 0).sum(axis=1) / np.maximum(count, 1), 0)
        target = (
            w[BID_BASE]
            + w[BID_HAND] * hand.sum(axis=1)
            + w[BID_OFFER] * (top - mean)
            + w[BID_LAST] * view.last_round
        )
        shown = view.bids.max(axis=1)  # open bidding (V2/V4): the bids made so far
        need = np.where(shown >= 0, np.where(shown + 1 <= target, shown + 1, 0), target)
        need = np.where(need >= 0.5, np.ceil(need - 0.5), 0).astype(np.int64)
        return _bid(hand, need, self._cost(), w[KEEP], w[SHORT], tie_values(view))

    def order_ties(self, view: SeatView) -> np.ndarray:
        """R3.4: the leader by visible score takes the next place (itself first when allowed)."""
        return self._tie(view)

    def _tie(self, view: SeatView) -> np.ndarray:
        scores = -self.w[TIE_LEAD] * visible_score(view).astype(np.float64)
        scores[:, view.seat] = 1e6  # itself first when allowed
        return best(scores, view)

    # --- R4 ----------------------------------------------------------------------------
    def pick_epoch(self, view: SeatView) -> np.ndarray:
        """R4.1: the card on offer with the best pick score (`_card_scores`)."""
        return best(self._card_scores(view, self._k(view)), view)

    def disaster_target(self, view: SeatView) -> np.ndarray:
        """R4.3: the clan to hit: weighted visible score and what the card takes from it; never
        itself."""
        w = self.w
        scores = (w[TARGET_LEAD] * visible_score(view).astype(np.float64)
                  + w[TARGET_LOSES] * loses(view, view.info["card"]))  # fmt: skip
        scores[:, view.seat] = NEG
        return best(scores, view)

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        """R4.4: what to lose: the pawn (or boat, or tile) that costs least (`_losses`)."""
        return best(loss_scores(view, self._losses(view, self._k(view))), view)

    def _losses(self, view: SeatView, k: Consts) -> np.ndarray:
        return _losses(_context(view, k), _board(view, k), self.w)

    # --- R5 ----------------------------------------------------------------------------
    def work(self, view: SeatView) -> np.ndarray:
        """R5: the placement, pass or swap of best value (the `_work` kernel)."""
        k = self._k(view)
        return _work(view.legal, _context(view, k), _board(view, k), self.w, tie_values(view))

    # --- R6 ----------------------------------------------------------------------------
    def forest_tie(self, view: SeatView) -> np.ndarray:
        """R6.1: the leader by visible score takes the wood (itself first when allowed)."""
        return self._tie(view)

    def finish_moai(self, view: SeatView) -> np.ndarray:
        """R6.2: the statue to finish, or stop (the `_finish` kernel)."""
        k = self._k(view)
        statues = Statues(view.own_loc, view.own_up, view.moai_supply, view.last_round)
        return _finish(view.legal, statues, _board(view, k), self.w, tie_values(view))

    def feed(self, view: SeatView) -> np.ndarray:
        """R6.3-R6.4: starve the pawn that costs least, or raid where the lead and the cards' value
        say (`_feed`)."""
        k = self._k(view)
        lost = self._losses(view, k)
        score = visible_score(view).astype(np.float64)
        lead = score - score[:, view.seat : view.seat + 1]
        return _feed(view.legal, _board(view, k), lost, lead, self._cost(), self.w,
                     tie_values(view))  # fmt: skip

    # --- R7 ----------------------------------------------------------------------------
    def rest(self, view: SeatView) -> np.ndarray:
        """R7.2: rest pawns by the weights of their zones and strengths."""
        w, k = self.w, self._k(view)
        zone = k.lay.zones(view.own_loc)
        prefer = np.array(
            [w[REST_FOREST], w[REST_FIELDS], w[REST_VOLCANO], w[REST_OCEAN], 0.0]
        )  # by zone; the last entry is off the board (never legal)
        return best(prefer[zone] + w[REST_STR] * view.strength, view)

    def birth(self, view: SeatView) -> np.ndarray:
        """R7.3: a pawn for the pair of cards whose value and the hunger of the clan make it worth
        most; else stop."""
        w, k = self.w, self._k(view)
        zone = k.lay.zones(view.own_loc)
        feeding = (zone == FIELDS) | (zone == OCEAN)
        food = (feeding * view.strength).sum(axis=1)
        living = (view.own_loc >= CAMP).sum(axis=1)
        hungry = food < living + 1 + w[BUFFER]  # one more mouth, and the food wanted above
        cost = self._cost()
        short = w[SHORT] * np.maximum(0.0, w[KEEP] - (view.hand.sum(axis=1) - 2))
        cards = ((cost[PAIR_A] + cost[PAIR_B])[None, :] + short[:, None]) * ~view.last_round[
            :, None
        ]
        scores = np.zeros((len(view), len(BIRTH_PAIRS) + 1))
        scores[:, :-1] = (
            w[BIRTH] + w[BIRTH_STR] * PAIR_STRENGTH[None, :] - cards
            - w[BIRTH_HUNGRY] * hungry[:, None]
        )  # fmt: skip
        return best(scores, view)

    def boat(self, view: SeatView) -> np.ndarray:
        """R7.4: build the boat when its weight beats the wood it costs (never in the last
        round)."""
        w = self.w
        scores = np.zeros((len(view), 2))
        scores[:, 1] = w[BOAT] * ~view.last_round - w[WOOD_VALUE]
        return best(scores, view)


class Statues(NamedTuple):
    """What finishing a statue reads of a seat's games (R6.2)."""

    own_loc: np.ndarray
    own_up: np.ndarray
    supply: np.ndarray  # [n, T] the tile is in the supply
    last: np.ndarray  # [n] the last round


@njit(cache=True, nogil=True)
def _finish(
    legal: np.ndarray, st: Statues, board: Board, w: np.ndarray, u: np.ndarray
) -> np.ndarray:
    """The volcano space to finish (or stop) of each game: [tile] x the tile it takes -
    [wood_value] - [wait] x the metres it could still grow (not in the last round) -
    [exposed] x the face-down strength it reveals; stopping scores 0."""
    n, size = legal.shape
    v = size - 1
    lay, hmax = board.lay, board.hmax
    out = np.zeros(n, dtype=np.int64)
    scores = np.zeros(size)
    height = np.zeros(v, dtype=np.int64)
    down = np.zeros(v, dtype=np.int64)
    tv = np.zeros(3 * st.own_loc.shape[1] + 1, dtype=np.int64)
    for r in range(n):
        height[:] = 0
        down[:] = 0
        for i in range(st.own_loc.shape[1]):
            x = st.own_loc[r, i] - lay.volcano0
            if 0 <= x < v:
                height[x] += board.strength[i]
                if not st.own_up[r, i]:
                    down[x] += board.strength[i]
        _tile_values(st.supply[r], board.heights, tv)
        for x in range(v):
            if legal[r, x]:
                h = height[x]
                tile = tv[min(h, len(tv) - 1)]
                grow = 0 if st.last[r] else hmax - min(h, hmax)
                scores[x] = w[TILE] * tile - w[WOOD_VALUE] - w[WAIT] * grow - w[EXPOSED] * down[x]
        scores[v] = 0.0
        out[r] = pick_row(scores, legal[r], u[r])
    return out
