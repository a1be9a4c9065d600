"""R7 review phase for a batch: in turn order, draw (R7.1), rest (R7.2), births (R7.3) and
the boat (R7.4)."""

from __future__ import annotations

import numpy as np

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import BIRTH_PAIRS, BIRTH_STOP, Kind
from moaisim.engine.kernels import birth_apply, birth_legal, rest_apply, rest_legal
from moaisim.rng import CHANCE
from moaisim.rules.components import N_CARD_TYPES, card_value

PAIR_A = np.array([a for a, _ in BIRTH_PAIRS])
PAIR_B = np.array([b for _, b in BIRTH_PAIRS])
PAIR_STRENGTH = np.array([min(card_value(a), card_value(b)) for a, b in BIRTH_PAIRS])


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
            r, q = prows[b], seat[b]
            legal = np.ones((len(b), 2), dtype=bool)
            build = g.ask(Kind.BOAT, q, r, legal, card=cid[b]) == 1
            r, q, c = r[build], q[build], cid[b][build]
            s.wood[r, q] -= 1
            s.wood_supply[r] += 1
            slot = np.argmin(s.boats[r, q] >= 0, axis=1)
            s.boats[r, q, slot] = c
            s.counters["boats_built"][r, q] += 1
            if g.log_mask is not None:
                for i in g.logged(r):
                    g.emit(r[i], "boat", seat=int(q[i]), card=int(c[i]), slot=int(slot[i]))
        s.held[prows, seat] = -1  # the card is kept as a boat or discarded


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
    """R7.1: the discard pile, shuffled, becomes the deck: one chance key per card of the set
    (canonical ids, type by type); the discarded cards of type t are the first ids of type t."""
    if not len(rows):
        return
    s, c = g.state, g.rules.components
    keys = g.streams.draw(CHANCE, rows, c.n_cards)
    types = np.repeat(np.arange(N_CARD_TYPES), c.cards)
    start = np.concatenate([[0], np.cumsum(c.cards)[:-1]])
    rank = np.arange(c.n_cards) - start[types]  # index of each id within its type
    present = rank[None, :] < s.discard[rows][:, types]
    order = np.argsort(np.where(present, keys, 2.0), axis=1, kind="stable")  # ties by id
    s.deck[rows] = types[order]
    s.deck_len[rows] = present.sum(axis=1)
    s.deck_pos[rows] = 0
    s.discard[rows] = 0
    if g.log_mask is not None:
        for i in g.logged(rows):
            r = rows[i]
            g.emit(r, "reshuffle", deck=s.deck[r, : s.deck_len[r]].tolist())


def rest(g: BatchCore, rows: np.ndarray, seat: np.ndarray, hut: np.ndarray) -> None:
    """R7.2: `hut` pawns from the board to camp, taken as evenly as possible across zones."""
    s = g.state
    n = len(rows)
    on_board = (s.loc[rows, seat] >= 0).sum(axis=1)
    times = np.minimum(hut, on_board)
    taken = np.zeros((n, 4), dtype=np.int64)
    go = np.flatnonzero(times > 0)
    k = 0
    while len(go):
        r, q = rows[go], seat[go]
        legal = rest_legal(r, q, go, s.loc, g.zone, taken)
        pawn = g.ask(Kind.REST, q, r, legal)
        at, shown = rest_apply(r, q, go, pawn, s.loc, s.up, g.zone, taken)
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


def births(g: BatchCore, rows: np.ndarray, seat: np.ndarray) -> None:
    """R7.3: any number of times, two cards for a pawn of the lower card's strength."""
    s, per = g.state, g.rules.components.pawns_per_strength
    go = np.arange(len(rows))
    while len(go):
        r, q = rows[go], seat[go]
        legal, more = birth_legal(r, q, s.hand, s.loc, PAIR_A, PAIR_B, PAIR_STRENGTH, per)
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
        birth_apply(
            r, q, k, s.hand, s.discard, s.loc, s.counters["births"],
            PAIR_A, PAIR_B, PAIR_STRENGTH, per,
        )  # fmt: skip
        if g.log_mask is not None:
            for i in g.logged(r):
                g.emit(
                    r[i],
                    "birth",
                    seat=int(q[i]),
                    cards=[int(PAIR_A[k[i]]), int(PAIR_B[k[i]])],
                    strength=int(PAIR_STRENGTH[k[i]]),
                )
