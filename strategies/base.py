"""The Strategy base class: one method per decision kind (docs/rules.md section D).

Each method gets a `SeatView` for one seat over a batch of games (leading axis n) and returns
one action per game: an int array [n] in the kind's action space, or for `bid` an int array
[n, 6] of card counts. The defaults pick a uniformly random legal action, drawing exactly one
value per game from the seat's stream, so a new strategy overrides only what it cares about and
runs unchanged in both engines.
"""

from __future__ import annotations

import numpy as np

from moaisim.engine.views import SeatView


class Strategy:
    """Base class of all strategies. `name` is how registries and results refer to it."""

    name = "base"

    def _random(self, view: SeatView) -> np.ndarray:
        return view.rng.choice(view.legal)

    def bid(self, view: SeatView) -> np.ndarray:
        """R3.3: card counts per type [n, 6], each at most the hand's count (view.legal).

        Default: a uniformly random sub-multiset of the hand (one draw per game).
        """
        bounds = view.legal.astype(np.int64)
        radix = bounds + 1
        total = radix.prod(axis=1)
        u = view.rng.uniform(1)[:, 0]
        k = np.minimum((u * total).astype(np.int64), total - 1)
        out = np.zeros_like(bounds)
        for t in range(bounds.shape[1]):
            out[:, t] = k % radix[:, t]
            k //= radix[:, t]
        return out

    def order_ties(self, view: SeatView) -> np.ndarray:
        """R3.4: as bird-man, the seat that takes the next place among tied bidders."""
        return self._random(view)

    def pick_epoch(self, view: SeatView) -> np.ndarray:
        """R4.1: the slot of the offer to take."""
        return self._random(view)

    def disaster_target(self, view: SeatView) -> np.ndarray:
        """R4.3: the seat a disaster hits (info["card"] is the card id)."""
        return self._random(view)

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        """R4.4: what the victim loses; info["what"] says pawn index, boat slot or tile index."""
        return self._random(view)

    def work(self, view: SeatView) -> np.ndarray:
        """R5: place, pass or swap (see `WorkCodec`)."""
        return self._random(view)

    def forest_tie(self, view: SeatView) -> np.ndarray:
        """R6.1: as bird-man, the tied clan that takes the wood (info["space"])."""
        return self._random(view)

    def finish_moai(self, view: SeatView) -> np.ndarray:
        """R6.2: a volcano space (0..V-1) to finish now, or V to stop."""
        return self._random(view)

    def feed(self, view: SeatView) -> np.ndarray:
        """R6.3-R6.4: starve an own pawn or raid (see `FeedCodec`); info["deficit"] left."""
        return self._random(view)

    def rest(self, view: SeatView) -> np.ndarray:
        """R7.2: the next own pawn to bring back to camp."""
        return self._random(view)

    def birth(self, view: SeatView) -> np.ndarray:
        """R7.3: a pair of `BIRTH_PAIRS` to discard for a pawn, or BIRTH_STOP."""
        return self._random(view)

    def boat(self, view: SeatView) -> np.ndarray:
        """R7.4: 1 to pay a wood and build the boat, 0 not to."""
        return self._random(view)
