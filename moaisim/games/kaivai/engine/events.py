"""Kaivai's event log: every event kind once, with its rule, its fields and how it reads in
words (docs/kaivai-rules.md; `moaisim events --game kaivai`).

A game's log is a list of events, objects whose `e` names the kind. It is the referee's
record, not a seat's view: every chance outcome (the extra cult sites, the first bidding
order, each die of a catch) and every decision with its options in the order offered, the
secret bids too (each logged as it is made; seats learn them only as R11 says). Another
engine can play the game again from the log alone and check it event by event (`moaisim
replay`). The schema is versioned (`SCHEMA_VERSION`, in the header of `moaisim play --json`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from moaisim.event_schema import Field, kinds_markdown, seat_field

Event = dict[str, Any]
#: Version of the event log's schema: bump it when a kind or a field changes.
SCHEMA_VERSION = 1
#: How a seat is named in the text ("P1").
Who = Callable[[int], str]


class EventKind(NamedTuple):
    """One event kind: its name, the rules it records, its meaning, its fields and its text
    (None: not told)."""

    name: str
    rule: str
    meaning: str
    fields: tuple[Field, ...]
    text: Callable[[Event, Who], str | None]


def hexes(value: Any) -> str:
    """A hex, or several, as the text writes them: (q, r)."""
    if value and isinstance(value[0], list | tuple):
        return ", ".join(hexes(h) for h in value)
    return f"({value[0]}, {value[1]})"


def _decision(ev: Event, who: Who) -> str | None:
    kind, choice = ev["kind"], ev["choice"]
    if kind == "bid":
        return f"  {who(ev['seat'])} bids {choice}."
    if kind == "island_bid":
        return f"  {who(ev['seat'])} bids {choice} influence, secretly."
    if kind == "score_island":
        return f"{who(ev['seat'])}, the poorest, names island {hexes(choice)} next."
    return None  # the other decisions are told by the events they make


_ROUND = Field("round", "int", "the round, from 1 (the final scoring: rounds + 1)")
_HEX = Field("hex", "hex", "a hex as [q, r] (docs/kaivai-rules.md, R0)")
_ISLAND = Field("island", "hex", "the island, named by its first cult site")

_KINDS: tuple[EventKind, ...] = (
    EventKind("extra_site", "R1.2, O1, O3", "an extra island is drawn: one cult site, or two "
              "adjacent ones in the second edition",
              (_ROUND, Field("hexes", "hexes", "its cult sites")),
              lambda ev, who: f"An extra island at {hexes(ev['hexes'])}."),
    EventKind("extra_site_skipped", "R1.2", "no free hex is left for an extra island", (_ROUND,),
              lambda ev, who: "No room is left for an extra island."),
    EventKind("first_order", "R1.7", "the first round's bidding order, drawn",
              (_ROUND, Field("order", "seats", "the seats in bidding order")),
              lambda ev, who: "Round 1's bidding order: "
              + ", ".join(who(s) for s in ev["order"]) + "."),
    EventKind("decision", "section D", "a seat's decision: the options it was offered, in "
              "order, and the one it took",
              (_ROUND, seat_field("the seat deciding"),
               Field("kind", "kind", "the decision's kind (the strategy method asked)"),
               Field("action", "int", "the index of the option taken"),
               Field("choice", "option", "the option taken, as the book's section D writes it"),
               Field("legal", "options", "every option offered, in order")),
              _decision),
    EventKind("founding_skipped", "R4.3", "a seat has nowhere to found a hut", (_ROUND,
              seat_field()), lambda ev, who: f"  {who(ev['seat'])} has nowhere to found."),
    EventKind("hut", "R4, R8.1", "a hut is built",
              (_ROUND, seat_field(), _HEX, _ISLAND,
               Field("hut", "str", "its kind: boat, temple or meeting")),
              lambda ev, who: f"  {who(ev['seat'])} builds a {ev['hut']} hut at "
              f"{hexes(ev['hex'])} (island {hexes(ev['island'])})."),
    EventKind("no_cult_tile", "R1.3, R5", "no cult tile is left for the god", (_ROUND,
              seat_field("the lowest bidder")),
              lambda ev, who: "  No cult tile is left: the god stays."),
    EventKind("god_stuck", "R5.5", "the god cannot move", (_ROUND, seat_field("the lowest "
              "bidder")), lambda ev, who: "  The god has nowhere to go."),
    EventKind("god", "R5", "the lowest bidder moves the god: the island grows by a cult site",
              (_ROUND, seat_field("the lowest bidder"), _HEX, _ISLAND),
              lambda ev, who: f"  {who(ev['seat'])} moves the god to {hexes(ev['hex'])} "
              f"(island {hexes(ev['island'])})."),
    EventKind("auto_pass", "R6.7", "a seat that can only pass passes unasked", (_ROUND,
              seat_field()), lambda ev, who: None),
    EventKind("sacrifice", "R6.5", "a seat passes before acting this round: a sacrifice",
              (_ROUND, seat_field()),
              lambda ev, who: f"  {who(ev['seat'])} sacrifices."),
    EventKind("action", "R6, R8", "a seat pays for an action and takes it",
              (_ROUND, seat_field(), Field("action", "str", "build, fish, deliver, move, "
                                           "increase or celebrate")),
              lambda ev, who: f"  {who(ev['seat'])}: {ev['action']}."),
    EventKind("step", "R7, R8", "a boat moves (a step of an action)",
              (_ROUND, seat_field(), Field("boat", "hex", "where the boat stood"),
               Field("end", "hex", "where it ends")),
              lambda ev, who: f"    boat {hexes(ev['boat'])} -> {hexes(ev['end'])}"),
    EventKind("fished", "R8.2, O2", "a catch: each die's outcome and the fish caught",
              (_ROUND, seat_field(), _ISLAND,
               Field("rolls", "ints", "each die, 1 a fish (empty: no dice)"),
               Field("caught", "int", "the fish caught")),
              lambda ev, who: f"    catches {ev['caught']} fish"
              + (f" (dice {ev['rolls']})." if ev["rolls"] else ".")),
    EventKind("delivered", "R8.3", "fish delivered to huts, each paid for by the hut's owner",
              (_ROUND, seat_field(), Field("plan", "plan", "each hut's hex and the fish "
                                           "delivered to it")),
              lambda ev, who: f"    delivers {sum(c for _, c in ev['plan'])} fish."),
    EventKind("sunk", "R8.4", "piracy: a boat sinks a rival's",
              (_ROUND, seat_field("the pirate"), Field("victim", "seat", "the boat's owner"),
               _HEX, Field("glory", "int", "glory lost by the payer (O4)")),
              lambda ev, who: f"    sinks {who(ev['victim'])}'s boat at {hexes(ev['hex'])} "
              f"({ev['glory']} glory)."),
    EventKind("celebrated", "R8.6", "a feast: the fish on an island's huts are eaten",
              (_ROUND, seat_field(), _ISLAND, Field("fish", "int", "the fish eaten")),
              lambda ev, who: f"    a feast on island {hexes(ev['island'])}: {ev['fish']} "
              "fish eaten."),
    EventKind("decay", "R9", "the round ends: fish and shells lose a point", (_ROUND,),
              lambda ev, who: "  Decay."),
    EventKind("island_scored", "R10.3, R10.4", "an island is scored at the end",
              (_ROUND, _ISLAND, Field("presence", "ints", "each seat's presence"),
               Field("bids", "ints", "each seat's influence bid"),
               Field("asked", "seats", "the seats asked to bid"),
               Field("winner", "seat", "the seat that gains the cult sites, or null")),
              lambda ev, who: f"  presence {ev['presence']}, bids {ev['bids']}: "
              + ("nobody gains its cult sites" if ev["winner"] is None
                 else f"{who(ev['winner'])} gains its cult sites") + "."),
    EventKind("end", "R10.5", "the game ends",
              (_ROUND, Field("glory", "ints", "each seat's glory"),
               Field("winners", "seats", "the seats with the most glory after the ties")),
              lambda ev, who: f"Glory {ev['glory']}; winner(s): "
              + ", ".join(who(s) for s in ev["winners"]) + "."),
)  # fmt: skip

#: Every event kind, by name.
EVENTS: dict[str, EventKind] = {k.name: k for k in _KINDS}


def seat_name(seat: int) -> str:
    """A seat's name in the text ("P1")."""
    return f"P{seat}"


def narrate(events: Sequence[Event], who: Who = seat_name) -> list[str]:
    """The log in words, one line per event told, a heading as each round begins and one
    before the final scoring."""
    out: list[str] = []
    shown = 0
    for ev in events:
        text = EVENTS[ev["e"]].text(ev, who)
        if text is None:
            continue
        r = ev.get("round", 0)
        if r != shown and r >= 1:
            final = ev["e"] in FINAL or ev.get("kind") in FINAL
            out.append("Final scoring:" if final else f"Round {r}:")
            shown = r
        out.append(text)
    return out


#: The events and decisions of the final scoring (R10): the heading before them.
FINAL = frozenset({"island_scored", "end", "score_island", "island_bid"})


def schema_markdown() -> str:
    """Kaivai's event log as Markdown: every event kind, its rule, meaning and fields."""
    out = [
        "# Kaivai's event log",
        "",
        "A game's log (`GameRecord.events`, `moaisim play --game kaivai --json`) is a list of",
        "events in the order they happen. Each event is an object whose `e` names its kind; the",
        "other keys are the kind's fields, listed below. The JSON log begins with a header line",
        '`{"e": "game", "game_name": "kaivai", ...}` that names the rules (options, rule',
        "parameters, the component set's name and digest, the rules digest), the seed, the game",
        f"number and the strategies; its `schema` is this page's version, {SCHEMA_VERSION}.",
        "",
        "The log is the referee's record, not what a seat sees: every chance outcome and every",
        "decision with the options offered in order, the secret bids included, so that another",
        "engine can play the game again and check it event by event (`moaisim replay`).",
        "",
        "Codes (docs/kaivai-rules.md, R0 and section D): seats are 0-based; a hex is [q, r] in",
        "axial coordinates; an island is named by its first cult site; an option is written as",
        "section D writes it (a bid, a hex, [hex, hut kind], an action's name, [boat hex, end",
        "hex], a delivery plan of [hut hex, fish]).",
        "This page is written by `python -m moaisim.games.kaivai.engine.events`.",
        "",
    ]
    return "\n".join(out + kinds_markdown(_KINDS))


if __name__ == "__main__":
    print(schema_markdown(), end="")
