"""Rules as data: the default component set, user TOML files, validation, digest."""

from __future__ import annotations

from pathlib import Path

import pytest

from moaisim.errors import RulesError
from moaisim.games.moai.rules import Rules, load_components, parse_variants, variant_label
from moaisim.games.moai.rules.components import DISASTERS

DEFAULT = Path(__file__).parents[1] / "moaisim" / "games" / "moai" / "rules" / "default.toml"


def test_c_default_component_set_matches_rules_md():
    c = load_components()
    assert c.cards == (12, 12, 10, 2, 2, 2) and c.n_cards == 40  # C1
    assert c.moai_heights == tuple(h for h in range(3, 10) for _ in range(3))  # C2
    assert [sum(e.epoch == k for e in c.epoch_cards) for k in (1, 2, 3)] == [14, 13, 9]  # C4
    assert sum(e.is_admiral for e in c.epoch_cards) == 1
    assert sum(e.is_disaster for e in c.epoch_cards) > len(c.epoch_cards) / 2
    assert all(e.is_disaster for e in c.epoch_cards if e.epoch == 3 and not e.is_admiral)
    assert {e.type for e in c.epoch_cards if e.is_disaster} == set(DISASTERS)
    assert (c.pawns, c.wood, c.disaster_tokens, c.fields, c.forest_spaces) == (18, 15, 10, 16, 6)
    assert [c.covered_at(p) for p in (2, 3, 4, 5)] == [8, 5, 2, 0]  # R1.1
    assert set(c.assumed) >= {"rapa_nui", "moai", "epoch"}


def test_first_epoch_card_parsed_with_palm():
    card = load_components().epoch_cards[0]
    assert (card.epoch, card.type, card.draw, card.hut, card.palm) == (1, "neutral", 3, 2, True)
    assert card.label() == "neutral 3/2*"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "rules.toml"
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("wood = 15", "wood = 15\nlumber = 3", "unknown key board.lumber"),
        ('name = "default"', 'name = "x"\ncolour = 1', "unknown key 'colour'"),
        ("total = 40", "total = 41", "add up to 40, not rapa_nui.total = 41"),
        ("total = 21", "total = 20", "add up to 21 tiles, not moai.total = 20"),
        ("total = 36", "total = 35", "epoch cards add up to 36, not epoch.total = 35"),
        ('"topple 2/2"', '"tsunami 2/2"', "unknown type 'tsunami'"),
        ('"topple 2/2"', '"topple 2"', "expected 'type draw/hut'"),
        ("camp_per_strength = 3", "camp_per_strength = 7", "exceeds pawns.per_strength"),
        ("2 = 8,", "2 = 11,", "exceeds the 10 disaster tokens"),
        ("fields = 16", "fields = -1", "board.fields must be an integer from 1 to 10000"),
        ("wood = 15", "wood = 10001", "board.wood must be an integer from 0 to 10000"),
        ('"fire 2/2"]', '"fire 12/2"]', "draw and hut are at most 9"),
        (
            "normal = { 1 = 12, 2 = 12, 3 = 10 }",
            "normal = { 1 = 12, 2 = 12, 4 = 10 }",
            "unknown key rapa_nui.normal.4",
        ),
    ],
)
def test_bad_rules_file_gives_one_clear_message(tmp_path, old, new, message):
    text = DEFAULT.read_text()
    assert old in text
    path = write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(RulesError, match=message) as info:
        load_components(path)
    assert "\n" not in str(info.value)
    assert str(path) in str(info.value)


def test_user_rules_file_is_used(tmp_path):
    text = DEFAULT.read_text().replace("forest_spaces = 6", "forest_spaces = 4")
    rules = Rules.make(3, components=write(tmp_path, text))
    assert rules.components.forest_spaces == 4 and rules.layout.forest == 4
    assert rules.digest() != Rules.make(3).digest()


def test_not_toml_and_missing_file(tmp_path):
    with pytest.raises(RulesError, match="not valid TOML"):
        load_components(write(tmp_path, "this is = = not toml"))
    with pytest.raises(RulesError, match="no such component file"):
        load_components(tmp_path / "missing.toml")


@pytest.mark.parametrize("players", [0, 1, 6, 10])
def test_players_outside_2_to_5_rejected(players):
    with pytest.raises(RulesError, match="players must be from 2 to 5"):
        Rules.make(players)


def test_variants_parse_combine_and_alias():
    assert parse_variants("base") == frozenset()
    assert parse_variants("short+fixed-disasters") == {"short", "fixed-disasters"}
    assert parse_variants("V3+V5") == {"short", "fixed-disasters"}
    assert variant_label(parse_variants("fixed-disasters+short")) == "short+fixed-disasters"
    with pytest.raises(RulesError, match="unknown variant 'nope'"):
        parse_variants("short+nope")
    with pytest.raises(RulesError, match="exclude each other"):
        parse_variants("open-bidding+open-bidding-strict")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("short+short", "names short twice"),
        ("V3+short", "names short twice"),
        ("base+short", "base cannot be combined"),
        (["short", "base"], "base cannot be combined"),
        ("base+base", "base cannot be combined"),
    ],
)
def test_a_variant_named_twice_or_base_with_variants_is_an_error(spec, message):
    with pytest.raises(RulesError, match=message):
        parse_variants(spec)


def test_unknown_options_rejected():
    with pytest.raises(RulesError, match="turn_order = 'anticlockwise'"):
        Rules.make(3, turn_order="anticlockwise")
    with pytest.raises(RulesError, match="volcano_after_moai"):
        Rules.make(3, volcano_after_moai="crumble")
    with pytest.raises(RulesError, match="spent_wood = 'burn'"):
        Rules.make(3, spent_wood="burn")


def test_digest_is_stable_and_sensitive():
    a, b = Rules.make(4, "short"), Rules.make(4, "short")
    assert a == b and a.digest() == b.digest() and len(a.digest()) == 64
    others = {
        Rules.make(5, "short").digest(),
        Rules.make(4).digest(),
        Rules.make(4, "short", turn_order="clockwise").digest(),
        Rules.make(4, "short", volcano_after_moai="camp").digest(),
        Rules.make(4, "short", spent_wood="out").digest(),
    }
    assert a.digest() not in others and len(others) == 5


def test_rules_built_apart_are_equal_exactly_when_their_set_up_is():
    """Equality (what the engines' per-rules caches key on) is the set-up's, whether the two
    objects were built apart or not: every field that changes the digest breaks it."""
    a, b = Rules.make(4, "short"), Rules.make(4, "short")
    assert a is not b and a == b and hash(a) == hash(b) and len({a, b}) == 1
    for other in (Rules.make(5, "short"), Rules.make(4), Rules.make(4, "short+fixed-disasters"),
                  Rules.make(4, "short", turn_order="clockwise"),
                  Rules.make(4, "short", volcano_after_moai="camp"),
                  Rules.make(4, "short", spent_wood="out"),
                  Rules.make(4, "short", params={"wood_points": 3})):  # fmt: skip
        assert a != other and other != a


def test_rules_are_frozen():
    r = Rules.make(3)
    with pytest.raises(AttributeError):
        r.players = 4  # type: ignore[misc]


def test_layout_too_large_for_location_codes_is_a_clear_error(tmp_path):
    text = DEFAULT.read_text().replace("forest_spaces = 6", "forest_spaces = 120")
    with pytest.raises(RulesError, match="at most 127 are supported"):
        Rules.make(3, components=write(tmp_path, text))


@pytest.mark.parametrize(
    "hand, raid",
    [
        ([0, 0, 0, 0, 0, 0], False),
        ([3, 2, 1, 0, 0, 0], False),  # plain cards of every value
        ([0, 0, 0, 1, 0, 0], True),  # a Raid 1
        ([1, 0, 0, 0, 0, 2], True),  # two Raid 3s
    ],
)
def test_r6_4_a_raid_needs_a_raid_card_in_hand(hand, raid):
    """R6.4: a raid discards a Raid card; `holds_raid` says whether the hand has one."""
    import numpy as np

    from moaisim.games.moai.rules.codes import holds_raid

    assert holds_raid(np.array(hand, dtype=np.int64)) is raid
