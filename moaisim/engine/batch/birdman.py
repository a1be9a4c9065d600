"""R3 bird-man phase for a batch, as steps (`steps.Step`): ROUND (a round begins, the epoch
cards are revealed), BID (sealed, or V2/V4 open bids one at a time), HILL (the hill order,
tied bidders ordered by the bird-man)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moaisim.engine.steps import Step
from moaisim.engine.views import next_epochs
from moaisim.jit import kernel
from moaisim.rules.codes import N_CARD_TYPES, card_value

if TYPE_CHECKING:
    from moaisim.engine.batch.machine import Machine
    from moaisim.engine.steps import Pending

CARD_VALUES = np.array([card_value.py_func(t) for t in range(N_CARD_TYPES)], dtype=np.int16)


def round_start(m: Machine, rows: np.ndarray) -> None:
    """ROUND: R2, a new round; R3.1-R3.2 the reveal. Then BID."""
    s = m.state
    s.round[rows] += 1
    s.bids[rows] = -1
    if m.keep_rounds:  # the per-round table counts this round's births and starved pawns
        s.round_births[rows] = s.counters["births"][rows]
        s.round_starved[rows] = s.counters["starved"][rows]
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(rows[i], "round", round=int(s.round[rows[i]]))
    reveal(m, rows)
    m.goto(rows, Step.BID)


def reveal(m: Machine, rows: np.ndarray) -> None:
    """R3.1-R3.2 and R8.1: players + 1 cards; the Admiral is set aside and ends the game."""
    s, p = m.state, m.rules.players
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
        s.revealed[rows[go], cid] = True  # R3.1: every player sees it
        adm = m.epoch_cards.admiral[cid]
        admiral[go[adm]] = True
        keep = go[~adm]
        offer[keep, shown[keep]] = cid[~adm]
        shown[keep] += 1
    s.epoch_pos[rows] = pos
    next_epochs(s.epoch_deck, s.public, rows, m.rules)  # R5.9: the next card's back
    s.last_round[rows] |= admiral | (pos >= end)
    s.offer[rows] = offer
    palms = m.epoch_cards.palm[offer].sum(axis=1)  # an empty slot (-1) reads "no card": 0
    c = m.rules.components
    tokens = c.wood_per_palm * palms.astype(np.int64)  # R3.1: `wood_per_palm` per palm
    wood = np.minimum(np.minimum(tokens, s.wood_supply[rows]), c.forest_spaces)
    s.forest_wood[rows] = np.arange(s.forest_wood.shape[1])[None, :] < wood[:, None]
    s.wood_supply[rows] -= wood.astype(np.int16)
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(
                rows[i],
                "reveal",
                cards=[int(c) for c in offer[i] if c >= 0],
                admiral=bool(admiral[i]),
                wood=list(range(int(wood[i]))),
                last_round=bool(s.last_round[rows[i]]),
            )


def bid(m: Machine, rows: np.ndarray) -> Pending:
    """BID, R3.3: sealed bids are asked of every seat at once (each game once per seat, seat
    by seat); open bids (V2/V4) of the seat at bid position pos, face up."""
    s, p = m.state, m.rules.players
    if m.rules.open_bidding:
        seat = s.bid_order[rows, s.step_pos[rows]].astype(np.int64)
        return m.pending(Step.BID, rows, seat, s.hand[rows, seat])
    every = np.tile(rows, p)
    seat = np.repeat(np.arange(p), len(rows))
    return m.pending(Step.BID, every, seat, s.hand[every, seat])


def apply_bid(m: Machine, pend: Pending, bids: np.ndarray) -> None:
    """R3.5: bid cards go to the discard pile, the totals are revealed; after the last bid,
    the hill order (HILL)."""
    s, p = m.state, m.rules.players
    if m.rules.open_bidding:
        pay_bid(m, pend.rows, pend.seat, bids)
        s.step_pos[pend.rows] += 1
        rows = pend.rows[s.step_pos[pend.rows] >= p]
    else:
        n = len(pend.rows) // p  # seat by seat, as the bids were asked
        rows = pend.rows[:n]
        for q in range(p):
            pay_bid(m, rows, np.full(n, q), bids[q * n : (q + 1) * n])
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(rows[i], "bids", totals=s.bids[rows[i]].tolist())
    m.goto(rows, Step.HILL)


def pay_bid(m: Machine, rows: np.ndarray, seat: np.ndarray, bid: np.ndarray) -> None:
    """R3.5: bid cards go to the discard pile; the total is revealed."""
    s = m.state
    s.hand[rows, seat] -= bid
    s.discard[rows] += bid
    s.bids[rows, seat] = bid @ CARD_VALUES
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(
                rows[i],
                "bid",
                seat=int(seat[i]),
                cards=[int(x) for x in bid[i]],
                total=int(s.bids[rows[i], seat[i]]),
            )


def hill(m: Machine, rows: np.ndarray) -> Pending | None:
    """HILL, R3.4 (V4: its own tie rule): bids in descending order, position by position
    (step_pos; the seats placed so far in step_hill). The next group is the unplaced seats
    with the highest bid; while it has more than one seat the bird-man names the next (never
    himself under R3.4 while others remain; under V4 only the very first pick excludes him).
    Rows whose order is complete end the phase (R3.5)."""
    s = m.state
    strict = m.rules.has("open-bidding-strict")
    ask, legal, tied, top = hill_positions(rows, s.step_pos, s.step_hill, s.bids, s.birdman,
                                           strict)  # fmt: skip
    done = s.step_pos[rows] >= m.rules.players
    if done.any():
        hill_done(m, rows[done])
    if not ask.any():
        return None
    r = rows[ask]
    bm = s.birdman[r].astype(np.int64)
    return m.pending(Step.HILL, r, bm, legal[ask], tied=tied[ask], bid=top[ask])


@kernel
def hill_positions(
    rows: np.ndarray,
    pos: np.ndarray,
    hill: np.ndarray,
    bids: np.ndarray,
    birdman: np.ndarray,
    strict: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """R3.4 for the games `rows`: fill hill positions (pos, hill updated in place) while the
    highest unplaced bid is one seat's alone; stop where it is tied. Returns, per game, whether
    the bird-man must name the next seat, and then his legal picks (the tied unplaced seats,
    himself excluded under R3.4 while others remain, under V4 only for the first position),
    the seats tied at that bid (placed or not) and the bid."""
    n, p = len(rows), bids.shape[1]
    ask = np.zeros(n, dtype=np.bool_)
    legal = np.zeros((n, p), dtype=np.bool_)
    tied = np.zeros((n, p), dtype=np.bool_)
    top = np.zeros(n, dtype=np.int64)
    left = np.empty(p, dtype=np.bool_)
    for k in range(n):
        ask[k], top[k] = hill_game(rows[k], pos, hill, bids, birdman, strict, left, legal[k],
                                   tied[k])  # fmt: skip
    return ask, legal, tied, top


@kernel
def hill_game(
    r: int,
    pos: np.ndarray,
    hill: np.ndarray,
    bids: np.ndarray,
    birdman: np.ndarray,
    strict: bool,
    left: np.ndarray,
    legal: np.ndarray,
    tied: np.ndarray,
) -> tuple[bool, int]:
    """`hill_positions` for game r: (the bird-man must name the next seat, the tied bid);
    legal [P] and tied [P] are filled when he must; `left` is a working array [P]."""
    p = bids.shape[1]
    while pos[r] < p:
        left[:] = True
        for j in range(pos[r]):
            left[hill[r, j]] = False
        best = -(1 << 20)
        for q in range(p):
            if left[q] and bids[r, q] > best:
                best = bids[r, q]
        count, only = 0, -1
        for q in range(p):
            if left[q] and bids[r, q] == best:
                count += 1
                only = q
        if count == 1:
            hill[r, pos[r]] = only
            pos[r] += 1
            continue
        bar = not strict or pos[r] == 0
        for q in range(p):
            tied[q] = bids[r, q] == best
            legal[q] = tied[q] and left[q] and not (bar and q == birdman[r])
        return True, best
    return False, 0


def apply_hill(m: Machine, pend: Pending, pick: np.ndarray) -> None:
    """The bird-man's pick takes the next hill position."""
    s = m.state
    r = pend.rows
    s.step_hill[r, s.step_pos[r].astype(np.int64)] = pick
    s.step_pos[r] += 1


def hill_done(m: Machine, rows: np.ndarray) -> None:
    """R3.5 and R2: the new bird-man, the turn order and (V2/V4) next round's bid order;
    then the epoch phase (PICK)."""
    s, p = m.state, m.rules.players
    order = s.step_hill[rows].copy()
    s.order[rows] = order
    birdman = order[:, 0].astype(np.int64)
    s.birdman[rows] = birdman
    s.counters["birdman_rounds"][rows, birdman] += 1
    if m.rules.turn_order == "hill":  # R2
        s.turn[rows] = order
    else:
        s.turn[rows] = (birdman[:, None] + np.arange(p)[None, :]) % p
    s.bid_order[rows] = order  # V2/V4: next round's bids follow this hill order
    s.step_hill[rows] = -1
    if m.log_mask is not None:
        for i in m.logged(rows):
            r = rows[i]
            m.emit(
                r,
                "hill",
                order=[int(x) for x in order[i]],
                birdman=int(birdman[i]),
                turn=s.turn[r].tolist(),
            )
    m.goto(rows, Step.PICK)


STEPS = {Step.ROUND: round_start, Step.BID: bid, Step.HILL: hill}
APPLY = {Step.BID: apply_bid, Step.HILL: apply_hill}
