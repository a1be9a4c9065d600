"""The meta-game's solvers (moaisim.analysis.metagame) on textbook games whose equilibria are
known by hand: two-player matrix games, as the tables `MetaGame.from_matrix` builds;
alpha-Rank also against egttools (an independent implementation), at two players and in a
group game."""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from moaisim.analysis import metagame as mg
from moaisim.analysis.metagame import (
    MetaGame,
    Population,
    alpha_rank,
    alpha_sweep,
    bootstrap_nash,
    invasion_matrix,
    mixture_table,
    nash,
    nash_averaging,
    replicator,
)

# Rock, paper, scissors: win 1, lose -1.
RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])


def table(m: np.ndarray, names: list[str] | None = None) -> MetaGame:
    """The two-player table of the matrix game m."""
    return MetaGame.from_matrix(m, names=names)


def gain(m: np.ndarray, x: np.ndarray) -> float:
    """The exploitability of x in the matrix game m."""
    return Population(table(m)).gain(x)


def averaged(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nash averaging of the matrix game m: (the maximum-entropy Nash, the skills)."""
    df = nash_averaging(table(m))
    return df["nash_weight"].to_numpy(), df["skill"].to_numpy()


# --- the table of a matrix game ----------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((2, 3)),
        np.zeros((0, 0)),
        np.zeros(3),
        np.array([[0.0, np.nan], [1.0, 0.0]]),
        np.array([[0.0, np.inf], [1.0, 0.0]]),
    ],
)
def test_from_matrix_rejects_with_one_line(bad: np.ndarray) -> None:
    with pytest.raises(ValueError) as info:
        MetaGame.from_matrix(bad)
    assert "\n" not in str(info.value)


def test_the_two_player_table_is_the_matrix_game() -> None:
    m = np.array([[1, 2], [3, 4]])
    game = MetaGame.from_matrix(m)
    assert game.per_game.dtype == float and game.players == 2 and game.k == 2
    # one x among one y earns m[x, y]: the invasion matrix of two players is the matrix
    np.testing.assert_array_equal(invasion_matrix(game), m)
    np.testing.assert_array_equal(Population(game).fitness(np.array([0.25, 0.75])),
                                  m @ [0.25, 0.75])  # fmt: skip


def test_tables_are_checked_with_one_line() -> None:
    good = table(RPS)
    nan = good.per_game.copy()
    nan[good.rows([1, 1, 0]), 0, 0] = np.nan  # a payoff missing where rock plays
    absent = good.per_game.copy()
    absent[good.rows([2, 0, 0]), 0, 1] = 0.5  # a payoff for paper, absent
    for counts, per, names in (
        (good.counts, nan, good.names),
        (good.counts, absent, good.names),
        (good.counts[1:], good.per_game[1:], good.names),  # a composition missing
        (good.counts, good.per_game, ["a", "a", "b"]),
        (good.counts, good.per_game, ["a"]),
        (good.counts, good.per_game[:, :, :2], good.names),
    ):
        with pytest.raises(ValueError) as info:
            MetaGame(2, names, counts, per)
        assert "\n" not in str(info.value)
    with pytest.raises(KeyError):
        good.rows([1, 0, 0])  # one strategy is not a two-player composition


# --- the gain (exploitability) -----------------------------------------------------------------


def test_gain_by_hand() -> None:
    # Everyone plays rock: paper earns 1 against it, rock earns 0 -> gain 1.
    assert gain(RPS, np.array([1.0, 0.0, 0.0])) == pytest.approx(1.0)
    # Half rock, half paper: payoffs (-1/2, 1/2, 0); the mixture earns
    # 1/2 (-1/2) + 1/2 (1/2) = 0, paper earns 1/2 -> gain 1/2.
    assert gain(RPS, np.array([0.5, 0.5, 0.0])) == pytest.approx(0.5)
    assert gain(RPS, np.full(3, 1 / 3)) == pytest.approx(0.0, abs=1e-15)
    with pytest.raises(ValueError):
        gain(RPS, np.array([0.5, 0.5]))


# --- nash on planted games -----------------------------------------------------------------


def test_rock_paper_scissors_is_uniform() -> None:
    np.testing.assert_allclose(nash(table(RPS)), np.full(3, 1 / 3), atol=1e-12)


def test_strictly_dominant_strategy_is_pure() -> None:
    # Strategy 1 earns strictly more than 0 and 2 against every opponent (2 > 1 > 0 against 0,
    # 1 > 0 against 1, 1 > 0.5 > 0 against 2): the only equilibrium is pure strategy 1.
    m = np.array([[1.0, 0.0, 0.0], [2.0, 1.0, 1.0], [0.0, 0.0, 0.5]])
    np.testing.assert_allclose(nash(table(m)), [0.0, 1.0, 0.0], atol=1e-12)


def test_hawk_dove_mixes_hawk_at_v_over_c() -> None:
    # V = 2, C = 3: HH (V-C)/2 = -1/2, HD V = 2, DH 0, DD V/2 = 1. Hawk share p makes both
    # indifferent: -p/2 + 2(1-p) = 1 - p  ->  1 = 3p/2  ->  p = 2/3 = V/C.
    m = np.array([[-0.5, 2.0], [0.0, 1.0]])
    np.testing.assert_allclose(nash(table(m)), [2 / 3, 1 / 3], atol=1e-12)
    # It is the evolutionarily stable state: the replicator dynamics go there too.
    np.testing.assert_allclose(replicator(table(m), steps=4000, dt=0.05), [2 / 3, 1 / 3],
                               atol=1e-6)  # fmt: skip


def test_weighted_zero_sum_rps() -> None:
    # Antisymmetric RPS: paper beats rock by a, rock beats scissors by b, scissors beats paper
    # by c: M = [[0, -a, b], [a, 0, -c], [-b, c, 0]]. M x = 0 gives -a xP + b xS = 0 and
    # a xR - c xS = 0, so x ∝ (c, b, a). With a, b, c = 1, 2, 3: x = (3, 2, 1) / 6.
    m = np.array([[0.0, -1.0, 2.0], [1.0, 0.0, -3.0], [-2.0, 3.0, 0.0]])
    np.testing.assert_allclose(nash(table(m)), [1 / 2, 1 / 3, 1 / 6], atol=1e-12)


@pytest.mark.parametrize("a", [2.0, 0.5])
def test_rps_with_a_bigger_rock_win(a: float) -> None:
    # Rock's win over scissors pays a (≠ 1, the other wins and losses are ±1):
    # M = [[0, -1, a], [1, 0, -1], [-1, 1, 0]]. Indifference M x = v 1:
    #   paper row: xR - xS = v,  scissors row: -xR + xP = v  ->  xR = xS + v, xP = xS + 2v;
    #   rock row: -xP + a xS = v  ->  (a - 1) xS = 3v;  sum 3 xS + 3v = 1  ->  xS = 1/(a+2),
    #   xR = 1/3, xP = (2a+1) / (3(a+2)).  a = 2: (1/3, 5/12, 1/4); a = 1/2: (1/3, 4/15, 2/5).
    # (No pure or two-strategy equilibrium: each strategy is beaten by another.)
    m = np.array([[0.0, -1.0, a], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    expected = [1 / 3, (2 * a + 1) / (3 * (a + 2)), 1 / (a + 2)]
    np.testing.assert_allclose(nash(table(m)), expected, atol=1e-12)


@pytest.mark.parametrize(("win", "loss"), [(2.0, 1.0), (1.0, 2.0)])
def test_cyclic_rps_with_unequal_win_and_loss(win: float, loss: float) -> None:
    # Win pays `win`, loss costs `loss`, a tie 0, the same for all three: the game is invariant
    # under the cyclic relabelling R -> P -> S, and its unique equilibrium (no pure or
    # two-strategy one) must be too: uniform. The replicator dynamics spiral in when
    # win > loss and out (towards the boundary) when win < loss: both paths must find it.
    m = np.array([[0.0, -loss, win], [win, 0.0, -loss], [-loss, win, 0.0]])
    np.testing.assert_allclose(nash(table(m)), np.full(3, 1 / 3), atol=1e-12)
    # Off the equilibrium the dynamics really move (so the test covers both regimes).
    start = np.array([0.5, 0.3, 0.2])
    end = replicator(table(m), start, steps=2000, dt=0.05)
    distance = np.abs(end - 1 / 3).sum()
    assert (distance < 0.01) if win > loss else (distance > 0.5)
    assert nash(table(m), max_iter=500) == pytest.approx(np.full(3, 1 / 3), abs=1e-12)


def test_coordination_game_replicator_picks_a_pure_equilibrium() -> None:
    # [[2, 0], [0, 1]]: pure equilibria (1, 0) and (0, 1), and the mixed one at x0 with
    # 2 x0 = 1 - x0 -> x0 = 1/3. From uniform (x0 = 1/2 > 1/3) selection favours strategy 0.
    m = np.array([[2.0, 0.0], [0.0, 1.0]])
    end = replicator(table(m), steps=2000, dt=0.05)
    assert end[0] > 1 - 1e-6
    assert gain(m, end) == pytest.approx(0.0, abs=1e-6)
    assert gain(m, np.array([1 / 3, 2 / 3])) == pytest.approx(0.0, abs=1e-15)
    # nash returns the equilibrium the population reaches, exactly.
    np.testing.assert_array_equal(nash(table(m)), [1.0, 0.0])
    # Started on the other side of the mixed point, the dynamics reach the other one.
    assert replicator(table(m), np.array([0.2, 0.8]), steps=2000, dt=0.05)[1] > 1 - 1e-6


def test_trivial_games() -> None:
    np.testing.assert_array_equal(nash(table(np.array([[3.0]]))), [1.0])
    # Constant payoffs: every mixture is an equilibrium; the uniform one is returned.
    np.testing.assert_allclose(nash(table(np.ones((4, 4)))), np.full(4, 0.25))


def test_identity_game_support_solutions() -> None:
    # Payoff 1 against the same strategy, 0 otherwise: the uniform mixture on any support S is
    # an equilibrium (members earn 1/|S|, outsiders 0), 2^3 - 1 = 7 of them, and the
    # indifference system of each support has no other solution.
    pop = Population(table(np.eye(3)))
    for size in (1, 2, 3):
        for support in itertools.combinations(range(3), size):
            y = mg._indifferent(pop, support, np.array([0.7, 0.2, 0.1]))
            want = np.zeros(3)
            want[list(support)] = 1 / size
            np.testing.assert_allclose(y, want, atol=1e-12)
            assert pop.gain(y) <= 1e-12


# --- replicator --------------------------------------------------------------------------------


def test_replicator_stays_on_the_simplex_and_keeps_faces() -> None:
    path = replicator(table(RPS), np.array([0.6, 0.4, 0.0]), steps=300, dt=0.05,
                      trajectory=True)  # fmt: skip
    assert path.shape == (301, 3)
    np.testing.assert_allclose(path.sum(axis=1), 1.0)
    assert (path >= 0).all()
    # Scissors absent stays absent; paper beats rock, so paper takes over the face.
    assert (path[:, 2] == 0).all()
    assert path[-1, 1] > 0.99
    np.testing.assert_allclose(replicator(table(RPS), steps=100), np.full(3, 1 / 3), atol=1e-12)
    with pytest.raises(ValueError):
        replicator(table(RPS), np.array([-1.0, 1.0, 1.0]))


# --- property: every random game gets an equilibrium ---------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 6).flatmap(
        lambda k: hnp.arrays(np.float64, (k, k), elements=st.floats(-1, 1, width=32))
    )
)
def test_nash_is_an_equilibrium(m: np.ndarray) -> None:
    y = nash(table(m))
    assert y.shape == (m.shape[0],) and (y >= 0).all() and y.sum() == pytest.approx(1.0)
    assert gain(m, y) <= 1e-6


@settings(max_examples=25, deadline=None)
@given(
    st.integers(3, 6).flatmap(
        lambda k: hnp.arrays(np.float64, (k, k), elements=st.integers(-2, 2).map(float))
    )
)
def test_nash_on_degenerate_integer_games(m: np.ndarray) -> None:
    # Ties everywhere (duplicated rows, equal payoffs): degenerate games stress the fallbacks.
    assert gain(m, nash(table(m))) <= 1e-6


# --- alpha-Rank --------------------------------------------------------------------------------


def test_alpha_rank_without_selection_is_uniform() -> None:
    # alpha = 0: every fixation probability is neutral (1/m), the chain is symmetric.
    rng = np.random.default_rng(3)
    np.testing.assert_allclose(alpha_rank(table(rng.normal(size=(4, 4))), 0.0), np.full(4, 0.25))


@pytest.mark.parametrize(("alpha", "m"), [(0.1, 50), (0.02, 10), (1.0, 30)])
def test_alpha_rank_two_strategies_closed_form(alpha: float, m: int) -> None:
    # Strategy 0 earns 1, strategy 1 earns 0 whoever they meet: constant fitness difference
    # d = 1, so rho(0 fixes among 1s) = (1 - e^{-a d}) / (1 - e^{-m a d}) and
    # rho(1 among 0s) = (1 - e^{a d}) / (1 - e^{m a d}); their ratio is e^{a d (m-1)}.
    # With two states, pi0 / pi1 = rho(0 among 1s) / rho(1 among 0s):
    # pi0 = 1 / (1 + e^{-a (m-1)}). (alpha 0.1, m 50: 1 / (1 + e^{-4.9}) = 0.992608...)
    payoff = table(np.array([[1.0, 1.0], [0.0, 0.0]]))
    pi0 = 1.0 / (1.0 + np.exp(-alpha * (m - 1)))
    pi1 = 1.0 / (1.0 + np.exp(alpha * (m - 1)))
    np.testing.assert_allclose(alpha_rank(payoff, alpha, m), [pi0, pi1], rtol=1e-12)
    rho_01 = (1 - np.exp(-alpha)) / (1 - np.exp(-m * alpha))
    np.testing.assert_allclose(np.exp(mg._log_fixation(payoff, alpha, m))[0, 1], rho_01)


def test_alpha_rank_large_alpha_goes_to_the_sink() -> None:
    # Strategy 1 strictly dominates: every mutant 1 fixes, nothing invades 1. The sink
    # strongly connected component is {1}: all the mass goes there as alpha grows.
    m = np.array([[1.0, 0.0, 0.0], [2.0, 1.0, 1.0], [0.0, 0.0, 0.5]])
    assert alpha_rank(table(m), 100.0)[1] == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(alpha_rank(table(m), 1e4), [0.0, 1.0, 0.0], atol=1e-300)
    # RPS plus a strategy 3 that loses to all: the sink component is the RPS cycle; by the
    # cyclic symmetry it gets 1/3 each, strategy 3 nothing.
    m4 = np.zeros((4, 4))
    m4[:3, :3] = RPS
    m4[3, :3], m4[:3, 3] = -1.0, 1.0
    pi = alpha_rank(table(m4), 50.0)
    np.testing.assert_allclose(pi[:3], 1 / 3, atol=1e-12)
    assert pi[3] < 1e-12


@pytest.mark.parametrize("seed", range(4))
def test_alpha_rank_matches_egttools(seed: int) -> None:
    from egttools.analytical import StochDynamics

    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    m = rng.uniform(size=(k, k))
    # Moderate alpha: egttools sets a fixation probability to 0 once its sum exceeds 1e7.
    for alpha, pop in [(0.1, 20), (0.5, 20), (0.1, 50)]:
        dynamics = StochDynamics(k, m, pop)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = dynamics.calculate_stationary_distribution(alpha)
            _, fixation = dynamics.transition_and_fixation_matrix(alpha)
        np.testing.assert_allclose(alpha_rank(table(m), alpha, pop), expected, atol=1e-12)
        # egttools' fixation[resident, invader]; ours [invader, resident].
        off = ~np.eye(k, dtype=bool)
        ours = np.exp(mg._log_fixation(table(m), alpha, pop)).T
        np.testing.assert_allclose(ours[off], fixation[off], rtol=1e-10)


@pytest.mark.parametrize(("seed", "players"), [(0, 3), (1, 3), (2, 4), (3, 5)])
def test_alpha_rank_of_a_group_game_matches_egttools(seed: int, players: int) -> None:
    # A P-player table of random payoffs: egttools' group-game dynamics (co-players drawn
    # from the population by the hypergeometric law) take, for each pair (i, j), the payoff
    # of i at a table of n i's and P - n j's.
    from egttools.analytical import StochDynamics

    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 5))
    counts = mg.compositions(k, players)
    per = rng.random((len(counts), 1, k))
    per[np.broadcast_to(counts[:, None, :] == 0, per.shape)] = np.nan
    game = MetaGame(players, [f"s{i}" for i in range(k)], counts, per)

    def payoff(i: int, j: int):  # egttools: payoffs[i, j](n, group_size) for n i's
        def at(n: int, group_size: int, *args: object) -> float:
            c = np.zeros(k, dtype=np.int64)
            c[i] += n
            c[j] += group_size - n
            return float(game.payoff[game.rows(c), i])

        return at

    table_of = np.array([[payoff(i, j) for j in range(k)] for i in range(k)], dtype=object)
    for alpha, pop in [(0.1, 20), (1.0, 30)]:
        dynamics = StochDynamics(k, table_of, pop, group_size=players)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = dynamics.calculate_stationary_distribution(alpha)
            _, fixation = dynamics.transition_and_fixation_matrix(alpha)
        np.testing.assert_allclose(alpha_rank(game, alpha, pop), expected, atol=1e-12)
        off = ~np.eye(k, dtype=bool)
        ours = np.exp(mg._log_fixation(game, alpha, pop)).T
        np.testing.assert_allclose(ours[off], fixation[off], rtol=1e-10)


def test_alpha_sweep_frame() -> None:
    frame = alpha_sweep(table(RPS, ["rock", "paper", "scissors"]), [0.0, 1.0, 10.0])
    assert list(frame.columns) == ["rock", "paper", "scissors"]
    assert frame.index.name == "alpha" and list(frame.index) == [0.0, 1.0, 10.0]
    np.testing.assert_allclose(frame.to_numpy(), 1 / 3)
    with pytest.raises(ValueError):
        table(RPS, ["a"])
    with pytest.raises(ValueError):
        alpha_rank(table(RPS), -1.0)
    with pytest.raises(ValueError):
        alpha_rank(table(RPS), 1.0, population_size=1)


# --- Nash averaging ------------------------------------------------------------------------------


def test_nash_average_rps_skills_are_zero() -> None:
    p, skill = averaged(RPS)
    np.testing.assert_allclose(p, 1 / 3, atol=1e-9)
    np.testing.assert_allclose(skill, 0.0, atol=1e-12)


def test_nash_average_transitive_game() -> None:
    # 0 beats 1 and 2, 1 beats 2 (A = M - Mᵀ = 2M here): all mass on 0, and the skills are
    # A[:, 0] = (0, -2, -2).
    m = np.array([[0.0, 1.0, 1.0], [-1.0, 0.0, 1.0], [-1.0, -1.0, 0.0]])
    p, skill = averaged(m)
    np.testing.assert_allclose(p, [1.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(skill, [0.0, -2.0, -2.0], atol=1e-12)


def test_nash_average_of_win_rates() -> None:
    # Win rates P with P + Pᵀ = 1: 0 beats 1 75 % of the time and 2 90 %, 1 beats 2 60 %:
    # transitive, all mass on 0; A = P - Pᵀ = 2P - 1, skills (0, -0.5, -0.8).
    wins = np.array([[0.5, 0.75, 0.9], [0.25, 0.5, 0.6], [0.1, 0.4, 0.5]])
    p, skill = averaged(wins)
    np.testing.assert_allclose(p, [1.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(skill, [0.0, -0.5, -0.8], atol=1e-12)


def _weighted_rps_with_loser() -> np.ndarray:
    # The weighted RPS above (equilibrium (1/2, 1/3, 1/6), value 0) plus a strategy 3 that
    # loses 1 to everybody: its skill is -1 against the equilibrium, the others' 0.
    a = np.zeros((4, 4))
    a[:3, :3] = [[0.0, -1.0, 2.0], [1.0, 0.0, -3.0], [-2.0, 3.0, 0.0]]
    a[3, :3], a[:3, 3] = -1.0, 1.0
    return a / 2  # a payoff matrix M with M - Mᵀ = a


def test_nash_average_planted_values() -> None:
    p, skill = averaged(_weighted_rps_with_loser())
    np.testing.assert_allclose(p, [1 / 2, 1 / 3, 1 / 6, 0.0], atol=1e-9)
    np.testing.assert_allclose(skill, [0.0, 0.0, 0.0, -1.0], atol=1e-9)


@pytest.mark.parametrize("copied", [0, 2, 3])
def test_nash_average_is_invariant_to_a_copy(copied: int) -> None:
    # Balduzzi et al.'s key property: adding a copy of a strategy changes nobody's skill, and
    # the copy and its original share the original's mass equally (maximum entropy).
    m = _weighted_rps_with_loser()
    p, skill = averaged(m)
    order = [*range(4), copied]
    p2, skill2 = averaged(m[np.ix_(order, order)])
    np.testing.assert_allclose(skill2, skill[order], atol=1e-7)
    np.testing.assert_allclose(p2[copied], p2[4], atol=1e-7)
    merged = p2[:4].copy()
    merged[copied] += p2[4]
    np.testing.assert_allclose(merged, p, atol=1e-7)


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32 - 1))
def test_nash_average_copy_invariance_property(k: int, seed: int) -> None:
    # Generic games (continuous random payoffs): the equilibrium is unique up to the copies.
    # (In degenerate games whose equilibria form a face the invariance can fail: with
    # A = [[0, -1, 0], [1, 0, 0], [0, 0, 0]] the maximum-entropy equilibrium is (0, 1/2, 1/2),
    # skill of 0 = -1/2; with a copy of 1 it is (0, 1/3, 1/3, 1/3), skill -2/3.)
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(k, k))
    copied = int(rng.integers(k))
    p, skill = averaged(m)
    assert (skill <= 1e-9).all()
    np.testing.assert_allclose(skill[p > 1e-9], 0.0, atol=1e-9)
    order = [*range(k), copied]
    p2, skill2 = averaged(m[np.ix_(order, order)])
    np.testing.assert_allclose(skill2, skill[order], atol=1e-7)
    np.testing.assert_allclose(p2[copied], p2[k], atol=1e-7)


# --- bootstrap ------------------------------------------------------------------------------------


def test_bootstrap_of_hawk_dove() -> None:
    # Game g is hawk-dove with its own V_g ~ U(1.5, 2.5), C = 3. A resample's table is the
    # hawk-dove game of its games' mean V (payoffs are linear in V), whose equilibrium hawk
    # share is V / C (hand formula).
    v = np.random.default_rng(1).uniform(1.5, 2.5, 30)
    per = np.stack([table(np.array([[(x - 3.0) / 2, x], [0.0, x / 2]])).per_game[:, 0] for x in v],
                   axis=1)  # fmt: skip
    game = MetaGame(2, ["hawk", "dove"], table(RPS[:2, :2]).counts, per)
    hawk_vs_dove = game.rows([1, 1])
    rng = np.random.default_rng(7)
    for _ in range(10):
        sample = game.resample(rng)
        mean_v = sample.payoff[hawk_vs_dove, 0]
        assert v.min() <= mean_v <= v.max()
        np.testing.assert_allclose(nash(sample), [mean_v / 3, 1 - mean_v / 3], atol=1e-12)
    mixtures = bootstrap_nash(game, 10, seed=7)  # the same draws as above
    rng = np.random.default_rng(7)
    np.testing.assert_array_equal(mixtures, [nash(game.resample(rng)) for _ in range(10)])
    np.testing.assert_array_equal(mixtures, bootstrap_nash(game, 10, seed=7))
    shown = mixture_table(game, nash(game), mixtures).set_index("strategy")
    assert shown.loc["hawk", "boot_lo"] <= shown.loc["hawk", "boot_mean"]
    assert shown.loc["hawk", "boot_mean"] <= shown.loc["hawk", "boot_hi"] <= 2.5 / 3
    assert shown.loc["hawk", "boot_lo"] >= 1.5 / 3


def test_mixture_table_by_hand() -> None:
    # Bootstrap weights of strategy 0: 0, 0.5, 1 -> mean 0.5; the 2.5 % and 97.5 % quantiles
    # by linear interpolation at positions 0.05 and 1.95: 0.025 and 0.975; in the support
    # (weight above 1e-3) 2 times of 3. Against the mixture (1/2, 1/2) of RPS's rock and
    # paper, rock earns -1/2, paper 1/2, scissors 0; the mixture earns 0.
    boot = np.array([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    shown = mixture_table(table(RPS), np.array([0.5, 0.5, 0.0]), boot)
    np.testing.assert_allclose(shown["fitness"], [-0.5, 0.5, 0.0])
    np.testing.assert_allclose(shown["vs_mixture"], [-0.5, 0.5, 0.0])
    np.testing.assert_allclose(shown["boot_mean"], [0.5, 0.5, 0.0])
    np.testing.assert_allclose(shown["boot_lo"], [0.025, 0.025, 0.0])
    np.testing.assert_allclose(shown["boot_hi"], [0.975, 0.975, 0.0])
    np.testing.assert_allclose(shown["in_support"], [2 / 3, 2 / 3, 0.0])
