"""`restrict`: another strategy with some kinds of move forbidden (docs/strategies.md,
"restrict").

`restrict(strategy='tuned', forbid=['boat', 'raid'])` plays `tuned` except that it never
builds a boat and never raids: the toolkit's `restrict` (`moaisim.engine.restrict`: the
masks, `forced`, `replaced`) over Moai's forbid names, which are Moai's own:

- `bid`: never bid: every bid is no card (R3.3; the empty bid is always legal). The inner
  strategy is not asked (one action is left, as when the engines skip a forced decision).
- `boat`: never build a boat (R7.4: the boat decision is always 0, not asked) and never put
  a pawn on a boat (R5.7: no placement at sea, no swap that brings a pawn onto a boat).
- `raid`: never raid when feeding (R6.4): only starving actions (R6.3; one is always legal).
- `birth`: never take a birth (R7.3): stop at once; the births the last round makes
  compulsory (R7.3, A4: stopping is then illegal) are forced.
- `forest`: never place a pawn in the forest (R5.4), nor swap one into it (R5.3: a swap of a
  forest pawn with a pawn elsewhere brings the other pawn into the forest).
- `swap`: never swap two pawns in the work phase (R5.3): with an empty camp, pass.
- `disasters`: never aim a disaster at a rival. Reading (R4.1, R4.3, C3): never take an
  epoch card whose disaster strikes a chosen clan (fire, fire-boat, famine, storm, topple;
  erosion strikes nobody) while another card is on offer; and when such a card is held
  anyway, aim it at a clan that has nothing the card takes (C3: a fire at a clan without
  wood burns nothing), its own clan included; when every clan would lose something, the
  target is drawn by lot among all clans, its own included (R4.3 lets it aim at itself):
  no aim, a disaster spread as evenly as chance spreads it. Under V5 the taker aims nothing,
  so only the pick is restricted. The target is chosen here (one value of the seat's stream
  per game, as the random default), not by the inner strategy.

The label names the inner strategy and the list as written: `restrict(strategy='greedy',
forbid=['boat'])`. What each name forbids is written once, in the compiled policies
(`compiled.policy.narrow`, `aim`), which views are narrowed by too
(`compiled.answer.allowed_actions`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moaisim.engine.restrict import Restrict
from moaisim.games.moai.engine.compiled.answer import allowed_actions
from moaisim.games.moai.engine.compiled.policy import FORBID as FORBID_BITS
from moaisim.games.moai.engine.compiled.policy import Choice, Form, Policy
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules.codes import N_CARD_TYPES
from moaisim.strategies.moai.base import Strategy

#: The forbid names and what each forbids (rules.md ids).
FORBID: dict[str, str] = {
    "bid": "never bid: every bid is no card (R3.3)",
    "boat": "never build a boat (R7.4) nor put a pawn on one (R5.7)",
    "raid": "never raid when feeding (R6.4)",
    "birth": "never take a birth (R7.3), unless the last round makes it compulsory",
    "forest": "never place a pawn in the forest (R5.4), nor swap one into it (R5.3)",
    "swap": "never swap two pawns in the work phase (R5.3)",
    "disasters": "never aim a disaster at a rival that loses by it (R4.1, R4.3, C3)",
}
#: The kinds each forbid name restricts.
KINDS: dict[str, tuple[Kind, ...]] = {
    "bid": (Kind.BID,),
    "boat": (Kind.BOAT, Kind.WORK),
    "raid": (Kind.FEED,),
    "birth": (Kind.BIRTH,),
    "forest": (Kind.WORK,),
    "swap": (Kind.WORK,),
    "disasters": (Kind.PICK_EPOCH, Kind.DISASTER_TARGET),
}


def _forbidding(form: Any, bits: int) -> Form | None:
    """A compiled form with `bits` forbidden (each policy of a `Choice`); None for none, or
    for one that forbids already, or for a `Choice` under `disasters`: the target drawn
    here (`answer_here`) comes from the view's stream where the engine left it, while the
    chosen components draw on from where they left it (`mixture.PerGame`), two positions that
    the compiled path's one stream position per seat does not keep."""
    if isinstance(form, Policy):
        return None if form.forbid else form._replace(forbid=bits)
    if isinstance(form, Choice):
        if bits & FORBID_BITS["disasters"]:
            return None
        forms = {k: _forbidding(f, bits) for k, f in form.forms.items()}
        if any(f is None for f in forms.values()):
            return None
        return Choice(forms, form.pick)
    return None


class RestrictStrategy(Restrict, Strategy):
    """Another strategy with kinds of move forbidden (bid, boat, raid, birth, forest...)."""

    name, game, kinds = "restrict", "moai", Kind
    FORBID, KINDS, BITS = FORBID, KINDS, FORBID_BITS

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        for kind in (Kind.BID, Kind.BOAT):  # answered here without looking: no bid, no boat
            if kind in self.narrowed and self.answer_here_kind(kind):
                self.reads[kind.value] = ()

    def answer_here_kind(self, kind: Kind) -> bool:
        """Whether the names settle `kind` without asking the inner strategy."""
        return (
            (kind is Kind.BID and "bid" in self.forbidden)
            or (kind is Kind.BOAT and "boat" in self.forbidden)
            or (kind is Kind.DISASTER_TARGET and "disasters" in self.forbidden)
        )

    def allowed_actions(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """The mask the compiled policy's `narrow` (and `aim`) leaves the view."""
        return allowed_actions(self.bits, view)

    def forbidding(self, form: Any) -> Form | None:
        """The inner form with the bits as its `forbid` (`_forbidding`)."""
        return _forbidding(form, self.bits)

    def answer_here(self, view: SeatView) -> np.ndarray | None:
        """R3.3 under `bid`: the empty bid; R7.4 under `boat`: keep the wood; R4.3 under
        `disasters`: a clan that has nothing the card takes (C3), its own included; when
        every clan would lose something, one drawn by lot (one value of the seat's stream
        per game, whichever case)."""
        kind = view.kind
        if not self.answer_here_kind(kind):
            return None
        if kind is Kind.BID:
            return np.zeros((len(view), N_CARD_TYPES), dtype=np.int64)
        if kind is Kind.BOAT:
            return np.zeros(len(view), dtype=np.int64)
        harmless, stuck = allowed_actions(self.bits, view)
        self._count(self.forced, kind, stuck.sum())
        return view.rng.choice(harmless)
