"""R4 epoch phase for a batch, as steps (`steps.Step`): PICK (a card taken at turn position
pos), DISASTER (a disaster just taken: erosion at once, V5's fixed target), TARGET (its taker
names the clan it hits), LOSS (the victim chooses what it loses: R4.4, C3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moaisim.engine.decisions import Kind
from moaisim.engine.steps import Step
from moaisim.rules.codes import CAMP, RESERVE, TILE_OUT, free_fields
from moaisim.rules.epoch_cards import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN

if TYPE_CHECKING:
    from moaisim.engine.batch.machine import Machine
    from moaisim.engine.steps import Pending


def pick(m: Machine, rows: np.ndarray) -> Pending | None:
    """PICK, R4.1-R4.2: the seat at turn position pos takes a card still on offer; the last in
    order take none when none is left (they move on to the next position, to be run with the
    games already there). After the last position the phase ends (WORK)."""
    s, p = m.state, m.rules.players
    pos = s.step_pos[rows].astype(np.int64)
    end = pos >= p
    if end.any():
        epoch_done(m, rows[end])
        rows, pos = rows[~end], pos[~end]
    can = (s.offer[rows] >= 0).any(axis=1)
    none = np.flatnonzero(~can)
    if len(none):
        if m.log_mask is not None:
            seat = s.turn[rows[none], pos[none]]
            for i in m.logged(rows[none]):  # R4.2: the last in order take none
                m.emit(rows[none][i], "no_card", seat=int(seat[i]))
        s.step_pos[rows[none]] += 1
        rows, pos = rows[can], pos[can]
    if not len(rows):
        return None
    rows, seat = m.seat_order(rows, s.turn[rows, pos].astype(np.int64))
    return m.pending(Step.PICK, rows, seat, s.offer[rows] >= 0)


def apply_pick(m: Machine, pend: Pending, slot: np.ndarray) -> None:
    """The card leaves the offer for the taker's hand; a disaster takes effect at once."""
    s = m.state
    r, q = pend.rows, pend.seat
    cid = s.offer[r, slot].astype(np.int64)
    s.offer[r, slot] = -1
    s.held[r, q] = cid
    if m.log_mask is not None:
        for i in m.logged(r):
            m.emit(r[i], "pick", seat=int(q[i]), card=int(cid[i]))
    hit = m.epoch_cards.disaster[cid]
    s.step_card[r[hit]] = cid[hit]  # R4.3: at once
    s.step[r[hit]] = Step.DISASTER
    s.step_pos[r[~hit]] += 1


def epoch_done(m: Machine, rows: np.ndarray) -> None:
    """R4.1: the card no one takes leaves the game; then the work phase."""
    s = m.state
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(rows[i], "unpicked", cards=[int(c) for c in s.offer[rows[i]] if c >= 0])
    s.offer[rows] = -1
    s.round_held[rows] = s.held[rows]
    m.goto(rows, Step.WORK_START)


def disaster(m: Machine, rows: np.ndarray) -> None:
    """DISASTER, R4.3 and C3: erosion has no target (a supply token covers a free field);
    under V5 the next player in turn order is hit; otherwise the taker names the target."""
    s, p = m.state, m.rules.players
    cid = s.step_card[rows].astype(np.int64)
    pos = s.step_pos[rows].astype(np.int64)
    taker = s.turn[rows, pos].astype(np.int64)
    ero = m.epoch_cards.erosion[cid]
    if ero.any():
        r = rows[ero]
        in_fields = (s.loc[r] == m.rules.layout.fields).sum(axis=(1, 2))
        free = free_fields.py_func(m.rules.layout, s.covered[r], in_fields)
        hit = (s.disaster_supply[r] > 0) & (free > 0)
        s.disaster_supply[r[hit]] -= 1
        s.covered[r[hit]] += 1
        if m.log_mask is not None:
            for i in m.logged(r):
                m.emit(r[i], "erosion", seat=int(taker[ero][i]), covered=bool(hit[i]))
        next_pick(m, r)
    aimed = ~ero
    if not aimed.any():
        return
    if m.rules.has("fixed-disasters"):  # V5: the next player in turn order
        r = rows[aimed]
        target = s.turn[r, (pos[aimed] + 1) % p].astype(np.int64)
        effect(m, r, target)
    else:
        s.step[rows[aimed]] = Step.TARGET


def target(m: Machine, rows: np.ndarray) -> Pending:
    """TARGET, R4.3: the taker names the clan the disaster hits (itself included)."""
    s, p = m.state, m.rules.players
    taker = s.turn[rows, s.step_pos[rows].astype(np.int64)].astype(np.int64)
    legal = np.ones((len(rows), p), dtype=bool)
    return m.pending(Step.TARGET, rows, taker, legal, card=s.step_card[rows].astype(np.int64))


def apply_target(m: Machine, pend: Pending, target: np.ndarray) -> None:
    """R4.3: the named clan becomes the disaster's victim."""
    effect(m, pend.rows, target)


def effect(m: Machine, rows: np.ndarray, target: np.ndarray) -> None:
    """C3 (`epoch_cards.EFFECTS`): a disaster aimed at `target`: fire and fire-boat burn a
    wood, then the victim chooses its loss (LOSS), if it has anything that disaster takes."""
    s = m.state
    cid = s.step_card[rows].astype(np.int64)
    taker = s.turn[rows, s.step_pos[rows].astype(np.int64)].astype(np.int64)
    s.counters["disasters_aimed"][rows, taker] += 1
    s.counters["disasters_suffered"][rows, target] += 1
    s.step_target[rows] = target
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(rows[i], "disaster", seat=int(taker[i]), card=int(cid[i]),
                   target=int(target[i]))  # fmt: skip
    burn = m.epoch_cards.burns[cid] & (s.wood[rows, target] > 0)
    if burn.any():
        r, t = rows[burn], target[burn]
        s.wood[r, t] -= 1
        m.discard_wood(r, 1)
        if m.log_mask is not None:
            for i in m.logged(r):
                m.emit(r[i], "burn", seat=int(t[i]))
    choices = loss_choices(m, rows, target, m.epoch_cards.loss[cid])
    some = choices.any(axis=1)
    s.step[rows[some]] = Step.LOSS
    next_pick(m, rows[~some])


def loss_choices(m: Machine, rows: np.ndarray, seat: np.ndarray, what: np.ndarray) -> np.ndarray:
    """R4.4: what each victim may lose ([n, DISASTER_LOSS size]): a pawn from the board (from
    its camp if none is on it), a built boat, or a Moai tile; none for other disasters."""
    s = m.state
    out = np.zeros((len(rows), m.sizes[Kind.DISASTER_LOSS]), dtype=bool)
    pawn = np.flatnonzero(what == LOSS_PAWN)
    if len(pawn):
        loc = s.loc[rows[pawn], seat[pawn]]
        board = loc >= 0
        out[pawn, : loc.shape[1]] = np.where(board.any(axis=1)[:, None], board, loc == CAMP)
    boat = np.flatnonzero(what == LOSS_BOAT)
    if len(boat):
        built = s.boats[rows[boat], seat[boat]] >= 0
        out[boat, : built.shape[1]] = built
    moai = np.flatnonzero(what == LOSS_MOAI)
    if len(moai):
        tiles = s.moai_owner[rows[moai]] == seat[moai, None]
        out[moai, : tiles.shape[1]] = tiles
    return out


def loss(m: Machine, rows: np.ndarray) -> Pending:
    """LOSS, R4.4: the victim chooses what it loses."""
    s = m.state
    cid = s.step_card[rows].astype(np.int64)
    victim = s.step_target[rows].astype(np.int64)
    what = m.epoch_cards.loss[cid]
    legal = loss_choices(m, rows, victim, what)
    return m.pending(Step.LOSS, rows, victim, legal, what=what, card=cid)


def apply_loss(m: Machine, pend: Pending, pick: np.ndarray) -> None:
    """Famine: the pawn to the reserve; storm, fire-boat: the boat's card leaves the game and
    its pawn goes to camp; topple: the tile leaves the game."""
    s, lay = m.state, m.rules.layout
    rows, seat, what = pend.rows, pend.seat, pend.info["what"]
    pawn = np.flatnonzero(what == LOSS_PAWN)
    if len(pawn):
        r, q, i = rows[pawn], seat[pawn], pick[pawn]
        if m.log_mask is not None:
            for k in m.logged(r):
                where = int(s.loc[r[k], q[k], i[k]])
                m.emit(r[k], "lose_pawn", seat=int(q[k]), pawn=int(i[k]),
                       strength=lay.strength(int(i[k])), at=where)  # fmt: skip
        n = len(r)
        s.move(r, q, i, np.full(n, RESERVE), np.zeros(n, dtype=bool))
    boat = np.flatnonzero(what == LOSS_BOAT)
    if len(boat):
        r, q, slot = rows[boat], seat[boat], pick[boat]
        s.boats[r, q, slot] = -1
        sailor = s.loc[r, q] == (lay.ocean0 + slot)[:, None]
        manned = np.flatnonzero(sailor.any(axis=1))  # the boat's pawn, if any, goes to camp
        n = len(manned)
        i = np.argmax(sailor[manned], axis=1)
        s.move(r[manned], q[manned], i, np.full(n, CAMP), np.zeros(n, dtype=bool))
        if m.log_mask is not None:
            for k in m.logged(r):
                m.emit(r[k], "lose_boat", seat=int(q[k]), slot=int(slot[k]),
                       sailor=np.flatnonzero(sailor[k]).tolist())  # fmt: skip
    moai = np.flatnonzero(what == LOSS_MOAI)
    if len(moai):
        r, q, tile = rows[moai], seat[moai], pick[moai]
        s.moai_owner[r, tile] = TILE_OUT
        if m.log_mask is not None:
            heights = m.rules.components.moai_heights
            for k in m.logged(r):
                m.emit(r[k], "lose_moai", seat=int(q[k]), tile=int(tile[k]),
                       height=heights[tile[k]])  # fmt: skip
    next_pick(m, rows)


def next_pick(m: Machine, rows: np.ndarray) -> None:
    """The disaster is over: the next turn position picks."""
    s = m.state
    pos = s.step_pos[rows].copy()
    m.goto(rows, Step.PICK)
    s.step_pos[rows] = pos + 1


STEPS = {Step.PICK: pick, Step.DISASTER: disaster, Step.TARGET: target, Step.LOSS: loss}
APPLY = {Step.PICK: apply_pick, Step.TARGET: apply_target, Step.LOSS: apply_loss}
