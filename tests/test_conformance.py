"""The engine floor's conformance suite, run over every registered game, over Kaivai (on the
floor before it registers) and over High Card, a tiny game written in the tests with only
what docs/design.md ("Adding a game") lists (as pgx's `api_test` and OpenSpiel's API tests
run over every game): the engine names declared,
seeds that reproduce, both engines playing the same games at any batch size, views sealed,
`determinize` keeping what the seat saw and refusing what no game can show, the game's own
invariant hook holding at every decision, and bad input one line that changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
import tinygame

from moaisim import engine
from moaisim.errors import RulesError, UserError
from moaisim.games import BUILTIN, kaivai, load_game
from moaisim.games.base import GameEngine, GameInfo, spec_names

#: The registered games, High Card, and Kaivai, whose engine is on the floor before the rest
#: of its `GameSpec` registers it (moaisim/games/kaivai/__init__.py).
GAMES: dict[str, Any] = {**{name: load_game(name) for name in BUILTIN}, "high-card": tinygame,
                         "kaivai": kaivai}  # fmt: skip
SEED = 31
#: Fields a view may hold that are not what the seat sees of the game (its games' numbers).
NOT_SEEN = {"legal", "games"}


def rules_of(spec: Any, players: int | None = None) -> Any:
    return spec.make_rules(players or min(spec.INFO.players))


def strategies(spec: Any, rules: Any) -> list[Any]:
    return [spec.Strategy() for _ in range(rules.players)]


def chosen(spec: Any, pend: engine.Pending, draw: np.random.Generator) -> np.ndarray:
    """A legal answer for every row of a group: a random legal action, or for a kind answered
    by a row of numbers (Moai's bid) nothing at all (zeros are always within the bounds)."""
    if pend.kind in spec.Games.VECTOR_KINDS:
        return np.zeros(pend.legal.shape, dtype=np.int64)
    return np.array([draw.choice(np.flatnonzero(row)) for row in pend.legal], dtype=np.int64)


def seen(view: Any) -> dict[str, np.ndarray]:
    """What a seat's view shows of its games: the arrays of its declared fields."""
    return {k: np.asarray(getattr(view, k)) for k in type(view).fields if k not in NOT_SEEN}


def one_line(exc: BaseException) -> bool:
    return "\n" not in str(exc) and bool(str(exc))


@pytest.fixture(params=sorted(GAMES))
def spec(request: pytest.FixtureRequest) -> Any:
    return GAMES[request.param]


# --- the names a game declares ---------------------------------------------------------------
def test_a_game_declares_the_engine_names_with_their_shapes(spec):
    missing = [name for name in spec_names(GameEngine) if not hasattr(spec, name)]
    assert missing == []
    assert isinstance(spec.INFO, GameInfo) and set(spec.INFO.players) <= set(range(1, 9))
    assert issubclass(spec.Games, engine.Games) and issubclass(spec.Game, engine.Game)
    assert spec.Game.games_type is spec.Games
    rules = rules_of(spec)
    assert rules.players == min(spec.INFO.players) and rules.game == spec.INFO.name
    games = spec.Games.new(rules, SEED, [0, 1])
    assert isinstance(games.machine, engine.Machine)  # the floor's protocol, at run time
    pend = games.pending()[0]
    assert isinstance(pend, engine.Pending) and pend.kind in list(spec.Kind)
    assert pend.rows.shape == pend.seat.shape == (len(pend),) and len(pend.legal) == len(pend)
    view = games.observe(int(pend.seat[0]), kind=pend.kind)
    assert isinstance(view, spec.SeatView) and isinstance(view, engine.View) and len(view) == 2


# --- seeds, batch sizes and the two engines ------------------------------------------------------
def test_the_same_seed_plays_the_same_games_and_another_seed_others(spec):
    rules = rules_of(spec)
    runs = [spec.Games.new(rules, seed, range(6)).play(strategies(spec, rules)).scores()
            for seed in (SEED, SEED, SEED + 1)]  # fmt: skip
    assert np.array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], runs[2])


@pytest.mark.parametrize("players", ["fewest", "most"])
def test_both_engines_play_the_same_games_at_any_batch_size(spec, players):
    counts = list(spec.INFO.players)
    rules = rules_of(spec, counts[0] if players == "fewest" else counts[-1])
    numbers = [0, 1, 2, 5, 8, 13]
    together = spec.Games.new(rules, SEED, numbers).play(strategies(spec, rules)).scores()
    apart = [spec.Games.new(rules, SEED, [g]).play(strategies(spec, rules)).scores()[0]
             for g in numbers]  # fmt: skip
    halves = spec.Games.stack([spec.Games.new(rules, SEED, numbers[:2]),
                               spec.Games.new(rules, SEED, numbers[2:])])  # fmt: skip
    stacked = halves.play(strategies(spec, rules)).scores()
    reference = []
    for g in numbers:
        one = spec.ReferenceGame(rules, strategies(spec, rules), SEED, g)
        one.play()
        reference.append(one.final_scores())
    assert np.array_equal(together, np.array(apart))
    assert np.array_equal(together, stacked)
    assert np.array_equal(together, np.array(reference))


# --- the forward model, the invariant, the views and the worlds -----------------------------------
def walk(spec: Any, players: int, games: int, seed: int) -> Any:
    """Every decision of `games` games played from outside, at random: yields (games, the
    group, the seat asked first) before each answer; checks the invariant hook after it."""
    rules = rules_of(spec, players)
    g = spec.Games.new(rules, seed, range(games))
    draw = np.random.default_rng(seed)
    steps = 0
    while waiting := g.pending():
        pend = waiting[0]
        yield g, pend
        g.apply(pend, chosen(spec, pend, draw))
        assert spec.conserved(g) == [], f"after decision {steps} ({pend.name})"
        steps += 1
        assert steps < 50_000
    assert g.over().all()
    shares = g.returns()
    assert np.allclose(shares.sum(axis=1), 1.0) and (shares >= 0).all()


def test_the_invariant_holds_at_every_decision_played_from_outside(spec):
    kinds = {pend.kind for _, pend in walk(spec, max(spec.INFO.players), 3, SEED)}
    assert len(kinds) >= 2  # the walk saw several kinds of decision


def test_a_view_is_sealed_and_determinize_keeps_what_the_seat_saw(spec):
    """Worlds drawn for a seat's view differ in what the seat cannot see (another seat's view
    changes from world to world), yet show the seat exactly its view."""
    hidden_varied = checked = 0
    for k, (g, pend) in enumerate(walk(spec, min(spec.INFO.players), 2, SEED + 2)):
        if k >= 8 and k % 7:  # the first decisions, then one in seven
            continue
        seat, row = int(pend.seat[0]), int(pend.rows[0])
        view = g.observe(seat, rows=[row], kind=pend.kind)
        worlds = spec.determinize(view, SEED + k, 5)
        assert len(worlds) == 5
        mine = seen(view)
        for w in range(5):
            assert_same(seen(worlds.observe(seat, rows=[w], kind=pend.kind)), mine)
        other = (seat + 1) % g.rules.players
        theirs = [seen(worlds.observe(other, rows=[w], kind=pend.kind)) for w in range(5)]
        hidden_varied += any(not same(theirs[0], t) for t in theirs[1:])
        checked += 1
    assert checked >= 3 and hidden_varied >= 1


def test_determinize_with_a_seed_per_row_draws_each_rows_worlds_as_alone(spec):
    """One seed per row (how a search draws the worlds of all its games in one call): row k's
    worlds are the very worlds a call for that row alone draws from its seed, hidden parts
    and future chance alike (played on to the end, they score the same), unchecked rows
    included; a count of seeds that is not one per row is one line."""
    compared = 0
    for k, (g, pend) in enumerate(walk(spec, max(spec.INFO.players), 4, SEED + 5)):
        seat = int(pend.seat[0])
        rows = pend.rows[pend.seat == seat]
        if len(rows) < 2:
            continue
        view = g.observe(seat, rows=rows, kind=pend.kind)
        seeds = [SEED + 100 * k + j for j in range(len(rows))]
        batch = spec.determinize(view, np.array(seeds, dtype=np.uint64), 3,
                                 rows=np.arange(len(rows)), check_rows=False)  # fmt: skip
        alone = spec.Games.stack([spec.determinize(view, s, 3, rows=j)
                                  for j, s in enumerate(seeds)])  # fmt: skip
        for q in range(g.rules.players):
            for w in range(len(batch)):
                assert_same(seen(batch.observe(q, rows=[w])), seen(alone.observe(q, rows=[w])))
        rules = g.rules
        batch.play(strategies(spec, rules))
        alone.play(strategies(spec, rules))
        assert np.array_equal(batch.scores(), alone.scores())
        with pytest.raises(UserError, match="seeds for") as info:
            spec.determinize(view, seeds[:1], 3, rows=np.arange(len(rows)))
        assert one_line(info.value)
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def assert_same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k]), k


def test_determinize_refuses_a_view_no_game_can_show_in_one_line(spec):
    """Each count the view shows, set to a value no game shows (-7, or its type's largest), is one
    `UserError` naming what no game shows: every one is refused."""
    walked = walk(spec, min(spec.INFO.players), 1, SEED + 3)
    for _ in range(4):
        g, pend = next(walked)
    seat = int(pend.seat[0])
    view = g.observe(seat, rows=[0], kind=pend.kind)
    fields = [k for k, v in seen(view).items() if v.dtype.kind in "iu" and v.size]
    assert fields
    refused = tried = 0
    for name in fields:
        value = np.array(getattr(view, name), copy=True)
        for wrong in (-7, np.iinfo(value.dtype).max):
            if wrong < 0 and value.dtype.kind == "u":
                continue
            bad = copy.copy(view)
            value = np.array(getattr(view, name), copy=True)
            value.flat[0] = wrong
            setattr(bad, name, value)
            tried += 1
            try:
                spec.determinize(bad, SEED, 2)
            except UserError as exc:
                assert one_line(exc) and "determinize" in str(exc), (name, str(exc))
                refused += 1
    assert refused == tried, f"{refused} of {tried} impossible views refused"


# --- bad input ---------------------------------------------------------------------------------
def test_bad_input_is_one_line_and_changes_nothing(spec):
    with pytest.raises(RulesError) as info:
        spec.make_rules(max(spec.INFO.players) + 5)
    assert one_line(info.value)
    rules = rules_of(spec)
    g, other = spec.Games.new(rules, SEED, [0, 1]), spec.Games.new(rules, SEED, [0, 1])
    pend = g.pending()[0]
    before = copy.deepcopy(g.scores())
    wrong = [np.zeros((len(pend), 3, 2), dtype=np.int64), np.full(pend.legal.shape, 0.5),
             None, "nothing"]  # fmt: skip
    for answer in wrong:
        with pytest.raises(UserError) as info:
            g.apply(pend, answer)
        assert one_line(info.value)
    with pytest.raises(UserError, match="not issued by these games"):
        other.apply(pend, chosen(spec, pend, np.random.default_rng(0)))
    for call in (lambda: g.observe(rules.players), lambda: g.clone(rows=[5]),
                 lambda: spec.determinize(g.observe(0), SEED, 0)):  # fmt: skip
        with pytest.raises(UserError) as info:
            call()
        assert one_line(info.value)
    assert np.array_equal(g.scores(), before)
    again = g.pending()[0]
    assert again.kind == pend.kind and np.array_equal(again.rows, pend.rows)
    g.apply(again, chosen(spec, again, np.random.default_rng(0)))  # still the decision asked


def test_the_tiny_game_keeps_its_rules():
    """High Card's own arithmetic, worked by hand (tests/tinygame/rules.py): T3, T4."""
    from tinygame.rules import score, trick_taker

    assert trick_taker([3, 9, 1]) == 1 and trick_taker([8, 2]) == 0
    assert score(2, 2, 3) == 5 and score(1, 2, 3) == 1 and score(0, 0, 3) == 3
    with pytest.raises(RulesError, match="2 or 3 players"):
        tinygame.make_rules(4)
    games = tinygame.Games.new(tinygame.make_rules(2), SEED, [0])
    holder = games.machine.s["holder"]
    holder[0, np.flatnonzero(holder[0] == 0)[0]] = 3  # a card of seat 0's laid by seat 1
    assert tinygame.conserved(games) == ["game 0: hands [2, 3], laid [0, 1] after 0 tricks"]
