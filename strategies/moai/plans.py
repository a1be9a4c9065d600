"""The plan strategies that are nothing but a point of `heuristic`'s weight space.

Each is its weights file, `strategies/moai/weights/<name>.toml`: a `[plan]` table says in one line
what the plan does, and its `[weights]` table moves `heuristic`'s defaults towards it (the
file's comments say why each weight). `moai`, `forester`, `breeder`, `raider` and `bidder`
are built here from their files; `fisher` has logic of its own (strategies/moai/fisher.py), and
`tuned` plays the weights `moaisim tune` found (strategies/moai/tuned.py). A new plan of this kind
is a new weights file: `heuristic(weights=my-plan.toml)` plays it as it is.
"""

from __future__ import annotations

from moaisim import weight_files
from moaisim.strategies.moai.heuristic import HeuristicStrategy, weights_path


def plan(name: str) -> type[HeuristicStrategy]:
    """The strategy class of the plan whose weights file is `weights/<name>.toml`
    (`weight_files.plan_class`: named `name`, its docstring the file's [plan] summary)."""
    return weight_files.plan_class(name, HeuristicStrategy, weights_path(f"{name}.toml"), __name__)


MoaiStrategy = plan("moai")
ForesterStrategy = plan("forester")
BreederStrategy = plan("breeder")
RaiderStrategy = plan("raider")
BidderStrategy = plan("bidder")
