"""`learned`: Rapa Nui's ranker learned from search (expert iteration, `moaisim learn --game
rapa-nui --mode ranker`; docs/rapa-nui.md, "A learned ranker").

At each decision its experts (strategies of the heuristic family: `tuned`, L3's members, the
plans, `greedy`) each propose their best action, and boosted trees value every distinct
proposal from the seat's context and the proposal's own features (`engine.learned.RANK`);
the best valued is played. It plays compiled, like every built-in, and draws nothing.

`model` names a shipped model file (strategies/rapa_nui/weights/, by its name alone) or any
model file by its path (the toolkit's format, `moaisim.learned_model`; mode "ranker").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim import learned_model
from moaisim.errors import UnknownStrategyError
from moaisim.games.rapa_nui.engine.answers import ranked_candidates
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.learned import CONTEXT, MAX_EXPERTS, RANK, Model
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.registry import load_strategy
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.heuristic import weights_path

#: The model file's format (its "format" key).
FORMAT = "moaisim learned policy 1"
#: Where an expert's proposal comes from: its heuristic's weights under the rules played.
EXPERT_FORMS = ("heuristic",)


def model_path(name: str) -> Path:
    """A model file: a shipped one by its name alone (the weights folder), else a path."""
    return learned_model.named_path(name, weights_path)


def read_model(path: str, stamp: float) -> dict[str, Any]:
    """A Rapa Nui model file's document, checked (`learned_model.read_model`: one line per
    mistake; a ranker only); `stamp` (the file's modification time) keys the cache."""
    return learned_model.read_model(path, stamp, FORMAT, tuple(k.value for k in Kind),
                                    (("ranker", RANK),), MAX_EXPERTS, (2, 4),
                                    learned_model.CANDIDATES)  # fmt: skip


class LearnedStrategy(Strategy):
    """A ranker: its experts propose, boosted trees value each proposal, the best is played
    (model=...)."""

    name = "learned"
    params: ClassVar[dict[str, Any]] = {"model": ""}
    #: Its compiled form (`compiled`: the model, which `batch.compiled_family` plays).
    form: ClassVar[str] = "learned"
    #: The context's features, in the order the trees number them.
    CONTEXT: ClassVar[tuple[str, ...]] = CONTEXT
    #: A candidate's features, in the order the trees number them.
    RANK: ClassVar[tuple[str, ...]] = RANK
    #: The model file's format.
    FORMAT: ClassVar[str] = FORMAT
    #: Most experts a model has.
    MAX_EXPERTS: ClassVar[int] = MAX_EXPERTS
    #: The modes its model files may have (`moaisim learn --mode`): a ranker only.
    MODES: ClassVar[tuple[str, ...]] = ("ranker",)
    #: Whether a model file naming no game may be this game's: no, every Rapa Nui model file
    #: names its game (those naming none are Moai's, from before files named their game).
    UNNAMED: ClassVar[bool] = False
    #: Where its candidates come from (`learned_model.CANDIDATES`): the experts' proposals,
    #: or those and every other legal action.
    CANDIDATES: ClassVar[tuple[str, ...]] = learned_model.CANDIDATES

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.doc = learned_model.read_named(self.model, weights_path, read_model)
        self.experts = [load_strategy(spec, "rapa-nui") for spec in self.doc["experts"]]
        self._made = [spec() for spec in self.experts]
        for spec, inst in zip(self.experts, self._made, strict=True):
            if inst.compiled(None) not in EXPERT_FORMS:
                raise UnknownStrategyError(f"strategy 'learned': expert {spec.label!r} is not "
                                           "a strategy of the heuristic family")  # fmt: skip
        self._models: dict[Rules, Model] = {}

    def check_players(self, players: int) -> None:
        """A model plays the player count it was trained at."""
        if players != self.doc["players"]:
            raise UnknownStrategyError(f"strategy 'learned': the model {self.model!r} is for "
                                       f"{self.doc['players']} players, not {players}")  # fmt: skip

    def compiled(self, rules: object) -> Model | None:
        """The form the machine plays (`engine.learned.Model`, its experts' weights under
        `rules`), unless a decision method is overridden (then None: asked through views)."""
        if super().compiled(rules) is None:
            return None
        return self.compiled_model(rules)  # type: ignore[arg-type]

    def candidates(self, view: SeatView) -> tuple[list[np.ndarray], list[list[Any]], np.ndarray]:
        """The ranker's candidates at a view's decision, as it plays them: per game their rows
        ([m, len(RANK)]), their actions and the row it chooses (`answers.ranked_candidates`)."""
        return ranked_candidates(view, self.compiled_model(view.rules))

    def compiled_model(self, rules: Rules) -> Model:
        """The model under `rules` whatever the decision methods (what `candidates` asks)."""
        found = self._models.get(rules)
        if found is None:
            nodes, roots, constant = self.doc["_tables"][0]
            kinds = sum(1 << k for k, kind in enumerate(Kind) if kind.value in self.doc["kinds"])
            weights = np.array([inst.vector(rules) for inst in self._made], dtype=np.float64)
            found = Model(weights, nodes, roots, constant, kinds, self.doc["digest"],
                          self.doc["candidates"] == "legal")  # fmt: skip
            self._models[rules] = found
        return found

    def by_policy(self, view: SeatView) -> np.ndarray:
        """The ranker's action in each game of the view (the machine's kernel)."""
        rows, cands, chosen = self.candidates(view)
        return np.array([c[j] for c, j in zip(cands, chosen, strict=True)], dtype=np.int64)
