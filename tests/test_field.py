"""Field studies and their parts: skill levels, restricted play, tuning under a restriction,
the population loop (resumable) and a whole small field study through the CLI."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from moaisim.cli import main
from moaisim.errors import UnknownStrategyError, UserError
from moaisim.games import load_game
from moaisim.registry import level_spec, load_strategy, parse_lineup
from moaisim.studies import population as pop_mod
from moaisim.studies import restricted as rp
from moaisim.studies.experiment import load_experiment

ROOT = Path(__file__).parents[1]


def test_skill_levels_stand_for_their_fields():
    lineup = [s.label for s in parse_lineup("tuned,L1", 3)]
    assert lineup == ["tuned", "greedy", "greedy"]
    assert parse_lineup("L0", 2)[0].label == "random"
    assert parse_lineup("L4", 2)[0].label == "search"
    pool = load_strategy(level_spec("L2", 4, game="moai"))
    weights = dict(pool.params)["weights"]
    assert sorted(weights) == sorted(load_game("moai").LEVEL_POOL)
    assert sum(weights.values()) == pytest.approx(1.0)
    with pytest.raises(UnknownStrategyError, match="unknown skill level"):
        level_spec("L9", 3, game="moai")


def test_level_three_needs_a_shipped_mixture_and_plays_it():
    for p in (2, 3, 4, 5):
        path = ROOT / "strategies" / "moai" / "weights" / f"nash-{p}p.toml"
        if not path.exists():
            with pytest.raises(UnknownStrategyError, match="no Nash mixture"):
                level_spec("L3", p, game="moai")
            continue
        data = tomllib.loads(path.read_text())
        assert sum(data["mixture"].values()) == pytest.approx(1.0)
        assert data["players"] == p
        assert load_strategy(level_spec("L3", p, game="moai")).label.startswith("mixture(")
        for member in data["mixture"]:  # every member shipped, named from any directory
            assert "weights=" not in member and load_strategy(member)()


def test_restricted_play_of_greedy_flags_the_forest_and_its_unused_swap():
    df = rp.restricted_play(
        "greedy", "greedy", 3, 30, seed=3, forbids=["forest", "swap"], game="moai"
    )
    rows = df.set_index("mechanism")
    # without the forest a clan has no wood, so no statue (R6.2): it never wins against greedy
    assert rows.loc["forest", "share"] == 0.0
    assert rows.loc["forest", "flag"] == "carries the game"
    # greedy never swaps (R5.3): forbidding it changes no game
    assert (
        rows.loc["swap", "delta"] == 0.0 and rows.loc["swap", "flag"] == "identical in every game"
    )
    assert (df["games"] == 90).all()


def test_restricted_play_flags_from_planted_rows():
    def row(**kw):
        base = dict(play="masked", mechanism="m", identical=False, p_holm=1.0, delta=0.0,
                    lo=-0.1, hi=0.1)  # fmt: skip
        return pd.Series({**base, **kw})

    empty = pd.DataFrame(columns=["play", "mechanism", "p_holm", "delta"])
    flag = rp._flag
    assert flag(row(delta=0.001, lo=-0.004, hi=0.006), empty, 0.05, 0.01) == "vestigial"
    assert flag(row(delta=0.03, lo=0.02, hi=0.04, p_holm=0.001), empty, 0.05, 0.01) == "trap"
    assert flag(row(delta=-0.2, lo=-0.25, hi=-0.15, p_holm=1e-6), empty, 0.05, 0.01) == (
        "carries the game"
    )
    assert flag(row(delta=-0.02, lo=-0.03, hi=-0.011, p_holm=0.01), empty, 0.05, 0.01) == "matters"
    retuned = pd.DataFrame([{"play": "re-tuned", "mechanism": "m", "p_holm": 0.4, "delta": -0.01}])
    assert flag(row(delta=-0.2, lo=-0.25, hi=-0.15, p_holm=1e-6), retuned, 0.05, 0.01).startswith(
        "matters (re-tuning"
    )


def test_bad_restricted_play_is_one_line():
    with pytest.raises(UserError, match="unknown mechanism"):
        rp.restricted_play("greedy", "greedy", 3, 4, forbids=["fly"], game="moai")


def test_tune_under_a_restriction_plays_restricted_candidates(tmp_path):
    from moaisim.studies import tune

    res = tune.tune(3, "greedy", 3, 1, 4, 1, tmp_path, names=["wood", "starve"],
                    held_out_games=3, forbid=["forest"], game="moai")  # fmt: skip
    doc = tomllib.loads(res.path.read_text())
    assert doc["tuned"]["forbid"] == ["forest"] and "--forbid forest" in doc["tuned"]["command"]
    # a clan that never enters the forest never wins against greedy (no wood, no statue)
    assert res.held_out.share == 0.0 and res.start_held_out.share == 0.0


def _fake_tune(calls: list[int], fail_at: int | None = None):
    """A stand-in for the CMA-ES tuner: the best response is the shipped `forester` weights,
    its held-out strength a fixed planted number (the loop's bookkeeping is what is tested)."""
    from moaisim.studies.tune import Strength

    class Result:
        pass

    def fake(players, field, games, generations, popsize, seed, out, *a, **k):
        calls.append(seed)
        if fail_at is not None and len(calls) == fail_at:
            raise KeyboardInterrupt
        r = Result()
        Path(out).mkdir(parents=True, exist_ok=True)
        r.path = Path(out) / f"tuned-{players}p.toml"
        r.path.write_text((ROOT / "strategies/moai/weights/forester.toml").read_text())
        share = 0.5 if len(calls) == 1 else 1 / players + 0.001
        r.held_out = Strength(share, share - 0.005, share + 0.005, 400, 2.0)
        return r

    return fake


def test_population_loop_certifies_and_resumes_where_it_stopped(tmp_path, monkeypatch):
    from moaisim.studies import tune

    args = (3, ["greedy", "random"], tmp_path / "a", 0.02, 3, 6)
    calls: list[int] = []
    monkeypatch.setattr(tune, "tune", _fake_tune(calls))
    whole = pop_mod.population(*args, game="moai")
    # iteration 0: the best response gains 0.5 - 1/3 (upper bound above epsilon): it joins;
    # iteration 1: it gains 0.001 (upper bound 0.006 < 0.02): certified
    assert whole.certified and len(whole.iterations) == 2
    assert whole.iterations[1].members[-1].startswith("heuristic(weights=")
    assert whole.certificate.gain == pytest.approx(0.001)

    calls2: list[int] = []
    monkeypatch.setattr(tune, "tune", _fake_tune(calls2, fail_at=2))
    args2 = (3, ["greedy", "random"], tmp_path / "b", 0.02, 3, 6)
    with pytest.raises(KeyboardInterrupt):
        pop_mod.population(*args2, game="moai")
    state = json.loads((tmp_path / "b" / "population-3p.json").read_text())
    assert len(state["iterations"]) == 2 and state["iterations"][1]["best_response"] == ""
    monkeypatch.setattr(tune, "tune", _fake_tune(calls2))
    again = pop_mod.population(*args2, game="moai")
    assert again.certified and len(again.iterations) == 2
    for a, b in zip(whole.iterations, again.iterations, strict=True):
        # (the members' labels name their directories, a/ and b/)
        assert sorted(a.mixture.values()) == pytest.approx(sorted(b.mixture.values()))
        assert a.gain == pytest.approx(b.gain) and len(a.members) == len(b.members)
    assert calls == calls2[:1] + calls2[2:]  # the same seeds: the resumed loop is the same


def test_a_small_field_study_reports_each_part(tmp_path):
    exp = tmp_path / "f.toml"
    exp.write_text("""name = "tiny-field"
title = "Tiny field"
[field]
players = [3]
library = ["greedy", "random", "forester"]
games = 12
bootstrap = 10
[field.restricted]
games = 4
forbid = ["forest", "swap"]
retune_generations = 1
retune_games = 3
""")
    assert load_experiment(exp).field["library"] == ["greedy", "random", "forester"]
    code = main(["experiment", str(exp), "--runs", str(tmp_path / "runs"),
                 "--reports", str(tmp_path / "reports")])  # fmt: skip
    assert code == 0
    out = tmp_path / "reports" / "tiny-field"
    text = (out / "report.md").read_text()
    assert text.index("**Answer.**") < text.index("## 3 players")
    for part in ("Invasion matrix", "alpha-Rank", "Nash averaging", "Self-play statues",
                 "Restricted play"):  # fmt: skip
        assert part in text
    inv = pd.read_csv(out / "invasion-3p.csv")
    assert len(inv) == 9 and set(inv["invader"]) == {"greedy", "random", "forester"}
    rest = pd.read_csv(out / "restricted-3p.csv")
    assert sorted(zip(rest["play"], rest["mechanism"], strict=True)) == [
        ("masked", "forest"),
        ("masked", "swap"),
        ("re-tuned", "forest"),
        ("re-tuned", "swap"),
    ]
    forest = rest.set_index(["play", "mechanism"]).loc[("re-tuned", "forest")]
    assert forest["share"] == 0.0  # re-tuned or not, no forest: no wood, no Moai (R6.2)
    mix = pd.read_csv(out / "mixture-3p.csv")
    assert mix["weight"].sum() == pytest.approx(1.0)
    page = (out / "report.html").read_text()
    # the page is the report's Markdown rendered, as a grid study's is (`text.html_page`)
    assert page.startswith("<!DOCTYPE html>") and "<h2>3 players</h2>" in page
    assert "<table>" in page and "| ---" not in page and "<code>greedy</code>" in page
    # the Nash mixture the study wrote is a strategy
    nash = tmp_path / "runs" / "tiny-field" / "nash-3p.toml"
    assert load_strategy(f"mixture(file={nash})")().name


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[field]\nplayers = 7\n", "field.players must be from 2 to 5"),
        ("[field]\nlibrary = ['greedy']\n", "field.library"),
        ("[field]\nfoo = 1\n", "unknown key field.foo"),
        ("[field]\n[field.population]\nepsilon = 2\n", "epsilon"),
        ("[field]\n[field.restricted]\nturns = 2\n", "takes only"),
        ("[field]\n[field.certificate]\nrounds = 2\n", "takes only"),
        ("[field]\n[field.certificate]\ngames = 0\n", "field.certificate.games"),
        ("[field]\n[field.strong_play]\ncomponents = 'x.toml'\n", "list of names"),
        ("[study]\nplayers = 3\ngames = 2\n[field]\n", "not both"),
    ],
)
def test_bad_field_files_are_one_line(tmp_path, body, message):
    exp = tmp_path / "f.toml"
    exp.write_text('name = "f"\n' + body)
    with pytest.raises(UserError, match=message):
        load_experiment(exp)


def test_the_shipped_field_study_validates():
    exp = load_experiment(ROOT / "experiments" / "field.toml")
    assert exp.field["players"] == [2, 3, 4, 5] and exp.field["certificate"]["epsilon"] == 0.03
    for comp in exp.field["strong_play"]["components"]:
        assert (ROOT / "experiments" / comp).is_file()


def test_a_field_study_certifies_the_shipped_l3_and_reports_strong_play(tmp_path):
    """[field.certificate] certifies strategies/moai/weights/nash-3p.toml itself;
    [field.strong_play] plays search against L3 and L3's self-play under each component set:
    the report has the families' table, the search gap and the statue answer, with their CSV
    files."""
    (tmp_path / "components").mkdir()
    late = ROOT / "experiments" / "components" / "late-palms.toml"
    (tmp_path / "components" / "late-palms.toml").write_text(late.read_text())
    exp = tmp_path / "f.toml"
    exp.write_text("""name = "strong-field"
[field]
players = [3]
library = ["greedy", "forester"]
games = 6
bootstrap = 0
[field.certificate]
families = ["library", "restrict"]
games = 2
held_out_games = 3
[field.strong_play]
search = "search(worlds=2,candidates=2)"
games = 1
min_games = 3
self_play_games = 30
components = ["components/late-palms.toml"]
""")
    code = main(["experiment", str(exp), "--runs", str(tmp_path / "runs"),
                 "--reports", str(tmp_path / "reports")])  # fmt: skip
    assert code == 0
    out = tmp_path / "reports" / "strong-field"
    text = (out / "report.md").read_text()
    parts = (
        "Certificate of the shipped L3",
        "nash-3p.toml",
        "Search gap",
        "Where strong play's points come from",
        "does strong play carve statues?",
    )
    for part in parts:
        assert part in text, part
    fam = pd.read_csv(out / "certificate_families-3p.csv")
    assert set(fam["family"]) == {"library", "restrict"} and (fam["held_out_games"] > 0).sum() == 2
    gap = pd.read_csv(out / "search_gap-3p.csv").iloc[0]
    assert gap["games"] == 3 and gap["gap"] == pytest.approx(gap["win_share"] - 1 / 3)
    st = pd.read_csv(out / "statues-3p.csv")
    assert set(zip(st["games"], st["components"], st["who"], strict=True)) == {
        ("L4 seat against L3", "base", "L4"), ("L4 seat against L3", "base", "L3"),
        ("L3 self-play", "base", "L3"), ("L3 self-play", "late-palms", "L3")}  # fmt: skip
    parts = st[["from_statues", "from_pawns", "from_wood"]].sum(axis=1)
    assert np.allclose(parts, 1.0)
    selfp = st[(st["games"] == "L3 self-play") & (st["components"] == "base")].iloc[0]
    assert selfp["seats"] == 30 * 3


def test_metagame_command_writes_a_mixture_the_mixture_strategy_plays(tmp_path, capsys):
    code = main(["metagame", "-p", "2", "--library", "greedy,random", "-n", "8",
                 "--bootstrap", "5", "--out", str(tmp_path)])  # fmt: skip
    assert code == 0
    assert "Invasion matrix" in capsys.readouterr().out
    mix = tomllib.loads((tmp_path / "nash-2p.toml").read_text())["mixture"]
    assert mix == {"greedy": 1.0}  # greedy beats random: the pure equilibrium
    assert np.isclose(pd.read_csv(tmp_path / "mixture-2p.csv")["weight"].sum(), 1.0)
    assert main(["metagame", "-p", "3", "--library", "greedy", "-n", "3"]) == 2
    assert main(["metagame", "-p", "3", "--alphas", "x"]) == 2


def test_tune_takes_a_mixture_as_its_field(tmp_path):
    from moaisim.studies import tune

    field = "mixture(weights={'greedy': 0.5, 'random': 0.5})"
    res = tune.tune(
        3, field, 3, 1, 4, 2, tmp_path, names=["wood", "starve"], held_out_games=3, game="moai"
    )
    doc = tomllib.loads(res.path.read_text())
    assert doc["tuned"]["field"] == [load_strategy(field).label]
    assert 0.0 <= res.held_out.share <= 1.0 and res.held_out.games == 9


def test_a_mixture_level_is_labelled_by_its_name_and_the_label_parses_back():
    specs = parse_lineup("tuned,L3", 3)
    assert [s.label for s in specs] == ["tuned", "L3", "L3"]
    again = parse_lineup(",".join(s.label for s in specs), 3)
    assert [(s.cls, s.params) for s in again] == [(s.cls, s.params) for s in specs]
    assert [s.label for s in parse_lineup("L2", 2)] == ["L2", "L2"]


def test_restricted_play_intervals_are_adjusted_like_their_holm_tests():
    df = rp.restricted_play(
        "greedy", "greedy", 3, 40, seed=5, forbids=["forest", "raid", "bid"], game="moai"
    )
    for _, r in df.iterrows():
        if r["identical"]:
            continue
        excludes = r["lo"] > 0 or r["hi"] < 0
        assert excludes == (r["p_holm"] < 0.05), r["mechanism"]


def test_population_runs_every_start_picks_the_best_and_resumes_mid_iteration(
    tmp_path, monkeypatch
):
    """Several starts: one CMA-ES run each (and the previous best response as a warm start
    from iteration 1); the run with the best held-out share is the best response, measured
    again on fresh games; an interrupted iteration resumes with the runs not yet done."""
    from moaisim.studies import tune

    weights = ROOT / "strategies/moai/weights"
    starts = [weights / "moai.toml", weights / "forester.toml"]
    planted = {"moai": 0.30, "forester": 0.45}  # forester's basin holds the better response
    calls: list[tuple[int, str]] = []

    def fake(players, field, games, generations, popsize, seed, out, *a, start=None, **k):
        name = Path(str(start)).stem
        calls.append((seed, name))
        if len(calls) == fail_at[0]:
            raise KeyboardInterrupt
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / f"tuned-{players}p.toml"
        path.write_text(Path(str(start)).read_text())
        share = planted.get(name, 0.2)

        class Result:
            pass

        r = Result()
        r.path = path
        r.held_out = tune.Strength(share, share - 0.01, share + 0.01, 300, 2.0)
        return r

    measured: list[tuple[str, int]] = []

    def strength(players, candidate, field, games, seed=0, rules=None, *, game):
        measured.append((candidate, seed))
        return tune.Strength(0.5, 0.49, 0.51, games * players, 2.0)

    monkeypatch.setattr(tune, "tune", fake)
    monkeypatch.setattr(tune, "strength", strength)
    fail_at = [2]  # the second run of iteration 0 is interrupted
    args = (3, ["greedy", "random"], tmp_path, 0.02, 2, 4, 3, 1, None, 5, 7, starts)
    with pytest.raises(KeyboardInterrupt):
        pop_mod.population(*args, game="moai")
    state = json.loads((tmp_path / "population-3p.json").read_text())
    assert list(state["iterations"][0]["tried"]) == ["0-moai"]
    fail_at[0] = 0
    got = pop_mod.population(*args, game="moai")
    # iteration 0 resumed with forester's run only; iteration 1 adds the warm start
    assert [name for _, name in calls] == ["moai", "forester", "forester", "moai", "forester",
                                           "tuned-3p"]  # fmt: skip
    first, second = got.iterations[:2]
    assert first.tried["1-forester"]["share"] == 0.45
    assert first.best_response.endswith("br-0/1-forester/tuned-3p.toml)")
    assert list(second.tried) == ["0-moai", "1-forester", "2-tuned-3p"]
    # the best run is measured again on fresh games (root seed + 2), against the mixture
    assert measured[0][0] == f"heuristic(weights={tmp_path / 'br-0/1-forester/tuned-3p.toml'})"
    assert {seed for _, seed in measured} == {9}
    assert first.gain == pytest.approx(0.5 - 1 / 3) and not got.certified
    assert len({s for s, _ in calls}) == 5  # each run of each iteration its own seed


def test_population_refuses_bad_starts_before_anything_runs(tmp_path):
    with pytest.raises(UserError, match="named twice"):
        pop_mod.population(
            3, ["greedy", "random"], tmp_path / "a", start=["x.toml", "x.toml"], game="moai"
        )
    with pytest.raises(UserError, match="x.toml"):
        pop_mod.population(3, ["greedy", "random"], tmp_path / "b", start=["x.toml"], game="moai")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_the_kept_meta_game_is_played_again_when_a_strategy_changes(tmp_path, monkeypatch):
    """The meta-game's tables are kept in the run directory under a key holding the
    strategies' fingerprints (their code and weights files): new shipped weights are played,
    never read from the old tables."""
    from moaisim.studies import field as fd

    played: list[list[str]] = []
    real = fd.meta_play

    def counting(lib, players, games, seed, jobs, game="moai"):
        played.append(list(lib))
        return real(lib, players, games, seed, jobs, game=game)

    monkeypatch.setattr(fd, "meta_play", counting)
    cfg = {"seed": 3}
    first = fd._meta(tmp_path, ["greedy", "random"], 2, cfg, 2, 1, lambda _m: None, game="moai")
    again = fd._meta(tmp_path, ["greedy", "random"], 2, cfg, 2, 1, lambda _m: None, game="moai")
    assert len(played) == 1 and np.array_equal(first.counts, again.counts)
    monkeypatch.setattr(fd, "play_digest", lambda: "new weights")
    fd._meta(tmp_path, ["greedy", "random"], 2, cfg, 2, 1, lambda _m: None, game="moai")
    assert len(played) == 2


def test_a_reports_best_challengers_ship_beside_it_and_replay_from_there(tmp_path):
    """Each family's best challenger whose weights file lies in a run directory is copied
    into the report's challengers/ folder and named there; shipped files and specs without a
    file are left as they are; challengers not measured on held-out games are not copied."""
    from moaisim.studies.certify import Certificate, Challenger
    from moaisim.studies.field import ship_challengers

    run = tmp_path / "runs" / "cma"
    run.mkdir(parents=True)
    found = run / "best.toml"
    found.write_text((ROOT / "strategies" / "moai" / "weights" / "forester.toml").read_text())
    other = run / "other.toml"
    other.write_text(found.read_text())
    shipped = "heuristic(weights='strategies/moai/weights/tuned-3p.toml')"
    cert = Certificate("nash-3p.toml", "x", 3, 0.02, 10, 20, 1, ["cma", "weights", "restrict"], [
        Challenger("cma", f"heuristic(weights='{found}')", "cma", 0.5, 10, 0.45, 20),
        Challenger("cma", f"heuristic(weights={other})", "cma", 0.4, 10),
        Challenger("weights", shipped, "file", 0.3, 10, 0.3, 20),
        Challenger("restrict", "restrict(strategy='tuned')", "r", 0.3, 10, 0.3, 20),
    ], game="moai")  # fmt: skip
    final, tmp = tmp_path / "reports" / "field", tmp_path / "reports" / ".field.tmp"
    tmp.mkdir(parents=True)
    got = ship_challengers(cert, final, tmp, game="moai")
    specs = [c.spec for c in got.challengers]
    assert specs[0] == f"heuristic(weights='{final}/challengers/3p-cma.toml')"
    assert specs[1:] == [c.spec for c in cert.challengers[1:]]
    assert sorted(p.name for p in (tmp / "challengers").iterdir()) == ["3p-cma.toml"]
    assert (tmp / "challengers" / "3p-cma.toml").read_text() == found.read_text()
    (tmp_path / "reports" / ".field.tmp").rename(final)  # as the report's swap does
    copied, original = load_strategy(specs[0])(), load_strategy(cert.challengers[0].spec)()
    assert np.array_equal(copied.w, original.w)
    assert not np.array_equal(copied.w, load_strategy("heuristic")().w)


def test_a_known_challenger_that_beats_every_run_is_absorbed(tmp_path, monkeypatch):
    """Known challengers (`known`, `tune --population --absorb`) are candidates beside the
    CMA-ES runs, measured as a run is (held-out games, root seed + 1): planted stronger than
    the run, the known file is the best response, measured again on fresh games (seed + 2),
    and joins the members of the next iteration."""
    from moaisim.studies import tune

    weights = ROOT / "strategies/moai/weights"
    known = [weights / "raider.toml", weights / "bidder.toml"]

    def fake(players, field, games, generations, popsize, seed, out, *a, start=None, **k):
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / f"tuned-{players}p.toml"
        path.write_text((weights / "moai.toml").read_text())

        class Result:
            pass

        r = Result()
        r.path, r.held_out = path, tune.Strength(0.40, 0.39, 0.41, 300, 2.0)
        return r

    planted = {"raider": 0.30, "bidder": 0.55}  # bidder's file beats the run's 0.40
    measured: list[tuple[str, int]] = []

    def strength(players, candidate, field, games, seed=0, rules=None, *, game):
        measured.append((candidate, seed))
        share = next((v for k, v in planted.items() if f"{k}.toml" in candidate), 0.5)
        return tune.Strength(share, share - 0.01, share + 0.01, games * players, 2.0)

    monkeypatch.setattr(tune, "tune", fake)
    monkeypatch.setattr(tune, "strength", strength)
    got = pop_mod.population(3, ["greedy", "random"], tmp_path, 0.02, 2, 4, 3, 1, None, 5, 7,
                             weights / "moai.toml", known=known, game="moai")  # fmt: skip
    first = got.iterations[0]
    assert set(first.tried) == {"0-moai", f"known {weights / 'raider.toml'}",
                                f"known {weights / 'bidder.toml'}"}  # fmt: skip
    assert first.tried[f"known {weights / 'bidder.toml'}"]["share"] == 0.55
    assert first.best_response == f"heuristic(weights={weights / 'bidder.toml'})"
    # screened on root seed + 1 (7 + 1), the chosen one again on fresh games (7 + 2)
    assert [s for c, s in measured if "raider" in c][0] == 8
    assert [s for c, s in measured if "bidder" in c][:2] == [8, 9]
    assert first.gain == pytest.approx(0.55 - 1 / 3)
    assert got.iterations[1].members[-1] == first.best_response
    with pytest.raises(UserError, match="named twice"):
        pop_mod.population(
            3, ["greedy", "random"], tmp_path / "x", known=[known[0], known[0]], game="moai"
        )
