"""Views (R5.9, R6.5): a seat sees its own hand and pawns, the public board, counts only."""

from __future__ import annotations

import numpy as np
import pytest

import moaisim
from moaisim.engine.decisions import Kind
from moaisim.engine.reference import Game
from moaisim.engine.views import HIDDEN, SeatView
from moaisim.errors import IllegalActionError
from moaisim.rules import Rules
from strategies.base import Strategy
from strategies.random import RandomStrategy

PUBLIC = [
    "round", "last_round", "birdman", "order", "turn", "position", "hand_sizes", "deck_size",
    "discard", "epoch_deck_size", "offer", "held", "bids", "wood", "wood_supply", "forest_wood",
    "covered", "disaster_supply", "free_fields", "boats", "boats_manned", "moai_count",
    "moai_supply", "tile_heights", "camp_size", "reserve", "shown_loc", "hidden_count",
    "on_board", "hand", "own_loc", "own_up", "own_tiles", "strength",
]  # fmt: skip


class Spy(RandomStrategy):
    """Random play that records every view it gets, with all fields evaluated."""

    def __init__(self) -> None:
        self.views: list[tuple[SeatView, dict[str, np.ndarray], object]] = []

    def __getattribute__(self, name: str):  # noqa: ANN204
        attr = object.__getattribute__(self, name)
        if name in {k.value for k in Kind}:

            def wrapped(view: SeatView) -> np.ndarray:
                fields = {f: np.array(getattr(view, f), copy=True) for f in PUBLIC}
                game = object.__getattribute__(self, "game")
                truth = (game.state.hand.copy(), game.state.loc.copy(), game.state.up.copy())
                self.views.append((view, fields, truth))
                return attr(view)

            return wrapped
        return attr


def play_with_spies(players: int, seed: int) -> list[Spy]:
    rules = Rules.make(players)
    spies = [Spy() for _ in range(players)]
    g = Game(rules, spies, seed=seed)
    for spy in spies:
        spy.game = g
    g.play()
    return spies


def test_views_show_own_secrets_and_only_counts_of_others():
    spies = play_with_spies(4, seed=3)
    checked = 0
    for seat, spy in enumerate(spies):
        for view, f, (hand, loc, up) in spy.views:
            assert view.seat == seat
            assert f["hand"][0].tolist() == hand[seat].tolist()  # own hand
            assert f["hand_sizes"][0].tolist() == hand.sum(axis=1).tolist()  # sizes public
            assert f["own_loc"][0].tolist() == loc[seat].tolist()
            shown = f["shown_loc"][0]
            # a pawn is shown by index (which gives its strength) only when face up on the board
            assert ((shown != HIDDEN) == (up & (loc >= 0))).all()
            assert (shown[shown != HIDDEN] == loc[shown != HIDDEN]).all()
            # face-down pawns: counts per place only
            down = (~up) & (loc >= 0)
            for q in range(4):
                counts = np.bincount(loc[q][down[q]], minlength=f["hidden_count"].shape[2])
                assert f["hidden_count"][0, q].tolist() == counts.tolist()
            checked += 1
    assert checked > 100


def test_view_has_no_public_door_to_the_full_state():
    spies = play_with_spies(3, seed=5)
    view = spies[1].views[10][0]
    public = [name for name in dir(view) if not name.startswith("_")]
    assert set(public) <= set(PUBLIC) | {"kind", "seat", "rules", "games", "legal", "rng", "info"}


def test_epoch_pick_view_sees_the_offer_and_revealed_bids():
    spies = play_with_spies(3, seed=8)
    picks = [(v, f) for v, f, _ in spies[0].views if v.kind is Kind.PICK_EPOCH]
    assert picks
    for view, f in picks:
        assert (f["bids"][0] >= 0).all()  # bids are revealed before the epoch phase
        assert view.legal[0].tolist() == (f["offer"][0] >= 0).tolist()


class Cheater(Strategy):
    name = "cheater"

    def work(self, view: SeatView) -> np.ndarray:
        return np.flatnonzero(~view.legal[0])[:1]  # the first illegal action


def test_illegal_action_raises_with_strategy_kind_game_and_seed():
    rules = Rules.make(2)
    g = Game(rules, [Cheater(), RandomStrategy()], seed=42, game=7, names=["cheater", "random"])
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
    with pytest.raises(IllegalActionError, match="'bid'"):
        moaisim.play(2, 1, strategies=[BadBidder, RandomStrategy])


def test_views_serve_no_deck_order_and_rng_holds_only_the_seat_stream():
    spies = play_with_spies(3, seed=6)
    view = spies[2].views[5][0]
    for secret in ("deck", "epoch_deck", "counters", "bid_order"):
        with pytest.raises(AttributeError):
            view._get(secret)
    assert [n for n in dir(view.rng) if not n.startswith("_")] == ["choice", "uniform"]
