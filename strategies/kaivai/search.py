"""Kaivai's `search` (skill level L4): the toolkit's look-ahead by determinized rollouts
(`moaisim.engine.search`) on Kaivai's forward model. Its worlds draw the rivals' hidden
influence (O6) and the secret island bids made before the seat's own, each world's dice its
own (`worlds.determinize`); every decision kind is searched; a rollout plays the rest of the
current round and `horizon` more (R2: a game of 10 rounds), valued by the logistic of the
seat's lead in glory were the game to end there (its huts' 2 glory each counted, R10.1), or
by its share of the win when the game ends in it. The rollouts and the rivals play `auto` (the
strongest shipped field below search at the player count: L3 where one ships, else `tuned`),
compiled; the candidates are the rollout policy's answer and the proposers' (`PROPOSERS`),
cut by successive halving over `worlds`, and a decision where they all agree is not
searched."""

from __future__ import annotations

from typing import Any, ClassVar

from moaisim.engine.search import PARAMS, Search
from moaisim.games.kaivai.engine.forward import Strategy

#: The default proposers: the library pool's plans, `tuned` and `greedy`.
PROPOSERS = "tuned,greedy,builder,celebrant,fisher-seller,pirate"


class SearchStrategy(Search, Strategy):
    """Tries candidate actions in sampled worlds, plays them out to a horizon (rollout=...),
    takes the best mean value (worlds=...)."""

    name = "search"

    game = "kaivai"
    params: ClassVar[dict[str, Any]] = {**PARAMS, "worlds": 12, "horizon": 1,
                                        "candidates": 8, "propose": PROPOSERS}  # fmt: skip
    by_policy = Search._decide

    def round_of(self, view: Any, row: int) -> int:
        """The round game `row` of the view is in (R2)."""
        return int(view.round[row])
