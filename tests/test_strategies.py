"""The built-in strategies: fair tie-breaks, plans that play their plan, legal play everywhere,
the same games alone as in a batch, and the strength ladder (issue: "A strategy library worth
measuring against").

Rates are measured on fixed seeds with margins: a plan's lead is checked with a 95 %
interval of the per-game difference (it must exclude 0), the seat symmetry with a chi-square
test (p > 0.001). Heavier measurements (the full ladder and win-share tables) are in
benchmarks/ladder.py.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import moaisim
from moaisim.errors import UnknownStrategyError
from moaisim.games import load_game
from moaisim.games.moai.engine.compiled.ties import pick_best
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.rules import Rules
from moaisim.registry import describe, load_strategy
from moaisim.strategies.moai import heuristic as h
from moaisim.studies.tune import rotated, strength

PLANS = ("moai", "fisher", "forester", "breeder", "raider", "bidder")
#: what each plan must do most of, as a result column
PLAN_COLUMN = {
    "moai": "moai_height",
    "fisher": "boats_built",
    "forester": "wood",
    "breeder": "births",
    "raider": "raids_made",
    "bidder": "birdman_rounds",
}
EVERY = ("random", "greedy", "heuristic", *PLANS, "tuned")
VARIANTS = ("base", "open-pawns", "open-bidding", "short", "open-bidding-strict", "fixed-disasters")


def batch(players: int, lineup, games, seed: int = 0, rules: Rules | None = None) -> Games:
    """Play games on the batch engine, strategies by seat (a short lineup repeats)."""
    rules = rules or Rules.make(players)
    specs = [load_strategy(lineup[k % len(lineup)]) for k in range(players)]
    names = [s.label for s in specs]
    return Games.new(rules, seed, np.asarray(games)).play([s() for s in specs], names=names)


# --- 1. fair tie-breaks -----------------------------------------------------------------------


def test_pick_best_breaks_exact_ties_uniformly_and_never_takes_a_worse_action():
    n = 30_000
    scores = np.tile(np.array([5.0, 7.0, 1.0, 7.0, 7.0, 7.0 - 1e-6]), (n, 1))
    legal = np.ones_like(scores, dtype=bool)
    legal[:, 4] = False  # a tied but illegal action is never taken
    u = np.random.default_rng(1).random(n)  # the tests' own numbers, not a seat stream
    got = pick_best(scores, legal, u)
    counts = np.bincount(got, minlength=6)
    assert counts[[0, 2, 4, 5]].sum() == 0  # worse, illegal and nearly-as-good: never
    assert stats.chisquare(counts[[1, 3]]).pvalue > 0.001  # the two tied ones: 1/2 each
    # a tie is not settled by the action index: the lowest tied index is no more frequent
    assert abs(counts[1] / n - 0.5) < 0.02


def _pick_by_definition(scores: list[float], legal: list[bool], u: float) -> int:
    """docs/design.md's tie-break, from its words: among legal actions, those within
    TIE x max(1, |best|) of the best score are tied; the floor(u x k)-th of the k tied ones
    (in action order) is taken; no legal action: 0."""
    import math

    from moaisim.games.moai.engine.compiled.ties import TIE

    legal_at = [a for a, ok in enumerate(legal) if ok]
    if not legal_at:
        return 0
    numbers = [scores[a] for a in legal_at if not math.isnan(scores[a])]
    best = max(numbers) if numbers else -math.inf
    if best == -math.inf:
        best = scores[legal_at[0]]
    tol = TIE * max(1.0, abs(best))
    tied = [a for a in legal_at if scores[a] >= best - tol]
    if not tied:
        return legal_at[0]
    return tied[min(int(u * len(tied)), len(tied) - 1)]


_SCORE = st.one_of(
    st.sampled_from([0.0, 1.0, 7.0, -3.0, 1e12, -np.inf, 7.0 + 1e-12, 7.0 - 1e-12, 1e12 + 1.0]),
    st.floats(-50, 50, allow_nan=False),
)


@settings(max_examples=400, deadline=None)
@given(row=st.lists(st.tuples(_SCORE, st.booleans()), max_size=40),
       u=st.floats(0, 1, exclude_max=True))  # fmt: skip
def test_pick_row_one_pass_takes_the_action_the_tie_rule_defines(row, u):
    from moaisim.games.moai.engine.compiled.ties import pick_row

    scores = [s for s, _ in row]
    legal = [ok for _, ok in row]
    got = pick_row(np.array(scores, dtype=np.float64), np.array(legal, dtype=bool), u)
    assert got == _pick_by_definition(scores, legal, u)


@settings(max_examples=400, deadline=None)
@given(row=st.lists(st.tuples(_SCORE, st.booleans(), st.booleans()), max_size=40),
       u=st.floats(0, 1, exclude_max=True))  # fmt: skip
def test_pick_listed_takes_the_action_the_tie_rule_defines(row, u):
    """`pick_listed` reads candidates from a list (every legal action, plus some illegal
    ones a restriction struck out) and picks what the tie rule picks over the whole mask."""
    from moaisim.games.moai.engine.compiled.ties import pick_listed

    scores = [s for s, _, _ in row]
    legal = [ok for _, ok, _ in row]
    acts = [a for a, (_, ok, extra) in enumerate(row) if ok or extra]
    got = pick_listed(np.array(scores, dtype=np.float64), np.array(legal, dtype=bool),
                      np.array(acts + [0] * 3, dtype=np.int64), len(acts), u)  # fmt: skip
    assert got == _pick_by_definition(scores, legal, u)


def _cheapest_bid_by_definition(hand, need, cost, keep, short, u):
    """R3.3 as `heuristic.bid_row` defines it, by brute force: every sub-multiset of the
    hand (type 0 the fastest digit) that reaches `need`, its cost, the cheapest within 1e-9
    of the first cheapest found, the floor(u x k)-th of those k."""
    import itertools

    from moaisim.games.moai.rules.codes import card_value

    size = sum(hand)
    found = []
    for combo in itertools.product(*[range(k + 1) for k in reversed(hand)]):
        cur = list(reversed(combo))
        total = sum(n * card_value(t) for t, n in enumerate(cur))
        if need <= 0 or total < need:
            continue
        c = 0.0
        for t, n in enumerate(cur):
            c += n * cost[t]
        c += short * max(0.0, keep - (size - sum(cur)))
        c += 1e-6 * total
        found.append((c, cur))
    if not found:
        return [0] * len(hand)
    top = np.inf
    count = 0
    for c, _ in found:  # the running top, as the tie groups form
        if c < top - 1e-9:
            top, count = c, 1
        elif c <= top + 1e-9:
            count += 1
    tied = [cur for c, cur in found if c <= top + 1e-9]
    return tied[min(int(u * count), count - 1)]


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.integers(0, 4), min_size=6, max_size=6),
       need=st.integers(0, 14),
       cost=st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.0 + 1e-10, 2.0, -0.7]), min_size=6,
                     max_size=6),
       keep=st.integers(0, 6), short=st.sampled_from([0.0, 0.3, 1.0]),
       u=st.floats(0, 1, exclude_max=True))  # fmt: skip
def test_bid_row_bids_the_cheapest_sub_multiset_the_rule_defines(hand, need, cost, keep,
                                                                  short, u):  # fmt: skip
    """R3.3: the heuristic's bid (one pass, the pick's second pass only when needed) is
    the brute-force cheapest bid, ties included."""
    from moaisim.games.moai.engine.compiled.heuristic import bid_row

    out = np.zeros((1, 6), dtype=np.int64)
    bid_row(0, np.array([hand], dtype=np.int64), need, np.array(cost), float(keep), short, u,
            np.zeros(6, dtype=np.int64), out)  # fmt: skip
    assert out[0].tolist() == _cheapest_bid_by_definition(hand, need, cost, keep, short, u)


def _chi2_seats(table: pd.DataFrame, column: str, players: int) -> float:
    """p-value of a Wald chi-square test that seats 1..P-1 have the same mean of `column`
    (games are the units: the per-game differences between seats, with their covariance)."""
    m = table.pivot(index="game", columns="seat", values=column).to_numpy(float)[:, 1:]
    d = m[:, :-1] - m[:, 1:]
    mean = d.mean(axis=0)
    cov = np.atleast_2d(np.cov(d, rowvar=False))
    stat = len(d) * mean @ np.linalg.solve(cov, mean)
    return float(stats.chi2.sf(stat, players - 2))


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_greedy_self_play_treats_seats_1_to_p_minus_1_alike(players):
    """Under the rules, seats 1..P-1 are exchangeable when every seat plays the same
    symmetric strategy (seat 0 alone starts as bird-man): their win shares, disasters
    suffered and raids suffered do not differ (20 000 games, p > 0.001)."""
    df = moaisim.simulate(players, 20_000, strategies="greedy", seed=2024)
    df["share"] = df["win"] / df.groupby("game")["win"].transform("sum")
    for column in ("share", "disasters_suffered", "raids_suffered"):
        p = _chi2_seats(df, column, players)
        assert p > 0.001, (column, p, df.groupby("seat")[column].mean().round(3).tolist())


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [("heuristic", 4), ("tuned", 3)])
def test_the_heuristic_family_treats_seats_1_to_p_minus_1_alike(name, players):
    """The same for the weighted strategies (5 000 games)."""
    df = moaisim.simulate(players, 5000, strategies=name, seed=2024)
    df["share"] = df["win"] / df.groupby("game")["win"].transform("sum")
    for column in ("share", "disasters_suffered", "raids_suffered"):
        assert _chi2_seats(df, column, players) > 0.001, column


def test_greedy_still_feeds_first_and_plays_to_score():
    """The tie-break changed greedy's games, not its character (previous behaviour, in
    spirit): it starves little, keeps living pawns, carves Moai and beats random."""
    df = moaisim.simulate(4, 1000, strategies="greedy", seed=5)
    assert df["starved"].mean() < 4 and df["pawns"].mean() > 9
    assert df["moai_height"].mean() > 12 and df["births"].mean() > 5
    mixed = strength(4, "greedy", "random", 100, seed=5, game="moai")
    assert mixed.low > 0.9


# --- 2. plans play their plan -----------------------------------------------------------------


@pytest.fixture(scope="module")
def against_greedy() -> dict[str, pd.DataFrame]:
    """Each plan in one seat against greedy opponents, seats rotated (4 x 100 4-player
    games), with every seat's results."""
    return {plan: rotated(4, plan, "greedy", 100, seed=31, game="moai") for plan in PLANS}


def _lead(df: pd.DataFrame, column: str) -> tuple[float, float, float]:
    """The plan's value of `column` minus the mean of the greedy seats of the same game:
    mean and 95 % interval over the games."""
    key = ["rotation", "game"]
    mine = df[df.seat == df.rotation].set_index(key)[column]
    others = df[df.seat != df.rotation].groupby(key)[column].mean()
    d = (mine - others.loc[mine.index]).to_numpy(float)
    half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return float(d.mean()), float(d.mean() - half), float(d.mean() + half)


@pytest.mark.slow
@pytest.mark.parametrize("plan", PLANS)
def test_each_plan_does_its_thing_more_than_greedy(plan, against_greedy):
    column = PLAN_COLUMN[plan]
    mean, low, high = _lead(against_greedy[plan], column)
    assert low > 0, f"{plan}: {column} lead over greedy {mean:.2f} [{low:.2f}, {high:.2f}]"


@pytest.mark.slow
@pytest.mark.parametrize("plan", PLANS)
def test_each_plan_does_its_thing_more_than_every_other_plan(plan, against_greedy):
    """Against the same greedy opponents, the plan's column is the highest of all plans,
    by a margin: its interval (mean lead over greedy) lies above every other plan's."""
    column = PLAN_COLUMN[plan]
    _, low, _ = _lead(against_greedy[plan], column)
    for other in PLANS:
        if other != plan:
            _, _, high = _lead(against_greedy[other], column)
            assert low > high, f"{plan} vs {other} on {column}"


# --- 3. the ladder (the full one: benchmarks/ladder.py) ------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_ladder_random_greedy_tuned_on_unseen_seeds(players):
    """Win share against greedy opponents, seats rotated, on a root seed no tuning run used:
    random < greedy < tuned, the Wilson intervals apart."""
    games = 300
    ladder = [
        strength(players, s, "greedy", games, seed=777_001, game="moai")
        for s in ("random", "greedy")
    ]
    ladder.append(strength(players, "tuned", "greedy", games, seed=777_001, game="moai"))
    for weaker, stronger in zip(ladder, ladder[1:], strict=False):
        assert weaker.high < stronger.low, ladder


# --- 4. legal play everywhere, the same games alone as in a batch ------------------------------

options = st.fixed_dictionaries(
    {
        "turn_order": st.sampled_from(["hill", "clockwise"]),
        "volcano_after_moai": st.sampled_from(["stay", "camp"]),
        "spent_wood": st.sampled_from(["supply", "out"]),
    }
)


def _check_finished(df: pd.DataFrame, players: int, games: int) -> None:
    """Every game ended with one row per seat, ranks 1..P with at least one winner, and a
    score equal to its parts (R8.2)."""
    assert len(df) == players * games and df.groupby("game").size().eq(players).all()
    assert df["rank"].between(1, players).all() and df.groupby("game")["win"].any().all()
    assert (df["score"] == df["moai_height"] + df["pawns"] + 2 * df["wood"]).all()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    variants=st.sets(st.sampled_from(VARIANTS[1:]), max_size=3),
    opts=options,
    lineup=st.lists(st.sampled_from(EVERY), min_size=5, max_size=5),
    seed=st.integers(0, 2**32),
)
def test_no_strategy_ever_plays_an_illegal_action(players, variants, opts, lineup, seed):
    """Any lineup of built-ins, any rules: the engine checks every answer against the legal
    masks and would raise IllegalActionError."""
    if {"open-bidding", "open-bidding-strict"} <= variants:
        variants = variants - {"open-bidding"}
    rules = Rules.make(players, "+".join(sorted(variants)) or "base", **opts)
    g = batch(players, lineup[:players], range(12), seed, rules)
    _check_finished(g.results(), players, 12)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_strategy_plays_every_variant_and_option(variant):
    """Each built-in under each variant: at 2 players with the default options, at 5 players
    with the other value of every option."""
    other = {"turn_order": "clockwise", "volcano_after_moai": "camp", "spent_wood": "out"}
    for players, opts in ((2, {}), (5, other)):
        rules = Rules.make(players, variant, **opts)
        for shift in range(0, len(EVERY), players):
            lineup = [EVERY[(shift + k) % len(EVERY)] for k in range(players)]
            _check_finished(batch(players, lineup, range(6), 11, rules).results(), players, 6)


@pytest.mark.parametrize("name", EVERY)
def test_a_strategy_plays_the_same_games_alone_as_in_a_batch(name):
    """The reference engine (a batch of one) and the batch engine at two batch sizes give the
    same results, game by game, for each built-in (with others beside it)."""
    games = [0, 3, 4]
    kw = dict(strategies=[name, "greedy", name], seed=9, variants="short")
    ref = moaisim.simulate(3, games, engine="reference", **kw)
    for size in (1, 100):
        pd.testing.assert_frame_equal(moaisim.simulate(3, games, batch_size=size, **kw), ref)


# --- 5. the registry, the weights files ---------------------------------------------------------


def test_every_strategy_is_listed_with_a_one_line_plan_and_its_parameters():
    listed = {name: (plan, params) for name, plan, params in describe(game="moai")}
    for name in EVERY:
        assert name in load_game("moai").STRATEGIES and name in listed
        plan, params = listed[name]
        assert plan and "cannot be loaded" not in plan and len(plan) < 120
    assert "weights=<table or TOML file>" in listed["heuristic"][1]
    assert "moai_height=7" in listed["greedy"][1]


def test_the_default_weights_file_documents_every_weight_the_module_names():
    text = h.weights_path("heuristic.toml").read_text()
    doc = tomllib.loads(text)["weights"]
    assert list(doc) == list(h.NAMES)
    for name in h.NAMES:
        assert f"[{name}]" in h.__doc__, name


@pytest.mark.parametrize("plan", PLANS)
def test_plans_are_points_of_the_heuristic_weight_space(plan):
    cls = load_strategy(plan).cls
    assert issubclass(cls, h.HeuristicStrategy) and cls.preset == f"{plan}.toml"
    folder = Path(__file__).parents[1] / "strategies" / "moai" / "weights"
    own = tomllib.loads((folder / f"{plan}.toml").read_text())["weights"]
    base = tomllib.loads((folder / "heuristic.toml").read_text())["weights"]
    assert own and set(own) <= set(base)
    # the plan's instance plays heuristic's defaults with the plan's file on top
    w = cls().w
    for name, value in base.items():
        assert w[h.INDEX[name]] == own.get(name, value), name


def test_heuristic_takes_a_weights_file_and_checks_it(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text("[weights]\nwood = 9.5\nbid_base = 3\n")
    s = load_strategy(f"heuristic(weights={path})")()
    assert s.w[h.INDEX["wood"]] == 9.5 and s.w[h.INDEX["bid_base"]] == 3.0
    assert s.w[h.INDEX["starve"]] == h.defaults()["starve"]
    path.write_text("wod = 1\n")
    with pytest.raises(UnknownStrategyError, match="unknown weight 'wod'"):
        load_strategy(f"heuristic(weights={path})")
    with pytest.raises(UnknownStrategyError, match="weight wood must be a number"):
        load_strategy("heuristic", weights={"wood": "lots"})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_tuned_plays_the_file_of_its_player_count(players):
    path = Path(__file__).parents[1] / "strategies" / "moai" / "weights" / f"tuned-{players}p.toml"
    doc = tomllib.loads(path.read_text())
    assert doc["tuned"]["command"].startswith("moaisim tune ")
    assert doc["tuned"]["players"] == players
    assert re.search(rf"(--players|-p) {players}( |$)", doc["tuned"]["command"])
    s = load_strategy("tuned")()
    s.start(Rules.make(players), 0, np.arange(1))
    assert set(doc["weights"]) == set(h.NAMES)
    for name, value in doc["weights"].items():
        assert s.w[h.INDEX[name]] == value, name


def test_tuned_falls_back_to_the_nearest_file(tmp_path):
    """A player count without a tuned file plays the nearest count's, the larger on a tie."""
    import shutil

    from moaisim.weight_files import Family

    for name in ("heuristic.toml", "tuned-3p.toml", "tuned-5p.toml"):  # no 2p, no 4p file
        shutil.copy(h.weights_path(name), tmp_path / name)
    family = Family(h.WEIGHTS, tmp_path, "a folder of two tuned files", range(2, 6))
    # 2 players: 3 is nearest; 4 players: 3 and 5 are as near, the larger wins
    assert [family.tuned_file(p) for p in (2, 3, 4, 5)] == [
        "tuned-3p.toml",
        "tuned-3p.toml",
        "tuned-5p.toml",
        "tuned-5p.toml",
    ]
