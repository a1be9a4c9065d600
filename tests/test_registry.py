"""Strategy registry: built-in names, module:Class paths, entry points, lineups."""

from __future__ import annotations

import pytest

import moaisim
from moaisim.errors import UnknownStrategyError
from moaisim.registry import available, load_strategy, parse_lineup
from moaisim.strategies.moai.greedy import GreedyStrategy
from moaisim.strategies.moai.random import RandomStrategy


def test_builtins_and_entry_points():
    known = available(game="moai")
    assert known["random"] == "moaisim.strategies.moai.random:RandomStrategy"
    assert known["greedy"] == "moaisim.strategies.moai.greedy:GreedyStrategy"
    assert load_strategy("random").cls is RandomStrategy
    spec = moaisim.load_strategy("greedy")
    assert spec.cls is GreedyStrategy and spec.label == "greedy" and spec.params == ()
    assert isinstance(spec(), GreedyStrategy)


def test_module_class_path_and_user_strategy_plays():
    cls = load_strategy("plugins.cautious:NeverBids")
    rec = moaisim.play(3, 4, strategies=[cls, "random", "greedy"])
    bids = [e for e in rec.events if e["e"] == "bid" and e["seat"] == 0]
    assert bids and all(e["total"] == 0 for e in bids)
    assert rec.result["strategy"].tolist() == ["never-bids", "random", "greedy"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nope", "unknown strategy 'nope'"),
        ("no_such_module:X", "cannot import"),
        ("plugins.cautious:Missing", "has no 'Missing'"),
        ("plugins.cautious:np", "is not a class"),
        ("", "expected a name"),
    ],
)
def test_unknown_strategies_fail_clearly(spec, message):
    with pytest.raises(UnknownStrategyError, match=message):
        load_strategy(spec)


def test_lineups():
    def classes(lineup, players):  # type: ignore[no-untyped-def]
        return [s.cls for s in parse_lineup(lineup, players)]

    assert classes("greedy", 3) == [GreedyStrategy] * 3
    assert classes("greedy,random", 2) == [GreedyStrategy, RandomStrategy]
    # a lineup shorter than the player count repeats to fill the seats
    assert classes("greedy,random", 5) == [GreedyStrategy, RandomStrategy] * 2 + [GreedyStrategy]
    assert classes([RandomStrategy, "greedy"], 4) == [RandomStrategy, GreedyStrategy] * 2
    with pytest.raises(UnknownStrategyError, match="3 strategies given for 2 players"):
        parse_lineup("greedy,random,greedy", 2)
