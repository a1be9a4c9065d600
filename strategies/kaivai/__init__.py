"""Kaivai's strategies for its reference engine (docs/kaivai-rules.md, section D): `greedy`, a
baseline of fixed preferences. `random` is the engine's own `RandomStrategy`. They join the
strategy registry when Kaivai joins the game registry."""
