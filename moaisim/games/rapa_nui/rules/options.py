"""Rapa Nui's rule options (docs/rapa-nui-rules.md, section O) and variants (section V).

A rule option is one of the rulebook's open points played either way, its first value the
default reading. No variant of the 2011 edition is known; the two of the 2017 re-theme are
named so that asking for one says why it cannot be played.
"""

from __future__ import annotations

from collections.abc import Iterable

from moaisim.errors import RulesError
from moaisim.games import rules_data

#: Rule options and their values, the default first (section O).
OPTIONS: dict[str, tuple[str, ...]] = {
    "start_sacrifice": ("one_each", "one_choice"),  # R1.4
    "hg_group_cost": ("0/1/2", "0/1/3"),  # R4.1
    "stuck_hand": ("discard", "pass"),  # R4.3, R4.5
    "refill_columns": ("any", "same"),  # R6.2, R6.6
    "hg_income": ("per_type", "per_card"),  # R7.5
    "majority_rule": ("sole", "shared"),  # R7.6
    "sacrifice_tie": ("high", "low", "split"),  # R9.3
    "end_timing": ("turn", "round"),  # R8.2, R8.3
    "display_deal": ("by_column", "by_row"),  # R1.3
    "refill_bottom": ("last", "first"),  # R6.3
    "winner_tie": ("share", "most_wood"),  # R9.4
}
#: What each option decides, in a line (`moaisim variants --game rapa-nui`).
OPTION_HELP: dict[str, str] = {
    "start_sacrifice": "R1.4: the starting stock, one card of each type or one of the player's "
    "choice",
    "hg_group_cost": "R4.1: wood for 1, 2, 3 H&G played together",
    "stuck_hand": "R4.3: a player with no legal play discards a card, or passes",
    "refill_columns": "R6.2: a refill of several cards takes from any columns, or one",
    "hg_income": "R7.5: an H&G evaluation pays one card per type held, or per card",
    "majority_rule": "R7.6: the bonus needs a sole majority, or every tied leader takes it",
    "sacrifice_tie": "R9.3: food types tied on the stone take the value at their first or last "
    "shared place, or their places' mean",
    "end_timing": "R8.2: the game ends with the turn the draw pile runs out, or the round",
    "display_deal": "R1.3: the 16 dealt cards fill the columns one by one, or row by row",
    "refill_bottom": "R6.3: a refilled column's last drawn card is its bottom card, or its first",
    "winner_tie": "R9.4: tied scores share the win, or more wood breaks the tie first",
}
assert set(OPTION_HELP) == set(OPTIONS)

#: Named variants that can be played (none: section V specifies none).
VARIANTS: dict[str, str] = {}
#: The 2017 re-theme's variants, whose rules are unknown (section V).
UNSPECIFIED: dict[str, str] = {
    "demon": "V1 (Bali's demon)",
    "oracle": "V2 (Bali's oracle cards)",
}


def check_option(name: str, value: str) -> str:
    """A rule option's value, checked against its values (one line otherwise)."""
    return rules_data.check_option("rapa-nui", OPTIONS, name, value)


def parse_variants(spec: str | Iterable[str] | None) -> frozenset[str]:
    """Rapa Nui plays its base game only: None, "base" or [] -> frozenset(); any variant a
    one-line error (the re-theme's two say that their rules are unknown)."""
    if spec is None:
        return frozenset()
    parts = spec.split("+") if isinstance(spec, str) else [p for s in spec for p in s.split("+")]
    for raw in parts:
        name = raw.strip()
        if name in ("", "base"):
            continue
        key = {"V1": "demon", "V2": "oracle"}.get(name.upper(), name)
        if key in UNSPECIFIED:
            raise RulesError(
                f"variant {name!r}: {UNSPECIFIED[key]} has no known rules, so "
                "rapa-nui does not play it (docs/rapa-nui-rules.md, section V)"
            )
        raise RulesError(f"unknown variant {name!r}: rapa-nui plays only base (its readings "
                         "are rule options: moaisim variants --game rapa-nui)")  # fmt: skip
    return frozenset()


def variant_label(variants: Iterable[str]) -> str:
    """The label of a variant set: always 'base' (no variant is played)."""
    parse_variants(list(variants))
    return "base"
