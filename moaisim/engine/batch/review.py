"""R7 review phase for a batch, as steps (`steps.Step`): in turn order, DRAW (R7.1), REST
(R7.2), BIRTH (R7.3) and BOAT (R7.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moaisim.engine.chance import reshuffle_order
from moaisim.engine.decisions import BIRTH_STOP, PAIR_A, PAIR_B, PAIR_STRENGTH
from moaisim.engine.steps import Step
from moaisim.engine.views import Pawns, set_pawn
from moaisim.jit import kernel
from moaisim.rules.codes import (
    CAMP,
    OFF_BOARD,
    RESERVE,
    Layout,
    holds_pair,
    strength_of,
    zone_of,
)

if TYPE_CHECKING:
    from moaisim.engine.batch.machine import Machine
    from moaisim.engine.steps import Pending


def draw(m: Machine, rows: np.ndarray) -> None:
    """DRAW, R7.1: in turn order (step_pos), a clan draws as many cards as its epoch card
    says; then rests (REST, not in the last round), births (BIRTH). After the last position,
    the round ends (ROUND_END)."""
    s, p, t = m.state, m.rules.players, m.epoch_cards
    pos = s.step_pos[rows].astype(np.int64)
    end = pos >= p
    if end.any():
        m.goto(rows[end], Step.ROUND_END)
        rows, pos = rows[~end], pos[~end]
        if not len(rows):
            return
    seat = s.turn[rows, pos].astype(np.int64)
    cid = s.held[rows, seat].astype(np.int64)
    draw_cards(m, rows, seat, t.draw[cid])  # R7.1
    last = s.last_round[rows]
    on_board = (s.loc[rows, seat] >= 0).sum(axis=1)
    times = np.where(last, 0, np.minimum(t.hut[cid], on_board))  # R7.2: no rest in the last
    s.step_left[rows] = times
    s.step[rows] = np.where(times > 0, Step.REST, Step.BIRTH)


# --- R7.1 draw ---------------------------------------------------------------------------------
def draw_cards(g: Machine, rows: np.ndarray, seat: np.ndarray, n: np.ndarray) -> None:
    """R7.1: draw n cards; an empty deck is replaced by the shuffled discard pile (none left
    there either: the clan stops drawing)."""
    s = g.state
    n = n.astype(np.int64)
    done = np.zeros(len(rows), dtype=np.int64)
    drawn = np.full((len(rows), max(int(n.max(initial=0)), 1)), -1, dtype=np.int64)
    go = np.flatnonzero(n > 0)
    while len(go):
        take_cards(rows, seat, n, go, done, s.deck, s.deck_pos, s.deck_len, s.hand, drawn)
        go = go[done[go] < n[go]]  # their deck ran out
        if not len(go):
            break
        go = go[s.discard[rows[go]].sum(axis=1) > 0]
        reshuffle(g, rows[go])
    if g.log_mask is not None:
        for i in g.logged(rows):
            g.emit(rows[i], "draw", seat=int(seat[i]), cards=drawn[i, : done[i]].tolist())


@kernel
def take_cards(
    rows: np.ndarray,
    seat: np.ndarray,
    n: np.ndarray,
    go: np.ndarray,
    done: np.ndarray,
    deck: np.ndarray,
    deck_pos: np.ndarray,
    deck_len: np.ndarray,
    hand: np.ndarray,
    drawn: np.ndarray,
) -> None:
    """R7.1 for the entries `go`: draw from the top of the deck into the hand until n[k]
    cards are drawn (done[k] so far, recorded in drawn[k]) or the deck is empty."""
    for k in go:
        r, q = rows[k], seat[k]
        while done[k] < n[k] and deck_pos[r] < deck_len[r]:
            drawn[k, done[k]] = draw_card(r, q, deck, deck_pos, hand)
            done[k] += 1


@kernel
def draw_card(r: int, q: int, deck: np.ndarray, deck_pos: np.ndarray, hand: np.ndarray) -> int:
    """R7.1: seat q of game r draws the deck's top card (the deck is not empty); returns its
    type."""
    t = deck[r, deck_pos[r]]
    deck_pos[r] += 1
    hand[r, q, t] += 1
    return t


def reshuffle(g: Machine, rows: np.ndarray) -> None:
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
def rest(m: Machine, rows: np.ndarray) -> Pending:
    """REST, R7.2: step_left pawns from the board to camp, one at a time, taken as evenly as
    possible across zones (step_taken: rested so far, per zone)."""
    s = m.state
    seat = s.turn[rows, s.step_pos[rows].astype(np.int64)].astype(np.int64)
    rows, seat = m.seat_order(rows, seat)
    legal = rest_mask(rows, seat, rows, s.loc, s.step_taken, m.rules.layout)
    return m.pending(Step.REST, rows, seat, legal)


def apply_resting(m: Machine, pend: Pending, pawn: np.ndarray) -> None:
    """The pawn goes back to camp; after the last, births (BIRTH)."""
    s = m.state
    r, q = pend.rows, pend.seat
    at, shown = apply_rest(r, q, r, pawn, s.pawns, s.step_taken, m.rules.layout)
    if m.log_mask is not None:
        for i in m.logged(r):
            m.emit(r[i], "rest", seat=int(q[i]), pawn=int(pawn[i]), at=int(at[i]),
                   shown=bool(shown[i]))  # fmt: skip
    s.step_left[r] -= 1
    done = r[s.step_left[r] == 0]
    s.step[done] = Step.BIRTH
    s.step_taken[done] = 0


@kernel
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
    acts = np.zeros(pawns, dtype=np.int64)
    for k in range(m):
        rest_legal(rows[k], seat[k], loc, taken[go[k]], lay, legal[k], acts)
    return legal


@kernel
def rest_legal(
    r: int,
    q: int,
    loc: np.ndarray,
    taken: np.ndarray,
    lay: Layout,
    legal: np.ndarray,
    acts: np.ndarray,
) -> int:
    """`rest_mask` for seat q in game r: its mask [N] (given cleared; taken [4]: pawns
    rested per zone). The legal pawns are also listed in ascending order in `acts` [N];
    returns how many there are (the compiled policies score only those)."""
    pawns = loc.shape[2]
    least = 1 << 30
    for i in range(pawns):  # acts[i]: pawn i's zone for now (OFF_BOARD off the board)
        z = zone_of(lay, loc[r, q, i])
        acts[i] = z
        if z != OFF_BOARD and taken[z] < least:
            least = taken[z]
    n = 0
    for i in range(pawns):  # the list overwrites the zones behind the one read (n <= i)
        z = acts[i]
        if z != OFF_BOARD and taken[z] == least:
            legal[i] = True
            acts[n] = i
            n += 1
    return n


@kernel
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
        rest_one(r, q, i, pw, taken[go[k]], lay)
    return at, shown


@kernel
def rest_one(r: int, q: int, i: int, pw: Pawns, taken: np.ndarray, lay: Layout) -> None:
    """R7.2: seat q's pawn i of game r goes back to camp, face down; its zone counts one more
    pawn taken (taken [4])."""
    taken[zone_of(lay, pw.loc[r, q, i])] += 1
    set_pawn(pw, r, q, i, CAMP, False)


# --- R7.3 births -------------------------------------------------------------------------------
def birth(m: Machine, rows: np.ndarray) -> Pending | None:
    """BIRTH, R7.3: any number of times, two cards for a pawn of the lower card's strength; in
    the last round while a birth is possible (A4). Then the boat (R7.4)."""
    s = m.state
    seat = s.turn[rows, s.step_pos[rows].astype(np.int64)].astype(np.int64)
    rows, seat = m.seat_order(rows, seat)
    legal, more = birth_mask(rows, seat, s.hand, s.loc, s.last_round, m.rules.layout)
    boat_or_next(m, rows[~more], seat[~more])
    if not more.any():
        return None
    return m.pending(Step.BIRTH, rows[more], seat[more], legal[more])


def apply_births(m: Machine, pend: Pending, k: np.ndarray) -> None:
    """A birth (`apply_birth`), or stop: the boat."""
    s = m.state
    r, q = pend.rows, pend.seat
    stop = k == BIRTH_STOP
    boat_or_next(m, r[stop], q[stop])
    born = np.flatnonzero(~stop)
    if not len(born):
        return
    r, q, k = r[born], q[born], k[born]
    apply_birth(r, q, k, s.hand, s.discard, s.pawns, s.counters["births"], m.rules.layout)
    if m.log_mask is not None:
        for i in m.logged(r):
            m.emit(r[i], "birth", seat=int(q[i]), cards=[int(PAIR_A[k[i]]), int(PAIR_B[k[i]])],
                   strength=int(PAIR_STRENGTH[k[i]]))  # fmt: skip


@kernel
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
    acts = np.zeros(pairs + 1, dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        reserve_of(r, q, loc, lay, reserve)
        some[k] = birth_legal(hand[r, q], reserve, last_round[r], legal[k], acts) > 0
    return legal, some


@kernel
def reserve_of(r: int, q: int, loc: np.ndarray, lay: Layout, reserve: np.ndarray) -> None:
    """R7.3: how many pawns of each strength seat q of game r has in its reserve
    (reserve [3], by strength - 1)."""
    reserve[:] = 0
    for i in range(loc.shape[2]):
        if loc[r, q, i] == RESERVE:
            reserve[strength_of(lay, i) - 1] += 1


@kernel
def birth_legal(
    hand: np.ndarray, reserve: np.ndarray, last_round: bool, legal: np.ndarray, acts: np.ndarray
) -> int:
    """`birth_mask` for a clan holding `hand` (counts per card type) with `reserve` pawns per
    strength (`reserve_of`): its mask [pairs + 1] (given cleared). The legal actions are also
    listed in ascending order in `acts` [pairs + 1]; returns how many there are (0: no pair
    is legal, and neither is stop)."""
    pairs = len(PAIR_A)
    n = 0
    for x in range(pairs):
        if reserve[PAIR_STRENGTH[x] - 1] > 0 and holds_pair(hand, PAIR_A[x], PAIR_B[x]):
            legal[x] = True
            acts[n] = x
            n += 1
    if n > 0 and not last_round:
        legal[pairs] = True
        acts[n] = pairs
        n += 1
    return n


@kernel
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
        birth_one(rows[k], seat[k], pair[k], hand, discard, pw, births, lay)


@kernel
def birth_one(
    r: int,
    q: int,
    x: int,
    hand: np.ndarray,
    discard: np.ndarray,
    pw: Pawns,
    births: np.ndarray,
    lay: Layout,
) -> None:
    """`apply_birth` for seat q's pair x in game r."""
    for t in (PAIR_A[x], PAIR_B[x]):
        hand[r, q, t] -= 1
        discard[r, t] += 1
    pawn = (PAIR_STRENGTH[x] - 1) * lay.per_strength
    while pw.loc[r, q, pawn] != RESERVE:
        pawn += 1
    set_pawn(pw, r, q, pawn, CAMP, False)
    births[r, q] += 1


# --- R7.4 boat ---------------------------------------------------------------------------------
def boat_or_next(m: Machine, rows: np.ndarray, seat: np.ndarray) -> None:
    """R7.4: a clan holding a boat card and a wood may build the boat (BOAT); otherwise its
    card is discarded and the next turn position draws."""
    s = m.state
    cid = s.held[rows, seat].astype(np.int64)
    can = m.epoch_cards.boat[cid] & (s.wood[rows, seat] >= 1)
    s.step[rows[can]] = Step.BOAT
    s.step_card[rows[can]] = cid[can]
    next_review(m, rows[~can], seat[~can])


def boat(m: Machine, rows: np.ndarray) -> Pending:
    """BOAT, R7.4: 1 to pay a wood and build the boat, 0 not to."""
    s = m.state
    seat = s.turn[rows, s.step_pos[rows].astype(np.int64)].astype(np.int64)
    legal = np.ones((len(rows), 2), dtype=bool)
    return m.pending(Step.BOAT, rows, seat, legal, card=s.step_card[rows].astype(np.int64))


def apply_boat(m: Machine, pend: Pending, build: np.ndarray) -> None:
    """The clan keeps the card in its first free boat slot and pays a wood."""
    s = m.state
    yes = build == 1
    r, q, c = pend.rows[yes], pend.seat[yes], pend.info["card"][yes]
    s.wood[r, q] -= 1
    m.discard_wood(r, 1)
    slot = np.argmin(s.boats[r, q] >= 0, axis=1)
    s.boats[r, q, slot] = c
    s.counters["boats_built"][r, q] += 1
    if m.log_mask is not None:
        for i in m.logged(r):
            m.emit(r[i], "boat", seat=int(q[i]), card=int(c[i]), slot=int(slot[i]))
    next_review(m, pend.rows, pend.seat)


def next_review(m: Machine, rows: np.ndarray, seat: np.ndarray) -> None:
    """The card is kept as a boat or discarded; the next turn position draws."""
    s = m.state
    s.held[rows, seat] = -1
    pos = s.step_pos[rows].copy()
    m.goto(rows, Step.DRAW)
    s.step_pos[rows] = pos + 1


STEPS = {Step.DRAW: draw, Step.REST: rest, Step.BIRTH: birth, Step.BOAT: boat}
APPLY = {Step.REST: apply_resting, Step.BIRTH: apply_births, Step.BOAT: apply_boat}
