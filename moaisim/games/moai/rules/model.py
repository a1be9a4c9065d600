"""The frozen `Rules` object: player count, components, rule options and variants."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, ClassVar

from moaisim.errors import RulesError
from moaisim.games.moai.rules.codes import SHORT_REMOVALS, Layout
from moaisim.games.moai.rules.components import Components, digest_of, load_components
from moaisim.games.moai.rules.parameters import COMPONENT_FIELDS, REMOVALS, check_names, table
from moaisim.games.moai.rules.parameters import values as parameter_values
from moaisim.games.moai.rules.variants import OPTIONS, check_option, parse_variants, variant_label


@cache
def default_components() -> Components:
    """The shipped component set (docs/rules.md section C), read once."""
    return load_components()


def contents(components: Components) -> dict[str, Any]:
    """What a component set is made of, beyond the rule parameters and its name and notes:
    two files with the same contents are the same game whatever they are called."""
    out = components.as_dict()
    for key in ("name", "assumed", *COMPONENT_FIELDS):
        out.pop(key, None)
    return out


def parameter_table() -> str:
    """The rule parameters as the rules book's table, with the rulebook's defaults
    (`parameters.table`; docs/rules.md holds this table, tests/test_parameters.py checks)."""
    return table(parameter_values(default_components()))


@dataclass(frozen=True)
class Rules:
    """Everything about one game set-up; immutable and hashable, with a stable `digest()`."""

    #: The game these are rules of (the registry's name, `moaisim.games`).
    game: ClassVar[str] = "moai"
    players: int
    components: Components
    variants: frozenset[str] = frozenset()
    turn_order: str = "hill"
    volcano_after_moai: str = "stay"
    spent_wood: str = "supply"

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise RulesError(f"players must be an integer from 2 to 5, got {self.players!r}")
        if not 2 <= self.players <= 5:
            raise RulesError(f"players must be from 2 to 5, got {self.players}")
        object.__setattr__(self, "variants", parse_variants(self.variants))
        check_option("turn_order", self.turn_order)
        check_option("volcano_after_moai", self.volcano_after_moai)
        check_option("spent_wood", self.spent_wood)
        c = self.components
        if self.layout.size > 127:  # location codes are int8 in both engines
            raise RulesError(
                f"the board has {self.layout.size} location codes (forest spaces + fields + "
                f"one volcano space per pawn + boats); at most 127 are supported"
            )
        need = self.players * c.hand
        if need > c.n_cards:
            raise RulesError(
                f"{self.players} players need {need} Rapa Nui cards to deal; the set has "
                f"{c.n_cards}"
            )
        if self.has("short") and any(c.removed):
            raise RulesError(
                "the short variant (V3) removes 2, 2 and 1 epoch cards: give it or the "
                "removed_epoch parameters, not both"
            )

    @classmethod
    def make(
        cls,
        players: int,
        variants: str | Iterable[str] | None = None,
        components: str | Path | None = None,
        turn_order: str = "hill",
        volcano_after_moai: str = "stay",
        spent_wood: str = "supply",
        params: Mapping[str, int] | None = None,
    ) -> Rules:
        """Rules for `players`, with the default component set or a TOML file's, and rule
        parameters (`moaisim.games.moai.rules.parameters`: `params={"wood_supply": 10}`)."""
        return cls(
            players=players,
            components=load_components(components, dict(params) if params else None),
            variants=parse_variants(variants),
            turn_order=turn_order,
            volcano_after_moai=volcano_after_moai,
            spent_wood=spent_wood,
        )

    def has(self, variant: str) -> bool:
        """The set-up plays variant `variant` (V1-V5, by name)."""
        return variant in self.variants

    @property
    def variant(self) -> str:
        """Canonical variant label, e.g. 'base' or 'short+fixed-disasters'."""
        return variant_label(self.variants)

    @property
    def open_bidding(self) -> bool:
        """V2 or V4: bids made face up one at a time."""
        return self.has("open-bidding") or self.has("open-bidding-strict")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        """The same set-up: the same object at once (Rules key the engines' per-rules caches,
        looked up at every decision), else by everything that defines the game."""
        if self is other:
            return True
        if not isinstance(other, Rules):
            return NotImplemented
        # equal set-ups built apart meet the per-rules caches at every decision: compare the
        # hashes, then the digests of everything that defines the game (each computed once)
        return self._hash == other._hash and self._digest == other._digest

    @cached_property
    def _hash(self) -> int:
        """The field hash, computed once: Rules key the per-rules caches of the engines."""
        fields = (self.players, self.components, self.variants)
        return hash((*fields, *self.options().values()))

    @cached_property
    def layout(self) -> Layout:
        """The board's location codes for this component set (a numba-friendly record)."""
        c = self.components
        return Layout.of(c.forest_spaces, c.max_boats, c.fields, c.pawns_per_strength)

    def options(self) -> dict[str, str]:
        """Each rule option's value (turn_order, volcano_after_moai, spent_wood)."""
        return {name: getattr(self, name) for name in OPTIONS}

    @property
    def removals(self) -> tuple[int, int, int]:
        """V3 (generalised): cards of epochs 1, 2, 3 removed at random before setup."""
        return SHORT_REMOVALS if self.has("short") else self.components.removed

    def params(self) -> dict[str, int]:
        """Each rule parameter's value (`parameters`); the removals are those
        played (V3's 2, 2, 1 under `short`)."""
        out = parameter_values(self.components)
        out.update(zip(REMOVALS, self.removals, strict=True))
        return out

    def differences(self) -> list[str]:
        """Every way this set-up differs from the rulebook's base game, in words: the
        variants, the rule options, the rule parameters and a component file whose
        contents differ (by name and a short digest): ["short", "wood_supply=10"]."""
        out = [] if not self.variants else [self.variant]
        out += [f"{k}={v}" for k, v in self.options().items() if v != OPTIONS[k][0]]
        base = parameter_values(default_components())
        given = parameter_values(self.components)  # under `short`, its removals are its own
        out += [f"{k}={v}" for k, v in given.items() if v != base[k]]
        if contents(self.components) != contents(default_components()):
            short = digest_of(contents(self.components))[:8]
            out.append(f"components={self.components.name}#{short}")
        return out

    @property
    def setup(self) -> str:
        """The set-up's label: 'base', or its differences from base ('short, wood_supply=10')."""
        return ", ".join(self.differences()) or "base"

    def to_dict(self) -> dict[str, object]:
        """Everything that defines the game, as plain data (what the digest hashes)."""
        return {
            "players": self.players,
            "variants": sorted(self.variants),
            **self.options(),
            "components": self.components.as_dict(),
        }

    def digest(self) -> str:
        """Stable SHA-256 of everything that defines the game (for run manifests)."""
        return self._digest

    @cached_property
    def _digest(self) -> str:
        return digest_of(self.to_dict())


def make_rules(
    players: int,
    variants: str | Iterable[str] | None = None,
    rules: Rules | None = None,
    components: str | Path | None = None,
    params: Mapping[str, int] | None = None,
    **options: str | None,
) -> Rules:
    """A `Rules` from a player count, variants, a TOML component file, rule options and rule
    parameters (`params={"wood_supply": 10}`).

    A `Rules` object passed as `rules` is used as it is: its player count must match, and
    variants, a component file, options or parameters given beside it must agree with it
    (RulesError otherwise).
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RulesError(f"unknown argument {unknown[0]!r} (rule options are {', '.join(OPTIONS)})")
    chosen = {k: v for k, v in options.items() if v is not None}
    if rules is None:
        return Rules.make(players, variants, components, params=params, **chosen)
    if params:
        check_names(params)
        differ = [k for k, v in params.items() if rules.params()[k] != v]
        if differ:
            raise RulesError(
                f"rule parameter {differ[0]}={params[differ[0]]!r} disagrees with the Rules "
                f"object's {rules.params()[differ[0]]}: give one or the other"
            )
    if not isinstance(rules, Rules):
        raise RulesError(
            f"rules must be a moaisim.Rules object, got {type(rules).__name__} "
            "(give a component file as components=)"
        )
    if rules.players != players:
        raise RulesError(f"rules are for {rules.players} players, not {players}")
    if variants is not None and parse_variants(variants) != rules.variants:
        raise RulesError(
            f"variants {variant_label(parse_variants(variants))!r} disagree with the Rules "
            f"object's {rules.variant!r}: give one or the other"
        )
    if components is not None and load_components(components) != rules.components:
        raise RulesError(
            f"the component file {str(components)!r} disagrees with the Rules object's "
            "components: give one or the other"
        )
    for name, value in chosen.items():
        if getattr(rules, name) != value:
            raise RulesError(
                f"{name}={value!r} disagrees with the Rules object's "
                f"{name}={getattr(rules, name)!r}: give one or the other"
            )
    return rules
