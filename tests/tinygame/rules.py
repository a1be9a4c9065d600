"""High Card, a tiny game that proves a game can be added on the engine floor with only what
docs/design.md ("Adding a game") lists: its rules, its two engines, its views and its policy.

T1  2 or 3 players; a deck of 9 cards numbered 1 to 9 is shuffled and each seat is dealt
    `hand` (3) cards, hidden from the others; the rest stay face down, unseen.
T2  Each seat in turn, seat 0 first, wagers 0 to `hand` tricks; wagers are public.
T3  Then `hand` tricks: every seat lays one card of its hand face down at once (a sealed
    decision); the cards are turned up together and the highest takes the trick.
T4  A seat scores 1 per trick taken, and `bonus` (3) more when it took exactly its wager.
    The highest score wins; tied seats share the win.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from moaisim.errors import RulesError

CARDS = 9  # T1


class Kind(Enum):
    """The decisions (their values are the strategy methods)."""

    WAGER = "wager"  # T2: one seat, in turn
    LAY = "lay"  # T3: every seat at once


class Chance(IntEnum):
    """The chance purposes (each the number of its sub-stream)."""

    DEAL = 0  # T1: one key per card


@dataclass(frozen=True)
class Rules:
    """A set-up of High Card."""

    players: int
    hand: int = 3
    bonus: int = 3
    variants: frozenset[str] = frozenset()
    game: str = "high-card"

    @property
    def setup(self) -> str:
        return (
            "base" if (self.hand, self.bonus) == (3, 3) else f"hand={self.hand},bonus={self.bonus}"
        )

    def digest(self) -> str:
        return f"high-card/{self.players}/{self.hand}/{self.bonus}"


def make_rules(
    players: int, variants: object = None, params: dict[str, int] | None = None, **options: object
) -> Rules:
    """The rules at `players` (T1: 2 or 3), `params` hand (1-3) and bonus (0-9)."""
    if options or variants:
        raise RulesError("high-card has no variants and no rule options")
    if not isinstance(players, int) or not 2 <= players <= 3:
        raise RulesError(f"high-card is played by 2 or 3 players, got {players!r}")
    params = dict(params or {})
    hand, bonus = params.pop("hand", 3), params.pop("bonus", 3)
    if params:
        raise RulesError(f"high-card has no parameter {sorted(params)[0]!r} (hand, bonus)")
    if not 1 <= hand <= 3 or not 0 <= bonus <= 9:
        raise RulesError(f"hand must be 1 to 3 and bonus 0 to 9, got {hand} and {bonus}")
    return Rules(players, hand, bonus)


def trick_taker(laid: list[int]) -> int:
    """T3: the seat whose card is highest (cards are distinct)."""
    return max(range(len(laid)), key=lambda q: laid[q])


def score(taken: int, wager: int, bonus: int) -> int:
    """T4."""
    return taken + (bonus if taken == wager else 0)
