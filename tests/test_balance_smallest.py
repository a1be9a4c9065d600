"""`moaisim balance` finds the smallest fix: the default fields, worst cells named by field and
player count, the one-change screen, the reduction of a finalist to its smallest subset of
changes, the caches that play a game once, and an answer that proposes no change when the
base game already meets every target. The measures are stubs whose answer is known by
construction, but for the check that the verification's paired run and a measure of the
same games agree to the last token."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from moaisim.runner import run_to_disk, study_of_rules
from moaisim.studies import balance as bal
from moaisim.studies import balance_report as report
from moaisim.studies.balance_space import Dimension, Space, load_space

FILE = """
name = "t"
[balance]
players = [3]
{fields}
trials = 4
population = 2
games = 40
rungs = 2
seed = 11
finalists = 1
jobs = 1
[verify]
games = {verify}
[space]
wood_points = {{ kind = "int", low = 1, high = 3 }}
moai_height_scale = {{ kind = "float", low = 0.8, high = 1.25 }}
[objectives.seat0]
measure = "seat0"
within = 1
[objectives.statues]
measure = "statues"
at_least = 25
"""


def write(tmp_path: Path, fields: str = "", verify: int = 100) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(FILE.format(fields=fields, verify=verify))
    return path


# --- fields and worst cells ------------------------------------------------------------------


def test_the_default_fields_are_L2_and_L3_and_L1_counts_only_when_named(tmp_path):
    assert load_space(write(tmp_path)).settings.fields == ("L2", "L3")
    named = load_space(write(tmp_path, 'fields = ["L1", "L3"]'))
    assert named.settings.fields == ("L1", "L3")


def sums(p: int, seat0: dict[str, float], n: int = 1000, statues: float = 30.0) -> dict[str, Any]:
    """Sums of n games per field at p players whose seat 0 wins `seat0[field]` of them (the
    other seats share the rest) and whose score is `statues` % from statues."""
    out = {}
    for f, first in seat0.items():
        rest = (n - first) / (p - 1)
        out[f"{p}:{f}"] = {"n": n, "seats": [first] + [rest] * (p - 1),
                           "seats2": [first] + [rest] * (p - 1), "score": 100.0 * n,
                           "statues": statues * n, "wood": 0.0, "rounds": 8.0 * n,
                           "rounds2": 64.0 * n}  # fmt: skip
    return out


def test_every_worst_cell_names_its_field_and_player_count(tmp_path):
    space = load_space(write(tmp_path))
    space = dataclasses.replace(space, settings=dataclasses.replace(
        space.settings, players=(3, 5)))  # fmt: skip
    # seat 0 wins 300 of 1000 games in L2 at 3 players (-3.3 points from 1/3), 310 in L3;
    # at 5 players 200 in L2 (fair) and 187 in L3 (-1.3 points): the worst is L2 at 3 players
    x = sums(3, {"L2": 300, "L3": 310}) | sums(5, {"L2": 200, "L3": 187})
    v = bal.value_of(space.objectives[0], x, None, space)
    assert v.where == "L2, 3 players"
    assert v.value == pytest.approx(30.0 - 100 / 3)
    assert v.cells["L3, 5 players"] == pytest.approx(-1.3)
    # the report writes a value with its interval and its cell
    text = report._fmt(-1.3, "points", -1.8, -0.8, "L3, 5 players")
    assert text == "-1.3 [-1.8, -0.8] (L3, 5 players)"


def test_a_multi_count_answer_gives_the_smallest_change_for_each_player_count(tmp_path):
    """Issue 60: a 3-and-5-player study judged by its worst cell once gave no answer for a
    designer who asks about one count. Made-up sums: the base game misses seat 0 at 3 players
    only (-3.3 points in L2); change A fixes 3 players, change B fixes both, with two
    changes; so at 3 players the answer is A (one change), at 5 the base game already holds."""
    space = load_space(write(tmp_path))
    space = dataclasses.replace(space, settings=dataclasses.replace(
        space.settings, players=(3, 5)))  # fmt: skip
    fair5 = sums(5, {"L2": 200, "L3": 201})
    base = bal.judge(space, sums(3, {"L2": 300, "L3": 330}) | fair5, None)
    one = bal.judge(space, sums(3, {"L2": 335, "L3": 332}) | sums(5, {"L2": 150, "L3": 200}),
                    None)  # fmt: skip
    two = bal.judge(space, sums(3, {"L2": 333, "L3": 334}) | fair5, None)
    found = [report.Found(1, bal.rank_key(space, one, 1), "wood_points=3", {}, one, "the screen"),
             report.Found(2, bal.rank_key(space, two, 2), "wood_points=3, moai_height_scale=1.1",
                          {}, two, "finalist 1's smallest fix")]  # fmt: skip
    lines = report.per_count(space, base, found)
    assert len(lines) == 2
    assert lines[0].startswith(
        "At 3 players alone the smallest change that meets every target "
        "is `wood_points=3` (1 change, the screen; seat0 "
    )
    assert lines[0].endswith("the base game misses seat0 there.")
    assert lines[1].startswith(
        "At 5 players alone the base game already meets every target: "
        "no change is needed there (seat0 "
    )
    # the one change misses at 5 players (seat 0 -5 points in L2), so over both counts only
    # the two-change fix meets every target: `smallest` (the overall answer) names it alone
    assert not bal.meets(space, one) and bal.meets(space, two)
    # nothing meets a count: said, with what the base game misses there
    assert report.per_count(space, base, found[1:2])[0].startswith(
        "At 3 players alone the smallest change that meets every target is `wood_points=3, "
        "moai_height_scale=1.1` (2 changes"
    )
    assert report.per_count(space, base, [])[0].startswith(
        "At 3 players alone no set-up verified here meets every target; the base game misses "
        "seat0 (seat0 -3.3 (L2, 3 players))"
    )


# --- a space whose answer is known by construction -------------------------------------------


class StubSpace(Space):
    """Six made-up settings a..f (whole numbers 0..2, base 0): the games are the stub's."""

    def base(self) -> dict[str, Any]:
        return {d.name: 0 for d in self.dimensions}

    def refused(self, candidate: Any) -> str | None:
        return None

    def game_key(self, candidate: Any) -> str:
        return bal.key_of(candidate)


def stub_space(tmp_path: Path, verify: int = 100) -> StubSpace:
    space = load_space(write(tmp_path, verify=verify))
    dims = tuple(Dimension(n, "int", "component", 0.0, 2.0, game="moai") for n in "abcdef")
    return StubSpace(**{f.name: getattr(space, f.name) for f in dataclasses.fields(space)}
                     | {"dimensions": dims})  # fmt: skip


def gap_needs_b(c: dict[str, Any]) -> float:
    """Seat 0's gap from fair in points: -3 in the base game; b = 2 alone brings it to 0;
    a, c, d, e and f each move it by -0.2 or +0.3 but never within 1 on their own."""
    return -3 + 3.0 * (c["b"] == 2) + 0.3 * (c["c"] == 1) - 0.2 * (c["d"] == 2)


def gap_needs_b_and_c(c: dict[str, Any]) -> float:
    """-3 in the base game; b = 2 and c = 2 each bring it up by 1.5: only both together are
    within 1 of fair; the other settings move it a little."""
    return (
        -3 + 1.5 * (c["b"] == 2) + 1.5 * (c["c"] == 2) - 0.2 * (c["a"] == 1) + 0.1 * (c["f"] == 2)
    )


class Stub:
    """A measurer (`balance.Checks`) from a gap function: games with that seat-0 gap at 3
    players in every field, 30 % of the score from statues; it counts what it plays."""

    def __init__(self, gap: Any) -> None:
        self.gap = gap
        self.played: list[str] = []

    def __call__(self, space: Space, candidates: Any, a: int, b: int, jobs: int) -> list[Any]:
        out = []
        for c in candidates:
            self.played.append(bal.key_of(c))
            n = b - a
            first = n * (1 / 3 + self.gap(c) / 100)
            out.append(sums(3, dict.fromkeys(space.settings.fields, first), n))
        return out


def checks(tmp_path: Path, space: Space, stub: Stub) -> bal.Checks:
    return bal.Checks(space, tmp_path / "checks.jsonl", 1, measurer=stub)


def test_the_screen_flags_exactly_the_one_change_that_fixes_it(tmp_path):
    space = stub_space(tmp_path)
    stub = Stub(gap_needs_b)
    rows = bal.screen(space, checks(tmp_path, space, stub))
    # every setting at 1 and 2 (a whole-number range of 3 values: each of them), the base
    # value left out
    assert [(r.setting, r.value) for r in rows] == [(n, v) for n in "abcdef" for v in (1, 2)]
    met = [(r.setting, r.value) for r in rows if bal.meets(space, r.values)]
    assert met == [("b", 2)]
    assert rows[2].values["seat0"].where == "L2, 3 players"  # the first field of a tie


def test_the_reduction_finds_the_one_change_and_measures_each_game_once(tmp_path):
    space = stub_space(tmp_path)
    stub = Stub(gap_needs_b)
    ch = checks(tmp_path, space, stub)
    finalist = {"a": 1, "b": 2, "c": 1, "d": 0, "e": 2, "f": 1}  # five changes, d is base
    assert space.changes(finalist) == ["a", "b", "c", "e", "f"]
    bal.screen(space, ch)
    before = len(stub.played)
    fix = bal.reduce(space, ch, 1, finalist)
    assert fix.changes == ("b",) and fix.meets and fix.method == "one change alone"
    assert fix.candidate == {**space.base(), "b": 2}
    # a, c... alone at the finalist's values: the screen measured b = 2, a = 1, c = 1, e = 2,
    # f = 1 already; only the finalist itself is new
    assert len(stub.played) - before == 1 == fix.played
    assert len(stub.played) == len(set(stub.played))  # no game played twice
    # judged again: nothing more is played
    bal.reduce(space, ch, 1, finalist)
    assert len(stub.played) - before == 1


def test_backward_elimination_finds_the_two_changes_that_fix_it(tmp_path):
    space = stub_space(tmp_path)
    stub = Stub(gap_needs_b_and_c)
    finalist = {"a": 1, "b": 2, "c": 2, "d": 1, "e": 2, "f": 2}  # six changes
    fix = bal.reduce(space, checks(tmp_path, space, stub), 1, finalist)
    assert fix.changes == ("b", "c") and fix.meets
    assert fix.method == "backward elimination"
    # no single change alone meets the target, and the two kept cannot lose either
    singles = [x for x, ok in fix.tried if len(x) == 1]
    assert len(singles) == 6 and not any(ok for x, ok in fix.tried if len(x) == 1)
    assert len(stub.played) == len(set(stub.played))
    assert len(stub.played) <= 2 + 6 + 2 * 6  # base, finalist, singles, at most two passes


def test_with_few_changes_every_subset_is_tried_by_size(tmp_path):
    space = stub_space(tmp_path)
    stub = Stub(gap_needs_b_and_c)
    finalist = {**{n: 0 for n in "abcdef"}, "a": 1, "b": 2, "c": 2}  # three changes
    fix = bal.reduce(space, checks(tmp_path, space, stub), 1, finalist)
    assert fix.changes == ("b", "c") and fix.method == "every subset of 3 changes"
    assert sorted(x for x, _ in fix.tried) == sorted([("a",), ("b",), ("c",), ("a", "b"),
                                                       ("a", "c"), ("b", "c")])  # fmt: skip


def test_a_finalist_that_misses_a_target_is_not_reduced(tmp_path):
    space = stub_space(tmp_path)
    finalist = {**{n: 0 for n in "abcdef"}, "a": 1, "c": 2}  # -1.7 points: misses
    fix = bal.reduce(space, checks(tmp_path, space, Stub(gap_needs_b_and_c)), 1, finalist)
    assert not fix.meets and fix.changes == ("a", "c")


def trial(space: Space, candidate: dict[str, Any]) -> bal.Trial:
    return bal.Trial(1, candidate, 1, 40, {}, True, (0.0, 0, 0.0), len(space.changes(candidate)))


def test_the_answer_leads_with_the_single_change_and_names_its_cells(tmp_path):
    space = stub_space(tmp_path)
    ch = checks(tmp_path, space, Stub(gap_needs_b))
    finalist = {"a": 1, "b": 2, "c": 1, "d": 0, "e": 2, "f": 1}
    screened = bal.screen(space, ch)
    fixes = [bal.reduce(space, ch, 1, finalist)]
    verified = report.verified_table(space, ch, [trial(space, finalist)], fixes)
    assert list(dict.fromkeys(verified["setup"])) == ["base", "finalist 1", "fix 1"]
    lines = report.answer(space, [trial(space, finalist)], True, verified, None, screened, fixes)
    assert lines[0].startswith("**One change meets every target")
    assert "`b=2`" in lines[0]
    assert "The base game misses seat0: seat0 -3.0 [" in lines[1]
    assert lines[1].endswith("(L2, 3 players).")
    assert any("keeps 1 of them: `b=2`" in x for x in lines)


def test_a_base_game_that_meets_every_target_gets_no_change(tmp_path):
    space = stub_space(tmp_path)
    ch = checks(tmp_path, space, Stub(lambda c: 0.5 - 2.0 * (c["a"] == 2)))
    finalist = {**{n: 0 for n in "abcdef"}, "b": 1, "c": 1}
    screened = bal.screen(space, ch)
    fixes = [bal.reduce(space, ch, 1, finalist)]
    assert fixes[0].changes == () and fixes[0].candidate == space.base()
    verified = report.verified_table(space, ch, [trial(space, finalist)], fixes)
    lines = report.answer(space, [trial(space, finalist)], True, verified, None, screened, fixes)
    assert lines[0].startswith("**The base game already meets every target")
    assert "no change is needed" in lines[0]
    assert "Optional, not needed for the targets" in lines[1]
    assert not any("One change meets" in x or "smallest verified fix" in x for x in lines)
    assert report.judged_setups(space, [trial(space, finalist)], fixes) == []
    # without a reduction: a single change that meets every target is still not judged
    assert report.judged_setups(space, [], [], screened, [], base_met=True) == []


# --- the caches ----------------------------------------------------------------------------


def test_a_game_measured_twice_is_played_once(tmp_path, monkeypatch):
    """Two candidates of the same game (a height scale of 1.02 rounds back to the shipped
    tiles) and one candidate asked twice: each block is played once, in the search's cache
    and in the checks'."""
    space = load_space(write(tmp_path))
    calls: list[tuple[Any, int, int]] = []

    def measure_block(space: Any, candidate: Any, a: int, b: int) -> dict[str, Any]:
        calls.append((bal.key_of(candidate), a, b))
        return sums(3, dict.fromkeys(space.settings.fields, (b - a) / 3), b - a)

    monkeypatch.setattr(bal, "measure_block", measure_block)
    base = space.base()
    same = {**base, "moai_height_scale": 1.02}
    assert space.changes(same) == [] and space.game_key(same) == space.game_key(base)
    blocks = bal.Blocks(tmp_path / "blocks.jsonl")
    first = bal.measure(space, blocks, [base, same, base], 40, 1)
    assert len(calls) == 2  # the rungs' two blocks (games 0-20, 20-40), once
    again = bal.measure(space, bal.Blocks(tmp_path / "blocks.jsonl"), [same], 40, 1)
    assert len(calls) == 2 and again[0] == first[0]
    stub = Stub(lambda c: 0.0)
    ch = bal.Checks(space, tmp_path / "checks.jsonl", 1, measurer=stub)
    ch.judge([same, base, {**base, "wood_points": 3}])
    ch.judge([{**base, "wood_points": 3}])
    assert len(stub.played) == 2  # the base game (and its twin) and wood_points = 3


def test_the_verification_run_gives_the_measures_of_its_games(tmp_path):
    """The paired run of the verification plays the base game and a finalist once; the
    sums read from it are the sums a measure of the same games (root seed + 1) gives, to
    the last token, so the checks take them instead of playing the games again."""
    space = load_space(write(tmp_path, verify=24))
    cands = [space.base(), {**space.base(), "wood_points": 3}]
    rules = report._rules(space, cands)
    s = space.settings
    study = study_of_rules(rules, 24, list(s.fields), seed=s.seed + 1, rounds=True)
    run_to_disk(study, tmp_path / "run")
    got = report.sums_of_run(bal.fresh(space, 1), study, tmp_path / "run", cands, rules)
    played = bal.measure_parts(bal.fresh(space, 1), cands, 0, 24, 1)
    for x, y in zip(got, played, strict=True):
        assert x.keys() == y.keys() == {"3:L2", "3:L3"}
        assert x == y  # the same games, summed in the same order
    assert got[0]["3:L3"]["n"] == 24


# --- the file's new keys -------------------------------------------------------------------


def test_the_screen_plays_every_short_range_and_three_values_of_a_long_one():
    assert Dimension("x", "int", "parameter", 1.0, 3.0, game="moai").screened() == [1, 2, 3]
    assert Dimension("x", "int", "parameter", 7.0, 12.0, game="moai").screened() == [7, 10, 12]
    assert Dimension("x", "int", "parameter", 7.0, 12.0, game="moai").screened(6) == [
        7,
        8,
        9,
        10,
        11,
        12,
    ]
    assert Dimension("x", "float", "component", 0.8, 1.25, game="moai").screened() == [
        0.8,
        1.025,
        1.25,
    ]
    assert Dimension("x", "categorical", "option", choices=("a", "b"), game="moai").screened() == [
        "a",
        "b",
    ]


@pytest.mark.parametrize(
    ("table", "line", "message"),
    [
        ("[balance]", "parsimony = 1", "balance.parsimony must be true or false, got 1"),
        ("[verify]", 'screen = "yes"', "verify.screen must be true or false"),
        ("[verify]", "reduce = 0", "verify.reduce must be true or false"),
        ("[verify]", "screen_values = 1", "verify.screen_values must be a whole number from 2"),
    ],
)  # fmt: skip
def test_a_bad_new_key_is_one_line_and_plays_nothing(tmp_path, capsys, table, line, message):
    from moaisim.cli import main

    path = write(tmp_path)
    path.write_text(path.read_text().replace(f"{table}\n", f"{table}\n{line}\n", 1))
    runs = tmp_path / "runs"
    assert main(["balance", str(path), "--runs", str(runs), "--reports", str(runs)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("moaisim: error:") and len(err.splitlines()) == 1 and message in err
    assert not runs.exists()


def test_parsimony_off_leaves_changes_out_of_the_ranking(tmp_path):
    space = load_space(write(tmp_path))
    values = {o.name: bal.Value(0.0 if o.name == "seat0" else 30.0, "L3, 3 players", 0, 0, {})
              for o in space.objectives}  # fmt: skip
    assert bal.rank_key(space, values, 2)[1] == 2  # among targets met, fewer changes first
    off = dataclasses.replace(space, settings=dataclasses.replace(space.settings,
                                                                  parsimony=False))  # fmt: skip
    assert bal.rank_key(off, values, 2)[1] == 0
    assert len(bal.aims(space, values, 2)) == 3 and len(bal.aims(off, values, 2)) == 2
    assert space.identity()["parsimony"] and not off.identity()["parsimony"]


def test_the_screen_carries_on_to_the_pair_that_fixes_it(tmp_path):
    """b = 2 and c = 2 each bring seat 0 half way (-1.5 points, missing within 1): no single
    change meets the target, the closest single is kept and each other one added to it, and
    the pair b = 2, c = 2 is found, measured once and put first in the answer."""
    space = stub_space(tmp_path)
    stub = Stub(gap_needs_b_and_c)
    ch = checks(tmp_path, space, stub)
    screened = bal.screen(space, ch)
    assert not any(bal.meets(space, r.values) for r in screened)
    grown = bal.grow(space, ch, screened, 2)
    # b = 2 and c = 2 tie as closest (0.5 points short); b comes first in the space
    assert all(g.changes[0] == ("b", 2) for g in grown)
    assert {g.changes[1][0] for g in grown} == {"a", "c", "d", "e", "f"}
    met = [g.changes for g in grown if bal.meets(space, g.values)]
    assert met == [(("b", 2), ("c", 2))]
    assert len(stub.played) == len(set(stub.played))
    verified = report.verified_table(space, ch, [], [])
    lines = report.answer(space, [], False, verified, None, screened, [], grown)
    assert lines[0].startswith("**No single change meets every target")
    assert "the smallest verified fix has 2 changes: `b=2, c=2`" in lines[0]
    assert report.judged_setups(space, [], [], screened, grown) == [
        ("smallest change", {**space.base(), "b": 2, "c": 2})]  # fmt: skip
    # with screen_depth 1 the screen stops at single changes
    assert bal.grow(space, ch, screened, 1) == []
