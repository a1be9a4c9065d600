"""A view answered by a compiled policy (greedy, the heuristic, a learned ranker): each game
of the view rebuilt as the machine's state at its decision (`worlds.state_of`: what the view
shows; the built-in policies read nothing the seat cannot see), the policy asked there
(`machine.answer_rows`, `learned.ranked_rows`). So a built-in strategy answers a view exactly
as its compiled seat plays, on either engine."""

from __future__ import annotations

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import consts, geometry, model_tables, scratch
from moaisim.games.kaivai.engine.decisions import KINDS
from moaisim.games.kaivai.engine.learned import N_RANK, ranked_rows
from moaisim.games.kaivai.engine.policy import NW
from moaisim.games.kaivai.engine.views import SeatView
from moaisim.games.kaivai.engine.worlds import state_of
from moaisim.learned_model import C_ACTION, MAX_EXPERTS, Model
from moaisim.rng import Streams


def compiled_answers(view: SeatView, family: int, weights: np.ndarray | None = None) -> np.ndarray:
    """[n] the option each game of the view is answered with by the compiled policy `family`
    (`machine.GREEDY`, or `machine.HEURISTIC` with its `weights`), among the options the
    view's legal mask leaves (a restriction's narrowed view)."""
    rules, n = view.rules, len(view)
    streams = Streams(0, np.arange(n), rules.players)  # unread: these policies draw nothing
    g = state_of(view, np.arange(n), 1, streams)
    kinds = np.full(n, KINDS.index(view.kind), dtype=np.int64)
    seats = np.full(n, view.seat, dtype=np.int64)
    w = np.zeros(NW) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    out = np.zeros(n, dtype=np.int64)
    geo = geometry(rules.components.radius)
    sc = scratch(rules)
    mask = np.zeros((n, sc.shape[1]), dtype=np.bool_)
    legal = np.asarray(view.legal, dtype=bool)
    mask[:, : legal.shape[1]] = legal
    vals = np.zeros(sc.shape[1], dtype=np.float64)
    m.answer_rows(g, geo, sc, consts(rules), kinds, seats, family, w, mask, vals, out)
    return out


def ranked_candidates(view: SeatView, model: Model
                      ) -> tuple[list[np.ndarray], list[list[int]], np.ndarray]:  # fmt: skip
    """A ranker's candidates at the view's decision, computed by the kernel it plays with
    (`machine.ranked`, each game rebuilt as machine state) among the options the view's
    legal mask leaves: per game the candidates' rows ([k, N_RANK], `learned.RANK`), their
    options (places among all), and the row it chooses [n]. It draws nothing."""
    rules, n = view.rules, len(view)
    streams = Streams(0, np.arange(n), rules.players)  # unread: the ranker draws nothing
    g = state_of(view, np.arange(n), 1, streams)
    kinds = np.full(n, KINDS.index(view.kind), dtype=np.int64)
    seats = np.full(n, view.seat, dtype=np.int64)
    sc = scratch(rules)
    t = model_tables([model], sc.shape[1])
    mask = np.zeros((n, sc.shape[1]), dtype=np.bool_)
    legal = np.asarray(view.legal, dtype=bool)
    mask[:, : legal.shape[1]] = legal
    rows = np.zeros((n, MAX_EXPERTS, N_RANK), dtype=np.float64)
    cands = np.zeros((n, MAX_EXPERTS, 2), dtype=np.int64)
    out = np.zeros((n, 2), dtype=np.int64)
    ranked_rows(g, geometry(rules.components.radius), sc, consts(rules), kinds, seats, mask,
                t["ints"][0], float(t["constants"][0]), t["experts"][0], t["nodes"], t["roots"],
                t["scores"], cands, rows, out)  # fmt: skip
    k = out[:, 1]
    options = [[int(a) for a in cands[i, : k[i], C_ACTION]] for i in range(n)]
    chosen = np.array([options[i].index(int(out[i, 0])) for i in range(n)], dtype=np.int64)
    return [rows[i, : k[i]].copy() for i in range(n)], options, chosen


def forbidden_options(view: SeatView, bits: int) -> np.ndarray:
    """[n, A] the options of each game of the view that the forbid `bits` name
    (`machine.forbidden`, the machine's own reading), the games rebuilt from the view."""
    rules, n = view.rules, len(view)
    streams = Streams(0, np.arange(n), rules.players)  # unread: nothing is drawn
    g = state_of(view, np.arange(n), 1, streams)
    kinds = np.full(n, KINDS.index(view.kind), dtype=np.int64)
    seats = np.full(n, view.seat, dtype=np.int64)
    sc = scratch(rules)
    out = np.zeros((n, sc.shape[1]), dtype=np.bool_)
    geo = geometry(rules.components.radius)
    m.forbidden_rows(g, geo, sc, consts(rules), kinds, seats, int(bits), out)
    legal = np.asarray(view.legal, dtype=bool)
    return out[:, : legal.shape[1]] & legal
