"""Every chance event of a game, drawn the same way by both engines (R1.6, R1.7, R7.1, V2, V3).

Each function takes the games `rows` of a `Streams` and returns their outcomes as arrays with
a leading games axis; the reference engine calls them with its one game. A shuffle is the
argsort of one random key per card, in the canonical card order, so that a game's outcome
does not depend on the games drawn with it. Each purpose (`Chance`, Moai's own: `moaisim.rng`
is the mechanism and names none) reads its own chance sub-stream at fixed positions: on the
same (seed, game) every variant and rule option deals the same hands and decks, V3's deck is
the base deck without the removed cards (order kept), and the k-th reshuffle of the same
discard pile gives the same order.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import N_CARD_TYPES
from moaisim.rng import Streams


class Chance(IntEnum):
    """Moai's chance purposes, each the number of its sub-stream (`Streams.chance`). The
    numbers are the streams: changing one changes every game."""

    DEAL = 0  # R1.6: the Rapa Nui deck's shuffle (one key per card)
    EPOCH_1 = 1  # R1.7: each epoch pile's shuffle (one key per card of the pile)
    EPOCH_2 = 2
    EPOCH_3 = 3
    SHORT = 4  # V3: which cards are removed (one key per epoch card)
    BID_ORDER = 5  # V2/V4: round 1's bidding order (one key per seat)
    RESHUFFLE = 6  # R7.1: the k-th reshuffle reads keys k * cards .. (k + 1) * cards - 1


def epoch_decks(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """R1.7 (and V3): each epoch pile shuffled, epoch 1 on 2 on 3 ([n, deck] card ids, top
    first). V3 removes 2 epoch-1, 2 epoch-2 and 1 epoch-3 cards (or the counts of the
    removed_epoch parameters), never the Admiral, drawn uniformly among each epoch's other
    cards independently of the shuffle (`short_removals`)."""
    cards = rules.components.epoch_cards
    n = len(rows)
    removed = short_removals(rules, streams, rows)
    piles = []
    shuffles = (Chance.EPOCH_1, Chance.EPOCH_2, Chance.EPOCH_3)
    for epoch, purpose in zip((1, 2, 3), shuffles, strict=True):
        ids = np.array([c.id for c in cards if c.epoch == epoch], dtype=np.int16)
        keys = streams.chance(purpose, rows, len(ids))
        pile = ids[np.argsort(keys, axis=1, kind="stable")]  # ties by id
        keep = ~removed[np.arange(n)[:, None], pile]
        size = len(ids) - rules.removals[epoch - 1]
        piles.append(pile[keep].reshape(n, size))
    return np.concatenate(piles, axis=1)


def short_removals(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """V3: [n, epoch cards] bool, the cards removed before setup: of each epoch, the
    `rules.removals` non-Admiral cards with the lowest keys (one key per card, by id)."""
    cards = rules.components.epoch_cards
    removed = np.zeros((len(rows), len(cards)), dtype=bool)
    if not any(rules.removals):
        return removed
    keys = streams.chance(Chance.SHORT, rows, len(cards))
    for epoch in (1, 2, 3):
        ids = np.array([c.id for c in cards if c.epoch == epoch and not c.is_admiral], dtype=int)
        count = rules.removals[epoch - 1]
        drop = ids[np.argsort(keys[:, ids], axis=1, kind="stable")[:, :count]]
        removed[np.arange(len(rows))[:, None], drop] = True
    return removed


def rapa_nui_decks(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """R1.6: the shuffled Rapa Nui deck ([n, cards] card types, top first)."""
    c = rules.components
    keys = streams.chance(Chance.DEAL, rows, c.n_cards)
    types = np.repeat(np.arange(N_CARD_TYPES, dtype=np.int8), c.cards)
    return types[np.argsort(keys, axis=1, kind="stable")]


def first_bid_orders(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """V2/V4: round 1's random bidding order ([n, P] seats)."""
    keys = streams.chance(Chance.BID_ORDER, rows, rules.players)
    return np.argsort(keys, axis=1, kind="stable").astype(np.int8)


def setup_draws(
    rules: Rules, streams: Streams, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The chance of R1 for the games `rows`: epoch decks, Rapa Nui decks and (V2/V4) the
    first bidding orders."""
    epoch = epoch_decks(rules, streams, rows)
    deck = rapa_nui_decks(rules, streams, rows)
    bid_order = first_bid_orders(rules, streams, rows) if rules.open_bidding else None
    return epoch, deck, bid_order


def reshuffle_order(
    rules: Rules, streams: Streams, rows: np.ndarray, k: np.ndarray, discard: np.ndarray
) -> np.ndarray:
    """R7.1: the discard pile shuffled into a new deck ([n, cards] card types, top first,
    padded with -1). One chance key per card of the set (canonical ids, type by type); the
    discarded cards of type t are the first ids of that type. `k` counts the game's earlier
    reshuffles: the k-th reads keys k * cards .. (k + 1) * cards - 1 of its sub-stream."""
    c = rules.components
    start = np.asarray(k, dtype=np.int64) * c.n_cards
    keys = streams.chance(Chance.RESHUFFLE, rows, c.n_cards, start)
    types = np.repeat(np.arange(N_CARD_TYPES), c.cards)
    start = np.concatenate([[0], np.cumsum(c.cards)[:-1]])
    rank = np.arange(c.n_cards) - start[types]  # index of each id within its type
    present = rank[None, :] < discard[:, types]
    order = np.argsort(np.where(present, keys, 2.0), axis=1, kind="stable")  # ties by id
    deck = types[order].astype(np.int8)
    deck[np.take_along_axis(~present, order, axis=1)] = -1
    return deck
