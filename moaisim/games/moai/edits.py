"""Moai's component edits (the balance search's space, `moaisim balance`): each keeps the
published totals but `moai_tiles_per_height`, which changes the 21 Moai tiles (C2)."""

from __future__ import annotations

import math
from typing import Any

from moaisim.errors import UserError
from moaisim.games.moai.rules.components import Components, parse_epoch_card

#: Component edits a search space may name, with their kind and meaning.
COMPONENT_EDITS: dict[str, tuple[str, str]] = {
    "palms_epoch1": ("int", "epoch-1 cards that show a palm (R3.1), moved among its cards"),
    "palms_epoch2": ("int", "epoch-2 cards that show a palm (R3.1), moved among its cards"),
    "palms_epoch3": ("int", "epoch-3 cards that show a palm (R3.1), moved among its cards"),
    "moai_height_scale": ("float", "every Moai tile's height times this, rounded (C2, R6.2)"),
    "moai_tiles_per_height": ("int", "Moai tiles of each height (C2; 3 in the box: 21 tiles)"),
}
#: Edits that change a published total (allowed only with `keep_totals = false`), each with
#: the total it changes.
TOTAL_CHANGING: dict[str, str] = {"moai_tiles_per_height": "21 Moai tiles"}


def edit_default(components: Components, name: str) -> Any:
    """A component edit's value in a component set (the shipped one: the base game's)."""
    if name.startswith("palms_epoch"):
        e = int(name[-1])
        return sum(card.palm for card in components.epoch_cards if card.epoch == e)
    if name == "moai_height_scale":
        return 1.0
    heights = components.moai_heights
    return max(heights.count(h) for h in set(heights))


def apply_edit(doc: dict[str, Any], name: str, value: Any, keep_totals: bool) -> None:
    """Apply one component edit to a component document (in place)."""
    if name.startswith("palms_epoch"):
        e = str(name[-1])
        cards = [parse_epoch_card("space", t, int(e), k) for k, t in enumerate(doc["epoch"][e])]
        others = [k for k, c in enumerate(cards) if not c.is_admiral]
        if not 0 <= value <= len(others):
            raise UserError(
                f"{name} = {value}: epoch {e} has {len(others)} cards besides the Admiral, so "
                f"from 0 to {len(others)} of them can show a palm"
            )
        have = [k for k in others if cards[k].palm]
        # palms leave the last palm cards listed first, and come to the first cards without
        # one: the same value always gives the same deck
        drop = set(have[value:]) if value < len(have) else set()
        add = [k for k in others if not cards[k].palm][: max(0, value - len(have))]
        texts = list(doc["epoch"][e])
        for k in drop:
            texts[k] = texts[k].replace("*", "")
        for k in add:
            texts[k] = texts[k].rstrip() + "*"
        doc["epoch"][e] = texts
    elif name == "moai_height_scale":
        heights: dict[int, int] = {}
        for h, n in doc["moai"]["heights"].items():
            scaled = max(1, min(99, int(math.floor(int(h) * value + 0.5))))
            heights[scaled] = heights.get(scaled, 0) + n
        doc["moai"]["heights"] = {str(h): n for h, n in sorted(heights.items())}
    elif name == "moai_tiles_per_height":
        if keep_totals:
            raise UserError(
                "moai_tiles_per_height changes the published total of 21 Moai tiles: set "
                "[balance] keep_totals = false to search it"
            )
        doc["moai"]["heights"] = {h: int(value) for h in doc["moai"]["heights"]}
        doc["moai"]["total"] = int(value) * len(doc["moai"]["heights"])
