"""Rapa Nui's fast machine: each game of a batch played on by compiled kernels, from wherever
its cursor stands to its end or to a decision a Python seat takes (docs/rapa-nui-rules.md; the
same rules as `reference`, step for step, so that both play the same games from a seed).

The state of B games is one record of arrays (`Arrays`, made by `batch.setup`); the rules'
figures are another (`Consts`). The cursor of a game (`cur[r]`) says which step it is in and
how far (the seat asked next, the cards taken so far...); a step that must ask a seat calls
`decide`, which answers with the seat's compiled policy (`RANDOM`: the base class's uniform
choice, drawing from the seat's own stream as `SeatRandom` does) or, for a Python seat
(`PAUSE`), records the question (`wait`, `pend_legal`, `pend_kind`) and pauses the game: the
step returns, changing nothing, and is entered again from its start once the answer waits in
the seat's slot (`filled`, `slot`). A decision with one legal action is taken without asking
and draws nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from moaisim.games.rapa_nui.engine.learned import ranked
from moaisim.games.rapa_nui.engine.policy import choose, narrow
from moaisim.games.rapa_nui.rules.codes import (
    BUY_NOTHING,
    HG,
    LUMBERJACK,
    MAX_GROUP,
    MOAI,
    N_FOODS,
    N_KINDS,
    PLAY_HG,
    PLAY_LUMBERJACK,
    PLAY_MOAI,
    PLAY_PRIEST,
    PRIEST,
)
from moaisim.games.rapa_nui.rules.parameters import SIMPLE
from moaisim.games.rapa_nui.rules.scoring import sacrifice_price, score, score_parts, takes_bonus
from moaisim.jit import kernel
from moaisim.rng import unit

#: The steps of a game (`cur[r, C_STEP]`); TOO_LONG: stopped, broken, past its rules' bound
#: on a game's length (`Consts.max_turns`), which `batch.Batch` raises as a `GameLengthError`.
START, BUY, PLAY, SACRIFICE, OFFERING, TAKE, EVALUATE, TURN_END, OVER, TOO_LONG = range(10)
#: The cursor's columns: the step; the seat or place within it; the cards taken so far; the
#: first column taken (-1: none yet); the cards to take; the evaluation's phase.
C_STEP, C_POS, C_COUNT, C_FIRST, C_NEED, C_PHASE = range(6)
#: The decision kinds as ints, in `decisions.Kind`'s order.
K_START, K_BUY, K_PLAY, K_DISCARD, K_SACRIFICE, K_OFFERING, K_TAKE, K_INCOME, K_BONUS = range(9)
#: The policy families (`Lineup.family`): the base class's uniform choice, the heuristic
#: (`policy.choose`, with the seat's weights), a learned ranker (`learned.ranked`, the
#: seat's model `Lineup.model`), a Python seat's answer.
RANDOM, HEURISTIC, LEARNED, PAUSE = 0, 1, 2, 3


class Arrays(NamedTuple):
    """The state of a batch of B games (P seats, C columns of depth D, N cards)."""

    hand: np.ndarray  # [B, P, 7] cards of each kind
    village: np.ndarray  # [B, P, 7]
    taken: np.ndarray  # [B, P, 7] the public record (R10.3)
    played: np.ndarray  # [B, P, 7]
    discarded: np.ndarray  # [B, P, 7]
    stock: np.ndarray  # [B, P, 4]
    down: np.ndarray  # [B, P, 4] face-down sacrifices by owner (hidden)
    bought: np.ndarray  # [B, P, 4]
    gained: np.ndarray  # [B, P, 4]
    given: np.ndarray  # [B, P, 4]
    wood: np.ndarray  # [B, P]
    glory: np.ndarray  # [B, P]
    turns: np.ndarray  # [B, P]
    supply: np.ndarray  # [B, 4]
    stone: np.ndarray  # [B, 4] face-up sacrifices
    out: np.ndarray  # [B, 7] discarded out of the game
    columns: np.ndarray  # [B, C, D] most covered first
    col_size: np.ndarray  # [B, C]
    pile: np.ndarray  # [B, N] the draw pile, top at pile_pos
    pile_pos: np.ndarray  # [B]
    pile_len: np.ndarray  # [B]
    turn: np.ndarray  # [B]
    active: np.ndarray  # [B]
    revealed: np.ndarray  # [B] -1: none this turn
    passes: np.ndarray  # [B]
    pile_out: np.ndarray  # [B] bool
    cur: np.ndarray  # [B, 6] the cursor
    seat_keys: np.ndarray  # [B, P] uint64
    seat_pos: np.ndarray  # [B, P] uint64
    wait: np.ndarray  # [B, P] bool: the seat waits for Python's answer
    slot: np.ndarray  # [B, P] its answer
    filled: np.ndarray  # [B, P] bool: an answer is in the slot
    pend_legal: np.ndarray  # [B, A] bool: the waiting question's legal actions
    pend_kind: np.ndarray  # [B]
    paused: np.ndarray  # [B] bool
    track: np.ndarray  # [B, R, P, 5] per round: score, Moai, glory, wood, stock (`keep_rounds`)
    track_rounds: np.ndarray  # [B] rounds recorded
    down_sum: np.ndarray  # [B, 4] scratch: the face-down cards of each type, all seats


#: The rules' figures and options the kernels read, field by field (`Consts`), but the simple
#: rule parameters, which follow them: one int field each, named and filled from its record
#: (`parameters.SIMPLE`: `c.moai_cost`, `c.moai_glory`...; docs/design.md, "Adding a rule
#: parameter").
CONSTS: tuple[tuple[str, type], ...] = (
    ("players", int),
    ("columns", int),
    ("depth", int),
    ("hand", int),
    ("group", np.ndarray),  # [4] wood for 0..3 H&G together (R4.1)
    ("price", int),  # sacrifice_price (R3.2)
    ("bonus", np.ndarray),  # [7] the sole majority's bonus by kind (R7.6)
    ("one_choice", bool),
    ("stuck_pass", bool),
    ("refill_same", bool),
    ("per_card", bool),
    ("shared", bool),
    ("end_round", bool),
    ("refill_first", bool),
    ("values", np.ndarray),  # [4] a stock card's glory by its type's rank (R9.2)
    ("tie", int),  # sacrifice_tie (`scoring.TIES`)
    ("pile0", int),  # the draw pile's cards after the deal
    ("deck", np.ndarray),  # [7] the deck's cards of each kind (C1)
    ("keep_rounds", bool),  # record each seat at each round's end (the per-round table)
    ("max_turns", int),  # a game past these turns is stopped as broken (`reference.turn_bound`)
)
#: The rules' figures and options as integers (`batch.consts`, once per batch): `CONSTS`, then
#: each simple rule parameter.
Consts = NamedTuple("Consts", [*CONSTS, *((name, int) for name in SIMPLE)])  # type: ignore[misc]


class Lineup(NamedTuple):
    """The seats' policies: each seat's family in each game [B, P] (`RANDOM`, `HEURISTIC`,
    `LEARNED`, `PAUSE`), a heuristic seat's weights [B, P, NW], a learned seat's model [B, P]
    and the models' tables (K models, `learned`), and the policies' scratch arrays."""

    family: np.ndarray
    weights: np.ndarray  # [B, P, policy.NW]
    forbid: np.ndarray  # [B, P] a restricted seat's forbidden moves (`policy.FORBID` bits)
    seen: np.ndarray  # [P, 4] the stocks as the deciding seat sees them (R10.3)
    scratch: np.ndarray  # [4]
    model: np.ndarray  # [B, P] a learned seat's model (-1: none)
    ints: np.ndarray  # [K, 5] each model's experts, first tree, trees, kinds, legal (`learned.I_`)
    constants: np.ndarray  # [K] each model's constant
    experts: np.ndarray  # [K, learned.MAX_EXPERTS, NW] each model's experts' weights
    nodes: np.ndarray  # [N, 5] the models' trees (`learned_model.FEATURE`...)
    roots: np.ndarray  # [T] each tree's root row in nodes
    scores: np.ndarray  # [learned.MAX_EXPERTS, A] scratch: each expert's values of the actions
    cands: np.ndarray  # [learned.most_candidates(A), 2] scratch: the candidates (`learned.C_`)
    rows: np.ndarray  # [learned.most_candidates(A), learned.N_RANK] scratch: their rows


# --- asking ---------------------------------------------------------------------------------
@kernel(nrt=False)
def legal_count(legal, size: int) -> tuple[int, int]:  # noqa: ANN001
    """(how many of legal[:size] are legal, the first of them or -1)."""
    count, first = 0, -1
    for a in range(size):
        if legal[a]:
            if first < 0:
                first = a
            count += 1
    return count, first


@kernel(nrt=False)
def decide(g, c, pol, legal, r: int, kind: int, seat: int, size: int) -> int:  # noqa: ANN001
    """Seat `seat`'s action at a decision of `kind` in game r (legal[:size] its legal mask):
    the only legal action without asking; Python's answer waiting in the slot; else its
    policy's (`RANDOM`: the floor(u x m)-th of the m legal actions, u the next value of the
    seat's stream) or, for a Python seat, -1 and the game paused."""
    count, first = legal_count(legal, size)
    if count == 1:
        return first
    if g.filled[r, seat]:
        g.filled[r, seat] = False
        return g.slot[r, seat]
    if pol.family[r, seat] == PAUSE:
        g.wait[r, seat] = True
        g.paused[r] = True
        g.pend_kind[r] = kind
        for a in range(g.pend_legal.shape[1]):
            g.pend_legal[r, a] = a < size and legal[a]
        return -1
    if pol.forbid[r, seat] != 0:  # a restricted seat chooses among the allowed actions
        narrow(kind, pol.forbid[r, seat], legal, size)
        count, first = legal_count(legal, size)
    if pol.family[r, seat] == HEURISTIC:
        return heuristic(g, c, pol, legal, r, kind, seat, size)
    if pol.family[r, seat] == LEARNED:
        return ranker(g, c, pol, legal, r, kind, seat, size)
    u = unit(g.seat_keys[r, seat], g.seat_pos[r, seat])
    g.seat_pos[r, seat] += np.uint64(1)
    k = min(int(u * count), count - 1)
    for a in range(size):
        if legal[a]:
            if k == 0:
                return a
            k -= 1
    return first


@kernel(nrt=False)
def heuristic(g, c, pol, legal, r: int, kind: int, seat: int, size: int) -> int:  # noqa: ANN001
    """The heuristic's action (`policy.choose`) from what seat `seat` sees of game r: its own
    stock, its rivals' as the public record gives them (R10.3: their face-down cards not yet
    taken off, `stock + down`)."""
    see_stocks(g, pol, r, seat)
    return choose(c, pol.weights[r, seat], kind, seat, legal, size, g.hand[r, seat],
                  g.stock[r, seat], g.down[r, seat], g.village[r], g.wood[r], pol.seen,
                  g.columns[r], g.col_size[r], g.pile_len[r] - g.pile_pos[r], g.supply[r],
                  g.stone[r], pol.scratch)  # fmt: skip


@kernel(nrt=False)
def see_stocks(g, pol, r: int, seat: int) -> None:  # noqa: ANN001
    """Each seat's stock in game r as seat `seat` sees it into pol.seen (R10.3): its own as
    it is, its rivals' with their face-down cards not taken off (`stock + down`)."""
    for q in range(g.stock.shape[1]):
        for f in range(N_FOODS):
            pol.seen[q, f] = g.stock[r, q, f] + (0 if q == seat else g.down[r, q, f])


@kernel(nrt=False)
def ranker(g, c, pol, legal, r: int, kind: int, seat: int, size: int) -> int:  # noqa: ANN001
    """A learned ranker's action (`learned.ranked`, the seat's model) from what seat `seat`
    sees of game r (the stocks as `heuristic` sees them)."""
    see_stocks(g, pol, r, seat)
    k = pol.model[r, seat]
    j, _m = ranked(c, pol.ints[k], pol.constants[k], pol.experts[k], pol.nodes, pol.roots, kind,
                   seat, legal, size, g.turn[r], g.hand[r, seat], g.stock[r, seat],
                   g.down[r, seat], g.village[r], g.wood[r], g.glory[r], pol.seen, g.columns[r],
                   g.col_size[r], g.pile_len[r] - g.pile_pos[r], g.supply[r], g.stone[r],
                   pol.scratch, pol.scores, pol.cands, pol.rows)  # fmt: skip
    return pol.cands[j, 0]


@kernel(nrt=False)
def goto(g, r: int, step: int) -> None:  # noqa: ANN001
    """Game r to the start of a step."""
    g.cur[r, C_STEP] = step
    g.cur[r, C_POS] = 0
    g.cur[r, C_COUNT] = 0
    g.cur[r, C_FIRST] = -1
    g.cur[r, C_PHASE] = 0


@kernel(nrt=False)
def hand_count(g, r: int, q: int) -> int:  # noqa: ANN001
    """Cards in seat q's hand."""
    n = 0
    for k in range(N_KINDS):
        n += g.hand[r, q, k]
    return n


@kernel(nrt=False)
def stock_count(g, r: int, q: int) -> int:  # noqa: ANN001
    """Sacrifice cards in seat q's stock."""
    n = 0
    for f in range(N_FOODS):
        n += g.stock[r, q, f]
    return n


@kernel(nrt=False)
def to_take(g, c, r: int) -> None:  # noqa: ANN001
    """Game r to TAKE, with the cards the active seat must take (R6.1: until its hand holds
    its size again)."""
    goto(g, r, TAKE)
    g.cur[r, C_NEED] = max(0, c.hand - hand_count(g, r, g.active[r]))


# --- the steps ------------------------------------------------------------------------------
@kernel(nrt=False)
def start(g, c, pol, legal, r: int) -> None:  # noqa: ANN001
    """START, R1.4 under one_choice: each seat in seat order takes a sacrifice card of its
    choice (D0); then the first turn (BUY)."""
    while g.cur[r, C_POS] < c.players:
        q = g.cur[r, C_POS]
        for f in range(N_FOODS):
            legal[f] = g.supply[r, f] > 0
        food = decide(g, c, pol, legal, r, K_START, q, N_FOODS)
        if food < 0:
            return
        g.stock[r, q, food] += 1
        g.supply[r, food] -= 1
        g.gained[r, q, food] += 1
        g.cur[r, C_POS] += 1
    goto(g, r, BUY)


@kernel(nrt=False)
def buy(g, c, pol, legal, r: int) -> None:  # noqa: ANN001
    """BUY, R3: at most one sacrifice card at its price (R3.2); then PLAY, or with an empty
    hand (R6.7) the end of the turn."""
    a = g.active[r]
    legal[BUY_NOTHING] = True
    for f in range(N_FOODS):
        price = sacrifice_price(c.price, g.village[r, a, HG + f])
        legal[1 + f] = g.supply[r, f] > 0 and g.wood[r, a] >= price
    choice = decide(g, c, pol, legal, r, K_BUY, a, 1 + N_FOODS)
    if choice < 0:
        return
    if choice != BUY_NOTHING:
        f = choice - 1
        g.wood[r, a] -= sacrifice_price(c.price, g.village[r, a, HG + f])
        g.supply[r, f] -= 1
        g.stock[r, a, f] += 1
        g.bought[r, a, f] += 1
    if hand_count(g, r, a) == 0:  # R6.7: nothing to play, take or evaluate
        goto(g, r, TURN_END)
    else:
        goto(g, r, PLAY)


@kernel(nrt=False)
def play(g, c, pol, legal, r: int) -> None:  # noqa: ANN001
    """PLAY, R4: the play (D2; a Moai is followed by the sacrifice round, R5), or a stuck
    hand's discard (D3) or pass (R4.3)."""
    a = g.active[r]
    wood = g.wood[r, a]
    legal[PLAY_LUMBERJACK] = g.hand[r, a, LUMBERJACK] > 0
    legal[PLAY_PRIEST] = g.hand[r, a, PRIEST] > 0
    legal[PLAY_MOAI] = g.hand[r, a, MOAI] > 0 and wood >= c.moai_cost
    some = legal[PLAY_LUMBERJACK] or legal[PLAY_PRIEST] or legal[PLAY_MOAI]
    for f in range(N_FOODS):
        for k in range(1, MAX_GROUP + 1):
            ok = g.hand[r, a, HG + f] >= k and wood >= c.group[k]
            legal[PLAY_HG + MAX_GROUP * f + k - 1] = ok
            some = some or ok
    if not some:  # R4.3
        if c.stuck_pass:
            g.passes[r] += 1
            goto(g, r, TURN_END)
            return
        for k in range(N_KINDS):
            legal[k] = g.hand[r, a, k] > 0
        kind = decide(g, c, pol, legal, r, K_DISCARD, a, N_KINDS)
        if kind < 0:
            return
        g.hand[r, a, kind] -= 1
        g.out[r, kind] += 1
        g.discarded[r, a, kind] += 1
        g.passes[r] = 0
        to_take(g, c, r)
        return
    action = decide(g, c, pol, legal, r, K_PLAY, a, PLAY_HG + MAX_GROUP * N_FOODS)
    if action < 0:
        return
    if action < PLAY_HG:
        kind, count = action, 1
    else:
        kind = HG + (action - PLAY_HG) // MAX_GROUP
        count = (action - PLAY_HG) % MAX_GROUP + 1
    if kind == MOAI:
        g.wood[r, a] -= c.moai_cost
    elif kind >= HG:
        g.wood[r, a] -= c.group[count]
    g.hand[r, a, kind] -= count
    g.village[r, a, kind] += count
    g.played[r, a, kind] += count
    g.passes[r] = 0
    if kind == MOAI:
        goto(g, r, SACRIFICE)
        g.cur[r, C_POS] = 1
    else:
        to_take(g, c, r)


@kernel(nrt=False)
def sacrifice(g, c, pol, legal, r: int) -> None:  # noqa: ANN001
    """SACRIFICE, R5.1: each other seat clockwise from the builder's left puts a card of its
    stock face up on the stone (D4); then OFFERING."""
    a, p = g.active[r], c.players
    while g.cur[r, C_POS] < p:
        q = (a + g.cur[r, C_POS]) % p
        if stock_count(g, r, q) > 0:
            for f in range(N_FOODS):
                legal[f] = g.stock[r, q, f] > 0
            food = decide(g, c, pol, legal, r, K_SACRIFICE, q, N_FOODS)
            if food < 0:
                return
            g.stock[r, q, food] -= 1
            g.stone[r, food] += 1
            g.given[r, q, food] += 1
        g.cur[r, C_POS] += 1
    goto(g, r, OFFERING)


@kernel(nrt=False)
def offering(g, c, pol, legal, r: int) -> None:  # noqa: ANN001
    """OFFERING, R5.2-R5.3: the builder's card face down and a supply card face up (D5);
    then TAKE."""
    a = g.active[r]
    own = stock_count(g, r, a) > 0
    sup = False
    for f in range(N_FOODS):
        sup = sup or g.supply[r, f] > 0
    if own or sup:
        for d in range(N_FOODS):
            for s in range(N_FOODS):
                ok_d = g.stock[r, a, d] > 0 if own else d == 0
                ok_s = g.supply[r, s] > 0 if sup else s == 0
                legal[N_FOODS * d + s] = ok_d and ok_s
        action = decide(g, c, pol, legal, r, K_OFFERING, a, N_FOODS * N_FOODS)
        if action < 0:
            return
        d, s = action // N_FOODS, action % N_FOODS
        if own:
            g.stock[r, a, d] -= 1
            g.down[r, a, d] += 1
        if sup:
            g.supply[r, s] -= 1
            g.stone[r, s] += 1
    to_take(g, c, r)


@kernel(nrt=False)
def take(g, c, pol, legal, r: int) -> None:  # noqa: ANN001
    """TAKE, R6: bottom cards taken one at a time (D6), a column emptied refilled from the
    draw pile (R6.3), the card each take reveals kept (R6.5); then EVALUATE."""
    a = g.active[r]
    while g.cur[r, C_COUNT] < g.cur[r, C_NEED]:
        some = False
        for k in range(c.columns):
            legal[k] = g.col_size[r, k] > 0
            some = some or legal[k]
        if not some:  # R6.4
            break
        first = g.cur[r, C_FIRST]
        if c.refill_same and first >= 0 and g.col_size[r, first] > 0:  # R6.2, R6.6
            for k in range(c.columns):
                legal[k] = k == first
        k = decide(g, c, pol, legal, r, K_TAKE, a, c.columns)
        if k < 0:
            return
        if first < 0:
            g.cur[r, C_FIRST] = k
        n = g.col_size[r, k] - 1
        card = g.columns[r, k, n]
        g.columns[r, k, n] = -1
        g.col_size[r, k] = n
        g.hand[r, a, card] += 1
        g.taken[r, a, card] += 1
        if n == 0 and g.pile_pos[r] < g.pile_len[r]:  # R6.3: refilled at once
            m = min(c.depth, g.pile_len[r] - g.pile_pos[r])
            for i in range(m):
                drawn = g.pile[r, g.pile_pos[r] + i]
                g.columns[r, k, (m - 1 - i) if c.refill_first else i] = drawn
            g.pile_pos[r] += m
            g.col_size[r, k] = m
            if g.pile_pos[r] >= g.pile_len[r]:
                g.pile_out[r] = True  # R8.1: the pile ran out this turn
        size = g.col_size[r, k]
        g.revealed[r] = g.columns[r, k, size - 1] if size > 0 else -1  # R6.5
        g.cur[r, C_COUNT] += 1
    goto(g, r, EVALUATE)


@kernel(nrt=False)
def hand_out(g, c, r: int, food: int, due) -> None:  # noqa: ANN001
    """R7.8: sacrifice cards of `food` to the seats still due one, pass after pass in turn
    order from the active seat, while the stack lasts (due[q] counts down)."""
    p, a = c.players, g.active[r]
    more = True
    while g.supply[r, food] > 0 and more:
        more = False
        for k in range(p):
            q = (a + k) % p
            if due[q] > 0 and g.supply[r, food] > 0:
                due[q] -= 1
                g.supply[r, food] -= 1
                g.stock[r, q, food] += 1
                g.gained[r, q, food] += 1
            more = more or due[q] > 0


@kernel(nrt=False)
def evaluate(g, c, pol, legal, due, r: int) -> None:  # noqa: ANN001
    """EVALUATE, R7: the revealed card's kind pays every seat by its village and the
    majority bonus (a Moai: each seat's choice, D7, then the bonus's, D8); then TURN_END."""
    kind, p, a = g.revealed[r], c.players, g.active[r]
    if kind < 0:
        goto(g, r, TURN_END)
        return
    if kind == MOAI:  # R7.4, R7.9
        while g.cur[r, C_PHASE] < 2:
            phase = g.cur[r, C_PHASE]
            while g.cur[r, C_POS] < p:
                q = (a + g.cur[r, C_POS]) % p
                units = g.village[r, q, MOAI] if phase == 0 else c.bonus[MOAI]
                bonus = phase == 1 and takes_bonus(g.village[r, :, MOAI], q, 0, c.shared)
                if units > 0 and (phase == 0 or bonus):  # R7.4, then R7.6's holder
                    for x in range(units + 1):
                        legal[x] = True
                    glory = decide(g, c, pol, legal, r, K_INCOME if phase == 0 else K_BONUS, q,
                                   units + 1)  # fmt: skip
                    if glory < 0:
                        return
                    g.glory[r, q] += glory
                    g.wood[r, q] += units - glory
                g.cur[r, C_POS] += 1
            g.cur[r, C_PHASE] += 1
            g.cur[r, C_POS] = 0
    elif kind in (LUMBERJACK, PRIEST):  # R7.2, R7.3
        for q in range(p):
            lead = takes_bonus(g.village[r, :, kind], q, 0, c.shared)  # R7.6
            n = g.village[r, q, kind] + (c.bonus[kind] if lead else 0)
            if kind == LUMBERJACK:
                g.wood[r, q] += n
            else:
                g.glory[r, q] += n
    else:  # R7.5, R7.8
        food = kind - HG
        for q in range(p):
            n = g.village[r, q, kind]
            due[q] = n if c.per_card else min(n, 1)
        hand_out(g, c, r, food, due)
        for q in range(p):  # R7.6
            due[q] = c.bonus[kind] if takes_bonus(g.village[r, :, kind], q, 0, c.shared) else 0
        hand_out(g, c, r, food, due)
    goto(g, r, TURN_END)


@kernel(nrt=False)
def turn_end(g, c, r: int) -> None:  # noqa: ANN001
    """TURN_END, R8: the next seat's turn, or the end (R4.5: a round of passes; R8.2: the
    turn the pile ran out; R8.3: under `round`, the round's last seat's turn after it); a
    game that has not ended by `max_turns` turns is stopped (TOO_LONG)."""
    a, p = g.active[r], c.players
    g.turns[r, a] += 1
    g.turn[r] += 1
    g.active[r] = (a + 1) % p
    g.revealed[r] = -1
    if g.passes[r] >= p or (g.pile_out[r] and (not c.end_round or a == p - 1)):
        goto(g, r, OVER)
    elif g.turn[r] >= c.max_turns:  # past any legal game's length (R8.1): never loop
        goto(g, r, TOO_LONG)
    else:
        goto(g, r, BUY)
    if c.keep_rounds and (a == p - 1 or g.cur[r, C_STEP] == OVER):
        record_round(g, c, r)


@kernel(nrt=False)
def turn_up(g, c, r: int) -> None:  # noqa: ANN001
    """R9.2: the stone's face-down cards of game r turned up, counted by type, all seats,
    into `down_sum[r]` (for `seat_score` and `seat_parts`)."""
    for f in range(N_FOODS):
        g.down_sum[r, f] = 0
        for q in range(c.players):
            g.down_sum[r, f] += g.down[r, q, f]


@kernel(nrt=False)
def seat_score(g, c, r: int, q: int) -> int:  # noqa: ANN001
    """R9.1: seat q's score in game r if the game ended now (`scoring.score`; `turn_up`
    first)."""
    return score(g.glory[r, q], g.village[r, q, MOAI], g.wood[r, q], g.stock[r, q], g.stone[r],
                 g.down_sum[r], c.values, c.tie, c.moai_glory, c.wood_per_glory)  # fmt: skip


@kernel(nrt=False)
def seat_parts(g, c, r: int, q: int) -> tuple[int, int, int, int]:  # noqa: ANN001
    """R9.1: seat q's score parts in game r (`scoring.score_parts`; `turn_up` first)."""
    return score_parts(g.glory[r, q], g.village[r, q, MOAI], g.wood[r, q], g.stock[r, q],
                       g.stone[r], g.down_sum[r], c.values, c.tie, c.moai_glory,
                       c.wood_per_glory)  # fmt: skip


@kernel(nrt=False)
def score_rows(g, c, out) -> None:  # noqa: ANN001
    """R9.1: every game's score parts as the games stand, out[k, r, q] part k
    (`scoring.PARTS`) of seat q in game r: the results table's, from the code that scores
    the per-round table (`record_round`)."""
    for r in range(g.glory.shape[0]):
        turn_up(g, c, r)
        for q in range(c.players):
            a, b, w, s = seat_parts(g, c, r, q)
            out[0, r, q] = a
            out[1, r, q] = b
            out[2, r, q] = w
            out[3, r, q] = s


@kernel(nrt=False)
def record_round(g, c, r: int) -> None:  # noqa: ANN001
    """The per-round table's row of each seat as a round of turns ends (or the game, in a
    round begun): its score if the game ended now (R9.1, the stone's face-down cards
    counted, R9.2), its Moai, glory, wood and stock cards. A game longer than the table's
    rounds records no more (`track_rounds` past them: the batch says so)."""
    k = g.track_rounds[r]
    g.track_rounds[r] = k + 1
    if k >= g.track.shape[1]:
        return
    turn_up(g, c, r)
    for q in range(c.players):
        stock = 0
        for f in range(N_FOODS):
            stock += g.stock[r, q, f]
        g.track[r, k, q, 0] = seat_score(g, c, r, q)
        g.track[r, k, q, 1] = g.village[r, q, MOAI]
        g.track[r, k, q, 2] = g.glory[r, q]
        g.track[r, k, q, 3] = g.wood[r, q]
        g.track[r, k, q, 4] = stock


@kernel(nrt=False)
def play_game(g, c, pol, legal, due, r: int) -> None:  # noqa: ANN001
    """Play game r on to its end, to a Python seat's decision, or to its stop past its
    rules' bound on a game's length (TOO_LONG)."""
    while not g.paused[r]:
        s = g.cur[r, C_STEP]
        if s >= OVER:  # OVER or TOO_LONG
            return
        if s == START:
            start(g, c, pol, legal, r)
        elif s == BUY:
            buy(g, c, pol, legal, r)
        elif s == PLAY:
            play(g, c, pol, legal, r)
        elif s == SACRIFICE:
            sacrifice(g, c, pol, legal, r)
        elif s == OFFERING:
            offering(g, c, pol, legal, r)
        elif s == TAKE:
            take(g, c, pol, legal, r)
        elif s == EVALUATE:
            evaluate(g, c, pol, legal, due, r)
        else:
            turn_end(g, c, r)


@kernel(nrt=False)
def play_rows(g, c, pol, rows, legal, due) -> None:  # noqa: ANN001
    """`play_game` for each game of `rows`."""
    for i in range(len(rows)):
        play_game(g, c, pol, legal, due, rows[i])
