"""Rapa Nui's final scoring (docs/rapa-nui-rules.md, R9): the rules' arithmetic, one function
each, shared by both engines."""

from __future__ import annotations

from collections.abc import Sequence

from moaisim.games.rapa_nui.rules.codes import N_FOODS


def type_values(stone: Sequence[int], values: Sequence[int], tie: str = "high") -> list[int]:
    """R9.2-R9.3: the glory a stock card of each food type scores, from the cards of each type
    on the sacrifice stone: the types ranked by count, most first, the k-th taking values[k];
    types tied on the stone take the value written at the first of the places they share
    (`high`), at the last (`low`) or the mean of those places' values rounded down (`split`).
    R9.3 names places, not sizes: with a list that is not descending, `high` may be the
    smaller value (values [0, 1, 2, 3], counts 5, 5, 2, 1: 0, 0, 2, 3)."""
    order = sorted(range(N_FOODS), key=lambda t: -stone[t])
    out = [0] * N_FOODS
    i = 0
    while i < N_FOODS:
        j = i
        while j + 1 < N_FOODS and stone[order[j + 1]] == stone[order[i]]:
            j += 1
        shared = values[i : j + 1]
        if tie == "high":
            value = shared[0]  # the first shared place
        elif tie == "low":
            value = shared[-1]  # the last shared place
        else:  # split: their mean, rounded down
            value = sum(shared) // len(shared)
        for k in range(i, j + 1):
            out[order[k]] = value
        i = j + 1
    return out


def sacrifice_price(price: int, own_hg: int) -> int:
    """R3.2: a sacrifice card's price, less one wood per own H&G of its type, never below 0."""
    return max(0, price - own_hg)


def majority(counts: Sequence[int], rule: str = "sole") -> list[int]:
    """R7.6: the seats that take the majority bonus given each seat's count of the evaluated
    kind: the one seat with strictly more than every other and at least one (`sole`), or
    every seat tied for the most, at least one (`shared`)."""
    top = max(counts)
    if top < 1:
        return []
    leaders = [q for q, n in enumerate(counts) if n == top]
    return leaders if rule == "shared" or len(leaders) == 1 else []
