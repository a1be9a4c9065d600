"""Rule variants V1-V5 and rule options (docs/rules.md section V and R2, R3.1, R6.2)."""

from __future__ import annotations

from collections.abc import Iterable

from moaisim.errors import RulesError

#: Variant names of docs/rules.md section V, in V1..V5 order, with their one-line description.
VARIANTS: dict[str, str] = {
    "open-pawns": "V1: every pawn is placed face up, in every zone",
    "open-bidding": "V2: bids face up, one player at a time in last round's hill order",
    "short": "V3: remove 2 epoch-1, 2 epoch-2 and 1 epoch-3 cards (never the Admiral)",
    "open-bidding-strict": "V4: as V2; a bird-man tied for first cannot take first place",
    "fixed-disasters": "V5: a disaster hits the next player in turn order",
}
ALIASES: dict[str, str] = {f"V{i}": name for i, name in enumerate(VARIANTS, start=1)}

#: Rule options and their allowed values; the first value is the default.
OPTIONS: dict[str, tuple[str, ...]] = {
    "turn_order": ("hill", "clockwise"),  # R2
    "volcano_after_moai": ("stay", "camp"),  # R6.2
    "spent_wood": ("supply", "out"),  # R3.1 (A1)
}
#: What each option decides, in a line (`moaisim variants`).
OPTION_HELP: dict[str, str] = {
    "turn_order": "R2: the phases after the bird-man's go in hill order, or clockwise from the "
    "bird-man",
    "volcano_after_moai": "R6.2: a finished statue's pawns stay on its space, or go back to camp",
    "spent_wood": "R3.1: wood discarded or spent returns to the supply, or leaves the game",
}
assert set(OPTION_HELP) == set(OPTIONS)


def parse_variants(spec: str | Iterable[str] | None) -> frozenset[str]:
    """`"short+fixed-disasters"`, `"V3+V5"`, `["short"]` or `"base"` -> a set of names.

    `base` stands alone (it means "no variant"); a variant may be named once.
    """
    if spec is None:
        return frozenset()
    if isinstance(spec, frozenset | set) and spec <= set(VARIANTS):
        return frozenset(spec)
    parts = spec.split("+") if isinstance(spec, str) else [p for s in spec for p in s.split("+")]
    names = []
    for raw in parts:
        name = raw.strip()
        name = ALIASES.get(name.upper(), name)
        if name != "base" and name not in VARIANTS:
            raise RulesError(
                f"unknown variant {raw.strip()!r} (expected base or one of {', '.join(VARIANTS)})"
            )
        names.append(name)
    if "base" in names and len(names) > 1:
        raise RulesError(f"variant {'+'.join(parts)!r}: base cannot be combined with variants")
    twice = sorted({n for n in names if names.count(n) > 1 and n != "base"})
    if twice:
        raise RulesError(f"variant {'+'.join(parts)!r} names {twice[0]} twice")
    out = frozenset(names) - {"base"}
    if {"open-bidding", "open-bidding-strict"} <= out:
        raise RulesError("variants open-bidding and open-bidding-strict exclude each other")
    return out


def variant_label(variants: Iterable[str]) -> str:
    """Canonical name of a variant set: names in V1..V5 order joined by '+', or 'base'."""
    chosen = set(variants)
    return "+".join(v for v in VARIANTS if v in chosen) or "base"


def check_option(name: str, value: str) -> str:
    """A rule option's value, checked against its choices (one line otherwise)."""
    if name not in OPTIONS:
        raise RulesError(f"unknown rule option {name!r} (expected one of {', '.join(OPTIONS)})")
    if value not in OPTIONS[name]:
        raise RulesError(f"rule option {name} = {value!r} is not one of {', '.join(OPTIONS[name])}")
    return value
