"""Rapa Nui's plan strategies: points of `heuristic`'s weight space, one weights file each
(strategies/rapa_nui/weights/<name>.toml). A file's `[plan]` table says in one line what the
plan does; its `[weights]` table moves the heuristic's defaults towards it (its comments say
why). A new plan of this kind is a new weights file: `heuristic(weights=my-plan.toml)` plays
it as it is."""

from __future__ import annotations

import tomllib

from moaisim.errors import UnknownStrategyError
from moaisim.strategies.rapa_nui.heuristic import HeuristicStrategy, weights_path


def plan(name: str) -> type[HeuristicStrategy]:
    """The strategy class of the plan whose weights file is `weights/<name>.toml`."""
    path = weights_path(f"{name}.toml")
    try:
        doc = tomllib.loads(path.read_text("utf-8"))
        summary = doc["plan"]["summary"]
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError) as exc:
        raise UnknownStrategyError(f"plan {name!r}: {path} has no [plan] summary ({exc})") from None
    cls_name = f"{name.capitalize()}Strategy"
    return type(cls_name, (HeuristicStrategy,),
                {"name": name, "preset": f"{name}.toml", "__doc__": summary,
                 "__module__": __name__, "__qualname__": cls_name})  # fmt: skip


BuilderStrategy = plan("builder")
PriestStrategy = plan("priest")
LumberjackStrategy = plan("lumberjack")
SacrificerStrategy = plan("sacrificer")
