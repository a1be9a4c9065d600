"""`greedy`: a sensible baseline that plays to score.

Each decision scores every legal action from what the seat can see and takes the best one
(lowest action index on ties), with no randomness, so its choices depend only on its view.
Priorities, in short: feed the clan first (boats, then fields, strongest pawns), fight for
wood it can win, pile the rest on one volcano space, finish Moai it can pay for when they are
tall enough (any worthwhile one in the last round), raid when it can, give births with spare
cards, build boats, and aim disasters at the leader.
"""

from __future__ import annotations

import numpy as np

from moaisim.engine.decisions import (
    BIRTH_PAIRS,
    LOSS_BOAT,
    LOSS_MOAI,
    LOSS_PAWN,
    RAID_COMBOS,
    SeatView,
    feed_codec,
    work_codec,
)
from moaisim.rules.components import card_value, is_raid
from strategies.base import Strategy

NEG = -1e9


def _best(scores: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Index of the best-scored legal action per game (first one on ties)."""
    return np.argmax(np.where(legal, scores, -np.inf), axis=1)


def public_score(view: SeatView) -> np.ndarray:
    """A rough visible score per clan [n, P]: Moai count, wood and living pawns."""
    living = view.on_board + view.camp_size
    return 6 * view.moai_count + 2 * view.wood + living


class GreedyStrategy(Strategy):
    """Plays to score with simple priorities (see the module docstring)."""

    name = "greedy"
    bid_cards_from = 5  # bid one low card when holding at least this many
    moai_height = 7  # finish a statue at this height (or in the last round from 3)
    keep_cards = 4  # births only with more cards than this (any in the last round)

    # --- R3 ----------------------------------------------------------------------------
    def bid(self, view: SeatView) -> np.ndarray:
        hand = view.legal.astype(np.int64)
        out = np.zeros_like(hand)
        normal = hand[:, :3] > 0
        lowest = np.argmax(normal, axis=1)
        wants = (hand.sum(axis=1) >= self.bid_cards_from) & normal.any(axis=1)
        out[np.flatnonzero(wants), lowest[wants]] = 1
        return out

    def order_ties(self, view: SeatView) -> np.ndarray:
        scores = -public_score(view).astype(float)
        scores[:, view.seat] = 1e6  # itself first when allowed
        return _best(scores, view.legal)

    # --- R4 ----------------------------------------------------------------------------
    def pick_epoch(self, view: SeatView) -> np.ndarray:
        cards = view.rules.components.epoch_cards
        offer = view.offer
        cid = np.maximum(offer, 0)
        draw = np.array([c.draw for c in cards])[cid]
        boat = np.array([c.is_boat for c in cards])[cid]
        hits = np.array([c.targeted for c in cards])[cid]
        can_build = (view.wood[:, view.seat] >= 1) & ~view.last_round
        scores = draw + 2.0 * (boat & can_build[:, None]) + 1.5 * hits
        return _best(scores, view.legal)

    def disaster_target(self, view: SeatView) -> np.ndarray:
        card = view.rules.components.epoch_cards
        kind = np.array([card[c].type for c in view.info["card"]])
        loses = np.zeros(view.legal.shape, dtype=bool)
        boats = view.boats.any(axis=2)
        for name, has in (
            ("fire", view.wood > 0),
            ("fire-boat", (view.wood > 0) | boats),
            ("storm", boats),
            ("topple", view.moai_count > 0),
            ("famine", (view.on_board + view.camp_size) > 0),
        ):
            rows = kind == name
            loses[rows] = has[rows]
        scores = public_score(view) + 50.0 * loses
        scores[:, view.seat] = NEG
        return _best(scores, view.legal)

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        n, size = view.legal.shape
        what = view.info["what"]
        scores = np.zeros((n, size))
        lay = view.rules.layout
        pawns = len(view.strength)
        # a pawn: the weakest, sparing fields and boats
        zone = lay.zones(view.own_loc)
        feeds = (zone == 1) | (zone == 3)
        scores[:, :pawns] = np.where(
            what[:, None] == LOSS_PAWN, -10.0 * view.strength - 5 * feeds, 0
        )
        # a boat: an empty one
        manned = view.boats_manned[:, view.seat]
        k = manned.shape[1]
        scores[:, :k] = np.where(what[:, None] == LOSS_BOAT, -1.0 * manned, scores[:, :k])
        # a Moai: the smallest
        t = len(view.tile_heights)
        scores[:, :t] = np.where(
            what[:, None] == LOSS_MOAI, -1.0 * view.tile_heights, scores[:, :t]
        )
        return _best(scores, view.legal)

    # --- R5 ----------------------------------------------------------------------------
    def work(self, view: SeatView) -> np.ndarray:
        rules, lay = view.rules, view.rules.layout
        codec = work_codec(rules)
        n = len(view)
        loc, st = view.own_loc, view.strength.astype(float)
        on_board = loc >= 0
        in_camp = loc == -1
        zone = lay.zones(loc)
        food = ((zone == 1) | (zone == 3)) * st
        need = (on_board | in_camp).sum(axis=1) - food.sum(axis=1)  # food still to place

        s = np.array([1.0, 2.0, 3.0])[None, :, None]  # strength of the pawn placed
        scores = np.zeros((n, 3, codec.targets))
        # 1. food while the clan would go hungry: boats first, then fields, strongest first
        hungry = (need > 0)[:, None]
        scores[:, :, lay.fields] = np.where(hungry, 100 + 10 * s[:, :, 0], 10 + s[:, :, 0])
        scores[:, :, codec.boat_target] = np.where(hungry, 101 + 10 * s[:, :, 0], 11 + s[:, :, 0])
        # 2. forest spaces with wood that this pawn wins (smallest winning pawn)
        f = lay.forest
        own_f = np.stack([((loc == k) * st).sum(axis=1) for k in range(f)], axis=1)  # [n, F]
        shown = view.shown_loc
        others = np.arange(rules.players) != view.seat
        seen = np.stack(
            [
                (
                    ((shown == k) * view.strength[None, None, :]).sum(axis=2)
                    + 2 * view.hidden_count[:, :, k]
                )[:, others].max(axis=1)
                for k in range(f)
            ],
            axis=1,
        )  # strongest rival estimate per space [n, F]
        wins = (own_f[:, None, :] + s) > seen[:, None, :]
        won = (own_f > seen)[:, None, :]  # already ahead: no more pawns needed there
        wood = view.forest_wood[:, None, :] & ~won
        scores[:, :, :f] = np.where(wood & wins, 60 - s, np.where(wood, 5.0, 0.0))
        # 3. the volcano: pile onto the tallest own space that stays within the tallest tile
        v0, v = lay.volcano0, lay.volcano
        height = np.stack([((loc == v0 + k) * st).sum(axis=1) for k in range(v)], axis=1)
        top = float(max(rules.components.moai_heights))
        fits = (height[:, None, :] + s) <= top
        scores[:, :, v0 : v0 + v] = np.where(fits, 20 + height[:, None, :] + s, 15 - s)
        flat = scores.reshape(n, -1)
        full = np.full((n, codec.size), -1.0)
        full[:, : flat.shape[1]] = flat
        full[:, codec.pass_action] = 0.0  # pass rather than swap
        return _best(full, view.legal)

    # --- R6 ----------------------------------------------------------------------------
    def forest_tie(self, view: SeatView) -> np.ndarray:
        scores = -public_score(view).astype(float)
        scores[:, view.seat] = 1e6
        return _best(scores, view.legal)

    def finish_moai(self, view: SeatView) -> np.ndarray:
        lay = view.rules.layout
        v0, v = lay.volcano0, lay.volcano
        st = view.strength
        height = np.stack([((view.own_loc == v0 + k) * st).sum(axis=1) for k in range(v)], axis=1)
        wood = view.wood[:, view.seat]
        worth = (height >= self.moai_height) | (view.last_round[:, None] & (height >= 3))
        worth |= (height >= 4) & (wood >= 3)[:, None]
        scores = np.concatenate([np.where(worth, height, -1.0), np.zeros((len(view), 1))], axis=1)
        return _best(scores, view.legal)

    def feed(self, view: SeatView) -> np.ndarray:
        rules, lay = view.rules, view.rules.layout
        codec = feed_codec(rules)
        n, pawns = len(view), len(view.strength)
        scores = np.full((n, codec.size), NEG)
        zone = lay.zones(view.own_loc)
        # starve the weakest, forest pawns (their wood is taken) before volcano pawns
        scores[:, :pawns] = -10.0 * view.strength + 5 * (zone == 0)
        # raid the leader, keeping Raid cards of high value and using a plain second card
        lead = public_score(view)
        combo_cost = np.array([r + 3 * raid for r, raid in RAID_COMBOS], dtype=float)
        raid_scores = 100 + lead[:, :, None, None] - combo_cost[None, None, None, :]
        raid_scores = np.broadcast_to(raid_scores, (n, rules.players, pawns, len(RAID_COMBOS)))
        scores[:, pawns:] = raid_scores.reshape(n, -1)
        return _best(scores, view.legal)

    # --- R7 ----------------------------------------------------------------------------
    def rest(self, view: SeatView) -> np.ndarray:
        zone = view.rules.layout.zones(view.own_loc)
        prefer = np.array([40.0, 20.0, 10.0, 30.0])  # forest, fields, volcano, ocean
        scores = prefer[np.maximum(zone, 0)] + view.strength
        return _best(scores, view.legal)

    def birth(self, view: SeatView) -> np.ndarray:
        pair_min = np.array([min(card_value(a), card_value(b)) for a, b in BIRTH_PAIRS], float)
        raids = np.array([is_raid(a) + is_raid(b) for a, b in BIRTH_PAIRS], float)
        n = len(view)
        spare = (view.hand.sum(axis=1) > self.keep_cards) | view.last_round
        scores = np.zeros((n, len(BIRTH_PAIRS) + 1))
        scores[:, :-1] = 10 * pair_min - 15 * raids
        scores[:, -1] = np.where(spare, -100.0, 100.0)  # stop unless cards are spare
        return _best(scores, view.legal)

    def boat(self, view: SeatView) -> np.ndarray:
        return np.where(view.last_round, 0, 1).astype(np.int64)
