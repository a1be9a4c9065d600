"""R4 epoch phase, one game at a time : PICK (a card taken at
turn position pos), DISASTER (a disaster just taken: erosion at once, V5's fixed target),
TARGET (its taker names the clan it hits), LOSS (the victim chooses what it loses: R4.4,
C3)."""

from __future__ import annotations

from moaisim.games.moai.engine.compiled.arrays import (
    C_CARD,
    C_POS,
    C_STEP,
    C_TARGET,
    DISASTER,
    K_DISASTER_LOSS,
    K_DISASTER_TARGET,
    K_PICK_EPOCH,
    LOSS,
    PICK,
    TARGET,
    WORK_START,
    card,
    discard_wood,
    goto,
    kernel,
    step,
)
from moaisim.games.moai.engine.compiled.policy import decide
from moaisim.games.moai.engine.views import set_pawn
from moaisim.games.moai.rules.codes import CAMP, RESERVE, TILE_OUT, free_fields
from moaisim.games.moai.rules.epoch_cards import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN


@step
def pick(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """PICK, R4.1-R4.2: the seat at turn position pos takes a card still on offer (none
    left: it goes without); a disaster acts at once (DISASTER). After the last position the
    phase ends (`epoch_done`)."""
    p = c.players
    while True:
        pos = g.cursor[r, C_POS]
        if pos >= p:
            epoch_done(g, c, r)
            return
        some = False
        for k in range(p + 1):
            sc.legal[k] = g.offer[r, k] >= 0
            some |= sc.legal[k]
        if some:
            break
        g.cursor[r, C_POS] += 1  # R4.2: the last in order take none
    q = g.turn[r, pos]
    slot = decide(g, c, pol, sc, r, K_PICK_EPOCH, q, p + 1, -1)
    if slot < 0:
        return
    cid = g.offer[r, slot]
    g.offer[r, slot] = -1
    g.held[r, q] = cid
    if c.cards.disaster[cid]:  # R4.3: at once
        g.cursor[r, C_CARD] = cid
        g.cursor[r, C_STEP] = DISASTER
    else:
        g.cursor[r, C_POS] += 1


@kernel
def epoch_done(g, c, r: int) -> None:  # noqa: ANN001
    """R4.1: the card no one takes leaves the game; then the work phase."""
    for k in range(c.players + 1):
        g.offer[r, k] = -1
    for q in range(c.players):
        g.round_held[r, q] = g.held[r, q]
    goto(g, r, WORK_START)


@step
def disaster(g, c, r: int) -> None:  # noqa: ANN001
    """DISASTER, R4.3 and C3: erosion has no target (a supply token covers a free field);
    under V5 the next player in turn order is hit; otherwise the taker names the target."""
    cid = g.cursor[r, C_CARD]
    pos = g.cursor[r, C_POS]
    if c.cards.erosion[cid]:
        in_fields = 0
        for q in range(c.players):
            for i in range(g.pawns.loc.shape[2]):
                if g.pawns.loc[r, q, i] == c.lay.fields:
                    in_fields += 1
        free = free_fields(c.lay, g.covered[r], in_fields)
        if g.disaster_supply[r] > 0 and free > 0:
            g.disaster_supply[r] -= 1
            g.covered[r] += 1
        next_pick(g, r)
    elif c.fixed_disasters:  # V5: the next player in turn order
        effect(g, c, r, g.turn[r, (pos + 1) % c.players])
    else:
        g.cursor[r, C_STEP] = TARGET


@step
def target(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """TARGET, R4.3: the taker names the clan the disaster hits (itself included)."""
    p = c.players
    taker = g.turn[r, g.cursor[r, C_POS]]
    sc.legal[:p] = True
    victim = decide(g, c, pol, sc, r, K_DISASTER_TARGET, taker, p, g.cursor[r, C_CARD])
    if victim < 0:
        return
    effect(g, c, r, victim)


@kernel
def effect(g, c, r: int, victim: int) -> None:  # noqa: ANN001
    """C3: a disaster aimed at `victim`: fire and fire-boat burn a wood, then the victim
    chooses its loss (LOSS), if it has anything that disaster takes."""
    cid = g.cursor[r, C_CARD]
    taker = g.turn[r, g.cursor[r, C_POS]]
    g.n.disasters_aimed[r, taker] += 1
    g.n.disasters_suffered[r, victim] += 1
    g.cursor[r, C_TARGET] = victim
    if c.cards.burns[cid] and g.wood[r, victim] > 0:
        g.wood[r, victim] -= 1
        discard_wood(g, c, r, 1)
    if has_loss(g, c, r, victim, c.cards.loss[cid]):
        g.cursor[r, C_STEP] = LOSS
    else:
        next_pick(g, r)


@kernel
def has_loss(g, c, r: int, q: int, what: int) -> bool:  # noqa: ANN001
    """R4.4: clan q has something the disaster takes (`loss_choices` not empty)."""
    loc = g.pawns.loc
    if what == LOSS_PAWN:
        for i in range(loc.shape[2]):
            if loc[r, q, i] >= 0 or loc[r, q, i] == CAMP:
                return True
    elif what == LOSS_BOAT:
        for k in range(g.boats.shape[2]):
            if g.boats[r, q, k] >= 0:
                return True
    elif what == LOSS_MOAI:
        for t in range(g.moai_owner.shape[1]):
            if g.moai_owner[r, t] == q:
                return True
    return False


@kernel
def loss_choices(g, c, r: int, q: int, what: int, legal) -> None:  # noqa: ANN001
    """R4.4: what clan q may lose (legal [loss actions]): a pawn from the board (from its camp
    if none is on it), a built boat, or a Moai tile."""
    legal[: c.loss_size] = False
    loc = g.pawns.loc
    if what == LOSS_PAWN:
        board = False
        for i in range(loc.shape[2]):
            board |= loc[r, q, i] >= 0
        for i in range(loc.shape[2]):
            legal[i] = loc[r, q, i] >= 0 if board else loc[r, q, i] == CAMP
    elif what == LOSS_BOAT:
        for k in range(g.boats.shape[2]):
            legal[k] = g.boats[r, q, k] >= 0
    elif what == LOSS_MOAI:
        for t in range(g.moai_owner.shape[1]):
            legal[t] = g.moai_owner[r, t] == q


@step
def loss(g, c, pol, sc, r: int) -> None:  # noqa: ANN001
    """LOSS, R4.4: the victim chooses what it loses. Famine: the pawn to the reserve; storm,
    fire-boat: the boat's card leaves the game and its pawn goes to camp; topple: the tile
    leaves the game. Then the next turn position picks."""
    cid = g.cursor[r, C_CARD]
    victim = g.cursor[r, C_TARGET]
    what = c.cards.loss[card(c.cards.loss, cid)]
    loss_choices(g, c, r, victim, what, sc.legal)
    k = decide(g, c, pol, sc, r, K_DISASTER_LOSS, victim, c.loss_size, what)
    if k < 0:
        return
    pw = g.pawns
    if what == LOSS_PAWN:
        set_pawn(pw, r, victim, k, RESERVE, False)
    elif what == LOSS_BOAT:
        g.boats[r, victim, k] = -1
        boat = c.lay.ocean0 + k
        for i in range(pw.loc.shape[2]):
            if pw.loc[r, victim, i] == boat:  # the boat's pawn, if any, goes to camp
                set_pawn(pw, r, victim, i, CAMP, False)
                break
    elif what == LOSS_MOAI:
        g.moai_owner[r, k] = TILE_OUT
    next_pick(g, r)


@kernel
def next_pick(g, r: int) -> None:  # noqa: ANN001
    """The disaster is over: the next turn position picks."""
    pos = g.cursor[r, C_POS]
    goto(g, r, PICK)
    g.cursor[r, C_POS] = pos + 1
