"""What every Rapa Nui game keeps whatever is played (the engine floor's invariant hook, run by
the conformance suite at every decision): the cards of the deck (C1), the start cards (C2),
the sacrifice cards (C3), and counts never below zero (wood and glory: R1.5, R1.7)."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.games.rapa_nui.engine.reference import deck
from moaisim.games.rapa_nui.rules.codes import LUMBERJACK, N_KINDS


def problems(games: Any) -> list[str]:
    """What in the games' state breaks a rule that conserves or bounds a count (one line
    each, the first game named); [] when nothing does."""
    g, rules = games.g, games.rules
    c, p, numbers = rules.components, rules.players, games.games
    out: list[str] = []

    def fail(mask: np.ndarray, said: str) -> None:
        if mask.any():
            out.append(f"game {int(numbers[int(np.flatnonzero(mask)[0])])}: {said}")

    for name in ("hand", "village", "stock", "down", "wood", "glory", "supply", "stone", "out",
                 "taken", "played", "discarded", "bought", "gained", "given"):  # fmt: skip
        arr = getattr(g, name)
        fail((arr < 0).reshape(len(arr), -1).any(axis=1), f"a negative count in {name}")
    depth = np.arange(c.depth)[None, None, :]
    fail(((g.col_size < 0) | (g.col_size > c.depth)).any(axis=1), "a column outside 0..depth")
    fail((g.pile_pos < 0) | (g.pile_pos > g.pile_len), "a draw pile read past its end")
    # C1, C2: the deck's cards are in hands, villages, the display, the draw pile or out, and
    # the start cards beside them (a start lumberjack in each village, three H&G in hand)
    start = np.zeros((len(g.hand), N_KINDS), dtype=np.int64)
    start[:] = np.array([rules.start_hand(q) for q in range(p)]).sum(axis=0)
    start[:, LUMBERJACK] += p * c.start_lumberjacks
    shown = np.where(depth < g.col_size[:, :, None], g.columns, -1)
    held = g.hand.sum(axis=1) + g.village.sum(axis=1) + g.out - start
    for k in range(N_KINDS):
        held[:, k] += (shown == k).sum(axis=(1, 2))
        at = np.arange(g.pile.shape[1])[None, :]
        held[:, k] += ((g.pile == k) & (at >= g.pile_pos[:, None])
                       & (at < g.pile_len[:, None])).sum(axis=1)  # fmt: skip
    cards = np.bincount(np.array(deck(rules), dtype=np.int64), minlength=N_KINDS)
    fail((held != cards[None, :]).any(axis=1), "the deck's cards are not conserved (C1)")
    # C3: every sacrifice card is in the supply, a stock, face down or face up on the stone
    total = g.supply + g.stock.sum(axis=1) + g.down.sum(axis=1) + g.stone
    fail((total != c.supply).any(axis=1), "the sacrifice cards are not conserved (C3)")
    fail(g.turns.sum(axis=1) != g.turn, "the seats' turns do not add up to the game's")
    return out
