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
from moaisim.games.moai.rules.epoch_cards import DISASTERS, EFFECTS, Effect
from moaisim.games.moai.rules.parameters import SIMPLE, apply

#: Epoch card types (R0, C4): neutral, boat, the Admiral and the disasters (C3).
EPOCH_TYPES: tuple[str, ...] = ("neutral", "boat", "admiral", *DISASTERS)


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
    def effect(self) -> Effect | None:
        """What the card does as a disaster (C3, `epoch_cards.EFFECTS`); None for another card."""
        return EFFECTS.get(self.type)

    @property
    def is_disaster(self) -> bool:
        """A disaster card: it acts as soon as it is taken (R4.3)."""
        return self.type in EFFECTS

    @property
    def is_boat(self) -> bool:
        """A boat card (R4.5, R7.4)."""
        return self.type == "boat"

    @property
    def is_admiral(self) -> bool:
        """The Admiral Roggeveen card (R3.2, R8.1)."""
        return self.type == "admiral"

    @property
    def targeted(self) -> bool:
        """A disaster whose taker chooses the clan it hits (R4.3)."""
        effect = self.effect
        return effect is not None and effect.targeted

    def label(self) -> str:
        """The card as rules.md writes it: 'fire 3/2*', 'Admiral Roggeveen'."""
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
    #: the simple rule parameters' values, (name, value) in `parameters.SIMPLE` order
    #: (`wood_points`, `moai_points`, `wood_per_palm`...), each also read as an attribute:
    #: `components.moai_points`
    settings: tuple[tuple[str, int], ...] = tuple((n, p.default) for n, p in SIMPLE.items())

    def __getattr__(self, name: str) -> int:
        """A simple rule parameter's value (`settings`), by its name."""
        if name in SIMPLE:
            return dict(self.__dict__["settings"])[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # --- derived sizes -------------------------------------------------------------------
    @property
    def pawns(self) -> int:
        """Pawns per colour (18 by default)."""
        return 3 * self.pawns_per_strength

    @property
    def n_cards(self) -> int:
        """Rapa Nui cards in the deck (C1)."""
        return sum(self.cards)

    @property
    def n_tiles(self) -> int:
        """Moai tiles (C2)."""
        return len(self.moai_heights)

    @property
    def max_boats(self) -> int:
        """The most boats one clan can ever hold: the number of boat cards."""
        return sum(c.is_boat for c in self.epoch_cards)

    def covered_at(self, players: int) -> int:
        """Fields covered by a disaster token at setup for this player count (R1.1)."""
        return dict(self.covered_fields)[players]

    def as_dict(self) -> dict[str, Any]:
        """Every field, each simple rule parameter under its own name, but those added
        later (`NEW_DEFAULTS`: `removed`; the simple parameters marked `later`) only when
        they differ from the rulebook: a set-up that does not use them keeps the digest it
        always had."""
        out = asdict(self)
        for key, default in NEW_DEFAULTS.items():
            if out[key] == default:
                del out[key]
        for name, value in out.pop("settings"):
            p = SIMPLE[name]
            if not (p.later and value == p.default):
                out[name] = value
        return out


#: Fields added to `Components` after runs were recorded, with their defaults.
NEW_DEFAULTS: dict[str, Any] = {"removed": (0, 0, 0)}


_CARD_RE = re.compile(r"^\s*([a-z-]+)(?:\s+(\d+)\s*/\s*(\d+)\s*(\*)?)?\s*$")

_SCHEMA: dict[str, set[str] | None] = {
    "name": None,
    "assumed": None,
    "board": {"fields", "forest_spaces", "wood", "disaster_tokens", "covered_fields"},
    "pawns": {"per_strength", "camp_per_strength"},
    "rapa_nui": {"total", "hand", "normal", "raid"},
    "moai": {"total", "heights"},
    "epoch": {"total", "1", "2", "3", "removed"},
    "score": set(),
}  # fmt: skip
#: Keys a component file may leave out (their defaults are the rulebook's).
_OPTIONAL: dict[str, set[str]] = {"epoch": {"removed"}}
for _p in SIMPLE.values():  # a simple parameter's key: known, and optional (its default)
    _SCHEMA.setdefault(_p.key[0], set()).add(_p.key[-1])  # type: ignore[union-attr]
    _OPTIONAL.setdefault(_p.key[0], set()).add(_p.key[-1])


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
    """Validate a parsed TOML document; one clear message per mistake (RulesError). The
    tables are checked in a fixed order (keys, board, pawns, Rapa Nui cards, Moai tiles,
    epoch cards, then what spans tables), so a file with several mistakes always names the
    same one first."""
    _check_keys(data, source)
    board, pawns, rn, moai, epoch = (
        data[k] for k in ("board", "pawns", "rapa_nui", "moai", "epoch")
    )
    fields, forest, wood, tokens, covered = _board(source, board)
    per_strength, camp = _pawns(source, pawns)
    cards, total, hand = _rapa_nui_deck(source, rn)
    tiles = _moai_tiles(source, moai)
    epoch_cards = _epoch_deck(source, epoch)
    if total < 2 * hand:
        raise _fail(source, f"rapa_nui.total = {total} cannot deal {hand} cards to 2 players")
    removed = _removed_cards(source, epoch, epoch_cards)
    settings = _settings(source, data)
    name, assumed = _name_and_assumptions(source, data)
    return Components(
        name=name,
        fields=fields,
        forest_spaces=forest,
        wood=wood,
        disaster_tokens=tokens,
        covered_fields=covered,
        pawns_per_strength=per_strength,
        camp_per_strength=camp,
        hand=hand,
        cards=cards,
        moai_heights=tiles,
        epoch_cards=epoch_cards,
        assumed=assumed,
        removed=removed,
        settings=settings,
    )


def _settings(source: str, data: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """Each simple rule parameter's value: its key's, within its range, else its default."""
    out = []
    for name, p in SIMPLE.items():
        *tables, last = p.key
        node: Any = data
        for t in tables:
            node = _table(source, t, node.get(t, {}))
        out.append((name, _int(source, ".".join(p.key), node.get(last, p.default), p.low, p.high)))
    return tuple(out)


def _check_keys(data: dict[str, Any], source: str) -> None:
    """Every table and key of the file is one the schema knows, and every required table
    and key is there (a typo is named, not ignored)."""
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


def _board(
    source: str, board: dict[str, Any]
) -> tuple[int, int, int, int, tuple[tuple[int, int], ...]]:
    """The board (C5): fields, forest spaces, wood, disaster tokens, and the fields covered
    at set-up per player count (R1.1; every count from 2 to 5, within the tokens and the
    fields), as (players, fields) pairs."""
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
    return fields, forest, wood, tokens, tuple(sorted(covered.items()))


def _pawns(source: str, pawns: dict[str, Any]) -> tuple[int, int]:
    """A clan's pawns (C5): how many of each strength, and how many of those start in the
    camp (R1.5; at most all of them)."""
    per_strength = _int(source, "pawns.per_strength", pawns["per_strength"], 1)
    camp = _int(source, "pawns.camp_per_strength", pawns["camp_per_strength"])
    if camp > per_strength:
        raise _fail(
            source,
            f"pawns.camp_per_strength = {camp} exceeds pawns.per_strength = {per_strength}",
        )
    return per_strength, camp


def _rapa_nui_deck(source: str, rn: dict[str, Any]) -> tuple[tuple[int, ...], int, int]:
    """The Rapa Nui deck (C1): the count of each card type (normal 1-3, then raid 1-3), which
    must add up to its stated total, the total, and the hand size dealt."""
    normal = _keyed_counts(source, "rapa_nui.normal", rn["normal"], {1, 2, 3})
    raid = _keyed_counts(source, "rapa_nui.raid", rn["raid"], {1, 2, 3})
    cards = tuple(normal.get(v, 0) for v in (1, 2, 3)) + tuple(raid.get(v, 0) for v in (1, 2, 3))
    total = _int(source, "rapa_nui.total", rn["total"], 1)
    if sum(cards) != total:
        raise _fail(source, f"rapa_nui cards add up to {sum(cards)}, not rapa_nui.total = {total}")
    hand = _int(source, "rapa_nui.hand", rn["hand"])
    return cards, total, hand


def _moai_tiles(source: str, moai: dict[str, Any]) -> tuple[int, ...]:
    """The Moai tiles (C2), one height per tile, ascending; they must add up to the stated
    total."""
    heights = _keyed_counts(source, "moai.heights", moai["heights"], set(range(1, 100)))
    tiles = tuple(h for h in sorted(heights) for _ in range(heights[h]))
    n_tiles = _int(source, "moai.total", moai["total"])
    if len(tiles) != n_tiles:
        raise _fail(
            source, f"moai heights add up to {len(tiles)} tiles, not moai.total = {n_tiles}"
        )
    return tiles


def _epoch_deck(source: str, epoch: dict[str, Any]) -> tuple[EpochCard, ...]:
    """The epoch cards (C3, C4), epoch by epoch and numbered in that order: they must add up
    to the stated total, with at most one Admiral, in epoch 3 (R1.7)."""
    cards: list[EpochCard] = []
    for e in (1, 2, 3):
        texts = epoch[str(e)]
        if not isinstance(texts, list):
            raise _fail(source, f"epoch.{e} must be a list of cards")
        for text in texts:
            cards.append(parse_epoch_card(source, text, e, len(cards)))
    n_epoch = _int(source, "epoch.total", epoch["total"], 1, MAX_EPOCH_CARDS)
    if len(cards) != n_epoch:
        raise _fail(source, f"epoch cards add up to {len(cards)}, not epoch.total = {n_epoch}")
    admirals = [c for c in cards if c.is_admiral]
    if len(admirals) > 1:
        raise _fail(source, f"{len(admirals)} Admiral cards; at most one is allowed")
    if admirals and admirals[0].epoch != 3:
        raise _fail(source, "the Admiral must be an epoch-3 card (R1.7)")
    return tuple(cards)


def _removed_cards(
    source: str, epoch: dict[str, Any], cards: tuple[EpochCard, ...]
) -> tuple[int, int, int]:
    """How many cards of each epoch's pile are removed at random before set-up (V3, the
    rule parameters `removed_epoch1..3`; never the Admiral, and never every card)."""
    removable = [sum(c.epoch == e and not c.is_admiral for c in cards) for e in (1, 2, 3)]
    removed: dict[int, int] = {}
    for k, v in _table(source, "epoch.removed", epoch.get("removed", {})).items():
        if not k.isdigit() or int(k) not in (1, 2, 3):
            raise _fail(source, f"unknown key epoch.removed.{k} (expected one of [1, 2, 3])")
        removed[int(k)] = _int(source, f"epoch.removed.{k}", v, 0, removable[int(k) - 1])
    if sum(removed.values()) >= len(cards):
        raise _fail(source, "epoch.removed takes every epoch card: nothing would be left to play")
    return removed.get(1, 0), removed.get(2, 0), removed.get(3, 0)


def _name_and_assumptions(source: str, data: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """The set's name (default: the file's stem) and the assumptions it lists (strings)."""
    assumed = data.get("assumed", [])
    if not isinstance(assumed, list) or not all(isinstance(a, str) for a in assumed):
        raise _fail(source, "assumed must be a list of strings")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise _fail(source, "name must be a string")
    return name, tuple(assumed)


def load_components(
    path: str | Path | None = None, params: dict[str, int] | None = None
) -> Components:
    """The component set of a TOML file, or the shipped default (docs/rules.md section C),
    with rule parameters set (`parameters`; checked as the file's keys are)."""
    data, source = document(None if path is None else str(path))
    if params:
        data = apply(data, params)
        given = ", ".join(f"{k}={v}" for k, v in params.items())
        source = f"{source} with {given}"
    return components_from_dict(data, source)


def document(path: str | None) -> tuple[dict[str, Any], str]:
    """The parsed TOML of a component file, and how messages name it."""
    if path is None:
        home = resources.files("moaisim.games.moai.rules")
        text = home.joinpath("default.toml").read_text("utf-8")
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
