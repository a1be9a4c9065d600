"""A decision games wait for (docs/design.md, "The forward model"): one shape for every game.

A `Pending` group is one decision kind asked of seats in games of a batch, one seat a row: a
decision that several seats take at once (Moai's sealed bid, R3.3) is several rows of the same
game in one group, each with its seat. `legal` holds each row's legal actions (a mask; for an
answer of several numbers, what bounds it: Moai's bid, the hand's counts) and `info` what the
question is about, both row by row. A group handed out by `Games.pending` carries the ticket
and the owner of its issue, so that only the current decision of a game is answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np


@dataclass
class Pending:
    """`kind` asked of `seat[k]` in the game at batch position `rows[k]`, for each row k."""

    kind: Any  # the game's decision kind (an enum whose values are the strategy methods)
    rows: np.ndarray  # [n] positions in the batch (a game repeats for a decision taken at once)
    seat: np.ndarray  # [n] the seat asked in each row
    legal: np.ndarray  # [n, A] the legal actions (or the bounds of an answer of A numbers)
    info: dict[str, np.ndarray] = field(default_factory=dict)  # name -> [n]
    #: who issued the group and when (`Games.apply` checks that an answered group is the
    #: current decision of its games); unused inside the engines
    ticket: int = field(default=-1, repr=False, compare=False)
    owner: object = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def player(self) -> int:
        """The one seat every row asks (a group of one seat's decisions)."""
        seats = np.unique(self.seat)
        if len(seats) != 1:
            raise ValueError(f"this {self.name} group asks seats {seats.tolist()}, not one")
        return int(seats[0])

    @property
    def name(self) -> str:
        """The decision's name (its strategy method)."""
        return str(self.kind.value) if isinstance(self.kind, Enum) else str(self.kind)

    def subset(self, keep: np.ndarray) -> Pending:
        """The rows selected by a mask or by positions (their order kept)."""
        return Pending(self.kind, self.rows[keep], self.seat[keep], self.legal[keep],
                       {k: v[keep] for k, v in self.info.items()}, self.ticket,
                       self.owner)  # fmt: skip

    def sealed(self) -> Pending:
        """A copy whose arrays are read-only (what a caller is handed: the engine keeps its own,
        and an edited copy handed back is refused)."""
        return Pending(self.kind, _read_only(self.rows), _read_only(self.seat),
                       _read_only(self.legal), {k: _read_only(v) for k, v in self.info.items()},
                       self.ticket, self.owner)  # fmt: skip


def _read_only(a: np.ndarray) -> np.ndarray:
    out = np.array(a, copy=True)
    out.flags.writeable = False
    return out
