"""R6.2-R6.4 production: volcano (and the volcano_after_moai option), feeding, raids.

Location codes (default component set, `g.rules.layout`): forest spaces 0..5 (the rulebook's
spaces 1..6), fields 6, a clan's own volcano spaces 7.. (volcano0 + k), boats 25.. (ocean0 +
slot). The finish_moai action is a volcano space index k, or V (= layout.volcano) to stop.
Moai tiles are sorted by height: 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 (indices 0..20).
"""

from types import SimpleNamespace

import numpy as np
import pytest
from scenario import build_boat, card_id, done, events, give, put, scenario, script

from moaisim.games.moai.rules import RESERVE
from moaisim.games.moai.rules.codes import RAID_COMBOS

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

RED, YELLOW, GREEN = 0, 1, 2
F1, F2, F3, F4 = 0, 1, 2, 3  # forest spaces 1-4 of the rulebook


def legal_sets(g, seat, kind):
    """The legal actions of every `kind` question `seat`'s script was asked, in order."""
    return [
        set(np.flatnonzero(view.legal[0]).tolist())
        for k, view in g.strategies[seat].asked
        if k == kind
    ]


def tile(g, height, nth=0):
    """Index of the nth Moai tile of a height."""
    return [i for i, h in enumerate(g.rules.components.moai_heights) if h == height][nth]


def rulebook_board(**options):
    """The rulebook's example round after its work phase (3 players, hill order Red, Yellow,
    Green; Red is the bird-man; wood on forest spaces 1-3):

                     Red                Yellow               Green
        forest 1 *   2                                       2
        forest 2 *   1                                       2
        forest 3 *                      1 (face down)
        forest 4                                             1
        fields       3 3 2 1  (= 9)     3 3 3  (= 9)         3 3 3  (= 9)
        volcano 1    3+2+1 = 6          2+2+2+1+1 = 8        2+1+1 = 4
        epoch card   boat 3/2*          neutral 3/3*         erosion 2/3*

    Pawn strengths hidden by the rulebook's picture are filled in consistently with its text
    (Yellow's 8 m and Green's 4 m statues, the pawns shown at rest in the review example).
    """
    g = scenario(3, **options)
    s, lay = g.state, g.rules.layout
    v1 = lay.volcano0  # each clan's first volcano space
    s.birdman = RED
    s.held[:] = [card_id(g, "boat 3/2*"), card_id(g, "neutral 3/3*"), card_id(g, "erosion 2/3*")]
    s.forest_wood[:3] = True
    s.wood_supply -= 3
    p = SimpleNamespace()
    p.red_forest = [put(g, RED, 2, F1), put(g, RED, 1, F2)]
    p.red_fields = [put(g, RED, x, lay.fields) for x in (3, 3, 2, 1)]
    p.red_volcano = [put(g, RED, x, v1) for x in (3, 2, 1)]
    p.yellow_forest = [put(g, YELLOW, 1, F3)]
    p.yellow_fields = [put(g, YELLOW, 3, lay.fields) for _ in range(3)]
    p.yellow_volcano = [put(g, YELLOW, x, v1) for x in (2, 2, 2, 1, 1)]
    p.green_forest = [put(g, GREEN, 2, F1), put(g, GREEN, 2, F2), put(g, GREEN, 1, F4)]
    p.green_fields = [put(g, GREEN, 3, lay.fields) for _ in range(3)]
    p.green_volcano = [put(g, GREEN, x, v1) for x in (2, 1, 1)]
    return g, p


# --- the rulebook's example -------------------------------------------------------------------


def test_r6_rulebook_production_example_yellow_8m_green_4m_red_keeps_its_wood():
    g, p = rulebook_board()
    s, lay = g.state, g.rules.layout
    stop = lay.volcano
    script(g, RED, ("forest_tie", RED), ("finish_moai", stop))  # Red saves its wood for a boat
    script(g, YELLOW, ("finish_moai", 0))
    script(g, GREEN, ("finish_moai", 0))
    g.production_phase()
    done(g)

    # R6.1: Red (tie, bird-man), Green, Yellow each take one wood
    assert [e["winner"] for e in events(g, "forest")] == [RED, GREEN, YELLOW]
    # R6.2: each player with a wood could finish its space; Red stops, the others finish
    assert legal_sets(g, RED, "finish_moai") == [{0, stop}]
    assert legal_sets(g, YELLOW, "finish_moai") == [{0, stop}]
    assert legal_sets(g, GREEN, "finish_moai") == [{0, stop}]
    moai = [(e["seat"], e["space"], e["height"], e["tile_height"]) for e in events(g, "moai")]
    assert moai == [(YELLOW, 0, 8, 8), (GREEN, 0, 4, 4)]
    owner = np.full(21, -1)
    owner[tile(g, 8)] = YELLOW
    owner[tile(g, 4)] = GREEN
    assert s.moai_owner.tolist() == owner.tolist()
    assert s.wood.tolist() == [1, 0, 0]  # Red keeps its wood
    assert s.wood_supply == 15 - 3 + 2  # the two transport woods go back to the supply
    assert s.counters["moai_finished"].tolist() == [0, 1, 1]
    # Red's sculptors stay hidden; the finished statues' pawns are shown and stay (default)
    assert not s.up[RED, p.red_volcano].any()
    assert s.up[YELLOW, p.yellow_volcano].all() and s.up[GREEN, p.green_volcano].all()
    assert (s.loc[YELLOW, p.yellow_volcano] == lay.volcano0).all()
    assert (s.loc[GREEN, p.green_volcano] == lay.volcano0).all()
    # R6.3: 9 food for 9 members each, nobody starves
    feed = [(e["seat"], e["food"], e["mouths"], e["deficit"]) for e in events(g, "feed")]
    assert feed == [(RED, 9, 9, 0), (YELLOW, 9, 9, 0), (GREEN, 9, 9, 0)]
    assert (s.loc >= 0).sum(axis=1).tolist() == [9, 9, 9]


def test_r6_3_rulebook_feeding_example_3_3_2_1_in_fields_feeds_9_members():
    g, p = rulebook_board()
    g.feeding()
    done(g)  # no feed decision is asked
    feed = [(e["seat"], e["food"], e["mouths"], e["deficit"]) for e in events(g, "feed")]
    assert feed == [(RED, 9, 9, 0), (YELLOW, 9, 9, 0), (GREEN, 9, 9, 0)]
    assert not events(g, "starve") and not events(g, "decision")
    assert g.state.counters["starved"].tolist() == [0, 0, 0]


# --- R6.1 forest ----------------------------------------------------------------------------


def test_a3_r6_1_contenders_on_a_space_without_wood_are_revealed_and_can_then_be_raided():
    """A3: on a forest space with no wood token, the pawns of two clans are turned face up all
    the same; a single clan's pawns on such a space stay face down. A revealed pawn can then be
    raided in the feeding that follows (R6.4), a hidden one cannot.

        no wood anywhere in the forest
        space 1:  seat 0: a 2       seat 1: a 3         -> both turned face up
        space 2:                    seat 1: a 2         -> stays face down
        seat 0: fields 1, volcano 1  (food 1, mouths 3: 2 short); hand Raid1, 3, 2
        seat 1: fields 3 3           (food 6, mouths 4)
    """
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    codec = g.feed_codec
    mine = put(g, 0, 2, F1)
    three = put(g, 1, 3, F1)
    hidden_two = put(g, 1, 2, F2)
    put(g, 0, 1, lay.fields)
    sculptor = put(g, 0, 1, lay.volcano0)
    give(g, 0, raid1=1, c3=1, c2=1)
    put(g, 1, 3, lay.fields)
    put(g, 1, 3, lay.fields)
    assert not s.up[0, mine] and not s.up[1, three] and not s.forest_wood.any()
    # combo 0 = a Raid1 and a plain card of the victim's strength
    script(g, 0, ("feed", codec.raid(1, three, 0)), ("feed", sculptor))
    g.production_phase()
    done(g)

    # R6.1: space 1 contested without wood: both pawns up, no winner; space 2: no event
    assert events(g, "forest") == [
        {"e": "forest", "space": 0, "wood": False, "strengths": {"0": 2, "1": 3}, "winner": -1}
    ]
    assert s.up[0, mine]
    assert s.wood.tolist() == [0, 0]
    assert not s.up[1, hidden_two] and s.loc[1, hidden_two] == F2
    # R6.4: Raid1 + 3 reaches the revealed 3; the hidden 2 is out of reach although seat 0
    # holds a 2 (a face-down pawn cannot be raided), and seat 0's own pawns may starve
    assert legal_sets(g, 0, "feed") == [{mine, sculptor, codec.raid(1, three, 0)}, {mine, sculptor}]
    got = [(e["victim"], e["pawn"], e["at"], e["strength"]) for e in events(g, "raid")]
    assert got == [(1, three, F1, 3)]
    assert s.loc[1, three] == RESERVE and not s.up[1, three]
    assert s.loc[0, sculptor] == RESERVE  # the second missing meal: no Raid card left
    assert s.loc[0, mine] == F1
    feed = [(e["seat"], e["food"], e["mouths"], e["deficit"]) for e in events(g, "feed")]
    assert feed == [(0, 1, 3, 2), (1, 6, 3, 0)]  # seat 1 has one mouth fewer after the raid
    assert s.hand[0].tolist() == [0, 1, 0, 0, 0, 0]


# --- R6.2 volcano ----------------------------------------------------------------------------


def test_r6_2_no_wood_no_moai_and_no_question():
    g = scenario(2)
    s, v = g.state, g.rules.layout.volcano0
    for x in (3, 3, 3):
        put(g, 0, x, v)  # a 9 m statue, but no wood to transport it
    g.volcano()
    assert not events(g, "decision") and not events(g, "moai")
    assert (s.moai_owner == -1).all()
    assert not s.up[0].any()


def test_r6_2_only_spaces_with_a_tile_of_at_most_their_height_can_be_finished():
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    v, stop = lay.volcano0, lay.volcano
    s.wood[0], s.wood_supply = 3, 12
    s.moai_owner[[tile(g, h, n) for h in (3, 4) for n in range(3)]] = -2  # all 3 m, 4 m gone
    put(g, 0, 2, v + 0)  # space 0: 2 m, below every tile
    put(g, 0, 3, v + 1)  # space 1: 3+1 = 4 m, every tile of at most 4 m is gone
    put(g, 0, 1, v + 1)
    six = [put(g, 0, 3, v + 2), put(g, 0, 3, v + 2)]  # space 2: 6 m
    script(g, 0, ("finish_moai", 2))
    g.volcano()
    done(g)
    assert legal_sets(g, 0, "finish_moai") == [{2, stop}]
    assert [(e["space"], e["height"], e["tile"]) for e in events(g, "moai")] == [(2, 6, tile(g, 6))]
    assert s.wood[0] == 2 and s.wood_supply == 13  # one wood paid; no second question
    assert s.up[0].tolist() == [i in six for i in range(18)]  # only the finished space shows


def test_r6_2_tile_falls_back_to_tallest_smaller_when_that_height_is_gone():
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    v, stop = lay.volcano0, lay.volcano
    s.wood[0], s.wood_supply = 2, 13
    s.moai_owner[[tile(g, 7, n) for n in range(3)]] = [1, 1, -2]  # every 7 m tile is gone
    s.moai_owner[tile(g, 6, 0)] = 1  # and one 6 m tile
    for x in (3, 3, 1):
        put(g, 0, x, v + 0)  # space 0: 7 m
    for x in (3, 3, 3, 3):
        put(g, 0, x, v + 1)  # space 1: 12 m, taller than any tile
    script(g, 0, ("finish_moai", 0), ("finish_moai", 1))
    g.volcano()
    done(g)
    assert legal_sets(g, 0, "finish_moai") == [{0, 1, stop}, {1, stop}]
    got = [(e["height"], e["tile"], e["tile_height"]) for e in events(g, "moai")]
    assert got == [(7, tile(g, 6, 1), 6), (12, tile(g, 9, 0), 9)]
    assert s.moai_height(0) == 6 + 9
    assert s.wood[0] == 0 and s.wood_supply == 15


def test_r6_2_in_turn_order_the_first_player_takes_the_last_tile():
    g = scenario(2)
    s, v = g.state, g.rules.layout.volcano0
    s.turn[:] = [1, 0]
    s.wood[:], s.wood_supply = [1, 1], 13
    s.moai_owner[:] = -2
    s.moai_owner[tile(g, 5)] = -1  # a single 5 m tile is left
    for seat in (0, 1):
        put(g, seat, 3, v)
        put(g, seat, 2, v)
    script(g, 1, ("finish_moai", 0))
    g.volcano()
    done(g)  # seat 0 is not asked: no tile is left for it
    assert [e["seat"] for e in events(g, "moai")] == [1]
    assert s.moai_owner[tile(g, 5)] == 1
    assert s.wood.tolist() == [1, 0]
    assert not s.up[0].any()


def test_r6_2_stay_pawns_stay_face_up_space_finished_again_next_round_not_twice_a_phase():
    g = scenario(2)  # volcano_after_moai = "stay" is the default
    assert g.rules.volcano_after_moai == "stay"
    s, lay = g.state, g.rules.layout
    v, stop = lay.volcano0, lay.volcano
    s.wood[0], s.wood_supply = 3, 12
    nine = [put(g, 0, 3, v + 0) for _ in range(3)]  # space 0: 9 m
    three = put(g, 0, 3, v + 1)  # space 1: 3 m
    # phase 1: finish space 0, then it cannot be finished again; stop
    script(g, 0, ("finish_moai", 0), ("finish_moai", stop))
    g.volcano()
    assert legal_sets(g, 0, "finish_moai") == [{0, 1, stop}, {1, stop}]
    assert (s.loc[0, nine] == v).all() and s.up[0, nine].all()  # they stay, face up
    assert not s.up[0, three]
    # next round's production: the same pawns finish a second statue on the same space
    script(g, 0, ("finish_moai", 0), ("finish_moai", stop))
    g.volcano()
    done(g)
    assert legal_sets(g, 0, "finish_moai")[2:] == [{0, 1, stop}, {1, stop}]
    got = [(e["space"], e["height"], e["tile"]) for e in events(g, "moai")]
    assert got == [(0, 9, tile(g, 9, 0)), (0, 9, tile(g, 9, 1))]
    assert s.wood[0] == 1 and s.counters["moai_finished"][0] == 2
    assert (s.loc[0, nine] == v).all() and s.up[0, nine].all()


def test_r6_2_option_camp_the_finished_space_pawns_go_to_camp_face_down():
    g = scenario(2, volcano_after_moai="camp")
    s, lay = g.state, g.rules.layout
    v, stop = lay.volcano0, lay.volcano
    s.wood[0], s.wood_supply = 2, 13
    five = [put(g, 0, 3, v + 0), put(g, 0, 2, v + 0)]  # space 0: 5 m
    other = put(g, 0, 3, v + 1)  # space 1: 3 m, not finished
    script(g, 0, ("finish_moai", 0), ("finish_moai", stop))
    g.volcano()
    done(g)
    assert legal_sets(g, 0, "finish_moai") == [{0, 1, stop}, {1, stop}]
    assert [(e["space"], e["height"], e["tile"]) for e in events(g, "moai")] == [(0, 5, tile(g, 5))]
    assert (s.loc[0, five] == -1).all()  # CAMP
    assert not s.up[0, five].any()
    assert len(s.pawns_at(0, v + 0)) == 0  # the space is empty
    assert s.loc[0, other] == v + 1 and not s.up[0, other]
    assert s.wood[0] == 1


# --- R6.3 feeding ----------------------------------------------------------------------------


def test_r6_3_deficit_d_starves_exactly_d_pawns_chosen_among_forest_and_volcano():
    #   seat 0: fields 2, boat 1  -> food 3
    #           forest 1 (space 1, face down), forest 3 (space 3), volcano 2, volcano 1
    #           mouths 6 -> deficit 3
    #   seat 1: a face-up forest pawn, but seat 0 holds no cards: no raid
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    v = lay.volcano0
    slot = build_boat(g, 0)
    fields = put(g, 0, 2, lay.fields)
    sailor = put(g, 0, 1, lay.ocean0 + slot)
    f1 = put(g, 0, 1, F1)
    f3 = put(g, 0, 3, F3)
    v2 = put(g, 0, 2, v + 0)
    v1 = put(g, 0, 1, v + 1)
    put(g, 1, 2, F1, up=True)
    put(g, 1, 3, lay.fields)  # seat 1 feeds itself: 3 food, 2 mouths
    script(g, 0, ("feed", f3), ("feed", v2), ("feed", v1))
    g.feeding()
    done(g)
    feed = [(e["seat"], e["food"], e["mouths"], e["deficit"]) for e in events(g, "feed")]
    assert feed == [(0, 3, 6, 3), (1, 3, 2, 0)]
    # the mask: own forest and volcano pawns only (never fields or boat pawns), no raid
    assert legal_sets(g, 0, "feed") == [{f1, f3, v2, v1}, {f1, v2, v1}, {f1, v1}]
    asked = [view.info["deficit"][0] for _, view in g.strategies[0].asked]
    assert asked == [3, 2, 1]
    starve = [(e["pawn"], e["at"], e["strength"]) for e in events(g, "starve")]
    assert starve == [(f3, F3, 3), (v2, v + 0, 2), (v1, v + 1, 1)]
    assert (s.loc[0, [f3, v2, v1]] == RESERVE).all()  # to the reserve, not the camp
    assert not s.up[0, [f3, v2, v1]].any()
    assert s.loc[0, fields] == lay.fields and s.loc[0, sailor] == lay.ocean0 + slot
    assert s.loc[0, f1] == F1
    assert s.counters["starved"].tolist() == [3, 0]


def test_r6_3_last_starving_choice_is_forced_when_one_pawn_can_starve():
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    put(g, 0, 1, lay.fields)  # food 1
    lone = put(g, 0, 3, lay.volcano0)  # mouths 2 -> deficit 1, one candidate
    g.feeding()
    done(g)
    assert [(e["kind"], e["action"], e["forced"]) for e in events(g, "decision")] == [
        ("feed", lone, True)
    ]
    assert s.loc[0, lone] == RESERVE


# --- R6.4 raids ------------------------------------------------------------------------------


def test_r6_4_raids_save_pawns_and_remove_face_up_opponent_pawns_of_strength_v():
    #   seat 0 (first in turn): fields 1; forest 1; volcano 1 -> food 1, mouths 3, deficit 2
    #           hand: 2, 2, 3, Raid1, Raid1, Raid2
    #   seat 1: A = 2 forest face up       (raidable with a value-2 card)
    #           B = 2 forest face down     (never: face down)
    #           C = 2 fields               (never: fields)
    #           D = 3 volcano face up      (raidable with a value-3 card)
    #           E = 1 on a boat            (never: boat)
    #           food 2 + 1 = 3, mouths 5 before the raids
    #   seat 2: X = 2 volcano face up      (raidable); fields 3
    g = scenario(3)
    s, lay = g.state, g.rules.layout
    v, codec = lay.volcano0, g.feed_codec
    put(g, 0, 1, lay.fields)
    mine = [put(g, 0, 1, F1), put(g, 0, 1, v)]
    give(g, 0, c2=2, c3=1, raid1=2, raid2=1)
    a = put(g, 1, 2, F1, up=True)
    put(g, 1, 2, F2, up=False)
    put(g, 1, 2, lay.fields)
    d = put(g, 1, 3, v, up=True)
    slot = build_boat(g, 1)
    put(g, 1, 1, lay.ocean0 + slot)
    x = put(g, 2, 2, v, up=True)
    put(g, 2, 3, lay.fields)

    def raids(*triples):
        return {codec.raid(q, j, c) for q, j, c in triples}

    # combos: 0 = Raid1 + normal, 1 = Raid1 + Raid(v), 2 = Raid2 + normal, 3 = Raid2 + Raid(v)
    assert RAID_COMBOS[:4] == ((1, False), (1, True), (2, False), (2, True))
    script(g, 0, ("feed", codec.raid(1, a, 0)), ("feed", codec.raid(1, d, 2)))
    g.feeding()
    done(g)

    # step 1: value-2 victims A and X with Raid1+2, Raid1+Raid2, Raid2+2 (not Raid2+Raid2:
    # a single Raid2); value-3 victim D with Raid1+3 and Raid2+3 (no Raid3)
    step1 = set(mine) | raids((1, a, 0), (1, a, 1), (1, a, 2), (2, x, 0), (2, x, 1), (2, x, 2))
    step1 |= raids((1, d, 0), (1, d, 2))
    # step 2 (hand 2, 3, Raid1, Raid2): A is gone
    step2 = set(mine) | raids((2, x, 0), (2, x, 1), (2, x, 2), (1, d, 0), (1, d, 2))
    assert legal_sets(g, 0, "feed") == [step1, step2]
    # at most d = 2 raids: Raid1 + 2 would still raid X, but no third question
    assert s.hand[0].tolist() == [0, 1, 0, 1, 0, 0]
    assert s.discard.tolist() == [0, 1, 1, 1, 1, 0]  # both cards of each raid discarded
    got = [(e["victim"], e["pawn"], e["at"], e["strength"], e["cards"]) for e in events(g, "raid")]
    assert got == [(1, a, F1, 2, [3, 1]), (1, d, v, 3, [4, 2])]
    assert (s.loc[1, [a, d]] == RESERVE).all() and not s.up[1, [a, d]].any()
    assert (s.loc[0, mine] >= 0).all()  # both starving pawns saved
    assert s.loc[2, x] == v
    # seat 1, later in the order, has two mouths fewer: 3 food for 3 members
    feed = [(e["seat"], e["food"], e["mouths"], e["deficit"]) for e in events(g, "feed")]
    assert feed == [(0, 1, 3, 2), (1, 3, 3, 0), (2, 3, 2, 0)]
    assert s.counters["raids_made"].tolist() == [2, 0, 0]
    assert s.counters["raids_suffered"].tolist() == [0, 2, 0]
    assert s.counters["starved"].tolist() == [0, 0, 0]


def test_r6_4_no_face_up_opponent_pawn_of_strength_v_makes_that_pairing_impossible():
    #   seat 0: fields 1, forest 1, volcano 2 -> deficit 2; hand Raid1, 3, 2
    #   seat 1: 3 forest face down, 3 fields, 1 volcano face up, 2 forest face up
    g = scenario(2)
    s, lay = g.state, g.rules.layout
    v, codec = lay.volcano0, g.feed_codec
    put(g, 0, 1, lay.fields)
    f = put(g, 0, 1, F1)
    w = put(g, 0, 2, v)
    give(g, 0, raid1=1, c3=1, c2=1)
    put(g, 1, 3, F2, up=False)
    put(g, 1, 3, lay.fields)
    one = put(g, 1, 1, v, up=True)
    two = put(g, 1, 2, F2, up=True)
    # no face-up 3 for Raid1 + 3; no value-1 card for the face-up 1: only Raid1 + 2 on `two`
    script(g, 0, ("feed", codec.raid(1, two, 0)), ("feed", w))
    g.feeding()
    done(g)
    assert legal_sets(g, 0, "feed") == [{f, w, codec.raid(1, two, 0)}, {f, w}]
    assert s.loc[1, two] == RESERVE and s.loc[1, one] == v
    assert s.loc[0, w] == RESERVE and s.loc[0, f] == F1  # one raid, one starved
    assert s.hand[0].tolist() == [0, 0, 1, 0, 0, 0]
    assert s.counters["raids_made"].tolist() == [1, 0]
    assert s.counters["starved"].tolist() == [1, 0]
