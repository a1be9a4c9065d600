"""Rapa Nui's rules' kernels (`moaisim.games.rapa_nui.rules.scoring`, one home per rule) against
the rules book (docs/rapa-nui-rules.md): the sacrifice price (R3.2), the majority bonus (R7.6),
a stock card's value by its type's place (R9.2-R9.3) and the score (R9.1), each worked out by
hand and checked both compiled (what the machine and the policy call) and as plain Python
(`.py_func`, what the reference engine calls); and the machine's per-round table, whose last
row of a game must be its results row (the results and the table are scored by one kernel)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from moaisim.games.rapa_nui.engine.forward import Games
from moaisim.games.rapa_nui.engine.results import TRACKED
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.games.rapa_nui.rules.options import OPTIONS
from moaisim.games.rapa_nui.rules.scoring import (
    PARTS,
    TIES,
    bonus_holders,
    sacrifice_price,
    score,
    score_parts,
    stock_value,
    takes_bonus,
    type_values,
)
from moaisim.registry import load_strategy


def both(kernel: Any, *args: Any) -> Any:
    """The kernel's answer, compiled (lists given as arrays) and in plain Python (`.py_func`,
    as the reference engine calls it: lists as they are), checked equal."""
    arrays = [np.asarray(a, dtype=np.int64) if isinstance(a, list) else a for a in args]
    compiled = kernel(*arrays)
    plain = kernel.py_func(*args)
    assert compiled == plain, (kernel.py_func.__name__, args, compiled, plain)
    return plain


# --- R3.2: the price of a sacrifice card ----------------------------------------------------------
def test_r3_2_the_price_falls_by_one_per_own_hg_of_the_type_and_never_below_zero():
    assert [both(sacrifice_price, 5, n) for n in range(7)] == [5, 4, 3, 2, 1, 0, 0]
    assert both(sacrifice_price, 2, 3) == 0  # a house price of 2: free from 2 H&G on
    assert both(sacrifice_price, 0, 0) == 0


# --- R7.6: the majority bonus -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("counts", "sole", "shared"),
    [
        ([2, 1, 0], [0], [0]),  # a sole majority
        ([2, 2, 0], [], [0, 1]),  # tied leaders: nobody, or both under `shared`
        ([0, 0, 0], [], []),  # nobody holds one: no majority (at least one card)
        ([0, 0, 1, 0], [2], [2]),  # one card is a majority when nobody else has one
        ([3, 3, 3, 3], [], [0, 1, 2, 3]),
        ([1, 4, 4, 2], [], [1, 2]),
    ],
)
def test_r7_6_the_sole_majority_takes_the_bonus_and_under_shared_every_tied_leader(
    counts, sole, shared
):
    for rule, holders in (("sole", sole), ("shared", shared)):
        got = [q for q in range(len(counts)) if both(takes_bonus, counts, q, 0, rule == "shared")]
        assert got == holders, rule
        assert bonus_holders(counts, rule) == holders


def test_r7_6_a_look_ahead_counts_the_cards_a_play_would_add():
    # seat 0 holds 1, seat 1 holds 2: two more make seat 0 the sole majority (3 > 2), one
    # more ties it (2 = 2): no bonus, but under `shared` it takes it
    assert both(takes_bonus, [1, 2, 0], 0, 2, False)
    assert not both(takes_bonus, [1, 2, 0], 0, 1, False)
    assert both(takes_bonus, [1, 2, 0], 0, 1, True)
    assert both(takes_bonus, [1, 2, 0], 1, 0, False)  # seat 1 holds it as the villages stand
    assert not both(takes_bonus, [0, 0], 0, 0, True)  # nothing, even with nobody above


# --- R9.2-R9.3: a stock card's value ------------------------------------------------------------
def values_of(stone: list[int], down: list[int], values: list[int], tie: str) -> list[int]:
    return [both(stock_value, stone, down, values, TIES[tie], f) for f in range(4)]


@pytest.mark.parametrize(
    ("stone", "down", "tie", "expected"),
    [
        # R9.3's examples: counts 5, 5, 2, 1 give 3, 3, 1, 0; 4, 2, 2, 0 give 3, 2, 2, 0
        ([5, 5, 2, 1], [0, 0, 0, 0], "high", [3, 3, 1, 0]),
        ([4, 2, 2, 0], [0, 0, 0, 0], "high", [3, 2, 2, 0]),
        # `low`: the last shared place (places 0-1 -> 2; places 1-2 -> 1)
        ([5, 5, 2, 1], [0, 0, 0, 0], "low", [2, 2, 1, 0]),
        ([4, 2, 2, 0], [0, 0, 0, 0], "low", [3, 1, 1, 0]),
        # `split`: (3 + 2) // 2 = 2; (2 + 1) // 2 = 1
        ([5, 5, 2, 1], [0, 0, 0, 0], "split", [2, 2, 1, 0]),
        ([4, 2, 2, 0], [0, 0, 0, 0], "split", [3, 1, 1, 0]),
        # R9.2: the face-down cards count (fish 3, mulberry 1 + potato 0 + 1 face down, grain 0)
        ([3, 1, 0, 0], [0, 0, 1, 0], "high", [3, 2, 2, 0]),
        # all four tied at the start: places 0-3, high 3, low 0, split 6 // 4 = 1
        ([0, 0, 0, 0], [0, 0, 0, 0], "high", [3, 3, 3, 3]),
        ([0, 0, 0, 0], [0, 0, 0, 0], "low", [0, 0, 0, 0]),
        ([1, 0, 1, 0], [0, 1, 0, 1], "split", [1, 1, 1, 1]),
        ([0, 3, 1, 3], [0, 0, 0, 0], "high", [0, 3, 1, 3]),
    ],
)
def test_r9_2_r9_3_a_stock_card_scores_its_types_place_on_the_stone(stone, down, tie, expected):
    assert values_of(stone, down, [3, 2, 1, 0], tie) == expected


@pytest.mark.parametrize(
    ("values", "stone", "tie", "expected"),
    [
        # R9.3 by place, not size: values 0, 1, 2, 3 with counts 5, 5, 2, 1
        ([0, 1, 2, 3], [5, 5, 2, 1], "high", [0, 0, 2, 3]),
        ([0, 1, 2, 3], [5, 5, 2, 1], "low", [1, 1, 2, 3]),
        ([0, 1, 2, 3], [5, 5, 2, 1], "split", [0, 0, 2, 3]),
        # values 1, 3, 0, 2, mulberry and potato tied first (places 0-1), grain third, fish
        # last: high 1, low 3, split (1 + 3) // 2 = 2; grain 0; fish 2
        ([1, 3, 0, 2], [0, 4, 4, 1], "high", [2, 1, 1, 0]),
        ([1, 3, 0, 2], [0, 4, 4, 1], "low", [2, 3, 3, 0]),
        ([1, 3, 0, 2], [0, 4, 4, 1], "split", [2, 2, 2, 0]),
        # all tied: places 0-3: high 1, low 2, split 6 // 4 = 1
        ([1, 3, 0, 2], [2, 2, 2, 2], "high", [1, 1, 1, 1]),
        ([1, 3, 0, 2], [2, 2, 2, 2], "low", [2, 2, 2, 2]),
        ([1, 3, 0, 2], [2, 2, 2, 2], "split", [1, 1, 1, 1]),
    ],
)
def test_r9_3_tied_types_take_the_values_written_at_their_places(values, stone, tie, expected):
    assert values_of(stone, [0, 0, 0, 0], values, tie) == expected
    assert type_values(stone, values, tie) == expected


# --- R9.1: the score ----------------------------------------------------------------------------
def ints(*values: int) -> np.ndarray:
    """A count or values list as the reference engine hands the score it (an array)."""
    return np.array(values, dtype=np.int64)


def test_r9_1_the_score_adds_glory_moai_wood_and_stock():
    # 7 glory; 2 Moai x 4 = 8; 14 wood // 5 = 2; stock 2 fish x 3 + 1 mulberry x 2 = 8 (the
    # stone: fish 3, mulberry 1, sweet potato 1 face down, grain 0: fish first, 3; mulberry
    # and potato tied at places 1-2, 2; grain 0)
    args = (7, 2, 14, [2, 1, 0, 0], ints(3, 1, 0, 0), ints(0, 0, 1, 0), ints(3, 2, 1, 0),
            TIES["high"], 4, 5)  # fmt: skip
    assert both(score_parts, *args) == (7, 8, 2, 8)
    assert both(score, *args[:3], ints(*args[3]), *args[4:]) == 7 + 8 + 2 + 8
    assert PARTS == ("glory", "moai_points", "wood_points", "stock_points")


@pytest.mark.parametrize(("tie", "stock_points"), [("high", 3), ("low", 0), ("split", 0)])
def test_r9_1_the_scoring_parameters_and_the_tie_rule_reach_the_score(tie, stock_points):
    # moai_glory 1, wood_per_glory 3: 3 Moai score 3, 11 wood 3. The stone: fish 2, mulberry
    # 2 (places 0-1), sweet potato 1, grain 1 (places 2-3). The stock, 1 sweet potato and 2
    # grain, scores 3 x 1 at place 2 (high), 3 x 0 at place 3 (low), 3 x (1 + 0) // 2 = 0
    # (split)
    args = (0, 3, 11, [0, 0, 1, 2], ints(2, 2, 1, 1), ints(0, 0, 0, 0), ints(3, 2, 1, 0),
            TIES[tie], 1, 3)  # fmt: skip
    assert both(score_parts, *args) == (0, 3, 3, stock_points)


# --- the per-round table and the results: one scoring ------------------------------------------
def setups() -> list[tuple[int, dict[str, str]]]:
    """The default rules at 2-4 players, and each rule option's other values at 2, 3 or 4
    players in turn."""
    out: list[tuple[int, dict[str, str]]] = [(p, {}) for p in (2, 3, 4)]
    for name, values in OPTIONS.items():
        for v in values[1:]:
            out.append((2 + len(out) % 3, {name: v}))
    return out


@pytest.mark.parametrize(("players", "options"), setups())
def test_the_per_round_tables_last_row_of_a_game_is_its_results_row(players, options):
    """The per-round table (machine.record_round) and the results (Batch.parts) are scored by
    the same kernel (scoring.score_parts): a game's last row is its results row, seat by
    seat, under every rule option (R9.1-R9.3)."""
    rules = Rules.make(players, **options)
    names = ("greedy", "random", "heuristic", "greedy")[:players]
    last_rows(rules, names, 11)


@pytest.mark.parametrize("values", [(0, 1, 2, 3), (1, 3, 0, 2)])
@pytest.mark.parametrize("tie", ["high", "low", "split"])
def test_the_last_row_is_the_results_row_with_values_that_do_not_descend(values, tie):
    base = Rules.make(3, sacrifice_tie=tie)
    rules = replace(base, components=replace(base.components, sacrifice_values=values))
    last_rows(rules, ("heuristic", "greedy", "random"), 12)


def last_rows(rules: Rules, names: tuple[str, ...], seed: int) -> None:
    """300 games of `names` under `rules`: each game's last per-round row equals its
    results row in every tracked column, and each results row's score is the sum of its
    parts."""
    games = Games.new(rules, seed, np.arange(300), rounds=True)
    games.play([load_strategy(n, "rapa-nui")() for n in names])
    table, results = games.round_table(), games.results()
    last = table.sort_values(["game", "round", "seat"]).groupby(["game", "seat"]).last()
    rows = results.sort_values(["game", "seat"]).set_index(["game", "seat"])
    assert len(last) == len(rows)
    for name in TRACKED:
        assert (last[name].to_numpy() == rows[name].to_numpy()).all(), name
    assert (rows[list(PARTS)].sum(axis=1) == rows["score"]).all()
