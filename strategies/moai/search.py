"""Moai's `search` (docs/strategies.md, "search"): the toolkit's look-ahead by determinized
rollouts (`moaisim.engine.search`) with Moai's own: sealed bids (R3.3) are six card
counts taken by every seat at once (a softmax over the values, the rivals bidding as the
opponent model says), a rollout plays the rest of the round and `horizon` more, and the
decisions searched by default are bids, epoch picks, work placements and feeding.

The candidates are the rollout policy's answer and the proposers' (by default `tuned`,
`forester`, `moai` and `greedy`), and a decision where they all agree is not searched: against
L3 at 3 to 5 players that plays stronger on 12 worlds than random candidates did on 32, for
about a third of the CPU (at 2 players a little weaker, for less than half). Horizon,
candidates, temperature and lead were searched by `moaisim tune-search`: no setting it tried
was verified better than them. Without proposers, a bid's candidates are the rollout
policy's and bids of the 0, 1, 2... lowest cards of the hand.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.engine.search import PARAMS, Search
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules.codes import N_CARD_TYPES, card_value, is_raid
from moaisim.strategies.moai.base import Strategy

#: Card types in the order a bid spends them: the lowest value first, Raid cards last.
SPEND_ORDER = sorted(range(N_CARD_TYPES), key=lambda t: (card_value.py_func(t),
                                                        is_raid.py_func(t)))  # fmt: skip
#: The default proposers (2026-12-04, issue 44): at 3 to 5 players against L3, search with
#: these and 12 worlds wins more than with random candidates and 32 worlds, for about a third
#: of the CPU; at 2 players a little less, for less than half (docs/strategies.md, "search").
PROPOSERS = "tuned,forester,moai,greedy"


class SearchStrategy(Search, Strategy):
    """Look-ahead: tries candidate actions in sampled worlds by batched rollouts."""

    name = "search"

    game = "moai"
    VECTOR_KINDS = frozenset({Kind.BID.value})  # R3.3: six card counts
    AT_ONCE = frozenset({Kind.BID.value})  # R3.3: sealed bids, every seat at once
    params: ClassVar[dict[str, Any]] = {**PARAMS, "search": "bid,pick_epoch,work,feed",
                                        "propose": PROPOSERS}  # fmt: skip

    def round_of(self, view: SeatView, row: int) -> int:
        """The round the game is in (R2): a rollout plays it out and `horizon` more."""
        return int(view.round[row])

    def row_candidates(self, view: SeatView, row: int, base: np.ndarray, limit: int) -> list:
        """A bid's candidates without proposers: the rollout policy's, then bids of the 0, 1,
        2... lowest cards of the hand (`SPEND_ORDER`), evenly spread to `limit`."""
        hand = view.legal[row].astype(np.int64)
        cards = [t for t in SPEND_ORDER for _ in range(int(hand[t]))]
        out = [np.asarray(base, dtype=np.int64)]
        seen = {tuple(out[0].tolist())}
        for k in range(len(cards) + 1):
            bid = np.bincount(np.asarray(cards[:k], dtype=np.int64), minlength=N_CARD_TYPES)
            if tuple(bid.tolist()) not in seen:
                seen.add(tuple(bid.tolist()))
                out.append(bid)
        if len(out) > limit:  # the policy's, then evenly spread bid sizes
            keep = np.unique(np.linspace(1, len(out) - 1, limit - 1).round().astype(int))
            out = [out[0]] + [out[k] for k in keep]
        return out

    bid = pick_epoch = order_ties = disaster_target = disaster_loss = Search._decide
    work = forest_tie = finish_moai = feed = rest = birth = boat = Search._decide


__all__ = ["PROPOSERS", "SPEND_ORDER", "SearchStrategy"]
