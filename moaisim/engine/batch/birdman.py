"""R3 bird-man phase for a batch: reveal, bids (sealed or V2/V4 open), hill order."""

from __future__ import annotations

import numpy as np

from moaisim.engine.batch.core import BatchCore
from moaisim.engine.decisions import Kind
from moaisim.engine.views import next_epochs
from moaisim.rules.codes import N_CARD_TYPES, card_value

CARD_VALUES = np.array([card_value.py_func(t) for t in range(N_CARD_TYPES)], dtype=np.int16)


def birdman_phase(g: BatchCore, rows: np.ndarray) -> None:
    s = g.state
    s.round[rows] += 1
    s.bids[rows] = -1
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(rows[i], "round", round=int(s.round[rows[i]]))
    reveal(g, rows)
    bidding(g, rows)


def reveal(g: BatchCore, rows: np.ndarray) -> None:
    """R3.1-R3.2 and R8.1: players + 1 cards; the Admiral is set aside and ends the game."""
    s, p = g.state, g.rules.players
    admiral_of = np.array([c.is_admiral for c in g.cards])
    palm_of = np.array([c.palm for c in g.cards], dtype=np.int16)
    n = len(rows)
    offer = np.full((n, p + 1), -1, dtype=np.int16)
    shown = np.zeros(n, dtype=np.int64)
    admiral = np.zeros(n, dtype=bool)
    pos, end = s.epoch_pos[rows].astype(np.int64), s.epoch_len[rows].astype(np.int64)
    while True:
        go = np.flatnonzero((shown < p + 1) & (pos < end))
        if not len(go):
            break
        cid = s.epoch_deck[rows[go], pos[go]]
        pos[go] += 1
        adm = admiral_of[cid]
        admiral[go[adm]] = True
        keep = go[~adm]
        offer[keep, shown[keep]] = cid[~adm]
        shown[keep] += 1
    s.epoch_pos[rows] = pos
    next_epochs(s.epoch_deck, s.public, rows, g.rules)  # R5.9: the next card's back
    s.last_round[rows] |= admiral | (pos >= end)
    s.offer[rows] = offer
    palms = np.where(offer >= 0, palm_of[np.maximum(offer, 0)], 0).sum(axis=1)
    wood = np.minimum(np.minimum(palms, s.wood_supply[rows]), g.rules.components.forest_spaces)
    s.forest_wood[rows] = np.arange(s.forest_wood.shape[1])[None, :] < wood[:, None]
    s.wood_supply[rows] -= wood.astype(np.int16)
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(
                rows[i],
                "reveal",
                cards=[int(c) for c in offer[i] if c >= 0],
                admiral=bool(admiral[i]),
                wood=list(range(int(wood[i]))),
                last_round=bool(s.last_round[rows[i]]),
            )


def bidding(g: BatchCore, rows: np.ndarray) -> None:
    """R3.3 sealed bids (V2/V4: face up, one at a time, in bid order), then R3.4-R3.5."""
    s, p = g.state, g.rules.players
    if g.rules.open_bidding:
        for k in range(p):
            seat = s.bid_order[rows, k].astype(np.int64)
            hand = s.hand[rows, seat]
            bid = g.ask(Kind.BID, seat, rows, hand)
            pay_bid(g, rows, seat, bid)
    else:
        bids = [g.ask(Kind.BID, q, rows, s.hand[rows, q]) for q in range(p)]
        for q in range(p):
            pay_bid(g, rows, np.full(len(rows), q), bids[q])
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(rows[i], "bids", totals=s.bids[rows[i]].tolist())
    hill_order(g, rows)


def pay_bid(g: BatchCore, rows: np.ndarray, seat: np.ndarray, bid: np.ndarray) -> None:
    """R3.5: bid cards go to the discard pile; the total is revealed."""
    s = g.state
    s.hand[rows, seat] -= bid
    s.discard[rows] += bid
    s.bids[rows, seat] = bid @ CARD_VALUES
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(
                rows[i],
                "bid",
                seat=int(seat[i]),
                cards=[int(x) for x in bid[i]],
                total=int(s.bids[rows[i], seat[i]]),
            )


def hill_order(g: BatchCore, rows: np.ndarray) -> None:
    """R3.4 (V4: its own tie rule): bids in descending order, ties ordered by the bird-man.

    Position by position: the next group is the unplaced seats with the highest bid; while it
    has more than one seat the bird-man names the next (never himself under R3.4 while others
    remain; under V4 only the very first pick excludes him).
    """
    s, p = g.state, g.rules.players
    n = len(rows)
    strict = g.rules.has("open-bidding-strict")
    bids = s.bids[rows].astype(np.int64)
    birdman = s.birdman[rows].astype(np.int64)
    ar = np.arange(n)
    left = np.ones((n, p), dtype=bool)
    order = np.zeros((n, p), dtype=np.int8)
    for k in range(p):
        top = np.where(left, bids, -(1 << 20)).max(axis=1)
        tied = bids == top[:, None]
        group = tied & left
        size = group.sum(axis=1)
        pick = np.argmax(group, axis=1)
        ask = np.flatnonzero(size > 1)
        if len(ask):
            legal = group[ask].copy()
            bm = birdman[ask]
            if not strict:
                legal[np.arange(len(ask)), bm] = False  # R3.4: he puts himself last of them
            elif k == 0:
                legal[np.arange(len(ask)), bm] = False  # V4: not first when tied for first
            pick[ask] = g.ask(Kind.ORDER_TIES, bm, rows[ask], legal, tied=tied[ask], bid=top[ask])
        order[:, k] = pick
        left[ar, pick] = False
    s.order[rows] = order
    birdman = order[:, 0].astype(np.int64)
    s.birdman[rows] = birdman
    s.counters["birdman_rounds"][rows, birdman] += 1
    if g.rules.turn_order == "hill":  # R2
        s.turn[rows] = order
    else:
        s.turn[rows] = (birdman[:, None] + np.arange(p)[None, :]) % p
    s.bid_order[rows] = order  # V2/V4: next round's bids follow this hill order
    if g.log_mask is not None:
        for i in g.logged(rows):
            r = rows[i]
            g.emit(
                r,
                "hill",
                order=[int(x) for x in order[i]],
                birdman=int(birdman[i]),
                turn=s.turn[r].tolist(),
            )
