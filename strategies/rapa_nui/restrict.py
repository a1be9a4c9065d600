"""`restrict` for Rapa Nui: another strategy with some kinds of card play or purchase
forbidden, the toolkit's (`moaisim.engine.restrict`) over Rapa Nui's forbid names.

`restrict(strategy='tuned', forbid=['moai'])` plays `tuned` except that it never plays a
Moai; a decision where only forbidden actions are legal keeps them (the rules come first).
What each name forbids is written once, in the compiled policy (`policy.FORBID`,
`policy.narrow`): a restriction of a compiled strategy plays compiled (`batch.Forbid`), and
one of a strategy asked through views narrows its views' masks by the same kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.engine.restrict import Restrict
from moaisim.games.rapa_nui.engine.batch import Forbid
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.policy import FORBID as FORBID_BITS
from moaisim.games.rapa_nui.engine.policy import K_BUY, K_PLAY, narrow_view
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.strategies.rapa_nui.base import Strategy

#: The forbid names and what each forbids (rule ids).
FORBID: dict[str, str] = {name: text for name, (_, text) in FORBID_BITS.items()}
#: The decision kinds each name narrows (D1 buy, D2 play) and their kernel codes.
KINDS: dict[str, tuple[Kind, ...]] = {
    name: (Kind.BUY,) if name == "buy" else (Kind.PLAY,) for name in FORBID
}
CODES: dict[Kind, int] = {Kind.BUY: K_BUY, Kind.PLAY: K_PLAY}


class RestrictStrategy(Restrict, Strategy):
    """Another strategy with some kinds of move forbidden (strategy=..., forbid=[...])."""

    name, game, kinds = "restrict", "rapa-nui", Kind
    FORBID, KINDS = FORBID, KINDS
    BITS = {name: bit for name, (bit, _) in FORBID_BITS.items()}

    def allowed_actions(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """The mask the policy's `narrow` leaves each game, and the games it leaves as they
        were although a legal action is forbidden (forced)."""
        legal = np.array(view.legal, dtype=bool)
        allowed = legal.copy()
        narrow_view(CODES[view.kind], self.bits, allowed)
        every = np.ones_like(legal)
        narrow_view(CODES[view.kind], self.bits, every)  # the actions the bits allow
        stuck = (legal & ~every).any(axis=1) & ~(legal & every).any(axis=1)
        return allowed, stuck

    def forbidding(self, form: Any) -> Forbid | None:
        """The inner form with the bits (`batch.Forbid`); None for one restricted already
        (two restrictions narrow in two steps: asked through views)."""
        return None if isinstance(form, Forbid) else Forbid(form, self.bits)
