"""`greedy`, written once: its decisions as compiled kernels (strategies/moai/greedy.py holds
its parameters and docs and answers views through them, `compiled.answer`).

One function per decision kind, for seat `me` of game r, its legal mask in `sc.legal[:size]`;
each reads the game through `seen` (what the seat sees, R5.9) and the rules' constants, and
draws from the seat's stream: one uniform per decision (`ties.pick_row`), none for the bid and
the boat. Its parameters are the policy's integers
`prm`: bid_cards_from, moai_height, keep_cards (`GreedyStrategy.params`, in that order).
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled import seen
from moaisim.games.moai.engine.compiled.arrays import kernel
from moaisim.games.moai.engine.compiled.features import loses as loses_
from moaisim.games.moai.engine.compiled.features import (
    rival_forest,
    thing_losses,
    visible_score,
)
from moaisim.games.moai.engine.compiled.ties import NEG, pick_listed, pick_row
from moaisim.games.moai.engine.decisions import BIRTH_PAIRS, PAIR_STRENGTH, raid_of
from moaisim.games.moai.rules.codes import (
    FIELDS,
    OCEAN,
    card_value,
    is_raid,
    raid_cards,
    zone_of,
)
from moaisim.games.moai.rules.epoch_cards import LOSS_PAWN

#: The policy's integer parameters, in order (`GreedyStrategy.params`).
PARAMS: tuple[str, ...] = ("bid_cards_from", "moai_height", "keep_cards")
BID_CARDS_FROM, MOAI_HEIGHT, KEEP_CARDS = range(3)

#: R7.3: each birth pair's pawn strength and its Raid cards (`GreedyStrategy.birth`).
PAIR_MIN = PAIR_STRENGTH.astype(np.float64)
PAIR_RAIDS = np.array([is_raid.py_func(a) + is_raid.py_func(b) for a, b in BIRTH_PAIRS],
                      dtype=np.float64)  # fmt: skip
#: R7.3: a birth pair's score, its pawn's strength less its Raid cards (`GreedyStrategy.birth`).
PAIR_SCORE = 10 * PAIR_MIN - 15 * PAIR_RAIDS
#: R7.2: a rest's preference by zone (forest, fields, volcano, ocean; off the board last).
REST_PREFER = np.array([40.0, 20.0, 10.0, 30.0, 0.0])
for _a in (PAIR_MIN, PAIR_RAIDS, PAIR_SCORE, REST_PREFER):
    _a.setflags(write=False)


# --- R3 ---------------------------------------------------------------------------------------
@kernel
def bid(g, r: int, me: int, prm: np.ndarray, out: np.ndarray) -> None:  # noqa: ANN001
    """R3.3: one card, the lowest non-Raid one, when the hand holds at least bid_cards_from
    cards; else nothing (no draw)."""
    out[:] = 0
    total, lowest = 0, -1
    for t in range(len(out)):
        n = seen.own_hand(g, r, me, t)
        total += n
        if t < 3 and n > 0 and lowest < 0:
            lowest = t
    if lowest >= 0 and total >= prm[BID_CARDS_FROM]:
        out[lowest] = 1


@kernel
def ties(g, c, sc, r: int, me: int, size: int) -> int:  # noqa: ANN001
    """R3.4, R6.1: as bird-man, itself first, then the clan behind by visible score."""
    for q in range(size):
        sc.scores[q] = -float(visible_score(g, c, r, q))
    sc.scores[me] = 1e6
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


# --- R4 ---------------------------------------------------------------------------------------
@kernel
def pick_epoch(g, c, sc, r: int, me: int, size: int) -> int:  # noqa: ANN001
    """R4.1: the card that draws most, a boat it can build (+2) or a disaster to aim (+1.5)."""
    t = c.cards
    can_build = seen.wood(g, r, me) >= 1 and not seen.last_round(g, r)
    for k in range(size):
        cid = seen.offer(g, r, k)
        x = cid if cid >= 0 else len(t.draw) - 1  # an empty slot reads "no card"
        boat = 1.0 if t.boat[x] and can_build else 0.0
        hits = 1.0 if t.targeted[x] else 0.0
        sc.scores[k] = float(t.draw[x]) + 2.0 * boat + 1.5 * hits
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


@kernel
def disaster_target(g, c, sc, r: int, me: int, size: int, card: int) -> int:  # noqa: ANN001
    """R4.3: the leader by visible score, well ahead of it a clan that has what the card
    takes; never itself."""
    for q in range(size):
        hit = 1.0 if loses_(g, c, r, q, card) else 0.0
        sc.scores[q] = float(visible_score(g, c, r, q)) + 50.0 * hit
    sc.scores[me] = NEG
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


@kernel
def disaster_loss(g, c, sc, r: int, me: int, size: int, what: int) -> int:  # noqa: ANN001
    """R4.4: a pawn: the weakest, sparing fields and boats; a boat: an empty one; a Moai: the
    smallest (`features.loss_scores`)."""
    sc.scores[:size] = 0.0
    if what == LOSS_PAWN:
        for i in range(len(c.strength)):
            z = zone_of(c.lay, seen.own_loc(g, r, me, i))
            feeds = 1 if z in (FIELDS, OCEAN) else 0
            sc.scores[i] = -(10.0 * c.strength[i] + 5 * feeds)
    else:
        thing_losses(g, c, r, me, what, sc.scores)
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


# --- R5 ---------------------------------------------------------------------------------------
@kernel
def placement_score(s: int, t: int, own: int, wood: bool, seen_there: float, hungry: bool,
                    top: int, forest: int, fields: int, ocean0: int) -> float:  # fmt: skip
    """R5: greedy's score for a pawn of strength s placed on board target t, given the clan's
    strength already there (`own`), whether forest space t still has wood, the rivals'
    strength seen there (forest only), hunger and the tallest tile: a forest space it can
    win (R6.1), the fields and the boats when hungry (R6.3), a statue no taller than a tile
    (R6.2)."""
    if t < forest:
        wood = wood and not own > seen_there
        if wood and own + s > seen_there:
            return 60 - s
        return 5 if wood else 0
    if t == fields:
        return 100 + 10 * s if hungry else 10 + s
    if t < ocean0:
        return 20 + own + s if own + s <= top else 15 - s
    return 101 + 10 * s if hungry else 11 + s


@kernel
def work(g, c, sc, r: int, me: int, size: int) -> int:  # noqa: ANN001
    """R5: place by `placement`'s scores; with no placement legal, pass if it may, else the
    first legal swap. The candidates are the listed legal actions (`work_legal`'s
    sc.acts, ascending; a restriction may have made some of them illegal since)."""
    u = seen.uniform(g, r, me)
    codec = c.work
    acts, n = sc.acts, sc.n_acts[0]
    first = -1  # the first listed action still legal
    for m in range(n):
        if sc.legal[acts[m]]:
            first = acts[m]
            break
    if 0 <= first < codec.pass_action:
        return placement(g, c, sc, r, me, u)
    if sc.legal[codec.pass_action]:
        return codec.pass_action
    if first >= 0:
        return first
    return codec.swap0


@kernel
def placement(g, c, sc, r: int, me: int, u: float) -> int:  # noqa: ANN001
    """The best legal placement (ties at random by u), scored:

    1. food while the clan would go hungry: boats first, then fields, strongest first
       (boat 101 + 10 s, fields 100 + 10 s; otherwise 11 + s and 10 + s);
    2. a forest space with wood that this pawn wins, unless already ahead there: 60 - s; a
       space with wood it does not win: 5; else 0. Rivals are estimated from what is shown:
       face-up strengths + 2 per face-down pawn;
    3. the volcano: pile onto the tallest own space that stays within the tallest tile
       (20 + height + s), else 15 - s.

    Only the listed legal placements (sc.acts) are scored; the clan's own strength per
    place and living pawns are read from the work phase's tally (`features.tally`).
    """
    lay = c.lay
    forest, fields, ocean0 = lay.forest, lay.fields, lay.ocean0
    targets = ocean0 + 1
    by_place = sc.tally_str[me]  # the work phase's tally (`work`): the clan's own row
    living = sc.tally_living[me]
    food = by_place[fields]
    for x in range(ocean0, lay.size):
        food += by_place[x]
    hungry = living - food > 0
    rival_forest(g, c, sc, r, me, 2.0, sc.est, sc.seen)
    top = c.top_tile
    acts, n = sc.acts, sc.n_acts[0]
    s, first = 1, 0  # the strength of the listed action, the first action of its strength
    for m in range(n):
        a = acts[m]
        if a >= c.work.pass_action:
            break
        if not sc.legal[a]:
            continue
        while a >= first + targets:  # (ascending: no division)
            first += targets
            s += 1
        t = a - first
        wood = t < forest and seen.forest_wood(g, r, t)
        seen_there = sc.seen[t] if t < forest else 0.0
        sc.scores[a] = placement_score(
            s, t, by_place[t], wood, seen_there, hungry, top, forest, fields, ocean0
        )
    n78 = 3 * targets
    return pick_listed(sc.scores[:n78], sc.legal[:n78], acts, n, u)


# --- R6 ---------------------------------------------------------------------------------------
@kernel
def finish_moai(g, c, sc, r: int, me: int, size: int, prm: np.ndarray) -> int:  # noqa: ANN001
    """R6.2: finish a statue of height moai_height or more (3 in the last round, 4 with wood
    to spare); else stop."""
    lay = c.lay
    v = lay.volcano
    height = sc.height
    height[:] = 0
    for i in range(len(c.strength)):
        x = seen.own_loc(g, r, me, i) - lay.volcano0
        if 0 <= x < v:
            height[x] += c.strength[i]
    wood = seen.wood(g, r, me)
    last = seen.last_round(g, r)
    for k in range(v):
        h = height[k]
        worth = h >= prm[MOAI_HEIGHT] or (last and h >= 3) or (h >= 4 and wood >= 3)
        sc.scores[k] = float(h) if worth else -1.0
    sc.scores[v] = 0.0
    return pick_row(sc.scores[:size], sc.legal[:size], seen.uniform(g, r, me))


@kernel
def feed(g, c, sc, r: int, me: int, size: int) -> int:  # noqa: ANN001
    """R6.3-R6.4, as `greedy._best_feed`: starving own pawn i scores -10 x strength + 5 in
    the forest; raiding rival q's pawn with a raid combination scores 100 + q's visible
    score - (the Raid card's value + 3 if the second card is a Raid card too). Only the
    listed legal actions (`feed_legal`'s sc.acts) are scored."""
    u = seen.uniform(g, r, me)
    codec = c.feed
    forest = c.lay.forest
    acts, n = sc.acts, sc.n_acts[0]
    lead_of, lead = -1, 0  # the rival whose visible score `lead` is
    for m in range(n):
        a = acts[m]
        if not sc.legal[a]:
            continue
        if a < codec.pawns:
            x = seen.own_loc(g, r, me, a)
            sc.scores[a] = -10 * c.strength[a] + (5 if 0 <= x < forest else 0)
            continue
        q, j, k = raid_of(codec, a)
        if q != lead_of:
            lead_of, lead = q, visible_score(g, c, r, q)
        raid, second = raid_cards(k, c.strength[j])
        sc.scores[a] = 100 + lead - (card_value(raid) + 3 * is_raid(second))
    return pick_listed(sc.scores[:size], sc.legal[:size], acts, n, u)


# --- R7 ---------------------------------------------------------------------------------------
@kernel
def rest(g, c, sc, r: int, me: int, size: int) -> int:  # noqa: ANN001
    """R7.2: rest pawns from the zones it values least first (`REST_PREFER`), the weakest
    first. Only the listed legal pawns (`rest_legal`'s sc.acts) are scored."""
    acts, n = sc.acts, sc.n_acts[0]
    for m in range(n):
        i = acts[m]
        z = zone_of(c.lay, seen.own_loc(g, r, me, i))
        sc.scores[i] = REST_PREFER[z if z >= 0 else len(REST_PREFER) - 1] + c.strength[i]
    return pick_listed(sc.scores[:size], sc.legal[:size], acts, n, seen.uniform(g, r, me))


@kernel
def birth(g, c, sc, r: int, me: int, size: int, prm: np.ndarray) -> int:  # noqa: ANN001
    """R7.3: a pawn for the lowest pair without Raid cards when it has cards to spare (or in
    the last round); else stop. Only the listed legal actions (`birth_legal`'s sc.acts) are
    scored."""
    cards = 0
    for t in range(6):
        cards += seen.own_hand(g, r, me, t)
    spare = cards > prm[KEEP_CARDS] or seen.last_round(g, r)
    acts, n = sc.acts, sc.n_acts[0]
    for m in range(n):
        x = acts[m]
        if x == size - 1:
            sc.scores[x] = -100.0 if spare else 100.0
        else:
            sc.scores[x] = PAIR_SCORE[x]
    return pick_listed(sc.scores[:size], sc.legal[:size], acts, n, seen.uniform(g, r, me))


@kernel
def boat(g, r: int) -> int:  # noqa: ANN001
    """R7.4: build the boat, but in the last round (no draw)."""
    return 0 if seen.last_round(g, r) else 1
