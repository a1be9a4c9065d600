"""Rapa Nui's built-in strategies by name and its skill levels (the registry reads them
through the game's spec, `moaisim.games.rapa_nui`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from moaisim import weight_files

#: Where other packages add strategies for Rapa Nui.
STRATEGY_GROUP = "moaisim.strategies.rapa_nui"
STRATEGIES: dict[str, str] = {
    "random": "moaisim.strategies.rapa_nui.random:RandomStrategy",
    "greedy": "moaisim.strategies.rapa_nui.greedy:GreedyStrategy",
    "heuristic": "moaisim.strategies.rapa_nui.heuristic:HeuristicStrategy",
    "builder": "moaisim.strategies.rapa_nui.plans:BuilderStrategy",
    "priest": "moaisim.strategies.rapa_nui.plans:PriestStrategy",
    "lumberjack": "moaisim.strategies.rapa_nui.plans:LumberjackStrategy",
    "sacrificer": "moaisim.strategies.rapa_nui.plans:SacrificerStrategy",
    "tuned": "moaisim.strategies.rapa_nui.tuned:TunedStrategy",
    "search": "moaisim.strategies.rapa_nui.search:SearchStrategy",
    "restrict": "moaisim.strategies.rapa_nui.restrict:RestrictStrategy",
    "mixture": "moaisim.strategies.rapa_nui.mixture:MixtureStrategy",
    "learned": "moaisim.strategies.rapa_nui.learned:LearnedStrategy",
}

#: The library pool: the shipped strategies the meta-game is played between (level L2).
LEVEL_POOL: tuple[str, ...] = ("greedy", "heuristic", "builder", "priest", "lumberjack",
                               "sacrificer", "tuned")  # fmt: skip
#: Skill levels of a field: L0 random play, L1 greedy, L2 the library pool (each seat draws
#: one of LEVEL_POOL per game), L3 the meta-game's Nash mixture at the player count
#: (strategies/rapa_nui/weights/nash-<P>p.toml), L4 the look-ahead search.
LEVELS: tuple[str, ...] = ("L0", "L1", "L2", "L3", "L4")
#: The levels that are mixtures of strategies (their label is the level's name).
MIXTURE_LEVELS: frozenset[str] = frozenset({"L2", "L3"})


def level_spec(level: str, players: int) -> str:
    """The strategy spec that plays a field of skill `level` at `players` players
    (`weight_files.level_spec`; L3: the shipped `nash-<P>p.toml`)."""
    nash = Path(
        str(resources.files("moaisim.strategies.rapa_nui.weights") / f"nash-{players}p.toml")
    )
    return weight_files.level_spec(
        level, players, LEVELS, LEVEL_POOL, nash, "moaisim metagame --game rapa-nui"
    )
