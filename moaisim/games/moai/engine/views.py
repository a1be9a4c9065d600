"""What a strategy sees: `SeatView`, one seat's view of the games it decides (R5.9, R6.5).

A view is sealed by construction (docs/design.md, "Sealed views"): it is made of copies of
what its seat may see of the games it decides, and of nothing else. Everything public about
a game's state lives in one record per game (`RECORD`, `public_dtype`), which a view copies
for its games in one go; what needs the secrets to count or to show (what the pawns show,
hand sizes, Moai counts, the seat's own hand, pawns and tiles) is copied out by small compiled
passes that read the seat's own secrets only, or only counts of others'. No array of a view
shares memory with the engine's state or shows another game of the batch, so writing into a
view changes no game. (A strategy with memory can still deduce what the physical game lets
a player deduce, e.g. tile heights from the supply.) Every array has a leading games axis.

A view carries every field of `FIELDS` unless its strategy declares, per decision kind,
the fields it reads (`Strategy.reads`): the view then copies only those, which is faster.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, cached_property
from typing import Any, ClassVar, NamedTuple

import numpy as np

from moaisim import interrupts
from moaisim.errors import StrategyError, UnknownStrategyError
from moaisim.games.moai.engine.answers import raised
from moaisim.games.moai.engine.decisions import Kind, strengths
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CAMP, RESERVE, TILE_SUPPLY, Layout, free_fields
from moaisim.games.moai.rules.epoch_cards import epoch_table
from moaisim.jit import kernel
from moaisim.rng import SeatRandom

HIDDEN = -3  # location shown for a pawn whose place or strength a seat may not see

#: The public record of a game: (field, dtype, shape in terms of P players, F forest spaces,
#: K boat slots), and what it holds: the public state itself, and `next_epoch`, which the
#: engines keep up to date from the (secret) epoch deck.
RECORD: tuple[tuple[str, str, str, str], ...] = (
    ("round", "i2", "", "the round, from 1"),
    ("last_round", "?", "", "this round is the last (R8.1)"),
    ("birdman", "i1", "", "the bird-man's seat"),
    ("order", "i1", "P", "hill order: seats by position, position 0 = bird-man"),
    ("turn", "i1", "P", "order of phases R4-R7 (hill order, or clockwise by rule option)"),
    ("bid_order", "i1", "P", "order of the open bids (V2/V4): last round's hill order"),
    ("bids", "i2", "P", "bid totals revealed so far this round (-1: not revealed)"),
    ("discard", "i2", "6", "the discard pile: counts per card type"),
    ("deck_pos", "i2", "", "cards drawn from the Rapa Nui deck since its last shuffle"),
    ("deck_len", "i2", "", "cards of the Rapa Nui deck at its last shuffle"),
    ("reshuffles", "i2", "", "reshuffles of the discard pile so far (R7.1)"),
    ("epoch_pos", "i2", "", "epoch cards revealed so far"),
    ("epoch_len", "i2", "", "epoch cards in the game's deck"),
    ("offer", "i2", "P+1", "epoch cards on offer (card ids; -1: taken or none)"),
    ("held", "i2", "P", "epoch card each clan holds this round (-1: none)"),
    ("wood", "i2", "P", "wood held by each clan"),
    ("wood_supply", "i2", "", "wood in the supply"),
    ("wood_out", "i2", "", "wood out of the game (rule option spent_wood = out)"),
    ("forest_wood", "?", "F", "a wood token lies on the forest space"),
    ("covered", "i2", "", "fields covered by a disaster token"),
    ("disaster_supply", "i2", "", "disaster tokens in the supply"),
    ("boats", "i2", "P,K", "boat card in each clan's boat slot (-1: none built)"),
    ("next_epoch", "i1", "", "epoch (1-3) on the back of the epoch deck's top card, 0: empty"),
)
#: Where a game stands (its cursor, `engine.steps`) and the epoch cards seen so far:
#: public too, in a record of their own (a view copies it only for a strategy that reads it).
CURSOR: tuple[tuple[str, str, str, str], ...] = (
    ("revealed", "?", "E", "the epoch card has been revealed (R3.1: all see it)"),
    ("step", "i1", "", "the step of the round the game is at (`steps.Step`)"),
    ("step_pos", "i1", "", "the turn position (bid, hill) of the step"),
    ("step_count", "i2", "", "work actions so far; the forest space"),
    ("step_card", "i2", "", "the disaster or boat card of the step (-1: none)"),
    ("step_target", "i1", "", "the disaster's victim (-1: none)"),
    ("step_left", "i2", "", "pawns still short of food, or still to rest"),
    ("step_taken", "i1", "4", "pawns rested so far this turn, per zone"),
    ("step_done", "?", "V", "own volcano spaces finished this turn"),
    ("step_hill", "i1", "P", "the hill order built so far (-1: not placed yet)"),
)
CURSOR_FIELDS: tuple[str, ...] = tuple(name for name, *_ in CURSOR)
#: The record fields that are state (the engines write them; `next_epoch` follows the deck).
STATE_FIELDS: tuple[str, ...] = tuple(name for name, *_ in RECORD[:-1])


@cache
def public_dtype(rules: Rules) -> np.dtype:
    """The numpy record type of a game's public record under these rules."""
    return _dtype(rules, RECORD)


@cache
def cursor_dtype(rules: Rules) -> np.dtype:
    """The numpy record type of a game's cursor record (`CURSOR`) under these rules."""
    return _dtype(rules, CURSOR)


def _dtype(rules: Rules, record: tuple[tuple[str, str, str, str], ...]) -> np.dtype:
    lay, p = rules.layout, rules.players
    sizes = {"P": p, "P+1": p + 1, "F": lay.forest, "K": lay.boats, "6": 6, "4": 4,
             "V": lay.volcano, "E": len(rules.components.epoch_cards)}  # fmt: skip
    fields = []
    for name, kind, shape, _ in record:
        dims = tuple(sizes[d] for d in shape.split(",") if d)
        fields.append((name, kind, dims) if dims else (name, kind))
    return np.dtype(fields)


def next_epochs(epoch_deck: np.ndarray, public: np.ndarray, rows: np.ndarray, rules: Rules) -> None:
    """R5.9: the epoch printed on the back of each game's top epoch card (0: deck empty)."""
    pos, end = public["epoch_pos"][rows], public["epoch_len"][rows]
    top = epoch_deck[rows, np.minimum(pos, epoch_deck.shape[1] - 1)]
    public["next_epoch"][rows] = np.where(pos < end, epoch_table(rules).epoch[top], 0)


class Pawns(NamedTuple):
    """The pawn block of a batch: [B, P, N] locations and faces (R5)."""

    loc: np.ndarray
    up: np.ndarray


@kernel
def set_pawn(pw: Pawns, r: int, q: int, i: int, loc: int, up: bool) -> None:
    """Move pawn (q, i) of game r to `loc`, face up or down; a pawn off the board has no
    face (R5.4-R5.7). Every pawn move of the batch engine comes here."""
    pw.loc[r, q, i] = loc
    pw.up[r, q, i] = up and loc >= 0


# --- the fields of a view ----------------------------------------------------------------------
#: A view's arrays, their meaning, and the part of the game they are copied from: `record`
#: (the public record), `map` (where the pawns are, as shown), `counts` (pawn counts),
#: `hands` (hand sizes and the own hand), `pawns` (the own pawns), `tiles` (Moai).
FIELDS: dict[str, tuple[str, str]] = {
    "round": ("record", "[n] the round, from 1"),
    "last_round": ("record", "[n] bool: this round is the last (R8.1)"),
    "birdman": ("record", "[n] the bird-man's seat"),
    "order": ("record", "[n, P] hill order: seats by position, position 0 = bird-man"),
    "turn": ("record", "[n, P] order of phases R4-R7 (hill order, or clockwise by option)"),
    "position": ("record", "[n] this seat's position in `turn`"),
    "bids": ("record", "[n, P] bid totals revealed so far this round (-1: not revealed)"),
    "discard": ("record", "[n, 6] the discard pile: counts per card type"),
    "deck_size": ("record", "[n] cards in the Rapa Nui deck"),
    "epoch_deck_size": ("record", "[n] cards in the epoch deck"),
    "next_epoch": ("record", "[n] epoch (1-3) on the back of the epoch deck's top card; 0"),
    "offer": ("record", "[n, P+1] epoch cards on offer (card ids; -1: taken or none)"),
    "held": ("record", "[n, P] epoch card each clan holds this round (-1: none)"),
    "wood": ("record", "[n, P] wood held by each clan"),
    "wood_supply": ("record", "[n] wood in the supply"),
    "wood_out": ("record", "[n] wood out of the game (rule option spent_wood = out)"),
    "forest_wood": ("record", "[n, F] bool: a wood token lies on the forest space"),
    "covered": ("record", "[n] fields covered by a disaster token"),
    "disaster_supply": ("record", "[n] disaster tokens in the supply"),
    "boats": ("record", "[n, P, K] bool: the clan has built a boat in that slot"),
    "revealed": ("cursor", "[n, E] bool: the epoch card has been revealed (by card id)"),
    "step": ("cursor", "[n] the step of the round the game is at (`steps.Step`)"),
    "step_pos": ("cursor", "[n] the turn position (bid, hill) of the step"),
    "step_count": ("cursor", "[n] work actions so far this phase; the forest space"),
    "step_card": ("cursor", "[n] the disaster or boat card of the step (-1: none)"),
    "step_target": ("cursor", "[n] the disaster's victim (-1: none)"),
    "step_left": ("cursor", "[n] pawns still short of food, or still to rest"),
    "step_taken": ("cursor", "[n, 4] pawns rested so far this turn, per zone"),
    "step_done": ("cursor", "[n, V] bool: own volcano spaces finished this turn"),
    "step_hill": ("cursor", "[n, P] the hill order built so far (-1: not placed yet)"),
    "shown_loc": ("map", "[n, P, N] location of each face-up pawn on the board, else HIDDEN"),
    "hidden_count": ("map", "[n, P, L] face-down pawns of each clan on each location code"),
    "on_board": ("counts", "[n, P] pawns of each clan on the board"),
    "camp_size": ("counts", "[n, P] pawns in each clan's camp"),
    "reserve": ("counts", "[n, P, 3] pawns of strength 1, 2, 3 in each clan's reserve"),
    "boats_manned": ("counts", "[n, P, K] bool: a pawn stands on that boat"),
    "free_fields": ("counts", "[n] fields with no pawn and no disaster token (R5.5)"),
    "hand_sizes": ("hands", "[n, P] cards in each hand"),
    "hand": ("hands", "[n, 6] own hand: counts per card type"),
    "own_loc": ("pawns", "[n, N] own pawns' location codes (pawn i has strength[i])"),
    "own_up": ("pawns", "[n, N] bool: own pawn face up"),
    "moai_count": ("tiles", "[n, P] Moai tiles held by each clan (R6.5: heights are secret)"),
    "moai_supply": ("tiles", "[n, T] bool: that tile (sorted by height) is in the supply"),
    "own_tiles": ("tiles", "[n, T] bool: the tiles this clan holds (heights: tile_heights)"),
}
PARTS: tuple[str, ...] = ("record", "cursor", "map", "counts", "hands", "pawns", "tiles")


def parts_for(strategy: Any, kind: Kind) -> frozenset[str]:
    """The parts of a game a strategy's views of `kind` copy: those of the fields it declares
    in `reads[kind]`, or every part when it declares nothing for that kind."""
    reads: Mapping[str, Any] = getattr(strategy, "reads", None) or {}
    if kind.value not in reads:
        return frozenset(PARTS)
    return frozenset(FIELDS[f][0] for f in reads[kind.value])


def check_reads(strategy: Any, name: str) -> None:
    """A strategy's `reads` declaration names decision kinds and view fields (one clear line
    per mistake)."""
    reads = getattr(strategy, "reads", None) or {}
    if not isinstance(reads, Mapping):
        raise UnknownStrategyError(f"strategy {name!r}: reads must map decision kinds to fields")
    kinds = {k.value for k in Kind}
    for kind, fields in reads.items():
        if kind not in kinds:
            raise UnknownStrategyError(
                f"strategy {name!r}: reads names {kind!r}, not a decision kind "
                f"({', '.join(sorted(kinds))})"
            )
        for f in fields:
            if f not in FIELDS:
                raise UnknownStrategyError(
                    f"strategy {name!r}: reads[{kind!r}] names {f!r}, not a view field"
                )


class SeatView:
    """What one seat sees of the games it is asked about, and the question.

    Attributes: kind (a `Kind`), seat, rules, games (the games' indices in the run), legal
    ([n, A] bool mask of the legal actions; for bid the [n, 6] hand counts that bound the
    bid), info (arrays about the question, e.g. info["deficit"] for feed), rng (the seat's
    own random stream), the arrays of `FIELDS` (all of them, or those its strategy declares
    in `reads`), and two constants of the rules: tile_heights [T] and strength [N]. Every
    array is the view's own copy.
    """

    #: The fields a seat sees (`FIELDS`), as every game's view declares them.
    fields: ClassVar[tuple[str, ...]] = tuple(FIELDS)

    def __init__(
        self,
        kind: Kind,
        seat: int,
        rules: Rules,
        games: np.ndarray,
        legal: np.ndarray,
        rng: SeatRandom,
        info: dict[str, np.ndarray],
        record: np.ndarray | None,
        copied: dict[str, np.ndarray],
        cursor: np.ndarray | None = None,
    ) -> None:
        self.kind, self.seat, self.rules, self.rng = kind, seat, rules, rng
        self.games, self.legal, self.info = games, legal, info
        self._record = record
        self._cursor = cursor
        self.__dict__.update(copied)

    def __len__(self) -> int:
        return len(self.games)

    def __getattr__(self, name: str) -> Any:
        # only called for attributes that are not there: a field this view did not copy
        if name in FIELDS:
            raise AttributeError(
                f"this {self.kind.value} view has no {name!r}: the strategy's `reads` "
                f"declaration for {self.kind.value!r} does not name it"
            )
        raise AttributeError(name)

    def _field(self, name: str) -> np.ndarray:
        record = self._cursor if name in CURSOR_FIELDS else self._record
        if record is None:
            return self.__getattr__(name)
        return record[name]

    # --- the public record (R5.9) and the cursor: read on first use (`_record_field`) ----
    @cached_property
    def position(self) -> np.ndarray:
        """[n] this seat's position in `turn`."""
        return np.argmax(self.turn == self.seat, axis=1)

    @cached_property
    def deck_size(self) -> np.ndarray:
        """[n] cards in the Rapa Nui deck."""
        return self._field("deck_len") - self._field("deck_pos")

    @cached_property
    def epoch_deck_size(self) -> np.ndarray:
        """[n] cards in the epoch deck."""
        return self._field("epoch_len") - self._field("epoch_pos")

    @cached_property
    def boats(self) -> np.ndarray:
        """[n, P, K] bool: the clan has built a boat in that slot (the record holds the
        boat's card, -1 for none)."""
        return self._field("boats") >= 0

    # --- constants of the rules ----------------------------------------------------------
    @property
    def tile_heights(self) -> np.ndarray:
        """Height of each Moai tile of the component set [T] (sorted ascending)."""
        return np.asarray(self.rules.components.moai_heights, dtype=np.int16)

    @property
    def strength(self) -> np.ndarray:
        """Strength (1-3) of each pawn index [N] (pawns are numbered by strength)."""
        return strengths(self.rules)


def _record_field(name: str) -> cached_property[np.ndarray]:
    """A view's property for a field of the public record or the cursor (`FIELDS`): read
    from the view's copy on first use, documented by its meaning."""

    def read(view: SeatView) -> np.ndarray:
        return view._field(name)  # noqa: SLF001

    read.__name__ = read.__qualname__ = name
    read.__doc__ = FIELDS[name][1]
    prop = cached_property(read)
    prop.__set_name__(SeatView, name)
    return prop


for _name, (_part, _meaning) in FIELDS.items():
    if _part in ("record", "cursor") and _name not in SeatView.__dict__:  # not computed
        setattr(SeatView, _name, _record_field(_name))


def make_view(
    kind: Kind,
    seat: int,
    rules: Rules,
    parts: frozenset[str],
    public: np.ndarray,
    secrets: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    rows: np.ndarray,
    games: np.ndarray,
    legal: np.ndarray,
    rng: SeatRandom,
    info: dict[str, np.ndarray],
    cursor: np.ndarray | None = None,
) -> SeatView:
    """The sealed view of `seat` for the games at `rows`, with copies of the `parts` of
    them that it needs: `public` [B] holds the public records, `cursor` [B] the cursor
    records of the games `rows` ([n]); `secrets` = (hand [B, P, 6], loc and up [B, P, N],
    moai_owner [B, T]) are read
    for this seat's own part, or counted. `games` becomes the view's own (give a fresh
    array)."""
    hand, loc, up, owner = secrets
    lay = rules.layout
    record = take_records(public, rows) if "record" in parts else None
    where = None
    if "cursor" in parts and cursor is not None:  # the cursor records of exactly these games
        where = np.array(cursor, copy=True)
    copied: dict[str, np.ndarray] = {}
    if "map" in parts:
        copied["shown_loc"], copied["hidden_count"] = pawn_map(rows, loc, up, lay.size, HIDDEN)
    if "counts" in parts:
        names = ("on_board", "camp_size", "reserve", "boats_manned", "free_fields")
        counted = pawn_counts(rows, loc, public["covered"], lay)
        copied.update(zip(names, counted, strict=True))
    if "hands" in parts:
        copied["hand_sizes"], copied["hand"] = hands(rows, seat, hand)
    if "pawns" in parts:
        copied["own_loc"], copied["own_up"] = loc[rows, seat], up[rows, seat]
    if "tiles" in parts:
        names = ("moai_count", "moai_supply", "own_tiles")
        copied.update(zip(names, tiles(rows, seat, owner, loc.shape[1]), strict=True))
    legal = np.array(legal, copy=True)
    info = {k: np.array(v, copy=True) for k, v in info.items()}
    return SeatView(kind, seat, rules, games, legal, rng, info, record, copied, where)


def take_records(public: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """A copy of the public records of the games `rows` (one fast copy of raw bytes)."""
    raw = public.view(np.uint8).reshape(len(public), public.dtype.itemsize)
    return np.take(raw, rows, axis=0).view(public.dtype).reshape(len(rows))


@kernel
def pawn_map(
    rows: np.ndarray, loc: np.ndarray, up: np.ndarray, size: int, hidden_code: int
) -> tuple[np.ndarray, np.ndarray]:
    """R5.9: where the pawns of games `rows` are, as every seat sees it: each face-up board
    pawn by index (`hidden_code` for the others) [n, P, N]; face-down board pawns as counts
    per location code [n, P, size]."""
    n, p, pawns = len(rows), loc.shape[1], loc.shape[2]
    shown = np.empty((n, p, pawns), dtype=np.int8)
    hidden = np.zeros((n, p, size), dtype=np.int16)
    for k in range(n):
        r = rows[k]
        for q in range(p):
            for i in range(pawns):
                x = loc[r, q, i]
                if x >= 0 and up[r, q, i]:
                    shown[k, q, i] = x
                else:
                    shown[k, q, i] = hidden_code
                    if x >= 0:
                        hidden[k, q, x] += 1
    return shown, hidden


@kernel
def pawn_counts(
    rows: np.ndarray, loc: np.ndarray, covered: np.ndarray, lay: Layout
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """R5.9: each clan's pawns on the board, in camp, in the reserve by strength, its manned
    boats, and the free fields, for the games `rows` (covered: [B] fields covered)."""
    n, p, pawns = len(rows), loc.shape[1], loc.shape[2]
    board = np.zeros((n, p), dtype=np.int16)
    camp = np.zeros((n, p), dtype=np.int16)
    reserve = np.zeros((n, p, 3), dtype=np.int16)
    manned = np.zeros((n, p, lay.boats), dtype=np.bool_)
    free = np.empty(n, dtype=np.int16)
    per = lay.per_strength
    for k in range(n):
        r = rows[k]
        in_fields = 0
        for q in range(p):
            for i in range(pawns):
                x = loc[r, q, i]
                if x >= 0:
                    board[k, q] += 1
                    if x == lay.fields:
                        in_fields += 1
                    elif x >= lay.ocean0:
                        manned[k, q, x - lay.ocean0] = True
                elif x == CAMP:
                    camp[k, q] += 1
                elif x == RESERVE:
                    reserve[k, q, i // per] += 1
        free[k] = free_fields(lay, covered[r], in_fields)
    return board, camp, reserve, manned, free


@kernel
def hands(rows: np.ndarray, seat: int, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """R1.6: the size of every hand, and the seat's own hand, of the games `rows`."""
    n, p = len(rows), hand.shape[1]
    sizes = np.zeros((n, p), dtype=np.int16)
    own = np.empty((n, hand.shape[2]), dtype=np.int16)
    for k in range(n):
        r = rows[k]
        for q in range(p):
            for t in range(hand.shape[2]):
                sizes[k, q] += hand[r, q, t]
        for t in range(hand.shape[2]):
            own[k, t] = hand[r, seat, t]
    return sizes, own


@kernel
def tiles(
    rows: np.ndarray, seat: int, owner: np.ndarray, players: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """R6.5: each clan's number of Moai, the tiles left in the supply and the seat's own
    tiles, of the games `rows` (heights of others' tiles stay secret)."""
    n, t_count = len(rows), owner.shape[1]
    count = np.zeros((n, players), dtype=np.int16)
    supply = np.empty((n, t_count), dtype=np.bool_)
    own = np.empty((n, t_count), dtype=np.bool_)
    for k in range(n):
        r = rows[k]
        for t in range(t_count):
            x = owner[r, t]
            supply[k, t] = x == TILE_SUPPLY
            own[k, t] = x == seat
            if x >= 0:
                count[k, x] += 1
    return count, supply, own


def start_strategies(
    strategies: list[Any], rules: Rules, games: np.ndarray, names: list[str], seed: int
) -> None:
    """docs/design.md, "Strategy lifetime": each seat's strategy instance serves every game
    of a batch (one game in the reference engine); its optional `start(rules, seat, games)`
    hook is called once, before the first decision, with the batch's game indices. A hook
    that fails is the strategy's failure (`StrategyError`, decision 'start')."""

    interrupts.watch()  # a KeyboardInterrupt a strategy raises is its failure (answers.answer)
    for seat, strategy in enumerate(strategies):
        start = getattr(strategy, "start", None)
        if start is None:
            continue
        before = interrupts.count()
        try:
            start(rules, seat, games.copy())
        except BaseException as exc:  # SystemExit too: a strategy cannot end the run
            stop = interrupts.signalled(exc)
            if stop is not None and interrupts.from_signal(before):
                raise stop from None
            first = int(games[0]) if len(games) else 0
            raise StrategyError(
                names[seat], "start", first, seed, seat, raised(exc), max(len(games) - 1, 0)
            ) from exc
