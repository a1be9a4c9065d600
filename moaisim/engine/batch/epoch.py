"""R4 epoch phase for a batch: picks in turn order, disasters at once (R4.3-R4.4, C3, V5)."""

from __future__ import annotations

import numpy as np

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN, Kind
from moaisim.rules.codes import CAMP, RESERVE, TILE_OUT, free_fields


def epoch_phase(g: BatchCore, rows: np.ndarray) -> None:
    s, p = g.state, g.rules.players
    ctype = np.array([c.type for c in g.cards])
    disaster = np.array([c.is_disaster for c in g.cards])
    for pos in range(p):
        prows, seat = g.seats_at(rows, pos)
        legal = s.offer[prows] >= 0
        can = legal.any(axis=1)
        if g.log_mask is not None:
            for i in g.logged(prows):
                if not can[i]:  # R4.2: the last in order take none
                    g.emit(prows[i], "no_card", seat=int(seat[i]))
        pick = np.flatnonzero(can)
        if not len(pick):
            continue
        r, q = prows[pick], seat[pick]
        slot = g.ask(Kind.PICK_EPOCH, q, r, legal[pick])
        cid = s.offer[r, slot].astype(np.int64)
        s.offer[r, slot] = -1
        s.held[r, q] = cid
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(r[i], "pick", seat=int(q[i]), card=int(cid[i]))
        hit = np.flatnonzero(disaster[cid])
        if len(hit):  # R4.3: at once
            disasters(g, r[hit], q[hit], pos, cid[hit], ctype[cid[hit]])
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(rows[i], "unpicked", cards=[int(c) for c in s.offer[rows[i]] if c >= 0])
    s.offer[rows] = -1  # R4.1: the card no one takes leaves the game


def disasters(
    g: BatchCore, rows: np.ndarray, taker: np.ndarray, pos: int, cid: np.ndarray, kind: np.ndarray
) -> None:
    """R4.3-R4.4 and C3 for games where `taker` has just taken disaster card `cid`."""
    s, p = g.state, g.rules.players
    ero = kind == "erosion"
    if ero.any():  # no target: a supply token covers a free field
        r = rows[ero]
        in_fields = (s.loc[r] == g.rules.layout.fields).sum(axis=(1, 2))
        free = free_fields.py_func(g.rules.layout, s.covered[r], in_fields)
        hit = (s.disaster_supply[r] > 0) & (free > 0)
        s.disaster_supply[r[hit]] -= 1
        s.covered[r[hit]] += 1
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(r[i], "erosion", seat=int(taker[ero][i]), covered=bool(hit[i]))
    aimed = np.flatnonzero(~ero)
    if not len(aimed):
        return
    rows, taker, cid, kind = rows[aimed], taker[aimed], cid[aimed], kind[aimed]
    if g.rules.has("fixed-disasters"):  # V5: the next player in turn order
        target = s.turn[rows, (pos + 1) % p].astype(np.int64)
    else:
        legal = np.ones((len(rows), p), dtype=bool)
        target = g.ask(Kind.DISASTER_TARGET, taker, rows, legal, card=cid)
    s.counters["disasters_aimed"][rows, taker] += 1
    s.counters["disasters_suffered"][rows, target] += 1
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(rows[i], "disaster", seat=int(taker[i]), card=int(cid[i]), target=int(target[i]))
    burn = ((kind == "fire") | (kind == "fire-boat")) & (s.wood[rows, target] > 0)
    if burn.any():
        r, t = rows[burn], target[burn]
        s.wood[r, t] -= 1
        g.discard_wood(r, 1)
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(r[i], "burn", seat=int(t[i]))
    boat = (kind == "fire-boat") | (kind == "storm")
    if boat.any():
        lose_boat(g, rows[boat], target[boat], cid[boat])
    famine = kind == "famine"
    if famine.any():
        lose_pawn(g, rows[famine], target[famine], cid[famine])
    topple = kind == "topple"
    if topple.any():
        lose_moai(g, rows[topple], target[topple], cid[topple])


def ask_loss(
    g: BatchCore,
    rows: np.ndarray,
    seat: np.ndarray,
    cid: np.ndarray,
    choices: np.ndarray,
    what: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """R4.4: the victim `seat` picks what it loses among `choices` ([n, k] pawns, boat slots
    or tiles). Games where it has nothing to lose are left out. Returns (rows, seats, pick)."""
    some = np.flatnonzero(choices.any(axis=1))
    rows, seat, cid, choices = rows[some], seat[some], cid[some], choices[some]
    if not len(rows):
        return rows, seat, np.zeros(0, dtype=np.int64)
    legal = np.zeros((len(rows), g.sizes[Kind.DISASTER_LOSS]), dtype=bool)
    legal[:, : choices.shape[1]] = choices
    info = {"what": np.full(len(rows), what), "card": cid}
    return rows, seat, g.ask(Kind.DISASTER_LOSS, seat, rows, legal, **info)


def lose_pawn(g: BatchCore, rows: np.ndarray, seat: np.ndarray, cid: np.ndarray) -> None:
    """Famine: a pawn from the board, or from the camp if none is on it, to the reserve."""
    s = g.state
    loc = s.loc[rows, seat]
    board = loc >= 0
    pawns = np.where(board.any(axis=1)[:, None], board, loc == CAMP)
    rows, seat, pawn = ask_loss(g, rows, seat, cid, pawns, LOSS_PAWN)
    if g.log_mask is not None:
        lay = g.rules.layout
        for i in g.logged(rows):
            g.emit(
                rows[i],
                "lose_pawn",
                seat=int(seat[i]),
                pawn=int(pawn[i]),
                strength=lay.strength(int(pawn[i])),
                at=int(s.loc[rows[i], seat[i], pawn[i]]),
            )
    n = len(rows)
    s.move(rows, seat, pawn, np.full(n, RESERVE), np.zeros(n, dtype=bool))


def lose_boat(g: BatchCore, rows: np.ndarray, seat: np.ndarray, cid: np.ndarray) -> None:
    """Storm, fire-boat: the victim picks a boat; its card leaves the game, its pawn to camp."""
    s, lay = g.state, g.rules.layout
    built = s.boats[rows, seat] >= 0
    rows, seat, slot = ask_loss(g, rows, seat, cid, built, LOSS_BOAT)
    s.boats[rows, seat, slot] = -1
    sailor = s.loc[rows, seat] == (lay.ocean0 + slot)[:, None]
    manned = np.flatnonzero(sailor.any(axis=1))  # the boat's pawn, if any, goes to camp
    n = len(manned)
    pawn = np.argmax(sailor[manned], axis=1)
    s.move(rows[manned], seat[manned], pawn, np.full(n, CAMP), np.zeros(n, dtype=bool))
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(
                rows[i],
                "lose_boat",
                seat=int(seat[i]),
                slot=int(slot[i]),
                sailor=np.flatnonzero(sailor[i]).tolist(),
            )


def lose_moai(g: BatchCore, rows: np.ndarray, seat: np.ndarray, cid: np.ndarray) -> None:
    """Topple: the victim picks one of its Moai tiles; it leaves the game."""
    s = g.state
    tiles = s.moai_owner[rows] == seat[:, None]
    rows, seat, tile = ask_loss(g, rows, seat, cid, tiles, LOSS_MOAI)
    s.moai_owner[rows, tile] = TILE_OUT
    if g.log_mask is not None:
        heights = g.rules.components.moai_heights
        for i in g.logged(rows):
            g.emit(
                rows[i], "lose_moai", seat=int(seat[i]), tile=int(tile[i]), height=heights[tile[i]]
            )
