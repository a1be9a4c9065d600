"""Epoch cards: what each disaster does (docs/rules.md C3), and every card's properties as
read-only arrays (R0, C4): one home for these facts.

Both engines, the batch engine's steps and the strategies' features read them here: the
reference engine through `EpochCard.effect`, the array code through `epoch_table(rules)`,
whose arrays are indexed by epoch card id and end with one more entry for "no card", so
that an empty offer slot or an empty hand (id -1) reads it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import DTypeLike

if TYPE_CHECKING:
    from moaisim.games.moai.rules.model import Rules

# --- what a disaster takes (R4.4) --------------------------------------------------------------
#: What the struck clan chooses to lose (R4.4): one of its pawns, a boat or a Moai tile; the
#: `info["what"]` of a disaster_loss decision. LOSS_NONE: the disaster takes nothing to choose.
LOSS_NONE, LOSS_PAWN, LOSS_BOAT, LOSS_MOAI = -1, 0, 1, 2


class Effect(NamedTuple):
    """What one disaster does when its card is taken (C3)."""

    #: R4.3 (no target): a disaster token from the supply covers a free field
    erosion: bool
    #: the target loses 1 wood, discarded as R3.1 says
    burns: bool
    #: what the target then chooses to lose (R4.4): LOSS_PAWN, LOSS_BOAT, LOSS_MOAI or LOSS_NONE
    loss: int

    @property
    def targeted(self) -> bool:
        """R4.3: the taker names the clan it strikes; erosion alone has no target."""
        return not self.erosion


#: C3: each disaster's effect, by card type.
EFFECTS: dict[str, Effect] = {
    "erosion": Effect(erosion=True, burns=False, loss=LOSS_NONE),
    "fire": Effect(erosion=False, burns=True, loss=LOSS_NONE),
    "fire-boat": Effect(erosion=False, burns=True, loss=LOSS_BOAT),  # the boat's card leaves
    "famine": Effect(erosion=False, burns=False, loss=LOSS_PAWN),  # to the reserve
    "storm": Effect(erosion=False, burns=False, loss=LOSS_BOAT),  # as with fire-boat
    "topple": Effect(erosion=False, burns=False, loss=LOSS_MOAI),  # the tile leaves the game
}
#: The disaster card types (C3).
DISASTERS: tuple[str, ...] = tuple(EFFECTS)


# --- the cards as arrays -----------------------------------------------------------------------
class EpochTable(NamedTuple):
    """The epoch cards of a component set, one read-only array per property, indexed by card
    id, with one more entry at the end (index -1) for "no card": a numba-friendly record."""

    epoch: np.ndarray  # int8: the epoch printed on the card's back (R1.7, R5.9); 0 for none
    admiral: np.ndarray  # bool: the Admiral Roggeveen card (R3.2, R8.1)
    palm: np.ndarray  # int16: 1 for a palm (R3.1)
    draw: np.ndarray  # int64: Rapa Nui cards drawn in the review (R7.1)
    hut: np.ndarray  # int64: pawns called home in the rest (R7.2)
    boat: np.ndarray  # bool: a boat card (R4.5, R7.4)
    disaster: np.ndarray  # bool: a disaster, acting as soon as it is taken (R4.3)
    targeted: np.ndarray  # bool: a disaster whose taker names the clan it strikes (R4.3)
    erosion: np.ndarray  # bool: C3 erosion (no target)
    burns: np.ndarray  # bool: C3 fire, fire-boat: the target loses 1 wood
    loss: np.ndarray  # int64: what the target chooses to lose (R4.4), LOSS_NONE for none


@cache
def epoch_table(rules: Rules) -> EpochTable:
    """The `EpochTable` of the rules' component set, computed once per `Rules`."""
    cards = rules.components.epoch_cards
    effects = [c.effect for c in cards]  # C3; None for a card that is no disaster

    def column(values: list[object], none: object, dtype: DTypeLike) -> np.ndarray:
        out = np.array([*values, none], dtype=dtype)
        out.setflags(write=False)
        return out

    return EpochTable(
        epoch=column([c.epoch for c in cards], 0, np.int8),
        admiral=column([c.is_admiral for c in cards], False, bool),
        palm=column([int(c.palm) for c in cards], 0, np.int16),
        draw=column([c.draw for c in cards], 0, np.int64),
        hut=column([c.hut for c in cards], 0, np.int64),
        boat=column([c.is_boat for c in cards], False, bool),
        disaster=column([c.is_disaster for c in cards], False, bool),
        targeted=column([c.targeted for c in cards], False, bool),
        erosion=column([e is not None and e.erosion for e in effects], False, bool),
        burns=column([e is not None and e.burns for e in effects], False, bool),
        loss=column([LOSS_NONE if e is None else e.loss for e in effects], LOSS_NONE, np.int64),
    )
