"""Rule parameters: house rules as numbers, each a key of the component file (docs/rules.md,
"Rule parameters").

A parameter names one number of the component set: V3's removals generalised (how many cards
of each epoch are removed at random before setup), the wood in the supply, the pawns of each
strength in camp at the start, the cards dealt, the points a wood token scores, the forest
spaces, the points a metre of Moai height scores, the wood tokens each palm puts in the
forest. Each has its default from the rulebook (the default component file) and a range; it
can be set in a component file (its key) or given on the command line (`--param
wood_supply=10`), and a study can sweep it (`--param removed_epoch3=0,1,2`). Setting a
parameter changes the component set, so the rules digest covers it, and every result row
carries each parameter's value.

A parameter is one record (`Parameter`). A *simple* parameter (one number at its own key of
the component file, `field=""`) needs nothing else outside the two engines' rule: the component
file's schema, reading and range check, the `Components` value (`components.moai_points`), the
compiled engine's constant (`Consts.moai_points`), the results column, the set-up label, the
digest (a parameter marked `later` leaves the digest of a set-up at its default unchanged), the
command line's `--param` and its help, the balance space and the docs table
(`moaisim variants`) all derive from the record (docs/design.md, "Adding a rule parameter").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from moaisim.errors import RulesError

if TYPE_CHECKING:
    from moaisim.games.moai.rules.components import Components


@dataclass(frozen=True)
class Parameter:
    """One rule parameter: its name, where it lives in the component file, its rule and its
    meaning; a simple one (`field=""`) also its default and its range, from which everything
    else derives (the others' default and range are the component file's: `default.toml`
    and the checks of `components.py`)."""

    name: str
    key: tuple[str, ...]  # the path of its key in the component file
    rule: str
    meaning: str
    field: str = ""  # the `Components` field that holds it ("": a simple parameter)
    index: int | None = None  # its place in that field, when the field is a tuple
    default: int = 0  # a simple parameter's rulebook value (when the file leaves it out)
    low: int = 0  # a simple parameter's range
    high: int = 100
    #: added after runs were recorded: a set-up at its default keeps its digest, and a
    #: results table without its column is read with the default (`LATER`)
    later: bool = False

    @property
    def simple(self) -> bool:
        """One number at its own key, held by `Components.settings`."""
        return not self.field

    def value(self, components: Components) -> int:
        """The parameter's value in a component set."""
        if self.simple:
            return int(dict(components.settings)[self.name])
        held = getattr(components, self.field)
        return int(held if self.index is None else held[self.index])


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("removed_epoch1", ("epoch", "removed", "1"), "V3",
                  "epoch-1 cards removed at random before setup",
                  "removed", 0),
        Parameter("removed_epoch2", ("epoch", "removed", "2"), "V3",
                  "epoch-2 cards removed at random before setup", "removed", 1),
        Parameter("removed_epoch3", ("epoch", "removed", "3"), "V3",
                  "epoch-3 cards removed at random before setup, never the Admiral",
                  "removed", 2),
        Parameter("wood_supply", ("board", "wood"), "R1.2, C5", "wood tokens in the supply",
                  "wood"),
        Parameter("camp_pawns", ("pawns", "camp_per_strength"), "R1.5",
                  "pawns of each strength in camp at the start (the rest of the colour waits "
                  "in the reserve)", "camp_per_strength"),
        Parameter("hand_size", ("rapa_nui", "hand"), "R1.6", "Rapa Nui cards dealt to each player",
                  "hand"),
        Parameter("wood_points", ("score", "wood_points"), "R8.2",
                  "points per wood token held at the end", default=2, later=True),
        Parameter("forest_spaces", ("board", "forest_spaces"), "R1.2",
                  "spaces of the forest", "forest_spaces"),
        Parameter("moai_points", ("score", "moai_points"), "R8.2",
                  "points per metre of Moai height at the end", default=1, later=True),
        Parameter("wood_per_palm", ("board", "wood_per_palm"), "R3.1",
                  "wood tokens put in the forest per palm turned up", default=1, high=10,
                  later=True),
    )
}  # fmt: skip


#: The parameters of V3 generalised, for epochs 1, 2, 3.
REMOVALS: tuple[str, str, str] = ("removed_epoch1", "removed_epoch2", "removed_epoch3")
#: The simple parameters (`Parameter.simple`), in table order.
SIMPLE: dict[str, Parameter] = {name: p for name, p in PARAMETERS.items() if p.simple}
#: The parameters added after runs were recorded, with the value every game recorded before
#: them was played with: a results table without their columns is read with these
#: (`runner.finish`). wood_points came before the results had parameter columns.
LATER: dict[str, int] = {n: p.default for n, p in SIMPLE.items() if p.later and n != "wood_points"}
#: The keys of `Components.as_dict` that the parameters set (a field, or a simple
#: parameter's name).
COMPONENT_FIELDS: tuple[str, ...] = tuple(dict.fromkeys(p.field or p.name
                                                        for p in PARAMETERS.values()))  # fmt: skip


def values(components: Components) -> dict[str, int]:
    """Each parameter's value in a component set."""
    return {name: p.value(components) for name, p in PARAMETERS.items()}


def table(defaults: Mapping[str, int]) -> str:
    """The parameters as the rules book's Markdown table (docs/rules.md, "Rule parameters"),
    made from the records and each parameter's default (`defaults`)."""
    rows = ["| parameter | default | key of the component file | rule | what it sets |",
            "| --- | ---: | --- | --- | --- |"]  # fmt: skip
    for name, p in PARAMETERS.items():
        if p.index is not None:  # one entry of a table: `removed = { 1 = n }`
            key = f"`[{p.key[0]}]` `{p.key[1]} = {{ {p.key[2]} = n }}`"
        else:
            key = f"`[{p.key[0]}]` `{p.key[-1]}`"
        rows.append(f"| `{name}` | {defaults[name]} | {key} | {p.rule} | {p.meaning} |")
    return "\n".join(rows) + "\n"


def listing() -> str:
    """The parameters' names, for help texts: "removed_epoch1, ..., wood_per_palm"."""
    return ", ".join(PARAMETERS)


def check_names(params: Mapping[str, Any]) -> None:
    """Refuse a rule parameter name that is not one (one line naming the known ones)."""
    for name in params:
        if name not in PARAMETERS:
            raise RulesError(
                f"unknown rule parameter {name!r} (parameters: {', '.join(PARAMETERS)})"
            )


def apply(data: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """A component document with parameters set (a copy; the values are checked when the
    document is validated, with the component file's ranges)."""
    check_names(params)
    out = copy.deepcopy(data)
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"rule parameter {name} must be a whole number, got {value!r}")
        *tables, last = PARAMETERS[name].key
        node = out
        for t in tables:
            node = node.setdefault(t, {})
            if not isinstance(node, dict):
                raise RulesError(f"rule parameter {name}: the component file's {t} is no table")
        node[last] = value
    return out


def parse_assignments(texts: Iterable[str]) -> dict[str, list[int]]:
    """`["removed_epoch3=0,1,2", "wood_supply=10"]` -> {"removed_epoch3": [0, 1, 2], ...}:
    one value, or a list of them (a study sweeps each list)."""
    out: dict[str, list[int]] = {}
    for text in texts:
        name, eq, rest = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise RulesError(f"--param {text!r}: expected name=value or name=v1,v2,...")
        check_names({name: None})
        if name in out:
            raise RulesError(f"--param {name} is given twice")
        try:
            out[name] = [int(v.strip().replace("_", "")) for v in rest.split(",") if v.strip()]
        except ValueError:
            raise RulesError(f"--param {text!r}: values must be whole numbers") from None
        if not out[name]:
            raise RulesError(f"--param {text!r}: give at least one value")
        if len(set(out[name])) != len(out[name]):
            raise RulesError(f"--param {text!r}: a value is given twice")
    return out
