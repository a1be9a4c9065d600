"""moaisim: balance analysis for the board game Moai (seeded games between strategies)."""

# First: numba's cache folder for this version of the kernels' sources (kernel_cache.py).
from moaisim import kernel_cache  # noqa: F401, I001  (before any kernel is defined)
from moaisim.api import play, replay, simulate
from moaisim.engine.decisions import Kind
from moaisim.engine.forward import Game, Games, determinize
from moaisim.engine.record import GameRecord
from moaisim.engine.views import SeatView
from moaisim.errors import (
    IllegalActionError,
    MoaisimError,
    RulesError,
    StrategyError,
    UnknownStrategyError,
    UserError,
)
from moaisim.registry import StrategySpec, load_strategy
from moaisim.rules import Rules
from moaisim.runner import load_results
from moaisim.strategies.base import Strategy
from moaisim.version import __version__

__all__ = [
    "__version__",
    "Game",
    "Games",
    "GameRecord",
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
    "load_results",
    "load_strategy",
    "play",
    "replay",
    "simulate",
]
