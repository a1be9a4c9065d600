"""The batch engine's state (`state.BatchState`: B games as arrays, the cursor included) and its
machine (`machine.Machine`: the games played on by the kernels of `engine.compiled`, Python's
seats asked in between), private to the engine: games are played through the forward model
(`engine.forward.Games`), which asks strategies through `engine.seats` (docs/design.md)."""
