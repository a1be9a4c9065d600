"""House rules judged by adapted bots: `tuned(retuned=DIR)` plays weights re-tuned for the very
rules it is seated under, and an experiment's `[retune]` makes them before the study."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import moaisim
from moaisim.errors import UserError
from moaisim.games.moai.rules import Rules
from moaisim.runner import make_study
from moaisim.strategies.moai.tuned import retuned_key
from moaisim.studies.experiment import load_experiment
from moaisim.studies.retune import RetuneSettings, retune, retuned_lineups, targets


def test_tuned_plays_the_weights_retuned_for_its_rules_and_the_shipped_ones_elsewhere(tmp_path):
    house = Rules.make(3, params={"wood_points": 1})
    weights = tmp_path / f"{retuned_key(house)}.toml"
    weights.write_text("[weights]\nmoai = 9.0\nwood = 0.1\n")
    spec = f"tuned(retuned='{tmp_path}')"
    # the base game: no file for its rules, so the shipped weights and the very same games
    base = moaisim.simulate(3, 60, strategies=[spec], seed=3)
    plain = moaisim.simulate(3, 60, strategies=["tuned"], seed=3)
    assert base["score"].equals(plain["score"])
    # the house rule: the re-tuned weights, as `tuned` with those weights on top plays them
    under = moaisim.simulate(3, 60, strategies=[spec], seed=3, params={"wood_points": 1})
    shipped = moaisim.simulate(3, 60, strategies=["tuned"], seed=3, params={"wood_points": 1})
    same = moaisim.simulate(3, 60, strategies=["tuned(weights={'moai': 9.0, 'wood': 0.1})"],
                            seed=3, params={"wood_points": 1})  # fmt: skip
    assert under["score"].equals(same["score"]) and not under["score"].equals(shipped["score"])


def test_every_tuned_seat_of_a_lineup_is_retuned_and_nothing_else():
    where = Path("runs/x-retuned")
    spec = "tuned(retuned='runs/x-retuned')"
    assert retuned_lineups("tuned", where) == spec
    assert retuned_lineups(["tuned,moai", "L3", "tuned(weights='w.toml')"], where) == [
        f"{spec},moai",
        "L3",
        "tuned(weights='w.toml')",
    ]
    assert retuned_lineups({3: ["tuned"]}, where) == {3: [spec]}


def test_retune_settings_are_checked_in_one_line(tmp_path):
    assert RetuneSettings.of(True, game="moai") == RetuneSettings()
    assert RetuneSettings.of({"generations": 2}, game="moai").generations == 2
    for bad, said in (({"gens": 2}, "unknown key retune.gens"), ({"games": 0}, "at least 1"),
                      ({"popsize": 1}, "at least 2"), ("yes", "true or a table")):  # fmt: skip
        with pytest.raises(UserError, match=said):
            RetuneSettings.of(bad, game="moai")
    head = 'name = "m"\n[study]\nplayers = [3]\ngames = 10\n'
    path = tmp_path / "t.toml"
    path.write_text(head + 'tournament = ["tuned", "greedy", "moai"]\n[retune]\ngenerations = 1\n')
    with pytest.raises(UserError, match="not a tournament"):
        load_experiment(path)
    path.write_text(head + "[retune]\ngames = -1\n")
    with pytest.raises(UserError, match="retune.games must be"):
        load_experiment(path)


def test_retune_searches_under_each_house_rule_once_and_keeps_only_a_better_result(tmp_path):
    where = tmp_path / "retuned"
    spec = f"tuned(retuned='{where}')"
    study = make_study(3, 10, [spec, "greedy"], seed=2,
                       params={"wood_points": [2, 1], "hand_size": [4]}, game="moai")  # fmt: skip
    # the set-ups but base that seat tuned: greedy's cells are not re-tuned
    assert [r.setup for r in targets(study)] == ["hand_size=4", "hand_size=4, wood_points=1"]
    tiny = RetuneSettings(generations=1, games=4, held_out_games=6, popsize=2)
    table = retune(study, where, tiny)
    assert list(table["setup"]) == ["hand_size=4", "hand_size=4, wood_points=1"]
    on_disk = pd.read_csv(where / "retuned.csv")
    assert on_disk["plays"].tolist() == table["plays"].tolist()
    for _, r in table.iterrows():
        better = r["retuned"] > r["shipped"]
        assert (r["plays"] != "shipped") == better
        assert (where / str(r["plays"])).is_file() == better
    again = retune(study, where, tiny)  # finished searches are read back, not run again
    assert again.equals(table)
