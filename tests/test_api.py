"""The Python API's contracts: results say which rules made them; a `Rules` object and
arguments that disagree with it are an error, never silently ignored."""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import moaisim
from moaisim.errors import UserError
from moaisim.games.moai.engine.results import COLUMNS
from moaisim.games.moai.rules import Rules


def test_results_carry_every_rule_option_and_the_rules_digest(tmp_path):
    default = resources.files("moaisim.games.moai.rules").joinpath("default.toml").read_text()
    path = tmp_path / "mine.toml"  # the default set under another name: another digest
    path.write_text(default.replace('name = "default"', 'name = "mine"'))
    df = moaisim.simulate(
        3,
        4,
        strategies="random",
        variants="short",
        seed=2,
        components=path,
        turn_order="clockwise",
        spent_wood="out",
    )
    for col in ("variant", "turn_order", "volcano_after_moai", "spent_wood", "rules_digest"):
        assert col in COLUMNS and isinstance(df[col].dtype, pd.CategoricalDtype)
    row = df.iloc[0]
    assert (row.variant, row.turn_order, row.volcano_after_moai, row.spent_wood) == (
        "short",
        "clockwise",
        "stay",
        "out",
    )
    mine = Rules.make(3, "short", path, turn_order="clockwise", spent_wood="out")
    assert set(df["rules_digest"]) == {mine.digest()}
    # the component file is part of the digest: the same rules with the default file differ
    default_rules = Rules.make(3, "short", turn_order="clockwise", spent_wood="out")
    assert default_rules.digest() != mine.digest()
    # tables of two runs concatenate without losing what each measured
    other = moaisim.simulate(3, 4, strategies="random", seed=2)
    both = pd.concat([df, other])
    assert both.groupby(["rules_digest", "spent_wood"], observed=True).size().tolist() == [12, 12]


def test_play_and_simulate_with_a_rules_object_and_matching_arguments():
    rules = Rules.make(4, "short", volcano_after_moai="camp")
    rec = moaisim.play(4, 1, rules=rules, variants="short", volcano_after_moai="camp")
    assert rec.result["variant"].iloc[0] == "short"
    df = moaisim.simulate(4, 2, rules=rules, variants="V3")
    assert set(df["volcano_after_moai"]) == {"camp"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(variants="base"), "variants 'base' disagree with the Rules object's 'short'"),
        (dict(variants="short+open-pawns"), "disagree with the Rules object's 'short'"),
        (dict(turn_order="clockwise"), "turn_order='clockwise' disagrees"),
        (dict(spent_wood="out"), "spent_wood='out' disagrees"),
    ],
)
def test_arguments_that_disagree_with_a_rules_object_are_an_error(kwargs, message):
    rules = Rules.make(3, "short")
    with pytest.raises(UserError, match=message):
        moaisim.simulate(3, 2, rules=rules, **kwargs)
    with pytest.raises(UserError, match=message):
        moaisim.play(3, 0, rules=rules, **kwargs)


def test_unknown_keyword_arguments_are_named():
    with pytest.raises(UserError, match="unknown argument 'volcano_rule'"):
        moaisim.simulate(3, 2, volcano_rule="camp")
    with pytest.raises(UserError, match="unknown argument 'turnorder'"):
        moaisim.play(3, 0, turnorder="hill")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5))
def test_win_share_splits_every_game_among_its_tied_winners(seed, players):
    # R8.2: a shared victory is 1/k to each of the k seats tied first, so a game sums to 1
    df = moaisim.simulate(players, 30, strategies=["random", "greedy"], seed=seed)
    per_game = df.groupby("game")["win_share"].sum()
    assert np.allclose(per_game, 1.0)
    winners = df.groupby("game")["win"].transform("sum")
    assert np.allclose(df["win_share"], np.where(df["win"], 1.0 / winners, 0.0))


def test_the_summary_shows_each_seats_share_in_seat_order():
    from moaisim.runner import summary

    df = moaisim.simulate(3, 200, strategies=["greedy"], seed=4)
    row = summary(df).iloc[0]
    seats = df.groupby("seat")["win_share"].mean()
    assert row["seat_shares"] == " / ".join(f"{100 * x:.1f}" for x in seats) + " %"
