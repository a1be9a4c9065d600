"""The meta-game (moaisim.analysis.metagame): planted games with known equilibria, the
population game's fitness against a brute-force enumeration, alpha-Rank against the
two-player implementation, and a small played meta-game's identities."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from moaisim.analysis import equilibria
from moaisim.analysis import metagame as mg
from moaisim.errors import UserError
from moaisim.studies.metagame import play as meta_play


def planted(a: np.ndarray, players: int, games: int = 1) -> mg.MetaGame:
    """A meta-game whose payoffs are pairwise: strategy i at a table earns the mean of
    a[i, j] over its P - 1 co-players j. Its population game's fitness is (a x)_i, so its
    symmetric Nash mixtures are those of the matrix game a."""
    k = len(a)
    counts = mg.compositions(k, players)
    per = np.full((len(counts), games, k), np.nan)
    for c, row in enumerate(counts):
        for i in range(k):
            if row[i]:
                others = row.copy()
                others[i] -= 1
                per[c, :, i] = others @ a[i] / (players - 1)
    return mg.MetaGame(players, [f"s{i}" for i in range(k)], counts, per)


def test_compositions_are_every_multiset():
    # C(k + P - 1, P) multisets: 3 strategies at 4 players -> C(6, 4) = 15
    c = mg.compositions(3, 4)
    assert c.shape == (15, 3) and (c.sum(axis=1) == 4).all()
    assert len({tuple(r) for r in c.tolist()}) == 15


RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
# hawk-dove with V = 2, C = 3: H-H (V - C)/2 = -0.5, H-D V = 2, D-H 0, D-D V/2 = 1; the
# mixed equilibrium plays hawk with probability V / C = 2/3
HAWK_DOVE = np.array([[-0.5, 2.0], [0.0, 1.0]])
# strategy 1 strictly dominates: the pure equilibrium (0, 1, 0)
DOMINANT = np.array([[0.3, 0.1, 0.4], [0.6, 0.5, 0.7], [0.2, 0.1, 0.3]])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_planted_games_give_their_known_equilibria(players):
    for a, want in ((RPS, [1 / 3] * 3), (HAWK_DOVE, [2 / 3, 1 / 3]), (DOMINANT, [0, 1, 0])):
        meta = planted(a, players)
        pop = mg.population(meta)
        x = mg.nash(pop)
        assert np.allclose(x, want, atol=1e-4), (a, x)
        assert pop.gain(x) < 1e-6


def test_fitness_matches_a_brute_force_draw_of_the_other_seats():
    rng = np.random.default_rng(3)
    k, players = 3, 4
    counts = mg.compositions(k, players)
    per = rng.random((len(counts), 1, k))
    per[counts[:, None, :].repeat(1, axis=1) == 0] = np.nan
    meta = mg.MetaGame(players, ["a", "b", "c"], counts, per)
    x = np.array([0.2, 0.5, 0.3])
    want = np.zeros(k)
    for i in range(k):  # every ordered draw of the 3 other seats, its probability
        for draw in itertools.product(range(k), repeat=players - 1):
            c = np.bincount([i, *draw], minlength=k)
            want[i] += np.prod(x[list(draw)]) * meta.payoff[meta.index(c), i]
    assert np.allclose(mg.population(meta).fitness(x), want)


def test_alpha_rank_at_two_players_agrees_with_the_matrix_implementation():
    rng = np.random.default_rng(7)
    for _ in range(5):
        a = rng.random((3, 3))
        meta = planted(a, 2)
        for alpha in (0.5, 5.0):
            mine = mg.alpha_rank(meta, alpha, population_size=20)
            other = equilibria.alpha_rank(a, alpha, population_size=20)
            assert np.allclose(mine, other, atol=1e-8)


def test_alpha_rank_puts_the_mass_on_a_dominant_strategy_as_alpha_grows():
    sweep = mg.alpha_sweep(planted(DOMINANT, 3), alphas=(0.01, 100.0))
    assert sweep.loc[100.0, "s1"] > 0.999
    assert sweep.loc[0.01].max() < 0.5  # nearly even when selection is weak
    assert np.allclose(sweep.sum(axis=1), 1.0)


def test_invasion_table_of_a_planted_game():
    meta = planted(RPS, 3)
    table = mg.invasion(meta).set_index(["invader", "resident"])
    # one paper among rocks earns a[paper, rock] = 1; one rock among papers earns 0
    assert table.loc[("s1", "s0"), "share"] == 1.0
    assert table.loc[("s0", "s1"), "share"] == 0.0
    assert np.isnan(table.loc[("s0", "s0"), "lo"])  # self-play: no interval


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(2, 4))
@example(22936, 4, 2)  # an interior equilibrium the replicator's average missed (CI, 2026-12-01)
def test_nash_of_random_pairwise_games_has_no_gain(seed, k, players):
    a = np.random.default_rng(seed).random((k, k))
    pop = mg.population(planted(a, players))
    assert pop.gain(mg.nash(pop, starts=2, steps=800)) < 1e-6


def test_bootstrap_is_reproducible_and_keeps_a_dominant_strategy():
    rng = np.random.default_rng(0)
    meta = planted(DOMINANT, 3, games=40)
    meta.per_game = meta.per_game + rng.normal(0, 0.01, meta.per_game.shape)
    b1 = mg.bootstrap_nash(meta, resamples=10, seed=5)
    b2 = mg.bootstrap_nash(meta, resamples=10, seed=5)
    assert np.array_equal(b1, b2)
    assert np.allclose(b1[:, 1], 1.0, atol=1e-6)
    table = mg.mixture_table(meta, mg.nash(mg.population(meta)), b1)
    assert table.loc[1, "in_support"] == 1.0 and table.loc[0, "in_support"] == 0.0


def test_mixture_files_round_trip_and_sum_to_one(tmp_path):
    names = ["greedy", "forester", "restrict(strategy='greedy', forbid=['boat'])"]
    path = mg.write_mixture(tmp_path / "m.toml", names, np.array([1 / 3, 0.0, 2 / 3]), 3,
                            source="test")  # fmt: skip
    mix = mg.read_mixture(path)
    assert set(mix) == {"greedy", "restrict(strategy='greedy', forbid=['boat'])"}
    assert sum(mix.values()) == 1.0
    (tmp_path / "bad.toml").write_text("players = 3\n")
    with pytest.raises(UserError, match="no \\[mixture\\] table"):
        mg.read_mixture(tmp_path / "bad.toml")


def test_a_played_meta_game_shares_each_win_once():
    meta = meta_play(["greedy", "random"], 3, 12, seed=4)
    counts = meta.counts
    # the copies' shares of each game add up to the whole win
    total = np.nansum(meta.per_game * counts[:, None, :], axis=2)
    assert np.allclose(total, 1.0)
    # self-play: every copy's mean share is 1/P in each game, by construction
    pure = meta.index([3, 0])
    assert np.allclose(meta.per_game[pure, :, 0], 1 / 3)
    table = mg.invasion(meta).set_index(["invader", "resident"])
    assert table.loc[("greedy", "random"), "share"] > 0.9  # greedy crushes random
    assert table.loc[("greedy", "random"), "invades"]


def test_bad_libraries_are_refused_in_one_line():
    for library, players, games, match in (
        (["greedy"], 3, 4, "at least two"),
        (["greedy", "greedy"], 3, 4, "twice"),
        (["greedy", "random"], 7, 4, "players"),
        (["greedy", "random"], 3, 0, "games"),
    ):
        with pytest.raises(UserError, match=match):
            meta_play(library, players, games)
