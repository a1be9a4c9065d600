"""Kaivai's compiled machine: B games played by numba kernels, the same rules as the reference
engine (`reference.py`, docs/kaivai-rules.md) step for step, so that both play the same games
from a seed and ask the same decisions with the same options in the same order.

A game is a state machine. Its cursor (`cur[r]`) says which step it stands in (bids, founding,
the god, a seat's turn, a boat action's steps, the final scoring) and how far; `play_game`
plays it on, taking every step that needs nobody, until it reaches a decision. The decision's
options are listed into a buffer (`options`, each one an integer, `Kind` by `Kind` as the
module's `OPTION` table says), in the reference engine's order; the seat's policy picks one
(`RANDOM`: the floor(u x n)-th, u the next value of the seat's stream, as the reference's
random strategy draws; `GREEDY`: `strategies/kaivai/plain.py` compiled; `PAUSE`: a Python
seat, whose question is kept and the game paused until its answer waits in the seat's slot);
`apply` carries it out and moves the cursor on. A paused game is entered again at the same
decision, its options listed again (they depend on the state only).

Hexes are numbered in (q, r) order (`Geometry`), so "sorted by hex" is "sorted by number" in
both engines; islands are numbered in the order their first cult site was placed and offered
by name (their first site, R0).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from moaisim import learned_model as lm
from moaisim.games.kaivai.engine import policy as w_
from moaisim.jit import kernel
from moaisim.rng import unit

#: The decision kinds (docs/kaivai-rules.md, section D), in `decisions.Kind`'s order.
(K_BID, K_FOUND, K_GOD, K_ACTION, K_CONTINUE, K_BUILD_STEP, K_FISH_STEP, K_DELIVER_STEP,
 K_MOVE_STEP, K_BUILD, K_FISH_ISLAND, K_DELIVER, K_CELEBRATE, K_SCORE_ISLAND,
 K_ISLAND_BID) = range(15)  # fmt: skip
N_KINDS = 15
#: The actions (R6) in D4's order, and the pass.
BUILD, FISH, DELIVER, MOVE, INCREASE, CELEBRATE, PASS = range(7)
N_ACTIONS = 6
#: Land kinds (R0): the hut kinds in `board.HUT_KINDS` order, then a cult site; -1 is water.
WATER, BOAT_HUT, TEMPLE, MEETING, SITE = -1, 0, 1, 2, 3
#: The steps of a game (`cur[r, C_STEP]`); TOO_LONG: stopped past `reference.MAX_DECISIONS`.
(ROUND_START, BID, FOUND, GOD, TURN, CELEBRATE_ASK, STEPS, STEP_ASK, BUILD_ASK, FISH_ASK,
 DELIVER_ASK, DECAY, FINAL_START, FINAL_PICK, FINAL_BID, OVER, TOO_LONG) = range(17)  # fmt: skip
#: The cursor's columns (`g.cur[r]`): the step; the seat's place (in the bidding order, the
#: turn order or the seat number of the island bids); founding's hut count and whether a boat
#: hut was placed; the action under way; the step's end hex; the island being scored;
#: decisions taken; then a Python seat's answer (`C_SLOT`, an index into the options) and
#: whether it waits there, whether the game is paused for one and the question's kind and
#: seat; decisions traced (`g.trace`).
(C_STEP, C_POS, C_K, C_BOATHUT, C_ACT, C_END, C_SCORING, C_DECISIONS, C_SLOT, C_FILLED,
 C_PAUSED, C_PEND_KIND, C_PEND_SEAT, C_TRACED) = range(14)  # fmt: skip
N_CURSOR = 14
#: Seats a game has at most (R0: 3 or 4 players).
MAX_SEATS = 4
#: The game's counters (`g.count[r]`): the round, cult tiles left and removed, the god's hex
#: (-1: none yet), fishing steps (the DICE stream's counter), islands, extra sites placed,
#: whether the water regions are up to date; then the tokens on each action space (R6.3), this
#: round's bidding order and its turn order (R3.4).
G_ROUND, G_TILES, G_REMOVED, G_GOD, G_FISHING, G_ISLANDS, G_EXTRA, G_REGIONS = range(8)
G_SPACES = 8
G_ORDER = G_SPACES + 6
G_TURNS = G_ORDER + MAX_SEATS
N_COUNT = G_TURNS + MAX_SEATS
#: What each hex holds (`g.hexes[r, H_..., h]`): its land kind (WATER ... SITE), a hut's
#: owner, a land hex's island, fish on a hut (R8.3), the boat's owner (-1: none), 1 for a
#: boat on its boat hut, its water region's number (with `G_REGIONS`; -1 on land), the
#: islands region h borders (bit i: island i, by region number h), 1 where a boat of this
#: turn's action acted and ended (R6.8), 1 where the seat's boat stood when the turn began.
(H_KIND, H_OWNER, H_ISLAND, H_FISH, H_BOAT, H_ON_HUT, H_REGION, H_SHORES, H_ACTED,
 H_START) = range(10)  # fmt: skip
N_HEX_FIELDS = 10
#: What each island holds (`g.isl[r, I_..., i]`): its first cult site (its name, R0), its
#: hexes, its cult sites, 1 while it is still to be scored (R10.2), then seat s's temples on
#: it at I_TEMPLES + s.
I_FIRST, I_SIZE, I_SITES, I_LEFT, I_TEMPLES = range(5)
#: The random streams' keys and places (`g.rand[r]`, uint64): seat s's key at s, its place at
#: R_POS + s, the key of chance purpose k at R_CHANCE + k.
R_POS, R_CHANCE = MAX_SEATS, 2 * MAX_SEATS
#: The rows of the work array (`sc[W_..., i]`): the options of the decision at hand and a sort
#: key each, the steps to each hex (-1 unreached), a queue, a trap test's pieces and their
#: sizes, and two short lists.
W_OPTS, W_KEYS, W_REACH, W_QUEUE, W_PIECE, W_SIZES, W_INTS, W_MORE, W_WHERE = range(9)
N_WORK = 9
#: A restriction's forbid bits (`Lineup.forbid`, `strategies/kaivai/restrict.py`): an action
#: each (bit a of `BUILD` ... `CELEBRATE`), then the pass before acting (a sacrifice, R6.5),
#: a move step onto a rival's boat (R8.4), fish delivered to a rival's hut (R8.3), and the
#: bids 1-3, 4-6 and 7-10 (R3).
(F_SACRIFICE, F_PIRACY, F_SELL, F_BIDS_LOW, F_BIDS_MID, F_BIDS_HIGH) = (
    1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 10, 1 << 11)  # fmt: skip
#: Each seat's figures (`g.seat[r, s]`): influence, huts, boats and statues in supply, glory,
#: bonus position, the score's parts (feasts, huts, sites, piracy), this round's bid (0: none),
#: passed this round, acted this round, its island bid (kept secret until all are in).
(S_INFLUENCE, S_HUTS, S_BOATS, S_STATUES, S_GLORY, S_BONUS, S_FEASTS, S_HUT_GLORY, S_SITES,
 S_PIRACY, S_BID, S_PASSED, S_ACTED, S_SECRET, S_CELEBRATED) = range(15)  # fmt: skip
N_SEAT = 15
#: The chance purposes (`chance.Chance`).
EXTRA_SITES, ORDER, DICE = 0, 1, 2
DICE_PER_STEP = 4
#: The policy families (`Lineup.family`): the base class's uniform choice, `greedy`, a Python
#: seat, the weighted heuristic (`policy.WEIGHTS`, the seat's `Lineup.weights`), a learned
#: ranker (`ranked`, the seat's `Lineup.model`).
RANDOM, GREEDY, PAUSE, HEURISTIC, LEARNED = 0, 1, 2, 3, 4
#: Decisions a game may take before it is called broken (`reference.MAX_DECISIONS`).
MAX_DECISIONS = 20_000
#: Shell and fish values are counted in slots 0 .. VALUES - 1.
VALUES = 16


class Geometry(NamedTuple):
    """The board's hexes by number ((q, r) order): neighbours in (q, r) order (-1 padding),
    the six neighbours round each hex (`board.RING`, -1 off the board), distances, and the
    distance to the centre."""

    nbr: np.ndarray  # [N, 6]
    ring: np.ndarray  # [N, 6]
    dist: np.ndarray  # [N, N]
    centre: np.ndarray  # [N]


class Consts(NamedTuple):
    """The rules' figures and options as the kernels read them (`batch.consts`)."""

    players: int
    radius: int
    printed: np.ndarray  # [k] hex numbers of the printed cult sites (R1.1)
    min_distance: int
    bid_distance: np.ndarray  # [10]
    bonus: np.ndarray  # [9]
    sixths: np.ndarray  # [4]
    sale: np.ndarray  # [capacity]
    sink_base: int
    capacity: int
    huts: int
    boats: int
    statues: int
    start_influence: int
    start_shells: np.ndarray
    start_fish: np.ndarray
    rounds: int
    cult_tiles: int
    extra_sites: int
    second: bool
    fishing: int  # 0 dice, 1 lessluck, 2 luckless (O2)
    anywhere: bool  # O3
    victim_pays: bool  # O4
    boats_on_huts: bool  # O5
    hidden: bool  # O6
    all_cut_off: bool  # O7
    sacrifice: int  # R6.5
    catch_freshness: int
    top: int  # shell and fish values are below this


class Arrays(NamedTuple):
    """The state of B games (N hexes, I islands at most, P seats), a few arrays (each kernel
    call passes every array's shape, so fewer arrays are faster calls)."""

    hexes: np.ndarray  # [B, N_HEX_FIELDS, N]
    isl: np.ndarray  # [B, I_TEMPLES + P, I]
    count: np.ndarray  # [B, N_COUNT]
    cur: np.ndarray  # [B, N_CURSOR]
    seat: np.ndarray  # [B, P, N_SEAT]
    vals: np.ndarray  # [B, P, 2, VALUES] shells of each value, fish of each freshness
    rand: np.ndarray  # [B, R_CHANCE + 8] uint64
    trace: np.ndarray  # [B, T, 4] kind, seat, options, choice of each decision (T may be 0)
    track: np.ndarray  # [B, rounds or 0, P, 5] each seat's glory, money, fish, huts built,
    # feasts celebrated
    # as each round's decay ends it (`results.TRACKED`; kept when a run asks for rounds)


class Lineup(NamedTuple):
    """Each seat's policy family in each game [B, P], a heuristic seat's weights
    [B, P, policy.NW], a restricted seat's forbid bits [B, P] (`F_SACRIFICE` ...), a learned
    seat's model [B, P] (-1: none) and the models' tables (K models,
    `learned_model.model_tables`), with the policies' scratch arrays (A: the most options)."""

    family: np.ndarray
    weights: np.ndarray
    forbid: np.ndarray
    model: np.ndarray  # [B, P]
    ints: np.ndarray  # [K, 5] each model's experts, first tree, trees, kinds (`learned_model.I_`)
    constants: np.ndarray  # [K] each model's constant
    experts: np.ndarray  # [K, learned_model.MAX_EXPERTS, NW] each model's experts' weights
    nodes: np.ndarray  # [N, 5] the models' trees
    roots: np.ndarray  # [T] each tree's root row
    scores: np.ndarray  # [MAX_EXPERTS, A] scratch: each expert's values of the options
    cands: np.ndarray  # [MAX_EXPERTS, 2] scratch: the candidates (`learned_model.C_`)
    rows: np.ndarray  # [MAX_EXPERTS, policy.N_RANK] scratch: their rows


# --- the board ------------------------------------------------------------------------------
@kernel(nrt=False, inline="always")
def is_water(g, r: int, h: int) -> bool:  # noqa: ANN001
    """R0: a board hex with no cult site and no hut."""
    return h >= 0 and g.hexes[r, H_KIND, h] == WATER


@kernel(nrt=False)
def add_land(g, r: int, h: int, island: int, kind: int, owner: int) -> None:  # noqa: ANN001
    g.hexes[r, H_KIND, h] = kind
    g.hexes[r, H_OWNER, h] = owner
    g.hexes[r, H_ISLAND, h] = island
    g.isl[r, I_SIZE, island] += 1
    if kind == SITE:
        g.isl[r, I_SITES, island] += 1
    g.count[r, G_REGIONS] = 0


@kernel(nrt=False)
def new_island(g, r: int, h: int) -> int:  # noqa: ANN001
    """R1.2: a cult site on `h` starting an island of its own."""
    i = g.count[r, G_ISLANDS]
    g.count[r, G_ISLANDS] = i + 1
    g.isl[r, I_FIRST, i] = h
    add_land(g, r, h, i, SITE, -1)
    return i


@kernel(nrt=False)
def flood(g, geo, sc, r: int, start: int, labels, label: int, skip: int) -> int:  # noqa: ANN001
    """Label `label` on the water hexes joined to `start` through water, `skip` taken as land
    (`labels[x]` < 0: not labelled yet); the number labelled."""
    labels[start] = label
    sc[W_QUEUE, 0] = start
    head, tail = 0, 1
    while head < tail:
        x = sc[W_QUEUE, head]
        head += 1
        for j in range(6):
            y = geo.nbr[x, j]
            if y < 0:
                break
            if y != skip and g.hexes[r, H_KIND, y] == WATER and labels[y] < 0:
                labels[y] = label
                sc[W_QUEUE, tail] = y
                tail += 1
    return tail


@kernel(nrt=False)
def regions(g, geo, sc, r: int) -> None:  # noqa: ANN001
    """The water regions (R7.4) numbered in the order of their first hex, and the islands each
    borders (R7.5), found again when land has changed."""
    if g.count[r, G_REGIONS]:
        return
    n = len(geo.centre)
    region = g.hexes[r, H_REGION]
    for h in range(n):
        region[h] = -1
    k = 0
    for h in range(n):
        if g.hexes[r, H_KIND, h] == WATER and region[h] < 0:
            flood(g, geo, sc, r, h, region, k, -1)
            g.hexes[r, H_SHORES, k] = 0
            k += 1
    for h in range(n):  # each region's shores: the islands of the land next to its hexes
        if region[h] >= 0:
            for j in range(6):
                y = geo.nbr[h, j]
                if y < 0:
                    break
                if g.hexes[r, H_KIND, y] != WATER:
                    g.hexes[r, H_SHORES, region[h]] |= 1 << g.hexes[r, H_ISLAND, y]
    g.count[r, G_REGIONS] = 1


@kernel(nrt=False, inline="always")
def enclosed(g, geo, sc, r: int, h: int) -> bool:  # noqa: ANN001
    """R7.5: every land hex bordering the water region of `h` is of one single island."""
    if not g.count[r, G_REGIONS]:
        regions(g, geo, sc, r)
    mask = g.hexes[r, H_SHORES, g.hexes[r, H_REGION, h]]
    return (mask & (mask - 1)) == 0


@kernel(nrt=False, inline="always")
def adjacent_island(g, geo, r: int, h: int) -> tuple[int, int]:  # noqa: ANN001
    """(how many islands have a hex next to `h`, the lowest-numbered of them or -1)."""
    mask = 0
    for j in range(6):
        y = geo.nbr[h, j]
        if y < 0:
            break
        if g.hexes[r, H_KIND, y] != WATER:
            mask |= 1 << g.hexes[r, H_ISLAND, y]
    if mask == 0:
        return 0, -1
    n, low = 0, -1
    for i in range(62):
        if mask & (1 << i):
            if low < 0:
                low = i
            n += 1
    return n, low


@kernel(nrt=False, inline="always")
def site_mask(g, geo, r: int, h: int) -> int:  # noqa: ANN001
    """Bit i: island i has a cult site next to `h`."""
    mask = 0
    for j in range(6):
        y = geo.nbr[h, j]
        if y < 0:
            break
        if g.hexes[r, H_KIND, y] == SITE:
            mask |= 1 << g.hexes[r, H_ISLAND, y]
    return mask


@kernel(nrt=False, inline="always")
def water_boat(g, r: int, h: int, without: int, extra: int) -> bool:  # noqa: ANN001
    """A boat on water on `h` (`without`'s boat taken away, one standing on `extra`)."""
    if h == extra:
        return True
    return h != without and g.hexes[r, H_BOAT, h] >= 0 and g.hexes[r, H_ON_HUT, h] == 0


@kernel(nrt=False, inline="always")
def traps(g, geo, sc, c, r: int, h: int, without: int, extra: int) -> bool:  # noqa: ANN001
    """R7.4: whether turning the water hex `h` to land traps a boat on water (the boats on
    water, `without`'s taken away and one put on `extra`). The pieces of h's region without
    h: a boat in a piece smaller than the largest is trapped; pieces tied for largest are all
    free (`any_largest`) or none is (`all_cut_off`, O7)."""
    # the runs of water round h: with at most one, h's water stays joined without it
    runs = 0
    for j in range(6):
        a, b = geo.ring[h, j], geo.ring[h, (j + 5) % 6]
        if is_water(g, r, a) and not is_water(g, r, b):
            runs += 1
    if runs <= 1:
        return False
    return cut_off(g, geo, sc, c, r, h, without, extra)


@kernel(nrt=False)
def cut_off(g, geo, sc, c, r: int, h: int, without: int, extra: int) -> bool:  # noqa: ANN001
    """`traps` past its quick test (h's water would split): the pieces and the boats in
    them."""
    regions(g, geo, sc, r)
    reg = g.hexes[r, H_REGION, h]
    n = len(geo.centre)
    any_boat = False
    for x in range(n):
        if x != h and g.hexes[r, H_REGION, x] == reg and water_boat(g, r, x, without, extra):
            any_boat = True
            break
    if not any_boat:
        return False
    piece = sc[W_PIECE]
    for x in range(n):
        piece[x] = -1
    pieces = 0
    for x in range(n):  # the pieces of h's region without h
        if x != h and g.hexes[r, H_REGION, x] == reg and piece[x] < 0:
            sc[W_SIZES, pieces] = flood(g, geo, sc, r, x, piece, pieces, h)
            pieces += 1
    if pieces <= 1:
        return False
    largest, tied = 0, 0
    for k in range(pieces):
        if sc[W_SIZES, k] > largest:
            largest, tied = sc[W_SIZES, k], 1
        elif sc[W_SIZES, k] == largest:
            tied += 1
    for x in range(n):
        if x != h and g.hexes[r, H_REGION, x] == reg and water_boat(g, r, x, without, extra):
            size = sc[W_SIZES, sc[W_PIECE, x]]
            if size < largest or (tied > 1 and c.all_cut_off):
                return True
    return False


@kernel(nrt=False, inline="always")
def placement_legal(g, geo, sc, c, r: int, h: int) -> bool:  # noqa: ANN001
    """R7.3, R7.4: a hut or cult tile may go on the water hex `h` with no boat, next to
    exactly one island, trapping no boat on water."""
    if g.hexes[r, H_KIND, h] != WATER or g.hexes[r, H_BOAT, h] >= 0:
        return False
    n, _ = adjacent_island(g, geo, r, h)
    if n != 1:
        return False
    return not traps(g, geo, sc, c, r, h, -1, -1)


@kernel(nrt=False)
def reach(g, geo, sc, r: int, start: int, steps: int) -> None:  # noqa: ANN001
    """R7.1: `sc[W_REACH, h]` = the fewest steps through water from `start` to the water hex h,
    at most `steps` (-1: not reached); a boat on its boat hut must leave it."""
    n = len(geo.centre)
    for x in range(n):
        sc[W_REACH, x] = -1
    on_land = g.hexes[r, H_KIND, start] != WATER
    if not on_land:
        sc[W_REACH, start] = 0
    sc[W_QUEUE, 0] = start
    head, tail = 0, 1
    for k in range(1, steps + 1):
        end = tail
        while head < end:
            x = sc[W_QUEUE, head]
            head += 1
            for j in range(6):
                y = geo.nbr[x, j]
                if y < 0:
                    break
                if g.hexes[r, H_KIND, y] == WATER and sc[W_REACH, y] < 0 and y != start:
                    sc[W_REACH, y] = k
                    sc[W_QUEUE, tail] = y
                    tail += 1


# --- seats ----------------------------------------------------------------------------------
@kernel(nrt=False, inline="always")
def money(g, c, r: int, s: int) -> int:  # noqa: ANN001
    total = 0
    for v in range(1, c.top):
        total += v * g.vals[r, s, 0, v]
    return total


@kernel(nrt=False, inline="always")
def fish_count(g, c, r: int, s: int) -> int:  # noqa: ANN001
    total = 0
    for v in range(1, c.top):
        total += g.vals[r, s, 1, v]
    return total


@kernel(nrt=False, inline="always")
def boats_on_board(g, c, r: int, s: int) -> int:  # noqa: ANN001
    """The seat's boats on the board: a boat leaves the supply only onto its boat hut (R8.1.6)
    and comes back only when sunk (R8.4.3)."""
    return c.boats - g.seat[r, s, S_BOATS]


@kernel(nrt=False, inline="always")
def huts_built(g, c, r: int, s: int) -> int:  # noqa: ANN001
    """The seat's huts on the board: a hut tile leaves the supply only to be placed."""
    return c.huts - g.seat[r, s, S_HUTS]


@kernel(nrt=False)
def wealth_before(g, c, r: int, a: int, b: int) -> bool:  # noqa: ANN001
    """R2.3: whether seat `a` comes before seat `b` poorest first: glory, money, fish, boats on
    the board ascending, huts in supply descending, then the previous bidding order."""
    ka = (g.seat[r, a, S_GLORY], money(g, c, r, a), fish_count(g, c, r, a),
          boats_on_board(g, c, r, a), -g.seat[r, a, S_HUTS])  # fmt: skip
    kb = (g.seat[r, b, S_GLORY], money(g, c, r, b), fish_count(g, c, r, b),
          boats_on_board(g, c, r, b), -g.seat[r, b, S_HUTS])  # fmt: skip
    if ka != kb:
        return ka < kb
    pa, pb = 0, 0
    for i in range(MAX_SEATS):
        if g.count[r, G_ORDER + i] == a:
            pa = i
        if g.count[r, G_ORDER + i] == b:
            pb = i
    return pa < pb


@kernel(nrt=False)
def wealth_order(g, c, sc, r: int, p: int) -> None:  # noqa: ANN001
    """`sc[W_INTS, :p]` = the seats poorest first (R2.3)."""
    for i in range(p):
        sc[W_INTS, i] = i
    for i in range(1, p):  # insertion sort: stable, as `sorted`
        x = sc[W_INTS, i]
        j = i - 1
        while j >= 0 and wealth_before(g, c, r, x, sc[W_INTS, j]):
            sc[W_INTS, j + 1] = sc[W_INTS, j]
            j -= 1
        sc[W_INTS, j + 1] = x


@kernel(nrt=False, inline="always")
def range_of(g, c, r: int, s: int) -> int:  # noqa: ANN001
    """R0: bid distance + movement bonus."""
    return c.bid_distance[g.seat[r, s, S_BID] - 1] + c.bonus[g.seat[r, s, S_BONUS]]


@kernel(nrt=False, inline="always")
def can_take(g, r: int, s: int, kind: int) -> bool:  # noqa: ANN001
    """R8.1.3: a hut tile, and a statue for a temple, a boat for a boat hut."""
    if g.seat[r, s, S_HUTS] < 1:
        return False
    if kind == TEMPLE and g.seat[r, s, S_STATUES] < 1:
        return False
    return not (kind == BOAT_HUT and g.seat[r, s, S_BOATS] < 1)


@kernel(nrt=False, inline="always")
def god_island(g, r: int) -> int:  # noqa: ANN001
    god = g.count[r, G_GOD]
    return -1 if god < 0 else g.hexes[r, H_ISLAND, god]


@kernel(nrt=False)
def place_hut(g, r: int, s: int, h: int, island: int, kind: int, founding: bool) -> None:  # noqa: ANN001
    g.seat[r, s, S_HUTS] -= 1
    add_land(g, r, h, island, kind, s)
    if kind == TEMPLE:
        g.seat[r, s, S_STATUES] -= 1
        g.isl[r, I_TEMPLES + s, island] += 1
    if kind == BOAT_HUT:  # R8.1.6: its new boat stands on it
        g.seat[r, s, S_BOATS] -= 1
        g.hexes[r, H_BOAT, h] = s
        g.hexes[r, H_ON_HUT, h] = 1
    if kind == MEETING and not founding and god_island(g, r) == island:  # R8.1.5
        g.seat[r, s, S_INFLUENCE] += 1


@kernel(nrt=False, inline="always")
def temples(g, geo, r: int, s: int, island: int) -> int:  # noqa: ANN001
    return g.isl[r, I_TEMPLES + s, island]


@kernel(nrt=False)
def presence(g, geo, c, r: int, s: int, island: int) -> int:  # noqa: ANN001
    """R10.3: the seat's huts on the island + its boats on water next to one of its cult
    sites (boats on their huts count under O5 only)."""
    k = 0
    for h in range(len(geo.centre)):
        if (
            g.hexes[r, H_KIND, h] != WATER
            and g.hexes[r, H_KIND, h] != SITE
            and g.hexes[r, H_ISLAND, h] == island
        ) and g.hexes[r, H_OWNER, h] == s:
            k += 1
        if g.hexes[r, H_BOAT, h] == s and (g.hexes[r, H_ON_HUT, h] == 0 or c.boats_on_huts):
            for j in range(6):
                y = geo.nbr[h, j]
                if y < 0:
                    break
                if g.hexes[r, H_KIND, y] == SITE and g.hexes[r, H_ISLAND, y] == island:
                    k += 1
                    break
    return k


# --- options --------------------------------------------------------------------------------
@kernel(nrt=False)
def sort_options(sc, n: int) -> None:  # noqa: ANN001
    """`sc[W_OPTS, :n]` in the order of `sc[W_KEYS, :n]` (insertion sort: stable)."""
    for i in range(1, n):
        o, k = sc[W_OPTS, i], sc[W_KEYS, i]
        j = i - 1
        while j >= 0 and sc[W_KEYS, j] > k:
            sc[W_OPTS, j + 1], sc[W_KEYS, j + 1] = sc[W_OPTS, j], sc[W_KEYS, j]
            j -= 1
        sc[W_OPTS, j + 1], sc[W_KEYS, j + 1] = o, k


@kernel(nrt=False)
def island_options(g, sc, r: int, mask: int) -> int:  # noqa: ANN001
    """The islands of `mask` by name (their first cult site): `sc.opts`, their number."""
    n = 0
    for i in range(g.count[r, G_ISLANDS]):
        if mask & (1 << i):
            sc[W_OPTS, n], sc[W_KEYS, n] = i, g.isl[r, I_FIRST, i]
            n += 1
    sort_options(sc, n)
    return n


@kernel(nrt=False)
def feast_mask(g, geo, r: int) -> int:  # noqa: ANN001
    """R8.6: the islands with fish on a hut."""
    mask = 0
    for h in range(len(geo.centre)):
        if g.hexes[r, H_KIND, h] != WATER and g.hexes[r, H_FISH, h] > 0:
            mask |= 1 << g.hexes[r, H_ISLAND, h]
    return mask


@kernel(nrt=False, inline="always")
def fish_mask(g, geo, r: int, s: int, end: int) -> int:  # noqa: ANN001
    """R8.2.1: islands with a cult site next to the end hex that hold the god or one of the
    seat's temples."""
    sites, god, out = site_mask(g, geo, r, end), god_island(g, r), 0
    for i in range(g.count[r, G_ISLANDS]):
        if sites & (1 << i) and (i == god or temples(g, geo, r, s, i) > 0):
            out |= 1 << i
    return out


@kernel(nrt=False, inline="always")
def build_options(g, geo, sc, c, r: int, s: int, boat: int, end: int, out: bool) -> int:  # noqa: ANN001
    """D6: the (hut hex, kind) a build step from `boat` to `end` may place and pay, as
    hex * 3 + kind (R8.1.1-R8.1.3, R7.3, R7.4); with `out` False only whether there is one."""
    by_end = site_mask(g, geo, r, end)
    if by_end == 0:
        return 0
    n, purse = 0, money(g, c, r, s)
    for j in range(6):
        h = geo.nbr[end, j]
        if h < 0:
            break
        if g.hexes[r, H_KIND, h] != WATER or (g.hexes[r, H_BOAT, h] >= 0 and h != boat):
            continue
        k, island = adjacent_island(g, geo, r, h)
        if k != 1 or not by_end & (1 << island):
            continue
        cost = g.seat[r, s, S_BID] + g.isl[r, I_SIZE, island]  # R8.1.2
        if purse < cost:
            continue
        if traps(g, geo, sc, c, r, h, boat, end):
            continue
        for kind in range(3):
            if can_take(g, r, s, kind):
                if not out:
                    return 1
                sc[W_OPTS, n] = h * 3 + kind
                n += 1
    return n


@kernel(nrt=False, inline="always")
def deliver_huts(g, geo, c, sc, r: int, boat: int, end: int) -> int:  # noqa: ANN001
    """R8.3.1: fish-holding huts next to the end hex with room (meeting huts, and boat huts
    with no boat on them, the acting boat leaving its own freeing it): their slots round `end`
    in `sc.more`, their number."""
    n = 0
    for j in range(6):
        h = geo.nbr[end, j]
        if h < 0:
            break
        kind = g.hexes[r, H_KIND, h]
        if kind in (WATER, SITE, TEMPLE) or g.hexes[r, H_FISH, h] >= c.capacity:
            continue
        if kind == MEETING or g.hexes[r, H_ON_HUT, h] == 0 or h == boat:
            sc[W_MORE, n] = j
            n += 1
    return n


@kernel(nrt=False)
def deliver_options(g, geo, c, sc, r: int, s: int, end: int) -> int:  # noqa: ANN001
    """D8: every way to put 1 .. (own fish) fish on the huts, at most their room each, in the
    order of `itertools.product` over the huts (the last hut's count fastest); each as its
    counts in base (capacity + 1) digits by the hut's slot round `end`."""
    huts = deliver_huts(g, geo, c, sc, r, end, end)
    have = fish_count(g, c, r, s)
    base = c.capacity + 1
    total = 1
    for i in range(huts):
        room = c.capacity - g.hexes[r, H_FISH, geo.nbr[end, sc[W_MORE, i]]]
        sc[W_INTS, i] = room + 1
        total *= room + 1
    n = 0
    for idx in range(total):
        code, left, summed = 0, idx, 0
        for i in range(huts - 1, -1, -1):
            cnt = left % sc[W_INTS, i]
            left //= sc[W_INTS, i]
            summed += cnt
            weight = 1
            for _ in range(sc[W_MORE, i]):
                weight *= base
            code += cnt * weight
        if 1 <= summed <= have:
            sc[W_OPTS, n] = code
            n += 1
    return n


@kernel(nrt=False, inline="always")
def end_free(g, geo, sc, r: int, s: int, boat: int, end: int, sinking: bool) -> bool:  # noqa: ANN001
    """R7.2: a water hex with no other boat (a Move may sink), not enclosed (R7.5)."""
    other = g.hexes[r, H_BOAT, end]
    if end != boat and other >= 0 and not (sinking and other != s):
        return False
    return not enclosed(g, geo, sc, r, end)


@kernel(nrt=False, inline="always")
def sink_cost(g, geo, c, r: int, victim: int) -> int:  # noqa: ANN001
    """R8.4.3: base - the victim's boats on the board, never below 0."""
    return max(0, c.sink_base - boats_on_board(g, c, r, victim))


@kernel(nrt=False, inline="always")
def sink_legal(g, geo, c, r: int, s: int, end: int) -> bool:  # noqa: ANN001
    """R8.4.2-R8.4.4."""
    victim = g.hexes[r, H_BOAT, end]
    if victim < 0:
        return True
    if victim == s or g.hexes[r, H_ON_HUT, end]:
        return False
    if boats_on_board(g, c, r, victim) <= 1:
        return False
    return c.victim_pays or g.seat[r, s, S_GLORY] >= sink_cost(g, geo, c, r, victim)


@kernel(nrt=False, inline="always")
def step_legal(g, geo, sc, c, r: int, s: int, act: int, boat: int, end: int) -> bool:  # noqa: ANN001
    """D5: the action's effect is legal from the step (`boat` to `end`)."""
    if act == MOVE:
        return end_free(g, geo, sc, r, s, boat, end, True) and sink_legal(g, geo, c, r, s, end)
    return effect_legal(g, geo, sc, c, r, s, act, boat, end) and end_free(
        g, geo, sc, r, s, boat, end, False
    )


@kernel(nrt=False, inline="always")
def effect_legal(g, geo, sc, c, r: int, s: int, act: int, boat: int, end: int) -> bool:  # noqa: ANN001
    """A build, a catch or a delivery can be made from `end` (R8.1-R8.3), the end hex's being
    free aside (`end_free`)."""
    if act == BUILD:
        return build_options(g, geo, sc, c, r, s, boat, end, False) > 0
    if act == FISH:
        return fish_mask(g, geo, r, s, end) != 0
    if fish_count(g, c, r, s) == 0:  # deliver
        return False
    return deliver_huts(g, geo, c, sc, r, boat, end) > 0


@kernel(nrt=False)
def steps(g, geo, sc, c, r: int, s: int, act: int, out: bool) -> int:  # noqa: ANN001
    """D5: the (boat, end) steps from which the action's effect is legal, as boat * N + end,
    boats and ends in hex order, for the seat's boats of the turn's start that have not acted
    (R6.8); with `out` False only whether there is one."""
    n_hex = len(geo.centre)
    rng = range_of(g, c, r, s)
    n = 0
    for boat in range(n_hex):
        if g.hexes[r, H_BOAT, boat] != s:
            continue
        if g.hexes[r, H_ACTED, boat] or not g.hexes[r, H_START, boat]:
            continue
        reach(g, geo, sc, r, boat, rng)
        for end in range(n_hex):
            k = sc[W_REACH, end]
            if k < 0 or (act == MOVE and k == 0):
                continue
            if step_legal(g, geo, sc, c, r, s, act, boat, end):
                if not out:
                    return 1
                sc[W_OPTS, n] = boat * n_hex + end
                n += 1
    return n


@kernel(nrt=False)
def legal_actions(g, geo, sc, c, r: int, s: int) -> int:  # noqa: ANN001
    """Bit a: action a is legal for seat `s` now (R6.4: it can pay the price and carry out a
    step): Increase below the bonus track's end (R8.5), Celebrate with fish on a hut (R8.6);
    the boat actions found together, each boat's reach once, each end tried for the actions
    still open."""
    mask, open_ = 0, 0
    for a in range(N_ACTIONS):
        if g.seat[r, s, S_INFLUENCE] < g.count[r, G_SPACES + a]:
            continue
        if a == INCREASE:
            if g.seat[r, s, S_BONUS] < len(c.bonus) - 1:
                mask |= 1 << a
        elif a == CELEBRATE:
            if feast_mask(g, geo, r) != 0:
                mask |= 1 << a
        elif could_act(g, geo, c, r, s, a):
            open_ |= 1 << a
    if open_ == 0:
        return mask
    n_hex = len(geo.centre)
    rng = range_of(g, c, r, s)
    for boat in range(n_hex):
        if g.hexes[r, H_BOAT, boat] != s:
            continue
        reach(g, geo, sc, r, boat, rng)
        for end in range(n_hex):
            k = sc[W_REACH, end]
            if k < 0:
                continue
            free = -1  # the end hex free for a build, a catch or a delivery (R7.2), once
            for a in range(4):
                if not open_ & (1 << a) or (a == MOVE and k == 0):
                    continue
                if a == MOVE:
                    ok = step_legal(g, geo, sc, c, r, s, a, boat, end)
                else:
                    ok = effect_legal(g, geo, sc, c, r, s, a, boat, end)
                    if ok:
                        if free < 0:
                            free = 1 if end_free(g, geo, sc, r, s, boat, end, False) else 0
                        ok = free == 1
                if ok:
                    open_ &= ~(1 << a)
                    mask |= 1 << a
            if open_ == 0:
                return mask
    return mask


@kernel(nrt=False)
def could_act(g, geo, c, r: int, s: int, act: int) -> bool:  # noqa: ANN001
    """A quick necessary condition of a boat action's step anywhere (`legal_actions` looks for
    one only when it holds): a build needs a hut the seat can take and the least cost (its bid
    + 1); fishing the god on the board or a temple of its own; a delivery fish and a hut with
    room."""
    if act == MOVE:
        return True
    if act == BUILD:
        if money(g, c, r, s) < g.seat[r, s, S_BID] + 1:
            return False
        return (
            can_take(g, r, s, BOAT_HUT) or can_take(g, r, s, TEMPLE) or can_take(g, r, s, MEETING)
        )
    if act == FISH:
        if g.count[r, G_GOD] >= 0:
            return True
        for h in range(len(geo.centre)):
            if g.hexes[r, H_KIND, h] == TEMPLE and g.hexes[r, H_OWNER, h] == s:
                return True
        return False
    if fish_count(g, c, r, s) == 0:
        return False
    for h in range(len(geo.centre)):
        k = g.hexes[r, H_KIND, h]
        if (k in (MEETING, BOAT_HUT)) and g.hexes[r, H_FISH, h] < c.capacity:
            return True
    return False


@kernel(nrt=False)
def score_shortcut(g, geo, c, sc, r: int, island: int) -> bool:  # noqa: ANN001
    """R10.4: nobody can change the result (no influence, or one seat's presence beats every
    other's presence + influence); the presences in `sc[W_MORE, :P]`."""
    p = c.players
    total = 0
    for s in range(p):
        sc[W_MORE, s] = presence(g, geo, c, r, s, island)
        total += g.seat[r, s, S_INFLUENCE]
    if total == 0:
        return True
    for s in range(p):
        beats = True
        for t in range(p):
            if t != s and sc[W_MORE, s] <= sc[W_MORE, t] + g.seat[r, t, S_INFLUENCE]:
                beats = False
                break
        if beats:
            return True
    return False


@kernel(nrt=False)
def options(g, geo, sc, c, r: int, kind: int, s: int) -> int:  # noqa: ANN001
    """The options of the decision of `kind` game r stands at, asked of seat `s`, into
    `sc.opts` in the reference engine's order; their number."""
    n_hex = len(geo.centre)
    if kind == K_BID:  # D1: the free bids, ascending
        n = 0
        for b in range(1, len(c.bid_distance) + 1):
            free = True
            for t in range(c.players):
                if g.seat[r, t, S_BID] == b:
                    free = False
            if free:
                sc[W_OPTS, n] = b
                n += 1
        return n
    if kind == K_FOUND:  # D2 (R4): next to a cult site, placement legal; a boat hut second
        only_boat = g.cur[r, C_K] == 1 and not g.cur[r, C_BOATHUT]
        n = 0
        for h in range(n_hex):
            if site_mask(g, geo, r, h) == 0 or not placement_legal(g, geo, sc, c, r, h):
                continue
            for k in range(3):
                if (k == BOAT_HUT or not only_boat) and can_take(g, r, s, k):
                    sc[W_OPTS, n] = h * 3 + k
                    n += 1
        return n
    if kind == K_GOD:  # D3 (R5.1): from round 2 not next to the god's island
        now, n = god_island(g, r), 0
        for h in range(n_hex):
            if not placement_legal(g, geo, sc, c, r, h):
                continue
            _, island = adjacent_island(g, geo, r, h)
            if g.count[r, G_ROUND] == 1 or island != now:
                sc[W_OPTS, n] = h
                n += 1
        return n
    if kind == K_ACTION:  # D4: the legal actions, then the pass
        mask, n = legal_actions(g, geo, sc, c, r, s), 0
        for a in range(N_ACTIONS):
            if mask & (1 << a):
                sc[W_OPTS, n] = a
                n += 1
        sc[W_OPTS, n] = PASS
        return n + 1
    if kind == K_CONTINUE:  # D10: stop, continue
        sc[W_OPTS, 0], sc[W_OPTS, 1] = 0, 1
        return 2
    if K_BUILD_STEP <= kind <= K_MOVE_STEP:  # D5
        return steps(g, geo, sc, c, r, s, kind - K_BUILD_STEP, True)
    end = g.cur[r, C_END]
    if kind == K_BUILD:  # D6
        return build_options(g, geo, sc, c, r, s, end, end, True)
    if kind == K_FISH_ISLAND:  # D7
        return island_options(g, sc, r, fish_mask(g, geo, r, s, end))
    if kind == K_DELIVER:  # D8
        return deliver_options(g, geo, c, sc, r, s, end)
    if kind == K_CELEBRATE:  # D9
        return island_options(g, sc, r, feast_mask(g, geo, r))
    if kind == K_SCORE_ISLAND:  # D11
        mask = 0
        for i in range(g.count[r, G_ISLANDS]):
            if g.isl[r, I_LEFT, i]:
                mask |= 1 << i
        return island_options(g, sc, r, mask)
    # K_ISLAND_BID, D12: 0 .. the seat's influence
    for v in range(g.seat[r, s, S_INFLUENCE] + 1):
        sc[W_OPTS, v] = v
    return g.seat[r, s, S_INFLUENCE] + 1


# --- the greedy policy ------------------------------------------------------------------------
@kernel(nrt=False)
def island_fish(g, geo, sc, r: int, s: int) -> None:  # noqa: ANN001
    """Per island i: the seat's fish on its huts `sc[W_INTS, i]`, everybody's `sc[W_MORE, i]`."""
    for i in range(g.count[r, G_ISLANDS]):
        sc[W_INTS, i], sc[W_MORE, i] = 0, 0
    for h in range(len(geo.centre)):
        if g.hexes[r, H_KIND, h] != WATER and g.hexes[r, H_FISH, h]:
            i = g.hexes[r, H_ISLAND, h]
            sc[W_MORE, i] += g.hexes[r, H_FISH, h]
            if g.hexes[r, H_OWNER, h] == s:
                sc[W_INTS, i] += g.hexes[r, H_FISH, h]


@kernel(nrt=False)
def first_kind(sc, n: int, want: int) -> int:  # noqa: ANN001
    for i in range(n):
        if sc[W_OPTS, i] % 3 == want:
            return i
    return -1


@kernel(nrt=False)
def greedy(g, geo, sc, c, r: int, kind: int, s: int, n: int) -> int:  # noqa: ANN001
    """`strategies/kaivai/plain.py`'s `PlainGreedy`, compiled: its choice among the n
    options, decision by decision the same."""
    if kind == K_BID:  # the longest reach, the cheaper first
        best, key0, key1 = 0, -1, 0
        for i in range(n):
            b = sc[W_OPTS, i]
            d = c.bid_distance[b - 1]
            if d > key0 or (d == key0 and -b > key1):
                best, key0, key1 = i, d, -b
        return best
    if kind == K_FOUND:  # a temple, then a boat hut
        i = first_kind(sc, n, TEMPLE)
        if i < 0:
            i = first_kind(sc, n, BOAT_HUT)
        return max(i, 0)
    if kind == K_GOD:  # next to the island of most own huts
        for i in range(g.count[r, G_ISLANDS]):
            sc[W_MORE, i] = 0
        for h in range(len(geo.centre)):
            if g.hexes[r, H_KIND, h] != WATER and g.hexes[r, H_OWNER, h] == s:
                sc[W_MORE, g.hexes[r, H_ISLAND, h]] += 1
        best, most = 0, -1
        for i in range(n):
            _, island = adjacent_island(g, geo, r, sc[W_OPTS, i])
            if sc[W_MORE, island] > most:
                best, most = i, sc[W_MORE, island]
        return best
    if kind == K_ACTION:  # deliver, fish, build, celebrate (where it pays), increase (to 2)
        for want in (DELIVER, FISH, BUILD, CELEBRATE, INCREASE):
            at = -1
            for i in range(n):
                if sc[W_OPTS, i] == want:
                    at = i
            if at < 0:
                continue
            if want == CELEBRATE:
                pays = False
                island_fish(g, geo, sc, r, s)
                for island in range(g.count[r, G_ISLANDS]):
                    own, every = sc[W_INTS, island], sc[W_MORE, island]
                    if own and own >= every - own:
                        pays = True
                        break
                if not pays:
                    continue
            if want == INCREASE and g.seat[r, s, S_BONUS] >= 2:
                continue
            return at
        return n - 1  # the pass
    if kind == K_CONTINUE:
        return 1
    if kind == K_CELEBRATE:  # the island of most own fish
        best, most = 0, -1
        island_fish(g, geo, sc, r, s)
        for i in range(n):
            own = sc[W_INTS, sc[W_OPTS, i]]
            if own > most:
                best, most = i, own
        return best
    if kind == K_BUILD:  # a temple, a meeting hut, a boat hut
        for want in (TEMPLE, MEETING, BOAT_HUT):
            i = first_kind(sc, n, want)
            if i >= 0:
                return i
        return 0
    if kind == K_DELIVER:  # the most fish sold to rivals, then the most fish
        end, base = g.cur[r, C_END], c.capacity + 1
        best, k0, k1 = 0, -1, -1
        for i in range(n):
            code, sold, total = sc[W_OPTS, i], 0, 0
            for j in range(6):
                cnt = code % base
                code //= base
                if cnt:
                    total += cnt
                    if g.hexes[r, H_OWNER, geo.nbr[end, j]] != s:
                        sold += cnt
            if sold > k0 or (sold == k0 and total > k1):
                best, k0, k1 = i, sold, total
        return best
    if kind == K_ISLAND_BID:  # the least bid beating every rival's presence + influence
        if c.hidden:
            return n - 1
        need = island_need(g, geo, c, r, s, g.cur[r, C_SCORING])
        return need if need < n else 0
    return 0  # steps, an island to fish, an island to score: the first


# --- the weighted heuristic ---------------------------------------------------------------------
@kernel(nrt=False)
def island_need(g, geo, c, r: int, s: int, island: int) -> int:  # noqa: ANN001
    """The least bid that beats every rival's presence + influence on the island (R10.4)."""
    mine = presence(g, geo, c, r, s, island)
    need = 0
    for t in range(c.players):
        if t != s:
            x = presence(g, geo, c, r, t, island) + g.seat[r, t, S_INFLUENCE] - mine + 1
            need = max(need, x)
    return need


@kernel(nrt=False)
def heuristic(g, geo, sc, c, w, r: int, kind: int, s: int, n: int, vals) -> int:  # noqa: ANN001
    """The weighted heuristic's choice among the n options (`policy.WEIGHTS`, the seat's
    weights `w`): each option's value into vals[:n] (what a learned ranker compares its
    experts by, `ranked`), the first of the best. D10 and D12 are answered by a rule
    of the weights; their values are 0 for the option taken, -1 for the others."""
    if kind in (K_CONTINUE, K_ISLAND_BID):
        i = ruled(g, geo, c, w, r, kind, s, n)
        for j in range(n):
            vals[j] = 0.0 if j == i else -1.0
        return i
    if kind in (K_GOD, K_ACTION, K_CELEBRATE):
        island_fish(g, geo, sc, r, s)  # own fish per island, everybody's
        for i in range(g.count[r, G_ISLANDS]):
            sc[W_SIZES, i] = 0
        for h in range(len(geo.centre)):
            if g.hexes[r, H_KIND, h] != WATER and g.hexes[r, H_OWNER, h] == s:
                sc[W_SIZES, g.hexes[r, H_ISLAND, h]] += 1
    best, top = 0, -1e300
    for i in range(n):
        x = sc[W_OPTS, i]
        v = 0.0
        if kind == K_BID:
            v = w[w_.W_BID_REACH] * c.bid_distance[x - 1] - w[w_.W_BID_COST] * x
        elif kind in (K_FOUND, K_BUILD):
            hut = x % 3
            if kind == K_FOUND:
                v = w[(w_.W_FOUND_BOAT, w_.W_FOUND_TEMPLE, w_.W_FOUND_MEETING)[hut]]
            else:
                _, island = adjacent_island(g, geo, r, x // 3)
                v = w[(w_.W_HUT_BOAT, w_.W_HUT_TEMPLE, w_.W_HUT_MEETING)[hut]]
                v -= w[w_.W_HUT_SIZE] * g.isl[r, I_SIZE, island]
        elif kind == K_GOD:
            _, island = adjacent_island(g, geo, r, x)
            v = w[w_.W_GOD_HUTS] * sc[W_SIZES, island]
        elif kind == K_ACTION:
            if x != PASS:
                v = w[w_.W_BUILD + x] - w[w_.W_PRICE] * g.count[r, G_SPACES + x]
                if x == DELIVER:
                    v += w[w_.W_FISH_HELD] * fish_count(g, c, r, s)
                elif x == CELEBRATE:
                    share = -(1 << 30)
                    for island in range(g.count[r, G_ISLANDS]):
                        if sc[W_MORE, island]:
                            own = sc[W_INTS, island]
                            share = max(share, own - (sc[W_MORE, island] - own))
                    v += w[w_.W_FEAST_SHARE] * share
                elif x == INCREASE:
                    v -= w[w_.W_BONUS_LEVEL] * g.seat[r, s, S_BONUS]
        elif kind == K_MOVE_STEP:
            end = x % len(geo.centre)
            victim = g.hexes[r, H_BOAT, end]
            if victim >= 0 and victim != s:
                v = w[w_.W_SINK]
        elif kind == K_DELIVER:
            end, base, code = g.cur[r, C_END], c.capacity + 1, x
            sold, total = 0, 0
            for j in range(6):
                cnt = code % base
                code //= base
                if cnt:
                    total += cnt
                    if g.hexes[r, H_OWNER, geo.nbr[end, j]] != s:
                        sold += cnt
            v = w[w_.W_SELL] * sold + w[w_.W_STORE] * (total - sold)
        elif kind == K_CELEBRATE:
            own = sc[W_INTS, x]
            v = own - w[w_.W_FEAST_RIVALS] * (sc[W_MORE, x] - own)
        vals[i] = v
        if v > top:
            best, top = i, v
    return best


@kernel(nrt=False)
def ruled(g, geo, c, w, r: int, kind: int, s: int, n: int) -> int:  # noqa: ANN001
    """The heuristic's answer to D10 (another boat's step when its weight is above 0) and
    D12 (within its share of its influence, the least bid that wins the island, R10.4)."""
    if kind == K_CONTINUE:  # D10
        return 1 if w[w_.W_ANOTHER] > 0 else 0
    budget = int(w[w_.W_CONTEST] * g.seat[r, s, S_INFLUENCE])  # D12
    if c.hidden:
        return min(max(budget, 0), n - 1)
    need = island_need(g, geo, c, r, s, g.cur[r, C_SCORING])
    return need if 0 <= need <= budget and need < n else 0


# --- the learned ranker --------------------------------------------------------------------
@kernel(nrt=False)
def ranker_points(g, c, r: int, s: int) -> int:  # noqa: ANN001
    """Seat s's glory and 2 a hut built (R10.1), as every seat sees them. Once the final
    scoring has begun the huts' 2 are in the glory already and this counts them again: the
    shipped rankers were trained on it so (search's `forward.Machine.scores` stops adding
    them there)."""
    return g.seat[r, s, S_GLORY] + 2 * huts_built(g, c, r, s)


@kernel(nrt=False)
def ranker_context(g, c, r: int, kind: int, s: int, n: int, x) -> None:  # noqa: ANN001
    """Seat s's context at game r's decision of `kind` with n options into x[:N_CONTEXT]
    (`policy.CONTEXT`)."""
    mine = ranker_points(g, c, r, s)
    best, rich, fishy = -(10**9), 0, 0
    for q in range(c.players):
        if q != s:
            best = max(best, ranker_points(g, c, r, q))
            rich = max(rich, money(g, c, r, q))
            fishy = max(fishy, fish_count(g, c, r, q))
    place = 0
    for k in range(c.players):
        if g.count[r, G_TURNS + k] == s:
            place = k
    x[0] = kind
    x[1] = c.players
    x[2] = g.count[r, G_ROUND]
    x[3] = n
    x[4] = mine
    x[5] = mine - best
    x[6] = g.seat[r, s, S_GLORY]
    x[7] = g.seat[r, s, S_INFLUENCE]
    x[8] = money(g, c, r, s)
    x[9] = fish_count(g, c, r, s)
    x[10] = boats_on_board(g, c, r, s)
    x[11] = huts_built(g, c, r, s)
    x[12] = g.seat[r, s, S_STATUES]
    x[13] = g.seat[r, s, S_BONUS]
    x[14] = g.seat[r, s, S_BID]
    x[15] = place
    x[16] = g.seat[r, s, S_ACTED]
    x[17] = g.seat[r, s, S_FEASTS]
    x[18] = g.count[r, G_ISLANDS]
    x[19] = g.count[r, G_TILES]
    x[20] = rich
    x[21] = fishy


@kernel(nrt=False)
def ranker_own(g, sc, r: int, kind: int, i: int, x) -> None:  # noqa: ANN001
    """Kaivai's own features of option i (`policy.OWN`) into x[N_SHARED:]."""
    code = sc[W_OPTS, i]
    x[w_.N_SHARED] = code
    x[w_.N_SHARED + 1] = (g.count[r, G_SPACES + code]
                          if kind == K_ACTION and 0 <= code < N_ACTIONS else 0)  # fmt: skip


@kernel(nrt=False)
def ranked(g, geo, sc, c, ints, constant: float, experts_w, nodes, roots, r: int, kind: int,  # noqa: ANN001
           s: int, n: int, scores, cands, rows) -> tuple[int, int]:  # fmt: skip
    """A ranker's choice among game r's n options in `sc.opts` (seat s's decision of
    `kind`): its experts' proposals (each the heuristic's best option by its weights,
    experts_w[e], every option's value kept in scores[e]) into cands, their rows
    (`policy.RANK`) into rows[:k]; returns (the option chosen, the candidates' count k). At a
    kind the model does not rank (ints[lm.I_KINDS]) only its first expert is asked. cands and
    rows hold `MAX_EXPERTS` rows."""
    ranks = (ints[lm.I_KINDS] >> kind) & 1
    experts = ints[lm.I_EXPERTS] if ranks else 1
    k = 0
    for e in range(experts):
        k = lm.propose(cands, k, e, heuristic(g, geo, sc, c, experts_w[e], r, kind, s, n,
                                                scores[e]))  # fmt: skip
    ranker_context(g, c, r, kind, s, n, rows[0])
    top, who = -np.inf, 0
    for j in range(k):
        if j > 0:
            for t in range(w_.N_CONTEXT):
                rows[j, t] = rows[0, t]
        lm.candidate(cands, scores, experts, j, k, rows[j], w_.N_CONTEXT)
        ranker_own(g, sc, r, kind, cands[j, lm.C_ACTION], rows[j])
        if k > 1:
            v = lm.ensemble(nodes, roots, ints[lm.I_FIRST], ints[lm.I_COUNT], rows[j], constant)
            if v > top:
                top, who = v, j
    return cands[who, lm.C_ACTION], k


# --- deciding -------------------------------------------------------------------------------
@kernel(nrt=False)
def decide(g, geo, sc, c, pol, r: int, kind: int, s: int) -> int:  # noqa: ANN001
    """Seat `s`'s option at a decision of `kind`, its options listed first (`choose`)."""
    return choose(g, geo, sc, c, pol, r, kind, s, options(g, geo, sc, c, r, kind, s))


@kernel(nrt=False)
def choose(g, geo, sc, c, pol, r: int, kind: int, s: int, n: int) -> int:  # noqa: ANN001
    """Seat `s`'s option at a decision of `kind` whose n options are in `sc.opts`: Python's
    answer waiting in the slot; else its policy's; -1 and the game paused for a Python
    seat."""
    if g.cur[r, C_FILLED]:
        g.cur[r, C_FILLED] = 0
        i = g.cur[r, C_SLOT]
    elif pol.family[r, s] == PAUSE:
        g.cur[r, C_PAUSED] = 1
        g.cur[r, C_PEND_KIND], g.cur[r, C_PEND_SEAT] = kind, s
        return -1
    else:
        m = n
        if pol.forbid[r, s]:  # a restriction: the policy chooses among the options left
            m = narrow(g, geo, sc, c, r, kind, s, n, pol.forbid[r, s])
        if pol.family[r, s] == GREEDY:
            i = greedy(g, geo, sc, c, r, kind, s, m)
        elif pol.family[r, s] == HEURISTIC:
            i = heuristic(g, geo, sc, c, pol.weights[r, s], r, kind, s, m, pol.scores[0])
        elif pol.family[r, s] == LEARNED:
            k = pol.model[r, s]
            i, _ = ranked(g, geo, sc, c, pol.ints[k], pol.constants[k], pol.experts[k],
                          pol.nodes, pol.roots, r, kind, s, m, pol.scores, pol.cands,
                          pol.rows)  # fmt: skip
        else:
            u = unit(g.rand[r, s], g.rand[r, R_POS + s])
            g.rand[r, R_POS + s] += np.uint64(1)
            i = min(int(u * m), m - 1)
        if m < n:  # the chosen option's place among all n, the list as it was
            i = sc[W_WHERE, i]
            options(g, geo, sc, c, r, kind, s)
    g.cur[r, C_DECISIONS] += 1
    t = g.cur[r, C_TRACED]
    if t < g.trace.shape[1]:
        g.trace[r, t, 0], g.trace[r, t, 1], g.trace[r, t, 2], g.trace[r, t, 3] = kind, s, n, i
        g.cur[r, C_TRACED] = t + 1
    return sc[W_OPTS, i]


@kernel(nrt=False, inline="always")
def forbidden(g, geo, c, r: int, kind: int, s: int, x: int, bits: int) -> bool:  # noqa: ANN001
    """Whether option `x` (as `options` lists it) of seat `s`'s decision of `kind` is one the
    forbid `bits` name (`F_SACRIFICE` ...; `restrict.forbidden` reads a view the same way)."""
    if kind == K_ACTION:
        if x < N_ACTIONS:
            return (bits >> x) & 1 == 1
        return (bits & F_SACRIFICE) != 0 and g.seat[r, s, S_ACTED] == 0
    if kind == K_BID:
        if x <= 3:
            return (bits & F_BIDS_LOW) != 0
        if x <= 6:
            return (bits & F_BIDS_MID) != 0
        return (bits & F_BIDS_HIGH) != 0
    if kind == K_MOVE_STEP and bits & F_PIRACY:
        owner = g.hexes[r, H_BOAT, x % len(geo.centre)]
        return owner >= 0 and owner != s
    if kind == K_DELIVER and bits & F_SELL:
        end, base = g.cur[r, C_END], c.capacity + 1
        for j in range(6):
            if x % base and g.hexes[r, H_OWNER, geo.nbr[end, j]] != s:
                return True
            x //= base
    return False


@kernel(nrt=False)
def narrow(g, geo, sc, c, r: int, kind: int, s: int, n: int, bits: int) -> int:  # noqa: ANN001
    """The options of `sc.opts` that the forbid `bits` leave, moved to its front in order,
    each one's place among the n in `sc[W_WHERE]`; their number. When they leave none the
    list stays as it was (the rules come first: the move is forced) and n is returned."""
    k = 0
    for i in range(n):
        if not forbidden(g, geo, c, r, kind, s, sc[W_OPTS, i], bits):
            sc[W_WHERE, k] = i
            k += 1
    if k == 0 or k == n:
        return n
    for j in range(k):
        sc[W_OPTS, j] = sc[W_OPTS, sc[W_WHERE, j]]
    return k


# --- the steps ------------------------------------------------------------------------------
@kernel(nrt=False)
def set_up(g, geo, sc, c, r: int) -> None:  # noqa: ANN001
    """R1: the printed cult sites, the extra islands (R1.2, O1, O3), the seats' start (R1.4)
    and the round-1 bidding order (R1.7)."""
    n_hex = len(geo.centre)
    for i in range(len(c.printed)):
        new_island(g, r, c.printed[i])
    for k in range(c.extra_sites):
        u = unit(g.rand[r, R_CHANCE + EXTRA_SITES], np.uint64(k))
        n = 0  # the candidates, in hex order
        for h in range(n_hex):
            if g.hexes[r, H_KIND, h] != WATER or (not c.anywhere and geo.centre[h] != c.radius):
                continue
            far = True
            for x in range(n_hex):
                if g.hexes[r, H_KIND, x] == SITE and geo.dist[h, x] < c.min_distance:
                    far = False
                    break
            if far:
                sc[W_OPTS, n] = h
                n += 1
        if c.second:  # O8: a uniformly drawn pair of adjacent candidates
            pairs = 0
            for i in range(n):
                for j in range(i + 1, n):
                    if geo.dist[sc[W_OPTS, i], sc[W_OPTS, j]] == 1:
                        pairs += 1
            if pairs == 0:
                continue
            pick, seen = int(u * pairs), 0
            for i in range(n):
                for j in range(i + 1, n):
                    if geo.dist[sc[W_OPTS, i], sc[W_OPTS, j]] == 1:
                        if seen == pick:
                            island = new_island(g, r, sc[W_OPTS, i])
                            add_land(g, r, sc[W_OPTS, j], island, SITE, -1)
                            g.count[r, G_EXTRA] += 2
                        seen += 1
        elif n:
            new_island(g, r, sc[W_OPTS, int(u * n)])
            g.count[r, G_EXTRA] += 1
    p = c.players
    for i in range(MAX_SEATS):
        g.count[r, G_ORDER + i], g.count[r, G_TURNS + i] = -1, -1
    for s in range(p):
        g.seat[r, s, S_INFLUENCE] = c.start_influence
        g.seat[r, s, S_HUTS] = c.huts
        g.seat[r, s, S_BOATS] = c.boats
        g.seat[r, s, S_STATUES] = c.statues
        for v in c.start_shells:
            g.vals[r, s, 0, v] += 1
        for v in c.start_fish:
            g.vals[r, s, 1, v] += 1
        g.count[r, G_ORDER + s] = s
    key = g.rand[r, R_CHANCE + ORDER]
    for i in range(1, p):  # sorted by (u, seat), u seat's value of the ORDER stream
        x = g.count[r, G_ORDER + i]
        j = i - 1
        while j >= 0 and unit(key, np.uint64(g.count[r, G_ORDER + j])) > unit(key, np.uint64(x)):
            g.count[r, G_ORDER + j + 1] = g.count[r, G_ORDER + j]
            j -= 1
        g.count[r, G_ORDER + j + 1] = x
    g.count[r, G_TILES] = c.cult_tiles
    g.count[r, G_GOD] = -1
    g.cur[r, C_STEP] = ROUND_START


@kernel(nrt=False)
def end_turn(g, c, r: int) -> None:  # noqa: ANN001
    g.cur[r, C_POS] = (g.cur[r, C_POS] + 1) % c.players
    g.cur[r, C_STEP] = TURN


@kernel(nrt=False)
def pay(g, r: int, s: int, act: int) -> None:  # noqa: ANN001
    """R6.3: an empty space is free and takes a token; else its tokens are paid and doubled."""
    k = g.count[r, G_SPACES + act]
    if k == 0:
        g.count[r, G_SPACES + act] = 1
    else:
        g.seat[r, s, S_INFLUENCE] -= k
        g.count[r, G_SPACES + act] = 2 * k


@kernel(nrt=False)
def spend(g, r: int, s: int, cost: int) -> None:  # noqa: ANN001
    """R8.1.4: shells lowest value first; the overshoot comes back as one shell."""
    paid = 0
    v = 1
    while paid < cost:
        while g.vals[r, s, 0, v] == 0:
            v += 1
        g.vals[r, s, 0, v] -= 1
        paid += v
    if paid > cost:
        g.vals[r, s, 0, paid - cost] += 1


@kernel(nrt=False)
def move_boat(g, geo, c, r: int, s: int, boat: int, end: int) -> None:  # noqa: ANN001
    """R7: the boat to its end hex (off its hut for good, R8.1.6); onto a rival's boat it
    sinks it (R8.4.2)."""
    if end == boat:
        return
    victim = g.hexes[r, H_BOAT, end]
    if victim >= 0:  # R8.4.3
        cost = sink_cost(g, geo, c, r, victim)
        payer = victim if c.victim_pays else s
        lost = min(cost, g.seat[r, payer, S_GLORY])
        g.seat[r, payer, S_GLORY] -= lost
        g.seat[r, payer, S_PIRACY] -= lost
        g.hexes[r, H_BOAT, end] = -1
        g.seat[r, victim, S_BOATS] += 1
    g.hexes[r, H_BOAT, boat] = -1
    g.hexes[r, H_ON_HUT, boat] = 0
    g.hexes[r, H_BOAT, end] = s


@kernel(nrt=False)
def go_fish(g, geo, c, sc, r: int, s: int, island: int) -> None:  # noqa: ANN001
    """R8.2.2 (O1, O2): the catch from the island, fresh fish to the seat."""
    god = 1 if god_island(g, r) == island else 0
    tem = temples(g, geo, r, s, island)
    if c.second:
        n, sure = min(tem, 4), god
    else:
        n, sure = min(tem + god, 4), 0
    base = DICE_PER_STEP * g.count[r, G_FISHING]
    g.count[r, G_FISHING] += 1
    if c.fishing == 2:  # luckless
        caught = tem + god
    elif c.fishing == 1:  # lessluck
        u = unit(g.rand[r, R_CHANCE + DICE], np.uint64(base))
        caught = sure
        if n == 1:
            caught += 1 if u < 5 / 6 else 0
        elif n == 2:
            caught += 1 + (1 if u < 1 / 2 else 0)
        elif n == 3:
            caught += 2
        elif n == 4:
            caught += 2 + (1 if u < 1 / 3 else 0)
    else:
        caught = sure
        for i in range(n):
            u = unit(g.rand[r, R_CHANCE + DICE], np.uint64(base + i))
            if u < c.sixths[i] / 6:
                caught += 1
    g.vals[r, s, 1, c.catch_freshness] += caught


@kernel(nrt=False)
def deliver(g, geo, c, r: int, s: int, end: int, code: int) -> None:  # noqa: ANN001
    """R8.3: the plan's fish onto the huts, the least fresh first (R8.3.4); a rival's hut
    pays 5, 4, 3 by the fish's rank on it (R8.3.3)."""
    base = c.capacity + 1
    for j in range(6):
        cnt = code % base
        code //= base
        h = geo.nbr[end, j]
        for _ in range(cnt):
            v = 1
            while g.vals[r, s, 1, v] == 0:
                v += 1
            g.vals[r, s, 1, v] -= 1
            if g.hexes[r, H_OWNER, h] != s:
                g.vals[r, s, 0, c.sale[g.hexes[r, H_FISH, h]]] += 1
            g.hexes[r, H_FISH, h] += 1


@kernel(nrt=False)
def celebrate(g, geo, r: int, s: int, island: int) -> None:  # noqa: ANN001
    """R8.6: each hut's fish are its owner's glory; the feast-giver gains a third of all."""
    total = 0
    for h in range(len(geo.centre)):
        if (
            g.hexes[r, H_KIND, h] != WATER
            and g.hexes[r, H_ISLAND, h] == island
            and g.hexes[r, H_FISH, h]
        ):
            o = g.hexes[r, H_OWNER, h]
            g.seat[r, o, S_GLORY] += g.hexes[r, H_FISH, h]
            g.seat[r, o, S_FEASTS] += g.hexes[r, H_FISH, h]
            total += g.hexes[r, H_FISH, h]
            g.hexes[r, H_FISH, h] = 0
    g.seat[r, s, S_GLORY] += total // 3
    g.seat[r, s, S_FEASTS] += total // 3
    g.seat[r, s, S_CELEBRATED] += 1


@kernel(nrt=False)
def score_island(g, geo, c, sc, r: int, island: int, asked: bool) -> None:  # noqa: ANN001
    """R10.4: presence + the secret bids (`S_SECRET`, when `asked`); a unique highest total
    gains the island's cult sites; the winner pays its bid (every bidder in the second
    edition)."""
    p = c.players
    best, won = -1, -1
    for s in range(p):
        total = presence(g, geo, c, r, s, island) + (g.seat[r, s, S_SECRET] if asked else 0)
        if total > best:
            best, won = total, s
        elif total == best:
            won = -1
    for s in range(p):
        if asked and (c.second or s == won):
            g.seat[r, s, S_INFLUENCE] -= g.seat[r, s, S_SECRET]
        g.seat[r, s, S_SECRET] = 0
    if won >= 0:
        g.seat[r, won, S_GLORY] += g.isl[r, I_SITES, island]
        g.seat[r, won, S_SITES] += g.isl[r, I_SITES, island]


@kernel(nrt=False)
def step(g, geo, sc, c, pol, r: int) -> None:  # noqa: ANN001
    """Play game r one step on: a step that needs nobody, or one decision."""
    p = c.players
    st = g.cur[r, C_STEP]
    if st == ROUND_START:  # R2
        g.count[r, G_ROUND] += 1
        if g.count[r, G_ROUND] > c.rounds:
            g.cur[r, C_STEP] = FINAL_START
            return
        if g.count[r, G_ROUND] > 1:  # R2.3
            wealth_order(g, c, sc, r, p)
            for i in range(p):
                g.count[r, G_ORDER + i] = sc[W_INTS, i]
        for s in range(p):
            g.seat[r, s, S_BID] = 0
        g.cur[r, C_POS] = 0
        g.cur[r, C_STEP] = BID
    elif st == BID:  # R3
        pos = g.cur[r, C_POS]
        if pos == p:  # R3.4: turn order by the bids, highest first
            for i in range(p):
                g.count[r, G_TURNS + i] = i
            for i in range(1, p):
                x = g.count[r, G_TURNS + i]
                j = i - 1
                while j >= 0 and g.seat[r, g.count[r, G_TURNS + j], S_BID] < g.seat[r, x, S_BID]:
                    g.count[r, G_TURNS + j + 1] = g.count[r, G_TURNS + j]
                    j -= 1
                g.count[r, G_TURNS + j + 1] = x
            g.cur[r, C_POS], g.cur[r, C_K], g.cur[r, C_BOATHUT] = 0, 0, 0
            g.cur[r, C_STEP] = FOUND if g.count[r, G_ROUND] == 1 else GOD
            return
        s = g.count[r, G_ORDER + pos]
        b = decide(g, geo, sc, c, pol, r, K_BID, s)
        if b >= 0:
            g.seat[r, s, S_BID] = b
            g.cur[r, C_POS] = pos + 1
    elif st == FOUND:  # R4
        pos = g.cur[r, C_POS]
        if pos == p:
            g.cur[r, C_STEP] = GOD
            return
        if g.cur[r, C_K] == 2:
            g.cur[r, C_POS], g.cur[r, C_K], g.cur[r, C_BOATHUT] = pos + 1, 0, 0
            return
        s = g.count[r, G_TURNS + pos]
        n = options(g, geo, sc, c, r, K_FOUND, s)
        if n == 0:  # R4.3
            g.cur[r, C_K] += 1
            return
        x = choose(g, geo, sc, c, pol, r, K_FOUND, s, n)
        if x >= 0:
            h, kind = x // 3, x % 3
            _, island = adjacent_island(g, geo, r, h)
            place_hut(g, r, s, h, island, kind, True)
            if kind == BOAT_HUT:
                g.cur[r, C_BOATHUT] = 1
            g.cur[r, C_K] += 1
    elif st == GOD:  # R5
        low = 0
        for s in range(1, p):
            if g.seat[r, s, S_BID] < g.seat[r, low, S_BID]:
                low = s
        if g.count[r, G_TILES] < 1:
            start_actions(g, r, p)
            return
        n = options(g, geo, sc, c, r, K_GOD, low)
        if n == 0:  # R5.5
            g.count[r, G_TILES] -= 1
            g.count[r, G_REMOVED] += 1
            start_actions(g, r, p)
            return
        h = choose(g, geo, sc, c, pol, r, K_GOD, low, n)
        if h >= 0:
            _, island = adjacent_island(g, geo, r, h)
            g.count[r, G_TILES] -= 1
            add_land(g, r, h, island, SITE, -1)
            g.count[r, G_GOD] = h
            for x in range(len(geo.centre)):  # R5.4
                if g.hexes[r, H_KIND, x] == MEETING and g.hexes[r, H_ISLAND, x] == island:
                    g.seat[r, g.hexes[r, H_OWNER, x], S_INFLUENCE] += 1
            start_actions(g, r, p)
    elif st == TURN:  # R6
        done = True
        for s in range(p):
            if not g.seat[r, s, S_PASSED]:
                done = False
        if done:
            g.cur[r, C_STEP] = DECAY
            return
        s = g.count[r, G_TURNS + g.cur[r, C_POS]]
        if g.seat[r, s, S_PASSED]:
            end_turn(g, c, r)
            return
        n = options(g, geo, sc, c, r, K_ACTION, s)
        a = PASS  # R6.7: with no legal action the seat passes unasked
        if n > 1:
            a = choose(g, geo, sc, c, pol, r, K_ACTION, s, n)
            if a < 0:
                return
        if a == PASS:  # R6.5, R6.7
            g.seat[r, s, S_PASSED] = 1
            if not g.seat[r, s, S_ACTED]:
                g.seat[r, s, S_INFLUENCE] += c.sacrifice
            end_turn(g, c, r)
            return
        g.seat[r, s, S_ACTED] = 1
        pay(g, r, s, a)
        g.cur[r, C_ACT] = a
        if a == INCREASE:  # R8.5
            g.seat[r, s, S_BONUS] += 1
            end_turn(g, c, r)
        elif a == CELEBRATE:
            g.cur[r, C_STEP] = CELEBRATE_ASK
        else:
            for h in range(len(geo.centre)):
                g.hexes[r, H_ACTED, h] = 0
                g.hexes[r, H_START, h] = 1 if g.hexes[r, H_BOAT, h] == s else 0
            g.cur[r, C_STEP] = STEPS
    elif st == CELEBRATE_ASK:  # R8.6
        s = g.count[r, G_TURNS + g.cur[r, C_POS]]
        island = decide(g, geo, sc, c, pol, r, K_CELEBRATE, s)
        if island >= 0:
            celebrate(g, geo, r, s, island)
            end_turn(g, c, r)
    elif st == STEPS:  # R6.8: another boat, or stop
        s, act = g.count[r, G_TURNS + g.cur[r, C_POS]], g.cur[r, C_ACT]
        n = steps(g, geo, sc, c, r, s, act, True)
        if n == 0:
            end_turn(g, c, r)
            return
        any_acted = False
        for h in range(len(geo.centre)):
            if g.hexes[r, H_ACTED, h]:
                any_acted = True
                break
        if any_acted:  # D10: asked once a boat has acted
            x = decide(g, geo, sc, c, pol, r, K_CONTINUE, s)
            if x == 0:
                end_turn(g, c, r)
            elif x == 1:
                g.cur[r, C_STEP] = STEP_ASK
            return
        g.cur[r, C_STEP] = STEP_ASK  # the first step: its options are listed already
        take_step(g, geo, sc, c, pol, r, s, act, n)
    elif st == STEP_ASK:  # D5
        s, act = g.count[r, G_TURNS + g.cur[r, C_POS]], g.cur[r, C_ACT]
        take_step(g, geo, sc, c, pol, r, s, act, steps(g, geo, sc, c, r, s, act, True))
    elif st == BUILD_ASK:  # R8.1
        s, end = g.count[r, G_TURNS + g.cur[r, C_POS]], g.cur[r, C_END]
        x = decide(g, geo, sc, c, pol, r, K_BUILD, s)
        if x >= 0:
            h, kind = x // 3, x % 3
            _, island = adjacent_island(g, geo, r, h)
            spend(g, r, s, g.seat[r, s, S_BID] + g.isl[r, I_SIZE, island])
            place_hut(g, r, s, h, island, kind, False)
            g.cur[r, C_STEP] = STEPS
    elif st == FISH_ASK:  # R8.2; D7 asked only with two islands or more
        s, end = g.count[r, G_TURNS + g.cur[r, C_POS]], g.cur[r, C_END]
        mask = fish_mask(g, geo, r, s, end)
        if mask & (mask - 1):
            island = decide(g, geo, sc, c, pol, r, K_FISH_ISLAND, s)
            if island < 0:
                return
        else:
            island = 0
            while not mask & (1 << island):
                island += 1
        go_fish(g, geo, c, sc, r, s, island)
        g.cur[r, C_STEP] = STEPS
    elif st == DELIVER_ASK:  # R8.3
        s, end = g.count[r, G_TURNS + g.cur[r, C_POS]], g.cur[r, C_END]
        x = decide(g, geo, sc, c, pol, r, K_DELIVER, s)
        if x >= 0:
            deliver(g, geo, c, r, s, end, x)
            g.cur[r, C_STEP] = STEPS
    elif st == DECAY:  # R9
        for s in range(p):
            for v in range(1, VALUES - 1):
                g.vals[r, s, 1, v] = g.vals[r, s, 1, v + 1]
                g.vals[r, s, 0, v] = g.vals[r, s, 0, v + 1]
            g.vals[r, s, 1, VALUES - 1] = 0
            g.vals[r, s, 0, VALUES - 1] = 0
        for a in range(N_ACTIONS):
            g.count[r, G_SPACES + a] = 0
        t = g.count[r, G_ROUND] - 1
        if t < g.track.shape[1]:  # the per-round table (`results.TRACKED`)
            for s in range(p):
                g.track[r, t, s, 0] = g.seat[r, s, S_GLORY]
                g.track[r, t, s, 1] = money(g, c, r, s)
                g.track[r, t, s, 2] = fish_count(g, c, r, s)
                g.track[r, t, s, 3] = huts_built(g, c, r, s)
                g.track[r, t, s, 4] = g.seat[r, s, S_CELEBRATED]
        g.cur[r, C_STEP] = ROUND_START
    elif st == FINAL_START:  # R10.1
        g.count[r, G_ROUND] = c.rounds + 1
        for s in range(p):
            k = huts_built(g, c, r, s)
            g.seat[r, s, S_GLORY] += 2 * k
            g.seat[r, s, S_HUT_GLORY] += 2 * k
        for i in range(g.count[r, G_ISLANDS]):
            g.isl[r, I_LEFT, i] = 1
        g.cur[r, C_STEP] = FINAL_PICK
    elif st == FINAL_PICK:  # R10.2: the poorest names the next island
        left = False
        for i in range(g.count[r, G_ISLANDS]):
            if g.isl[r, I_LEFT, i]:
                left = True
        if not left:
            g.cur[r, C_STEP] = OVER
            return
        wealth_order(g, c, sc, r, p)
        island = decide(g, geo, sc, c, pol, r, K_SCORE_ISLAND, sc[W_INTS, 0])
        if island < 0:
            return
        g.isl[r, I_LEFT, island] = 0
        g.cur[r, C_SCORING] = island
        if score_shortcut(g, geo, c, sc, r, island):
            score_island(g, geo, c, sc, r, island, False)
        else:
            g.cur[r, C_POS] = 0
            g.cur[r, C_STEP] = FINAL_BID
    elif st == FINAL_BID:  # R10.4: the secret bids, seat by seat, applied once all are in
        s, island = g.cur[r, C_POS], g.cur[r, C_SCORING]
        if s == p:
            score_island(g, geo, c, sc, r, island, True)
            g.cur[r, C_STEP] = FINAL_PICK
            return
        if g.seat[r, s, S_INFLUENCE] == 0:
            g.cur[r, C_POS] = s + 1
            return
        b = decide(g, geo, sc, c, pol, r, K_ISLAND_BID, s)
        if b >= 0:
            g.seat[r, s, S_SECRET] = b
            g.cur[r, C_POS] = s + 1


@kernel(nrt=False)
def take_step(g, geo, sc, c, pol, r: int, s: int, act: int, n: int) -> None:  # noqa: ANN001
    """D5: the seat picks one of the n steps listed in `sc` (R7); the boat moves, and the
    action's effect is asked next (a Move's is the move)."""
    x = choose(g, geo, sc, c, pol, r, K_BUILD_STEP + act, s, n)
    if x < 0:
        return
    n_hex = len(geo.centre)
    boat, end = x // n_hex, x % n_hex
    g.hexes[r, H_START, boat] = 0
    move_boat(g, geo, c, r, s, boat, end)
    g.hexes[r, H_ACTED, end] = 1
    g.cur[r, C_END] = end
    g.cur[r, C_STEP] = (BUILD_ASK, FISH_ASK, DELIVER_ASK, STEPS)[act]


@kernel(nrt=False)
def start_actions(g, r: int, p: int) -> None:  # noqa: ANN001
    for s in range(p):
        g.seat[r, s, S_PASSED] = 0
        g.seat[r, s, S_ACTED] = 0
    g.cur[r, C_POS] = 0
    g.cur[r, C_STEP] = TURN


@kernel(nrt=False)
def play_rows(g, geo, sc, c, pol, rows, last: int) -> None:  # noqa: ANN001
    """Play each game of `rows` on to its end, to a Python seat's decision (paused), to its
    stop past `MAX_DECISIONS` (TOO_LONG), or, when `last` > 0, to the end of round `last`
    (the game waits at the next round's start: a search's rollouts to a horizon)."""
    for i in range(len(rows)):
        r = rows[i]
        while not g.cur[r, C_PAUSED] and g.cur[r, C_STEP] < OVER:
            if last > 0 and g.cur[r, C_STEP] == ROUND_START and g.count[r, G_ROUND] >= last:
                break
            if g.cur[r, C_DECISIONS] > MAX_DECISIONS:
                g.cur[r, C_STEP] = TOO_LONG
                break
            step(g, geo, sc, c, pol, r)


@kernel(nrt=False)
def set_up_rows(g, geo, sc, c, rows) -> None:  # noqa: ANN001
    for i in range(len(rows)):
        set_up(g, geo, sc, c, rows[i])


@kernel(nrt=False)
def winners(g, c, r: int, p: int, out) -> None:  # noqa: ANN001
    """R10.5: out[s] = 1 for each seat of the highest (glory, money, fish, boats on the
    board, huts built)."""
    best = (-(1 << 40), 0, 0, 0, 0)
    for s in range(p):
        k = (g.seat[r, s, S_GLORY], money(g, c, r, s), fish_count(g, c, r, s),
             boats_on_board(g, c, r, s), huts_built(g, c, r, s))  # fmt: skip
        if k > best:
            best = k
    for s in range(p):
        k = (g.seat[r, s, S_GLORY], money(g, c, r, s), fish_count(g, c, r, s),
             boats_on_board(g, c, r, s), huts_built(g, c, r, s))  # fmt: skip
        out[s] = 1 if k == best else 0


@kernel(nrt=False)
def finals(g, c, p: int, out) -> None:  # noqa: ANN001
    """Per game and seat: glory, money, fish, boats on the board, huts built, winner (1/0),
    the four score parts, feasts celebrated: `out[B, P, 11]` (`batch.FINALS`)."""
    for r in range(len(g.cur)):
        for s in range(p):
            out[r, s, 0] = g.seat[r, s, S_GLORY]
            out[r, s, 1] = money(g, c, r, s)
            out[r, s, 2] = fish_count(g, c, r, s)
            out[r, s, 3] = boats_on_board(g, c, r, s)
            out[r, s, 4] = huts_built(g, c, r, s)
            out[r, s, 6] = g.seat[r, s, S_FEASTS]
            out[r, s, 7] = g.seat[r, s, S_HUT_GLORY]
            out[r, s, 8] = g.seat[r, s, S_SITES]
            out[r, s, 9] = g.seat[r, s, S_PIRACY]
            out[r, s, 10] = g.seat[r, s, S_CELEBRATED]
        winners(g, c, r, p, out[r, :, 5])


@kernel(nrt=False)
def pending_options(g, geo, sc, c, r: int) -> int:  # noqa: ANN001
    """The options of the question paused game r waits on, listed into `sc[W_OPTS]`; their
    number."""
    return options(g, geo, sc, c, r, g.cur[r, C_PEND_KIND], g.cur[r, C_PEND_SEAT])


@kernel(nrt=False)
def forbidden_rows(g, geo, sc, c, kinds, seats, bits: int, out) -> None:  # noqa: ANN001
    """out[r, i] = whether option i of game r's decision of `kinds[r]` asked of `seats[r]` is
    one the forbid `bits` name (`forbidden`: a view's games rebuilt as machine state, for a
    restriction asked through views)."""
    for r in range(len(kinds)):
        n = options(g, geo, sc, c, r, kinds[r], seats[r])
        for i in range(n):
            out[r, i] = forbidden(g, geo, c, r, kinds[r], seats[r], sc[W_OPTS, i], bits)


@kernel(nrt=False)
def answer_rows(g, geo, sc, c, kinds, seats, family: int, w, mask, vals, out) -> None:  # noqa: ANN001
    """out[r] = the index a compiled policy (`family`: `GREEDY`, or `HEURISTIC` with the
    weights `w`; `vals`: its values' scratch) answers game r's decision of `kinds[r]` asked
    of `seats[r]` with (a view's games rebuilt as machine state), among the options `mask[r]`
    leaves (`masked`)."""
    for r in range(len(out)):
        k = masked(g, geo, sc, c, r, kinds[r], seats[r], mask[r])
        if family == GREEDY:
            out[r] = sc[W_WHERE, greedy(g, geo, sc, c, r, kinds[r], seats[r], k)]
        else:
            out[r] = sc[W_WHERE, heuristic(g, geo, sc, c, w, r, kinds[r], seats[r], k, vals)]


@kernel(nrt=False)
def masked(g, geo, sc, c, r: int, kind: int, s: int, mask) -> int:  # noqa: ANN001
    """Game r's options of seat s's decision of `kind` listed into `sc.opts`, those `mask`
    leaves moved to its front in order (a restriction's narrowed view: a policy chooses
    among those alone), each one's place among all in `sc[W_WHERE]`; their number. A mask
    that leaves none or all, and D10 and D12 (answered by their options' meaning), leave the
    list as it was."""
    n = options(g, geo, sc, c, r, kind, s)
    k = 0
    for i in range(n):
        if mask[i]:
            sc[W_WHERE, k] = i
            k += 1
    if k == n or k == 0 or kind in (K_CONTINUE, K_ISLAND_BID):
        for i in range(n):
            sc[W_WHERE, i] = i
        return n
    for j in range(k):
        sc[W_OPTS, j] = sc[W_OPTS, sc[W_WHERE, j]]
    return k
