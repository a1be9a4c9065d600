"""`restrict` for Kaivai: another strategy with some kinds of move forbidden, the toolkit's
(`moaisim.engine.restrict`) over Kaivai's forbid names.

`restrict(strategy='tuned', forbid=['piracy'])` plays `tuned` except that it never sinks a
rival's boat; a decision where only forbidden options are left keeps them (the rules come
first: the move is forced). What each name forbids is written once, in the machine
(`machine.forbidden`, bits `BITS`): a restriction of a compiled strategy plays compiled, and
one of a strategy asked through views narrows its views' masks by the same kernel, the view's
games rebuilt (`answers.forbidden_options`); the built-ins answer a narrowed view among the
options it leaves (`answers.compiled_answers`). Tests hold the two paths to the same games.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.engine.restrict import Restrict
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.answers import forbidden_options
from moaisim.games.kaivai.engine.batch import Forbid
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.forward import Strategy
from moaisim.games.kaivai.engine.reference import ACTIONS
from moaisim.games.kaivai.engine.views import SeatView

#: The forbid names and what each forbids (rule ids).
FORBID: dict[str, str] = {
    **{a: f"the {a} action (R8, D4)" for a in ACTIONS},
    "sacrifice": "passing before acting in a round, a sacrifice (R6.5)",
    "piracy": "a move step onto a rival's boat, sinking it (R8.4)",
    "sell": "delivering fish to a rival's hut (R8.3)",
    "bids_low": "the bids 1 to 3: cheap huts, the god (R3, R5)",
    "bids_mid": "the bids 4 to 6: the longest reach (R3.3)",
    "bids_high": "the bids 7 to 10: acting first (R3.4)",
}
#: The decision kinds each name narrows.
KINDS: dict[str, tuple[Kind, ...]] = {
    **{a: (Kind.ACTION,) for a in ACTIONS}, "sacrifice": (Kind.ACTION,),
    "piracy": (Kind.MOVE_STEP,), "sell": (Kind.DELIVER,), "bids_low": (Kind.BID,),
    "bids_mid": (Kind.BID,), "bids_high": (Kind.BID,),
}  # fmt: skip
#: Each name's bit in the machine (`machine.F_SACRIFICE` ...; an action's is its number).
BITS: dict[str, int] = {
    **{a: 1 << k for k, a in enumerate(ACTIONS)}, "sacrifice": m.F_SACRIFICE,
    "piracy": m.F_PIRACY, "sell": m.F_SELL, "bids_low": m.F_BIDS_LOW,
    "bids_mid": m.F_BIDS_MID, "bids_high": m.F_BIDS_HIGH,
}  # fmt: skip


class RestrictStrategy(Restrict, Strategy):
    """Another strategy with some kinds of move forbidden (strategy=..., forbid=[...])."""

    name, game, kinds = "restrict", "kaivai", Kind
    FORBID, KINDS, BITS = FORBID, KINDS, BITS

    def allowed_actions(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """The options the names leave each game, and the games where they leave none (the
        mask then as it was: forced)."""
        legal = np.array(view.legal, dtype=bool)
        allowed = legal & ~forbidden_options(view, self.bits)
        stuck = ~allowed.any(axis=1)
        allowed[stuck] = legal[stuck]
        return allowed, stuck

    def forbidding(self, form: Any) -> Forbid | None:
        """The inner form with the bits (`batch.Forbid`), which the machine plays; None for
        one restricted already (two restrictions narrow in two steps: asked through views)."""
        return None if isinstance(form, Forbid) else Forbid(form, self.bits)
