"""Moai's built-in strategies (see `moaisim strategies`): `random`, the `greedy` baseline, the
parametric `heuristic` (weights/heuristic.toml), the plans, `tuned`, `search`, `restrict` and
`mixture`; `levels` names them and the skill levels."""
