"""Rapa Nui (Klaus-Jürgen Wrede, Kosmos 2011), moaisim's second game: its rules book is
docs/rapa-nui-rules.md, its rules data and parameters are `rules/`, its engines `engine/`
(the reference engine first), its strategies `moaisim.strategies.rapa_nui`."""
