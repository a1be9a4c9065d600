"""Rapa Nui's frozen `Rules`: the player count, the component set (rule parameters included)
and the rule options (docs/rapa-nui-rules.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar

from moaisim.errors import RulesError
from moaisim.games import rules_data
from moaisim.games.rapa_nui.rules.codes import HG, N_FOODS, N_KINDS
from moaisim.games.rapa_nui.rules.components import (
    Components,
    check_end,
    digest_of,
    load_components,
    parameter_values,
)
from moaisim.games.rapa_nui.rules.options import OPTIONS, check_option, parse_variants
from moaisim.games.rapa_nui.rules.parameters import (
    PARAMETERS,
    check_players,
    table,
)


@cache
def default_components() -> Components:
    """The shipped component set (section C), read once."""
    return load_components()


def parameter_table() -> str:
    """The rule parameters as the rules book's table, with the shipped defaults."""
    return table(parameter_values(default_components()))


def contents(components: Components) -> dict[str, Any]:
    """A component set's contents beyond its name, notes and rule parameters."""
    out = components.as_dict()
    for key in ("name", "assumed", *(p.field or p.name for p in PARAMETERS.values())):
        out.pop(key, None)
    return out


@dataclass(frozen=True)
class Rules:
    """One Rapa Nui set-up; immutable and hashable, with a stable `digest()`."""

    #: The registry's name of the game (`moaisim.games`).
    game: ClassVar[str] = "rapa-nui"
    players: int
    components: Components = field(default_factory=default_components)
    variants: frozenset[str] = frozenset()
    start_sacrifice: str = "one_each"
    hg_group_cost: str = "0/1/2"
    stuck_hand: str = "discard"
    refill_columns: str = "any"
    hg_income: str = "per_type"
    majority_rule: str = "sole"
    sacrifice_tie: str = "high"
    end_timing: str = "turn"
    display_deal: str = "by_column"
    refill_bottom: str = "last"
    winner_tie: str = "share"

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RulesError(f"players must be an integer from 2 to 4, got {self.players!r}")
        if not 2 <= self.players <= 4:
            raise RulesError(f"rapa-nui is for 2 to 4 players, got {self.players}")
        object.__setattr__(self, "variants", parse_variants(self.variants))
        for name in OPTIONS:
            check_option(name, getattr(self, name))
        if isinstance(self.components, Components):  # R8.1: one made by hand too
            check_end(self.components, f"components {self.components.name!r}")

    @classmethod
    def make(cls, players: int, variants: str | Iterable[str] | None = None,
             components: str | Path | None = None, params: Mapping[str, int] | None = None,
             **options: str) -> Rules:  # fmt: skip
        """Rules for `players` with a component file (None: the shipped one), rule parameters
        (`params={"moai_cost": 6}`) and rule options (`end_timing="round"`)."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RulesError(f"unknown rule option {unknown[0]!r} of rapa-nui (its options: "
                             f"{', '.join(OPTIONS)})")  # fmt: skip
        comps = (default_components() if components is None and not params
                 else load_components(components, dict(params) if params else None))  # fmt: skip
        rules = cls(players=players, components=comps, variants=parse_variants(variants),
                    **options)  # fmt: skip
        if params:  # a seat's parameter changed only where the seat plays
            check_players(params, rules.players, default_components() if components is None
                          else load_components(components))  # fmt: skip
        return rules

    # --- what the toolkit reads ---------------------------------------------------------
    def has(self, variant: str) -> bool:
        """Rapa Nui plays no variant."""
        return variant in self.variants

    @property
    def variant(self) -> str:
        """The variant label: 'base'."""
        return "base"

    def options(self) -> dict[str, str]:
        """Each rule option's value (section O)."""
        return {name: getattr(self, name) for name in OPTIONS}

    def params(self) -> dict[str, int]:
        """Each rule parameter's value."""
        return parameter_values(self.components)

    def differences(self) -> list[str]:
        """How this set-up differs from the rules book's game, in words: the rule options,
        the rule parameters, and a component file whose contents differ."""
        out = [f"{k}={v}" for k, v in self.options().items() if v != OPTIONS[k][0]]
        base = parameter_values(default_components())
        out += [f"{k}={v}" for k, v in self.params().items() if v != base[k]]
        if contents(self.components) != contents(default_components()):
            out.append(
                f"components={self.components.name}#{digest_of(contents(self.components))[:8]}"
            )
        return out

    @property
    def setup(self) -> str:
        """The set-up's label: 'base', or its differences ('end_timing=round, moai_cost=6')."""
        return ", ".join(self.differences()) or "base"

    def to_dict(self) -> dict[str, object]:
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
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.players, self.components, *self.options().values()))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Rules):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    # --- derived figures the engines read -------------------------------------------------
    def group_cost(self, count: int) -> int:
        """R4.1: wood to play `count` (1-3) H&G together (`hg_group_cost`)."""
        return (0, 1, 2 if self.hg_group_cost == "0/1/2" else 3)[count - 1]

    def start_hand(self, seat: int) -> list[int]:
        """R1.2, C2: the hand of seat `seat`'s colour at the start, cards of each kind: one H&G
        of each food type but the one its colour lacks (C2a)."""
        hand = [0] * N_KINDS
        for food in range(N_FOODS):
            if food != self.components.start_missing[seat]:
                hand[HG + food] = 1
        return hand

    def start_wood(self, seat: int) -> int:
        """R1.6: the wood seat `seat` starts with."""
        return self.components.start_wood[seat]


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
        raise RulesError(f"rules must be a rapa-nui Rules object, got {type(rules).__name__}")
    parse_variants(variants)
    return rules_data.agreeing(rules, players, params, components, chosen, check=check_option,
                               load=load_components, table=PARAMETERS)  # fmt: skip


__all__ = ["PARAMETERS", "Rules", "default_components", "make_rules", "parameter_table"]
