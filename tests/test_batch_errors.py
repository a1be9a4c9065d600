"""Illegal actions in the batch engine (docs/design.md, "Illegal actions and user errors").

A strategy answer outside the legal mask raises `IllegalActionError` naming the strategy, the
decision kind, the game index (in the run, not the row of the batch) and the root seed, in the
batch engine as in the reference engine, whatever games sit beside the bad one.
"""

from __future__ import annotations

import numpy as np
import pytest

import moaisim
from moaisim.errors import IllegalActionError, MoaisimError
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.strategies.moai.random import RandomStrategy

SEED = 2**63 + 12345
TARGET = 1_000_003  # the only game in which the strategies below misbehave


class OverBids(RandomStrategy):
    """R3.3: bids one card more of type 0 than the hand holds, in game TARGET only."""

    name = "over-bids"

    def bid(self, view: SeatView) -> np.ndarray:
        out = super().bid(view)
        bad = view.games == TARGET
        out[bad, 0] = view.legal[bad, 0] + 1
        return out


class BadWork(RandomStrategy):
    """R5: answers a forbidden work action (inside the action space) in game TARGET only."""

    name = "bad-work"

    def work(self, view: SeatView) -> np.ndarray:
        out = super().work(view)
        bad = view.games == TARGET
        out[bad] = np.argmin(view.legal[bad], axis=1)  # the first illegal action
        return out


class OutOfRange(RandomStrategy):
    """R4.1: picks slot len(offer), outside the action space, in game TARGET only."""

    name = "out-of-range"

    def pick_epoch(self, view: SeatView) -> np.ndarray:
        out = super().pick_epoch(view)
        out[view.games == TARGET] = view.legal.shape[1]
        return out


class FloatFeed(RandomStrategy):
    """Answers feed decisions with floats (not an action encoding), in every game."""

    name = "float-feed"

    def feed(self, view: SeatView) -> np.ndarray:
        return super().feed(view).astype(float)


def batch_error(rules: Rules, strategies: list, games: list[int]) -> IllegalActionError:
    names = [type(s).name for s in strategies]
    with pytest.raises(IllegalActionError) as info:
        Games.new(rules, SEED, np.array(games)).play(strategies, names=names)
    return info.value


def reference_error(rules: Rules, strategies: list, game: int) -> IllegalActionError:
    names = [type(s).name for s in strategies]
    with pytest.raises(IllegalActionError) as info:
        ReferenceGame(rules, strategies, seed=SEED, game=game, names=names).play()
    return info.value


@pytest.mark.parametrize(
    ("bad", "kind", "seat"),
    [(OverBids, "bid", 2), (BadWork, "work", 0), (OutOfRange, "pick_epoch", 1)],
)
def test_illegal_action_names_game_index_and_seed(bad, kind, seat):
    """The error names the bad game (not a batch row), the seed, the strategy and the kind,
    and says the same as the reference engine's."""
    rules = Rules.make(3, "base")
    strategies = [RandomStrategy() for _ in range(3)]
    strategies[seat] = bad()
    neighbours = [5, 0, 77, 2**40, 12, 9]
    err = batch_error(rules, strategies, neighbours[:3] + [TARGET] + neighbours[3:])
    assert isinstance(err, MoaisimError)
    assert (err.game, err.seed, err.kind, err.strategy, err.seat) == (
        TARGET,
        SEED,
        kind,
        bad.name,
        seat,
    )
    message = str(err)
    assert f"game {TARGET}" in message and f"seed {SEED}" in message
    assert repr(bad.name) in message and repr(kind) in message
    ref = reference_error(rules, [type(s)() for s in strategies], TARGET)
    assert (ref.game, ref.seed, ref.kind, ref.strategy, ref.seat) == (
        err.game,
        err.seed,
        err.kind,
        err.strategy,
        err.seat,
    )


@pytest.mark.parametrize(("bad", "seat"), [(OverBids, 2), (BadWork, 0), (OutOfRange, 1)])
def test_illegal_action_reported_alike_by_both_engines(bad, seat):
    """Both engines put the same answer and the same message in the error (section 2: the
    engines call strategies through the same views and check them the same way)."""
    rules = Rules.make(3, "base")
    strategies = [RandomStrategy() for _ in range(3)]
    strategies[seat] = bad()
    err = batch_error(rules, strategies, [5, TARGET, 77])
    ref = reference_error(rules, [type(s)() for s in strategies], TARGET)
    assert err.action == ref.action
    assert str(err) == str(ref)


def test_other_games_of_the_batch_play_legally_without_the_bad_one():
    """The strategies above are legal everywhere but in game TARGET: the same batch without
    it plays to the end."""
    rules = Rules.make(3, "base")
    strategies = [OverBids(), OutOfRange(), BadWork()]
    names = [type(s).name for s in strategies]
    g = Games.new(rules, SEED, np.array([5, 0, 77, 2**40])).play(strategies, names=names)
    assert g.state.last_round.all()


def test_non_integer_answer_is_illegal():
    rules = Rules.make(2, "base")
    err = batch_error(rules, [FloatFeed(), RandomStrategy()], [42])
    assert (err.game, err.seed, err.kind, err.seat) == (42, SEED, "feed", 0)


def test_simulate_raises_for_the_bad_game_at_any_batch_size():
    """Through `moaisim.simulate` (strategy classes in the lineup) and any chunking."""
    games = [3, TARGET, 8]
    for size in (1, 2, 10):
        with pytest.raises(IllegalActionError) as info:
            moaisim.simulate(
                4, games, strategies=[RandomStrategy, OverBids, "greedy", "random"],
                seed=SEED, batch_size=size,
            )  # fmt: skip
        assert (info.value.game, info.value.seed, info.value.strategy) == (
            TARGET,
            SEED,
            "over-bids",
        )
