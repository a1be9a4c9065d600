"""R6 production phase for a batch: forest (R6.1), volcano (R6.2), feeding (R6.3-R6.4)."""

from __future__ import annotations

import numpy as np

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import RAID_COMBOS, Kind
from moaisim.engine.kernels import (
    feed_legal,
    food_and_mouths,
    forest_presence,
    volcano_legal,
)
from moaisim.rules import CAMP, RESERVE

FOREST, FIELDS, VOLCANO, OCEAN = 0, 1, 2, 3


def production_phase(g: BatchCore, rows: np.ndarray) -> None:
    forest(g, rows)
    volcano(g, rows)
    feeding(g, rows)


def forest(g: BatchCore, rows: np.ndarray) -> None:
    """R6.1: each space with a wood token, in order; the strongest clan there takes it."""
    s, p = g.state, g.rules.players
    for space in range(g.rules.components.forest_spaces):
        w = np.flatnonzero(s.forest_wood[rows, space])
        if not len(w):
            continue
        r = rows[w]
        present, totals = forest_presence(r, space, s.loc, g.strength)
        clans = present.sum(axis=1)
        winner = np.argmax(present, axis=1)  # the only clan, when alone
        contest = clans > 1
        if contest.any():
            c = np.flatnonzero(contest)
            up = s.up[r[c]]
            up |= s.loc[r[c]] == space  # every pawn there is shown
            s.up[r[c]] = up
            best = np.where(present[c], totals[c], -1).max(axis=1)
            tied = present[c] & (totals[c] == best[:, None])
            winner[c] = np.argmax(tied, axis=1)
            ask = np.flatnonzero(tied.sum(axis=1) > 1)
            if len(ask):
                birdman = s.birdman[r[c[ask]]].astype(np.int64)
                winner[c[ask]] = g.ask(
                    Kind.FOREST_TIE,
                    birdman,
                    r[c[ask]],
                    tied[ask],
                    space=np.full(len(ask), space),
                )
        s.forest_wood[r, space] = False
        nobody = clans == 0  # no pawn beside it: the token returns to the supply
        s.wood_supply[r[nobody]] += 1
        won = np.flatnonzero(~nobody)
        s.wood[r[won], winner[won]] += 1
        s.counters["forest_wood"][r[won], winner[won]] += 1
        if g.log_mask is not None:
            for i in g.logged(r):
                strengths = (
                    {str(q): int(totals[i, q]) for q in range(p) if present[i, q]}
                    if contest[i]
                    else {}
                )
                g.emit(
                    r[i],
                    "forest",
                    space=space,
                    strengths=strengths,
                    winner=-1 if nobody[i] else int(winner[i]),
                )


def volcano(g: BatchCore, rows: np.ndarray) -> None:
    """R6.2: in turn order, each clan finishes any volcano spaces, one at a time, paying a
    wood each; a statue gets the tallest supply tile not taller than it."""
    s, p, lay = g.state, g.rules.players, g.rules.layout
    V = lay.volcano
    heights = np.asarray(g.rules.components.moai_heights, dtype=np.int64)
    for pos in range(p):
        prows, seat = g.seats_at(rows, pos)
        done = np.zeros((len(prows), V), dtype=bool)
        go = np.arange(len(prows))
        while len(go):
            r, q = prows[go], seat[go]
            legal, h = volcano_legal(
                r, q, go, s.loc, g.strength, s.wood, s.moai_owner, heights, done, lay.volcano0, V
            )
            more = legal[:, :V].any(axis=1)
            go, r, q, legal, h = go[more], r[more], q[more], legal[more], h[more]
            if not len(go):
                break
            legal[:, V] = True  # stop
            k = g.ask(Kind.FINISH_MOAI, q, r, legal)
            fin = np.flatnonzero(k < V)
            go, r, q, k, h = go[fin], r[fin], q[fin], k[fin], h[fin]
            if len(go):
                finish_moai(g, r, q, k, h[np.arange(len(go)), k])
                done[go, k] = True


def finish_moai(
    g: BatchCore, rows: np.ndarray, seat: np.ndarray, k: np.ndarray, height: np.ndarray
) -> None:
    s, lay = g.state, g.rules.layout
    heights = np.asarray(g.rules.components.moai_heights, dtype=np.int64)
    own = s.loc[rows, seat]
    pawns = own == (lay.volcano0 + k)[:, None]
    up = s.up[rows, seat]
    up |= pawns
    s.wood[rows, seat] -= 1  # transport
    s.wood_supply[rows] += 1
    fits = (s.moai_owner[rows] == -1) & (heights[None, :] <= height[:, None])
    tile = np.argmax(np.where(fits, heights, -1), axis=1)  # tallest fitting tile, first one
    s.moai_owner[rows, tile] = seat
    s.counters["moai_finished"][rows, seat] += 1
    if g.rules.volcano_after_moai == "camp":
        own[pawns] = CAMP
        up[pawns] = False
        s.loc[rows, seat] = own
    s.up[rows, seat] = up
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(
                rows[i],
                "moai",
                seat=int(seat[i]),
                space=int(k[i]),
                height=int(height[i]),
                tile=int(tile[i]),
                tile_height=int(heights[tile[i]]),
            )


def feeding(g: BatchCore, rows: np.ndarray) -> None:
    """R6.3-R6.4: in turn order, each clan feeds its pawns on the board; each pawn short of
    food starves, unless the clan raids a face-up rival pawn in the forest or volcano."""
    s, p = g.state, g.rules.players
    for pos in range(p):
        prows, seat = g.seats_at(rows, pos)
        food, mouths = food_and_mouths(prows, seat, s.loc, g.zone_up, g.strength)
        deficit = np.maximum(0, mouths - food)
        if g.log_mask is not None:
            for i in g.logged(prows):
                g.emit(
                    prows[i],
                    "feed",
                    seat=int(seat[i]),
                    food=int(food[i]),
                    mouths=int(mouths[i]),
                    deficit=int(deficit[i]),
                )
        go = np.flatnonzero(deficit > 0)
        while len(go):
            r, q = prows[go], seat[go]
            action = g.ask(Kind.FEED, q, r, feed_mask(g, r, q), deficit=deficit[go].copy())
            apply_feed(g, r, q, action)
            deficit[go] -= 1
            go = go[deficit[go] > 0]


def feed_mask(g: BatchCore, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    s = g.state
    return feed_legal(rows, seat, s.loc, s.up, s.hand, g.zone, g.strength, g.feed_codec.size)


def apply_feed(g: BatchCore, rows: np.ndarray, seat: np.ndarray, action: np.ndarray) -> None:
    s, N = g.state, g.rules.components.pawns
    st = g.strength
    starve = np.flatnonzero(action < N)
    if len(starve):
        r, q, a = rows[starve], seat[starve], action[starve]
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(
                    r[i],
                    "starve",
                    seat=int(q[i]),
                    pawn=int(a[i]),
                    at=int(s.loc[r[i], q[i], a[i]]),
                    strength=int(st[a[i]]),
                )
        s.loc[r, q, a] = RESERVE
        s.up[r, q, a] = False
        s.counters["starved"][r, q] += 1
    raid = np.flatnonzero(action >= N)
    if len(raid):
        r, q = rows[raid], seat[raid]
        x, c = np.divmod(action[raid] - N, len(RAID_COMBOS))
        victim, pawn = np.divmod(x, N)
        combo = np.asarray(RAID_COMBOS)
        rv, second_raid = combo[c, 0], combo[c, 1]
        t1 = 3 + rv - 1
        t2 = 3 * second_raid + st[pawn].astype(np.int64) - 1
        for t in (t1, t2):
            s.hand[r, q, t] -= 1
            s.discard[r, t] += 1
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(
                    r[i],
                    "raid",
                    seat=int(q[i]),
                    victim=int(victim[i]),
                    pawn=int(pawn[i]),
                    at=int(s.loc[r[i], victim[i], pawn[i]]),
                    strength=int(st[pawn[i]]),
                    cards=[int(t1[i]), int(t2[i])],
                )
        s.loc[r, victim, pawn] = RESERVE
        s.up[r, victim, pawn] = False
        s.counters["raids_made"][r, q] += 1
        s.counters["raids_suffered"][r, victim] += 1
