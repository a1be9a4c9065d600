"""A learned policy's model file, for every game (`moaisim learn`): reading and checking it,
its boosted trees as the tables the compiled policies walk, and that walk (`ensemble`).

A model file (JSON) names its format, game, player count, mode ("gate" or "ranker"), its
experts (strategy specs), the decision kinds a ranker ranks, the features its trees read (the
game's `CONTEXT` or `RANK`, by name, so that a file made by another version is refused), how
it was made, and its ensembles: each a constant and trees, every tree node by node
(scikit-learn's: a row goes left when its feature is at most the threshold; a leaf's feature
is -1). The games differ only in their features and kinds (Moai's
`compiled.learned`, Rapa Nui's `engine.learned`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.files import read_text
from moaisim.jit import kernel

#: Columns of a tree table (`tables`, `ensemble`).
FEATURE, THRESHOLD, LEFT, RIGHT, VALUE = range(5)


#: A ranker's candidates at a decision (its "candidates" key): its experts' distinct
#: proposals (the default), or those and then every other legal action.
CANDIDATES: tuple[str, ...] = ("proposals", "legal")


def named_path(name: str, home: Callable[[str], Path]) -> Path:
    """A model file: a shipped one by its name alone (`home(name)`, the game's weights
    folder), else a path."""
    if "/" not in name and "\\" not in name:
        return home(name)
    return Path(name)


def read_named(model: Any, home: Callable[[str], Path],
               read: Callable[[str, float], dict[str, Any]]) -> dict[str, Any]:  # fmt: skip
    """The checked document (`read(path, stamp)`) of the model file a strategy's `model`
    parameter names (`named_path`); one line when it names none."""
    if not model:
        raise UnknownStrategyError("strategy 'learned': give its model file (model=...)")
    path = named_path(str(model), home)
    stamp = path.stat().st_mtime if path.is_file() else 0.0
    return read(str(path), stamp)


@cache
def read_model(path: str, stamp: float, fmt: str, kinds: tuple[str, ...],
               reads: tuple[tuple[str, tuple[str, ...]], ...], max_experts: int,
               players: tuple[int, int],
               candidates: tuple[str, ...] = CANDIDATES[:1]) -> dict[str, Any]:  # fmt: skip
    """A model file's document, checked (one line per mistake): format `fmt`, its mode one of
    `reads`' (mode -> the features its trees read; the first mode is the default), its kinds
    among `kinds`, 1 to `max_experts` experts, its player count in `players` (inclusive), a
    ranker's candidates among `candidates` (`CANDIDATES`; "proposals" when it says none).
    `stamp` (the file's modification time) keys the cache. Adds its SHA-256 (`digest`) and
    each ensemble's tables (`_tables`: `tables`)."""
    said = f"strategy 'learned': model file {path!r}"
    text = read_text(path, "model file", UnknownStrategyError)
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise UnknownStrategyError(f"{said} is not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise UnknownStrategyError(f"{said} is not a learned policy ({fmt!r})")
    experts, ensembles = doc.get("experts"), doc.get("ensembles")
    if not isinstance(experts, list) or not 1 <= len(experts) <= max_experts:
        raise UnknownStrategyError(f"{said}: give 1 to {max_experts} experts")
    modes = dict(reads)
    mode = doc.setdefault("mode", reads[0][0])
    if mode not in modes:
        raise UnknownStrategyError(f"{said}: mode is {' or '.join(map(repr, modes))}, "
                                   f"not {mode!r}")  # fmt: skip
    if mode == "gate" and (not isinstance(ensembles, list) or len(ensembles) != len(experts)):
        raise UnknownStrategyError(f"{said}: a gate needs one ensemble per expert")
    if mode == "ranker" and (not isinstance(ensembles, list) or len(ensembles) != 1):
        raise UnknownStrategyError(f"{said}: a ranker has one ensemble")
    got = doc.setdefault("kinds", list(kinds) if mode == "ranker" else [])
    if not isinstance(got, list) or any(k not in kinds for k in got):
        raise UnknownStrategyError(f"{said}: kinds are decision kinds ({', '.join(kinds)})")
    if doc.get("context") != list(modes[mode]):
        raise UnknownStrategyError(f"{said} reads another context than this version's "
                                   f"{mode} ({', '.join(modes[mode])})")  # fmt: skip
    cands = doc.setdefault("candidates", CANDIDATES[0])
    if cands not in candidates:
        raise UnknownStrategyError(f"{said}: candidates are {' or '.join(map(repr, candidates))}"
                                   f", not {cands!r}")  # fmt: skip
    p = doc.get("players")
    low, high = players
    if isinstance(p, bool) or not isinstance(p, int) or not low <= p <= high:
        raise UnknownStrategyError(f"{said} must say its player count (players = {low}-{high})")
    doc["digest"] = hashlib.sha256(text.encode()).hexdigest()
    for k, ens in enumerate(ensembles):
        try:
            doc.setdefault("_tables", []).append(tables(ens, len(modes[mode])))
        except (KeyError, TypeError, ValueError) as exc:
            raise UnknownStrategyError(f"{said}: ensemble {k}: {exc}") from None
    return doc


def tables(ens: dict[str, Any], features: int) -> tuple[np.ndarray, np.ndarray, float]:
    """An ensemble's trees as one nodes table ([n, 5]: feature, threshold, left, right,
    value; children numbered in the table), each tree's root row, and its constant. A
    threshold, value or constant that is not a finite number (JSON reads NaN and Infinity)
    is refused: a comparison with NaN is always false, so it would send every row one way."""
    rows, roots = [], []
    for j, tree in enumerate(ens["trees"]):
        f = np.asarray(tree["feature"], dtype=np.int64)
        t = np.asarray(tree["threshold"], dtype=np.float64)
        left = np.asarray(tree["left"], dtype=np.int64)
        right = np.asarray(tree["right"], dtype=np.int64)
        v = np.asarray(tree["value"], dtype=np.float64)
        n = len(f)
        if not n or any(len(x) != n for x in (t, left, right, v)):
            raise ValueError("a tree's node lists differ in length")
        for name, x in (("threshold", t), ("value", v)):
            bad = np.flatnonzero(~np.isfinite(x))
            if len(bad):
                raise ValueError(f"tree {j}'s {name} is not a finite number "
                                 f"({float(x[bad[0]])} at node {bad[0]})")  # fmt: skip
        inner = f >= 0
        if (f >= features).any() or (inner & ((left <= np.arange(n)) | (right <= np.arange(n))
                                              | (left >= n) | (right >= n))).any():  # fmt: skip
            raise ValueError("a tree names a feature or a child it does not have")
        base = sum(len(r) for r in rows)
        roots.append(base)
        rows.append(np.column_stack([f, t, np.where(inner, left + base, -1),
                                     np.where(inner, right + base, -1), v]))  # fmt: skip
    nodes = np.concatenate(rows) if rows else np.zeros((0, 5))
    constant = float(ens["constant"])
    if not math.isfinite(constant):
        raise ValueError(f"the constant is not a finite number ({constant})")
    return nodes, np.asarray(roots, dtype=np.int64), constant


def stacked(parts: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray,
                                                                     np.ndarray]:  # fmt: skip
    """Several ensembles' (nodes, roots) as one nodes table, one roots table (each root and
    child renumbered into them) and each ensemble's first root [k]: what a lineup hands its
    kernels."""
    nodes, roots, first = [], [], []
    at, count = 0, 0
    for n, r in parts:
        n = n.copy()
        inner = n[:, FEATURE] >= 0
        n[inner, LEFT] += at
        n[inner, RIGHT] += at
        nodes.append(n)
        roots.append(r + at)
        first.append(count)
        at, count = at + len(n), count + len(r)
    table = np.concatenate(nodes) if nodes else np.zeros((0, 5))
    return (np.ascontiguousarray(table, dtype=np.float64),
            np.concatenate(roots).astype(np.int64) if roots else np.zeros(0, dtype=np.int64),
            np.asarray(first, dtype=np.int64))  # fmt: skip


@kernel(nrt=False)
def ensemble(nodes, roots, first: int, count: int, x, start: float = 0.0) -> float:  # noqa: ANN001
    """start plus the trees roots[first : first + count] at the row x, added in order (each
    walked from its root: left when x[feature] <= threshold, as scikit-learn's trees; a
    ranker starts from its constant, as scikit-learn's predictions do, so that the sums
    are the very same numbers)."""
    total = start
    for k in range(first, first + count):
        n = roots[k]
        while nodes[n, FEATURE] >= 0:
            if x[int(nodes[n, FEATURE])] <= nodes[n, THRESHOLD]:
                n = int(nodes[n, LEFT])
            else:
                n = int(nodes[n, RIGHT])
        total += nodes[n, VALUE]
    return total
