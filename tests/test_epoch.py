"""R4 epoch phase: picks in turn order (R4.1, R2), too few cards (R4.2), disaster targets
(R4.3, V5), disaster effects (C3) and who decides what the victim loses (R4.4).

Disaster effects are tested through `Game.disaster(taker, position, card)` (the call the
epoch phase makes when a disaster card is taken) and through the whole epoch phase.
"""

import pytest
from scenario import build_boat, card_id, done, events, give, put, scenario, script

from moaisim.games.moai.engine.decisions import LOSS_BOAT, LOSS_MOAI, LOSS_PAWN
from moaisim.games.moai.rules import CAMP, RESERVE

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

RED, YELLOW, GREEN = 0, 1, 2


def offer(g, *labels):
    """Put these epoch cards on offer (slots 0, 1, ...); returns their ids."""
    ids = [card_id(g, x) if isinstance(x, str) else card_id(g, *x) for x in labels]
    g.state.offer[:] = -1
    g.state.offer[: len(ids)] = ids
    return ids


def turn(g, *seats):
    """Set the hill order and the turn order (the default rule option: the same)."""
    g.state.order[:] = seats
    g.state.turn[:] = seats
    g.state.birdman = seats[0]


def asked(g, seat, kind):
    """(legal mask, info) of each question of `kind` the seat was asked."""
    return [
        (view.legal[0].tolist(), {k: v[0].tolist() for k, v in view.info.items()})
        for k, view in g.strategies[seat].asked
        if k == kind
    ]


def deciders(g, kind):
    return [e["seat"] for e in events(g, "decision") if e["kind"] == kind]


# --- the rulebook's 3-player example ---------------------------------------------------------


def test_r4_rulebook_example_red_boat_yellow_neutral_green_erosion_covers_a_free_field():
    # R3: bids 3 / 2 (a 1 and a Raid) / 1 -> hill order Red, Yellow, Green; Red is bird-man.
    # R4: Red takes boat 3/2, Yellow neutral 3/3, Green erosion 2/3: a disaster token covers a
    # free field. The fourth card (no palm) leaves the game.
    g = scenario(3)
    s = g.state
    s.covered, s.disaster_supply = 5, 5  # R1.1 at 3 players
    boat, neutral, erosion, other = ids = [
        card_id(g, "boat 3/2*"),
        card_id(g, "neutral 3/3*"),
        card_id(g, "erosion 2/3*"),
        card_id(g, "neutral 2/3"),
    ]
    s.epoch_deck = ids + [card_id(g, "fire 3/2*")]
    give(g, RED, c3=1, c1=2, c2=2)
    give(g, YELLOW, c1=1, raid1=1, c2=3)
    give(g, GREEN, c1=2, c2=3)
    script(g, RED, ("bid", [0, 0, 1, 0, 0, 0]), ("pick_epoch", 0))
    script(g, YELLOW, ("bid", [1, 0, 0, 1, 0, 0]), ("pick_epoch", 1))
    script(g, GREEN, ("bid", [1, 0, 0, 0, 0, 0]), ("pick_epoch", 2))

    g.birdman_phase()
    assert s.forest_wood.tolist() == [True, True, True, False, False, False]
    assert s.order.tolist() == [RED, YELLOW, GREEN]
    assert s.birdman == RED
    assert s.discard.tolist() == [2, 0, 1, 1, 0, 0]  # R3.5: the bids are discarded

    g.epoch_phase()
    assert s.held.tolist() == [boat, neutral, erosion]
    assert s.offer.tolist() == [-1, -1, -1, -1]  # R4.1: the unpicked card leaves
    label = g.rules.components.epoch_cards[other].label()
    assert events(g, "unpicked") == [{"e": "unpicked", "cards": [other], "cards_names": [label]}]
    # each chose among the cards still on offer: 4, then 3, then 2
    assert asked(g, RED, "pick_epoch")[0][0] == [True, True, True, True]
    assert asked(g, YELLOW, "pick_epoch")[0][0] == [False, True, True, True]
    assert asked(g, GREEN, "pick_epoch")[0][0] == [False, False, True, True]
    # erosion: no target; one supply token now covers one of the free fields
    assert s.covered == 6
    assert s.disaster_supply == 4
    assert s.free_fields() == 16 - 6
    assert events(g, "erosion") == [{"e": "erosion", "seat": GREEN, "covered": True}]
    assert deciders(g, "disaster_target") == []
    assert events(g, "disaster") == []
    done(g)


# --- R4.1 / R2: picks in turn order --------------------------------------------------------------


def test_r4_1_players_pick_in_turn_order_among_the_cards_left_the_last_card_leaves():
    g = scenario(3)
    s = g.state
    turn(g, 2, 0, 1)
    ids = offer(g, "neutral 3/2*", "neutral 3/3*", "boat 2/2", "neutral 2/3")
    script(g, 2, ("pick_epoch", 3))
    script(g, 0, ("pick_epoch", 0))
    script(g, 1, ("pick_epoch", 2))
    g.epoch_phase()
    assert [e["seat"] for e in events(g, "pick")] == [2, 0, 1]
    assert s.held.tolist() == [ids[0], ids[2], ids[3]]
    assert asked(g, 2, "pick_epoch")[0][0] == [True, True, True, True]
    assert asked(g, 0, "pick_epoch")[0][0] == [True, True, True, False]
    assert asked(g, 1, "pick_epoch")[0][0] == [False, True, True, False]
    assert events(g, "unpicked")[0]["cards"] == [ids[1]]
    assert (s.offer == -1).all()
    done(g)


def test_r2_turn_order_hill_vs_clockwise_changes_who_picks_first():
    # Bids: seat 1 = 3, seat 0 = 2, seat 2 = 1 -> hill order 1, 0, 2.
    # "hill" (default): picks 1, 0, 2. "clockwise" from the bird-man 1: picks 1, 2, 0.
    for option, expected in (("hill", [1, 0, 2]), ("clockwise", [1, 2, 0])):
        g = scenario(3, turn_order=option)
        s = g.state
        s.bids[:] = [2, 3, 1]
        g.hill_order()
        assert s.order.tolist() == [1, 0, 2]
        assert s.turn.tolist() == expected
        offer(g, "neutral 3/2*", "neutral 3/3*", "boat 2/2", "neutral 2/3")
        script(g, expected[0], ("pick_epoch", 0))
        script(g, expected[1], ("pick_epoch", 1))
        script(g, expected[2], ("pick_epoch", 2))
        g.epoch_phase()
        assert [e["seat"] for e in events(g, "pick")] == expected
        done(g)


# --- R4.2: fewer cards than players --------------------------------------------------------------


def test_r4_2_fewer_cards_than_players_the_last_in_order_take_none():
    # 3 players, 2 cards on offer (last round, exhausted deck). Turn order 1, 2, 0.
    g = scenario(3)
    s = g.state
    turn(g, 1, 2, 0)
    ids = offer(g, "fire 3/3", "topple 2/2")
    script(g, 1, ("pick_epoch", 0), ("disaster_target", 1))  # takes the fire, burns himself
    script(g, 2, ("disaster_target", 0))  # takes the topple (forced); seat 0 has no Moai
    g.epoch_phase()
    assert s.held.tolist() == [-1, ids[0], ids[1]]  # seat 2's pick is forced (one card left)
    assert events(g, "no_card") == [{"e": "no_card", "seat": 0}]
    assert events(g, "unpicked")[0]["cards"] == []
    picks = [e for e in events(g, "decision") if e["kind"] == "pick_epoch"]
    assert [(e["seat"], e["forced"]) for e in picks] == [(1, False), (2, True)]
    assert deciders(g, "pick_epoch") == [1, 2]  # seat 0 is never asked
    done(g)


def test_r4_2_one_card_for_three_players():
    g = scenario(3)
    s = g.state
    turn(g, 0, 1, 2)
    (cid,) = offer(g, "neutral 2/3")
    g.epoch_phase()
    assert s.held.tolist() == [cid, -1, -1]
    assert events(g, "no_card") == [{"e": "no_card", "seat": 1}, {"e": "no_card", "seat": 2}]


def test_r4_2_no_card_at_all():
    g = scenario(2)
    g.epoch_phase()
    assert g.state.held.tolist() == [-1, -1]
    assert [e["seat"] for e in events(g, "no_card")] == [0, 1]


# --- R4.3: the target ---------------------------------------------------------------------------


def test_r4_3_taker_chooses_any_clan_himself_included_at_once():
    # Seat 0 takes fire 3/2 and aims it at himself; the disaster happens before seat 1 picks.
    g = scenario(3)
    s = g.state
    s.wood[:] = [2, 1, 1]
    s.wood_supply = 11
    turn(g, 0, 1, 2)
    ids = offer(g, "fire 3/2*", "neutral 3/3*", "boat 2/2", "neutral 2/3")
    script(g, 0, ("pick_epoch", 0), ("disaster_target", 0))
    script(g, 1, ("pick_epoch", 1))
    script(g, 2, ("pick_epoch", 2))
    g.epoch_phase()
    assert asked(g, 0, "disaster_target") == [([True, True, True], {"card": ids[0]})]
    assert s.wood.tolist() == [1, 1, 1]
    assert s.wood_supply == 12
    kinds = [e["e"] for e in g.events]
    assert kinds[kinds.index("pick") + 1 : kinds.index("pick") + 4] == [
        "decision",
        "disaster",
        "burn",
    ]
    assert events(g, "disaster") == [
        {"e": "disaster", "seat": 0, "card": ids[0], "card_name": "fire 3/2*", "target": 0}
    ]
    assert s.counters["disasters_aimed"].tolist() == [1, 0, 0]
    assert s.counters["disasters_suffered"].tolist() == [1, 0, 0]
    done(g)


def test_r4_3_taker_aims_at_another_clan():
    g = scenario(3)
    s = g.state
    s.wood[:] = [1, 1, 3]
    fire = card_id(g, "fire 2/3")
    script(g, 1, ("disaster_target", 2))
    g.disaster(1, 0, fire)
    assert s.wood.tolist() == [1, 1, 2]
    assert s.counters["disasters_aimed"].tolist() == [0, 1, 0]
    assert s.counters["disasters_suffered"].tolist() == [0, 0, 1]
    done(g)


def test_v5_fixed_disasters_hit_the_next_in_turn_order_the_last_hits_the_first():
    # Turn order 2, 0, 1; everyone takes a fire. 2 -> 0, 0 -> 1, and the last (1) -> 2.
    g = scenario(3, variants="fixed-disasters")
    s = g.state
    s.wood[:] = [1, 1, 1]
    s.wood_supply = 12
    turn(g, 2, 0, 1)
    offer(g, "fire 3/2*", "fire 2/3", ("fire 2/2*"), "neutral 2/3")
    script(g, 2, ("pick_epoch", 0))
    script(g, 0, ("pick_epoch", 1))
    script(g, 1, ("pick_epoch", 2))
    g.epoch_phase()
    assert [(e["seat"], e["target"]) for e in events(g, "disaster")] == [(2, 0), (0, 1), (1, 2)]
    assert deciders(g, "disaster_target") == []  # the taker cannot choose
    assert s.wood.tolist() == [0, 0, 0]
    assert s.wood_supply == 15
    done(g)


def test_v5_with_clockwise_turn_order_the_next_is_clockwise():
    # Hill order 1, 0, 2 but the clockwise option makes the turn order 1, 2, 0: seat 1's
    # disaster hits seat 2 (next in turn order), not seat 0 (next on the hill).
    g = scenario(3, variants="fixed-disasters", turn_order="clockwise")
    s = g.state
    s.bids[:] = [2, 3, 1]
    g.hill_order()
    assert s.turn.tolist() == [1, 2, 0]
    s.wood[:] = [1, 1, 1]
    fire = card_id(g, "fire 2/3")
    g.disaster(1, 0, fire)
    assert events(g, "disaster")[0]["target"] == 2
    g.disaster(0, 2, fire)  # the last in turn order hits the first (the bird-man)
    assert events(g, "disaster")[1]["target"] == 1
    assert s.wood.tolist() == [1, 0, 0]


def test_v5_erosion_still_has_no_target():
    g = scenario(2, variants="fixed-disasters")
    s = g.state
    s.covered, s.disaster_supply = 8, 2
    g.disaster(0, 0, card_id(g, "erosion 2/2*"))
    assert (s.covered, s.disaster_supply) == (9, 1)
    assert events(g, "disaster") == []


# --- C3 erosion ----------------------------------------------------------------------------------


def test_c3_erosion_covers_a_free_field():
    g = scenario(2)
    s = g.state
    s.covered, s.disaster_supply = 8, 2
    put(g, 0, 2, g.rules.layout.fields)
    g.disaster(1, 1, card_id(g, "erosion 2/3"))
    assert (s.covered, s.disaster_supply) == (9, 1)
    assert s.free_fields() == 16 - 9 - 1
    assert s.loc[0].tolist().count(g.rules.layout.fields) == 1  # the pawn is untouched
    assert events(g, "erosion") == [{"e": "erosion", "seat": 1, "covered": True}]


def test_c3_erosion_no_free_field_no_effect():
    # 2 players: 8 fields covered, the other 8 hold pawns: no free field.
    g = scenario(2)
    s = g.state
    s.covered, s.disaster_supply = 8, 2
    for seat in (0, 1):
        for strength in (1, 1, 2, 3):
            put(g, seat, strength, g.rules.layout.fields)
    assert s.free_fields() == 0
    g.disaster(0, 0, card_id(g, "erosion 2/3*"))
    assert (s.covered, s.disaster_supply) == (8, 2)
    assert events(g, "erosion") == [{"e": "erosion", "seat": 0, "covered": False}]


def test_c3_erosion_no_token_in_supply_no_effect():
    g = scenario(3)
    s = g.state
    s.covered, s.disaster_supply = 10, 0
    g.disaster(2, 0, card_id(g, "erosion 2/2*"))
    assert (s.covered, s.disaster_supply) == (10, 0)
    assert s.free_fields() == 6
    assert events(g, "erosion")[0]["covered"] is False


# --- C3 fire -------------------------------------------------------------------------------------


def test_c3_fire_target_returns_one_wood_to_the_supply():
    g = scenario(2)
    s = g.state
    s.wood[:] = [0, 3]
    s.wood_supply = 12
    script(g, 0, ("disaster_target", 1))
    g.disaster(0, 0, card_id(g, "fire 3/2*"))
    assert s.wood.tolist() == [0, 2]
    assert s.wood_supply == 13
    assert events(g, "burn") == [{"e": "burn", "seat": 1}]
    done(g)


def test_c3_fire_target_without_wood_nothing_happens():
    g = scenario(2)
    s = g.state
    s.wood[:] = [2, 0]
    s.wood_supply = 13
    script(g, 0, ("disaster_target", 1))
    g.disaster(0, 0, card_id(g, "fire 3/2*"))
    assert s.wood.tolist() == [2, 0]
    assert s.wood_supply == 13
    assert events(g, "burn") == []
    assert events(g, "disaster")[0]["target"] == 1  # it was still aimed at seat 1
    done(g)


# --- C3 fire-boat and storm ----------------------------------------------------------------------


def test_c3_fire_boat_wood_and_a_boat_the_sailor_goes_to_camp_victim_chooses():
    # Seat 0 aims fire-boat at seat 1, who has 1 wood and two boats:
    #   boat slot 0: seat 1's strength-2 pawn (face up)   boat slot 1: empty
    # Seat 1 (the victim) chooses to lose boat 0: the card leaves, the sailor goes to camp.
    g = scenario(2)
    s = g.state
    lay = g.rules.layout
    s.wood[:] = [0, 1]
    s.wood_supply = 14
    b0, b1 = build_boat(g, 1), build_boat(g, 1)
    assert (b0, b1) == (0, 1)
    boat_card = int(s.boats[1, 0])
    sailor = put(g, 1, 2, lay.ocean0 + 0)
    forester = put(g, 1, 3, 0)
    cid = card_id(g, "fire-boat 2/2")
    script(g, 0, ("disaster_target", 1))
    script(g, 1, ("disaster_loss", 0))
    g.disaster(0, 0, cid)
    assert s.wood.tolist() == [0, 0]
    assert s.wood_supply == 15
    assert s.boats[1, 0] == -1 and s.boats[1, 1] >= 0
    assert boat_card not in s.boats  # out of the game
    assert s.loc[1, sailor] == CAMP and not s.up[1, sailor]
    assert s.loc[1, forester] == 0
    legal, info = asked(g, 1, "disaster_loss")[0]
    assert [i for i, ok in enumerate(legal) if ok] == [0, 1]  # the victim's two boats
    assert info == {"what": LOSS_BOAT, "card": cid}
    assert deciders(g, "disaster_loss") == [1]  # R4.4: the victim, not the taker
    assert events(g, "lose_boat") == [{"e": "lose_boat", "seat": 1, "slot": 0, "sailor": [sailor]}]
    done(g)


def test_c3_fire_boat_an_empty_boat_lost_the_sailor_on_the_other_stays():
    g = scenario(2)
    s = g.state
    build_boat(g, 1)
    build_boat(g, 1)
    sailor = put(g, 1, 3, g.rules.layout.ocean0 + 0)
    script(g, 0, ("disaster_target", 1))
    script(g, 1, ("disaster_loss", 1))
    g.disaster(0, 0, card_id(g, "fire-boat 2/2"))
    assert s.boats[1, 0] >= 0 and s.boats[1, 1] == -1
    assert s.loc[1, sailor] == g.rules.layout.ocean0 and s.up[1, sailor]
    assert events(g, "burn") == []  # no wood to burn
    done(g)


def test_c3_fire_boat_without_boat_burns_only_the_wood():
    g = scenario(2)
    s = g.state
    s.wood[:] = [2, 0]
    build_boat(g, 1)  # another clan's boat is safe
    script(g, 1, ("disaster_target", 0))
    g.disaster(1, 1, card_id(g, "fire-boat 2/2"))
    assert s.wood.tolist() == [1, 0]
    assert (s.boats[0] == -1).all() and s.boats[1, 0] >= 0
    assert events(g, "lose_boat") == []
    done(g)


def test_c3_storm_takes_a_boat_not_wood_a_single_boat_is_forced():
    g = scenario(3)
    s = g.state
    s.wood[:] = [0, 0, 2]
    build_boat(g, 2)
    sailor = put(g, 2, 1, g.rules.layout.ocean0)
    script(g, 0, ("disaster_target", 2))
    g.disaster(0, 0, card_id(g, "storm 3/2*"))
    assert s.wood.tolist() == [0, 0, 2]
    assert (s.boats[2] == -1).all()
    assert s.loc[2, sailor] == CAMP and not s.up[2, sailor]
    loss = [e for e in events(g, "decision") if e["kind"] == "disaster_loss"]
    assert loss == [
        {"e": "decision", "seat": 2, "kind": "disaster_loss", "action": 0, "forced": True}
    ]
    done(g)


def test_c3_storm_on_a_clan_without_boat_nothing_happens():
    g = scenario(2)
    s = g.state
    s.wood[:] = [1, 1]
    script(g, 0, ("disaster_target", 1))
    g.disaster(0, 0, card_id(g, "storm 2/3"))
    assert s.wood.tolist() == [1, 1]
    assert events(g, "lose_boat") == []
    assert deciders(g, "disaster_loss") == []
    done(g)


# --- C3 famine -----------------------------------------------------------------------------------


def test_c3_famine_victim_picks_a_pawn_from_the_board_to_its_reserve():
    # Seat 1 is hit; it has pawns on the board (forest, fields, volcano) and in camp.
    # Only board pawns may be chosen; seat 1 (victim) chooses its forest pawn.
    g = scenario(2)
    s = g.state
    lay = g.rules.layout
    forest = put(g, 1, 1, 3)
    field = put(g, 1, 3, lay.fields)
    volcano = put(g, 1, 2, lay.volcano0)
    camp = put(g, 1, 3, CAMP)
    cid = card_id(g, "famine 2/2*")
    script(g, 0, ("disaster_target", 1))
    script(g, 1, ("disaster_loss", forest))
    g.disaster(0, 0, cid)
    legal, info = asked(g, 1, "disaster_loss")[0]
    assert [i for i, ok in enumerate(legal) if ok] == sorted([forest, field, volcano])
    assert info == {"what": LOSS_PAWN, "card": cid}
    assert s.loc[1, forest] == RESERVE
    assert s.loc[1, camp] == CAMP
    assert (s.loc[1] >= 0).sum() == 2
    assert events(g, "lose_pawn") == [
        {"e": "lose_pawn", "seat": 1, "pawn": forest, "strength": 1, "at": 3}
    ]
    done(g)


def test_c3_famine_face_up_pawn_lost_turns_down_in_the_reserve():
    g = scenario(2)
    s = g.state
    field = put(g, 0, 2, g.rules.layout.fields)
    script(g, 0, ("disaster_target", 0))
    g.disaster(0, 0, card_id(g, "famine 2/2"))  # his only board pawn: forced
    assert s.loc[0, field] == RESERVE and not s.up[0, field]
    done(g)


def test_c3_famine_with_no_pawn_on_the_board_takes_one_from_camp():
    g = scenario(2)
    s = g.state
    one = put(g, 1, 1, CAMP)
    three = put(g, 1, 3, CAMP)
    script(g, 0, ("disaster_target", 1))
    script(g, 1, ("disaster_loss", three))
    g.disaster(0, 0, card_id(g, "famine 2/3*"))
    legal, _ = asked(g, 1, "disaster_loss")[0]
    assert [i for i, ok in enumerate(legal) if ok] == [one, three]
    assert s.loc[1, three] == RESERVE and s.loc[1, one] == CAMP
    done(g)


def test_c3_famine_on_a_clan_with_no_pawn_nothing_happens():
    g = scenario(2)
    script(g, 0, ("disaster_target", 1))
    g.disaster(0, 0, card_id(g, "famine 2/2*"))
    assert (g.state.loc[1] == RESERVE).all()
    assert events(g, "lose_pawn") == []
    done(g)


# --- C3 topple -----------------------------------------------------------------------------------


def test_c3_topple_victim_picks_a_moai_it_leaves_the_game():
    # Tiles are sorted by height: 3 3 3 4 4 4 5 5 5 ... Seat 1 holds a 4 (tile 3) and an
    # 8 (tile 15); seat 0 holds a 9 (tile 18). Seat 1 is hit and gives up its 4.
    g = scenario(2)
    s = g.state
    heights = g.rules.components.moai_heights
    assert (heights[3], heights[15], heights[18]) == (4, 8, 9)
    s.moai_owner[[3, 15]] = 1
    s.moai_owner[18] = 0
    cid = card_id(g, "topple 2/3*")
    script(g, 0, ("disaster_target", 1))
    script(g, 1, ("disaster_loss", 3))
    g.disaster(0, 0, cid)
    legal, info = asked(g, 1, "disaster_loss")[0]
    assert [i for i, ok in enumerate(legal) if ok] == [3, 15]
    assert info == {"what": LOSS_MOAI, "card": cid}
    assert s.moai_owner[3] == -2  # out of the game, not back in the supply
    assert s.moai_owner[15] == 1 and s.moai_owner[18] == 0
    assert s.moai_height(1) == 8
    assert events(g, "lose_moai") == [{"e": "lose_moai", "seat": 1, "tile": 3, "height": 4}]
    done(g)


def test_c3_topple_on_a_clan_without_moai_nothing_happens():
    g = scenario(2)
    s = g.state
    s.moai_owner[0] = 0
    script(g, 0, ("disaster_target", 1))
    g.disaster(0, 0, card_id(g, "topple 2/2"))
    assert s.moai_owner[0] == 0 and (s.moai_owner[1:] == -1).all()
    assert events(g, "lose_moai") == []
    done(g)


# --- R4.4 through the epoch phase ----------------------------------------------------------------


def test_r4_4_victim_decides_its_loss_during_the_epoch_phase():
    # Turn order 0, 1. Seat 0 takes famine and hits seat 1; seat 1 chooses the pawn (its
    # volcano 3, not its forest 1), then picks its own card.
    g = scenario(2)
    s = g.state
    turn(g, 0, 1)
    lay = g.rules.layout
    low = put(g, 1, 1, 0)
    high = put(g, 1, 3, lay.volcano0)
    ids = offer(g, "famine 2/2*", "neutral 3/3*", "neutral 2/3")
    script(g, 0, ("pick_epoch", 0), ("disaster_target", 1))
    script(g, 1, ("disaster_loss", high), ("pick_epoch", 2))
    g.epoch_phase()
    assert s.loc[1, high] == RESERVE and s.loc[1, low] == 0
    assert s.held.tolist() == [ids[0], ids[2]]
    order = [(e["seat"], e["kind"]) for e in events(g, "decision")]
    assert order == [
        (0, "pick_epoch"),
        (0, "disaster_target"),
        (1, "disaster_loss"),
        (1, "pick_epoch"),
    ]
    done(g)
