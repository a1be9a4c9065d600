"""The compiled path: batches whose every seat is a built-in strategy, played game by game in
numba (docs/design.md, "The two engines": the compiled path). `play.play` is the door
(`forward.Games.play` takes it), `policy.Policy` what a strategy offers to be played so
(`Strategy.compiled`)."""
