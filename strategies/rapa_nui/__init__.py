"""Rapa Nui's strategies (docs/rapa-nui-rules.md, section D): the base class a user subclasses
(`base.Strategy`, which plays uniformly at random and is compiled on the fast machine as
such)."""
