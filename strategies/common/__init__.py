"""What every game's strategies share, written once (docs/design.md, "Adding a game"): a game's
folder beside this one names what is its own and takes the rest from here."""
