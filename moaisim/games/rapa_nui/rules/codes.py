"""Rapa Nui's card kinds, food types and action codes, as plain integers both engines share
(docs/rapa-nui-rules.md, R0 and section D)."""

from __future__ import annotations

#: The four food types (R0), symmetric in every rule.
FISH, MULBERRY, SWEET_POTATO, GRAIN = range(4)
FOODS: tuple[str, ...] = ("fish", "mulberry", "sweet potato", "grain")
N_FOODS = 4

#: The card kinds (R0): a Rapa Nui card or a start card of that kind.
LUMBERJACK, PRIEST, MOAI = 0, 1, 2
#: A hunter-gatherer (H&G) of food type t is kind HG + t.
HG = 3
N_KINDS = 7
KINDS: tuple[str, ...] = ("lumberjack", "priest", "Moai", *(f"{f} H&G" for f in FOODS))

#: D1 (R3): 0 buys nothing, 1 + t buys a sacrifice card of type t.
BUY_NOTHING = 0
N_BUY = 1 + N_FOODS
#: D2 (R4.1): 0 a lumberjack, 1 a priest, 2 a Moai, PLAY_HG + 3 t + (k - 1) k H&G of type t.
PLAY_LUMBERJACK, PLAY_PRIEST, PLAY_MOAI, PLAY_HG = 0, 1, 2, 3
MAX_GROUP = 3
N_PLAY = PLAY_HG + N_FOODS * MAX_GROUP
#: D5 (R5.2): 4 x (the stock's type put face down) + (the supply's type put face up).
N_OFFERING = N_FOODS * N_FOODS


def play_hg(food: int, count: int) -> int:
    """D2's action that plays `count` (1-3) H&G of type `food` together."""
    return PLAY_HG + MAX_GROUP * food + count - 1


def played(action: int) -> tuple[int, int]:
    """The card kind a D2 action puts into the village and how many cards."""
    if action < PLAY_HG:
        return action, 1
    food, extra = divmod(action - PLAY_HG, MAX_GROUP)
    return HG + food, extra + 1


def offering(own: int, supply: int) -> int:
    """D5's action: the stock's card put face down and the supply's put face up."""
    return N_FOODS * own + supply


def offered(action: int) -> tuple[int, int]:
    """A D5 action's (face-down type, supply type)."""
    return divmod(action, N_FOODS)
