"""The Strategy base class: one method per decision kind (docs/rules.md section D).

Each method gets a `SeatView` for one seat over a batch of games (leading axis n) and returns
one action per game: an int array [n] in the kind's action space, or for `bid` an int array
[n, 6] of card counts. A strategy is written once: a built-in is its compiled policy
(`own_policy`), and each method the class does not override answers a view by asking that policy
about the view's games (`compiled.answer.policy_answers`). The base class's policy picks a
uniformly random legal action, drawing exactly one value per game from the seat's stream, so a
new strategy overrides only what it cares about and runs unchanged in both engines.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from moaisim.games.moai.engine.compiled.answer import policy_answers
from moaisim.games.moai.engine.compiled.policy import RANDOM, Form, Policy
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.strategy_params import Parameterised


class Strategy(Parameterised):
    """Base class of all strategies. `name` is how registries and results refer to it.

    `reads` (optional) maps decision kinds to the view fields the strategy's method for
    that kind reads: its views of that kind then copy only those fields, which is faster
    (an undeclared field read raises a clear AttributeError). Kinds it does not name get
    every field (a built-in's policy reads the whole view), except kinds whose method is the
    base class's random default under the base class's policy, which reads none. A subclass
    that overrides a method, or `by_policy` (which every method it leaves alone asks),
    without declaring its reads gets every field for that kind (`__init_subclass__` fills
    this in).
    """

    name = "base"
    reads: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)  # the parameter tables merged (`Parameterised`)
        own = cls.__dict__.get("reads", {})
        declared = dict(cls.reads)
        for kind in Kind:
            method = kind.value
            if method in cls.__dict__ and method not in own:
                declared.pop(method, None)  # redefined here, reads undeclared: every field
            if getattr(cls, method) is getattr(Strategy, method):
                if "by_policy" in cls.__dict__ and method not in own:
                    declared.pop(method, None)  # by_policy redefined here: every field
                elif cls.own_policy is Strategy.own_policy:
                    declared.setdefault(method, ())  # the random default reads no field
                elif method not in own:
                    declared.pop(method, None)  # a built-in's policy reads the whole view
        cls.reads = declared

    def check_players(self, players: int) -> None:
        """Refuse, with an `UnknownStrategyError`, a player count the strategy is not made
        for (a mixture file of another player count); called as a lineup is read, before any
        game. Default: every count."""

    def own_policy(self, rules: Rules) -> Form:
        """The compiled policy this class's own decisions are (`engine.compiled.policy`):
        a built-in is written as one; the base class's is `random`'s. Each decision method
        this class does not override answers by it, compiled or through views."""
        return Policy(RANDOM)

    def compiled(self, rules: Rules) -> Form | None:
        """This strategy as a compiled form (`engine.compiled.policy`): a `Policy`, or a
        `Choice` of policies game by game (a mixture); None to be asked through views. A seat
        that has one decides in numba, the same decisions (docs/design.md, "The two
        engines"); the games wait for a seat asked through views. The default: its `own_policy`
        when no decision method is overridden (on the class or on the instance), else
        None."""
        return self.own_policy(rules) if self.plays_as(Strategy) else None

    def plays_as(self, cls: type) -> bool:
        """Every decision of this instance is `cls`'s own method, and so is `by_policy`, which
        the decisions ask (nothing overridden below `cls`, on its class or on the instance):
        a compiled form of `cls` plays it."""
        for name in ("by_policy", *(k.value for k in Kind)):
            mine = getattr(self, name, None)
            if getattr(mine, "__func__", None) is not getattr(cls, name, object()):
                return False
        return True

    def partly(self, rules: Rules) -> Policy | None:
        """For a strategy that overrides some decisions only: its `own_policy` for the others,
        with the kinds it overrides asked of Python (`Policy.asks`), so that its seat pauses
        at those only; None when it overrides them all, overrides `by_policy`, or its policy
        is not one `Policy`."""
        if getattr(getattr(self, "by_policy", None), "__func__", None) is not Strategy.by_policy:
            return None
        asks = 0
        for k, kind in enumerate(Kind):
            mine = getattr(self, kind.value, None)
            if getattr(mine, "__func__", None) is not getattr(Strategy, kind.value):
                asks |= 1 << k
        form = self.own_policy(rules)
        if asks == (1 << len(Kind)) - 1 or not isinstance(form, Policy) or form.asks:
            return None
        return form._replace(asks=asks)

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The answer of this strategy's `own_policy` to the view (each game of it), drawn from
        the view's stream: what every decision method answers unless overridden."""
        return policy_answers(self.own_policy(view.rules), view)

    def bid(self, view: SeatView) -> np.ndarray:
        """R3.3: card counts per type [n, 6], each at most the hand's count (view.legal).

        Default (`random`): a uniformly random sub-multiset of the hand (one draw per game).
        """
        return self.by_policy(view)

    def order_ties(self, view: SeatView) -> np.ndarray:
        """R3.4: as bird-man, the seat that takes the next place among tied bidders."""
        return self.by_policy(view)

    def pick_epoch(self, view: SeatView) -> np.ndarray:
        """R4.1: the slot of the offer to take."""
        return self.by_policy(view)

    def disaster_target(self, view: SeatView) -> np.ndarray:
        """R4.3: the seat a disaster hits (info["card"] is the card id)."""
        return self.by_policy(view)

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        """R4.4: what the victim loses; info["what"] says pawn index, boat slot or tile index."""
        return self.by_policy(view)

    def work(self, view: SeatView) -> np.ndarray:
        """R5: place, pass or swap (see `WorkCodec`)."""
        return self.by_policy(view)

    def forest_tie(self, view: SeatView) -> np.ndarray:
        """R6.1: as bird-man, the tied clan that takes the wood (info["space"])."""
        return self.by_policy(view)

    def finish_moai(self, view: SeatView) -> np.ndarray:
        """R6.2: a volcano space (0..V-1) to finish now, or V to stop."""
        return self.by_policy(view)

    def feed(self, view: SeatView) -> np.ndarray:
        """R6.3-R6.4: starve an own pawn or raid (see `FeedCodec`); info["deficit"] left."""
        return self.by_policy(view)

    def rest(self, view: SeatView) -> np.ndarray:
        """R7.2: the next own pawn to bring back to camp."""
        return self.by_policy(view)

    def birth(self, view: SeatView) -> np.ndarray:
        """R7.3: a pair of `BIRTH_PAIRS` to discard for a pawn, or BIRTH_STOP."""
        return self.by_policy(view)

    def boat(self, view: SeatView) -> np.ndarray:
        """R7.4: 1 to pay a wood and build the boat, 0 not to."""
        return self.by_policy(view)
