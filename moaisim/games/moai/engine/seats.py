"""The strategies seated at a batch of games, and how the batch engine asks them (docs/design.md,
"Strategy lifetime" and "Views are sealed").

`Seats` holds one strategy instance per seat for every game of a batch; `answer(machine,
pending)` asks them about one pending decision: each deciding seat's strategy once, through a
sealed view over the games where that seat decides (rows with a single legal action are
applied without asking, as in the reference engine), its answer checked with array operations
(`answers.check`) and its random stream moved on by what it drew. The forward model
(`engine.forward.Games.play`) is the loop around it: the machine runs what needs no decision,
the seats answer what it waits for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from moaisim.errors import UserError
from moaisim.games.moai.engine.answers import BadAnswer, answer, failure
from moaisim.games.moai.engine.compiled.policy import Choice, Form, Policy
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.steps import Pending
from moaisim.games.moai.engine.views import check_reads, make_view, parts_for, start_strategies
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import N_CARD_TYPES
from moaisim.jit import kernel

if TYPE_CHECKING:
    from moaisim.games.moai.engine.batch.machine import Machine


def seat_forms(rules: Rules, strategies: Sequence[Any], partly: bool = True
               ) -> list[Form | None]:  # fmt: skip
    """Each strategy's compiled form under these rules (`Strategy.compiled`); with `partly`,
    for one that overrides some decisions only, its policy with those asked of Python
    (`Strategy.partly`); None for one asked through views at every decision."""
    out: list[Form | None] = []
    for strategy in strategies:
        make = getattr(strategy, "compiled", None)
        policy = make(rules) if make is not None else None
        if policy is None and partly:
            some = getattr(strategy, "partly", None)
            policy = some(rules) if some is not None else None
        out.append(policy if isinstance(policy, Policy | Choice) else None)
    return out


def compiled_forms(rules: Rules, strategies: Sequence[Any]) -> list[Form] | None:
    """Each strategy's compiled form under these rules, or None unless every one has one
    (no user code runs in their games)."""
    forms = seat_forms(rules, strategies, partly=False)
    return None if any(f is None for f in forms) else forms  # type: ignore[return-value]


class Seats:
    """One strategy instance per seat of a batch (`strategies[seat]`), named `names[seat]` in
    results and errors (default: the class names). `asked` counts the game-decisions put to
    strategies, `decided` every decision (forced ones included)."""

    def __init__(self, rules: Rules, strategies: Sequence[Any],
                 names: Sequence[str] | None = None) -> None:  # fmt: skip
        if len(strategies) != rules.players:
            raise UserError(f"{rules.players} players need {rules.players} strategies, "
                            f"got {len(strategies)}")  # fmt: skip
        self.rules = rules
        self.strategies = list(strategies)
        self.names = list(names) if names else [type(s).__name__ for s in strategies]
        if len(self.names) != rules.players:
            raise UserError(f"{rules.players} players need {rules.players} names")
        self.methods = {k: [getattr(s, k.value) for s in self.strategies] for k in Kind}
        for strategy, name in zip(self.strategies, self.names, strict=True):
            check_reads(strategy, name)
        #: the parts of a game each seat's views of each kind copy (views.parts_for)
        self.parts = {k: [parts_for(s, k) for s in self.strategies] for k in Kind}
        self.asked = 0
        self.decided = 0
        self._forms: list[Form | None] | None = None  # not asked yet

    def forms(self) -> list[Form | None]:
        """Each seat's compiled form (`Strategy.compiled`: a `Policy`, or a `Choice` of them
        game by game, resolved with the batch's games by `policy.lineup`), None for a seat
        asked through views."""
        if self._forms is None:
            self._forms = seat_forms(self.rules, self.strategies)
        return self._forms

    def holds(self, strategies: Sequence[Any]) -> bool:
        """These are the instances seated here (the same objects, seat by seat)."""
        return len(strategies) == len(self.strategies) and all(
            a is b for a, b in zip(strategies, self.strategies, strict=True)
        )

    def start(self, machine: Machine) -> None:
        """Each strategy's `start(rules, seat, games)` hook, once, before its first decision
        in these games."""
        start_strategies(self.strategies, self.rules, machine.games, self.names, machine.seed)

    def answer(self, machine: Machine, pend: Pending, seats: Sequence[int] | None = None
               ) -> np.ndarray:  # fmt: skip
        """The action of each entry of a pending group (`ask`); with `seats`, only the entries
        of those seats are asked (the others are 0: a searching seat fills in its own).
        Sealed bids (R3.3) are asked seat by seat, as the reference engine asks them."""
        if seats is not None:
            mine = np.isin(pend.seat, np.asarray(list(seats), dtype=np.int64))
            width = (len(pend), N_CARD_TYPES) if pend.kind is Kind.BID else (len(pend),)
            out = np.zeros(width, dtype=np.int64)
            if mine.any():
                out[mine] = self.answer(machine, pend.subset(mine))
            return out
        if pend.kind is not Kind.BID or machine.rules.open_bidding:
            return self.ask(machine, pend.kind, pend.seat, pend.rows, pend.legal, **pend.info)
        out = np.zeros((len(pend), N_CARD_TYPES), dtype=np.int16)
        for q in range(machine.rules.players):
            sel = np.flatnonzero(pend.seat == q)
            out[sel] = self.ask(machine, pend.kind, q, pend.rows[sel], pend.legal[sel])
        return out

    def ask(
        self,
        machine: Machine,
        kind: Kind,
        seat: np.ndarray | int,
        rows: np.ndarray,
        legal: np.ndarray,
        **info: np.ndarray,
    ) -> np.ndarray:
        """One decision of `kind` in each game of `rows`, by `seat` ([n] or one seat for all).

        legal: [n, A] bool masks (for BID: the [n, 6] hand counts that bound the bid).
        info: arrays [n, ...] shown to the strategy as `view.info`.
        Returns the actions: [n] ints, or [n, 6] card counts for BID.
        """
        n = len(rows)
        if kind is Kind.BID:
            forced = ~legal.any(axis=1)
            action = np.zeros((n, N_CARD_TYPES), dtype=np.int16)
        else:
            forced, action = single_legal(legal)
        self.decided += n
        if not forced.all():
            for q, sel in self._groups(seat, forced):
                action[sel] = self._ask_seat(machine, kind, q, rows[sel], legal[sel], info, sel)
        if machine.log_mask is not None:
            seats = np.broadcast_to(seat, (n,))
            for i in machine.logged(rows):
                a = action[i]
                machine.emit(
                    rows[i],
                    "decision",
                    seat=int(seats[i]),
                    kind=kind.value,
                    action=[int(x) for x in a] if kind is Kind.BID else int(a),
                    forced=bool(forced[i]),
                )
        return action

    def _groups(
        self, seat: np.ndarray | int, forced: np.ndarray
    ) -> list[tuple[int, slice | np.ndarray]]:
        """The rows each seat is asked about (forced rows left out), as (seat, selection).

        Rows sorted by seat (as pending groups are) give slices, so the views see the
        engine's arrays without copies.
        """
        p = self.rules.players
        if isinstance(seat, int | np.integer):
            return [(int(seat), np.flatnonzero(~forced) if forced.any() else slice(None))]
        if len(seat) > 1 and (seat[1:] >= seat[:-1]).all():
            bounds = np.searchsorted(seat, np.arange(p + 1)).tolist()
            out: list[tuple[int, slice | np.ndarray]] = []
            for q in range(p):
                a, b = bounds[q], bounds[q + 1]
                if a < b:
                    f = forced[a:b]
                    if not f.any():
                        out.append((q, slice(a, b)))
                    elif not f.all():
                        out.append((q, a + np.flatnonzero(~f)))
            return out
        groups = [(q, np.flatnonzero((seat == q) & ~forced)) for q in range(p)]
        return [(q, sel) for q, sel in groups if len(sel)]

    def _ask_seat(
        self,
        machine: Machine,
        kind: Kind,
        seat: int,
        rows: np.ndarray,
        legal: np.ndarray,
        info: dict[str, np.ndarray],
        sel: np.ndarray | slice,
    ) -> np.ndarray:
        """Ask `seat`'s strategy about the games `rows` through a sealed view (copies only),
        check its answer, and move its random stream on by what it drew."""
        self.asked += len(rows)
        rng = machine.streams.seat(seat, rows)
        info = {k: v[sel] for k, v in info.items()}
        games = machine.games[rows]
        s, parts = machine.state, self.parts[kind][seat]
        cursor = s.cursor_records(rows) if "cursor" in parts else None
        view = make_view(kind, seat, self.rules, parts, s.public, s.secrets(), rows, games,
                         legal, rng, info, cursor)  # fmt: skip
        try:
            actions = answer(self.methods[kind][seat], view, kind, legal)
        except BadAnswer as bad:
            raise failure(bad, self.names[seat], kind, games, machine.seed, seat) from bad.raised
        machine.streams.advance(seat, rows, rng)
        return actions


@kernel
def single_legal(legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a legal mask: (exactly one action is legal, the first legal action or 0)."""
    n, size = legal.shape
    forced = np.zeros(n, dtype=np.bool_)
    first = np.zeros(n, dtype=np.int64)
    for r in range(n):
        count = 0
        for a in range(size):
            if legal[r, a]:
                if count == 0:
                    first[r] = a
                count += 1
                if count > 1:
                    break
        forced[r] = count == 1
    return forced, first
