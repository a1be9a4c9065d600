"""Kaivai's built-in strategies by name and its skill levels (the registry reads them through
the game's spec, `moaisim.games.kaivai`)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from moaisim import weight_files

#: Where other packages add strategies for Kaivai.
STRATEGY_GROUP = "moaisim.strategies.kaivai"
_S = "moaisim.strategies.kaivai"
STRATEGIES: dict[str, str] = {
    "random": f"{_S}.random:RandomStrategy",
    "greedy": f"{_S}.greedy:GreedyStrategy",
    "heuristic": f"{_S}.heuristic:HeuristicStrategy",
    "fisher-seller": f"{_S}.plans:FisherSellerStrategy",
    "builder": f"{_S}.plans:BuilderStrategy",
    "celebrant": f"{_S}.plans:CelebrantStrategy",
    "pirate": f"{_S}.plans:PirateStrategy",
    "tuned": f"{_S}.tuned:TunedStrategy",
    "search": f"{_S}.search:SearchStrategy",
    "restrict": f"{_S}.restrict:RestrictStrategy",
    "mixture": f"{_S}.mixture:MixtureStrategy",
    "learned": f"{_S}.learned:LearnedStrategy",
}
#: The library pool: the shipped strategies the meta-game is played between (level L2).
LEVEL_POOL: tuple[str, ...] = ("greedy", "heuristic", "fisher-seller", "builder", "celebrant",
                               "pirate", "tuned")  # fmt: skip
#: Skill levels of a field: L0 random play, L1 greedy, L2 the library pool (each seat draws
#: one of LEVEL_POOL per game), L3 the meta-game's Nash mixture at the player count
#: (strategies/kaivai/weights/nash-<P>p.toml), L4 the look-ahead search.
LEVELS: tuple[str, ...] = ("L0", "L1", "L2", "L3", "L4")
#: The levels that are mixtures of strategies (their label is the level's name).
MIXTURE_LEVELS: frozenset[str] = frozenset({"L2", "L3"})


def level_spec(level: str, players: int) -> str:
    """The strategy spec that plays a field of skill `level` at `players` players
    (`weight_files.level_spec`; L3: the shipped `nash-<P>p.toml`)."""
    nash = Path(str(resources.files("moaisim.strategies.kaivai.weights") / f"nash-{players}p.toml"))
    return weight_files.level_spec(level, players, LEVELS, LEVEL_POOL, nash,
                                   "moaisim metagame --game kaivai")  # fmt: skip
