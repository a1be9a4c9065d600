"""Kaivai's `greedy` on the engine floor: the compiled greedy policy (`machine.greedy`, the
words of `plain.PlainGreedy`) answering a seat's view. Each game of the view is rebuilt as the
machine's state at its decision (`worlds.state_of`: what the view shows; greedy reads nothing
the seat cannot see) and the policy asked there, so a view is answered exactly as a compiled
greedy seat plays: deliver, fish, build, a feast where its own fish are the most, the
movement bonus up to 2, else pass; the longest reach when bidding; on an island the least bid
that beats every rival it can see."""

from __future__ import annotations

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import consts, geometry, scratch
from moaisim.games.kaivai.engine.decisions import KINDS
from moaisim.games.kaivai.engine.forward import Strategy
from moaisim.games.kaivai.engine.views import SeatView
from moaisim.games.kaivai.engine.worlds import state_of
from moaisim.rng import Streams


class GreedyStrategy(Strategy):
    """Fixed preferences, one decision at a time (the compiled policy `greedy`)."""

    #: The compiled machine's name of this policy (`batch.FAMILIES`).
    compiled = "greedy"

    def by_policy(self, view: SeatView) -> np.ndarray:
        rules, n = view.rules, len(view)
        streams = Streams(0, np.arange(n), rules.players)  # unread: greedy draws nothing
        g = state_of(view, np.arange(n), 1, streams)
        kinds = np.full(n, KINDS.index(view.kind), dtype=np.int64)
        seats = np.full(n, view.seat, dtype=np.int64)
        out = np.zeros(n, dtype=np.int64)
        geo = geometry(rules.components.radius)
        m.answer_rows(g, geo, scratch(rules), consts(rules), kinds, seats, m.GREEDY, out)
        return out

    bid = found = god = action = another_boat = by_policy
    build_step = fish_step = deliver_step = move_step = by_policy
    build = fish_island = deliver = celebrate = score_island = island_bid = by_policy
