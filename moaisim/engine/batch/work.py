"""R5 work phase for a batch: one action per turn in turn order until every camp is empty.

Occupancy that the legal masks need is kept up to date as actions apply instead of being
rebuilt from the pawn block at every step: camp pawns per strength, free fields, used volcano
spaces and manned boats. A swap exchanges two occupied places, so it changes none of them.
"""

from __future__ import annotations

import numpy as np

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import Kind
from moaisim.engine.kernels import work_apply, work_counts, work_legal


def work_phase(g: BatchCore, rows: np.ndarray) -> None:
    """R5.1: step by step, the seat at the next turn position of every game that still has
    a pawn in some camp places a pawn (R5.2, R5.4-R5.7) or, with an empty camp, passes or
    swaps (R5.3). A game's steps run through its turn order as in the reference engine."""
    s, rules, lay, codec = g.state, g.rules, g.rules.layout, g.work_codec
    p, per = rules.players, rules.components.pawns_per_strength
    V = lay.volcano
    v0, ocean0, fields = lay.volcano0, lay.ocean0, lay.fields
    open_pawns = rules.has("open-pawns")
    # derived counts, kept incrementally below
    camp, in_fields, used, manned = work_counts(rows, s.loc, per, fields, v0, V, ocean0, lay.boats)
    camp_total = camp.sum(axis=(1, 2))
    free_fields = rules.components.fields - s.covered[rows] - in_fields
    built = s.boats[rows] >= 0
    pairs = codec.pairs.astype(np.int64)
    pi, pj = pairs[:, 0].copy(), pairs[:, 1].copy()
    st = g.strength
    zone_up = g.zone_up  # [size]: a pawn placed there is face up (R5.5, R5.7)
    size = codec.size
    step = 0
    while True:
        live = np.flatnonzero(camp_total > 0)
        if not len(live):
            break
        r = rows[live]
        q = s.turn[r, step % p].astype(np.int64)
        step += 1
        by_seat = np.argsort(q, kind="stable")  # each seat's games side by side
        live, r, q = live[by_seat], r[by_seat], q[by_seat]
        legal = work_legal(
            live, q, r, camp, free_fields, used, built, manned, s.loc, st, pi, pj,
            lay.forest, fields, v0, ocean0, codec.swap0, size,
        )  # fmt: skip
        action = g.ask(Kind.WORK, q, r, legal)
        placed = work_apply(
            live, q, r, action, camp, camp_total, free_fields, used, built, manned, s.loc,
            s.up, zone_up, open_pawns, pi, pj, per, fields, v0, ocean0, codec.swap0,
        )  # fmt: skip
        if g.log_mask is not None:
            log_work(g, r, q, action, placed)


def log_work(
    g: BatchCore, rows: np.ndarray, seat: np.ndarray, action: np.ndarray, placed: np.ndarray
) -> None:
    """The place / pass / swap events of one work step (after the actions are applied)."""
    s, codec = g.state, g.work_codec
    for k in g.logged(rows):
        r, q, a = rows[k], int(seat[k]), int(action[k])
        if a < codec.pass_action:
            pawn = placed[k]
            g.emit(
                r,
                "place",
                seat=q,
                strength=a // codec.targets + 1,
                loc=int(s.loc[r, q, pawn]),
                up=bool(s.up[r, q, pawn]),
            )
        elif a == codec.pass_action:
            g.emit(r, "pass", seat=q)
        else:
            i, j = (int(x) for x in codec.pairs[a - codec.swap0])
            g.emit(r, "swap", seat=q, pawns=[i, j], locs=[int(s.loc[r, q, i]), int(s.loc[r, q, j])])
