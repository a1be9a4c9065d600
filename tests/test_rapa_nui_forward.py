"""Rapa Nui's forward model (engine/forward.py): games driven decision by decision play the
strategies' games, copies play on as the originals, and `determinize` builds worlds that
show exactly the view they were drawn from (R10), at the same decision."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rapa_nui_reference import OPTIONS

from moaisim.errors import UserError
from moaisim.games.rapa_nui.engine.forward import Game, Games, determinize, unseen_cards
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.views import FIELDS, SeatView
from moaisim.games.rapa_nui.rules.codes import N_KINDS
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.rng import SeatRandom
from moaisim.strategies.rapa_nui.base import Strategy, random_choice
from moaisim.strategies.rapa_nui.greedy import GreedyStrategy
from moaisim.strategies.rapa_nui.heuristic import HeuristicStrategy

RULES = Rules.make(3)


def drive(games: Games, strategies: list, record: list | None = None) -> None:  # noqa: ANN001
    """Play `games` to their end through pending/apply, each group answered by its seat's
    strategy through a view of the games waiting."""
    g = games.g
    while not games.over().all():
        for pend in games.pending():
            rng = SeatRandom(g.seat_keys[pend.rows, pend.player].copy(),
                             g.seat_pos[pend.rows, pend.player].copy())  # fmt: skip
            view = SeatView(games.rules, pend.player, pend.kind, pend.legal, pend.info, rng,
                            games.fields(pend.rows, pend.player))  # fmt: skip
            if record is not None:
                record.append((pend, games.observe(pend.player, pend.rows, pend.kind), view))
            games.apply(pend, getattr(strategies[pend.player], pend.kind.value)(view))
            g.seat_pos[pend.rows, pend.player] += np.uint64(view.rng.drawn)


def test_games_driven_decision_by_decision_are_the_games_strategies_play():
    seats = [GreedyStrategy(), HeuristicStrategy(), Strategy()]
    played = Games.new(RULES, 4, np.arange(12)).play(seats).results()
    record: list = []
    driven = Games.new(RULES, 4, np.arange(12))
    drive(driven, seats, record)
    assert driven.results()["score"].tolist() == played["score"].tolist()
    # observe(seat) is the view the seat is asked through, field by field
    for _, seen, asked in record[:200]:
        for f in FIELDS:
            assert np.array_equal(getattr(seen, f), getattr(asked, f)), f


def test_a_copy_plays_on_as_the_original_and_a_seeded_copy_only_changes_the_seats_draws():
    games = Games.new(RULES, 9, np.arange(6))
    for _ in range(10):  # ten rounds of decisions, the first legal action each
        for pend in games.pending():
            games.apply(pend, np.argmax(pend.legal, axis=1))
    copy, seeded = games.clone(), games.clone(seed=5)
    heuristic = [HeuristicStrategy() for _ in range(3)]
    a = games.clone().play(heuristic).results()["score"].tolist()
    assert copy.play(heuristic).results()["score"].tolist() == a
    # no chance after the deal (R1): deterministic seats play the same game in any stream
    assert seeded.play(heuristic).results()["score"].tolist() == a
    rand = [Strategy() for _ in range(3)]
    r1 = games.clone().play(rand).results()["score"].tolist()
    r2 = games.clone(seed=5).play(rand).results()["score"].tolist()
    assert r1 == games.clone().play(rand).results()["score"].tolist()
    assert r1 != r2


def test_one_game_as_a_forward_model_and_its_one_line_errors():
    game = Game.new(RULES, seed=1, game=0)
    with pytest.raises(UserError, match="not legal"):
        kind, seats, legal = game.legal()
        game.apply(int(np.flatnonzero(~legal[0])[0]) if (~legal[0]).any() else 99)
    turns = 0
    while not game.is_over():
        kind, seats, legal = game.legal()
        assert len(seats) == 1 and legal.shape[0] == 1 and legal[0].any()
        game.apply(int(np.flatnonzero(legal[0])[-1]))
        turns += 1
    assert turns > 20
    shares = game.returns()
    assert shares.sum() == pytest.approx(1.0) and (shares >= 0).all()
    with pytest.raises(UserError, match="the game is over"):
        game.legal()


def test_a_pending_group_answered_twice_or_from_other_games_is_refused():
    games, other = Games.new(RULES, 2, np.arange(3)), Games.new(RULES, 2, np.arange(3))
    pend = games.pending()[0]
    with pytest.raises(UserError, match="not issued by these games"):
        other.apply(pend, np.argmax(pend.legal, axis=1))
    with pytest.raises(
        UserError, match=r"got float64 values; expected an integer array of shape \(3,\)"
    ):
        games.apply(pend, [0.5] * len(pend))
    games.apply(pend, np.argmax(pend.legal, axis=1))
    with pytest.raises(UserError, match="answered already"):
        games.apply(pend, np.argmax(pend.legal, axis=1))


class Searcher(Strategy):
    """Random play that, at each decision, draws worlds of its view and checks them."""

    name = "searcher"

    def __init__(self, worlds: int = 6) -> None:
        self.worlds = worlds
        self.checked = 0

    def by_policy(self, view: SeatView) -> np.ndarray:
        worlds = determinize(view, 11 + self.checked, self.worlds)
        check_worlds(view, worlds, self.worlds)
        self.checked += 1
        if self.checked % 7 == 0:  # some worlds played to their end
            worlds.play([Strategy() for _ in range(view.players)])
            assert worlds.over().all()
        return random_choice(view)


for _name in ("start_sacrifice", "buy", "play", "discard", "sacrifice", "offering", "take",
              "moai_income", "bonus"):  # fmt: skip
    setattr(Searcher, _name, Searcher.by_policy)


def check_worlds(view: SeatView, worlds: Games, n: int) -> None:
    """Every world shows the view, field by field, and waits for the same decision."""
    assert len(worlds) == n
    waiting = worlds.pending()
    assert len(waiting) == 1
    pend = waiting[0]
    assert pend.kind is view.kind and pend.player == view.seat and len(pend) == n
    assert (pend.legal == view.legal[0][None, : pend.legal.shape[1]]).all()
    seen = worlds.observe(view.seat, kind=view.kind)
    for f in FIELDS:
        assert (np.asarray(getattr(seen, f)) == np.asarray(getattr(view, f))[0]).all(), f
    # the hidden parts: the rivals' hands are the public record's (R10.3), the pile holds
    # the unseen cards
    hands = view.rival_hands()[0]
    for q in range(view.players):
        assert (worlds.g.hand[:, q] == hands[q]).all() or q == view.seat
    unseen = unseen_cards(view, 0)
    for w in range(n):
        pile = worlds.g.pile[w, worlds.g.pile_pos[w] : worlds.g.pile_len[w]]
        assert np.bincount(pile, minlength=N_KINDS).tolist() == unseen.tolist()


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTIONS)
def test_determinized_worlds_show_the_view_they_were_drawn_from(players, seed, options):
    rules = Rules.make(players, **options)
    seats = [Searcher() for _ in range(players)]
    ReferenceGame(rules, seats, seed=seed, game=0).play()
    assert sum(s.checked for s in seats) > 10


def test_worlds_differ_where_the_view_is_blind_and_a_view_edited_by_hand_is_refused():
    class Keep(Strategy):
        views: list[SeatView] = []

        def take(self, view: SeatView) -> np.ndarray:
            Keep.views.append(view)
            return random_choice(view)

    ReferenceGame(RULES, [Keep(), Strategy(), Strategy()], seed=3, game=0).play()
    view = Keep.views[0]
    worlds = determinize(view, 1, 20)
    g = worlds.g
    orders = {tuple(g.pile[w, : g.pile_len[w]].tolist()) for w in range(20)}
    assert len(orders) > 1  # the pile's order is hidden (R10.2)
    again = determinize(view, 1, 20)
    assert np.array_equal(again.g.pile, g.pile)  # the same seed, the same worlds
    fields = {f: np.array(getattr(view, f)) for f in FIELDS}
    fields["pile"] = fields["pile"] + 5  # more cards in the pile than the deck has
    edited = SeatView(RULES, view.seat, view.kind, view.legal, view.info, view.rng, fields)
    with pytest.raises(UserError, match="no game can show this view"):
        determinize(edited, 1, 4)


def test_the_per_round_table_ends_at_each_seats_final_score_r9():
    rules = Rules.make(3)
    games = Games.new(rules, 1, np.arange(30), rounds=True)
    games.play([HeuristicStrategy() for _ in range(3)])
    table, results = games.round_table(), games.results()
    assert len(table) == 3 * results.groupby("game")["rounds"].first().sum()
    last = table.sort_values("round").groupby(["game", "seat"]).last()["score"]
    assert last.tolist() == results.sort_values(["game", "seat"])["score"].tolist()
    # round 1 of every game: no sacrifice yet, so the four types tie on the stone and a
    # stock card scores 3 (R9.2-R9.3, `high`); wood scores 1 per 5 (R9.1)
    first = table[table["round"] == 1]
    by_hand = first["glory"] + 4 * first["moai"] + first["wood"] // 5 + 3 * first["stock"]
    no_sacrifice = ~first["game"].isin(table.loc[table["moai"] > 0, "game"])
    assert (first["score"] == by_hand)[no_sacrifice].all() and no_sacrifice.any()
    with pytest.raises(ValueError, match="rounds=True"):
        Games.new(rules, 1, [0]).play([HeuristicStrategy() for _ in range(3)]).round_table()


def test_a_strategy_seed_keeps_the_deals_and_renews_only_the_seats_draws():
    base = Games.new(RULES, 4, np.arange(8))
    other = Games.new(RULES, 4, np.arange(8), strategy_seed=99)
    assert np.array_equal(base.g.columns, other.g.columns)
    assert np.array_equal(base.g.pile, other.g.pile)
    assert not np.array_equal(base.g.seat_keys, other.g.seat_keys)
    heuristic = [HeuristicStrategy() for _ in range(3)]  # draws nothing: the same games
    a = Games.new(RULES, 4, np.arange(8)).play(heuristic).results()["score"].tolist()
    b = Games.new(RULES, 4, np.arange(8), strategy_seed=99).play(heuristic).results()
    assert b["score"].tolist() == a
    rand = [Strategy() for _ in range(3)]
    c = Games.new(RULES, 4, np.arange(8), strategy_seed=99).play(rand).results()
    assert c["score"].tolist() != Games.new(RULES, 4, np.arange(8)).play(rand).results()[
        "score"].tolist()  # fmt: skip


def test_answer_asks_the_seated_strategies_as_a_run_does():
    seats = [GreedyStrategy(), Strategy(), HeuristicStrategy()]
    played = Games.new(RULES, 6, np.arange(10)).play(seats).results()["score"].tolist()
    games = Games.new(RULES, 6, np.arange(10))
    while not games.over().all():
        for pend in games.pending():
            games.apply(pend, games.answer(pend, seats))
    assert games.results()["score"].tolist() == played
    pend = Games.new(RULES, 6, np.arange(3)).pending()[0]
    other = [s for s in range(3) if s != pend.player]
    games = Games.new(RULES, 6, np.arange(3))
    pend = games.pending()[0]
    assert (games.answer(pend, seats, seats=other) == 0).all()  # another seat's group: 0
