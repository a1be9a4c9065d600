"""The decisions a Rapa Nui strategy makes (docs/rapa-nui-rules.md, section D): their kinds,
named as the strategy methods that answer them, and the size of each kind's action space."""

from __future__ import annotations

from enum import StrEnum

from moaisim.games.rapa_nui.rules.codes import N_BUY, N_FOODS, N_KINDS, N_OFFERING, N_PLAY
from moaisim.games.rapa_nui.rules.model import Rules


class Kind(StrEnum):
    """A decision kind; its value is the `Strategy` method that answers it."""

    START_SACRIFICE = "start_sacrifice"  # D0, R1.4 (one_choice): a food type
    BUY = "buy"  # D1, R3: nothing, or a food type
    PLAY = "play"  # D2, R4.1: a lumberjack, a priest, a Moai or 1-3 H&G of one type
    DISCARD = "discard"  # D3, R4.3: a card kind of the hand
    SACRIFICE = "sacrifice"  # D4, R5.1: a food type of the stock, face up
    OFFERING = "offering"  # D5, R5.2: the stock's card face down and the supply's face up
    TAKE = "take"  # D6, R6.1: a column
    MOAI_INCOME = "moai_income"  # D7, R7.4: how many of the Moai pay glory (the rest wood)
    BONUS = "bonus"  # D8, R7.6: how many units of the Moai bonus are glory


#: The numbers of one answer of each kind (its width): every kind is answered by one action of
#: its mask. The toolkit reads it through the GameSpec (`ACTION_WIDTHS`).
ACTION_WIDTHS: dict[Kind, int] = dict.fromkeys(Kind, 1)


def action_size(rules: Rules, kind: Kind) -> int:
    """The number of actions of `kind` (its legal masks' width)."""
    c = rules.components
    return {
        Kind.START_SACRIFICE: N_FOODS,
        Kind.BUY: N_BUY,
        Kind.PLAY: N_PLAY,
        Kind.DISCARD: N_KINDS,
        Kind.SACRIFICE: N_FOODS,
        Kind.OFFERING: N_OFFERING,
        Kind.TAKE: c.columns,
        Kind.MOAI_INCOME: c.moai + 1,
        Kind.BONUS: c.bonus_moai + 1,
    }[kind]
