"""The alternative component files (experiments/components/*.toml) and their study
(experiments/components.toml): each file loads, keeps every published total of docs/rules.md
section C, differs from the default set exactly as its header says, and plays seeded games
reproducibly; the study file validates."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import moaisim
from moaisim.games.moai.rules import Rules, load_components
from moaisim.studies.experiment import load_experiment, study_of

ROOT = Path(__file__).parents[1]
FILES = ROOT / "experiments" / "components"
DEFAULT = ROOT / "moaisim" / "games" / "moai" / "rules" / "default.toml"
NAMES = ["late-palms", "late-disasters", "more-raids"]

# --- the published totals, as docs/rules.md section C states them (not read from the loader) --
RAPA_NUI_CARDS = 40
MOAI_TILES = 21
EPOCH_CARDS = 36
EPOCH_PILES = {1: 14, 2: 13, 3: 9}  # C4
WOOD = 15
DISASTER_TOKENS = 10
FIELDS = 16
PAWNS_PER_COLOUR = 18  # 90 pawns, 5 colours: 6 of each strength (C5)
COVERED = ((2, 8), (3, 5), (4, 2), (5, 0))  # R1.1
DISASTER_TYPES = {"erosion", "fire", "fire-boat", "famine", "storm", "topple"}  # C3


def path_of(name: str) -> Path:
    return FILES / f"{name}.toml"


def labels(c, epoch: int) -> list[str]:
    return [card.label() for card in c.epoch_cards if card.epoch == epoch]


@pytest.mark.parametrize("name", NAMES)
def test_each_file_loads_and_keeps_the_published_totals(name):
    c = load_components(path_of(name))
    assert c.name == name
    assert sum(c.cards) == RAPA_NUI_CARDS and len(c.moai_heights) == MOAI_TILES
    assert len(c.epoch_cards) == EPOCH_CARDS
    assert Counter(card.epoch for card in c.epoch_cards) == EPOCH_PILES
    assert (c.wood, c.disaster_tokens, c.fields) == (WOOD, DISASTER_TOKENS, FIELDS)
    assert 3 * c.pawns_per_strength == PAWNS_PER_COLOUR and c.camp_per_strength == 3
    assert c.covered_fields == COVERED and c.hand == 5
    # the reviews' constraints (C4): one Admiral, in epoch 3; epoch 3 is disasters and the
    # Admiral only; epoch 1 mostly not disasters and the richest in palms per card; epoch 2
    # mostly disasters; over half of all epoch cards are disasters
    assert [card.epoch for card in c.epoch_cards if card.is_admiral] == [3]
    pile = {e: [card for card in c.epoch_cards if card.epoch == e] for e in (1, 2, 3)}
    assert all(card.type in DISASTER_TYPES or card.is_admiral for card in pile[3])
    disasters = {e: sum(card.type in DISASTER_TYPES for card in pile[e]) for e in pile}
    assert disasters[1] < EPOCH_PILES[1] / 2 and disasters[2] > EPOCH_PILES[2] / 2
    assert sum(disasters.values()) > EPOCH_CARDS / 2
    palm_rate = {e: sum(card.palm for card in pile[e]) / len(pile[e]) for e in pile}
    assert palm_rate[1] > max(palm_rate[2], palm_rate[3])
    # the rules object takes the file, and it is a set-up of its own
    rules = Rules.make(3, components=path_of(name))
    assert rules.setup.startswith(f"components={name}#")
    assert rules.digest() != Rules.make(3).digest()


def pile_sums(c, epoch: int) -> tuple[int, int, int, int]:
    """Palms, boats, draw numbers and hut numbers of an epoch's pile."""
    pile = [card for card in c.epoch_cards if card.epoch == epoch]
    return (
        sum(card.palm for card in pile),
        sum(card.is_boat for card in pile),
        sum(card.draw for card in pile),
        sum(card.hut for card in pile),
    )


def differing_fields(a, b) -> set[str]:
    return {
        f.name
        for f in dataclasses.fields(a)
        if getattr(a, f.name) != getattr(b, f.name) and f.name != "name"
    }


def test_late_palms_moves_six_palm_marks_and_nothing_else():
    default, alt = load_components(DEFAULT), load_components(path_of("late-palms"))
    assert differing_fields(default, alt) == {"epoch_cards"}
    changed = {  # (epoch, card before) -> card after: the palm mark only
        (1, "neutral 2/2*"): "neutral 2/2",
        (1, "boat 2/2*"): "boat 2/2",
        (1, "erosion 2/2*"): "erosion 2/2",
        (2, "boat 2/3"): "boat 2/3*",
        (3, "famine 2/2"): "famine 2/2*",
        (3, "fire 2/2"): "fire 2/2*",
    }
    seen = []
    for before, after in zip(default.epoch_cards, alt.epoch_cards, strict=True):
        same = dataclasses.replace(after, palm=before.palm)
        assert same == before  # id, epoch, type, draw and hut all kept
        if before.palm != after.palm:
            seen.append(((before.epoch, before.label()), after.label()))
    assert dict(seen) == changed and len(seen) == len(changed)
    palms = {e: sum(c.palm for c in alt.epoch_cards if c.epoch == e) for e in (1, 2, 3)}
    assert palms == {1: 8, 2: 7, 3: 4}
    assert sum(c.palm for c in default.epoch_cards) == sum(palms.values()) == 19
    header = path_of("late-palms").read_text()
    assert all(f"{b} -> {a}" in header for (_, b), a in changed.items())


def test_late_disasters_swaps_two_cards_between_epochs_1_and_2_and_nothing_else():
    default, alt = load_components(DEFAULT), load_components(path_of("late-disasters"))
    assert differing_fields(default, alt) == {"epoch_cards"}
    to_epoch_2, to_epoch_1 = ["fire 3/2*", "fire 2/3"], ["neutral 3/3*", "neutral 2/2"]
    e1, e2 = labels(default, 1), labels(default, 2)
    assert e1[11:13] == to_epoch_2 and e2[0:2] == to_epoch_1
    assert labels(alt, 1) == e1[:11] + to_epoch_1 + e1[13:]
    assert labels(alt, 2) == to_epoch_2 + e2[2:]
    assert labels(alt, 3) == labels(default, 3)
    assert Counter(c.label() for c in alt.epoch_cards) == Counter(
        c.label() for c in default.epoch_cards
    )
    for e in (1, 2, 3):  # each epoch keeps its palms, boats and draw and hut sums
        assert pile_sums(alt, e) == pile_sums(default, e)
    disasters = [sum(c.is_disaster for c in alt.epoch_cards if c.epoch == e) for e in (1, 2, 3)]
    assert disasters == [3, 11, 8]
    header = path_of("late-disasters").read_text()
    assert "epoch 1 -> epoch 2:  fire 3/2*,  fire 2/3" in header
    assert "epoch 2 -> epoch 1:  neutral 3/3*,  neutral 2/2" in header


def test_more_raids_turns_three_normal_cards_into_raids_and_nothing_else():
    default, alt = load_components(DEFAULT), load_components(path_of("more-raids"))
    assert differing_fields(default, alt) == {"cards"}
    # counts in the loader's order: normal 1, 2, 3, then Raid 1, 2, 3 (C1)
    assert default.cards == (12, 12, 10, 2, 2, 2) and alt.cards == (11, 11, 9, 3, 3, 3)
    for deck in (default, alt):  # 14 cards worth 1, 14 worth 2, 12 worth 3: 78 in all
        per_value = [deck.cards[v] + deck.cards[v + 3] for v in range(3)]
        assert per_value == [14, 14, 12]
        assert sum((v + 1) * n for v, n in enumerate(per_value)) == 78


@pytest.mark.parametrize("name", NAMES)
def test_each_file_plays_seeded_games_reproducibly(name):
    path = path_of(name)
    first = moaisim.simulate(3, 4, "greedy,random,moai", seed=11, components=path)
    again = moaisim.simulate(3, 4, "greedy,random,moai", seed=11, components=str(path))
    pd.testing.assert_frame_equal(first, again)
    assert set(first["components"].astype(str)) == {name} and len(first) == 12
    assert first["rounds"].min() >= 1
    record = moaisim.play(4, seed=11, game=2, strategies="greedy", components=path)
    assert record.text() == moaisim.play(4, seed=11, game=2, components=path).text()


def test_the_study_file_validates_and_plays_every_file_at_3_and_4_players():
    exp = load_experiment(ROOT / "experiments" / "components.toml")
    assert exp.name == "components" and exp.jobs == 2
    study = study_of(exp)
    shipped = [str(DEFAULT)] + [str(path_of(n)) for n in NAMES]
    resolved = sorted({Path(c.components).resolve() for c in study.cells})
    assert resolved == sorted(Path(p).resolve() for p in shipped)
    assert {c.rules.players for c in study.cells} == {3, 4}
    assert len(study.cells) == 2 * len(shipped) * 3  # 3 lineups per player count
    setups = {c.rules.setup.split("#")[0] for c in study.cells}
    assert setups == {"base"} | {f"components={n}" for n in NAMES}
    assert study.games * len(study.cells) <= 300_000  # a few minutes on 2 cores
