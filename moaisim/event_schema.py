"""What every game's event log schema shares: a field of an event kind, and the Markdown of
the kinds (`docs/events.md`, `moaisim events --game NAME`). Each game's
`engine/events.py` lists its own kinds, with their rules and texts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol


class Field(NamedTuple):
    """One field of an event kind: its name, type (the game's vocabulary of types: seat,
    seats, int, card...) and meaning."""

    name: str
    type: str
    meaning: str


def seat_field(meaning: str = "the seat that acts") -> Field:
    """The `seat` field most kinds have."""
    return Field("seat", "seat", meaning)


class Kind(Protocol):
    """What the schema's Markdown reads of an event kind."""

    @property
    def name(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def meaning(self) -> str: ...
    @property
    def fields(self) -> tuple[Field, ...]: ...


def kinds_markdown(kinds: Iterable[Kind]) -> list[str]:
    """A section per event kind: its name and rule, its meaning as a sentence, its fields
    as a table."""
    out: list[str] = []
    for k in kinds:
        out += [f"## `{k.name}` ({k.rule})", "", k.meaning[0].upper() + k.meaning[1:] + ".", ""]
        out += ["| field | type | meaning |", "| --- | --- | --- |"]
        out += [f"| `{f.name}` | {f.type} | {f.meaning} |" for f in k.fields]
        out.append("")
    return out
