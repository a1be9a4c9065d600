"""`moaisim balance`: the search space and its checks, a planted optimum found, common random
numbers, resume after a kill, and the whole study from the command line (slow)."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import optuna
import pandas as pd
import pytest

from moaisim.cli import main
from moaisim.errors import UserError
from moaisim.games.moai.rules import Rules
from moaisim.studies import balance as bal
from moaisim.studies.balance_space import (
    Dimension,
    Objective,
    Space,
    candidate_document,
    load_space,
    rules_of,
)

BASE_FILE = """
name = "t"
[balance]
players = [3]
fields = ["L0", "L1"]
trials = {trials}
population = 6
games = 40
rungs = 3
seed = 11
finalists = 3
jobs = 1
[space]
{space}
[objectives.seat0]
measure = "seat0"
within = 0.5
[objectives.statues]
measure = "statues"
goal = "max"
at_least = 25
"""

WOOD = 'wood_points = { kind = "int", low = 1, high = 3 }'


def load_space_objective(measure: str, **bounds: float) -> Objective:
    return Objective("x", measure, "zero", bounds.get("at_most"), bounds.get("at_least"),
                     bounds.get("within"))  # fmt: skip


def write(tmp_path: Path, text: str, name: str = "space.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- the space -----------------------------------------------------------------------------------


def test_the_base_candidate_is_the_base_game_digest_for_digest():
    space = load_space(Path(__file__).parent.parent / "experiments" / "balance-3to5p.toml")
    base = space.base()
    assert rules_of(base, 5, game="moai").digest() == Rules.make(5).digest()
    assert rules_of(base, 5, game="moai").setup == "base"


@pytest.mark.parametrize("palms", [0, 3, 8])
def test_a_palm_edit_moves_palms_and_keeps_every_card_C4(palms):
    doc = candidate_document({"palms_epoch3": palms}, game="moai")
    rules = rules_of({"palms_epoch3": palms}, 4, game="moai")
    cards = rules.components.epoch_cards
    assert len(cards) == 36  # the published total
    assert sum(c.palm for c in cards if c.epoch == 3) == palms
    # the other epochs keep the shipped 11 and 6 palms, and no card changes type or numbers
    assert [sum(c.palm for c in cards if c.epoch == e) for e in (1, 2)] == [11, 6]
    base = Rules.make(4).components.epoch_cards
    assert [(c.type, c.draw, c.hut) for c in cards] == [(c.type, c.draw, c.hut) for c in base]
    assert doc["name"] == ("default" if palms == 2 else f"palms_epoch3={palms}")


def test_a_height_scale_keeps_21_tiles_and_rounds_each_height_C2():
    rules = rules_of({"moai_height_scale": 1.25}, 3, game="moai")
    heights = rules.components.moai_heights
    assert len(heights) == 21
    # 3..9 times 1.25, rounded half up: 3.75 -> 4, 5 -> 5, 6.25 -> 6, 7.5 -> 8, 8.75 -> 9,
    # 10 -> 10, 11.25 -> 11
    assert sorted(set(heights)) == [4, 5, 6, 8, 9, 10, 11]


@pytest.mark.parametrize(
    ("space", "message"),
    [
        ('wood_pointz = { kind = "int", low = 1, high = 3 }', "unknown setting space.wood_pointz"),
        ('wood_points = { kind = "int", low = 2, high = 2 }', "the range 2..2 is empty"),
        ('wood_points = { kind = "int", low = 3, high = 1 }', "the range 3..1 is empty"),
        ('palms_epoch3 = { kind = "int", low = 0, high = 12 }',
         "space.palms_epoch3 = 12 cannot be played at 3 players"),
        ('hand_size = { kind = "int", low = 5, high = 20 }',
         "space.hand_size = 20 cannot be played at 3 players"),
        ('moai_tiles_per_height = { kind = "int", low = 2, high = 4 }',
         "changes a published total (21 Moai tiles)"),
        ('turn_order = { choices = ["hill", "widdershins"] }', "choices must be among"),
        ('wood_points = { kind = "float", low = 1, high = 3 }', "kind 'float' does not fit it"),
        ('variant = { choices = ["base", "V9"] }', "unknown variant"),
        ('palms_epoch3 = { choices = [1.5, 2] }', "choices must be whole numbers"),
        ('moai_height_scale = { kind = "float", low = 0.5, high = inf }', "must be a number"),
    ],
)  # fmt: skip
def test_a_bad_space_is_one_line_and_exit_2_and_writes_nothing(tmp_path, capsys, space, message):
    path = write(tmp_path, BASE_FILE.format(trials=4, space=space))
    runs, reports = tmp_path / "runs", tmp_path / "reports"
    assert main(["balance", str(path), "--runs", str(runs), "--reports", str(reports)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("moaisim: error:") and len(err.splitlines()) == 1
    assert message in err
    assert not runs.exists() and not reports.exists()


@pytest.mark.parametrize(
    ("objective", "message"),
    [
        ('[objectives.x]\nmeasure = "luck"', "unknown measure 'luck'"),
        ('[objectives.x]\nmeasure = "seat0"\ngoal = "up"', "goal must be one of"),
        ('[objectives.x]\nmeasure = "statues"\nat_least = 30\nat_most = 20', "at_most is below"),
        ('[objectives.x]\nmeasure = "diversity"', "needs a library"),
        ('[objectives.x]\nmeasure = "skill"\nbetter = "L1"\nweaker = "L1"', "different levels"),
        ('[objectives.x]\nmeasure = "seat0"\nround = 4', "does not apply to the measure seat0"),
        ('[objectives.x]\nmeasure = "diversity"\nlibrary = ["tuned", "nosuch"]', "nosuch"),
        ('[objectives.loss]\nmeasure = "seat0"', "the name is taken"),
        ('[objectives.wood_points]\nmeasure = "seat0"', "the name is taken"),
    ],
)  # fmt: skip
def test_a_bad_objective_is_one_line(tmp_path, capsys, objective, message):
    text = BASE_FILE.format(trials=4, space=WOOD)
    path = write(tmp_path, text + "\n" + objective + "\n")
    assert main(["balance", str(path), "--runs", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


# --- the optimiser on a planted objective --------------------------------------------------------


def planted(space: Any, candidate: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """Sums whose seat 0 share is 1/3 + (x - 7) points exactly and whose statue share is 30 %
    for kind b, 20 % for a: the one optimum meeting both targets is x = 7, kind = b."""
    n = b - a
    out: dict[str, Any] = {}
    for f in space.settings.fields:
        first = n * (1 / 3 + (candidate["x"] - 7) / 100)
        rest = (n - first) / 2
        statues = 30.0 if candidate["kind"] == "b" else 20.0
        out[f"3:{f}"] = {"n": n, "seats": [first, rest, rest], "seats2": [first, rest, rest],
                         "score": 100.0 * n, "statues": statues * n, "wood": 0.0,
                         "rounds": 8.0 * n, "rounds2": 64.0 * n}  # fmt: skip
    return out


class PlantedSpace(Space):
    """A space of two made-up settings (x, kind) whose base is x = 0, kind = a."""

    def base(self) -> dict[str, Any]:
        return {"x": 0, "kind": "a"}

    def refused(self, candidate: Any) -> str | None:
        return None

    def game_key(self, candidate: Any) -> str:
        return bal.key_of(candidate)


def planted_space(tmp_path: Path, trials: int) -> PlantedSpace:
    """The planted space: the file's settings, with x and kind as its dimensions (the
    planted measure replaces the games: they are not rule settings)."""
    text = BASE_FILE.format(trials=trials, space=WOOD)
    space = load_space(write(tmp_path, text))
    dims = (Dimension("x", "int", "component", 0.0, 20.0, game="moai"),
            Dimension("kind", "categorical", "component", choices=("a", "b"),
                      game="moai"))  # fmt: skip
    return PlantedSpace(**{f.name: getattr(space, f.name) for f in dataclasses.fields(space)}
                        | {"dimensions": dims})  # fmt: skip


@pytest.fixture
def planted_measure(monkeypatch):
    """The planted measure in place of the games; the blocks it was asked for."""
    calls: list[tuple[str, int, int]] = []

    def measure_block(space, candidate, a, b):
        calls.append((bal.key_of(candidate), a, b))
        return planted(space, candidate, a, b)

    monkeypatch.setattr(bal, "measure_block", measure_block)
    return calls


def test_the_optimiser_finds_a_planted_optimum(tmp_path, planted_measure):
    space = planted_space(tmp_path, 60)
    trials = bal.search(space, tmp_path / "run")
    assert len(trials) == 60
    assert trials[0].candidate == {"x": 0, "kind": "a"}  # the base game is trial 0
    finalists, feasible = bal.choose_finalists(space, trials)
    assert feasible
    assert finalists[0].candidate == {"x": 7, "kind": "b"}
    assert finalists[0].values["seat0"].value == pytest.approx(0.0, abs=1e-9)
    assert finalists[0].values["statues"].value == pytest.approx(30.0)
    # successive halving: games 10, 20, 40; of the n trials of a batch that play their own
    # game, ceil(n / 2) play on, then ceil(ceil(n / 2) / 2) reach the top
    table = bal.trials_table(space, trials)
    assert sorted(table["games"].unique()) == [10, 20, 40]
    own = table[table["same_as"] < 0]
    for _, part in own.groupby(own["trial"] // 6):
        assert (part["games"] == 40).sum() == math.ceil(math.ceil(len(part) / 2) / 2)
    # a trial that proposes a game measured before is told that trial's rung and values
    repeats = table[table["same_as"] >= 0]
    assert len(repeats) > 0  # NSGA-II proposes good settings again and again
    first = table.set_index("trial")
    for _, r in repeats.iterrows():
        was = first.loc[r["same_as"]]
        assert was["same_as"] < 0 and was["games"] == r["games"]
        assert (was["x"], was["kind"]) == (r["x"], r["kind"])
        assert was["seat0"] == r["seat0"] and r["same_as"] < r["trial"]
    # each block was measured once, and the rungs nest: games 0-10, 10-20, 20-40
    assert len(planted_measure) == len(set(planted_measure))
    assert {(a, b) for _, a, b in planted_measure} == {(0, 10), (10, 20), (20, 40)}


@pytest.mark.parametrize("kill_at", [3, 7])  # before batch 1's last rung; as batch 3 starts
def test_a_search_killed_midway_resumes_the_same_trials(tmp_path, planted_measure, kill_at):
    straight = bal.trials_table(
        planted_space(tmp_path, 18), bal.search(planted_space(tmp_path, 18), tmp_path / "straight")
    )
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(line)
        if len(lines) == kill_at:
            raise KeyboardInterrupt

    run = tmp_path / "killed"
    with pytest.raises(KeyboardInterrupt):
        bal.search(planted_space(tmp_path, 18), run, say=say)
    resumed = bal.search(planted_space(tmp_path, 18), run)
    pd.testing.assert_frame_equal(bal.trials_table(planted_space(tmp_path, 18), resumed), straight)


def test_a_kill_while_blocks_are_measured_keeps_the_finished_ones(tmp_path, monkeypatch):
    space = planted_space(tmp_path, 6)
    done: list[int] = []

    def measure_block(space, candidate, a, b):
        if len(done) == 4:
            raise KeyboardInterrupt
        done.append(1)
        return planted(space, candidate, a, b)

    monkeypatch.setattr(bal, "measure_block", measure_block)
    with pytest.raises(KeyboardInterrupt):
        bal.search(space, tmp_path / "run")
    kept = (tmp_path / "run" / "blocks.jsonl").read_text().splitlines()
    assert len(kept) == 4  # each measured block written as it finished
    monkeypatch.setattr(bal, "measure_block", planted)
    trials = bal.search(space, tmp_path / "run")
    assert len(trials) == 6
    blocks = [json.loads(x) for x in (tmp_path / "run" / "blocks.jsonl").read_text().splitlines()]
    assert len({(b["key"], b["a"], b["b"]) for b in blocks}) == len(blocks)  # none twice


def test_another_space_in_the_same_run_directory_is_refused(tmp_path, planted_measure):
    space = planted_space(tmp_path, 6)
    bal.search(space, tmp_path / "run")
    other = dataclasses.replace(space, settings=dataclasses.replace(space.settings, seed=12))
    with pytest.raises(UserError, match="holds a balance search of another space"):
        bal.search(other, tmp_path / "run")


def test_a_search_killed_while_it_tells_resumes_the_same_trials(tmp_path, planted_measure,
                                                                monkeypatch):  # fmt: skip
    """A kill between two `tell`s of a batch: the resumed search promotes the same trials
    (successive halving runs over the whole batch again, from the measured blocks) and
    tells only those not yet told."""
    straight = bal.trials_table(
        planted_space(tmp_path, 12), bal.search(planted_space(tmp_path, 12), tmp_path / "straight")
    )
    told = 0
    tell = optuna.Study.tell

    def killing_tell(self, *args, **kwargs):
        nonlocal told
        told += 1
        if told == 9:  # the third trial of the second batch
            raise KeyboardInterrupt
        return tell(self, *args, **kwargs)

    monkeypatch.setattr(optuna.Study, "tell", killing_tell)
    with pytest.raises(KeyboardInterrupt):
        bal.search(planted_space(tmp_path, 12), tmp_path / "killed")
    monkeypatch.setattr(optuna.Study, "tell", tell)
    resumed = bal.search(planted_space(tmp_path, 12), tmp_path / "killed")
    pd.testing.assert_frame_equal(bal.trials_table(planted_space(tmp_path, 12), resumed), straight)


def test_an_unmeasurable_value_meets_no_target():
    nan = float("nan")
    o = load_space_objective("seat0", within=1.0)
    assert o.violation(0.5) == 0 and o.violation(1.5) == pytest.approx(0.5)
    assert o.violation(nan) > 1e6 and o.loss(nan) > 1e6


def test_settings_the_rules_refuse_together_are_told_unmeasured(tmp_path):
    """`short` and a removal parameter exclude each other (V3); each end of the two ranges
    alone is fine, so the file is accepted and such a trial is told unmeasured, not played."""
    space = load_space(write(tmp_path, BASE_FILE.format(trials=4, space=(
        'variant = { choices = ["base", "short"] }\n'
        'removed_epoch1 = { kind = "int", low = 0, high = 1 }'))))  # fmt: skip
    assert space.refused({"variant": "short", "removed_epoch1": 1}).startswith("refused:")
    assert space.refused({"variant": "short", "removed_epoch1": 0}) is None


def test_skill_of_a_plain_level_counts_its_own_seat(tmp_path):
    """L1 plays as `greedy` (its label): its seat is found by the lineup, not by the
    level's name. Greedy as one seat against random copies wins far more than its share."""
    text = BASE_FILE.format(trials=4, space=WOOD) + (
        '[objectives.skill]\nmeasure = "skill"\nbetter = "L1"\nweaker = "L0"\n'
    )
    space = load_space(write(tmp_path, text))
    sums = bal.measure_block(space, {"wood_points": 2}, 0, 30)
    assert sums["3:skill:skill"]["n"] == 30
    value = bal.value_of(space.objectives[-1], sums, None, space)
    assert value.value > 20  # points over the fair 33.3 %


def test_two_settings_of_the_same_game_are_one_finalist(tmp_path):
    space = load_space(Path(__file__).parent.parent / "experiments" / "balance-3to5p.toml")
    same = {**space.base(), "moai_height_scale": 1.02}  # rounds back to heights 3..9
    assert space.game_key(same) == space.game_key(space.base())
    other = {**space.base(), "moai_height_scale": 1.2}
    assert space.game_key(other) != space.game_key(space.base())


def test_pareto_keeps_exactly_the_undominated_rows():
    pts = np.array([[1, 5], [2, 2], [5, 1], [3, 3], [2, 2], [6, 6]])
    # (3, 3) is beaten by (2, 2); (6, 6) by all; the two (2, 2) tie and both stay
    assert bal.pareto(pts).tolist() == [True, True, True, False, True, False]


# --- common random numbers on real games ---------------------------------------------------------


def test_candidates_play_the_same_deals(tmp_path):
    """wood_points changes only the score (R8.2): in the random field (L0), whose draws are
    the same, two candidates play the very same games, so statues, rounds and wood agree to
    the last token and the scores differ by exactly the extra points per wood."""
    text = BASE_FILE.format(trials=4, space=WOOD)
    space = load_space(write(tmp_path, text))
    one = bal.measure_block(space, {"wood_points": 1}, 0, 30)
    three = bal.measure_block(space, {"wood_points": 3}, 0, 30)
    a, b = one["3:L0"], three["3:L0"]
    assert a["n"] == b["n"] == 30
    assert a["statues"] == b["statues"] and a["rounds"] == b["rounds"] and a["wood"] == b["wood"]
    assert b["score"] - a["score"] == 2 * a["wood"]
    # and the rungs nest: games 0-10 and 10-30 add up to games 0-30
    parts = bal.add(bal.measure_block(space, {"wood_points": 1}, 0, 10),
                    bal.measure_block(space, {"wood_points": 1}, 10, 30))  # fmt: skip
    for f in ("3:L0", "3:L1"):
        assert parts[f].keys() == one[f].keys()
        for k, v in one[f].items():
            assert parts[f][k] == pytest.approx(v, rel=1e-12)


# --- the whole study -----------------------------------------------------------------------------


TINY = """
name = "tiny"
title = "Tiny balance"
question = "Can seat 0 be made fair at 3 players?"
[balance]
players = [3]
fields = ["L1", "L3"]
trials = 6
population = 3
games = 40
rungs = 2
seed = 7
finalists = 2
jobs = 1
[verify]
games = 60
[adapt]
generations = 1
games = 6
held_out_games = 12
field_games = 30
search_games = 3
[sheet]
games = 30
skill_games = 10
deals = 4
replays = 2
check_games = 2
[space]
wood_points = { kind = "int", low = 1, high = 3 }
palms_epoch3 = { kind = "int", low = 0, high = 5 }
[objectives.seat0]
measure = "seat0"
within = 0.1  # missed by every set-up on so few games
[objectives.statues]
goal = "max"
at_least = 25
[objectives.length]
measure = "length_change"
within = 1
"""


@pytest.mark.slow
def test_balance_writes_its_report(tmp_path, capsys):
    path = write(tmp_path, TINY)
    runs, reports = tmp_path / "runs", tmp_path / "reports"
    assert main(["balance", str(path), "--runs", str(runs), "--reports", str(reports)]) == 0
    out = reports / "tiny"
    md = (out / "report.md").read_text()
    for part in ("## Answer", "## One rule at a time", "## Pareto front",
                 "## Finalists and their smallest fixes, verified on fresh games",
                 "### Smallest fixes", "### In the verdict words", "## Fields that adapt",
                 "## Balance sheets of the smallest fixes"):  # fmt: skip
        assert part in md
    # every worst cell names its field and player count, in the tables and the answer
    answer = md.split("## Answer")[1].split("Made ")[0]
    assert "(L1, 3 players)" in answer or "(L3, 3 players)" in answer
    verified = pd.read_csv(out / "tables" / "verified.csv")
    assert set(verified["where"]) <= {"L1, 3 players", "L3, 3 players"}
    screen = pd.read_csv(out / "tables" / "screen.csv")
    # wood_points 1 and 3, palms_epoch3 0, 3 and 5 (0..5 at 3 values: 0, 2.5 -> 3, 5)
    assert list(zip(screen["setting"], screen["value"].astype(int), strict=True)) == [
        ("wood_points", 1), ("wood_points", 3), ("palms_epoch3", 0), ("palms_epoch3", 3),
        ("palms_epoch3", 5)]  # fmt: skip
    fixes = pd.read_csv(out / "tables" / "fixes.csv")
    assert len(fixes) == 2 and (fixes["fix changes"] <= fixes["finalist changes"]).all()
    trials = pd.read_csv(out / "tables" / "trials.csv")
    assert trials["trial"].tolist() == [0, 1, 2, 3, 4, 5]
    assert (trials["games"] == 40).sum() == 4  # 2 of each batch of 3 reach the top rung
    assert {"base", "finalist 1", "finalist 2"} <= set(verified["setup"])
    assert (verified["games"] == 60).all()
    finalist = (out / "finalists" / "finalist-1.toml").read_text()
    assert finalist.startswith("# tiny, finalist 1:")
    # the report, its verification run and its sheets name their game
    assert json.loads((out / "balance.json").read_text())["game"] == "moai"
    assert json.loads((out / "verification" / "report.json").read_text())["game"] == "moai"
    assert {json.loads(p.read_text())["game"] for p in (out / "sheets").glob("*/sheet.json")} == {
        "moai"}  # fmt: skip
    assert (out / "verification" / "report.md").is_file()
    assert (out / "figures" / "pareto.png").stat().st_size > 0
    # each sheet's check field (L4 self-play on its first 2 deals), said beside its link
    sheets = md.split("## Balance sheets of the smallest fixes")[1]
    links = sheets.count("/sheet.md)")
    said = "under search play (L4, 2 deals) the first bird-man's win share is"
    assert links >= 1 and sheets.count(said) == links
    assert sheets.count("the set-up's effect on it (points): L3 ") == links
    sheet = next((out / "sheets").glob("*/sheet.md")).read_text()
    assert "## Under search play (L4, the check field)" in sheet
    adapted = pd.read_csv(out / "tables" / "adapted.csv")
    assert (adapted["l4_games"] == 3).all()
    # run again: the search is resumed, nothing new is asked and the report is the same
    capsys.readouterr()
    assert main(["balance", str(path), "--runs", str(runs), "--reports", str(reports)]) == 0
    pd.testing.assert_frame_equal(pd.read_csv(out / "tables" / "trials.csv"), trials)
