"""Rapa Nui's heuristic policy (engine/policy.py), written once for both engines: decisions
worked out by hand from the rules' figures on positions set up by hand, and the same games
from the reference engine (the built-ins asked through views) as from the fast machine
(compiled)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rapa_nui_reference import OPTIONS

from moaisim.games.rapa_nui.engine.answers import heuristic_answers
from moaisim.games.rapa_nui.engine.batch import Batch
from moaisim.games.rapa_nui.engine.decisions import Kind, action_size
from moaisim.games.rapa_nui.engine.policy import NAMES, greedy_weights
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.views import SeatView
from moaisim.games.rapa_nui.rules.codes import (
    BUY_NOTHING,
    FISH,
    GRAIN,
    LUMBERJACK,
    MOAI,
    MULBERRY,
    PLAY_LUMBERJACK,
    PLAY_MOAI,
    PLAY_PRIEST,
    PRIEST,
    SWEET_POTATO,
    offering,
    play_hg,
)
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.rng import SeatRandom
from moaisim.strategies.rapa_nui.base import Strategy
from moaisim.strategies.rapa_nui.greedy import GreedyStrategy
from moaisim.strategies.rapa_nui.heuristic import HeuristicStrategy, defaults

RULES = Rules.make(3)


def view(kind: Kind, legal: list[int], seat: int = 0, **given: object) -> SeatView:
    """A one-game view of a 3-player game set up by hand: every field at a quiet default
    (empty villages but a lumberjack each, no wood, a full display of lumberjacks, a pile of
    20), then `given`."""
    p, c = RULES.players, RULES.components
    fields: dict[str, object] = {
        "turn": 3, "active": seat, "hand": [0] * 7, "stock": [0] * 4, "own_down": [0] * 4,
        "village": [[1, 0, 0, 0, 0, 0, 0] for _ in range(p)], "wood": [0] * p,
        "glory": [0] * p, "hand_size": [3] * p, "stock_size": [0] * p, "down": [0] * p,
        "taken": [[0] * 7 for _ in range(p)], "played": [[0] * 7 for _ in range(p)],
        "discarded": [[0] * 7 for _ in range(p)], "bought": [[0] * 4 for _ in range(p)],
        "gained": [[0] * 4 for _ in range(p)], "given": [[0] * 4 for _ in range(p)],
        "display": [[LUMBERJACK] * c.depth for _ in range(c.columns)],
        "column_size": [c.depth] * c.columns, "pile": 20, "supply": [20] * 4,
        "stone": [0] * 4, "revealed": -1, "passes": 0, "first_column": -1,
    }  # fmt: skip
    fields.update(given)
    mask = np.zeros((1, action_size(RULES, kind)), dtype=bool)
    mask[0, legal] = True
    rng = SeatRandom(np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64))
    arrays = {k: np.asarray([v]) for k, v in fields.items()}
    return SeatView(RULES, seat, kind, mask, {}, rng, arrays)


def greedy(v: SeatView) -> int:
    return int(heuristic_answers(v, greedy_weights(RULES.components.wood_per_glory))[0])


def heuristic(v: SeatView, **weights: float) -> int:
    w = np.array([{**defaults(), **weights}[k] for k in NAMES])
    return int(heuristic_answers(v, w)[0])


def test_greedy_plays_a_moai_it_can_pay_r4_1_r9_1():
    # a Moai: 4 glory at the end less 7 wood at 1/5 glory each = +2.6; a lumberjack or a
    # priest scores nothing now
    hand = [1, 1, 1, 0, 0, 0, 0]
    legal = [PLAY_LUMBERJACK, PLAY_PRIEST, PLAY_MOAI]
    assert greedy(view(Kind.PLAY, legal, hand=hand, wood=[7, 0, 0])) == PLAY_MOAI


def test_greedy_buys_the_type_ranked_first_on_the_stone_r3_2_r9_2():
    # stone: fish 2, mulberry 1 -> a fish card is worth 3 glory, mulberry 2, the tied sweet
    # potato and grain (both 0 cards) 1 under `high`; each costs 5 wood = 1 glory
    v = view(Kind.BUY, [BUY_NOTHING, 1 + FISH, 1 + MULBERRY, 1 + SWEET_POTATO],
             wood=[5, 0, 0], stone=[2, 1, 0, 0])  # fmt: skip
    assert greedy(v) == 1 + FISH
    # the seat's own H&G make the price lower (R3.2): 5 - 5 H&G = 0 for sweet potatoes,
    # worth 1 glory, against fish 3 - 1 = 2: fish still
    village = [[1, 0, 0, 0, 0, 5, 0], [1] + [0] * 6, [1] + [0] * 6]
    assert greedy(view(Kind.BUY, [BUY_NOTHING, 1 + FISH, 1 + SWEET_POTATO], wood=[5, 0, 0],
                       stone=[2, 1, 0, 0], village=village)) == 1 + FISH  # fmt: skip


def test_greedy_buys_nothing_when_a_card_is_worth_less_than_its_price():
    # on an empty stone the four types tie for places 1-4 (values 3, 2, 1, 0): under `high`
    # a card is worth 3 for 5 wood = 1 glory, bought; under `low` it is worth 0: not bought
    low = Rules.make(3, sacrifice_tie="low")
    v = view(Kind.BUY, [BUY_NOTHING, 1 + FISH], wood=[5, 0, 0])
    assert greedy(v) == 1 + FISH
    v_low = SeatView(low, 0, Kind.BUY, v.legal, {}, v.rng,
                     {k: getattr(v, k) for k in v.__dict__ if k in _fields()})  # fmt: skip
    assert int(heuristic_answers(v_low, greedy_weights(5))[0]) == BUY_NOTHING


def _fields() -> set[str]:
    from moaisim.games.rapa_nui.engine.views import FIELDS

    return set(FIELDS)


def test_greedy_takes_the_column_whose_revealed_card_pays_it_most_r6_5_r7():
    # the seat's last take (hand 2 of 3): column 0 reveals a priest (it has 2, the sole
    # majority: 2 + 2 bonus = 4 glory), column 1 a lumberjack (1 + 0: rivals tie it at 1,
    # so no bonus: 1 wood = 0.2), columns 2 and 3 a Moai nobody has (0)
    c = RULES.components
    display = [[LUMBERJACK] * c.depth for _ in range(c.columns)]
    display[0][c.depth - 2] = PRIEST
    display[2][c.depth - 2] = MOAI
    display[3][c.depth - 2] = MOAI
    village = [[1, 2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]]
    v = view(Kind.TAKE, [0, 1, 2, 3], hand=[0, 0, 0, 0, 1, 1, 0], display=display,
             village=village)  # fmt: skip
    assert greedy(v) == 0


def test_the_sacrifice_goes_face_up_where_it_raises_the_seats_own_stock_r5_1_r9_2():
    # stock: 3 fish, 1 grain; stone: mulberry 1. Giving a fish puts fish level with mulberry
    # at 1 (places 1-2, worth 3 under `high`), grain at 0 with sweet potato (places 3-4,
    # worth 1): 2 fish x 3 + 1 grain x 1 = 7. Giving the grain: grain and mulberry at 1,
    # fish at 0 (worth 1): 3 fish x 1 = 3. Fish it is.
    v = view(Kind.SACRIFICE, [FISH, GRAIN], seat=1, active=0, stock=[3, 0, 0, 1],
             stone=[0, 1, 0, 0])  # fmt: skip
    assert greedy(v) == FISH


def test_the_builder_puts_its_face_down_card_and_the_supplys_where_its_stock_gains():
    # the builder's stock: 2 grain, 1 fish; stone empty. Its fish face down and a grain up:
    # fish and grain at 1, tied first (3 each): 2 grain x 3 = 6. Its grain down and a fish
    # up leaves 1 fish + 1 grain at 3 each = 6 too; any other pair less (e.g. both grain:
    # grain 3, fish 0 at places 2-4 worth 2: 3 + 2 = 5). Of the two best, the first in D5's
    # numbering (4 x down + up): fish down, grain up.
    v = view(Kind.OFFERING, [offering(d, s) for d in (FISH, GRAIN) for s in range(4)],
             stock=[1, 0, 0, 2])  # fmt: skip
    d, s = divmod(greedy(v), 4)
    assert (d, s) == (FISH, GRAIN)


def test_moai_income_is_taken_as_glory_unless_the_wood_pays_a_moai_in_hand_r7_4():
    # 3 Moai pay 3 units: greedy values a wood at 0.2, a glory at 1: all glory
    assert greedy(view(Kind.MOAI_INCOME, [0, 1, 2, 3])) == 3
    # the heuristic with a Moai in hand, 5 wood of 7: 2 units of wood are worth
    # wood + need each; at need 1.0 that beats a glory, the third unit is glory
    v = view(Kind.MOAI_INCOME, [0, 1, 2, 3], hand=[0, 0, 1, 0, 0, 0, 0], wood=[5, 0, 0])
    assert heuristic(v, wood=0.35, need=1.0) == 1
    assert heuristic(v, wood=0.35, need=0.0) == 3


def test_the_heuristic_values_an_income_card_early_and_greedy_never_does():
    legal = [PLAY_LUMBERJACK, PLAY_PRIEST, play_hg(FISH, 1)]
    hand = [1, 1, 0, 1, 0, 0, 0]
    v = view(Kind.PLAY, legal, hand=hand)
    # greedy: lumberjack and priest both 0 now, an H&G free (group cost 0): the first best
    assert greedy(v) == PLAY_LUMBERJACK
    # the heuristic: a priest (3 x the pile to come + the sole majority's 1.5) beats all
    assert heuristic(v) == PLAY_PRIEST
    # ...and with priests worthless and H&G valued, the H&G
    assert heuristic(v, priest=0.0, hg=5.0, majority=0.0) == play_hg(FISH, 1)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTIONS)
def test_the_built_ins_play_the_same_games_in_both_engines(players, seed, options):
    rules = Rules.make(players, **options)
    seats = [GreedyStrategy, HeuristicStrategy, Strategy, HeuristicStrategy][:players]
    table = Batch(rules, seed, np.arange(4)).play([s() for s in seats])
    for i in range(4):
        g = ReferenceGame(rules, [s() for s in seats], seed=seed, game=i)
        g.play()
        assert table["score"].to_numpy()[i * players : (i + 1) * players].tolist() == g.scores


def test_the_machine_plays_the_built_ins_compiled_and_a_subclass_through_views():
    assert GreedyStrategy().compiled(RULES) == "heuristic"
    assert HeuristicStrategy().compiled(RULES) == "heuristic"
    assert Strategy().compiled(RULES) == "random"

    class Mine(HeuristicStrategy):
        def buy(self, view: SeatView) -> np.ndarray:
            return np.zeros(len(view), dtype=np.int64)  # never buys

    assert Mine().compiled(RULES) is None
    mine = Batch(RULES, 3, np.arange(5)).play([Mine(), GreedyStrategy(), GreedyStrategy()])
    assert mine.loc[mine["seat"] == 0, "bought"].eq(0).all()


def test_weights_are_checked_in_one_line():
    from moaisim.errors import UnknownStrategyError

    with pytest.raises(UnknownStrategyError, match="unknown weight 'woood'"):
        HeuristicStrategy(weights={"woood": 1.0})
    with pytest.raises(UnknownStrategyError, match="must be a number"):
        HeuristicStrategy(weights={"wood": "a lot"})
    assert HeuristicStrategy(weights={"wood": 0.5}).w[NAMES.index("wood")] == 0.5
