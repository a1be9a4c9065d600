"""R6 production phase for a batch, as steps (`steps.Step`): FOREST (R6.1, space by space),
VOLCANO (R6.2), FEED_COUNT and FEED (R6.3-R6.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moaisim.engine.decisions import FeedCodec, raid_action, raid_of
from moaisim.engine.steps import Step
from moaisim.engine.views import Pawns, set_pawn
from moaisim.jit import kernel
from moaisim.rules.codes import (
    CAMP,
    RESERVE,
    Layout,
    feeds,
    holds_pair,
    holds_raid,
    moai_tile,
    raid_cards,
    raidable,
    strength_of,
)

if TYPE_CHECKING:
    from moaisim.engine.batch.machine import Machine
    from moaisim.engine.steps import Pending


# --- R6.1 forest -------------------------------------------------------------------------------
def forest(m: Machine, rows: np.ndarray) -> Pending | None:
    """FOREST, R6.1: each forest space in order (step_count). Pawns of several clans on a
    space turn face up, whether or not it holds wood (A3); a wood token goes to the strongest
    clan there (a tie broken by the bird-man), to the only clan there, or back to the supply
    (R3.1). After the last space, the volcano (VOLCANO)."""
    s, lay = m.state, m.rules.layout
    waiting = []
    go = rows
    while len(go):
        space = s.step_count[go].astype(np.int64)
        end = space >= lay.forest
        if end.any():
            m.goto(go[end], Step.VOLCANO)
            go, space = go[~end], space[~end]
            if not len(go):
                break
        present, totals = space_clans(go, space, s.loc, lay)  # [n, P]
        clans = present.sum(axis=1)
        contest = clans > 1
        reveal_space(go, space, contest, s.pawns, lay)
        wood = s.forest_wood[go, space]
        if m.log_mask is not None:
            for i in m.logged(go):
                if contest[i] and not wood[i]:
                    m.emit(go[i], "forest", space=int(space[i]), wood=False,
                           strengths=_strengths(present[i], totals[i]), winner=-1)  # fmt: skip
        best = np.where(present, totals, -1).max(axis=1)
        tied = present & (totals == best[:, None])
        ask = wood & contest & (tied.sum(axis=1) > 1)
        if ask.any():
            a = np.flatnonzero(ask)
            waiting.append((go[a], s.birdman[go[a]].astype(np.int64), tied[a], space[a]))
        settle = np.flatnonzero(wood & ~ask)
        if len(settle):
            winner = np.where(clans[settle] == 0, -1, np.argmax(tied[settle], axis=1))
            award(m, go[settle], space[settle], winner, present[settle], totals[settle],
                  contest[settle])  # fmt: skip
        nothing = np.flatnonzero(~wood)
        s.step_count[go[nothing]] += 1
        go = go[np.concatenate([settle, nothing])]
    if not waiting:
        return None
    r, bm, tied, space = (np.concatenate(x) for x in zip(*waiting, strict=True))
    return m.pending(Step.FOREST, r, bm, tied, space=space)


def apply_forest(m: Machine, pend: Pending, winner: np.ndarray) -> None:
    """The bird-man's pick among the tied clans takes the wood."""
    s, lay = m.state, m.rules.layout
    r, space = pend.rows, pend.info["space"]
    present, totals = space_clans(r, space, s.loc, lay)
    award(m, r, space, winner, present, totals, np.ones(len(r), dtype=bool))


def award(
    m: Machine, rows: np.ndarray, space: np.ndarray, winner: np.ndarray, present: np.ndarray,
    totals: np.ndarray, contest: np.ndarray,
) -> None:  # fmt: skip
    """R6.1: the token leaves its space, to the winner (-1: nobody stood there, R3.1: it is
    discarded); the next space."""
    s = m.state
    s.forest_wood[rows, space] = False
    nobody = winner < 0
    m.discard_wood(rows[nobody], 1)
    won = np.flatnonzero(~nobody)
    s.wood[rows[won], winner[won]] += 1
    s.counters["forest_wood"][rows[won], winner[won]] += 1
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(rows[i], "forest", space=int(space[i]), wood=True,
                   strengths=_strengths(present[i], totals[i]) if contest[i] else {},
                   winner=int(winner[i]))  # fmt: skip
    s.step_count[rows] += 1


def _strengths(present: np.ndarray, totals: np.ndarray) -> dict[str, int]:
    """A forest event's strengths of the clans present (JSON keys are strings)."""
    return {str(q): int(totals[q]) for q in np.flatnonzero(present)}


@kernel
def space_clans(
    rows: np.ndarray, space: np.ndarray, loc: np.ndarray, lay: Layout
) -> tuple[np.ndarray, np.ndarray]:
    """R6.1: per game, which clans have pawns on its forest space `space[k]` and their total
    strength there ([m, P] bool, [m, P] int)."""
    m, players = len(rows), loc.shape[1]
    present = np.zeros((m, players), dtype=np.bool_)
    total = np.zeros((m, players), dtype=np.int64)
    for k in range(m):
        clans_on(rows[k], space[k], loc, lay, present[k], total[k])
    return present, total


@kernel
def clans_on(
    r: int, x0: int, loc: np.ndarray, lay: Layout, present: np.ndarray, total: np.ndarray
) -> int:
    """R6.1 for game r: which clans have pawns on forest space x0 and their total strength
    there (present [P], total [P], given cleared); returns how many clans stand there."""
    clans = 0
    for q in range(loc.shape[1]):
        for i in range(loc.shape[2]):
            if loc[r, q, i] == x0:
                present[q] = True
                total[q] += strength_of(lay, i)
        if present[q]:
            clans += 1
    return clans


@kernel
def reveal_space(
    rows: np.ndarray, space: np.ndarray, contest: np.ndarray, pw: Pawns, lay: Layout
) -> None:
    """R6.1: the pawns on a forest space where several clans stand turn face up."""
    for k in range(len(rows)):
        if contest[k]:
            turn_up(rows[k], space[k], pw)


@kernel
def turn_up(r: int, x0: int, pw: Pawns) -> None:
    """R6.1: every pawn on board code x0 of game r turns face up."""
    for q in range(pw.loc.shape[1]):
        for i in range(pw.loc.shape[2]):
            if pw.loc[r, q, i] == x0 and not pw.up[r, q, i]:
                set_pawn(pw, r, q, i, x0, True)


# --- R6.2 volcano ------------------------------------------------------------------------------
def volcano(m: Machine, rows: np.ndarray) -> Pending | None:
    """VOLCANO, R6.2: in turn order (step_pos), each clan finishes any of its volcano spaces,
    one at a time (step_done: those finished this turn), paying a wood each; a statue gets
    the tallest supply tile not taller than it. A clan that cannot finish one moves on to the
    next position. After the last position, feeding."""
    s, p, lay = m.state, m.rules.players, m.rules.layout
    V = lay.volcano
    pos = s.step_pos[rows].astype(np.int64)
    end = pos >= p
    if end.any():
        m.goto(rows[end], Step.FEED_COUNT)
        rows, pos = rows[~end], pos[~end]
        if not len(rows):
            return None
    rows, q = m.seat_order(rows, s.turn[rows, pos].astype(np.int64))
    legal, _ = moai_mask(rows, q, rows, s.loc, s.wood, s.moai_owner, m.tile_heights,
                         s.step_done, lay)  # fmt: skip
    more = legal[:, :V].any(axis=1)
    if not more.all():
        nxt = rows[~more]
        s.step_pos[nxt] += 1
        s.step_done[nxt] = False
        if not more.any():
            return None
        rows, q, legal = rows[more], q[more], legal[more]
    legal[:, V] = True  # stop
    return m.pending(Step.VOLCANO, rows, q, legal)


def apply_volcano(m: Machine, pend: Pending, k: np.ndarray) -> None:
    """A space finished (`finish_moai`, and marked done this turn), or stop: the next
    turn position."""
    s, lay = m.state, m.rules.layout
    V = lay.volcano
    stop = k >= V
    r, q = pend.rows, pend.seat
    s.step_pos[r[stop]] += 1
    s.step_done[r[stop]] = False
    fin = np.flatnonzero(~stop)
    if len(fin):
        r, q, k = r[fin], q[fin], k[fin]
        height = statue_heights(r, q, k, s.loc, lay)
        finish_moai(m, r, q, k, height)
        s.step_done[r, k] = True


@kernel
def statue_heights(
    rows: np.ndarray, seat: np.ndarray, space: np.ndarray, loc: np.ndarray, lay: Layout
) -> np.ndarray:
    """R6.2: the height of each game's statue on the seat's volcano space (its pawns'
    total strength)."""
    out = np.zeros(len(rows), dtype=np.int64)
    for k in range(len(rows)):
        out[k] = statue_height(rows[k], seat[k], space[k], loc, lay)
    return out


@kernel
def statue_height(r: int, q: int, space: int, loc: np.ndarray, lay: Layout) -> int:
    """R6.2: the height of the statue on seat q's volcano space in game r (its pawns' total
    strength)."""
    out = 0
    x = lay.volcano0 + space
    for i in range(loc.shape[2]):
        if loc[r, q, i] == x:
            out += strength_of(lay, i)
    return out


@kernel
def moai_mask(
    rows: np.ndarray,
    seat: np.ndarray,
    go: np.ndarray,
    loc: np.ndarray,
    wood: np.ndarray,
    moai_owner: np.ndarray,
    tile_heights: np.ndarray,
    done: np.ndarray,
    lay: Layout,
) -> tuple[np.ndarray, np.ndarray]:
    """R6.2 masks [m, V + 1] (the last action, stop, left False) and the statue heights
    [m, V] on each own volcano space. A space can be finished if the clan has a wood, it was
    not finished this turn (done[go[k]]) and a supply tile is not taller than its statue."""
    m = len(rows)
    legal = np.zeros((m, lay.volcano + 1), dtype=np.bool_)
    height = np.zeros((m, lay.volcano), dtype=np.int64)
    for k in range(m):
        moai_legal(rows[k], seat[k], loc, wood, moai_owner, tile_heights, done[go[k]], lay,
                   legal[k], height[k])  # fmt: skip
    return legal, height


@kernel
def moai_legal(
    r: int,
    q: int,
    loc: np.ndarray,
    wood: np.ndarray,
    moai_owner: np.ndarray,
    tile_heights: np.ndarray,
    done: np.ndarray,
    lay: Layout,
    legal: np.ndarray,
    height: np.ndarray,
) -> bool:
    """R6.2 for seat q in game r: the mask [V + 1] (given cleared; stop left False) and the
    statue heights [V] (given cleared) of its volcano spaces (`moai_mask`; done [V]: finished
    this turn). Returns whether a space can be finished."""
    for i in range(loc.shape[2]):
        x = loc[r, q, i] - lay.volcano0
        if 0 <= x < lay.volcano:
            height[x] += strength_of(lay, i)
    some = False
    if wood[r, q] < 1:
        return some
    for v in range(lay.volcano):
        h = height[v]
        if h > 0 and not done[v]:
            legal[v] = moai_tile(moai_owner[r], tile_heights, h) >= 0
            some |= legal[v]
    return some


def finish_moai(
    g: Machine, rows: np.ndarray, seat: np.ndarray, k: np.ndarray, height: np.ndarray
) -> None:
    """R6.2: the space's pawns turn face up, the clan pays a wood (transport) and takes its
    tile; under `volcano_after_moai = camp` the pawns go back to camp."""
    s = g.state
    to_camp = g.rules.volcano_after_moai == "camp"
    reveal_statues(rows, seat, k, s.pawns, g.rules.layout, to_camp)
    s.wood[rows, seat] -= 1  # transport
    g.discard_wood(rows, 1)
    tile = take_tiles(rows, seat, height, s.moai_owner, g.tile_heights)
    s.counters["moai_finished"][rows, seat] += 1
    if g.log_mask is not None:
        heights = g.tile_heights
        for i in g.logged(rows):
            g.emit(
                rows[i],
                "moai",
                seat=int(seat[i]),
                space=int(k[i]),
                height=int(height[i]),
                tile=int(tile[i]),
                tile_height=int(heights[tile[i]]),
            )


@kernel
def reveal_statues(
    rows: np.ndarray, seat: np.ndarray, space: np.ndarray, pw: Pawns, lay: Layout, to_camp: bool
) -> None:
    """R6.2: the pawns of a finished volcano space turn face up and stay, or (option
    `volcano_after_moai = camp`) go back to camp."""
    for k in range(len(rows)):
        reveal_statue(rows[k], seat[k], space[k], pw, lay, to_camp)


@kernel
def reveal_statue(r: int, q: int, space: int, pw: Pawns, lay: Layout, to_camp: bool) -> None:
    """`reveal_statues` for seat q's volcano space in game r."""
    x = lay.volcano0 + space
    for i in range(pw.loc.shape[2]):
        if pw.loc[r, q, i] == x:
            set_pawn(pw, r, q, i, CAMP if to_camp else x, not to_camp)


@kernel
def take_tiles(
    rows: np.ndarray,
    seat: np.ndarray,
    height: np.ndarray,
    moai_owner: np.ndarray,
    tile_heights: np.ndarray,
) -> np.ndarray:
    """R6.2: each clan takes the tile its statue earns (`codes.moai_tile`)."""
    tile = np.empty(len(rows), dtype=np.int64)
    for k in range(len(rows)):
        t = moai_tile(moai_owner[rows[k]], tile_heights, height[k])
        moai_owner[rows[k], t] = seat[k]
        tile[k] = t
    return tile


# --- R6.3-R6.4 feeding -------------------------------------------------------------------------
def feed_count(m: Machine, rows: np.ndarray) -> None:
    """FEED_COUNT, R6.3: in turn order (step_pos), a clan counts its food and its mouths;
    each pawn short of food starves, unless the clan raids (FEED); a clan fed moves on to the
    next position. After the last position, the review (DRAW)."""
    s, p, lay = m.state, m.rules.players, m.rules.layout
    pos = s.step_pos[rows].astype(np.int64)
    end = pos >= p
    if end.any():
        m.goto(rows[end], Step.DRAW)
        rows, pos = rows[~end], pos[~end]
        if not len(rows):
            return
    seat = s.turn[rows, pos].astype(np.int64)
    food, mouths = food_and_mouths(rows, seat, s.loc, lay)
    deficit = np.maximum(0, mouths - food)
    if m.log_mask is not None:
        for i in m.logged(rows):
            m.emit(rows[i], "feed", seat=int(seat[i]), food=int(food[i]),
                   mouths=int(mouths[i]), deficit=int(deficit[i]))  # fmt: skip
    short = deficit > 0
    s.step_left[rows[short]] = deficit[short]
    s.step[rows[short]] = Step.FEED
    s.step_pos[rows[~short]] += 1


def feed(m: Machine, rows: np.ndarray) -> Pending:
    """FEED, R6.3-R6.4: one starving pawn at a time (step_left of them): starve it, or raid
    a face-up rival pawn to save it."""
    s = m.state
    seat = s.turn[rows, s.step_pos[rows].astype(np.int64)].astype(np.int64)
    rows, seat = m.seat_order(rows, seat)
    legal = feed_mask(rows, seat, s.loc, s.up, s.hand, m.rules.layout, m.feed_codec)
    return m.pending(Step.FEED, rows, seat, legal, deficit=s.step_left[rows].astype(np.int64))


def apply_feeding(m: Machine, pend: Pending, action: np.ndarray) -> None:
    """The starving pawn starves or is saved by a raid (`apply_feed`); the next one, or the
    next turn position."""
    s, c = m.state, m.state.counters
    r, q = pend.rows, pend.seat
    if m.log_mask is not None:
        log_feed(m, r, q, action)
    apply_feed(r, q, action, s.pawns, s.hand, s.discard, c["starved"], c["raids_made"],
               c["raids_suffered"], m.rules.layout, m.feed_codec)  # fmt: skip
    s.step_left[r] -= 1
    fed = s.step_left[r] == 0
    s.step[r[fed]] = Step.FEED_COUNT
    s.step_pos[r[fed]] += 1


@kernel
def food_and_mouths(
    rows: np.ndarray, seat: np.ndarray, loc: np.ndarray, lay: Layout
) -> tuple[np.ndarray, np.ndarray]:
    """R6.3: per game, the seat's food (strength of its pawns in the fields and on boats)
    and mouths (its pawns on the board)."""
    m = len(rows)
    food = np.zeros(m, dtype=np.int64)
    mouths = np.zeros(m, dtype=np.int64)
    for k in range(m):
        food[k], mouths[k] = clan_food(rows[k], seat[k], loc, lay)
    return food, mouths


@kernel
def clan_food(r: int, q: int, loc: np.ndarray, lay: Layout) -> tuple[int, int]:
    """R6.3: seat q's food and mouths in game r (`food_and_mouths`)."""
    food, mouths = 0, 0
    for i in range(loc.shape[2]):
        x = loc[r, q, i]
        if x >= 0:
            mouths += 1
            if feeds(lay, x):
                food += strength_of(lay, i)
    return food, mouths


@kernel
def feed_mask(
    rows: np.ndarray,
    seat: np.ndarray,
    loc: np.ndarray,
    up: np.ndarray,
    hand: np.ndarray,
    lay: Layout,
    codec: FeedCodec,
) -> np.ndarray:
    """R6.3-R6.4 masks [m, codec.size]: starve an own board pawn in the forest or on the
    volcano; or raid a face-up rival pawn there with a Raid card and a second card whose
    value is the victim's strength (`codes.raid_cards`)."""
    m = len(rows)
    legal = np.zeros((m, codec.size), dtype=np.bool_)
    ok = np.zeros((3, 6), dtype=np.bool_)  # by victim strength, raid combo
    acts = np.zeros(codec.size, dtype=np.int64)
    for k in range(m):
        feed_legal(rows[k], seat[k], loc, up, hand, lay, codec, legal[k], ok, acts)
    return legal


@kernel
def feed_legal(
    r: int,
    q: int,
    loc: np.ndarray,
    up: np.ndarray,
    hand: np.ndarray,
    lay: Layout,
    codec: FeedCodec,
    legal: np.ndarray,
    ok: np.ndarray,
    acts: np.ndarray,
) -> int:
    """`feed_mask` for seat q in game r: its mask [codec.size] (given cleared); `ok` is a
    working array [3, 6] (victim strength, raid combo). The legal actions are also listed in
    ascending order in `acts` [codec.size]; returns how many there are (the compiled
    policies score only those)."""
    pawns = loc.shape[2]
    n = 0
    for i in range(pawns):
        if raidable(lay, loc[r, q, i]):
            legal[i] = True
            acts[n] = i
            n += 1
    if not holds_raid(hand[r, q]):  # R6.4: no raid is legal
        return n
    can_raid = False
    for v in range(3):
        for c in range(6):
            a, b = raid_cards(c, v + 1)
            ok[v, c] = holds_pair(hand[r, q], a, b)
            can_raid |= ok[v, c]
    if not can_raid:  # no raid is legal: the rivals' pawns need not be read
        return n
    for victim in range(loc.shape[1]):
        if victim == q:
            continue
        for j in range(pawns):
            if not (up[r, victim, j] and raidable(lay, loc[r, victim, j])):
                continue
            v = strength_of(lay, j) - 1
            for c in range(6):
                if ok[v, c]:
                    a = raid_action(codec, victim, j, c)
                    legal[a] = True
                    acts[n] = a
                    n += 1
    return n


@kernel
def apply_feed(
    rows: np.ndarray,
    seat: np.ndarray,
    action: np.ndarray,
    pw: Pawns,
    hand: np.ndarray,
    discard: np.ndarray,
    starved: np.ndarray,
    raids_made: np.ndarray,
    raids_suffered: np.ndarray,
    lay: Layout,
    codec: FeedCodec,
) -> None:
    """R6.3: a starving pawn goes to its reserve; R6.4: a raid discards its two cards and
    sends the rival pawn to that rival's reserve."""
    for k in range(len(rows)):
        feed_one(rows[k], seat[k], action[k], pw, hand, discard, starved, raids_made,
                 raids_suffered, lay, codec)  # fmt: skip


@kernel
def feed_one(
    r: int,
    q: int,
    a: int,
    pw: Pawns,
    hand: np.ndarray,
    discard: np.ndarray,
    starved: np.ndarray,
    raids_made: np.ndarray,
    raids_suffered: np.ndarray,
    lay: Layout,
    codec: FeedCodec,
) -> None:
    """`apply_feed` for seat q's action `a` in game r."""
    if a < codec.pawns:
        set_pawn(pw, r, q, a, RESERVE, False)
        starved[r, q] += 1
        return
    victim, pawn, combo = raid_of(codec, a)
    for t in raid_cards(combo, strength_of(lay, pawn)):
        hand[r, q, t] -= 1
        discard[r, t] += 1
    set_pawn(pw, r, victim, pawn, RESERVE, False)
    raids_made[r, q] += 1
    raids_suffered[r, victim] += 1


def log_feed(g: Machine, rows: np.ndarray, seat: np.ndarray, action: np.ndarray) -> None:
    """The starve / raid events of one feeding step (before the actions apply)."""
    s, lay, codec = g.state, g.rules.layout, g.feed_codec
    for i in g.logged(rows):
        r, q = rows[i], int(seat[i])
        what, x, y, combo = codec.decode(int(action[i]))
        if what == "starve":
            g.emit(r, "starve", seat=q, pawn=x, at=int(s.loc[r, q, x]), strength=lay.strength(x))
        else:
            strength = lay.strength(y)
            g.emit(
                r,
                "raid",
                seat=q,
                victim=x,
                pawn=y,
                at=int(s.loc[r, x, y]),
                strength=strength,
                cards=[int(t) for t in raid_cards.py_func(combo, strength)],
            )


STEPS = {Step.FOREST: forest, Step.VOLCANO: volcano, Step.FEED_COUNT: feed_count,
         Step.FEED: feed}  # fmt: skip
APPLY = {Step.FOREST: apply_forest, Step.VOLCANO: apply_volcano, Step.FEED: apply_feeding}
