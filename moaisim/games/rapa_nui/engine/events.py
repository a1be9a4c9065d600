"""Rapa Nui's event log: every event kind defined once, with its fields, their meaning and how
it reads in words (docs/rapa-nui-rules.md).

The reference engine logs a game as a list of events, dicts whose "e" names the kind and whose
other keys are the kind's fields (`EVENTS`). The log is the referee's record, not a seat's
view: it holds the deal's whole order and every decision with its legal actions, so that an
independent engine can play the game again (`replay`). `narrate` turns it into text for a
game designer, a few lines per turn in the rules book's words; `schema_markdown` documents it
(`python -m moaisim.games.rapa_nui.engine.events`). The schema is versioned
(`SCHEMA_VERSION`, in the JSON header of `moaisim play --json`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from moaisim.event_schema import Field, kinds_markdown, seat_field
from moaisim.games.rapa_nui.rules.codes import FOODS, HG, KINDS

Event = dict[str, Any]
#: Version of the event log's schema: bump it when a kind or a field changes.
SCHEMA_VERSION = 1

#: How a seat is named in the text ("P1").
Who = Callable[[int], str]


class EventKind(NamedTuple):
    """One event kind: its name, the rules it records, its meaning, its fields, where its text
    goes in a turn (`slot`: "own" lines, the turn's "head" line, its "sacrifice" round line,
    its "evaluation" line; "start" begins a turn) and its text (None: told by another)."""

    name: str
    rule: str
    meaning: str
    fields: tuple[Field, ...]
    slot: str
    text: Callable[[Event, Who], str | None]


# --- words ------------------------------------------------------------------------------------
def card_name(kind: int, count: int = 1) -> str:
    """A card kind in words ('a priest', 'an H&G'... '2 fish H&G', '3 priests')."""
    name = KINDS[kind]
    if count != 1:
        return f"{count} {name}" if kind >= HG or name == "Moai" else f"{count} {name}s"
    return f"a {name}"


def counted(counts: Sequence[int]) -> str:
    """Cards counted by kind in words ('a lumberjack, 2 fish H&G'; 'no card')."""
    return ", ".join(card_name(k, n) for k, n in enumerate(counts) if n) or "no card"


def foods(counts: Sequence[int]) -> str:
    """Sacrifice cards counted by type in words ('fish, 2 grain'; 'none')."""
    parts = [FOODS[f] if n == 1 else f"{n} {FOODS[f]}" for f, n in enumerate(counts) if n]
    return ", ".join(parts) or "none"


def column_text(columns: Sequence[Sequence[int]]) -> list[str]:
    """The display, one line per column from its bottom card (the one that can be taken) up."""
    return [
        f"  column {k + 1}: " + (", ".join(KINDS[c] for c in reversed(col)) or "empty")
        for k, col in enumerate(columns)
    ]


def _deal(ev: Event, who: Who) -> str:
    out = ["The display, each column from its bottom card up:", *column_text(ev["columns"])]
    out.append(f"  draw pile: {len(ev['pile'])} cards")
    for q, (hand, wood, stock) in enumerate(zip(ev["hands"], ev["wood"], ev["stock"],
                                                strict=True)):  # fmt: skip
        out.append(f"{who(q)} starts with {wood} wood; hand: {counted(hand)}; "
                   f"sacrifice cards: {foods(stock)}")  # fmt: skip
    return "\n".join(out)


def _evaluate(ev: Event, who: Who) -> str:
    kind, leaders = ev["card"], ev["leaders"]
    if not any(ev["counts"]):
        return f"{KINDS[kind]} evaluated: nobody has one, nobody is paid"
    if len(leaders) == 1:
        bonus = f"sole majority {who(leaders[0])}"
    elif leaders:
        bonus = "majority shared by " + ", ".join(map(who, leaders))
    else:
        bonus = "no sole majority"
    paid = []
    for q, (wood, glory, cards) in enumerate(zip(ev["wood"], ev["glory"], ev["cards"],
                                                 strict=True)):  # fmt: skip
        got = [f"+{wood} wood"] * bool(wood) + [f"+{glory} glory"] * bool(glory)
        if cards:
            got.append(f"+{cards} {FOODS[kind - HG]} card" + "s" * (cards > 1))
        if got:
            paid.append(f"{who(q)} " + " ".join(got))
    text = f"{KINDS[kind]} evaluated ({bonus}): " + (", ".join(paid) or "nobody is paid")
    if kind >= HG and any(n and not got for n, got in zip(ev["counts"], ev["cards"],
                                                          strict=True)):  # fmt: skip
        text += f"; the {FOODS[kind - HG]} stack ran out (R7.8)"
    return text


def _end(ev: Event, who: Who) -> str:
    why = ("a whole round of passes (R4.5)" if ev["reason"] == "passes"
           else "the draw pile is used up (R8)")  # fmt: skip
    out = [f"\nThe game ends after {ev['turns']} turns: {why}."]
    hidden = [f"{who(q)} {foods(d)}" for q, d in enumerate(ev["down"]) if any(d)]
    if hidden:
        out.append("Face-down sacrifices turned up: " + "; ".join(hidden) + ".")
    stone = ", ".join(f"{FOODS[f]} {n}" for f, n in enumerate(ev["stone"]))
    worth = ", ".join(f"{FOODS[f]} {v}" for f, v in enumerate(ev["values"]))
    out.append(f"The stone: {stone}; so a stock card is worth {worth} (R9.2).")
    return "\n".join(out)


def _refill(ev: Event, who: Who) -> str:
    left = ev["pile"]
    tail = f"{left} left in the draw pile" if left else "the draw pile is used up"
    return f"column {ev['column'] + 1} is refilled with {len(ev['cards'])} cards ({tail})"


def _food(meaning: str) -> Field:
    return Field("food", "food", meaning)


_KINDS: tuple[EventKind, ...] = (
    EventKind(
        "deal", "R1.2-R1.6", "the game's set-up: every chance outcome (the shuffled deck, "
        "as the display and the draw pile) and what each seat starts with",
        (
            Field("columns", "cards", "each column of the display, its most covered card "
                  "first and its bottom card last (R1.3, display_deal)"),
            Field("pile", "cards", "the draw pile in its order, the next card drawn first"),
            Field("hands", "table", "each seat's start hand, cards of each kind (R1.2)"),
            Field("wood", "ints", "each seat's starting wood (R1.6)"),
            Field("stock", "table", "each seat's stock, sacrifice cards of each type (R1.4; "
                  "empty under start_sacrifice=one_choice until its start_sacrifice)"),
        ),
        "own", _deal,
    ),
    EventKind(
        "start_sacrifice", "R1.4, D0", "a seat takes its starting sacrifice card "
        "(start_sacrifice=one_choice only)",
        (seat_field(), _food("the type taken from the supply")),
        "own", lambda ev, who: f"{who(ev['seat'])} takes a {FOODS[ev['food']]} sacrifice card "
        "to start with.",
    ),
    EventKind(
        "turn", "R2", "a turn begins",
        (Field("turn", "int", "the turn number, from 1"), seat_field("the active seat")),
        "start", lambda ev, who: f"Turn {ev['turn']}, {who(ev['seat'])}:",
    ),
    EventKind(
        "decision", "section D", "a seat's decision, logged where it is made, before what it "
        "brings about; the strategy is asked only when more than one action is legal",
        (
            seat_field("the seat that decides"),
            Field("kind", "str", "the decision kind (`Kind`: start_sacrifice, buy, play, "
                  "discard, sacrifice, offering, take, moai_income, bonus; D0-D8)"),
            Field("legal", "ints", "the legal actions, in increasing order (section D's "
                  "numbering)"),
            Field("action", "int", "the action taken"),
            Field("forced", "bool", "a single action was legal: the strategy was not asked"),
        ),
        "none", lambda ev, who: None,
    ),
    EventKind(
        "buy", "R3", "the active seat buys a sacrifice card",
        (seat_field(), _food("the type bought (public, R3.3)"),
         Field("price", "int", "the wood paid (R3.2)")),
        "head", lambda ev, who: f"buys a {FOODS[ev['food']]} sacrifice card "
        + (f"({ev['price']} wood)" if ev["price"] else "(free)"),
    ),
    EventKind(
        "play", "R4.1-R4.2", "the active seat plays cards into its village",
        (
            seat_field(),
            Field("card", "card", "the kind played"),
            Field("count", "int", "how many (1, or 1 to 3 H&G of one type)"),
            Field("cost", "int", "the wood paid"),
        ),
        "head", lambda ev, who: f"plays {card_name(ev['card'], ev['count'])}"
        + (f" ({ev['cost']} wood)" if ev["cost"] else ""),
    ),
    EventKind(
        "discard", "R4.3", "a stuck seat discards a card out of the game (stuck_hand=discard)",
        (seat_field(), Field("card", "card", "the kind discarded")),
        "head", lambda ev, who: f"is stuck and discards {card_name(ev['card'])}",
    ),
    EventKind(
        "pass", "R4.3, R4.5", "a stuck seat plays nothing and takes nothing "
        "(stuck_hand=pass)",
        (seat_field(),),
        "head", lambda ev, who: "is stuck and passes",
    ),
    EventKind(
        "empty_hand", "R6.7", "the active seat has no card to play",
        (seat_field(),),
        "head", lambda ev, who: "has no card in hand",
    ),
    EventKind(
        "sacrifice", "R5.1", "a seat lays a card of its stock face up on the stone",
        (seat_field(), _food("the type sacrificed")),
        "sacrifice", lambda ev, who: f"{who(ev['seat'])} gives {FOODS[ev['food']]}",
    ),
    EventKind(
        "offering_down", "R5.2, R5.4", "the Moai's builder lays a card of its stock face down "
        "on the stone",
        (seat_field(), _food("the type laid (hidden from the other seats until R9.2; the log "
                        "is the referee's record)")),
        "sacrifice", lambda ev, who: f"{who(ev['seat'])} lays {FOODS[ev['food']]} face down",
    ),
    EventKind(
        "offering_up", "R5.2-R5.3", "the Moai's builder lays a card of the supply face up on "
        "the stone",
        (seat_field(), _food("the type taken from the supply")),
        "sacrifice", lambda ev, who: f"{who(ev['seat'])} adds {FOODS[ev['food']]} from the "
        "supply",
    ),
    EventKind(
        "take", "R6.1-R6.2", "the active seat takes a column's bottom card into its hand",
        (seat_field(), Field("column", "int", "the column, from 0"),
         Field("card", "card", "the card taken")),
        "head", lambda ev, who: f"takes {card_name(ev['card'])} from column {ev['column'] + 1}",
    ),
    EventKind(
        "refill", "R6.3", "an emptied column is dealt the next cards of the draw pile",
        (
            Field("column", "int", "the column, from 0"),
            Field("cards", "cards", "its cards, most covered first (refill_bottom)"),
            Field("pile", "int", "cards left in the draw pile"),
        ),
        "head", _refill,
    ),
    EventKind(
        "revealed", "R6.5", "the card the turn's last take uncovered, which is evaluated",
        (Field("column", "int", "its column, from 0"), Field("card", "card", "the card")),
        "head", lambda ev, who: f"uncovers {card_name(ev['card'])} in column "
        f"{ev['column'] + 1}",
    ),
    EventKind(
        "split", "R7.4, R7.6", "a seat's Moai income or Moai bonus taken as glory and wood "
        "(its decision precedes it)",
        (
            seat_field(),
            Field("kind", "str", "moai_income (D7) or bonus (D8)"),
            Field("glory", "int", "units taken as glory"),
            Field("wood", "int", "units taken as wood"),
        ),
        "evaluation", lambda ev, who: None,
    ),
    EventKind(
        "gain", "R7.5-R7.8", "a seat receives a sacrifice card of the evaluated type from "
        "the supply (cards go out in turn order from the active seat, pass by pass)",
        (seat_field(), _food("the type received")),
        "evaluation", lambda ev, who: None,
    ),
    EventKind(
        "evaluate", "R7", "the revealed card's evaluation, logged when it is over (after "
        "the splits and gains it made)",
        (
            Field("card", "card", "the kind evaluated"),
            Field("counts", "ints", "each seat's cards of that kind in its village (R7.7)"),
            Field("leaders", "seats", "the seats paid the majority bonus (R7.6, "
                  "majority_rule)"),
            Field("wood", "ints", "the wood each seat received (R7.2, R7.4, R7.6)"),
            Field("glory", "ints", "the glory each seat received (R7.3, R7.4, R7.6)"),
            Field("cards", "ints", "the sacrifice cards each seat received (R7.5, R7.6)"),
        ),
        "evaluation", _evaluate,
    ),
    EventKind(
        "end", "R8, R9", "the game is over and scored",
        (
            Field("reason", "str", "pile (the draw pile ran out, R8) or passes (R4.5)"),
            Field("turns", "int", "turns played"),
            Field("down", "table", "each seat's face-down sacrifices by type, turned up "
                  "(R9.2)"),
            Field("stone", "ints", "the stone's cards of each type, face-down ones included"),
            Field("values", "ints", "what a stock card of each type is worth (R9.2-R9.3)"),
            Field("parts", "table", "each part of the score by seat: glory, moai_points, "
                  "wood_points, stock_points (R9.1)"),
            Field("scores", "ints", "each seat's score, the sum of its parts"),
            Field("winners", "seats", "the seats that share the win (R9.4, winner_tie)"),
        ),
        "own", _end,
    ),
)  # fmt: skip

#: Every event kind, by name.
EVENTS: dict[str, EventKind] = {k.name: k for k in _KINDS}


def seat_name(seat: int) -> str:
    """A seat's name in the text when no strategies are known ('P1')."""
    return f"P{seat}"


#: How the lines of a turn begin, by slot (the first "head" line begins with the turn).
_LEAD = {"head": "    then ", "sacrifice": "    sacrifice round: ", "evaluation": "    "}
_JOIN = {"head": "; ", "sacrifice": ", ", "evaluation": "; "}


def narrate(events: Sequence[Event], who: Who = seat_name) -> str:
    """The log in words: the set-up, then each turn as a line of what the active seat did
    (bought, played, took, uncovered), a line for a sacrifice round and a line for the
    evaluation and what it paid, then the end."""
    out: list[str] = []
    start = ""  # the turn's opening ('Turn 3, P2:'), until its first line is written
    group: list[str] = []
    slot = ""

    def flush() -> None:
        nonlocal start
        if group:
            text = _JOIN[slot].join(group)
            if slot == "head" and start:
                out.append(f"{start} {text}.")
                start = ""
            else:
                out.append(_LEAD[slot] + text + ("." if slot != "evaluation" else ""))
        group.clear()

    for ev in events:
        kind = EVENTS[ev["e"]]
        text = kind.text(ev, who)
        if kind.slot == "start":
            flush()
            if start:  # a turn with nothing in its head line (no event of its own)
                out.append(start)
            start, slot = text or "", ""
            continue
        if text is None:
            continue
        if kind.slot == "own":
            flush()
            if start:
                out.append(start)
                start = ""
            out.append(text)
            slot = ""
            continue
        if kind.slot != slot:
            flush()
            slot = kind.slot
        group.append(text)
    flush()
    if start:
        out.append(start)
    return "\n".join(out)


def summary_lines(events: Sequence[Event], players: int, who: Who = seat_name) -> list[str]:
    """One line per round of turns (each seat's turn once): for each turn, what the seat
    bought and played and the card it uncovered."""
    out: list[str] = []
    turns: list[str] = []
    parts: list[str] = []
    head, revealed = "", "nothing"
    number = 0

    def close() -> None:
        if number:
            turns.append(f"{head}: {', '.join(parts) or 'nothing'} -> {revealed}")

    for ev in events:
        e = ev["e"]
        if e == "turn":
            close()
            if number and number % players == 0:
                out.append(f"Round {number // players}: " + " | ".join(turns))
                turns.clear()
            number, revealed = ev["turn"], "nothing"
            head, parts = who(ev["seat"]), []
        elif e == "buy":
            parts.append(f"buys {FOODS[ev['food']]}")
        elif e == "play":
            parts.append(card_name(ev["card"], ev["count"]))
        elif e == "discard":
            parts.append(f"discards {KINDS[ev['card']]}")
        elif e in ("pass", "empty_hand"):
            parts.append("passes" if e == "pass" else "empty hand")
        elif e == "revealed":
            revealed = KINDS[ev["card"]]
    close()
    if turns:
        rounds = -(-number // players)
        out.append(f"Round {rounds}: " + " | ".join(turns))
    return out


def schema_markdown() -> str:
    """Rapa Nui's event log as Markdown: every event kind, its rule, meaning and fields."""
    out = [
        "# Rapa Nui's event log",
        "",
        "A game's log (`GameRecord.events`, `moaisim play --game rapa-nui --json`) is a list of",
        "events in the order they happen. Each event is an object whose `e` names its kind; the",
        "other keys are the kind's fields, listed below. The JSON log begins with a header line",
        '`{"e": "game", "game_name": "rapa-nui", ...}` that names the rules (options, rule',
        "parameters, the component set's name and digest, the rules digest), the seed, the game",
        f"number and the strategies; its `schema` is this page's version, {SCHEMA_VERSION}.",
        "",
        "The log is the referee's record, not what a seat sees: the `deal` event holds the whole",
        "shuffled deck (the display and the draw pile in its order) and every decision is logged",
        "with its legal actions, the forced ones (a single legal action, the strategy not asked)",
        'marked `"forced": true`, so that another engine can play the game again and check it',
        "event by event (`moaisim replay`).",
        "",
        "Codes (docs/rapa-nui-rules.md, R0 and section D): seats are 0-based, seat 0 plays",
        "first; columns are 0-based (the text numbers them from 1); a card is its kind, 0 a",
        "lumberjack, 1 a priest, 2 a Moai, 3 + t a hunter-gatherer (H&G) of food type t; food",
        "types are 0 fish, 1 mulberry, 2 sweet potato, 3 grain; a `table` is a list by seat of",
        "counts by kind or by type (or, for `parts`, an object of lists by seat); decisions'",
        "actions are numbered as section D says.",
        "This page is written by `python -m moaisim.games.rapa_nui.engine.events`.",
        "",
    ]
    return "\n".join(out + kinds_markdown(_KINDS))


if __name__ == "__main__":
    print(schema_markdown(), end="")
