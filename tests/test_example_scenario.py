"""The rulebook's example round ("Exemple de tour de jeu", then the production and review
examples), phase by phase, and its forest part (R6.1) on its own."""

import numpy as np
import pytest
from scenario import card_id, done, events, give, put, scenario, script
from test_production import rulebook_board
from test_review import birth, camp_strengths
from test_work import board, place, rulebook_work_plan

from moaisim.games.moai.rules import CAMP

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

RED, YELLOW, GREEN = 0, 1, 2


def test_r2_rulebook_example_round_birdman_epoch_work_production_review():
    """The whole example round at 3 players, each phase's outcome as the rulebook states it.

    Bird-man: Red bids a 3, Yellow a 1 and a Raid (1), Green a 1; three of the four cards
    have a palm. Epoch: Red boat 3/2*, Yellow neutral 3/3*, Green erosion 2/3*. Work: the 27
    placements of tests/test_work.py. Production: Red wins the tie on space 1 (bird-man),
    Green space 2, Yellow space 3 alone; Red keeps its wood, Yellow carves 8 m, Green 4 m;
    everybody feeds 9 members. Review: Red draws 3, rests 2, one birth (1), builds its boat;
    Yellow draws 3, rests 3, two births (1 and 3: Yellow kept a 1 from its hand, R7.3);
    Green draws 2, rests 3, one birth (2).
    """
    g = scenario(3)
    s, lay = g.state, g.rules.layout
    fields, v1 = lay.fields, lay.volcano0
    s.birdman = GREEN  # last round's bird-man; no tie, so he decides nothing
    s.covered, s.disaster_supply = 5, 5  # R1.1 at 3 players
    boat, neutral, erosion, other, later = ids = [
        card_id(g, x)
        for x in ("boat 3/2*", "neutral 3/3*", "erosion 2/3*", "neutral 2/3", "fire 3/2*")
    ]
    s.epoch_deck = list(ids)
    give(g, RED, c3=1)
    give(g, YELLOW, c1=2, raid1=1)  # bids a 1 and the Raid, keeps a 1
    give(g, GREEN, c1=1)
    for seat in (RED, YELLOW, GREEN):
        for strength in (1, 1, 1, 2, 2, 2, 3, 3, 3):
            put(g, seat, strength, CAMP)
    s.deck = [0, 0, 2, 1, 2, 2, 1, 2]  # the review's draws: Red 1 1 3, Yellow 2 3 3, Green 2 3

    # --- 1. bird-man -----------------------------------------------------------------------
    script(g, RED, ("bid", [0, 0, 1, 0, 0, 0]))
    script(g, YELLOW, ("bid", [1, 0, 0, 1, 0, 0]))
    script(g, GREEN, ("bid", [1, 0, 0, 0, 0, 0]))
    g.birdman_phase()
    assert s.round == 1 and not s.last_round
    assert s.offer.tolist() == ids[:4] and s.epoch_deck == [later]
    assert s.forest_wood.tolist() == [True, True, True, False, False, False]
    assert s.wood_supply == 12
    assert s.bids.tolist() == [3, 2, 1]
    assert s.order.tolist() == [RED, YELLOW, GREEN] and s.birdman == RED
    assert s.hand.tolist() == [[0] * 6, [1, 0, 0, 0, 0, 0], [0] * 6]

    # --- 2. epoch ----------------------------------------------------------------------------
    script(g, RED, ("pick_epoch", 0))
    script(g, YELLOW, ("pick_epoch", 1))
    script(g, GREEN, ("pick_epoch", 2))
    g.epoch_phase()
    assert s.held.tolist() == [boat, neutral, erosion]
    assert events(g, "unpicked")[0]["cards"] == [other]
    assert events(g, "erosion") == [{"e": "erosion", "seat": GREEN, "covered": True}]
    assert (s.covered, s.disaster_supply) == (6, 4)

    # --- 3. work -----------------------------------------------------------------------------
    for seat, moves in rulebook_work_plan(g).items():
        script(g, seat, *(place(g, strength, target) for strength, target in moves))
    g.work_phase()
    assert len(events(g, "place")) == 27 and not (s.loc == CAMP).any()
    assert (s.loc == fields).sum(axis=1).tolist() == [4, 3, 3]
    assert s.covered + (s.loc == fields).sum() == 16  # every field used
    # the board of the rulebook's picture (tests/test_production.py, `rulebook_board`):
    #   forest space:  1          2          3          4
    #   pawns:         R2 G2      R1 G2      Y1         G1
    example, _ = rulebook_board()
    assert [board(g, q) for q in range(3)] == [board(example, q) for q in range(3)]

    # --- 4. production -----------------------------------------------------------------------
    script(g, RED, ("forest_tie", RED), ("finish_moai", lay.volcano))  # Red keeps its wood
    script(g, YELLOW, ("finish_moai", 0))
    script(g, GREEN, ("finish_moai", 0))
    g.production_phase()
    # forest: Red (tie 2-2, the bird-man decides), Green (2 over 1), Yellow alone (unrevealed)
    assert [(e["space"], e["strengths"], e["winner"]) for e in events(g, "forest")] == [
        (0, {"0": 2, "2": 2}, RED),
        (1, {"0": 1, "2": 2}, GREEN),
        (2, {}, YELLOW),
    ]  # space 4 (Green alone, no wood): nothing to settle
    assert not s.up[YELLOW, s.pawns_at(YELLOW, 2)].any()
    assert not s.up[GREEN, s.pawns_at(GREEN, 3)].any()  # alone on space 4, no wood
    # volcano: Red shows nothing; Yellow 8 m and Green 4 m, a wood each for transport
    assert [(e["seat"], e["height"], e["tile_height"]) for e in events(g, "moai")] == [
        (YELLOW, 8, 8),
        (GREEN, 4, 4),
    ]
    assert not s.up[RED, s.pawns_at(RED, v1)].any()
    assert s.wood.tolist() == [1, 0, 0] and s.wood_supply == 14
    # fields: 9 food for 9 members each (Red 3+3+2+1, Yellow 3+3+3, Green 3+3+3)
    feed = [(e["seat"], e["food"], e["mouths"]) for e in events(g, "feed")]
    assert feed == [(RED, 9, 9), (YELLOW, 9, 9), (GREEN, 9, 9)]
    assert not events(g, "starve") and not events(g, "raid")

    # --- 5. review ---------------------------------------------------------------------------
    def pawn(seat, loc, strength):
        return next(int(i) for i in s.pawns_at(seat, loc) if s.strength[i] == strength)

    red_rest = [pawn(RED, 1, 1), pawn(RED, v1, 3)]  # the shown 1 of space 2, a hidden sculptor
    yellow_rest = [pawn(YELLOW, 2, 1), pawn(YELLOW, v1, 2), pawn(YELLOW, fields, 3)]
    green_rest = [pawn(GREEN, 0, 2), pawn(GREEN, v1, 2), pawn(GREEN, fields, 3)]
    assert s.up[RED, red_rest].tolist() == [True, False]
    assert s.up[YELLOW, yellow_rest].tolist() == [False, True, True]
    script(g, RED, *(("rest", i) for i in red_rest), ("birth", birth(0, 0)), ("boat", 1))
    script(g, YELLOW, *(("rest", i) for i in yellow_rest))
    script(g, YELLOW, ("birth", birth(0, 1)), ("birth", birth(2, 2)))
    script(g, GREEN, *(("rest", i) for i in green_rest), ("birth", birth(1, 2)))
    g.review_phase()
    done(g)
    assert [(e["seat"], e["cards"]) for e in events(g, "draw")] == [
        (RED, [0, 0, 2]),
        (YELLOW, [1, 2, 2]),
        (GREEN, [1, 2]),
    ]
    rested = [(e["seat"], e["at"], e["shown"]) for e in events(g, "rest")]
    assert rested == [
        (RED, 1, True), (RED, v1, False),
        (YELLOW, 2, False), (YELLOW, v1, True), (YELLOW, fields, True),
        (GREEN, 0, True), (GREEN, v1, True), (GREEN, fields, True),
    ]  # fmt: skip
    births = [(e["seat"], e["strength"]) for e in events(g, "birth")]
    assert births == [(RED, 1), (YELLOW, 1), (YELLOW, 3), (GREEN, 2)]
    assert camp_strengths(g, RED) == [1, 1, 3]
    assert camp_strengths(g, YELLOW) == [1, 1, 2, 3, 3]
    assert camp_strengths(g, GREEN) == [2, 2, 2, 3]
    # Red builds its boat with its wood and keeps the card; the others discard theirs
    assert [(e["seat"], e["card"]) for e in events(g, "boat")] == [(RED, boat)]
    assert s.boats[RED, 0] == boat and (s.boats[[YELLOW, GREEN]] == -1).all()
    assert s.held.tolist() == [-1, -1, -1]
    # the end of the round: wood all back in the supply (3 out, 2 Moai + 1 boat paid)
    assert s.wood.tolist() == [0, 0, 0] and s.wood_supply == 15
    assert not s.forest_wood.any()
    heights = np.asarray(g.rules.components.moai_heights)
    assert sorted(heights[s.moai_owner == YELLOW].tolist()) == [8]
    assert sorted(heights[s.moai_owner == GREEN].tolist()) == [4]
    assert not (s.moai_owner == RED).any()
    # living pawns: 9 each, plus the newborns
    assert (s.loc >= CAMP).sum(axis=1).tolist() == [10, 11, 10]
    assert s.hand.tolist() == [[0, 0, 1, 0, 0, 0], [0] * 6, [0] * 6]
    # the next round is an ordinary one, and it starts from this board
    assert not s.last_round and s.epoch_deck == [later]
    assert board(g, RED) == sorted(
        [(0, 2, True), (fields, 3, True), (fields, 3, True), (fields, 2, True),
         (fields, 1, True), (v1, 2, False), (v1, 1, False)]
    )  # fmt: skip


def test_r6_1_rulebook_forest_example_tie_for_red_green_wins_2_yellow_alone_3():
    # Red 0 (bird-man), Yellow 1, Green 2. Wood on spaces 1-3.
    g = scenario(3)
    s = g.state
    s.birdman = 0
    s.forest_wood[:3] = True
    put(g, 0, 2, 0)  # Red 2 on space 1
    put(g, 2, 2, 0)  # Green 2 on space 1: tie
    put(g, 0, 1, 1)  # Red 1 on space 2
    put(g, 2, 3, 1)  # Green 3 on space 2: Green wins
    yellow = put(g, 1, 3, 2)  # Yellow alone on space 3
    script(g, 0, ("forest_tie", 0))  # the bird-man breaks the tie for Red
    g.forest()
    assert s.wood.tolist() == [1, 1, 1]
    assert not s.up[1, yellow]  # Yellow takes it without revealing
    assert s.up[0].sum() == 2 and s.up[2].sum() == 2
    assert [e["winner"] for e in events(g, "forest")] == [0, 2, 1]
    done(g)
