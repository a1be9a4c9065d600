"""`learned`: a policy learned from search's decisions (expert iteration; docs/strategies.md,
"A learned policy" and "A learned ranker").

A model file's `mode` says which: a **gate** (below), or a **ranker**, whose experts all
propose at each decision it ranks (`kinds`) and whose one ensemble values each distinct
proposal from its features (`compiled.learned.RANK`), trained by `moaisim learn --mode
ranker` (`moaisim.studies.rank`).

At each decision a gate of boosted trees reads the seat's context (the decision's kind, the
round, its score and lead, wood, hand, pawns, statues: `compiled.learned.CONTEXT`) and picks
which of its **experts** decides: shipped strategies of the heuristic family (`tuned`, L3's
members, the plans) or `greedy`. Each expert's ensemble says how likely that expert is to
decide as the teacher did; the likeliest decides, bids included. The gate is trained by
`moaisim learn` (`moaisim.studies.learn`) with scikit-learn's gradient boosting and written
to a model file (JSON): the experts' specs, each ensemble's trees node by node and its
constant, and how it was made. It plays compiled (`compiled.learned`), like every built-in.

`model` names a shipped model file (`strategies/moai/weights/learned-<P>p.json`, by its name
alone) or any model file by its path.
"""

from __future__ import annotations

import hashlib
import json
import math
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.files import read_text
from moaisim.games.moai.engine.compiled.answer import context_features, ranked_candidates
from moaisim.games.moai.engine.compiled.learned import (
    CONTEXT,
    GATE,
    MAX_EXPERTS,
    RANK,
    RANKER,
    Model,
)
from moaisim.games.moai.engine.compiled.policy import GREEDY, HEURISTIC, LEARNED, Policy
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.registry import load_strategy
from moaisim.strategies.moai.base import Strategy
from moaisim.strategies.moai.heuristic import weights_path

#: The model file's format, as its "format" key says.
FORMAT = "moaisim learned policy 1"
#: A model's modes (its "mode" key; "gate" when absent): a gate over the seat's context picks
#: the expert that decides; a ranker values each expert's proposal and plays the best.
MODES: dict[str, int] = {"gate": GATE, "ranker": RANKER}


def model_path(name: str) -> Path:
    """A model file: a shipped one by its name alone (the weights folder), else a path."""
    if "/" not in name and "\\" not in name:
        return weights_path(name)
    return Path(name)


@cache
def read_model(path: str, stamp: float) -> dict[str, Any]:
    """A model file's document, checked (one line per mistake); `stamp` (the file's
    modification time) keys the cache."""
    said = f"strategy 'learned': model file {path!r}"
    text = read_text(path, "model file", UnknownStrategyError)
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise UnknownStrategyError(f"{said} is not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UnknownStrategyError(f"{said} is not a learned policy ({FORMAT!r})")
    experts, ensembles = doc.get("experts"), doc.get("ensembles")
    if not isinstance(experts, list) or not 1 <= len(experts) <= MAX_EXPERTS:
        raise UnknownStrategyError(f"{said}: give 1 to {MAX_EXPERTS} experts")
    mode = doc.setdefault("mode", "gate")
    if mode not in MODES:
        raise UnknownStrategyError(f"{said}: mode is 'gate' or 'ranker', not {mode!r}")
    if mode == "gate" and (not isinstance(ensembles, list) or len(ensembles) != len(experts)):
        raise UnknownStrategyError(f"{said}: a gate needs one ensemble per expert")
    if mode == "ranker" and (not isinstance(ensembles, list) or len(ensembles) != 1):
        raise UnknownStrategyError(f"{said}: a ranker has one ensemble")
    kinds = doc.setdefault("kinds", [k.value for k in Kind] if mode == "ranker" else [])
    names = [k.value for k in Kind]
    if not isinstance(kinds, list) or any(k not in names for k in kinds):
        raise UnknownStrategyError(f"{said}: kinds are decision kinds ({', '.join(names)})")
    reads = CONTEXT if mode == "gate" else RANK
    if doc.get("context") != list(reads):
        raise UnknownStrategyError(f"{said} reads another context than this version's "
                                   f"{mode} ({', '.join(reads)})")  # fmt: skip
    players = doc.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise UnknownStrategyError(f"{said} must say its player count (players = 2-5)")
    doc["digest"] = hashlib.sha256(text.encode()).hexdigest()
    for k, ens in enumerate(ensembles):
        try:
            doc.setdefault("_tables", []).append(_tables(ens, len(reads)))
        except (KeyError, TypeError, ValueError) as exc:
            raise UnknownStrategyError(f"{said}: ensemble {k}: {exc}") from None
    return doc


def _tables(ens: dict[str, Any], features: int) -> tuple[np.ndarray, np.ndarray, float]:
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


class LearnedStrategy(Strategy):
    """A gate of boosted trees over the seat's context picks the expert that decides."""

    name = "learned"
    params: ClassVar[dict[str, Any]] = {"model": ""}
    #: The context's features, in the order the model's trees number them.
    CONTEXT: ClassVar[tuple[str, ...]] = CONTEXT
    #: A ranker's features of each candidate, in the order its trees number them.
    RANK: ClassVar[tuple[str, ...]] = RANK
    #: The model file's format.
    FORMAT: ClassVar[str] = FORMAT
    #: Most experts a model has.
    MAX_EXPERTS: ClassVar[int] = MAX_EXPERTS

    @staticmethod
    def context(view: SeatView) -> np.ndarray:
        """The context the gate reads at a view's decision, a row per game ([n, features]),
        from the kernel that reads it in play (what `moaisim learn` trains on)."""
        return context_features(view)

    def candidates(self, view: SeatView) -> tuple[list[np.ndarray], list[list[Any]], np.ndarray]:
        """A ranker's candidates at a view's decision, as it plays them: per game their
        feature rows ([m, len(RANK)], `compiled.learned.RANK`), the candidates (actions, or
        a bid's card counts) and the row it chooses (`compiled.answer.ranked_candidates`;
        the view's stream is not moved)."""
        if self.doc["mode"] != "ranker":
            raise UnknownStrategyError(f"strategy 'learned': the model {self.model!r} is a "
                                       "gate, not a ranker")  # fmt: skip
        return ranked_candidates(self.own_policy(view.rules), view)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if not self.model:
            raise UnknownStrategyError("strategy 'learned': give its model file (model=...)")
        path = model_path(str(self.model))
        stamp = path.stat().st_mtime if path.is_file() else 0.0
        self.doc = read_model(str(path), stamp)
        self.experts = [load_strategy(spec) for spec in self.doc["experts"]]
        self._made = [spec() for spec in self.experts]
        self._policies: dict[Rules, Policy] = {}

    def check_players(self, players: int) -> None:
        """A model plays the player count it was trained at."""
        if players != self.doc["players"]:
            raise UnknownStrategyError(f"strategy 'learned': the model {self.model!r} is for "
                                       f"{self.doc['players']} players, not {players}")  # fmt: skip

    def own_policy(self, rules: Rules) -> Policy:
        """The compiled learned policy: its experts' own policies under these rules and the
        gate's trees (made once per rules)."""
        found = self._policies.get(rules)
        if found is not None:
            return found
        forms = []
        for spec, inst in zip(self.experts, self._made, strict=True):
            form = inst.compiled(rules)
            if not isinstance(form, Policy) or form.family not in (GREEDY, HEURISTIC) or (
                    form.forbid or form.asks):  # fmt: skip
                raise UnknownStrategyError(f"strategy 'learned': expert {spec.label!r} is not "
                                           "one compiled greedy or heuristic policy")  # fmt: skip
            forms.append(form)
        tables = self.doc["_tables"]
        model = Model(tuple(forms), tuple(t[0] for t in tables), tuple(t[1] for t in tables),
                      tuple(t[2] for t in tables), self.doc["digest"],
                      MODES[self.doc["mode"]], sum(1 << k for k, kind in enumerate(Kind)
                                                   if kind.value in self.doc["kinds"]))  # fmt: skip
        found = Policy(LEARNED, model=model)
        self._policies[rules] = found
        return found
