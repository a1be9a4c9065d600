"""R5 work phase, one game at a time (`batch.work` is the batch's, and holds the rules'
kernels both use): WORK_START (the phase's counts), WORK (one action per turn, in turn order,
until every camp is empty)."""

from __future__ import annotations

from moaisim.engine.batch.work import game_counts, work_legal, work_move
from moaisim.engine.compiled.arrays import C_COUNT, C_POS, FOREST, K_WORK, WORK, goto, step
from moaisim.engine.compiled.features import tally, tally_clan, tally_placed
from moaisim.engine.compiled.policy import decide
from moaisim.rules.codes import free_fields


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
        pawn = work_move(w, r, q, r, a, g.pawns, c.lay, c.work, c.open_pawns)
        if a > c.work.pass_action:  # a swap: the clan's row counted again
            tally_clan(g, c, sc, r, q)
        elif pawn >= 0:  # a pawn placed: counted where it stands
            tally_placed(c, sc, q, pawn, g.pawns.loc[r, q, pawn], g.pawns.up[r, q, pawn])
        g.cursor[r, C_COUNT] += 1
    sc.tally_ok[0] = False
    goto(g, r, FOREST)
