"""High Card's two engines, its views, its worlds and its invariant hook, on the engine floor
(`moaisim.engine`): the machine (numpy, every game of a batch at once) and the reference
engine (plain Python, one game), which must play the same games from the same seed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from moaisim import engine
from moaisim.engine.answers import BadAnswer, check
from moaisim.errors import UserError
from moaisim.rng import SeatRandom, Streams
from tinygame.rules import CARDS, Chance, Kind, Rules, score, trick_taker

FIELDS = ("hand", "laid", "wager", "taken", "step")  # what a seat sees (T1-T3)


def deal(rules: Rules, streams: Streams, rows: np.ndarray) -> np.ndarray:
    """T1: [n, CARDS] each card's holder (-1: unseen), from the deal's stream."""
    order = np.argsort(streams.chance(Chance.DEAL, rows, CARDS), axis=1, kind="stable")
    holder = np.full((len(rows), CARDS), -1, dtype=np.int64)
    for q in range(rules.players):
        for k in range(rules.hand):
            holder[np.arange(len(rows)), order[:, q * rules.hand + k]] = q
    return holder


class SeatView:
    """Seat `seat`'s view of n games: its own hand, the cards laid in past tricks (public), the
    wagers and tricks taken, the step; legal [n, A], info, its stream."""

    fields = FIELDS

    def __init__(
        self,
        rules: Rules,
        seat: int,
        kind: Kind,
        legal: np.ndarray,
        info: dict[str, np.ndarray],
        rng: SeatRandom,
        games: np.ndarray,
        **fields: np.ndarray,
    ) -> None:
        self.rules, self.seat, self.kind, self.legal, self.info, self.rng = (
            rules,
            seat,
            kind,
            legal,
            info,
            rng,
        )
        self.games = np.asarray(games)
        for name in FIELDS:
            value = np.array(fields[name], copy=True)
            value.flags.writeable = False
            setattr(self, name, value)

    def __len__(self) -> int:
        return len(self.hand)


class Machine:
    """B games as arrays: holder [B, CARDS] (-1 unseen, q in seat q's hand, P + q laid by q),
    lay [B, P] the card chosen this trick (-1 not yet), wager, taken [B, P], step [B]
    (0..P-1: that seat wagers; P + t: trick t; P + hand: over), the seats' streams."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        games: np.ndarray,
        state: dict[str, np.ndarray],
        streams: Streams,
    ) -> None:
        self.rules, self.seed, self.games, self.s, self.streams = (
            rules,
            seed,
            np.asarray(games, dtype=np.int64),
            state,
            streams,
        )

    @classmethod
    def dealt(cls, rules: Rules, seed: int, games: np.ndarray) -> Machine:
        streams = Streams(seed, games, rules.players)
        b, p = len(games), rules.players
        s = {
            "holder": deal(rules, streams, np.arange(b)),
            "lay": np.full((b, p), -1),
            "wager": np.full((b, p), -1),
            "taken": np.zeros((b, p), dtype=np.int64),
            "step": np.zeros(b, dtype=np.int64),
        }
        return cls(rules, seed, games, s, streams)

    def __len__(self) -> int:
        return len(self.games)

    def over(self) -> np.ndarray:
        return self.s["step"] >= self.rules.players + self.rules.hand

    def next_decisions(self) -> list[engine.Pending]:
        p, s, out = self.rules.players, self.s, []
        for q in range(p):  # T2: one seat a group
            rows = np.flatnonzero(s["step"] == q)
            if len(rows):
                legal = np.ones((len(rows), self.rules.hand + 1), dtype=bool)
                out.append(engine.Pending(Kind.WAGER, rows, np.full(len(rows), q), legal))
        rows = np.flatnonzero((s["step"] >= p) & ~self.over())
        waiting = [(r, q) for r in rows for q in range(p) if s["lay"][r, q] < 0]
        if waiting:  # T3: every seat of a game at once, a row each
            r, q = (np.array(x, dtype=np.int64) for x in zip(*waiting, strict=True))
            out.append(engine.Pending(Kind.LAY, r, q, s["holder"][r] == q[:, None]))
        return out

    def checked(self, pend: engine.Pending, actions: Any) -> np.ndarray:
        try:
            return check(actions, pend.legal)
        except BadAnswer as bad:
            raise UserError(
                f"{pend.name}: got {bad.problem.removeprefix('returned ')} in "
                f"game {int(self.games[pend.rows[bad.rows[0]]])}"
            ) from None

    def put(self, pend: engine.Pending, actions: np.ndarray) -> None:
        s, p = self.s, self.rules.players
        if pend.kind is Kind.WAGER:
            s["wager"][pend.rows, pend.seat] = actions
            s["step"][pend.rows] += 1
            return
        s["lay"][pend.rows, pend.seat] = actions
        for r in np.unique(pend.rows):
            if (s["lay"][r] >= 0).all():  # T3: turned up together
                s["holder"][r, s["lay"][r]] = p + np.arange(p)
                s["taken"][r, trick_taker(list(s["lay"][r]))] += 1
                s["lay"][r] = -1
                s["step"][r] += 1

    def _copy(self, rows: np.ndarray, seed: int, games: np.ndarray, streams: Streams) -> Machine:
        return Machine(
            self.rules, seed, games, {k: v[rows].copy() for k, v in self.s.items()}, streams
        )

    def take(self, rows: np.ndarray, games: np.ndarray | None) -> Machine:
        streams = self.streams.take(rows)
        ids = self.games[rows] if games is None else np.asarray(games)
        return self._copy(rows, self.seed, ids, streams)

    def fork(self, rows: np.ndarray, seed: int, games: np.ndarray) -> Machine:
        return self._copy(rows, seed, games, Streams(seed, games, self.rules.players))

    def view(
        self,
        seat: int,
        rows: np.ndarray,
        kind: Any,
        legal: np.ndarray | None = None,
    ) -> SeatView:
        s, p = self.s, self.rules.players
        holder = s["holder"][rows]
        laid = np.where(holder >= p, holder - p, -1)  # public: who laid each card
        legal = np.zeros((len(rows), 0), dtype=bool) if legal is None else legal
        return SeatView(
            self.rules,
            seat,
            kind or Kind.LAY,
            legal,
            {},
            self.streams.seat(seat, rows),
            self.games[rows],
            hand=holder == seat,
            laid=laid,
            wager=s["wager"][rows],
            taken=s["taken"][rows],
            step=s["step"][rows],
        )

    def scores(self) -> np.ndarray:
        s = self.s
        return s["taken"] + np.where(s["taken"] == s["wager"], self.rules.bonus, 0)

    def shares(self) -> np.ndarray:
        top = self.scores() == self.scores().max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)

    def nbytes(self) -> int:
        return sum(v.nbytes for v in self.s.values())


class Games(engine.Games):
    """High Card's forward model."""

    Kind = Kind

    @classmethod
    def new(
        cls, rules: Rules, seed: int = 0, games: Sequence[int] | np.ndarray = (0,), **how: Any
    ) -> Self:
        return cls(Machine.dealt(rules, seed, np.atleast_1d(np.asarray(games, dtype=np.int64))))

    @staticmethod
    def concat(machines: Sequence[Machine]) -> Machine:
        first = machines[0]
        state = {k: np.concatenate([m.s[k] for m in machines]) for k in first.s}
        streams = Streams.concat([m.streams for m in machines])
        return Machine(first.rules, first.seed, np.arange(len(streams.games)), state, streams)

    def play(self, strategies: Sequence[Any]) -> Self:
        """Every game to its end, seat q asked through strategies[q] (a method per kind)."""
        m = self.machine
        while pend := next(iter(m.next_decisions()), None):
            for q in np.unique(pend.seat):
                part = pend.subset(pend.seat == q)
                view = m.view(int(q), part.rows, part.kind, part.legal)
                actions = m.checked(part, getattr(strategies[q], part.name)(view))
                m.streams.advance(int(q), part.rows, view.rng)
                m.put(part, actions)
        self.expire()
        return self


class Game(engine.Game):
    games_type = Games


class ReferenceGame:
    """One game in plain Python, readable beside the rules (T1-T4)."""

    def __init__(
        self,
        rules: Rules,
        strategies: Sequence[Any],
        seed: int = 0,
        game: int = 0,
    ) -> None:
        self.rules, self.strategies, self.game, self.streams = (
            rules,
            strategies,
            int(game),
            Streams(seed, [game], rules.players),
        )
        holder = deal(rules, self.streams, np.arange(1))[0]
        self.hands = [[c for c in range(CARDS) if holder[c] == q] for q in range(rules.players)]
        self.laid_by = [-1] * CARDS
        self.wagers, self.taken = [-1] * rules.players, [0] * rules.players

    def ask(self, seat: int, kind: Kind, legal: list[bool], step: int) -> int:
        view = SeatView(
            self.rules,
            seat,
            kind,
            np.array([legal]),
            {},
            self.streams.seat(seat, np.arange(1)),
            np.array([self.game]),
            hand=[[c in self.hands[seat] for c in range(CARDS)]],
            laid=[self.laid_by],
            wager=[self.wagers],
            taken=[self.taken],
            step=[step],
        )
        action = int(check(getattr(self.strategies[seat], kind.value)(view), view.legal)[0])
        self.streams.advance(seat, np.arange(1), view.rng)
        return action

    def play(self) -> list[int]:
        p, hand = self.rules.players, self.rules.hand
        for q in range(p):  # T2
            self.wagers[q] = self.ask(q, Kind.WAGER, [True] * (hand + 1), q)
        for t in range(hand):  # T3: each seat chooses without seeing the others' choice
            laid = [
                self.ask(q, Kind.LAY, [c in self.hands[q] for c in range(CARDS)], p + t)
                for q in range(p)
            ]
            for q, c in enumerate(laid):
                self.hands[q].remove(c)
                self.laid_by[c] = q
            self.taken[trick_taker(laid)] += 1
        return self.final_scores()

    def final_scores(self) -> list[int]:
        return [
            score(self.taken[q], self.wagers[q], self.rules.bonus)
            for q in range(self.rules.players)
        ]


class Strategy:
    """The policy: uniformly random legal play, one draw of the seat's stream a decision."""

    def by_policy(self, view: SeatView) -> np.ndarray:
        return view.rng.choice(view.legal)

    wager = lay = by_policy


# --- the worlds a seat's view may be in ------------------------------------------------------
def _misshapen(view: SeatView) -> str | None:
    n, p = len(view), view.rules.players
    shapes = {
        "hand": (n, CARDS),
        "laid": (n, CARDS),
        "wager": (n, p),
        "taken": (n, p),
        "step": (n,),
    }
    bad = [k for k, v in shapes.items() if getattr(view, k).shape != v]
    return (
        f"{bad[0]} has shape {getattr(view, bad[0]).shape}, not {shapes[bad[0]]}" if bad else None
    )


def _impossible(view: SeatView, row: int) -> str | None:
    p, hand = view.rules.players, view.rules.hand
    laid, step, taken = view.laid[row], int(view.step[row]), view.taken[row]
    tricks = max(0, step - p)
    if not 0 <= step < p + hand:
        return f"step = {step} is outside 0..{p + hand - 1}"
    if ((laid < -1) | (laid >= p)).any() or (view.hand[row] & (laid >= 0)).any():
        return "a card laid by no seat, or laid and still in hand"
    if [int((laid == q).sum()) for q in range(p)] != [tricks] * p:
        return f"each seat has laid {tricks} cards after {tricks} tricks"
    if (
        int(view.hand[row].sum()) != hand - tricks
        or int(taken.sum()) != tricks
        or (taken < 0).any()
    ):
        return f"the hand holds {hand - tricks} cards and {tricks} tricks were taken"
    wagers = view.wager[row]
    if (
        ((wagers < -1) | (wagers > hand)).any()
        or (wagers[: min(step, p)] < 0).any()
        or (wagers[min(step, p) :] >= 0).any()
    ):
        return "the wagers made are the seats' before the step"
    return None


def _build(view: SeatView, rows: np.ndarray, n: int, seeds: np.ndarray) -> Games:
    """n worlds per row (row k's from root `seeds[k]`): the unseen cards dealt at random to
    the rivals' hands."""
    r, p, b = view.rules, view.rules.players, len(rows) * n
    streams = engine.world_streams(seeds, n, p)
    draws = streams.chance(Chance.DEAL, np.arange(b), CARDS)
    holder = np.full((b, CARDS), -1)
    for k, row in enumerate(rows):
        for w in range(n):
            i = k * n + w
            laid = view.laid[row]
            holder[i, laid >= 0] = p + laid[laid >= 0]
            holder[i, view.hand[row]] = view.seat
            unseen = [c for c in np.argsort(draws[i]) if holder[i, c] == -1]
            left = int(view.hand[row].sum())
            for q in [q for q in range(p) if q != view.seat]:
                holder[i, unseen[:left]], unseen = q, unseen[left:]
    s = {
        "holder": holder,
        "lay": np.full((b, p), -1),
        "wager": np.repeat(view.wager[rows], n, axis=0),
        "taken": np.repeat(view.taken[rows], n, axis=0),
        "step": np.repeat(view.step[rows], n),
    }
    return Games(Machine(r, int(seeds[0]), np.arange(b), s, streams))


def _decision(view: SeatView, row: int) -> tuple[Kind, int | None]:
    step = int(view.step[row])
    return (Kind.WAGER, step) if step < view.rules.players else (Kind.LAY, view.seat)


WORLDS = engine.Worlds(SeatView, _misshapen, _impossible, _build, _decision)


def determinize(view: SeatView, seed: Any, n: int, rows: Any = 0, *,
                check_rows: bool = True) -> Games:  # fmt: skip
    """n games per row of `view` that the seat cannot tell from its own (the floor's frame)."""
    return engine.determinize(WORLDS, view, seed, n, rows, check_rows=check_rows)


def conserved(games: Games) -> list[str]:
    """T1-T3: every card once, each seat's hand and laid cards as the tricks played say."""
    m, out = games.machine, []
    p, hand = m.rules.players, m.rules.hand
    for i in range(len(m)):
        h, tricks = m.s["holder"][i], min(hand, max(0, int(m.s["step"][i]) - p))
        held = [int((h == q).sum()) for q in range(p)]
        laid = [int((h == p + q).sum()) for q in range(p)]
        if (
            held != [hand - tricks] * p
            or laid != [tricks] * p
            or int(m.s["taken"][i].sum()) != tricks
        ):
            out.append(f"game {int(m.games[i])}: hands {held}, laid {laid} after {tricks} tricks")
    return out
