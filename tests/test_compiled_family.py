"""The compiled path plays the built-in strategy families' games: the heuristic family
(`heuristic`, `tuned`, the plans, `fisher`), `restrict(...)`, mixtures and dispatch give the
same results table compiled as through views (docs/design.md, "The two engines"), under
variants, rule options and parameters, at every player count; a user subclass with an
override of its own plays by views."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from moaisim.games.moai.engine.compiled.policy import HEURISTIC, Choice, Policy
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy, parse_lineup
from moaisim.strategies.moai.greedy import GreedyStrategy
from moaisim.strategies.moai.heuristic import HeuristicStrategy
from moaisim.strategies.moai.mixture import DispatchStrategy
from moaisim.strategies.moai.tuned import TunedStrategy

GAMES = 150
#: Rule sets: variants (V1-V5), rule options (R2, R3.1, R6.2), rule parameters.
RULES: dict[str, dict[str, Any]] = {
    "base": {},
    "open-pawns+open-bidding": {"variants": "open-pawns+open-bidding"},
    "short+fixed-disasters": {"variants": "short+fixed-disasters"},
    "open-bidding-strict": {"variants": "open-bidding-strict"},
    "options": {"turn_order": "clockwise", "volcano_after_moai": "camp", "spent_wood": "out"},
    "params": {"params": {"wood_supply": 8, "forest_spaces": 4, "hand_size": 3}},
    "score-and-wood": {"params": {"moai_points": 2, "wood_per_palm": 2}},
}
MIX = "mixture(weights={'greedy': 0.25, 'tuned': 0.25, 'fisher': 0.25, 'raider': 0.25})"


def restrict(inner: str, *names: str) -> str:
    return f"restrict(strategy={inner!r}, forbid={list(names)!r})"


def both(rules: Rules, lineup: list[Any] | str, seed: int = 11, games: int = GAMES,
         compiled: bool = True) -> tuple[Any, Any, Games]:  # fmt: skip
    """The results of the same games through views and compiled, and the compiled games."""
    specs = parse_lineup(lineup, rules.players) if isinstance(lineup, str) else None
    make = (lambda: [s() for s in specs]) if specs else (lambda: lineup_of(lineup))  # noqa: E731
    view = Games.new(rules, seed, np.arange(games)).play(make(), compiled=False).results()
    fast = Games.new(rules, seed, np.arange(games)).play(make())
    asked = [f is None or (isinstance(f, Policy) and f.asks) for f in fast.seats.forms()]
    assert (not any(asked)) is compiled
    return view, fast.results(), fast


def lineup_of(factories: list[Any]) -> list[Any]:
    return [f() for f in factories]


def same(a: Any, b: Any) -> None:
    if not a.equals(b):
        diff = (a != b).any(axis=1)
        raise AssertionError(f"{int(diff.sum())} rows differ, first:\n{a[diff].head(4)}\n"
                             f"{b[diff].head(4)}")  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("name", list(RULES))
def test_tuned_plays_the_same_games_compiled(players: int, name: str) -> None:
    rules = Rules.make(players, **RULES[name])
    view, fast, _ = both(rules, "tuned,heuristic,fisher" if players > 2 else "tuned,fisher")
    same(view, fast)


LINEUPS: list[tuple[str, int, str]] = [
    ("heuristic", 2, "base"),
    ("moai,forester,breeder,raider,bidder", 5, "open-pawns+open-bidding"),
    ("fisher,moai,forester", 3, "short+fixed-disasters"),
    ("bidder,raider,tuned,greedy", 4, "open-bidding-strict"),
    ("fisher,random,breeder,greedy", 4, "options"),
    (
        f"{restrict('tuned', 'boat', 'raid')},{restrict('fisher', 'disasters', 'forest', 'swap')},"
        f"{restrict('random', 'bid', 'birth')},{restrict('greedy', 'disasters', 'boat')}",
        4,
        "base",
    ),
    (
        f"{restrict('heuristic', 'bid', 'birth', 'forest')},{restrict('raider', 'raid', 'swap')},"
        "moai",
        3,
        "open-pawns+open-bidding",
    ),
    (f"{restrict('bidder', 'disasters')},{restrict('fisher', 'boat')}", 2, "params"),
    (f"{MIX},tuned,{MIX},greedy,{MIX}", 5, "base"),
    (f"{restrict(MIX, 'bid', 'birth')},{MIX},heuristic", 3, "short+fixed-disasters"),
    (f"mixture(weights={{{MIX!r}: 0.5, 'forester': 0.5}}),fisher", 2, "options"),
    ("L2,L3,tuned,L2", 4, "base"),
    ("L3,L2", 2, "open-bidding-strict"),
    ("L3,tuned,L2", 3, "params"),
]


@pytest.mark.parametrize(("lineup", "players", "name"), LINEUPS)
def test_the_built_ins_play_the_same_games_compiled(lineup: str, players: int, name: str) -> None:
    same(*both(Rules.make(players, **RULES[name]), lineup)[:2])


def test_a_mixture_compiled_records_what_it_drew_as_by_views() -> None:
    rules = Rules.make(4)
    specs = parse_lineup(f"{MIX},tuned", 4)
    games = np.arange(60)
    view = [s() for s in specs]
    Games.new(rules, 3, games).play(view, compiled=False)
    fast = [s() for s in specs]
    Games.new(rules, 3, games).play(fast)
    for seat in (0, 2):
        assert fast[seat].drawn == view[seat].drawn
        assert fast[seat].drawn == dict(
            zip(games.tolist(), fast[seat].components(3, games, seat), strict=True)
        )


@pytest.mark.parametrize("first_compiled", [False, True])
def test_a_batch_played_part_by_views_part_compiled_plays_the_same_games(
    first_compiled: bool,
) -> None:
    """Rounds 1-2 one way, the rest the other way: a mixture's components draw on from where
    they stopped (its stream's positions and the values its components drew by views)."""
    rules = Rules.make(3, "open-bidding")
    specs = parse_lineup(f"{MIX},{restrict(MIX, 'raid')},tuned", 3)
    whole = Games.new(rules, 5, np.arange(80)).play([s() for s in specs], compiled=False)
    seated = [s() for s in specs]
    parts = Games.new(rules, 5, np.arange(80))
    parts.play(seated, last_round=2, compiled=first_compiled)
    parts.play(seated, compiled=not first_compiled)
    same(whole.results(), parts.results())


def test_dispatch_plays_each_games_component_compiled() -> None:
    rules = Rules.make(4)
    specs = [load_strategy(x) for x in ("tuned", "greedy", restrict("fisher", "boat"), MIX)]
    table = np.arange(GAMES) % len(specs)
    others = [load_strategy(x) for x in ("heuristic", "raider", "random")]
    lineup = [lambda: DispatchStrategy(specs, table), *others]
    view, fast, played = both(rules, lineup)
    same(view, fast)
    forms = played.seats.forms()
    assert forms is not None and isinstance(forms[0], Choice)


class Stubborn(TunedStrategy):
    """A user subclass: tuned, but never builds a boat (R7.4)."""

    name = "stubborn"

    def boat(self, view: SeatView) -> np.ndarray:
        return np.zeros(len(view), dtype=np.int64)


class Patient(GreedyStrategy):
    """A user subclass of greedy: never finishes a statue (R6.2), and asks greedy's own
    choice of a pawn to rest (`super()`, its compiled policy through the view) only to
    take it."""

    name = "patient"

    def finish_moai(self, view: SeatView) -> np.ndarray:
        return np.full(len(view), view.legal.shape[1] - 1, dtype=np.int64)

    def rest(self, view: SeatView) -> np.ndarray:
        return super().rest(view)


def test_a_restricted_mixture_that_aims_disasters_itself_plays_by_views() -> None:
    """restrict(mixture, disasters) draws its targets from the stream where the engine left
    it, its components from where they left it: two positions, played by views."""
    rules = Rules.make(5, "open-pawns+open-bidding+short", volcano_after_moai="camp",
                       spent_wood="out")  # fmt: skip
    lineup = f"{restrict(MIX, 'disasters', 'boat')},raider,random,{restrict(MIX, 'birth')}"
    same(*both(rules, lineup, seed=434439, games=60, compiled=False)[:2])


@pytest.mark.parametrize("cls", [Stubborn, Patient])
def test_a_user_subclass_with_an_override_plays_by_views(cls: type) -> None:
    rules = Rules.make(3)
    lineup = [cls, HeuristicStrategy, TunedStrategy]
    view, fast, played = both(rules, lineup, compiled=False, games=40)
    same(view, fast)
    form = played.seats.forms()[0]  # its policy, but for the kinds it overrides
    assert form.asks and form == cls().partly(rules)
    assert form._replace(asks=0) == cls().own_policy(rules)
    assert cls().compiled(rules) is None
    # so does a restriction or a mixture of it, and an instance with a decision replaced
    assert load_strategy(restrict("tuned", "boat"))().compiled(rules) is not None
    assert load_strategy(restrict(MIX, "boat"))().compiled(rules) is not None
    inst = TunedStrategy()
    inst.work = lambda view: np.zeros(len(view), dtype=np.int64)  # type: ignore[method-assign]
    assert inst.compiled(rules) is None
    policy = TunedStrategy().compiled(rules)
    assert isinstance(policy, Policy) and policy.family == HEURISTIC


def test_views_answered_in_two_threads_at_once_are_the_games_played_alone() -> None:
    """A built-in answers views in working arrays of its thread's own (`compiled.answer`): a
    dask worker with two threads plays two batches at once, and the kernels release the
    GIL."""
    from concurrent.futures import ThreadPoolExecutor

    rules = Rules.make(3)

    def play(seed: int) -> Any:
        seated = [GreedyStrategy(), HeuristicStrategy(), TunedStrategy()]
        return Games.new(rules, seed, np.arange(60)).play(seated, compiled=False).results()

    alone = [play(seed) for seed in (1, 2, 3, 4)]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(play, (1, 2, 3, 4)))
    for a, b in zip(alone, together, strict=True):
        assert a.equals(b)
