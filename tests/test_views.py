"""Views (R5.9, R6.5; docs/design.md, "Sealed views"): a seat sees its own hand and pawns,
the public board, counts only of what others hide; a view holds copies and nothing else, in
both engines."""

from __future__ import annotations

import gc
import types
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest

import moaisim
from moaisim.errors import IllegalActionError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.results import frame, seat_rows
from moaisim.games.moai.engine.views import FIELDS, HIDDEN, SeatView
from moaisim.games.moai.rules import Rules
from moaisim.rng import SeatRandom
from moaisim.strategies.moai.base import Strategy
from moaisim.strategies.moai.greedy import GreedyStrategy
from moaisim.strategies.moai.random import RandomStrategy


class Spy(RandomStrategy):
    """Random play that records every view it gets (all fields) with the true state."""

    def __init__(self) -> None:
        self.views: list[tuple[SeatView, dict[str, np.ndarray], tuple]] = []
        self.game: Any = None

    def __getattribute__(self, name: str):  # noqa: ANN204
        attr = object.__getattribute__(self, name)
        if name in {k.value for k in Kind}:

            def spied(view: SeatView) -> np.ndarray:
                fields = {f: np.array(getattr(view, f), copy=True) for f in FIELDS}
                s = object.__getattribute__(self, "game").state
                truth = (s.hand.copy(), s.loc.copy(), s.up.copy(), s.moai_owner.copy())
                self.views.append((view, fields, truth))
                return attr(view)

            return spied
        return attr


Spy.reads = {}  # its methods are wrapped at run time: full views for every kind


def play_with_spies(players: int, seed: int) -> list[Spy]:
    spies = [Spy() for _ in range(players)]
    g = ReferenceGame(Rules.make(players), spies, seed=seed)
    for spy in spies:
        spy.game = g
    g.play()
    return spies


def test_views_show_own_secrets_and_only_counts_of_others():
    spies = play_with_spies(4, seed=3)
    checked = 0
    for seat, spy in enumerate(spies):
        for view, f, (hand, loc, up, owner) in spy.views:
            assert view.seat == seat
            assert f["hand"][0].tolist() == hand[seat].tolist()  # own hand
            assert f["hand_sizes"][0].tolist() == hand.sum(axis=1).tolist()  # sizes public
            assert f["own_loc"][0].tolist() == loc[seat].tolist()
            assert f["own_up"][0].tolist() == up[seat].tolist()
            shown = f["shown_loc"][0]
            # a pawn is shown by index (which gives its strength) only when face up on board
            assert ((shown != HIDDEN) == (up & (loc >= 0))).all()
            assert (shown[shown != HIDDEN] == loc[shown != HIDDEN]).all()
            # face-down pawns: counts per place only; camp and reserve: counts
            down = (~up) & (loc >= 0)
            for q in range(4):
                counts = np.bincount(loc[q][down[q]], minlength=f["hidden_count"].shape[2])
                assert f["hidden_count"][0, q].tolist() == counts.tolist()
            assert f["camp_size"][0].tolist() == (loc == -1).sum(axis=1).tolist()
            assert f["on_board"][0].tolist() == (loc >= 0).sum(axis=1).tolist()
            # R6.5: Moai counts are public, heights only of one's own tiles
            assert f["moai_count"][0].tolist() == [(owner == q).sum() for q in range(4)]
            assert f["own_tiles"][0].tolist() == (owner == seat).tolist()
            checked += 1
    assert checked > 100


def test_view_fields_are_those_documented():
    spies = play_with_spies(3, seed=5)
    view = spies[1].views[10][0]
    public = {name for name in dir(view) if not name.startswith("_")}
    given = {
        "kind",
        "seat",
        "rules",
        "games",
        "legal",
        "rng",
        "info",
        "tile_heights",
        "strength",
        "fields",
    }  # `fields`: the names of FIELDS (the floor's View)
    assert public == set(FIELDS) | given


def test_the_epoch_on_the_back_of_the_top_card_is_seen():
    """R5.9: the epoch printed on the back of the epoch deck's top card is public."""
    spies = play_with_spies(3, seed=8)
    epochs = [int(f["next_epoch"][0]) for v, f, _ in spies[0].views if v.kind is Kind.BID]
    shown = [e for e in epochs if e]  # 0 once the deck is empty (the last round)
    assert shown[0] == 1 and shown == sorted(shown) and set(shown) == {1, 2, 3}
    assert epochs == shown + [0] * (len(epochs) - len(shown))


def test_epoch_pick_view_sees_the_offer_and_revealed_bids():
    spies = play_with_spies(3, seed=8)
    picks = [(v, f) for v, f, _ in spies[0].views if v.kind is Kind.PICK_EPOCH]
    assert picks
    for view, f in picks:
        assert (f["bids"][0] >= 0).all()  # bids are revealed before the epoch phase
        assert view.legal[0].tolist() == (f["offer"][0] >= 0).tolist()


def test_batch_views_equal_reference_views_field_by_field():
    """Both engines build a game's views the same way: every field of every view of one
    game, asked in a batch of five or alone, is the same."""

    class Recorder(RandomStrategy):
        reads: ClassVar[dict[str, tuple[str, ...]]] = {}

        def __init__(self) -> None:
            self.seen: list[tuple[str, dict[str, list]]] = []

        def _record(self, view: SeatView) -> None:
            rows = np.flatnonzero(view.games == 4)
            if len(rows):
                fields = {f: np.asarray(getattr(view, f))[rows[0]].tolist() for f in FIELDS}
                self.seen.append((view.kind.value, fields))

    for kind in Kind:

        def method(self, view, _k=kind.value):  # type: ignore[no-untyped-def]
            self._record(view)
            return getattr(RandomStrategy, _k)(self, view)

        setattr(Recorder, kind.value, method)
    Recorder.reads = {}
    rules = Rules.make(4, "open-pawns", spent_wood="out")
    ref = [Recorder() for _ in range(4)]
    ReferenceGame(rules, ref, seed=13, game=4).play()
    batch = [Recorder() for _ in range(4)]
    Games.new(rules, 13, [1, 2, 4, 8, 9]).play(batch)
    for r, b in zip(ref, batch, strict=True):
        assert len(r.seen) > 10 and r.seen == b.seen


# --- sealed by construction: an attacker's walk ---------------------------------------------


def reachable_arrays(root: object, depth: int = 4) -> list[np.ndarray]:
    """Every numpy array reachable from `root` through attributes (private ones included),
    containers and referents, up to `depth` levels; modules, classes and functions (the
    code, not the view's data) are not entered."""
    found: dict[int, np.ndarray] = {}
    seen: set[int] = set()
    frontier = [root]
    for _ in range(depth):
        nxt = []
        for obj in frontier:
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if isinstance(obj, np.ndarray):
                found[id(obj)] = obj
                if isinstance(obj.base, np.ndarray):
                    nxt.append(obj.base)
                continue
            if isinstance(obj, types.ModuleType | type | types.FunctionType):
                continue
            children = list(gc.get_referents(obj))
            if hasattr(obj, "__dict__"):
                children += list(vars(obj).values())
            for slot in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, slot):
                    children.append(getattr(obj, slot))
            nxt += children
        frontier = nxt
    return list(found.values())


class Attacker(GreedyStrategy):
    """Greedy play; at every decision it walks everything reachable from its view, records
    what it finds, then overwrites every writable array it found."""

    name = "attacker"
    reads: ClassVar[dict[str, tuple[str, ...]]] = {}
    engine_arrays: ClassVar[list[np.ndarray]] = []
    secrets: ClassVar[list[tuple[int, Any]]] = []
    found: ClassVar[list[tuple[int, list[np.ndarray], np.ndarray]]] = []


def attack(self: Attacker, view: SeatView, answer: np.ndarray) -> np.ndarray:
    answer = np.array(answer, copy=True)
    arrays = reachable_arrays(view)
    Attacker.found.append((view.seat, [a.copy() for a in arrays], view.games.copy()))
    for a in arrays:
        if a.flags.writeable and a.size:
            a[...] = 1
    return answer


for _kind in Kind:

    def _attacking(self, view, _k=_kind.value):  # type: ignore[no-untyped-def]
        return attack(self, view, getattr(GreedyStrategy, _k)(self, view))

    setattr(Attacker, _kind.value, _attacking)
Attacker.reads = {}


def engine_arrays(state: Any) -> list[np.ndarray]:
    """Every array of an engine's state (batch or reference)."""
    arrays = [v for v in vars(state).values() if isinstance(v, np.ndarray)]
    return arrays + list(state.counters.values())


class Watch(Attacker):
    """The attacker, checking at each decision the arrays its view reaches against the
    engine's live state (`truth(view)`: the state's arrays, hands [n, P, 6] and pawn block
    [n, P, N] of the view's games)."""

    truth: Any = None
    leaks: ClassVar[list[str]] = []


def _watched(self: Watch, view: SeatView, kind: str) -> np.ndarray:
    state_arrays, hand, loc = self.truth(view)
    for a in reachable_arrays(view):
        if any(np.shares_memory(a, e) for e in state_arrays):
            Watch.leaks.append(f"{kind}: an array shares memory with the engine's state")
        if a.shape == loc.shape and np.array_equal(a, loc):
            Watch.leaks.append(f"{kind}: the pawn block of every seat is reachable")
        for q in range(hand.shape[1]):
            if q == view.seat:
                continue
            for block in (hand, loc):  # another seat's, where it differs from one's own
                secret, own = block[:, q], block[:, view.seat]
                if not np.array_equal(secret, own) and np.array_equal(a, secret):
                    Watch.leaks.append(f"{kind}: seat {q}'s hand or pawns are reachable")
    return attack(self, view, getattr(GreedyStrategy, kind)(self, view))


for _kind in Kind:
    setattr(Watch, _kind.value, lambda self, view, _k=_kind.value: _watched(self, view, _k))
Watch.reads = {}


def seat_results(g: ReferenceGame, game: int) -> pd.DataFrame:
    return frame(seat_rows(g.state, g.seed, game, g.names))


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_an_attacker_reaches_no_engine_array_no_secret_and_changes_no_game(engine):
    """From inside a strategy, walk everything reachable from each view: no array shares
    memory with the engine's state, none holds another seat's hand or pawns (face-down
    strengths), and overwriting all of them changes no game."""
    rules, games, names = Rules.make(3, "short"), [5, 6, 7], ["greedy"] * 3
    Watch.leaks.clear()
    Attacker.found.clear()
    want = Games.new(rules, 2, games).play([GreedyStrategy() for _ in range(3)], names=names)
    if engine == "batch":
        players = [Watch() for _ in range(3)]
        g = Games.new(rules, 2, games)
        index = {game: row for row, game in enumerate(games)}

        def truth(view: SeatView) -> tuple:
            rows = [index[int(x)] for x in view.games]
            s = g.state
            return engine_arrays(s), s.hand[rows], s.loc[rows]

        for p in players:
            p.truth = truth
        got = g.play(players, names=names).results()
    else:
        frames = []
        for game in games:
            players = [Watch() for _ in range(3)]
            ref = ReferenceGame(rules, players, seed=2, game=game, names=names)

            def truth(view: SeatView, ref: ReferenceGame = ref) -> tuple:
                s = ref.state
                return engine_arrays(s), s.hand[None], s.loc[None]

            for p in players:
                p.truth = truth
            ref.play()
            frames.append(seat_results(ref, game))
        got = pd.concat(frames, ignore_index=True)
    assert Watch.leaks == []
    assert len(Attacker.found) > 100
    cols = ["game", "seat", "score", "moai_height", "pawns", "wood", "rounds", "births"]
    pd.testing.assert_frame_equal(got[cols], want.results()[cols])


def test_the_reference_attack_replays_the_same_games():
    """The attacked reference games above are the plain games: the attack changed nothing."""
    rules = Rules.make(3, "short")
    for game in (5, 6, 7):
        Attacker.found.clear()
        plain = ReferenceGame(rules, [GreedyStrategy() for _ in range(3)], seed=2, game=game).play()
        attacked = ReferenceGame(rules, [Attacker() for _ in range(3)], seed=2, game=game).play()
        assert attacked == plain
        assert Attacker.found


# --- the seat's random stream ---------------------------------------------------------------


def test_a_views_rng_holds_only_its_own_stream_and_copies():
    spies = play_with_spies(3, seed=6)
    view = spies[2].views[5][0]
    public = [n for n in dir(view.rng) if not n.startswith("_")]
    assert public == ["choice", "drawn", "keys", "position", "uniform"]
    before = view.rng.drawn
    # keys and position are copies: changing them moves nothing
    view.rng.keys[:] = 0
    view.rng.position[:] = 0
    first = view.rng.uniform(3)
    assert view.rng.drawn == before + 3
    again = SeatRandom(view.rng.keys, view.rng.position - np.uint64(3)).uniform(3)
    assert np.array_equal(first, again)


# --- illegal answers -----------------------------------------------------------------------


class Cheater(Strategy):
    name = "cheater"

    def work(self, view: SeatView) -> np.ndarray:
        return np.flatnonzero(~view.legal[0])[:1]  # the first illegal action


def test_illegal_action_raises_with_strategy_kind_game_and_seed():
    rules = Rules.make(2)
    g = ReferenceGame(
        rules, [Cheater(), RandomStrategy()], seed=42, game=7, names=["cheater", "random"]
    )
    with pytest.raises(IllegalActionError) as info:
        g.play()
    err = info.value
    assert (err.strategy, err.kind, err.game, err.seed, err.seat) == ("cheater", "work", 7, 42, 0)
    assert "cheater" in str(err) and "work" in str(err) and "seed 42" in str(err)


class BadBidder(Strategy):
    name = "bad-bidder"

    def bid(self, view: SeatView) -> np.ndarray:
        return view.legal + 1  # one card more than the hand holds


def test_overbid_is_illegal():
    with pytest.raises(IllegalActionError, match="'bid'.*illegal bid"):
        moaisim.play(2, 1, strategies=[BadBidder, RandomStrategy])
