"""R7 review: draw (R7.1), rest (R7.2), births (R7.3), boat (R7.4).

Card types: 0, 1, 2 = values 1, 2, 3; 3, 4, 5 = Raid 1, 2, 3. Birth actions index
`BIRTH_PAIRS` (pairs of card types); BIRTH_STOP stops. Pawn index i has strength i // 6 + 1.
"""

import numpy as np
import pytest
from scenario import build_boat, card_id, done, events, give, put, scenario, script
from test_production import GREEN, RED, YELLOW, legal_sets, rulebook_board

from moaisim.games.moai.engine.chance import Chance
from moaisim.games.moai.engine.decisions import BIRTH_PAIRS, BIRTH_STOP
from moaisim.games.moai.rules import CAMP, RESERVE
from moaisim.rng import Streams

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

F1, F2, F3 = 0, 1, 2


def birth(a, b):
    """Birth action discarding card types a and b."""
    return BIRTH_PAIRS.index((min(a, b), max(a, b)))


def camp_strengths(g, seat):
    s = g.state
    return sorted(int(x) for x in s.strength[s.camp(seat)])


# --- the rulebook's example -------------------------------------------------------------------


def test_r7_rulebook_review_example_draw_rest_births_and_reds_boat():
    """The rulebook's production then review example. Yellow's line ("two births, playing a 2
    and two 3s, taking pawns of 1 and 3") needs a fourth card, a 1 (R7.3): Yellow kept a 1
    from its hand, so {1, 2} gives the 1 and {3, 3} gives the 3."""
    g, p = rulebook_board()
    give(g, YELLOW, c1=1)  # the card the rulebook's line leaves out
    s, lay = g.state, g.rules.layout
    stop = lay.volcano
    script(g, RED, ("forest_tie", RED), ("finish_moai", stop))
    script(g, YELLOW, ("finish_moai", 0))
    script(g, GREEN, ("finish_moai", 0))
    g.production_phase()
    assert s.wood.tolist() == [1, 0, 0] and s.wood_supply == 14
    # draws: Red 1 1 3, Yellow 2 3 3, Green 2 3
    s.deck = [0, 0, 2, 1, 2, 2, 1, 2]
    red_f1, yellow_v2, green_f2 = p.red_forest[1], p.yellow_volcano[0], p.green_forest[0]
    script(
        g, RED,
        ("rest", red_f1),  # a face-up 1 from the forest
        ("rest", p.red_volcano[0]),  # an unrevealed pawn from the volcano
        ("birth", birth(0, 0)),  # two 1s: a 1
        ("boat", 1),  # pays its wood, keeps the boat card
    )  # fmt: skip
    script(
        g, YELLOW,
        ("rest", p.yellow_forest[0]),  # unrevealed, from the forest
        ("rest", yellow_v2),  # a 2 from the volcano
        ("rest", p.yellow_fields[0]),  # a 3 from the fields
        ("birth", birth(0, 1)),  # the 1 and the 2: a 1
        ("birth", birth(2, 2)),  # two 3s: a 3
    )  # fmt: skip
    script(
        g, GREEN,
        ("rest", green_f2),  # a 2 from the forest
        ("rest", p.green_volcano[0]),  # a 2 from the volcano
        ("rest", p.green_fields[0]),  # a 3 from the fields
        ("birth", birth(1, 2)),  # a 2 and a 3: a 2
    )  # fmt: skip
    g.review_phase()
    done(g)

    # R7.1 draws by the epoch card's draw number (3, 3, 2)
    assert [(e["seat"], e["cards"]) for e in events(g, "draw")] == [
        (RED, [0, 0, 2]), (YELLOW, [1, 2, 2]), (GREEN, [1, 2]),
    ]  # fmt: skip
    assert s.deck == []
    # R7.2 rest: hut 2, 3, 3, never a second pawn from a zone before one from each other zone
    red_board = set(p.red_forest + p.red_fields + p.red_volcano)
    assert legal_sets(g, RED, "rest") == [red_board, set(p.red_fields + p.red_volcano)]
    yellow_board = set(p.yellow_forest + p.yellow_fields + p.yellow_volcano)
    assert legal_sets(g, YELLOW, "rest") == [
        yellow_board, set(p.yellow_fields + p.yellow_volcano), set(p.yellow_fields),
    ]  # fmt: skip
    green_board = set(p.green_forest + p.green_fields + p.green_volcano)
    assert legal_sets(g, GREEN, "rest") == [
        green_board, set(p.green_fields + p.green_volcano), set(p.green_fields),
    ]  # fmt: skip
    shown = [(e["seat"], e["shown"]) for e in events(g, "rest")]
    assert shown == [
        (RED, True), (RED, False),
        (YELLOW, False), (YELLOW, True), (YELLOW, True),
        (GREEN, True), (GREEN, True), (GREEN, True),
    ]  # fmt: skip
    rested = [(RED, red_f1), (YELLOW, yellow_v2), (GREEN, green_f2)]
    assert all(s.loc[q, i] == CAMP and not s.up[q, i] for q, i in rested)
    # R7.3 births at the lower card's strength
    assert legal_sets(g, RED, "birth") == [{birth(0, 0), birth(0, 2), BIRTH_STOP}]
    assert legal_sets(g, YELLOW, "birth") == [
        {birth(0, 1), birth(0, 2), birth(1, 2), birth(2, 2), BIRTH_STOP},
        {birth(2, 2), BIRTH_STOP},
    ]
    assert legal_sets(g, GREEN, "birth") == [{birth(1, 2), BIRTH_STOP}]
    assert [(e["seat"], e["cards"], e["strength"]) for e in events(g, "birth")] == [
        (RED, [0, 0], 1), (YELLOW, [0, 1], 1), (YELLOW, [2, 2], 3), (GREEN, [1, 2], 2),
    ]  # fmt: skip
    # in camp: the rested pawns and the newborns
    assert camp_strengths(g, RED) == [1, 1, 3]  # rested 1, rested 3 (unrevealed), born 1
    assert camp_strengths(g, YELLOW) == [1, 1, 2, 3, 3]  # rested 1, 2, 3; born 1 and 3
    assert camp_strengths(g, GREEN) == [2, 2, 2, 3]  # rested 2, 2, 3; born 2
    assert s.hand.tolist() == [[0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]
    # discarded: Red 1 1, Yellow 1 2 3 3, Green 2 3
    assert s.discard.tolist() == [3, 2, 3, 0, 0, 0]
    # R7.4 Red builds its boat with the wood it kept; the other cards are discarded
    assert legal_sets(g, RED, "boat") == [{0, 1}]
    boats = np.full((3, lay.boats), -1)
    boats[RED, 0] = card_id(g, "boat 3/2*")
    assert s.boats.tolist() == boats.tolist()
    assert s.wood.tolist() == [0, 0, 0] and s.wood_supply == 15
    assert s.held.tolist() == [-1, -1, -1]
    assert s.counters["births"].tolist() == [1, 2, 1]
    assert s.counters["boats_built"].tolist() == [1, 0, 0]
    # each player does all of R7.1-R7.4 before the next one starts
    steps = [(e["seat"], e["e"]) for e in g.events if e["e"] in ("draw", "rest", "birth", "boat")]
    assert [q for q, _ in steps] == [RED] * 5 + [YELLOW] * 6 + [GREEN] * 5
    # the boat is usable from the next work phase: Red may place any camp strength on it
    codec = g.work_codec
    assert g.free_boat(RED) == 0
    assert all(g.work_mask(RED)[codec.place(x, codec.boat_target)] for x in (1, 3))
    assert not g.work_mask(YELLOW)[codec.place(3, codec.boat_target)]


def test_r7_3_rulebook_yellow_1_2_3_3_makes_two_births_pawns_of_1_and_3():
    """The rulebook's review example, Yellow's births: "two births, playing a 2 and two 3s,
    taking pawns of 1 and 3". The pawn of strength 1 needs a card of value 1 (the lower card
    of a pair, R7.3): Yellow holds 1, 2, 3, 3; {1, 2} gives the 1 and {3, 3} the 3. With the
    three cards printed (2, 3, 3) the best is one birth, and no pair gives a 1."""
    g = scenario(3)
    s = g.state
    give(g, YELLOW, c1=1, c2=1, c3=2)
    script(g, YELLOW, ("birth", birth(0, 1)), ("birth", birth(2, 2)))
    g.births(YELLOW)
    done(g)
    assert legal_sets(g, YELLOW, "birth") == [
        {birth(0, 1), birth(0, 2), birth(1, 2), birth(2, 2), BIRTH_STOP},
        {birth(2, 2), BIRTH_STOP},
    ]
    assert [(e["cards"], e["strength"]) for e in events(g, "birth")] == [([0, 1], 1), ([2, 2], 3)]
    assert camp_strengths(g, YELLOW) == [1, 3]
    assert s.hand[YELLOW].tolist() == [0, 0, 0, 0, 0, 0]
    assert s.discard.tolist() == [1, 1, 2, 0, 0, 0]
    assert s.counters["births"].tolist() == [0, 2, 0]

    # the three cards as printed: {2, 3} gives a 2, {3, 3} a 3; one birth, then a lone card
    g = scenario(3)
    give(g, YELLOW, c2=1, c3=2)
    script(g, YELLOW, ("birth", birth(2, 2)))
    g.births(YELLOW)
    done(g)
    assert legal_sets(g, YELLOW, "birth") == [{birth(1, 2), birth(2, 2), BIRTH_STOP}]
    assert [e["strength"] for e in events(g, "birth")] == [3]
    assert g.state.hand[YELLOW].tolist() == [0, 1, 0, 0, 0, 0]


# --- R7.1 draw -------------------------------------------------------------------------------


def test_r7_1_each_player_draws_its_epoch_cards_draw_number():
    g = scenario(2)
    s = g.state
    s.held[:] = [card_id(g, "neutral 3/2*"), card_id(g, "fire 2/3")]
    s.deck = [0, 1, 2, 3, 4, 5]
    script(g, 0, ("birth", BIRTH_STOP))
    script(g, 1, ("birth", BIRTH_STOP))
    g.review_phase()
    done(g)
    assert [(e["seat"], e["cards"]) for e in events(g, "draw")] == [(0, [0, 1, 2]), (1, [3, 4])]
    assert s.hand.tolist() == [[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 0]]
    assert s.deck == [5]
    assert not events(g, "reshuffle")


def test_r7_1_empty_deck_is_replaced_by_the_shuffled_discard_pile():
    g = scenario(2)
    s = g.state
    s.deck = [1]
    s.discard[:] = [0, 2, 0, 0, 0, 1]  # two 2s and a Raid3
    g.draw_cards(0, 3)
    [shuffle] = events(g, "reshuffle")  # the chance outcome is logged, once
    assert sorted(shuffle["deck"]) == [1, 1, 5]
    # one chance key per card of the set, the first 40 keys of the reshuffle sub-stream (the
    # game's first reshuffle); the discarded cards of type t are the first ids of that type
    # (type 1: ids 12, 13; type 5: ids 38, 39); the new deck is their argsort
    keys = Streams(0, [0], 2).chance(Chance.RESHUFFLE, [0], 40)[0]
    ids = sorted([12, 13, 38], key=lambda i: (keys[i], i))
    assert shuffle["deck"] == [1 if i < 24 else 5 for i in ids]
    [draw] = events(g, "draw")
    assert draw["cards"] == [1] + shuffle["deck"][:2]
    assert s.deck == shuffle["deck"][2:]
    assert s.discard.tolist() == [0, 0, 0, 0, 0, 0]
    assert (
        s.hand[0].sum() == 3
        and s.hand[0].tolist() == np.bincount(draw["cards"], minlength=6).tolist()
    )


def test_r7_1_deck_and_discard_both_empty_draw_nothing_more():
    g = scenario(2)
    s = g.state
    s.deck = [2]
    g.draw_cards(0, 3)
    assert [e["cards"] for e in events(g, "draw")] == [[2]]
    assert not events(g, "reshuffle")
    assert s.hand[0].tolist() == [0, 0, 1, 0, 0, 0] and s.deck == []


# --- R7.2 rest -------------------------------------------------------------------------------


def test_r7_2_rest_takes_pawns_evenly_across_zones():
    #   seat 0: forest a (face up), b, c; fields d; volcano e, f; boat g   -> rest 6
    #   1st: any zone          -> a (forest)
    #   2nd: not the forest    -> d (fields)
    #   3rd: volcano or boat   -> e (volcano)
    #   4th: the boat only (forced)
    #   5th: forest or volcano, each has given one -> b (forest)
    #   6th: the volcano only (forced)
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    v = lay.volcano0
    slot = build_boat(g, 0)
    a = put(g, 0, 2, F1, up=True)
    b = put(g, 0, 1, F1)
    c = put(g, 0, 3, F2)
    d = put(g, 0, 3, lay.fields)
    e = put(g, 0, 2, v)
    f = put(g, 0, 1, v)
    sailor = put(g, 0, 1, lay.ocean0 + slot)
    script(g, 0, ("rest", a), ("rest", d), ("rest", e), ("rest", b))
    g.rest(0, 6)
    done(g)
    assert legal_sets(g, 0, "rest") == [
        {a, b, c, d, e, f, sailor},
        {d, e, f, sailor},
        {e, f, sailor},
        {b, c, f},
    ]
    decisions = [(x["action"], x["forced"]) for x in events(g, "decision")]
    assert decisions == [(a, False), (d, False), (e, False), (sailor, True), (b, False), (f, True)]
    assert [x["shown"] for x in events(g, "rest")] == [True, True, False, True, False, False]
    rested = [a, d, e, sailor, b, f]
    assert (s.loc[0, rested] == CAMP).all() and not s.up[0, rested].any()  # face down in camp
    assert s.on_board(0).tolist() == [c]


def test_r7_2_rest_all_pawns_when_fewer_than_the_hut_number():
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    s.held[0] = card_id(g, "neutral 2/3")  # hut 3
    pawns = [put(g, 0, 3, lay.fields), put(g, 0, 2, F1)]
    script(g, 0, ("rest", pawns[1]))  # the second one is forced
    g.review_phase()
    done(g)
    assert (s.loc[0, pawns] == CAMP).all() and not s.up[0].any()
    assert len(events(g, "rest")) == 2


def test_r7_2_no_epoch_card_no_rest():
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    pawn = put(g, 0, 3, lay.fields)
    g.review_phase()  # nobody holds a card (R4.2)
    done(g)
    assert s.loc[0, pawn] == lay.fields
    assert not events(g, "rest")
    assert [e["cards"] for e in events(g, "draw")] == [[], []]


# --- R7.3 births -----------------------------------------------------------------------------


def test_r7_3_several_births_at_the_lower_cards_strength_only_if_the_reserve_has_it():
    #   seat 0: no strength-1 pawn in its reserve (all six in camp); hand 1, 2, 3, 3, 3
    g = scenario(2)
    s = g.state
    for _ in range(6):
        put(g, 0, 1, CAMP)
    give(g, 0, c1=1, c2=1, c3=3)
    script(g, 0, ("birth", birth(2, 2)), ("birth", birth(1, 2)))
    g.births(0)
    done(g)
    # any pair with the 1 would give a 1: impossible; then no pair is left after two births
    assert legal_sets(g, 0, "birth") == [
        {birth(1, 2), birth(2, 2), BIRTH_STOP},
        {birth(1, 2), BIRTH_STOP},
    ]
    assert [(e["cards"], e["strength"]) for e in events(g, "birth")] == [([2, 2], 3), ([1, 2], 2)]
    assert camp_strengths(g, 0) == [1] * 6 + [2, 3]
    assert s.hand[0].tolist() == [1, 0, 0, 0, 0, 0]
    assert s.discard.tolist() == [0, 1, 3, 0, 0, 0]
    assert s.counters["births"].tolist() == [2, 0]


def test_r7_3_birth_impossible_once_the_reserve_runs_out_of_that_strength():
    g = scenario(2)
    s = g.state
    for _ in range(5):
        put(g, 0, 3, CAMP)  # one strength-3 pawn left in the reserve
    give(g, 0, c3=4)
    script(g, 0, ("birth", birth(2, 2)))
    g.births(0)
    done(g)  # no second question: two 3s are left but no 3 in the reserve
    assert legal_sets(g, 0, "birth") == [{birth(2, 2), BIRTH_STOP}]
    assert not (s.loc[0] == RESERVE)[12:].any()
    assert s.hand[0].tolist() == [0, 0, 2, 0, 0, 0]


def test_r7_3_raid_cards_count_their_value_in_a_birth():
    g = scenario(2)
    s = g.state
    give(g, 0, c3=1, raid2=1)
    script(g, 0, ("birth", birth(2, 4)))
    g.births(0)
    done(g)
    assert [e["strength"] for e in events(g, "birth")] == [2]
    assert s.discard.tolist() == [0, 0, 1, 0, 1, 0]


def test_a4_r7_3_last_round_births_compulsory_the_player_still_picks_each_pair():
    """A4: in the last round a player must make a birth while one is possible (no "stop"),
    but it still picks the pair each time, and births go on until none is possible. A player
    without an epoch card is bound too (its single possible birth is made without asking).

        last round; turn order 0, 1; the deck and the discard pile are empty
        seat 0: neutral 2/3, hand 1 2 3 3 3     seat 1: no epoch card (R4.2), hand 1 1
    """
    g = scenario(2)
    s = g.state
    s.last_round = True
    s.held[0] = card_id(g, "neutral 2/3")
    give(g, 0, c1=1, c2=1, c3=3)
    give(g, 1, c1=2)
    # seat 0 picks {3, 3} (a 3), then {2, 3} (a 2) rather than a pair with the 1
    script(g, 0, ("birth", birth(2, 2)), ("birth", birth(1, 2)))
    g.review_phase()
    done(g)
    every_pair = {birth(0, 1), birth(0, 2), birth(1, 2), birth(2, 2)}
    assert legal_sets(g, 0, "birth") == [every_pair, {birth(0, 1), birth(0, 2), birth(1, 2)}]
    assert [(e["seat"], e["cards"], e["strength"]) for e in events(g, "birth")] == [
        (0, [2, 2], 3), (0, [1, 2], 2), (1, [0, 0], 1),
    ]  # fmt: skip
    # after two births seat 0 holds a lone 1: no pair, no more question; seat 1 is not asked
    assert s.hand.tolist() == [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]]
    births = [(e["seat"], e["forced"]) for e in events(g, "decision") if e["kind"] == "birth"]
    assert births == [(0, False), (0, False), (1, True)]
    assert camp_strengths(g, 0) == [2, 3] and camp_strengths(g, 1) == [1]

    # the same hands in a round that is not the last: stopping is legal (and chosen), and
    # seat 1, with one pair and "stop", is asked
    g = scenario(2)
    s = g.state
    s.held[0] = card_id(g, "neutral 2/3")
    give(g, 0, c1=1, c2=1, c3=3)
    give(g, 1, c1=2)
    script(g, 0, ("birth", BIRTH_STOP))
    script(g, 1, ("birth", BIRTH_STOP))
    g.review_phase()
    done(g)
    assert legal_sets(g, 0, "birth") == [every_pair | {BIRTH_STOP}]
    assert legal_sets(g, 1, "birth") == [{birth(0, 0), BIRTH_STOP}]
    assert not events(g, "birth")
    assert s.hand.tolist() == [[1, 1, 3, 0, 0, 0], [2, 0, 0, 0, 0, 0]]


# --- R7.4 boat -------------------------------------------------------------------------------


def test_r7_4_boat_built_with_a_wood_keeps_the_card_and_is_usable_next_work_phase():
    #   seat 0: boat 2/2, 1 wood, a 2 in camp      seat 1: boat 3/2*, no wood
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    codec = g.work_codec
    boat0, boat1 = card_id(g, "boat 2/2"), card_id(g, "boat 3/2*")
    s.held[:] = [boat0, boat1]
    s.wood[0], s.wood_supply = 1, 14
    pawn = put(g, 0, 2, CAMP)
    assert not g.work_mask(0)[codec.place(2, codec.boat_target)]  # no boat yet
    script(g, 0, ("boat", 1))
    g.review_phase()  # both decks empty: no cards drawn, no births
    assert legal_sets(g, 0, "boat") == [{0, 1}]
    assert [(e["seat"], e["card"], e["slot"]) for e in events(g, "boat")] == [(0, boat0, 0)]
    assert s.boats[0].tolist() == [boat0] + [-1] * (lay.boats - 1)
    assert (s.boats[1] == -1).all()  # seat 1 has no wood: no boat, no question
    assert s.wood.tolist() == [0, 0] and s.wood_supply == 15
    assert s.held.tolist() == [-1, -1]
    assert s.counters["boats_built"].tolist() == [1, 0]
    # next work phase: the pawn goes on the boat, face up
    script(g, 0, ("work", codec.place(2, codec.boat_target)))
    g.work_phase()
    done(g)
    assert s.loc[0, pawn] == lay.ocean0 + 0 and s.up[0, pawn]


def test_r7_4_boat_card_discarded_when_the_player_keeps_its_wood():
    g = scenario(2)
    s = g.state
    s.held[0] = card_id(g, "boat 2/2")
    s.wood[0], s.wood_supply = 1, 14
    script(g, 0, ("boat", 0))
    g.review_phase()
    done(g)
    assert (s.boats == -1).all() and not events(g, "boat")
    assert s.wood[0] == 1 and s.wood_supply == 14
    assert s.held[0] == -1
