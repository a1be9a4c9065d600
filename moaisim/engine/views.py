"""What a strategy sees: `SeatView`, one seat's view of the games it decides (R5.9, R6.5).

A `SeatView` shows one seat its own hand and pawns, the public board, and for what is hidden
(other hands, face-down and camp pawns, Moai heights) only the counts that the table shows.
(A strategy with memory can still deduce what the physical game lets a player deduce, e.g.
tile heights from the supply.) Every array has a leading games axis.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Protocol

import numpy as np
from numba import njit

from moaisim.engine.decisions import Kind, strengths
from moaisim.rng import SeatRandom
from moaisim.rules import RESERVE, Rules
from moaisim.rules.codes import TILE_SUPPLY, free_fields

HIDDEN = -3  # location shown for a pawn whose place or strength a seat may not see


class Tables(Protocol):
    """The game state as arrays with a leading games axis: what both engines expose to views.

    Shapes (B games, P players, N pawns per colour, F forest spaces, K boat slots, T tiles):
    round, birdman, deck_size, epoch_deck_size, wood_supply, covered, disaster_supply [B];
    last_round [B] bool; order (hill order), turn (order of phases R4-R7), wood, held,
    bids (-1 until revealed) [B, P]; offer [B, P+1] (epoch card id or -1); hand [B, P, 6];
    discard [B, 6]; loc [B, P, N] (location code); up [B, P, N] bool (face up);
    forest_wood [B, F] bool; boats [B, P, K] (card id or -1); moai_owner [B, T]
    (seat, -1 supply, -2 out of the game).
    """

    round: np.ndarray
    last_round: np.ndarray
    birdman: np.ndarray
    order: np.ndarray
    turn: np.ndarray
    hand: np.ndarray
    deck_size: np.ndarray
    discard: np.ndarray
    epoch_deck_size: np.ndarray
    offer: np.ndarray
    held: np.ndarray
    bids: np.ndarray
    loc: np.ndarray
    up: np.ndarray
    wood: np.ndarray
    wood_supply: np.ndarray
    forest_wood: np.ndarray
    covered: np.ndarray
    disaster_supply: np.ndarray
    boats: np.ndarray
    moai_owner: np.ndarray


TABLE_FIELDS: frozenset[str] = frozenset(Tables.__annotations__)


class SeatView:
    """What one seat sees of the games `rows` of `tables`, plus the question it is asked.

    Attributes computed on first use; all arrays have a leading axis of len(games). Fields:
    kind, seat, rules, games (game indices in the run), legal ([n, A] bool mask; for bid the
    [n, 6] hand counts that bound the bid), rng (the seat's stream), info (arrays specific to
    the decision, e.g. info["deficit"] for feed; see the engine's docstrings). `legal` and
    the `info` arrays are read-only (they may be the engine's own): copy them to edit.
    """

    def __init__(
        self,
        kind: Kind,
        seat: int,
        rules: Rules,
        tables: Tables,
        rows: np.ndarray,
        games: np.ndarray,
        legal: np.ndarray,
        rng: SeatRandom,
        info: dict[str, Any] | None = None,
    ) -> None:
        self.kind, self.seat, self.rules = kind, seat, rules
        # The full tables stay private: every public attribute below is filtered for `seat`.
        self.__tables, self.__rows = tables, rows
        self.games, self.legal, self.rng = games, legal, rng
        self.info: dict[str, Any] = info or {}
        self.__fields: dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.__rows)

    def _table(self, name: str) -> np.ndarray:
        """A whole table field (every game): for the kernels, which read only `rows`."""
        return np.asarray(getattr(self.__tables, name))

    def _own(self, name: str) -> np.ndarray:
        """This seat's slice of a [B, P, ...] table field (gathered alone if the whole field
        is not needed)."""
        got = self.__fields.get(name)
        if got is not None:
            return got[:, self.seat]
        return np.asarray(getattr(self.__tables, name))[self.__rows, self.seat]

    def _get(self, name: str) -> np.ndarray:
        """The view's rows of a table field (each field gathered once per view)."""
        got = self.__fields.get(name)
        if got is None:
            got = self.__fields[name] = np.asarray(getattr(self.__tables, name))[self.__rows]
        return got

    # --- public state (R5.9) ---------------------------------------------------------------
    @cached_property
    def round(self) -> np.ndarray:
        return self._get("round")

    @cached_property
    def last_round(self) -> np.ndarray:
        return self._get("last_round")

    @cached_property
    def birdman(self) -> np.ndarray:
        return self._get("birdman")

    @cached_property
    def order(self) -> np.ndarray:
        """Hill order [n, P]: seats by position, position 0 = bird-man."""
        return self._get("order")

    @cached_property
    def turn(self) -> np.ndarray:
        """Turn order of phases R4-R7 [n, P] (hill order, or clockwise by rule option)."""
        return self._get("turn")

    @cached_property
    def position(self) -> np.ndarray:
        """This seat's position in the turn order [n]."""
        return np.argmax(self.turn == self.seat, axis=1)

    @cached_property
    def hand_sizes(self) -> np.ndarray:
        return self._get("hand").sum(axis=2)

    @cached_property
    def deck_size(self) -> np.ndarray:
        return self._get("deck_size")

    @cached_property
    def discard(self) -> np.ndarray:
        """Discard pile [n, 6] counts by card type (public)."""
        return self._get("discard")

    @cached_property
    def epoch_deck_size(self) -> np.ndarray:
        return self._get("epoch_deck_size")

    @cached_property
    def offer(self) -> np.ndarray:
        """Epoch cards on offer [n, P+1] (card ids, -1 for a taken slot)."""
        return self._get("offer")

    @cached_property
    def held(self) -> np.ndarray:
        """Epoch card each clan holds this round [n, P] (-1: none)."""
        return self._get("held")

    @cached_property
    def bids(self) -> np.ndarray:
        """Bid totals revealed so far this round [n, P] (-1: not revealed)."""
        return self._get("bids")

    @cached_property
    def wood(self) -> np.ndarray:
        return self._get("wood")

    @cached_property
    def wood_supply(self) -> np.ndarray:
        return self._get("wood_supply")

    @cached_property
    def forest_wood(self) -> np.ndarray:
        """[n, F] bool: a wood token lies on the forest space."""
        return self._get("forest_wood")

    @cached_property
    def covered(self) -> np.ndarray:
        """Fields covered by a disaster token [n]."""
        return self._get("covered")

    @cached_property
    def disaster_supply(self) -> np.ndarray:
        return self._get("disaster_supply")

    @cached_property
    def free_fields(self) -> np.ndarray:
        """Fields with no pawn and no disaster token [n] (R5.5)."""
        in_fields = (self._get("loc") == self.rules.layout.fields).sum(axis=(1, 2))
        return free_fields.py_func(self.rules.layout, self.covered, in_fields)

    @cached_property
    def boats(self) -> np.ndarray:
        """[n, P, K] bool: the clan has built a boat in that slot."""
        return self._get("boats") >= 0

    @cached_property
    def boats_manned(self) -> np.ndarray:
        """[n, P, K] bool: a pawn stands on that boat."""
        lay = self.rules.layout
        loc = self._get("loc")
        n, p, _ = loc.shape
        slot = np.where(loc >= lay.ocean0, loc - lay.ocean0, lay.boats)  # K: not on a boat
        out = np.zeros((n, p, lay.boats + 1), dtype=bool)
        out[np.arange(n)[:, None, None], np.arange(p)[None, :, None], slot] = True
        return out[:, :, : lay.boats]

    @cached_property
    def moai_count(self) -> np.ndarray:
        """Moai tiles held by each clan [n, P] (public, R6.5)."""
        return self._counts[:, :, 2]

    @cached_property
    def _counts(self) -> np.ndarray:
        """[n, P, 3]: pawns on the board, in camp, Moai tiles, per clan (all public)."""
        return clan_counts(self._table("loc"), self._table("moai_owner"), self.__rows)

    @cached_property
    def moai_supply(self) -> np.ndarray:
        """[n, T] bool: that tile (tiles sorted by height) is still in the supply."""
        return self._get("moai_owner") == TILE_SUPPLY

    @cached_property
    def tile_heights(self) -> np.ndarray:
        return np.asarray(self.rules.components.moai_heights, dtype=np.int16)

    @cached_property
    def camp_size(self) -> np.ndarray:
        """Pawns in each clan's camp [n, P] (public)."""
        return self._counts[:, :, 1]

    @cached_property
    def reserve(self) -> np.ndarray:
        """[n, P, 3]: pawns of strength 1, 2, 3 in each clan's reserve (public supply)."""
        res = self._get("loc") == RESERVE
        per = self.rules.components.pawns_per_strength
        return res.reshape(res.shape[0], res.shape[1], 3, per).sum(axis=3)

    @cached_property
    def shown_loc(self) -> np.ndarray:
        """[n, P, N]: location of each face-up pawn on the board, HIDDEN otherwise.

        Pawns are numbered by strength, so only face-up pawns are shown by index.
        """
        return self._shown_and_hidden[0]

    @cached_property
    def hidden_count(self) -> np.ndarray:
        """[n, P, L]: face-down pawns of each clan on each board location (counts only)."""
        return self._shown_and_hidden[1]

    @cached_property
    def _shown_and_hidden(self) -> tuple[np.ndarray, np.ndarray]:
        loc, up = self._table("loc"), self._table("up")
        return shown_and_hidden(loc, up, self.__rows, self.rules.layout.size, HIDDEN)

    @cached_property
    def on_board(self) -> np.ndarray:
        """Pawns of each clan on the board [n, P] (public)."""
        return self._counts[:, :, 0]

    # --- own, secret state ---------------------------------------------------------------
    @cached_property
    def hand(self) -> np.ndarray:
        """Own hand [n, 6]: counts by card type (CARD_TYPES order)."""
        return self._own("hand")

    @cached_property
    def own_loc(self) -> np.ndarray:
        """Own pawns' location codes [n, N] (pawn i has strength `strengths(rules)[i]`)."""
        return self._own("loc")

    @cached_property
    def own_up(self) -> np.ndarray:
        return self._own("up")

    @cached_property
    def own_tiles(self) -> np.ndarray:
        """[n, T] bool: the tiles this clan holds (heights in `tile_heights`)."""
        return self._get("moai_owner") == self.seat

    @cached_property
    def strength(self) -> np.ndarray:
        """Strength of each pawn index [N]."""
        return strengths(self.rules)


@njit(cache=True, nogil=True)
def shown_and_hidden(
    loc: np.ndarray, up: np.ndarray, rows: np.ndarray, size: int, hidden_code: int
) -> tuple[np.ndarray, np.ndarray]:
    """[B, P, N] loc/up, games `rows` -> (shown_loc [n, P, N], hidden_count [n, P, size]).

    shown_loc: the location of a face-up board pawn, `hidden_code` otherwise;
    hidden_count: face-down board pawns of each clan on each location.
    """
    n, p, pawns = len(rows), loc.shape[1], loc.shape[2]
    shown = np.empty((n, p, pawns), dtype=np.int8)
    hidden = np.zeros((n, p, size), dtype=np.int16)
    for k in range(n):
        r = rows[k]
        for q in range(p):
            for i in range(pawns):
                x = loc[r, q, i]
                if x >= 0 and up[r, q, i]:
                    shown[k, q, i] = x
                else:
                    shown[k, q, i] = hidden_code
                    if x >= 0:
                        hidden[k, q, x] += 1
    return shown, hidden


@njit(cache=True, nogil=True)
def clan_counts(loc: np.ndarray, moai_owner: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """[B, P, N] locations, [B, T] tile owners, games `rows` -> [n, P, 3]: pawns on the
    board, pawns in camp and Moai tiles held, per clan."""
    n, players, pawns = len(rows), loc.shape[1], loc.shape[2]
    out = np.zeros((n, players, 3), dtype=np.int64)
    for k in range(n):
        r = rows[k]
        for q in range(players):
            for i in range(pawns):
                x = loc[r, q, i]
                if x >= 0:
                    out[k, q, 0] += 1
                elif x == -1:
                    out[k, q, 1] += 1
        for t in range(moai_owner.shape[1]):
            q = moai_owner[r, t]
            if q >= 0:
                out[k, q, 2] += 1
    return out
