"""`heuristic`: one parametric strategy; every decision is a weighted sum of clear features.

Each decision scores every legal action by a weighted sum of features the seat can see, and
takes the best one (ties at random from the seat's stream, `strategies/moai/ties.py`). The weights
are data: `strategies/moai/weights/heuristic.toml` holds the defaults, one commented line per
weight; `heuristic(weights=path.toml)` overrides any of them (a TOML file with a `[weights]`
table, or top-level `name = value` lines). The plan strategies (`moai`, `fisher`,
`forester`, `breeder`, `raider`, `bidder`) are points of this weight space, each with its own
file in `strategies/moai/weights/`, and `tuned` is the point `moaisim tune` found.

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
  palms of the next epoch, times the rule parameter `wood_per_palm` (1), fill spaces 1, 2...);
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

The visible score of a clan is R8.2's score with 6 metres guessed per Moai tile (Moai heights
are secret, R6.5): the rule parameter `moai_points` (1) x 6 x Moai count + the rule parameter
`wood_points` (2) x wood + living pawns (`features.visible_score`).
"""

from __future__ import annotations

import math
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.moai.engine.compiled.heuristic import (
    BID_BASE,
    BID_HAND,
    BID_LAST,
    BID_OFFER,
    BIRTH,
    BIRTH_HUNGRY,
    BIRTH_STR,
    BOAT,
    BUFFER,
    CARD,
    CARD_RAID,
    CARD_RAIDS,
    CARD_VALUE,
    CARD_VALUES,
    HIDDEN_STR,
    KEEP,
    PICK_BOAT,
    PICK_DISASTER,
    PICK_DRAW,
    PICK_EROSION,
    PICK_HUT,
    PLAIN,
    REST_FIELDS,
    REST_FOREST,
    REST_OCEAN,
    REST_STR,
    REST_VOLCANO,
    SHORT,
    TARGET_LEAD,
    TARGET_LOSES,
    THREAT,
    TIE_LEAD,
    WEIGHTS,
    WOOD_VALUE,
    bid_row,
    count_own,
    feed_row,
    finish_row,
    losses_row,
    palms,
    tile_values,
    wood_need,
    work_row,
)
from moaisim.games.moai.engine.compiled.heuristic import (
    FISHER as FISHER,
)
from moaisim.games.moai.engine.compiled.policy import HEURISTIC, Policy
from moaisim.games.moai.engine.decisions import (
    BIRTH_PAIRS,
    PAIR_A,
    PAIR_B,
    PAIR_STRENGTH,
    FeedCodec,
    WorkCodec,
    feed_codec,
    work_codec,
)
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, FIELDS, OCEAN, Layout
from moaisim.games.moai.rules.epoch_cards import EpochTable, epoch_table
from moaisim.jit import kernel
from moaisim.strategies.moai.base import Strategy
from moaisim.strategies.moai.features import (
    LOSES_FIELDS,
    SCORE_FIELDS,
    loses,
    loss_scores,
    rival_forest,
    visible_score,
)
from moaisim.strategies.moai.ties import NEG, best, tie_values

# The weights (`WEIGHTS`, each weight's index as a constant) and the scoring kernels live in
# `engine.compiled.heuristic` (Moai's), which both this strategy and its compiled policy use:
# the same arithmetic on both paths (docs/design.md, "The two engines").
NAMES: tuple[str, ...] = tuple(w[0] for w in WEIGHTS)
SCALES = np.array([w[1] for w in WEIGHTS])
INDEX: dict[str, int] = {name: k for k, name in enumerate(NAMES)}

WEIGHTS_DIR = "weights"


def weights_path(name: str) -> Path:
    """The path of a shipped weights file (`strategies/moai/weights/<name>`)."""
    return Path(str(resources.files("moaisim.strategies.moai").joinpath(WEIGHTS_DIR, name)))


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
        self.palms = palms(rules)  # R3.1: expected wood of a round, by the next epoch


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
    fields = (view.own_loc, view.own_up, view.shown_loc, view.hidden_count, view.forest_wood,
              placing, view.moai_supply, last, view.birdman == view.seat, q,
              view.wood[:, view.seat])  # fmt: skip
    # contiguous arrays, whatever the view holds (a field of the record is strided): one
    # layout, so the kernels below compile once, not once per layout they are given
    return Seen(*(np.ascontiguousarray(a) for a in fields))


def _board(view: SeatView, k: Consts) -> Board:
    return Board(k.lay, k.codec, k.feed, view.strength, view.seat, k.heights, k.hmax,
                 k.open_pawns)  # fmt: skip


#: The view fields the position value reads (`_context`).
CONTEXT = ("own_loc", "own_up", "shown_loc", "hidden_count", "forest_wood", "camp_size",
           "moai_supply", "last_round", "birdman", "next_epoch", "wood")  # fmt: skip


# The kernels below unpack `Seen` and `Board` once per call and hand each game's rows, as
# plain arrays and scalars, to the scoring kernels of `compiled.heuristic` (`work_row`...).


@kernel(inline="always")
def _row(
    r: int, seen: Seen, board: Board, w: np.ndarray, by_place: np.ndarray, riv: np.ndarray,
    est: np.ndarray, tv: np.ndarray,
) -> tuple[float, float, float, bool, bool, float]:  # fmt: skip
    """What scoring game r's work placements and pawn losses starts from: (living pawns,
    food, the threat weight while pawns are placed, the bird-man, the last round, the wood
    need), with by_place (own strength per location), riv (the strongest rival's estimate
    per forest space; est is working space) and tv (the tile values) filled."""
    lay = board.lay
    living, food = count_own(r, seen.own_loc, board.strength, lay, by_place)
    rival_forest(r, seen.shown_loc, seen.hidden, board.strength, board.seat, w[HIDDEN_STR], est,
                 riv)  # fmt: skip
    tile_values(seen.supply[r], board.heights, tv)
    thr = w[THREAT] if seen.placing[r] else 0.0
    nd = wood_need(seen.wood[r], by_place, tv, lay, w)
    return living, food, thr, seen.bird[r], seen.last[r], nd


@kernel
def _work(legal: np.ndarray, seen: Seen, board: Board, w: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The work action of each game (see the module docstring, "Position value";
    `work_row`)."""
    n, size = legal.shape
    lay, pawns = board.lay, seen.own_loc.shape[1]
    out = np.zeros(n, dtype=np.int64)
    scores = np.full(size, NEG)
    by_place = np.zeros(lay.size, dtype=np.int64)
    riv = np.zeros(lay.forest)
    est = np.zeros(lay.forest)
    tv = np.zeros(3 * pawns + 1, dtype=np.int64)
    base = np.zeros(board.codec.targets)
    for r in range(n):
        living, food, thr, bird, last, nd = _row(r, seen, board, w, by_place, riv, est, tv)
        out[r] = work_row(r, legal, scores, base, seen.own_loc, seen.own_up, by_place, riv, tv,
                          seen.forest_wood[r], seen.future[r], living, food, thr, bird, last,
                          nd, board.strength, lay, board.codec, board.hmax, board.open_pawns, w,
                          u[r])  # fmt: skip
    return out


@kernel
def _losses(seen: Seen, board: Board, w: np.ndarray) -> np.ndarray:
    """[n, N]: what losing each own pawn costs, beyond the pawn itself (`losses_row`)."""
    n, pawns = seen.own_loc.shape
    lay = board.lay
    out = np.zeros((n, pawns))
    by_place = np.zeros(lay.size, dtype=np.int64)
    riv = np.zeros(lay.forest)
    est = np.zeros(lay.forest)
    tv = np.zeros(3 * pawns + 1, dtype=np.int64)
    for r in range(n):
        living, food, thr, bird, last, nd = _row(r, seen, board, w, by_place, riv, est, tv)
        losses_row(r, out, seen.own_loc, seen.own_up, by_place, riv, tv,
                   seen.forest_wood[r], seen.future[r], living, food, thr, bird, last, nd,
                   board.strength, lay, board.hmax, w)  # fmt: skip
    return out


@kernel
def _feed(
    legal: np.ndarray, board: Board, losses: np.ndarray, lead: np.ndarray, cost: np.ndarray,
    w: np.ndarray, u: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The feeding action of each game (`feed_row`)."""
    n, size = legal.shape
    out = np.zeros(n, dtype=np.int64)
    scores = np.full(size, NEG)
    for r in range(n):
        out[r] = feed_row(r, legal, scores, board.feed, board.strength, losses, lead, cost, w,
                          u[r])  # fmt: skip
    return out


@kernel
def _bid(
    hand: np.ndarray, target: np.ndarray, cost: np.ndarray, keep: float, short: float,
    u: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The bid of each game (`bid_row`): the cheapest sub-multiset of the hand that reaches
    the target."""
    n, types = hand.shape
    out = np.zeros((n, types), dtype=np.int64)
    cur = np.zeros(types, dtype=np.int64)
    for r in range(n):
        bid_row(r, hand, target[r], cost, keep, short, u[r], cur, out)
    return out


class HeuristicStrategy(Strategy):
    """Weighs every legal action by clear features; weights from a TOML file (weights=...)."""

    name = "heuristic"
    #: the weights file of the class, in strategies/moai/weights/ (the defaults for `heuristic`)
    preset: ClassVar[str] = "heuristic.toml"
    #: weights: a table or a TOML file over the preset; shipped: the name of a shipped
    #: weights file (`strategies/moai/weights/<name>`) to start from instead of the preset, so
    #: that a shipped mixture file can name its members' weights from any directory
    params: ClassVar[dict[str, Any]] = {"weights": {}, "shipped": ""}
    weights: dict[str, Any]
    shipped: str
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
        self.w = vector({**shipped(self._base()), **given})

    def _base(self) -> str:
        """The shipped file the weights start from: `shipped=` (checked), else the preset."""
        name = self.shipped
        if not name:
            return self.preset
        if type(self) is not HeuristicStrategy:
            raise UnknownStrategyError(f"strategy {self.name!r}: shipped= is heuristic's "
                                       "parameter (it plays its own weights file)")  # fmt: skip
        if "/" in name or "\\" in name or not name.endswith(".toml") or name.startswith("nash-"):
            raise UnknownStrategyError(f"strategy 'heuristic': shipped= names a weights file "
                                       f"of strategies/moai/weights by its name, "
                                       f"got {name!r}")  # fmt: skip
        if not weights_path(name).is_file():
            raise UnknownStrategyError(f"strategy 'heuristic': no shipped weights file {name!r} "
                                       "among strategies/moai/weights")  # fmt: skip
        return name

    def start(self, rules: Rules, seat: int, games: np.ndarray) -> None:
        """Keep the rules' constants for this batch (`consts`)."""
        self.k = consts(rules)

    def _k(self, view: SeatView) -> Consts:
        """The rules' constants (kept by `start`; looked up if a method is called alone)."""
        k = getattr(self, "k", None)
        return k if k is not None else consts(view.rules)

    #: The methods besides the decisions that the compiled policy plays as written here: a
    #: subclass (or an instance) that overrides any of them, or a decision, plays by views.
    HELPERS: ClassVar[tuple[str, ...]] = ("start", "_k", "_cost", "_card_scores", "_tie",
                                          "_losses")  # fmt: skip

    def compiled(self, rules: Rules) -> Policy | None:
        """`heuristic` compiled (`moaisim.games.moai.engine.compiled.heuristic`): its weights as the
        policy's floats (the plans too: only their weights differ); None for a subclass with
        overrides of its own."""
        return self._policy(HeuristicStrategy, PLAIN, self.w)

    def _policy(self, cls: type, variant: int, w: np.ndarray) -> Policy | None:
        """The policy of `cls`'s compiled form (its `variant`, weights w) if this instance
        plays exactly as `cls` (no decision nor `HELPERS` method overridden below it), else
        None."""
        if not self.plays_as(cls):
            return None
        for name in self.HELPERS:
            mine = getattr(getattr(self, name, None), "__func__", None)
            if mine is not getattr(cls, name, object()):
                return None
        return Policy(HEURISTIC, (variant,), tuple(float(x) for x in w))

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
        statues = Statues(*(np.ascontiguousarray(a) for a in (view.own_loc, view.own_up,
                                                                view.moai_supply,
                                                                view.last_round)))  # fmt: skip
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


@kernel
def _finish(
    legal: np.ndarray, st: Statues, board: Board, w: np.ndarray, u: np.ndarray
) -> np.ndarray:
    """The volcano space to finish (or stop) of each game (`finish_row`)."""
    n, size = legal.shape
    v = size - 1
    out = np.zeros(n, dtype=np.int64)
    scores = np.zeros(size)
    height = np.zeros(v, dtype=np.int64)
    down = np.zeros(v, dtype=np.int64)
    tv = np.zeros(3 * st.own_loc.shape[1] + 1, dtype=np.int64)
    for r in range(n):
        out[r] = finish_row(r, legal, scores, height, down, tv, st.own_loc, st.own_up,
                            st.supply, st.last[r], board.strength, board.heights, board.lay,
                            board.hmax, w, u[r])  # fmt: skip
    return out
