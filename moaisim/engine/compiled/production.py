"""R6 production phase, one game at a time (`batch.production` is the batch's, and holds the
rules' kernels both use): FOREST (R6.1, space by space), VOLCANO (R6.2), FEED_COUNT and FEED
(R6.3-R6.4)."""

from __future__ import annotations

from moaisim.engine.batch.production import (
    clan_food,
    clans_on,
    feed_legal,
    feed_one,
    moai_legal,
    reveal_statue,
    statue_height,
    turn_up,
)
from moaisim.engine.compiled.arrays import (
    C_COUNT,
    C_LEFT,
    C_POS,
    C_STEP,
    DRAW,
    FEED,
    FEED_COUNT,
    K_FEED,
    K_FINISH_MOAI,
    K_FOREST_TIE,
    VOLCANO,
    discard_wood,
    goto,
    kernel,
    step,
)
from moaisim.engine.compiled.policy import decide
from moaisim.rules.codes import moai_tile


# --- R6.1 forest -------------------------------------------------------------------------------
@step
def forest(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """FOREST, R6.1: each forest space in order (step_count). Pawns of several clans on a
    space turn face up, whether or not it holds wood (A3); a wood token goes to the strongest
    clan there (a tie broken by the bird-man), to the only clan there, or back to the supply
    (R3.1). After the last space, the volcano (VOLCANO)."""
    p = c.players
    present, total = sc.seats, sc.total
    while True:
        space = g.cursor[r, C_COUNT]
        if space >= c.lay.forest:
            goto(g, r, VOLCANO)
            return
        present[:] = False
        total[:] = 0
        clans = clans_on(r, space, g.pawns.loc, c.lay, present, total)
        if clans > 1:
            turn_up(r, space, g.pawns)
        if not g.forest_wood[r, space]:
            g.cursor[r, C_COUNT] += 1
            continue
        best = -1
        for q in range(p):
            if present[q] and total[q] > best:
                best = total[q]
        tied, first = 0, -1
        for q in range(p):
            sc.legal[q] = present[q] and total[q] == best
            if sc.legal[q]:
                tied += 1
                if first < 0:
                    first = q
        if clans > 1 and tied > 1:
            first = decide(g, c, pol, sc, r, K_FOREST_TIE, g.birdman[r], p, space)
        award(g, c, r, space, first)


@kernel
def award(g, c, r: int, space: int, winner: int) -> None:  # noqa: ANN001
    """R6.1: the token leaves its space, to the winner (-1: nobody stood there, R3.1: it is
    discarded); the next space."""
    g.forest_wood[r, space] = False
    if winner < 0:
        discard_wood(g, c, r, 1)
    else:
        g.wood[r, winner] += 1
        g.n.forest_wood[r, winner] += 1
    g.cursor[r, C_COUNT] += 1


# --- R6.2 volcano ------------------------------------------------------------------------------
@step
def volcano(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """VOLCANO, R6.2: in turn order (step_pos), each clan finishes any of its volcano spaces,
    one at a time (step_done: those finished this turn), paying a wood each; a statue gets
    the tallest supply tile not taller than it; the space's pawns turn face up (or go back to
    camp under `volcano_after_moai = camp`). After the last position, feeding."""
    p, v = c.players, c.lay.volcano
    while True:
        pos = g.cursor[r, C_POS]
        if pos >= p:
            goto(g, r, FEED_COUNT)
            return
        q = g.turn[r, pos]
        sc.legal[: v + 1] = False
        sc.height[:] = 0
        more = moai_legal(r, q, g.pawns.loc, g.wood, g.moai_owner, c.tile_heights,
                          g.step_done[r], c.lay, sc.legal, sc.height)  # fmt: skip
        k = v
        if more:
            sc.legal[v] = True  # stop
            k = decide(g, c, pol, sc, r, K_FINISH_MOAI, q, v + 1, -1)
        if k >= v:
            g.cursor[r, C_POS] += 1
            g.step_done[r] = False
            continue
        height = statue_height(r, q, k, g.pawns.loc, c.lay)
        reveal_statue(r, q, k, g.pawns, c.lay, c.to_camp)
        g.wood[r, q] -= 1  # transport
        discard_wood(g, c, r, 1)
        tile = moai_tile(g.moai_owner[r], c.tile_heights, height)
        g.moai_owner[r, tile] = q
        g.n.moai_finished[r, q] += 1
        g.step_done[r, k] = True


# --- R6.3-R6.4 feeding -------------------------------------------------------------------------
@step
def feed_count(g, c, r: int) -> None:  # noqa: ANN001
    """FEED_COUNT, R6.3: in turn order (step_pos), a clan counts its food and its mouths;
    each pawn short of food starves, unless the clan raids (FEED). After the last position,
    the review (DRAW)."""
    while True:
        pos = g.cursor[r, C_POS]
        if pos >= c.players:
            goto(g, r, DRAW)
            return
        food, mouths = clan_food(r, g.turn[r, pos], g.pawns.loc, c.lay)
        if mouths > food:
            g.cursor[r, C_LEFT] = mouths - food
            g.cursor[r, C_STEP] = FEED
            return
        g.cursor[r, C_POS] += 1


@step
def feed(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """FEED, R6.3-R6.4: one starving pawn at a time (step_left of them): starve it, or raid
    a face-up rival pawn to save it; then the next turn position (FEED_COUNT)."""
    size = c.feed.size
    q = g.turn[r, g.cursor[r, C_POS]]
    sc.legal[:size] = False
    sc.n_acts[0] = feed_legal(r, q, g.pawns.loc, g.pawns.up, g.hand, c.lay, c.feed, sc.legal,
                              sc.ok, sc.acts)  # fmt: skip
    a = decide(g, c, pol, sc, r, K_FEED, q, size, g.cursor[r, C_LEFT])
    n = g.n
    feed_one(r, q, a, g.pawns, g.hand, g.discard, n.starved, n.raids_made, n.raids_suffered,
             c.lay, c.feed)  # fmt: skip
    g.cursor[r, C_LEFT] -= 1
    if g.cursor[r, C_LEFT] == 0:
        g.cursor[r, C_STEP] = FEED_COUNT
        g.cursor[r, C_POS] += 1
