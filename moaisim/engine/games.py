"""Many games as one forward model, written once for every game (docs/design.md, "The forward
model"): a `Games` over the machine a game supplies (`Machine`, the protocol below).

    games = Games.new(rules, seed=7, games=range(100))
    for pend in games.pending():            # the decisions they wait for, a group each
        games.apply(pend, choose(pend))     # one action per row, checked
    games.clone(rows, seed=1)               # copies, on streams of their own
    games.observe(seat)                     # the sealed view a seat would be given

What is the same in every game lives here: the tickets that let only the current decision of
a game be answered (a group answered already, issued before the games moved on, or issued by
other games is refused; a part of a group may be answered), the checks of positions, seeds and
game numbers, copies and stacks, the views' door and the win shares. What differs lives in
the game's machine: how its games are set up and played to their next decisions, how an answer
is checked and put, copied, viewed and scored. A refused call changes nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import numpy as np

from moaisim.checks import check_seed, game_indices, positions, whole
from moaisim.engine.pending import Pending
from moaisim.errors import UserError


@runtime_checkable
class Machine(Protocol):
    """What a game's fast machine supplies the forward model: B games of root seed `seed`,
    numbered `games`, under `rules`."""

    rules: Any
    seed: int
    games: np.ndarray

    def __len__(self) -> int:
        """B, the games held."""
        ...

    def next_decisions(self) -> list[Pending]:
        """Every game not over played on to its next decision, every seat asked from outside
        (forced decisions taken as the game takes them); the groups waiting, without tickets."""
        ...

    def checked(self, pend: Pending, actions: Any) -> np.ndarray:
        """An answer to a group, checked as the engine checks a strategy's (whole numbers of
        the kind's shape, legal by `pend.legal`): the actions, or a one-line `UserError`."""
        ...

    def put(self, pend: Pending, actions: np.ndarray) -> None:
        """Checked answers into their games: the games play on from there when next asked."""
        ...

    def take(self, rows: np.ndarray, games: np.ndarray | None) -> Machine:
        """Exact copies of the games at `rows` (a row may repeat), numbered `games` (None:
        their own numbers): they play on as the originals would."""
        ...

    def fork(self, rows: np.ndarray, seed: int, games: np.ndarray) -> Machine:
        """Copies of the games at `rows` whose future chance and seats' streams come from the
        stream space of root `seed`, copy k as its game `games[k]` (common random numbers)."""
        ...

    def view(self, seat: int, rows: np.ndarray, kind: Any) -> Any:
        """Seat `seat`'s sealed view of the games `rows`, as at a decision of `kind` (None: the
        game's own), its legal actions and info empty."""
        ...

    def over(self) -> np.ndarray:
        """[B] bool: the game is over."""
        ...

    def scores(self) -> np.ndarray:
        """[B, P] each seat's score now."""
        ...

    def shares(self) -> np.ndarray:
        """[B, P] each seat's share of the win were the game to end now (1/k for k tied
        winners, the game's own tie rule applied)."""
        ...

    def nbytes(self) -> int:
        """Memory held by the games' state."""
        ...


class Games(ABC):
    """Many games as one forward model over a game's machine (see the module's docstring).
    A game subclasses it with its `new` (how a batch is set up), `concat` (one machine of
    several), and what it plays with strategies; it names its decision kinds (`Kind`) and
    those answered by a row of numbers (`VECTOR_KINDS`: Moai's bid), and whether it is
    played in rounds that `play(..., last_round=k)` stops after (`ROUNDS`: a search's rollouts
    then play to their horizon, not to the end)."""

    Kind: ClassVar[type]
    VECTOR_KINDS: ClassVar[frozenset[Any]] = frozenset()
    ROUNDS: ClassVar[bool] = False

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        # the groups issued, so that only the current decision of a game is answered: each
        # group gets a ticket; a game holds the ticket of the group that asks it, -1 once
        # answered (or played on), and `apply` refuses any other group
        self._owner = object()
        self._ticket = np.full(len(machine), -1, dtype=np.int64)
        self._tickets = 0
        # the engine's own copy of each group still waiting, by ticket: an answer is checked
        # against the rules' legal actions kept here, never against the arrays handed out
        self._issued: dict[int, Pending] = {}

    # --- what the games are -----------------------------------------------------------------
    @property
    def rules(self) -> Any:
        """The rules the games are played under."""
        return self.machine.rules

    @property
    def seed(self) -> int:
        """The root seed the games were dealt from."""
        return self.machine.seed

    @property
    def games(self) -> np.ndarray:
        """[n] the games' numbers (in their root seed's run)."""
        return np.array(self.machine.games, copy=True)

    def __len__(self) -> int:
        return len(self.machine)

    def nbytes(self) -> int:
        """Memory held by the games' state (what `moaisim bench` reports)."""
        return self.machine.nbytes()

    def over(self) -> np.ndarray:
        """[n] bool: the game is over."""
        return self.machine.over()

    def scores(self) -> np.ndarray:
        """[n, P] each seat's score now."""
        return self.machine.scores()

    def returns(self) -> np.ndarray:
        """[n, P] each seat's share of the win (1/k for a k-way shared win) of the games over;
        nan for the others."""
        out = np.array(self.machine.shares(), dtype=float)
        out[~self.over()] = np.nan
        return out

    # --- deciding from outside -----------------------------------------------------------------
    def pending(self) -> list[Pending]:
        """The decisions the games wait for, one group per decision and seat (sealed ones at
        once: every seat of a game in one group), after playing on every step that needs none.
        A group stays the current decision of its games until it is answered (`apply`) or the
        games are played on; `pending()` again gives the same decisions."""
        out: list[Pending] = []
        issued: dict[int, Pending] = {}
        for pend in self.machine.next_decisions():
            ticket = int(self._ticket[pend.rows[0]]) if len(pend) else -1
            own = self._issued.get(ticket)
            same = (own is not None and len(own) == len(pend) and own.kind == pend.kind
                    and bool((own.rows == pend.rows).all())
                    and bool((own.seat == pend.seat).all()))  # fmt: skip
            if not same:
                self._tickets += 1
                ticket = self._tickets
                pend.ticket, pend.owner = ticket, self._owner
                own = pend
                self._ticket[pend.rows] = ticket
            assert own is not None
            issued[ticket] = own
            out.append(own.sealed())
        self._issued = issued  # a group no game waits for is dead
        return out

    def apply(self, pend: Pending, actions: Any) -> None:
        """One action per row of a pending group, checked as the engine checks a strategy's
        answer (whole numbers of the kind's shape, legal); a group that is not the current
        decision of its games is refused. A refused call changes nothing."""
        own = self._own(pend)
        checked = self.machine.checked(own, actions)
        self.machine.put(own, checked)
        self._ticket[own.rows] = -1

    def _own(self, pend: Pending) -> Pending:
        """The engine's own copy of the group `pend` was handed out as (or of the part of it
        `pend` keeps, `Pending.subset`), if it is the current decision of its games, issued by
        these games' `pending()`; a clear line otherwise."""
        if not isinstance(pend, Pending):
            raise UserError(f"expected a pending group from pending(), got {pend!r}")
        if pend.owner is not self._owner:
            raise UserError(f"{pend.name}: this pending group was not issued by these games "
                            "(call their own pending())")  # fmt: skip
        own = self._issued.get(pend.ticket)
        try:
            rows = np.asarray(pend.rows, dtype=np.int64)
            seat = np.asarray(pend.seat, dtype=np.int64)
        except (TypeError, ValueError):
            rows = seat = np.zeros(0, dtype=np.int64)
        current = (own is not None and rows.ndim == 1 and len(rows) > 0
                   and rows.shape == seat.shape
                   and bool(((rows >= 0) & (rows < len(self))).all())
                   and bool((self._ticket[rows] == pend.ticket).all()))  # fmt: skip
        if not current or own is None:
            raise UserError(f"{pend.name}: this pending group is not the current decision of "
                            "its games (answered already, or they have moved on): call "
                            "pending() again")  # fmt: skip
        if len(rows) == len(own) and (rows == own.rows).all() and (seat == own.seat).all():
            return own
        # a part of the group: each of its (row, seat) pairs one of the group's, in its order
        pairs = {(int(r), int(q)): k for k, (r, q) in enumerate(zip(own.rows, own.seat,
                                                                       strict=True))}  # fmt: skip
        keep = [pairs.get((int(r), int(q)), -1) for r, q in zip(rows, seat, strict=True)]
        if -1 in keep or keep != sorted(set(keep)):
            raise UserError(f"{pend.name}: the group's games were changed: answer the group "
                            "pending() gave, or a part of it (Pending.subset)")  # fmt: skip
        return own.subset(np.asarray(keep, dtype=np.int64))

    def expire(self) -> None:
        """Every group issued so far is out of date (the games are played on)."""
        self._ticket[:] = -1
        self._issued = {}

    # --- copies -----------------------------------------------------------------------------
    def clone(self, rows: Sequence[int] | np.ndarray | None = None, seed: int | None = None,
              games: Sequence[int] | np.ndarray | None = None) -> Self:  # fmt: skip
        """Copies of the games at `rows` (default all; a row may repeat). With `seed`, the
        copies draw their future chance and their seats' streams from a stream space of their
        own (root seed `seed`), never the real games', copy k as game `games[k]` of that space
        (default k): copies given the same number draw the same numbers (common random
        numbers: one world tried with several actions). Without `seed`, they are exact copies
        that play on as the originals would; `games` then numbers them, default their own
        numbers, or their places when a row repeats."""
        rows = positions(np.arange(len(self)) if rows is None else rows, len(self),
                         "clone: rows")  # fmt: skip
        if not len(rows):
            raise UserError("clone: rows must name at least one game")
        ids = None if games is None else game_indices(_listed(games), "clone: games",
                                                      distinct=False)  # fmt: skip
        if ids is not None and ids.shape != rows.shape:
            raise UserError(f"games= needs one number per copy ({len(rows)}), got {ids.shape}")
        if seed is None:
            if ids is None and len(np.unique(rows)) != len(rows):
                ids = np.arange(len(rows), dtype=np.int64)
            return self._made(self.machine.take(rows, ids))
        ids = np.arange(len(rows), dtype=np.int64) if ids is None else ids
        return self._made(self.machine.fork(rows, check_seed(seed), ids))

    def _made(self, machine: Machine) -> Self:
        """A forward model of this kind over `machine` (a copy's, a stack's)."""
        return type(self)(machine)

    @classmethod
    def stack(cls, parts: Sequence[Games]) -> Self:
        """One forward model over the games of several, one after the other (numbered 0..n-1;
        each keeps its own streams, whatever its root seed); one set of rules."""
        if not parts or not all(isinstance(p, cls) for p in parts):
            raise UserError(f"stack needs a list of {cls.__name__} (at least one)")
        rules = parts[0].rules
        for k, part in enumerate(parts[1:], 1):
            if part.rules != rules:
                raise UserError(f"stack: set {k} ({part.rules.setup}) is played under other "
                                f"rules than set 0 ({rules.setup}): a batch has one set of "
                                "rules")  # fmt: skip
        return parts[0]._made(cls.concat([p.machine for p in parts]))

    @staticmethod
    @abstractmethod
    def concat(machines: Sequence[Machine]) -> Machine:
        """One machine of the games of several (each keeping its streams)."""

    @classmethod
    @abstractmethod
    def new(cls, rules: Any, seed: int, games: Sequence[int] | np.ndarray, **how: Any) -> Self:
        """Games `games` of root seed `seed`, set up as in a run (each the same deal)."""

    # --- views --------------------------------------------------------------------------------
    def observe(self, seat: int, rows: Sequence[int] | np.ndarray | None = None,
                kind: Any = None) -> Any:  # fmt: skip
        """The sealed view of `seat` over the games `rows` (default all): every field a
        strategy may read, as at a decision of `kind`; its legal actions and info are empty,
        and its stream is a copy of the seat's."""
        p = self.rules.players
        if not whole(seat) or not 0 <= seat < p:
            raise UserError(f"observe: seat must be 0 to {p - 1}, got {seat!r}")
        if kind is not None and not isinstance(kind, self.Kind):
            raise UserError(f"observe: kind must be a {self.Kind.__name__}, got {kind!r}")
        rows = positions(np.arange(len(self)) if rows is None else rows, len(self),
                         "observe: rows")  # fmt: skip
        return self.machine.view(int(seat), rows, kind)


def _listed(games: Any) -> Any:
    """Game numbers as a list (a single number too)."""
    return [games] if whole(games) else games
