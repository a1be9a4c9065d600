"""The engines (docs/design.md, "The two engines"): the reference engine (`reference`, one
readable game, the oracle) and the batch engine (`batch`, games as arrays), which share the
steps, decisions, views, answers, chance and events; the forward model (`forward`) is the
only door into the batch engine.
"""
