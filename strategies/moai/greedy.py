"""`greedy`: a sensible baseline that plays to score.

Each decision scores every legal action from what the seat can see and takes the best one;
ties between equally good actions are broken at random from the seat's stream (one value per
game and decision), never by seat or action index. Priorities, in short: feed the clan first
(boats, then fields, strongest pawns), fight for wood it can win, pile the rest on one volcano
space, finish Moai it can pay for when they are tall enough (any worthwhile one in the last
round), raid when it can, give births with spare cards, build boats, and aim disasters at the
leader.

It is written once, as its compiled policy (`moaisim.games.moai.engine.compiled.greedy`, one
function per decision kind, each score spelled out there); this class holds its parameters
and answers views through that policy (`Strategy.by_policy`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from moaisim.games.moai.engine.compiled.greedy import PARAMS
from moaisim.games.moai.engine.compiled.policy import GREEDY, Policy
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.base import Strategy


class GreedyStrategy(Strategy):
    """Balanced baseline: feeds first, takes wood it can win, piles the rest on one statue."""

    name = "greedy"
    params: ClassVar[dict[str, Any]] = {
        "bid_cards_from": 5,  # bid one low card when holding at least this many cards
        "moai_height": 7,  # finish a statue at this height (or in the last round from 3)
        "keep_cards": 4,  # births only with more cards than this (any in the last round)
    }
    bounds: ClassVar[dict[str, tuple[float | None, float | None]]] = {
        "bid_cards_from": (0, 40),  # 40: the whole Rapa Nui deck (C1)
        "moai_height": (1, 60),
        "keep_cards": (0, 40),
    }
    bid_cards_from: int
    moai_height: int
    keep_cards: int

    def own_policy(self, rules: Rules) -> Policy:
        """`greedy` compiled (`compiled.greedy`): its parameters as the policy's integers, in
        the order `compiled.greedy.PARAMS` reads them."""
        return Policy(GREEDY, tuple(int(getattr(self, k)) for k in PARAMS))
