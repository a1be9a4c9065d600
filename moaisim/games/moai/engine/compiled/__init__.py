"""The batch engine's kernels: every batch's games played game by game in numba (docs/design.md,
"The two engines"), one module per phase (its steps and the rules' kernels), the step loop in
`machine.play_game`; `policy.Policy` is what a strategy offers to decide there
(`Strategy.compiled`), a seat without one pausing its games for Python (`policy.PAUSE`,
`batch.machine.Machine.play`)."""
