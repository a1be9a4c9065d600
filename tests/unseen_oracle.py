"""The plain-Python drawing of what a Moai seat cannot see (R5.9), as `determinize` drew it
before its kernel (`moaisim.games.moai.engine.compiled.unseen`): the oracle the kernel is
compared with, world by world. Each function fills the worlds `worlds` of a `BatchState` for
one row of a view, drawing from that row's `Draws` in the order the kernel must follow."""

from __future__ import annotations

import numpy as np

from moaisim.games.moai.engine.batch.state import BatchState
from moaisim.games.moai.engine.decisions import strengths
from moaisim.games.moai.engine.views import HIDDEN, SeatView
from moaisim.games.moai.rules.codes import CAMP, N_CARD_TYPES, RESERVE, TILE_OUT, TILE_SUPPLY
from moaisim.rng import Draws


def worlds(view: SeatView, rows: np.ndarray, n: int, seeds: np.ndarray) -> BatchState:
    """The state of n worlds per game `rows` of the view, row k's drawn from `seeds[k]`."""
    state = BatchState(view.rules, n * len(rows))
    for k, (row, seed) in enumerate(zip(rows.tolist(), seeds.tolist(), strict=True)):
        draws = Draws(int(seed))
        mine = np.arange(k * n, (k + 1) * n)
        state.public[mine] = view._record[row]  # noqa: SLF001
        cursor = view._cursor[row]  # noqa: SLF001
        for name in cursor.dtype.names:
            getattr(state, name)[mine] = cursor[name]
        _hands(state, mine, view, row, draws)
        _epoch_deck(state, mine, view, row, draws)
        _pawns(state, mine, view, row, draws)
        _tiles(state, mine, view, row, draws)
    return state


def _orders(draws: Draws, n: int, k: int) -> np.ndarray:
    """[n, k]: n random orders of 0..k-1."""
    return np.argsort(draws.uniform(n * k).reshape(n, k), axis=1, kind="stable")


def _hands(state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws) -> None:
    """R1.6, R5.9: the seat's own hand; the rivals' hands and the deck from the cards it has
    not seen (every card is in a hand, the deck or the discard pile)."""
    c, q, n = view.rules.components, view.seat, len(worlds)
    own = view.hand[row].astype(np.int64)
    unseen = np.asarray(c.cards, dtype=np.int64) - own - view.discard[row]
    pool = np.repeat(np.arange(N_CARD_TYPES), unseen)
    dealt = pool[_orders(draws, n, len(pool))]  # [n, unseen cards]
    one_hot = np.eye(N_CARD_TYPES, dtype=np.int16)
    state.hand[worlds] = 0
    state.hand[worlds, q] = own
    k = 0
    for r in range(view.rules.players):
        if r == q:
            continue
        size = int(view.hand_sizes[row, r])
        state.hand[worlds, r] = one_hot[dealt[:, k : k + size]].sum(axis=1)
        k += size
    pos, end = int(view._record[row]["deck_pos"]), int(view._record[row]["deck_len"])  # noqa: SLF001
    if len(pool) - k != end - pos:
        raise ValueError("determinize: the deck does not hold the cards nobody has seen")
    state.deck[worlds] = -1
    state.deck[worlds, pos:end] = dealt[:, k:]


def _epoch_deck(
    state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws
) -> None:
    """R1.7, V3: the epoch deck: in each epoch the cards not yet revealed, less the cards V3
    removed (unseen, at random, never the Admiral), shuffled; epoch 1 on 2 on 3."""
    rules, n = view.rules, len(worlds)
    cards = rules.components.epoch_cards
    rec = view._record[row]  # noqa: SLF001
    pos, end = int(rec["epoch_pos"]), int(rec["epoch_len"])
    seen = view.revealed[row]
    parts = []
    for e in (1, 2, 3):
        pile = [cd for cd in cards if cd.epoch == e]
        keep = len(pile) - rules.removals[e - 1] - sum(bool(seen[cd.id]) for cd in pile)
        admiral = np.array([cd.id for cd in pile if not seen[cd.id] and cd.is_admiral], int)
        others = np.array([cd.id for cd in pile if not seen[cd.id] and not cd.is_admiral], int)
        chosen = others[_orders(draws, n, len(others))[:, : keep - len(admiral)]]
        kept = np.concatenate([chosen, np.broadcast_to(admiral, (n, len(admiral)))], axis=1)
        parts.append(np.take_along_axis(kept, _orders(draws, n, kept.shape[1]), axis=1))
    deck = np.concatenate(parts, axis=1)
    if deck.shape[1] != end - pos:
        raise ValueError("determinize: the epoch deck's size does not match the cards left")
    state.epoch_deck[worlds] = 0
    state.epoch_deck[worlds, pos:end] = deck


def _pawns(state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws) -> None:
    """R5.9: the seat's own pawns; each rival's face-up pawns as shown, and its face-down
    board pawns and camp pawns given strengths drawn from those its face-up and reserve pawns
    leave (pawns are numbered by strength, so a strength is a run of pawn indices)."""
    rules, q, n = view.rules, view.seat, len(worlds)
    lay = rules.layout
    strength = strengths(rules)
    state.loc[worlds] = RESERVE
    state.up[worlds] = False
    state.loc[worlds, q] = view.own_loc[row]
    state.up[worlds, q] = view.own_up[row]
    for r in range(rules.players):
        if r == q:
            continue
        shown = view.shown_loc[row, r]
        up = shown != HIDDEN
        state.loc[worlds[:, None], r, np.flatnonzero(up)[None, :]] = shown[up]
        state.up[worlds[:, None], r, np.flatnonzero(up)[None, :]] = True
        hidden_at = view.hidden_count[row, r].astype(np.int64)
        slots = np.repeat(np.arange(lay.size), hidden_at)
        slots = np.concatenate([slots, np.full(int(view.camp_size[row, r]), CAMP)])
        free, hidden = [], []
        for s in (1, 2, 3):
            idx = np.flatnonzero((strength == s) & ~up)
            free.append(idx)
            hidden += [s] * (len(idx) - int(view.reserve[row, r, s - 1]))
        if len(hidden) != len(slots):
            raise ValueError("determinize: a clan's hidden pawns do not fill its places")
        drawn = np.asarray(hidden, dtype=np.int64)[_orders(draws, n, len(hidden))]  # [n, H]
        for s in (1, 2, 3):
            mine = drawn == s
            w, k = np.nonzero(mine)
            rank = (np.cumsum(mine, axis=1) - 1)[w, k]
            state.loc[worlds[w], r, free[s - 1][rank]] = slots[k]


def _tiles(state: BatchState, worlds: np.ndarray, view: SeatView, row: int, draws: Draws) -> None:
    """R6.5: the supply's tiles and the seat's own as they are; each rival holds as many of
    the others as its count says (which ones is drawn), the rest left the game (topple)."""
    q, n = view.seat, len(worlds)
    supply, own = view.moai_supply[row], view.own_tiles[row]
    owner = np.full((n, len(supply)), TILE_OUT, dtype=np.int8)
    owner[:, supply] = TILE_SUPPLY
    owner[:, own] = q
    others = np.flatnonzero(~supply & ~own)
    drawn = others[_orders(draws, n, len(others))]  # [n, len(others)]
    k = 0
    for r in range(view.rules.players):
        if r == q:
            continue
        count = int(view.moai_count[row, r])
        np.put_along_axis(owner, drawn[:, k : k + count], r, axis=1)
        k += count
    state.moai_owner[worlds] = owner
