"""R5 work phase for a batch, as steps (`steps.Step`): WORK_START (the phase's counts), WORK
(one action per turn, in turn order, until every camp is empty).

Occupancy that the legal masks need is kept up to date as actions apply instead of being
rebuilt from the pawn block at every step (`WorkCounts`, part of the batch's state): camp
pawns per strength, free fields, used volcano spaces and manned boats. A swap exchanges two
occupied places, so it changes none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moaisim.engine.batch.counts import WorkCounts
from moaisim.engine.decisions import WorkCodec, place_action, placement
from moaisim.engine.steps import Step
from moaisim.engine.views import Pawns, set_pawn
from moaisim.jit import kernel
from moaisim.rules.codes import (
    CAMP,
    VOLCANO,
    Layout,
    free_fields,
    placed_face_up,
    strength_of,
    swap_place,
    zone_of,
)

if TYPE_CHECKING:
    from moaisim.engine.batch.machine import Machine
    from moaisim.engine.steps import Pending


def work_start(m: Machine, rows: np.ndarray) -> None:
    """WORK_START: the phase's counts of each game (camp pawns per strength, free fields,
    volcano spaces in use, built and manned boats), kept up to date from then on."""
    s, lay = m.state, m.rules.layout
    camp, in_fields, used, manned = work_counts(rows, s.loc, lay)
    w = s.work
    w.camp[rows] = camp
    w.camp_total[rows] = camp.sum(axis=(1, 2))
    w.free_fields[rows] = free_fields.py_func(lay, s.covered[rows].astype(np.int64), in_fields)
    w.used[rows] = used
    w.built[rows] = s.boats[rows] >= 0
    w.manned[rows] = manned
    m.goto(rows, Step.WORK)


def work(m: Machine, rows: np.ndarray) -> Pending | None:
    """WORK, R5.1: while some camp holds a pawn, the seat at the next turn position (the
    game's count of work actions, mod players) places a pawn (R5.2, R5.4-R5.7) or, with an
    empty camp, passes or swaps (R5.3). Then the production phase (FOREST)."""
    s, p = m.state, m.rules.players
    over = s.work.camp_total[rows] == 0
    if over.any():
        m.goto(rows[over], Step.FOREST)
        rows = rows[~over]
        if not len(rows):
            return None
    pos = s.step_count[rows] % p
    s.step_pos[rows] = pos
    rows, seat = m.seat_order(rows, s.turn[rows, pos].astype(np.int64))
    legal = work_mask(s.work, rows, seat, rows, s.loc, s.up, m.rules.layout, m.work_codec)
    return m.pending(Step.WORK, rows, seat, legal)


def apply(m: Machine, pend: Pending, action: np.ndarray) -> None:
    """The actions applied (`apply_work`); the count of work actions moves on."""
    s = m.state
    r, q = pend.rows, pend.seat
    open_pawns = m.rules.has("open-pawns")
    placed = apply_work(s.work, r, q, r, action, s.pawns, m.rules.layout, m.work_codec,
                        open_pawns)  # fmt: skip
    if m.log_mask is not None:
        log_work(m, r, q, action, placed)
    s.step_count[r] += 1


def phase_counts(m: Machine, rows: np.ndarray) -> WorkCounts:
    """The derived counts of the games `rows` at the start of their work phase (row k of
    each array is game rows[k]: for scenario tests)."""
    s, lay = m.state, m.rules.layout
    camp, in_fields, used, manned = work_counts(rows, s.loc, lay)
    return WorkCounts(
        camp=camp,
        camp_total=camp.sum(axis=(1, 2)),
        free_fields=free_fields.py_func(lay, s.covered[rows].astype(np.int64), in_fields),
        used=used,
        built=s.boats[rows] >= 0,
        manned=manned,
    )


def log_work(
    g: Machine, rows: np.ndarray, seat: np.ndarray, action: np.ndarray, placed: np.ndarray
) -> None:
    """The place / pass / swap events of one work step (after the actions are applied)."""
    s, codec = g.state, g.work_codec
    for k in g.logged(rows):
        r, q, a = rows[k], int(seat[k]), int(action[k])
        what, x, y = codec.decode(a)
        if what == "place":
            pawn = placed[k]
            g.emit(
                r,
                "place",
                seat=q,
                strength=x,
                loc=int(s.loc[r, q, pawn]),
                up=bool(s.up[r, q, pawn]),
            )
        elif what == "pass":
            g.emit(r, "pass", seat=q)
        else:
            g.emit(r, "swap", seat=q, pawns=[x, y], locs=[int(s.loc[r, q, x]), int(s.loc[r, q, y])])


@kernel
def work_counts(
    rows: np.ndarray, loc: np.ndarray, lay: Layout
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The work phase's derived counts at its start, per game of `rows`: camp pawns per
    clan and strength [n, P, 3], pawns in the fields [n], own volcano spaces in use
    [n, P, V] and manned boats [n, P, K]."""
    n, players = len(rows), loc.shape[1]
    camp = np.zeros((n, players, 3), dtype=np.int64)
    in_fields = np.zeros(n, dtype=np.int64)
    used = np.zeros((n, players, lay.volcano), dtype=np.bool_)
    manned = np.zeros((n, players, lay.boats), dtype=np.bool_)
    for k in range(n):
        in_fields[k] = game_counts(rows[k], loc, lay, camp[k], used[k], manned[k])
    return camp, in_fields, used, manned


@kernel
def game_counts(
    r: int, loc: np.ndarray, lay: Layout, camp: np.ndarray, used: np.ndarray, manned: np.ndarray
) -> int:
    """`work_counts` of game r: adds its camp pawns per clan and strength to camp [P, 3],
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


@kernel
def work_mask(
    counts: WorkCounts,
    live: np.ndarray,
    seat: np.ndarray,
    rows: np.ndarray,
    loc: np.ndarray,
    up: np.ndarray,
    lay: Layout,
    codec: WorkCodec,
) -> np.ndarray:
    """R5.2-R5.7 legal masks [m, codec.size] of seat[k] in game rows[k] (counts row live[k]):
    `work_legal` per game."""
    m, pawns = len(live), loc.shape[2]
    legal = np.zeros((m, codec.size), dtype=np.bool_)
    place = np.empty(pawns, dtype=np.int64)
    kind = np.empty(pawns, dtype=np.int64)
    acts = np.empty(codec.size, dtype=np.int64)
    for k in range(m):
        work_legal(counts, live[k], seat[k], rows[k], loc, up, lay, codec, legal[k], place, kind,
                   acts)  # fmt: skip
    return legal


@kernel
def work_legal(
    counts: WorkCounts,
    c: int,
    q: int,
    r: int,
    loc: np.ndarray,
    up: np.ndarray,
    lay: Layout,
    codec: WorkCodec,
    legal: np.ndarray,
    place: np.ndarray,
    kind: np.ndarray,
    acts: np.ndarray,
) -> int:
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
            new = True
            for v in range(lay.volcano):
                if counts.used[c, q, v] or new:
                    if not counts.used[c, q, v]:
                        new = False
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


@kernel
def apply_work(
    counts: WorkCounts,
    live: np.ndarray,
    seat: np.ndarray,
    rows: np.ndarray,
    action: np.ndarray,
    pw: Pawns,
    lay: Layout,
    codec: WorkCodec,
    open_pawns: bool,
) -> np.ndarray:
    """Apply work actions and update the derived counts (`work_move` per game). Returns the
    pawn placed per game (-1 for a pass or a swap)."""
    placed = np.full(len(live), -1, dtype=np.int64)
    for k in range(len(live)):
        placed[k] = work_move(counts, live[k], seat[k], rows[k], action[k], pw, lay, codec,
                              open_pawns)  # fmt: skip
    return placed


@kernel
def work_move(
    counts: WorkCounts,
    c: int,
    q: int,
    r: int,
    a: int,
    pw: Pawns,
    lay: Layout,
    codec: WorkCodec,
    open_pawns: bool,
) -> int:
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


STEPS = {Step.WORK_START: work_start, Step.WORK: work}
APPLY = {Step.WORK: apply}
