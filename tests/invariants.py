"""Invariants that hold after every event of any game (used by the property tests)."""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.engine.reference import Game
from moaisim.engine.state import State
from moaisim.rules import CAMP, RESERVE


def check_state(s: State) -> None:
    """Conservation of pawns, wood, cards, tiles and disaster tokens; sane locations."""
    r, c, lay = s.rules, s.rules.components, s.rules.layout
    p = r.players
    # 18 pawns per colour: camp + board + reserve; every location code valid
    assert s.loc.shape == (p, c.pawns)
    assert ((s.loc >= RESERVE) & (s.loc < lay.size)).all()
    assert not s.up[s.loc < 0].any(), "pawns off the board have no face"
    # a pawn in the fields is always face up (R5.5, R5.3); V1: every board pawn
    assert s.up[lay.zones(s.loc) == 1].all()
    if r.has("open-pawns"):
        assert s.up[s.loc >= 0].all()
    # a volcano space is one clan's (by construction); a boat holds one pawn, and only a built one
    for seat in range(p):
        for k in range(lay.boats):
            on = int((s.loc[seat] == lay.ocean0 + k).sum())
            assert on <= 1
            assert on == 0 or s.boats[seat, k] >= 0
    # fields: pawns + covered <= fields
    assert (s.loc == lay.fields).sum() + s.covered <= c.fields
    # 15 wood: supply + forest + clans + out of the game (spent_wood = out, R3.1)
    assert s.wood_supply + s.forest_wood.sum() + s.wood.sum() + s.wood_out == c.wood
    assert (s.wood >= 0).all() and s.wood_supply >= 0
    assert s.wood_out == 0 or r.spent_wood == "out"
    # 40 Rapa Nui cards: deck + discard + hands (bids go straight to the discard)
    per_type = (
        np.bincount(np.asarray(s.deck, dtype=int), minlength=6) + s.discard + s.hand.sum(axis=0)
    )
    assert per_type.tolist() == list(c.cards)
    assert (s.hand >= 0).all() and (s.discard >= 0).all()
    # 21 Moai tiles: supply + clans + out of game
    assert s.moai_owner.shape == (c.n_tiles,)
    assert ((s.moai_owner >= -2) & (s.moai_owner < p)).all()
    # disaster tokens: supply + covered fields
    assert s.disaster_supply + s.covered == c.disaster_tokens
    assert s.disaster_supply >= 0
    # boats are boat cards, each held once
    held = s.boats[s.boats >= 0]
    assert len(set(held.tolist())) == len(held)
    assert all(c.epoch_cards[i].is_boat for i in held)


class CheckedGame(Game):
    """A reference game that checks the invariants after every event and every legal mask."""

    def log(self, e: str, **data: Any) -> None:
        super().log(e, **data)
        if hasattr(self, "_state"):
            check_state(self.state)

    def ask(self, seat, kind, legal, **info):  # type: ignore[no-untyped-def]
        action = super().ask(seat, kind, legal, **info)
        if kind.value == "bid":
            assert (np.asarray(action) >= 0).all() and (np.asarray(action) <= legal).all()
        else:
            assert legal[action], f"illegal {kind} action {action} applied"
        return action


def camp_count(s: State, seat: int) -> int:
    return int((s.loc[seat] == CAMP).sum())
