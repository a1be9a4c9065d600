"""moaisim: balance analysis for board games of Easter Island (seeded games between
strategies). The toolkit plays each game through its `GameSpec` (`load_game(name)`,
`moaisim games`, `moaisim.games.available()`); the first is Moai, the default.

The names of the default game's rules, engine and strategies (`Rules`, `Strategy`, `Kind`,
`Game`, `Games`, `determinize`, `GameRecord`, `SeatView`) are Moai's, read from its
`GameSpec` when first used; another game's come from `load_game(name)`."""

# First: numba's cache folder for this version of the kernels' sources (kernel_cache.py).
from moaisim import kernel_cache  # noqa: F401, I001  (before any kernel is defined)
from typing import Any

from moaisim.api import play, replay, simulate
from moaisim.errors import (
    EngineError,
    GameLengthError,
    IllegalActionError,
    MoaisimError,
    RulesError,
    StrategyError,
    UnknownStrategyError,
    UserError,
)
from moaisim.games import DEFAULT, GameSpec, load_game
from moaisim.registry import StrategySpec, load_strategy
from moaisim.runner import load_results
from moaisim.version import __version__

#: The default game's names offered at the top level (`moaisim.Rules` is Moai's `Rules`).
GAME_NAMES = ("Game", "GameRecord", "Games", "Kind", "Rules", "SeatView", "Strategy",
              "determinize")  # fmt: skip


def __getattr__(name: str) -> Any:
    """A name of the default game (`GAME_NAMES`), from its `GameSpec`."""
    if name in GAME_NAMES:
        return getattr(load_game(DEFAULT), name)
    raise AttributeError(f"module 'moaisim' has no attribute {name!r}")


__all__ = [
    "__version__",
    "EngineError",
    "Game",
    "GameLengthError",
    "GameRecord",
    "GameSpec",
    "Games",
    "IllegalActionError",
    "Kind",
    "MoaisimError",
    "Rules",
    "RulesError",
    "SeatView",
    "Strategy",
    "StrategyError",
    "StrategySpec",
    "UnknownStrategyError",
    "UserError",
    "determinize",
    "load_game",
    "load_results",
    "load_strategy",
    "play",
    "replay",
    "simulate",
]
