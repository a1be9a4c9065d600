"""Strategy registry: built-in names, `module:Class` paths and the entry-point group
`moaisim.strategies` (docs/design.md, "Layout")."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from moaisim.errors import UnknownStrategyError

GROUP = "moaisim.strategies"
BUILTIN: dict[str, str] = {
    "random": "strategies.random:RandomStrategy",
    "greedy": "strategies.greedy:GreedyStrategy",
}


def available() -> dict[str, str]:
    """Every strategy name that `load_strategy` knows, with the path it loads."""
    found = dict(BUILTIN)
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep.value)
    return dict(sorted(found.items()))


def _import(path: str, spec: str) -> type:
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise UnknownStrategyError(f"strategy {spec!r}: expected a name or 'module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownStrategyError(
            f"strategy {spec!r}: cannot import {module_name!r} ({exc})"
        ) from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UnknownStrategyError(f"strategy {spec!r}: {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise UnknownStrategyError(f"strategy {spec!r}: {attr!r} is not a class")
    return obj


def load_strategy(spec: str | type) -> type:
    """The strategy class for a built-in name, an entry-point name or a 'module:Class' path."""
    if isinstance(spec, type):
        return spec
    if not isinstance(spec, str) or not spec.strip():
        raise UnknownStrategyError(f"strategy {spec!r}: expected a name or 'module:Class'")
    spec = spec.strip()
    if ":" in spec:
        return _import(spec, spec)
    known = available()
    if spec not in known:
        raise UnknownStrategyError(
            f"unknown strategy {spec!r} (known: {', '.join(known)}; or give 'module:Class')"
        )
    return _import(known[spec], spec)


def strategy_name(cls: type) -> str:
    """The name results use for a strategy class: its `name` attribute, else the class name."""
    name = getattr(cls, "name", None)
    return name if isinstance(name, str) and name != "base" else cls.__name__


def parse_lineup(
    strategies: str | type | list[str | type] | tuple[str | type, ...], players: int
) -> list[type]:
    """One strategy class per seat: a single spec for all seats, or exactly `players` specs.

    A string may list seats separated by commas ("greedy,random,greedy").
    """
    if isinstance(strategies, str):
        specs: list[str | type] = [s for s in strategies.split(",")]
    elif isinstance(strategies, type):
        specs = [strategies]
    else:
        specs = list(strategies)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise UnknownStrategyError(
            f"{len(specs)} strategies given for {players} players (give one, or one per seat)"
        )
    return [load_strategy(s) for s in specs]
