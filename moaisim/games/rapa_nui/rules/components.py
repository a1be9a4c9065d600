"""Rapa Nui's component set (docs/rapa-nui-rules.md, section C): read from a TOML file (the
shipped `default.toml`, or a user's copy), checked key by key, every mistake one line."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moaisim.errors import RulesError
from moaisim.games import rules_data
from moaisim.games.rapa_nui.rules.codes import N_FOODS
from moaisim.games.rapa_nui.rules.parameters import PARAMETERS, SIMPLE

#: The shipped component file (`moaisim rules --game rapa-nui --components` prints it).
DEFAULT_FILE = ("moaisim.games.rapa_nui.rules", "default.toml")
#: The keys of each section that no simple rule parameter holds, and whether each holds a
#: whole number or a list of N (food types, colours, values).
KEYS: dict[str, dict[str, int | None]] = {
    "deck": {"lumberjack": None, "priest": None, "moai": None, "hunter_gatherer": N_FOODS},
    "start": {"lumberjacks": None, "missing": 4, "wood": 4, "stock": None},
    "sacrifice": {"supply": None, "values": N_FOODS},
    "display": {"columns": None, "depth": None, "hand": None},
}


def _schema() -> dict[str, dict[str, int | None]]:
    """Every section's keys: `KEYS`, and each simple rule parameter's (a whole number, from
    its record), in the order the shipped file gives them (a message lists them as a reader
    of the file sees them; a section or key it lacks comes after those it has)."""
    keys = {section: dict(held) for section, held in KEYS.items()}
    for p in SIMPLE.values():
        keys.setdefault(p.key[0], {})[p.key[1]] = None
    package, name = DEFAULT_FILE
    shipped = tomllib.loads(resources.files(package).joinpath(name).read_text("utf-8"))

    def in_file_order(names: Iterable[str], listed: Iterable[str]) -> list[str]:
        place = {n: i for i, n in enumerate(listed)}
        return sorted(names, key=lambda n: place.get(n, len(place)))

    out: dict[str, dict[str, int | None]] = {}
    for section in in_file_order(keys, shipped):
        held = keys[section]
        out[section] = {k: held[k] for k in in_file_order(held, shipped.get(section, {}))}
    return out


#: Each section's keys and whether each holds a whole number or a list of N: `KEYS` and each
#: simple rule parameter's key (from its record), in the shipped file's order.
SCHEMA: dict[str, dict[str, int | None]] = _schema()

#: The counts of the file that no rule parameter bounds, with the range the rules and the
#: engines allow and why (the deck and the display are checked against each other below).
COUNTS: dict[str, tuple[int, int, str]] = {
    # R0, C2: the lumberjack of a colour's four start cards goes to its village (R1.2)
    "start.lumberjacks": (0, 4, "R0, C2: a colour's start set is four cards"),
    # C3; a seat's stock may come to hold the four stacks whole, and the results keep it,
    # and the cards bought and gained, in 16 bits (engine/results.py): 4 x 8191 <= 32767
    "sacrifice.supply": (0, 8191, "C3: 25; a seat's stock may come to hold all four stacks, "
                         "and the results keep it in 16 bits"),
    # R9.2, C13: a stock card's glory; the balance edits' highest too (edits.MAX_VALUE)
    "sacrifice.values": (0, 99, "R9.2, C13: 3, 2, 1, 0; the balance edits' highest"),
    # C1: the machine keeps each game's draw pile whole, a row of the deck's size
    "deck.lumberjack": (0, 500, "C1: 12 of 50 cards; a batch holds each game's whole deck"),
    "deck.priest": (0, 500, "C1: 9 of 50 cards; a batch holds each game's whole deck"),
    "deck.moai": (0, 500, "C1: 9 of 50 cards; a batch holds each game's whole deck"),
    "deck.hunter_gatherer": (0, 500, "C1: 5 of each type; a batch holds each game's whole "
                             "deck"),
    # C7: the display is a [columns, depth] block of every game; a take is a column
    "display.columns": (1, 16, "C7: 4 columns"),
    "display.depth": (1, 50, "C7: 4 cards a column"),
    # C9, R1.4: taken from the supply's stacks at the set-up (checked against them below)
    "start.stock": (0, 2047, "C9: 1 of each type; four stocks come from the supply"),
}  # fmt: skip


@dataclass(frozen=True)
class Components:
    """A component set: the counts of every part of the game (C1-C13)."""

    name: str
    assumed: tuple[str, ...]
    lumberjacks: int  # C1: Rapa Nui cards of each kind
    priests: int
    moai: int
    hunter_gatherers: tuple[int, ...]  # per food type
    start_lumberjacks: int  # C2: a colour's start cards
    start_missing: tuple[int, ...]  # C2a: the type colour q's start H&G lack [assumed]
    start_wood: tuple[int, ...]  # C8: by seat
    start_stock: int  # C9: sacrifice cards of each type in a stock at the start
    supply: int  # C3: sacrifice cards of each type
    sacrifice_values: tuple[int, ...]  # C13: glory of a stock card by its type's rank
    columns: int  # C7
    depth: int
    hand: int
    #: the simple rule parameters' values, (name, value) in `parameters.SIMPLE` order
    #: (`sacrifice_price`, `moai_cost`, `bonus_lumberjack`... C10, C12, C13), each also an
    #: attribute of its name: `components.moai_cost`
    settings: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        names = tuple(name for name, _ in self.settings)
        if names != tuple(SIMPLE):
            raise RulesError(f"components {self.name!r}: settings name {', '.join(names)}, not "
                             f"the simple rule parameters {', '.join(SIMPLE)}")  # fmt: skip
        for name, value in self.settings:  # read as a field is, at no cost (the engines' loops)
            object.__setattr__(self, name, value)

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> int:
            """A simple rule parameter's value (`settings`), by its name."""

    @property
    def n_cards(self) -> int:
        """The Rapa Nui cards (C1)."""
        return self.lumberjacks + self.priests + self.moai + sum(self.hunter_gatherers)

    @property
    def display_cards(self) -> int:
        """The cards the display is dealt (R1.3)."""
        return self.columns * self.depth

    def as_dict(self) -> dict[str, Any]:
        """Every field as plain data, each simple rule parameter under its own name (what the
        rules digest hashes)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "settings"}
        out.update(self.settings)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}


def digest_of(data: Mapping[str, Any]) -> str:
    """SHA-256 of plain data, keys sorted (stable across runs and machines)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def component_document(path: str | Path | None = None) -> tuple[dict[str, Any], str]:
    """A component file's TOML document and its name for messages (None: the shipped one;
    `rules_data.component_document`)."""
    return rules_data.component_document(path, DEFAULT_FILE)


def apply_parameters(document: dict[str, Any], params: Mapping[str, int]) -> dict[str, Any]:
    """The document with rule parameters set at their keys (a copy)."""
    return rules_data.apply_parameters(document, params, PARAMETERS)


def _number(source: str, where: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"component file {source!r}: {where} must be a whole number, "
                         f"got {value!r}")  # fmt: skip
    if value < low:
        raise RulesError(f"component file {source!r}: {where} must be at least {low}, got {value}")
    return value


def components_from_dict(document: Mapping[str, Any], source: str) -> Components:
    """A checked `Components` from a TOML document (one line per mistake)."""
    unknown = sorted(set(document) - {*SCHEMA, "name", "assumed"})
    if unknown:
        raise RulesError(f"component file {source!r}: unknown section or key {unknown[0]!r} "
                         f"(expected {', '.join(SCHEMA)})")  # fmt: skip
    got: dict[str, Any] = {}
    for section, keys in SCHEMA.items():
        table = document.get(section)
        if not isinstance(table, dict):
            raise RulesError(f"component file {source!r}: section [{section}] is missing")
        extra = sorted(set(table) - set(keys))
        if extra:
            raise RulesError(f"component file {source!r}: [{section}] has an unknown key "
                             f"{extra[0]!r} (expected {', '.join(keys)})")  # fmt: skip
        for key, size in keys.items():
            where = f"{section}.{key}"
            if key not in table:
                raise RulesError(f"component file {source!r}: {where} is missing")
            value = table[key]
            if size is None:
                got[where] = _number(source, where, value)
            else:
                if not isinstance(value, list) or len(value) != size:
                    raise RulesError(f"component file {source!r}: {where} must be a list of "
                                     f"{size} whole numbers")  # fmt: skip
                got[where] = tuple(_number(source, where, v) for v in value)
    for name, p in PARAMETERS.items():  # the parameters' own ranges
        key = ".".join(p.key)
        value = got[key] if p.index is None else got[key][p.index]
        if not p.low <= value <= p.high:
            raise RulesError(f"component file {source!r}: {key} ({name}) = {value} is outside "
                             f"{p.low}..{p.high}")  # fmt: skip
    if any(t >= N_FOODS for t in got["start.missing"]):
        raise RulesError(f"component file {source!r}: start.missing names food types 0-3")
    for where, (low, high, why) in COUNTS.items():  # counts no parameter bounds
        for value in got[where] if isinstance(got[where], tuple) else (got[where],):
            if not low <= value <= high:
                raise RulesError(f"component file {source!r}: {where} = {value} is outside "
                                 f"{low}..{high} ({why})")  # fmt: skip
    for what in ("display.columns", "display.depth"):
        _number(source, what, got[what], 1)
    assumed = document.get("assumed", [])
    if not isinstance(assumed, list) or not all(isinstance(a, str) for a in assumed):
        raise RulesError(f"component file {source!r}: assumed must be a list of keys")
    out = Components(
        name=str(document.get("name", Path(source).stem)),
        assumed=tuple(assumed),
        lumberjacks=got["deck.lumberjack"],
        priests=got["deck.priest"],
        moai=got["deck.moai"],
        hunter_gatherers=got["deck.hunter_gatherer"],
        start_lumberjacks=got["start.lumberjacks"],
        start_missing=got["start.missing"],
        start_wood=got["start.wood"],
        start_stock=got["start.stock"],
        supply=got["sacrifice.supply"],
        sacrifice_values=got["sacrifice.values"],
        columns=got["display.columns"],
        depth=got["display.depth"],
        hand=got["display.hand"],
        settings=tuple((name, got[".".join(p.key)]) for name, p in SIMPLE.items()),
    )
    check_end(out, f"component file {source!r}")
    if out.supply < 4 * out.start_stock:
        raise RulesError(f"component file {source!r}: sacrifice.supply ({out.supply}) cannot "
                         f"give 4 players {out.start_stock} card(s) of each type")  # fmt: skip
    return out


def check_end(components: Components, where: str) -> None:
    """Refuse a component set whose game could never end (`where` names it in the message).

    R8.1: the game ends when the draw pile is used up, so a deck that leaves no draw pile
    once the display is dealt (C1 at most C7's display) makes a game with no end. No other
    count can: the display's columns and depth and the hand (R6.1, C7) are at least 1, so
    every play takes cards from the display, and a draw pile of one card or more runs out.
    """
    c = components
    if c.n_cards <= c.display_cards:
        raise RulesError(f"{where}: the deck's {c.n_cards} Rapa Nui cards leave no draw pile "
                         f"once the display's {c.display_cards} ({c.columns} columns of "
                         f"{c.depth}) are dealt: such a game never ends (R8.1)")  # fmt: skip


def load_components(path: str | Path | None = None,
                    params: Mapping[str, int] | None = None) -> Components:  # fmt: skip
    """The component set of a TOML file (None: the shipped one), rule parameters applied."""
    document, source = component_document(path)
    if params:
        document = apply_parameters(document, params)
    return components_from_dict(document, source)


def parameter_values(components: Components) -> dict[str, int]:
    """Each rule parameter's value in a component set."""
    return {name: p.value(components) for name, p in PARAMETERS.items()}
