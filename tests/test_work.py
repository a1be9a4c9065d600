"""R5 work phase: turns (R5.1), placing (R5.2, R5.4-R5.7, V1), passing and swapping (R5.3),
pawns staying on the board (R5.8).

Location codes (default set): forest spaces 1-6 = 0..5, fields = 6, a clan's own volcano
spaces = 7.., its boats = 25.. ; the work action "place on a boat" targets code 25 (any free
boat of the clan). Pawn indices: strength 1 = 0..5, strength 2 = 6..11, strength 3 = 12..17.
"""

import numpy as np
import pytest
from scenario import build_boat, card_id, done, events, put, scenario, script
from test_production import rulebook_board

from moaisim.games.moai.rules import CAMP

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

FOREST = list(range(6))
RED, YELLOW, GREEN = 0, 1, 2


def codes(g):
    lay = g.rules.layout
    return lay.fields, lay.volcano0, lay.ocean0, g.work_codec.boat_target


def options(g, seat):
    """A seat's legal work actions, decoded: ('place', s, t), ('pass', 0, 0), ('swap', i, j)."""
    mask = g.work_mask(seat)
    return {g.work_codec.decode(int(a)) for a in np.flatnonzero(mask)}


def places(strengths, targets):
    return {("place", s, t) for s in strengths for t in targets}


def swaps(*pairs):
    return {("swap", min(i, j), max(i, j)) for i, j in pairs}


def place(g, strength, target):
    return ("work", g.work_codec.place(strength, target))


def decisions(g):
    return [(e["seat"], e["action"], e["forced"]) for e in events(g, "decision")]


def asked_options(g, seat):
    """The decoded legal work actions of every question the seat was asked, in order."""
    codec = g.work_codec
    return [
        {codec.decode(int(a)) for a in np.flatnonzero(view.legal[0])}
        for kind, view in g.strategies[seat].asked
        if kind == "work"
    ]


def rulebook_work_plan(g):
    """The placements of the rulebook's example work phase (see the test below): per clan,
    nine (strength, target) pairs, one per turn."""
    fields, v1 = g.rules.layout.fields, g.rules.layout.volcano0
    return {
        RED: [(3, fields), (3, fields), (2, fields), (2, 0), (1, fields),
              (1, 1), (3, v1), (2, v1), (1, v1)],
        YELLOW: [(3, fields), (2, v1), (3, fields), (3, fields), (1, 2),
                 (2, v1), (2, v1), (1, v1), (1, v1)],
        GREEN: [(3, fields), (3, fields), (2, 0), (3, fields), (2, 1),
                (2, v1), (1, v1), (1, v1), (1, 3)],
    }  # fmt: skip


def board(g, seat):
    """The seat's pawns on the board as sorted (location, strength, face up) triples."""
    s = g.state
    return sorted(
        (int(s.loc[seat, i]), int(s.strength[i]), bool(s.up[seat, i])) for i in s.on_board(seat)
    )


# --- the rulebook's example ----------------------------------------------------------------------


def test_r5_rulebook_work_example_27_pawns_placed_fields_run_out_after_the_10th():
    """The rulebook's example round, work phase: Red, Yellow and Green (turn order) each place
    their 9 pawns. At 3 players 5 fields are covered at setup (R1.1) and Green's erosion covered
    a 6th, so 10 fields are free; the feeding example (Red 3+3+2+1, Yellow 3+3+3, Green 3+3+3)
    puts 10 pawns in the fields: all of them. The other pawns go where the production example
    needs them (forest: Red and Green tie on space 1, Green beats Red on space 2, Yellow alone
    on space 3; volcano: Yellow 8 m, Green 4 m, Red's statue never shown).

        turn   Red                 Yellow              Green
        1      fields 3            fields 3            fields 3
        2      fields 3            volcano 1: 2        fields 3
        3      fields 2            fields 3            forest 1: 2
        4      forest 1: 2         fields 3            fields 3        <- 9 in the fields
        5      fields 1 (10th)     forest 3: 1         forest 2: 2     <- fields full
        6      forest 2: 1         volcano 1: 2        volcano 1: 2
        7      volcano 1: 3        volcano 1: 2        volcano 1: 1
        8      volcano 1: 2        volcano 1: 1        volcano 1: 1
        9      volcano 1: 1        volcano 1: 1        forest 4: 1
    """
    g = scenario(3)
    s, lay = g.state, g.rules.layout
    fields, v1 = lay.fields, lay.volcano0
    s.turn[:] = [RED, YELLOW, GREEN]
    s.birdman = RED
    s.covered, s.disaster_supply = 5, 5  # R1.1 at 3 players
    g.disaster(GREEN, 2, card_id(g, "erosion 2/3*"))  # Green's erosion covers a free field
    assert (s.covered, s.disaster_supply) == (6, 4)
    for seat in (RED, YELLOW, GREEN):
        for strength in (1, 1, 1, 2, 2, 2, 3, 3, 3):
            put(g, seat, strength, CAMP)
    plan = rulebook_work_plan(g)
    for seat, moves in plan.items():
        script(g, seat, *(place(g, strength, target) for strength, target in moves))
    g.work_phase()
    done(g)

    # R5.1: 27 turns in turn order, all placements (nobody's camp empties before the last turn)
    codec = g.work_codec
    assert decisions(g) == [
        (seat, codec.place(*plan[seat][turn]), False)
        for turn in range(9)
        for seat in (RED, YELLOW, GREEN)
    ]
    assert not events(g, "pass") and not events(g, "swap")
    # R5.5: the fields were open until Red's 1 filled the 10th free field (Red's 5th turn);
    # from then on no question offers the fields, whatever strength is in camp
    fields_offered = {
        seat: [any(t == fields for what, _, t in opts if what == "place") for opts in asked]
        for seat in (RED, YELLOW, GREEN)
        for asked in [asked_options(g, seat)]
    }
    assert fields_offered == {
        RED: [True] * 5 + [False] * 4,
        YELLOW: [True] * 4 + [False] * 5,
        GREEN: [True] * 4 + [False] * 5,
    }
    # Red's 5th turn, one free field left: camp 1 1 1 2 3; forest, fields, a new volcano space
    assert asked_options(g, RED)[4] == places({1, 2, 3}, FOREST + [fields, v1])
    # Yellow's 5th turn, the fields just filled: camp 1 1 1 2 2; forest, its volcano space 1
    # (a 2 there since turn 2) or a new space 2; no fields, no boat (none built), no pass
    assert asked_options(g, YELLOW)[4] == places({1, 2}, FOREST + [v1, v1 + 1])
    # Green's 5th turn: camp 1 1 1 2 2, no volcano pawn yet: forest or a new volcano space 1
    assert asked_options(g, GREEN)[4] == places({1, 2}, FOREST + [v1])

    # the board after the work phase (the rulebook's picture): every camp empty
    F = fields
    assert board(g, RED) == sorted(
        [(0, 2, False), (1, 1, False), (F, 3, True), (F, 3, True), (F, 2, True), (F, 1, True),
         (v1, 3, False), (v1, 2, False), (v1, 1, False)]
    )  # fmt: skip
    assert board(g, YELLOW) == sorted(
        [(2, 1, False), (F, 3, True), (F, 3, True), (F, 3, True),
         (v1, 2, False), (v1, 2, False), (v1, 2, False), (v1, 1, False), (v1, 1, False)]
    )  # fmt: skip
    assert board(g, GREEN) == sorted(
        [(0, 2, False), (1, 2, False), (3, 1, False), (F, 3, True), (F, 3, True), (F, 3, True),
         (v1, 2, False), (v1, 1, False), (v1, 1, False)]
    )  # fmt: skip
    assert not (s.loc == CAMP).any()
    # fields: 6 covered + 10 pawns = all 16; no free field left
    assert (s.loc == fields).sum(axis=1).tolist() == [4, 3, 3]
    assert s.covered == 6 and s.free_fields() == 0
    # no boat yet: nobody at sea
    assert not (s.loc >= lay.ocean0).any()
    # the same position as the production example's board (tests/test_production.py)
    example, _ = rulebook_board()
    for seat in (RED, YELLOW, GREEN):
        assert board(example, seat) == board(g, seat)


# --- R5.2: a player with pawns in camp must place one --------------------------------------------


def test_r5_2_camp_not_empty_must_place_any_strength_it_has_no_pass_no_swap():
    g = scenario(2)
    fields, v0, _, _ = codes(g)
    put(g, 0, 1, CAMP)
    put(g, 0, 3, CAMP)
    put(g, 0, 3, CAMP)
    put(g, 0, 2, 0)  # two board pawns that could be swapped if the camp were empty
    put(g, 0, 1, fields)
    # strengths 1 and 3 (in camp), not 2; any forest space, the fields, a new volcano space;
    # no boat (none built); no pass, no swap
    assert options(g, 0) == places({1, 3}, FOREST + [fields, v0])


def test_r5_2_placing_takes_a_camp_pawn_of_that_strength():
    g = scenario(2)
    a = put(g, 0, 2, CAMP)
    b = put(g, 0, 2, CAMP)
    g.apply_work(0, g.work_codec.place(2, 4))
    assert sorted(g.state.loc[0, [a, b]].tolist()) == [CAMP, 4]
    assert (g.state.loc[0] == CAMP).sum() == 1
    assert events(g, "place") == [{"e": "place", "seat": 0, "strength": 2, "loc": 4, "up": False}]


# --- R5.4 forest ---------------------------------------------------------------------------------


def test_r5_4_forest_any_space_whatever_is_on_it_face_down():
    # forest space 3 (code 2) holds two of seat 1's pawns, one of them face up; seat 0 joins.
    g = scenario(2)
    put(g, 1, 3, 2, up=True)
    put(g, 1, 1, 2)
    pawn = put(g, 0, 2, CAMP)
    script(g, 0, place(g, 2, 2))
    g.work_phase()
    assert g.state.loc[0, pawn] == 2
    assert not g.state.up[0, pawn]
    assert decisions(g) == [(0, g.work_codec.place(2, 2), False)]
    done(g)


# --- R5.5 fields ---------------------------------------------------------------------------------


def test_r5_5_fields_need_a_free_field_one_pawn_each_face_up():
    # 16 fields: 14 covered by disaster tokens, 1 holds seat 1's pawn, 1 is free.
    g = scenario(2)
    s = g.state
    fields, v0, _, _ = codes(g)
    s.covered = 14
    put(g, 1, 2, fields)
    put(g, 0, 3, CAMP)
    put(g, 0, 3, CAMP)
    assert s.free_fields() == 1
    assert ("place", 3, fields) in options(g, 0)
    g.apply_work(0, g.work_codec.place(3, fields))
    assert events(g, "place")[-1] == {
        "e": "place",
        "seat": 0,
        "strength": 3,
        "loc": fields,
        "up": True,
    }
    assert s.free_fields() == 0
    # the last field is taken: no second pawn there
    assert options(g, 0) == places({3}, FOREST + [v0])


def test_r5_5_a_disaster_token_makes_a_field_unusable():
    g = scenario(2)
    fields, v0, _, _ = codes(g)
    g.state.covered = 16
    put(g, 0, 1, CAMP)
    assert options(g, 0) == places({1}, FOREST + [v0])


# --- R5.6 volcano --------------------------------------------------------------------------------


def test_r5_6_volcano_own_spaces_or_one_new_space_face_down():
    # Each clan numbers its own volcano spaces (a space holds only one clan's pawns).
    #   seat 0: space 1 (code 7): a 1;  space 3 (code 9): a 2     -> space 2 (code 8) is new
    #   seat 1: space 1 (code 7): a 3                             -> space 2 (code 8) is new
    g = scenario(2)
    s = g.state
    _, v0, _, _ = codes(g)
    one = put(g, 0, 1, v0)
    put(g, 0, 2, v0 + 2)
    theirs = put(g, 1, 3, v0)
    put(g, 0, 3, CAMP)
    put(g, 1, 1, CAMP)
    volcano0 = {t for _, _, t in options(g, 0) if t >= v0}
    volcano1 = {t for _, _, t in options(g, 1) if t >= v0}
    assert volcano0 == {v0, v0 + 1, v0 + 2}  # own two spaces + one new space
    assert volcano1 == {v0, v0 + 1}  # own space + one new space
    # seat 0 adds its 3 to its own space 1: seat 1's space is not touched
    g.apply_work(0, g.work_codec.place(3, v0))
    space1 = s.pawns_at(0, v0)
    assert len(space1) == 2 and one in space1
    assert int(s.strength[space1].sum()) == 4
    assert not s.up[0, space1].any()  # face down
    assert s.pawns_at(1, v0).tolist() == [theirs]
    # seat 1 opens its new space 2 with its 1, face down (code 8, also seat 0's next new
    # space: the codes are per clan, the spaces are not shared)
    g.apply_work(1, g.work_codec.place(1, v0 + 1))
    (new,) = s.pawns_at(1, v0 + 1)
    assert not s.up[1].any()
    assert s.pawns_at(0, v0 + 1).tolist() == []
    # seat 1's camp is now empty: pass, or swap its two volcano pawns (two spaces)
    assert options(g, 1) == {("pass", 0, 0)} | swaps((theirs, new))


def test_r5_6_first_volcano_pawn_opens_space_1_only():
    g = scenario(3)
    _, v0, _, _ = codes(g)
    put(g, 1, 3, v0)  # another clan's pawns do not block or offer anything to seat 0
    put(g, 2, 3, v0)
    put(g, 0, 2, CAMP)
    assert {t for _, _, t in options(g, 0) if t >= v0} == {v0}


# --- R5.7 ocean ----------------------------------------------------------------------------------


def test_r5_7_boat_only_on_an_own_built_empty_boat_face_up():
    g = scenario(2)
    s = g.state
    fields, v0, ocean0, boat = codes(g)
    put(g, 0, 2, CAMP)
    put(g, 0, 1, CAMP)
    put(g, 0, 1, CAMP)
    build_boat(g, 1)  # another clan's boat is of no use to seat 0
    assert ("place", 2, boat) not in options(g, 0)
    build_boat(g, 0)
    build_boat(g, 0)
    assert options(g, 0) == places({1, 2}, FOREST + [fields, v0, boat])
    g.apply_work(0, g.work_codec.place(2, boat))
    pawn = s.pawns_at(0, ocean0 + 0)
    assert len(pawn) == 1 and s.strength[pawn[0]] == 2 and s.up[0, pawn[0]]
    g.apply_work(0, g.work_codec.place(1, boat))  # the second, still empty boat
    assert len(s.pawns_at(0, ocean0 + 1)) == 1 and s.up[0, s.pawns_at(0, ocean0 + 1)[0]]
    # both boats manned: one pawn per boat
    assert options(g, 0) == places({1}, FOREST + [fields, v0])


# --- V1 open pawns -------------------------------------------------------------------------------


def test_v1_open_pawns_every_pawn_placed_face_up():
    g = scenario(2, variants="open-pawns")
    s = g.state
    fields, v0, _, boat = codes(g)
    build_boat(g, 0)
    for strength in (1, 2, 3, 3):
        put(g, 0, strength, CAMP)
    for strength, target in ((1, 0), (2, v0), (3, fields), (3, boat)):
        g.apply_work(0, g.work_codec.place(strength, target))
    assert [e["up"] for e in events(g, "place")] == [True, True, True, True]
    assert s.up[0, s.loc[0] >= 0].all()


def test_r5_4_r5_6_without_v1_forest_and_volcano_face_down_fields_and_boats_up():
    g = scenario(2)
    s = g.state
    fields, v0, _, boat = codes(g)
    build_boat(g, 0)
    for strength in (1, 2, 3, 3):
        put(g, 0, strength, CAMP)
    for strength, target in ((1, 0), (2, v0), (3, fields), (3, boat)):
        g.apply_work(0, g.work_codec.place(strength, target))
    assert [e["up"] for e in events(g, "place")] == [False, False, True, True]
    assert int(s.up[0].sum()) == 2


# --- R5.3 pass or swap ---------------------------------------------------------------------------


def test_r5_3_a2_empty_camp_pass_or_swap_pawns_in_different_places_differing_in_strength_or_face():
    # Seat 0's camp is empty. Its board:
    #   a 1  forest 1  (down)      b 3  forest 1  (down)
    #   c 2  fields    (up)        d 3  fields    (up)
    #   e 1  volcano 1 (down)
    #   f 2  boat 1    (up)        h 3  boat 2    (up)
    # Same place: a-b (one forest space), c-d (all fields are one place), f-h (boats are
    # interchangeable: one place). Same strength and same face: a-e, c-f, d-h. Same strength
    # but different faces (A2: legal): b-d, b-h.
    g = scenario(2)
    fields, v0, ocean0, _ = codes(g)
    build_boat(g, 0)
    build_boat(g, 0)
    a = put(g, 0, 1, 0)
    b = put(g, 0, 3, 0)
    c = put(g, 0, 2, fields)
    d = put(g, 0, 3, fields)
    e = put(g, 0, 1, v0)
    f = put(g, 0, 2, ocean0)
    h = put(g, 0, 3, ocean0 + 1)
    assert options(g, 0) == {("pass", 0, 0)} | swaps(
        (a, c), (a, d), (a, f), (a, h),
        (b, c), (b, d), (b, e), (b, f), (b, h),
        (c, e), (c, h),
        (d, e), (d, f),
        (e, f), (e, h),
    )  # fmt: skip


def test_r5_3_different_forest_or_volcano_spaces_are_different_places():
    g = scenario(2)
    _, v0, _, _ = codes(g)
    a = put(g, 0, 1, 0)
    b = put(g, 0, 2, 5)
    c = put(g, 0, 1, v0)
    d = put(g, 0, 3, v0 + 1)
    assert options(g, 0) == {("pass", 0, 0)} | swaps((a, b), (a, d), (b, c), (b, d), (c, d))


def test_r5_3_no_pawn_on_board_only_pass():
    g = scenario(2)
    assert options(g, 0) == {("pass", 0, 0)}


def test_r5_3_swap_keeps_faces_except_a_pawn_landing_in_the_fields_turns_up():
    # x 1 forest 1 (down) <-> y 2 fields (up):   x lands in the fields: up; y keeps up
    # u 3 volcano 1 (down) <-> w 2 boat 1 (up):   u keeps down on the boat; w keeps up
    # z 1 forest 4 (up, revealed) <-> v 3 volcano 2 (down): each keeps its face
    g = scenario(2)
    s = g.state
    fields, v0, ocean0, _ = codes(g)
    build_boat(g, 0)
    x = put(g, 0, 1, 0)
    y = put(g, 0, 2, fields)
    u = put(g, 0, 3, v0)
    w = put(g, 0, 2, ocean0)
    z = put(g, 0, 1, 3, up=True)
    v = put(g, 0, 3, v0 + 1)
    for i, j in ((x, y), (u, w), (z, v)):
        action = g.work_codec.swap(i, j)
        assert g.work_mask(0)[action]
        g.apply_work(0, action)
    assert s.loc[0, [x, y, u, w, z, v]].tolist() == [fields, 0, ocean0, v0, v0 + 1, 3]
    assert s.up[0, [x, y, u, w, z, v]].tolist() == [True, True, False, True, True, False]
    assert events(g, "swap")[0] == {"e": "swap", "seat": 0, "pawns": [x, y], "locs": [fields, 0]}


def test_a2_r5_3_equal_strengths_with_different_faces_swap_and_keep_their_faces():
    # The rules book's example: a face-up 2 in the forest (revealed by a contest) and a
    # face-down 2 on the volcano. The swap is legal (A2); each pawn keeps its face, so the
    # revealed 2 now stands on the volcano, where it can be raided (R6.4).
    g = scenario(2)
    s = g.state
    _, v0, _, _ = codes(g)
    up2 = put(g, 0, 2, 2, up=True)
    down2 = put(g, 0, 2, v0)
    same1 = put(g, 0, 1, 4)  # a face-down 1 in the forest ...
    same1b = put(g, 0, 1, v0 + 1)  # ... and one on the volcano: same strength, same face
    assert options(g, 0) == {("pass", 0, 0)} | swaps(
        (up2, down2), (up2, same1), (up2, same1b), (down2, same1), (down2, same1b)
    )
    g.apply_work(0, g.work_codec.swap(up2, down2))
    assert s.loc[0, [up2, down2]].tolist() == [v0, 2]
    assert s.up[0, [up2, down2]].tolist() == [True, False]


def test_r5_3_pass_changes_nothing():
    g = scenario(2)
    put(g, 0, 1, 0)
    before = g.state.loc.copy(), g.state.up.copy()
    g.apply_work(0, g.work_codec.pass_action)
    assert (g.state.loc == before[0]).all() and (g.state.up == before[1]).all()
    assert events(g, "pass") == [{"e": "pass", "seat": 0}]


# --- R5.1: turns, round and round, until every camp is empty -------------------------------------


def test_r5_1_turns_go_round_until_every_camp_is_empty_empty_camps_pass_or_swap():
    # Turn order 2, 0, 1.
    #   seat 2: camp 2 2, board empty
    #   seat 0: camp 1,   board: 1 forest 1, 3 volcano 1 (a swap is possible)
    #   seat 1: camp 1 2 3
    # Round 1: 2, 0, 1 place. Round 2: 2 places its last; 0 (camp empty, 1 still has pawns)
    # swaps; 1 places. Round 3: 2's only option is to pass (its two 2s cannot swap): forced;
    # 0 passes; 1 places its last pawn, and the phase ends at once.
    g = scenario(3)
    s = g.state
    fields, v0, _, _ = codes(g)
    s.turn[:] = [2, 0, 1]
    put(g, 2, 2, CAMP)
    put(g, 2, 2, CAMP)
    put(g, 0, 1, CAMP)
    a = put(g, 0, 1, 0)
    b = put(g, 0, 3, v0)
    for strength in (1, 2, 3):
        put(g, 1, strength, CAMP)
    wc = g.work_codec
    script(g, 2, place(g, 2, 0), place(g, 2, 1))
    script(g, 0, place(g, 1, fields), ("work", wc.swap(a, b)), ("work", wc.pass_action))
    script(g, 1, place(g, 3, 0), place(g, 2, v0), place(g, 1, fields))
    g.work_phase()
    assert decisions(g) == [
        (2, wc.place(2, 0), False),
        (0, wc.place(1, fields), False),
        (1, wc.place(3, 0), False),
        (2, wc.place(2, 1), False),
        (0, wc.swap(a, b), False),
        (1, wc.place(2, v0), False),
        (2, wc.pass_action, True),
        (0, wc.pass_action, False),
        (1, wc.place(1, fields), False),
    ]
    assert not (s.loc == CAMP).any()
    assert s.loc[0, [a, b]].tolist() == [v0, 0]
    # what seat 0 was offered after its camp emptied: pass, or swap any two of a (1, forest,
    # down), b (3, volcano, down) and its 1 in the fields (up): a and that 1 have the same
    # strength but not the same face (A2)
    pass_or_swap = [view.legal[0] for k, view in g.strategies[0].asked][1]
    farmer = s.pawns_at(0, fields)[0]
    assert {wc.decode(int(x)) for x in np.flatnonzero(pass_or_swap)} == {("pass", 0, 0)} | swaps(
        (a, b), (b, farmer), (a, farmer)
    )
    done(g)


def test_r5_1_nothing_happens_when_every_camp_is_empty():
    g = scenario(3)
    put(g, 0, 1, 0)
    put(g, 1, 3, 2)
    g.work_phase()
    assert g.events == []


def test_r5_1_a_lone_player_places_all_its_pawns_others_are_not_asked():
    # Only seat 1 has pawns in camp; turn order 0, 1. Seat 0 has nothing to swap: its pass is
    # forced each round; once seat 1's camp is empty nobody acts.
    g = scenario(2)
    s = g.state
    put(g, 1, 1, CAMP)
    put(g, 1, 3, CAMP)
    wc = g.work_codec
    script(g, 1, place(g, 1, 0), place(g, 3, 1))
    g.work_phase()
    assert decisions(g) == [
        (0, wc.pass_action, True),
        (1, wc.place(1, 0), False),
        (0, wc.pass_action, True),
        (1, wc.place(3, 1), False),
    ]
    assert sorted(s.loc[1, s.loc[1] >= 0].tolist()) == [0, 1]
    done(g)


# --- R5.8: pawns stay on the board ---------------------------------------------------------------


def test_r5_8_pawns_stay_on_the_board_the_next_work_phase_places_only_the_camp():
    g = scenario(2)
    s = g.state
    fields, v0, _, _ = codes(g)
    put(g, 0, 3, CAMP)
    put(g, 1, 2, CAMP)
    script(g, 0, place(g, 3, v0))
    script(g, 1, place(g, 2, fields))
    g.work_phase()
    board = s.loc.copy()
    # next round: one pawn each came back to camp (births, rest); the board stays as it was
    put(g, 0, 1, CAMP)
    put(g, 1, 1, CAMP)
    script(g, 0, place(g, 1, v0))  # joins its own space 1
    script(g, 1, place(g, 1, 4))
    g.work_phase()
    moved = s.loc != board
    assert moved.sum() == 2  # only the two camp pawns moved
    assert s.loc[0, s.loc[0] >= 0].tolist() == [v0, v0]
    assert sorted(s.loc[1, s.loc[1] >= 0].tolist()) == [4, fields]
    done(g)
