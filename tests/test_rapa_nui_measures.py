"""Rapa Nui's measures, words and component edits (`moaisim.games.rapa_nui.measures`,
`words`, `edits`): the score's parts (R9.1), the per-seat measures and per-game metrics on
results worked out by hand, the vocabulary against Moai's, and each component edit on the
shipped component file (section C)."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from moaisim.errors import UserError
from moaisim.games.moai.measures import GAME_METRICS as MOAI_METRICS
from moaisim.games.moai.words import VOCABULARY as MOAI_VOCABULARY
from moaisim.games.rapa_nui import edits, measures, words
from moaisim.games.rapa_nui.engine.results import COLUMNS, PARTS
from moaisim.games.rapa_nui.rules.components import (
    Components,
    component_document,
    components_from_dict,
    parameter_values,
)
from moaisim.games.rapa_nui.rules.options import OPTIONS
from moaisim.games.rapa_nui.rules.parameters import PARAMETERS

# --- measures ------------------------------------------------------------------------------

#: Three games by hand, each row (cell, game, seat, moai, glory, wood, stock_points) with
#: R9.1's parts: moai_points = moai_glory x Moai (4 in cell 0, 6 in cell 1), wood_points =
#: floor(wood / 5), score = the four parts' sum.
#: cell 0, game 0: 8+5+2+3 = 18, 0+9+0+6 = 15, 4+3+1+2 = 10 (43 in all, 12 from Moai);
#: cell 0, game 1: nobody scores; cell 1, game 0 (2 players): 18+2+2+1 = 23, 6+7+0+4 = 17
#: (40 in all, 24 from Moai).
ROWS = [
    (0, 0, 0, 2, 5, 12, 3, 4),
    (0, 0, 1, 0, 9, 4, 6, 4),
    (0, 0, 2, 1, 3, 7, 2, 4),
    (0, 1, 0, 0, 0, 0, 0, 4),
    (0, 1, 1, 0, 0, 0, 0, 4),
    (0, 1, 2, 0, 0, 0, 0, 4),
    (1, 0, 0, 3, 2, 10, 1, 6),
    (1, 0, 1, 1, 7, 3, 4, 6),
]
SCORES = [18, 15, 10, 0, 0, 0, 23, 17]
MOAI_POINTS = [8, 0, 4, 0, 0, 0, 18, 6]
WOOD_POINTS = [2, 0, 1, 0, 0, 0, 2, 0]


def results(parameters: bool) -> pd.DataFrame:
    """The hand-made results, with the rule parameters' columns or (as a run's parts are
    read) without them."""
    cell, game, seat, moai, glory, wood, stock, moai_glory = map(list, zip(*ROWS, strict=True))
    df = pd.DataFrame({
        "cell": cell, "game": game, "seat": seat, "score": SCORES, "glory": glory,
        "moai_points": MOAI_POINTS, "wood_points": WOOD_POINTS, "stock_points": stock,
        "moai": moai, "wood": wood,
    }).astype({"score": "int32", "glory": "int32", "moai_points": "int32",
               "wood_points": "int32", "stock_points": "int32", "moai": "int16",
               "wood": "int16"})  # fmt: skip
    if parameters:
        df["moai_glory"] = np.array(moai_glory, dtype="int16")
        df["wood_per_glory"] = np.full(len(df), 5, dtype="int16")
    return df


@pytest.mark.parametrize("parameters", [True, False])
def test_score_parts_are_r9_1_s_parts_as_recorded(parameters):
    parts = measures.score_parts(results(parameters))
    assert list(parts.columns) == ["Moai", "glory", "wood", "stock"] == list(measures.SCORE_PARTS)
    assert parts["Moai"].tolist() == [8.0, 0.0, 4.0, 0.0, 0.0, 0.0, 18.0, 6.0]
    assert parts["glory"].tolist() == [5.0, 9.0, 3.0, 0.0, 0.0, 0.0, 2.0, 7.0]
    assert parts["wood"].tolist() == [2.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0]
    assert parts["stock"].tolist() == [3.0, 6.0, 2.0, 0.0, 0.0, 0.0, 1.0, 4.0]
    assert all(parts[c].dtype == np.float64 for c in parts)
    assert parts.sum(axis=1).tolist() == [float(s) for s in SCORES]


def test_score_parts_keep_the_results_index():
    df = results(False).iloc[[6, 7]]
    assert measures.score_parts(df).index.tolist() == [6, 7]
    assert measures.seat_measures(df).index.tolist() == [6, 7]


@pytest.mark.parametrize("parameters", [True, False])
def test_seat_measures(parameters):
    m = measures.seat_measures(results(parameters))
    assert list(m.columns) == list(measures.SEAT_MEASURES)
    assert m.loc[0].tolist() == [2.0, 8.0, 5.0, 2.0, 3.0]
    assert m.loc[6].tolist() == [3.0, 18.0, 2.0, 2.0, 1.0]
    assert m.loc[7].tolist() == [1.0, 6.0, 7.0, 0.0, 4.0]


def test_score_measures_add_up_to_the_score_in_score_parts_order():
    df = results(False)
    m, parts = measures.seat_measures(df), measures.score_parts(df)
    assert m[list(measures.SCORE_MEASURES)].sum(axis=1).tolist() == [float(s) for s in SCORES]
    assert len(measures.SCORE_MEASURES) == len(measures.SCORE_PARTS)
    for measure, part in zip(measures.SCORE_MEASURES, measures.SCORE_PARTS, strict=True):
        assert m[measure].tolist() == parts[part].tolist()


@pytest.mark.parametrize("parameters", [True, False])
def test_game_metrics(parameters):
    g = measures.game_metrics(results(parameters))
    assert list(g.columns) == list(measures.GAME_METRICS)
    assert g.index.names == ["cell", "game"]
    assert g.index.tolist() == [(0, 0), (0, 1), (1, 0)]
    assert g[measures.MOAI_PER_SEAT].tolist() == [1.0, 0.0, 2.0]
    share = g[measures.MOAI_SHARE]
    assert share.loc[(0, 0)] == pytest.approx(12 / 43)
    assert math.isnan(share.loc[(0, 1)])  # nobody scored: nothing to share
    assert share.loc[(1, 0)] == pytest.approx(24 / 40)


def test_game_metrics_by_other_keys():
    g = measures.game_metrics(results(False), by=("cell",))
    assert g[measures.MOAI_PER_SEAT].tolist() == [pytest.approx(3 / 6), 2.0]
    assert g[measures.MOAI_SHARE].tolist() == [pytest.approx(12 / 43), pytest.approx(24 / 40)]


def test_the_measures_read_only_their_columns():
    """What the analysis reads of a run's results (`MEASURE_COLUMNS` and the score) is
    enough, the parameter columns absent (`MEASURE_PARAMETERS` is empty)."""
    df = results(True)
    narrow = df[["cell", "game", "seat", "score", *measures.MEASURE_COLUMNS]]
    assert measures.MEASURE_PARAMETERS == ()
    pd.testing.assert_frame_equal(measures.score_parts(narrow), measures.score_parts(df))
    pd.testing.assert_frame_equal(measures.seat_measures(narrow), measures.seat_measures(df))
    pd.testing.assert_frame_equal(measures.game_metrics(narrow), measures.game_metrics(df))


def test_the_measures_name_results_columns():
    assert set(measures.PART_COLUMNS.values()) == set(PARTS)
    assert set(measures.MEASURE_COLUMNS) <= set(COLUMNS)
    assert set(measures.BLOCK_COLUMNS) <= set(COLUMNS)
    assert set(measures.SEAT_MEASURES) <= set(measures.MEASURE_COLUMNS)
    assert set(measures.SCORE_MEASURES) <= set(measures.SEAT_MEASURES)
    assert set(measures.SHOWN_MEASURES) <= set(measures.SEAT_MEASURES)
    for label, short in measures.SEAT_MEASURES.values():
        assert label and short


def test_game_metrics_are_their_own():
    """Each metric is (how a sentence names it, its unit, a margin or None), named apart from
    Moai's (the verdicts find a metric's game by its name)."""
    assert not set(measures.GAME_METRICS) & set(MOAI_METRICS)
    for said, unit, margin in measures.GAME_METRICS.values():
        assert said and unit
        assert margin is None or margin > 0
    assert measures.GAME_METRICS[measures.MOAI_PER_SEAT][2] == 0.1


# --- words ---------------------------------------------------------------------------------


def test_every_word_moai_has():
    assert set(words.VOCABULARY) >= set(MOAI_VOCABULARY)
    assert all(isinstance(w, str) and w for w in words.VOCABULARY.values())


def test_the_words_fit_the_measures():
    """The headline part is the first score part (the strong-play table's `from_<part>`),
    its column a seat measure (the strategies table's), its count a results column."""
    v = words.VOCABULARY
    assert v["headline_part"] == measures.SCORE_PARTS[0] == "Moai"
    assert v["headline_column"] in measures.SEAT_MEASURES
    assert v["headline_count"] == "moai" and v["headline_count"] in COLUMNS
    assert v["seat_zero_name"] == "start player"
    assert v["score_rule"] == "R9.1"
    assert v["weights_folder"] == "strategies/rapa_nui/weights"
    # the balance search's block sums keep the headline part's points under its name
    assert v["headline_part"] not in measures.BLOCK_COLUMNS


# --- component edits -----------------------------------------------------------------------


#: A value of each edit besides the shipped one, within its range.
SAMPLE: dict[str, Any] = {
    "moai_cards": 5, "priest_cards": 11, "hg_cards_per_type": 4, "display_depth": 2,
    "start_stock": 3, "sacrifice_value_scale": 1.5, "supply_per_type": 40,
}  # fmt: skip


def default_document() -> dict[str, Any]:
    return component_document(None)[0]


def edited(*changes: tuple[str, Any], keep_totals: bool = True) -> Components:
    doc = default_document()
    for name, value in changes:
        edits.apply_edit(doc, name, value, keep_totals)
    return components_from_dict(doc, "edited")


def one_line_error(name: str, value: Any, keep_totals: bool = True) -> str:
    with pytest.raises(UserError) as info:
        edits.apply_edit(default_document(), name, value, keep_totals)
    said = str(info.value)
    assert "\n" not in said and said
    return said


def test_edit_default_is_the_shipped_value():
    shipped = components_from_dict(default_document(), "default.toml")
    assert {n: edits.edit_default(shipped, n) for n in edits.COMPONENT_EDITS} == {
        "moai_cards": 9, "priest_cards": 9, "hg_cards_per_type": 5, "display_depth": 4,
        "start_stock": 1, "sacrifice_value_scale": 1.0, "supply_per_type": 25,
    }  # fmt: skip


@pytest.mark.parametrize("name", list(edits.COMPONENT_EDITS))
def test_the_default_value_leaves_the_document_as_it_is(name):
    shipped = components_from_dict(default_document(), "default.toml")
    doc = default_document()
    edits.apply_edit(doc, name, edits.edit_default(shipped, name), keep_totals=False)
    assert doc == default_document()


@pytest.mark.parametrize(
    ("name", "value", "lumberjacks", "priests", "moai", "hunter_gatherers"),
    [
        ("moai_cards", 12, 9, 9, 12, (5, 5, 5, 5)),
        ("moai_cards", 0, 21, 9, 0, (5, 5, 5, 5)),
        ("moai_cards", 21, 0, 9, 21, (5, 5, 5, 5)),
        ("priest_cards", 6, 15, 6, 9, (5, 5, 5, 5)),
        ("hg_cards_per_type", 6, 8, 9, 9, (6, 6, 6, 6)),
        ("hg_cards_per_type", 8, 0, 9, 9, (8, 8, 8, 8)),
        ("hg_cards_per_type", 3, 20, 9, 9, (3, 3, 3, 3)),
    ],
)
def test_deck_edits_keep_the_deck_s_50_cards(name, value, lumberjacks, priests, moai,
                                            hunter_gatherers):  # fmt: skip
    c = edited((name, value))
    assert (c.lumberjacks, c.priests, c.moai, c.hunter_gatherers) == (
        lumberjacks, priests, moai, hunter_gatherers)  # fmt: skip
    assert c.n_cards == 50


def test_deck_edits_together_in_either_order():
    a = edited(("moai_cards", 12), ("priest_cards", 12), ("hg_cards_per_type", 4))
    b = edited(("hg_cards_per_type", 4), ("priest_cards", 12), ("moai_cards", 12))
    assert a == b
    assert (a.lumberjacks, a.priests, a.moai, a.hunter_gatherers) == (10, 12, 12, (4, 4, 4, 4))
    assert a.n_cards == 50


@pytest.mark.parametrize(
    ("name", "value", "field", "expected"),
    [
        ("display_depth", 3, "depth", 3),
        ("display_depth", 12, "depth", 12),
        ("display_depth", 1, "depth", 1),
        ("start_stock", 2, "start_stock", 2),
        ("start_stock", 6, "start_stock", 6),
        ("start_stock", 0, "start_stock", 0),
        ("sacrifice_value_scale", 1.5, "sacrifice_values", (5, 3, 2, 0)),
        ("sacrifice_value_scale", 0.5, "sacrifice_values", (2, 1, 1, 0)),
        ("sacrifice_value_scale", 2, "sacrifice_values", (6, 4, 2, 0)),
        ("sacrifice_value_scale", 0.0, "sacrifice_values", (0, 0, 0, 0)),
    ],
)
def test_other_edits(name, value, field, expected):
    c = edited((name, value))
    assert getattr(c, field) == expected
    assert c.n_cards == 50 and c.supply == 25


def test_display_depth_deals_columns_of_that_many():
    c = edited(("display_depth", 3))
    assert c.display_cards == 12 and c.columns == 4


def test_supply_changes_the_published_total_only_without_keep_totals():
    said = one_line_error("supply_per_type", 30, keep_totals=True)
    assert "100 sacrifice cards" in said and "keep_totals = false" in said
    c = edited(("supply_per_type", 30), keep_totals=False)
    assert c.supply == 30 and 4 * c.supply == 120
    assert edited(("supply_per_type", 4), keep_totals=False).supply == 4
    assert set(edits.TOTAL_CHANGING) == {"supply_per_type"}


def test_edits_that_keep_totals_keep_them():
    """Every edit but the total-changing ones keeps the deck's 50 cards and the 100
    sacrifice cards, with keep_totals on."""
    for name in set(edits.COMPONENT_EDITS) - set(edits.TOTAL_CHANGING):
        c = edited((name, SAMPLE[name]))
        assert c.n_cards == 50 and c.supply == 25, name


@pytest.mark.parametrize(
    ("name", "value", "keep_totals", "said"),
    [
        ("moai_cards", 22, True, "from 0 to 21 Moai"),
        ("moai_cards", -1, True, "from 0 to 21 Moai"),
        ("priest_cards", 22, True, "from 0 to 21 priests"),
        ("hg_cards_per_type", 9, True, "from 0 to 8 H&G of each of the 4 food types"),
        ("moai_cards", 2.5, True, "whole number"),
        ("moai_cards", True, True, "whole number"),
        ("display_depth", 13, True, "from 1 to 12"),
        ("display_depth", 0, True, "from 1 to 12"),
        ("start_stock", 7, True, "from 0 to 6"),
        ("start_stock", -1, True, "from 0 to 6"),
        ("sacrifice_value_scale", -0.5, True, "at least 0"),
        ("sacrifice_value_scale", float("nan"), True, "at least 0"),
        ("sacrifice_value_scale", 40.0, True, "more than 99"),
        ("sacrifice_value_scale", "2", True, "at least 0"),
        ("supply_per_type", 3, False, "at least 4"),
        ("no_such_edit", 1, True, "unknown component edit"),
    ],
)
def test_out_of_range_is_one_line(name, value, keep_totals, said):
    assert said in one_line_error(name, value, keep_totals)


def test_a_deck_edit_s_range_counts_the_other_edits():
    doc = default_document()
    edits.apply_edit(doc, "moai_cards", 15, True)  # 6 lumberjacks left
    with pytest.raises(UserError, match="from 0 to 15 priests"):
        edits.apply_edit(doc, "priest_cards", 16, True)


def test_edit_default_of_an_unknown_edit():
    shipped = components_from_dict(default_document(), "default.toml")
    with pytest.raises(UserError, match="unknown component edit 'palms_epoch1'"):
        edits.edit_default(shipped, "palms_epoch1")


@pytest.mark.parametrize("name", list(edits.COMPONENT_EDITS))
def test_edits_leave_the_rule_parameters_alone(name):
    """A candidate's rule parameters are set before its edits (`candidate_document`): no
    edit touches a parameter's key."""
    base = parameter_values(components_from_dict(default_document(), "default.toml"))
    assert parameter_values(edited((name, SAMPLE[name]), keep_totals=False)) == base


def test_edit_names_are_not_parameters_or_options():
    assert not set(edits.COMPONENT_EDITS) & (set(PARAMETERS) | set(OPTIONS) | {"variant"})
    for kind, meaning in edits.COMPONENT_EDITS.values():
        assert kind in ("int", "float") and meaning


def test_edits_work_on_a_copy_with_parameters_set():
    from moaisim.games.rapa_nui.rules.components import apply_parameters

    doc = apply_parameters(default_document(), {"moai_cost": 6, "hand_size": 4})
    before = copy.deepcopy(doc)
    edits.apply_edit(doc, "moai_cards", 11, True)
    c = components_from_dict(doc, "edited")
    assert (c.moai, c.lumberjacks, c.moai_cost, c.hand) == (11, 10, 6, 4)
    assert before["deck"]["moai"] == 9  # the edit changed `doc` only


# --- on played games -----------------------------------------------------------------------


@pytest.mark.parametrize("name", [None, *edits.COMPONENT_EDITS])
def test_played_games_split_their_score_into_the_parts(name):
    """One reference game per edit (random play, 3 players): the edited set plays, and its
    results' parts (R9.1) add up to each seat's score."""
    from moaisim.games.rapa_nui.engine.reference import ReferenceGame
    from moaisim.games.rapa_nui.engine.results import frame, seat_rows
    from moaisim.games.rapa_nui.rules.model import Rules
    from moaisim.strategies.rapa_nui.base import Strategy

    doc = default_document()
    if name is not None:
        edits.apply_edit(doc, name, SAMPLE[name], keep_totals=False)
    rules = Rules(3, components_from_dict(doc, "edited"))
    game = ReferenceGame(rules, [Strategy() for _ in range(3)], seed=11, game=0)
    game.play()
    res = frame(seat_rows(game, 11, 0, ["random"] * 3)).assign(cell=0)
    parts = measures.score_parts(res)
    assert parts.sum(axis=1).tolist() == res["score"].astype(float).tolist()
    assert measures.seat_measures(res)["moai"].tolist() == res["moai"].astype(float).tolist()
    assert len(measures.game_metrics(res)) == 1
