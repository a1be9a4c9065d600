"""Rule parameters (docs/rules.md, "Rule parameters"): house rules as validated numbers, in the
component file and on the command line, in the digest and the result columns, swept by a
study; and set-up labels that name every difference from the base game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scenario import card_id, done, events, give, scenario, script

import moaisim
from moaisim.analysis import strategies, variants
from moaisim.analysis.sheet import score_sources
from moaisim.cli import main
from moaisim.errors import RulesError, UserError
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.rules import CAMP, Rules
from moaisim.games.moai.rules.parameters import LATER
from moaisim.registry import load_strategy
from moaisim.rundir import serialize, study_digest
from moaisim.studies.versus import versus

ROOT = Path(__file__).parents[1]
DEFAULT = ROOT / "moaisim" / "games" / "moai" / "rules" / "default.toml"
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


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_moai_points_score_each_metre_of_moai_height(engine):
    """R8.2 with `moai_points`: 3 points per metre, or none; `moai_height` stays the height,
    and the per-round table's score counts the same points."""
    df, rounds = moaisim.simulate(3, 30, params={"moai_points": 3}, engine=engine, seed=2,
                                  rounds=True)  # fmt: skip
    assert (df["score"] == 3 * df["moai_height"] + df["pawns"] + 2 * df["wood"]).all()
    assert (df["moai_height"] > 0).any() and set(df["moai_points"]) == {3}
    living = rounds[["forest", "fields", "volcano", "ocean", "camp"]].sum(axis=1)
    assert (rounds["score"] == 3 * rounds["moai_height"] + living + 2 * rounds["wood"]).all()
    none = moaisim.simulate(3, 30, params={"moai_points": 0}, engine=engine, seed=2)
    assert (none["score"] == none["pawns"] + 2 * none["wood"]).all()
    assert (none["moai_height"] > 0).any()  # statues are still carved, for no points
    rec = moaisim.play(3, seed=2, params={"moai_points": 3, "wood_points": 5}, engine=engine)
    assert "Final scores (3 x Moai height + living pawns + 5 x wood):" in rec.text()
    assert "(Moai height + living pawns + 2 x wood)" in moaisim.play(3, seed=2).text()


def first_reveal(players: int, cards: list, params: dict) -> tuple[list[int], list[bool], int]:
    """The running engine's first reveal on an empty table whose epoch deck starts with these
    cards ("label" or ("label", nth)), under `params`: the spaces its event says got wood,
    the forest's wood after it, and the supply left."""
    g = scenario(players, params=params)
    g.state.epoch_deck = [card_id(g, c) if isinstance(c, str) else card_id(g, *c) for c in cards]
    for seat in range(1, players):  # seat k bids k cards of value 1: no tie
        give(g, seat, c1=seat)
        script(g, seat, ("bid", [seat, 0, 0, 0, 0, 0]))
    g.birdman_phase()
    done(g)
    return events(g, "reveal")[0]["wood"], g.state.forest_wood.tolist(), g.state.wood_supply


#: 3 players turn up 4 cards: two palms among them, or four.
TWO_PALMS = ["neutral 3/2*", "neutral 2/3", "fire 2/3", "neutral 3/3*", "boat 2/2"]
FOUR_PALMS = ["neutral 3/2*", "neutral 3/3*", "neutral 2/2*", "boat 3/2*", "neutral 2/3"]


@pytest.mark.usefixtures("engine")
@pytest.mark.parametrize(
    "cards, params, spaces, supply",
    [
        # 2 palms x 2 tokens: spaces 1-4 of 6, from a supply of 15
        (TWO_PALMS, {"wood_per_palm": 2}, 4, 15 - 4),
        # 4 palms x 2 = 8 tokens, but one per space: the 6 spaces, 2 tokens stay in the supply
        (FOUR_PALMS, {"wood_per_palm": 2}, 6, 15 - 6),
        # 2 palms x 3 = 6 tokens, but the supply has 4
        (TWO_PALMS, {"wood_per_palm": 3, "wood_supply": 4}, 4, 0),
        # 2 palms x 10 = 20 tokens on a forest of 9 spaces
        (TWO_PALMS, {"wood_per_palm": 10, "forest_spaces": 9}, 9, 15 - 9),
        # no token per palm: nothing comes out
        (FOUR_PALMS, {"wood_per_palm": 0}, 0, 15),
        # the rulebook: one per palm
        (FOUR_PALMS, {}, 4, 15 - 4),
    ],
)
def test_wood_per_palm_puts_that_many_tokens_per_palm_one_per_space(cards, params, spaces,
                                                                      supply):  # fmt: skip
    wood, forest, left = first_reveal(3, cards, params)
    assert wood == list(range(spaces))
    assert forest == [k < spaces for k in range(params.get("forest_spaces", 6))]
    assert left == supply


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_wood_per_palm_fills_the_first_rounds_forest_in_whole_games(engine):
    """In played games, round 1's reveal puts min(2 x palms, supply, spaces) tokens on
    spaces 1, 2...: the palms counted from the cards the event names."""
    rules = Rules.make(4, params={"wood_per_palm": 2})
    cards = rules.components.epoch_cards
    counts = set()
    for game in range(12):
        rec = moaisim.play(4, seed=3, game=game, params={"wood_per_palm": 2}, engine=engine)
        reveal = next(e for e in rec.events if e["e"] == "reveal")
        palms = sum(cards[c].palm for c in reveal["cards"])
        assert reveal["wood"] == list(range(min(2 * palms, 15, 6)))
        counts.add(palms)
    assert len(counts) > 1 and min(counts) * 2 < 6  # games that differ, some under the cap


def test_the_score_s_parts_count_the_moai_points():
    """The analyses that split a score (the strategies table, the balance sheet's sources,
    versus) count the statues at `moai_points` per metre, and what is left is the wood's."""
    df = moaisim.simulate(3, 40, strategies="greedy,random", seed=8, params={"moai_points": 3})
    statues, wood = 3 * df["moai_height"], 2 * df["wood"]
    table = strategies(df).set_index("strategy")
    for name, part in df.groupby("strategy", observed=True):
        row = table.loc[name]
        assert row["moai_height"] == pytest.approx(part["moai_height"].mean())
        assert row["moai_score"] == pytest.approx(3 * part["moai_height"].mean())
        assert row["wood_score"] == pytest.approx(2 * part["wood"].mean())
    every = score_sources(df).set_index("who").loc["every seat"]
    assert every["from_statues"] == pytest.approx(statues.sum() / df["score"].sum())
    assert every["from_wood"] == pytest.approx(wood.sum() / df["score"].sum())
    duel = versus(
        "greedy", "random", players=3, games=30, seed=8, params={"moai_points": 3}, game="moai"
    )
    parts = 3 * duel["moai_height"] + duel["pawns"] + duel["wood_score"]
    assert np.allclose(duel["score"], parts) and (duel["moai_height"] > 0).all()


def recorded_before(run: Path, names: list[str]) -> None:
    """Make a run directory one recorded before the parameters `names` existed: their keys
    gone from the manifest's cells and their columns from the parts, the parts' records
    (checksums, study digest) rewritten to match."""
    manifest = json.loads((run / "manifest.json").read_text())
    for cell in manifest["study"]["cells"]:
        for name in names:
            del cell[name]
    (run / "manifest.json").write_text(json.dumps(manifest))
    study = study_digest(manifest["study"])
    entries = [json.loads(line) for line in (run / "parts.jsonl").read_text().splitlines()]
    for entry in entries:
        part = serialize(pd.read_parquet(run / entry["file"]).drop(columns=names))
        (run / entry["file"]).write_bytes(part.data)
        entry.update(bytes=len(part.data), sha256=part.sha256, study=study)
    (run / "parts.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))


def test_a_run_recorded_before_moai_points_and_wood_per_palm_reads_them_as_1(tmp_path):
    new, old = tmp_path / "new", tmp_path / "old"
    kw = dict(strategies="greedy,random", seed=6, params={"wood_points": [2, 1]}, chunk_size=10)
    moaisim.simulate(3, 20, out=new, **kw)
    moaisim.simulate(3, 20, out=old, **kw)
    recorded_before(old, ["moai_points", "wood_per_palm"])
    part = next((old / "parts").glob("*.parquet"))
    assert "moai_points" not in pd.read_parquet(part).columns
    loaded = moaisim.load_results(old)
    assert set(loaded["moai_points"]) == {1} and set(loaded["wood_per_palm"]) == {1}
    pd.testing.assert_frame_equal(loaded, moaisim.load_results(new))
    pd.testing.assert_frame_equal(strategies(old), strategies(new))


def test_both_engines_play_the_same_games_under_parameters():
    params = {"removed_epoch2": 4, "hand_size": 4, "camp_pawns": 2, "wood_points": 3,
              "wood_supply": 9, "forest_spaces": 4, "moai_points": 2,
              "wood_per_palm": 2}  # fmt: skip
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
    # the parameters added later leave it too at their defaults (1 and 1), not elsewhere
    later = {"moai_points": 1, "wood_per_palm": 1}
    assert Rules.make(4, params=later).digest() == base.digest()
    assert Rules.make(4, params=later).setup == "base"
    assert Rules.make(4, params={"moai_points": 2}).digest() != base.digest()
    assert Rules.make(4, params={"wood_per_palm": 2}).digest() != base.digest()
    assert Rules.make(4, params={"wood_per_palm": 2}).setup == "wood_per_palm=2"
    # what a results table recorded before them is read with: the rulebook's values
    assert {name: base.params()[name] for name in LATER} == later


def test_a_component_file_may_set_parameters_and_its_explicit_defaults_change_nothing(tmp_path):
    text = DEFAULT.read_text()
    same = tmp_path / "same.toml"
    same.write_text(text.replace("total = 36\n", "total = 36\nremoved = { 1 = 0, 2 = 0, 3 = 0 }\n")
                    .replace("wood = 15 ", "wood = 15\nwood_per_palm = 1 ")
                    + "\n[score]\nwood_points = 2\nmoai_points = 1\n")  # fmt: skip
    assert Rules.make(3, components=same).digest() == Rules.make(3).digest()
    house = tmp_path / "house.toml"
    house.write_text(text.replace("total = 36\n", "total = 36\nremoved = { 3 = 2 }\n")
                     + "\n[score]\nwood_points = 3\n")  # fmt: skip
    rules = Rules.make(3, components=house)
    assert rules.params()["removed_epoch3"] == 2 and rules.params()["wood_points"] == 3
    assert rules.setup == "removed_epoch3=2, wood_points=3"  # no other difference
    assert rules == Rules.make(3, params={"removed_epoch3": 2, "wood_points": 3})
    later = tmp_path / "later.toml"
    later.write_text(text.replace("wood = 15 ", "wood = 15\nwood_per_palm = 2 ")
                     + "\n[score]\nmoai_points = 4\n")  # fmt: skip
    rules = Rules.make(3, components=later)
    assert rules.params()["wood_per_palm"] == 2 and rules.params()["moai_points"] == 4
    assert rules.params()["wood_points"] == 2  # a key of [score] left out: the rulebook's
    assert rules.setup == "moai_points=4, wood_per_palm=2"
    assert rules == Rules.make(3, params={"moai_points": 4, "wood_per_palm": 2})


@pytest.mark.parametrize(
    "params, variant, message",
    [
        ({"removed_epoch3": 9}, None, "epoch.removed.3 must be an integer from 0 to 8"),
        ({"removed_epoch1": -1}, None, "epoch.removed.1 must be an integer from 0 to 14"),
        ({"camp_pawns": 7}, None, "exceeds pawns.per_strength = 6"),
        ({"hand_size": 21}, None, "cannot deal 21 cards to 2 players"),
        ({"wood_points": 101}, None, "score.wood_points must be an integer from 0 to 100"),
        ({"moai_points": 101}, None, "score.moai_points must be an integer from 0 to 100, got 101"),
        ({"moai_points": -1}, None, "score.moai_points must be an integer from 0 to 100, got -1"),
        ({"wood_per_palm": 11}, None, "board.wood_per_palm must be an integer from 0 to 10, got 1"),
        ({"wood_per_palm": -1}, None, "board.wood_per_palm must be an integer from 0 to 10"),
        ({"wood_per_palm": True}, None, "wood_per_palm must be a whole number"),
        ({"removed_epoch3": 1}, "short", "give it or the removed_epoch parameters, not both"),
        ({"wood": 3}, None, "unknown rule parameter 'wood'"),
        ({"wood_supply": 2.5}, None, "wood_supply must be a whole number"),
    ],
)
def test_bad_parameters_are_one_clear_error(params, variant, message):
    with pytest.raises(RulesError, match=message) as error:
        Rules.make(4, variant, params=params)
    assert "\n" not in str(error.value)


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
    for line in ("removed_epoch3", "wood_supply", "(default 15; R1.2, C5)", "(default 2; R8.2)",
                 "moai_points           points per metre of Moai height at the end (default 1; "
                 "R8.2)", "wood_per_palm         wood tokens put in the forest per palm turned "
                 "up (default 1; R3.1)"):  # fmt: skip
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


def test_every_simple_parameter_reaches_each_place_derived_from_its_record():
    """A simple rule parameter is one record (docs/design.md, "Adding a rule parameter"):
    the component file's schema and range, its value on the component set, the results
    column and its type, the set-up label and digest, --param and its help, and the rules
    book's table all come from it."""
    from moaisim.games.moai.engine.compiled.arrays import consts
    from moaisim.games.moai.engine.results import COLUMNS, DTYPES
    from moaisim.games.moai.rules.components import _OPTIONAL, _SCHEMA
    from moaisim.games.moai.rules.model import parameter_table
    from moaisim.games.moai.rules.parameters import SIMPLE, listing, parse_assignments

    assert {"wood_points", "moai_points", "wood_per_palm"} <= set(SIMPLE)
    base = Rules.make(3)
    book = (ROOT / "docs" / "rules.md").read_text()
    assert parameter_table() in book  # the rules book's table is the records' own
    for name, p in SIMPLE.items():
        section, key = p.key[0], p.key[-1]
        assert key in _SCHEMA[section] and key in _OPTIONAL[section]
        assert getattr(base.components, name) == p.default
        assert name in COLUMNS and DTYPES[name] == "int16"
        assert name in listing() and parse_assignments([f"{name}={p.high}"]) == {name: [p.high]}
        changed = Rules.make(3, params={name: p.high})
        assert getattr(changed.components, name) == p.high
        # the compiled kernels' constant of that name (`Consts`)
        assert getattr(consts(base), name) == p.default
        assert getattr(consts(changed), name) == p.high
        assert changed.setup == f"{name}={p.high}" and changed.digest() != base.digest()
        with pytest.raises(RulesError, match=f"{section}.{key} must be an integer from "
                                             f"{p.low} to {p.high}"):  # fmt: skip
            Rules.make(3, params={name: p.high + 1})


def test_a_later_parameter_at_its_default_keeps_the_digest_recorded_before_it():
    """The digests of set-ups recorded before wood_points, moai_points and wood_per_palm
    existed (their values then: the rulebook's) are those of the same set-ups now."""
    assert Rules.make(3).digest().startswith("a1c0b0187edc")
    assert Rules.make(3, params={"moai_points": 2}).digest().startswith("ec21c4fc4d4d")
    assert Rules.make(3, params={"wood_points": 3}).digest().startswith("dc04e77b8b8f")
    assert Rules.make(3, params={"wood_per_palm": 2}).digest().startswith("9e5a9e2a34bf")


def test_every_simple_rapa_nui_parameter_reaches_each_place_derived_from_its_record():
    """Rapa Nui's simple rule parameters derive as Moai's do (docs/design.md, "Adding a rule
    parameter"): from its record (and its value in the shipped file) each reaches the
    component file's schema and range check, its value on the component set, the kernels'
    constant of its name (`Consts`), the results column, the set-up label and digest, --param
    and its help, and the rules book's table."""
    from moaisim.games.rapa_nui.engine.batch import consts
    from moaisim.games.rapa_nui.engine.results import COLUMNS, DTYPES, provenance
    from moaisim.games.rapa_nui.rules.components import (
        SCHEMA,
        component_document,
        components_from_dict,
    )
    from moaisim.games.rapa_nui.rules.model import Rules as RapaRules
    from moaisim.games.rapa_nui.rules.model import contents, parameter_table
    from moaisim.games.rapa_nui.rules.parameters import SIMPLE, listing, parse_assignments

    assert {"sacrifice_price", "moai_cost", "bonus_lumberjack", "bonus_priest", "bonus_moai",
            "bonus_hg", "moai_glory", "wood_per_glory"} <= set(SIMPLE)  # fmt: skip
    shipped, _ = component_document()
    base = RapaRules.make(3)
    others: dict[str, int] = {}
    for name, p in SIMPLE.items():
        section, key = p.key
        default = shipped[section][key]
        other = others[name] = p.high if default != p.high else p.low
        assert SCHEMA[section][key] is None  # a whole number at its own key
        assert getattr(base.components, name) == default == base.params()[name]
        assert getattr(consts(base), name) == default  # the kernels' constant of that name
        assert name in COLUMNS and DTYPES[name] == "int16"
        assert f"{name} ({p.low}-{p.high})" in listing()
        assert parse_assignments([f"{name}={other}"]) == {name: [other]}
        assert f"| `{name}` | {default} | {p.low}-{p.high} | {p.rule} |" in parameter_table()
        changed = RapaRules.make(3, params={name: other})
        assert getattr(changed.components, name) == other
        assert getattr(consts(changed), name) == other
        assert provenance(changed)[name] == other
        assert changed.setup == f"{name}={other}" and changed.digest() != base.digest()
        assert contents(changed.components) == contents(base.components)
        with pytest.raises(RulesError, match=f"rule parameter {name}={p.high + 1} is outside "
                                             f"{p.low}..{p.high}"):  # fmt: skip
            RapaRules.make(3, params={name: p.high + 1})
        # the component file's key: required, and within the record's range
        for value, said in ((p.high + 1, f"{section}.{key} \\({name}\\) = {p.high + 1} is "
                             f"outside {p.low}..{p.high}"), (None, f"{section}.{key} is "
                             "missing")):  # fmt: skip
            broken = {s: dict(t) if isinstance(t, dict) else t for s, t in shipped.items()}
            if value is None:
                del broken[section][key]
            else:
                broken[section][key] = value
            with pytest.raises(RulesError, match=f"component file 'c.toml': {said}$"):
                components_from_dict(broken, "c.toml")
    # played: every row's column holds the value each was set to
    df = moaisim.simulate(3, 2, strategies="random", game_name="rapa-nui", params=others)
    for name, value in others.items():
        assert (df[name] == value).all(), name


def test_one_at_a_time_plays_the_base_and_each_other_value_alone():
    # issue 60: a counted rule's neighbours beside its far values, without a full grid:
    # three bonuses of four values each are 1 + 3 x 3 = 10 set-ups, not 4^3 = 64
    from moaisim.runner import make_study, param_sets

    lists = {"a": [2, 0, 1, 3], "b": [2, 0, 1, 3], "c": [2, 0, 1, 3]}
    sets = param_sets(lists, "one-at-a-time")
    assert len(sets) == 10 and len(param_sets(lists)) == 64
    assert sets[0] == {"a": 2, "b": 2, "c": 2}
    assert sets[1:4] == [{"a": 0, "b": 2, "c": 2}, {"a": 1, "b": 2, "c": 2},
                         {"a": 3, "b": 2, "c": 2}]  # fmt: skip
    assert sets[-1] == {"a": 2, "b": 2, "c": 3}
    study = make_study(3, 10, ["L2"], params={"bonus_priest": [2, 0, 1, 3],
                       "bonus_moai": [2, 0]}, vary="one-at-a-time", game="rapa-nui")  # fmt: skip
    setups = [c.rules.setup for c in study.cells]
    assert setups == ["base", "bonus_priest=0", "bonus_priest=1", "bonus_priest=3",
                      "bonus_moai=0"]  # fmt: skip
    with pytest.raises(UserError, match="vary must be one of grid, one-at-a-time"):
        make_study(3, 10, ["L2"], params={"bonus_moai": [2, 0]}, vary="some", game="rapa-nui")


def test_an_experiment_file_checks_its_vary(tmp_path):
    from moaisim.studies.experiment import load_experiment

    f = tmp_path / "e.toml"
    f.write_text('game = "rapa-nui"\nname = "e"\n[study]\nplayers = 3\nstrategies = "L2"\n'
                 'games = 10\nvary = "diagonal"\nparams = {bonus_moai = [2, 0]}\n')  # fmt: skip
    with pytest.raises(UserError, match="vary.*must be one of 'grid', 'one-at-a-time'"):
        load_experiment(f)
