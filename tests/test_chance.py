"""Chance split by purpose (docs/design.md, "Common random numbers"), V3's removals (A6) and
the game length they imply (R3.2, R8.1).

Expected values come from the rules, not from the engine: the number of rounds follows from
where the Admiral lies in the epoch deck (round r reveals the (P+1)(r-1)+1-th to the
(P+1)r-th non-Admiral cards, the Admiral being set aside when met), and the Admiral is uniform
among the epoch-3 cards left after V3's removals.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import moaisim
from moaisim.games.moai.engine.chance import epoch_decks, reshuffle_order, setup_draws
from moaisim.games.moai.rules import VARIANTS, Rules
from moaisim.rng import Streams

SAME_DEAL = ["base", *sorted(set(VARIANTS) - {"short"}), "open-pawns+fixed-disasters"]
OPTION_SETS = [
    dict(zip(("turn_order", "volcano_after_moai", "spent_wood"), values, strict=True))
    for values in itertools.product(("hill", "clockwise"), ("stay", "camp"), ("supply", "out"))
]


def setup_of(rules: Rules, seed: int, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    epoch, deck, _ = setup_draws(rules, Streams(seed, games, rules.players), np.arange(len(games)))
    return epoch, deck


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_variant_but_short_and_every_option_deal_the_same_hands_and_decks(players):
    games = np.arange(0, 4000, 37)
    want_epoch, want_deck = setup_of(Rules.make(players), 2026, games)
    for variant, options in itertools.product(SAME_DEAL, OPTION_SETS):
        epoch, deck = setup_of(Rules.make(players, variant, **options), 2026, games)
        assert np.array_equal(epoch, want_epoch), (variant, options)
        assert np.array_equal(deck, want_deck), (variant, options)


def test_the_same_setup_in_the_games_logs_of_both_engines_across_variants():
    logs = {
        v: moaisim.play(4, 77, game=3, strategies="random", variants=v, engine=engine).events[0]
        for v, engine in (("base", "reference"), ("open-bidding", "batch"), ("V1+V5", "batch"))
    }
    first = logs["base"]
    for event in logs.values():
        for key in ("epoch_deck", "deck", "hands", "covered"):
            assert event[key] == first[key]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_v3_short_deck_is_the_base_deck_without_the_removed_cards_order_kept(players):
    games = np.arange(500)
    base, _ = setup_of(Rules.make(players), 5, games)
    short, _ = setup_of(Rules.make(players, "short"), 5, games)
    cards = Rules.make(players).components.epoch_cards
    assert short.shape == (500, 31)
    for b, s in zip(base, short, strict=True):
        removed = sorted(set(b.tolist()) - set(s.tolist()))
        assert [x for x in b.tolist() if x not in removed] == s.tolist()
        epochs = sorted(cards[c].epoch for c in removed)
        assert epochs == [1, 1, 2, 2, 3]  # 2 epoch-1, 2 epoch-2, 1 epoch-3 card (V3)
        assert not any(cards[c].is_admiral for c in removed)


def test_v3_removals_are_uniform_and_independent_of_the_shuffle():
    """Each non-Admiral card of an epoch is removed with probability removals / cards
    (2/13, 2/12, 1/8); the Admiral is uniform among the 8 epoch-3 cards that stay."""
    rules = Rules.make(4, "short")
    cards = rules.components.epoch_cards
    n = 40_000
    decks = epoch_decks(rules, Streams(11, np.arange(n), 4), np.arange(n))
    kept = np.zeros(len(cards), dtype=int)
    np.add.at(kept, decks.ravel(), 1)
    for epoch, removals in ((1, 2), (2, 2), (3, 1)):
        ids = [c.id for c in cards if c.epoch == epoch and not c.is_admiral]
        removed = n - kept[ids]
        expected = np.full(len(ids), n * removals / len(ids))
        assert stats.chisquare(removed, expected).pvalue > 1e-3, epoch
    admiral = next(c.id for c in cards if c.is_admiral)
    position = np.argmax(decks == admiral, axis=1) - 23  # 12 + 11 cards of epochs 1 and 2
    counts = np.bincount(position, minlength=8)
    assert len(counts) == 8
    assert stats.chisquare(counts).pvalue > 1e-3


def rounds_distribution(players: int, short: bool) -> dict[int, Fraction]:
    """Game length by the rules: m non-Admiral cards lie above the Admiral, m = (cards of
    epochs 1 and 2) + k with k uniform over the epoch-3 positions; the Admiral shows in round
    m // (P + 1) + 1 (R3.2), which is the last (R8.1; when the Admiral is the deck's last card
    and m is a multiple of P + 1, the round that reveals it alone)."""
    above = (12 + 11) if short else (14 + 13)
    epoch3 = 8 if short else 9
    out: dict[int, Fraction] = {}
    for k in range(epoch3):
        r = (above + k) // (players + 1) + 1
        out[r] = out.get(r, Fraction(0)) + Fraction(1, epoch3)
    return out


def test_game_length_at_4_players_is_as_the_issue_states():
    assert rounds_distribution(4, False) == {
        6: Fraction(1, 3),
        7: Fraction(5, 9),
        8: Fraction(1, 9),
    }
    assert rounds_distribution(4, True) == {5: Fraction(1, 4), 6: Fraction(5, 8), 7: Fraction(1, 8)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["base", "short"])
def test_a6_game_length_follows_the_deck_exactly(players, variant):
    """Each game's rounds equal the Admiral's round (exact, game by game), and over 3 000
    games the rounds follow `rounds_distribution` (chi-square, p > 0.001)."""
    rules = Rules.make(players, variant)
    n = 3000
    df = moaisim.simulate(players, n, strategies="random", variants=variant, seed=99)
    rounds = df.groupby("game")["rounds"].first().to_numpy()
    epoch, _ = setup_of(rules, 99, np.arange(n))
    admiral = next(c.id for c in rules.components.epoch_cards if c.is_admiral)
    above = np.argmax(epoch == admiral, axis=1)  # non-Admiral cards above it
    assert np.array_equal(rounds, above // (players + 1) + 1)
    dist = rounds_distribution(players, variant == "short")
    observed = pd.Series(rounds).value_counts().reindex(sorted(dist), fill_value=0)
    assert observed.sum() == n  # no game of another length
    expected = [float(dist[r]) * n for r in sorted(dist)]
    assert stats.chisquare(observed.to_numpy(), expected).pvalue > 1e-3


def test_the_kth_reshuffle_of_the_same_discard_gives_the_same_order():
    rules = Rules.make(3)
    streams = Streams(4, [10, 11], 3)
    discard = np.array([[3, 1, 0, 2, 0, 1]] * 2)
    first = reshuffle_order(rules, streams, np.array([0]), np.array([2]), discard[:1])
    again = reshuffle_order(rules, Streams(4, [10], 3), np.array([0]), np.array([2]), discard[:1])
    assert np.array_equal(first, again)
    deck = first[0][first[0] >= 0]
    assert sorted(deck.tolist()) == [0, 0, 0, 1, 3, 3, 5]
    # another reshuffle index, or another game, gives another order of the same cards
    other_k = reshuffle_order(rules, streams, np.array([0]), np.array([3]), discard[:1])[0]
    other_game = reshuffle_order(rules, streams, np.array([1]), np.array([2]), discard[1:])[0]
    assert sorted(other_k[other_k >= 0].tolist()) == sorted(deck.tolist())
    assert not np.array_equal(other_k, first[0])
    assert not np.array_equal(other_game, first[0])


def test_variants_that_do_not_change_play_are_paired_game_by_game():
    """`greedy` never looks at the bids, so open bidding (V2) plays exactly the base game on
    every seed: the comparison is fully paired (with one chance stream it was 1.5 %)."""
    cols = ["game", "seat", "score", "rounds", "births", "moai_height", "wood", "pawns"]
    base = moaisim.simulate(4, 300, strategies="greedy", seed=8)[cols]
    v2 = moaisim.simulate(4, 300, strategies="greedy", variants="open-bidding", seed=8)[cols]
    pd.testing.assert_frame_equal(base, v2)
