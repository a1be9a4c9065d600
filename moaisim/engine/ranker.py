"""A learned ranker as a strategy, the same in every game that has one (`learned`, made by
`moaisim learn --mode ranker`): at each decision its experts (strategies of the game's
heuristic family) each propose their best action, and one ensemble of boosted trees values
every distinct proposal from the seat's context and the proposal's own features (the game's
`RANK`); the best valued is played. It plays compiled and draws nothing.

A game gets it by naming what is its own (`Ranker`'s class attributes): its registry name,
its features, its weights folder, the player counts
its model files may say, and the function that computes a view's candidates with the kernel
the machine plays (`ranked`). `model` names a shipped model file (the game's weights folder,
by its name alone) or any model file by its path (`moaisim.learned_model`'s format).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from moaisim import learned_model
from moaisim.errors import UnknownStrategyError
from moaisim.learned_model import Model
from moaisim.registry import load_strategy

#: The model file's format (its "format" key): every game's rankers share it.
FORMAT = "moaisim learned policy 1"
#: Where an expert's proposal comes from: its heuristic's weights under the rules played.
EXPERT_FORMS = ("heuristic",)


class Ranker:
    """A ranker: its experts propose, boosted trees value each proposal, the best is played
    (model=...). A mixin before the game's base `Strategy`."""

    name = "learned"  # a game's class sets it again: results name a class by its own `name`
    params: ClassVar[dict[str, Any]] = {"model": ""}
    #: Its compiled form (`compiled`: the model, which the game's batch plays).
    form: ClassVar[str] = "learned"
    #: The game's registry name.
    game: ClassVar[str]
    #: The game's decision kinds, in the kernels' order (an enum; the base `Strategy`'s).
    decision_kinds: ClassVar[Any]
    #: The context's features and a candidate's, in the order the trees number them.
    CONTEXT: ClassVar[tuple[str, ...]]
    RANK: ClassVar[tuple[str, ...]]
    #: The model file's format.
    FORMAT: ClassVar[str] = FORMAT
    #: Most experts a model has.
    MAX_EXPERTS: ClassVar[int] = learned_model.MAX_EXPERTS
    #: The modes its model files may have (`moaisim learn --mode`): a ranker only.
    MODES: ClassVar[tuple[str, ...]] = ("ranker",)
    #: Whether a model file naming no game may be this game's: no, every ranker's file names
    #: its game (those naming none are Moai's, from before files named their game).
    UNNAMED: ClassVar[bool] = False
    #: Where its candidates may come from (`learned_model.CANDIDATES`).
    CANDIDATES: ClassVar[tuple[str, ...]] = learned_model.CANDIDATES[:1]
    #: The player counts a model file may say (inclusive).
    PLAYERS: ClassVar[tuple[int, int]]
    #: The game's weights folder: a shipped file's path by its name.
    weights_path: ClassVar[Callable[[str], Path]]
    #: (view, model) -> per game the candidates' rows, their actions, the row chosen.
    ranked: ClassVar[Callable[[Any, Model], tuple[list[np.ndarray], list[list[Any]],
                                                  np.ndarray]]]  # fmt: skip

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)  # type: ignore[call-arg]
        self.doc = learned_model.read_named(self.model, type(self).weights_path, self._read)
        self.experts = [load_strategy(spec, self.game) for spec in self.doc["experts"]]
        self._made = [spec() for spec in self.experts]
        for spec, inst in zip(self.experts, self._made, strict=True):
            if inst.compiled(None) not in EXPERT_FORMS:
                raise UnknownStrategyError(f"strategy 'learned': expert {spec.label!r} is not "
                                           "a strategy of the heuristic family")  # fmt: skip
        self._models: dict[Any, Model] = {}

    @classmethod
    def _read(cls, path: str, stamp: float) -> dict[str, Any]:
        """A model file's document, checked (`learned_model.read_model`: one line per
        mistake; a ranker only); `stamp` (the file's modification time) keys the cache."""
        kinds = tuple(k.value for k in cls.decision_kinds)
        return learned_model.read_model(path, stamp, cls.FORMAT, kinds, (("ranker", cls.RANK),),
                                        cls.MAX_EXPERTS, cls.PLAYERS, cls.CANDIDATES)  # fmt: skip

    def check_players(self, players: int) -> None:
        """A model plays the player count it was trained at."""
        if players != self.doc["players"]:
            raise UnknownStrategyError(f"strategy 'learned': the model {self.model!r} is for "
                                       f"{self.doc['players']} players, not {players}")  # fmt: skip

    def compiled(self, rules: object) -> Model | None:
        """The form the machine plays (`learned_model.Model`, its experts' weights under
        `rules`), unless a decision method is overridden (then None: asked through views)."""
        if super().compiled(rules) is None:  # type: ignore[misc]
            return None
        return self.compiled_model(rules)

    def candidates(self, view: Any) -> tuple[list[np.ndarray], list[list[Any]], np.ndarray]:
        """The ranker's candidates at a view's decision, as it plays them: per game their rows
        ([m, len(RANK)]), their actions and the row it chooses (the game's `ranked`)."""
        return type(self).ranked(view, self.compiled_model(view.rules))

    def compiled_model(self, rules: Any) -> Model:
        """The model under `rules` whatever the decision methods (what `candidates` asks)."""
        found = self._models.get(rules)
        if found is None:
            nodes, roots, constant = self.doc["_tables"][0]
            kinds = sum(1 << k for k, kind in enumerate(self.decision_kinds)
                        if kind.value in self.doc["kinds"])  # fmt: skip
            weights = np.array([inst.vector(rules) for inst in self._made], dtype=np.float64)
            found = Model(weights, nodes, roots, constant, kinds, self.doc["digest"],
                          self.doc["candidates"] == "legal")  # fmt: skip
            self._models[rules] = found
        return found

    def by_policy(self, view: Any) -> np.ndarray:
        """The ranker's action in each game of the view (the machine's kernel)."""
        rows, cands, chosen = self.candidates(view)
        return np.array([c[j] for c, j in zip(cands, chosen, strict=True)], dtype=np.int64)
