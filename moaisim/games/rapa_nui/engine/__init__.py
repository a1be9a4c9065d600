"""Rapa Nui's engines: the decisions (`decisions`), what a seat sees (`views`), the readable
one-game reference engine (`reference`, the oracle) with its log in words (`events`), the fast
machine's kernels (`machine`) and its batches of games (`batch`), and the results table
(`results`)."""
