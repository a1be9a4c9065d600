"""Kaivai's rule options (docs/kaivai-rules.md, section O): each an open point of the rules
played either way, its first value the reading the book settles on. Kaivai has no named
variants; the second edition is the option `edition` (O1)."""

from __future__ import annotations

from collections.abc import Iterable

from moaisim.errors import RulesError
from moaisim.games import rules_data

#: Rule options and their values, the default first (section O).
OPTIONS: dict[str, tuple[str, ...]] = {
    "edition": ("first", "second"),  # O1
    "fishing": ("dice", "lessluck", "luckless"),  # O2, R8.2.2
    "extra_site_zone": ("edge", "anywhere"),  # O3, R1.2
    "piracy_pays": ("pirate", "victim"),  # O4, R8.4.3
    "presence_boats_on_huts": ("false", "true"),  # O5, R10.3
    "influence_visibility": ("open", "hidden"),  # O6, R11
    "trap_tie": ("any_largest", "all_cut_off"),  # O7, R7.4
    "second_edition_pairs": ("uniform_pair",),  # O8, R1.2: how a two-hex island is drawn
}
#: What each option decides, in a line (`moaisim variants --game kaivai`).
OPTION_HELP: dict[str, str] = {
    "edition": "O1: the first edition, or the second (two-hex extra islands, 8 rounds, "
    "fish of freshness 4, a sure fish from the god, every island bidder pays)",
    "fishing": "O2, R8.2.2: fishing by dice, with less spread (lessluck), or without dice "
    "(luckless)",
    "extra_site_zone": "O3, R1.2: extra cult sites drawn on the board's outer ring, or "
    "anywhere on it",
    "piracy_pays": "O4, R8.4.3: the glory of a sinking is paid by the pirate, or the victim",
    "presence_boats_on_huts": "O5, R10.3: a boat standing on its own hut counts no presence "
    "at the end (false), or counts for each island whose cult site its hut touches (true)",
    "influence_visibility": "O6, R11: each player's influence is open, or hidden",
    "trap_tie": "O7, R7.4: water pieces tied for the largest are all free for boats "
    "(any_largest), or none is (all_cut_off)",
    "second_edition_pairs": "O8, R1.2: how a second-edition two-hex island is drawn (one "
    "reading so far)",
}
assert set(OPTION_HELP) == set(OPTIONS)
#: Named variants (none: the rule options say all).
VARIANTS: dict[str, str] = {}


def check_option(name: str, value: str) -> str:
    """A rule option's value, checked against its values (one line otherwise)."""
    return rules_data.check_option("kaivai", OPTIONS, name, value)


def parse_variants(spec: str | Iterable[str] | None) -> frozenset[str]:
    """Kaivai plays its base game: None, "base" or [] -> frozenset(); a variant's name is a
    one-line error that points to the rule options (the second edition is `edition=second`)."""
    if spec is None:
        return frozenset()
    parts = spec.split("+") if isinstance(spec, str) else [p for s in spec for p in s.split("+")]
    for raw in parts:
        name = raw.strip()
        if name in ("", "base"):
            continue
        hint = " (the second edition is the rule option edition=second)" if "second" in name else ""
        raise RulesError(f"unknown variant {name!r}: kaivai plays only base; its readings are "
                         f"rule options (moaisim variants --game kaivai){hint}")  # fmt: skip
    return frozenset()


def variant_label(variants: Iterable[str]) -> str:
    """The label of a variant set: always 'base' (no variant is played)."""
    parse_variants(list(variants))
    return "base"
