"""Verdicts (changes / equivalent / inconclusive / identical by construction; across
fields: certified, same direction, disagree, no change, inconclusive, identical), the
strategies table's clustered intervals, seat imbalance, the paired
game-quality metrics and the generated headlines, on planted data with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st

from moaisim.analysis import Source, game_quality, headlines, seat_imbalance, strategies
from moaisim.analysis import verdicts as v
from moaisim.analysis.tables import _quality_of_games
from moaisim.games import load_game

ROOT = Path(__file__).resolve().parents[1]

#: Moai's words and its own paired metrics (the Moai height a seat carves, the statues' share).
MOAI = load_game("moai")
SEAT_METRIC = v.seat_metric(MOAI)
MOAI_HEIGHT, STATUE_SHARE = MOAI.MEASURES.metrics


def sums(d: np.ndarray) -> tuple[int, float, float]:
    return len(d), float(d.sum()), float((d**2).sum())


def planted(rows: list[tuple[str, str, np.ndarray]]) -> pd.DataFrame:
    """A variants table from raw paired differences (lineup, metric, differences)."""
    from scipy import stats

    out = []
    for lineup, metric, d in rows:
        n, s, s2 = sums(d)
        sd = d.std(ddof=1)
        p = 1.0 if sd == 0 and d.mean() == 0 else float(stats.ttest_1samp(d, 0).pvalue)
        out.append({"players": 3, "lineup": lineup, "change": "V5", "metric": metric,
                    "games": n, "delta": d.mean(), "sum_d": s, "sum_d2": s2, "p": p})  # fmt: skip
    return pd.DataFrame(out)


def test_the_four_verdicts_on_planted_effects():
    rng = np.random.default_rng(1)
    few = rng.normal(0.0, 3.0, 30)  # too few games to tell
    table = v.judge_variants(
        planted(
            [
                ("a", "mean score", np.zeros(500)),  # the rule cannot touch it
                ("a", "rounds", rng.normal(0.5, 1.0, 2000)),  # half a round: a change
                ("a", "first bird-man win share", rng.normal(0.0, 0.05, 5000)),  # well within 1 pt
                ("a", "score spread (sd over seats)", few),
            ]
        )  # fmt: skip
    ).set_index("metric")
    assert table.loc["mean score", "verdict"] == "identical by construction"
    assert table.loc["rounds", "verdict"] == "changes"
    assert table.loc["rounds", "lo"] > 0
    assert table.loc["first bird-man win share", "verdict"] == "equivalent"
    assert table.loc["first bird-man win share", "margin"] == 0.01
    spread = table.loc["score spread (sd over seats)"]
    assert spread["verdict"] == "inconclusive"
    assert spread["lo"] < 0 < spread["hi"]
    # the detectable effect at 80 % power is about (t_0.975 + z_0.8) = 2.05 + 0.85 standard
    # errors with 29 df
    se = few.std(ddof=1) / np.sqrt(30)
    assert 2.85 < spread["mde"] / se < 2.98
    words = v.describe({**spread.to_dict(), "metric": spread.name})
    assert words.startswith("inconclusive") and "detectable" in words


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-1, 1), st.floats(0.05, 2)), min_size=2, max_size=12),
       st.integers(0, 10_000))  # fmt: skip
def test_a_change_is_reported_exactly_when_its_adjusted_interval_excludes_zero(effects, seed):
    rng = np.random.default_rng(seed)
    rows = [("a", f"m{k}", rng.normal(mu, sd, 200)) for k, (mu, sd) in enumerate(effects)]
    table = v.judge_variants(planted(rows))
    excludes = (table["lo"] > 0) | (table["hi"] < 0)
    assert (excludes == (table["verdict"] == "changes")).all()


def judged(effects: dict[str, tuple[float, float, str]], metric: str = "mean score",
           players: int = 3, change: str = "V5") -> pd.DataFrame:  # fmt: skip
    """Judged rows of one metric by field: lineup -> (delta, se, verdict)."""
    return pd.DataFrame(
        [{"players": players, "change": change, "metric": metric, "lineup": k, "delta": d,
          "se": se, "lo": d - 2 * se, "hi": d + 2 * se, "margin": 0.5, "mde": 2.8 * se,
          "verdict": verdict} for k, (d, se, verdict) in effects.items()]
    )  # fmt: skip


#: The field study's word on L3: certified, or not (a challenger gains 5.6 [3.4, 8.0]
#: points), or exploitable (26 [24, 29] points).
CERTIFIED_L3 = v.FieldStatus(0.004, -0.01, 0.015, "a deviation", True, 0.02)
OPEN_L3 = v.FieldStatus(0.056, 0.034, 0.080, "CMA-ES from tuned-3p", False, 0.02)
WEAK_L3 = v.FieldStatus(0.26, 0.24, 0.29, "CMA-ES from tuned-2p", False, 0.02)


def verdict_of(effects, status=None, **kw) -> pd.Series:
    return v.classify(judged(effects, **kw), status or {}).iloc[0]


def test_a_certified_game_property_needs_three_qualifying_fields_and_a_certified_l3():
    same = {"fisher": (1.0, 0.1, "changes"), "moai,fisher,forester": (1.2, 0.1, "changes"),
            "L3": (0.9, 0.1, "changes")}  # fmt: skip
    row = verdict_of(same, {(3, "L3"): CERTIFIED_L3})
    assert row["classification"] == v.CERTIFIED and row["direction"] == "raises"
    assert row["qualifying"] == 3 and row["missing"] == ""
    # the same data with L3 not certified: the same direction, and what is missing says why
    row = verdict_of(same, {(3, "L3"): OPEN_L3})
    assert row["classification"] == v.SAME
    assert row["missing"] == (
        "L3 is not certified: CMA-ES from tuned-3p gains +5.6 [+3.4, +8.0] points"
    )
    # two fields are too few even with L3 certified
    two = {k: x for k, x in same.items() if k != "fisher"}
    row = verdict_of(two, {(3, "L3"): CERTIFIED_L3})
    assert row["classification"] == v.SAME and row["missing"] == "2 qualifying fields (3 needed)"
    # without L3 played, never certified
    no_l3 = {**{k: x for k, x in same.items() if k != "L3"}, "L2": (1.1, 0.1, "changes")}
    row = verdict_of(no_l3)
    assert row["classification"] == v.SAME and "(L3) not played" in row["missing"]
    # equivalence everywhere, L3 certified: certified too (no change)
    eq = {k: (d, 0.1, "equivalent") for k, d in (("fisher", 0.0), ("L2", 0.01), ("L3", -0.01))}
    row = verdict_of(eq, {(3, "L3"): CERTIFIED_L3})
    assert row["classification"] == v.CERTIFIED and row["direction"] == "no change"
    row = verdict_of(eq, {(3, "L3"): OPEN_L3})
    assert row["classification"] == v.NO_CHANGE


def test_an_exploitable_field_is_shown_but_does_not_count_and_one_that_never_carves_does():
    effects = {"fisher": (-2.0, 0.1, "changes"), "tuned": (1.0, 0.1, "changes"),
               "L2": (1.2, 0.1, "changes"), "L3": (0.9, 0.1, "changes")}  # fmt: skip
    fisher = v.FieldStatus(0.47, 0.41, 0.51, "tuned")
    status = {(3, "fisher"): fisher, (3, "tuned"): v.FieldStatus(carves=False, game="moai"),
              (3, "L3"): CERTIFIED_L3}  # fmt: skip
    row = verdict_of(effects, status)
    # fisher's opposite effect does not make the fields disagree: it is exploitable
    assert row["classification"] == v.CERTIFIED and row["qualifying"] == 3
    assert row["qualifying_fields"] == "tuned, L2, L3"  # tuned never carves, and still counts
    assert "fisher: changes" in row["verdicts"]  # reported beside the others
    assert fisher.exploitable and fisher.flags() == [
        "exploitable: tuned gains +47.0 [+41.0, +51.0] points against it"
    ]
    assert v.FieldStatus(carves=False, game="moai").flags() == ["never carves a Moai"]
    # counted, fisher's opposite sign makes the fields disagree
    row = verdict_of(effects, {(3, "L3"): CERTIFIED_L3})
    assert row["classification"] == v.DISAGREE
    assert (row["low_field"], row["high_field"]) == ("fisher", "L2")
    assert row["interaction_p"] < 1e-6
    # an exploitable L3 does not count either, and certification says so
    row = verdict_of(effects, {(3, "fisher"): fisher, (3, "L3"): WEAK_L3})
    assert row["classification"] == v.SAME and row["qualifying"] == 2
    assert "the strongest field (L3) is exploitable" in row["missing"]


def test_a_change_beside_an_equivalence_disagrees_only_when_the_fields_differ_significantly():
    # 1.0 +- 0.1 against 0.05 +- 0.1: Cochran Q = 45 on 1 df, the conclusions differ
    far = {"a": (1.0, 0.1, "changes"), "L3": (0.05, 0.1, "equivalent")}
    assert verdict_of(far)["classification"] == v.DISAGREE
    # 0.3 +- 0.1 against 0.2 +- 0.1: no significant interaction; both positive: same direction,
    # one significant change of two
    near = {"a": (0.3, 0.1, "changes"), "L3": (0.2, 0.1, "equivalent")}
    row = verdict_of(near)
    assert row["classification"] == v.SAME and "a change in 1 of 2 fields" in row["missing"]
    # signs that differ without a significant change anywhere: inconclusive, with the
    # largest detectable effect
    mixed = {"a": (0.1, 0.2, "inconclusive"), "L3": (-0.1, 0.3, "inconclusive")}
    row = verdict_of(mixed)
    assert row["classification"] == v.INCONCLUSIVE
    assert row["detectable"] == pytest.approx(2.8 * 0.3)


def test_identical_by_construction_is_the_rule_not_the_play():
    # rounds: three fields that play different games (their scores differ) give the very
    # same effect on the length: the rule decides it
    rows = pd.concat([
        judged({"a": (-1.08, 0.002, "changes"), "b": (-1.08, 0.002, "changes"),
                "L3": (-1.08, 0.002, "changes")}, metric="rounds"),
        judged({"a": (-2.0, 0.1, "changes"), "b": (-1.0, 0.1, "changes"),
                "L3": (-1.5, 0.1, "changes")}),
    ])  # fmt: skip
    found = v.classify(rows, {}).set_index("metric")
    assert found.loc["rounds", "classification"] == v.IDENTICAL
    assert found.loc["mean score", "classification"] != v.IDENTICAL
    # every paired game the same in every field (se 0)
    zero = {"a": (0.0, 0.0, "identical by construction"),
            "L3": (0.0, 0.0, "identical by construction")}  # fmt: skip
    assert verdict_of(zero)["classification"] == v.IDENTICAL
    sentence = v.sentence(v.classify(rows, {}).set_index("metric").loc["rounds"].
                          to_dict() | {"metric": "rounds"})  # fmt: skip
    assert sentence == (
        "At 3 players, V5 changes the game's length by -1.08 rounds in every field: a "
        "consequence of the rule, not of the play (identical by construction)."
    )


def test_too_few_fields_is_inconclusive_and_says_why():
    row = verdict_of({"greedy": (1.0, 0.1, "changes")}, {(3, "greedy"): v.FieldStatus(
        0.47, 0.41, 0.51, "tuned")})  # fmt: skip
    assert row["classification"] == v.INCONCLUSIVE and row["missing"] == "no qualifying field"
    assert (
        v.sentence(row) == "At 3 players, the effect of V5 on the mean score cannot be judged: no "
        "field qualifies. greedy, the strongest field played, does not qualify (exploitable: the "
        "notes say by how much); its effect: +1.00 [+0.80, +1.20], a change."
    )


def test_the_sentences_say_the_unit_and_the_size_of_the_effect():
    seat = SEAT_METRIC
    row = verdict_of({"fisher": (-0.047, 0.002, "changes"), "tuned": (-0.127, 0.002, "changes"),
                      "L2": (-0.013, 0.002, "changes")}, metric=seat, players=5,
                     change="base")  # fmt: skip
    # tuned is the strongest of the three (`verdicts.STRENGTH`): the answer leads with it
    assert v.sentence(row) == (
        "At 5 players, the first bird-man (seat 0, who holds the bird-man token before round 1) "
        "wins less than its fair share by 12.7 points of win share in tuned, the strongest "
        "qualifying field (-12.7 [-13.1, -12.3]). Across all 3 qualifying fields (fisher; "
        "tuned; L2): same direction in all fields (below fair by 1.3 to 12.7 points of win "
        "share). Not certified: the strongest field (L3) not played."
    )
    # L3's own certificate is said once per player count in the box (its flag), not in
    # every sentence
    row = verdict_of({"a": (1.0, 0.1, "changes"), "b": (1.1, 0.1, "changes"),
                      "L3": (1.2, 0.1, "changes")}, {(3, "L3"): OPEN_L3})  # fmt: skip
    assert "L3 is not certified" in row["missing"]
    assert v.sentence(row) == (
        "At 3 players, V5 raises the mean score by 1.20 points of score in L3, the strongest "
        "qualifying field (+1.20 [+1.00, +1.40]). Across all 3 qualifying fields (a; b; L3): "
        "same direction in all fields (raises the mean score by 1.00 to 1.20 points of score). "
        "Not certified: L3 is not certified (the notes say by how much)."
    )
    assert OPEN_L3.flags() == [
        "not certified at epsilon 2.0 points: CMA-ES from tuned-3p gains +5.6 [+3.4, +8.0] "
        "points against it"
    ]
    assert v.said("win share: raider") == "raider's win share"
    assert v.unit("mean score") == "points of score" and v.unit("rounds") == "rounds"
    assert v.unit("leader after round 3 wins") == "percentage points of games"
    assert v.unit("win share: moai") == "points of win share"


def test_cochran_q_of_the_interaction_matches_a_hand_computation():
    # effects 1, 2, 3 with se 1: weights 1, pooled 2, Q = 1 + 0 + 1 = 2 on 2 df: p = e^-1
    row = verdict_of({"a": (1.0, 1.0, "changes"), "b": (2.0, 1.0, "changes"),
                      "L3": (3.0, 1.0, "changes")})  # fmt: skip
    assert row["interaction_q"] == pytest.approx(2.0)
    assert row["interaction_p"] == pytest.approx(np.exp(-1.0))


def test_seat_zero_against_fair_is_judged_as_one_family():
    seats = pd.DataFrame({
        "game_name": "moai", "players": 4, "setup": "base", "lineup": ["a", "b", "c"], "seat": 0,
        "games": [40_000, 40_000, 400], "win_share": [0.20, 0.2502, 0.24], "fair": 0.25,
    })  # fmt: skip
    j = v.judge_seats(seats).set_index("lineup")
    assert j.loc["a", "verdict"] == "changes" and j.loc["a", "hi"] < 0
    assert j.loc["b", "verdict"] == "equivalent"  # 0.02 points off, well within 1 point
    assert j.loc["c", "verdict"] == "inconclusive"  # 400 games cannot tell 1 point


# --- the tables' new columns ----------------------------------------------------------------


def two_copies(games: int, rng: np.random.Generator) -> pd.DataFrame:
    """Results of 3-seat games, lineup a,a,b: one winner per game, b wins a third."""
    win = rng.integers(0, 3, games)
    return pd.DataFrame({
        "cell": 0, "game": np.repeat(np.arange(games), 3), "game_name": "moai", "players": 3,
        "seat": np.tile(np.arange(3), games), "strategy": np.tile(["a", "a", "b"], games),
        "score": 10, "moai_height": 3, "pawns": 5, "wood": 1,
        "rank": np.where(np.tile(np.arange(3), games) == np.repeat(win, 3), 1, 2),
        "win": np.tile(np.arange(3), games) == np.repeat(win, 3), "rounds": 8,
        "variant": "base", "lineup": "a,a,b",
    })  # fmt: skip


def test_a_strategys_share_over_its_seats_has_an_interval_clustered_by_game():
    df = two_copies(3000, np.random.default_rng(4))
    row = strategies(df).set_index("strategy").loc["a"]
    y = df.loc[df["strategy"] == "a", "win"].astype(float).to_numpy()
    g = df.loc[df["strategy"] == "a", "game"].to_numpy()
    fit = sm.OLS(y, np.ones(len(y))).fit(cov_type="cluster", cov_kwds={"groups": g})
    se = float(fit.bse[0])
    assert row["win_share"] == pytest.approx(y.mean())
    assert (row["hi"] - row["lo"]) / 2 == pytest.approx(1.96 * se, rel=2e-3)
    assert row["vs_fair"] == pytest.approx(y.mean() - 1 / 3)
    assert not row["by_construction"]


def test_self_play_has_no_interval_on_its_share_of_one_over_players():
    df = two_copies(200, np.random.default_rng(5)).assign(strategy="a", lineup="a,a,a")
    row = strategies(df).iloc[0]
    assert row["by_construction"] and row["win_share"] == pytest.approx(1 / 3)
    assert np.isnan(row["lo"]) and np.isnan(row["hi"]) and row["vs_fair"] == 0


def test_seat_imbalance_finds_a_planted_seat_advantage_and_pairs_it_with_base():
    rng = np.random.default_rng(6)
    games = 20_000
    parts = []
    for cell, probs, setup in ((0, [0.25] * 4, "base"), (1, [0.4, 0.2, 0.2, 0.2], "V9")):
        win = rng.choice(4, size=games, p=probs)
        seat = np.tile(np.arange(4), games)
        parts.append(pd.DataFrame({
            "cell": cell, "game": np.repeat(np.arange(games), 4), "game_name": "moai",
            "players": 4, "seat": seat,
            "strategy": "a", "score": 1, "moai_height": 0, "pawns": 1, "wood": 0,
            "rank": np.where(seat == np.repeat(win, 4), 1, 2),
            "win": seat == np.repeat(win, 4), "rounds": 8, "variant": setup, "lineup": "a",
        }))  # fmt: skip
    t = seat_imbalance(pd.concat(parts, ignore_index=True)).set_index("cell")
    planted = np.sqrt((0.15**2 + 3 * 0.05**2) / 4)  # 0.0866
    assert t.loc[1, "lo"] < planted < t.loc[1, "hi"]
    assert t.loc[0, "rms"] < 3 * t.loc[0, "noise_floor"]  # fair seats: noise only
    assert t.loc[1, "vs_base_lo"] > 0.06


def test_quality_metrics_count_ties_apart_and_ask_whether_the_leader_after_round_3_wins():
    # three seats, four rounds. Leaders: round 1 seat 0 alone, round 2 seats 0 and 1 tied,
    # round 3 seat 1 alone, round 4 seat 0 alone (final 20-19-5: a margin of 1, within 5 %
    # of 20). Sole-leader changes: 0 -> 1 -> 0 = 2 (the tied round is not a change); tied
    # rounds: 1; the leader after round 3 (seat 1) does not win.
    scores = [[3, 1, 0], [5, 5, 2], [8, 11, 3], [20, 19, 5]]
    rounds = pd.DataFrame([
        {"cell": 0, "game": 0, "round": r + 1, "seat": s, "score": scores[r][s]}
        for r in range(4) for s in range(3)
    ])  # fmt: skip
    results = pd.DataFrame({"cell": 0, "game": 0, "seat": [0, 1, 2],
                            "win": [True, False, False]})  # fmt: skip
    ((_, per_game, _),) = _quality_of_games(rounds, results)
    row = per_game.iloc[0]
    assert row["sole_lead_changes"] == 2 and row["tied_lead_rounds"] == 1
    assert row["lead_changes_per_round"] == pytest.approx(2 / 3)
    assert row["leader_wins"] == 0.0 and row["close_relative"] == 1.0
    assert row["lead_changes"] == 3  # the old count: every change of the set of leaders


# --- headlines ------------------------------------------------------------------------------


def test_the_docs_study_table_is_what_the_shipped_reports_csv_files_say():
    doc = ROOT / "docs" / "reports.md"
    text = doc.read_text()
    block = text.split(headlines.BEGIN, 1)[1].split(headlines.END, 1)[0].strip()
    assert block == headlines.studies_table(ROOT / "reports", doc.parent)
    # every grid study's headline names each finding's classification from its CSV
    for report in sorted((ROOT / "reports").iterdir()):
        found = report / "tables" / "verdicts.csv"
        if not found.is_file():
            continue
        row = next(r for r in block.splitlines() if f"[{report.name}]" in r)
        for c in set(pd.read_csv(found)["classification"]):
            if f" {c} (" in headlines.grid_headline(report):
                assert f" {c} (" in row


def test_headlines_are_written_between_markers_and_refused_without_them(tmp_path):
    reports = tmp_path / "reports"
    (reports / "s" / "tables").mkdir(parents=True)
    (reports / "s" / "report.md").write_text("# s\n")
    row = {
        "players": 3,
        "change": "V5",
        "metric": "mean score",
        "classification": v.SAME,
        "low": 0.5,
        "high": 1.5,
    }
    pd.DataFrame([row]).to_csv(reports / "s" / "tables" / "verdicts.csv", index=False)
    doc = tmp_path / "doc.md"
    doc.write_text(f"intro\n{headlines.BEGIN}\nold\n{headlines.END}\nafter\n")
    assert headlines.update(doc, reports)
    out = doc.read_text()
    assert (
        "The mean score under V5 (points of score): 3 players: same direction in all fields "
        "(+0.50 to +1.50)." in out
    )
    assert out.startswith("intro\n") and out.endswith("after\n") and "old" not in out
    assert not headlines.update(doc, reports)  # nothing changes the second time
    bare = tmp_path / "bare.md"
    bare.write_text("no markers\n")
    with pytest.raises(Exception, match="no studies markers"):
        headlines.update(bare, reports)


def test_game_quality_reports_the_new_metrics_with_intervals():
    rounds = pd.DataFrame({"cell": 0, "game": 0, "round": [1, 1, 2, 2, 3, 3],
                           "seat": [0, 1] * 3, "score": [5, 3, 4, 6, 7, 6]})  # fmt: skip
    results = pd.DataFrame({"cell": 0, "game": 0, "game_name": "moai", "players": 2,
                            "seat": [0, 1], "strategy": "a", "score": [7, 6], "moai_height": 0,
                            "pawns": 1, "wood": 0, "rank": [1, 2], "win": [True, False],
                            "rounds": 3, "variant": "base", "lineup": "a"})  # fmt: skip
    row = game_quality(Source.of(results, rounds)).iloc[0]
    # sole leaders 0, 1, 0: two changes over two round-to-round steps; the leader after
    # round 3 (seat 0) wins; margin 1 of 7 is not within 5 % (0.35 points)
    assert row["lead_changes_per_round"] == 1.0 and row["tied_lead_rounds"] == 0
    assert row["leader_wins_share"] == 1.0 and row["close_relative_share"] == 0.0


def test_an_experiment_sets_its_equivalence_margins_and_bad_ones_are_one_line_errors(tmp_path):
    from moaisim.errors import UserError
    from moaisim.studies.experiment import load_experiment

    head = 'name = "m"\n[study]\nplayers = [3]\ngames = 10\n'
    good = tmp_path / "good.toml"
    good.write_text(head + '[report]\nmargins = {share = 0.02, "mean score" = 1}\n')
    assert load_experiment(good).margins == {"share": 0.02, "mean score": 1.0}
    assert v.margin_of("win share: greedy", load_experiment(good).margins) == 0.02
    for bad, message in (
        ("[report]\nmargins = {share = -1}\n", "report.margins.share must be a positive"),
        ("[report]\nmargin = 1\n", "unknown key report.margin"),
        ("[report]\nmargins = 3\n", "report.margins must be a table"),
    ):
        f = tmp_path / "bad.toml"
        f.write_text(head + bad)
        with pytest.raises(UserError, match=message):
            load_experiment(f)


def tied_games(games: int) -> pd.DataFrame:
    """3-seat games of a, b, c in fixed seats: a and b always tie for first, c is last."""
    seat = np.tile(np.arange(3), games)
    return pd.DataFrame({
        "cell": 0, "game": np.repeat(np.arange(games), 3), "game_name": "moai", "players": 3,
        "seat": seat, "strategy": np.tile(["a", "b", "c"], games),
        "score": np.tile([9, 9, 1], games), "moai_height": 0, "pawns": 1, "wood": 0,
        "rank": np.tile([1, 1, 3], games),
        "win": np.tile([True, True, False], games), "rounds": 8, "variant": "base",
        "lineup": "a,b,c",
    })  # fmt: skip


def test_ratings_split_ties_instead_of_breaking_them_by_seat():
    from moaisim.analysis import ratings

    r = ratings(tied_games(2000)).set_index("strategy")
    # a sits before b in every game: ordered by seat, a would beat b 2000 to 0
    assert r.loc["a", "lo"] < r.loc["b", "rating"] < r.loc["a", "hi"]
    assert abs(r.loc["a", "rating"] - r.loc["b", "rating"]) < 0.15
    assert r.loc["c", "rating"] < r.loc["b", "lo"]


def test_rating_intervals_agree_with_a_bootstrap_of_games():
    import choix

    from moaisim.analysis import ratings

    rng = np.random.default_rng(8)
    strength = np.array([1.0, 0.0, -0.5])  # log-strengths of a, b, c
    games = 1500
    rows = []
    for g in range(games):  # a Plackett-Luce draw per game: pick places one by one
        left, order = [0, 1, 2], []
        while left:
            w = np.exp(strength[left])
            order.append(left.pop(int(rng.choice(len(left), p=w / w.sum()))))
        place = {s: k + 1 for k, s in enumerate(order)}
        rows += [{"cell": 0, "game": g, "game_name": "moai", "players": 3, "seat": s,
                  "strategy": "abc"[s],
                  "score": 10 - place[s], "moai_height": 0, "pawns": 1, "wood": 0,
                  "rank": place[s], "win": place[s] == 1, "rounds": 8, "variant": "base",
                  "lineup": "a,b,c"} for s in range(3)]  # fmt: skip
    r = ratings(pd.DataFrame(rows)).set_index("strategy")
    rankings = np.array([
        [s for s, _ in sorted(((s, x["rank"]) for s, x in enumerate(rows[3 * g : 3 * g + 3])),
                              key=lambda t: t[1])]
        for g in range(games)
    ])  # fmt: skip
    boot = []
    for _ in range(150):
        pick = rankings[rng.integers(0, games, games)]
        est = choix.ilsr_rankings(3, pick.tolist(), alpha=0.01)
        boot.append(est - est.mean())
    sd = np.std(boot, axis=0)
    for k, name in enumerate("abc"):
        wald_sd = (r.loc[name, "hi"] - r.loc[name, "lo"]) / (2 * 1.96)
        assert wald_sd == pytest.approx(sd[k], rel=0.25)
    # and the truth (centred) lies in each interval
    truth = strength - strength.mean()
    for k, name in enumerate("abc"):
        assert r.loc[name, "lo"] < truth[k] < r.loc[name, "hi"]


def test_a_one_member_mixture_is_the_same_field_as_its_member_and_counts_once():
    # L3 is tuned alone: the same games, so the same effect to the last digit in every metric
    rows = pd.concat([
        judged({"fisher": (1.0, 0.1, "changes"), "tuned": (1.3, 0.1, "changes"),
                "L3": (1.3, 0.1, "changes")}),
        judged({"fisher": (0.2, 0.1, "inconclusive"), "tuned": (0.1, 0.1, "inconclusive"),
                "L3": (0.1, 0.1, "inconclusive")}, metric="rounds"),
    ])  # fmt: skip
    assert v.same_games(rows) == {(3, "L3"): "L3", (3, "fisher"): "fisher", (3, "tuned"): "L3"}
    row = v.classify(rows, {}).set_index("metric").loc["mean score"]
    assert row["qualifying"] == 2 and row["qualifying_fields"] == "fisher, L3"
    assert row["classification"] == v.SAME
    found = v.findings(rows, {})
    assert json.loads(found["flags"].iloc[0]) == {"tuned": "the same games as L3"}


def test_the_answer_box_asks_whether_the_leader_after_the_checkpoint_round_wins():
    from moaisim.analysis.tables import CHECKPOINT, QUALITY_PAIRED

    name = f"leader after round {CHECKPOINT} wins"
    assert name in v.box_metrics(MOAI) and name in QUALITY_PAIRED


def test_shares_of_games_are_judged_in_points_with_the_share_margin():
    assert v.is_share("leader after round 3 wins") and v.is_share("win share: greedy")
    assert not v.is_share("mean score")
    assert v.margin_of("leader after round 3 wins") == 0.01
    row = {"metric": "leader after round 3 wins", "verdict": "changes", "delta": 0.119,
           "lo": 0.102, "hi": 0.136, "margin": 0.01, "mde": 0.01}  # fmt: skip
    assert v.describe(row) == "+11.9 [+10.2, +13.6]"


def field_report(tmp_path: Path) -> Path:
    """A field study's report with a 3-player invasion table and Nash mixture: one tuned
    among greedy copies wins 88 % [84 %, 92 %]; forester among tuned copies 35 % [30 %, 40 %]."""
    d = tmp_path / "field"
    d.mkdir()
    (d / "report.md").write_text("# field\n")
    pd.DataFrame([
        {"invader": "tuned", "resident": "greedy", "share": 0.88, "lo": 0.84, "fair": 1 / 3},
        {"invader": "forester", "resident": "greedy", "share": 0.50, "lo": 0.45, "fair": 1 / 3},
        {"invader": "forester", "resident": "tuned", "share": 0.35, "lo": 0.30, "fair": 1 / 3},
        {"invader": "greedy", "resident": "tuned", "share": 0.10, "lo": 0.07, "fair": 1 / 3},
    ]).to_csv(d / "invasion-3p.csv", index=False)  # fmt: skip
    pd.DataFrame([{"strategy": "tuned", "weight": 0.9, "vs_mixture": 0.0},
                  {"strategy": "greedy", "weight": 0.0, "vs_mixture": -0.27}]).to_csv(
        d / "mixture-3p.csv", index=False)  # fmt: skip
    return d


def test_the_field_study_says_which_fields_are_exploitable_and_whether_l3_is_certified(
    tmp_path, monkeypatch
):
    # the field study's own tables alone (the shipped files' certificate histories aside:
    # test_l3_is_judged_by_its_certificate_history_where_field_runs_are_stale)
    monkeypatch.setattr(v, "_history_statuses", lambda *args: [])
    # ... and not the shipped field studies either (test_every_report_reads_the_shipped_...)
    monkeypatch.setattr(v, "SHIPPED_REPORTS", tmp_path / "no-reports")
    d = field_report(tmp_path)
    greedy = v.field_status(d, 3, "greedy,greedy,greedy", game="moai")
    assert greedy.who == "tuned" and greedy.lo == pytest.approx(0.84 - 1 / 3)
    assert greedy.exploitable
    tuned = v.field_status(d, 3, "tuned,tuned,tuned", game="moai")
    assert tuned.who == "forester" and tuned.lo == pytest.approx(0.30 - 1 / 3)
    assert not tuned.exploitable
    # no certificate: the library against its mixture
    l3 = v.field_status(d, 3, "L3,L3,L3", game="moai")
    assert (l3.gain, l3.who, l3.certified) == (0.0, "tuned", False)
    assert np.isnan(v.field_status(d, 3, "moai,fisher,forester", game="moai").lo)  # not measured
    assert np.isnan(v.field_status(d, 4, "greedy", game="moai").lo)
    assert np.isnan(v.field_status(None, 3, "greedy", game="moai").lo)
    # the shipped certificate: the best held-out challenger, certified when every held-out
    # upper end is below epsilon
    fam = pd.DataFrame([
        {"family": "cma", "made": "CMA-ES from tuned-3p", "held_out_games": 3000,
         "held_out_gain": 0.056, "held_out_lo": 0.034, "held_out_hi": 0.080, "epsilon": 0.02},
        {"family": "library", "made": "the library pool", "held_out_games": 3000,
         "held_out_gain": 0.001, "held_out_lo": -0.02, "held_out_hi": 0.024, "epsilon": 0.02},
        {"family": "weights", "made": "x", "held_out_games": 0, "held_out_gain": np.nan,
         "held_out_lo": np.nan, "held_out_hi": np.nan, "epsilon": 0.02},
    ])  # fmt: skip
    fam.to_csv(d / "certificate_families-3p.csv", index=False)
    l3 = v.field_status(d, 3, "L3,L3,L3", game="moai")
    assert (l3.who, l3.lo, l3.certified, l3.epsilon) == ("CMA-ES from tuned-3p", 0.034, False,
                                                         0.02)  # fmt: skip
    fam["held_out_hi"] = [0.015, 0.01, np.nan]
    fam.to_csv(d / "certificate_families-3p.csv", index=False)
    assert v.field_status(d, 3, "L3,L3,L3", game="moai").certified
    table = pd.DataFrame({
        "game_name": "moai", "players": 3, "setup": "base", "strategy": ["greedy", "tuned", "L3"],
        "n": 300,
        "lineup": ["greedy,greedy,greedy", "tuned,tuned,tuned", "L3,L3,L3"],
        "moai_height": [6.0, 0.0, 1.0],
    })  # fmt: skip
    status = v.field_statuses(table, d)
    assert status[(3, "greedy,greedy,greedy")].exploitable
    assert status[(3, "tuned,tuned,tuned")].flags() == ["never carves a Moai"]
    assert status[(3, "L3,L3,L3")].flags() == ["certified at epsilon 2.0 points"]


def test_every_report_reads_the_shipped_field_studies_so_a_verdict_does_not_hang_on_field():
    """Issue 60: without --field a report once let greedy and unmeasured fields qualify; now
    it reads every shipped field study of the game and the certificate histories, so the
    same run gets the same statuses with and without --field, and greedy never qualifies
    (the shipped studies find it exploitable by 29 to 50 points at every count)."""
    moai = v.shipped_field_studies("moai")
    assert [d.name for d in moai] == ["field-seed2044", "field", "field-seed7026"]  # newest first
    assert [d.name for d in v.shipped_field_studies("rapa-nui")] == ["rapa-nui-field"]
    for game, counts in (("moai", (2, 3, 4, 5)), ("rapa-nui", (2, 3, 4))):
        for p in counts:
            for lineup in ("greedy", "tuned", "L3"):
                alone = v.field_status(None, p, lineup, game)
                for study in v.shipped_field_studies(game):
                    assert v.field_status(study, p, lineup, game) == alone, (game, p, lineup)
            greedy = v.field_status(None, p, "greedy", game)
            assert greedy.exploitable and greedy.lo > 0.29
    # the 5-player L3 is certified by its recorded certify run (reports/ranker-5p/l3/certify)
    five = v.field_status(None, 5, "L3", "moai")
    assert five.certified and five.source.endswith(
        "reports/ranker-5p/l3/certify/certificate-5p.csv)"
    )


def test_random_and_greedy_seats_never_qualify_even_where_no_study_measured_them():
    assert v.weak_reason("random") == "never qualifies: random play (L0)"
    assert (
        v.weak_reason("greedy,random") == "never qualifies: one-ply play (L1) and random play (L0)"
    )
    assert v.weak_reason("tuned,moai") == ""
    table = pd.DataFrame({
        "game_name": "moai", "players": 3, "setup": "base", "strategy": ["random", "tuned"],
        "n": 300, "lineup": ["random,random,random", "tuned,tuned,tuned"],
        "moai_height": [1.0, 1.0],
    })  # fmt: skip
    status = v.field_statuses(table)
    assert status[(3, "random,random,random")].flags() == ["never qualifies: random play (L0)"]
    assert status[(3, "tuned,tuned,tuned")].flags() == []
    # a random seat's field is reported beside the others and counts in no verdict, whether or
    # not its status says so (a status no field study measured)
    effects = {
        "random,random,random": (-2.0, 0.1, "changes"),
        "tuned,tuned,tuned": (1.0, 0.1, "changes"),
        "L3": (0.9, 0.1, "changes"),
    }
    for known in (status, {}):
        row = verdict_of(effects, known)
        assert row["qualifying_fields"] == "tuned, L3" and row["classification"] == v.SAME


def test_an_experiment_names_its_field_study_and_a_wrong_one_is_a_one_line_error(tmp_path):
    from moaisim.errors import UserError
    from moaisim.studies.experiment import load_experiment

    d = field_report(tmp_path)
    head = 'name = "m"\n[study]\nplayers = [3]\ngames = 10\n'
    good = tmp_path / "good.toml"
    good.write_text(head + '[report]\nfield = "field"\n')
    assert load_experiment(good).field_report == d
    bad = tmp_path / "bad.toml"
    bad.write_text(head + '[report]\nfield = "nowhere"\n')
    with pytest.raises(UserError, match="not a field study's report"):
        load_experiment(bad)


def test_rating_covariance_ignores_the_common_shift_even_when_rounding_leaks_into_it():
    from moaisim.analysis.tables import sum_zero_covariance

    rng = np.random.default_rng(0)
    a = rng.normal(size=(5, 5))
    centre = np.eye(5) - 1 / 5
    info = centre @ a @ a.T @ centre  # an information matrix: the shift carries nothing
    assert np.allclose(sum_zero_covariance(info), np.linalg.pinv(info))
    # rounding leaves the shift's eigenvalue at 1e-9 instead of 0 (4-player ratings, 50 000
    # games): a pseudo-inverse then gives variances of 1e8; the sum-zero covariance does not
    leaked = info + 1e-9 / 5
    assert np.abs(np.linalg.pinv(leaked)).max() > 1e7
    assert np.allclose(sum_zero_covariance(leaked), np.linalg.pinv(info))


def test_a_study_names_the_metrics_of_its_answer_box_and_a_wrong_one_is_one_line(tmp_path):
    from moaisim.analysis.report import check_metrics
    from moaisim.errors import UserError
    from moaisim.studies.experiment import load_experiment

    head = 'name = "m"\n[study]\nplayers = [3]\ngames = 10\n[report]\n'
    good = tmp_path / "good.toml"
    good.write_text(
        head + 'metrics = ["rounds", "win share: moai", "ranking", '
        '"head to head: moai vs fisher", "first bird-man\'s share against fair"]\n'
    )
    assert load_experiment(good).metrics[:2] == ("rounds", "win share: moai")
    for bad, said in (
        ('["length"]', "unknown metric 'length'"),
        ("[]", "at least one metric"),
        ('"rounds"', "non-empty list"),
        ('["head to head: moai"]', "unknown"),
    ):
        path = tmp_path / "bad.toml"
        path.write_text(head + f"metrics = {bad}\n")
        with pytest.raises(UserError, match=said) as err:
            load_experiment(path)
        assert "\n" not in str(err.value)
    with pytest.raises(UserError, match="unknown metric 'win share: '"):
        check_metrics(["win share: "], game="moai")


def test_a_rule_that_cannot_touch_a_metric_is_said_to_leave_it_as_it_is():
    zero = {"a": (0.0, 0.0, "identical by construction"),
            "L3": (-0.0, 0.0, "identical by construction")}  # fmt: skip
    row = verdict_of(zero, metric="rounds")
    assert v.sentence(row) == ("At 3 players, V5 leaves the game's length as it is in every "
                               "field: a consequence of the rule, not of the play (identical by "
                               "construction).")  # fmt: skip


#: The 4-player effects of V5 on the first bird-man's win share in the shipped
#: fixed-disasters report (points of share: effect, Holm-adjusted interval, verdict).
FIXED_4P = {
    "L3,L3,L3,L3": (-0.010, -0.020, -0.001, "changes"),
    "greedy,greedy,greedy,greedy": (0.002, -0.009, 0.012, "inconclusive"),
    "tuned,tuned,tuned,tuned": (-0.009, -0.019, 0.000, "inconclusive"),
    "raider,moai,fisher,breeder": (0.003, -0.006, 0.012, "inconclusive"),
}
#: Seat 0's win share in the base game (fair 0.25 at 4 players) in each field, made up for
#: the test: in L3 1.7 points below fair, so the change takes it to 2.7 below.
BASE_4P = {"L3,L3,L3,L3": 0.233, "greedy,greedy,greedy,greedy": 0.25,
           "tuned,tuned,tuned,tuned": 0.24, "raider,moai,fisher,breeder": 0.26}  # fmt: skip


def fixed_4p() -> pd.DataFrame:
    return pd.DataFrame([
        {"game_name": "moai", "players": 4, "change": "fixed-disasters",
         "metric": "first bird-man win share", "lineup": k, "delta": d, "se": (hi - lo) / 4.5,
         "lo": lo, "hi": hi, "margin": 0.01, "mde": 0.009, "verdict": w,
         "base": BASE_4P[k], "treatment": BASE_4P[k] + d}
        for k, (d, lo, hi, w) in FIXED_4P.items()
    ])  # fmt: skip


GREEDY_4P = v.FieldStatus(0.46, 0.40, 0.52, "tuned")


def test_the_answer_leads_with_the_strongest_field_and_inconclusive_never_hides_its_change():
    status = {(4, "greedy,greedy,greedy,greedy"): GREEDY_4P,
              (4, "L3,L3,L3,L3"): OPEN_L3}  # fmt: skip
    row = v.findings(fixed_4p(), status).iloc[0]
    # across the three qualifying fields the word is still "inconclusive", but it comes second:
    # L3's own interval excludes 0, and the answer opens with it, its direction and size in
    # words, then whether seat 0 is nearer its fair share, then that the weaker fields do not
    # confirm it (issue 60: "inconclusive" alone read as "no effect")
    assert row["classification"] == v.INCONCLUSIVE and row["lead_field"] == "L3"
    assert row["sentence"] == (
        "At 4 players, fixed-disasters lowers the first bird-man's win share by 1.0 points of win "
        "share in L3, the strongest qualifying field (-1.0 [-2.0, -0.1]). That is less fair: the "
        "first bird-man goes from 1.7 points below fair to 2.7 points below fair in L3. Weaker "
        "fields do not confirm it: across all 3 qualifying fields (L3; tuned; "
        "raider,moai,fisher,breeder) the effects run from -1.0 (L3) to +0.3 "
        "(raider,moai,fisher,breeder) points of win share (inconclusive together). Not "
        "certified: L3 is not certified (the notes say by how much)."
    )
    # the headline says the same, in short
    assert v.headline(v.findings(fixed_4p(), status)) == (
        "The first bird-man's win share under fixed-disasters (points of win share): 4 players: "
        "lowers it by 1.0 in L3 (-1.0 [-2.0, -0.1]), less fair (from 1.7 points below fair to "
        "2.7 points below fair); weaker fields do not confirm it (+0.3 to -1.0)."
    )
    # a change that brings seat 0 nearer its fair share is called fairer
    nearer = fixed_4p().assign(delta=lambda d: -d["delta"], lo=lambda d: -d["hi"],
                               hi=lambda d: -d["lo"])  # fmt: skip
    nearer["treatment"] = nearer["base"] + nearer["delta"]
    said = v.findings(nearer, status).iloc[0]["sentence"]
    assert (
        "That is fairer: the first bird-man goes from 1.7 points below fair to 0.7 points "
        "below fair in L3." in said
    )
    # the compact table puts the strongest field first, greedy (L1) last
    assert list(v.compact(v.findings(fixed_4p(), status)).columns[5:]) == [
        "L3", "tuned", "raider,moai,fisher,breeder", "greedy"]  # fmt: skip


def test_an_exploitable_l3_is_not_the_lead_but_its_effect_is_still_said():
    weak = v.FieldStatus(0.122, 0.103, 0.142, "CMA-ES from tuned-3p", False, 0.02,
                         source="field-seed7026")  # fmt: skip
    status = {(4, "greedy,greedy,greedy,greedy"): GREEDY_4P, (4, "L3,L3,L3,L3"): weak}
    row = v.findings(fixed_4p(), status).iloc[0]
    assert (row["lead_field"], row["above_field"], row["qualifying"]) == ("tuned", "L3", 2)
    # the notes under the box give the challenger once
    assert (
        "L3 at 4 players: exploitable: CMA-ES from tuned-3p gains +12.2 [+10.3, +14.2] points "
        "against it in field-seed7026"
    ) in v.field_notes(v.findings(fixed_4p(), status))
    assert row["sentence"] == (
        "At 4 players, in tuned, the strongest qualifying field, the effect of fixed-disasters on "
        "the first bird-man's win share is inconclusive: -0.9 [-1.9, +0.0] points of win share; "
        "effects smaller than 0.9 points of win share cannot be told apart from none. L3, the "
        "strongest field played, does not qualify (exploitable: the notes say by how much); its "
        "effect: -1.0 [-2.0, -0.1], a change. Across both qualifying fields (tuned; "
        "raider,moai,fisher,breeder): inconclusive (+0.3 to -0.9 points of win share; effects "
        "smaller than 0.9 points of win share cannot be told apart from none). Not certified: 2 "
        "qualifying fields (3 needed); the strongest field (L3) is exploitable."
    )


def test_a_field_is_judged_by_every_run_of_the_field_study(tmp_path, monkeypatch):
    from moaisim.registry import level_spec

    # the field runs alone: the shipped file's certificate history (real runs, which grows)
    # is another test's subject
    monkeypatch.setattr(v, "_history_statuses", lambda *a, **k: [])

    def families(d: Path, lo: float) -> None:
        row = {"family": "cma", "made": f"CMA-ES in {d.name}", "held_out_games": 4000,
               "held_out_gain": lo + 0.02, "held_out_lo": lo, "held_out_hi": lo + 0.04,
               "epsilon": 0.02}  # fmt: skip
        pd.DataFrame([row]).to_csv(d / "certificate_families-4p.csv", index=False)

    def certified_file(d: Path, digest: str) -> None:
        (d / "report.md").write_text(f"Mixture file: `strategies/moai/weights/nash-4p.toml` "
                                     f"(SHA-256 `{digest}`).\n")  # fmt: skip

    import hashlib

    shipped = Path(level_spec("L3", 4, game="moai").removeprefix("mixture(file=").removesuffix(")"))
    current = hashlib.sha256(shipped.read_bytes()).hexdigest()[:16]
    first, second = tmp_path / "field", tmp_path / "field-seed7026"
    for d in (first, second):
        d.mkdir()
        pd.DataFrame([{"resident": "x", "invader": "y", "share": 0.5, "lo": 0.4, "hi": 0.6,
                       "fair": 0.25}]).to_csv(d / "invasion-4p.csv", index=False)  # fmt: skip
        certified_file(d, current)
    (tmp_path / "field-other").mkdir()  # not a field study's run: ignored
    families(first, 0.068)  # the first run: not exploitable (lower end 6.8 points)
    families(second, 0.103)  # its replication: exploitable (10.3 > 10)
    assert v.field_runs(first) == [first, second]
    l3 = v.field_status(first, 4, "L3", game="moai")
    assert l3.exploitable and l3.source == "field-seed7026" and l3.lo == 0.103
    assert l3.flags()[0].endswith("points against it in field-seed7026")
    # a run whose certificate is of another mixture file is stale for L3
    certified_file(second, "0" * 16)
    l3 = v.field_status(first, 4, "L3", game="moai")
    assert not l3.exploitable and l3.lo == 0.068
    # the runs of a study are its report and the replications named after it, not its twin's
    assert v.field_runs(second) == [second]


def test_a_headline_leads_with_the_strongest_field_and_then_the_word_across_fields():
    status = {(4, "greedy,greedy,greedy,greedy"): GREEDY_4P, (4, "L3,L3,L3,L3"): OPEN_L3}
    found = v.findings(fixed_4p(), status)
    # issue 60: once "4 players L3 -1.0 [-2.0, -0.1], inconclusive (+0.3 to -1.0)", which read
    # as "no effect"; now the lead's change in words first, then what the weaker fields say
    assert v.headline(found) == (
        "The first bird-man's win share under fixed-disasters (points of win share): 4 players: "
        "lowers it by 1.0 in L3 (-1.0 [-2.0, -0.1]), less fair (from 1.7 points below fair to "
        "2.7 points below fair); weaker fields do not confirm it (+0.3 to -1.0)."
    )
    # an exploitable L3 is not the lead, and the headline still names its effect
    weak = v.FieldStatus(0.122, 0.103, 0.142, "CMA-ES", False, 0.02)
    found = v.findings(fixed_4p(), {**status, (4, "L3,L3,L3,L3"): weak})
    assert v.headline(found) == (
        "The first bird-man's win share under fixed-disasters (points of win share): 4 players: "
        "inconclusive in tuned (-0.9 [-1.9, +0.0]) (L3, not qualifying: -1.0 [-2.0, -0.1]); "
        "inconclusive (+0.3 to -0.9)."
    )


def test_a_field_whose_retuning_did_not_gain_is_named_for_the_shipped_weights_that_played():
    spec = "tuned(retuned='out/retuned')"
    rows = pd.concat([
        judged({f"{spec},{spec},{spec}": (1.0, 0.1, "changes"), "L3": (0.9, 0.1, "changes")},
               players=p, change="wood_points=1") for p in (3, 4)
    ])  # fmt: skip
    plays = {3: "shipped", 4: "4p-a.toml"}
    retuned = pd.DataFrame([{"players": p, "setup": "wood_points=1", "plays": x}
                            for p, x in plays.items()])  # fmt: skip
    named, status = v.name_what_played(rows, {}, retuned)
    table = v.compact(v.findings(named, status)).set_index("players")
    assert table.loc[3, v.SHIPPED_AFTER_RETUNE] == "+1.00 [+0.80, +1.20]"
    assert table.loc[3, "tuned (re-tuned)"] == ""  # nothing re-tuned played at 3 players
    assert table.loc[4, "tuned (re-tuned)"] == "+1.00 [+0.80, +1.20]"
    said = v.findings(named, status).set_index("players")["sentence"]
    assert "re-tuned" not in said[3].replace("re-tuning did not gain", "")


def test_statue_metrics_are_metres_of_moai_and_the_statues_share_of_all_points():
    from moaisim.analysis.tables import _game_metrics

    # one 3-player game: heights 3, 0 and 1.5 m, scores 10, 5 and 5
    res = pd.DataFrame({"cell": 0, "game": 0, "game_name": "moai", "seat": [0, 1, 2],
                        "strategy": "greedy",
                        "score": [10, 5, 5], "moai_height": [3.0, 0.0, 1.5], "rounds": 7,
                        "share": [1.0, 0.0, 0.0]})  # fmt: skip
    m = _game_metrics(res).iloc[0]
    assert m[MOAI_HEIGHT] == pytest.approx(1.5)  # (3 + 0 + 1.5) / 3 metres a seat
    assert m[STATUE_SHARE] == pytest.approx(4.5 / 20)  # 4.5 of the 20 points
    # two points per metre (the moai_points parameter): the statues scored 9 of 20
    assert _game_metrics(res.assign(moai_points=2.0)).iloc[0][STATUE_SHARE] == pytest.approx(0.45)
    assert v.unit(MOAI_HEIGHT) == "metres"
    assert v.unit(STATUE_SHARE) == "percentage points of all points scored"
    assert v.effect(STATUE_SHARE, 0.031) == "+3.1"


def test_a_strongest_field_whose_every_paired_game_is_the_same_is_said_so_not_inconclusive():
    # tuned never carves at 4 players: the height it carves is 0 under both rules in every game
    rows = judged({"tuned": (0.0, 0.0, "identical by construction"),
                   "a": (0.31, 0.04, "changes")}, metric=MOAI_HEIGHT, players=4)  # fmt: skip
    said = v.findings(rows, {}).iloc[0]["sentence"]
    lead = ("At 4 players, in tuned, the strongest qualifying field, V5 leaves the Moai height "
            "a seat carves as it is in every paired game.")  # fmt: skip
    assert said.startswith(lead)
    assert "inconclusive: +0.00" not in said


def test_a_field_is_as_strong_as_its_seats_on_average():
    order = ["search", "L3", "tuned,tuned,tuned", "L2", "raider,moai,fisher", "greedy",
             "greedy,random,greedy", "random"]  # fmt: skip
    ranks = [v.strength(x) for x in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert v.strength("tuned(retuned='out/r'),tuned(retuned='out/r')") == v.strength("tuned")


def test_l3_is_judged_by_its_certificate_history_where_field_runs_are_stale(tmp_path, monkeypatch):
    """A field study that measured an older mixture file does not speak for the shipped one
    when the shipped file's certificate history holds a run of it (issue 44: reports use
    the latest measures)."""
    import hashlib
    import json
    from types import SimpleNamespace

    weights = tmp_path / "weights"
    weights.mkdir()
    (weights / "nash-3p.toml").write_text("players = 3\n[mixture]\ngreedy = 1.0\n")
    current = hashlib.sha256((weights / "nash-3p.toml").read_bytes()).hexdigest()[:16]
    real = v.load_game
    monkeypatch.setattr(v, "load_game", lambda game: SimpleNamespace(
        weights_path=lambda name: weights / name, INFO=real(game).INFO))  # fmt: skip
    field = tmp_path / "field"
    field.mkdir()
    (field / "report.md").write_text("Mixture file: `strategies/moai/weights/nash-3p.toml` "
                                     "(SHA-256 `aaaaaaaaaaaaaaaa`).\n")  # fmt: skip
    pd.DataFrame([{"resident": "x", "invader": "y", "share": 0.5, "lo": 0.4, "hi": 0.6,
                   "fair": 1 / 3}]).to_csv(field / "invasion-3p.csv", index=False)  # fmt: skip
    pd.DataFrame(
        [
            {
                "family": "cma",
                "made": "CMA-ES",
                "held_out_games": 3000,
                "held_out_gain": 0.129,
                "held_out_lo": 0.105,
                "held_out_hi": 0.153,
                "epsilon": 0.03,
            }
        ]
    ).to_csv(field / "certificate_families-3p.csv", index=False)
    # no history: the stale run is all there is, and it speaks
    stale = v.field_status(field, 3, "L3", game="moai")
    assert stale.exploitable and stale.lo == 0.105

    def family(name: str, gain: float, lo: float, hi: float) -> dict:
        return {"family": name, "challengers": 5, "challenger": f"best {name}", "gain": gain,
                "held_out_gain": gain, "held_out_lo": lo, "held_out_hi": hi,
                "held_out_games": 3000}  # fmt: skip

    history = {"mixture": "nash-3p.toml", "players": 3, "runs": [
        {"source": "out/cert/3p/certificate-3p.csv", "recorded": "2026-12-04 16:10 UTC",
         "digest": current, "epsilon": 0.03,
         "families": [family("library", -0.05, -0.07, -0.03), family("cma", 0.029, 0.006, 0.053),
                      family("deviations", 0.025, 0.002, 0.048)]},
        {"source": "older", "recorded": "2026-12-04 12:00 UTC", "digest": "b" * 16,
         "epsilon": 0.03, "families": [family("cma", 0.2, 0.18, 0.22)]},
    ]}  # fmt: skip
    (weights / "nash-3p.certificate-history.json").write_text(json.dumps(history))
    l3 = v.field_status(field, 3, "L3", game="moai")
    assert not l3.exploitable and not l3.certified
    assert (l3.gain, l3.lo, l3.hi, l3.who) == (0.029, 0.006, 0.053, "best cma")
    # the run's table was not kept (out/ does not ship): the note cites the history itself,
    # which keeps the run's figures, and the run's date (issue 60)
    kept = "/".join((weights / "nash-3p.certificate-history.json").parts[-4:])
    assert l3.flags() == ["not certified at epsilon 3.0 points: best cma gains +2.9 [+0.6, +5.3] "
                          f"points against it in the certificate history ({kept}, the run of "
                          "2026-12-04 16:10 UTC)"]  # fmt: skip
