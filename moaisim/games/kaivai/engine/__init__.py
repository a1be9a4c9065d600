"""Kaivai's engines: the reference engine (plain Python) and its chance purposes."""
