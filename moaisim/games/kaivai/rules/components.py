"""Kaivai's component set (docs/kaivai-rules.md, section C): every figure of the board, the
tracks and the players' stock, read from a component file (the shipped `components.toml`, or
a file of the same shape) and checked key by key, one line per mistake. The rule parameters
(`parameters.PARAMETERS`) are keys of this file: `apply_parameters` sets them in a document
before it is read, so a set-up's figures are always a component set's."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from moaisim.errors import RulesError
from moaisim.games import rules_data
from moaisim.games.kaivai.rules.parameters import PARAMETERS

#: The shipped component file, as (package, file name).
DEFAULT_FILE = ("moaisim.games.kaivai.rules", "components.toml")
#: The most a count of shells or fish may be worth (the compiled machine keeps a count per
#: value: `machine.VALUES`).
MOST_VALUE = 15
#: Each section's keys: (lowest, highest) for a number, (lowest, highest, length) for a list
#: of numbers (length None: any, at least 1).
SCHEMA: dict[str, dict[str, tuple[int, ...] | tuple[int, int, int | None]]] = {
    "board": {"radius": (3, 8), "extra_site_min_distance": (1, 8)},
    "tracks": {
        "bid_distance": (0, 12, 10), "bonus": (0, 10, 9), "dice_success_sixths": (0, 6, 4),
        "sale_shells": (1, 12, None), "sacrifice_influence": (0, 10),
        "sink_cost_base": (2, 12), "hut_fish_capacity": (1, 3), "freshness": (1, MOST_VALUE),
    },
    "per_player": {
        "huts": (2, 30), "boats": (1, 6), "temple_statues": (0, 10),
        "start_influence": (0, 20), "start_shells": (1, MOST_VALUE, None),
        "start_fish": (1, MOST_VALUE, None),
    },
    "game": {"rounds": (1, 20), "cult_tiles": (1, 20)},
}  # fmt: skip
#: The second edition's figures (option `edition`, O1), each optional.
SECOND: dict[str, tuple[int, int]] = {
    "rounds": (1, 20), "cult_tiles": (1, 20), "start_fish": (1, MOST_VALUE),
    "catch_freshness": (1, MOST_VALUE),
}  # fmt: skip


@dataclass(frozen=True)
class Components:
    """The figures of section C, read from a component file."""

    radius: int
    printed_cult_sites: tuple[tuple[int, int], ...]
    extra_site_min_distance: int
    bid_distance: tuple[int, ...]
    bonus: tuple[int, ...]
    dice_success_sixths: tuple[int, ...]
    sale_shells: tuple[int, ...]
    sink_cost_base: int
    hut_fish_capacity: int
    freshness: int
    huts: int
    boats: int
    temple_statues: int
    start_influence: int
    start_shells: tuple[int, ...]
    start_fish: tuple[int, ...]
    rounds: int
    cult_tiles: int
    extra_sites: dict[int, int]
    second: dict[str, Any] = field(default_factory=dict)
    sacrifice_influence: int = 2
    name: str = "kaivai"
    #: The keys whose figures no source confirms (section C's [assumed]).
    assumed: tuple[str, ...] = ()

    @staticmethod
    def read(path: str | Path | None = None) -> Components:
        """The component file at `path`, or the shipped one."""
        return load_components(path)

    def as_dict(self) -> dict[str, Any]:
        """Every figure as plain data (what the rules digest hashes): the [assumed] notes
        left out, which change no game."""
        out = json.loads(json.dumps(asdict(self), default=str))
        out.pop("assumed")
        return out


def digest_of(data: Mapping[str, Any]) -> str:
    """SHA-256 of plain data, keys sorted (stable across runs and machines)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def contents(components: Components) -> dict[str, Any]:
    """A component set's figures beyond its name and its rule parameters (what a game log's
    replay needs to find the same file)."""
    out = components.as_dict()
    for key in ("name", *(p.field or p.name for p in PARAMETERS.values())):
        out.pop(key, None)
    out["second"].pop("rounds", None)
    return out


def component_document(path: str | Path | None = None) -> tuple[dict[str, Any], str]:
    """A component file's TOML document and its name for messages (None: the shipped one;
    `rules_data.component_document`)."""
    return rules_data.component_document(path, DEFAULT_FILE)


def apply_parameters(document: dict[str, Any], params: Mapping[str, int]) -> dict[str, Any]:
    """The document with rule parameters set at their keys (a copy); `rounds` sets the second
    edition's rounds too (`parameters`' docstring)."""
    out = rules_data.apply_parameters(document, params, PARAMETERS)
    if "rounds" in params and isinstance(out.get("second_edition"), dict):
        out["second_edition"]["rounds"] = params["rounds"]
    return out


def _number(source: str, where: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"component file {source!r}: {where} must be a whole number, "
                         f"got {value!r}")  # fmt: skip
    if not low <= value <= high:
        raise RulesError(f"component file {source!r}: {where} = {value} is outside "
                         f"{low}..{high}")  # fmt: skip
    return value


def _numbers(source: str, where: str, value: Any, low: int, high: int,
             length: int | None) -> tuple[int, ...]:  # fmt: skip
    if not isinstance(value, list) or not value or (length is not None and len(value) != length):
        size = f"{length} " if length is not None else ""
        raise RulesError(f"component file {source!r}: {where} must be a list of {size}whole "
                         "numbers")  # fmt: skip
    return tuple(_number(source, where, v, low, high) for v in value)


def components_from_dict(document: Mapping[str, Any], source: str) -> Components:
    """A checked `Components` from a TOML document (one line per mistake)."""
    known = {*SCHEMA, "name", "assumed", "second_edition"}
    unknown = sorted(set(document) - known)
    if unknown:
        raise RulesError(f"component file {source!r}: unknown section or key {unknown[0]!r} "
                         f"(expected {', '.join(sorted(known))})")  # fmt: skip
    got: dict[str, Any] = {}
    for section, keys in SCHEMA.items():
        table = document.get(section)
        if not isinstance(table, dict):
            raise RulesError(f"component file {source!r}: section [{section}] is missing")
        allowed = {*keys, *(("printed_cult_sites",) if section == "board" else ()),
                   *(("extra_sites",) if section == "game" else ())}  # fmt: skip
        extra = sorted(set(table) - allowed)
        if extra:
            raise RulesError(f"component file {source!r}: [{section}] has an unknown key "
                             f"{extra[0]!r} (expected {', '.join(sorted(allowed))})")  # fmt: skip
        for key, bounds in keys.items():
            where = f"{section}.{key}"
            if key not in table:
                raise RulesError(f"component file {source!r}: {where} is missing")
            if len(bounds) == 2:
                got[key] = _number(source, where, table[key], *bounds)
            else:
                got[key] = _numbers(source, where, table[key], *bounds)
    radius = got["radius"]
    sites = document["board"].get("printed_cult_sites")
    if not isinstance(sites, list) or not sites or not all(
            isinstance(h, list) and len(h) == 2 for h in sites):  # fmt: skip
        raise RulesError(f"component file {source!r}: board.printed_cult_sites must be a list "
                         "of [q, r] hexes")  # fmt: skip
    printed = tuple((_number(source, "board.printed_cult_sites", q, -radius, radius),
                     _number(source, "board.printed_cult_sites", r, -radius, radius))
                    for q, r in sites)  # fmt: skip
    if any(abs(q + r) > radius for q, r in printed) or len(set(printed)) != len(printed):
        raise RulesError(f"component file {source!r}: board.printed_cult_sites must be distinct "
                         f"hexes of the board (|q|, |r|, |q + r| at most {radius})")  # fmt: skip
    extra = document["game"].get("extra_sites")
    if not isinstance(extra, dict) or sorted(extra) != ["3", "4"]:
        raise RulesError(f"component file {source!r}: game.extra_sites must give the extra "
                         "islands at 3 and at 4 players ({ 3 = n, 4 = n })")  # fmt: skip
    extra_sites = {int(k): _number(source, f"game.extra_sites.{k}", v, 0, 4)
                   for k, v in extra.items()}  # fmt: skip
    if len(got["sale_shells"]) != got["hut_fish_capacity"]:
        raise RulesError(f"component file {source!r}: tracks.sale_shells must give a price for "
                         f"each of the {got['hut_fish_capacity']} fish a hut holds "
                         "(tracks.hut_fish_capacity)")  # fmt: skip
    second = document.get("second_edition", {})
    if not isinstance(second, dict):
        raise RulesError(f"component file {source!r}: [second_edition] must be a table")
    bad = sorted(set(second) - {*SECOND, "extra_islands"})
    if bad:
        raise RulesError(f"component file {source!r}: [second_edition] has an unknown key "
                         f"{bad[0]!r}")  # fmt: skip
    for key, (low, high) in SECOND.items():
        if key in second:
            value = second[key]
            where = f"second_edition.{key}"
            if isinstance(value, list):
                _numbers(source, where, value, low, high, None)
            else:
                _number(source, where, value, low, high)
    if "extra_islands" in second:
        islands = second["extra_islands"]
        if not isinstance(islands, dict) or not all(k in ("3", "4") for k in islands):
            raise RulesError(f"component file {source!r}: second_edition.extra_islands must "
                             "give the extra islands at 3 and 4 players")  # fmt: skip
        for k, v in islands.items():
            _number(source, f"second_edition.extra_islands.{k}", v, 0, 4)
    for name, p in PARAMETERS.items():  # the parameters' own ranges
        value = got[p.key[1]] if p.index is None else got[p.key[1]][p.index]
        if not p.low <= value <= p.high:
            raise RulesError(f"component file {source!r}: {'.'.join(p.key)} ({name}) = "
                             f"{value} is outside {p.low}..{p.high}")  # fmt: skip
    name = document.get("name", Path(source).stem)
    if not isinstance(name, str) or not name.strip():
        raise RulesError(f"component file {source!r}: name must be a non-empty string")
    assumed = document.get("assumed", [])
    if not isinstance(assumed, list) or not all(isinstance(a, str) for a in assumed):
        raise RulesError(f"component file {source!r}: assumed must be a list of keys")
    return Components(
        radius=radius, printed_cult_sites=printed,
        extra_site_min_distance=got["extra_site_min_distance"],
        bid_distance=got["bid_distance"], bonus=got["bonus"],
        dice_success_sixths=got["dice_success_sixths"], sale_shells=got["sale_shells"],
        sink_cost_base=got["sink_cost_base"], hut_fish_capacity=got["hut_fish_capacity"],
        freshness=got["freshness"], huts=got["huts"], boats=got["boats"],
        temple_statues=got["temple_statues"], start_influence=got["start_influence"],
        start_shells=got["start_shells"], start_fish=got["start_fish"], rounds=got["rounds"],
        cult_tiles=got["cult_tiles"], extra_sites=extra_sites, second=dict(second),
        sacrifice_influence=got["sacrifice_influence"], name=name.strip(),
        assumed=tuple(assumed),
    )  # fmt: skip


def load_components(path: str | Path | None = None,
                    params: Mapping[str, int] | None = None) -> Components:  # fmt: skip
    """The component set of a TOML file (None: the shipped one), rule parameters applied."""
    document, source = component_document(path)
    if params:
        document = apply_parameters(document, params)
    return components_from_dict(document, source)


def parameter_values(components: Components) -> dict[str, int]:
    """Each rule parameter's value in a component set (`rounds`: the first edition's)."""
    return PARAMETERS.values_in(components)
