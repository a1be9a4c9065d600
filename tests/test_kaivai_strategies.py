"""Kaivai's built-in strategies on the engine floor: greedy, the weighted heuristic, its plans
and `tuned` answer a view compiled (engine/answers.py), so the same games on the machine
through views, on the compiled machine's own seats and on the reference engine; the
heuristic's choices worked by hand on a real decision; its weights read the toolkit's way."""

from __future__ import annotations

import numpy as np
import pytest

from moaisim.errors import UnknownStrategyError
from moaisim.games.kaivai.engine.asked import ReferenceGame
from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.forward import Games, Strategy
from moaisim.games.kaivai.rules.model import Rules
from moaisim.strategies.kaivai.greedy import GreedyStrategy
from moaisim.strategies.kaivai.heuristic import FAMILY, NAMES, HeuristicStrategy, defaults
from moaisim.strategies.kaivai.plans import PLANS
from moaisim.strategies.kaivai.tuned import TunedStrategy

SEED = 53


def viewed(strategy: object) -> object:
    """The strategy asked through views (no compiled form: the machine pauses for it)."""
    strategy.compiled = lambda rules: None  # type: ignore[attr-defined]
    return strategy


@pytest.mark.parametrize("players,options", [(3, {}), (4, {"edition": "second"}),
                                             (4, {"influence_visibility": "hidden"})])  # fmt: skip
def test_the_heuristic_and_its_plans_play_the_same_games_on_every_path(players, options):
    rules = Rules.make(players, **options)
    made = [HeuristicStrategy, PLANS["pirate"], PLANS["builder"], GreedyStrategy][:players]
    lineup = [cls() for cls in made]
    floor = Games.new(rules, SEED, range(4)).play([viewed(cls()) for cls in made]).scores()
    batch = Batch.new(rules, SEED, range(4))
    batch.play(lineup)
    assert np.array_equal(floor, batch.finals()[:, :, 0])
    for i in range(2):
        one = ReferenceGame(rules, lineup, SEED, i)
        one.play()
        assert one.final_scores() == floor[i].tolist()


def first_bid(weights: dict[str, float]) -> tuple[list[int], int]:
    """The options of the game's first decision (a bid, D1) and the heuristic's answer."""
    g = Games.new(Rules.make(3), SEED, [0])
    [pend] = g.pending()
    assert pend.kind is Kind.BID
    view = g.observe(int(pend.seat[0]), kind=pend.kind)
    view.legal, view.info = pend.legal, pend.info
    answer = HeuristicStrategy(weights=weights).bid(view)
    return pend.info["options"][0].tolist(), int(answer[0])


def test_a_bid_is_valued_by_its_reach_and_its_cost():
    # R3.3: bids 1..10 reach 1, 2, 3, 4, 5, 4, 3, 2, 1, 0
    bids, i = first_bid({"bid_reach": 0.0, "bid_cost": 1.0})
    assert bids == list(range(1, 11)) and bids[i] == 1  # the cheapest
    _, i = first_bid({"bid_reach": 1.0, "bid_cost": 0.1})
    assert bids[i] == 5  # reach 5 for 0.5: worth 4.5, above bid 4's 3.6 and bid 6's 3.4
    _, i = first_bid({"bid_reach": 1.0, "bid_cost": -1.0})
    assert bids[i] == 5  # bids 5..10 all worth 10: the first of equal values


def test_weights_are_read_the_toolkits_way_and_plans_differ_from_the_defaults():
    with pytest.raises(UnknownStrategyError, match="nonsense") as info:
        HeuristicStrategy(weights={"nonsense": 1.0})
    assert "\n" not in str(info.value)
    base = HeuristicStrategy().w
    assert base.tolist() == [defaults()[k] for k in NAMES]
    assert HeuristicStrategy(weights={"sink": 4.0}).w[NAMES.index("sink")] == 4.0
    for name, cls in PLANS.items():
        assert cls.__doc__ and cls.name == name
        assert not np.array_equal(cls().w, base), name


def test_tuned_plays_the_weights_tuned_for_its_player_count():
    for players in (3, 4):
        rules = Rules.make(players)
        seat = TunedStrategy()
        seat.start(rules, 0, np.arange(1))
        want = FAMILY.shipped(f"tuned-{players}p.toml")
        assert seat.w.tolist() == [want[k] for k in NAMES]
        floor = Games.new(rules, SEED, range(3)).play([viewed(seat)] + [Strategy()] * (players - 1))
        batch = Batch.new(rules, SEED, range(3))
        batch.play([TunedStrategy()] + ["random"] * (players - 1))
        assert np.array_equal(floor.scores(), batch.finals()[:, :, 0])


def test_stop_or_another_boat_and_an_island_bid_follow_their_weights():
    rules = Rules.make(4)
    stop = HeuristicStrategy(weights={"another": -1.0, "contest": 0.0})
    g = Games.new(rules, SEED, range(6)).play([stop, Strategy(), Strategy(), Strategy()])
    asked: list = []

    class Watch(HeuristicStrategy):
        def by_policy(self, view):
            out = super().by_policy(view)
            asked.extend((view.kind, int(x)) for x in out)
            return out

    Games.new(rules, SEED, range(6)).play(
        [Watch(weights={"another": -1.0, "contest": 0.0}), Strategy(), Strategy(), Strategy()]
    )
    assert g.over().all()
    kinds = {k for k, _ in asked}
    assert Kind.ISLAND_BID in kinds
    assert all(x == 0 for k, x in asked if k in (Kind.ANOTHER_BOAT, Kind.ISLAND_BID))


@pytest.mark.parametrize("forbid", [["piracy", "sell", "sacrifice"], ["celebrate", "bids_low"],
                                    ["bids_mid", "bids_high", "deliver"]])  # fmt: skip
def test_a_restriction_plays_the_same_games_compiled_through_views_and_on_the_reference(forbid):
    # what each forbid name forbids is written twice, in the machine and from a view
    # (strategies/kaivai/restrict.py): the two, and the reference engine, play the same games
    from moaisim.strategies.kaivai.restrict import RestrictStrategy

    rules = Rules.make(4, piracy_pays="victim")
    spec = {"strategy": "tuned", "forbid": forbid}
    lineup = [RestrictStrategy(**spec), TunedStrategy(), RestrictStrategy(**spec),
              PLANS["pirate"]()]  # fmt: skip
    compiled = Games.new(rules, SEED, range(8)).play(lineup)
    views = Games.new(rules, SEED, range(8)).play(
        [viewed(RestrictStrategy(**spec)), TunedStrategy(), RestrictStrategy(**spec),
         PLANS["pirate"]()])  # fmt: skip
    assert np.array_equal(compiled.scores(), views.scores())
    one = ReferenceGame(rules, [RestrictStrategy(**spec), TunedStrategy(), RestrictStrategy(**spec),
                                PLANS["pirate"]()], SEED, 0)  # fmt: skip
    one.play()
    assert one.final_scores() == compiled.scores()[0].tolist()
    free = Games.new(rules, SEED, range(8)).play([TunedStrategy(), TunedStrategy(),
                                                  TunedStrategy(), PLANS["pirate"]()])  # fmt: skip
    assert not np.array_equal(free.scores(), compiled.scores())  # the names change the play
    taken = {e["kind"]: e["choice"] for e in one.events if e["e"] == "decision" and e["seat"] == 0}
    if "bids_low" in forbid:
        bids = [e["choice"] for e in one.events if e["e"] == "decision" and e["kind"] == "bid"
                and e["seat"] in (0, 2)]  # fmt: skip
        assert bids and min(bids) >= 4
    assert taken  # seat 0 decided
