"""Rapa Nui's rules' arithmetic, one home per rule (docs/rapa-nui-rules.md): what a sacrifice
card costs (R3.2), who takes a majority bonus (R7.6), what a stock card is worth at the end
(R9.2-R9.3) and what a seat scores (R9.1).

Each rule is one kernel (`moaisim.jit.kernel`, as Moai's `rules/codes.py`): the fast machine
and the heuristic policy call it compiled, the reference engine, which reads one value at a
time, calls the same source as plain Python through `.py_func`. Nothing else restates them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from moaisim.games.rapa_nui.rules.codes import N_FOODS
from moaisim.jit import kernel

#: R9.3 `sacrifice_tie` as the kernels take it: tied types take the value at the first of
#: their shared places, at the last, or the mean of those places' values.
TIE_HIGH, TIE_LOW, TIE_SPLIT = 0, 1, 2
TIES: dict[str, int] = {"high": TIE_HIGH, "low": TIE_LOW, "split": TIE_SPLIT}
#: Counts by seat or by food type: a list (the reference engine) or an array (the kernels).
Ints = Sequence[int] | np.ndarray
#: R9.1: the score's parts, in the order `score_parts` gives them.
PARTS: tuple[str, ...] = ("glory", "moai_points", "wood_points", "stock_points")


def _rule(fn):  # type: ignore[no-untyped-def]
    """Compile a rule function for the kernels; `.py_func` keeps the plain-Python original."""
    return kernel(fn)


@_rule
def sacrifice_price(price: int, own_hg: int) -> int:
    """R3.2: a sacrifice card's price (`sacrifice_price`, 5) less one wood per H&G of its type
    in the buyer's own village, never below 0."""
    return max(0, price - own_hg)


@_rule
def takes_bonus(counts: Ints, seat: int, extra: int, shared: bool) -> bool:
    """R7.6: whether `seat` takes the majority bonus of the evaluated kind, each seat holding
    counts[s] cards of it in its village (R7.7) and `seat` `extra` more (a look-ahead at a
    play; 0 as the villages stand). It needs at least one card and more than every other
    seat (the sole majority), or under `majority_rule = shared` (`shared`) at least as many
    as every other seat."""
    mine = counts[seat] + extra
    if mine < 1:
        return False
    for s in range(len(counts)):
        if s != seat and (counts[s] > mine or (counts[s] == mine and not shared)):
            return False
    return True


@_rule
def stock_value(stone: Ints, down: Ints, values: Ints, tie: int,
                food: int) -> int:  # fmt: skip
    """R9.2-R9.3: the glory a stock card of type `food` scores, the stone holding stone[t]
    cards of type t face up and down[t] face down (turned up at the end, R9.2): the types
    ranked by count, most first, the k-th taking values[k] (the component set's
    `sacrifice.values`). Types tied on the stone take the value written at the first of the
    places they share (`tie` TIE_HIGH), at the last (TIE_LOW) or the mean of those places'
    values rounded down (TIE_SPLIT). R9.3 names places, not sizes: with a values list that
    is not descending, TIE_HIGH may be the smaller value (values 0, 1, 2, 3 and counts 5, 5,
    2, 1 give 0, 0, 2, 3)."""
    mine = stone[food] + down[food]
    above, level = 0, 0  # the types with more cards, and those with as many (itself too)
    for t in range(N_FOODS):
        n = stone[t] + down[t]
        if n > mine:
            above += 1
        elif n == mine:
            level += 1
    if tie == TIE_HIGH:
        return values[above]
    if tie == TIE_LOW:
        return values[above + level - 1]
    total = 0  # TIE_SPLIT
    for k in range(above, above + level):
        total += values[k]
    return total // level


@_rule
def score_parts(glory: int, moai: int, wood: int, stock: Ints, stone: Ints,
                down: Ints, values: Ints, tie: int, moai_glory: int,
                wood_per_glory: int) -> tuple[int, int, int, int]:  # fmt: skip
    """R9.1: a seat's score in its parts (`PARTS`): the glory it took in play; `moai_glory`
    (4) per Moai in its village; one glory per full `wood_per_glory` (5) wood left; and each
    card of its stock (stock[t] of type t) at its type's value (`stock_value`, with the
    stone's cards stone + down). The score is their sum (`score`)."""
    points = 0
    for t in range(N_FOODS):
        if stock[t] > 0:
            points += stock[t] * stock_value(stone, down, values, tie, t)
    return glory, moai_glory * moai, wood // wood_per_glory, points


@_rule
def score(glory: int, moai: int, wood: int, stock: Ints, stone: Ints,
          down: Ints, values: Ints, tie: int, moai_glory: int,
          wood_per_glory: int) -> int:  # fmt: skip
    """R9.1: a seat's score, the sum of its `score_parts`."""
    a, b, c, d = score_parts(glory, moai, wood, stock, stone, down, values, tie, moai_glory,
                             wood_per_glory)  # fmt: skip
    return a + b + c + d


def type_values(stone: Ints, values: Ints, tie: str = "high") -> list[int]:
    """R9.2-R9.3: the glory a stock card of each food type scores, the stone's cards of each
    type counted (`stock_value` of each type, in plain Python; what a game's end event
    shows)."""
    none = [0] * N_FOODS
    return [int(stock_value.py_func(stone, none, values, TIES[tie], t)) for t in range(N_FOODS)]


def bonus_holders(counts: Ints, rule: str = "sole") -> list[int]:
    """R7.6: the seats that take the majority bonus (`takes_bonus` of each seat, in plain
    Python) under `majority_rule` `rule`, each seat holding counts[s] cards of the kind."""
    shared = rule == "shared"
    return [q for q in range(len(counts)) if takes_bonus.py_func(counts, q, 0, shared)]


__all__ = ["PARTS", "TIES", "bonus_holders", "sacrifice_price", "score", "score_parts",
           "stock_value", "takes_bonus", "type_values"]  # fmt: skip
