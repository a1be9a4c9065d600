"""Built-in strategies of moaisim (see `moaisim strategies`): `random`, the `greedy` baseline,
the parametric `heuristic` (strategies/moai/weights/heuristic.toml), the plans `moai`, `fisher`,
`forester`, `breeder`, `raider` and `bidder` (points of heuristic's weight space, one weights
file each) and `tuned` (the weights `moaisim tune` found, one file per player count)."""
