"""Moai's one procedure for the hill order (R3.4-R3.5, V4) and for the volcano's legality
(R5.6, R6.2), `moaisim.games.moai.rules.codes`: both engines call these kernels (the machine
compiled, the reference engine as plain Python through `.py_func`). Scenario values worked out
by hand from docs/rules.md, each checked both ways.

Default layout (`Rules.make(p).layout`): 6 forest spaces (codes 0-5), the fields 6, a clan's
volcano spaces 7-24 (volcano0 + k), pawns 0-5 of strength 1, 6-11 of strength 2, 12-17 of 3.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import (
    CAMP,
    RESERVE,
    TILE_SUPPLY,
    finishable,
    hill_order,
    new_volcano_space,
    statue_heights,
    volcano_open,
)


def both(kernel: Any, *args: Any) -> tuple[Any, list[np.ndarray]]:
    """The kernel's answer and the arrays it filled, compiled and in plain Python (each on
    its own copies of the arrays), checked equal."""
    outs = []
    for fn in (kernel, kernel.py_func):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        got = fn(*copies)
        outs.append((got, [a for a in copies if isinstance(a, np.ndarray)]))
    (a, arrays_a), (b, arrays_b) = outs
    assert a == b
    for x, y in zip(arrays_a, arrays_b, strict=True):
        assert np.array_equal(x, y)
    return a, arrays_a


def hill(bids: list[int], birdman: int, strict: bool = False, pos: int = 0,
         placed: list[int] | None = None) -> tuple[tuple[int, int], list[int], list[bool],
                                                   list[bool]]:  # fmt: skip
    """`hill_order` from place `pos` (the seats `placed` before it): ((the place the
    bird-man fills, the tied bid), the order so far, his choices, the tied seats)."""
    p = len(bids)
    order = np.full(p, -1, dtype=np.int64)
    order[:pos] = placed or []
    legal, tied = np.zeros(p, dtype=bool), np.zeros(p, dtype=bool)
    got, (order, _, legal, tied) = both(hill_order, order, pos, np.array(bids, dtype=np.int64),
                                        birdman, strict, legal, tied)  # fmt: skip
    return got, order.tolist(), legal.tolist(), tied.tolist()


# --- R3.4-R3.5: the hill order ----------------------------------------------------------------
def test_r3_4_bids_alone_fill_the_order_highest_first():
    got, order, _, _ = hill([0, 4, 1, 2], birdman=0)
    assert got == (4, 0) and order == [1, 3, 2, 0]


def test_r3_4_a_tie_stops_at_the_bird_mans_choice_of_the_tied_seats():
    # bird-man 3 bid 1; seats 0, 1, 2 tied at 2: he names place 0 among them
    got, order, legal, tied = hill([2, 2, 2, 1], birdman=3)
    assert got == (0, 2) and order == [-1, -1, -1, -1]
    assert legal == [True, True, True, False] and tied == [True, True, True, False]
    # he named 2: place 1 among 0 and 1 (tied still lists every seat of the bid)
    got, order, legal, tied = hill([2, 2, 2, 1], birdman=3, pos=1, placed=[2])
    assert got == (1, 2) and legal == [True, True, False, False]
    assert tied == [True, True, True, False]
    # he named 0: seat 1 is alone at 2 now, then 3
    got, order, _, _ = hill([2, 2, 2, 1], birdman=3, pos=2, placed=[2, 0])
    assert got == (4, 0) and order == [2, 0, 1, 3]


def test_r3_4_a_bird_man_among_the_tied_places_himself_behind_them():
    # seat 3 leads alone; the bird-man 0 ties with 1 and 2 at 2: his choices exclude himself
    got, order, legal, tied = hill([2, 2, 2, 3], birdman=0)
    assert got == (1, 2) and order[0] == 3
    assert legal == [False, True, True, False] and tied == [True, True, True, False]
    # once one other is placed, only the last other remains for him to name
    got, _, legal, _ = hill([2, 2, 2, 3], birdman=0, pos=2, placed=[3, 2])
    assert got == (2, 2) and legal == [False, True, False, False]


def test_v4_a_bird_man_tied_for_first_cannot_take_it_but_may_take_a_later_place():
    # V4: tied for place 0, the bird-man 0 is not among the choices ...
    got, _, legal, _ = hill([2, 2, 1], birdman=0, strict=True)
    assert got == (0, 2) and legal == [False, True, False]
    # ... tied for place 1, he is (R3.4 would put him last)
    got, order, legal, _ = hill([3, 1, 1], birdman=1, strict=True)
    assert got == (1, 1) and order[0] == 0 and legal == [False, True, True]
    got, _, legal, _ = hill([3, 1, 1], birdman=1, strict=False)
    assert got == (1, 1) and legal == [False, False, True]


def test_r3_4_two_tied_groups_are_each_stopped_at():
    # bids 3 3 1 1 1, bird-man 2: the first group {0, 1} at place 0, then {2, 3, 4} at 2
    got, _, legal, _ = hill([3, 3, 1, 1, 1], birdman=2)
    assert got == (0, 3) and legal == [True, True, False, False, False]
    got, order, legal, tied = hill([3, 3, 1, 1, 1], birdman=2, pos=1, placed=[1])
    assert got == (2, 1) and order[:2] == [1, 0]
    assert legal == [False, False, False, True, True] and tied == [False, False, True, True, True]


# --- R5.6: where a pawn may go on the volcano -------------------------------------------------
@pytest.mark.parametrize(
    ("used", "new", "open_"),
    [
        ([False, False, False, False], 0, [True, False, False, False]),  # the first statue
        ([True, False, True, False], 1, [True, True, True, False]),  # own spaces and space 1
        ([True, True, False, False], 2, [True, True, True, False]),
        ([False, True, True, False], 0, [True, True, True, False]),  # a vacated space is new
        ([True, True, True, True], -1, [True, True, True, True]),  # every space its own
    ],
)
def test_r5_6_a_pawn_goes_on_a_space_of_its_own_clan_or_on_the_lowest_new_one(used, new, open_):
    mask = np.array(used, dtype=bool)
    assert both(new_volcano_space, mask)[0] == new
    assert [both(volcano_open, mask, v, new)[0] for v in range(len(used))] == open_


# --- R6.2: finishing statues ------------------------------------------------------------------
def test_r6_2_a_statues_height_is_its_pawns_total_strength():
    lay = Rules.make(3).layout
    loc = np.full(lay.pawns, RESERVE, dtype=np.int8)
    loc[0] = lay.volcano0  # strength 1
    loc[6] = lay.volcano0  # strength 2
    loc[13] = lay.volcano0 + 2  # strength 3
    loc[7] = 0  # a forest pawn
    loc[1] = CAMP
    got, (_, heights) = both(statue_heights, lay, loc, np.zeros(lay.volcano, dtype=np.int64))
    assert got is None
    assert heights[:4].tolist() == [3, 0, 3, 0] and heights[4:].sum() == 0


def finish(height: list[int], done: list[bool], wood: int) -> tuple[bool, list[bool]]:
    """`finishable` with the tiles 3 (taken by seat 0), 5 and 6 (in the supply)."""
    owner = np.array([0, TILE_SUPPLY, TILE_SUPPLY], dtype=np.int8)
    tiles = np.array([3, 5, 6], dtype=np.int64)
    some, (_, _, _, _, legal) = both(
        finishable, np.array(height, dtype=np.int64), np.array(done, dtype=bool), wood, owner,
        tiles, np.zeros(len(height), dtype=bool),
    )  # fmt: skip
    return some, legal.tolist()


def test_r6_2_a_statue_can_be_finished_with_a_wood_and_a_tile_no_taller_left():
    # space 0: 3 m, the 3 m tile taken, none shorter: no; space 1: no statue; space 2: 9 m
    # takes the 6; space 3: 6 m, finished this turn already
    assert finish([3, 0, 9, 6], [False, False, False, True], wood=1) == (
        True, [False, False, True, False],
    )  # fmt: skip
    assert finish([3, 0, 9, 6], [False, False, False, True], wood=0) == (False, [False] * 4)
    assert finish([3, 0, 4, 0], [False] * 4, wood=5) == (False, [False] * 4)  # no tile fits
    assert finish([5, 0, 0, 0], [False] * 4, wood=2) == (True, [True, False, False, False])
