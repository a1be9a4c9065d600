"""Rule parameters (docs/rules.md, "Rule parameters"): house rules as validated numbers, in the
component file and on the command line, in the digest and the result columns, swept by a
study; and set-up labels that name every difference from the base game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.analysis import variants
from moaisim.cli import main
from moaisim.engine.forward import Games
from moaisim.engine.reference import ReferenceGame
from moaisim.errors import RulesError, UserError
from moaisim.registry import load_strategy
from moaisim.rules import CAMP, Rules

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "moaisim" / "rules" / "default.toml"
#: Columns that say how a game went (not which rules it was played under).
PLAY = ["game", "seat", "strategy", "score", "moai_height", "moai_count", "pawns", "wood",
        "rank", "rounds", "births", "starved", "raids_made", "boats_built",
        "forest_wood"]  # fmt: skip


def setup_of(rules: Rules, game: int = 0) -> dict:
    """The setup event of a game (the reference engine's log)."""
    g = ReferenceGame(
        rules, [load_strategy("greedy")() for _ in range(rules.players)], seed=1, game=game
    )
    events = g.play()
    return next(e for e in events if e["e"] == "setup")


def test_v3_as_parameters_plays_exactly_the_short_variant():
    """removed_epoch1..3 = 2, 2, 1 draws the same removals as `short` (the same chance
    sub-stream), so every game is the same game."""
    short = moaisim.simulate(4, 60, variants="short", seed=7)
    params = moaisim.simulate(
        4, 60, seed=7, params={"removed_epoch1": 2, "removed_epoch2": 2, "removed_epoch3": 1}
    )
    pd.testing.assert_frame_equal(short[PLAY], params[PLAY])
    assert set(params["setup"]) == {"removed_epoch1=2, removed_epoch2=2, removed_epoch3=1"}
    assert set(short["setup"]) == {"short"}
    assert (params["removed_epoch1"] == 2).all() and (short["removed_epoch1"] == 2).all()


def test_removed_cards_leave_each_epoch_pile_but_never_the_admiral():
    rules = Rules.make(3, params={"removed_epoch1": 3, "removed_epoch3": 8})
    deck = setup_of(rules)["epoch_deck"]
    cards = rules.components.epoch_cards
    epochs = [cards[c].epoch for c in deck]
    assert (epochs.count(1), epochs.count(2), epochs.count(3)) == (14 - 3, 13, 9 - 8)
    assert cards[deck[-1]].is_admiral  # epoch 3 is the Admiral alone
    assert epochs == sorted(epochs)  # epoch 1 on 2 on 3 (R1.7)


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_camp_pawns_hand_size_wood_supply_and_forest_spaces_shape_the_setup(engine):
    rules = Rules.make(
        3, params={"camp_pawns": 2, "hand_size": 3, "wood_supply": 4, "forest_spaces": 3}
    )
    if engine == "batch":
        g = Games.new(rules, 1, [0, 1])
        s = g.state
        assert ((s.loc == CAMP).sum(axis=2) == 6).all()  # 2 of each strength (R1.5)
        assert (s.hand.sum(axis=2) == 3).all()  # 3 cards dealt (R1.6)
        assert (s.public["wood_supply"] == 4).all()
        assert s.public["forest_wood"].shape[1] == 3
    else:
        setup = setup_of(rules)
        assert [sum(h) for h in setup["hands"]] == [3, 3, 3]
        g = ReferenceGame(rules, [load_strategy("greedy")() for _ in range(3)], seed=1, game=0)
        assert [(g.state.loc[q] == CAMP).sum() for q in range(3)] == [6, 6, 6]
        assert g.state.wood_supply == 4 and len(g.state.forest_wood) == 3


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_wood_points_score_the_wood(engine):
    df = moaisim.simulate(3, 30, params={"wood_points": 5}, engine=engine, seed=2)
    assert (df["score"] == df["moai_height"] + df["pawns"] + 5 * df["wood"]).all()
    assert (df["wood"] > 0).any()
    rec = moaisim.play(3, seed=2, params={"wood_points": 5})
    assert "Moai height + living pawns + 5 x wood" in rec.text()


def test_both_engines_play_the_same_games_under_parameters():
    params = {"removed_epoch2": 4, "hand_size": 4, "camp_pawns": 2, "wood_points": 3,
              "wood_supply": 9, "forest_spaces": 4}  # fmt: skip
    kw = dict(strategies="greedy,random", seed=5, params=params)
    pd.testing.assert_frame_equal(
        moaisim.simulate(4, 12, engine="reference", **kw), moaisim.simulate(4, 12, **kw)
    )


def test_the_digest_covers_parameters_and_keeps_the_default_digest():
    base = Rules.make(4)
    # the base game's digest as the code gave it before rule parameters existed
    assert base.digest() == "628c56354d58b045ff4d58618807fec53c0c5d641402306c0eff7cfa7b65f71b"
    assert Rules.make(4, params={"wood_supply": 15}).digest() == base.digest()
    assert Rules.make(4, params={"wood_supply": 14}).digest() != base.digest()
    assert Rules.make(4, params={"removed_epoch3": 1}).digest() != base.digest()


def test_a_component_file_may_set_parameters_and_its_explicit_defaults_change_nothing(tmp_path):
    text = DEFAULT.read_text()
    same = tmp_path / "same.toml"
    same.write_text(text.replace("total = 36\n", "total = 36\nremoved = { 1 = 0, 2 = 0, 3 = 0 }\n")
                    + "\n[score]\nwood_points = 2\n")  # fmt: skip
    assert Rules.make(3, components=same).digest() == Rules.make(3).digest()
    house = tmp_path / "house.toml"
    house.write_text(text.replace("total = 36\n", "total = 36\nremoved = { 3 = 2 }\n")
                     + "\n[score]\nwood_points = 3\n")  # fmt: skip
    rules = Rules.make(3, components=house)
    assert rules.params()["removed_epoch3"] == 2 and rules.params()["wood_points"] == 3
    assert rules.setup == "removed_epoch3=2, wood_points=3"  # no other difference
    assert rules == Rules.make(3, params={"removed_epoch3": 2, "wood_points": 3})


@pytest.mark.parametrize(
    "params, variant, message",
    [
        ({"removed_epoch3": 9}, None, "epoch.removed.3 must be an integer from 0 to 8"),
        ({"removed_epoch1": -1}, None, "epoch.removed.1 must be an integer from 0 to 14"),
        ({"camp_pawns": 7}, None, "exceeds pawns.per_strength = 6"),
        ({"hand_size": 21}, None, "cannot deal 21 cards to 2 players"),
        ({"wood_points": 101}, None, "score.wood_points must be an integer from 0 to 100"),
        ({"removed_epoch3": 1}, "short", "give it or the removed_epoch parameters, not both"),
        ({"wood": 3}, None, "unknown rule parameter 'wood'"),
        ({"wood_supply": 2.5}, None, "wood_supply must be a whole number"),
    ],
)
def test_bad_parameters_are_one_clear_error(params, variant, message):
    with pytest.raises(RulesError, match=message):
        Rules.make(4, variant, params=params)


def test_the_command_line_sweeps_a_parameter_and_labels_every_cell(capsys, tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "-p", "3", "-n", "30", "--param", "removed_epoch3=0,1,2",
            "--param", "wood_points=2", "-o", str(out), "-q"]  # fmt: skip
    assert main(args) == 0
    df = moaisim.load_results(out)
    cells = df.groupby("cell", observed=True)[["setup", "removed_epoch3"]].first()
    assert cells.to_dict("list") == {
        "setup": ["base", "removed_epoch3=1", "removed_epoch3=2"],
        "removed_epoch3": [0, 1, 2],
    }
    manifest = json.loads((out / "manifest.json").read_text())
    assert [c["removed_epoch3"] for c in manifest["study"]["cells"]] == [0, 1, 2]
    for bad, message in (
        (["--param", "nope=1"], "unknown rule parameter 'nope'"),
        (["--param", "wood_supply=ten"], "values must be whole numbers"),
        (["--param", "wood_supply=4,4"], "a value is given twice"),
        (["--param", "removed_epoch3=9"], "epoch.removed.3 must be an integer from 0 to 8"),
    ):
        assert main(["simulate", "-p", "3", "-n", "2", "-q", *bad]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    assert main(["play", "-p", "3", "--param", "wood_supply=4,5"]) == 2
    assert "give one value here" in capsys.readouterr().err


def test_a_component_file_cell_is_named_and_compared_with_base(tmp_path):
    """Three component files in one study: a copy of the default under another name is the
    base game; a file whose deck differs is named by its name and digest, and the variants
    table pairs it with base like any other difference."""
    renamed = tmp_path / "renamed.toml"
    renamed.write_text(DEFAULT.read_text().replace('name = "default"', 'name = "renamed"'))
    palms = tmp_path / "palms.toml"
    palms.write_text(
        DEFAULT.read_text()
        .replace('name = "default"', 'name = "palms"')
        .replace('"neutral 2/3",', '"neutral 2/3*",')  # one more palm in epoch 1
    )
    df = moaisim.simulate(3, 300, components=[None, renamed, palms], seed=4)
    setups = df.groupby("cell", observed=True)["setup"].first().tolist()
    assert setups[:2] == ["base", "base"] and setups[2].startswith("components=palms#")
    assert df.groupby("cell", observed=True)["components"].first().tolist() == [
        "default",
        "renamed",
        "palms",
    ]
    table = variants(df[df["cell"] != 1])
    assert set(table["change"]) == {setups[2]}
    with pytest.raises(UserError, match="the grid names the same cell twice"):
        moaisim.simulate(3, 3, components=[DEFAULT, DEFAULT])


def test_variants_compare_every_kind_of_difference_with_base():
    df = moaisim.simulate(3, 200, variants=["base", "fixed-disasters"], turn_order=["hill",
                          "clockwise"], params={"wood_supply": [15, 10]}, seed=3)  # fmt: skip
    changes = set(variants(df)["change"])
    assert changes == {
        "fixed-disasters", "turn_order=clockwise", "wood_supply=10",
        "fixed-disasters, turn_order=clockwise", "fixed-disasters, wood_supply=10",
        "turn_order=clockwise, wood_supply=10", "fixed-disasters, turn_order=clockwise, "
        "wood_supply=10",
    }  # fmt: skip
    # a sweep without the base game is compared with its cell closest to base
    sweep = moaisim.simulate(3, 50, params={"removed_epoch3": [1, 2]}, seed=3)
    assert set(variants(sweep)["change"]) == {"removed_epoch3=2 (against removed_epoch3=1)"}


def test_an_experiment_sweeps_parameters(tmp_path):
    exp = tmp_path / "e.toml"
    exp.write_text('name = "e"\n[study]\nplayers = 3\ngames = 20\n'
                   "[study.params]\nremoved_epoch3 = [0, 2]\nwood_points = 3\n")  # fmt: skip
    from moaisim.studies.experiment import load_experiment, study_of

    study = study_of(load_experiment(exp))
    assert [c.rules.setup for c in study.cells] == [
        "wood_points=3",
        "removed_epoch3=2, wood_points=3",
    ]
    exp.write_text('name = "e"\n[study]\nplayers = 3\ngames = 20\n[study.params]\nwood = 3\n')
    with pytest.raises(UserError, match="study.params names 'wood', not a rule parameter"):
        load_experiment(exp)


def test_moaisim_variants_lists_the_parameters_with_their_defaults(capsys):
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    for line in ("removed_epoch3", "wood_supply", "(default 15; R1.2, C5)", "(default 2; R8.2)"):
        assert line in out


def test_a_study_with_a_rules_object_refuses_a_second_source_of_parameters():
    rules = Rules.make(3, params={"wood_supply": 9})
    df = moaisim.simulate(3, 4, rules=rules)
    assert set(df["wood_supply"]) == {9}
    with pytest.raises(UserError, match="a Rules object fixes the rule parameters"):
        moaisim.simulate(3, 4, rules=rules, params={"wood_supply": 9})
    with pytest.raises(UserError, match="wood_supply=8 disagrees"):
        moaisim.play(3, seed=1, rules=rules, params={"wood_supply": 8})
    assert np.isin(["setup", "components", "wood_points"], df.columns).all()
