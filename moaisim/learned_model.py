"""A learned policy's model file, for every game (`moaisim learn`): reading and checking it,
its boosted trees as the tables the compiled policies walk, and that walk (`ensemble`).

A model file (JSON) names its format, game, player count, mode ("gate" or "ranker"), its
experts (strategy specs), the decision kinds a ranker ranks, the features its trees read (the
game's `CONTEXT` or `RANK`, by name, so that a file made by another version is refused), how
it was made, and its ensembles: each a constant and trees, every tree node by node
(scikit-learn's: a row goes left when its feature is at most the threshold; a leaf's feature
is -1). The games differ only in their features and kinds (Moai's
`compiled.learned`, Rapa Nui's and Kaivai's `engine.learned`).

A ranker's parts every game with one shares are here too: its candidates' table (`propose`),
a candidate's own features (`CANDIDATE`, `candidate`), its compiled form (`Model`) and the
tables a lineup packs its models into (`model_tables`).
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


# --- a ranker's shared parts ------------------------------------------------------------------
#: Most experts a ranker has.
MAX_EXPERTS = 8
#: A candidate's own features, in their column order (`candidate`), after the game's context.
CANDIDATE: tuple[str, ...] = (
    "proposers",  # how many experts proposed it
    "candidates",  # how many distinct candidates the experts proposed
    "action",  # the action (the game's answer: an action code, or an option's place)
    *(f"by_{e}" for e in range(MAX_EXPERTS)),  # 1 when expert e proposed it
    # expert e's value of the candidate less its value of its own proposal (<= 0 but for a
    # tie; 0 for an expert the model does not have)
    *(f"margin_{e}" for e in range(MAX_EXPERTS)),
)
#: Columns of the candidate table (`propose`): the action and the bits of its proposers.
C_ACTION, C_BITS = 0, 1
#: A model's row of ints (`model_tables`' "ints"): its experts, its first tree in the
#: lineup's roots, its tree count, the kinds it ranks (bits 1 << kind), 1 when every legal
#: action is a candidate (after the proposals; 0: the proposals alone).
I_EXPERTS, I_FIRST, I_COUNT, I_KINDS, I_LEGAL = range(5)


@kernel(nrt=False)
def propose(cands, m: int, e: int, a: int) -> int:  # noqa: ANN001
    """Expert e's proposal `a` into the candidate table cands[:m] (a new row, or e's bit on
    the row of the same action; e = -1: a legal action no expert proposed, no bit); returns
    the candidates' count."""
    bit = 0 if e < 0 else 1 << e
    for j in range(m):
        if cands[j, C_ACTION] == a:
            cands[j, C_BITS] |= bit
            return m
    cands[m, C_ACTION] = a
    cands[m, C_BITS] = bit
    return m + 1


@kernel(nrt=False)
def candidate(cands, scores, experts: int, j: int, m: int, x, n: int) -> None:  # noqa: ANN001
    """Candidate j's own features (`CANDIDATE`) into x[n:] (n: the game's context's width);
    scores[e, a] holds expert e's value of action a."""
    bits = cands[j, C_BITS]
    a = cands[j, C_ACTION]
    count = 0
    for e in range(MAX_EXPERTS):
        on = (bits >> e) & 1
        x[n + 3 + e] = on
        count += on
        margin = 0.0
        if e < experts:
            for i in range(m):  # the candidate expert e proposed
                if (cands[i, C_BITS] >> e) & 1:
                    margin = scores[e, a] - scores[e, cands[i, C_ACTION]]
        x[n + 3 + MAX_EXPERTS + e] = margin
    x[n] = count
    x[n + 1] = m
    x[n + 2] = a


class Model:
    """A ranker as a lineup packs it (a learned seat's compiled form): its experts' weights
    under the rules played ([E, NW]), its trees ([n, 5] nodes, each tree's root row), its
    constant, the kinds it ranks (bits 1 << kind), its file's SHA-256 (`digest`, by which
    models are equal and hashed: a lineup packs each model once) and whether every legal
    action is a candidate (`legal`; else the experts' proposals alone)."""

    __slots__ = ("weights", "nodes", "roots", "constant", "kinds", "digest", "legal")

    def __init__(self, weights: np.ndarray, nodes: np.ndarray, roots: np.ndarray,
                 constant: float, kinds: int, digest: str,
                 legal: bool = False) -> None:  # fmt: skip
        if not 1 <= len(weights) <= MAX_EXPERTS:
            raise ValueError(f"a ranker has 1 to {MAX_EXPERTS} experts")
        self.weights, self.nodes, self.roots = weights, nodes, roots
        self.constant, self.kinds, self.digest = constant, kinds, digest
        self.legal = legal

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Model) and other.digest == self.digest

    def __reduce__(self) -> tuple:
        return (Model, (self.weights, self.nodes, self.roots, self.constant, self.kinds,
                        self.digest, self.legal))  # fmt: skip


def model_tables(models: Sequence[Model], nw: int, actions: int, candidates: int,
                 n_rank: int) -> dict[str, np.ndarray]:  # fmt: skip
    """A lineup's tables of its learned models (numbered in this order: "ints" (`I_...`),
    "constants", "experts" [K, MAX_EXPERTS, nw], "nodes", "roots") and the rankers' scratch
    arrays for decisions of at most `actions` actions and `candidates` candidates ("scores"
    [MAX_EXPERTS, actions], "cands" [candidates, 2], "rows" [candidates, n_rank])."""
    k = len(models)
    ints = np.zeros((k, 5), dtype=np.int64)
    experts = np.zeros((k, MAX_EXPERTS, nw), dtype=np.float64)
    nodes, roots, first = stacked([(x.nodes, x.roots) for x in models])
    for i, x in enumerate(models):
        ints[i] = (len(x.weights), first[i], len(x.roots), x.kinds, int(x.legal))
        experts[i, : len(x.weights)] = x.weights
    return {"ints": ints, "constants": np.array([x.constant for x in models], dtype=np.float64),
            "experts": experts, "nodes": nodes, "roots": roots,
            "scores": np.zeros((MAX_EXPERTS, actions), dtype=np.float64),
            "cands": np.zeros((candidates, 2), dtype=np.int64),
            "rows": np.zeros((candidates, n_rank), dtype=np.float64)}  # fmt: skip
