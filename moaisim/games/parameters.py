"""A game's rule parameters as one table (docs/design.md, "Adding a rule parameter"): each
parameter one record (`Parameter`: its name, its key in the component file, its rule, its
meaning and its range), and `Parameters`, what the toolkit does with such a table (check
names and values, read `--param name=v1,v2`, list them for the help, write the rules book's
table, read their values in a component set). A game writes its records and nothing else."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from moaisim.errors import RulesError


@dataclass(frozen=True)
class Parameter:
    """One rule parameter: a whole number at `key` (section, key) of the component file (its
    position `index` when the key holds a list) within [low, high], held by the component
    set's attribute `field` (default: its name)."""

    name: str
    key: tuple[str, str]
    rule: str
    meaning: str
    low: int
    high: int
    index: int | None = None
    field: str = ""

    def value(self, components: Any) -> int:
        """The parameter's value in a component set."""
        held = getattr(components, self.field or self.name)
        return int(held if self.index is None else held[self.index])


class Parameters(Mapping[str, Parameter]):
    """A game's rule parameters by name (`game` names the game in messages)."""

    def __init__(self, game: str, records: Iterable[Parameter]) -> None:
        self.game = game
        self._by_name = {p.name: p for p in records}

    def __getitem__(self, name: str) -> Parameter:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def check_names(self, params: Iterable[str]) -> None:
        """Each name a rule parameter of the game (one line otherwise)."""
        for name in params:
            if name not in self._by_name:
                raise RulesError(f"unknown rule parameter {name!r} of {self.game} (its "
                                 f"parameters: {', '.join(self._by_name)})")  # fmt: skip

    def check_value(self, name: str, value: object) -> int:
        """A parameter's value, a whole number within its range (one line otherwise)."""
        p = self._by_name[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"rule parameter {name} must be a whole number, got {value!r}")
        if not p.low <= value <= p.high:
            raise RulesError(f"rule parameter {name}={value} is outside {p.low}..{p.high}")
        return value

    def parse_assignments(self, texts: Iterable[str]) -> dict[str, list[int]]:
        """`["rounds=8,9", "boats=3"]` -> {name: [values]} (a study sweeps lists)."""
        out: dict[str, list[int]] = {}
        for text in texts:
            name, sep, rest = str(text).partition("=")
            name = name.strip()
            if not sep or not rest.strip():
                example = next(iter(self._by_name))
                raise RulesError(f"--param {text!r}: expected name=value (e.g. {example}=2)")
            self.check_names([name])
            if name in out:
                raise RulesError(f"--param {name} is given twice (give its values as one list)")
            values = []
            for part in rest.split(","):
                try:
                    number = int(part.strip())
                except ValueError:
                    raise RulesError(f"--param {name}={rest}: {part.strip()!r} is not a whole "
                                     "number") from None  # fmt: skip
                values.append(self.check_value(name, number))
            out[name] = values
        return out

    def listing(self) -> str:
        """The parameters' names and ranges in one line (the --param help)."""
        return "; ".join(f"{p.name} ({p.low}-{p.high})" for p in self._by_name.values())

    def table(self, values: Mapping[str, int]) -> str:
        """The parameters as the rules book's Markdown table, with their values in `values`."""
        rows = ["| parameter | default | range | rule | meaning |",
                "| --- | ---: | --- | --- | --- |"]  # fmt: skip
        for p in self._by_name.values():
            rows.append(f"| `{p.name}` | {values[p.name]} | {p.low}-{p.high} | {p.rule} | "
                        f"{p.meaning} |")  # fmt: skip
        return "\n".join(rows) + "\n"

    def values_in(self, components: Any) -> dict[str, int]:
        """Each parameter's value in a component set."""
        return {name: p.value(components) for name, p in self._by_name.items()}
