"""Edge cases of the batch engine (review of the batch engine and its numba kernels).

1. Custom component sets: the batch engine and its kernels assume none of the default sizes
   (forest spaces, pawns per strength, camp, Moai heights and counts, Rapa Nui and epoch card
   counts, boats, wood): for four custom sets, at 2-5 players, with random, greedy and mixed
   lineups, variants and options, the batch engine's results and event logs equal the
   reference engine's.
2. Edges of the API: no games, one game, game indices near 2**63, batch_size=1, logs naming
   games outside the batch; strategies answering with other integer dtypes; malformed
   answers; strategies that write into the arrays of their views.
3. Defects found in review, now fixed: read-only `legal` and `info` in both engines, an
   empty batch with a log, long games' round counts, greedy on a set with no Moai tiles.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_batch_equivalence import assert_same_games, lineup_of

import moaisim
from moaisim.errors import IllegalActionError, UserError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.forward import Games
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.views import FIELDS, SeatView
from moaisim.games.moai.rules import Rules, load_components
from moaisim.strategies.moai.greedy import GreedyStrategy
from moaisim.strategies.moai.random import RandomStrategy

# --- 1. custom component sets -------------------------------------------------------------

#: Four component sets that differ from the default in every size the engines use.
COMPONENT_SETS: dict[str, str] = {
    # 3 forest spaces, 4 pawns per strength (2 in camp), 9 wood, 10 tiles with heights 2-11,
    # 30 Rapa Nui cards with 8 Raid cards, 20 epoch cards (3 boats, 1/1 draws)
    "forest3": """
name = "forest3"
[board]
fields = 10
forest_spaces = 3
wood = 9
disaster_tokens = 6
covered_fields = { 2 = 6, 3 = 4, 4 = 1, 5 = 0 }
[pawns]
per_strength = 4
camp_per_strength = 2
[rapa_nui]
total = 30
hand = 4
normal = { 1 = 8, 2 = 8, 3 = 6 }
raid = { 1 = 3, 2 = 3, 3 = 2 }
[moai]
total = 10
heights = { 2 = 2, 4 = 3, 6 = 3, 11 = 2 }
[epoch]
total = 20
1 = ["neutral 3/2*", "boat 3/2*", "boat 2/2*", "erosion 2/3*", "fire 3/2*", "famine 2/2*",
     "neutral 1/1*", "storm 2/2*"]
2 = ["neutral 3/3*", "boat 3/2*", "erosion 2/2*", "fire-boat 2/2*", "storm 3/2*",
     "topple 2/3*", "famine 2/3"]
3 = ["admiral", "topple 2/2", "topple 2/3*", "famine 2/2", "fire 3/3"]
""",
    # 8 forest spaces, 7 pawns per strength (4 in camp), 25 wood, 30 tiles up to 15 high,
    # 60 cards with 20 Raid cards, hands of 6, 40 epoch cards with 8 boats (K = 8)
    "forest8": """
name = "forest8"
[board]
fields = 20
forest_spaces = 8
wood = 25
disaster_tokens = 12
covered_fields = { 2 = 10, 3 = 7, 4 = 3, 5 = 1 }
[pawns]
per_strength = 7
camp_per_strength = 4
[rapa_nui]
total = 60
hand = 6
normal = { 1 = 14, 2 = 14, 3 = 12 }
raid = { 1 = 6, 2 = 7, 3 = 7 }
[moai]
total = 30
heights = { 1 = 2, 3 = 4, 5 = 4, 7 = 5, 9 = 5, 12 = 5, 15 = 5 }
[epoch]
total = 40
1 = ["neutral 3/2*", "neutral 3/3*", "neutral 2/2*", "neutral 3/2*", "neutral 2/3",
     "boat 3/2*", "boat 2/2*", "boat 3/3*", "boat 2/2", "boat 1/1*", "boat 2/1*",
     "erosion 2/3*", "erosion 2/2*", "fire 3/2*", "fire 2/3", "famine 2/2*"]
2 = ["neutral 3/3*", "neutral 2/2", "boat 3/2*", "boat 2/3", "erosion 2/2*", "erosion 2/3",
     "fire 2/2*", "fire 3/2", "storm 2/3", "storm 3/2*", "famine 2/2", "famine 2/3*",
     "fire-boat 2/2", "fire-boat 3/3*"]
3 = ["topple 2/2", "topple 2/3*", "topple 3/2", "famine 2/2", "famine 2/3",
     "erosion 2/2*", "fire 3/3", "fire 2/2", "storm 4/4*", "admiral"]
""",
    # no boat card (K = 0), no Admiral, one forest space, values 1 and 3 only, more Raid
    # cards than plain ones, 12 epoch cards with big draws and huts
    "noboat": """
name = "noboat"
[board]
fields = 6
forest_spaces = 1
wood = 4
disaster_tokens = 3
covered_fields = { 2 = 3, 3 = 2, 4 = 1, 5 = 0 }
[pawns]
per_strength = 3
camp_per_strength = 3
[rapa_nui]
total = 25
hand = 5
normal = { 1 = 5, 3 = 5 }
raid = { 1 = 10, 3 = 5 }
[moai]
total = 4
heights = { 5 = 2, 8 = 2 }
[epoch]
total = 12
1 = ["neutral 5/4*", "fire 4/2*", "famine 3/3*", "erosion 2/2*"]
2 = ["storm 3/5*", "fire-boat 2/2", "topple 2/2*", "neutral 6/6"]
3 = ["famine 1/1", "topple 2/2", "erosion 2/2*", "neutral 3/3*"]
""",
    # tiny: 2 pawns per strength, 12 cards of value 2 only (6 Raid), one Moai height,
    # 9 epoch cards (V3 leaves 4), the deck runs dry and is reshuffled
    "tiny": """
name = "tiny"
[board]
fields = 4
forest_spaces = 2
wood = 2
disaster_tokens = 1
covered_fields = { 2 = 1, 3 = 1, 4 = 0, 5 = 0 }
[pawns]
per_strength = 2
camp_per_strength = 1
[rapa_nui]
total = 12
hand = 2
normal = { 2 = 6 }
raid = { 2 = 6 }
[moai]
total = 3
heights = { 4 = 3 }
[epoch]
total = 9
1 = ["boat 4/1*", "boat 3/3*", "neutral 4/4*"]
2 = ["boat 2/2*", "famine 3/3*", "storm 3/3*"]
3 = ["admiral", "topple 1/1*", "fire-boat 4/4*"]
""",
}

VARIANT_CYCLE = (
    "base",
    "short+fixed-disasters",
    "open-pawns+open-bidding",
    "open-bidding-strict+short",
)
OPTIONS = list(itertools.product(("hill", "clockwise"), ("stay", "camp")))


def write_toml(directory: Path, name: str, text: str) -> Path:
    path = directory / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def component_files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("components")
    return {name: write_toml(d, name, text) for name, text in COMPONENT_SETS.items()}


def test_custom_sets_are_valid_and_differ_from_the_default(component_files):
    default = load_components()
    for name, path in component_files.items():
        c = load_components(path)
        assert c.name == name
        differs = [
            c.forest_spaces != default.forest_spaces,
            c.pawns_per_strength != default.pawns_per_strength,
            c.moai_heights != default.moai_heights,
            c.cards != default.cards,
            len(c.epoch_cards) != len(default.epoch_cards),
            c.max_boats != default.max_boats,
            c.wood != default.wood,
        ]
        assert all(differs), name
        for players in range(2, 6):
            Rules.make(players, None, path)


CUSTOM_CASES = [
    (name, players, k)
    for k, (name, players) in enumerate(itertools.product(COMPONENT_SETS, range(2, 6)))
]


@pytest.mark.parametrize(("name", "players", "k"), CUSTOM_CASES)
def test_custom_components_batch_equals_reference(component_files, name, players, k):
    """Four games per case in one batch, two of them logged; variants, options and lineups
    cycle through the cases."""
    turn_order, volcano = OPTIONS[k % 4]
    variant = VARIANT_CYCLE[(k // 4 + k) % len(VARIANT_CYCLE)]
    rules = Rules.make(
        players, variant, component_files[name], turn_order=turn_order, volcano_after_moai=volcano
    )
    rng = np.random.default_rng([k, players, 0xED6E])
    lineup = lineup_of(("mixed", "random", "greedy")[k % 3], players, rng)
    seed = int(rng.integers(2**64, dtype=np.uint64))
    games = [int(x) for x in rng.choice(2**40, size=4, replace=False)]
    assert_same_games(rules, lineup, seed, games, [games[0], games[3]])


def test_custom_sets_exercise_the_rules(component_files):
    """The custom sets do reach raids, boats, Moai, births, wood and disasters (so the
    equivalence above is not vacuous)."""
    totals = pd.concat(
        [
            moaisim.simulate(4, 40, "greedy,random,greedy,random", seed=3, components=path)
            for path in component_files.values()
        ]
    )
    for column in ("raids_made", "moai_finished", "births", "forest_wood", "starved"):
        assert totals[column].sum() > 0, column
    by_set = {
        name: moaisim.simulate(4, 40, "greedy", seed=3, components=path)
        for name, path in component_files.items()
    }
    assert by_set["forest8"]["boats_built"].sum() > 0
    assert by_set["noboat"]["boats_built"].sum() == 0
    assert by_set["forest8"]["disasters_suffered"].sum() > 0


# --- 2. API edges --------------------------------------------------------------------------

KW = dict(strategies="random,greedy,random", variants="open-pawns+short", seed=2**64 - 1)


@pytest.mark.parametrize("games", [0, []])
def test_no_games(games):
    # a study of no game is a mistake (one line), in both engines; a batch of none is empty
    for engine in ("batch", "reference"):
        with pytest.raises(UserError, match="at least 1|is empty"):
            moaisim.simulate(3, games, engine=engine, **KW)
    g = Games.new(Rules.make(3), 0, []).play([RandomStrategy()] * 3)
    assert len(g.results()) == 0


def test_one_game_and_huge_game_indices_at_every_batch_size():
    one = moaisim.simulate(3, 1, engine="reference", **KW)
    assert len(one) == 3
    for size in (1, 10_000):
        pd.testing.assert_frame_equal(
            moaisim.simulate(3, 1, engine="batch", batch_size=size, **KW), one
        )
    games = [2**62 + 3, 2**63 - 1, 0, 2**62, 2**62 + 1]
    ref = moaisim.simulate(3, games, engine="reference", **KW)
    assert ref["game"].unique().tolist() == sorted(games)  # rows by game, then seat
    for size in (1, 2, 10_000):
        pd.testing.assert_frame_equal(
            moaisim.simulate(3, games, engine="batch", batch_size=size, **KW), ref
        )


def test_log_naming_games_outside_the_batch():
    rules = Rules.make(3, "fixed-disasters")
    lineup = [GreedyStrategy(), RandomStrategy(), GreedyStrategy()]
    plain = Games.new(rules, 8, [5, 6, 2**62]).play(lineup).results()
    none_in = Games.new(rules, 8, [5, 6, 2**62], log=[1, 2, 2**63 - 1]).play(lineup)
    assert none_in.events == {}
    pd.testing.assert_frame_equal(none_in.results(), plain)
    some_in = Games.new(rules, 8, [5, 6, 2**62], log=[99, 2**62, 99, 6]).play(lineup)
    assert sorted(some_in.events) == [6, 2**62]
    pd.testing.assert_frame_equal(some_in.results(), plain)
    ref = ReferenceGame(rules, lineup, seed=8, game=2**62).play()
    assert some_in.events[2**62] == ref


# --- strategies answering with other integer dtypes ----------------------------------------

KINDS = [k.value for k in Kind]


def wrapped(base: type, name: str, after) -> type:
    """A subclass of `base` whose every decision method passes base's answer through
    `after(view, answer)`."""

    def make(kind: str):
        def method(self, view: SeatView) -> np.ndarray:
            return after(view, getattr(base, kind)(self, view))

        return method

    return type(name, (base,), {"name": name, **{k: make(k) for k in KINDS}})


def small_ints(view: SeatView, answer: np.ndarray) -> np.ndarray:
    answer = np.asarray(answer)
    return answer.astype(np.uint8 if answer.max(initial=0) < 256 else np.int32)


def as_int32(view: SeatView, answer: np.ndarray) -> np.ndarray:
    return np.asarray(answer).astype(np.int32)


def as_list(view: SeatView, answer: np.ndarray) -> list:
    return np.asarray(answer).tolist()


def both_engines(rules: Rules, strategies: list, seed: int, games: list[int]):
    """(batch results, batch logs, reference results, reference logs)."""
    names = ["s"] * rules.players
    b = Games.new(rules, seed, games, log=games).play(strategies, names=names)
    ref_events = {}
    for game in games:
        ref_events[game] = ReferenceGame(
            rules, strategies, seed=seed, game=game, names=names
        ).play()
    return b.results(), b.events, ref_events


@pytest.mark.parametrize("after", [small_ints, as_int32, as_list])
@pytest.mark.parametrize("base", [GreedyStrategy, RandomStrategy])
def test_other_integer_dtypes_play_the_same_games(base, after):
    rules = Rules.make(4, "open-bidding+short")
    games = [3, 11, 2**62 + 5]
    names = ["s"] * 4
    want = Games.new(rules, 9, games, log=games).play([base()] * 4, names=names)
    odd = wrapped(base, "odd", after)
    got_res, got_events, ref_events = both_engines(rules, [odd()] * 4, 9, games)
    pd.testing.assert_frame_equal(got_res, want.results())
    assert got_events == want.events
    assert ref_events == want.events


# --- malformed answers ---------------------------------------------------------------------


def float_answer(view, answer):
    return np.asarray(answer, dtype=float)


def column_answer(view, answer):
    return np.asarray(answer)[:, None]


def one_more_row(view, answer):
    a = np.asarray(answer)
    return np.concatenate([a, a[:1]])


def scalar_answer(view, answer):
    return np.asarray(answer).ravel()[0]


def bool_answer(view, answer):
    return np.asarray(answer) > 0


def five_card_types(view, answer):
    return np.asarray(answer)[..., :5] if view.kind is Kind.BID else answer


def transposed(view, answer):
    return np.asarray(answer).T


MALFORMED = {
    "float": (float_answer, "bid"),
    "column": (column_answer, "bid"),
    "one-more-row": (one_more_row, "bid"),
    "scalar": (scalar_answer, "bid"),
    "bool": (bool_answer, "bid"),
    "five-card-types": (five_card_types, "bid"),
    "transposed": (transposed, "bid"),
}


@pytest.mark.parametrize("bad", list(MALFORMED))
def test_malformed_answers_raise_in_both_engines(bad):
    """A wrong shape or a non-integer type is an IllegalActionError in both engines, for
    the first decision (a bid) of the misbehaving seat."""
    after, kind = MALFORMED[bad]
    rules = Rules.make(3)
    strategies = [RandomStrategy(), wrapped(RandomStrategy, "bad", after)(), RandomStrategy()]
    names = ["random", "bad", "random"]
    with pytest.raises(IllegalActionError) as b:
        Games.new(rules, 4, [7, 8]).play(strategies, names=names)
    with pytest.raises(IllegalActionError) as r:
        ReferenceGame(rules, strategies, seed=4, game=7, names=names).play()
    for err in (b.value, r.value):
        assert (err.kind, err.seat, err.strategy, err.seed) == (kind, 1, "bad", 4)
    assert r.value.game == 7 and b.value.game in (7, 8)


@pytest.mark.parametrize("after", [float_answer, column_answer, one_more_row, bool_answer])
def test_malformed_non_bid_answers_raise_in_both_engines(after):
    """The same for a decision with an action index (work), every other answer legal."""

    class Bad(RandomStrategy):
        name = "bad-work"

        def work(self, view):
            return after(view, super().work(view))

    rules = Rules.make(2)
    strategies = [Bad(), RandomStrategy()]
    names = ["bad-work", "random"]
    with pytest.raises(IllegalActionError) as b:
        Games.new(rules, 4, [7, 8, 9]).play(strategies, names=names)
    with pytest.raises(IllegalActionError) as r:
        ReferenceGame(rules, strategies, seed=4, game=9, names=names).play()
    for err in (b.value, r.value):
        assert (err.kind, err.seat, err.strategy) == ("work", 0, "bad-work")


# --- strategies writing into their views (docs/design.md, "Sealed views") ----------------------


def scribble(view: SeatView, answer: np.ndarray) -> np.ndarray:
    """After answering, overwrite every array the view holds: its fields, legal and info."""
    answer = np.array(answer, copy=True)
    arrays = [getattr(view, f) for f in FIELDS] + [view.legal, view.games, *view.info.values()]
    for a in arrays:
        a[...] = True if a.dtype == bool else 1
    return answer


@pytest.mark.parametrize("base", [GreedyStrategy, RandomStrategy])
def test_writing_into_view_arrays_changes_no_game(base):
    """The views hold copies: scribbling on every array of every view changes nothing, in
    either engine."""
    rules = Rules.make(4, "open-bidding+short", volcano_after_moai="camp")
    games = [3, 11, 2**62 + 5, 40, 41, 42]
    names = ["s"] * 4
    want = Games.new(rules, 9, games, log=games).play([base()] * 4, names=names)
    got_res, got_events, ref_events = both_engines(
        rules, [wrapped(base, "scribbler", scribble)()] * 4, 9, games
    )
    pd.testing.assert_frame_equal(got_res, want.results())
    assert got_events == want.events
    assert ref_events == want.events


class NoStop(RandomStrategy):
    """Edits the mask it is given in place (a natural idiom): never stops finishing Moai
    while a space can still be finished."""

    name = "no-stop"

    def finish_moai(self, view: SeatView) -> np.ndarray:
        legal = view.legal
        legal[legal[:, :-1].any(axis=1), -1] = False
        return view.rng.choice(legal)


def test_editing_view_legal_in_place_plays_alike_in_both_engines_and_any_batch():
    """view.legal is the view's own copy: editing it in place is allowed, steers only this
    strategy's own answer, and plays the same games in both engines and at any batch size."""
    kw = dict(strategies=[NoStop] * 3, seed=1)
    ref = moaisim.simulate(3, 20, engine="reference", **kw)
    for size in (1, 7, 10_000):
        pd.testing.assert_frame_equal(moaisim.simulate(3, 20, batch_size=size, **kw), ref)
    plain = moaisim.simulate(3, 20, strategies="random", seed=1)
    assert (ref["moai_finished"] >= 0).all() and not ref.equals(plain)


class EraseCard(RandomStrategy):
    """Legal everywhere. After answering disaster_target it overwrites view.info["card"];
    on disaster_loss it takes the last legal item when info["card"] is 0, else the first."""

    name = "erase-card"

    def disaster_target(self, view: SeatView) -> np.ndarray:
        out = super().disaster_target(view)
        view.info["card"][...] = 0
        return out

    def disaster_loss(self, view: SeatView) -> np.ndarray:
        legal = view.legal
        last = legal.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)
        return np.where(view.info["card"] == 0, last, np.argmax(legal, axis=1))


def test_writing_into_view_info_changes_no_other_view():
    """info arrays are the view's own: overwriting one never reaches a later view (a
    disaster_loss view still sees its card), in either engine and at any batch size."""
    kw = dict(strategies=[EraseCard] * 4, seed=1)
    ref = moaisim.simulate(4, 20, engine="reference", **kw)
    for size in (1, 10_000):
        pd.testing.assert_frame_equal(moaisim.simulate(4, 20, batch_size=size, **kw), ref)


def test_empty_batch_with_a_log():
    g = Games.new(Rules.make(3), 0, [], log=[1]).play([RandomStrategy()] * 3)
    assert g.events == {} and len(g.results()) == 0


LONG = """
name = "long"
[board]
fields = 16
forest_spaces = 6
wood = 15
disaster_tokens = 10
covered_fields = { 2 = 8, 3 = 5, 4 = 2, 5 = 0 }
[pawns]
per_strength = 6
camp_per_strength = 3
[rapa_nui]
total = 40
hand = 5
normal = { 1 = 12, 2 = 12, 3 = 10 }
raid = { 1 = 2, 2 = 2, 3 = 2 }
[moai]
total = 21
heights = { 3 = 3, 4 = 3, 5 = 3, 6 = 3, 7 = 3, 8 = 3, 9 = 3 }
[epoch]
total = 390
"""


def test_long_game_round_count_fits_the_results(tmp_path):
    cards = ", ".join(['"neutral 1/1"'] * 130)
    path = write_toml(tmp_path, "long", LONG + "".join(f"{e} = [{cards}]\n" for e in (1, 2, 3)))
    for engine in ("batch", "reference"):
        df = moaisim.simulate(2, [0], "random", seed=3, components=path, engine=engine)
        assert (df["rounds"] == 130).all(), df["rounds"].tolist()


NO_TILES = COMPONENT_SETS["forest3"].replace(
    "total = 10\nheights = { 2 = 2, 4 = 3, 6 = 3, 11 = 2 }", "total = 0\nheights = {}"
)


def test_greedy_with_no_moai_tiles(tmp_path):
    path = write_toml(tmp_path, "notiles", NO_TILES)
    assert load_components(path).n_tiles == 0
    assert len(moaisim.simulate(3, 2, "random", seed=1, components=path)) == 6  # random plays
    moaisim.simulate(3, 2, "greedy", seed=1, components=path)
