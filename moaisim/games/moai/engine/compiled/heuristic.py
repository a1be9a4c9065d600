"""`heuristic`, written once: its decisions as compiled kernels (strategies/moai/heuristic.py
holds the weights and the features' documentation, and answers views through these kernels,
`compiled.answer`).

Three parts:

- the weights (`WEIGHTS`, and each weight's index as a constant the kernels compile in);
- the scoring kernels, one game at a time over plain arrays and scalars (`place_scores`,
  `swap_scores`, `losses_row`, `feed_row`, `bid_row`, `finish_row` and their helpers), on
  what `seen` shows the seat;
- the compiled decisions (`decides`, `bid`), for seat `me` of game r, its legal mask in
  `sc.legal[:size]`: each fills a `Scratch` with the seat's view of the game (`context`,
  read through `seen` and `features` only) and calls the scoring kernels, drawing one value of
  the seat's stream per decision (`ties.pick_row`).

The policy's floats are the weight vector (`NAMES` order); its first integer is the variant:
`PLAIN` (heuristic, tuned, the plans) or `FISHER` (strategies/moai/fisher.py's two decisions).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from moaisim.games.moai.engine.compiled import seen
from moaisim.games.moai.engine.compiled.arrays import (
    K_BIRTH,
    K_BOAT,
    K_DISASTER_LOSS,
    K_DISASTER_TARGET,
    K_FEED,
    K_FINISH_MOAI,
    K_FOREST_TIE,
    K_ORDER_TIES,
    K_PICK_EPOCH,
    K_REST,
    K_WORK,
    kernel,
)
from moaisim.games.moai.engine.compiled.features import (
    holds_raid_card,
    loses,
    rival_forest,
    thing_losses,
    visible_score,
)
from moaisim.games.moai.engine.compiled.ties import NEG, pick_listed, pick_row
from moaisim.games.moai.engine.decisions import (
    BIRTH_STOP,
    PAIR_A,
    PAIR_B,
    PAIR_STRENGTH,
    FeedCodec,
    largest_action,
    raid_action,
    work_codec,
)
from moaisim.games.moai.rules import CARD_TYPES, Rules
from moaisim.games.moai.rules.codes import (
    CAMP,
    FIELDS,
    FOREST,
    N_CARD_TYPES,
    N_RAID_COMBOS,
    OCEAN,
    VOLCANO,
    Layout,
    card_value,
    feeds,
    is_raid,
    raid_cards,
    raidable,
    zone_of,
)
from moaisim.games.moai.rules.epoch_cards import LOSS_PAWN, epoch_table
from moaisim.jit import kernel as jit

# --- the weights ------------------------------------------------------------------------------
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

# the weights' indices, as constants the kernels compile in
(STARVE, BUFFER, FIELD_STR, BOAT_PREF, WOOD, DENY, WOOD_NEED, THREAT, HIDDEN_STR,
 FOREST_FUTURE, FOREST_STR, MOAI, HEIGHT, CONVEX, NEW_SPACE, EXPOSED, SWAP_MIN, REST_FOREST,
 REST_FIELDS, REST_VOLCANO, REST_OCEAN, REST_STR, PAWN, PAWN_STR, CARD, CARD_VALUE, CARD_RAID,
 KEEP, SHORT, BIRTH, BIRTH_STR, BIRTH_HUNGRY, RAID, RAID_LEAD, RAID_STR, BOAT, WOOD_VALUE, TILE,
 WAIT, PICK_DRAW, PICK_HUT, PICK_BOAT, PICK_DISASTER, PICK_EROSION, TARGET_LEAD, TARGET_LOSES,
 TIE_LEAD, BID_BASE, BID_HAND, BID_OFFER, BID_LAST) = range(len(WEIGHTS))  # fmt: skip
assert len(WEIGHTS) - 1 == BID_LAST and WEIGHTS[TILE][0] == "tile"

#: The policy's integer parameters: the variant (`PLAIN`, `FISHER`).
VARIANT = 0
PLAIN, FISHER = 0, 1

#: Each card type's value and whether it is a Raid card (C1), for the cards' keep values.
CARD_VALUES = np.array([card_value.py_func(t) for t in range(len(CARD_TYPES))], dtype=np.float64)
CARD_RAIDS = np.array([is_raid.py_func(t) for t in range(len(CARD_TYPES))], dtype=np.float64)
for _a in (CARD_VALUES, CARD_RAIDS):
    _a.setflags(write=False)


def palms(rules: Rules) -> np.ndarray:
    """R3.1: [4] the expected palms among the players + 1 cards of a round, by the next
    epoch (entry e for epoch e; entry 0: none), times the wood tokens a palm puts in the
    forest (the `wood_per_palm` parameter): the wood a round is expected to bring."""
    cards = epoch_table(rules)
    frac = np.zeros(4)
    for e in (1, 2, 3):
        pile = (cards.epoch == e) & ~cards.admiral
        n = int(pile.sum())
        frac[e] = int(cards.palm[pile].sum()) / n if n else 0.0
    return frac * (rules.players + 1) * rules.components.wood_per_palm


# --- the scoring kernels, shared by both paths -------------------------------------------------
# One game at a time, over plain arrays and scalars: a tuple of arrays built or passed per
# game costs more than the game's whole scoring (measured: 2.0 -> 0.6 microseconds per game
# and decision). None allocates, so the compiled policy calls them as they are.


@jit(inline="always")
def clip01(x: float) -> float:
    return min(max(x, 0.0), 1.0)


@jit(inline="always")
def forest_value(
    x: float, wood: bool, riv: float, thr: float, bird: bool, q: float, need: float, w: np.ndarray
) -> float:
    """Value of own strength x on a forest space (R6.1, strategies/moai/heuristic.py's docstring);
    `need` is [wood_need] when the clan holds no wood and has a statue to finish, else 0."""
    v = w[FOREST_FUTURE] * q * x
    if wood and x > 0:
        r = riv + thr - (0.5 if bird else 0.0)
        gain = w[WOOD] + (w[DENY] if riv > 0 else 0.0) + need
        v += clip01(0.5 + x - r) * gain
    return v


@jit(inline="always")
def volcano_value(h: int, tv: np.ndarray, hmax: int, last: bool, w: np.ndarray) -> float:
    """Value of an own volcano space of height h (R6.2)."""
    v = w[MOAI] * tv[min(h, len(tv) - 1)]
    if not last:
        top = min(h, hmax)
        v += w[HEIGHT] * top + w[CONVEX] * top * top / max(hmax, 1)
    return v


@jit(inline="always")
def food_value(food: float, living: float, w: np.ndarray) -> float:
    """R6.3: -[starve] per unit of food short of the living pawns + [buffer]."""
    return -w[STARVE] * max(0.0, living + w[BUFFER] - food)


@kernel
def tile_values(supply: np.ndarray, heights: np.ndarray, tv: np.ndarray) -> None:
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


@jit(inline="always")
def local_value(
    code: int, by: int, wood: np.ndarray, riv: np.ndarray, future: np.ndarray, thr: float,
    bird: bool, need: float, tv: np.ndarray, hmax: int, last: bool, lay: Layout, w: np.ndarray,
) -> float:  # fmt: skip
    """The value of own strength `by` at location `code` of a game's forest or volcano (0 for
    fields and boats: their value is food); wood, riv, future: the game's rows per forest
    space; thr: the rivals' threat, need: [wood_need]."""
    if code < lay.forest:
        return forest_value(by, wood[code], riv[code], thr, bird, future[code], need, w)
    if lay.volcano0 <= code < lay.ocean0:
        return volcano_value(by, tv, hmax, last, w)
    return 0.0


@jit(inline="always")
def wood_need(wood: int, by_place: np.ndarray, tv: np.ndarray, lay: Layout, w: np.ndarray
              ) -> float:  # fmt: skip
    """[wood_need] when the clan holds no wood and one of its statues could take a tile."""
    if wood > 0:
        return 0.0
    for code in range(lay.volcano0, lay.ocean0):
        if tv[min(by_place[code], len(tv) - 1)] > 0:
            return w[WOOD_NEED]
    return 0.0


@jit(inline="always")
def exposed(code: int, up: bool, s: int, lay: Layout) -> float:
    """Strength a pawn shows to raiders (R6.4: face up in the forest or on the volcano)."""
    if up and raidable(lay, code):
        return float(s)
    return 0.0


@jit(inline="always")
def place_value(
    s: int, t: int, base: float, by_place: np.ndarray, food: float, living: float, f0: float,
    wood: np.ndarray, riv: np.ndarray, fut: np.ndarray, thr: float, bird: bool, nd: float,
    tv: np.ndarray, hmax: int, last: bool, lay: Layout, boat_target: int, open_pawns: bool,
    w: np.ndarray,
) -> float:  # fmt: skip
    """R5.2: the score of placing a pawn of strength s on target t: what its place gains
    (base: the place's value before), or the food it brings (fields, a boat), plus the
    strength bonus of its kind of place, less what it shows to raiders (V1)."""
    if t < lay.forest:
        v = forest_value(by_place[t] + s, wood[t], riv[t], thr, bird, fut[t], nd, w)
        v -= base
        v += w[FOREST_STR] * s
        if open_pawns:
            v -= w[EXPOSED] * s
    elif t in (lay.fields, boat_target):
        v = food_value(food + s, living, w) - f0 + w[FIELD_STR] * s
        if t == boat_target:
            v += w[BOAT_PREF]
    else:
        by = by_place[t]
        v = volcano_value(by + s, tv, hmax, last, w) - base
        if by == 0:
            v += w[NEW_SPACE]
        if open_pawns:
            v -= w[EXPOSED] * s
    return v


@jit(inline="always")
def place_scores(
    r: int, legal: np.ndarray, scores: np.ndarray, base: np.ndarray, by_place: np.ndarray,
    food: float, living: float, f0: float, wood: np.ndarray, riv: np.ndarray, fut: np.ndarray,
    thr: float, bird: bool, nd: float, tv: np.ndarray, hmax: int, last: bool, lay: Layout,
    targets: int, boat_target: int, open_pawns: bool, w: np.ndarray,
) -> None:  # fmt: skip
    """R5.2: the score of each legal placement of game r (strength s on target t) into
    `scores` (`place_value`; base: each place's value before, worked out once)."""
    forest, volcano0, ocean0 = lay.forest, lay.volcano0, lay.ocean0
    for t in range(targets):  # each target's value before the placement, once
        placed = legal[r, t] or legal[r, targets + t] or legal[r, 2 * targets + t]
        if placed and (t < forest or volcano0 <= t < ocean0):
            base[t] = local_value(t, by_place[t], wood, riv, fut, thr, bird, nd, tv, hmax, last,
                                  lay, w)  # fmt: skip
    for s in range(1, 4):
        for t in range(targets):
            a = (s - 1) * targets + t
            if not legal[r, a]:
                continue
            scores[a] = place_value(s, t, base[t], by_place, food, living, f0, wood, riv, fut,
                                    thr, bird, nd, tv, hmax, last, lay, boat_target, open_pawns,
                                    w)  # fmt: skip


@jit(inline="always")
def swap_value(
    r: int, i: int, j: int, own_loc: np.ndarray, own_up: np.ndarray, strength: np.ndarray,
    by_place: np.ndarray, food: float, living: float, f0: float, wood: np.ndarray,
    riv: np.ndarray, fut: np.ndarray, thr: float, bird: bool, nd: float, tv: np.ndarray,
    hmax: int, last: bool, lay: Layout, w: np.ndarray,
) -> float:  # fmt: skip
    """R5.3: the score of swapping own pawns i and j of game r (own_loc, own_up: its row r):
    what the two places gain, the food it moves, the strength it shows to raiders, less
    [swap_min]."""
    fields = lay.fields
    ci, cj = own_loc[r, i], own_loc[r, j]
    si, sj = strength[i], strength[j]
    bi, bj = by_place[ci], by_place[cj]
    v = local_value(ci, bi - si + sj, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
    v -= local_value(ci, bi, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
    v += local_value(cj, bj - sj + si, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
    v -= local_value(cj, bj, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
    f1 = food
    if feeds(lay, ci):
        f1 += sj - si
    if feeds(lay, cj):
        f1 += si - sj
    v += food_value(f1, living, w) - f0
    up_i, up_j = own_up[r, i], own_up[r, j]
    ui = up_i or cj == fields
    uj = up_j or ci == fields
    shown = exposed(cj, ui, si, lay) + exposed(ci, uj, sj, lay)
    shown -= exposed(ci, up_i, si, lay) + exposed(cj, up_j, sj, lay)
    return v - w[EXPOSED] * shown - w[SWAP_MIN]


@jit(inline="always")
def swap_scores(
    r: int, legal: np.ndarray, scores: np.ndarray, own_loc: np.ndarray, own_up: np.ndarray,
    strength: np.ndarray, by_place: np.ndarray, food: float, living: float, f0: float,
    wood: np.ndarray, riv: np.ndarray, fut: np.ndarray, thr: float, bird: bool, nd: float,
    tv: np.ndarray, hmax: int, last: bool, lay: Layout, swap0: int, pair_i: np.ndarray,
    pair_j: np.ndarray, w: np.ndarray,
) -> None:  # fmt: skip
    """R5.3: the score of each legal swap of two own pawns of game r into `scores`
    (`swap_value`)."""
    for k in range(len(pair_i)):
        a = swap0 + k
        if not legal[r, a]:
            continue
        scores[a] = swap_value(r, pair_i[k], pair_j[k], own_loc, own_up, strength,
                               by_place, food, living, f0, wood, riv, fut, thr, bird, nd, tv,
                               hmax, last, lay, w)  # fmt: skip


@kernel
def losses_row(
    r: int, out: np.ndarray, own_loc: np.ndarray, own_up: np.ndarray, by_place: np.ndarray,
    riv: np.ndarray, tv: np.ndarray, wood: np.ndarray, fut: np.ndarray, living: float,
    food: float, thr: float, bird: bool, last: bool, nd: float, strength: np.ndarray,
    lay: Layout, hmax: int, w: np.ndarray,
) -> None:  # fmt: skip
    """R4.4, R6.3: what losing each own pawn of game r costs (into out[r]), beyond the pawn
    itself: the position value it carries (food, forest, volcano; minus its exposure) plus
    [pawn_str] x strength."""
    f0 = food_value(food, living - 1, w)
    for i in range(own_loc.shape[1]):
        code, s = own_loc[r, i], strength[i]
        loss = w[PAWN_STR] * s
        if code >= 0:
            by = by_place[code]
            loss += local_value(code, by, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay, w)
            loss -= local_value(code, by - s, wood, riv, fut, thr, bird, nd, tv, hmax, last, lay,
                                w)  # fmt: skip
            if feeds(lay, code):
                loss += f0 - food_value(food - s, living - 1, w)
            loss -= w[EXPOSED] * exposed(code, own_up[r, i], s, lay)
        out[r, i] = loss


@kernel
def feed_row(
    r: int, legal: np.ndarray, scores: np.ndarray, codec: FeedCodec, strength: np.ndarray,
    losses: np.ndarray, lead: np.ndarray, cost: np.ndarray, w: np.ndarray, u: float,
) -> int:  # fmt: skip
    """R6.3-R6.4: game r's feeding action: starve the pawn that costs least, or raid (the Raid
    card and a second card of the victim's strength, `raid_cards`); ties at random by u."""
    pawns = codec.pawns
    for i in range(pawns):
        if legal[r, i]:
            scores[i] = -(w[PAWN] + losses[r, i])
    if legal.shape[1] <= pawns:  # only starving was asked about (no Raid card in hand)
        return pick_row(scores[:pawns], legal[r], u)
    for qq in range(lead.shape[1]):
        for j in range(pawns):
            for c in range(N_RAID_COMBOS):
                a = raid_action(codec, qq, j, c)
                if legal[r, a]:
                    s = strength[j]
                    raid, second = raid_cards(c, s)
                    raid_card = w[CARD] + w[CARD_VALUE] * card_value(raid)
                    scores[a] = (
                        w[RAID] + w[RAID_LEAD] * lead[r, qq] + w[RAID_STR] * s
                        - raid_card - cost[second]
                    )  # fmt: skip
    return pick_row(scores, legal[r], u)


@jit(inline="always")
def next_bid(r: int, hand: np.ndarray, cur: np.ndarray, total: int, cards: int
             ) -> tuple[int, int]:  # fmt: skip
    """The next sub-multiset of game r's hand into `cur` (an odometer, type 0 the fastest
    digit), and its value (R3.3: a Raid card counts its value) and size, from the last
    one's."""
    t = 0
    while cur[t] == hand[r, t]:
        total -= cur[t] * card_value(t)
        cards -= cur[t]
        cur[t] = 0
        t += 1
    cur[t] += 1
    return total + card_value(t), cards + 1


@jit(inline="always")
def bid_cost(cur: np.ndarray, cost: np.ndarray, total: int, cards: int, size: int,
             keep: float, short: float) -> float:  # fmt: skip
    """What bidding the sub-multiset `cur` (of value `total`, `cards` of a hand of `size`)
    costs: its cards' costs, `short` per card it leaves the hand below `keep`, and a
    millionth per point of value (not to overbid)."""
    c = 0.0
    for t in range(len(cur)):
        c += cur[t] * cost[t]
    c += short * max(0.0, keep - (size - cards))
    return c + 1e-6 * total


@kernel
def bid_row(r: int, hand: np.ndarray, need: int, cost: np.ndarray, keep: float, short: float,
            u: float, cur: np.ndarray, out: np.ndarray) -> None:  # fmt: skip
    """R3.3: the cheapest sub-multiset of game r's hand whose total reaches `need` (ties at
    random by u) into out[r] (zeroed first); nothing when need is 0 or the hand cannot reach
    it. A bid costs its cards' values + `short` per card it leaves the hand below `keep`.

    The sub-multisets are counted k = 0, 1, ... in mixed radix (type 0 the fastest digit,
    `cur` stepped like an odometer). The first pass finds the cheapest cost (`top`, the
    first of its tie group) and how many tie with it; the k-th tie is picked in a second
    pass, which starts at the tie group's first sub-multiset (kept in out[r]) unless an
    earlier one could tie with the final top, and is skipped when that first one is the
    pick."""
    types = hand.shape[1]
    for t in range(types):
        out[r, t] = 0
    if need <= 0:
        return
    combos = 1
    size = 0
    for t in range(types):
        combos *= hand[r, t] + 1
        size += hand[r, t]
    top = np.inf
    low = np.inf  # the lowest cost seen so far
    before = np.inf  # the lowest cost seen before the tie group's first
    first = -1  # the tie group's first sub-multiset
    count = 0
    for t in range(types):
        cur[t] = 0
    total, cards = 0, 0  # the sub-multiset's value (R3.3: a Raid card counts its value), size
    for k in range(combos):
        if k > 0:
            total, cards = next_bid(r, hand, cur, total, cards)
        if total < need:
            continue
        c = bid_cost(cur, cost, total, cards, size, keep, short)
        if c < top - 1e-9:
            top, count, first, before = c, 1, k, low
            for t in range(types):
                out[r, t] = cur[t]
        elif c <= top + 1e-9:
            count += 1
        low = min(low, c)
    if count == 0:
        return
    pick = min(int(u * count), count - 1)
    start = first if before > top + 1e-9 else 0
    if pick == 0 and start == first:
        return
    for t in range(types):
        cur[t] = 0
        out[r, t] = 0
    x, total, cards = start, 0, 0
    for t in range(types):  # sub-multiset `start`, decoded
        m = hand[r, t] + 1
        cur[t] = x % m
        x //= m
        total += cur[t] * card_value(t)
        cards += cur[t]
    for k in range(start, combos):
        if k > start:
            total, cards = next_bid(r, hand, cur, total, cards)
        if total < need:
            continue
        c = bid_cost(cur, cost, total, cards, size, keep, short)
        if c <= top + 1e-9:
            if pick == 0:
                for t in range(types):
                    out[r, t] = cur[t]
                return
            pick -= 1


@kernel
def finish_row(
    r: int, legal: np.ndarray, scores: np.ndarray, height: np.ndarray, down: np.ndarray,
    tv: np.ndarray, own_loc: np.ndarray, own_up: np.ndarray, supply: np.ndarray, last: bool,
    strength: np.ndarray, heights: np.ndarray, lay: Layout, hmax: int, w: np.ndarray, u: float,
) -> int:  # fmt: skip
    """R6.2: game r's volcano space to finish (or stop, the last action): [tile] x the tile
    it takes - [wood_value] - [wait] x the metres it could still grow (not in the last round)
    - [exposed] x the face-down strength it reveals; stopping scores 0. Ties at random by u."""
    v = legal.shape[1] - 1
    height[:] = 0
    down[:] = 0
    for i in range(own_loc.shape[1]):
        x = own_loc[r, i] - lay.volcano0
        if 0 <= x < v:
            height[x] += strength[i]
            if not own_up[r, i]:
                down[x] += strength[i]
    tile_values(supply[r], heights, tv)
    for x in range(v):
        if legal[r, x]:
            h = height[x]
            tile = tv[min(h, len(tv) - 1)]
            grow = 0 if last else hmax - min(h, hmax)
            scores[x] = w[TILE] * tile - w[WOOD_VALUE] - w[WAIT] * grow - w[EXPOSED] * down[x]
    scores[v] = 0.0
    return pick_row(scores, legal[r], u)


# --- the compiled policy -----------------------------------------------------------------------
class Scratch(NamedTuple):
    """The compiled heuristic's working arrays (one per batch, in the lineup): the seat's
    view of the game at hand (`context`) and the scoring kernels' scratch."""

    palms: np.ndarray  # float64 [4]: `palms` of the rules
    legal: np.ndarray  # bool [1, A]: the decision's legal mask, as one game's row
    own_loc: np.ndarray  # int64 [1, N]
    own_up: np.ndarray  # bool [1, N]
    wood: np.ndarray  # bool [F]: a wood token lies on the forest space
    fut: np.ndarray  # float64 [F]: the chance the space gets wood next round
    supply: np.ndarray  # bool [1, T]: the tile is in the supply
    by_place: np.ndarray  # int64 [board codes]
    riv: np.ndarray  # float64 [F]
    est: np.ndarray  # float64 [F]
    tv: np.ndarray  # int64 [3N + 1]
    base: np.ndarray  # float64 [targets]
    losses: np.ndarray  # float64 [1, N]
    lead: np.ndarray  # float64 [1, P]
    cost: np.ndarray  # float64 [6]
    hand: np.ndarray  # int64 [1, 6]
    bid: np.ndarray  # int64 [1, 6]
    cur: np.ndarray  # int64 [6]
    height: np.ndarray  # int64 [V]
    down: np.ndarray  # int64 [V]
    saved: np.ndarray  # bool [A]: a legal mask kept while a restriction narrows it
    held: np.ndarray  # bool [1]: wood, fut, supply and tv hold this work phase's values


def scratch(rules: Rules) -> Scratch:
    """New working arrays for a batch under these rules."""
    lay, n, p = rules.layout, rules.layout.pawns, rules.players
    size = largest_action(rules)
    return Scratch(
        palms=palms(rules),
        legal=np.zeros((1, size), dtype=np.bool_),
        own_loc=np.zeros((1, n), dtype=np.int64),
        own_up=np.zeros((1, n), dtype=np.bool_),
        wood=np.zeros(lay.forest, dtype=np.bool_),
        fut=np.zeros(lay.forest, dtype=np.float64),
        supply=np.zeros((1, len(rules.components.moai_heights)), dtype=np.bool_),
        by_place=np.zeros(lay.size, dtype=np.int64),
        riv=np.zeros(lay.forest, dtype=np.float64),
        est=np.zeros(lay.forest, dtype=np.float64),
        tv=np.zeros(3 * n + 1, dtype=np.int64),
        base=np.zeros(work_codec(rules).targets, dtype=np.float64),
        losses=np.zeros((1, n), dtype=np.float64),
        lead=np.zeros((1, p), dtype=np.float64),
        cost=np.zeros(N_CARD_TYPES, dtype=np.float64),
        hand=np.zeros((1, N_CARD_TYPES), dtype=np.int64),
        bid=np.zeros((1, N_CARD_TYPES), dtype=np.int64),
        cur=np.zeros(N_CARD_TYPES, dtype=np.int64),
        height=np.zeros(lay.volcano, dtype=np.int64),
        down=np.zeros(lay.volcano, dtype=np.int64),
        saved=np.zeros(size, dtype=np.bool_),
        held=np.zeros(1, dtype=np.bool_),
    )


@kernel
def context(g, c, hs, sc, r: int, me: int, w) -> tuple[float, float, float, bool, bool, float]:  # noqa: ANN001
    """The position value's context of seat me in game r: its pawns, the forest's tokens
    and next round's chances, the supply into `hs`; its strength per place, the rivals'
    forest estimates and the tile values; returns (living pawns, food, the rivals' threat,
    bird-man, last round, wood need). The tokens, chances, supply and tile values do not
    change while the seats place and swap (R5): within a work phase (the machine clears
    hs.held at its start, and sc.tally_ok is true until its end) they are worked out once."""
    lay = c.lay
    living, food = own_counted(g, c, hs, r, me)
    last = seen.last_round(g, r)
    if not (sc.tally_ok[0] and hs.held[0]):  # the same all through a work phase (R5)
        chance = hs.palms[seen.next_epoch(g, r)]
        for k in range(lay.forest):
            hs.wood[k] = seen.forest_wood(g, r, k)
            hs.fut[k] = 0.0 if last else clip01(chance - k)
        for t in range(hs.supply.shape[1]):
            hs.supply[0, t] = seen.moai_supply(g, r, t)
        tile_values(hs.supply[0], c.tile_heights, hs.tv)
        hs.held[0] = sc.tally_ok[0]
    rival_forest(g, c, sc, r, me, w[HIDDEN_STR], hs.est, hs.riv)
    placing = False  # some rival still has pawns to place
    for q in range(c.players):
        if q != me:
            camp = sc.tally_camp[q] if sc.tally_ok[0] else seen.camp_size(g, r, q)
            placing |= camp > 0
    thr = w[THREAT] if placing else 0.0
    nd = wood_need(seen.wood(g, r, me), hs.by_place, hs.tv, lay, w)
    return living, food, thr, seen.birdman(g, r) == me, last, nd


@kernel
def own(g, hs, r: int, me: int) -> None:  # noqa: ANN001
    """Seat me's own pawns in game r (where, face up) into hs.own_loc[0], hs.own_up[0]."""
    for i in range(hs.own_loc.shape[1]):
        hs.own_loc[0, i] = seen.own_loc(g, r, me, i)
        hs.own_up[0, i] = seen.own_up(g, r, me, i)


@kernel
def own_counted(g, c, hs, r: int, me: int) -> tuple[float, float]:  # noqa: ANN001
    """Seat me's pawns into hs.own_loc[0], hs.own_up[0] and its strength per place into
    hs.by_place, in one pass; returns (living pawns, food: the strength in the fields and on
    boats, R6.3)."""
    lay, by_place = c.lay, hs.by_place
    by_place[:] = 0
    living = 0.0
    for i in range(hs.own_loc.shape[1]):
        x = seen.own_loc(g, r, me, i)
        hs.own_loc[0, i] = x
        hs.own_up[0, i] = seen.own_up(g, r, me, i)
        if x >= CAMP:
            living += 1
        if x >= 0:
            by_place[x] += c.strength[i]
    food = float(by_place[lay.fields])
    for x in range(lay.ocean0, lay.size):
        food += by_place[x]
    return living, food


@kernel
def as_row(sc, hs, size: int) -> None:  # noqa: ANN001
    """The decision's legal mask sc.legal[:size] into hs.legal[0] (one game's row)."""
    for a in range(size):
        hs.legal[0, a] = sc.legal[a]


@kernel
def card_costs(hs, w) -> None:  # noqa: ANN001
    """The value of keeping each card type (`card`, `card_value`, `card_raid`) into hs.cost."""
    for t in range(len(hs.cost)):
        hs.cost[t] = w[CARD] + w[CARD_VALUE] * CARD_VALUES[t] + w[CARD_RAID] * CARD_RAIDS[t]


@kernel
def card_score(c, cid: int, can_build: bool, w) -> float:  # noqa: ANN001
    """R4.1: the pick score of epoch card `cid` (NEG for an empty slot, -1)."""
    t = c.cards
    x = cid if cid >= 0 else len(t.draw) - 1  # an empty slot reads the "no card" entry
    s = (
        w[PICK_DRAW] * t.draw[x]
        + w[PICK_HUT] * t.hut[x]
        + w[PICK_BOAT] * (1.0 if t.boat[x] and can_build else 0.0)
        + w[PICK_DISASTER] * (1.0 if t.targeted[x] else 0.0)
        + w[PICK_EROSION] * (1.0 if t.erosion[x] else 0.0)
    )
    return s if cid >= 0 else NEG


@kernel
def bid(g, c, hs, r: int, me: int, prm, w, out) -> None:  # noqa: ANN001
    """R3.3: the bid total aimed at (the hand, the offer's spread, the last round; open
    bidding: one more than the best bid shown when within reach), paid with the cards worth
    least (`bid_row`); one value of the stream drawn."""
    last = seen.last_round(g, r)
    can_build = seen.wood(g, r, me) >= 1 and not last
    top, total, count = -np.inf, 0.0, 0
    for k in range(c.players + 1):
        cid = seen.offer(g, r, k)
        s = card_score(c, cid, can_build, w)
        top = max(top, s)
        if cid >= 0:
            count += 1
            total += s
    if count == 0:
        top, mean = 0.0, 0.0
    else:
        mean = total / count
    cards = 0
    for t in range(hs.hand.shape[1]):
        hs.hand[0, t] = seen.own_hand(g, r, me, t)
        cards += hs.hand[0, t]
    target = (
        w[BID_BASE] + w[BID_HAND] * cards + w[BID_OFFER] * (top - mean)
        + w[BID_LAST] * (1.0 if last else 0.0)
    )  # fmt: skip
    shown = -1
    for q in range(c.players):  # open bidding (V2/V4): the bids made so far
        shown = max(shown, seen.bids(g, r, q))
    need = target
    if shown >= 0:
        need = float(shown + 1) if shown + 1 <= target else 0.0
    want = int(math.ceil(need - 0.5)) if need >= 0.5 else 0
    card_costs(hs, w)
    u = seen.uniform(g, r, me)
    bid_row(0, hs.hand, want, hs.cost, w[KEEP], w[SHORT], u, hs.cur, hs.bid)
    for t in range(len(out)):
        out[t] = hs.bid[0, t]


@kernel
def decides(g, c, hs, sc, r: int, kind: int, me: int, size: int, info: int, prm, w) -> int:  # noqa: ANN001
    """The heuristic's decision of each kind (but the bid, `bid`); `prm[VARIANT]` says
    whether fisher's own two decisions replace heuristic's."""
    if kind in (K_ORDER_TIES, K_FOREST_TIE):
        return tie(g, c, sc, r, me, size, w)
    if kind == K_PICK_EPOCH:
        return pick_epoch(g, c, sc, r, me, size, w, prm[VARIANT] == FISHER)
    if kind == K_DISASTER_TARGET:
        return disaster_target(g, c, sc, r, me, size, info, w)
    if kind == K_DISASTER_LOSS:
        return disaster_loss(g, c, hs, sc, r, me, size, info, w)
    if kind == K_WORK:
        return work(g, c, hs, sc, r, me, size, w)
    if kind == K_FINISH_MOAI:
        return finish_moai(g, c, hs, sc, r, me, size, w, prm[VARIANT] == FISHER)
    if kind == K_FEED:
        return feed(g, c, hs, sc, r, me, size, w)
    if kind == K_REST:
        return rest(g, c, sc, r, me, size, w)
    if kind == K_BIRTH:
        return birth(g, c, hs, sc, r, me, size, w)
    if kind == K_BOAT:
        return boat(g, sc, r, me, w)
    return 0


# --- R3, R6.1 ---------------------------------------------------------------------------------
@kernel
def tie(g, c, sc, r: int, me: int, size: int, w) -> int:  # noqa: ANN001
    """R3.4, R6.1: as bird-man, itself first, then the others by -[tie_lead] x visible
    score."""
    for q in range(size):
        sc.scores[q] = -w[TIE_LEAD] * float(visible_score(g, c, r, q))
    sc.scores[me] = 1e6
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


# --- R4 ---------------------------------------------------------------------------------------
@kernel
def pick_epoch(g, c, sc, r: int, me: int, size: int, w, fisher: bool) -> int:  # noqa: ANN001
    """R4.1: the card on offer with the best pick score; fisher adds [pick_boat] for a boat
    card even without the wood to build it yet."""
    last = seen.last_round(g, r)
    wood = seen.wood(g, r, me)
    can_build = wood >= 1 and not last
    no_wood = wood < 1 and not last
    t = c.cards
    for k in range(size):
        cid = seen.offer(g, r, k)
        s = card_score(c, cid, can_build, w)
        if fisher:
            x = cid if cid >= 0 else len(t.boat) - 1
            s += w[PICK_BOAT] * (1.0 if t.boat[x] and no_wood else 0.0)
        sc.scores[k] = s
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


@kernel
def disaster_target(g, c, sc, r: int, me: int, size: int, card: int, w) -> int:  # noqa: ANN001
    """R4.3: the clan to hit: weighted visible score and what the card takes from it; never
    itself."""
    for q in range(size):
        hit = 1.0 if loses(g, c, r, q, card) else 0.0
        sc.scores[q] = w[TARGET_LEAD] * float(visible_score(g, c, r, q)) + w[TARGET_LOSES] * hit
    sc.scores[me] = NEG
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


@kernel
def disaster_loss(g, c, hs, sc, r: int, me: int, size: int, what: int, w) -> int:  # noqa: ANN001
    """R4.4: what to lose: the pawn that costs least (`losses_row`), an empty boat, the
    smallest Moai (`features.loss_scores`)."""
    sc.scores[:size] = 0.0
    if what == LOSS_PAWN:
        living, food, thr, bird, last, nd = context(g, c, hs, sc, r, me, w)
        losses_row(0, hs.losses, hs.own_loc, hs.own_up, hs.by_place, hs.riv, hs.tv, hs.wood,
                   hs.fut, living, food, thr, bird, last, nd, c.strength, c.lay, c.top_tile,
                   w)  # fmt: skip
        for i in range(hs.losses.shape[1]):
            sc.scores[i] = -hs.losses[0, i]
    else:
        thing_losses(g, c, r, me, what, sc.scores)
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


# --- R5 ---------------------------------------------------------------------------------------
@kernel
def work(g, c, hs, sc, r: int, me: int, size: int, w) -> int:  # noqa: ANN001
    """R5: the placement, pass or swap of best value (`place_scores`, `swap_scores`), over
    the listed legal actions (`work_legal`'s sc.acts, ascending; a restriction may have made
    some of them illegal since); ties at random by one uniform."""
    u = seen.uniform(g, r, me)
    living, food, thr, bird, last, nd = context(g, c, hs, sc, r, me, w)
    lay, codec, hmax = c.lay, c.work, c.top_tile
    targets, by_place, riv, tv = codec.targets, hs.by_place, hs.riv, hs.tv
    wood, fut = hs.wood, hs.fut
    f0 = food_value(food, living, w)
    hs.base[:] = np.nan  # no place's value worked out yet in this decision
    acts, n = sc.acts, sc.n_acts[0]
    s, first = 1, 0  # the strength of the listed placement, the first action of its strength
    for m in range(n):
        a = acts[m]
        if not sc.legal[a]:
            continue
        if a < codec.pass_action:
            while a >= first + targets:  # (ascending: no division)
                first += targets
                s += 1
            t = a - first
            base = 0.0
            if t < lay.forest or lay.volcano0 <= t < lay.ocean0:
                base = hs.base[t]
                if base != base:  # the place's value before: once per target, every strength
                    base = local_value(t, by_place[t], wood, riv, fut, thr, bird, nd, tv, hmax,
                                       last, lay, w)  # fmt: skip
                    hs.base[t] = base
            sc.scores[a] = place_value(s, t, base, by_place, food, living, f0, wood, riv, fut,
                                       thr, bird, nd, tv, hmax, last, lay, codec.boat_target,
                                       c.open_pawns, w)  # fmt: skip
        elif a == codec.pass_action:
            sc.scores[a] = 0.0
        else:
            k = a - codec.swap0
            sc.scores[a] = swap_value(0, codec.pair_i[k], codec.pair_j[k], hs.own_loc, hs.own_up,
                                      c.strength, by_place, food, living, f0, wood, riv, fut,
                                      thr, bird, nd, tv, hmax, last, lay, w)  # fmt: skip
    return pick_listed(sc.scores[:size], sc.legal[:size], acts, n, u)


# --- R6 ---------------------------------------------------------------------------------------
@kernel
def finish_moai(g, c, hs, sc, r: int, me: int, size: int, w, fisher: bool) -> int:  # noqa: ANN001
    """R6.2: the statue to finish, or stop (`finish_row`); fisher never lets a statue take
    the last wood while it holds a boat card (not in the last round)."""
    last = seen.last_round(g, r)
    own(g, hs, r, me)
    for t in range(hs.supply.shape[1]):
        hs.supply[0, t] = seen.moai_supply(g, r, t)
    as_row(sc, hs, size)
    u = seen.uniform(g, r, me)
    out = finish_row(0, hs.legal[:, :size], sc.scores[:size], hs.height, hs.down, hs.tv, hs.own_loc,
                     hs.own_up, hs.supply, last, c.strength, c.tile_heights, c.lay, c.top_tile,
                     w, u)  # fmt: skip
    if fisher and not last and seen.wood(g, r, me) <= 1:
        held = seen.held(g, r, me)
        if c.cards.boat[held if held >= 0 else len(c.cards.boat) - 1]:
            return size - 1
    return out


@kernel
def feed(g, c, hs, sc, r: int, me: int, size: int, w) -> int:  # noqa: ANN001
    """R6.3-R6.4: starve the pawn that costs least, or raid where the lead and the cards'
    value say (`feed_row`)."""
    living, food, thr, bird, last, nd = context(g, c, hs, sc, r, me, w)
    losses_row(0, hs.losses, hs.own_loc, hs.own_up, hs.by_place, hs.riv, hs.tv, hs.wood,
               hs.fut, living, food, thr, bird, last, nd, c.strength, c.lay, c.top_tile,
               w)  # fmt: skip
    mine = float(visible_score(g, c, r, me))
    for q in range(c.players):
        hs.lead[0, q] = float(visible_score(g, c, r, q)) - mine
    card_costs(hs, w)
    if not holds_raid_card(g, r, me):  # R6.4: no raid is legal
        size = c.feed.pawns
    as_row(sc, hs, size)
    u = seen.uniform(g, r, me)
    return feed_row(0, hs.legal[:, :size], sc.scores[:size], c.feed, c.strength, hs.losses, hs.lead,
                    hs.cost, w, u)  # fmt: skip


# --- R7 ---------------------------------------------------------------------------------------
@kernel
def rest(g, c, sc, r: int, me: int, size: int, w) -> int:  # noqa: ANN001
    """R7.2: rest pawns by the weights of their zones and strengths. Only the listed legal
    pawns (`rest_legal`'s sc.acts) are scored."""
    acts, n = sc.acts, sc.n_acts[0]
    for m in range(n):
        i = acts[m]
        z = zone_of(c.lay, seen.own_loc(g, r, me, i))
        if z == FOREST:
            prefer = w[REST_FOREST]
        elif z == FIELDS:
            prefer = w[REST_FIELDS]
        elif z == VOLCANO:
            prefer = w[REST_VOLCANO]
        elif z == OCEAN:
            prefer = w[REST_OCEAN]
        else:  # off the board (never legal)
            prefer = 0.0
        sc.scores[i] = prefer + w[REST_STR] * c.strength[i]
    return pick_listed(sc.scores[:size], sc.legal[:size], acts, n, seen.uniform(g, r, me))


@kernel
def birth(g, c, hs, sc, r: int, me: int, size: int, w) -> int:  # noqa: ANN001
    """R7.3: a pawn for the pair of cards whose value and the hunger of the clan make it
    worth most; else stop. Only the listed legal actions (`birth_legal`'s sc.acts) are
    scored."""
    food, living = 0, 0
    for i in range(len(c.strength)):
        x = seen.own_loc(g, r, me, i)
        if feeds(c.lay, x):
            food += c.strength[i]
        if x >= CAMP:
            living += 1
    hungry = 1.0 if food < living + 1 + w[BUFFER] else 0.0  # one more mouth, and the buffer
    cards = 0
    for t in range(N_CARD_TYPES):
        cards += seen.own_hand(g, r, me, t)
    card_costs(hs, w)
    short = w[SHORT] * max(0.0, w[KEEP] - (cards - 2))
    spent = 0.0 if seen.last_round(g, r) else 1.0  # cards cost nothing in the last round
    acts, n = sc.acts, sc.n_acts[0]
    for m in range(n):
        x = acts[m]
        if x == BIRTH_STOP:
            sc.scores[x] = 0.0
            continue
        paid = (hs.cost[PAIR_A[x]] + hs.cost[PAIR_B[x]] + short) * spent
        sc.scores[x] = w[BIRTH] + w[BIRTH_STR] * PAIR_STRENGTH[x] - paid - w[BIRTH_HUNGRY] * hungry
    return pick_listed(sc.scores[:size], sc.legal[:size], acts, n, seen.uniform(g, r, me))


@kernel
def boat(g, sc, r: int, me: int, w) -> int:  # noqa: ANN001
    """R7.4: build the boat when its weight beats the wood it costs (never in the last
    round)."""
    sc.scores[0] = 0.0
    sc.scores[1] = w[BOAT] * (0.0 if seen.last_round(g, r) else 1.0) - w[WOOD_VALUE]
    return pick_row(sc.scores[:2], sc.legal[:2], seen.uniform(g, r, me))
