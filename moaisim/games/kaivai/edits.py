"""Kaivai's component edits (the balance search's space, `moaisim balance --game kaivai`):
counts of the component file (docs/kaivai-rules.md, section C) that are not rule parameters
(those, `rounds`, `boats`, `sale_first`..., are searched under their own names). The stock of
huts and of temple statues are published totals (15 and 5 a player): their edits are allowed
only with `keep_totals = false`."""

from __future__ import annotations

from typing import Any, NoReturn

from moaisim.errors import UserError
from moaisim.games.kaivai.rules.components import SCHEMA, Components

#: Component edits a search space may name, with their kind and meaning.
COMPONENT_EDITS: dict[str, tuple[str, str]] = {
    "extra_islands_3p": ("int", "extra islands drawn at 3 players in the first edition "
                                "(R1.2, C: 1)"),
    "extra_islands_4p": ("int", "extra islands drawn at 4 players in the first edition "
                                "(R1.2, C: 2)"),
    "dice_sixths_shift": ("int", "sixths added to every fishing die's chance (R8.2.2, C: 5, 4, "
                                 "3, 2 sixths; each kept within 0 to 6)"),
    "huts_per_player": ("int", "hut tiles each player has (R1.4, C: 15)"),
    "temple_statues": ("int", "temple statues each player has (R1.4, C: 5)"),
}  # fmt: skip
#: Edits that change a published total (allowed only with `keep_totals = false`).
TOTAL_CHANGING: dict[str, str] = {
    "huts_per_player": "15 hut tiles a player",
    "temple_statues": "5 temple statues a player",
}
#: The most extra islands a board takes (the component file's bound).
MOST_EXTRA = 4


def edit_default(components: Components, name: str) -> Any:
    """A component edit's value in a component set (the shipped one: the base game's)."""
    if name == "extra_islands_3p":
        return components.extra_sites[3]
    if name == "extra_islands_4p":
        return components.extra_sites[4]
    if name == "dice_sixths_shift":
        return 0
    if name == "huts_per_player":
        return components.huts
    if name == "temple_statues":
        return components.temple_statues
    _unknown(name)


def apply_edit(doc: dict[str, Any], name: str, value: Any, keep_totals: bool) -> None:
    """Apply one component edit to a component document (in place). A value out of range
    is one line."""
    if name in TOTAL_CHANGING and keep_totals:
        raise UserError(f"{name} changes the published total of {TOTAL_CHANGING[name]}: set "
                        "[balance] keep_totals = false to search it")  # fmt: skip
    number = _whole(name, value)
    if name in ("extra_islands_3p", "extra_islands_4p"):
        if not 0 <= number <= MOST_EXTRA:
            raise UserError(f"{name} = {number}: from 0 to {MOST_EXTRA} extra islands (R1.2)")
        doc["game"]["extra_sites"] = {**doc["game"]["extra_sites"], name[-2]: number}
    elif name == "dice_sixths_shift":
        if not -6 <= number <= 6:
            raise UserError(f"{name} = {number}: a shift of -6 to 6 sixths (R8.2.2)")
        doc["tracks"]["dice_success_sixths"] = [
            min(6, max(0, int(x) + number)) for x in doc["tracks"]["dice_success_sixths"]
        ]
    elif name in ("huts_per_player", "temple_statues"):
        key = "huts" if name == "huts_per_player" else "temple_statues"
        low, high = SCHEMA["per_player"][key][:2]
        if not low <= number <= high:
            raise UserError(f"{name} = {number}: from {low} to {high} (R1.4)")
        doc["per_player"][key] = number
    else:
        _unknown(name)


def _whole(name: str, value: Any) -> int:
    """An int edit's value as a whole number (one line otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise UserError(f"{name} = {value!r}: the value must be a whole number")
    return int(value)


def _unknown(name: str) -> NoReturn:
    raise UserError(f"unknown component edit {name!r} of kaivai (its edits: "
                    f"{', '.join(COMPONENT_EDITS)})")  # fmt: skip
