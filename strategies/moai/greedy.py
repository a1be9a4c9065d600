"""`greedy`: a sensible baseline that plays to score.

Each decision scores every legal action from what the seat can see and takes the best one;
ties between equally good actions are broken at random from the seat's stream (one value per
game and decision, `strategies/moai/ties.py`), never by seat or action index.
Priorities, in short: feed the clan first (boats, then fields, strongest pawns), fight for
wood it can win, pile the rest on one volcano space, finish Moai it can pay for when they are
tall enough (any worthwhile one in the last round), raid when it can, give births with spare
cards, build boats, and aim disasters at the leader.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.games.moai.engine.compiled import greedy as compiled_greedy
from moaisim.games.moai.engine.compiled.greedy import placement_score
from moaisim.games.moai.engine.compiled.policy import GREEDY, Policy
from moaisim.games.moai.engine.decisions import (
    BIRTH_PAIRS,
    PAIR_STRENGTH,
    FeedCodec,
    feed_codec,
    raid_action,
    work_codec,
)
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import (
    FIELDS,
    N_RAID_COMBOS,
    OCEAN,
    Layout,
    card_value,
    is_raid,
    raid_cards,
)
from moaisim.games.moai.rules.epoch_cards import epoch_table
from moaisim.jit import kernel
from moaisim.strategies.moai.base import Strategy
from moaisim.strategies.moai.features import (
    LOSES_FIELDS,
    SCORE_FIELDS,
    loses,
    loss_scores,
    rival_forest,
    visible_score,
)
from moaisim.strategies.moai.ties import NEG, best, pick_row, tie_values


@kernel
def _placements(
    legal: np.ndarray,
    own_loc: np.ndarray,
    shown_loc: np.ndarray,
    hidden: np.ndarray,
    forest_wood: np.ndarray,
    strength: np.ndarray,
    seat: int,
    lay: Layout,
    top: int,
    u: np.ndarray,
) -> np.ndarray:
    """The best legal placement per game (ties at random by `u`); -1 where none is legal.

    Scores of a pawn of strength s on target t (targets as in `WorkCodec`):
    1. food while the clan would go hungry: boats first, then fields, strongest first
       (boat 101 + 10 s, fields 100 + 10 s; otherwise 11 + s and 10 + s);
    2. a forest space with wood that this pawn wins, unless already ahead there: 60 - s
       (the smallest winning pawn); a space with wood it does not win: 5; else 0. Rivals are
       estimated from what is shown: face-up strengths + 2 per face-down pawn;
    3. the volcano: pile onto the tallest own space that stays within the tallest tile
       (20 + height + s), else 15 - s.
    """
    n, pawns = own_loc.shape
    forest, fields, ocean0 = lay.forest, lay.fields, lay.ocean0
    targets = ocean0 + 1
    size = hidden.shape[2]
    out = np.full(n, -1, dtype=np.int64)
    by_place = np.zeros(size + 1, dtype=np.int64)
    seen = np.zeros(forest)  # the strongest rival's estimate on each forest space
    est = np.zeros(forest)
    scores = np.full(3 * targets, NEG)
    for r in range(n):
        placing = False
        for a in range(3 * targets):
            if legal[r, a]:
                placing = True
                break
        if not placing:
            continue
        by_place[:] = 0
        living = 0
        for i in range(pawns):
            x = own_loc[r, i]
            if x >= -1:
                living += 1
            if x >= 0:
                by_place[x] += strength[i]
        food = by_place[fields]
        for x in range(ocean0, size):
            food += by_place[x]
        hungry = living - food > 0
        rival_forest(r, shown_loc, hidden, strength, seat, 2.0, est, seen)
        for s in range(1, 4):
            for t in range(targets):
                a = (s - 1) * targets + t
                if not legal[r, a]:
                    continue
                wood = t < forest and forest_wood[r, t]
                seen_there = seen[t] if t < forest else 0.0
                scores[a] = placement_score(
                    s, t, by_place[t], wood, seen_there, hungry, top, forest, fields, ocean0
                )
        out[r] = pick_row(scores, legal[r, : 3 * targets], u[r])
    return out


@kernel
def _best_feed(
    legal: np.ndarray,
    own_loc: np.ndarray,
    strength: np.ndarray,
    lead: np.ndarray,
    forest: int,
    codec: FeedCodec,
    u: np.ndarray,
) -> np.ndarray:
    """The best legal feeding action per game (ties at random by `u`), in `FeedCodec` order.

    Starving own pawn i scores -10 x strength + 5 in the forest (the weakest first, forest
    pawns before volcano pawns: their wood is taken); raiding rival q's pawn with a raid
    combination scores 100 + lead[q] - (the Raid card's value + 3 if the second card is a
    Raid card too): raid the leader, keeping Raid cards of high value and using a plain
    second card (R6.4).
    """
    n, pawns = own_loc.shape
    players = lead.shape[1]
    out = np.zeros(n, dtype=np.int64)
    scores = np.full(legal.shape[1], NEG)
    for r in range(n):
        for i in range(pawns):
            if legal[r, i]:
                x = own_loc[r, i]
                scores[i] = -10 * strength[i] + (5 if 0 <= x < forest else 0)
        for q in range(players):
            for j in range(pawns):
                for c in range(N_RAID_COMBOS):
                    a = raid_action(codec, q, j, c)
                    if legal[r, a]:
                        raid, second = raid_cards(c, strength[j])
                        scores[a] = 100 + lead[r, q] - (card_value(raid) + 3 * is_raid(second))
        out[r] = pick_row(scores, legal[r], u[r])
    return out


@kernel
def _strength_at(own_loc: np.ndarray, strength: np.ndarray, first: int, count: int) -> np.ndarray:
    """[n, count]: own strength on each location code first..first+count-1."""
    n, pawns = own_loc.shape
    out = np.zeros((n, count), dtype=np.int64)
    for r in range(n):
        for i in range(pawns):
            x = own_loc[r, i] - first
            if 0 <= x < count:
                out[r, x] += strength[i]
    return out


PAIR_MIN = PAIR_STRENGTH.astype(float)
PAIR_RAIDS = np.array(
    [is_raid.py_func(a) + is_raid.py_func(b) for a, b in BIRTH_PAIRS], dtype=float
)
REST_PREFER = np.array([40.0, 20.0, 10.0, 30.0, 0.0])  # forest, fields, volcano, ocean; -1


class GreedyStrategy(Strategy):
    """Balanced baseline: feeds first, takes wood it can win, piles the rest on one statue."""

    name = "greedy"
    #: the view fields each decision reads (their views copy nothing else)
    reads: ClassVar[dict[str, tuple[str, ...]]] = {
        "bid": (),
        "order_ties": SCORE_FIELDS,
        "pick_epoch": ("offer", "wood", "last_round"),
        "disaster_target": tuple(dict.fromkeys((*SCORE_FIELDS, *LOSES_FIELDS))),
        "disaster_loss": ("own_loc", "boats_manned"),
        "work": ("own_loc", "shown_loc", "hidden_count", "forest_wood"),
        "forest_tie": SCORE_FIELDS,
        "finish_moai": ("own_loc", "wood", "last_round"),
        "feed": (*SCORE_FIELDS, "own_loc"),
        "rest": ("own_loc",),
        "birth": ("hand", "last_round"),
        "boat": ("last_round",),
    }
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

    def compiled(self, rules: Rules) -> Policy | None:
        """`greedy` compiled (`moaisim.games.moai.engine.compiled.greedy`): its parameters as the
        policy's integers; None for a subclass that decides otherwise."""
        if not self.plays_as(GreedyStrategy):
            return None
        return Policy(GREEDY, tuple(int(getattr(self, k)) for k in compiled_greedy.PARAMS))

    # --- R3 ----------------------------------------------------------------------------
    def bid(self, view: SeatView) -> np.ndarray:
        """R3.3: one card, the lowest non-Raid one, when the hand holds at least `bid_cards_from`
        cards; else nothing."""
        hand = view.legal.astype(np.int64)
        out = np.zeros_like(hand)
        normal = hand[:, :3] > 0
        lowest = np.argmax(normal, axis=1)
        wants = (hand.sum(axis=1) >= self.bid_cards_from) & normal.any(axis=1)
        out[np.flatnonzero(wants), lowest[wants]] = 1
        return out

    def order_ties(self, view: SeatView) -> np.ndarray:
        """R3.4: the leader by visible score takes the next place (itself first when allowed)."""
        scores = -visible_score(view).astype(float)
        scores[:, view.seat] = 1e6  # itself first when allowed
        return best(scores, view)

    # --- R4 ----------------------------------------------------------------------------
    def pick_epoch(self, view: SeatView) -> np.ndarray:
        """R4.1: the card that draws most, a boat it can build (+2) or a disaster to aim (+1.5)."""
        table, cid = epoch_table(view.rules), view.offer  # an empty slot (-1): "no card"
        draw, boat, hits = table.draw[cid], table.boat[cid], table.targeted[cid]
        can_build = (view.wood[:, view.seat] >= 1) & ~view.last_round
        scores = draw + 2.0 * (boat & can_build[:, None]) + 1.5 * hits
        return best(scores, view)

    def disaster_target(self, view: SeatView) -> np.ndarray:
        """The leader by visible score, well ahead of it a clan that has what the card
        takes; never itself."""
        scores = visible_score(view) + 50.0 * loses(view, view.info["card"])
        scores[:, view.seat] = NEG
        return best(scores, view)

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        """A pawn: the weakest, sparing fields and boats; a boat: an empty one; a Moai: the
        smallest (`loss_scores`)."""
        zone = view.rules.layout.zones(view.own_loc)
        feeds = (zone == FIELDS) | (zone == OCEAN)
        return best(loss_scores(view, 10.0 * view.strength + 5 * feeds), view)

    # --- R5 ----------------------------------------------------------------------------
    def work(self, view: SeatView) -> np.ndarray:
        """Place by the scores of `_placements`; with an empty camp, pass (every swap scores
        below a pass)."""
        rules, lay = view.rules, view.rules.layout
        codec = work_codec(rules)
        legal = view.legal
        place = _placements(
            legal,
            view.own_loc,
            view.shown_loc,
            view.hidden_count,
            np.ascontiguousarray(view.forest_wood),  # one layout: the kernel compiles once
            view.strength,
            view.seat,
            lay,
            max(rules.components.moai_heights, default=0),
            tie_values(view),
        )
        # no placement legal: pass if allowed, else the first legal swap
        other = np.flatnonzero(place < 0)
        if len(other):
            swap = codec.swap0 + np.argmax(legal[other, codec.swap0 :], axis=1)
            place[other] = np.where(legal[other, codec.pass_action], codec.pass_action, swap)
        return place

    # --- R6 ----------------------------------------------------------------------------
    def forest_tie(self, view: SeatView) -> np.ndarray:
        """R6.1: the wood goes to the clan furthest behind by visible score (itself first)."""
        scores = -visible_score(view).astype(float)
        scores[:, view.seat] = 1e6
        return best(scores, view)

    def finish_moai(self, view: SeatView) -> np.ndarray:
        """R6.2: finish a statue of height `moai_height` or more (3 in the last round, 4 with wood
        to spare); else stop."""
        lay = view.rules.layout
        v0, v = lay.volcano0, lay.volcano
        height = _strength_at(view.own_loc, view.strength, v0, v)
        wood = view.wood[:, view.seat]
        worth = (height >= self.moai_height) | (view.last_round[:, None] & (height >= 3))
        worth |= (height >= 4) & (wood >= 3)[:, None]
        scores = np.concatenate([np.where(worth, height, -1.0), np.zeros((len(view), 1))], axis=1)
        return best(scores, view)

    def feed(self, view: SeatView) -> np.ndarray:
        """Starve the weakest pawn, or raid the leader (see `_best_feed`)."""
        lead = visible_score(view).astype(np.int64)
        forest = view.rules.layout.forest
        return _best_feed(view.legal, view.own_loc, view.strength, lead, forest,
                          feed_codec(view.rules), tie_values(view))  # fmt: skip

    # --- R7 ----------------------------------------------------------------------------
    def rest(self, view: SeatView) -> np.ndarray:
        """R7.2: rest pawns from the zones it values least first (`REST_PREFER`), the weakest
        first."""
        zone = view.rules.layout.zones(view.own_loc)
        scores = REST_PREFER[zone] + view.strength
        return best(scores, view)

    def birth(self, view: SeatView) -> np.ndarray:
        """R7.3: a pawn for the lowest pair without Raid cards when it has cards to spare (or in
        the last round); else stop."""
        n = len(view)
        spare = (view.hand.sum(axis=1) > self.keep_cards) | view.last_round
        scores = np.zeros((n, len(BIRTH_PAIRS) + 1))
        scores[:, :-1] = 10 * PAIR_MIN - 15 * PAIR_RAIDS
        scores[:, -1] = np.where(spare, -100.0, 100.0)  # stop unless cards are spare
        return best(scores, view)

    def boat(self, view: SeatView) -> np.ndarray:
        """R7.4: build the boat, but in the last round."""
        return np.where(view.last_round, 0, 1).astype(np.int64)
