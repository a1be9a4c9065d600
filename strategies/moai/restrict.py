"""`restrict`: another strategy with some kinds of move forbidden (docs/strategies.md,
"restrict").

`restrict(strategy='tuned', forbid=['boat', 'raid'])` plays `tuned` except that it never
builds a boat and never raids. Before the inner strategy is asked, the forbidden actions are
taken out of its view's legal mask, so it chooses among the allowed ones; a game where only
forbidden actions are legal keeps them (the rules come first: the move is forced, and counted
in `forced`). An inner strategy that ignores the mask and answers a forbidden action anyway
gets the first allowed action of that game instead (counted in `replaced`). The forbid names:

- `bid`: never bid: every bid is no card (R3.3; the empty bid is always legal). The inner
  strategy is not asked (one action is left, as when the engines skip a forced decision).
- `boat`: never build a boat (R7.4: the boat decision is always 0, not asked) and never put
  a pawn on a boat (R5.7: no placement at sea, no swap that brings a pawn onto a boat).
- `raid`: never raid when feeding (R6.4): only starving actions (R6.3; one is always legal).
- `birth`: never take a birth (R7.3): stop at once; the births the last round makes
  compulsory (R7.3, A4: stopping is then illegal) are forced.
- `forest`: never place a pawn in the forest (R5.4), nor swap one into it (R5.3: a swap of a
  forest pawn with a pawn elsewhere brings the other pawn into the forest).
- `swap`: never swap two pawns in the work phase (R5.3): with an empty camp, pass.
- `disasters`: never aim a disaster at a rival. Reading (R4.1, R4.3, C3): never take an
  epoch card whose disaster strikes a chosen clan (fire, fire-boat, famine, storm, topple;
  erosion strikes nobody) while another card is on offer; and when such a card is held
  anyway, aim it at a clan that has nothing the card takes (C3: a fire at a clan without
  wood burns nothing), its own clan included; when every clan would lose something, the
  target is drawn by lot among all clans, its own included (R4.3 lets it aim at itself):
  no aim, a disaster spread as evenly as chance spreads it. Under V5 the taker aims nothing,
  so only the pick is restricted. The target is chosen here (one value of the seat's stream
  per game, as the random default), not by the inner strategy.

The label names the inner strategy and the list as written: `restrict(strategy='greedy',
forbid=['boat'])`. What each name forbids is written once, in the compiled policies
(`compiled.policy.narrow`, `aim`): a restriction of a compiled strategy plays compiled, and one
of a strategy asked through views narrows its views' masks by the same kernels
(`compiled.answer.allowed_actions`), so its views of the kinds it restricts copy every field.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from moaisim.errors import UnknownStrategyError
from moaisim.games.moai.engine.answers import BadAnswer, check
from moaisim.games.moai.engine.compiled.answer import allowed_actions
from moaisim.games.moai.engine.compiled.policy import FORBID as FORBID_BITS
from moaisim.games.moai.engine.compiled.policy import Choice, Form, Policy
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.views import SeatView
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import N_CARD_TYPES
from moaisim.registry import load_strategy
from moaisim.strategies.moai.base import Strategy

#: The forbid names and what each forbids (rules.md ids).
FORBID: dict[str, str] = {
    "bid": "never bid: every bid is no card (R3.3)",
    "boat": "never build a boat (R7.4) nor put a pawn on one (R5.7)",
    "raid": "never raid when feeding (R6.4)",
    "birth": "never take a birth (R7.3), unless the last round makes it compulsory",
    "forest": "never place a pawn in the forest (R5.4), nor swap one into it (R5.3)",
    "swap": "never swap two pawns in the work phase (R5.3)",
    "disasters": "never aim a disaster at a rival that loses by it (R4.1, R4.3, C3)",
}
#: The kinds each forbid name restricts.
KINDS: dict[str, tuple[Kind, ...]] = {
    "bid": (Kind.BID,),
    "boat": (Kind.BOAT, Kind.WORK),
    "raid": (Kind.FEED,),
    "birth": (Kind.BIRTH,),
    "forest": (Kind.WORK,),
    "swap": (Kind.WORK,),
    "disasters": (Kind.PICK_EPOCH, Kind.DISASTER_TARGET),
}


def view_with(view: SeatView, **changes: Any) -> SeatView:
    """A view like `view` with some attributes replaced (`legal`, `rng`): a shallow copy
    that shares the rest of its arrays, which are the view's own (docs/design.md, "Sealed
    views"), so the game is no more reachable from it than from `view`."""
    out = object.__new__(type(view))
    out.__dict__.update(view.__dict__)
    out.__dict__.update(changes)
    return out


def forbid_names(forbid: Any) -> frozenset[str]:
    """The forbid names of a `forbid` parameter: a list of names, or one string of names
    separated by ',' or '+' (as typed on a command line: `forbid=boat+raid`, `[boat,raid]`);
    one clear line for anything else."""
    if isinstance(forbid, str):
        text = forbid.strip().removeprefix("[").removesuffix("]").replace("+", ",")
        names = [x.strip().strip("'\"") for x in text.split(",") if x.strip()]
    elif isinstance(forbid, list | tuple | set | frozenset):
        names = list(forbid)
    else:
        raise UnknownStrategyError(
            f"strategy 'restrict': forbid must be a list of names, got {forbid!r}"
        )
    unknown = [x for x in names if not isinstance(x, str) or x not in FORBID]
    if unknown:
        raise UnknownStrategyError(
            f"strategy 'restrict': unknown forbid name {unknown[0]!r} (known: {', '.join(FORBID)})"
        )
    return frozenset(names)


def _forbidding(form: Any, bits: int) -> Form | None:
    """A compiled form with `bits` forbidden (each policy of a `Choice`); None for none, or
    for one that forbids already, or for a `Choice` under `disasters`: the target drawn
    here (`_aim`) comes from the view's stream where the engine left it, while the chosen
    components draw on from where they left it (`mixture.PerGame`), two positions that the
    compiled path's one stream position per seat does not keep."""
    if isinstance(form, Policy):
        return None if form.forbid else form._replace(forbid=bits)
    if isinstance(form, Choice):
        if bits & FORBID_BITS["disasters"]:
            return None
        forms = {k: _forbidding(f, bits) for k, f in form.forms.items()}
        if any(f is None for f in forms.values()):
            return None
        return Choice(forms, form.pick)  # type: ignore[arg-type]
    return None


class RestrictStrategy(Strategy):
    """Another strategy with kinds of move forbidden (bid, boat, raid, birth, forest...)."""

    name = "restrict"
    params: ClassVar[dict[str, Any]] = {
        "strategy": "",  # the inner strategy's spec (required), e.g. 'tuned' or 'greedy(...)'
        "forbid": (),  # forbid names (FORBID), e.g. ['boat', 'raid']
    }
    strategy: str
    forbid: Any

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)

        if not self.strategy.strip():
            raise UnknownStrategyError(
                "strategy 'restrict': give the strategy to restrict, e.g. "
                "restrict(strategy='greedy', forbid=['boat'])"
            )
        self.forbidden = forbid_names(self.forbid)
        self.inner_spec = load_strategy(self.strategy)
        self.inner = self.inner_spec()
        #: game-decisions where only forbidden actions were legal (played anyway), per kind
        self.forced: dict[str, int] = {}
        #: game-decisions where the inner strategy answered a forbidden action, per kind
        self.replaced: dict[str, int] = {}
        self.kinds = frozenset(k for name in self.forbidden for k in KINDS[name])
        self.bits = 0
        for name in self.forbidden:
            self.bits |= FORBID_BITS[name]
        inner_reads = getattr(self.inner, "reads", None) or {}
        reads: dict[str, tuple[str, ...]] = {}
        for kind in Kind:
            if self._decides(kind) and kind is not Kind.DISASTER_TARGET:
                reads[kind.value] = ()  # answered here without looking: no bid, no boat
            elif kind not in self.kinds and kind.value in inner_reads:
                reads[kind.value] = inner_reads[kind.value]
        self.reads = reads  # the kinds it restricts: every field (the masks are the kernels')

    def check_players(self, players: int) -> None:
        """The restricted strategy's own player counts (`Strategy.check_players`)."""
        self.inner.check_players(players)

    def _decides(self, kind: Kind) -> bool:
        """Whether this wrapper answers `kind` itself, without asking the inner strategy."""
        return (
            (kind is Kind.BID and "bid" in self.forbidden)
            or (kind is Kind.BOAT and "boat" in self.forbidden)
            or (kind is Kind.DISASTER_TARGET and "disasters" in self.forbidden)
        )

    #: The methods besides the decisions that the compiled form plays as written here.
    HELPERS: ClassVar[tuple[str, ...]] = ("_decide", "_aim")

    def compiled(self, rules: Rules) -> Form | None:
        """`restrict` compiled: the inner strategy's compiled form with the forbid names as
        its `forbid` bits (`compiled.policy.narrow`, `aim`). Not counted there: `forced`.
        None when the inner strategy has no compiled form or restricts already (two
        restrictions narrow in two steps), or for a subclass with overrides of its own."""
        if not self.plays_as(RestrictStrategy):
            return None
        for name in self.HELPERS:
            mine = getattr(getattr(self, name, None), "__func__", None)
            if mine is not getattr(RestrictStrategy, name, object()):
                return None
        make = getattr(self.inner, "compiled", None)
        inner = make(rules) if make is not None else None
        return _forbidding(inner, self.bits)

    def start(self, rules: Any, seat: int, games: np.ndarray) -> None:
        """Start the restricted strategy."""
        hook = getattr(self.inner, "start", None)
        if hook is not None:
            hook(rules, seat, games)

    def _count(self, table: dict[str, int], kind: Kind, k: int) -> None:
        if k:
            table[kind.value] = table.get(kind.value, 0) + int(k)

    # --- one decision --------------------------------------------------------------------
    def _decide(self, view: SeatView) -> Any:
        kind = view.kind
        if kind not in self.kinds:
            return getattr(self.inner, kind.value)(view)
        if kind is Kind.BID and "bid" in self.forbidden:  # R3.3: the empty bid
            return np.zeros((len(view), N_CARD_TYPES), dtype=np.int64)
        if kind is Kind.BOAT and "boat" in self.forbidden:  # R7.4: keep the wood
            return np.zeros(len(view), dtype=np.int64)
        if kind is Kind.DISASTER_TARGET and "disasters" in self.forbidden:
            return self._aim(view)
        legal = np.asarray(view.legal, dtype=bool)
        allowed, stuck = allowed_actions(self.bits, view)  # stuck: only forbidden ones legal
        self._count(self.forced, kind, stuck.sum())
        answer = getattr(self.inner, kind.value)(view_with(view, legal=allowed))
        try:
            actions = check(kind, answer, legal).copy()
        except BadAnswer:
            return answer  # not a legal answer at all: the engine reports it as the inner's
        wrong = ~allowed[np.arange(len(actions)), actions]
        if wrong.any():  # a strategy that ignores the mask: the first allowed action instead
            actions[wrong] = np.argmax(allowed[wrong], axis=1)
            self._count(self.replaced, kind, wrong.sum())
        return actions

    def _aim(self, view: SeatView) -> np.ndarray:
        """R4.3 under `disasters`: a clan that has nothing the card takes (C3), its own
        included; when every clan would lose something, one drawn by lot (one value of the
        seat's stream per game, whichever case)."""
        harmless, stuck = allowed_actions(self.bits, view)
        self._count(self.forced, view.kind, stuck.sum())
        return view.rng.choice(harmless)

    bid = order_ties = pick_epoch = disaster_target = disaster_loss = _decide
    work = forest_tie = finish_moai = feed = rest = birth = boat = _decide
