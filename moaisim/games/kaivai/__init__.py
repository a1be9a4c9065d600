"""Kaivai (Anselm and Helge Ostertag, 2005), the third game: its rules (docs/kaivai-rules.md),
its two engines and its forward model. This module is its `GameEngine` (`moaisim.games.base`):
what the engine floor and its conformance suite (tests/test_conformance.py) drive. Kaivai is
not yet registered as a game of the toolkit (`moaisim.games.BUILTIN`): it joins the registry
with the rest of a `GameSpec` (its results, measures, strategies and levels; issue 61)."""

from __future__ import annotations

from moaisim.games.base import GameInfo, lazy_names

#: What the game is (`GameInfo`); the words of its reports come with its registration.
INFO = GameInfo(
    name="kaivai",
    title="Kaivai",
    summary=("Anselm and Helge Ostertag, 2005: secret bids set turn order, building cost and "
             "boat range; huts on growing islands, boats that build, fish, sell fish and sink "
             "each other; feasts, decay and a sealed contest for the cult sites"),
    players=range(3, 5),
    rules_book="kaivai-rules.md",
    components_file=("moaisim.games.kaivai.rules", "components.toml"),
    score_parts=("feasts", "huts", "sites", "piracy"),
    vocabulary={},
)  # fmt: skip

_ENGINE = "moaisim.games.kaivai.engine"
#: name -> (module, attribute): the `GameEngine` names, loaded on first use.
_LAZY: dict[str, tuple[str, str]] = {
    "Rules": ("moaisim.games.kaivai.rules.model", "Rules"),
    "make_rules": ("moaisim.games.kaivai.rules.model", "make_rules"),
    "Games": (f"{_ENGINE}.forward", "Games"),
    "Game": (f"{_ENGINE}.forward", "Game"),
    "Strategy": (f"{_ENGINE}.forward", "Strategy"),
    "conserved": (f"{_ENGINE}.forward", "conserved"),
    "ReferenceGame": (f"{_ENGINE}.asked", "ReferenceGame"),
    "determinize": (f"{_ENGINE}.worlds", "determinize"),
    "SeatView": (f"{_ENGINE}.views", "SeatView"),
    "Kind": (f"{_ENGINE}.decisions", "Kind"),
}

__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())
