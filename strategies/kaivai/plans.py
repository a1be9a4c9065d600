"""Kaivai's plan strategies: points of `heuristic`'s weight space, one weights file each
(strategies/kaivai/weights/<name>.toml). A file's `[plan]` table says in one line what the
plan does; its `[weights]` table moves the heuristic's defaults towards it. A new plan of this
kind is a new weights file: `heuristic(weights=my-plan.toml)` plays it as it is."""

from __future__ import annotations

from moaisim import weight_files
from moaisim.strategies.kaivai.heuristic import HeuristicStrategy, weights_path


def plan(name: str) -> type[HeuristicStrategy]:
    """The strategy class of the plan whose weights file is `weights/<name>.toml`
    (`weight_files.plan_class`: named `name`, its docstring the file's [plan] summary)."""
    return weight_files.plan_class(name, HeuristicStrategy, weights_path(f"{name}.toml"), __name__)


FisherSellerStrategy = plan("fisher-seller")
BuilderStrategy = plan("builder")
CelebrantStrategy = plan("celebrant")
PirateStrategy = plan("pirate")

#: The plans by name.
PLANS: dict[str, type[HeuristicStrategy]] = {
    cls.name: cls for cls in (FisherSellerStrategy, BuilderStrategy, CelebrantStrategy,
                              PirateStrategy)
}  # fmt: skip
