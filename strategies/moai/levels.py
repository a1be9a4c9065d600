"""Moai's built-in strategies by name and its skill levels (docs/running.md, "Skill levels").

The registry (`moaisim.registry`) reads these through the game (`moaisim.games.moai`): the
names `load_strategy` knows for Moai, the library pool and the spec each level stands for.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from moaisim import weight_files

#: Where other packages add strategies for Moai (the group kept from before games had a
#: boundary, so existing plug-ins go on working).
STRATEGY_GROUP = "moaisim.strategies"
STRATEGIES: dict[str, str] = {
    "random": "moaisim.strategies.moai.random:RandomStrategy",
    "greedy": "moaisim.strategies.moai.greedy:GreedyStrategy",
    "heuristic": "moaisim.strategies.moai.heuristic:HeuristicStrategy",
    "moai": "moaisim.strategies.moai.plans:MoaiStrategy",
    "fisher": "moaisim.strategies.moai.fisher:FisherStrategy",
    "forester": "moaisim.strategies.moai.plans:ForesterStrategy",
    "breeder": "moaisim.strategies.moai.plans:BreederStrategy",
    "raider": "moaisim.strategies.moai.plans:RaiderStrategy",
    "bidder": "moaisim.strategies.moai.plans:BidderStrategy",
    "tuned": "moaisim.strategies.moai.tuned:TunedStrategy",
    "search": "moaisim.strategies.moai.search:SearchStrategy",
    "restrict": "moaisim.strategies.moai.restrict:RestrictStrategy",
    "mixture": "moaisim.strategies.moai.mixture:MixtureStrategy",
    "learned": "moaisim.strategies.moai.learned:LearnedStrategy",
}


#: The library pool: the shipped strategies the meta-game is played between (skill level L2).
LEVEL_POOL: tuple[str, ...] = ("greedy", "heuristic", "moai", "fisher", "forester", "breeder",
                               "raider", "bidder", "tuned")  # fmt: skip
#: Skill levels of a field (docs/running.md, "Skill levels"): L0 random play, L1 the
#: greedy baseline, L2 the library pool (each seat draws one of LEVEL_POOL per game), L3 the
#: shipped Nash mixture at the game's player count (strategies/moai/weights/nash-<P>p.toml:
#: at 2 players a population loop's, `moaisim tune --population`; at 3 and 4 one absorbed
#: challenger file and at 5 the learned ranker that never raids, each a `moaisim metagame`
#: mixture, 2026-12-05), L4 the look-ahead search.
LEVELS: tuple[str, ...] = ("L0", "L1", "L2", "L3", "L4")
#: The levels that are mixtures of strategies (their label is the level's name).
MIXTURE_LEVELS: frozenset[str] = frozenset({"L2", "L3"})


def level_spec(level: str, players: int) -> str:
    """The strategy spec that plays a field of skill `level` at `players` players
    (`weight_files.level_spec`; L3: the shipped `nash-<P>p.toml`)."""
    nash = Path(str(resources.files("moaisim.strategies.moai.weights") / f"nash-{players}p.toml"))
    return weight_files.level_spec(level, players, LEVELS, LEVEL_POOL, nash, "moaisim metagame")
