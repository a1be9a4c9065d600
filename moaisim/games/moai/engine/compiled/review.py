"""R7 review phase, one game at a time: in turn order, DRAW (R7.1), REST (R7.2), BIRTH (R7.3)
and BOAT (R7.4); and the rules' kernels of the phase."""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled.arrays import (
    BIRTH,
    BOAT,
    C_CARD,
    C_LEFT,
    C_POS,
    C_STEP,
    DRAW,
    K_BIRTH,
    K_BOAT,
    K_REST,
    REST,
    ROUND_END,
    card,
    discard_wood,
    goto,
    kernel,
    step,
)
from moaisim.games.moai.engine.compiled.policy import decide
from moaisim.games.moai.engine.decisions import BIRTH_STOP, PAIR_A, PAIR_B, PAIR_STRENGTH
from moaisim.games.moai.engine.views import Pawns, set_pawn
from moaisim.games.moai.rules.codes import (
    CAMP,
    OFF_BOARD,
    RESERVE,
    Layout,
    holds_pair,
    strength_of,
    zone_of,
)
from moaisim.jit import kernel as jit_kernel
from moaisim.rng import unit


@step
def draw(g, c, sc, r: int) -> None:  # noqa: ANN001
    """DRAW, R7.1: the clan at turn position pos draws as many cards as its epoch card says;
    then rests (REST, not in the last round) and births (BIRTH). After the last position, the
    round ends (ROUND_END)."""
    pos = g.cursor[r, C_POS]
    if pos >= c.players:
        goto(g, r, ROUND_END)
        return
    q = g.turn[r, pos]
    t = c.cards
    cid = card(t.draw, g.held[r, q])
    draw_cards(g, c, sc, r, q, t.draw[cid])
    times = 0
    if not g.last_round[r]:  # R7.2: no rest in the last round
        board = 0
        for i in range(g.pawns.loc.shape[2]):
            if g.pawns.loc[r, q, i] >= 0:
                board += 1
        times = min(t.hut[cid], board)
    g.cursor[r, C_LEFT] = times
    g.cursor[r, C_STEP] = REST if times > 0 else BIRTH


@kernel
def draw_cards(g, c, sc, r: int, q: int, n: int) -> None:  # noqa: ANN001
    """R7.1: draw n cards; an empty deck is replaced by the shuffled discard pile (none left
    there either: the clan stops drawing)."""
    done = 0
    while done < n:
        while done < n and g.deck_pos[r] < g.deck_len[r]:
            draw_card(r, q, g.deck, g.deck_pos, g.hand)
            done += 1
        if done >= n:
            return
        left = 0
        for t in range(g.discard.shape[1]):
            left += g.discard[r, t]
        if left == 0:
            return
        reshuffle(g, c, sc, r)


@kernel
def reshuffle(g, c, sc, r: int) -> None:  # noqa: ANN001
    """R7.1: the discard pile, shuffled, becomes the deck (`chance.reshuffle_order`): one
    chance key per card of the set (canonical ids, type by type), the k-th reshuffle reading
    keys k x cards .. (k + 1) x cards - 1 of the game's reshuffle sub-stream; the discarded
    cards of type t are the first ids of that type, ordered by their keys."""
    n = len(c.card_types)
    start = np.uint64(g.reshuffles[r]) * np.uint64(n)
    keys, order = sc.keys, sc.order
    size = 0  # the discarded cards' ids, listed in order[:size] (id order)
    for i in range(n):
        if c.type_rank[i] < g.discard[r, c.card_types[i]]:
            keys[i] = unit(g.reshuffle_keys[r], start + np.uint64(i))
            order[size] = i
            size += 1
    argsort(keys, order, size)  # only those: the others would sort after them
    for j in range(size):
        g.deck[r, j] = c.card_types[order[j]]
    for j in range(size, n):
        g.deck[r, j] = -1
    g.deck_len[r] = size
    g.deck_pos[r] = 0
    g.discard[r] = 0
    g.reshuffles[r] += 1


@kernel
def argsort(keys, order, n: int) -> None:  # noqa: ANN001
    """Sort the indices order[:n] in increasing order of (key, index) (numpy's stable
    argsort of those keys), by heapsort in place (a kernel allocates nothing)."""
    for start in range(n // 2 - 1, -1, -1):
        _sift(keys, order, start, n)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift(keys, order, 0, end)


@kernel
def _sift(keys, order, root: int, end: int) -> None:  # noqa: ANN001
    """Heapsort's sift-down of `order[root]` within order[:end] (a max-heap of (key, index))."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        a, b = order[child], order[child + 1] if child + 1 < end else -1
        if b >= 0 and (keys[b] > keys[a] or (keys[b] == keys[a] and b > a)):
            child, a = child + 1, b
        top = order[root]
        if keys[a] > keys[top] or (keys[a] == keys[top] and a > top):
            order[root], order[child] = a, top
            root = child
        else:
            return


@step
def rest(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """REST, R7.2: step_left pawns from the board to camp, one at a time, taken as evenly as
    possible across zones (step_taken: rested so far, per zone); then births (BIRTH)."""
    size = c.lay.pawns
    q = g.turn[r, g.cursor[r, C_POS]]
    sc.legal[:size] = False
    sc.n_acts[0] = rest_legal(r, q, g.pawns.loc, g.step_taken[r], c.lay, sc.legal, sc.acts)
    i = decide(g, c, pol, sc, r, K_REST, q, size, -1)
    if i < 0:
        return
    rest_one(r, q, i, g.pawns, g.step_taken[r], c.lay)
    g.cursor[r, C_LEFT] -= 1
    if g.cursor[r, C_LEFT] == 0:
        g.cursor[r, C_STEP] = BIRTH
        g.step_taken[r] = 0


@step
def birth(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """BIRTH, R7.3: any number of times, two cards for a pawn of the lower card's strength;
    in the last round while a birth is possible (A4). Then the boat (R7.4)."""
    size = c.birth_size
    q = g.turn[r, g.cursor[r, C_POS]]
    reserve = sc.reserve
    reserve_of(r, q, g.pawns.loc, c.lay, reserve)  # kept below as births take from it
    while True:
        sc.legal[:size] = False
        n = birth_legal(g.hand[r, q], reserve, g.last_round[r], sc.legal, sc.acts)
        if n == 0:
            break
        sc.n_acts[0] = n
        k = decide(g, c, pol, sc, r, K_BIRTH, q, size, -1)
        if k < 0:
            return
        if k == BIRTH_STOP:
            break
        birth_one(r, q, k, g.hand, g.discard, g.pawns, g.n.births, c.lay)
        reserve[PAIR_STRENGTH[k] - 1] -= 1
    boat_or_next(g, c, r, q)


@kernel
def boat_or_next(g, c, r: int, q: int) -> None:  # noqa: ANN001
    """R7.4: a clan holding a boat card and a wood may build the boat (BOAT); otherwise its
    card is discarded and the next turn position draws."""
    cid = g.held[r, q]
    if c.cards.boat[card(c.cards.boat, cid)] and g.wood[r, q] >= 1:
        g.cursor[r, C_STEP] = BOAT
        g.cursor[r, C_CARD] = cid
    else:
        next_review(g, r, q)


@step
def boat(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """BOAT, R7.4: 1 to pay a wood and build the boat (the card kept in the clan's first free
    boat slot), 0 not to; the next turn position draws."""
    q = g.turn[r, g.cursor[r, C_POS]]
    cid = g.cursor[r, C_CARD]
    sc.legal[:2] = True
    a = decide(g, c, pol, sc, r, K_BOAT, q, 2, cid)
    if a < 0:
        return
    if a == 1:
        g.wood[r, q] -= 1
        discard_wood(g, c, r, 1)
        slot = 0
        for k in range(g.boats.shape[2]):
            if g.boats[r, q, k] < 0:
                slot = k
                break
        g.boats[r, q, slot] = cid
        g.n.boats_built[r, q] += 1
    next_review(g, r, q)


@kernel
def next_review(g, r: int, q: int) -> None:  # noqa: ANN001
    """The card is kept as a boat or discarded; the next turn position draws."""
    g.held[r, q] = -1
    pos = g.cursor[r, C_POS]
    goto(g, r, DRAW)
    g.cursor[r, C_POS] = pos + 1


# --- the rules' kernels (R7) ---------------------------------------------------------------


@jit_kernel
def draw_card(r: int, q: int, deck: np.ndarray, deck_pos: np.ndarray, hand: np.ndarray
             ) -> int:  # fmt: skip
    """R7.1: seat q of game r draws the deck's top card (the deck is not empty); returns its
    type."""
    t = deck[r, deck_pos[r]]
    deck_pos[r] += 1
    hand[r, q, t] += 1
    return t


@jit_kernel
def reserve_of(r: int, q: int, loc: np.ndarray, lay: Layout, reserve: np.ndarray
              ) -> None:  # fmt: skip
    """R7.3: how many pawns of each strength seat q of game r has in its reserve
    (reserve [3], by strength - 1)."""
    reserve[:] = 0
    for i in range(loc.shape[2]):
        if loc[r, q, i] == RESERVE:
            reserve[strength_of(lay, i) - 1] += 1


@jit_kernel
def rest_legal(r: int, q: int, loc: np.ndarray, taken: np.ndarray, lay: Layout, legal: np.ndarray,
               acts: np.ndarray) -> int:  # fmt: skip
    """R7.2 for seat q in game r: its board pawns in a zone (among those where it has pawns)
    from which it has taken the fewest so far (taken [4]: pawns rested per zone), as a mask
    [N] (given cleared). The legal pawns are also listed in ascending order in `acts` [N];
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


@jit_kernel
def rest_one(r: int, q: int, i: int, pw: Pawns, taken: np.ndarray, lay: Layout
            ) -> None:  # fmt: skip
    """R7.2: seat q's pawn i of game r goes back to camp, face down; its zone counts one more
    pawn taken (taken [4])."""
    taken[zone_of(lay, pw.loc[r, q, i])] += 1
    set_pawn(pw, r, q, i, CAMP, False)


@jit_kernel
def birth_legal(hand: np.ndarray, reserve: np.ndarray, last_round: bool, legal: np.ndarray,
                acts: np.ndarray) -> int:  # fmt: skip
    """R7.3 for a clan holding `hand` (counts per card type) with `reserve` pawns per strength
    (`reserve_of`): a pair of cards it holds whose lower value has a reserve pawn of that
    strength; stop, when any pair is, except in the last round (A4). Its mask [pairs + 1]
    (given cleared). The legal actions are also
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


@jit_kernel
def birth_one(r: int, q: int, x: int, hand: np.ndarray, discard: np.ndarray, pw: Pawns,
              births: np.ndarray, lay: Layout) -> None:  # fmt: skip
    """R7.3: seat q of game r discards pair x's two cards; its first reserve pawn of the lower
    card's strength goes to the camp."""
    for t in (PAIR_A[x], PAIR_B[x]):
        hand[r, q, t] -= 1
        discard[r, t] += 1
    pawn = (PAIR_STRENGTH[x] - 1) * lay.per_strength
    while pw.loc[r, q, pawn] != RESERVE:
        pawn += 1
    set_pawn(pw, r, q, pawn, CAMP, False)
    births[r, q] += 1
