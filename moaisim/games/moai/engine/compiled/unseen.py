"""What a seat cannot see, drawn for `determinize`'s worlds in one kernel (R5.9): the rivals'
hands and the deck (R1.6), the epoch deck and the cards V3 left out (R1.7), the strengths
of face-down and camp pawns, and which unseen Moai tiles each rival holds (R6.5).

The kernel draws exactly what the plain-Python version it replaced drew (its tests compare
the two world by world): each row from a `Draws` stream of its own, in the same order (the
hands, the epoch deck by epoch, each rival's pawns, the tiles), each random order the stable
argsort of a block of uniforms. So a search plays the same games it played before, faster: at
a decision it draws the worlds of every game it searches, and a row of Python a game was most
of a search's own time. A count that does not add up (a view edited by hand) is an error code,
never a write out of bounds: `_build` turns it into the `UserError` the view deserves.
"""

from __future__ import annotations

import numpy as np

from moaisim.jit import kernel
from moaisim.rng import unit

#: Error codes of `draw_unseen` (0: every row drawn): what did not add up, per part.
PROBLEMS = {
    1: "the deck does not hold the cards nobody has seen",
    2: "the epoch deck's size does not match the cards left",
    3: "a clan's hidden pawns do not fill its places",
    4: "a rival holds more Moai tiles than are unseen",
}


@kernel
def _order(key: np.uint64, pos: np.uint64, k: int) -> np.ndarray:
    """A random order of 0..k-1: the stable argsort of values pos..pos+k-1 of the stream."""
    u = np.empty(k, dtype=np.float64)
    for j in range(k):
        u[j] = unit(key, pos + np.uint64(j))
    return np.argsort(u, kind="mergesort")


@kernel
def draw_unseen(keys: np.ndarray, n: int, q: int, cards: np.ndarray, hand: np.ndarray,
                discard: np.ndarray, hand_sizes: np.ndarray, deck_at: np.ndarray,
                epoch_of: np.ndarray, card_id: np.ndarray, admiral: np.ndarray,
                removals: np.ndarray, revealed: np.ndarray, epoch_at: np.ndarray,
                strength: np.ndarray, shown: np.ndarray, hidden_count: np.ndarray,
                camp_size: np.ndarray,
                reserve: np.ndarray, own_loc: np.ndarray, own_up: np.ndarray,
                supply: np.ndarray, own_tiles: np.ndarray, moai_count: np.ndarray,
                hidden_code: int, camp: int, reserve_code: int, tile_out: int,
                tile_supply: int, out_hand: np.ndarray, out_deck: np.ndarray,
                out_epoch: np.ndarray, out_loc: np.ndarray, out_up: np.ndarray,
                out_owner: np.ndarray) -> np.ndarray:  # fmt: skip
    """n worlds per row (row k's are worlds k*n ... k*n+n-1 of the outputs), row k drawing
    from the stream with key `keys[k]`. Returns [rows]: each row's error code (`PROBLEMS`,
    0: drawn)."""
    rows, players = len(keys), hand_sizes.shape[1]
    types, pawns = len(cards), len(strength)
    out = np.zeros(rows, dtype=np.int64)
    for r in range(rows):
        key, pos = keys[r], np.uint64(0)
        w0 = r * n
        # --- R1.6, R5.9: the seat's own hand; the rivals' hands and the deck from the cards
        # it has not seen
        unseen = np.zeros(types, dtype=np.int64)
        size = 0
        for t in range(types):
            unseen[t] = cards[t] - hand[r, t] - discard[r, t]
            if unseen[t] < 0:
                out[r] = 1
            size += max(unseen[t], 0)
        dealt_to = 0
        for s in range(players):
            if s != q:
                dealt_to += hand_sizes[r, s]
        start, end = deck_at[r, 0], deck_at[r, 1]
        if (out[r] or size - dealt_to != end - start or start < 0 or end < start
                or end > out_deck.shape[1] or dealt_to < 0):  # fmt: skip
            out[r] = 1
            continue
        pool = np.empty(size, dtype=np.int64)
        j = 0
        for t in range(types):
            for _ in range(unseen[t]):
                pool[j] = t
                j += 1
        for i in range(n):
            order = _order(key, pos, size)
            pos += np.uint64(size)
            w = w0 + i
            for s in range(players):
                for t in range(types):
                    out_hand[w, s, t] = hand[r, t] if s == q else 0
            k = 0
            for s in range(players):
                if s == q:
                    continue
                for _ in range(hand_sizes[r, s]):
                    out_hand[w, s, pool[order[k]]] += 1
                    k += 1
            out_deck[w, :] = -1
            for j in range(end - start):
                out_deck[w, start + j] = pool[order[k + j]]
        # --- R1.7, V3: in each epoch the cards not yet revealed, less the cards V3 removed
        # (unseen, at random, never the Admiral), shuffled; epoch 1 on 2 on 3
        n_cards = len(epoch_of)
        kept = np.zeros((n, n_cards), dtype=np.int64)
        width = 0
        for e in range(1, 4):
            pile = 0
            seen = 0
            admirals = 0
            others = 0
            for c in range(n_cards):
                if epoch_of[c] == e:
                    pile += 1
                    if revealed[r, card_id[c]]:
                        seen += 1
                    elif admiral[c]:
                        admirals += 1
                    else:
                        others += 1
            take = pile - removals[e - 1] - seen - admirals
            if take < 0 or take > others:
                out[r] = 2
                break
            ids = np.empty(others, dtype=np.int64)
            adm = np.empty(admirals, dtype=np.int64)
            a = 0
            b = 0
            for c in range(n_cards):
                if epoch_of[c] == e and not revealed[r, card_id[c]]:
                    if admiral[c]:
                        adm[b] = card_id[c]
                        b += 1
                    else:
                        ids[a] = card_id[c]
                        a += 1
            chosen = np.empty((n, take + admirals), dtype=np.int64)
            for i in range(n):
                order = _order(key, pos, others)
                pos += np.uint64(others)
                for j in range(take):
                    chosen[i, j] = ids[order[j]]
                for j in range(admirals):
                    chosen[i, take + j] = adm[j]
            cols = take + admirals
            if width + cols > n_cards:
                out[r] = 2
                break
            for i in range(n):
                order = _order(key, pos, cols)
                pos += np.uint64(cols)
                for j in range(cols):
                    kept[i, width + j] = chosen[i, order[j]]
            width += cols
        start, end = epoch_at[r, 0], epoch_at[r, 1]
        if out[r] == 0 and (width != end - start or start < 0 or end > out_epoch.shape[1]):
            out[r] = 2
        if out[r]:
            continue
        for i in range(n):
            out_epoch[w0 + i, :] = 0
            for j in range(width):
                out_epoch[w0 + i, start + j] = kept[i, j]
        # --- R5.9: the seat's own pawns; each rival's face-up pawns as shown, and its face-
        # down board pawns and camp pawns given strengths drawn from those its face-up and
        # reserve pawns leave (pawns are numbered by strength)
        for i in range(n):
            for s in range(players):
                for p in range(pawns):
                    out_loc[w0 + i, s, p] = own_loc[r, p] if s == q else reserve_code
                    out_up[w0 + i, s, p] = own_up[r, p] if s == q else False
        for s in range(players):
            if s == q:
                continue
            places = 0
            for x in range(hidden_count.shape[2]):
                places += max(hidden_count[r, s, x], 0)
            places += max(camp_size[r, s], 0)
            slots = np.empty(places, dtype=np.int64)
            j = 0
            for x in range(hidden_count.shape[2]):
                for _ in range(hidden_count[r, s, x]):
                    slots[j] = x
                    j += 1
            for _ in range(camp_size[r, s]):
                slots[j] = camp
                j += 1
            free = np.zeros((3, pawns), dtype=np.int64)
            n_free = np.zeros(3, dtype=np.int64)
            for p in range(pawns):
                if shown[r, s, p] == hidden_code:
                    g = strength[p] - 1
                    free[g, n_free[g]] = p
                    n_free[g] += 1
            hidden = 0
            for g in range(3):
                if n_free[g] - reserve[r, s, g] < 0:
                    out[r] = 3
                hidden += max(n_free[g] - reserve[r, s, g], 0)
            if out[r] or hidden != places:
                out[r] = 3
                break
            kinds = np.empty(hidden, dtype=np.int64)
            j = 0
            for g in range(3):
                for _ in range(n_free[g] - reserve[r, s, g]):
                    kinds[j] = g
                    j += 1
            for i in range(n):
                for p in range(pawns):
                    if shown[r, s, p] != hidden_code:
                        out_loc[w0 + i, s, p] = shown[r, s, p]
                        out_up[w0 + i, s, p] = True
                order = _order(key, pos, hidden)
                pos += np.uint64(hidden)
                rank = np.zeros(3, dtype=np.int64)
                for k in range(hidden):
                    g = kinds[order[k]]
                    out_loc[w0 + i, s, free[g, rank[g]]] = slots[k]
                    rank[g] += 1
        if out[r]:
            continue
        # --- R6.5: the supply's tiles and the seat's own as they are; each rival holds as
        # many of the others as its count says (which ones is drawn), the rest left the game
        tiles = supply.shape[1]
        loose = 0
        for x in range(tiles):
            if not supply[r, x] and not own_tiles[r, x]:
                loose += 1
        ids = np.empty(loose, dtype=np.int64)
        j = 0
        for x in range(tiles):
            if not supply[r, x] and not own_tiles[r, x]:
                ids[j] = x
                j += 1
        held = 0
        for s in range(players):
            if s != q:
                held += moai_count[r, s]
        if held > loose:
            out[r] = 4
            continue
        for i in range(n):
            w = w0 + i
            for x in range(tiles):
                out_owner[w, x] = tile_out
                if supply[r, x]:
                    out_owner[w, x] = tile_supply
                if own_tiles[r, x]:
                    out_owner[w, x] = q
            order = _order(key, pos, loose)
            pos += np.uint64(loose)
            k = 0
            for s in range(players):
                if s == q:
                    continue
                for _ in range(moai_count[r, s]):
                    out_owner[w, ids[order[k]]] = s
                    k += 1
    return out
