"""What a seat can estimate from what it sees, for the compiled policies (one game at a time,
read through `seen`): a clan's visible score, the rivals' strength in the forest, what a
disaster would take."""

from __future__ import annotations

from moaisim.games.moai.engine.compiled import seen
from moaisim.games.moai.engine.compiled.arrays import kernel
from moaisim.games.moai.rules.codes import FIRST_RAID, N_CARD_TYPES, score
from moaisim.games.moai.rules.epoch_cards import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN

#: Points a Moai tile is guessed to be worth when its height is secret (R6.5), as
#: `features.MOAI_GUESS`.
MOAI_GUESS = 6


@kernel
def visible_score(g, c, r: int, q: int) -> int:  # noqa: ANN001
    """Clan q's score as a rival sees it: R8.2's score (its points per metre and per wood
    token) with `MOAI_GUESS` metres per Moai tile."""
    living = seen.on_board(g, r, q) + seen.camp_size(g, r, q)
    guess = MOAI_GUESS * seen.moai_count(g, r, q)
    return score(guess, living, seen.wood(g, r, q), c.wood_points, c.moai_points)


@kernel
def loses(g, c, r: int, q: int, card: int) -> bool:  # noqa: ANN001
    """Clan q has something the disaster `card` takes (C3): wood to burn, a boat, a pawn (on
    the board or in camp) or a Moai tile."""
    t = c.cards
    k = card if card >= 0 else len(t.loss) - 1  # -1: "no card"
    if t.burns[k] and seen.wood(g, r, q) > 0:
        return True
    loss = t.loss[k]
    if loss == LOSS_BOAT:
        for b in range(c.lay.boats):
            if seen.boats(g, r, q, b):
                return True
    elif loss == LOSS_PAWN:
        return seen.on_board(g, r, q) + seen.camp_size(g, r, q) > 0
    elif loss == LOSS_MOAI:
        return seen.moai_count(g, r, q) > 0
    return False


@kernel
def rival_forest(g, c, sc, r: int, me: int, per_hidden: float, est, out) -> None:  # noqa: ANN001
    """R6.1 as a rival sees it: out[k] = the strongest rival's estimated strength on forest
    space k: its face-up strength there + `per_hidden` per face-down pawn (`est` and `out`
    have one entry per forest space), summed in `features.rival_forest`'s order: the
    face-down pawns first, then the face-up ones by pawn index (ascending strength).

    During the work phase the machine keeps the forest's tally (`tally`) and this reads it,
    keeping each clan's estimates (sc.tally_est, for the weight sc.tally_ph) until the clan
    moves; elsewhere it counts from the pawns."""
    forest = len(out)
    out[:] = 0.0
    if sc.tally_ok[0]:
        if per_hidden != sc.tally_ph[0]:  # the estimates kept are for another weight
            sc.tally_ph[0] = per_hidden
            sc.tally_fresh[:] = False
        for q in range(c.players):
            if q == me:
                continue
            if not sc.tally_fresh[q]:  # clan q moved since its estimates were made
                for k in range(forest):
                    e = per_hidden * sc.tally_down[q, k]
                    for s in range(3):
                        for _ in range(sc.tally_up[q, k, s]):
                            e += s + 1
                    sc.tally_est[q, k] = e
                sc.tally_fresh[q] = True
            for k in range(forest):
                out[k] = max(out[k], sc.tally_est[q, k])
        return
    for q in range(c.players):
        if q == me:
            continue
        seen.hidden_counts(g, r, q, est)  # whole counts, exact in floats
        for k in range(forest):
            est[k] = per_hidden * est[k]
        for i in range(len(c.strength)):
            x = seen.shown_loc(g, r, q, i)
            if 0 <= x < forest:
                est[x] += c.strength[i]
        for k in range(forest):
            out[k] = max(out[k], est[k])


@kernel
def tally_clan(g, c, sc, r: int, q: int) -> None:  # noqa: ANN001
    """Clan q's row of the forest's tally in game r, as every seat sees it (R5.9): its
    face-down pawns per forest space (sc.tally_down[q]), its face-up pawns per forest
    space and strength (sc.tally_up[q]) and its pawns in camp (sc.tally_camp[q]); and what
    only clan q sees of it, which only its own decisions read: its strength per board code
    (sc.tally_str[q], face-down pawns included) and its living pawns (sc.tally_living[q])."""
    forest = c.lay.forest
    sc.tally_camp[q] = seen.camp_size(g, r, q)
    seen.hidden_counts(g, r, q, sc.tally_down[q, :forest])
    sc.tally_up[q] = 0
    sc.tally_str[q] = 0
    living = 0
    for i in range(len(c.strength)):
        x = seen.shown_loc(g, r, q, i)
        if 0 <= x < forest:
            sc.tally_up[q, x, c.strength[i] - 1] += 1
        x = seen.own_loc(g, r, q, i)  # the clan's own row: only clan q reads it
        if x >= -1:
            living += 1
        if x >= 0:
            sc.tally_str[q, x] += c.strength[i]
    sc.tally_living[q] = living
    sc.tally_fresh[q] = False


@kernel
def tally_placed(c, sc, q: int, pawn: int, x: int, up: bool) -> None:  # noqa: ANN001
    """Clan q's rows of the tally after its pawn `pawn` left the camp for board code x,
    face up or down (R5.2): one pawn fewer in camp, its strength at x, and on a forest
    space one more face-up pawn of its strength or face-down pawn (the clan's estimates
    made again when next read)."""
    s = c.strength[pawn]
    sc.tally_camp[q] -= 1
    sc.tally_str[q, x] += s
    if x < c.lay.forest:
        if up:
            sc.tally_up[q, x, s - 1] += 1
        else:
            sc.tally_down[q, x] += 1
        sc.tally_fresh[q] = False


@kernel
def holds_raid_card(g, r: int, me: int) -> bool:  # noqa: ANN001
    """Seat me holds a Raid card: without one no raid is legal (R6.4: a raid discards
    one)."""
    for t in range(FIRST_RAID, N_CARD_TYPES):  # noqa: SIM110 - numba has no any() of a generator
        if seen.own_hand(g, r, me, t) > 0:
            return True
    return False


@kernel
def tally(g, c, sc, r: int) -> None:  # noqa: ANN001
    """The forest's tally of game r, every clan's row (`tally_clan`), marked valid: the work
    phase (`compiled.work`) keeps it up to date move by move and clears the mark when the
    phase ends, so that `rival_forest` reads it only while it is true."""
    for q in range(c.players):
        tally_clan(g, c, sc, r, q)
    sc.tally_ok[0] = True


@kernel
def thing_losses(g, c, r: int, me: int, what: int, out) -> None:  # noqa: ANN001
    """R4.4: scores (higher: better to lose) of the boat or Moai tile a disaster takes from
    seat me, into out[:boats] or out[:tiles]: an empty boat first, the smallest tile first
    (`features.loss_scores`; a pawn's cost is each strategy's own)."""
    if what == LOSS_BOAT:
        for k in range(c.lay.boats):
            out[k] = -1.0 if seen.boats_manned(g, c, r, me, k) else -0.0
    elif what == LOSS_MOAI:
        for k in range(len(c.tile_heights)):
            out[k] = -1.0 * c.tile_heights[k]
