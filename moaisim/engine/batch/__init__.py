"""The batch engine's machinery (docs/design.md, "The two engines"): B games at once as numpy
arrays, private to the engine.

The game state is a struct of arrays with a leading games axis (`state.BatchState`, the cursor
included); `machine.Machine` runs the steps of a round (one module per phase: birdman, epoch,
work, production, review) and applies answers. Nothing outside `moaisim.engine` uses it: games
are played through the forward model (`moaisim.engine.forward.Games`), which asks strategies
through `moaisim.engine.seats`.
"""
