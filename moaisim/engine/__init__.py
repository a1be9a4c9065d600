"""The engine floor: what every game's engine is built on, written once (docs/design.md, "The
forward model", "Adding a game").

- `Pending`: a decision games wait for, one seat a row (a decision taken at once: several rows
  of one game in one group);
- `Games` and `Machine`: many games as one forward model over the machine a game supplies
  (pending, apply, clone, stack, observe, returns), and `Game`, one of them;
- `View`: what every game's seat view is (rules, seat, kind, legal, info, rng);
- `Worlds` and `determinize`: the frame of the worlds a seat's view may be in
  (`world_streams`: their streams, row by row).

A game's engine imports these; the floor imports no game.
"""

from moaisim.engine.determinize import MAX_WORLDS, Worlds, determinize, world_streams
from moaisim.engine.game import Game
from moaisim.engine.games import Games, Machine
from moaisim.engine.pending import Pending
from moaisim.engine.view import View

__all__ = [
    "MAX_WORLDS",
    "Game",
    "Games",
    "Machine",
    "Pending",
    "View",
    "Worlds",
    "determinize",
    "world_streams",
]
