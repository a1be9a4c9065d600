"""Every chance event of a game, drawn the same way by both engines (R1.6, R1.7, R7.1, V2, V3).

Each function takes the games `rows` of a `Streams` and returns their outcomes as arrays with
a leading games axis; the reference engine calls them with its one game. A shuffle is the
argsort of one random key per card, in the canonical card order, so that a game's outcome
does not depend on the games drawn with it.
"""

from __future__ import annotations

import numpy as np

from moaisim.rng import CHANCE, Streams
from moaisim.rules import Rules
from moaisim.rules.codes import N_CARD_TYPES, SHORT_REMOVALS


def epoch_decks(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """R1.7 (and V3): each epoch pile shuffled, epoch 1 on 2 on 3 ([n, deck] card ids, top
    first). V3 removes the first 2 epoch-1, 2 epoch-2 and the first non-Admiral epoch-3 card
    of the shuffled piles."""
    cards = rules.components.epoch_cards
    keys = streams.draw(CHANCE, rows, len(cards))
    admiral = np.array([c.is_admiral for c in cards])
    piles = []
    for epoch in (1, 2, 3):
        ids = np.array([c.id for c in cards if c.epoch == epoch], dtype=np.int16)
        pile = ids[np.argsort(keys[:, ids], axis=1, kind="stable")]  # ties by id
        remove = SHORT_REMOVALS[epoch - 1] if rules.has("short") else 0
        if remove:
            plain = ~admiral[pile]
            drop = plain & (np.cumsum(plain, axis=1) <= remove)
            pile = pile[~drop].reshape(len(pile), -1)
        piles.append(pile)
    return np.concatenate(piles, axis=1)


def rapa_nui_decks(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """R1.6: the shuffled Rapa Nui deck ([n, cards] card types, top first)."""
    c = rules.components
    keys = streams.draw(CHANCE, rows, c.n_cards)
    types = np.repeat(np.arange(N_CARD_TYPES, dtype=np.int8), c.cards)
    return types[np.argsort(keys, axis=1, kind="stable")]


def first_bid_orders(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """V2/V4: round 1's random bidding order ([n, P] seats)."""
    keys = streams.draw(CHANCE, rows, rules.players)
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
    reshuffles."""
    c = rules.components
    keys = streams.draw(CHANCE, rows, c.n_cards)
    types = np.repeat(np.arange(N_CARD_TYPES), c.cards)
    start = np.concatenate([[0], np.cumsum(c.cards)[:-1]])
    rank = np.arange(c.n_cards) - start[types]  # index of each id within its type
    present = rank[None, :] < discard[:, types]
    order = np.argsort(np.where(present, keys, 2.0), axis=1, kind="stable")  # ties by id
    deck = types[order].astype(np.int8)
    deck[np.take_along_axis(~present, order, axis=1)] = -1
    return deck
