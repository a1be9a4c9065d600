"""A view answered by a compiled policy: each game of the view rebuilt as the machine's state
at its decision (`worlds.state_of`: what the view shows; the built-in policies read nothing
the seat cannot see), the policy asked there (`machine.answer_rows`). So a built-in strategy
answers a view exactly as its compiled seat plays, on either engine."""

from __future__ import annotations

import numpy as np

from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.batch import consts, geometry, scratch
from moaisim.games.kaivai.engine.decisions import KINDS
from moaisim.games.kaivai.engine.policy import NW
from moaisim.games.kaivai.engine.views import SeatView
from moaisim.games.kaivai.engine.worlds import state_of
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
    m.answer_rows(g, geo, sc, consts(rules), kinds, seats, family, w, mask, out)
    return out


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
