"""The batch engine (docs/design.md, "The two engines"): B games at once as numpy arrays.

Game state is a struct of arrays with a leading games axis (`state.BatchState`); each phase
module runs its sub-steps in lockstep, asking each seat's strategy once per sub-step for the
games where that seat decides. Same rules + same strategies + same game seed gives the game
the reference engine plays, at any batch size.
"""

from moaisim.engine.batch.game import BatchGame
from moaisim.engine.batch.state import BatchState

__all__ = ["BatchGame", "BatchState"]
