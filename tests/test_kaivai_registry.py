"""Kaivai as a game of the toolkit (`--game kaivai`): its component file read key by key, its
rule parameters and component edits, its results and per-round tables from both engines, and
its restrictions as the rules book's moves (docs/kaivai-rules.md)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.errors import RulesError, UserError
from moaisim.games import load_game
from moaisim.games.kaivai.rules.components import component_document, components_from_dict
from moaisim.games.kaivai.rules.model import Rules

KAIVAI = load_game("kaivai")


def test_the_shipped_component_file_holds_section_c_and_its_parameters():
    c = Rules.make(3).components
    assert (c.radius, c.huts, c.boats, c.temple_statues, c.rounds) == (6, 15, 4, 5, 10)
    assert c.sale_shells == (5, 4, 3) and c.bid_distance == (1, 2, 3, 4, 5, 4, 3, 2, 1, 0)
    assert KAIVAI.parameter_values(c) == {
        "rounds": 10, "boats": 4, "start_influence": 3, "sacrifice_influence": 2,
        "sink_cost_base": 6, "sale_first": 5, "sale_second": 4, "sale_third": 3,
    }  # fmt: skip


@pytest.mark.parametrize("change, said", [
    (lambda d: d["tracks"].pop("freshness"), "tracks.freshness is missing"),
    (lambda d: d["tracks"].update(sale_shells=[5, 4]), "a price for each of the 3 fish"),
    (lambda d: d["board"].update(printed_cult_sites=[[9, 0]]), "is outside -6..6"),
    (lambda d: d["per_player"].update(boats=0), "per_player.boats = 0 is outside 1..6"),
    (lambda d: d.update(colour="red"), "unknown section or key 'colour'"),
    (lambda d: d["game"].update(extra_sites={"3": 1}), "extra islands at 3 and at 4 players"),
])  # fmt: skip
def test_a_component_file_mistake_is_one_line(change, said):
    doc, _ = component_document()
    change(doc)
    with pytest.raises(RulesError, match=said) as info:
        components_from_dict(doc, "mine.toml")
    assert "\n" not in str(info.value) and "mine.toml" in str(info.value)


def test_rounds_is_either_editions_and_the_games_play_them():
    # R2.1: 10 rounds, 8 in the second edition; the parameter sets both
    assert (Rules.make(3).rounds, Rules.make(3, edition="second").rounds) == (10, 8)
    short = Rules.make(3, params={"rounds": 6}, edition="second")
    assert short.rounds == 6 and short.params()["rounds"] == 6
    assert short.setup == "edition=second, rounds=6"
    for engine in ("batch", "reference"):
        df = moaisim.simulate(3, 2, strategies="greedy", seed=3, engine=engine,
                              game_name="kaivai", rules=short)  # fmt: skip
        assert (df["rounds"] == 6).all()
    g = KAIVAI.Games.new(short, 3, [0, 1], rounds=True).play([KAIVAI.Strategy()] * 3)
    assert sorted(g.round_table()["round"].unique()) == [1, 2, 3, 4, 5, 6]


def test_a_parameter_out_of_range_or_unknown_is_one_line():
    with pytest.raises(RulesError, match=r"rule parameter sale_first=0 is outside 1\.\.12"):
        Rules.make(3, params={"sale_first": 0})
    with pytest.raises(RulesError, match="--param bots=2: .* not a whole|unknown rule parameter"):
        KAIVAI.parse_assignments(["bots=2"])
    assert KAIVAI.parse_assignments(["sale_first=4,6", "rounds=8"]) == {
        "sale_first": [4, 6], "rounds": [8]}  # fmt: skip


def test_component_edits_change_their_figures_and_guard_the_published_totals():
    doc, _ = component_document()
    c = components_from_dict(doc, "x")
    assert {k: KAIVAI.edit_default(c, k) for k in KAIVAI.COMPONENT_EDITS} == {
        "extra_islands_3p": 1, "extra_islands_4p": 2, "dice_sixths_shift": 0,
        "huts_per_player": 15, "temple_statues": 5}  # fmt: skip
    KAIVAI.apply_edit(doc, "dice_sixths_shift", 2, True)
    KAIVAI.apply_edit(doc, "extra_islands_4p", 3, True)
    edited = components_from_dict(doc, "x")
    assert edited.dice_success_sixths == (6, 6, 5, 4)  # 5, 4, 3, 2 sixths, + 2, at most 6
    assert edited.extra_sites == {3: 1, 4: 3}
    with pytest.raises(UserError, match="published total of 15 hut tiles a player"):
        KAIVAI.apply_edit(doc, "huts_per_player", 12, True)
    KAIVAI.apply_edit(doc, "huts_per_player", 12, False)
    assert components_from_dict(doc, "x").huts == 12


def test_both_engines_write_the_same_results_and_the_round_table_ends_where_scoring_begins():
    lineup = ["tuned", "greedy", "restrict(strategy='heuristic', forbid=['celebrate'])"]
    kw = {"seed": 5, "rotation": "none", "game_name": "kaivai"}
    batch = moaisim.simulate(3, 6, strategies=lineup, engine="batch", **kw)
    reference = moaisim.simulate(3, 6, strategies=lineup, engine="reference", **kw)
    pd.testing.assert_frame_equal(batch, reference)
    assert (batch.loc[batch["seat"] == 2, "celebrations"] == 0).all()  # never celebrates
    parts = ["feast_points", "hut_points", "site_points", "piracy_points"]
    assert (batch[parts].sum(axis=1) == batch["score"]).all()
    assert set(batch.groupby("game")["win_share"].sum().round(9)) == {1.0}
    rules = Rules.make(3)
    g = KAIVAI.Games.new(rules, 5, range(6), rounds=True).play(
        [moaisim.load_strategy(s, "kaivai")() for s in lineup]
    )
    table = g.round_table()
    assert len(table) == 6 * rules.rounds * 3
    last = table[table["round"] == rules.rounds].sort_values(["game", "seat"])
    res = g.results().sort_values(["game", "seat"])
    # R9.3, R10: after the last round's decay only the huts and the cult sites score
    np.testing.assert_array_equal(
        last["score"].to_numpy() + res["hut_points"].to_numpy() + res["site_points"].to_numpy(),
        res["score"].to_numpy(),
    )
    assert (last["huts"].to_numpy() == res["huts"].to_numpy()).all()


def test_a_restricted_pirate_never_sinks_sells_or_sacrifices_unforced():
    # R8.4, R8.3, R6.5: the names forbid the moves as the book describes them unless the
    # rules leave nothing else (the move is forced), read from the game's own log (huts
    # never change owner: the log's `hut` events say whose)
    spec = "restrict(strategy='pirate', forbid=['piracy', 'sell', 'sacrifice'])"
    free = sunk = 0
    for seed in (1, 2, 3):
        for name, seats in ((spec, [spec, "pirate", "pirate", "pirate"]),
                            ("pirate", ["pirate"] * 4)):  # fmt: skip
            events = moaisim.play(4, seed, strategies=seats, game_name="kaivai").events
            owner = {tuple(e["hex"]): e["seat"] for e in events if e["e"] == "hut"}
            mine = [e for e in events if e.get("seat") == 0]
            if name == "pirate":
                free += sum(e["e"] == "sunk" for e in mine)
                continue
            assert not any(e["e"] == "sunk" for e in mine)
            for e in mine:  # a rival's hut only when every plan offered has one (forced)
                if e["e"] == "decision" and e["kind"] == "deliver":
                    sells = [any(owner[tuple(h)] != 0 for h, _ in plan) for plan in e["legal"]]
                    assert not sells[e["action"]] or all(sells)
            passes = [e["e"] for e in mine if e["e"] in ("auto_pass", "sacrifice", "action")]
            for k, kind in enumerate(passes):  # a sacrifice only when passing was forced
                if kind == "sacrifice":
                    assert passes[k - 1] == "auto_pass"
            sunk += 1
    assert free > 0 and sunk == 3  # the free pirate does sink boats in these games
