"""`moaisim tune-search` (moaisim/studies/search_knobs.py): TPE over search's knobs finds a
planted optimum, never chooses a trial over the CPU budget, resumes into the very trials of
an uninterrupted run, verifies on paired games; the `lead` knob's rollout values."""

from __future__ import annotations

import math
import tomllib

import numpy as np
import pandas as pd
import pytest

from moaisim.cli import main
from moaisim.engine.search import rollout_values
from moaisim.errors import UserError
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy
from moaisim.studies import search_knobs as sk


def planted_value(knobs: dict) -> float:
    """A known objective: best at horizon 2, 13 candidates, lead 6, temperature 0.02."""
    return (
        0.3
        - (0.0 if knobs["horizon"] == 2 else 0.1)
        - 0.02 * (knobs["candidates"] - 13) ** 2
        - 0.1 * math.log(knobs["lead"] / 6) ** 2
        - 0.05 * math.log(knobs["temperature"] / 0.02) ** 2
    )


@pytest.fixture
def planted(monkeypatch):
    """measure() replaced by the planted objective (no games); records the knobs asked."""
    asked: list[dict] = []

    def measure(knobs, number, worlds, players, games, seed, n_jobs, game="moai"):
        asked.append(dict(knobs))
        t = sk.Trial(number, dict(knobs))
        for p in players:
            t.gains[p] = planted_value(knobs)
            t.intervals[p] = (t.gains[p] - 0.05, t.gains[p] + 0.05)
            t.games[p] = games * p
            t.seconds[p] = 0.1
        return t

    monkeypatch.setattr(sk, "measure", measure)
    return asked


def test_tpe_finds_a_planted_optimum_and_trial_0_is_the_shipped_defaults(planted, tmp_path):
    got = sk.tune_search([3], tmp_path, trials=40, games=1, verify_games=0, seed=3, game="moai")
    assert planted[0] == sk.defaults(game="moai")  # trial 0: today's knobs, on the same games
    assert got.trials[0].value == pytest.approx(planted_value(sk.defaults(game="moai")))
    best = got.best.knobs
    assert best["horizon"] == 2 and abs(best["candidates"] - 13) <= 2
    assert got.best.value > 0.2 > planted_value(sk.defaults(game="moai")) + 0.5
    written = tomllib.loads((tmp_path / "search-knobs.toml").read_text())["search"]
    # not verified (--verify-games 0): the file recommends the defaults, never the luckiest
    assert {k: written[k] for k in sk.KNOBS} == sk.defaults(game="moai")
    assert len((tmp_path / "trials.csv").read_text().splitlines()) == 41
    # the knobs file and the trials name the game they were tuned in
    assert tomllib.loads((tmp_path / "search-knobs.toml").read_text())["game"] == "moai"
    assert set(pd.read_csv(tmp_path / "trials.csv")["game"]) == {"moai"}


def test_the_ranges_reach_out_to_a_games_shipped_defaults(monkeypatch):
    """Moai's defaults lie in `KNOBS`; Rapa Nui's (horizon=-1, candidates=256) widen them;
    a default a log scale cannot hold makes a linear range; a knob not a number is refused."""
    assert sk.ranges("moai") == sk.KNOBS and sk.widened(sk.ranges("moai")) == []
    space = sk.ranges("rapa-nui")
    assert space["horizon"] == ("choice", (-1, 0, 1, 2))
    assert space["candidates"] == ("logint", 4, 256)
    assert {k: space[k] for k in ("temperature", "lead")} == {
        k: sk.KNOBS[k] for k in ("temperature", "lead")
    }
    cls = load_strategy("search", "rapa-nui").cls
    monkeypatch.setattr(cls, "params", {**cls.params, "temperature": 0, "lead": 20.0})
    space = sk.ranges("rapa-nui")
    assert space["temperature"] == ("float", 0.0, 0.5) and space["lead"] == ("log", 1.0, 20.0)
    monkeypatch.setattr(cls, "params", {**cls.params, "horizon": "end"})
    with pytest.raises(UserError, match="horizon='end', not a finite number"):
        sk.ranges("rapa-nui")


def test_a_rapa_nui_search_starts_from_its_shipped_defaults_and_resumes(planted, tmp_path):
    got = sk.tune_search([3], tmp_path, trials=8, games=1, verify_games=0, seed=5,
                         game="rapa-nui")  # fmt: skip
    assert planted[0] == sk.defaults("rapa-nui") and planted[0]["candidates"] == 256
    for knobs in planted:
        assert knobs["horizon"] in (-1, 0, 1, 2) and 4 <= knobs["candidates"] <= 256
    again = sk.tune_search([3], tmp_path, trials=8, games=1, verify_games=0, seed=5,
                           game="rapa-nui")  # fmt: skip
    assert len(planted) == 8 and again.best == got.best  # the same settings: nothing to play


def test_a_trial_over_the_cpu_budget_is_kept_but_never_chosen(monkeypatch, tmp_path):
    def measure(knobs, number, worlds, players, games, seed, n_jobs, game="moai"):
        t = sk.Trial(number, dict(knobs), {3: planted_value(knobs)}, {3: (0, 0)}, {3: 3})
        t.seconds[3] = 5.0 if knobs["horizon"] == 2 else 0.5  # the best horizon is too slow
        return t

    monkeypatch.setattr(sk, "measure", measure)
    got = sk.tune_search(
        [3], tmp_path, trials=25, games=1, verify_games=0, max_seconds=2.0, game="moai"
    )
    assert any(t.knobs["horizon"] == 2 for t in got.trials)
    assert got.best.knobs["horizon"] != 2
    assert got.best.value == max(t.value for t in got.trials if t.knobs["horizon"] != 2)


def test_a_stopped_search_resumes_into_the_trials_of_an_uninterrupted_one(monkeypatch, tmp_path):
    straight: list[dict] = []

    def record(into, stop_at=None):
        def measure(knobs, number, worlds, players, games, seed, n_jobs, game="moai"):
            if stop_at is not None and number == stop_at:
                raise KeyboardInterrupt
            into.append(dict(knobs))
            return _fake(knobs, number, players)

        return measure

    monkeypatch.setattr(sk, "measure", record(straight))
    sk.tune_search([3], tmp_path / "a", trials=12, games=1, verify_games=0, seed=11, game="moai")
    resumed: list[dict] = []
    monkeypatch.setattr(sk, "measure", record(resumed, stop_at=7))
    with pytest.raises(KeyboardInterrupt):
        sk.tune_search(
            [3], tmp_path / "b", trials=12, games=1, verify_games=0, seed=11, game="moai"
        )
    monkeypatch.setattr(sk, "measure", record(resumed))
    got = sk.tune_search(
        [3], tmp_path / "b", trials=12, games=1, verify_games=0, seed=11, game="moai"
    )
    assert resumed == straight and len(got.trials) == 12
    again = sk.tune_search(
        [3], tmp_path / "b", trials=12, games=1, verify_games=0, seed=11, game="moai"
    )
    assert len(resumed) == 12 and again.best == got.best  # nothing left to play


def _fake(knobs: dict, number: int, players) -> sk.Trial:
    t = sk.Trial(number, dict(knobs))
    for p in players:
        t.gains[p], t.intervals[p], t.games[p], t.seconds[p] = planted_value(knobs), (0, 0), 1, 0.1
    return t


def test_other_settings_in_the_same_directory_are_refused(planted, tmp_path):
    sk.tune_search([3], tmp_path, trials=3, games=1, verify_games=0, seed=1, game="moai")
    with pytest.raises(UserError, match="other settings"):
        sk.tune_search([3], tmp_path, trials=3, games=2, verify_games=0, seed=1, game="moai")


def test_the_same_knobs_verified_against_the_defaults_play_the_very_same_games():
    """Common random numbers: the defaults against themselves differ by exactly nothing."""
    [v] = sk.verify(sk.defaults(game="moai"), 2, [3], 1, 7, 1, game="moai")
    assert v.games == 3 and v.difference == 0.0 and v.difference_interval == (0.0, 0.0)
    assert v.chosen_gain == v.default_gain and -1 / 3 <= v.chosen_gain <= 2 / 3


def test_measure_plays_search_against_l3_on_every_rotation():
    t = sk.measure(sk.defaults(game="moai"), 0, 2, [2], 2, 5, 1, game="moai")
    assert t.games == {2: 4} and -0.5 <= t.gains[2] <= 0.5 and t.seconds[2] > 0
    lo, hi = t.intervals[2]
    assert lo <= t.gains[2] <= hi


def test_the_lead_knob_sets_how_sharply_a_cut_short_rollout_values_a_lead():
    rules = Rules.make(3)
    g = Games.new(rules, 4, np.arange(20))
    g.play([load_strategy("greedy")() for _ in range(3)], last_round=2)
    assert not g.over().any()
    scores = g.scores().astype(float)
    ahead = scores[:, 0] - np.delete(scores, 0, axis=1).max(axis=1)
    assert (ahead != 0).any()
    flat = rollout_values(g, 0, lead=1000.0)
    sharp = rollout_values(g, 0, lead=0.1)
    assert np.allclose(flat, 0.5, atol=0.01)
    assert np.allclose(sharp, np.where(ahead > 0, 1.0, np.where(ahead < 0, 0.0, 0.5)), atol=1e-3)
    assert np.array_equal(rollout_values(g, 0), rollout_values(g, 0, lead=3.0))


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "6"], "player counts are 2-5"),
        (["--trials", "1"], "--trials must be at least 2"),
        (["--games", "0"], "--games must be at least 1"),
        (["--max-seconds", "0"], "--max-seconds must be above 0"),
    ],
)
def test_cli_refuses_bad_settings_in_one_line(tmp_path, capsys, args, message):
    code = main(["tune-search", "--out", str(tmp_path / "k"), *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "k").exists()


def test_a_finished_search_says_its_verification_again_without_playing_it(planted, tmp_path,
                                                                          monkeypatch):  # fmt: skip
    calls: list[int] = []

    def verify(knobs, worlds, players, games, seed, n_jobs, game="moai"):
        calls.append(games)
        return [sk.Verified(3, games * 3, 0.1, (0.0, 0.2), 0.05, (-0.05, 0.15), 0.05,
                            (0.01, 0.09), 0.7, 0.6)]  # fmt: skip

    monkeypatch.setattr(sk, "verify", verify)
    first = sk.tune_search([3], tmp_path, trials=4, games=1, verify_games=5, seed=2, game="moai")
    again = sk.tune_search([3], tmp_path, trials=4, games=1, verify_games=5, seed=2, game="moai")
    assert calls == [5] and again.verified == first.verified
    assert again.verified[0].difference_interval == (0.01, 0.09)
    more = sk.tune_search([3], tmp_path, trials=4, games=1, verify_games=6, seed=2, game="moai")
    assert calls == [5, 6] and more.verified[0].games == 18
    assert "difference +0.050 [+0.010, +0.090]" in sk.summary(more)


def _verified(*diffs: tuple[float, float, float]) -> list[sk.Verified]:
    return [sk.Verified(3 + k, 10, 0.1, (0, 0.2), 0.1, (0, 0.2), d, (lo, hi), 0.5, 0.5)
            for k, (d, lo, hi) in enumerate(diffs)]  # fmt: skip


@pytest.mark.parametrize(
    "diffs, adopted",
    [
        ([(0.05, 0.01, 0.09), (0.02, -0.03, 0.07)], True),  # better at one count, never worse
        ([(0.05, -0.01, 0.11), (0.02, -0.03, 0.07)], False),  # better nowhere significantly
        ([(0.10, 0.02, 0.18), (-0.07, -0.13, -0.01)], False),  # one count significantly worse
        ([(-0.01, -0.05, 0.03), (-0.02, -0.06, 0.02)], False),  # worse on average
        ([], False),  # never verified
    ],
)
def test_the_best_trial_is_recommended_only_when_verified_better(diffs, adopted, tmp_path):
    best = sk.Trial(4, {"horizon": 2, "candidates": 12, "temperature": 0.1, "lead": 5.0}, {3: 0.2})
    r = sk.KnobsResult(
        [3, 4], 32, [best], best, _verified(*diffs), tmp_path / "k.toml", game="moai"
    )
    assert r.adopted is adopted
    assert r.recommended == (best.knobs if adopted else sk.defaults(game="moai"))
    assert ("not verified better" in sk.summary(r)) is not adopted
