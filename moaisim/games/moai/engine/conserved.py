"""What every Moai game keeps whatever is played (the engine floor's invariant hook, run by the
conformance suite at every decision and by the property tests): 18 pawns a clan at valid
places (R1.5, R5), 15 wood (C5), 40 Rapa Nui cards (C1), 21 Moai tiles (C2), the disaster
tokens (C4), boats that are boat cards held once (R4.5, R5.7)."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.games.moai.rules.codes import RESERVE


def problems(games: Any) -> list[str]:
    """What in the games' state breaks a rule that conserves or bounds a count (one line
    each, the first game named); [] when nothing does."""
    s, rules, numbers = games.state, games.rules, games.games
    c, lay, p = rules.components, rules.layout, rules.players
    loc, up, b = s.loc, s.up, len(numbers)
    out: list[str] = []

    def fail(mask: np.ndarray, said: str) -> None:
        mask = np.asarray(mask).reshape(b, -1).any(axis=1)
        if mask.any():
            out.append(f"game {int(numbers[int(np.flatnonzero(mask)[0])])}: {said}")

    fail((loc < RESERVE) | (loc >= lay.size), "a pawn at no place of the board (R5)")
    fail(up & (loc < 0), "a pawn off the board face up")
    fail(~up & (lay.zones(loc) == 1), "a face-down pawn in the fields (R5.3, R5.5)")
    if rules.has("open-pawns"):
        fail(~up & (loc >= 0), "a face-down pawn under open-pawns (V1)")
    per_boat = (loc[:, :, :, None] == lay.ocean0 + np.arange(lay.boats)).sum(axis=2)
    fail(per_boat > 1, "two pawns on one boat (R5.7)")
    fail((per_boat > 0) & (s.boats < 0), "a pawn on a boat not built (R5.7)")
    fail((loc == lay.fields).sum(axis=(1, 2)) + s.covered > c.fields,
         "more pawns and disaster tokens in the fields than fields (R5.5)")  # fmt: skip
    wood = s.wood_supply + s.forest_wood.sum(axis=1) + s.wood.sum(axis=1) + s.wood_out
    fail(wood != c.wood, f"the wood does not add up to {c.wood} (C5)")
    fail((s.wood < 0).any(axis=1) | (s.wood_supply < 0), "a negative wood count")
    fail((s.deck_pos < 0) | (s.deck_pos > s.deck_len) | (s.deck_len > s.deck.shape[1]),
         "the Rapa Nui deck read past its end")  # fmt: skip
    at = np.arange(s.deck.shape[1])[None, :]
    left = (at >= s.deck_pos[:, None]) & (at < s.deck_len[:, None])
    in_deck = ((s.deck[:, :, None] == np.arange(6)) & left[:, :, None]).sum(axis=1)
    per_type = in_deck + s.discard + s.hand.sum(axis=1)
    fail((per_type != np.asarray(c.cards)).any(axis=1), "the Rapa Nui cards are not conserved "
         "(C1)")  # fmt: skip
    fail((s.hand < 0).any(axis=(1, 2)) | (s.discard < 0).any(axis=1), "a negative card count")
    fail((s.moai_owner < -2) | (s.moai_owner >= p), "a Moai tile held by no one (C2)")
    fail((s.disaster_supply + s.covered != c.disaster_tokens) | (s.disaster_supply < 0),
         "the disaster tokens do not add up (C4)")  # fmt: skip
    is_boat = np.array([card.is_boat for card in c.epoch_cards])
    held = s.boats.reshape(b, -1)
    fail((held >= 0) & ~is_boat[np.maximum(held, 0)], "a boat that is no boat card (R4.5)")
    ordered = np.sort(held, axis=1)
    fail((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0), "a boat card held twice")
    for name, counts in s.counters.items():
        fail(counts < 0, f"a negative count of {name}")
    return out
