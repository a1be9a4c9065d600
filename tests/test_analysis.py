"""Balance analysis (docs/design.md, "Analysis"): statistics against known answers, tables on
hand-made and synthetic results, a report end to end (opened in a real headless browser),
and experiment files."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import browser
from scipy import stats as sp

import moaisim
from moaisim.analysis import (
    Source,
    game_quality,
    ratings,
    seat_balance,
    seat_lead,
    stats,
    strategies,
    text,
    variants,
)
from moaisim.analysis.report import make_report
from moaisim.cli import main

ROOT = Path(__file__).parents[1]


# --- statistics against known answers --------------------------------------------------------


def test_wilson_interval_known_values():
    lo, hi = stats.wilson([5, 0, 10], [10, 10, 10])
    # textbook values of the Wilson score interval (95 %)
    assert lo[0] == pytest.approx(0.2366, abs=1e-4) and hi[0] == pytest.approx(0.7634, abs=1e-4)
    assert lo[1] == pytest.approx(0.0, abs=1e-12) and hi[1] == pytest.approx(0.2775, abs=1e-4)
    assert lo[2] == pytest.approx(0.7225, abs=1e-4) and hi[2] == pytest.approx(1.0, abs=1e-12)
    # scipy's own Wilson interval agrees on integer counts
    ci = sp.binomtest(37, 120).proportion_ci(method="wilson")
    got = stats.wilson(37, 120)
    assert (float(got[0]), float(got[1])) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_holm_by_hand():
    # sorted p 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running
    # maximum 0.02, 0.03, 0.06, 0.06
    adjusted = stats.holm(np.array([0.01, 0.04, 0.03, 0.005]))
    assert adjusted.tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # 0.5 x 2 = 1.0 caps at 1; 0.9 x 1 = 0.9 is raised to the running maximum 1.0
    assert stats.holm(np.array([0.5, 0.9])).tolist() == pytest.approx([1.0, 1.0])
    assert np.isnan(stats.holm(np.array([np.nan, 0.02]))[0])


def test_equal_shares_chi_square_by_hand():
    # observed 30, 20, 25, 25 against 25 each: chi2 = (25 + 25) / 25 = 2 on 3 degrees
    assert stats.equal_shares([30, 20, 25, 25]) == pytest.approx(sp.chi2.sf(2.0, 3))
    assert stats.equal_shares([30, 20, 25, 25]) == pytest.approx(0.5724, abs=1e-4)


def test_paired_test_and_mean_interval_by_hand():
    d = np.array([1.0, 2.0, 3.0, 4.0])  # mean 2.5, sd 1.291, t = 3.873 on 3 degrees
    mean, lo, hi, p = stats.paired_test(len(d), d.sum(), (d**2).sum())
    assert float(mean) == 2.5
    assert float(p) == pytest.approx(sp.ttest_1samp(d, 0).pvalue)
    half = sp.t.ppf(0.975, 3) * d.std(ddof=1) / 2
    assert (float(lo), float(hi)) == pytest.approx((2.5 - half, 2.5 + half))


def test_sample_size_line():
    assert "halving it needs about 40,000 games" in stats.sample_size_line(0.02, 10_000)


# --- how the reports write (moaisim.analysis.text) -----------------------------------------


def test_one_p_value_policy_below_the_floor_or_two_significant_digits():
    assert [text.p_plain(p) for p in (0.0, 1e-12, 0.00099, 0.001, 0.0123, 0.05, 0.5, 1.0)] == [
        "< 0.001", "< 0.001", "< 0.001", "0.001", "0.012", "0.05", "0.5", "1"]  # fmt: skip
    assert text.p_value(0.0123) == "= 0.012" and text.p_value(1e-9) == "< 0.001"
    assert text.p_plain(float("nan")) == text.p_value(None) == "too few games"


def test_numbers_and_intervals_say_too_few_games_never_nan():
    nan = float("nan")
    assert text.num(0.5, "+.3f") == "+0.500" and text.num(nan) == "too few games"
    assert text.pct(0.4712) == "47.1 %" and text.points(0.024) == "+2.4"
    assert text.interval(-0.1, 0.2, "+.2f") == "-0.10 to +0.20"
    assert text.bracket(-0.1, 0.2, "+.3f") == "[-0.100, +0.200]"
    assert text.bracket(0.1, nan) == "(too few games)"
    assert text.points_interval(0.009, 0.039) == "+0.9 to +3.9"
    assert text.bracket(0.009, 0.039, text.points) == "[+0.9, +3.9]"
    assert text.estimate(37, 35.1, 38.9) == "37.00 (35.10 to 38.90)"
    assert text.share_estimate(0.5, nan, nan) == "50.0 % (too few games)"


def test_markdown_tables_format_align_and_escape():
    df = pd.DataFrame({"strategy": ["greedy", "a|b"], "share": [0.25, float("nan")], "n": [3, 4]})
    assert text.markdown_table(df, {"share": ".3f"}, code=["strategy"], right=["n"]) == (
        "| strategy | share | n |\n| --- | --- | ---: |\n| `greedy` | 0.250 | 3 |\n"
        "| `a\\|b` | too few games | 4 |"
    )


def test_an_html_page_is_its_markdown_rendered_with_figures_embedded(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "f.png").write_bytes(b"\x89PNG")
    md = ("# A <b>title</b>\n\n> **The question.** Why?\n\n| a | b |\n| --- | ---: |\n"
          "| 1 | 2 |\n\n![a caption](figures/f.png)\n")  # fmt: skip
    page = text.html_page("A <b>title</b>", md, tmp_path)
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>A &lt;b&gt;title&lt;/b&gt;</title>" in page
    assert "<h1>A &lt;b&gt;title&lt;/b&gt;</h1>" in page  # raw HTML in the text is escaped
    assert "<blockquote>" in page and "<strong>The question.</strong>" in page
    assert "<th>a</th>" in page and '<td style="text-align:right">2</td>' in page
    assert 'src="data:image/png;base64,iVBORw==" alt="a caption"' in page


# --- tables on synthetic results -----------------------------------------------------------


def synthetic(games: int, players: int, seat0: float, rng: np.random.Generator) -> pd.DataFrame:
    """A results table whose winner is drawn per game: seat 0 with probability seat0, the
    others equally; every seat plays the same strategy."""
    others = (1 - seat0) / (players - 1)
    winner = rng.choice(players, size=games, p=[seat0] + [others] * (players - 1))
    seat = np.tile(np.arange(players), games)
    win = seat == np.repeat(winner, players)
    return pd.DataFrame({
        "cell": 0, "game": np.repeat(np.arange(games), players), "game_name": "moai",
        "players": players, "variant": "base", "turn_order": "hill", "volcano_after_moai": "stay",
        "spent_wood": "supply", "lineup": ",".join(["greedy"] * players), "seat": seat,
        "strategy": "greedy", "win": win, "rank": np.where(win, 1, 2), "score": 10 + 5 * win,
        "moai_height": 5, "pawns": 5, "wood": 0 + win, "rounds": 7,
    })  # fmt: skip


def plackett_luce(strengths: dict[str, float], games: int, rng: np.random.Generator):
    """A 3-player tournament whose finishing orders are drawn from a Plackett-Luce model with
    the given log-strengths (Gumbel trick), one cell per set of 3 strategies, rows sorted by
    cell as a run's are."""
    from itertools import combinations

    frames = []
    for cell, lineup in enumerate(combinations(sorted(strengths), 3)):
        theta = np.array([strengths[s] for s in lineup])
        noisy = theta + rng.gumbel(size=(games, 3))
        rank = 1 + np.argsort(np.argsort(-noisy, axis=1), axis=1)
        frames.append(pd.DataFrame({
            "cell": cell, "game": np.repeat(np.arange(games), 3), "game_name": "moai",
            "players": 3,
            "variant": "base", "turn_order": "hill", "volcano_after_moai": "stay",
            "spent_wood": "supply", "lineup": ",".join(lineup),
            "seat": np.tile(np.arange(3), games), "strategy": np.tile(lineup, games),
            "rank": rank.ravel(), "win": rank.ravel() == 1,
            "score": 10 - rank.ravel(), "moai_height": 5, "pawns": 5, "wood": 0, "rounds": 7,
        }))  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def test_ratings_recover_planted_plackett_luce_strengths_from_a_uniform_sample():
    truth = {"a": 1.0, "b": 0.3, "c": -0.3, "d": -1.0}  # centred on 0, as the ratings are
    df = plackett_luce(truth, 3000, np.random.default_rng(3))  # 4 cells x 3 000 games
    full = ratings(df).set_index("strategy")
    assert (full["games"] == 12_000).all()
    for name, value in truth.items():
        assert abs(full.loc[name, "rating"] - value) < 0.08
    # 3 000 of 12 000 games: a sample spread over every cell, not the first cell only (which
    # never seats d); the estimates stay close and the intervals widen
    part = ratings(df, max_games=3000).set_index("strategy")
    assert set(part.index) == set(truth) and (part["games"] == 3000).all()
    for name, value in truth.items():
        assert abs(part.loc[name, "rating"] - value) < 0.2
    assert ((part["hi"] - part["lo"]) > 1.8 * (full["hi"] - full["lo"])).all()


def test_rating_intervals_cover_the_planted_strengths_at_the_stated_rate():
    """95 % Wald intervals: over 60 tournaments x 4 strategies, the planted strength falls
    outside in about 12 of 240 (binomial 99.9 % bounds: 3 to 26)."""
    truth = {"a": 0.8, "b": 0.2, "c": -0.4, "d": -0.6}
    rng = np.random.default_rng(11)
    misses = 0
    for _ in range(60):
        table = ratings(plackett_luce(truth, 150, rng)).set_index("strategy")
        misses += sum(not (table.loc[k, "lo"] < v < table.loc[k, "hi"]) for k, v in truth.items())
    assert 3 <= misses <= 26, misses


def test_plackett_luce_information_of_two_items_is_bradley_terrys():
    """Two items: every game is one comparison with p = 1 / (1 + e^-(t0 - t1)); the
    information is n p (1 - p) [[1, -1], [-1, 1]], so a centred rating has variance
    1 / (4 n p (1 - p)) (for n = 100 and t = +-0.5: 0.0127160)."""
    from moaisim.analysis.tables import plackett_luce_information

    rankings = np.array([[0, 1]] * 73 + [[1, 0]] * 27)
    info = plackett_luce_information(2, rankings, np.array([0.5, -0.5]))
    p = 1 / (1 + np.exp(-1.0))
    np.testing.assert_allclose(info, 100 * p * (1 - p) * np.array([[1, -1], [-1, 1]]))
    assert np.linalg.pinv(info)[0, 0] == pytest.approx(0.0127160, abs=1e-6)


def test_a_planted_seat_advantage_is_detected():
    df = synthetic(20_000, 4, 0.30, np.random.default_rng(1))
    table = seat_balance(df)
    s0 = table[table.seat == 0].iloc[0]
    assert s0["games"] == 20_000 and s0["fair"] == 0.25
    assert s0["lo"] > 0.25 and s0["p_equal"] < 1e-10
    assert s0["lo"] < 0.30 < s0["hi"]


def test_no_planted_advantage_is_found_at_the_stated_rate():
    """Without an advantage, p < 0.05 comes out in about 5 % of tables (binomial bounds)."""
    rng = np.random.default_rng(7)
    false = sum(
        seat_balance(synthetic(2_000, 3, 1 / 3, rng))["p_equal"].iloc[0] < 0.05 for _ in range(200)
    )
    assert sp.binomtest(false, 200, 0.05).pvalue > 0.001


def test_shared_wins_are_split_evenly():
    df = synthetic(4, 2, 0.5, np.random.default_rng(0))
    df.loc[df.game == 0, "win"] = True  # game 0: both seats win
    table = seat_balance(df)
    assert table["wins"].sum() == pytest.approx(4.0)
    strat = strategies(df)
    assert strat["win_share"].iloc[0] == pytest.approx(0.5)


def test_a_planted_variant_effect_is_measured_paired():
    rng = np.random.default_rng(3)
    base = synthetic(3_000, 3, 1 / 3, rng)
    treated = base.copy()
    treated["cell"], treated["variant"] = 1, "short"
    treated["score"] = treated["score"] + 2  # every game scores 2 more per seat
    treated["rounds"] = 6
    table = variants(pd.concat([base, treated]))
    row = table.set_index("metric").loc["mean score"]
    assert row["change"] == "short" and row["games"] == 3_000
    assert row["delta"] == pytest.approx(2.0) and row["lo"] == pytest.approx(2.0)
    assert table.set_index("metric").loc["rounds", "delta"] == pytest.approx(-1.0)
    assert row["p_holm"] < 1e-6


def test_game_quality_on_a_game_counted_by_hand():
    # two seats, three rounds: after round 1 seat 0 leads 5-3, after round 2 seat 1 leads
    # 6-4, after round 3 seat 0 wins 7-6. Lead changes: 2; the winner trailed by 2 after
    # round 2 (one round behind, a comeback), led for good from round 3 (share 3/3 = 1);
    # final margin 1 (a close game).
    rounds = pd.DataFrame({
        "cell": 0, "game": 0, "round": [1, 1, 2, 2, 3, 3], "seat": [0, 1] * 3,
        "score": [5, 3, 4, 6, 7, 6],
    })  # fmt: skip
    results = synthetic(1, 2, 1.0, np.random.default_rng(0))
    results["score"] = [7, 6]
    q = game_quality(Source.of(results, rounds))
    row = q.iloc[0]
    assert row["games"] == 1
    assert (row["lead_changes"], row["deficit"], row["rounds_behind"]) == (2, 2, 1)
    assert (row["decided"], row["comeback_share"], row["close_share"]) == (1.0, 1.0, 1.0)
    gap = q.attrs["lead_by_round"]["gap"].tolist()
    assert gap == [2.0, -2.0, 1.0]


def test_seat_lead_on_two_games_worked_by_hand():
    # Two games of three seats (Moai's scoring, R8.2: one point a metre, a point a pawn, the
    # rest from wood). Game 0 ends 12-9-6 (heights 5/3/2, 4 pawns each, wood 3/2/0) after 5
    # rounds; game 1 ends 6-9-6 (heights 2/3/2, wood 0/2/0) after 3. Seat 0 leads the mean
    # of the others by 12 - 7.5 = 4.5 and 6 - 7.5 = -1.5: 1.5 on average; in statues by 2.5
    # and -0.5 (1.0); in pawns by 0; in wood by 2 and -1 (0.5). By round, seat 0 leads by r
    # in game 0 (rounds 1-4) and by -r in game 1 (rounds 1-2); the fifths of the game close
    # rounds 1, 2, 3, 4, 5 of game 0 and 1, 2, 2, 3, 3 of game 1.
    results = synthetic(2, 3, 1.0, np.random.default_rng(0))
    results["score"] = [12, 9, 6, 6, 9, 6]
    results["moai_height"] = [5, 3, 2, 2, 3, 2]
    results["pawns"] = 4
    rows = [(0, r, [2 * r, r, r]) for r in range(1, 5)] + [(0, 5, [12, 9, 6])]
    rows += [(1, r, [0, r, r]) for r in (1, 2)] + [(1, 3, [6, 9, 6])]
    rounds = pd.DataFrame([{"cell": 0, "game": g, "round": r, "seat": k, "score": x}
                           for g, r, xs in rows for k, x in enumerate(xs)])  # fmt: skip
    lead = seat_lead(Source.of(results, rounds)).set_index("seat")
    zero = lead.loc[0]
    assert zero["games"] == 2
    assert zero["score"] == pytest.approx(1.5)
    assert (zero["moai_score"], zero["pawns"], zero["wood_score"]) == pytest.approx((1, 0, 0.5))
    stages = [zero[f"at_{s}"] for s in (20, 40, 60, 80, 100)]
    assert stages == pytest.approx([0.0, 0.0, 0.5, 1.25, 1.5])
    assert lead.loc[1, "at_100"] == pytest.approx(1.5)  # 9 - 9 and 9 - 6
    # the interval is the one-sample t interval of the two games' leads
    ci = sp.ttest_1samp([4.5, -1.5], 0).confidence_interval()
    assert (zero["score_lo"], zero["score_hi"]) == pytest.approx((ci.low, ci.high))


def test_tables_of_a_run_directory_equal_those_of_its_dataframe(tmp_path):
    kw = dict(variants=["base", "short"], strategies="greedy,random", seed=2, chunk_size=30)
    moaisim.simulate(3, 70, out=tmp_path / "run", **kw)
    df = moaisim.simulate(3, 70, **kw)
    for table in (seat_balance, strategies, variants):
        a, b = table(tmp_path / "run"), table(df)
        cols = [c for c in a.columns if c in b.columns and c != "cell"]
        pd.testing.assert_frame_equal(a[cols], b[cols], check_dtype=False)


def test_a_pooled_tournament_counts_each_strategy_over_every_lineup():
    # three strategies at 2 players: lineups a,b / a,c / b,c; in every game "a" wins when it
    # plays, else seat 0 wins. Pooled: a plays 2 lineups x 10 games and wins all 20; b and c
    # each win the 5 games of b,c in which they sit in seat 0 (5 of 20); seat 0 wins 10 of
    # a's 20 games (a sits there in half) and all 10 of b,c: 20 of 30.
    rows = []
    for cell, (x, y) in enumerate([("a", "b"), ("a", "c"), ("b", "c")]):
        for game in range(10):
            seats = (x, y) if game % 2 == 0 else (y, x)
            wins = [s == "a" for s in seats] if "a" in seats else [True, False]
            for seat, (s, w) in enumerate(zip(seats, wins, strict=True)):
                rows.append({"cell": cell, "game": game, "game_name": "moai", "players": 2,
                             "variant": "base",
                             "turn_order": "hill", "volcano_after_moai": "stay",
                             "spent_wood": "supply", "lineup": f"{x},{y}", "seat": seat,
                             "strategy": s, "win": w, "rank": 1 if w else 2, "score": 9 + w,
                             "moai_height": 5, "pawns": 4, "wood": w, "rounds": 7})  # fmt: skip
    src = Source.of(pd.DataFrame(rows))
    assert src.lineups_per_setup() == 3
    pooled = strategies(src.pooled()).set_index("strategy")
    assert pooled["lineup"].unique().tolist() == ["all 3 lineups"]
    assert pooled.loc["a", ["n", "win_share"]].tolist() == [20, 1.0]
    assert pooled.loc["b", ["n", "win_share"]].tolist() == [20, 0.25]
    assert pooled.loc["c", ["n", "win_share"]].tolist() == [20, 0.25]
    seats = seat_balance(src.pooled())
    assert seats["games"].tolist() == [30, 30] and seats["wins"].tolist() == [20, 10]
    assert len(strategies(src)) == 6  # unpooled: one row per lineup and strategy


def test_round_robin_lineups_and_a_tournament_study():
    from moaisim.runner import make_study, round_robin

    lineups = round_robin(["greedy", "random", "greedy", "moai"], [2, 3])
    assert lineups == {2: ["greedy,random", "greedy,moai", "random,moai"],
                       3: ["greedy,random,moai"]}  # fmt: skip
    study = make_study([2, 3], 10, lineups, game="moai")
    assert [c.label for c in study.cells] == [*lineups[2], *lineups[3]]
    with pytest.raises(moaisim.UserError, match="at 4 players needs at least 4 strategies"):
        round_robin(["greedy", "random"], [4])
    with pytest.raises(moaisim.UserError, match="no strategy lineup given for 4 players"):
        make_study([3, 4], 10, {3: ["greedy"]}, game="moai")


# --- a report end to end --------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("report")
    moaisim.simulate(
        [3, 4], 200, variants=["base", "fixed-disasters"], lineups=["greedy", "greedy,random"],
        seed=9, rounds=True, out=base / "run",
    )  # fmt: skip
    make_report(base / "run", base / "out", title="A small study", command="make report")
    return base / "out"


def test_a_verdict_is_the_same_with_and_without_field_and_greedy_never_qualifies(report_dir):
    """Issue 60: without --field this run's greedy once was "the strongest qualifying field",
    with --field reports/field-seed2044 "no field qualifies". Now every report reads the
    game's shipped field studies: one verdict whatever the flags, and greedy (exploitable in
    every shipped study) and greedy,random (a random seat) never qualify."""
    again = report_dir.parent / "with-field"
    make_report(report_dir.parent / "run", again, title="A small study", command="make report",
                field=ROOT / "reports" / "field-seed2044")  # fmt: skip
    cols = ["players", "change", "metric", "classification", "qualifying", "sentence"]
    alone = pd.read_csv(report_dir / "tables" / "verdicts.csv", keep_default_na=False)[cols]
    given = pd.read_csv(again / "tables" / "verdicts.csv", keep_default_na=False)[cols]
    pd.testing.assert_frame_equal(alone, given)
    assert (alone["qualifying"] == 0).all()
    assert all("no field qualifies" in x for x in alone["sentence"])
    md = (report_dir / "report.md").read_text()
    assert "greedy at 3 players: exploitable: tuned gains" in md
    assert (
        "greedy,random at 4 players: never qualifies: one-ply play (L1) and random play (L0)" in md
    )
    assert "read from the field studies reports/field-seed2044, reports/field" in md


def test_every_box_with_a_change_gives_the_first_bird_man_s_paired_change(report_dir):
    """Issue 60: a study asking only about the mean score still says, in its box, what each
    change does to the first bird-man's win share (the start player's paired change)."""
    out = report_dir.parent / "mean-only"
    make_report(report_dir.parent / "run", out, title="A small study", command="make report",
                metrics=("mean score",))  # fmt: skip
    md = (out / "report.md").read_text()
    box = md.split("**The answer.**", 1)[1].split("> Notes:", 1)[0]
    for players in (3, 4):
        said = [x for x in box.splitlines() if x.startswith(f"> - At {players} players")]
        assert any("fixed-disasters" in x and "the first bird-man's win share" in x
                   for x in said), said  # fmt: skip
        assert any("the mean score" in x for x in said)


def test_a_report_has_every_file_and_every_table_has_intervals_and_n(report_dir):
    for name in ("report.md", "report.html", "run-manifest.json", "report.json"):
        assert (report_dir / name).is_file()
    tables = {p.stem: pd.read_csv(p) for p in (report_dir / "tables").glob("*.csv")}
    assert set(tables) == {"seat_balance", "seat_imbalance", "seat_lead", "strategies",
                           "head_to_head", "variants", "game_shape", "game_quality",
                           "verdicts"}  # fmt: skip
    for name, table in tables.items():
        if name == "verdicts":  # words, not rates: the findings of the answer box
            assert {"classification", "effects"} <= set(table.columns)
            continue
        assert len(table), name
        assert any(c.endswith("lo") for c in table.columns), name
        assert any(c.endswith("hi") for c in table.columns), name
        assert {"games", "n"} & set(table.columns), name
    figures = sorted(p.name for p in (report_dir / "figures").glob("*.png"))
    assert len(figures) == 7
    md = (report_dir / "report.md").read_text()
    assert (
        "the first bird-man (seat 0, who holds the bird-man token before round 1)" in md
        and "95 % interval" in md
    )
    assert "**The answer.**" in md and "## Appendix: every finding" in md
    assert "not people" in md and "make report" in md and "moaisim.simulate" in md
    for figure in figures:
        assert f"figures/{figure}" in md


def test_the_html_report_shows_its_images_in_a_headless_browser(report_dir, tmp_path):
    chromium = browser()
    if chromium is None:
        pytest.skip("no Chromium here (set CI=true to install it from the system packages)")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000"]  # fmt: skip
    page = (report_dir / "report.html").resolve().as_uri()
    dom = subprocess.run([chromium, *flags, "--dump-dom", page], capture_output=True,
                         text=True, timeout=120, check=True).stdout  # fmt: skip
    assert 'data-images-shown="7/7"' in dom
    assert "<h1>A small study</h1>" in dom


# --- experiments -----------------------------------------------------------------------------


def test_an_experiment_runs_resumably_and_reports(tmp_path, capsys):
    exp = tmp_path / "tiny.toml"
    exp.write_text(
        'name = "tiny"\ntitle = "Tiny"\nquestion = "Does short change anything?"\n'
        '[study]\nplayers = [3]\nvariants = ["base", "short"]\nstrategies = "greedy"\n'
        "games = 60\nseed = 4\nrounds = true\n"
    )
    args = ["experiment", str(exp), "--runs", str(tmp_path / "runs"), "--reports",
            str(tmp_path / "reports"), "-q"]  # fmt: skip
    assert main(args) == 0
    report = tmp_path / "reports" / "tiny" / "report.md"
    assert report.is_file() and "Does short change anything?" in report.read_text()
    journal = tmp_path / "runs" / "tiny" / "parts.jsonl"
    chunks = journal.read_text()
    parts = {p: p.stat().st_mtime_ns for p in (tmp_path / "runs" / "tiny").rglob("*.parquet")}
    assert main(args) == 0  # again: the run is complete, nothing more to play
    assert journal.read_text() == chunks
    assert {p: p.stat().st_mtime_ns for p in parts} == parts  # no part written again
    assert f"moaisim experiment {exp}" in report.read_text()


#: A grid study that plays L3, for the [check] cases below.
CHECKED = "name = 'x'\n[study]\nplayers = [3]\ngames = 10\nlineups = ['greedy', 'L3']\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name = 'x'\n[study]\nplayers = [3]\ngames = 10\ncolour = 'red'\n",
            "unknown key study.colour",
        ),
        ("name = 'x'\nplayers = 3\n", "unknown key 'players'"),
        ("name = 'x'\n", "missing table [study]"),
        ("[study]\nplayers = [3]\ngames = 10\n", "name must be a word"),
        ("name = 'x'\n[study]\nplayers = [7]\ngames = 10\n", "players must be from 2 to 5"),
        (
            "name = 'x'\n[study]\nplayers = [3]\ngames = 10\nvariants = ['long']\n",
            "unknown variant",
        ),
        ("name = 'x'\n[study]\nplayers = [3]\n", "missing key study.games"),
        ("name = 'x'\n[study\n", "not valid TOML"),
        (
            "name = 'x'\n[study]\nplayers = 3\ngames = 1\nlineups = {x = ['greedy']}\n",
            "study.lineups must be a list of strings, or a table",
        ),
        (
            "name = 'x'\n[study]\nplayers = 4\ngames = 1\nlineups = {'3' = ['greedy']}\n",
            "study.lineups has lineups for 3 players, a player count the study does not",
        ),
        (
            "name = 'x'\n[study]\nplayers = 4\ngames = 1\ntournament = ['greedy', 'moai']\n",
            "a tournament at 4 players needs at least 4 strategies",
        ),
        (
            "name = 'x'\n[study]\nplayers = 3\ngames = 1\nstrategies = 'greedy'\n"
            "tournament = ['a']\n",
            "not strategies and tournament",
        ),
        # [check], the check field (analysis/check.py)
        (
            CHECKED + "[check]\ngames = 1\n",
            "check.games must be a whole number from 2",
        ),
        (
            CHECKED + "[check]\ngames = 10\nlineup = 'L2'\n",
            "check.lineup 'L2' is not among the study's",
        ),
        (
            CHECKED + "[check]\ngames = 10\ncolour = 'red'\n",
            "unknown key check.colour",
        ),
        (
            CHECKED + "[check]\ngames = 10\nlineup = 'L4'\n",
            "a lineup other than L4",
        ),
        ("name = 'x'\ncheck = 3\n[study]\nplayers = [3]\ngames = 10\n", "[check] must be a table"),
        (
            "name = 'x'\n[study]\nplayers = 3\ngames = 10\ntournament = ['greedy', 'moai', "
            "'fisher']\n[check]\ngames = 10\n",
            "not a tournament",
        ),
        ("name = 'x'\n[field]\nplayers = [3]\n[check]\ngames = 10\n", "not to a field study"),
    ],
)
def test_a_bad_experiment_file_is_one_line_exit_2(tmp_path, capsys, text, message):
    exp = tmp_path / "bad.toml"
    exp.write_text(text)
    code = main(["experiment", str(exp), "--runs", str(tmp_path / "runs"), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "runs").exists()


def test_report_of_a_missing_run_is_one_line(tmp_path, capsys):
    assert main(["report", str(tmp_path / "none"), "--out", str(tmp_path / "r")]) == 2
    assert "is not a run directory" in capsys.readouterr().err


def _md_rows(lines: list[str]) -> list[list[str]]:
    """The rows of the Markdown tables among some lines (header and rule left out)."""
    rows = [[c.strip() for c in x.strip().strip("|").split(" | ")] for x in lines if
            x.startswith("|")]  # fmt: skip
    return [r for r in rows if not set(r[0]) <= {"-", ":"} and r[0] != "players"]


def test_the_answer_box_and_the_appendix_are_read_from_one_table(report_dir):
    from moaisim.analysis import verdicts as v

    md = (report_dir / "report.md").read_text()
    found = pd.read_csv(report_dir / "tables" / "verdicts.csv", keep_default_na=False)
    box = md.split("**The answer.**", 1)[1].split("## ", 1)[0].splitlines()
    answers = box[: box.index("> Notes:")] if "> Notes:" in box else box  # the notes apart
    sentences = [x.removeprefix("> - ") for x in answers if x.startswith("> - ")]
    shown = found[found["metric"].isin(v.box_metrics(moaisim.load_game("moai")))]
    assert sentences and sorted(sentences) == sorted(shown["sentence"])
    # the box's table is the appendix's rows of the box's metrics, cell for cell
    in_box = _md_rows([x.removeprefix("> ") for x in box])
    appendix = _md_rows(md.split("## Appendix: every finding", 1)[1].splitlines())
    assert len(appendix) == len(found) and all(r in appendix for r in in_box)
    assert len(in_box) == len(shown)
    # a sentence's range of effects is the smallest and largest of the table's row
    for _, r in found.iterrows():
        if r["classification"] in (v.SAME, v.DISAGREE, v.INCONCLUSIVE) and r["qualifying"]:
            row = next(a for a in appendix if a[:3] == [str(r["players"]), r["change"],
                                                        r["metric"]])  # fmt: skip
            for end in (float(r["low"]), float(r["high"])):
                said = v.effect(r["metric"], end)
                assert any(cell.startswith(said + " ") for cell in row), (said, row)
                assert said.lstrip("+-") in r["sentence"]


def test_a_report_warns_when_bots_tuned_for_the_base_game_judge_a_scoring_change(tmp_path):
    from moaisim.analysis.report import untuned_changes

    assert untuned_changes(["base", "short", "volcano_after_moai=camp", "wood_points=1",
                            "short, hand_size=5", "components=late-palms#1a2b3c4d"],
                           game="moai") == [
        "components=late-palms#1a2b3c4d", "short, hand_size=5", "wood_points=1"
    ]  # fmt: skip
    run = tmp_path / "run"
    moaisim.simulate(3, 40, lineups=["greedy"], params={"wood_points": [2, 1]}, seed=4, out=run)
    make_report(run, tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "the bots were not re-tuned: wood_points=1 changes the scoring" in md


# --- the game of a table (`moaisim.games`) -----------------------------------------------------


def test_the_game_of_a_table():
    """A results table is of the game its game-name column names (or, for a table of other
    rows, its attrs); a table that names none (the runner's numeric `game` column is the
    game's number) is refused in one line, never taken for the default game's."""
    from moaisim.analysis.source import game_of_table, spec_of_table
    from moaisim.errors import UserError

    df = pd.DataFrame({"cell": [0, 0], "game": [0, 1], "score": [3, 4]})
    said = ("the results table names no game: give it the game_name column its rows had "
            "(moaisim.simulate and moaisim.load_results write it)")  # fmt: skip
    with pytest.raises(UserError) as info:
        game_of_table(df)
    assert str(info.value) == said
    with pytest.raises(UserError) as info:
        _ = Source.of(df).game
    assert str(info.value) == said
    assert spec_of_table(df.assign(game_name="rapa-nui")).INFO.name == "rapa-nui"
    assert game_of_table(df.assign(game_name="moai")) == "moai"
    assert game_of_table(df.assign(game=["moai", "moai"])) == "moai"
    named = df.copy()
    named.attrs["game"] = "moai"
    assert game_of_table(named) == "moai"
    with pytest.raises(UserError, match="unknown game 'chess'"):
        game_of_table(df.assign(game_name="chess"))
    with pytest.raises(UserError, match="one game at a time"):
        game_of_table(df.assign(game_name=["moai", "chess"]))
    assert Source.of(df.assign(game_name="rapa-nui")).game == "rapa-nui"


def test_tables_say_their_game(tmp_path):
    """Every table `compute` makes carries its game (`attrs["game"]`), a run's from its
    manifest."""
    res = moaisim.simulate(3, 30, "greedy,random", seed=1)
    assert seat_balance(res).attrs["game"] == "moai"
    moaisim.simulate(3, 30, "greedy,random", seed=1, out=tmp_path / "run")
    assert Source.of(tmp_path / "run").game == "moai"
    assert strategies(tmp_path / "run").attrs["game"] == "moai"


def test_seat_leads_add_up_over_parts_and_cancel_over_seats():
    # Rapa Nui (its score is the sum of four parts): in every game the seats' leads
    # over the others' mean cancel, so the seats' mean leads sum to 0; each seat's part leads
    # add up to its score lead; the last fifth reads the final round, whose per-round score
    # is the final score.
    results, rounds = moaisim.simulate(3, 300, "greedy,random", seed=5, rounds=True,
                                       game_name="rapa-nui")  # fmt: skip
    lead = seat_lead(Source.of(results, rounds))
    assert (lead["games"] == 300).all()
    assert lead["score"].sum() == pytest.approx(0, abs=1e-9)
    parts = lead[["moai_points", "glory", "wood_points", "stock_points"]].sum(axis=1)
    assert parts.to_numpy() == pytest.approx(lead["score"].to_numpy())
    assert lead["at_100"].to_numpy() == pytest.approx(lead["score"].to_numpy())
    assert (lead["score_lo"] < lead["score"]).all() and (lead["score"] < lead["score_hi"]).all()
