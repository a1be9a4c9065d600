"""What a Kaivai seat sees when it decides (docs/kaivai-rules.md, R11), as arrays over the
games of a view (`SeatView`, the floor's `moaisim.engine.View`): the board, every seat's
public figures, this round's open bids, the action spaces, the god and where the game stands;
its own influence, and another seat's unless the rules hide it (O6, then -1); its own secret
island bid, never another's (-1). The chance streams are not reachable from a view."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.rng import SeatRandom

#: The arrays a seat sees, each [n, ...]: the board's hexes by number ((q, r) order) [n, N]:
#: land kind (-1 water, 0 boat hut, 1 temple, 2 meeting hut, 3 cult site), a hut's owner,
#: a land hex's island, fish on a hut, the boat's owner (-1 none), 1 for a boat on its hut,
#: 1 where a boat of this turn's action ended, 1 where the acting seat's boat stood at the
#: turn's start; the islands [n, I]: first cult site (its name), hexes, cult sites, 1 while
#: still to be scored, each seat's temples [n, I, P]; the game [n]: round, cult tiles left,
#: the god's hex (-1: none), fishing steps made, islands; the action spaces' tokens [n, 6];
#: the bidding and turn orders [n, P]; each seat [n, P]: influence (-1 hidden), huts, boats
#: and statues in supply, glory, bonus position, this round's bid (0: none), passed, acted,
#: its secret island bid (-1: not the viewer's); the score's parts [n, P, 4]; shells of each
#: value and fish of each freshness [n, P, VALUES]; where the game stands [n]: the action
#: under way (during a turn's action, else -1), the end hex of the step just moved (before
#: its build, catch or delivery, else -1), the island whose contest is bid on (else -1). The
#: hexes where boats acted and stood are shown during a boat action only (else 0).
FIELDS = (
    "land", "owner", "island", "fish", "boat", "on_hut", "acted_hexes", "start_hexes",
    "first", "size", "sites", "left", "temples", "round", "tiles", "god", "fishing",
    "islands", "spaces", "order", "turns", "influence", "huts", "boats", "statues", "glory",
    "bonus", "bid", "passed", "acted", "secret", "parts", "shells", "fishes", "act", "end",
    "scoring",
)  # fmt: skip
#: The machine's steps of a boat action (R6.8), and those after its step's move (R8.1-R8.3).
BOAT_STEPS = (m.STEPS, m.STEP_ASK, m.BUILD_ASK, m.FISH_ASK, m.DELIVER_ASK)
AFTER_MOVE = (m.BUILD_ASK, m.FISH_ASK, m.DELIVER_ASK)


class SeatView:
    """Seat `seat`'s view of n games at a decision of `kind`: `FIELDS`, read-only; `legal`
    [n, A] marks each game's options (the first n_k of A), `info["options"]` [n, A] holds
    them as the machine lists them (-1 past the last; `batch.Batch.option` reads one), `rng`
    the seat's own stream."""

    fields = FIELDS

    def __init__(self, rules: Any, seat: int, kind: Any, legal: np.ndarray,
                 info: dict[str, np.ndarray], rng: SeatRandom, games: np.ndarray,
                 **arrays: np.ndarray) -> None:  # fmt: skip
        self.rules, self.seat, self.kind = rules, seat, kind
        self.legal, self.info, self.rng = legal, info, rng
        self.games = np.asarray(games)
        for name in FIELDS:
            value = np.array(arrays[name], copy=True)
            value.flags.writeable = False
            setattr(self, name, value)

    def __len__(self) -> int:
        return len(self.games)


def arrays_seen(g: m.Arrays, rules: Any, seat: int, rows: np.ndarray) -> dict[str, np.ndarray]:
    """The `FIELDS` of seat `seat` over the games `rows` of the machine state `g`."""
    p = rules.players
    h, isl, count, cur, st = g.hexes[rows], g.isl[rows], g.count[rows], g.cur[rows], g.seat[rows]
    influence = st[:, :, m.S_INFLUENCE].copy()
    if rules.influence_visibility == "hidden":  # O6
        others = np.arange(p) != seat
        influence[:, others] = -1
    secret = np.full((len(rows), p), -1, dtype=np.int64)
    secret[:, seat] = st[:, seat, m.S_SECRET]
    step = cur[:, m.C_STEP]
    boating = np.isin(step, BOAT_STEPS)
    acting = boating | (step == m.CELEBRATE_ASK)
    return {
        "land": h[:, m.H_KIND], "owner": h[:, m.H_OWNER], "island": h[:, m.H_ISLAND],
        "fish": h[:, m.H_FISH], "boat": h[:, m.H_BOAT], "on_hut": h[:, m.H_ON_HUT],
        "acted_hexes": np.where(boating[:, None], h[:, m.H_ACTED], 0),
        "start_hexes": np.where(boating[:, None], h[:, m.H_START], 0),
        "first": isl[:, m.I_FIRST], "size": isl[:, m.I_SIZE], "sites": isl[:, m.I_SITES],
        "left": isl[:, m.I_LEFT],
        "temples": np.transpose(isl[:, m.I_TEMPLES : m.I_TEMPLES + p], (0, 2, 1)),
        "round": count[:, m.G_ROUND], "tiles": count[:, m.G_TILES], "god": count[:, m.G_GOD],
        "fishing": count[:, m.G_FISHING], "islands": count[:, m.G_ISLANDS],
        "spaces": count[:, m.G_SPACES : m.G_SPACES + m.N_ACTIONS],
        "order": count[:, m.G_ORDER : m.G_ORDER + p], "turns": count[:, m.G_TURNS : m.G_TURNS + p],
        "influence": influence, "huts": st[:, :, m.S_HUTS], "boats": st[:, :, m.S_BOATS],
        "statues": st[:, :, m.S_STATUES], "glory": st[:, :, m.S_GLORY],
        "bonus": st[:, :, m.S_BONUS], "bid": st[:, :, m.S_BID], "passed": st[:, :, m.S_PASSED],
        "acted": st[:, :, m.S_ACTED], "secret": secret,
        "parts": st[:, :, [m.S_FEASTS, m.S_HUT_GLORY, m.S_SITES, m.S_PIRACY]],
        "shells": g.vals[rows, :, 0], "fishes": g.vals[rows, :, 1],
        "act": np.where(acting, cur[:, m.C_ACT], -1),
        "end": np.where(np.isin(step, AFTER_MOVE), cur[:, m.C_END], -1),
        "scoring": np.where(step == m.FINAL_BID, cur[:, m.C_SCORING], -1),
    }  # fmt: skip
