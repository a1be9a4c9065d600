"""R6 production phase, one game at a time: FOREST (R6.1, space by space), VOLCANO (R6.2),
FEED_COUNT and FEED (R6.3-R6.4); and the rules' kernels of the phase."""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled.arrays import (
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
from moaisim.games.moai.engine.compiled.policy import decide
from moaisim.games.moai.engine.decisions import FeedCodec, raid_action, raid_of
from moaisim.games.moai.engine.views import Pawns, set_pawn
from moaisim.games.moai.rules.codes import (
    CAMP,
    RESERVE,
    Layout,
    feeds,
    finishable,
    holds_pair,
    holds_raid,
    moai_tile,
    raid_cards,
    raidable,
    statue_heights,
    strength_of,
)
from moaisim.jit import kernel as jit_kernel


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
            if first < 0:
                return
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
        statue_heights(c.lay, g.pawns.loc[r, q], sc.height)
        more = finishable(sc.height, g.step_done[r], g.wood[r, q], g.moai_owner[r],
                          c.tile_heights, sc.legal)  # fmt: skip
        k = v
        if more:
            sc.legal[v] = True  # stop
            k = decide(g, c, pol, sc, r, K_FINISH_MOAI, q, v + 1, -1)
            if k < 0:
                return
        if k >= v:
            g.cursor[r, C_POS] += 1
            g.step_done[r] = False
            continue
        sc.height[:] = 0  # the statue's height (a policy may have used the array)
        statue_heights(c.lay, g.pawns.loc[r, q], sc.height)
        height = sc.height[k]
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
    if a < 0:
        return
    n = g.n
    feed_one(r, q, a, g.pawns, g.hand, g.discard, n.starved, n.raids_made, n.raids_suffered,
             c.lay, c.feed)  # fmt: skip
    g.cursor[r, C_LEFT] -= 1
    if g.cursor[r, C_LEFT] == 0:
        g.cursor[r, C_STEP] = FEED_COUNT
        g.cursor[r, C_POS] += 1


# --- the rules' kernels (R6) ---------------------------------------------------------------


@jit_kernel
def clans_on(r: int, x0: int, loc: np.ndarray, lay: Layout, present: np.ndarray, total: np.ndarray
            ) -> int:  # fmt: skip
    """R6.1 for game r: which clans have pawns on forest space x0 and their total strength
    there (present [P], total [P], given cleared); returns how many clans stand there."""
    clans = 0
    for q in range(loc.shape[1]):
        for i in range(loc.shape[2]):
            if loc[r, q, i] == x0:
                present[q] = True
                total[q] += strength_of(lay, i)
        if present[q]:
            clans += 1
    return clans


@jit_kernel
def turn_up(r: int, x0: int, pw: Pawns) -> None:  # fmt: skip
    """R6.1: every pawn on board code x0 of game r turns face up."""
    for q in range(pw.loc.shape[1]):
        for i in range(pw.loc.shape[2]):
            if pw.loc[r, q, i] == x0 and not pw.up[r, q, i]:
                set_pawn(pw, r, q, i, x0, True)


@jit_kernel
def reveal_statue(r: int, q: int, space: int, pw: Pawns, lay: Layout, to_camp: bool
                 ) -> None:  # fmt: skip
    """R6.2: the pawns of seat q's finished volcano space in game r turn face up and stay,
    or (`volcano_after_moai = camp`) go back to camp."""
    x = lay.volcano0 + space
    for i in range(pw.loc.shape[2]):
        if pw.loc[r, q, i] == x:
            set_pawn(pw, r, q, i, CAMP if to_camp else x, not to_camp)


@jit_kernel
def clan_food(r: int, q: int, loc: np.ndarray, lay: Layout) -> tuple[int, int]:  # fmt: skip
    """R6.3: seat q's food and mouths in game r (the strength of its pawns in the fields and on
    boats, its pawns on the board)."""
    food, mouths = 0, 0
    for i in range(loc.shape[2]):
        x = loc[r, q, i]
        if x >= 0:
            mouths += 1
            if feeds(lay, x):
                food += strength_of(lay, i)
    return food, mouths


@jit_kernel
def feed_legal(r: int, q: int, loc: np.ndarray, up: np.ndarray, hand: np.ndarray, lay: Layout,
               codec: FeedCodec, legal: np.ndarray, ok: np.ndarray, acts: np.ndarray
              ) -> int:  # fmt: skip
    """R6.3-R6.4 for seat q in game r: starve an own board pawn in the forest or on the
    volcano, or raid a face-up rival pawn there with a Raid card and a second card whose value
    is the victim's strength (`codes.raid_cards`). Its mask [codec.size] (given cleared); `ok` is a
    working array [3, 6] (victim strength, raid combo). The legal actions are also listed in
    ascending order in `acts` [codec.size]; returns how many there are (the compiled
    policies score only those)."""
    pawns = loc.shape[2]
    n = 0
    for i in range(pawns):
        if raidable(lay, loc[r, q, i]):
            legal[i] = True
            acts[n] = i
            n += 1
    if not holds_raid(hand[r, q]):  # R6.4: no raid is legal
        return n
    can_raid = False
    for v in range(3):
        for c in range(6):
            a, b = raid_cards(c, v + 1)
            ok[v, c] = holds_pair(hand[r, q], a, b)
            can_raid |= ok[v, c]
    if not can_raid:  # no raid is legal: the rivals' pawns need not be read
        return n
    for victim in range(loc.shape[1]):
        if victim == q:
            continue
        for j in range(pawns):
            if not (up[r, victim, j] and raidable(lay, loc[r, victim, j])):
                continue
            v = strength_of(lay, j) - 1
            for c in range(6):
                if ok[v, c]:
                    a = raid_action(codec, victim, j, c)
                    legal[a] = True
                    acts[n] = a
                    n += 1
    return n


@jit_kernel
def feed_one(r: int, q: int, a: int, pw: Pawns, hand: np.ndarray, discard: np.ndarray,
             starved: np.ndarray, raids_made: np.ndarray, raids_suffered: np.ndarray, lay: Layout,
             codec: FeedCodec) -> None:  # fmt: skip
    """Seat q's action `a` in game r: R6.3, a starving pawn goes to its reserve; R6.4, a
    raid discards its two cards and sends the rival pawn to that rival's reserve."""
    if a < codec.pawns:
        set_pawn(pw, r, q, a, RESERVE, False)
        starved[r, q] += 1
        return
    victim, pawn, combo = raid_of(codec, a)
    for t in raid_cards(combo, strength_of(lay, pawn)):
        hand[r, q, t] -= 1
        discard[r, t] += 1
    set_pawn(pw, r, victim, pawn, RESERVE, False)
    raids_made[r, q] += 1
    raids_suffered[r, victim] += 1
