"""Rapa Nui's built-in strategies by name and its skill levels (the registry reads them
through the game's spec, `moaisim.games.rapa_nui`)."""

from __future__ import annotations

from importlib import resources

from moaisim.errors import UnknownStrategyError

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
    """The strategy spec that plays a field of skill `level` at `players` players."""
    if level not in LEVELS:
        raise UnknownStrategyError(f"unknown skill level {level!r} (levels: {', '.join(LEVELS)})")
    if level == "L0":
        return "random"
    if level == "L1":
        return "greedy"
    if level == "L4":
        return "search"
    if level == "L2":
        share = 1.0 / len(LEVEL_POOL)
        return "mixture(weights={" + ", ".join(f"'{s}': {share!r}" for s in LEVEL_POOL) + "})"
    path = resources.files("moaisim.strategies.rapa_nui.weights") / f"nash-{players}p.toml"
    if not path.is_file():
        raise UnknownStrategyError(
            f"skill level L3 has no Nash mixture for {players} players (no {path.name} among "
            "the shipped weights; make one with moaisim metagame --game rapa-nui)"
        )
    return f"mixture(file={path})"
