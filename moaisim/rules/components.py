"""What the game is made of: cards, tiles, board sizes (docs/rules.md section C), from TOML."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from moaisim.errors import RulesError
from moaisim.files import read_text
from moaisim.rules.parameters import apply

#: Epoch card types and the disaster effects among them (C3).
DISASTERS: tuple[str, ...] = ("erosion", "fire", "fire-boat", "famine", "storm", "topple")
EPOCH_TYPES: tuple[str, ...] = ("neutral", "boat", "admiral", *DISASTERS)
#: Disasters that hit no clan (R4.3).
UNTARGETED: frozenset[str] = frozenset({"erosion"})


@dataclass(frozen=True)
class EpochCard:
    """One epoch card: draw number, hut number, type, palm (R0)."""

    id: int
    epoch: int
    type: str
    draw: int
    hut: int
    palm: bool

    @property
    def is_disaster(self) -> bool:
        return self.type in DISASTERS

    @property
    def is_boat(self) -> bool:
        return self.type == "boat"

    @property
    def is_admiral(self) -> bool:
        return self.type == "admiral"

    @property
    def targeted(self) -> bool:
        """A disaster whose taker chooses the clan it hits (R4.3)."""
        return self.is_disaster and self.type not in UNTARGETED

    def label(self) -> str:
        if self.is_admiral:
            return "Admiral Roggeveen"
        return f"{self.type} {self.draw}/{self.hut}{'*' if self.palm else ''}"


@dataclass(frozen=True)
class Components:
    """The component set: every count the engine needs, validated (docs/rules.md C1-C5)."""

    name: str
    fields: int
    forest_spaces: int
    wood: int
    disaster_tokens: int
    covered_fields: tuple[tuple[int, int], ...]  # (players, fields covered) R1.1
    pawns_per_strength: int
    camp_per_strength: int
    hand: int
    cards: tuple[int, ...]  # count per card type, CARD_TYPES order (C1)
    moai_heights: tuple[int, ...]  # one entry per tile, sorted ascending (C2)
    epoch_cards: tuple[EpochCard, ...]  # canonical order: epoch 1, 2, 3 as listed (C4)
    assumed: tuple[str, ...] = ()
    #: V3 generalised: cards of epochs 1, 2, 3 removed at random before setup
    removed: tuple[int, int, int] = (0, 0, 0)
    #: R8.2: points per wood token held at the end
    wood_points: int = 2

    # --- derived sizes -------------------------------------------------------------------
    @property
    def pawns(self) -> int:
        """Pawns per colour (18 by default)."""
        return 3 * self.pawns_per_strength

    @property
    def n_cards(self) -> int:
        return sum(self.cards)

    @property
    def n_tiles(self) -> int:
        return len(self.moai_heights)

    @property
    def max_boats(self) -> int:
        """The most boats one clan can ever hold: the number of boat cards."""
        return sum(c.is_boat for c in self.epoch_cards)

    def covered_at(self, players: int) -> int:
        """Fields covered by a disaster token at setup for this player count (R1.1)."""
        return dict(self.covered_fields)[players]

    def card_ids_of_type(self) -> tuple[range, ...]:
        """Canonical card ids of each type: the cards are numbered type by type."""
        out, start = [], 0
        for count in self.cards:
            out.append(range(start, start + count))
            start += count
        return tuple(out)

    def as_dict(self) -> dict[str, Any]:
        """Every field, but the rule parameters added later (`removed`, `wood_points`) only
        when they differ from the rulebook: a set-up that does not use them keeps the digest
        it always had."""
        out = asdict(self)
        for key, default in NEW_DEFAULTS.items():
            if out[key] == default:
                del out[key]
        return out


#: Fields added to `Components` after runs were recorded, with their defaults.
NEW_DEFAULTS: dict[str, Any] = {"removed": (0, 0, 0), "wood_points": 2}


_CARD_RE = re.compile(r"^\s*([a-z-]+)(?:\s+(\d+)\s*/\s*(\d+)\s*(\*)?)?\s*$")

_SCHEMA: dict[str, set[str] | None] = {
    "name": None,
    "assumed": None,
    "board": {"fields", "forest_spaces", "wood", "disaster_tokens", "covered_fields"},
    "pawns": {"per_strength", "camp_per_strength"},
    "rapa_nui": {"total", "hand", "normal", "raid"},
    "moai": {"total", "heights"},
    "epoch": {"total", "1", "2", "3", "removed"},
    "score": {"wood_points"},
}
#: Keys a component file may leave out (their defaults are the rulebook's).
_OPTIONAL = {"epoch": {"removed"}}


def _fail(source: str, message: str) -> RulesError:
    return RulesError(f"{source}: {message}")


#: The largest count a component set may give (wood, tokens, cards, tiles...): the engines
#: keep counts and the results table keeps totals in 16-bit integers.
MAX_COUNT = 10_000
#: The most epoch cards a set may have, so that rounds and per-round counters stay small.
MAX_EPOCH_CARDS = 1_000
#: The largest draw or hut number of an epoch card.
MAX_CARD_NUMBER = 9


def _int(source: str, where: str, value: Any, low: int = 0, high: int = MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(source, f"{where} must be an integer from {low} to {high}, got {value!r}")
    return value


def _table(source: str, where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, f"{where} must be a table")
    return value


def _keyed_counts(source: str, where: str, value: Any, keys: set[int]) -> dict[int, int]:
    """A table such as `{ 1 = 12, 2 = 12 }` with integer keys from `keys`."""
    out: dict[int, int] = {}
    for k, v in _table(source, where, value).items():
        if not k.isdigit() or int(k) not in keys:
            raise _fail(source, f"unknown key {where}.{k} (expected one of {sorted(keys)})")
        out[int(k)] = _int(source, f"{where}.{k}", v)
    return out


def parse_epoch_card(source: str, text: Any, epoch: int, card_id: int) -> EpochCard:
    """Parse "fire 3/2*" (type draw/hut, * = palm) or "admiral"."""
    m = _CARD_RE.match(text) if isinstance(text, str) else None
    if not m:
        raise _fail(source, f"epoch {epoch} card {text!r}: expected 'type draw/hut' or 'admiral'")
    kind, draw, hut, palm = m.groups()
    if kind not in EPOCH_TYPES:
        raise _fail(source, f"epoch {epoch} card {text!r}: unknown type {kind!r}")
    if kind == "admiral":
        if draw is not None:
            raise _fail(source, f"epoch {epoch} card {text!r}: the Admiral has no numbers")
        return EpochCard(card_id, epoch, kind, 0, 0, False)
    if draw is None:
        raise _fail(source, f"epoch {epoch} card {text!r}: missing draw/hut numbers")
    if max(int(draw), int(hut)) > MAX_CARD_NUMBER:
        raise _fail(
            source, f"epoch {epoch} card {text!r}: draw and hut are at most {MAX_CARD_NUMBER}"
        )
    return EpochCard(card_id, epoch, kind, int(draw), int(hut), palm == "*")


def components_from_dict(data: dict[str, Any], source: str) -> Components:
    """Validate a parsed TOML document; one clear message per mistake (RulesError)."""
    for key, value in data.items():
        if key not in _SCHEMA:
            raise _fail(source, f"unknown key {key!r} (expected one of {sorted(_SCHEMA)})")
        sub = _SCHEMA[key]
        if sub is not None:
            for k in _table(source, key, value):
                if k not in sub:
                    raise _fail(source, f"unknown key {key}.{k} (expected one of {sorted(sub)})")
    for key in ("board", "pawns", "rapa_nui", "moai", "epoch"):
        if key not in data:
            raise _fail(source, f"missing table [{key}]")
        for k in _SCHEMA[key] or ():
            if k not in data[key] and k not in _OPTIONAL.get(key, ()):
                raise _fail(source, f"missing key {key}.{k}")

    board, pawns, rn, moai, epoch = (
        data[k] for k in ("board", "pawns", "rapa_nui", "moai", "epoch")
    )
    fields = _int(source, "board.fields", board["fields"], 1)
    forest = _int(source, "board.forest_spaces", board["forest_spaces"], 1)
    wood = _int(source, "board.wood", board["wood"])
    tokens = _int(source, "board.disaster_tokens", board["disaster_tokens"])
    covered = _keyed_counts(source, "board.covered_fields", board["covered_fields"], {2, 3, 4, 5})
    for players in (2, 3, 4, 5):
        if players not in covered:
            raise _fail(source, f"board.covered_fields has no entry for {players} players")
        if covered[players] > min(tokens, fields):
            raise _fail(
                source,
                f"board.covered_fields.{players} = {covered[players]} exceeds the "
                f"{tokens} disaster tokens or the {fields} fields",
            )
    per_strength = _int(source, "pawns.per_strength", pawns["per_strength"], 1)
    camp = _int(source, "pawns.camp_per_strength", pawns["camp_per_strength"])
    if camp > per_strength:
        raise _fail(
            source,
            f"pawns.camp_per_strength = {camp} exceeds pawns.per_strength = {per_strength}",
        )

    normal = _keyed_counts(source, "rapa_nui.normal", rn["normal"], {1, 2, 3})
    raid = _keyed_counts(source, "rapa_nui.raid", rn["raid"], {1, 2, 3})
    cards = tuple(normal.get(v, 0) for v in (1, 2, 3)) + tuple(raid.get(v, 0) for v in (1, 2, 3))
    total = _int(source, "rapa_nui.total", rn["total"], 1)
    if sum(cards) != total:
        raise _fail(source, f"rapa_nui cards add up to {sum(cards)}, not rapa_nui.total = {total}")
    hand = _int(source, "rapa_nui.hand", rn["hand"])

    heights = _keyed_counts(source, "moai.heights", moai["heights"], set(range(1, 100)))
    tiles = tuple(h for h in sorted(heights) for _ in range(heights[h]))
    n_tiles = _int(source, "moai.total", moai["total"])
    if len(tiles) != n_tiles:
        raise _fail(
            source, f"moai heights add up to {len(tiles)} tiles, not moai.total = {n_tiles}"
        )

    cards_list: list[EpochCard] = []
    for e in (1, 2, 3):
        texts = epoch[str(e)]
        if not isinstance(texts, list):
            raise _fail(source, f"epoch.{e} must be a list of cards")
        for text in texts:
            cards_list.append(parse_epoch_card(source, text, e, len(cards_list)))
    n_epoch = _int(source, "epoch.total", epoch["total"], 1, MAX_EPOCH_CARDS)
    if len(cards_list) != n_epoch:
        raise _fail(source, f"epoch cards add up to {len(cards_list)}, not epoch.total = {n_epoch}")
    admirals = [c for c in cards_list if c.is_admiral]
    if len(admirals) > 1:
        raise _fail(source, f"{len(admirals)} Admiral cards; at most one is allowed")
    if admirals and admirals[0].epoch != 3:
        raise _fail(source, "the Admiral must be an epoch-3 card (R1.7)")
    if total < 2 * hand:
        raise _fail(source, f"rapa_nui.total = {total} cannot deal {hand} cards to 2 players")
    removable = [sum(c.epoch == e and not c.is_admiral for c in cards_list) for e in (1, 2, 3)]
    removed: dict[int, int] = {}
    for k, v in _table(source, "epoch.removed", epoch.get("removed", {})).items():
        if not k.isdigit() or int(k) not in (1, 2, 3):
            raise _fail(source, f"unknown key epoch.removed.{k} (expected one of [1, 2, 3])")
        removed[int(k)] = _int(source, f"epoch.removed.{k}", v, 0, removable[int(k) - 1])
    if sum(removed.values()) >= len(cards_list):
        raise _fail(source, "epoch.removed takes every epoch card: nothing would be left to play")
    score = _table(source, "score", data.get("score", {}))
    wood_points = _int(source, "score.wood_points", score.get("wood_points", 2), 0, 100)

    assumed = data.get("assumed", [])
    if not isinstance(assumed, list) or not all(isinstance(a, str) for a in assumed):
        raise _fail(source, "assumed must be a list of strings")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise _fail(source, "name must be a string")
    return Components(
        name=name,
        fields=fields,
        forest_spaces=forest,
        wood=wood,
        disaster_tokens=tokens,
        covered_fields=tuple(sorted(covered.items())),
        pawns_per_strength=per_strength,
        camp_per_strength=camp,
        hand=hand,
        cards=cards,
        moai_heights=tiles,
        epoch_cards=tuple(cards_list),
        assumed=tuple(assumed),
        removed=(removed.get(1, 0), removed.get(2, 0), removed.get(3, 0)),
        wood_points=wood_points,
    )


def load_components(
    path: str | Path | None = None, params: dict[str, int] | None = None
) -> Components:
    """The component set of a TOML file, or the shipped default (docs/rules.md section C),
    with rule parameters set (`moaisim.rules.parameters`; checked as the file's keys are)."""
    data, source = _document(None if path is None else str(path))
    if params:
        data = apply(data, params)
        given = ", ".join(f"{k}={v}" for k, v in params.items())
        source = f"{source} with {given}"
    return components_from_dict(data, source)


def _document(path: str | None) -> tuple[dict[str, Any], str]:
    """The parsed TOML of a component file, and how messages name it."""
    if path is None:
        text = resources.files("moaisim.rules").joinpath("default.toml").read_text("utf-8")
        source = "default.toml"
    else:
        source = path
        text = read_text(path, "component file", RulesError)
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{source}: not valid TOML ({exc})") from None


def digest_of(payload: dict[str, Any]) -> str:
    """Stable SHA-256 of a JSON-able payload (sorted keys)."""
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=list)
    return hashlib.sha256(blob.encode()).hexdigest()
