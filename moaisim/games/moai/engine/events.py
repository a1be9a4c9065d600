"""The event log: every event kind defined once, with its fields, their meaning and its text.

Both engines log a game as a list of events (dicts with "e" = the kind and one entry per
field), built by `EventMaker`, which checks the fields against the kind's definition and adds
the names of the cards an event refers to (`card_name`, `cards_names`...), so that the JSON log
reads on its own. `GameRecord.text()` renders each event with its kind's `text`. The schema
is versioned (`SCHEMA_VERSION`, in the JSON header) and documented in docs/events.md, which
`python -m moaisim.games.moai.engine.events` writes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from moaisim.event_schema import Field, kinds_markdown, seat_field
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.codes import CARD_TYPES

Event = dict[str, Any]
#: Version of the event log's schema: bump it when a kind or a field changes.
SCHEMA_VERSION = 2

#: Field types whose values are cards: the maker adds a field `<name>_name(s)` with their
#: names. "epoch": an epoch card id; "epochs": a list of them; "rapa_nui": a list of Rapa Nui
#: card types (0-5); "counts": counts per Rapa Nui card type [6].
CARD_FIELDS = {"epoch": "_name", "epochs": "_names", "rapa_nui": "_names", "counts": "_names"}


class Text(NamedTuple):
    """What `text` functions get besides the event: seat and place names."""

    who: Callable[[int], str]
    place: Callable[[int], str]


class EventKind(NamedTuple):
    """One event kind: its name, the rule it records, its meaning and its fields."""

    name: str
    rule: str
    meaning: str
    fields: tuple[Field, ...]
    text: Callable[[Event, Text], str | None]


def _cards(names: list[str]) -> str:
    return "[" + " ".join(names) + "]"


def _reveal(ev: Event, t: Text) -> str:
    shown = ", ".join(ev["cards_names"])
    extra = " The Admiral is revealed: last round." if ev["admiral"] else ""
    if ev["last_round"] and not ev["admiral"]:
        extra = " The epoch deck is out: last round."
    wood = ", ".join(str(s + 1) for s in ev["wood"]) or "none"
    return f"Bird-man: revealed {shown}; wood on forest {wood}.{extra}"


def _forest(ev: Event, t: Text) -> str:
    space = ev["space"] + 1
    fight = ", ".join(f"{t.who(int(s))} {v}" for s, v in ev["strengths"].items())
    if not ev["wood"]:
        return f"Forest {space}: no wood; {fight} are revealed"
    if ev["winner"] < 0:
        return f"Forest {space}: nobody, the wood is discarded"
    if not ev["strengths"]:
        return f"Forest {space}: {t.who(ev['winner'])} alone takes the wood"
    return f"Forest {space}: {fight} -> {t.who(ev['winner'])} takes the wood"


def _erosion(ev: Event, t: Text) -> str:
    what = "a field is covered" if ev["covered"] else "no free field or token: no effect"
    return f"  erosion: {what}"


_KINDS: tuple[EventKind, ...] = (
    EventKind(
        "setup", "R1", "the table before round 1 (every chance outcome of the setup)",
        (
            Field("epoch_deck", "epochs", "the epoch deck, top card first (R1.7, V3)"),
            Field("deck", "rapa_nui", "the Rapa Nui deck after the deal, top card first"),
            Field("hands", "ints", "each seat's hand: counts per card type (R1.6)"),
            Field("covered", "int", "fields covered by a disaster token (R1.1)"),
            Field("bid_order", "seats", "the first round's bidding order (V2, V4)"),
        ),
        lambda ev, t: f"setup: {ev['covered']} fields covered; hands dealt",
    ),
    EventKind(
        "round", "R2", "a round begins",
        (Field("round", "int", "the round number, from 1"),),
        lambda ev, t: f"\n== Round {ev['round']} ==",
    ),
    EventKind(
        "reveal", "R3.1-R3.2, R8.1", "epoch cards revealed and wood put in the forest",
        (
            Field("cards", "epochs", "the cards on offer (the Admiral set aside)"),
            Field("admiral", "bool", "the Admiral was revealed"),
            Field("wood", "ints", "forest spaces (0-based) that received a wood token"),
            Field("last_round", "bool", "this round is the last (R8.1)"),
        ),
        _reveal,
    ),
    EventKind(
        "decision", "section D", "a strategy's answer (or a forced one)",
        (
            seat_field("the seat that decides"),
            Field("kind", "str", "the decision kind (moaisim.Kind)"),
            Field("action", "int", "the action (a bid: counts per card type)"),
            Field("forced", "bool", "a single action was legal: the strategy was not asked"),
        ),
        lambda ev, t: None,
    ),
    EventKind(
        "bid", "R3.3, R3.5", "a bid revealed and paid to the discard pile",
        (
            seat_field(),
            Field("cards", "counts", "cards bid: counts per card type"),
            Field("total", "int", "the bid's total value"),
        ),
        lambda ev, t: f"  {t.who(ev['seat'])} bids {ev['total']} {_cards(ev['cards_names'])}",
    ),
    EventKind(
        "bids", "R3.3", "every bid of the round",
        (Field("totals", "ints", "each seat's bid total"),),
        lambda ev, t: None,
    ),
    EventKind(
        "hill", "R3.4-R3.5, R2", "the new hill order",
        (
            Field("order", "seats", "seats by hill position; position 0 is the bird-man"),
            Field("birdman", "seat", "the new bird-man"),
            Field("turn", "seats", "the order of phases R4-R7 (hill, or clockwise by option)"),
        ),
        lambda ev, t: (
            f"  hill order: {' > '.join(t.who(s) for s in ev['order'])}; "
            f"bird-man {t.who(ev['birdman'])}"
        ),
    ),
    EventKind(
        "pick", "R4.1", "an epoch card taken",
        (seat_field(), Field("card", "epoch", "the card taken")),
        lambda ev, t: f"Epoch: {t.who(ev['seat'])} takes {ev['card_name']}",
    ),
    EventKind(
        "no_card", "R4.2", "no card left for this seat",
        (seat_field(),),
        lambda ev, t: f"Epoch: {t.who(ev['seat'])} gets no card",
    ),
    EventKind(
        "erosion", "C3", "an erosion card taken (no target)",
        (seat_field("the taker"), Field("covered", "bool", "a free field was covered")),
        _erosion,
    ),
    EventKind(
        "disaster", "R4.3, V5", "a disaster aimed at a clan",
        (
            seat_field("the taker"),
            Field("card", "epoch", "the disaster card"),
            Field("target", "seat", "the clan it hits"),
        ),
        lambda ev, t: f"  {ev['card_name'].split()[0]} hits {t.who(ev['target'])}",
    ),
    EventKind(
        "burn", "C3", "fire: the target's wood burns",
        (seat_field("the victim"),),
        lambda ev, t: f"  {t.who(ev['seat'])} loses a wood",
    ),
    EventKind(
        "lose_pawn", "C3, R4.4", "famine: the victim loses a pawn to its reserve",
        (
            seat_field("the victim"),
            Field("pawn", "pawn", "the pawn lost"),
            Field("strength", "int", "its strength"),
            Field("at", "loc", "where it was"),
        ),
        lambda ev, t: (
            f"  {t.who(ev['seat'])} loses a pawn of strength {ev['strength']} "
            f"({t.place(ev['at'])})"
        ),
    ),
    EventKind(
        "lose_boat", "C3, R4.4", "storm or fire-boat: the victim loses a boat",
        (
            seat_field("the victim"),
            Field("slot", "int", "the boat slot lost"),
            Field("sailor", "pawns", "the pawn that stood on it (back to camp)"),
        ),
        lambda ev, t: f"  {t.who(ev['seat'])} loses boat {ev['slot'] + 1}",
    ),
    EventKind(
        "lose_moai", "C3, R4.4", "topple: the victim loses a Moai tile (out of the game)",
        (
            seat_field("the victim"),
            Field("tile", "int", "the tile lost"),
            Field("height", "int", "its height"),
        ),
        lambda ev, t: f"  {t.who(ev['seat'])} loses a Moai of {ev['height']} m",
    ),
    EventKind(
        "unpicked", "R4.1", "the cards nobody took leave the game",
        (Field("cards", "epochs", "the cards left"),),
        lambda ev, t: (
            "  leaves the game: " + ", ".join(ev["cards_names"]) if ev["cards"] else None
        ),
    ),
    EventKind(
        "place", "R5.2, R5.4-R5.7", "a pawn placed from camp",
        (
            seat_field(),
            Field("strength", "int", "its strength"),
            Field("loc", "loc", "where it goes"),
            Field("up", "bool", "placed face up"),
        ),
        lambda ev, t: (
            f"Work: {t.who(ev['seat'])} places {ev['strength']} on {t.place(ev['loc'])} "
            f"({'up' if ev['up'] else 'down'})"
        ),
    ),
    EventKind(
        "pass", "R5.3", "a seat with an empty camp passes",
        (seat_field(),),
        lambda ev, t: f"Work: {t.who(ev['seat'])} passes",
    ),
    EventKind(
        "swap", "R5.3", "a seat with an empty camp swaps two of its pawns",
        (
            seat_field(),
            Field("pawns", "pawns", "the two pawns"),
            Field("locs", "ints", "where each now stands"),
        ),
        lambda ev, t: (
            f"Work: {t.who(ev['seat'])} swaps pawns: now on {t.place(ev['locs'][0])} and "
            f"{t.place(ev['locs'][1])}"
        ),
    ),
    EventKind(
        "forest", "R6.1", "a forest space produces (or its contenders are revealed)",
        (
            Field("space", "space", "the forest space (0-based)"),
            Field("wood", "bool", "a wood token lay on it"),
            Field("strengths", "dict", "each contending clan's total (several clans only)"),
            Field("winner", "seat", "the clan that takes the wood (-1: none)"),
        ),
        _forest,
    ),
    EventKind(
        "moai", "R6.2", "a statue finished and transported",
        (
            seat_field(),
            Field("space", "int", "the clan's volcano space (0-based)"),
            Field("height", "int", "the statue's height (its pawns' strength)"),
            Field("tile", "int", "the tile taken"),
            Field("tile_height", "int", "that tile's height"),
        ),
        lambda ev, t: (
            f"Volcano: {t.who(ev['seat'])} finishes a {ev['height']} m statue on space "
            f"{ev['space'] + 1}, pays a wood, takes a {ev['tile_height']} m tile"
        ),
    ),
    EventKind(
        "feed", "R6.3", "a clan counts its food",
        (
            seat_field(),
            Field("food", "int", "strength in the fields and on boats"),
            Field("mouths", "int", "pawns on the board"),
            Field("deficit", "int", "pawns short of food"),
        ),
        lambda ev, t: (
            f"Feeding: {t.who(ev['seat'])} has {ev['food']} food for {ev['mouths']}"
            + (f", {ev['deficit']} short" if ev["deficit"] else "")
        ),
    ),
    EventKind(
        "starve", "R6.3", "a pawn starves (to the reserve)",
        (
            seat_field(),
            Field("pawn", "pawn", "the pawn"),
            Field("at", "loc", "where it was"),
            Field("strength", "int", "its strength"),
        ),
        lambda ev, t: (
            f"  {t.who(ev['seat'])}: a pawn of strength {ev['strength']} starves "
            f"({t.place(ev['at'])})"
        ),
    ),
    EventKind(
        "raid", "R6.4", "a raid saves a starving pawn and removes a rival's",
        (
            seat_field("the raider"),
            Field("victim", "seat", "the raided clan"),
            Field("pawn", "pawn", "the rival pawn removed"),
            Field("at", "loc", "where it was"),
            Field("strength", "int", "its strength"),
            Field("cards", "rapa_nui", "the two cards discarded"),
        ),
        lambda ev, t: (
            f"  {t.who(ev['seat'])} raids {t.who(ev['victim'])}: removes a {ev['strength']} "
            f"from {t.place(ev['at'])}, discards {_cards(ev['cards_names'])}"
        ),
    ),
    EventKind(
        "draw", "R7.1", "Rapa Nui cards drawn",
        (seat_field(), Field("cards", "rapa_nui", "the cards drawn")),
        lambda ev, t: f"Review: {t.who(ev['seat'])} draws {len(ev['cards'])} cards",
    ),
    EventKind(
        "reshuffle", "R7.1", "the discard pile shuffled into a new deck",
        (Field("deck", "rapa_nui", "the new deck, top card first"),),
        lambda ev, t: f"  the discard pile is shuffled into a new deck of {len(ev['deck'])}",
    ),
    EventKind(
        "rest", "R7.2", "a pawn back to camp",
        (
            seat_field(),
            Field("pawn", "pawn", "the pawn"),
            Field("at", "loc", "where it was"),
            Field("shown", "bool", "it was face up"),
        ),
        lambda ev, t: (
            f"  {t.who(ev['seat'])} rests a pawn from {t.place(ev['at'])}"
            + ("" if ev["shown"] else " (unrevealed)")
        ),
    ),
    EventKind(
        "birth", "R7.3", "two cards discarded for a new pawn in camp",
        (
            seat_field(),
            Field("cards", "rapa_nui", "the two cards"),
            Field("strength", "int", "the new pawn's strength"),
        ),
        lambda ev, t: (
            f"  {t.who(ev['seat'])}: birth of a {ev['strength']} for {_cards(ev['cards_names'])}"
        ),
    ),
    EventKind(
        "boat", "R7.4", "a boat built",
        (
            seat_field(),
            Field("card", "epoch", "the boat card kept"),
            Field("slot", "int", "the boat slot"),
        ),
        lambda ev, t: f"  {t.who(ev['seat'])} builds a boat",
    ),
    EventKind(
        "end", "R8", "the game ends",
        (
            Field("scores", "ints", "each seat's score (R8.2)"),
            Field("rounds", "int", "rounds played"),
        ),
        lambda ev, t: None,
    ),
)  # fmt: skip

#: Every event kind, by name.
EVENTS: dict[str, EventKind] = {k.name: k for k in _KINDS}


class EventMaker:
    """Builds the events of games played under one `Rules`: checks each event's fields
    against its kind and adds the names of the cards it refers to."""

    def __init__(self, rules: Rules) -> None:
        self.epoch_names = [c.label() for c in rules.components.epoch_cards]

    def __call__(self, e: str, **data: Any) -> Event:
        kind = EVENTS[e]
        if len(data) != len(kind.fields) or any(f.name not in data for f in kind.fields):
            raise ValueError(f"event {e!r} has fields {sorted(data)}, not {kind.fields}")
        event: Event = {"e": e, **data}
        for f in kind.fields:
            suffix = CARD_FIELDS.get(f.type)
            if suffix is not None:
                event[f.name + suffix] = self.names(f.type, data[f.name])
        return event

    def names(self, type_: str, value: Any) -> Any:
        """A value as the log shows it: epoch card ids by name, others as they are."""
        if type_ == "epoch":
            return self.epoch_names[value]
        if type_ == "epochs":
            return [self.epoch_names[c] for c in value]
        if type_ == "rapa_nui":
            return [CARD_TYPES[t] for t in value]
        return [CARD_TYPES[t] for t, n in enumerate(value) for _ in range(n)]  # counts


def schema_markdown() -> str:
    """docs/events.md: every event kind, its rule, meaning and fields."""
    out = [
        "# The event log",
        "",
        "A game's log (`GameRecord.events`, `moaisim play --json`) is a list of events in the",
        "order they happen. Each event is an object whose `e` names its kind; the other keys are",
        "the kind's fields, listed below. Every field that holds cards has a twin that names",
        f"them: `card` -> `card_name`, `cards` -> `cards_names`. Schema version {SCHEMA_VERSION}",
        '(the `schema` of the JSON header line `{"e": "game", ...}`).',
        "",
        "Seats are 0-based (seat 0 holds the bird-man at the start); forest spaces, volcano",
        "spaces and boat slots are 0-based; a `loc` is a location code (`rules.codes`:",
        "-2 reserve, -1 camp, then forest spaces, the fields, the clan's volcano spaces, its",
        "boats); a `pawn` is an index in the clan's colour (pawns are numbered by strength).",
        "Rapa Nui card types are 0-5: values 1, 2, 3, then Raid 1, 2, 3.",
        "This page is written by `python -m moaisim.games.moai.engine.events`.",
        "",
    ]
    return "\n".join(out + kinds_markdown(_KINDS))


if __name__ == "__main__":
    print(schema_markdown(), end="")
