"""Rapa Nui's engines: the decisions (`decisions`), what a seat sees (`views`) and the
readable one-game reference engine (`reference`)."""
