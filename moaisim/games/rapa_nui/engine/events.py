"""A Rapa Nui game's event log in words (`moaisim play --game rapa-nui`): one line per event,
turn by turn, in the rules book's terms (docs/rapa-nui-rules.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moaisim.games.rapa_nui.rules.codes import FOODS, KINDS


def card_name(kind: int, count: int = 1) -> str:
    """A card kind in words ('a priest', '2 fish H&G')."""
    name = KINDS[kind]
    if count != 1:
        return f"{count} {name}s" if not name.endswith("H&G") else f"{count} {name}"
    return f"an {name}" if name[0] in "AEIOU" else f"a {name}"


def column_text(columns: Sequence[Sequence[int]]) -> str:
    """The display, each column's bottom card first ('1: priest, Moai, ...')."""
    parts = []
    for k, col in enumerate(columns):
        shown = ", ".join(KINDS[c] for c in reversed(col)) or "empty"
        parts.append(f"column {k + 1} (bottom first): {shown}")
    return "; ".join(parts)


def line(event: dict[str, Any]) -> str | None:
    """One event in words (None: an event that the turn's line already says)."""
    e, seat = event["event"], event.get("seat")
    who = f"seat {seat}"
    if e == "deal":
        return f"Deal: {column_text(event['columns'])}; {event['pile']} cards in the draw pile."
    if e == "start_sacrifice":
        return f"{who} starts with a {FOODS[event['food']]} sacrifice card."
    if e == "turn":
        return f"Turn {event['turn'] + 1}: {who}."
    if e == "buy":
        return f"  {who} buys a {FOODS[event['food']]} sacrifice card for {event['price']} wood."
    if e == "play":
        cost = f" for {event['cost']} wood" if event["cost"] else ""
        return f"  {who} plays {card_name(event['card'], event['count'])}{cost}."
    if e == "discard":
        return f"  {who} cannot play and discards {card_name(event['card'])}."
    if e == "pass":
        return f"  {who} cannot play and passes."
    if e == "empty_hand":
        return f"  {who} has no card in hand."
    if e == "sacrifice":
        return f"  {who} sacrifices a {FOODS[event['food']]} card face up."
    if e == "offering_down":
        return f"  {who} sacrifices a card of its stock face down."
    if e == "offering_up":
        return f"  {who} adds a {FOODS[event['food']]} card from the supply."
    if e == "take":
        return f"  {who} takes {card_name(event['card'])} from column {event['column'] + 1}."
    if e == "refill":
        return (f"  Column {event['column'] + 1} is refilled with {len(event['cards'])} cards "
                f"({event['pile']} left in the draw pile).")  # fmt: skip
    if e == "revealed":
        return f"  Revealed: {card_name(event['card'])}."
    if e == "evaluate":
        leaders = event["leaders"]
        bonus = (f"; majority bonus: seat {', '.join(map(str, leaders))}" if leaders
                 else "; no majority bonus")  # fmt: skip
        return f"  Evaluation of {KINDS[event['card']]}s: counts {event['counts']}{bonus}."
    if e == "split":
        what = "Moai income" if event["kind"] == "moai_income" else "bonus"
        return f"    {who} takes its {what} as {event['glory']} glory and {event['wood']} wood."
    if e == "gain":
        return f"    {who} gains a {FOODS[event['food']]} sacrifice card."
    if e == "end":
        stone = ", ".join(f"{FOODS[f]} {n}" for f, n in enumerate(event["stone"]))
        return f"End. Stone: {stone}. Scores: {event['scores']}."
    return f"  {e}: {event}"


def narrate(events: Sequence[dict[str, Any]]) -> str:
    """The whole log in words, one line per event."""
    return "\n".join(x for x in map(line, events) if x is not None)
