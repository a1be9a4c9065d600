"""Kaivai's rules as one frozen value: the player count, the component set (section C, the
rule parameters among its figures) and the rule options (O1-O8 of docs/kaivai-rules.md).
Plain data: both engines read it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar

from moaisim.errors import RulesError
from moaisim.games import rules_data
from moaisim.games.kaivai.rules.components import (
    Components,
    contents,
    digest_of,
    load_components,
    parameter_values,
)
from moaisim.games.kaivai.rules.options import OPTIONS, check_option, parse_variants
from moaisim.games.kaivai.rules.parameters import PARAMETERS, table

PLAYERS = (3, 4)


@cache
def default_components() -> Components:
    """The shipped component set (section C), read once."""
    return load_components()


def parameter_table() -> str:
    """The rule parameters as the rules book's table, with the shipped defaults."""
    return table(parameter_values(default_components()))


@dataclass(frozen=True, eq=False)
class Rules:
    """One set-up of Kaivai; immutable and hashable, with a stable `digest()`."""

    #: The registry's name of the game (`moaisim.games`).
    game: ClassVar[str] = "kaivai"
    players: int
    components: Components = field(default_factory=default_components)
    variants: frozenset[str] = frozenset()
    edition: str = "first"
    fishing: str = "dice"
    extra_site_zone: str = "edge"
    piracy_pays: str = "pirate"
    presence_boats_on_huts: str = "false"
    influence_visibility: str = "open"
    trap_tie: str = "any_largest"
    second_edition_pairs: str = "uniform_pair"

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or self.players not in PLAYERS:
            raise RulesError(f"kaivai is played by 3 or 4 players, got {self.players!r}")
        if not isinstance(self.components, Components):
            raise RulesError(f"components must be a kaivai component set, got "
                             f"{type(self.components).__name__}")  # fmt: skip
        object.__setattr__(self, "variants", parse_variants(self.variants))
        for name in OPTIONS:
            check_option(name, getattr(self, name))

    @classmethod
    def make(cls, players: int, variants: str | Iterable[str] | None = None,
             components: str | Path | Components | None = None,
             params: Mapping[str, int] | None = None, **options: str) -> Rules:  # fmt: skip
        """Rules checked, one `RulesError` line per mistake: a component file (None: the
        shipped one), rule parameters (`params={"rounds": 8}`) and rule options
        (`edition="second"`)."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r} of kaivai (its options: "
                             f"{', '.join(OPTIONS)})")  # fmt: skip
        if params is not None and not isinstance(params, Mapping):
            raise RulesError(f"params must map rule parameters to values, got {params!r}")
        if isinstance(components, Components):
            if params:
                raise RulesError("give rule parameters with a component file, not a component "
                                 "set already made")  # fmt: skip
            comps = components
        elif components is None and not params:
            comps = default_components()
        else:
            comps = load_components(components, dict(params) if params else None)
        return cls(players, comps, parse_variants(variants), **options)

    # --- the toolkit's reading ---------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The variant label: 'base' (Kaivai has none)."""
        return "base"

    def has(self, variant: str) -> bool:
        """Kaivai plays no variant."""
        return variant in self.variants

    def options(self) -> dict[str, str]:
        """Each rule option's value (section O)."""
        return {name: getattr(self, name) for name in OPTIONS}

    def params(self) -> dict[str, int]:
        """Each rule parameter's value as this set-up plays it (`rounds`: the edition's)."""
        return {**parameter_values(self.components), "rounds": self.rounds}

    def differences(self) -> list[str]:
        """How this set-up differs from the book's game, in words: the rule options, the rule
        parameters, and a component file whose other figures differ."""
        out = [f"{k}={v}" for k, v in self.options().items() if v != OPTIONS[k][0]]
        base = parameter_values(default_components())
        mine = parameter_values(self.components)
        out += [f"{k}={v}" for k, v in mine.items() if v != base[k]]
        if contents(self.components) != contents(default_components()):
            out.append(
                f"components={self.components.name}#{digest_of(contents(self.components))[:8]}"
            )
        return out

    @property
    def setup(self) -> str:
        """The set-up's label: 'base', or its differences ('edition=second, rounds=6')."""
        return ", ".join(self.differences()) or "base"

    def to_dict(self) -> dict[str, Any]:
        """Everything that defines the game, as plain data (what the digest hashes)."""
        return {"game": self.game, "players": self.players, **self.options(),
                "components": self.components.as_dict()}  # fmt: skip

    def digest(self) -> str:
        """Stable SHA-256 of everything that defines the game (run manifests)."""
        return self._digest

    @cached_property
    def _digest(self) -> str:
        return digest_of(self.to_dict())

    def __hash__(self) -> int:
        return hash(self._digest)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Rules):
            return NotImplemented
        return self._digest == other._digest

    # --- the figures the engines read ----------------------------------------------------------
    @property
    def second(self) -> bool:
        """The second edition (O1)."""
        return self.edition == "second"

    @property
    def rounds(self) -> int:
        """R2.1: 10 rounds (8 in the second edition)."""
        c = self.components
        return int(c.second.get("rounds", 8)) if self.second else c.rounds

    @property
    def cult_tiles(self) -> int:
        """R1.3: the cult tiles in the supply, one per round."""
        c = self.components
        return int(c.second.get("cult_tiles", 8)) if self.second else c.cult_tiles

    @property
    def boats(self) -> int:
        """R1.4: boats per player."""
        return self.components.boats

    @property
    def start_influence(self) -> int:
        """R1.4: the influence each player starts with."""
        return self.components.start_influence

    @property
    def sacrifice_influence(self) -> int:
        """R6.5: the influence a sacrifice gains."""
        return self.components.sacrifice_influence

    @property
    def sink_cost_base(self) -> int:
        """R8.4.3: a sinking's glory is this less the victim's boats on the board."""
        return self.components.sink_cost_base

    @property
    def start_fish(self) -> tuple[int, ...]:
        """R1.4: the start fish's freshness (4 each in the second edition)."""
        c = self.components
        return tuple(c.second.get("start_fish", c.start_fish)) if self.second else c.start_fish

    @property
    def catch_freshness(self) -> int:
        """R8.2.3: a caught fish's freshness (4 in the second edition)."""
        c = self.components
        return int(c.second.get("catch_freshness", 4)) if self.second else c.freshness

    @property
    def extra_sites(self) -> int:
        """R1.2: extra islands at this player count (two-hex ones in the second edition)."""
        c = self.components
        table = c.second.get("extra_islands", {}) if self.second else c.extra_sites
        return int({int(k): v for k, v in table.items()}.get(self.players, 0))


def make_rules(
    players: int,
    variants: str | Iterable[str] | None = None,
    rules: Rules | None = None,
    components: str | Path | None = None,
    params: Mapping[str, int] | None = None,
    **options: str | None,
) -> Rules:
    """A `Rules` from a player count, a component file, rule parameters and rule options; a
    `Rules` given as `rules` is used as it is, and what is given beside it must agree."""
    chosen = {k: v for k, v in options.items() if v is not None}
    if rules is None:
        return Rules.make(players, variants, components, params, **chosen)
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a kaivai Rules object, got {type(rules).__name__}")
    parse_variants(variants)
    return rules_data.agreeing(rules, players, params, components, chosen, check=check_option,
                               load=load_components, table=PARAMETERS)  # fmt: skip


__all__ = ["OPTIONS", "PARAMETERS", "Components", "Rules", "default_components", "make_rules",
           "parameter_table"]  # fmt: skip
