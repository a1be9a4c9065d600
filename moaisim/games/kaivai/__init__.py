"""Kaivai (Anselm and Helge Ostertag, 2005), the third game: its rules (docs/kaivai-rules.md)
and its reference engine. Not yet registered as a game of the toolkit (`moaisim.games.BUILTIN`):
it joins the registry once its compiled machine, views and strategies pass the engine
floor's conformance suite (issue 61)."""
