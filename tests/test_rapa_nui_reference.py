"""Rapa Nui's reference engine against the rules book (docs/rapa-nui-rules.md): scenario
tests whose expected values are worked out by hand from the rules, and properties over many
seeded games (conservation of cards and sacrifice cards, hand sizes, never negative)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moaisim.errors import RulesError, StrategyError
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.forward import Games
from moaisim.games.rapa_nui.engine.reference import ReferenceGame, deal, deck
from moaisim.games.rapa_nui.rules.codes import (
    FISH,
    GRAIN,
    HG,
    LUMBERJACK,
    MOAI,
    MULBERRY,
    PRIEST,
    SWEET_POTATO,
    offering,
    play_hg,
)
from moaisim.games.rapa_nui.rules.model import Rules
from moaisim.games.rapa_nui.rules.options import OPTIONS as RULE_OPTIONS
from moaisim.games.rapa_nui.rules.scoring import bonus_holders, sacrifice_price, type_values
from moaisim.strategies.rapa_nui.base import Strategy


class Script(Strategy):
    """A seat that answers from a script, kind by kind, in order (and fails when asked a
    question it has no answer for: the test then says which)."""

    def __init__(self, **answers: Iterable[int]) -> None:
        self.answers = {k: list(v) for k, v in answers.items()}
        self.asked: list[tuple[str, list[int]]] = []

    def answer(self, kind: str, view) -> np.ndarray:  # noqa: ANN001
        self.asked.append((kind, np.flatnonzero(view.legal[0]).tolist()))
        left = self.answers.get(kind)
        if not left:
            raise AssertionError(f"seat {view.seat} asked {kind} with no scripted answer")
        return np.array([left.pop(0)])


class Checked(Strategy):
    """A random seat that checks the game's invariants (`invariants`) whenever it is asked."""

    def __init__(self, games: list[ReferenceGame]) -> None:
        self.games = games

    def answer(self, kind: str, view) -> np.ndarray:  # noqa: ANN001
        if self.games:  # (the set-up's questions come before the game is listed)
            invariants(self.games[0])
        return getattr(Strategy, kind)(self, view)


for _kind in Kind:  # every decision method asks `answer`
    setattr(Script, _kind.value, lambda self, view, k=_kind.value: self.answer(k, view))
    setattr(Checked, _kind.value, lambda self, view, k=_kind.value: self.answer(k, view))


def game(players: int = 3, strategies=None, **options: str) -> ReferenceGame:  # noqa: ANN001
    rules = Rules.make(players, **options)
    return ReferenceGame(rules, strategies or [Strategy() for _ in range(players)], seed=5)


# --- R3: buying -------------------------------------------------------------------------------
def test_r3_2_price_falls_by_one_per_own_hg_and_is_free_from_five():
    assert [sacrifice_price(5, n) for n in range(7)] == [5, 4, 3, 2, 1, 0, 0]


def test_r3_2_a_seat_with_five_fish_hg_buys_fish_free():
    seat = Script(buy=[1 + FISH], play=[0], take=[0])
    g = game(2, [seat, Strategy()])
    t = g.t
    t.village[0][HG + FISH] = 5
    t.wood[0] = 0
    t.hand[0] = [1, 0, 0, 0, 0, 0, 0]  # a lumberjack only
    g.buy(0)
    assert t.stock[0] == [2, 1, 1, 1] and t.wood[0] == 0 and t.supply[FISH] == 25 - 2 - 1
    assert seat.asked[0] == ("buy", [0, 1])  # nothing, or free fish; the rest cost 5


# --- R4: playing ------------------------------------------------------------------------------
@pytest.mark.parametrize(("option", "costs"), [("0/1/2", (0, 1, 2)), ("0/1/3", (0, 1, 3))])
def test_r4_1_a_group_of_hg_costs_one_wood_per_card_beyond_the_first(option, costs):
    for k, cost in enumerate(costs, start=1):
        seat = Script(play=[play_hg(GRAIN, k)])
        g = game(2, [seat, Strategy()], hg_group_cost=option)
        t = g.t
        t.hand[0] = [0, 0, 0, 0, 0, 0, 3]
        t.wood[0] = 10
        assert g.play_cards(0) == k  # R4.4: as many to take as were played
        assert t.wood[0] == 10 - cost and t.village[0][HG + GRAIN] == k


def test_r4_1_a_play_the_seat_cannot_pay_is_not_offered():
    seat = Script(play=[PRIEST])
    g = game(2, [seat, Strategy()])
    t = g.t
    t.hand[0] = [0, 1, 1, 0, 0, 0, 2]
    t.wood[0] = 0
    g.play_cards(0)
    # a priest, one grain H&G; not the Moai (7 wood), not two grain (1 wood)
    assert seat.asked == [("play", [PRIEST, play_hg(GRAIN, 1)])]


def test_r4_3_a_stuck_hand_discards_out_of_the_game_and_takes_one_card():
    g = game(2)
    t = g.t
    t.hand[0] = [0, 0, 3, 0, 0, 0, 0]  # three Moai
    t.wood[0] = 6
    assert g.play_cards(0) == 1
    assert t.hand[0][MOAI] == 2 and t.out[MOAI] == 1 and t.discarded[0][MOAI] == 1


def test_r4_5_a_whole_round_of_passes_ends_the_game():
    g = game(2, stuck_hand="pass")
    for q in (0, 1):
        g.t.hand[q] = [0, 0, 3, 0, 0, 0, 0]
        g.t.wood[q] = 0
        g.t.supply = [0, 0, 0, 0]  # nothing to buy
    g.play_turn()
    assert not g.over and g.t.hand[0][MOAI] == 3
    g.play_turn()
    assert g.over and g.t.passes == 2


# --- R5: the sacrifice round ------------------------------------------------------------------
def test_r5_the_round_goes_clockwise_from_the_left_and_ends_with_the_builder():
    s0 = Script(sacrifice=[MULBERRY])
    s1 = Script(play=[MOAI], offering=[offering(GRAIN, SWEET_POTATO)])
    s2 = Script(sacrifice=[FISH])
    g = game(3, [s0, s1, s2])
    t = g.t
    t.hand[1] = [0, 0, 1, 0, 0, 0, 0]
    t.wood[1] = 7
    g.play_cards(1)
    order = [e["e"] + str(e.get("seat")) for e in g.events if e["e"] not in ("deal", "decision")]
    assert order == ["play1", "sacrifice2", "sacrifice0", "offering_down1", "offering_up1"]
    assert t.stone == [1, 1, 1, 0]  # fish (seat 2), mulberry (seat 0), sweet potato (supply)
    assert t.down[1] == [0, 0, 0, 1] and t.stock[1] == [1, 1, 1, 0] and t.wood[1] == 0
    assert t.supply == [25 - 3, 25 - 3, 25 - 3 - 1, 25 - 3]


def test_r5_3_an_empty_stock_gives_nothing_and_the_supply_card_still_comes():
    s1 = Script(play=[MOAI], offering=[offering(0, FISH)])
    g = game(2, [Strategy(), s1])
    t = g.t
    t.hand[1] = [0, 0, 1, 0, 0, 0, 0]
    t.wood[1] = 9
    t.stock[0] = [0, 0, 0, 0]
    t.stock[1] = [0, 0, 0, 0]
    g.play_cards(1)
    assert t.stone == [1, 0, 0, 0] and sum(t.down[1]) == 0
    assert s1.asked[-1] == ("offering", [offering(0, f) for f in range(4)])


# --- R6: the refill ---------------------------------------------------------------------------
def test_r6_3_an_emptied_column_is_refilled_and_its_bottom_card_revealed():
    seat = Script(take=[2])
    g = game(2, [seat, Strategy()])
    t = g.t
    t.hand[0] = [0, 0, 0, 0, 0, 1, 1]
    t.columns[2] = [PRIEST]
    t.pile = [LUMBERJACK, MOAI, HG + FISH, PRIEST, LUMBERJACK]
    emptied = g.refill(0, 1)
    assert t.hand[0][PRIEST] == 1 and not emptied
    assert t.columns[2] == [LUMBERJACK, MOAI, HG + FISH, PRIEST]  # the last drawn at bottom
    assert t.revealed == PRIEST and t.pile == [LUMBERJACK]


def test_r6_3_the_short_last_refill_gets_what_is_left_and_ends_the_pile():
    for bottom, revealed in (("last", MOAI), ("first", LUMBERJACK)):
        seat = Script(take=[0])
        g = game(2, [seat, Strategy()], refill_bottom=bottom)
        t = g.t
        t.hand[0] = [0, 0, 0, 0, 0, 1, 1]
        t.columns[0] = [PRIEST]
        t.pile = [LUMBERJACK, MOAI]
        assert g.refill(0, 1) is True  # R8.1: the pile ran out this turn
        assert len(t.columns[0]) == 2 and t.revealed == revealed and t.pile == []


def test_r6_5_a_last_take_that_empties_an_unrefilled_column_reveals_nothing():
    seat = Script(take=[1, 3])
    g = game(2, [seat, Strategy()])
    t = g.t
    t.hand[0] = [0, 0, 0, 0, 0, 0, 1]
    t.columns = [[], [MOAI, PRIEST], [], [LUMBERJACK]]
    t.pile = []
    g.refill(0, 2)
    assert t.hand[0][PRIEST] == 1 and t.hand[0][LUMBERJACK] == 1 and t.revealed == -1


@pytest.mark.parametrize(("option", "questions"), [("any", 2), ("same", 1)])
def test_r6_2_under_same_the_takes_stay_in_the_first_column(option, questions):
    seat = Script(take=[1, 3])
    g = game(2, [seat, Strategy()], refill_columns=option)
    t = g.t
    t.hand[0] = [0, 0, 0, 0, 0, 0, 1]
    one, three = list(t.columns[1]), list(t.columns[3])
    g.refill(0, 2)
    assert len(seat.asked) == questions  # under `same` the second take is forced
    if option == "same":
        assert t.columns[1] == one[:-2] and t.columns[3] == three
    else:
        assert t.columns[1] == one[:-1] and t.columns[3] == three[:-1]


# --- R7: evaluation ---------------------------------------------------------------------------
def test_r7_6_a_sole_majority_takes_the_bonus_and_a_tie_takes_none():
    assert bonus_holders([2, 1, 0]) == [0]
    assert bonus_holders([2, 2, 0]) == []
    assert bonus_holders([2, 2, 0], "shared") == [0, 1]
    assert bonus_holders([0, 0, 0], "shared") == []


def test_r7_2_lumberjacks_pay_wood_and_the_sole_majority_two_more():
    g = game(3)
    t = g.t
    t.village = [[3, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]]
    t.wood = [0, 0, 0]
    g.evaluate(LUMBERJACK)
    assert t.wood == [3 + 2, 1, 0]
    t.village[1][LUMBERJACK] = 3
    g.evaluate(LUMBERJACK)  # tied: no bonus
    assert t.wood == [5 + 3, 1 + 3, 0]


def test_r7_4_moai_pay_each_seat_its_choice_then_the_bonus_choice():
    s0, s1 = Script(moai_income=[1], bonus=[2]), Script(moai_income=[0])
    g = game(2, [s0, s1])
    t = g.t
    t.village[0][MOAI], t.village[1][MOAI] = 2, 1
    t.wood, t.glory = [0, 0], [0, 0]
    g.evaluate(MOAI)
    assert t.glory == [1 + 2, 0] and t.wood == [1, 1]
    assert [k for k, _ in s0.asked] == ["moai_income", "bonus"]


def test_r7_8_a_short_stack_pays_in_turn_order_from_the_active_seat_then_the_bonus():
    g = game(3)
    t = g.t
    t.active = 1
    t.village = [[1, 0, 0, 1, 0, 0, 0], [1, 0, 0, 2, 0, 0, 0], [1, 0, 0, 1, 0, 0, 0]]
    t.supply[FISH] = 2
    before = [list(s) for s in t.stock]
    g.evaluate(HG + FISH)
    got = [t.stock[q][FISH] - before[q][FISH] for q in range(3)]
    assert got == [0, 1, 1] and t.supply[FISH] == 0  # seats 1, 2 paid; seat 0 and the bonus not


def test_r7_5_per_card_income_pays_each_hg_and_the_bonus_card():
    g = game(2, hg_income="per_card")
    t = g.t
    t.village = [[1, 0, 0, 0, 3, 0, 0], [1, 0, 0, 0, 1, 0, 0]]
    g.evaluate(HG + MULBERRY)
    assert [s[MULBERRY] for s in t.stock] == [1 + 3 + 1, 1 + 1]


# --- R8: the end ------------------------------------------------------------------------------
@pytest.mark.parametrize("timing", ["turn", "round"])
def test_r8_the_game_ends_with_the_turn_or_the_round_the_pile_runs_out(timing):
    g = game(3, end_timing=timing)
    while not g.t.pile_out:
        g.play_turn()
    last = (g.t.active - 1) % 3  # the seat whose turn emptied the pile
    if timing == "turn" or last == 2:
        assert g.over
    else:
        while not g.over:
            g.play_turn()
        assert (g.t.active - 1) % 3 == 2  # the round's last seat played last


# --- R9: scoring ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stone", "tie", "values"),
    [
        ([5, 5, 2, 1], "high", [3, 3, 1, 0]),
        ([5, 5, 2, 1], "low", [2, 2, 1, 0]),
        ([5, 5, 2, 1], "split", [2, 2, 1, 0]),
        ([4, 2, 2, 0], "high", [3, 2, 2, 0]),
        ([4, 2, 2, 0], "low", [3, 1, 1, 0]),
        ([4, 2, 2, 0], "split", [3, 1, 1, 0]),
        ([0, 3, 1, 3], "high", [0, 3, 1, 3]),
        ([1, 1, 1, 1], "split", [1, 1, 1, 1]),
    ],
)
def test_r9_3_types_tied_on_the_stone_share_a_value(stone, tie, values):
    assert type_values(stone, [3, 2, 1, 0], tie) == values


@pytest.mark.parametrize(
    ("tie", "values"),
    [("high", [0, 0, 2, 3]), ("low", [1, 1, 2, 3]), ("split", [0, 0, 2, 3])],
)
def test_r9_3_tied_types_take_the_value_at_their_places_not_the_largest(tie, values):
    """R9.3 (second edition): a place, not a size. With values [0, 1, 2, 3] (ascending), the
    two types tied first (5 cards each) share places 0 and 1: `high` takes place 0's value 0
    (the largest, 1, was taken before), `low` place 1's value 1, `split` (0 + 1) // 2 = 0."""
    assert type_values([5, 5, 2, 1], [0, 1, 2, 3], tie) == values


def test_r9_3_an_ascending_values_list_scores_by_place_in_both_engines():
    """A component set whose sacrifice values ascend ([0, 1, 2, 3]): the final score of a
    position (stone fish 5, mulberry 5, potato 2, grain 1: values 0, 0, 2, 3) counts 0 for the
    tied leaders' cards, and the two engines score whole games alike under it."""
    comps = replace(Rules.make(2).components, sacrifice_values=(0, 1, 2, 3))
    rules = replace(Rules.make(2), components=comps)
    g = ReferenceGame(rules, [Strategy(), Strategy()], seed=1, game=0)
    t = g.t
    t.glory, t.wood, t.village[0][MOAI], t.village[1][MOAI] = [0, 0], [0, 0], 0, 0
    t.stock = [[4, 1, 0, 0], [0, 0, 2, 1]]
    t.stone, t.down = [5, 5, 2, 1], [[0] * 4, [0] * 4]
    assert g.score() == [0 * 4 + 0 * 1, 2 * 2 + 3 * 1]
    batch = Games.new(rules, 4, np.arange(6)).play([Strategy(), Strategy()]).results()
    ref = []
    for i in range(6):
        one = ReferenceGame(rules, [Strategy(), Strategy()], seed=4, game=i)
        one.play()
        ref += list(one.scores or [])
    assert batch["score"].tolist() == ref


def test_r9_1_the_score_adds_glory_moai_wood_and_stock():
    g = game(2)
    t = g.t
    t.glory = [7, 0]
    t.village[0][MOAI] = 2
    t.wood = [14, 4]
    t.stock = [[2, 1, 0, 0], [0, 0, 0, 3]]
    t.stone = [3, 1, 0, 0]
    t.down = [[0, 0, 1, 0], [0, 0, 0, 0]]  # stone: fish 3, mulberry 1, potato 1, grain 0
    # values: fish 3, mulberry and sweet potato tied at 1 card (2), grain 0
    assert g.score() == [7 + 8 + 2 + 2 * 3 + 1 * 2, 0 + 0 + 0 + 0]


# --- R1: set-up -------------------------------------------------------------------------------
def test_r1_the_setup_deals_sixteen_cards_and_the_start_sets():
    g = game(4)
    t, c = g.t, g.rules.components
    assert [len(col) for col in t.columns] == [4, 4, 4, 4] and len(t.pile) == 50 - 16
    assert t.wood == [2, 3, 4, 5] and all(v[LUMBERJACK] == 1 for v in t.village)
    assert [h[HG:] for h in t.hand] == [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    assert all(s == [1, 1, 1, 1] for s in t.stock) and t.supply == [21] * 4
    assert sorted(sum(t.columns, []) + t.pile) == sorted(deck(g.rules)) and c.n_cards == 50


def test_r1_3_by_column_and_by_row_place_the_same_cards_differently():
    cards = list(range(16)) + [99]
    rules = Rules.make(2)
    cols, pile = deal(rules, cards)
    assert cols[0] == [0, 1, 2, 3] and cols[3] == [12, 13, 14, 15] and pile == [99]
    cols, _ = deal(Rules.make(2, display_deal="by_row"), cards)
    assert cols[0] == [0, 4, 8, 12] and cols[3] == [3, 7, 11, 15]


def test_the_deal_is_the_same_under_every_option_and_parameter():
    base = game(3).t
    other = ReferenceGame(Rules.make(3, end_timing="round", params={"moai_cost": 6}),
                          [Strategy()] * 3, seed=5).t  # fmt: skip
    assert base.columns == other.columns and base.pile == other.pile


# --- properties over many games ---------------------------------------------------------------
#: Every rule option (section O) at any of its values.
OPTIONS = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in RULE_OPTIONS.items()})


def invariants(g: ReferenceGame) -> None:
    t, c, p = g.t, g.rules.components, g.rules.players
    cards = [0] * 7
    for q in range(p):
        for k in range(7):
            cards[k] += t.hand[q][k] + t.village[q][k]
    for col in t.columns:
        for k in col:
            cards[k] += 1
    for k in t.pile:
        cards[k] += 1
    start = [c.start_lumberjacks * p, 0, 0] + [sum(g.rules.start_hand(q)[HG + f]
                                                 for q in range(p)) for f in range(4)]  # fmt: skip
    full = [c.lumberjacks, c.priests, c.moai, *c.hunter_gatherers]
    assert [cards[k] + t.out[k] for k in range(7)] == [full[k] + start[k] for k in range(7)]
    for f in range(4):  # C3: every sacrifice card is in the supply, a stock or on the stone
        held = t.supply[f] + t.stone[f] + sum(t.stock[q][f] + t.down[q][f] for q in range(p))
        assert held == c.supply, (f, held)
    assert all(w >= 0 for w in t.wood) and all(x >= 0 for x in t.glory)
    assert all(n >= 0 for s in t.stock for n in s) and all(n >= 0 for h in t.hand for n in h)
    assert all(sum(h) <= c.hand for h in t.hand)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTIONS)
def test_cards_and_sacrifice_cards_are_conserved_and_nothing_goes_negative(players, seed,
                                                                           options):  # fmt: skip
    ref: list[ReferenceGame] = []
    rules = Rules.make(players, **options)
    g = ReferenceGame(rules, [Checked(ref) for _ in range(players)], seed=seed)
    ref.append(g)
    g.play()
    scores = g.scores
    invariants(g)
    assert scores is not None and len(scores) == players and all(s >= 0 for s in scores)
    assert 1 <= len(g.winners()) <= players


def test_the_same_seed_and_game_play_the_same_game():
    a, b = game(3), game(3)
    assert a.play() == b.play() and a.scores == b.scores


# --- mistakes ---------------------------------------------------------------------------------
def test_a_strategy_answering_an_illegal_action_is_one_clear_error():
    class Bad(Strategy):
        def buy(self, view):  # noqa: ANN001, ANN202
            return np.array([99])

    g = game(2, [Bad(), Bad()])
    with pytest.raises(StrategyError, match="illegal action 99"):
        g.play()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"players": 3, "end_timing": "never"}, "end_timing"),
        ({"players": 3, "variants": "demon"}, "no known rules"),
        ({"players": 3, "params": {"moai_cost": 99}}, "outside"),
        ({"players": 3, "params": {"wood_supply": 3}}, "unknown rule parameter"),
    ],
)
def test_bad_rules_are_one_line_errors(kwargs, message):
    with pytest.raises(RulesError, match=message):
        Rules.make(**kwargs)


# --- the results table ------------------------------------------------------------------------
def test_r9_4_ranks_and_win_shares_by_score_and_under_most_wood_by_wood():
    from moaisim.games.rapa_nui.engine.results import ranks_and_shares

    assert ranks_and_shares([30, 30, 10], [1, 4, 9], "share") == ([1, 1, 3], [0.5, 0.5, 0.0])
    assert ranks_and_shares([30, 30, 10], [1, 4, 9], "most_wood") == ([2, 1, 3], [0, 1.0, 0])
    assert ranks_and_shares([5, 5], [2, 2], "most_wood") == ([1, 1], [0.5, 0.5])


def test_a_played_games_rows_add_their_parts_up_to_the_score():
    from moaisim.games.rapa_nui.engine.results import COLUMNS, PARTS, frame, seat_rows

    g = game(4)
    g.play()
    df = frame(seat_rows(g.state, 5, 0, ["random"] * 4))
    assert list(df.columns) == list(COLUMNS) and len(df) == 4
    assert df["score"].tolist() == g.scores
    assert (df[list(PARTS)].sum(axis=1) == df["score"]).all()
    assert df["win_share"].sum() == pytest.approx(1.0)
    assert set(df["setup"]) == {"base"} and (df["moai_cost"] == 7).all()
    assert (df["lumberjacks"] >= 1).all() and (df["game_turns"] == g.t.turn).all()


def test_the_log_in_words_tells_a_moai_and_its_sacrifice_round():
    from moaisim.games.rapa_nui.engine.events import narrate

    s0 = Script(sacrifice=[MULBERRY])
    s1 = Script(play=[MOAI], offering=[offering(GRAIN, SWEET_POTATO)])
    g = game(2, [s0, s1])
    g.t.hand[1] = [0, 0, 1, 0, 0, 0, 0]
    g.t.wood[1] = 8
    g.log("turn", turn=1, seat=1)  # the play step alone, in a turn opened by hand
    g.play_cards(1)
    text = narrate(g.events[1:]).splitlines()
    assert text == [
        "Turn 1, P1: plays a Moai (7 wood).",
        "    sacrifice round: P0 gives mulberry, P1 lays grain face down, "
        "P1 adds sweet potato from the supply.",
    ]
