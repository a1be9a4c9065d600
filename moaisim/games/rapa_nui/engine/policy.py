"""Rapa Nui's heuristic policy, written once for both engines: a compiled kernel that values
each legal action of a decision with a weight vector and takes the best (the first best on a
tie, drawing nothing).

The kernel reads only what the seat's view shows (docs/rapa-nui-rules.md, R10): its own hand,
stock and face-down types, every village, wood and glory, the display, the draw pile's size,
the supply and the stone, and each rival's stock as the public record gives it (`seen`: the
cards it bought, gained and kept, its face-down ones not yet taken off, R10.3). The fast
machine calls `choose` on a game's arrays (`machine.decide`); a Python seat calls
`answer_view` on a `SeatView`'s fields, so the built-ins play the same games in the reference
engine as in the machine.

The values, in glory (R9):
- a wood is worth `wood` (plus `need` while a Moai in the hand cannot be paid, R4.1);
- a card in the village is worth its future income, its weight times the share of the draw
  pile still to come (`remain`), a Moai also `moai` x its end glory (R9.1);
- a stock card is worth `rank` x its type's value on the stone as it stands (R9.2, with the
  seat's own face-down types counted) plus `stock`;
- the sole majority of a kind (R7.6) is worth `majority` x `remain`;
- the card a take reveals pays every seat now (R7): the seat counts its own pay at `reveal`
  and subtracts `deny` x its rivals' mean pay;
- a Moai's sacrifice round (R5.1) takes a card from each rival with a stock: `sacrifice` each.

`greedy` is this policy with the weights of the score as it stands: a wood at 1/wood_per_glory
(R9.1), a Moai at its end glory, a stock card at its type's value, the revealed card's pay,
nothing for the future (`greedy_weights`).
"""

from __future__ import annotations

import numpy as np

from moaisim.games.rapa_nui.rules.codes import (
    BUY_NOTHING,
    HG,
    LUMBERJACK,
    MAX_GROUP,
    MOAI,
    N_FOODS,
    N_KINDS,
    PLAY_HG,
    PRIEST,
)
from moaisim.games.rapa_nui.rules.scoring import sacrifice_price, stock_value, takes_bonus
from moaisim.jit import kernel

#: The decision kinds as ints, in `decisions.Kind`'s order (as `machine`'s).
K_START, K_BUY, K_PLAY, K_DISCARD, K_SACRIFICE, K_OFFERING, K_TAKE, K_INCOME, K_BONUS = range(9)

#: The weights, in vector order: (name, scale a tuner moves it in, meaning).
WEIGHTS: tuple[tuple[str, float, str], ...] = (
    ("wood", 0.2, "glory per wood held (R9.1 scores 1 per wood_per_glory)"),
    ("lumberjack", 1.0, "a lumberjack's future wood income, x the pile still to come (R7.2)"),
    ("priest", 1.0, "a priest's future glory income, x the pile still to come (R7.3)"),
    ("moai_income", 1.0, "a Moai's future income, x the pile still to come (R7.4)"),
    ("hg", 1.0, "an H&G's future sacrifice cards, x the pile still to come (R7.5)"),
    ("stock", 0.5, "a stock card's value besides its type's rank on the stone"),
    ("rank", 0.5, "x a stock card's value by its type's rank on the stone now (R9.2)"),
    ("majority", 1.0, "the sole majority of a kind, x the pile still to come (R7.6)"),
    ("reveal", 0.5, "x the seat's own pay from the card a take reveals (R6.5, R7)"),
    ("deny", 0.5, "x the rivals' mean pay from the card a take reveals, subtracted"),
    ("hand", 0.5, "x a card's play value, for a card taken into the hand (R6.1)"),
    ("need", 0.2, "extra glory per wood while a Moai in the hand cannot be paid (R4.1)"),
    ("sacrifice", 0.5, "each rival stock card a Moai's sacrifice round puts on the stone (R5.1)"),
    ("moai", 0.5, "x a Moai's end glory (R9.1)"),
)
NAMES: tuple[str, ...] = tuple(w[0] for w in WEIGHTS)
SCALES = np.array([w[1] for w in WEIGHTS], dtype=np.float64)
NW = len(WEIGHTS)
(W_WOOD, W_LUMBERJACK, W_PRIEST, W_MOAI_INCOME, W_HG, W_STOCK, W_RANK, W_MAJORITY, W_REVEAL,
 W_DENY, W_HAND, W_NEED, W_SACRIFICE, W_MOAI) = range(NW)  # fmt: skip


def greedy_weights(wood_per_glory: int) -> np.ndarray:
    """The weights of the score as it stands (R9): a wood 1/wood_per_glory, a Moai its end
    glory, a stock card its type's value, a revealed card's pay; the future at nothing."""
    w = np.zeros(NW, dtype=np.float64)
    w[W_WOOD] = 1.0 / wood_per_glory
    w[W_RANK] = w[W_REVEAL] = w[W_MOAI] = 1.0
    return w


#: Restricted play (`restrict`): each forbid name, its bit, what it forbids.
FORBID: dict[str, tuple[int, str]] = {
    "moai": (1, "never play a Moai (D2, R4.1)"),
    "priest": (2, "never play a priest (D2, R4.1)"),
    "lumberjack": (4, "never play a lumberjack (D2, R4.1)"),
    "hg": (8, "never play hunter-gatherers (D2, R4.1)"),
    "buy": (16, "never buy a sacrifice card (D1, R3)"),
}


# --- the position's values ---------------------------------------------------------------------
@kernel(nrt=False)
def remain(c, pile: int) -> float:
    """The share of the draw pile still to come (1 at the deal, 0 when it is out, R8.1)."""
    return (pile + 1.0) / (c.pile0 + 1.0)


@kernel(nrt=False)
def wood_worth(c, w, hand, wood: int) -> float:  # noqa: ANN001
    """A wood's glory to the seat: `wood`, plus `need` while it holds a Moai it cannot pay."""
    if hand[MOAI] > 0 and wood < c.moai_cost:
        return w[W_WOOD] + w[W_NEED]
    return w[W_WOOD]


@kernel(nrt=False)
def card_worth(c, w, kind: int, left: float) -> float:  # noqa: ANN001
    """A card of `kind` in the village: its future income (x `left`), a Moai its end glory."""
    if kind == LUMBERJACK:
        return w[W_LUMBERJACK] * left
    if kind == PRIEST:
        return w[W_PRIEST] * left
    if kind == MOAI:
        return w[W_MOAI] * c.moai_glory + w[W_MOAI_INCOME] * left
    return w[W_HG] * left


@kernel(nrt=False)
def play_worth(c, w, kind: int, count: int, seat: int, hand, village, wood: int,  # noqa: ANN001
               seen, stone, down, left: float) -> float:  # fmt: skip
    """D2: the value of putting `count` cards of `kind` into the village (R4.1): the cards,
    the majority they win or keep (R7.6), the wood they cost, a Moai's sacrifice round."""
    value = count * card_worth(c, w, kind, left)
    counts = village[:, kind]  # R7.6: the majority with the play, and without it
    if takes_bonus(counts, seat, count, c.shared) and not takes_bonus(counts, seat, 0, c.shared):
        value += w[W_MAJORITY] * left
    if kind == MOAI:
        value -= c.moai_cost * w[W_WOOD]
        for q in range(c.players):  # R5.1: each rival with a stock gives a card
            if q != seat:
                n = 0
                for f in range(N_FOODS):
                    n += seen[q, f]
                if n > 0:
                    value += w[W_SACRIFICE]
    elif kind >= HG:
        value -= c.group[count] * wood_worth(c, w, hand, wood)
    return value


@kernel(nrt=False)
def pay(c, w, kind: int, q: int, seat: int, hand, village, wood,  # noqa: ANN001
        stone, down) -> float:  # fmt: skip
    """R7: what the revealed card of `kind` pays seat q, valued by the seat deciding."""
    n = village[q, kind]
    lead = takes_bonus(village[:, kind], q, 0, c.shared)
    if kind == LUMBERJACK:  # R7.2
        return (n + (c.bonus[kind] if lead else 0)) * w[W_WOOD]
    if kind == PRIEST:  # R7.3
        return n + (c.bonus[kind] if lead else 0)
    if kind == MOAI:  # R7.4: each unit glory or wood, as the seat likes
        units = n + (c.bonus[kind] if lead else 0)
        return units * max(1.0, w[W_WOOD])
    cards = n if c.per_card else min(n, 1)  # R7.5
    cards += c.bonus[kind] if lead else 0
    return cards * (w[W_RANK] * stock_value(stone, down, c.values, c.tie, kind - HG) + w[W_STOCK])


@kernel(nrt=False)
def reveal_worth(c, w, kind: int, seat: int, hand, village, wood, stone,  # noqa: ANN001
                 down) -> float:  # fmt: skip
    """The revealed card's pay to the seat, less `deny` x its rivals' mean pay."""
    mine = pay(c, w, kind, seat, seat, hand, village, wood, stone, down)
    others = 0.0
    for q in range(c.players):
        if q != seat:
            others += pay(c, w, kind, q, seat, hand, village, wood, stone, down)
    return w[W_REVEAL] * mine - w[W_DENY] * others / (c.players - 1)


@kernel(nrt=False)
def unknown_worth(c, w, seat: int, hand, village, wood, stone, down) -> float:  # noqa: ANN001
    """A card from the draw pile, unseen (R6.3): the mean reveal value over the deck."""
    total = 0.0
    n = 0
    for k in range(N_KINDS):
        if c.deck[k] > 0:
            total += c.deck[k] * reveal_worth(c, w, k, seat, hand, village, wood, stone, down)
            n += c.deck[k]
    return total / n if n > 0 else 0.0


@kernel(nrt=False)
def hand_worth(c, w, kind: int, seat: int, hand, village, wood: int, seen, stone,  # noqa: ANN001
               down, left: float) -> float:  # fmt: skip
    """A card of `kind` in the hand: what playing it alone would be worth."""
    return play_worth(c, w, kind, 1, seat, hand, village, wood, seen, stone, down, left)


@kernel(nrt=False)
def stock_after(c, w, seat: int, stock, seen, stone, down, own: int, face_up: int,  # noqa: ANN001
                scratch) -> float:  # fmt: skip
    """D4, D5: the seat's stock value once a card of type `own` (-1: none) has left its stock
    for the stone (face up, D4, or face down, D5: either way it counts at the end, R9.2) and
    a supply card of `face_up` (-1: none) is put face up, less `deny` x its rivals' mean
    stock value on that stone."""
    for f in range(N_FOODS):
        scratch[f] = stone[f]
    if own >= 0:
        scratch[own] += 1
    if face_up >= 0:
        scratch[face_up] += 1
    mine = 0.0
    for f in range(N_FOODS):
        n = stock[f] - (1 if f == own else 0)
        if n > 0:
            mine += n * stock_value(scratch, down, c.values, c.tie, f)
    others = 0.0
    for q in range(c.players):
        if q != seat:
            for f in range(N_FOODS):
                if seen[q, f] > 0:
                    others += seen[q, f] * stock_value(scratch, down, c.values, c.tie, f)
    return w[W_RANK] * (mine - w[W_DENY] * others / (c.players - 1))


# --- the decisions -----------------------------------------------------------------------------
@kernel(nrt=False)
def narrow(kind: int, bits: int, legal, size: int) -> None:  # noqa: ANN001
    """Take the actions `bits` forbids (`FORBID`) out of a legal mask, unless none would be
    left (the rules come first: a forced move stays)."""
    if bits == 0 or (kind != K_PLAY and kind != K_BUY):
        return
    allowed = 0
    for a in range(size):
        if legal[a] and not forbidden(kind, bits, a):
            allowed += 1
    if allowed == 0:
        return
    for a in range(size):
        if forbidden(kind, bits, a):
            legal[a] = False


@kernel(nrt=False)
def forbidden(kind: int, bits: int, a: int) -> bool:
    """Whether `bits` forbids action `a` of `kind`."""
    if kind == K_BUY:
        return (bits & 16) != 0 and a != BUY_NOTHING
    if a == LUMBERJACK:
        return (bits & 4) != 0
    if a == PRIEST:
        return (bits & 2) != 0
    if a == MOAI:
        return (bits & 1) != 0
    return (bits & 8) != 0


@kernel(nrt=False)
def narrow_view(kind: int, bits: int, legal) -> None:  # noqa: ANN001
    """`narrow` for each game of a view's legal masks [n, A]."""
    for i in range(legal.shape[0]):
        narrow(kind, bits, legal[i], legal.shape[1])


@kernel(nrt=False)
def choose(c, w, kind: int, seat: int, legal, size: int, hand, stock, down, village,  # noqa: ANN001
           wood, seen, display, col_size, pile: int, supply, stone, scratch) -> int:  # fmt: skip
    """The legal action of `kind` with the highest value (`value`; the first on a tie)."""
    best, best_value = -1, -1e300
    left = remain(c, pile)
    for a in range(size):
        if not legal[a]:
            continue
        v = value(c, w, kind, seat, a, legal, size, hand, stock, down, village, wood, seen,
                  display, col_size, pile, supply, stone, scratch, left)  # fmt: skip
        if v > best_value + 1e-9:
            best, best_value = a, v
    return best


@kernel(nrt=False, inline="always")  # inlined: a call per action cost the heuristic 26 %
def value(c, w, kind: int, seat: int, a: int, legal, size: int, hand, stock, down,  # noqa: ANN001
          village, wood, seen, display, col_size, pile: int, supply, stone, scratch,
          left: float) -> float:  # fmt: skip
    """The value in glory of the legal action `a` of `kind` by the weights w (the module's
    docstring); `left` is `remain(c, pile)`."""
    own_wood = wood[seat]
    v = 0.0
    if kind == K_START:  # D0: the type worth most on the stone now
        v = w[W_RANK] * stock_value(stone, down, c.values, c.tie, a)
    elif kind == K_BUY:  # D1, R3.2
        if a != BUY_NOTHING:
            f = a - 1
            price = sacrifice_price(c.price, village[seat, HG + f])
            v = (w[W_RANK] * stock_value(stone, down, c.values, c.tie, f) + w[W_STOCK]
                 - price * wood_worth(c, w, hand, own_wood))  # fmt: skip
    elif kind == K_PLAY:  # D2
        if a < PLAY_HG:
            k, n = a, 1
        else:
            k, n = HG + (a - PLAY_HG) // MAX_GROUP, (a - PLAY_HG) % MAX_GROUP + 1
        v = play_worth(c, w, k, n, seat, hand, village, own_wood, seen, stone, down, left)
    elif kind == K_DISCARD:  # D3: keep the cards worth most
        v = -hand_worth(c, w, a, seat, hand, village, own_wood, seen, stone, down, left)
    elif kind == K_SACRIFICE:  # D4: the card face up that leaves the best stock
        v = stock_after(c, w, seat, stock, seen, stone, down, a, -1, scratch)
    elif kind == K_OFFERING:  # D5: own card face down, a supply card face up
        d, s = a // N_FOODS, a % N_FOODS
        has_own, has_supply = False, False
        for f in range(N_FOODS):
            has_own = has_own or stock[f] > 0
            has_supply = has_supply or supply[f] > 0
        v = stock_after(c, w, seat, stock, seen, stone, down, d if has_own else -1,
                        s if has_supply else -1, scratch)  # fmt: skip
    elif kind == K_TAKE:  # D6: the card into the hand, and what the take reveals
        n = col_size[a]
        card = display[a, n - 1]
        v = w[W_HAND] * hand_worth(c, w, card, seat, hand, village, own_wood, seen, stone,
                                   down, left)  # fmt: skip
        taken = 0
        for k in range(N_KINDS):
            taken += hand[k]
        if taken + 1 >= c.hand:  # the last take: its revealed card is evaluated (R6.5)
            if n >= 2:
                v += reveal_worth(c, w, display[a, n - 2], seat, hand, village, wood,
                                  stone, down)  # fmt: skip
            elif pile > 0:
                v += unknown_worth(c, w, seat, hand, village, wood, stone, down)
    else:  # D7, D8: a glory units, the rest wood (0..units all legal)
        units = 0
        for x in range(size):
            if legal[x]:
                units = x
        per_wood = wood_worth(c, w, hand, own_wood)
        short = max(0, c.moai_cost - own_wood) if hand[MOAI] > 0 else 0
        woods = units - a
        v = a * 1.0 + min(woods, short) * per_wood + max(0, woods - short) * w[W_WOOD]
    return v


@kernel(nrt=False)
def answer_view(c, w, kind: int, seat: int, legal, hand, stock, down, village, wood,  # noqa: ANN001
                seen, display, col_size, pile, supply, stone, scratch, out) -> None:  # fmt: skip
    """`choose` for each game of a view (its fields as arrays over n games) into `out`."""
    size = legal.shape[1]
    for i in range(legal.shape[0]):
        out[i] = choose(c, w, kind, seat, legal[i], size, hand[i], stock[i], down[i],
                        village[i], wood[i], seen[i], display[i], col_size[i], pile[i],
                        supply[i], stone[i], scratch)  # fmt: skip
