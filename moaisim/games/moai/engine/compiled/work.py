"""R5 work phase, one game at a time: WORK_START (the phase's counts), WORK (one action per
turn, in turn order, until every camp is empty); and the rules' kernels of the phase.

Occupancy that the legal masks need is kept up to date as actions apply instead of being
rebuilt from the pawn block at every step (`WorkCounts`, part of the batch's state): camp
pawns per strength, free fields, used volcano spaces and manned boats. A swap exchanges two
occupied places, so it changes none of them.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.batch.state import WorkCounts
from moaisim.games.moai.engine.compiled.arrays import (
    C_COUNT,
    C_POS,
    FOREST,
    K_WORK,
    WORK,
    goto,
    step,
)
from moaisim.games.moai.engine.compiled.features import tally, tally_clan, tally_placed
from moaisim.games.moai.engine.compiled.policy import decide
from moaisim.games.moai.engine.decisions import WorkCodec, place_action, placement
from moaisim.games.moai.engine.views import Pawns, set_pawn
from moaisim.games.moai.rules.codes import (
    CAMP,
    VOLCANO,
    Layout,
    free_fields,
    new_volcano_space,
    placed_face_up,
    strength_of,
    swap_place,
    volcano_open,
    zone_of,
)
from moaisim.jit import kernel as jit_kernel


@step
def work_start(g, c, r: int) -> None:  # noqa: ANN001
    """WORK_START: the phase's counts (camp pawns per strength, free fields, volcano spaces
    in use, built and manned boats), kept up to date from then on; then WORK."""
    w = g.work
    w.camp[r] = 0
    w.used[r] = False
    w.manned[r] = False
    in_fields = game_counts(r, g.pawns.loc, c.lay, w.camp[r], w.used[r], w.manned[r])
    total = 0
    for q in range(c.players):
        for s in range(3):
            total += w.camp[r, q, s]
        for k in range(c.lay.boats):
            w.built[r, q, k] = g.boats[r, q, k] >= 0
    w.camp_total[r] = total
    w.free_fields[r] = free_fields(c.lay, g.covered[r], in_fields)
    goto(g, r, WORK)


@step
def work(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """WORK, R5.1: while some camp holds a pawn, the seat at the next turn position places a
    pawn (R5.2, R5.4-R5.7) or, with an empty camp, passes or swaps (R5.3). Then the
    production phase (FOREST)."""
    w, size = g.work, c.work.size
    tally(g, c, sc, r)  # the forest's tally for the policies, kept move by move
    pol.hs.held[0] = False  # the heuristic's per-phase context, worked out afresh
    sc.legal[:size] = False
    while w.camp_total[r] > 0:
        pos = g.cursor[r, C_COUNT] % c.players
        g.cursor[r, C_POS] = pos
        q = g.turn[r, pos]
        n = work_legal(w, r, q, r, g.pawns.loc, g.pawns.up, c.lay, c.work, sc.legal, sc.place,
                       sc.kind, sc.acts)  # fmt: skip
        sc.n_acts[0] = n
        a = decide(g, c, pol, sc, r, K_WORK, q, size, -1)
        for m in range(n):  # the mask cleared for the next turn: only the listed were set
            sc.legal[sc.acts[m]] = False
        if a < 0:  # a Python seat's turn: the tally is not this game's when others play
            sc.tally_ok[0] = False
            return
        pawn = work_move(w, r, q, r, a, g.pawns, c.lay, c.work, c.open_pawns)
        if a > c.work.pass_action:  # a swap: the clan's row counted again
            tally_clan(g, c, sc, r, q)
        elif pawn >= 0:  # a pawn placed: counted where it stands
            tally_placed(c, sc, q, pawn, g.pawns.loc[r, q, pawn], g.pawns.up[r, q, pawn])
        g.cursor[r, C_COUNT] += 1
    sc.tally_ok[0] = False
    goto(g, r, FOREST)


# --- the rules' kernels (R5) ---------------------------------------------------------------


@jit_kernel
def game_counts(r: int, loc: np.ndarray, lay: Layout, camp: np.ndarray, used: np.ndarray,
                manned: np.ndarray) -> int:  # fmt: skip
    """The work phase's counts of game r at its start: adds its camp pawns per clan and
    strength to camp [P, 3],
    marks its volcano spaces in use [P, V] and manned boats [P, K] (given cleared); returns
    its pawns in the fields."""
    in_fields = 0
    for q in range(loc.shape[1]):
        for i in range(loc.shape[2]):
            x = loc[r, q, i]
            if x == CAMP:
                camp[q, strength_of(lay, i) - 1] += 1
            elif x == lay.fields:
                in_fields += 1
            elif zone_of(lay, x) == VOLCANO:
                used[q, x - lay.volcano0] = True
            elif x >= lay.ocean0:
                manned[q, x - lay.ocean0] = True
    return in_fields


@jit_kernel
def work_legal(counts: WorkCounts, c: int, q: int, r: int, loc: np.ndarray, up: np.ndarray,
               lay: Layout, codec: WorkCodec, legal: np.ndarray, place: np.ndarray,
               kind: np.ndarray, acts: np.ndarray) -> int:  # fmt: skip
    """R5.2-R5.7: the legal mask [codec.size] (given cleared) of seat q in game r (counts row
    c); `place` and `kind` are working arrays [N]. The legal actions are also listed in
    ascending order in `acts` [codec.size]; returns how many there are (the compiled
    policies score only those).

    With pawns in camp the seat must place one (R5.2): forest spaces always (R5.4), the
    fields if one is free (R5.5), its own volcano spaces in use or its lowest unused one
    (R5.6), a free boat (R5.7). With an empty camp (R5.3): pass, or swap two own board
    pawns standing in different places (all fields one place, all own boats one place) that
    differ in strength or in face state (A2).
    """
    n = 0
    if counts.camp[c, q, 0] + counts.camp[c, q, 1] + counts.camp[c, q, 2] > 0:
        # actions ascend with the strength, then the target; every strength in camp has the
        # same targets, listed once for the first and shifted for the others
        first, listed = 0, 0
        for s in range(1, 4):
            if counts.camp[c, q, s - 1] == 0:
                continue
            if n > 0:
                shift = (s - first) * codec.targets
                for k in range(listed):
                    a = acts[k] + shift
                    legal[a] = True
                    acts[n] = a
                    n += 1
                continue
            first = s
            for t in range(lay.forest):
                a = place_action(codec, s, t)
                legal[a] = True
                acts[n] = a
                n += 1
            if counts.free_fields[c] > 0:
                a = place_action(codec, s, lay.fields)
                legal[a] = True
                acts[n] = a
                n += 1
            used = counts.used[c, q]
            new = new_volcano_space(used)
            for v in range(lay.volcano):
                if volcano_open(used, v, new):  # R5.6
                    a = place_action(codec, s, lay.volcano0 + v)
                    legal[a] = True
                    acts[n] = a
                    n += 1
            for b in range(lay.boats):
                if counts.built[c, q, b] and not counts.manned[c, q, b]:
                    a = place_action(codec, s, codec.boat_target)
                    legal[a] = True
                    acts[n] = a
                    n += 1
                    break
            listed = n
        return n
    legal[codec.pass_action] = True
    acts[0] = codec.pass_action
    n = 1
    # each pawn's swap place (-1 off the board) and kind (strength, face state), read once
    # per game rather than once per pair
    for i in range(loc.shape[2]):
        x = loc[r, q, i]
        place[i] = swap_place(lay, x) if x >= 0 else -1
        kind[i] = 2 * strength_of(lay, i) + (1 if up[r, q, i] else 0)
    pawns = loc.shape[2]
    row = codec.swap0  # the action of pair (i, i + 1): pairs are numbered i-major (triu order)
    for i in range(pawns):
        if place[i] >= 0:  # a pawn off the board swaps with nobody: its row skipped
            for j in range(i + 1, pawns):
                if place[j] >= 0 and place[i] != place[j] and kind[i] != kind[j]:
                    a = row + j - i - 1
                    legal[a] = True
                    acts[n] = a
                    n += 1
        row += pawns - i - 1
    return n


@jit_kernel
def work_move(counts: WorkCounts, c: int, q: int, r: int, a: int, pw: Pawns, lay: Layout,
              codec: WorkCodec, open_pawns: bool) -> int:  # fmt: skip
    """Apply work action `a` of seat q in game r (counts row c) and update the derived counts.

    A placement takes the seat's first camp pawn of that strength; "a free boat" is its
    first built boat with no pawn. The pawn is face up in the fields and on a boat (R5.5,
    R5.7), or always under V1. A swap exchanges two pawns' places; a pawn landing in the
    fields turns face up (R5.3). Returns the pawn placed (-1 for a pass or a swap).
    """
    if a < codec.pass_action:
        strength, target = placement(codec, a)
        pawn = (strength - 1) * lay.per_strength
        while pw.loc[r, q, pawn] != CAMP:
            pawn += 1
        dest = target
        if target == codec.boat_target:
            b = 0
            while not counts.built[c, q, b] or counts.manned[c, q, b]:
                b += 1
            counts.manned[c, q, b] = True
            dest = lay.ocean0 + b
        elif target == lay.fields:
            counts.free_fields[c] -= 1
        elif target >= lay.volcano0:
            counts.used[c, q, target - lay.volcano0] = True
        set_pawn(pw, r, q, pawn, dest, placed_face_up(lay, dest, open_pawns))
        counts.camp[c, q, strength - 1] -= 1
        counts.camp_total[c] -= 1
        return pawn
    if a > codec.pass_action:
        i, j = codec.pair_i[a - codec.swap0], codec.pair_j[a - codec.swap0]
        li, lj = pw.loc[r, q, i], pw.loc[r, q, j]
        ui, uj = pw.up[r, q, i], pw.up[r, q, j]
        set_pawn(pw, r, q, i, lj, ui or lj == lay.fields)
        set_pawn(pw, r, q, j, li, uj or li == lay.fields)
    return -1


def phase_counts(loc: np.ndarray, boats: np.ndarray, covered: np.ndarray, rows: np.ndarray,
                 lay: Layout) -> WorkCounts:  # fmt: skip
    """The work phase's counts (`WorkCounts`) of the games `rows` as they stand (row k of
    each array is game rows[k]): for a game set into its work phase by other means than
    WORK_START (a determinized world, a scenario)."""
    n, p = len(rows), loc.shape[1]
    camp = np.zeros((n, p, 3), dtype=np.int64)
    used = np.zeros((n, p, lay.volcano), dtype=np.bool_)
    manned = np.zeros((n, p, lay.boats), dtype=np.bool_)
    free = np.zeros(n, dtype=np.int64)
    for k, r in enumerate(rows.tolist()):
        fields = game_counts(r, loc, lay, camp[k], used[k], manned[k])
        free[k] = free_fields(lay, int(covered[r]), fields)
    return WorkCounts(camp, camp.sum(axis=(1, 2)), free, used, boats[rows] >= 0, manned)
