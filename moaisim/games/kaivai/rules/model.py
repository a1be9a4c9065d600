"""Kaivai's rules as one value: the player count, the rule options (O1-O7 of
docs/kaivai-rules.md) and the component figures (section C, `components.toml`), with the
numeric house rules a study may change (`PARAMETERS`). Plain data: both engines read it."""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from moaisim.errors import RulesError

#: The rule options (docs/kaivai-rules.md, section O), each with its values, default first.
OPTIONS: dict[str, tuple[str, ...]] = {
    "edition": ("first", "second"),  # O1
    "fishing": ("dice", "lessluck", "luckless"),  # O2, R8.2.2
    "extra_site_zone": ("edge", "anywhere"),  # O3, R1.2
    "piracy_pays": ("pirate", "victim"),  # O4, R8.4.3
    "presence_boats_on_huts": ("false", "true"),  # O5, R10.3
    "influence_visibility": ("open", "hidden"),  # O6, R11
    "trap_tie": ("any_largest", "all_cut_off"),  # O7, R7.4
    "second_edition_pairs": ("uniform_pair",),  # O8, R1.2: how a two-hex island is drawn
}
#: The numeric house rules a study may set (name: rule, lowest, highest); None keeps the
#: component file's (or the edition's) figure.
PARAMETERS: dict[str, tuple[str, int, int]] = {
    "rounds": ("R2.1", 1, 20),
    "boats": ("R1.4", 1, 6),
    "start_influence": ("R1.4", 0, 20),
    "sacrifice_influence": ("R6.5", 0, 10),
    "sink_cost_base": ("R8.4.3", 2, 12),
}
PLAYERS = (3, 4)


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

    @staticmethod
    def read(path: str | Path | None = None) -> Components:
        """The component file at `path`, or the default one shipped beside this module."""
        if path is None:
            text = resources.files(__package__).joinpath("components.toml").read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        d = tomllib.loads(text)
        b, t, p, g = d["board"], d["tracks"], d["per_player"], d["game"]
        return Components(
            radius=int(b["radius"]),
            printed_cult_sites=tuple((int(q), int(r)) for q, r in b["printed_cult_sites"]),
            extra_site_min_distance=int(b["extra_site_min_distance"]),
            bid_distance=tuple(t["bid_distance"]), bonus=tuple(t["bonus"]),
            dice_success_sixths=tuple(t["dice_success_sixths"]),
            sale_shells=tuple(t["sale_shells"]), sink_cost_base=int(t["sink_cost_base"]),
            hut_fish_capacity=int(t["hut_fish_capacity"]), freshness=int(t["freshness"]),
            huts=int(p["huts"]), boats=int(p["boats"]), temple_statues=int(p["temple_statues"]),
            start_influence=int(p["start_influence"]), start_shells=tuple(p["start_shells"]),
            start_fish=tuple(p["start_fish"]), rounds=int(g["rounds"]),
            cult_tiles=int(g["cult_tiles"]),
            extra_sites={int(k): int(v) for k, v in g["extra_sites"].items()},
            second=dict(d.get("second_edition", {})),
        )  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """One set-up of Kaivai: players, options, parameters and components."""

    players: int
    edition: str = "first"
    fishing: str = "dice"
    extra_site_zone: str = "edge"
    piracy_pays: str = "pirate"
    presence_boats_on_huts: str = "false"
    influence_visibility: str = "open"
    trap_tie: str = "any_largest"
    second_edition_pairs: str = "uniform_pair"
    params: tuple[tuple[str, int], ...] = ()
    components: Components = field(default_factory=Components.read)

    @staticmethod
    def make(players: int, params: dict[str, int] | None = None,
             components: str | Path | None = None, **options: str) -> Rules:  # fmt: skip
        """Rules checked: one `RulesError` line per mistake."""
        if isinstance(players, bool) or players not in PLAYERS:
            raise RulesError(f"Kaivai is played by 3 or 4 players, got {players!r}")
        for name, value in options.items():
            if name not in OPTIONS:
                raise RulesError(f"unknown rule option {name!r} ({', '.join(OPTIONS)})")
            if value not in OPTIONS[name]:
                raise RulesError(f"rule option {name} must be one of "
                                 f"{', '.join(OPTIONS[name])}, got {value!r}")  # fmt: skip
        given = dict(params or {})
        for name, value in given.items():
            if name not in PARAMETERS:
                raise RulesError(f"unknown rule parameter {name!r} ({', '.join(PARAMETERS)})")
            _, lo, hi = PARAMETERS[name]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise RulesError(f"rule parameter {name} must be a whole number from {lo} to "
                                 f"{hi}, got {value!r}")  # fmt: skip
        comps = Components.read(components)
        return Rules(players, params=tuple(sorted(given.items())), components=comps, **options)

    def param(self, name: str, default: int) -> int:
        """A parameter's value, else `default`."""
        return dict(self.params).get(name, default)

    @property
    def second(self) -> bool:
        """The second edition (O1)."""
        return self.edition == "second"

    @property
    def rounds(self) -> int:
        """R2.1: 10 rounds (8 in the second edition), unless a parameter says."""
        c = self.components
        base = int(c.second.get("rounds", 8)) if self.second else c.rounds
        return self.param("rounds", base)

    @property
    def cult_tiles(self) -> int:
        """R1.3: the cult tiles in the supply, one per round."""
        c = self.components
        return int(c.second.get("cult_tiles", 8)) if self.second else c.cult_tiles

    @property
    def boats(self) -> int:
        """R1.4: boats per player."""
        return self.param("boats", self.components.boats)

    @property
    def start_influence(self) -> int:
        return self.param("start_influence", self.components.start_influence)

    @property
    def sacrifice_influence(self) -> int:
        """R6.5: the influence a sacrifice gains."""
        return self.param("sacrifice_influence", 2)

    @property
    def sink_cost_base(self) -> int:
        return self.param("sink_cost_base", self.components.sink_cost_base)

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

    #: The registry name, as every game's rules carry it (`moaisim.games.base.RulesLike`).
    game: ClassVar[str] = "kaivai"

    @property
    def variants(self) -> frozenset[str]:
        """Kaivai has no named variants: its rule options (O1-O8) and parameters say all."""
        return frozenset()

    def digest(self) -> str:
        """Stable SHA-256 of everything that defines the game: players, options, parameters
        and the component figures."""
        return self._digest

    def __hash__(self) -> int:
        return hash(self._digest)

    @cached_property
    def _digest(self) -> str:
        data = {"game": self.game, "players": self.players,
                **{k: getattr(self, k) for k in OPTIONS}, "params": dict(self.params),
                "components": asdict(self.components)}  # fmt: skip
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def setup(self) -> str:
        """The set-up's label: 'base', or the options and parameters that differ."""
        parts = [f"{k}={getattr(self, k)}" for k, v in OPTIONS.items() if getattr(self, k) != v[0]]
        parts += [f"{k}={v}" for k, v in self.params]
        return "+".join(parts) or "base"


def make_rules(players: int, variants: Any = None, params: dict[str, int] | None = None,
               components: str | Path | None = None, **options: str) -> Rules:  # fmt: skip
    """`Rules.make` as every game's `make_rules` is called (`moaisim.games.base.GameEngine`):
    Kaivai has no named variants, so `variants` must be empty."""
    if variants:
        raise RulesError(f"Kaivai has no named variants, got {variants!r} (its rule options: "
                         f"{', '.join(OPTIONS)})")  # fmt: skip
    return Rules.make(players, params=params, components=components, **options)
