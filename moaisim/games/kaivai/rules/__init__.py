"""Kaivai's rules: the rules value, the components and the board (docs/kaivai-rules.md)."""
