"""The forward model (docs/design.md, "The forward model"): a game driven from outside plays
exactly as the engine plays it with strategies, copies mid-phase play on identically, look-
ahead copies never touch the real game's chance, and determinized worlds show the seat what
its real view shows, field by field, at positions of every phase, in both engines."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moaisim import Game, Games, determinize
from moaisim.errors import UserError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.steps import DECISION, Step
from moaisim.games.moai.engine.views import FIELDS, SeatView
from moaisim.games.moai.engine.views import HIDDEN as HIDDEN_CODE
from moaisim.games.moai.rules import Rules
from moaisim.rng import Draws
from moaisim.strategies.moai.base import Strategy
from moaisim.strategies.moai.random import RandomStrategy

SECRETS = ("hand", "loc", "up", "moai_owner")


def pick(kind: Kind, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row of `legal` (bids: random counts within the hand)."""
    if kind is Kind.BID:
        return np.array([[rng.integers(0, int(h) + 1) for h in row] for row in legal])
    return np.array([rng.choice(np.flatnonzero(row)) for row in legal])


def forced(kind: Kind, legal: np.ndarray) -> bool:
    """The engine takes the action without asking (a single legal action)."""
    return not legal.any() if kind is Kind.BID else int(legal.sum()) == 1


def drive(game: Game, rng: np.random.Generator, script: list | None = None,
          stop: int | None = None) -> int:  # fmt: skip
    """Play `game` on with random legal actions (recorded per seat in `script` where the
    engine would ask); returns the decisions taken. `stop`: after that many."""
    n = 0
    while not game.is_over() and (stop is None or n < stop):
        kind, seats, legal = game.legal()
        action = pick(kind, legal, rng)
        if script is not None:
            for q, row, a in zip(seats.tolist(), legal, action, strict=True):
                if not forced(kind, row):
                    script[q].append((kind, a))
        game.apply(action)
        n += 1
    return n


class Scripted(Strategy):
    """Plays back a recorded list of (kind, action), one decision at a time."""

    name = "scripted"
    reads: ClassVar[dict[str, tuple[str, ...]]] = {k.value: () for k in Kind}

    def __init__(self, script: list[tuple[Kind, Any]]) -> None:
        self.script = list(script)

    def _next(self, view: SeatView) -> np.ndarray:
        assert len(view) == 1
        kind, action = self.script.pop(0)
        assert kind is view.kind
        return np.asarray(action)[None]


for _kind in Kind:
    setattr(Scripted, _kind.value, Scripted._next)


def state_of(machine: Any, row: int = 0) -> dict[str, list]:
    s = machine.state
    out = {name: getattr(s, name)[row].tolist() for name in SECRETS}
    out["public"] = {k: np.asarray(s.public[k][row]).tolist() for k in s.public.dtype.names}
    return out


@pytest.mark.parametrize("players, game", [(2, 0), (3, 5), (4, 2), (5, 1)])
def test_a_game_driven_from_outside_is_the_game_the_engine_plays(players, game):
    """The same actions give the same game: the forward model's moves, played back by
    strategies through `Games.play`, end in the same state, scores and shares."""
    rules = Rules.make(players)
    fm = Game.new(rules, seed=11, game=game)
    script: list[list] = [[] for _ in range(players)]
    decisions = drive(fm, np.random.default_rng(game), script)
    assert decisions > 100
    assert fm.is_over() and not np.isnan(fm.returns()).any()
    played = Games.new(rules, 11, [game]).play([Scripted(s) for s in script])
    assert all(not s.script for s in played.strategies)  # every recorded decision asked
    assert state_of(played) == state_of(fm.games.machine)
    assert fm.scores().tolist() == played.scores()[0].tolist()
    assert fm.returns().tolist() == played.returns()[0].tolist()


def test_games_apply_rejects_illegal_actions_and_changes_nothing():
    fm = Games.new(Rules.make(3), seed=4, games=[0, 1])
    [pend] = fm.pending()
    assert pend.kind is Kind.BID and len(pend) == 6  # sealed: every seat of each game
    before = state_of(fm.machine, 0)
    over = pend.legal.astype(np.int64) + np.eye(1, 6, 0, dtype=np.int64)
    with pytest.raises(UserError, match="bid: illegal bid"):
        fm.apply(pend, over)
    with pytest.raises(UserError, match="expected an integer array of shape"):
        fm.apply(pend, np.zeros(6, dtype=np.int64))
    assert state_of(fm.machine, 0) == before
    g = Game.new(Rules.make(3), seed=4)
    drive(g, np.random.default_rng(0), stop=3)
    kind, _, legal = g.legal()
    with pytest.raises(UserError, match=f"{kind.value}: illegal action"):
        g.apply(int(np.flatnonzero(~legal[0])[0]) if (~legal[0]).any() else legal.shape[1])


def test_legal_names_the_decision_and_who_takes_it():
    g = Game.new(Rules.make(4), seed=2)
    kind, seats, legal = g.legal()
    assert kind is Kind.BID and seats.tolist() == [0, 1, 2, 3]  # R3.3: sealed, all at once
    assert legal.tolist() == [h.tolist() for h in g.games.state.hand[0]]
    g.apply(np.zeros((4, 6), dtype=int))
    kind, seats, legal = g.legal()
    # every bid is 0: the bird-man orders the tied clans, never placing himself first (R3.4)
    assert kind is Kind.ORDER_TIES and seats.tolist() == [0]
    assert legal.tolist() == [[False, True, True, True]]


@pytest.mark.parametrize("stop", [1, 7, 40, 95, 150])
def test_a_copy_made_mid_phase_plays_on_as_the_original(stop):
    """The cursor is state: a copy taken at any decision (mid-bid, mid-work, mid-feed...)
    with the same actions ends exactly as the original."""
    rules = Rules.make(4)
    a = Game.new(rules, seed=9, game=3)
    drive(a, np.random.default_rng(1), stop=stop)
    b = a.clone()
    assert b.legal()[0] is a.legal()[0]
    drive(a, np.random.default_rng(2))
    drive(b, np.random.default_rng(2))
    assert state_of(a.games.machine) == state_of(b.games.machine)


def test_look_ahead_never_changes_the_real_games_chance():
    """A copy with its own stream space draws its own reshuffles (R7.1) and seat streams;
    the real game, played on after any look-ahead, is the game played without it."""
    rules = Rules.make(4)
    plain = Game.new(rules, seed=5, game=8)
    drive(plain, np.random.default_rng(3))
    real = Game.new(rules, seed=5, game=8)
    actions = np.random.default_rng(3)  # the same actions as `plain`, in turn
    drive(real, actions, stop=30)
    ends = []
    for seed in range(6):
        ahead = real.clone(seed=seed)
        drive(ahead, np.random.default_rng(4))
        ends.append(str(state_of(ahead.games.machine)))
        again = real.clone(seed=seed)
        drive(again, np.random.default_rng(4))
        assert str(state_of(again.games.machine)) == ends[-1]  # reproducible from its seed
    # same actions, different reshuffles: the look-ahead games end differently
    assert len(set(ends)) > 1
    drive(real, actions)
    assert state_of(real.games.machine) == state_of(plain.games.machine)


def test_a_seeded_copy_keeps_the_games_seat_streams_apart():
    """Copies numbered in their own stream space draw seat streams of their own."""
    fm = Games.new(Rules.make(3), seed=1, games=[4])
    copies = fm.clone(rows=[0, 0, 0], seed=77)
    assert len(copies) == 3 and copies.machine.games.tolist() == [0, 1, 2]
    keys = copies.machine.streams.seat_keys
    assert len({tuple(k) for k in keys.tolist()}) == 3
    assert not np.isin(keys, fm.machine.streams.seat_keys).any()
    # without a seed, games= only renumbers exact copies: their streams are the game's own
    renamed = fm.clone(rows=[0, 0], games=[10, 11])
    assert renamed.machine.games.tolist() == [10, 11]
    assert (renamed.machine.streams.seat_keys == fm.machine.streams.seat_keys[0]).all()
    with pytest.raises(UserError, match="one number per copy"):
        fm.clone(rows=[0, 0], games=[1])


# --- determinization (R5.9) ------------------------------------------------------------------


class Collector(RandomStrategy):
    """Random play that keeps, with probability `rate`, the full view of a decision."""

    reads: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init__(self, rate: float, seed: int) -> None:
        self.rate, self.draws, self.views = rate, Draws(seed), []

    def _keep(self, view: SeatView) -> None:
        for row in range(len(view)):
            if self.draws.uniform(1)[0] < self.rate:
                self.views.append((view, row))


for _kind in Kind:

    def _method(self, view, _k=_kind.value):  # type: ignore[no-untyped-def]
        self._keep(view)
        return getattr(RandomStrategy, _k)(self, view)

    setattr(Collector, _kind.value, _method)
Collector.reads = {}


def world_view(worlds: Games, w: int, seat: int, kind: Kind) -> tuple[dict, np.ndarray, dict]:
    """The seat's view of world w (every field), its legal mask and info at the pending
    decision."""
    pend = [p for p in worlds.pending() if (worlds.machine.games[p.rows] == w).any()]
    assert len(pend) == 1 and pend[0].kind is kind
    p = pend[0]
    k = int(np.flatnonzero((worlds.machine.games[p.rows] == w) & (p.seat == seat))[0])
    view = worlds.observe(seat, rows=np.array([w]), kind=kind)
    fields = {f: np.asarray(getattr(view, f))[0].tolist() for f in FIELDS}
    return fields, p.legal[k], {key: v[k] for key, v in p.info.items()}


def check_worlds(view: SeatView, row: int, seed: int, n: int = 4) -> set[str]:
    """Every world's view equals the real one field by field (legal and info too); returns
    the fields that differ between worlds (what was sampled)."""
    worlds = determinize(view, seed, n, rows=row)
    real = {f: np.asarray(getattr(view, f))[row].tolist() for f in FIELDS}
    truths = []
    for w in range(n):
        fields, legal, info = world_view(worlds, w, view.seat, view.kind)
        assert fields == real, [f for f in FIELDS if fields[f] != real[f]]
        assert legal.tolist() == view.legal[row].tolist()
        assert set(info) == set(view.info)
        for key in info:
            assert np.asarray(info[key]).tolist() == view.info[key][row].tolist(), key
        truths.append(state_of(worlds.machine, w))
    return {k for k in SECRETS if len({str(t[k]) for t in truths}) > 1}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4, 5]),
       engine=st.sampled_from(["reference", "batch"]))  # fmt: skip
def test_determinized_worlds_show_the_seat_its_real_view(seed, players, engine):
    """R5.9: determinize(view) samples full games in which the seat sees exactly its view
    (every field, the legal actions and the question's info), at positions of every phase,
    from views of both engines."""
    rules = Rules.make(players)
    collectors = [Collector(0.05, seed + q) for q in range(players)]
    if engine == "reference":
        ReferenceGame(rules, collectors, seed=seed, game=0).play()
    else:
        Games.new(rules, seed, [0, 1]).play(collectors)
    kept = [x for c in collectors for x in c.views]
    assert kept
    for k, (view, row) in enumerate(kept[:: max(1, len(kept) // 12)]):
        check_worlds(view, row, seed + k)


def test_determinized_worlds_cover_every_decision_kind_and_sample_the_secrets():
    rules = Rules.make(4)
    collectors = [Collector(0.2, 50 + q) for q in range(4)]
    Games.new(rules, 3, np.arange(4)).play(collectors)
    kept = [x for c in collectors for x in c.views]
    kinds = {view.kind: (view, row) for view, row in kept}  # the last of each kind
    assert set(kinds) == set(Kind)
    assert {Step(int(v.step[r])) for v, r in kept} >= {s for s in DECISION if s != Step.LOSS}
    sampled: set[str] = set()
    for view, row in kinds.values():
        sampled |= check_worlds(view, row, 7, n=6)
    # the rivals' hands and Moai tiles are drawn, not copied
    assert {"hand", "moai_owner"} <= sampled
    # and the strengths of face-down pawns (R5.9), where what a rival shows allows several
    hiding = [(v, r) for v, r in kept if ambiguous(v, r)]
    assert hiding
    assert "loc" in check_worlds(*hiding[-1], 8, n=12)


def ambiguous(view: SeatView, row: int) -> bool:
    """A rival hides pawns of two strengths or more in two places or more."""
    for q in range(view.rules.players):
        if q == view.seat:
            continue
        up = view.shown_loc[row, q] != HIDDEN_CODE
        per = [int((view.strength == s).sum()) for s in (1, 2, 3)]
        hidden = [per[s - 1] - int(up[view.strength == s].sum()) - int(view.reserve[row, q, s - 1])
                  for s in (1, 2, 3)]  # fmt: skip
        places = int((view.hidden_count[row, q] > 0).sum()) + int(view.camp_size[row, q] > 0)
        if sum(h > 0 for h in hidden) >= 2 and places >= 2:
            return True
    return False


def test_determinize_needs_a_full_view():
    class Lean(RandomStrategy):
        reads: ClassVar[dict[str, tuple[str, ...]]] = {"work": ("round",)}

        def work(self, view: SeatView) -> np.ndarray:
            self.seen = view
            return super().work(view)

    lean = Lean()
    Games.new(Rules.make(2), 0, [0]).play([lean, RandomStrategy()])
    with pytest.raises(UserError, match="every field"):
        determinize(lean.seen, 0, 2)


def test_observe_is_the_view_a_strategy_gets():
    """Game.observe(seat) at a decision shows what the engine shows the deciding seat."""
    rules = Rules.make(3)
    collectors = [Collector(1.0, q) for q in range(3)]
    Games.new(rules, 6, [0]).play(collectors)
    g = Game.new(rules, seed=6, game=0)
    for q, c in enumerate(collectors):
        first, _ = c.views[0]
        assert first.kind is Kind.BID
        seen = g.observe(q)
        for f in FIELDS:
            assert np.asarray(getattr(seen, f)).tolist() == np.asarray(getattr(first, f)).tolist()


def test_copies_given_one_number_draw_the_same_chance():
    """Common random numbers: one world copied under one number plays the same game for the
    same actions, whatever else the batch holds."""
    g = Games.new(Rules.make(3), seed=2, games=[6])
    copies = g.clone(rows=[0, 0, 0], seed=9, games=[5, 5, 8])
    keys = copies.machine.streams.chance_keys
    assert keys[0].tolist() == keys[1].tolist() != keys[2].tolist()
    with pytest.raises(UserError, match="one number per copy"):
        g.clone(rows=[0, 0], seed=9, games=[1])


def test_worlds_of_several_games_of_a_view():
    """determinize over several rows of a view: world w of the k-th row is game k * n + w,
    and shows that row's view."""
    collectors = [Collector(1.0, q) for q in range(3)]
    Games.new(Rules.make(3), 4, np.arange(5)).play(collectors)
    view = next(v for v, _ in collectors[1].views if len(v) >= 2 and v.kind is Kind.WORK)
    rows = [len(view) - 1, 0]
    worlds = determinize(view, 3, 2, rows=rows)
    for k, row in enumerate(rows):
        real = {f: np.asarray(getattr(view, f))[row].tolist() for f in FIELDS}
        for w in (2 * k, 2 * k + 1):
            fields, legal, _ = world_view(worlds, w, view.seat, Kind.WORK)
            assert fields == real and legal.tolist() == view.legal[row].tolist()


def test_games_play_on_with_strategies_to_the_end_or_a_horizon():
    from moaisim.strategies.moai.greedy import GreedyStrategy

    rules = Rules.make(3)
    whole = Games.new(rules, seed=8, games=[2, 5])
    whole.play([GreedyStrategy() for _ in range(3)])
    engine = Games.new(rules, 8, [2, 5]).play([GreedyStrategy() for _ in range(3)])
    assert whole.over().all() and whole.scores().tolist() == engine.scores().tolist()
    part = Games.new(rules, seed=8, games=[2, 5])
    part.play([GreedyStrategy() for _ in range(3)], last_round=2)
    s = part.state
    assert s.round.tolist() == [2, 2] and (s.step == Step.ROUND).all()  # round 3 not begun
    part.play([GreedyStrategy() for _ in range(3)])  # and on from there: the same games
    assert part.scores().tolist() == engine.scores().tolist()
