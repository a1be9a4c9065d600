"""The meta-game (moaisim.analysis.metagame) at any player count: planted games with known
equilibria, the population game's fitness and its derivative against brute force, random
P-player tables, alpha-Rank across player counts, and a small played meta-game's
identities."""

from __future__ import annotations

import itertools
import tomllib

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from moaisim.analysis import metagame as mg
from moaisim.analysis.metagame import MetaGame, Population
from moaisim.errors import UserError
from moaisim.registry import load_strategy
from moaisim.runner import make_study, run_in_memory
from moaisim.studies.metagame import play as meta_play


def random_table(rng: np.random.Generator, k: int, players: int, games: int = 1) -> MetaGame:
    """A P-player table of independent random payoffs in [0, 1]: no pairwise structure."""
    counts = mg.compositions(k, players)
    per = rng.random((len(counts), games, k))
    per[np.broadcast_to(counts[:, None, :] == 0, per.shape)] = np.nan
    return MetaGame(players, [f"s{i}" for i in range(k)], counts, per)


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
    # A pairwise table (`from_matrix`): strategy i earns the mean of a[i, j] over its
    # co-players, so its fitness is (a x)_i and its Nash mixtures those of the matrix game.
    for a, want in ((RPS, [1 / 3] * 3), (HAWK_DOVE, [2 / 3, 1 / 3]), (DOMINANT, [0, 1, 0])):
        game = MetaGame.from_matrix(a, players)
        x = mg.nash(game)
        assert np.allclose(x, want, atol=1e-4), (a, x)
        assert Population(game).gain(x) < 1e-6


def test_fitness_matches_a_brute_force_draw_of_the_other_seats():
    rng = np.random.default_rng(3)
    k, players = 3, 4
    game = random_table(rng, k, players)
    x = np.array([0.2, 0.5, 0.3])
    want = np.zeros(k)
    for i in range(k):  # every ordered draw of the 3 other seats, its probability
        for draw in itertools.product(range(k), repeat=players - 1):
            c = np.bincount([i, *draw], minlength=k)
            want[i] += np.prod(x[list(draw)]) * game.payoff[game.rows(c), i]
    assert np.allclose(Population(game).fitness(x), want)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_jacobian_is_the_derivative_of_the_fitness(players):
    # Central differences of the fitness polynomial (off the simplex too, as Newton's method
    # evaluates it), against the closed form.
    rng = np.random.default_rng(players)
    pop = Population(random_table(rng, 4, players))
    x, h = np.array([0.4, -0.1, 0.5, 0.2]), 1e-6
    numeric = np.column_stack([(pop.fitness(x + h * e) - pop.fitness(x - h * e)) / (2 * h)
                               for e in np.eye(4)])  # fmt: skip
    assert np.allclose(pop.jacobian(x), numeric, atol=1e-7)


def test_alpha_rank_of_a_pairwise_table_is_the_same_at_every_player_count():
    # In a population with j mutants, a mutant's co-players hold (P - 1)(j - 1)/(N - 1)
    # mutants on average, and a pairwise payoff is linear in them: each type's fitness, so
    # alpha-Rank, is that of the two-player game at every P.
    rng = np.random.default_rng(7)
    for _ in range(3):
        a = rng.random((3, 3))
        for alpha in (0.5, 5.0):
            two = mg.alpha_rank(MetaGame.from_matrix(a), alpha, population_size=20)
            for players in (3, 4):
                many = mg.alpha_rank(MetaGame.from_matrix(a, players), alpha, population_size=20)
                assert np.allclose(many, two, atol=1e-12)


def test_alpha_rank_puts_the_mass_on_a_dominant_strategy_as_alpha_grows():
    sweep = mg.alpha_sweep(MetaGame.from_matrix(DOMINANT, 3), alphas=(0.01, 100.0))
    assert sweep.loc[100.0, "s1"] > 0.999
    assert sweep.loc[0.01].max() < 0.5  # nearly even when selection is weak
    assert np.allclose(sweep.sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="at least the players"):
        mg.alpha_rank(MetaGame.from_matrix(DOMINANT, 4), 1.0, population_size=3)


def test_invasion_table_of_a_planted_game():
    game = MetaGame.from_matrix(RPS, 3)
    table = mg.invasion(game).set_index(["invader", "resident"])
    # one paper among rocks earns a[paper, rock] = 1; one rock among papers earns 0
    assert table.loc[("s1", "s0"), "share"] == 1.0
    assert table.loc[("s0", "s1"), "share"] == 0.0
    assert np.isnan(table.loc[("s0", "s0"), "lo"])  # self-play: no interval
    assert np.array_equal(mg.invasion_matrix(game), RPS)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(2, 4))
@example(22936, 4, 2)  # an interior equilibrium the replicator's average missed (CI, 2026-12-01)
def test_nash_of_random_pairwise_games_has_no_gain(seed, k, players):
    a = np.random.default_rng(seed).random((k, k))
    game = MetaGame.from_matrix(a, players)
    assert Population(game).gain(mg.nash(game)) < 1e-6


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.integers(3, 5))
def test_nash_of_random_tables_has_no_gain(seed, k, players):
    # Payoffs with no pairwise structure: the population game's fitness is a polynomial of
    # degree P - 1, so a support's indifference is solved by Newton's method.
    game = random_table(np.random.default_rng(seed), k, players)
    x = mg.nash(game)
    assert x.shape == (k,) and (x >= 0).all() and x.sum() == pytest.approx(1.0)
    assert Population(game).gain(x) < 1e-6


def test_nash_falls_back_to_the_least_gain_when_no_support_solves(monkeypatch):
    # The last resort (no support's indifference solved): the least gain SLSQP finds, here
    # hawk-dove's interior equilibrium, hawk V / C = 2/3.
    monkeypatch.setattr(mg, "_indifferent", lambda *args: None)
    game = MetaGame.from_matrix(HAWK_DOVE, 3)
    x = mg.nash(game, max_iter=400)
    assert np.allclose(x, [2 / 3, 1 / 3], atol=1e-4)
    assert Population(game).gain(x) < 1e-6


def test_bootstrap_is_reproducible_and_keeps_a_dominant_strategy():
    rng = np.random.default_rng(0)
    planted = MetaGame.from_matrix(DOMINANT, 3)
    per = np.repeat(planted.per_game, 40, axis=1)
    game = MetaGame(3, planted.names, planted.counts, per + rng.normal(0, 0.01, per.shape))
    b1 = mg.bootstrap_nash(game, resamples=10, seed=5)
    b2 = mg.bootstrap_nash(game, resamples=10, seed=5)
    assert np.array_equal(b1, b2)
    assert np.allclose(b1[:, 1], 1.0, atol=1e-6)
    table = mg.mixture_table(game, mg.nash(game), b1)
    assert table.loc[1, "in_support"] == 1.0 and table.loc[0, "in_support"] == 0.0


def test_a_resample_draws_the_same_games_in_every_composition():
    game = random_table(np.random.default_rng(1), 3, 3, games=50)
    game.per_game = np.where(np.isnan(game.per_game), np.nan, np.arange(50.0)[None, :, None])
    sample = game.resample(np.random.default_rng(2))
    drawn = sample.per_game[0, :, 0]
    assert len(set(drawn.tolist())) < 50  # with replacement
    for c, row in enumerate(game.counts):
        played = sample.per_game[c][:, row > 0]
        assert np.array_equal(played, np.repeat(drawn[:, None], played.shape[1], axis=1))


def test_mixture_files_sum_to_one_and_play(tmp_path):
    names = ["greedy", "forester", "restrict(strategy='greedy', forbid=['boat'])"]
    path = mg.write_mixture(tmp_path / "m.toml", names, np.array([1 / 3, 0.0, 2 / 3]), 3,
                            source="test", gain=0.0, game="moai")  # fmt: skip
    data = tomllib.loads(path.read_text())
    assert data["players"] == 3 and data["nash_gain"] == 0.0
    mix = data["mixture"]
    assert set(mix) == {"greedy", "restrict(strategy='greedy', forbid=['boat'])"}
    assert sum(mix.values()) == 1.0
    assert load_strategy(f"mixture(file={path})")().name == "mixture"


def test_a_played_meta_game_shares_each_win_once():
    meta = meta_play(["greedy", "random"], 3, 12, seed=4, game="moai")
    counts = meta.counts
    # the copies' shares of each game add up to the whole win
    total = np.nansum(meta.per_game * counts[:, None, :], axis=2)
    assert np.allclose(total, 1.0)
    # self-play: every copy's mean share is 1/P in each game, by construction
    pure = meta.rows([3, 0])
    assert np.allclose(meta.per_game[pure, :, 0], 1 / 3)
    table = mg.invasion(meta).set_index(["invader", "resident"])
    assert table.loc[("greedy", "random"), "share"] > 0.9  # greedy crushes random
    assert table.loc[("greedy", "random"), "invades"]
    an = mg.analyse(meta, resamples=3, seed=1)
    assert an.gain < 1e-9 and an.mixture[0] == pytest.approx(1.0)  # greedy: pure equilibrium
    assert set(an.tables) == {"mixture", "invasion", "alpha_rank", "nash_averaging"}
    assert "**Nash mixture**: `greedy` 1.000" in mg.markdown(an)


@pytest.mark.parametrize("library, players, games", [
    (["greedy", "random", "forester"], 3, 7),
    (["greedy", "moai", "random"], 4, 9),
    (["greedy", "random"], 5, 6),
])  # fmt: skip
def test_a_meta_game_in_batches_plays_each_compositions_own_games(library, players, games,
                                                                  monkeypatch):  # fmt: skip
    """Every composition's rows of the large batches are the games its own cell plays in a
    study of the runner (a lineup per cell, seats in cyclic rotation): the same per-game
    shares and Moai, batch sizes aside (batches of 4 rows force rotations across batches)."""
    monkeypatch.setattr("moaisim.studies.metagame.BATCH_ROWS", 4)
    meta = meta_play(library, players, games, seed=9, game="moai")
    specs = [load_strategy(s) for s in library]
    lineups = [[specs[i] for i in range(len(specs)) for _ in range(c[i])] for c in meta.counts]
    study = make_study(players, games, {players: lineups}, None, 9, rotation="cyclic", game="moai")
    results, _ = run_in_memory(study)
    for cell, part in results.groupby("cell", observed=True):
        c = int(cell)
        part = part.sort_values(["game", "seat"])
        win = part["win"].to_numpy().reshape(games, players)
        share = win / win.sum(axis=1, keepdims=True)
        who = part["strategy"].to_numpy().reshape(games, players)
        moai = part["moai_count"].to_numpy().reshape(games, players)
        for i, spec in enumerate(specs):
            mask = who == spec.label
            if not mask.any():
                assert np.isnan(meta.per_game[c, :, i]).all()
                continue
            want = (share * mask).sum(axis=1) / mask.sum(axis=1)
            assert meta.per_game[c, :, i].tolist() == want.tolist()
            assert meta.meta["carved"][c, i] == pytest.approx(moai[mask].mean())


def test_bad_libraries_are_refused_in_one_line():
    for library, players, games, match in (
        (["greedy"], 3, 4, "at least two"),
        (["greedy", "greedy"], 3, 4, "twice"),
        (["greedy", "random"], 7, 4, "players"),
        (["greedy", "random"], 3, 0, "games"),
    ):
        with pytest.raises(UserError, match=match):
            meta_play(library, players, games, game="moai")
    game = MetaGame.from_matrix(DOMINANT, 3)
    with pytest.raises(UserError, match="resamples"):
        mg.analyse(game, resamples=-1)
    with pytest.raises(UserError, match="alphas"):
        mg.analyse(game, alphas=[0.0])
