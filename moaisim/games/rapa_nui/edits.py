"""Rapa Nui's component edits (the balance search's space, `moaisim balance`): each keeps the
published totals (50 Rapa Nui cards, C1) but `supply_per_type`, which changes the 100
sacrifice cards (C3).

The edits change counts of the component file (docs/rapa-nui-rules.md, section C) that are
not rule parameters: the rule parameters (`moai_cost`, `bonus_moai`, `hand_size`...) are
searched under their own names, and no edit touches their keys. The deck edits move cards
between a kind and the lumberjacks, the most numerous kind (12 of 50), so the deck keeps its
50 cards whichever of them a candidate makes and in whatever order; the H&G stay alike across
the four food types (R0: no rule treats one type differently).
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

from moaisim.errors import UserError
from moaisim.games.rapa_nui.rules.codes import N_FOODS
from moaisim.games.rapa_nui.rules.components import COUNTS, Components

#: Component edits a search space may name, with their kind and meaning.
COMPONENT_EDITS: dict[str, tuple[str, str]] = {
    "moai_cards": ("int", "Moai cards in the deck (C1: 9), the lumberjacks taking up the "
                          "difference (the deck keeps its 50 cards)"),
    "priest_cards": ("int", "priest cards in the deck (C1: 9), the lumberjacks taking up the "
                            "difference (the deck keeps its 50 cards)"),
    "hg_cards_per_type": ("int", "H&G cards of each food type in the deck (C1: 5, 20 in all), "
                                 "the lumberjacks taking up the difference (the deck keeps "
                                 "its 50 cards)"),
    "display_depth": ("int", "cards each display column is dealt at the start and at a "
                             "refill (C7, R1.3, R6.3: 4)"),
    "start_stock": ("int", "sacrifice cards of each food type a stock starts with under "
                           "start_sacrifice = one_each (C9, R1.4: 1)"),
    "sacrifice_value_scale": ("float", "each stock card's value by its type's rank (R9.2, "
                                       "C13: 3, 2, 1, 0) times this, rounded"),
    "supply_per_type": ("int", "sacrifice cards of each food type (C3: 25, 100 in all)"),
}  # fmt: skip
#: Edits that change a published total (allowed only with `keep_totals = false`), each with
#: the total it changes.
TOTAL_CHANGING: dict[str, str] = {"supply_per_type": "100 sacrifice cards"}

#: The deck edits: the key of `[deck]` each sets, and how many cards one unit of its value is
#: (one per food type for the H&G).
DECK_KEYS: dict[str, tuple[str, int]] = {
    "moai_cards": ("moai", 1),
    "priest_cards": ("priest", 1),
    "hg_cards_per_type": ("hunter_gatherer", N_FOODS),
}
#: What each deck key's cards are called in messages.
DECK_NAMES: dict[str, str] = {"moai": "Moai", "priest": "priests", "hunter_gatherer": "H&G"}
#: The most players a supply must give a starting stock to (R1.1, R1.4).
MOST_PLAYERS = 4
#: The highest value a stock card may be given by `sacrifice_value_scale` (R9.2): the
#: component file's own bound (`components.COUNTS`).
MAX_VALUE = COUNTS["sacrifice.values"][1]


def edit_default(components: Components, name: str) -> Any:
    """A component edit's value in a component set (the shipped one: the base game's)."""
    if name == "moai_cards":
        return components.moai
    if name == "priest_cards":
        return components.priests
    if name == "hg_cards_per_type":  # every type holds the same in the shipped set
        return max(components.hunter_gatherers)
    if name == "display_depth":
        return components.depth
    if name == "start_stock":
        return components.start_stock
    if name == "sacrifice_value_scale":
        return 1.0
    if name == "supply_per_type":
        return components.supply
    _unknown(name)


def apply_edit(doc: dict[str, Any], name: str, value: Any, keep_totals: bool) -> None:
    """Apply one component edit to a component document (in place; `component_document`'s
    TOML document, rule parameters set or not). A value out of range is one line."""
    if name in DECK_KEYS:
        _move_cards(doc, name, _whole(name, value))
    elif name == "display_depth":
        depth = _whole(name, value)
        cards, columns = _deck_total(doc), int(doc["display"]["columns"])
        high = cards // columns
        if not 1 <= depth <= high:
            raise UserError(f"display_depth = {depth}: the deck's {cards} cards deal from 1 to "
                            f"{high} to each of the {columns} columns (R1.3)")  # fmt: skip
        doc["display"]["depth"] = depth
    elif name == "start_stock":
        stock = _whole(name, value)
        supply = int(doc["sacrifice"]["supply"])
        if not 0 <= stock <= supply // MOST_PLAYERS:
            raise UserError(f"start_stock = {stock}: a supply of {supply} cards of each type "
                            f"gives {MOST_PLAYERS} players from 0 to {supply // MOST_PLAYERS} "
                            "of each (R1.4)")  # fmt: skip
        doc["start"]["stock"] = stock
    elif name == "sacrifice_value_scale":
        number = not isinstance(value, bool) and isinstance(value, int | float)
        scale = float(value) if number else math.nan
        if not math.isfinite(scale) or scale < 0:
            raise UserError(f"sacrifice_value_scale = {value}: the scale must be a number of "
                            "at least 0")  # fmt: skip
        values = [int(math.floor(int(v) * scale + 0.5)) for v in doc["sacrifice"]["values"]]
        if max(values) > MAX_VALUE:
            raise UserError(f"sacrifice_value_scale = {value} gives a stock card {max(values)} "
                            f"glory, more than {MAX_VALUE} (R9.2)")  # fmt: skip
        doc["sacrifice"]["values"] = values
    elif name == "supply_per_type":
        if keep_totals:
            raise UserError(
                "supply_per_type changes the published total of 100 sacrifice cards: set "
                "[balance] keep_totals = false to search it"
            )
        supply = _whole(name, value)
        low = MOST_PLAYERS * int(doc["start"]["stock"])
        if supply < low:
            raise UserError(f"supply_per_type = {supply}: each stack gives {MOST_PLAYERS} "
                            f"players their starting stock, so at least {low} (R1.4)")  # fmt: skip
        doc["sacrifice"]["supply"] = supply
    else:
        _unknown(name)


def _whole(name: str, value: Any) -> int:
    """An int edit's value as a whole number (one line otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise UserError(f"{name} = {value!r}: the value must be a whole number")
    return int(value)


def _deck_total(doc: dict[str, Any]) -> int:
    """The Rapa Nui cards of a document's deck (C1)."""
    deck = doc["deck"]
    return (int(deck["lumberjack"]) + int(deck["priest"]) + int(deck["moai"])
            + sum(int(n) for n in deck["hunter_gatherer"]))  # fmt: skip


def _move_cards(doc: dict[str, Any], name: str, value: int) -> None:
    """A deck edit: `value` cards of the edit's kind (of each food type for the H&G), the
    lumberjacks taking up the difference so the deck keeps its total (C1)."""
    deck = doc["deck"]
    key, per = DECK_KEYS[name]
    held = deck[key]
    now = sum(int(n) for n in held) if isinstance(held, list) else int(held)
    spare = int(deck["lumberjack"]) + now  # the cards this kind and the lumberjacks share
    high = spare // per
    if not 0 <= value <= high:
        others = _deck_total(doc) - spare
        each = f" of each of the {per} food types" if per > 1 else ""
        raise UserError(f"{name} = {value}: the deck's {_deck_total(doc)} cards hold {others} "
                        f"besides the {DECK_NAMES[key]} and the lumberjacks, so from 0 to "
                        f"{high} {DECK_NAMES[key]}{each} fit (the lumberjacks take up the "
                        "difference)")  # fmt: skip
    deck[key] = [value] * per if isinstance(held, list) else value
    deck["lumberjack"] = spare - value * per


def _unknown(name: str) -> NoReturn:
    raise UserError(f"unknown component edit {name!r} of rapa-nui (its edits: "
                    f"{', '.join(COMPONENT_EDITS)})")  # fmt: skip
