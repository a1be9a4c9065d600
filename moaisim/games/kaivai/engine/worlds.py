"""The worlds a Kaivai seat's view may be in (`determinize`, on the floor's frame
`moaisim.engine.determinize`): full games on the compiled machine, each showing the seat
exactly its view, drawn where the view cannot see.

A seat sees the whole board and every seat's figures (R11) but three things: another seat's
influence when the rules hide it (O6), the secret island bids made before its own in the
contest under way (R10.4), and the dice to come (R8.2.2). A world draws the first two on a
chance stream of its own (`Chance.HIDDEN`): a hidden influence uniformly from 0 to the most a
seat could hold by this round (the start, a sacrifice and a meeting hut's gain a round each:
**[choice]**, a bound the rules book does not give; an observer who follows the revealed bids
knows more), a secret bid uniformly from 0 to that seat's influence; its dice and its seats'
draws come from its own streams. Each world is set to wait for the view's decision: the
machine's cursor is made from the decision's kind and what the view shows (the bidding and
turn orders, the action under way, the step's end hex, the island bid on).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim import engine
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import arrays, geometry
from moaisim.games.kaivai.engine.chance import Chance
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.forward import Games, Machine
from moaisim.games.kaivai.engine.views import FIELDS, SeatView
from moaisim.rng import Streams

#: The most any count a view shows may be (glory, influence, a space's tokens, shells...):
#: far past any game's, and below what the kernels' arithmetic could overflow on.
MOST = 100_000
#: The machine's step at which each kind is asked.
STEP_OF = {
    Kind.BID: m.BID, Kind.FOUND: m.FOUND, Kind.GOD: m.GOD, Kind.ACTION: m.TURN,
    Kind.ANOTHER_BOAT: m.STEPS, Kind.BUILD_STEP: m.STEP_ASK, Kind.FISH_STEP: m.STEP_ASK,
    Kind.DELIVER_STEP: m.STEP_ASK, Kind.MOVE_STEP: m.STEP_ASK, Kind.BUILD: m.BUILD_ASK,
    Kind.FISH_ISLAND: m.FISH_ASK, Kind.DELIVER: m.DELIVER_ASK, Kind.CELEBRATE: m.CELEBRATE_ASK,
    Kind.SCORE_ISLAND: m.FINAL_PICK, Kind.ISLAND_BID: m.FINAL_BID,
}  # fmt: skip


def shapes(view: SeatView) -> dict[str, tuple[int, ...]]:
    """Each field's shape for a view of n games."""
    r, n = view.rules, len(view)
    p, hexes = r.players, len(geometry(r.components.radius).centre)
    islands = len(r.components.printed_cult_sites) + r.extra_sites
    by_hex = dict.fromkeys(("land", "owner", "island", "fish", "boat", "on_hut",
                            "acted_hexes", "start_hexes"), (n, hexes))  # fmt: skip
    by_island = dict.fromkeys(("first", "size", "sites", "left"), (n, islands))
    seats = ("order", "turns", "influence", "huts", "boats", "statues", "glory", "bonus", "bid",
             "passed", "acted", "secret")  # fmt: skip
    by_seat = dict.fromkeys(seats, (n, p))
    game = dict.fromkeys(("round", "tiles", "god", "fishing", "islands", "act", "end",
                          "scoring"), (n,))  # fmt: skip
    return {**by_hex, **by_island, **by_seat, **game, "temples": (n, islands, p),
            "spaces": (n, m.N_ACTIONS), "parts": (n, p, 4), "shells": (n, p, m.VALUES),
            "fishes": (n, p, m.VALUES)}  # fmt: skip


def _misshapen(view: SeatView) -> str | None:
    want = shapes(view)
    for name in FIELDS:
        value = np.asarray(getattr(view, name))
        if value.dtype.kind not in "iu":
            return f"{name} holds {value.dtype} values, not integers"
        if value.shape != want[name]:
            return f"{name} has shape {value.shape}, not {want[name]}"
    return None


def _bounds(view: SeatView) -> dict[str, tuple[int, int]]:
    """Each field's lowest and highest value in any game of the view's rules."""
    r, c = view.rules, view.rules.components
    p, hexes = r.players, len(geometry(c.radius).centre)
    islands = len(c.printed_cult_sites) + r.extra_sites
    return {
        "land": (m.WATER, m.SITE), "owner": (-1, p - 1), "island": (-1, islands - 1),
        "fish": (0, c.hut_fish_capacity), "boat": (-1, p - 1), "on_hut": (0, 1),
        "acted_hexes": (0, 1), "start_hexes": (0, 1), "first": (-1, hexes - 1),
        "size": (0, hexes), "sites": (0, hexes), "left": (0, 1), "temples": (0, c.temple_statues),
        "round": (1, r.rounds + 1), "tiles": (0, r.cult_tiles), "god": (-1, hexes - 1),
        "fishing": (0, m.MAX_DECISIONS), "islands": (1, islands), "spaces": (0, MOST),
        "order": (0, p - 1), "turns": (-1, p - 1), "influence": (-1, MOST),
        "huts": (0, c.huts), "boats": (0, r.boats), "statues": (0, c.temple_statues),
        "glory": (0, MOST), "bonus": (0, len(c.bonus) - 1), "bid": (0, len(c.bid_distance)),
        "passed": (0, 1), "acted": (0, 1), "secret": (-1, MOST), "parts": (-MOST, MOST),
        "shells": (0, MOST), "fishes": (0, MOST), "act": (-1, m.N_ACTIONS - 1),
        "end": (-1, hexes - 1), "scoring": (-1, islands - 1),
    }  # fmt: skip


def _impossible(view: SeatView, row: int) -> str | None:
    for name, (lo, hi) in _bounds(view).items():
        value = np.asarray(getattr(view, name))[row]
        if value.size and (value.min() < lo or value.max() > hi):
            bad = value.min() if value.min() < lo else value.max()
            return f"{name} holds {int(bad)}, outside {lo}..{hi}"
    q, hidden = view.seat, view.rules.influence_visibility == "hidden"
    influence, secret = view.influence[row], view.secret[row]
    others = np.arange(view.rules.players) != q
    if influence[q] < 0 or (influence[others] < 0).any() != (hidden and bool(others.any())):
        return "an influence is hidden that the rules show, or shown that they hide (O6)"
    if (secret[others] != -1).any() or not 0 <= secret[q] <= influence[q]:
        return "a secret bid is shown (R10.4): only the seat's own, within its influence"
    parts = view.parts[row]
    if (parts[:, :3] < 0).any() or (parts[:, 3] > 0).any():
        return "a score part has the wrong sign (piracy only costs glory)"
    if (parts.sum(axis=1) != view.glory[row]).any():
        return "a seat's glory is not the sum of its parts (R10)"
    if (view.shells[row][:, 0] != 0).any() or (view.fishes[row][:, 0] != 0).any():
        return "a shell or a fish of value 0 (R9: they leave the game at 0)"
    if sorted(view.order[row].tolist()) != list(range(view.rules.players)):
        return "the bidding order is not each seat once"
    return None


def _decision(view: SeatView, row: int) -> tuple[Kind, int | None]:
    return view.kind, view.seat


def state_of(view: SeatView, rows: np.ndarray, n: int, streams: Streams) -> m.Arrays:
    """The machine's state of n games per row of the view (with `streams`' keys), set to
    wait for the view's decision: what the view shows copied, the cursor made from the
    decision's kind and what the view shows; what the seat cannot see is 0 (a hidden
    influence, a rival's secret bid)."""
    rules, q = view.rules, view.seat
    p = rules.players
    g = arrays(rules, streams)
    pick = np.repeat(rows, n)
    f = {name: np.asarray(getattr(view, name))[pick] for name in FIELDS}
    for name, field in (("land", m.H_KIND), ("owner", m.H_OWNER), ("island", m.H_ISLAND),
                        ("fish", m.H_FISH), ("boat", m.H_BOAT), ("on_hut", m.H_ON_HUT),
                        ("acted_hexes", m.H_ACTED), ("start_hexes", m.H_START)):  # fmt: skip
        g.hexes[:, field] = f[name]
    g.isl[:, m.I_FIRST], g.isl[:, m.I_SIZE] = f["first"], f["size"]
    g.isl[:, m.I_SITES], g.isl[:, m.I_LEFT] = f["sites"], f["left"]
    g.isl[:, m.I_TEMPLES :] = np.transpose(f["temples"], (0, 2, 1))
    for name, at in (("round", m.G_ROUND), ("tiles", m.G_TILES), ("god", m.G_GOD),
                     ("fishing", m.G_FISHING), ("islands", m.G_ISLANDS)):  # fmt: skip
        g.count[:, at] = f[name]
    g.count[:, m.G_SPACES : m.G_SPACES + m.N_ACTIONS] = f["spaces"]
    g.count[:, m.G_ORDER : m.G_ORDER + m.MAX_SEATS] = -1
    g.count[:, m.G_TURNS : m.G_TURNS + m.MAX_SEATS] = -1
    g.count[:, m.G_ORDER : m.G_ORDER + p] = f["order"]
    g.count[:, m.G_TURNS : m.G_TURNS + p] = f["turns"]
    for name, at in (("huts", m.S_HUTS), ("boats", m.S_BOATS),
                     ("statues", m.S_STATUES), ("glory", m.S_GLORY), ("bonus", m.S_BONUS),
                     ("bid", m.S_BID), ("passed", m.S_PASSED), ("acted", m.S_ACTED)):  # fmt: skip
        g.seat[:, :, at] = f[name]
    g.seat[:, :, [m.S_FEASTS, m.S_HUT_GLORY, m.S_SITES, m.S_PIRACY]] = f["parts"]
    g.seat[:, :, m.S_INFLUENCE] = np.maximum(f["influence"], 0)
    g.seat[:, q, m.S_SECRET] = f["secret"][:, q]
    g.vals[:, :, 0], g.vals[:, :, 1] = f["shells"], f["fishes"]
    # the cursor at the view's decision
    cur = g.cur
    cur[:, m.C_STEP] = STEP_OF[view.kind]
    cur[:, m.C_ACT] = np.maximum(f["act"], 0)
    cur[:, m.C_END] = np.maximum(f["end"], 0)
    cur[:, m.C_SCORING] = np.maximum(f["scoring"], 0)
    where = f["order"] if view.kind == Kind.BID else f["turns"]
    cur[:, m.C_POS] = np.argmax(where == q, axis=1)
    if view.kind == Kind.ISLAND_BID:
        cur[:, m.C_POS] = q
    if view.kind == Kind.FOUND:  # R4: the seat's founding huts so far, a boat hut among them
        cur[:, m.C_K] = rules.components.huts - f["huts"][:, q]
        boat_huts = (f["land"] == m.BOAT_HUT) & (f["owner"] == q)
        cur[:, m.C_BOATHUT] = boat_huts.any(axis=1)
    return g


def _build(view: SeatView, rows: np.ndarray, n: int, seeds: np.ndarray) -> Games:
    """n worlds per row (row k's from root `seeds[k]`), each at the view's decision
    (`state_of`), the unseen drawn (the module's docstring)."""
    rules, q = view.rules, view.seat
    p, b = rules.players, len(rows) * n
    streams = engine.world_streams(seeds, n, p)
    g = state_of(view, rows, n, streams)
    f = {name: np.asarray(getattr(view, name))[np.repeat(rows, n)]
         for name in ("influence", "round")}  # fmt: skip
    # the unseen: hidden influence (O6), the secret bids made before the seat's (R10.4)
    u = streams.chance(Chance.HIDDEN, np.arange(b), 2 * p)
    for t in range(p):
        hidden = f["influence"][:, t] < 0
        most = rules.start_influence + (rules.sacrifice_influence + 1) * f["round"]
        drawn = (u[:, t] * (most + 1)).astype(np.int64)
        g.seat[hidden, t, m.S_INFLUENCE] = drawn[hidden]
    if view.kind == Kind.ISLAND_BID:
        for t in range(q):  # R10.4: the seats before it bid in seat order, those with influence
            have = g.seat[:, t, m.S_INFLUENCE]
            g.seat[:, t, m.S_SECRET] = (u[:, p + t] * (have + 1)).astype(np.int64)
    machine = Machine.holding(rules, g, int(seeds[0]), streams.games)
    return Games(machine)


WORLDS = engine.Worlds(SeatView, _misshapen, _impossible, _build, _decision)


def determinize(view: SeatView, seed: Any, n: int, rows: Any = 0, *,
                check_rows: bool = True) -> Games:  # fmt: skip
    """n games per row of `view` that the seat cannot tell from its own (the floor's frame,
    `moaisim.engine.determinize`), each waiting for the view's decision."""
    return engine.determinize(WORLDS, view, seed, n, rows, check_rows=check_rows)
