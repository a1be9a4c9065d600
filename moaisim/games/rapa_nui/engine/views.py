"""What a Rapa Nui seat is shown when it decides (docs/rapa-nui-rules.md, R10): a `SeatView`
of n games at once, the same question in each.

A view holds what is public (R10.1: every village, wood and glory, the display, the draw
pile's size, the supply, the stone's face-up cards and the count of face-down ones) and the
seat's own secrets (its hand, its stock, the types it sacrificed face down). Rivals' hands
and stocks are not handed out (R10.3): the view carries the public record they follow from
(each seat's start set, the cards it took from the display, played and discarded, the
sacrifice cards it bought, gained and sacrificed face up, and how many it sacrificed face
down), from which a strategy may work them out (`rival_hands`, `rival_stocks`: the stocks
up to the types of the face-down cards). The draw pile's order is hidden.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.rng import SeatRandom

#: The fields of a view, each an array over the view's n games (P seats, C columns, D the
#: column depth): what each holds.
FIELDS: dict[str, str] = {
    "turn": "[n] turns played before this one",
    "active": "[n] the seat whose turn it is",
    "hand": "[n, 7] the seat's own hand, cards of each kind",
    "stock": "[n, 4] the seat's own stock, sacrifice cards of each type",
    "own_down": "[n, 4] the types the seat sacrificed face down",
    "village": "[n, P, 7] every village, cards of each kind",
    "wood": "[n, P] every seat's wood",
    "glory": "[n, P] every seat's glory so far",
    "hand_size": "[n, P] cards in each hand",
    "stock_size": "[n, P] sacrifice cards in each stock",
    "down": "[n, P] cards each seat sacrificed face down",
    "taken": "[n, P, 7] cards each seat took from the display, by kind",
    "played": "[n, P, 7] cards each seat played into its village, by kind",
    "discarded": "[n, P, 7] cards each seat discarded stuck, by kind",
    "bought": "[n, P, 4] sacrifice cards each seat bought, by type",
    "gained": "[n, P, 4] sacrifice cards each seat took at evaluations, by type",
    "given": "[n, P, 4] sacrifice cards each seat put face up on the stone, by type",
    "display": "[n, C, D] each column's cards, most covered first (-1: none)",
    "column_size": "[n, C] cards in each column (its bottom card: display[c, size - 1])",
    "pile": "[n] cards in the draw pile",
    "supply": "[n, 4] sacrifice cards of each type in the supply",
    "stone": "[n, 4] face-up cards of each type on the stone",
    "revealed": "[n] the card kind being evaluated (-1: none yet this turn)",
    "passes": "[n] turns in a row without a card played (R4.5: a round of them ends the game)",
    "first_column": "[n] while the active seat takes: the column of its first take this turn "
    "(R6.2; -1: none yet, or not taking)",
}


class SeatView:
    """Seat `seat`'s view of n games at a decision of `kind`: its legal actions [n, A], what
    the question is about (`info`: name -> [n] array), its random stream (`rng`) and the
    `FIELDS` as attributes, and the games' numbers (`games`)."""

    #: The fields a seat sees (`FIELDS`), as every game's view declares them.
    fields: ClassVar[tuple[str, ...]] = tuple(FIELDS)

    def __init__(
        self,
        rules: Rules,
        seat: int,
        kind: Kind,
        legal: np.ndarray,
        info: dict[str, np.ndarray],
        rng: SeatRandom,
        fields: dict[str, Any],
        games: np.ndarray | None = None,
    ) -> None:
        self.rules, self.seat, self.kind = rules, int(seat), kind
        self.legal = np.asarray(legal, dtype=bool)
        #: the games' numbers [n] (a hand-made view's: 0..n-1)
        self.games = np.arange(len(self.legal)) if games is None else np.asarray(games)
        self.info = info
        self.rng = rng
        missing = sorted(set(FIELDS) - set(fields))
        if missing:
            raise ValueError(f"a view lacks {', '.join(missing)}")
        for name, value in fields.items():
            arr = np.asarray(value)
            arr.setflags(write=False)
            setattr(self, name, arr)

    def __len__(self) -> int:
        return len(self.legal)

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    def rival_hands(self) -> np.ndarray:
        """[n, P, 7] each seat's hand worked out from the public record (R10.3): its start
        hand, plus the cards it took, less those it played and discarded (the seat's own is
        its `hand`)."""
        start = np.array([self.rules.start_hand(q) for q in range(self.players)])
        return start[None] + self.taken - self.played - self.discarded

    def rival_stocks(self) -> np.ndarray:
        """[n, P, 4] each seat's stock as the public record shows it, before its face-down
        sacrifices (R10.3: only their types are unknown; subtract `down` cards in all)."""
        c = self.rules.components
        start = c.start_stock if self.rules.start_sacrifice == "one_each" else 0
        return start + self.bought + self.gained - self.given
