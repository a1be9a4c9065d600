"""Checking a Moai strategy's answers (docs/rules.md section D): the floor's check
(`moaisim.engine.answers`) with Moai's shapes: an integer array [n] in the kind's action
space, or for a bid (R3.3) an integer array [n, 6] of card counts bounded by the hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from moaisim.engine import answers as floor
from moaisim.engine.answers import BadAnswer, raised
from moaisim.errors import StrategyError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.rules.codes import N_CARD_TYPES

#: A bid that takes more cards of a type than the hand holds (R3.3), as an error says it.
BID_SAID = "illegal bid {shown} (the hand holds {bound})"


def width(kind: Kind) -> int:
    """The numbers of an answer of `kind`: 6 card counts for a bid, else one action (0)."""
    return N_CARD_TYPES if kind is Kind.BID else 0


def answer(method: Callable[[Any], Any], view: Any, kind: Kind, legal: np.ndarray) -> np.ndarray:
    """Ask a strategy method and check its answer (`check`)."""
    return _typed(kind, floor.answer(method, view, legal, width(kind), BID_SAID))


def check(kind: Kind, answer: Any, legal: np.ndarray) -> np.ndarray:
    """The actions of a strategy's answer to a view with these legal masks (n rows)."""
    return _typed(kind, floor.check(answer, legal, width(kind), BID_SAID))


def _typed(kind: Kind, actions: np.ndarray) -> np.ndarray:
    """A bid's counts as the machine keeps them (int16), an action as int64."""
    return actions.astype(np.int16 if kind is Kind.BID else np.int64, copy=False)


def failure(bad: BadAnswer, strategy: str, kind: Kind, games: np.ndarray, seed: int,
            seat: int) -> StrategyError:  # fmt: skip
    """The error a `BadAnswer` becomes (`moaisim.engine.answers.failure`)."""
    return floor.failure(bad, strategy, kind.value, games, seed, seat)


__all__ = ["BID_SAID", "BadAnswer", "answer", "check", "failure", "raised", "width"]
