"""`restrict`, written once for every game: another strategy with some kinds of move
forbidden (docs/strategies.md, "restrict").

`restrict(strategy='tuned', forbid=['boat', 'raid'])` plays `tuned` except that it never
makes the moves the names forbid. Before the inner strategy is asked, the forbidden actions
leave its view's legal mask, so it chooses among the allowed ones; a game where only
forbidden actions are legal keeps them (the rules come first: the move is forced, and counted
in `forced`). An inner strategy that ignores the mask and answers a forbidden action anyway
gets the first allowed action of that game instead (counted in `replaced`).

What each name forbids is the game's own, written once in its compiled policy: a game's
`restrict` names its forbid names (`FORBID`: what each forbids; `KINDS`: the kinds each
narrows; `BITS`: its bit in the policy), the mask its policy leaves a view
(`allowed_actions`), its compiled form with the bits (`forbidding`), and the decisions it
answers itself without asking the inner strategy (`answer_here`). So a restriction of a
compiled strategy plays compiled, and one of a strategy asked through views narrows its
views' masks by the same kernels.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.engine.answers import BadAnswer, check
from moaisim.errors import UnknownStrategyError
from moaisim.games import load_game
from moaisim.mixture_parts import view_with
from moaisim.registry import load_strategy


def forbid_names(forbid: Any, known: dict[str, str]) -> frozenset[str]:
    """The forbid names of a `forbid` parameter: a list of names, or one string of names
    separated by ',' or '+' (as typed on a command line: `forbid=boat+raid`, `[boat,raid]`);
    one clear line for anything else, or for a name not `known` (none: nothing forbidden)."""
    if isinstance(forbid, str):
        text = forbid.strip().removeprefix("[").removesuffix("]").replace("+", ",")
        names = [x.strip().strip("'\"") for x in text.split(",") if x.strip()]
    elif isinstance(forbid, list | tuple | set | frozenset):
        names = list(forbid)
    else:
        raise UnknownStrategyError(
            f"strategy 'restrict': forbid must be a list of names, got {forbid!r}"
        )
    unknown = [x for x in names if not isinstance(x, str) or x not in known]
    if unknown:
        raise UnknownStrategyError(
            f"strategy 'restrict': unknown forbid name {unknown[0]!r} (known: {', '.join(known)})"
        )
    return frozenset(names)


class Restrict:
    """Another strategy with kinds of move forbidden (strategy=..., forbid=[...]). Mixed in
    before a game's `Strategy` base, which names the game (`game`), its decision kinds
    (`kinds`) and its forbid names (`FORBID`, `KINDS`, `BITS`)."""

    name = "restrict"
    params: ClassVar[dict[str, Any]] = {
        "strategy": "",  # the inner strategy's spec (required), e.g. 'tuned' or 'greedy(...)'
        "forbid": (),  # forbid names (FORBID), e.g. ['boat', 'raid']
    }
    strategy: str
    forbid: Any
    #: The game's name in the registry and its decision kinds (an enum of method names).
    game: ClassVar[str]
    kinds: ClassVar[Any]
    #: Each forbid name: what it forbids (rule ids), the kinds it narrows, its policy bit.
    FORBID: ClassVar[dict[str, str]]
    KINDS: ClassVar[dict[str, tuple[Any, ...]]]
    BITS: ClassVar[dict[str, int]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for kind in cls.__dict__.get("kinds", ()):  # each decision answers through `_decide`
            setattr(cls, kind.value, Restrict._decide)

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if not self.strategy.strip():
            raise UnknownStrategyError(
                "strategy 'restrict': give the strategy to restrict, e.g. "
                f"restrict(strategy='greedy', forbid=['{next(iter(self.FORBID))}'])"
            )
        self.forbidden = forbid_names(self.forbid, self.FORBID)
        self.inner_spec = load_strategy(self.strategy, self.game)
        self.inner = self.inner_spec()
        #: game-decisions where only forbidden actions were legal (played anyway), per kind
        self.forced: dict[str, int] = {}
        #: game-decisions where the inner strategy answered a forbidden action, per kind
        self.replaced: dict[str, int] = {}
        #: the kinds the names narrow, and their bits in the game's compiled policy
        self.narrowed = frozenset(k for name in self.forbidden for k in self.KINDS[name])
        self.bits = 0
        for name in self.forbidden:
            self.bits |= self.BITS[name]
        inner_reads = getattr(self.inner, "reads", None) or {}
        # the kinds it narrows: every field (the masks are the policy's kernels')
        self.reads = {
            kind.value: inner_reads[kind.value]
            for kind in self.kinds
            if kind not in self.narrowed and kind.value in inner_reads
        }

    # --- the game's part -----------------------------------------------------------------
    def allowed_actions(self, view: Any) -> tuple[np.ndarray, np.ndarray]:
        """The legal actions the bits leave a view [n, A], and the games where they leave
        none [n] (the mask then as it was: the move is forced)."""
        raise NotImplementedError(f"{type(self).__name__} does not say what its names allow")

    def forbidding(self, form: Any) -> Any:
        """The inner strategy's compiled form `form` with the bits forbidden; None when the
        game's machine cannot play it so (the seat is then asked through views)."""
        return None

    def answer_here(self, view: Any) -> np.ndarray | None:
        """The answer of a decision the names settle without asking the inner strategy
        (none by default)."""
        return None

    # --- the toolkit's part --------------------------------------------------------------
    def check_players(self, players: int) -> None:
        """The restricted strategy's own player counts (`Strategy.check_players`)."""
        self.inner.check_players(players)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """Start the restricted strategy."""
        hook = getattr(self.inner, "start", None)
        if hook is not None:
            hook(rules, seat, games)

    def vector(self, rules: Any) -> np.ndarray:
        """The restricted strategy's weights (what a compiled heuristic form plays)."""
        return self.inner.vector(rules)

    #: The methods besides the decisions that the compiled form plays as written here.
    HELPERS: ClassVar[tuple[str, ...]] = ("_decide",)

    def compiled(self, rules: Any) -> Any:
        """The inner strategy's compiled form with the forbid bits (`forbidding`); None when
        the inner strategy has none, or for a subclass that overrides a decision or a
        helper."""
        for name in (*(k.value for k in self.kinds), *self.HELPERS):
            mine = getattr(getattr(self, name, None), "__func__", None)
            if mine is not Restrict._decide:
                return None
        make = getattr(self.inner, "compiled", None)
        inner = make(rules) if make is not None else None
        return None if inner is None else self.forbidding(inner)

    def _count(self, table: dict[str, int], kind: Any, k: int) -> None:
        if k:
            table[kind.value] = table.get(kind.value, 0) + int(k)

    def _decide(self, view: Any) -> Any:
        kind = view.kind
        if kind not in self.narrowed:
            return getattr(self.inner, kind.value)(view)
        own = self.answer_here(view)
        if own is not None:
            return own
        legal = np.asarray(view.legal, dtype=bool)
        allowed, stuck = self.allowed_actions(view)
        self._count(self.forced, kind, stuck.sum())
        answer = getattr(self.inner, kind.value)(view_with(view, legal=allowed))
        width = load_game(self.game).ACTION_WIDTHS.get(kind, 1)
        try:
            actions = check(answer, legal, width if width > 1 else 0).copy()
        except BadAnswer:
            return answer  # not a legal answer at all: the engine reports it as the inner's
        if width > 1:
            return actions
        wrong = ~allowed[np.arange(len(actions)), actions]
        if wrong.any():  # a strategy that ignores the mask: the first allowed action instead
            actions[wrong] = np.argmax(allowed[wrong], axis=1)
            self._count(self.replaced, kind, wrong.sum())
        return actions
