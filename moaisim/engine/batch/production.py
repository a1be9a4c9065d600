"""R6 production phase for a batch: forest (R6.1), volcano (R6.2), feeding (R6.3-R6.4)."""

from __future__ import annotations

import numpy as np
from numba import njit

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import FeedCodec, Kind, raid_action, raid_of
from moaisim.engine.views import Pawns, set_pawn
from moaisim.rules.codes import (
    CAMP,
    RESERVE,
    Layout,
    feeds,
    holds_pair,
    moai_tile,
    raid_cards,
    raidable,
    strength_of,
)


def production_phase(g: BatchCore, rows: np.ndarray) -> None:
    forest(g, rows)
    volcano(g, rows)
    feeding(g, rows)


# --- R6.1 forest -------------------------------------------------------------------------------
def forest(g: BatchCore, rows: np.ndarray) -> None:
    """R6.1: each forest space in order. Pawns of several clans on a space are revealed,
    whether or not it holds wood (A3); a wood token goes to the strongest clan there (a tie
    broken by the bird-man), to the only clan there, or back to the supply (R3.1)."""
    s = g.state
    present, totals = forest_clans(rows, s.loc, g.rules.layout)  # [n, F, P]
    clans = present.sum(axis=2)
    contest = clans > 1
    reveal_contenders(rows, contest, s.pawns, g.rules.layout)
    for space in range(g.rules.layout.forest):
        wood = s.forest_wood[rows, space]
        if g.log_mask is not None:
            for i in g.logged(rows):
                if contest[i, space] and not wood[i]:
                    g.emit(
                        rows[i],
                        "forest",
                        space=space,
                        wood=False,
                        strengths=_strengths(present[i, space], totals[i, space]),
                        winner=-1,
                    )
        w = np.flatnonzero(wood)
        if not len(w):
            continue
        r = rows[w]
        pres, tot, fight = present[w, space], totals[w, space], contest[w, space]
        winner = np.argmax(pres, axis=1)  # the only clan, when alone
        c = np.flatnonzero(fight)
        if len(c):
            best = np.where(pres[c], tot[c], -1).max(axis=1)
            tied = pres[c] & (tot[c] == best[:, None])
            winner[c] = np.argmax(tied, axis=1)
            ask = np.flatnonzero(tied.sum(axis=1) > 1)
            if len(ask):
                birdman = s.birdman[r[c[ask]]].astype(np.int64)
                space_info = np.full(len(ask), space)
                winner[c[ask]] = g.ask(
                    Kind.FOREST_TIE, birdman, r[c[ask]], tied[ask], space=space_info
                )
        s.forest_wood[r, space] = False
        nobody = clans[w, space] == 0  # no pawn beside it: the token is discarded (R3.1)
        g.discard_wood(r[nobody], 1)
        won = np.flatnonzero(~nobody)
        s.wood[r[won], winner[won]] += 1
        s.counters["forest_wood"][r[won], winner[won]] += 1
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(
                    r[i],
                    "forest",
                    space=space,
                    wood=True,
                    strengths=_strengths(pres[i], tot[i]) if fight[i] else {},
                    winner=-1 if nobody[i] else int(winner[i]),
                )


def _strengths(present: np.ndarray, totals: np.ndarray) -> dict[str, int]:
    """A forest event's strengths of the clans present (JSON keys are strings)."""
    return {str(q): int(totals[q]) for q in np.flatnonzero(present)}


@njit(cache=True, nogil=True)
def forest_clans(rows: np.ndarray, loc: np.ndarray, lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """R6.1: per game and forest space, which clans have pawns there and their total
    strength ([m, F, P] bool, [m, F, P] int)."""
    m, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    present = np.zeros((m, lay.forest, players), dtype=np.bool_)
    total = np.zeros((m, lay.forest, players), dtype=np.int64)
    for k in range(m):
        r = rows[k]
        for q in range(players):
            for i in range(pawns):
                x = loc[r, q, i]
                if 0 <= x < lay.forest:
                    present[k, x, q] = True
                    total[k, x, q] += strength_of(lay, i)
    return present, total


@njit(cache=True, nogil=True)
def reveal_contenders(rows: np.ndarray, contest: np.ndarray, pw: Pawns, lay: Layout) -> None:
    """R6.1: every pawn on a forest space where several clans stand turns face up."""
    for k in range(len(rows)):
        r = rows[k]
        for q in range(pw.loc.shape[1]):
            for i in range(pw.loc.shape[2]):
                x = pw.loc[r, q, i]
                if 0 <= x < lay.forest and contest[k, x] and not pw.up[r, q, i]:
                    set_pawn(pw, r, q, i, x, True)


# --- R6.2 volcano ------------------------------------------------------------------------------
def volcano(g: BatchCore, rows: np.ndarray) -> None:
    """R6.2: in turn order, each clan finishes any volcano spaces, one at a time, paying a
    wood each; a statue gets the tallest supply tile not taller than it."""
    s, p, lay = g.state, g.rules.players, g.rules.layout
    V = lay.volcano
    heights = g.tile_heights
    for pos in range(p):
        prows, seat = g.seats_at(rows, pos)
        done = np.zeros((len(prows), V), dtype=bool)
        go = np.arange(len(prows))
        while len(go):
            r, q = prows[go], seat[go]
            legal, h = moai_mask(r, q, go, s.loc, s.wood, s.moai_owner, heights, done, lay)
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


@njit(cache=True, nogil=True)
def moai_mask(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    loc: np.ndarray,
    wood: np.ndarray,
    moai_owner: np.ndarray,
    tile_heights: np.ndarray,
    done: np.ndarray,
    lay: Layout,
) -> tuple[np.ndarray, np.ndarray]:
    """R6.2 masks [m, V + 1] (the last action, stop, left False) and the statue heights
    [m, V] on each own volcano space. A space can be finished if the clan has a wood, it was
    not finished this turn (done[go[k]]) and a supply tile is not taller than its statue."""
    m, pawns = len(rows), loc.shape[2]
    legal = np.zeros((m, lay.volcano + 1), dtype=np.bool_)
    height = np.zeros((m, lay.volcano), dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        for i in range(pawns):
            x = loc[r, q, i] - lay.volcano0
            if 0 <= x < lay.volcano:
                height[k, x] += strength_of(lay, i)
        if wood[r, q] < 1:
            continue
        for v in range(lay.volcano):
            h = height[k, v]
            if h > 0 and not done[go[k], v]:
                legal[k, v] = moai_tile(moai_owner[r], tile_heights, h) >= 0
    return legal, height


def finish_moai(
    g: BatchCore, rows: np.ndarray, seat: np.ndarray, k: np.ndarray, height: np.ndarray
) -> None:
    """R6.2: the space's pawns turn face up, the clan pays a wood (transport) and takes its
    tile; under `volcano_after_moai = camp` the pawns go back to camp."""
    s = g.state
    to_camp = g.rules.volcano_after_moai == "camp"
    reveal_statues(rows, seat, k, s.pawns, g.rules.layout, to_camp)
    s.wood[rows, seat] -= 1  # transport
    g.discard_wood(rows, 1)
    tile = take_tiles(rows, seat, height, s.moai_owner, g.tile_heights)
    s.counters["moai_finished"][rows, seat] += 1
    if g.log_mask is not None:
        heights = g.tile_heights
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


@njit(cache=True, nogil=True)
def reveal_statues(
    rows: np.ndarray, seat: np.ndarray, space: np.ndarray, pw: Pawns, lay: Layout, to_camp: bool
) -> None:
    """R6.2: the pawns of a finished volcano space turn face up and stay, or (option
    `volcano_after_moai = camp`) go back to camp."""
    for k in range(len(rows)):
        r, q, x = rows[k], seat[k], lay.volcano0 + space[k]
        for i in range(pw.loc.shape[2]):
            if pw.loc[r, q, i] == x:
                set_pawn(pw, r, q, i, CAMP if to_camp else x, not to_camp)


@njit(cache=True, nogil=True)
def take_tiles(
    rows: np.ndarray,
    seat: np.ndarray,
    height: np.ndarray,
    moai_owner: np.ndarray,
    tile_heights: np.ndarray,
) -> np.ndarray:
    """R6.2: each clan takes the tile its statue earns (`codes.moai_tile`)."""
    tile = np.empty(len(rows), dtype=np.int64)
    for k in range(len(rows)):
        t = moai_tile(moai_owner[rows[k]], tile_heights, height[k])
        moai_owner[rows[k], t] = seat[k]
        tile[k] = t
    return tile


# --- R6.3-R6.4 feeding -------------------------------------------------------------------------
def feeding(g: BatchCore, rows: np.ndarray) -> None:
    """R6.3-R6.4: in turn order, each clan feeds its pawns on the board; each pawn short of
    food starves, unless the clan raids a face-up rival pawn in the forest or volcano."""
    s, p, lay, codec = g.state, g.rules.players, g.rules.layout, g.feed_codec
    for pos in range(p):
        prows, seat = g.seats_at(rows, pos)
        food, mouths = food_and_mouths(prows, seat, s.loc, lay)
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
            legal = feed_mask(r, q, s.loc, s.up, s.hand, lay, codec)
            action = g.ask(Kind.FEED, q, r, legal, deficit=deficit[go].copy())
            if g.log_mask is not None:
                log_feed(g, r, q, action)
            c = s.counters
            apply_feed(
                r, q, action, s.pawns, s.hand, s.discard, c["starved"], c["raids_made"],
                c["raids_suffered"], lay, codec,
            )  # fmt: skip
            deficit[go] -= 1
            go = go[deficit[go] > 0]


@njit(cache=True, nogil=True)
def food_and_mouths(
    rows: np.ndarray, seat: np.ndarray, loc: np.ndarray, lay: Layout
) -> tuple[np.ndarray, np.ndarray]:
    """R6.3: per game, the seat's food (strength of its pawns in the fields and on boats)
    and mouths (its pawns on the board)."""
    m, pawns = len(rows), loc.shape[2]
    food = np.zeros(m, dtype=np.int64)
    mouths = np.zeros(m, dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        for i in range(pawns):
            x = loc[r, q, i]
            if x >= 0:
                mouths[k] += 1
                if feeds(lay, x):
                    food[k] += strength_of(lay, i)
    return food, mouths


@njit(cache=True, nogil=True)
def feed_mask(
    rows: np.ndarray,
    seat: np.ndarray,
    loc: np.ndarray,
    up: np.ndarray,
    hand: np.ndarray,
    lay: Layout,
    codec: FeedCodec,
) -> np.ndarray:
    """R6.3-R6.4 masks [m, codec.size]: starve an own board pawn in the forest or on the
    volcano; or raid a face-up rival pawn there with a Raid card and a second card whose
    value is the victim's strength (`codes.raid_cards`)."""
    m, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    legal = np.zeros((m, codec.size), dtype=np.bool_)
    ok = np.zeros((3, 6), dtype=np.bool_)  # by victim strength, raid combo
    for k in range(m):
        r, q = rows[k], seat[k]
        for i in range(pawns):
            legal[k, i] = raidable(lay, loc[r, q, i])
        for v in range(3):
            for c in range(6):
                a, b = raid_cards(c, v + 1)
                ok[v, c] = holds_pair(hand[r, q], a, b)
        for victim in range(players):
            if victim == q:
                continue
            for j in range(pawns):
                if not (up[r, victim, j] and raidable(lay, loc[r, victim, j])):
                    continue
                v = strength_of(lay, j) - 1
                for c in range(6):
                    legal[k, raid_action(codec, victim, j, c)] = ok[v, c]
    return legal


@njit(cache=True, nogil=True)
def apply_feed(
    rows: np.ndarray,
    seat: np.ndarray,
    action: np.ndarray,
    pw: Pawns,
    hand: np.ndarray,
    discard: np.ndarray,
    starved: np.ndarray,
    raids_made: np.ndarray,
    raids_suffered: np.ndarray,
    lay: Layout,
    codec: FeedCodec,
) -> None:
    """R6.3: a starving pawn goes to its reserve; R6.4: a raid discards its two cards and
    sends the rival pawn to that rival's reserve."""
    for k in range(len(rows)):
        r, q, a = rows[k], seat[k], action[k]
        if a < codec.pawns:
            set_pawn(pw, r, q, a, RESERVE, False)
            starved[r, q] += 1
            continue
        victim, pawn, combo = raid_of(codec, a)
        for t in raid_cards(combo, strength_of(lay, pawn)):
            hand[r, q, t] -= 1
            discard[r, t] += 1
        set_pawn(pw, r, victim, pawn, RESERVE, False)
        raids_made[r, q] += 1
        raids_suffered[r, victim] += 1


def log_feed(g: BatchCore, rows: np.ndarray, seat: np.ndarray, action: np.ndarray) -> None:
    """The starve / raid events of one feeding step (before the actions apply)."""
    s, lay, codec = g.state, g.rules.layout, g.feed_codec
    for i in g.logged(rows):
        r, q = rows[i], int(seat[i])
        what, x, y, combo = codec.decode(int(action[i]))
        if what == "starve":
            g.emit(r, "starve", seat=q, pawn=x, at=int(s.loc[r, q, x]), strength=lay.strength(x))
        else:
            strength = lay.strength(y)
            g.emit(
                r,
                "raid",
                seat=q,
                victim=x,
                pawn=y,
                at=int(s.loc[r, x, y]),
                strength=strength,
                cards=[int(t) for t in raid_cards.py_func(combo, strength)],
            )
