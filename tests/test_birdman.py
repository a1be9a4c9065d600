"""R3 bird-man phase: reveal and palms (R3.1), the Admiral (R3.2, R8.1), bids (R3.3), hill
order and ties (R3.4, V2, V4), the new bird-man and the discard (R3.5).

Card types in bids and hands: [1, 2, 3, raid1, raid2, raid3] counts.
"""

from importlib.resources import files

import numpy as np
import pytest
from scenario import Script, card_id, done, events, give, put, scenario, script

from moaisim.errors import IllegalActionError

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

RED, YELLOW, GREEN = 0, 1, 2
NO_BID = [0, 0, 0, 0, 0, 0]


def deck(g, *labels):
    """Put these epoch cards on top of the epoch deck, in order ("label" or ("label", nth))."""
    ids = [card_id(g, x) if isinstance(x, str) else card_id(g, *x) for x in labels]
    g.state.epoch_deck = list(ids)
    return ids


def distinct_bids(g):
    """Seat k bids k cards of value 1 (seat 0 has none): no tie, hill order p-1, ..., 0."""
    for seat in range(1, g.rules.players):
        give(g, seat, c1=seat)
        script(g, seat, ("bid", [seat, 0, 0, 0, 0, 0]))


class Peek(Script):
    """A Script that copies what its views show *when asked* (views read the live state
    lazily, so a view kept in `asked` shows the end of the phase, not the moment of asking)."""

    def __init__(self, steps=()):
        super().__init__(steps)
        self.bids_seen: list[list[int]] = []
        self.hand_sizes_seen: list[list[int]] = []

    def _next(self, view):
        self.bids_seen.append(view.bids[0].tolist())
        self.hand_sizes_seen.append(view.hand_sizes[0].tolist())
        return super()._next(view)


def asked_legal(g, seat, kind):
    """The legal masks of the questions of `kind` the seat was asked (copied at ask time)."""
    return [view.legal[0].tolist() for k, view in g.strategies[seat].asked if k == kind]


# --- R3.1-R3.5: the rulebook's 3-player example ------------------------------------------------


def test_r3_rulebook_example_bids_3_2_1_red_becomes_birdman_wood_on_spaces_1_to_3():
    # Red bids a 3, Yellow a 1 and a Raid (value 1), Green a 1. Four cards are revealed, three
    # of them with a palm: wood on forest spaces 1-3. Hill order Red, Yellow, Green.
    g = scenario(3)
    s = g.state
    s.birdman = GREEN  # whoever held the token last round; no tie, so he decides nothing
    ids = deck(g, "boat 3/2*", "neutral 3/3*", "erosion 2/3*", "neutral 2/3", "fire 3/2*")
    give(g, RED, c3=1, c1=2, c2=2)
    give(g, YELLOW, c1=1, raid1=1, c2=3)
    give(g, GREEN, c1=2, c2=3)
    script(g, RED, ("bid", [0, 0, 1, 0, 0, 0]))
    script(g, YELLOW, ("bid", [1, 0, 0, 1, 0, 0]))
    script(g, GREEN, ("bid", [1, 0, 0, 0, 0, 0]))

    g.birdman_phase()

    assert s.round == 1
    assert s.offer.tolist() == ids[:4]  # players + 1 cards
    assert s.epoch_deck == ids[4:]
    assert not s.last_round
    #   forest space: 1  2  3  4  5  6
    #   wood:         W  W  W  .  .  .
    assert s.forest_wood.tolist() == [True, True, True, False, False, False]
    assert s.wood_supply == 15 - 3
    assert events(g, "reveal")[0]["wood"] == [0, 1, 2]
    assert s.bids.tolist() == [3, 2, 1]  # the Raid card counts its value
    assert s.order.tolist() == [RED, YELLOW, GREEN]
    assert s.turn.tolist() == [RED, YELLOW, GREEN]
    assert s.birdman == RED
    # R3.5: all bid cards go to the discard pile: two 1s, a 3, a Raid 1
    assert s.discard.tolist() == [2, 0, 1, 1, 0, 0]
    assert s.hand.tolist() == [[2, 2, 0, 0, 0, 0], [0, 3, 0, 0, 0, 0], [1, 3, 0, 0, 0, 0]]
    assert [e["seat"] for e in events(g, "decision")] == [RED, YELLOW, GREEN]
    assert events(g, "hill")[0]["order"] == [RED, YELLOW, GREEN]
    done(g)


def test_r3_1_rulebook_four_players_draw_five_cards_wood_on_spaces_1_2_3_in_order():
    # "à quatre joueurs, par exemple, piochez cinq cartes": players + 1 = 5 cards. Their palms
    # are on the 2nd, 4th and 5th cards; one token per palm goes on spaces 1, 2, 3 in turn,
    # whichever cards carry them. The 6th card (a palm too) stays in the deck: no wood for it.
    #
    #   revealed:  neutral 2/3 | boat 3/2* | fire 2/3 | neutral 3/3* | erosion 2/2*
    #   deck:      neutral 3/2*
    #   forest:    1 W   2 W   3 W   4 .   5 .   6 .
    g = scenario(4)
    s = g.state
    ids = deck(
        g, "neutral 2/3", "boat 3/2*", "fire 2/3", "neutral 3/3*", "erosion 2/2*", "neutral 3/2*"
    )
    distinct_bids(g)
    g.birdman_phase()
    assert s.offer.tolist() == ids[:5]
    assert s.epoch_deck == ids[5:]
    assert not s.last_round
    assert s.forest_wood.tolist() == [True, True, True, False, False, False]
    assert s.wood_supply == 15 - 3
    assert events(g, "reveal")[0]["cards"] == ids[:5]
    assert events(g, "reveal")[0]["wood"] == [0, 1, 2]
    assert s.order.tolist() == [3, 2, 1, 0]
    done(g)


# --- R3.1: palms and wood --------------------------------------------------------------------


def test_r3_1_palms_put_wood_on_spaces_in_order_one_per_space():
    # 5 players reveal 6 cards, all with a palm: wood on all 6 spaces.
    g = scenario(5)
    deck(
        g,
        "neutral 3/2*",
        "neutral 3/3*",
        "neutral 2/2*",
        ("neutral 3/2*", 1),
        "boat 3/2*",
        "boat 2/2*",
        "neutral 2/3",
    )
    distinct_bids(g)
    g.birdman_phase()
    assert g.state.forest_wood.tolist() == [True] * 6
    assert g.state.wood_supply == 15 - 6
    # seat 0's hand is empty: its bid is forced (nothing), it is not asked
    assert events(g, "decision")[0] == {
        "e": "decision",
        "seat": 0,
        "kind": "bid",
        "action": NO_BID,
        "forced": True,
    }
    assert g.state.order.tolist() == [4, 3, 2, 1, 0]
    done(g)


def test_r3_1_palms_beyond_the_last_space_are_lost(tmp_path):
    # A component set with 3 forest spaces: 4 palms at 3 players put wood on spaces 1-3 only;
    # the 4th token stays in the supply.
    text = files("moaisim.games.moai.rules").joinpath("default.toml").read_text("utf-8")
    rules_file = tmp_path / "three-spaces.toml"
    rules_file.write_text(text.replace("forest_spaces = 6", "forest_spaces = 3"))
    g = scenario(3, components=str(rules_file))
    deck(g, "neutral 3/2*", "neutral 3/3*", "neutral 2/2*", "boat 3/2*", "neutral 2/3")
    distinct_bids(g)
    g.birdman_phase()
    assert g.state.forest_wood.tolist() == [True, True, True]
    assert g.state.wood_supply == 15 - 3
    done(g)


def test_r3_1_cards_without_palm_put_no_wood():
    g = scenario(2)
    deck(g, "neutral 2/3", "boat 2/2", "fire 2/3", "neutral 3/2*")
    distinct_bids(g)
    g.birdman_phase()
    assert not g.state.forest_wood.any()
    assert g.state.wood_supply == 15
    assert events(g, "reveal")[0]["wood"] == []


def test_r3_1_wood_supply_limits_the_tokens():
    # 3 palms but only 2 wood tokens left in the supply: spaces 1 and 2 only.
    g = scenario(3)
    g.state.wood_supply = 2
    deck(g, "boat 3/2*", "neutral 3/3*", "erosion 2/3*", "neutral 2/3", "fire 2/3")
    distinct_bids(g)
    g.birdman_phase()
    assert g.state.forest_wood.tolist() == [True, True, False, False, False, False]
    assert g.state.wood_supply == 0
    assert events(g, "reveal")[0]["wood"] == [0, 1]


def test_r3_1_no_wood_in_supply_no_tokens():
    g = scenario(3)
    g.state.wood_supply = 0
    deck(g, "boat 3/2*", "neutral 3/3*", "erosion 2/3*", "neutral 2/3", "fire 2/3")
    distinct_bids(g)
    g.birdman_phase()
    assert not g.state.forest_wood.any()
    assert g.state.wood_supply == 0


@pytest.mark.parametrize("spent_wood", ["supply", "out"])
def test_a1_r3_1_spent_wood_discarded_tokens_go_to_the_supply_or_out_of_the_game(spent_wood):
    """A1: every wood token discarded or spent goes back to the supply (default) or, with
    `spent_wood = "out"`, leaves the game for good: a fire's burnt token (C3), a forest token
    nobody claims (R6.1), the transport of a Moai (R6.2), the building of a boat (R7.4). A token
    a clan wins in the forest is not discarded.

        start:   supply 10; forest: W on space 1 (no pawn), W on space 2 (seat 0's 2)
                 seat 0: 1 wood, a 3 on volcano space 1     seat 1: 2 wood, boat 2/2 card
        fire (seat 0 aims at seat 1)    seat 1: 2 -> 1 wood, 1 token discarded
        forest                          space 1: discarded; space 2: seat 0 -> 2 wood
        volcano (seat 0 finishes 3 m)   seat 0: 2 -> 1 wood, 1 token spent
        review (seat 1 builds its boat) seat 1: 1 -> 0 wood, 1 token spent
    """
    g = scenario(2, spent_wood=spent_wood)
    s, lay = g.state, g.rules.layout
    out = spent_wood == "out"
    s.wood[:] = [1, 2]
    s.forest_wood[:2] = True
    s.wood_supply = 15 - 3 - 2
    put(g, 0, 2, 1)
    put(g, 0, 3, lay.volcano0)
    s.held[1] = card_id(g, "boat 2/2")

    def wood():
        return s.wood.tolist(), s.forest_wood[:2].tolist(), (s.wood_supply, s.wood_out)

    def discarded(k):
        """(supply, out of the game) once k tokens have been discarded or spent."""
        return (10, k) if out else (10 + k, 0)

    assert wood() == ([1, 2], [True, True], (10, 0))
    script(g, 0, ("disaster_target", 1))
    g.disaster(0, 0, card_id(g, "fire 2/3"))  # C3
    assert wood() == ([1, 1], [True, True], discarded(1))
    g.forest()  # R6.1: space 1 has no pawn; seat 0 alone on space 2 takes its token
    assert wood() == ([2, 1], [False, False], discarded(2))
    script(g, 0, ("finish_moai", 0))
    g.volcano()  # R6.2: seat 0 pays 1 wood for its 3 m statue
    assert [e["tile_height"] for e in events(g, "moai")] == [3]
    assert wood() == ([1, 1], [False, False], discarded(3))
    script(g, 1, ("boat", 1))
    g.review_phase()  # R7.4: seat 1 pays 1 wood for its boat
    assert [e["seat"] for e in events(g, "boat")] == [1]
    assert wood() == ([1, 0], [False, False], discarded(4))
    # 15 tokens in all: seat 0's 1, then 14 in the supply, or 10 there and 4 out of the game
    assert (s.wood_supply, s.wood_out) == {"supply": (14, 0), "out": (10, 4)}[spent_wood]
    done(g)


# --- R3.2 / R8.1: the Admiral and the end of the epoch deck ------------------------------------


def test_r3_2_admiral_is_set_aside_revealing_goes_on_and_it_is_the_last_round():
    # 3 players: 4 cards. The Admiral is the 3rd card revealed; it does not count and does not
    # take a slot: the next two cards fill the offer. Its missing palm changes nothing.
    g = scenario(3)
    ids = deck(
        g, "topple 2/3*", "famine 2/2", "Admiral Roggeveen", "fire 3/3", "topple 2/2", "fire 2/2"
    )
    distinct_bids(g)
    g.birdman_phase()
    s = g.state
    admiral = ids[2]
    assert s.offer.tolist() == [ids[0], ids[1], ids[3], ids[4]]
    assert admiral not in s.offer
    assert s.epoch_deck == [ids[5]]  # the rest of the deck stays
    assert s.last_round  # R8.1
    reveal = events(g, "reveal")[0]
    assert reveal["admiral"] and reveal["last_round"]
    assert reveal["cards"] == [ids[0], ids[1], ids[3], ids[4]]
    assert s.forest_wood.tolist() == [True] + [False] * 5  # one palm among the 4 cards


def test_r3_2_admiral_with_too_few_cards_behind_it_leaves_a_short_offer():
    # The deck holds 3 cards, the Admiral among them: only 2 cards are on offer (R4.2 follows).
    g = scenario(3)
    ids = deck(g, "fire 3/3", "Admiral Roggeveen", "topple 2/2")
    distinct_bids(g)
    g.birdman_phase()
    s = g.state
    assert s.offer.tolist() == [ids[0], ids[2], -1, -1]
    assert s.epoch_deck == []
    assert s.last_round


def test_r3_2_admiral_not_reached_is_not_revealed():
    # 2 players reveal 3 cards; the Admiral is 4th: this round is not the last.
    g = scenario(2)
    ids = deck(g, "fire 3/3", "fire 2/2", "topple 2/2", "Admiral Roggeveen", "famine 2/2")
    distinct_bids(g)
    g.birdman_phase()
    assert g.state.offer.tolist() == ids[:3]
    assert not g.state.last_round
    assert g.state.epoch_deck == ids[3:]


def test_r8_1_epoch_deck_running_out_without_admiral_marks_the_last_round():
    g = scenario(3)
    ids = deck(g, "neutral 3/2*", "neutral 3/3*", "neutral 2/2*", "neutral 2/3")
    distinct_bids(g)
    g.birdman_phase()
    assert g.state.offer.tolist() == ids
    assert g.state.epoch_deck == []
    assert g.state.last_round
    assert not events(g, "reveal")[0]["admiral"]


def test_r8_1_epoch_deck_with_cards_left_is_not_the_last_round():
    g = scenario(3)
    deck(g, "neutral 3/2*", "neutral 3/3*", "neutral 2/2*", "neutral 2/3", "boat 2/2")
    distinct_bids(g)
    g.birdman_phase()
    assert not g.state.last_round
    assert len(g.state.epoch_deck) == 1


# --- R3.3: sealed bids -------------------------------------------------------------------------


def test_r3_3_sealed_bids_any_sub_multiset_of_the_hand_nobody_sees_another_bid():
    g = scenario(3)
    s = g.state
    g.strategies = [Peek() for _ in range(3)]
    give(g, 0, c1=1, c2=1, raid3=1)
    give(g, 1, c3=2)
    give(g, 2, c2=1)
    script(g, 0, ("bid", [1, 1, 0, 0, 0, 1]))  # the whole hand: 1 + 2 + 3
    script(g, 1, ("bid", [0, 0, 1, 0, 0, 0]))
    script(g, 2, ("bid", NO_BID))  # no card at all is a bid of 0
    g.bidding()
    # each bid is bounded by the bidder's own hand
    assert asked_legal(g, 0, "bid") == [[1, 1, 0, 0, 0, 1]]
    assert asked_legal(g, 1, "bid") == [[0, 0, 2, 0, 0, 0]]
    assert asked_legal(g, 2, "bid") == [[0, 1, 0, 0, 0, 0]]
    # all bids are secret until revealed together: every bidder saw no bid and full hands
    for seat in range(3):
        assert g.strategies[seat].bids_seen == [[-1, -1, -1]]
        assert g.strategies[seat].hand_sizes_seen == [[3, 2, 1]]
    assert s.bids.tolist() == [6, 3, 0]
    assert s.order.tolist() == [0, 1, 2]
    assert s.discard.tolist() == [1, 1, 1, 0, 0, 1]
    assert s.hand.tolist() == [NO_BID, [0, 0, 1, 0, 0, 0], [0, 1, 0, 0, 0, 0]]
    assert events(g, "bids")[0]["totals"] == [6, 3, 0]
    done(g)


def test_r3_3_a_bid_beyond_the_hand_is_illegal():
    g = scenario(2)
    give(g, 0, c2=1)
    script(g, 0, ("bid", [0, 2, 0, 0, 0, 0]))
    with pytest.raises(IllegalActionError):
        g.bidding()


# --- R3.4: ties ---------------------------------------------------------------------------------


def test_r3_4_birdman_orders_tied_bidders_he_is_not_among():
    # 4 players, bird-man seat 3 bids 1; seats 0, 1, 2 tie at 2. He names them one at a time:
    # 2, then 0 (the last one, 1, is forced).
    g = scenario(4)
    s = g.state
    s.birdman = 3
    s.bids[:] = [2, 2, 2, 1]
    script(g, 3, ("order_ties", 2), ("order_ties", 0))
    g.hill_order()
    assert s.order.tolist() == [2, 0, 1, 3]
    assert s.birdman == 2
    assert asked_legal(g, 3, "order_ties") == [
        [True, True, True, False],
        [True, True, False, False],
    ]
    view = g.strategies[3].asked[0][1]
    assert view.info["tied"][0].tolist() == [True, True, True, False]
    assert int(view.info["bid"][0]) == 2
    assert [e["forced"] for e in events(g, "decision")] == [False, False]  # 1 is left last
    done(g)


def test_r3_4_birdman_among_tied_goes_last():
    # Bird-man seat 0 ties with seats 1 and 2 at 2; seat 3 leads with 3. His mask excludes
    # himself; once one other is placed, the rest is forced: he ends last of the tied group.
    g = scenario(4)
    s = g.state
    s.birdman = 0
    s.bids[:] = [2, 2, 2, 3]
    script(g, 0, ("order_ties", 2))
    g.hill_order()
    assert asked_legal(g, 0, "order_ties") == [[False, True, True, False]]
    assert s.order.tolist() == [3, 2, 1, 0]
    assert s.birdman == 3
    done(g)


def test_r3_4_birdman_tied_for_first_goes_last_and_loses_the_token():
    # 3 players all tie at 0 (nobody bid): bird-man seat 1 orders 0 and 2, then himself.
    g = scenario(3)
    s = g.state
    s.birdman = 1
    s.bids[:] = [0, 0, 0]
    script(g, 1, ("order_ties", 2))
    g.hill_order()
    assert asked_legal(g, 1, "order_ties") == [[True, False, True]]
    assert s.order.tolist() == [2, 0, 1]
    assert s.birdman == 2
    done(g)


def test_r3_4_birdman_in_a_tied_pair_is_put_last_without_being_asked():
    g = scenario(3)
    s = g.state
    s.birdman = 0
    s.bids[:] = [2, 1, 2]
    g.hill_order()
    assert s.order.tolist() == [2, 0, 1]
    assert g.strategies[0].asked == []
    assert events(g, "decision")[0] == {
        "e": "decision",
        "seat": 0,
        "kind": "order_ties",
        "action": 2,
        "forced": True,
    }


def test_r3_4_two_tied_groups_are_each_ordered():
    # 5 players: bids 3 3 1 1 1, bird-man seat 2. First group {0, 1}: he picks 1 first.
    # Second group {2, 3, 4} holds him: he picks 4, then 3 is forced, he is last.
    g = scenario(5)
    s = g.state
    s.birdman = 2
    s.bids[:] = [3, 3, 1, 1, 1]
    script(g, 2, ("order_ties", 1), ("order_ties", 4))
    g.hill_order()
    assert asked_legal(g, 2, "order_ties") == [
        [True, True, False, False, False],
        [False, False, False, True, True],
    ]
    assert s.order.tolist() == [1, 0, 4, 3, 2]
    assert s.birdman == 1
    done(g)


# --- R3.5 / R2: the new bird-man and the turn order ----------------------------------------------


def test_r3_5_position_0_becomes_birdman_and_turn_follows_the_hill():
    g = scenario(4)
    s = g.state
    s.bids[:] = [1, 4, 0, 2]
    g.hill_order()
    assert s.order.tolist() == [1, 3, 0, 2]
    assert s.birdman == 1
    assert s.turn.tolist() == [1, 3, 0, 2]
    assert s.bid_order == [1, 3, 0, 2]  # V2/V4 bid in this order next round
    assert s.counters["birdman_rounds"].tolist() == [0, 1, 0, 0]


def test_r2_turn_order_clockwise_runs_from_the_new_birdman():
    g = scenario(4, turn_order="clockwise")
    s = g.state
    s.bids[:] = [1, 4, 0, 2]
    g.hill_order()
    assert s.order.tolist() == [1, 3, 0, 2]  # the hill is the same
    assert s.birdman == 1
    assert s.turn.tolist() == [1, 2, 3, 0]


# --- V2 open bidding ----------------------------------------------------------------------------


def test_v2_open_bidding_one_at_a_time_in_last_rounds_hill_order_later_bidders_see_bids():
    g = scenario(3, variants="open-bidding")
    s = g.state
    g.strategies = [Peek() for _ in range(3)]
    s.bid_order = [2, 0, 1]  # last round's hill order
    s.birdman = 2
    give(g, 0, c1=2)
    give(g, 1, c3=1)
    give(g, 2, c2=1, c1=1)
    script(g, 2, ("bid", [0, 1, 0, 0, 0, 0]))  # 2
    script(g, 0, ("bid", [1, 0, 0, 0, 0, 0]))  # 1
    script(g, 1, ("bid", [0, 0, 1, 0, 0, 0]))  # 3
    g.bidding()
    assert [e["seat"] for e in events(g, "decision")] == [2, 0, 1]
    assert g.strategies[2].bids_seen == [[-1, -1, -1]]
    assert g.strategies[0].bids_seen == [[-1, -1, 2]]
    assert g.strategies[1].bids_seen == [[1, -1, 2]]
    # the cards are paid at once: later bidders see the smaller hands
    assert g.strategies[1].hand_sizes_seen == [[1, 1, 1]]
    assert s.order.tolist() == [1, 2, 0]
    assert s.bid_order == [1, 2, 0]
    done(g)


def test_v2_open_bidding_ties_as_r3_4_birdman_goes_last():
    g = scenario(3, variants="open-bidding")
    s = g.state
    s.birdman = 0
    s.bids[:] = [2, 2, 2]
    script(g, 0, ("order_ties", 1))
    g.hill_order()
    assert asked_legal(g, 0, "order_ties") == [[False, True, True]]
    assert s.order.tolist() == [1, 2, 0]
    done(g)


# --- V4 open bidding, strict tie rule ------------------------------------------------------------


def test_v4_strict_birdman_tied_for_first_cannot_take_first_but_may_be_second():
    # Bird-man seat 0 ties at 3 with seats 1 and 2; seat 3 bid 1.
    g = scenario(4, variants="open-bidding-strict")
    s = g.state
    s.birdman = 0
    s.bids[:] = [3, 3, 3, 1]
    script(g, 0, ("order_ties", 1), ("order_ties", 0))
    g.hill_order()
    assert asked_legal(g, 0, "order_ties") == [
        [False, True, True, False],  # first place: not himself
        [True, False, True, False],  # second place: himself allowed
    ]
    assert s.order.tolist() == [1, 0, 2, 3]
    assert s.birdman == 1
    done(g)


def test_v4_strict_birdman_tied_for_first_in_a_pair_is_second_without_being_asked():
    g = scenario(3, variants="open-bidding-strict")
    s = g.state
    s.birdman = 2
    s.bids[:] = [1, 3, 3]
    g.hill_order()
    assert s.order.tolist() == [1, 2, 0]
    assert g.strategies[2].asked == []


def test_v4_strict_tie_not_for_first_leaves_the_birdman_free():
    # Seat 3 leads; bird-man seat 0 ties at 1 with seats 1 and 2: he may put himself first of
    # them (second on the hill).
    g = scenario(4, variants="open-bidding-strict")
    s = g.state
    s.birdman = 0
    s.bids[:] = [1, 1, 1, 4]
    script(g, 0, ("order_ties", 0), ("order_ties", 2))
    g.hill_order()
    assert asked_legal(g, 0, "order_ties") == [
        [True, True, True, False],
        [False, True, True, False],
    ]
    assert s.order.tolist() == [3, 0, 2, 1]
    assert s.birdman == 3
    done(g)


def test_v4_strict_bids_are_open_in_last_rounds_hill_order():
    g = scenario(2, variants="open-bidding-strict")
    g.strategies = [Peek() for _ in range(2)]
    g.state.bid_order = [1, 0]
    give(g, 0, c3=1)
    give(g, 1, c1=1)
    script(g, 1, ("bid", [1, 0, 0, 0, 0, 0]))
    script(g, 0, ("bid", [0, 0, 1, 0, 0, 0]))
    g.bidding()
    assert g.strategies[1].bids_seen == [[-1, -1]]
    assert g.strategies[0].bids_seen == [[-1, 1]]
    assert g.state.order.tolist() == [0, 1]
    done(g)


def test_r3_sealed_bids_ignore_the_bid_order():
    # Without V2/V4 every seat bids in seat order, whatever `bid_order` says, and sees no bid.
    g = scenario(3)
    g.strategies = [Peek() for _ in range(3)]
    g.state.bid_order = [2, 1, 0]
    for seat in range(3):
        give(g, seat, c1=1)
        script(g, seat, ("bid", [1, 0, 0, 0, 0, 0]))
    script(g, 0, ("order_ties", 1))  # bird-man 0, all tied at 1
    g.bidding()
    assert [e["seat"] for e in events(g, "decision")][:3] == [0, 1, 2]
    assert all(g.strategies[seat].bids_seen[0] == [-1, -1, -1] for seat in range(3))
    assert np.array_equal(g.state.order, [1, 2, 0])
    done(g)
