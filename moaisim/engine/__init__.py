"""Engines: the reference engine (one readable game) and, later, the batch engine."""
