"""What every game's seat view is (docs/design.md, "Strategy views"): the declared shape the
toolkit, the search and the floor's `determinize` read of a view whatever its game; each game
adds the fields its seats see."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from moaisim.rng import SeatRandom


@runtime_checkable
class View(Protocol):
    """Seat `seat`'s view of n games at a decision of `kind` under `rules`: the legal actions
    [n, A] (for an answer of several numbers, what bounds it), what the question is about
    (`info`: name -> [n]), the games' numbers (`games` [n]), the seat's own stream (`rng`) and
    the arrays of what it sees of its games (`fields`)."""

    #: The names of the arrays the seat sees of its games (each an attribute [n, ...]).
    fields: ClassVar[tuple[str, ...]]
    rules: Any
    seat: int
    games: np.ndarray
    kind: Any
    legal: np.ndarray
    info: dict[str, np.ndarray]
    rng: SeatRandom

    def __len__(self) -> int:
        """n, the games of the view."""
        ...
