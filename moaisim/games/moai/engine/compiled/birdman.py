"""R3 bird-man phase, one game at a time: ROUND (a round begins, the epoch cards are
revealed), BID (sealed, or V2/V4 open bids one at a time), HILL (the hill order, tied bidders
ordered by the bird-man)."""

from __future__ import annotations

from moaisim.games.moai.engine.compiled.arrays import (
    BID,
    C_POS,
    HILL,
    K_ORDER_TIES,
    PICK,
    card,
    goto,
    kernel,
    step,
)
from moaisim.games.moai.engine.compiled.policy import decide, decide_bid
from moaisim.games.moai.rules.codes import card_value, hill_order


@step
def round_start(g, c, r: int, keep_rounds: bool) -> None:  # noqa: ANN001
    """ROUND: R2, a new round; R3.1-R3.2 the reveal. Then BID."""
    g.round[r] += 1
    for q in range(c.players):
        g.bids[r, q] = -1
        if keep_rounds:  # the per-round table counts this round's births and starved pawns
            g.round_births[r, q] = g.n.births[r, q]
            g.round_starved[r, q] = g.n.starved[r, q]
    reveal(g, c, r)
    goto(g, r, BID)


@kernel
def reveal(g, c, r: int) -> None:  # noqa: ANN001
    """R3.1-R3.2 and R8.1: players + 1 cards; the Admiral is set aside and ends the game;
    a wood token per palm (`wood_per_palm` of them) goes to the forest, space by space,
    while the supply lasts."""
    p, t = c.players, c.cards
    for k in range(p + 1):
        g.offer[r, k] = -1
    shown, admiral = 0, False
    pos, end = g.epoch_pos[r], g.epoch_len[r]
    while shown < p + 1 and pos < end:
        cid = g.epoch_deck[r, pos]
        pos += 1
        g.revealed[r, cid] = True  # R3.1: every player sees it
        if t.admiral[cid]:
            admiral = True
        else:
            g.offer[r, shown] = cid
            shown += 1
    g.epoch_pos[r] = pos
    top = g.epoch_deck[r, min(pos, g.epoch_deck.shape[1] - 1)]
    g.next_epoch[r] = t.epoch[top] if pos < end else 0  # R5.9: the next card's back
    if admiral or pos >= end:
        g.last_round[r] = True
    palms = 0
    for k in range(p + 1):
        palms += t.palm[card(t.palm, g.offer[r, k])]
    wood = min(min(c.wood_per_palm * palms, g.wood_supply[r]), c.forest_spaces)
    for k in range(g.forest_wood.shape[1]):
        g.forest_wood[r, k] = k < wood
    g.wood_supply[r] -= wood


@step
def bid(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """BID, R3.3: sealed bids (every seat decides before any is shown), or under V2/V4 the
    seat at bid position pos, face up; R3.5: then the hill order (HILL)."""
    p = c.players
    if c.open_bidding:
        q = g.bid_order[r, g.cursor[r, C_POS]]
        if not decide_bid(g, c, pol, sc, r, q):
            return
        pay_bid(g, r, q, g.slot[r, q])
        g.filled[r, q] = False
        g.cursor[r, C_POS] += 1
        if g.cursor[r, C_POS] >= p:
            goto(g, r, HILL)
        return
    made = True
    for q in range(p):  # every seat's bid in its slot before any is paid
        if not decide_bid(g, c, pol, sc, r, q):
            made = False
    if not made:
        return
    for q in range(p):
        pay_bid(g, r, q, g.slot[r, q])
        g.filled[r, q] = False
    goto(g, r, HILL)


@kernel
def pay_bid(g, r: int, q: int, cards) -> None:  # noqa: ANN001
    """R3.5: bid cards go to the discard pile; the total is revealed."""
    total = 0
    for t in range(len(cards)):
        g.hand[r, q, t] -= cards[t]
        g.discard[r, t] += cards[t]
        total += cards[t] * card_value(t)
    g.bids[r, q] = total


@step
def hill(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """HILL, R3.4 (V4: its own tie rule): hill positions filled by bid, the bird-man naming
    the next of each tied group (`codes.hill_order`; step_pos: the places filled so far);
    then R3.5 (`hill_done`)."""
    p = c.players
    while True:
        pos, top = hill_order(g.step_hill[r], g.cursor[r, C_POS], g.bids[r], g.birdman[r],
                              c.strict, sc.legal, sc.tied)  # fmt: skip
        g.cursor[r, C_POS] = pos
        if pos >= p:
            hill_done(g, c, r)
            return
        pick = decide(g, c, pol, sc, r, K_ORDER_TIES, g.birdman[r], p, top)
        if pick < 0:
            return
        g.step_hill[r, pos] = pick
        g.cursor[r, C_POS] = pos + 1


@kernel
def hill_done(g, c, r: int) -> None:  # noqa: ANN001
    """R3.5 and R2: the new bird-man, the turn order and (V2/V4) next round's bid order;
    then the epoch phase (PICK)."""
    p = c.players
    for k in range(p):
        g.order[r, k] = g.step_hill[r, k]
    bm = g.order[r, 0]
    g.birdman[r] = bm
    g.n.birdman_rounds[r, bm] += 1
    for k in range(p):
        g.turn[r, k] = (bm + k) % p if c.clockwise else g.order[r, k]
        g.bid_order[r, k] = g.order[r, k]  # V2/V4: next round's bids follow this order
        g.step_hill[r, k] = -1
    goto(g, r, PICK)
