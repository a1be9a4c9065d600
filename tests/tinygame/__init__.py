"""High Card (tests/tinygame/rules.py), a game added on the engine floor with only what a game
writes (docs/design.md, "Adding a game"): this module is its `GameEngine`
(`moaisim.games.base`), as a game package's module is its spec."""

from __future__ import annotations

from moaisim.games.base import GameInfo
from tinygame.engines import (
    Game,
    Games,
    ReferenceGame,
    SeatView,
    Strategy,
    conserved,
    determinize,
)
from tinygame.rules import Kind, Rules, make_rules

INFO = GameInfo(
    name="high-card",
    title="High Card",
    summary="a tiny trick-taking game of the tests: wager, then lay cards at once",
    players=range(2, 4),
    rules_book="tests/tinygame/rules.py",
    components_file=("tinygame", "rules.py"),
    score_parts=("tricks", "bonus"),
    vocabulary={},
)

__all__ = [
    "INFO",
    "Game",
    "Games",
    "Kind",
    "ReferenceGame",
    "Rules",
    "SeatView",
    "Strategy",
    "conserved",
    "determinize",
    "make_rules",
]
