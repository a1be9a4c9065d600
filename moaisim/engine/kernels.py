"""Compiled (numba) kernels for the hot loops of the views and the batch engine.

Each kernel does per game, in one pass, what several numpy passes over the [players, pawns]
block would do. The profile of the batch engine showed those passes, repeated at every work
step for every seat, to be where numpy could not reach the target speed (README, "Speed").
The reference engine computes the same masks and counts in plain Python, and the equivalence
tests hold the two engines to identical games.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def shown_and_hidden(
    loc: np.ndarray, up: np.ndarray, rows: np.ndarray, size: int, hidden_code: int
) -> tuple[np.ndarray, np.ndarray]:
    """[B, P, N] loc/up, games `rows` -> (shown_loc [n, P, N], hidden_count [n, P, size]).

    shown_loc: the location of a face-up board pawn, `hidden_code` otherwise;
    hidden_count: face-down board pawns of each clan on each location.
    """
    n, p, pawns = len(rows), loc.shape[1], loc.shape[2]
    shown = np.empty((n, p, pawns), dtype=np.int8)
    hidden = np.zeros((n, p, size), dtype=np.int16)
    for k in range(n):
        r = rows[k]
        for q in range(p):
            for i in range(pawns):
                x = loc[r, q, i]
                if x >= 0 and up[r, q, i]:
                    shown[k, q, i] = x
                else:
                    shown[k, q, i] = hidden_code
                    if x >= 0:
                        hidden[k, q, x] += 1
    return shown, hidden


@njit(cache=True, nogil=True)
def work_legal(
    live: np.ndarray,
    seat: np.ndarray,
    rows: np.ndarray,
    camp: np.ndarray,
    free_fields: np.ndarray,
    used: np.ndarray,
    built: np.ndarray,
    manned: np.ndarray,
    loc: np.ndarray,
    strength: np.ndarray,
    pair_i: np.ndarray,
    pair_j: np.ndarray,
    forest: int,
    fields: int,
    volcano0: int,
    ocean0: int,
    swap0: int,
    size: int,
) -> np.ndarray:
    """The work-phase legal masks (R5.2-R5.7) of seat[k] in game rows[k] ([m, size]).

    live[k] indexes the phase's derived counts: camp [., P, 3] camp pawns per strength,
    free_fields [.], used [., P, V] own volcano spaces in use, built and manned [., P, K]
    boats. With pawns in camp the seat must place one (R5.2): forest spaces always (R5.4),
    the fields if one is free (R5.5), its own volcano spaces in use or its lowest unused one
    (R5.6), a free boat (R5.7). With an empty camp (R5.3): pass, or swap two
    own board pawns of different strengths standing in different places (all fields one
    place, all own boats one place).
    """
    m = len(live)
    targets = ocean0 + 1
    volcano = used.shape[2]
    legal = np.zeros((m, size), dtype=np.bool_)
    for k in range(m):
        c, q, r = live[k], seat[k], rows[k]
        if camp[c, q, 0] + camp[c, q, 1] + camp[c, q, 2] > 0:
            for s in range(3):
                if camp[c, q, s] == 0:
                    continue
                base = s * targets
                for t in range(forest):
                    legal[k, base + t] = True
                legal[k, base + fields] = free_fields[c] > 0
                new = True
                for v in range(volcano):
                    if used[c, q, v]:
                        legal[k, base + volcano0 + v] = True
                    elif new:
                        legal[k, base + volcano0 + v] = True
                        new = False
                for b in range(built.shape[2]):
                    if built[c, q, b] and not manned[c, q, b]:
                        legal[k, base + ocean0] = True
                        break
        else:
            legal[k, 3 * targets] = True
            for n in range(len(pair_i)):
                i, j = pair_i[n], pair_j[n]
                li, lj = loc[r, q, i], loc[r, q, j]
                if li < 0 or lj < 0 or strength[i] == strength[j]:
                    continue
                if li >= ocean0 and lj >= ocean0:
                    continue
                if li != lj:
                    legal[k, swap0 + n] = True
    return legal


@njit(cache=True, nogil=True)
def work_apply(
    live: np.ndarray,
    seat: np.ndarray,
    rows: np.ndarray,
    action: np.ndarray,
    camp: np.ndarray,
    camp_total: np.ndarray,
    free_fields: np.ndarray,
    used: np.ndarray,
    built: np.ndarray,
    manned: np.ndarray,
    loc: np.ndarray,
    up: np.ndarray,
    zone_up: np.ndarray,
    open_pawns: bool,
    pair_i: np.ndarray,
    pair_j: np.ndarray,
    per: int,
    fields: int,
    volcano0: int,
    ocean0: int,
    swap0: int,
) -> np.ndarray:
    """Apply work actions (as `WorkCodec` encodes them) and update the derived counts.

    A placement takes the seat's first camp pawn of that strength; "a free boat" is its
    first built boat with no pawn. The pawn is face up in the fields and on a boat (R5.5,
    R5.7), or always under V1. A swap exchanges two pawns' places; a pawn landing in the
    fields turns face up (R5.3). Returns the pawn placed per game (-1 for a pass or a swap).
    """
    targets = ocean0 + 1
    pass_action = 3 * targets
    placed = np.full(len(live), -1, dtype=np.int64)
    for k in range(len(live)):
        a, c, q, r = action[k], live[k], seat[k], rows[k]
        if a < pass_action:
            s, t = a // targets, a % targets
            pawn = s * per
            while loc[r, q, pawn] != -1:
                pawn += 1
            dest = t
            if t == ocean0:
                b = 0
                while not built[c, q, b] or manned[c, q, b]:
                    b += 1
                manned[c, q, b] = True
                dest = ocean0 + b
            elif t == fields:
                free_fields[c] -= 1
            elif t >= volcano0:
                used[c, q, t - volcano0] = True
            loc[r, q, pawn] = dest
            up[r, q, pawn] = open_pawns or zone_up[dest]
            camp[c, q, s] -= 1
            camp_total[c] -= 1
            placed[k] = pawn
        elif a > pass_action:
            i, j = pair_i[a - swap0], pair_j[a - swap0]
            li, lj = loc[r, q, i], loc[r, q, j]
            loc[r, q, i], loc[r, q, j] = lj, li
            if lj == fields:
                up[r, q, i] = True
            if li == fields:
                up[r, q, j] = True
    return placed


@njit(cache=True, nogil=True)
def single_legal(legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a legal mask: (exactly one action is legal, the first legal action or 0)."""
    n, size = legal.shape
    forced = np.zeros(n, dtype=np.bool_)
    first = np.zeros(n, dtype=np.int64)
    for r in range(n):
        count = 0
        for a in range(size):
            if legal[r, a]:
                if count == 0:
                    first[r] = a
                count += 1
                if count > 1:
                    break
        forced[r] = count == 1
    return forced, first


@njit(cache=True, nogil=True)
def volcano_legal(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    loc: np.ndarray,
    strength: np.ndarray,
    wood: np.ndarray,
    moai_owner: np.ndarray,
    tile_heights: np.ndarray,
    done: np.ndarray,
    volcano0: int,
    volcano: int,
) -> tuple[np.ndarray, np.ndarray]:
    """R6.2 masks [m, V + 1] (the last action, stop, left False) and the statue heights
    [m, V] on each own volcano space. A space can be finished if the clan has a wood, it was
    not finished this turn (done[go[k]]) and its pawns reach the lowest tile in the supply."""
    m, pawns = len(rows), loc.shape[2]
    legal = np.zeros((m, volcano + 1), dtype=np.bool_)
    height = np.zeros((m, volcano), dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        for i in range(pawns):
            x = loc[r, q, i] - volcano0
            if 0 <= x < volcano:
                height[k, x] += strength[i]
        if wood[r, q] < 1:
            continue
        lowest = 1 << 30
        for t in range(len(tile_heights)):
            if moai_owner[r, t] == -1 and tile_heights[t] < lowest:
                lowest = tile_heights[t]
        for v in range(volcano):
            h = height[k, v]
            legal[k, v] = h > 0 and not done[go[k], v] and h >= lowest
    return legal, height


@njit(cache=True, nogil=True)
def rest_legal(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    loc: np.ndarray,
    zone: np.ndarray,
    taken: np.ndarray,
) -> np.ndarray:
    """R7.2 masks [m, N]: the clan's board pawns in a zone (among the zones where it has
    pawns) from which it has taken the fewest pawns so far (taken[go[k]] per zone)."""
    m, pawns = len(rows), loc.shape[2]
    legal = np.zeros((m, pawns), dtype=np.bool_)
    for k in range(m):
        r, q, c = rows[k], seat[k], go[k]
        least = 1 << 30
        for i in range(pawns):
            x = loc[r, q, i]
            if x >= 0 and taken[c, zone[x + 2]] < least:
                least = taken[c, zone[x + 2]]
        for i in range(pawns):
            x = loc[r, q, i]
            legal[k, i] = x >= 0 and taken[c, zone[x + 2]] == least
    return legal


@njit(cache=True, nogil=True)
def feed_legal(
    rows: np.ndarray,
    seat: np.ndarray,
    loc: np.ndarray,
    up: np.ndarray,
    hand: np.ndarray,
    zone: np.ndarray,
    strength: np.ndarray,
    size: int,
) -> np.ndarray:
    """R6.3-R6.4 masks [m, size] in `FeedCodec` order: starve an own board pawn in the forest
    or the volcano; or raid a face-up rival pawn there with a Raid card of value r (1-3) and a
    second card of the victim's strength v, plain or Raid (combo c = 2 (r - 1) + raid)."""
    m, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    legal = np.zeros((m, size), dtype=np.bool_)
    ok = np.zeros((3, 6), dtype=np.bool_)  # by victim strength, combo
    for k in range(m):
        r, q = rows[k], seat[k]
        for i in range(pawns):
            x = loc[r, q, i]
            if x >= 0 and (zone[x + 2] == 0 or zone[x + 2] == 2):
                legal[k, i] = True
        for v in range(3):
            for c in range(6):
                raid = 2 + (c // 2 + 1)
                second = (3 if c % 2 == 1 else 0) + v
                if raid == second:
                    ok[v, c] = hand[r, q, raid] >= 2
                else:
                    ok[v, c] = hand[r, q, raid] >= 1 and hand[r, q, second] >= 1
        for victim in range(players):
            if victim == q:
                continue
            for j in range(pawns):
                x = loc[r, victim, j]
                if x < 0 or not up[r, victim, j] or not (zone[x + 2] == 0 or zone[x + 2] == 2):
                    continue
                base = pawns + (victim * pawns + j) * 6
                for c in range(6):
                    legal[k, base + c] = ok[strength[j] - 1, c]
    return legal


@njit(cache=True, nogil=True)
def birth_legal(
    rows: np.ndarray,
    seat: np.ndarray,
    hand: np.ndarray,
    loc: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
    pair_strength: np.ndarray,
    per: int,
) -> tuple[np.ndarray, np.ndarray]:
    """R7.3 masks [m, pairs + 1]: a pair of cards the clan holds whose lower value has a
    pawn of that strength in the clan's reserve; the last action, stop, is legal when any
    pair is. Also returns which games have a legal pair [m]."""
    m, pairs = len(rows), len(pair_a)
    legal = np.zeros((m, pairs + 1), dtype=np.bool_)
    some = np.zeros(m, dtype=np.bool_)
    reserve = np.zeros(3, dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        for s in range(3):
            reserve[s] = 0
            for i in range(s * per, (s + 1) * per):
                if loc[r, q, i] == -2:
                    reserve[s] += 1
        for x in range(pairs):
            a, b = pair_a[x], pair_b[x]
            have = hand[r, q, a] >= 2 if a == b else hand[r, q, a] >= 1 and hand[r, q, b] >= 1
            if have and reserve[pair_strength[x] - 1] > 0:
                legal[k, x] = True
                some[k] = True
        legal[k, pairs] = some[k]
    return legal, some


@njit(cache=True, nogil=True)
def birth_apply(
    rows: np.ndarray,
    seat: np.ndarray,
    pair: np.ndarray,
    hand: np.ndarray,
    discard: np.ndarray,
    loc: np.ndarray,
    births: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
    pair_strength: np.ndarray,
    per: int,
) -> None:
    """R7.3: discard the pair's two cards; the first reserve pawn of the lower card's
    strength goes to the camp."""
    for k in range(len(rows)):
        r, q, x = rows[k], seat[k], pair[k]
        a, b = pair_a[x], pair_b[x]
        hand[r, q, a] -= 1
        hand[r, q, b] -= 1
        discard[r, a] += 1
        discard[r, b] += 1
        pawn = (pair_strength[x] - 1) * per
        while loc[r, q, pawn] != -2:
            pawn += 1
        loc[r, q, pawn] = -1
        births[r, q] += 1


@njit(cache=True, nogil=True)
def rest_apply(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    pawn: np.ndarray,
    loc: np.ndarray,
    up: np.ndarray,
    zone: np.ndarray,
    taken: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """R7.2: the pawn goes back to camp, face down; its zone counts one more pawn taken
    (taken[go[k]]). Returns where each pawn was and whether it was face up."""
    m = len(rows)
    at = np.empty(m, dtype=np.int64)
    shown = np.empty(m, dtype=np.bool_)
    for k in range(m):
        r, q, i = rows[k], seat[k], pawn[k]
        at[k] = loc[r, q, i]
        shown[k] = up[r, q, i]
        taken[go[k], zone[at[k] + 2]] += 1
        loc[r, q, i] = -1
        up[r, q, i] = False
    return at, shown


@njit(cache=True, nogil=True)
def forest_presence(
    rows: np.ndarray, space: int, loc: np.ndarray, strength: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """R6.1: per game, which clans have pawns beside a forest space and their total strength
    there ([m, P] bool, [m, P] int)."""
    m, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    present = np.zeros((m, players), dtype=np.bool_)
    total = np.zeros((m, players), dtype=np.int64)
    for k in range(m):
        r = rows[k]
        for q in range(players):
            for i in range(pawns):
                if loc[r, q, i] == space:
                    present[k, q] = True
                    total[k, q] += strength[i]
    return present, total


@njit(cache=True, nogil=True)
def food_and_mouths(
    rows: np.ndarray, seat: np.ndarray, loc: np.ndarray, feeds: np.ndarray, strength: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """R6.3: per game, the seat's food (strength of its pawns on codes where `feeds`: the
    fields and boats) and mouths (its pawns on the board)."""
    m, pawns = len(rows), loc.shape[2]
    food = np.zeros(m, dtype=np.int64)
    mouths = np.zeros(m, dtype=np.int64)
    for k in range(m):
        r, q = rows[k], seat[k]
        for i in range(pawns):
            x = loc[r, q, i]
            if x >= 0:
                mouths[k] += 1
                if feeds[x]:
                    food[k] += strength[i]
    return food, mouths


@njit(cache=True, nogil=True)
def work_counts(
    rows: np.ndarray,
    loc: np.ndarray,
    per: int,
    fields: int,
    volcano0: int,
    volcano: int,
    ocean0: int,
    boats: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The work phase's derived counts at its start, per game of `rows`: camp pawns per
    clan and strength [n, P, 3], pawns in the fields [n], own volcano spaces in use
    [n, P, V] and manned boats [n, P, K]."""
    n, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    camp = np.zeros((n, players, 3), dtype=np.int64)
    in_fields = np.zeros(n, dtype=np.int64)
    used = np.zeros((n, players, volcano), dtype=np.bool_)
    manned = np.zeros((n, players, boats), dtype=np.bool_)
    for k in range(n):
        r = rows[k]
        for q in range(players):
            for i in range(pawns):
                x = loc[r, q, i]
                if x == -1:
                    camp[k, q, i // per] += 1
                elif x == fields:
                    in_fields[k] += 1
                elif volcano0 <= x < volcano0 + volcano:
                    used[k, q, x - volcano0] = True
                elif x >= ocean0:
                    manned[k, q, x - ocean0] = True
    return camp, in_fields, used, manned


@njit(cache=True, nogil=True)
def clan_counts(loc: np.ndarray, moai_owner: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """[B, P, N] locations, [B, T] tile owners, games `rows` -> [n, P, 3]: pawns on the
    board, pawns in camp and Moai tiles held, per clan."""
    n, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    out = np.zeros((n, players, 3), dtype=np.int64)
    for k in range(n):
        r = rows[k]
        for q in range(players):
            for i in range(pawns):
                x = loc[r, q, i]
                if x >= 0:
                    out[k, q, 0] += 1
                elif x == -1:
                    out[k, q, 1] += 1
        for t in range(moai_owner.shape[1]):
            q = moai_owner[r, t]
            if q >= 0:
                out[k, q, 2] += 1
    return out
