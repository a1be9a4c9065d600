"""A Python seat answered by Rapa Nui's compiled heuristic (`policy.answer_view`) or learned
ranker (`learned.ranked_view`): the built-ins' decision methods ask them about each game of a
`SeatView`, so that they take in the reference engine the decisions the fast machine takes for
them."""

from __future__ import annotations

from functools import cache

import numpy as np

from moaisim.games.rapa_nui.engine import machine as m
from moaisim.games.rapa_nui.engine.batch import consts, model_tables
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.learned import N_RANK, Model, most_candidates, ranked_view
from moaisim.games.rapa_nui.engine.policy import answer_view
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.games.rapa_nui.rules.codes import N_FOODS
from moaisim.games.rapa_nui.rules.model import Rules

#: The decision kinds as the kernels number them.
KIND_CODES: dict[Kind, int] = {k: i for i, k in enumerate(Kind)}


@cache
def _consts(rules: Rules) -> m.Consts:
    """The rules' figures for the kernels, made once per rules object."""
    return consts(rules)


def seen_stocks(view: SeatView) -> np.ndarray:
    """[n, P, 4] each seat's stock as the view's seat sees it: its own as it is, its rivals'
    as the public record gives them (R10.3, face-down cards not taken off)."""
    seen = np.array(view.rival_stocks(), dtype=np.int64)
    seen[:, view.seat] = view.stock
    return seen


def heuristic_answers(view: SeatView, weights: np.ndarray) -> np.ndarray:
    """[n] the heuristic's action in each game of the view, with `weights` (`policy.NAMES`
    order)."""
    n = len(view)
    out = np.zeros(n, dtype=np.int64)
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
    answer_view(_consts(view.rules), np.ascontiguousarray(weights, dtype=np.float64),
                KIND_CODES[view.kind], view.seat, np.ascontiguousarray(view.legal),
                i64(view.hand), i64(view.stock), i64(view.own_down), i64(view.village),
                i64(view.wood), seen_stocks(view), i64(view.display), i64(view.column_size),
                i64(view.pile), i64(view.supply), i64(view.stone),
                np.zeros(N_FOODS, dtype=np.int64), out)  # fmt: skip
    return out


def ranked_candidates(view: SeatView, model: Model
                      ) -> tuple[list[np.ndarray], list[list[int]], np.ndarray]:  # fmt: skip
    """A ranker's candidates at the view's decision, computed by the kernel it plays with
    (`learned.ranked`): per game the candidates' rows ([m, N_RANK], `learned.RANK`), their
    actions, and the row it chooses [n]. It draws nothing."""
    n, size = len(view), view.legal.shape[1]
    tables = model_tables([model], size)
    most = most_candidates(size)
    rows = np.zeros((n, most, N_RANK), dtype=np.float64)
    cands = np.zeros((n, most, 2), dtype=np.int64)
    out = np.zeros((n, 2), dtype=np.int64)
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
    ranked_view(_consts(view.rules), tables["ints"][0], float(tables["constants"][0]),
                tables["experts"][0], tables["nodes"], tables["roots"], KIND_CODES[view.kind],
                view.seat, np.ascontiguousarray(view.legal), i64(view.turn), i64(view.hand),
                i64(view.stock), i64(view.own_down), i64(view.village), i64(view.wood),
                i64(view.glory), seen_stocks(view), i64(view.display), i64(view.column_size),
                i64(view.pile), i64(view.supply), i64(view.stone),
                np.zeros(N_FOODS, dtype=np.int64), tables["scores"], cands, rows, out)  # fmt: skip
    m = out[:, 1]
    actions = [[int(a) for a in cands[i, : m[i], 0]] for i in range(n)]
    return [rows[i, : m[i]].copy() for i in range(n)], actions, out[:, 0].copy()
