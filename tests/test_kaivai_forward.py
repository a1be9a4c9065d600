"""Kaivai's forward model on the engine floor (`moaisim.games.kaivai.engine.forward`): games
played from outside decision by decision, copies, sealed views and the invariant hook, over
the compiled machine; floor strategies asked through views play the very games the compiled
random seats and the reference engine's random strategy play."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from moaisim import engine
from moaisim.errors import UserError
from moaisim.games.kaivai.engine import machine as m
from moaisim.games.kaivai.engine.asked import ReferenceGame as AskingGame
from moaisim.games.kaivai.engine.batch import Batch
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.forward import Game, Games, Strategy, conserved
from moaisim.games.kaivai.engine.reference import Game as ReferenceGame
from moaisim.games.kaivai.engine.reference import RandomStrategy
from moaisim.games.kaivai.engine.worlds import determinize
from moaisim.games.kaivai.rules.model import Rules

SEED = 41


def walk(rules: Rules, games: int, seed: int):
    """Every decision of `games` games answered from outside at random; the invariant hook
    checked after each answer. Yields (games, group) before each answer."""
    g = Games.new(rules, seed, range(games))
    draw = np.random.default_rng(seed)
    steps = 0
    while waiting := g.pending():
        pend = waiting[0]
        yield g, pend
        g.apply(pend, np.array([draw.choice(np.flatnonzero(row)) for row in pend.legal]))
        assert conserved(g) == [], f"after decision {steps} ({pend.name})"
        steps += 1
    assert g.over().all()
    assert np.allclose(g.returns().sum(axis=1), 1.0)


def viewed(strategy: Strategy) -> Strategy:
    """The strategy asked through views (no compiled form: the machine pauses for it)."""
    strategy.compiled = lambda rules: None  # type: ignore[method-assign]
    return strategy


@pytest.mark.parametrize("players", [3, 4])
def test_floor_strategies_through_views_play_the_compiled_and_the_reference_games(players):
    rules = Rules.make(players)
    floor = Games.new(rules, SEED, range(5)).play([viewed(Strategy()) for _ in range(players)])
    floor = floor.scores()
    batch = Batch.new(rules, SEED, range(5))
    batch.play(["random"] * players)
    assert np.array_equal(floor, batch.finals()[:, :, 0])
    for i in range(5):
        ref = ReferenceGame(rules, [RandomStrategy(s) for s in range(players)], SEED, i)
        ref.play()
        assert floor[i].tolist() == [seat.glory for seat in ref.seats]


@pytest.mark.parametrize("options", [{}, {"edition": "second", "influence_visibility": "hidden"}])
def test_games_played_from_outside_keep_every_piece_at_every_decision(options):
    kinds = {pend.kind for _, pend in walk(Rules.make(4, **options), 3, SEED)}
    assert {Kind.BID, Kind.FOUND, Kind.GOD, Kind.ACTION, Kind.SCORE_ISLAND} <= kinds


def test_a_group_lists_each_games_options_in_the_reference_order():
    rules = Rules.make(3)
    g = Games.new(rules, SEED, [0])
    batch = Batch.new(rules, SEED, [0])
    batch.play([None] * 3)
    for _ in range(40):  # the first 40 decisions, answered alike in both
        [pend] = g.pending()
        [(row, seat, kind, options)] = batch.waiting()
        assert (pend.name, int(pend.seat[0])) == (kind, seat) or (
            pend.name == "another_boat" and kind == "continue")  # fmt: skip
        n = int(pend.legal[0].sum())
        assert n == len(options) and pend.legal[0, :n].all()
        decoded = [batch.option(row, kind, int(x)) for x in pend.info["options"][0, :n]]
        assert decoded == options
        g.apply(pend, [n - 1])
        batch.answer(row, n - 1)


def test_a_copy_plays_on_as_the_original_and_a_seeded_copy_draws_its_own_dice():
    rules = Rules.make(4)
    g = Games.new(rules, SEED, range(4))
    for _ in range(60):  # into round 2's actions
        pend = g.pending()[0]
        g.apply(pend, np.zeros(len(pend), dtype=np.int64))
    same = g.clone()
    ours = [Strategy()] * 4
    assert np.array_equal(same.play(ours).scores(), g.clone().play(ours).scores())
    seeded = [g.clone(seed=s).play(ours).scores() for s in (5, 5, 6)]
    assert np.array_equal(seeded[0], seeded[1])
    assert not np.array_equal(seeded[0], seeded[2])
    assert not g.over().any()  # the original is where it was


def test_a_view_is_sealed_and_hides_what_the_rules_hide():
    rules = Rules.make(3, influence_visibility="hidden")
    g = Games.new(rules, SEED, range(2))
    pend = g.pending()[0]
    view = g.observe(int(pend.seat[0]), kind=pend.kind)
    assert isinstance(view, engine.View) and len(view) == 2
    with pytest.raises(ValueError):
        view.glory[0, 0] = 9
    me = view.seat
    assert (view.influence[:, me] == 3).all()  # R1.4: the start influence, its own
    assert (np.delete(view.influence, me, axis=1) == -1).all()  # O6: the others' hidden
    assert (np.delete(view.secret, me, axis=1) == -1).all()  # R10.4: never another's bid
    opened = Games.new(Rules.make(3), SEED, range(2)).observe(0)
    assert (opened.influence == 3).all()


def test_bad_input_is_one_line_and_changes_nothing():
    rules = Rules.make(3)
    g, other = Games.new(rules, SEED, [0, 1]), Games.new(rules, SEED, [0, 1])
    pend = g.pending()[0]
    before = [a.copy() for a in g.machine.g]
    for wrong in (np.zeros((len(pend), 3, 2), dtype=np.int64), np.full(pend.legal.shape, 0.5),
                  None, "nothing", np.full(len(pend), pend.legal.shape[1])):  # fmt: skip
        with pytest.raises(UserError) as info:
            g.apply(pend, wrong)
        assert "\n" not in str(info.value)
    with pytest.raises(UserError, match="not issued by these games"):
        other.apply(pend, np.zeros(len(pend), dtype=np.int64))
    for call in (lambda: g.observe(3), lambda: g.clone(rows=[5]),
                 lambda: g.play([Strategy()])):  # fmt: skip
        with pytest.raises(UserError):
            call()
    assert all(np.array_equal(a, b) for a, b in zip(before, g.machine.g, strict=True))
    g.apply(g.pending()[0], np.zeros(len(pend), dtype=np.int64))  # still the decision asked


def test_one_game_is_played_to_its_end_through_legal_and_apply():
    game = Game.new(Rules.make(3), SEED, 2)
    steps = 0
    while not game.is_over():
        kind, seats, legal = game.legal()
        assert isinstance(kind, Kind) and legal.shape[0] == len(seats) == 1
        game.apply(int(np.flatnonzero(legal[0])[-1]))  # the last option each time
        steps += 1
    assert 50 < steps < 2000 and game.returns().sum() == pytest.approx(1.0)


def test_the_invariant_hook_names_a_piece_out_of_place():
    g = Games.new(Rules.make(3), SEED, [0])
    g.play([Strategy()] * 3)
    assert conserved(g) == []
    broken = copy.deepcopy(g)
    hexes = broken.machine.g.hexes[0]
    hut = int(np.flatnonzero((hexes[m.H_KIND] == m.MEETING) | (hexes[m.H_KIND] == m.TEMPLE))[0])
    owner = int(hexes[m.H_OWNER, hut])
    broken.machine.g.seat[0, owner, m.S_GLORY] += 1  # glory from nowhere
    problems = conserved(broken)
    assert len(problems) == 1 and problems[0].startswith(f"game 0: seat {owner} glory")


class Watching(Strategy):
    """The floor's random strategy, keeping every view it is shown (game, kind, seat, what it
    sees, its options)."""

    def __init__(self, seen: list) -> None:
        self.seen = seen

    def by_policy(self, view):
        for k in range(len(view)):
            fields = {name: getattr(view, name)[k].tolist() for name in view.fields}
            options = view.info["options"][k][view.legal[k]].tolist()
            self.seen.append((int(view.games[k]), view.kind, view.seat, fields, options))
        return super().by_policy(view)


@pytest.mark.parametrize("options", [{}, {"edition": "second", "influence_visibility": "hidden",
                                          "fishing": "lessluck"}])  # fmt: skip
def test_both_engines_show_a_floor_strategy_the_same_view_at_every_decision(options):
    rules = Rules.make(3, **options)
    machine: list = []
    Games.new(rules, SEED, [0, 1]).play([Watching(machine) for _ in range(3)])
    reference: list = []
    scores = []
    for i in (0, 1):
        one = AskingGame(rules, [Watching(reference) for _ in range(3)], SEED, i)
        one.play()
        scores.append(one.final_scores())
    machine.sort(key=lambda x: x[0])  # the machine asks its games in groups: game by game
    assert len(machine) == len(reference) > 300
    for k, (a, b) in enumerate(zip(machine, reference, strict=True)):
        assert a[:3] == b[:3], f"decision {k}"
        for name in a[3]:
            assert a[3][name] == b[3][name], f"decision {k} ({a[1]}): {name}"
        assert a[4] == b[4], f"decision {k} ({a[1]}): options"
    floor = Games.new(rules, SEED, [0, 1]).play([Strategy()] * 3).scores()
    assert floor.tolist() == scores


def until(games: Games, want: Kind, seat: int | None = None, seed: int = 0):
    """Games played from outside (a random option each time) to a decision of `want`."""
    draw = np.random.default_rng(seed)
    while waiting := games.pending():
        for pend in waiting:
            if pend.kind is want and (seat is None or int(pend.seat[0]) == seat):
                return pend
        pend = waiting[0]
        games.apply(pend, np.array([draw.choice(np.flatnonzero(row)) for row in pend.legal]))
    raise AssertionError(f"no {want} decision")


def test_worlds_draw_the_rivals_hidden_influence_and_show_the_seat_its_view():
    rules = Rules.make(3, influence_visibility="hidden")
    g = Games.new(rules, SEED, [0])
    pend = until(g, Kind.ACTION)
    seat = int(pend.seat[0])
    view = g.observe(seat, kind=pend.kind)
    worlds = determinize(view, 5, 40)
    true = g.machine.g.seat[0, :, m.S_INFLUENCE]
    drawn = worlds.machine.g.seat[:, :, m.S_INFLUENCE]
    assert (drawn[:, seat] == true[seat]).all()  # its own, as it sees it
    others = np.delete(drawn, seat, axis=1)
    most = rules.start_influence + (rules.sacrifice_influence + 1) * int(view.round[0])
    assert (others >= 0).all() and (others <= most).all() and len(np.unique(others)) > 3
    for w in range(40):
        mine = worlds.observe(seat, rows=[w], kind=pend.kind)
        assert all(np.array_equal(getattr(mine, k), getattr(view, k)) for k in view.fields)
    assert all(int(p.seat[0]) == seat and p.kind is Kind.ACTION for p in worlds.pending())
    again = determinize(view, 5, 40)
    assert np.array_equal(again.machine.g.seat, worlds.machine.g.seat)


def test_worlds_draw_the_secret_bids_made_before_the_seats_own_in_a_contest():
    rules = Rules.make(3)
    for game in range(20):  # a contest where seat 2 bids after two rivals who could
        g = Games.new(rules, SEED, [game])
        try:
            until(g, Kind.ISLAND_BID, seat=2, seed=game)
        except AssertionError:
            continue
        if (g.machine.g.seat[0, :2, m.S_INFLUENCE] > 1).all():
            break
    else:
        raise AssertionError("no contest found")
    view = g.observe(2, kind=Kind.ISLAND_BID)
    assert view.scoring[0] >= 0 and (view.secret[0, :2] == -1).all()
    worlds = determinize(view, 9, 60)
    bids = worlds.machine.g.seat[:, :2, m.S_SECRET]
    have = worlds.machine.g.seat[:, :2, m.S_INFLUENCE]
    assert (bids >= 0).all() and (bids <= have).all()
    assert len({tuple(b) for b in bids.tolist()}) > 4  # drawn, not copied
    assert all(p.kind is Kind.ISLAND_BID and (p.seat == 2).all() for p in worlds.pending())


def test_a_worlds_dice_are_its_own():
    rules = Rules.make(4)
    g = Games.new(rules, SEED, [3])
    pend = until(g, Kind.ACTION)
    view = g.observe(int(pend.seat[0]), kind=pend.kind)
    worlds = determinize(view, 2, 30).play([Strategy()] * 4)
    assert len({tuple(s) for s in worlds.scores().tolist()}) > 5


@pytest.mark.parametrize("options", [{}, {"edition": "second", "influence_visibility": "hidden",
                                          "piracy_pays": "victim"}])  # fmt: skip
def test_floor_greedy_plays_the_compiled_greedy_games_on_both_engines(options):
    from moaisim.strategies.kaivai.greedy import GreedyStrategy
    from moaisim.strategies.kaivai.plain import PlainGreedy

    rules = Rules.make(4, **options)
    lineup = [GreedyStrategy(), Strategy(), GreedyStrategy(), GreedyStrategy()]
    floor = Games.new(rules, SEED, range(4)).play([viewed(x) for x in (
        GreedyStrategy(), Strategy(), GreedyStrategy(), GreedyStrategy())]).scores()  # fmt: skip
    batch = Batch.new(rules, SEED, range(4))
    batch.play(["greedy", "random", "greedy", "greedy"])
    assert np.array_equal(floor, batch.finals()[:, :, 0])
    for i in range(4):
        one = AskingGame(rules, lineup, SEED, i)
        one.play()
        asked = one.final_scores()
        plain = ReferenceGame(rules, [PlainGreedy(), RandomStrategy(1), PlainGreedy(),
                                      PlainGreedy()], SEED, i)  # fmt: skip
        plain.play()
        assert asked == floor[i].tolist() == [seat.glory for seat in plain.seats]
