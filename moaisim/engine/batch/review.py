"""R7 review phase for a batch: in turn order, draw (R7.1), rest (R7.2), births (R7.3) and
the boat (R7.4)."""

from __future__ import annotations

import numpy as np
from numba import njit

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.chance import reshuffle_order
from moaisim.engine.decisions import BIRTH_STOP, PAIR_A, PAIR_B, PAIR_STRENGTH, Kind
from moaisim.engine.views import Pawns, set_pawn
from moaisim.rules.codes import CAMP, RESERVE, Layout, holds_pair, strength_of, zone_of


def review_phase(g: BatchCore, rows: np.ndarray) -> None:
    s, p = g.state, g.rules.players
    draw_of = np.array([c.draw for c in g.cards] + [0], dtype=np.int64)  # index -1: no card
    hut_of = np.array([c.hut for c in g.cards] + [0], dtype=np.int64)
    boat_of = np.array([c.is_boat for c in g.cards] + [False])
    for pos in range(p):
        prows, seat = g.seats_at(rows, pos)
        cid = s.held[prows, seat].astype(np.int64)
        draw_cards(g, prows, seat, draw_of[cid])  # R7.1
        rest_rows = np.flatnonzero(~s.last_round[prows])  # R7.2: no rest in the last round
        if len(rest_rows):
            rest(g, prows[rest_rows], seat[rest_rows], hut_of[cid[rest_rows]])
        births(g, prows, seat)  # R7.3
        b = np.flatnonzero(boat_of[cid] & (s.wood[prows, seat] >= 1))  # R7.4
        if len(b):
            build_boats(g, prows[b], seat[b], cid[b])
        s.held[prows, seat] = -1  # the card is kept as a boat or discarded


# --- R7.1 draw ---------------------------------------------------------------------------------
def draw_cards(g: BatchCore, rows: np.ndarray, seat: np.ndarray, n: np.ndarray) -> None:
    """R7.1: draw n cards; an empty deck is replaced by the shuffled discard pile."""
    s = g.state
    logging = g.log_mask is not None
    drawn: list[list[int]] = [[] for _ in rows] if logging else []
    go = np.flatnonzero(n > 0)
    k = 0
    while len(go):
        r = rows[go]
        empty = s.deck_pos[r] >= s.deck_len[r]
        if empty.any():
            e = np.flatnonzero(empty)
            can = s.discard[r[e]].sum(axis=1) > 0
            reshuffle(g, r[e[can]])
            stuck = e[~can]  # nothing left to draw: stop drawing
            if len(stuck):
                keep = np.ones(len(go), dtype=bool)
                keep[stuck] = False
                go, r = go[keep], r[keep]
        q = seat[go]
        t = s.deck[r, s.deck_pos[r]].astype(np.int64)
        s.deck_pos[r] += 1
        s.hand[r, q, t] += 1
        if logging:
            for i, card in zip(go.tolist(), t.tolist(), strict=True):
                drawn[i].append(card)
        k += 1
        go = go[n[go] > k]
    if logging:
        for i in g.logged(rows):
            g.emit(rows[i], "draw", seat=int(seat[i]), cards=drawn[i])


def reshuffle(g: BatchCore, rows: np.ndarray) -> None:
    """R7.1: the discard pile, shuffled, becomes the deck (`chance.reshuffle_order`)."""
    if not len(rows):
        return
    s = g.state
    deck = reshuffle_order(g.rules, g.streams, rows, s.reshuffles[rows], s.discard[rows])
    s.deck[rows] = deck
    s.deck_len[rows] = (deck >= 0).sum(axis=1)
    s.deck_pos[rows] = 0
    s.discard[rows] = 0
    s.reshuffles[rows] += 1
    if g.log_mask is not None:
        for i in g.logged(rows):
            r = rows[i]
            g.emit(r, "reshuffle", deck=s.deck[r, : s.deck_len[r]].tolist())


# --- R7.2 rest ---------------------------------------------------------------------------------
def rest(g: BatchCore, rows: np.ndarray, seat: np.ndarray, hut: np.ndarray) -> None:
    """R7.2: `hut` pawns from the board to camp, taken as evenly as possible across zones."""
    s, lay = g.state, g.rules.layout
    n = len(rows)
    on_board = (s.loc[rows, seat] >= 0).sum(axis=1)
    times = np.minimum(hut, on_board)
    taken = np.zeros((n, 4), dtype=np.int64)
    go = np.flatnonzero(times > 0)
    k = 0
    while len(go):
        r, q = rows[go], seat[go]
        legal = rest_mask(r, q, go, s.loc, taken, lay)
        pawn = g.ask(Kind.REST, q, r, legal)
        at, shown = apply_rest(r, q, go, pawn, s.pawns, taken, lay)
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(
                    r[i],
                    "rest",
                    seat=int(q[i]),
                    pawn=int(pawn[i]),
                    at=int(at[i]),
                    shown=bool(shown[i]),
                )
        k += 1
        go = go[times[go] > k]


@njit(cache=True, nogil=True)
def rest_mask(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    loc: np.ndarray,
    taken: np.ndarray,
    lay: Layout,
) -> np.ndarray:
    """R7.2 masks [m, N]: the clan's board pawns in a zone (among the zones where it has
    pawns) from which it has taken the fewest pawns so far (taken[go[k]] per zone)."""
    m, pawns = len(rows), loc.shape[2]
    legal = np.zeros((m, pawns), dtype=np.bool_)
    for k in range(m):
        r, q, c = rows[k], seat[k], go[k]
        least = 1 << 30
        for i in range(pawns):
            x = loc[r, q, i]
            if x >= 0 and taken[c, zone_of(lay, x)] < least:
                least = taken[c, zone_of(lay, x)]
        for i in range(pawns):
            x = loc[r, q, i]
            legal[k, i] = x >= 0 and taken[c, zone_of(lay, x)] == least
    return legal


@njit(cache=True, nogil=True)
def apply_rest(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    pawn: np.ndarray,
    pw: Pawns,
    taken: np.ndarray,
    lay: Layout,
) -> tuple[np.ndarray, np.ndarray]:
    """R7.2: the pawn goes back to camp, face down; its zone counts one more pawn taken
    (taken[go[k]]). Returns where each pawn was and whether it was face up."""
    m = len(rows)
    at = np.empty(m, dtype=np.int64)
    shown = np.empty(m, dtype=np.bool_)
    for k in range(m):
        r, q, i = rows[k], seat[k], pawn[k]
        at[k] = pw.loc[r, q, i]
        shown[k] = pw.up[r, q, i]
        taken[go[k], zone_of(lay, at[k])] += 1
        set_pawn(pw, r, q, i, CAMP, False)
    return at, shown


# --- R7.3 births -------------------------------------------------------------------------------
def births(g: BatchCore, rows: np.ndarray, seat: np.ndarray) -> None:
    """R7.3: any number of times, two cards for a pawn of the lower card's strength; in the
    last round while a birth is possible (A4)."""
    s, lay = g.state, g.rules.layout
    go = np.arange(len(rows))
    while len(go):
        r, q = rows[go], seat[go]
        legal, more = birth_mask(r, q, s.hand, s.loc, s.last_round, lay)
        if not more.all():
            go, r, q, legal = go[more], r[more], q[more], legal[more]
            if not len(go):
                return
        k = g.ask(Kind.BIRTH, q, r, legal)
        born = k != BIRTH_STOP
        if not born.all():
            go, r, q, k = go[born], r[born], q[born], k[born]
            if not len(go):
                return
        apply_birth(r, q, k, s.hand, s.discard, s.pawns, s.counters["births"], lay)
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(
                    r[i],
                    "birth",
                    seat=int(q[i]),
                    cards=[int(PAIR_A[k[i]]), int(PAIR_B[k[i]])],
                    strength=int(PAIR_STRENGTH[k[i]]),
                )


@njit(cache=True, nogil=True)
def birth_mask(
    rows: np.ndarray,
    seat: np.ndarray,
    hand: np.ndarray,
    loc: np.ndarray,
    last_round: np.ndarray,
    lay: Layout,
) -> tuple[np.ndarray, np.ndarray]:
    """R7.3 masks [m, pairs + 1]: a pair of cards the clan holds whose lower value has a
    pawn of that strength in the clan's reserve; the last action, stop, is legal when any
    pair is, except in the last round, where births are compulsory (A4). Also returns which
    games have a legal pair [m]."""
    m, pairs = len(rows), len(PAIR_A)
    legal = np.zeros((m, pairs + 1), dtype=np.bool_)
    some = np.zeros(m, dtype=np.bool_)
    reserve = np.zeros(3, dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        reserve[:] = 0
        for i in range(loc.shape[2]):
            if loc[r, q, i] == RESERVE:
                reserve[strength_of(lay, i) - 1] += 1
        for x in range(pairs):
            if holds_pair(hand[r, q], PAIR_A[x], PAIR_B[x]) and reserve[PAIR_STRENGTH[x] - 1] > 0:
                legal[k, x] = True
                some[k] = True
        legal[k, pairs] = some[k] and not last_round[r]
    return legal, some


@njit(cache=True, nogil=True)
def apply_birth(
    rows: np.ndarray,
    seat: np.ndarray,
    pair: np.ndarray,
    hand: np.ndarray,
    discard: np.ndarray,
    pw: Pawns,
    births: np.ndarray,
    lay: Layout,
) -> None:
    """R7.3: discard the pair's two cards; the first reserve pawn of the lower card's
    strength goes to the camp."""
    for k in range(len(rows)):
        r, q, x = rows[k], seat[k], pair[k]
        for t in (PAIR_A[x], PAIR_B[x]):
            hand[r, q, t] -= 1
            discard[r, t] += 1
        pawn = (PAIR_STRENGTH[x] - 1) * lay.per_strength
        while pw.loc[r, q, pawn] != RESERVE:
            pawn += 1
        set_pawn(pw, r, q, pawn, CAMP, False)
        births[r, q] += 1


# --- R7.4 boat ---------------------------------------------------------------------------------
def build_boats(g: BatchCore, rows: np.ndarray, seat: np.ndarray, cid: np.ndarray) -> None:
    """R7.4: a clan holding a boat card and a wood may pay the wood to build the boat; it
    keeps the card in its first free boat slot."""
    s = g.state
    build = g.ask(Kind.BOAT, seat, rows, np.ones((len(rows), 2), dtype=bool), card=cid) == 1
    r, q, c = rows[build], seat[build], cid[build]
    s.wood[r, q] -= 1
    g.discard_wood(r, 1)
    slot = np.argmin(s.boats[r, q] >= 0, axis=1)
    s.boats[r, q, slot] = c
    s.counters["boats_built"][r, q] += 1
    if g.log_mask is not None:
        for i in g.logged(r):
            g.emit(r[i], "boat", seat=int(q[i]), card=int(c[i]), slot=int(slot[i]))
