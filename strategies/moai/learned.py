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

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim import learned_model
from moaisim.errors import UnknownStrategyError
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
    return learned_model.named_path(name, weights_path)


def read_model(path: str, stamp: float) -> dict[str, Any]:
    """A Moai model file's document, checked (`learned_model.read_model`: one line per
    mistake); `stamp` (the file's modification time) keys the cache."""
    modes = (("gate", CONTEXT), ("ranker", RANK))
    kinds = tuple(k.value for k in Kind)
    return learned_model.read_model(path, stamp, FORMAT, kinds, modes, MAX_EXPERTS, (2, 5))


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
    #: The modes its model files may have (`moaisim learn --mode`).
    MODES: ClassVar[tuple[str, ...]] = tuple(MODES)

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
        self.doc = learned_model.read_named(self.model, weights_path, read_model)
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
