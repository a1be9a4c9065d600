"""What a seat sees, for the compiled policies (docs/design.md, "Sealed views"; R5.9, R6.5).

The compiled counterpart of a `SeatView`: one function per view field (`views.FIELDS`), each
reading game r of the batch's arrays (`arrays.Arrays`) exactly as the view shows it to the
seat `me`: the public record and the cursor as they are; where the pawns are with every
face-down pawn hidden (`shown_loc` is `views.HIDDEN` for it, `hidden_count` counts them);
counts of pawns, hands and Moai; and the seat's own hand, pawns and tiles, never another
seat's. The compiled policies (`compiled.policy`, `compiled.greedy`) read a game through
these functions only: they hold the batch's arrays just to hand them on here (a test checks
that no policy module reads them itself), and a property test checks that their decisions do
not change when what a seat cannot see does (rivals' hands and face-down strengths, the
decks' orders, rivals' tiles: `forward.determinize`'s worlds).

`uniform` is the view's `rng`: the seat's own stream in game r, one value at a time.
"""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.compiled.arrays import (
    C_CARD,
    C_COUNT,
    C_LEFT,
    C_POS,
    C_STEP,
    C_TARGET,
    kernel,
)
from moaisim.games.moai.engine.views import HIDDEN
from moaisim.games.moai.rules.codes import CAMP, RESERVE, TILE_SUPPLY, free_fields
from moaisim.rng import unit

# ruff: noqa: D103 - each function is the view field of the same name (views.FIELDS)


# --- the seat's stream (`SeatView.rng`) --------------------------------------------------------
@kernel
def uniform(g, r: int, me: int) -> float:  # noqa: ANN001
    """The next value of seat `me`'s stream in game r (docs/design.md, "Seeds and per-game
    streams"): what `view.rng.uniform(1)` draws in the Python path."""
    u = unit(g.seat_keys[r, me], g.seat_pos[r, me])
    g.seat_pos[r, me] += np.uint64(1)
    return u


# --- the public record (`views.RECORD`) -------------------------------------------------------
@kernel
def round_(g, r: int) -> int:  # noqa: ANN001
    return g.round[r]


@kernel
def last_round(g, r: int) -> bool:  # noqa: ANN001
    return g.last_round[r]


@kernel
def birdman(g, r: int) -> int:  # noqa: ANN001
    return g.birdman[r]


@kernel
def order(g, r: int, k: int) -> int:  # noqa: ANN001
    return g.order[r, k]


@kernel
def turn(g, r: int, k: int) -> int:  # noqa: ANN001
    return g.turn[r, k]


@kernel
def position(g, r: int, me: int) -> int:  # noqa: ANN001
    for k in range(g.turn.shape[1]):
        if g.turn[r, k] == me:
            return k
    return 0


@kernel
def bids(g, r: int, q: int) -> int:  # noqa: ANN001
    return g.bids[r, q]


@kernel
def discard(g, r: int, t: int) -> int:  # noqa: ANN001
    return g.discard[r, t]


@kernel
def deck_size(g, r: int) -> int:  # noqa: ANN001
    return g.deck_len[r] - g.deck_pos[r]


@kernel
def epoch_deck_size(g, r: int) -> int:  # noqa: ANN001
    return g.epoch_len[r] - g.epoch_pos[r]


@kernel
def next_epoch(g, r: int) -> int:  # noqa: ANN001
    return g.next_epoch[r]


@kernel
def offer(g, r: int, k: int) -> int:  # noqa: ANN001
    return g.offer[r, k]


@kernel
def held(g, r: int, q: int) -> int:  # noqa: ANN001
    return g.held[r, q]


@kernel
def wood(g, r: int, q: int) -> int:  # noqa: ANN001
    return g.wood[r, q]


@kernel
def wood_supply(g, r: int) -> int:  # noqa: ANN001
    return g.wood_supply[r]


@kernel
def wood_out(g, r: int) -> int:  # noqa: ANN001
    return g.wood_out[r]


@kernel
def forest_wood(g, r: int, k: int) -> bool:  # noqa: ANN001
    return g.forest_wood[r, k]


@kernel
def covered(g, r: int) -> int:  # noqa: ANN001
    return g.covered[r]


@kernel
def disaster_supply(g, r: int) -> int:  # noqa: ANN001
    return g.disaster_supply[r]


@kernel
def boats(g, r: int, q: int, k: int) -> bool:  # noqa: ANN001
    return g.boats[r, q, k] >= 0


# --- the cursor (`views.CURSOR`) ---------------------------------------------------------------
@kernel
def revealed(g, r: int, card: int) -> bool:  # noqa: ANN001
    return g.revealed[r, card]


@kernel
def step(g, r: int) -> int:  # noqa: ANN001
    return g.cursor[r, C_STEP]


@kernel
def step_pos(g, r: int) -> int:  # noqa: ANN001
    return g.cursor[r, C_POS]


@kernel
def step_count(g, r: int) -> int:  # noqa: ANN001
    return g.cursor[r, C_COUNT]


@kernel
def step_card(g, r: int) -> int:  # noqa: ANN001
    return g.cursor[r, C_CARD]


@kernel
def step_target(g, r: int) -> int:  # noqa: ANN001
    return g.cursor[r, C_TARGET]


@kernel
def step_left(g, r: int) -> int:  # noqa: ANN001
    return g.cursor[r, C_LEFT]


@kernel
def step_taken(g, r: int, zone: int) -> int:  # noqa: ANN001
    return g.step_taken[r, zone]


@kernel
def step_done(g, r: int, v: int) -> bool:  # noqa: ANN001
    return g.step_done[r, v]


@kernel
def step_hill(g, r: int, k: int) -> int:  # noqa: ANN001
    return g.step_hill[r, k]


# --- the map: where the pawns are, as every seat sees it (R5.9) -------------------------------
@kernel
def shown_loc(g, r: int, q: int, i: int) -> int:  # noqa: ANN001
    """Where clan q's pawn i stands if it is face up on the board, else `HIDDEN`."""
    x = g.pawns.loc[r, q, i]
    return x if x >= 0 and g.pawns.up[r, q, i] else HIDDEN


@kernel
def hidden_count(g, r: int, q: int, x: int) -> int:  # noqa: ANN001
    """Clan q's face-down pawns on board code x."""
    out = 0
    for i in range(g.pawns.loc.shape[2]):
        if g.pawns.loc[r, q, i] == x and not g.pawns.up[r, q, i]:
            out += 1
    return out


@kernel
def hidden_counts(g, r: int, q: int, out) -> None:  # noqa: ANN001
    """`hidden_count` for every board code x < len(out) at once (one pass over the pawns):
    out[x] = clan q's face-down pawns on x."""
    out[:] = 0
    n = len(out)
    for i in range(g.pawns.loc.shape[2]):
        x = g.pawns.loc[r, q, i]
        if 0 <= x < n and not g.pawns.up[r, q, i]:
            out[x] += 1


# --- counts (R5.9) ------------------------------------------------------------------------------
@kernel
def on_board(g, r: int, q: int) -> int:  # noqa: ANN001
    out = 0
    for i in range(g.pawns.loc.shape[2]):
        if g.pawns.loc[r, q, i] >= 0:
            out += 1
    return out


@kernel
def camp_size(g, r: int, q: int) -> int:  # noqa: ANN001
    out = 0
    for i in range(g.pawns.loc.shape[2]):
        if g.pawns.loc[r, q, i] == CAMP:
            out += 1
    return out


@kernel
def reserve(g, c, r: int, q: int, strength: int) -> int:  # noqa: ANN001
    """Clan q's reserve pawns of this strength (1-3)."""
    out = 0
    for i in range(g.pawns.loc.shape[2]):
        if g.pawns.loc[r, q, i] == RESERVE and c.strength[i] == strength:
            out += 1
    return out


@kernel
def boats_manned(g, c, r: int, q: int, k: int) -> bool:  # noqa: ANN001
    x = c.lay.ocean0 + k
    for i in range(g.pawns.loc.shape[2]):  # noqa: SIM110 - numba has no any() of a generator
        if g.pawns.loc[r, q, i] == x:
            return True
    return False


@kernel
def free_fields_(g, c, r: int) -> int:  # noqa: ANN001
    in_fields = 0
    loc = g.pawns.loc
    for q in range(loc.shape[1]):
        for i in range(loc.shape[2]):
            if loc[r, q, i] == c.lay.fields:
                in_fields += 1
    return free_fields(c.lay, g.covered[r], in_fields)


# --- hands (R1.6): every hand's size, the seat's own hand ---------------------------------------
@kernel
def hand_size(g, r: int, q: int) -> int:  # noqa: ANN001
    out = 0
    for t in range(g.hand.shape[2]):
        out += g.hand[r, q, t]
    return out


@kernel
def own_hand(g, r: int, me: int, t: int) -> int:  # noqa: ANN001
    """`hand`: the seat's own count of card type t."""
    return g.hand[r, me, t]


# --- the seat's own pawns -------------------------------------------------------------------
@kernel
def own_loc(g, r: int, me: int, i: int) -> int:  # noqa: ANN001
    return g.pawns.loc[r, me, i]


@kernel
def own_up(g, r: int, me: int, i: int) -> bool:  # noqa: ANN001
    return g.pawns.up[r, me, i]


# --- Moai (R6.5): counts, the supply, the seat's own tiles ---------------------------------------
@kernel
def moai_count(g, r: int, q: int) -> int:  # noqa: ANN001
    out = 0
    for t in range(g.moai_owner.shape[1]):
        if g.moai_owner[r, t] == q:
            out += 1
    return out


@kernel
def moai_supply(g, r: int, t: int) -> bool:  # noqa: ANN001
    return g.moai_owner[r, t] == TILE_SUPPLY


@kernel
def own_tile(g, r: int, me: int, t: int) -> bool:  # noqa: ANN001
    """`own_tiles`: the seat holds tile t."""
    return g.moai_owner[r, t] == me
