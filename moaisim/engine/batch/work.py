"""R5 work phase for a batch: one action per turn in turn order until every camp is empty.

Occupancy that the legal masks need is kept up to date as actions apply instead of being
rebuilt from the pawn block at every step: camp pawns per strength, free fields, used volcano
spaces and manned boats. A swap exchanges two occupied places, so it changes none of them.
"""

from __future__ import annotations

import numpy as np

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import Kind
from moaisim.rules import CAMP


def work_phase(g: BatchCore, rows: np.ndarray) -> None:
    s, rules, lay, codec = g.state, g.rules, g.rules.layout, g.work_codec
    p, per = rules.players, rules.components.pawns_per_strength
    n, T, V = len(rows), codec.targets, lay.volcano
    v0, ocean0, fields = lay.volcano0, lay.ocean0, lay.fields
    open_pawns = rules.has("open-pawns")
    loc = s.loc[rows]
    # derived counts, kept incrementally below
    camp = (loc == CAMP).reshape(n, p, 3, per).sum(axis=3)  # [n, P, 3]
    camp_total = camp.sum(axis=(1, 2))
    free_fields = rules.components.fields - s.covered[rows] - (loc == fields).sum(axis=(1, 2))
    vcodes = np.arange(v0, v0 + V, dtype=np.int8)
    used = (loc[:, :, :, None] == vcodes).any(axis=2)  # [n, P, V]
    kcodes = np.arange(ocean0, ocean0 + lay.boats, dtype=np.int8)
    manned = (loc[:, :, :, None] == kcodes).any(axis=2)  # [n, P, K]
    built = s.boats[rows] >= 0
    del loc
    pairs = codec.pairs.astype(np.int64)
    pi, pj = pairs[:, 0], pairs[:, 1]
    st = g.strength
    differ = st[pi] != st[pj]
    pi, pj, swap_ids = pi[differ], pj[differ], np.flatnonzero(differ) + codec.swap0
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
        m = len(live)
        mine = camp[live, q]  # [m, 3]
        placing = mine.any(axis=1)
        legal = np.zeros((m, size), dtype=bool)
        pl = np.flatnonzero(placing)
        if len(pl):  # R5.2: must place
            lp = live[pl]
            qp = q[pl]
            target = np.zeros((len(pl), T), dtype=bool)
            target[:, : lay.forest] = True  # R5.4
            target[:, fields] = free_fields[lp] > 0  # R5.5
            u = used[lp, qp]  # R5.6: own spaces, or a new one
            target[:, v0 : v0 + V] = u
            new = ~u.all(axis=1)
            target[np.flatnonzero(new), v0 + np.argmin(u[new], axis=1)] = True
            target[:, codec.boat_target] = (built[lp, qp] & ~manned[lp, qp]).any(axis=1)  # R5.7
            legal[pl, : 3 * T] = ((mine[pl, :, None] > 0) & target[:, None, :]).reshape(len(pl), -1)
        ps = np.flatnonzero(~placing)
        if len(ps):  # R5.3: pass, or swap two own pawns of different strengths and places
            legal[ps, codec.pass_action] = True
            own = s.loc[r[ps], q[ps]]
            place = np.where(own >= ocean0, ocean0, own)
            board = own >= 0
            legal[ps[:, None], swap_ids[None, :]] = (
                board[:, pi] & board[:, pj] & (place[:, pi] != place[:, pj])
            )
        action = g.ask(Kind.WORK, q, r, legal)
        # --- apply: placements
        pl = np.flatnonzero(action < codec.pass_action)
        if len(pl):
            a = action[pl]
            lp, rp, qp = live[pl], r[pl], q[pl]
            strength, t = a // T + 1, a % T
            block = s.loc[rp, qp].reshape(len(pl), 3, per)[np.arange(len(pl)), strength - 1]
            pawn = (strength - 1) * per + np.argmax(block == CAMP, axis=1)
            dest = t.astype(np.int64)
            boat = t == codec.boat_target
            if boat.any():
                b = np.flatnonzero(boat)
                slot = np.argmax(built[lp[b], qp[b]] & ~manned[lp[b], qp[b]], axis=1)
                dest[b] = ocean0 + slot
                manned[lp[b], qp[b], slot] = True
            fld = t == fields
            free_fields[lp[fld]] -= 1
            vol = (t >= v0) & (t < v0 + V)
            used[lp[vol], qp[vol], t[vol] - v0] = True
            s.loc[rp, qp, pawn] = dest
            up = open_pawns | zone_up[dest]  # R5.4-R5.7, V1
            s.up[rp, qp, pawn] = up
            camp[lp, qp, strength - 1] -= 1
            camp_total[lp] -= 1
            if g.log_mask is not None:
                for i in g.logged(rp):
                    g.emit(
                        rp[i],
                        "place",
                        seat=int(qp[i]),
                        strength=int(strength[i]),
                        loc=int(dest[i]),
                        up=bool(up[i]),
                    )
        # --- swaps
        sw = np.flatnonzero(action > codec.pass_action)
        if len(sw):
            rs, qs = r[sw], q[sw]
            pair = pairs[action[sw] - codec.swap0]
            i, j = pair[:, 0], pair[:, 1]
            li, lj = s.loc[rs, qs, i], s.loc[rs, qs, j]
            s.loc[rs, qs, i], s.loc[rs, qs, j] = lj, li
            s.up[rs, qs, i] |= lj == fields  # a pawn that lands in the fields is face up
            s.up[rs, qs, j] |= li == fields
            if g.log_mask is not None:
                for k in g.logged(rs):
                    g.emit(
                        rs[k],
                        "swap",
                        seat=int(qs[k]),
                        pawns=[int(i[k]), int(j[k])],
                        locs=[int(lj[k]), int(li[k])],
                    )
        if g.log_mask is not None:
            ps = np.flatnonzero(action == codec.pass_action)
            for k in g.logged(r[ps]):
                g.emit(r[ps][k], "pass", seat=int(q[ps][k]))
