"""R4.2 / R7.2 / R8 the last round, end and score; V3 the short variant."""

import numpy as np
import pytest
from scenario import card_id, done, events, give, put, scenario, script

from moaisim.games.moai.engine.decisions import BIRTH_STOP
from moaisim.games.moai.engine.reference import ReferenceGame
from moaisim.games.moai.engine.results import ranks, seat_rows
from moaisim.games.moai.engine.state import State
from moaisim.games.moai.rules import CAMP, Rules
from moaisim.rng import Streams
from moaisim.strategies.moai.random import RandomStrategy

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines

F1 = 0


def tile(g, height, nth=0):
    return [i for i, h in enumerate(g.rules.components.moai_heights) if h == height][nth]


def test_r8_last_round_fewer_cards_than_players_no_rest_and_the_game_ends():
    # The epoch deck holds the Admiral and two cards for three players: round 1 is the last.
    #   seat 0: fields 3 3, forest 1;   2 wood; Moai 8 + 3
    #   seat 1: fields 3, volcano 2+2;  0 wood; Moai 9
    #   seat 2: fields 3 3, forest 1;   1 wood; Moai 7 + 5
    # Empty hands (bids forced to 0); seat 0, the bird-man, orders the tie: 2, 1, then himself.
    # Seat 2 draws two 1s and seat 1 a 3 and a 2: in the last round each must make the one
    # birth its cards allow (A4: compulsory, so nobody is asked).
    g = scenario(3)
    s, lay = g.state, g.rules.layout
    admiral = next(c.id for c in g.rules.components.epoch_cards if c.is_admiral)
    quiet, calm = card_id(g, "neutral 2/3"), card_id(g, "neutral 2/2")  # no palms
    s.epoch_deck = [admiral, quiet, calm]
    s.deck = [0, 0, 2, 1]
    s.birdman = 0
    s.wood[:] = [2, 0, 1]
    s.wood_supply = 12
    for seat, heights in ((0, (8, 3)), (1, (9,)), (2, (7, 5))):
        for h in heights:
            s.moai_owner[tile(g, h)] = seat
    board = {
        0: [put(g, 0, 3, lay.fields), put(g, 0, 3, lay.fields), put(g, 0, 1, F1)],
        1: [put(g, 1, 3, lay.fields), put(g, 1, 2, lay.volcano0), put(g, 1, 2, lay.volcano0)],
        2: [put(g, 2, 3, lay.fields), put(g, 2, 3, lay.fields), put(g, 2, 1, F1)],
    }
    script(g, 0, ("order_ties", 2))
    script(g, 2, ("pick_epoch", 0))
    g.play()
    done(g)

    # R3.2 / R8.1: the Admiral is set aside and marks the last round
    [reveal] = events(g, "reveal")
    assert reveal["cards"] == [quiet, calm] and reveal["admiral"] and reveal["last_round"]
    assert s.order.tolist() == [2, 1, 0] and s.turn.tolist() == [2, 1, 0]
    # R4.2: two cards for three players: the last in order takes none ...
    assert [(e["seat"], e["card"]) for e in events(g, "pick")] == [(2, quiet), (1, calm)]
    assert [e["seat"] for e in events(g, "no_card")] == [0]
    # ... and draws no cards (R7.1); the others draw 2
    assert [(e["seat"], e["cards"]) for e in events(g, "draw")] == [
        (2, [0, 0]),
        (1, [2, 1]),
        (0, []),
    ]
    # R7.2: no rest in the last round, although the cards have hut 3 and 2
    assert not events(g, "rest")
    for seat, pawns in board.items():
        assert (s.loc[seat, pawns] >= 0).all()
    # R7.3 (A4): births are compulsory in the last round; the newborns are in camp
    assert [(e["seat"], e["strength"]) for e in events(g, "birth")] == [(2, 1), (1, 2)]
    assert [e["forced"] for e in events(g, "decision") if e["kind"] == "birth"] == [True, True]
    assert len(s.camp(2)) == 1 and len(s.camp(1)) == 1
    # the game ends after this review
    assert s.round == 1 and len(events(g, "round")) == 1
    # R8.2: Moai height + living pawns (board and camp) + 2 per wood
    end = g.events[-1]
    assert end["e"] == "end" and end["rounds"] == 1
    assert end["scores"] == [11 + 3 + 2 * 2, 9 + 4 + 0, 12 + 4 + 2 * 1] == [18, 13, 18]
    assert ranks(np.array(end["scores"])).tolist() == [1, 3, 1]  # ties share the win


def test_r8_1_epoch_deck_running_out_without_the_admiral_makes_the_last_round():
    g = scenario(2)
    s = g.state
    s.epoch_deck = [card_id(g, "neutral 2/3"), card_id(g, "neutral 2/2"), card_id(g, "fire 3/2")]
    g.birdman_phase()  # 2 players: 3 cards revealed, the deck is empty
    assert s.last_round and s.epoch_deck == []
    assert not events(g, "reveal")[0]["admiral"]

    g = scenario(2)
    s = g.state
    s.epoch_deck = [card_id(g, "neutral 2/3"), card_id(g, "neutral 2/2"), card_id(g, "fire 3/2")]
    s.epoch_deck.append(card_id(g, "storm 2/3"))
    g.birdman_phase()  # one card left: not the last round
    assert not s.last_round and len(s.epoch_deck) == 1


def test_r8_1_admiral_revealed_with_a_full_offer_still_reveals_players_plus_one():
    g = scenario(2)
    s = g.state
    admiral = next(c.id for c in g.rules.components.epoch_cards if c.is_admiral)
    rest = [card_id(g, "neutral 2/3"), card_id(g, "neutral 2/2"), card_id(g, "fire 3/2")]
    s.epoch_deck = [rest[0], admiral, rest[1], rest[2], card_id(g, "storm 2/3")]
    g.birdman_phase()
    [reveal] = events(g, "reveal")
    assert reveal["cards"] == rest and reveal["admiral"] and s.last_round
    assert s.offer.tolist() == rest
    assert s.epoch_deck == [card_id(g, "storm 2/3")]


def rounds_of(g):
    """The game's events split at each "round" event (what came before round 1 dropped)."""
    starts = [k for k, e in enumerate(g.events) if e["e"] == "round"] + [len(g.events)]
    return [g.events[a:b] for a, b in zip(starts, starts[1:], strict=False)]


def kinds(evs, e):
    return [x for x in evs if x["e"] == e]


def test_a5_r8_1_admiral_alone_in_the_deck_one_more_round_with_no_card_then_the_end():
    """A5: a round's reveal leaves the Admiral as the epoch deck's only card. That round is not
    the last. The next round turns up the Admiral alone: no card on offer, no wood put out;
    bids are still made and paid; nobody takes a card, so nobody draws or rests and nobody can
    build a boat; the work phase (a boat built earlier can be manned), production and births
    run; the game ends after that round.

        4 players, bird-man seat 0; 2 fields covered (R1.1); Rapa Nui deck empty
        epoch deck: neutral 3/2*, neutral 3/3*, neutral 2/3, boat 2/2, neutral 2/2, Admiral
        every seat: a 1 in the fields;  hands: seat 0 1 1 1, seat 1 1 1, seat 2 1;  seat 3: 1 wood

        round 1: bids 3 2 1 0 (all 1s) -> hill order 0 1 2 3; seat k takes card k; wood on
                 spaces 1-2 (two palms), unclaimed; review: seats 0 and 1 draw three 1s each
                 from the reshuffled bids (seats 2 and 3: nothing left), keep them (no birth);
                 everyone rests its one pawn; seat 3 builds its boat
        round 2: the Admiral alone. Bids: seat 0 a 1, seat 1 two 1s, seats 2 and 3 nothing
                 (tied: the bird-man, seat 0, puts 3 first) -> hill order 1 0 3 2; each places
                 its pawn (seat 3 on its boat); seat 0 must make a birth with its last two 1s
    """
    g = scenario(4)
    s, lay = g.state, g.rules.layout
    codec = g.work_codec
    admiral = next(c.id for c in g.rules.components.epoch_cards if c.is_admiral)
    ids = [
        card_id(g, x)
        for x in ("neutral 3/2*", "neutral 3/3*", "neutral 2/3", "boat 2/2", "neutral 2/2")
    ]
    s.epoch_deck = ids + [admiral]
    s.covered, s.disaster_supply = 2, 8
    s.wood[3], s.wood_supply = 1, 14
    give(g, 0, c1=3)
    give(g, 1, c1=2)
    give(g, 2, c1=1)
    for seat in range(4):
        put(g, seat, 1, lay.fields)
    fields_1 = ("work", codec.place(1, lay.fields))
    script(g, 0, ("bid", [3, 0, 0, 0, 0, 0]), ("pick_epoch", 0), ("birth", BIRTH_STOP))
    script(g, 0, ("bid", [1, 0, 0, 0, 0, 0]), ("order_ties", 3), fields_1)
    script(g, 1, ("bid", [2, 0, 0, 0, 0, 0]), ("pick_epoch", 1), ("birth", BIRTH_STOP))
    script(g, 1, ("bid", [2, 0, 0, 0, 0, 0]), fields_1)
    script(g, 2, ("bid", [1, 0, 0, 0, 0, 0]), ("pick_epoch", 2), fields_1)
    script(g, 3, ("pick_epoch", 3), ("boat", 1), ("work", codec.place(1, codec.boat_target)))
    g.play()
    done(g)

    one, two = rounds_of(g)
    # round 1: an ordinary round, although the deck now holds only the Admiral
    [reveal] = kinds(one, "reveal")
    assert (reveal["cards"], reveal["admiral"], reveal["wood"]) == (ids, False, [0, 1])
    assert not reveal["last_round"]
    assert kinds(one, "bids")[0]["totals"] == [3, 2, 1, 0]
    assert [(e["seat"], e["card"]) for e in kinds(one, "pick")] == list(enumerate(ids[:4]))
    assert kinds(one, "unpicked")[0]["cards"] == [ids[4]]
    assert [(e["seat"], e["cards"]) for e in kinds(one, "draw")] == [
        (0, [0, 0, 0]), (1, [0, 0, 0]), (2, []), (3, []),
    ]  # fmt: skip
    assert [e["seat"] for e in kinds(one, "rest")] == [0, 1, 2, 3]
    assert [e["seat"] for e in kinds(one, "boat")] == [3]
    # round 2: the Admiral alone, no card, no wood
    [reveal] = kinds(two, "reveal")
    assert (reveal["cards"], reveal["admiral"], reveal["wood"]) == ([], True, [])
    assert reveal["last_round"]
    # bids made and paid: 1 + 2 cards to the discard pile
    assert [(e["seat"], e["total"]) for e in kinds(two, "bid")] == [(0, 1), (1, 2), (2, 0), (3, 0)]
    assert kinds(two, "hill")[0]["order"] == [1, 0, 3, 2]
    # nobody takes a card; nobody draws, rests or builds
    assert not kinds(two, "pick")
    assert [e["seat"] for e in kinds(two, "no_card")] == [1, 0, 3, 2]
    assert [(e["seat"], e["cards"]) for e in kinds(two, "draw")] == [
        (1, []), (0, []), (3, []), (2, []),
    ]  # fmt: skip
    assert not kinds(two, "rest") and not kinds(two, "boat")
    assert not [e for e in kinds(two, "decision") if e["kind"] in ("pick_epoch", "rest", "boat")]
    # work: every pawn rested in round 1 goes back out; seat 3 mans the boat it built
    boat = lay.ocean0
    assert [(e["seat"], e["loc"], e["up"]) for e in kinds(two, "place")] == [
        (1, lay.fields, True), (0, lay.fields, True), (3, boat, True), (2, lay.fields, True),
    ]  # fmt: skip
    # production: no wood in the forest; every clan feeds its one pawn
    assert not kinds(two, "forest")
    assert [(e["seat"], e["food"], e["mouths"]) for e in kinds(two, "feed")] == [
        (1, 1, 1), (0, 1, 1), (3, 1, 1), (2, 1, 1),
    ]  # fmt: skip
    # births: compulsory in this last round (A4), so seat 0's is made without asking
    assert [(e["seat"], e["strength"]) for e in kinds(two, "birth")] == [(0, 1)]
    births = [(e["seat"], e["forced"]) for e in kinds(two, "decision") if e["kind"] == "birth"]
    assert births == [(0, True)]
    # the end: after this round, with two rounds played and the epoch deck empty
    end = two[-1]
    assert end["e"] == "end" and end["rounds"] == 2 and s.round == 2
    # R8.2 counted by hand: no Moai, no wood; seat 0 a pawn on the board and a newborn
    assert end["scores"] == [2, 1, 1, 1]
    assert s.epoch_deck == [] and s.last_round
    assert s.wood_supply == 15 and not s.forest_wood.any() and s.wood.tolist() == [0] * 4
    assert s.hand.tolist() == [[0] * 6, [1, 0, 0, 0, 0, 0], [0] * 6, [0] * 6]
    assert s.discard.tolist() == [5, 0, 0, 0, 0, 0]  # round 2: bids 1 + 2, a birth 2
    assert s.boats[3, 0] == ids[3] and s.held.tolist() == [-1] * 4


def test_r8_2_score_counts_moai_living_pawns_on_board_and_in_camp_and_2_per_wood():
    g = scenario(3)
    s, lay = g.state, g.rules.layout
    put(g, 0, 3, lay.fields)
    put(g, 0, 1, F1)
    put(g, 0, 2, lay.volcano0)
    put(g, 0, 2, CAMP)  # camp pawns count, reserve pawns do not
    s.wood[0] = 3
    s.moai_owner[tile(g, 6)] = 0
    s.moai_owner[tile(g, 4)] = 0
    s.moai_owner[tile(g, 9)] = -2  # a toppled tile counts for nobody
    put(g, 1, 1, CAMP)
    s.wood[1] = 10  # 1 pawn + 20
    s.moai_owner[tile(g, 7)] = 2
    s.moai_owner[tile(g, 7, 1)] = 2
    for x in (1, 1, 1, 1, 1, 1, 2):
        put(g, 2, x, lay.fields)  # 14 + 7
    scores = [s.score(q) for q in range(3)]
    assert scores == [6 + 4 + 4 + 2 * 3, 1 + 2 * 10, 14 + 7] == [20, 21, 21]
    rows = seat_rows(s, seed=0, game=0, strategies=["a", "b", "c"])
    assert rows["score"] == [20, 21, 21]
    assert rows["moai_height"] == [10, 0, 14] and rows["moai_count"] == [2, 0, 2]
    assert rows["pawns"] == [4, 1, 7] and rows["wood"] == [3, 10, 0]
    assert rows["rank"] == [3, 1, 1] and rows["win"] == [False, True, True]


def test_r8_2_ranks_ties_share_rank_1():
    assert ranks(np.array([5, 5, 5])).tolist() == [1, 1, 1]
    assert ranks(np.array([7, 9, 9, 2])).tolist() == [3, 1, 1, 4]
    assert ranks(np.array([[3, 1], [1, 3]])).tolist() == [[1, 2], [2, 1]]


def test_v3_short_removes_2_epoch1_2_epoch2_1_epoch3_cards_never_the_admiral():
    rules = Rules.make(3, "short")
    cards = rules.components.epoch_cards
    admiral = next(c.id for c in cards if c.is_admiral)
    everything = {c.id for c in cards}
    removed_sets, ever_removed = set(), set()
    for seed in range(300):
        deck = State.setup(rules, Streams(seed, [0], 4)).epoch_deck
        assert len(deck) == len(set(deck)) == 36 - 5
        assert [cards[c].epoch for c in deck] == [1] * 12 + [2] * 11 + [3] * 8
        assert admiral in deck
        removed = frozenset(everything - set(deck))
        assert sorted(cards[c].epoch for c in removed) == [1, 1, 2, 2, 3]
        removed_sets.add(removed)
        ever_removed |= removed
    # removed at random: the removed cards vary, and every card but the Admiral gets removed
    assert len(removed_sets) > 250
    assert ever_removed == everything - {admiral}


def test_v3_base_game_keeps_all_36_epoch_cards():
    rules = Rules.make(3)
    cards = rules.components.epoch_cards
    deck = State.setup(rules, Streams(7, [0], 4)).epoch_deck
    assert sorted(deck) == list(range(36))
    assert [cards[c].epoch for c in deck] == [1] * 14 + [2] * 13 + [3] * 9


def test_v3_short_full_games_use_31_epoch_cards_and_end_on_the_admiral_round():
    for players in (2, 3, 4, 5):
        for seed in range(3):
            rules = Rules.make(players, "short")
            g = ReferenceGame(rules, [RandomStrategy() for _ in range(players)], seed=seed)
            g.play()
            reveals = events(g, "reveal")
            assert [r["admiral"] for r in reveals] == [False] * (len(reveals) - 1) + [True]
            assert [r["last_round"] for r in reveals][-1] and g.state.round == len(reveals)
            seen = sum(len(r["cards"]) for r in reveals)
            assert seen + 1 + len(g.state.epoch_deck) == 31
            assert g.events[-1]["e"] == "end"
