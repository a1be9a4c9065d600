"""`GameRecord`: one played game's event log, readable text and per-seat results."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from moaisim.rules import Rules
from moaisim.rules.codes import CARD_TYPES

Event = dict[str, Any]


@dataclass
class GameRecord:
    """A finished game: `events` (ordered log), `result` (per-seat DataFrame), `text()`."""

    rules: Rules
    seed: int
    game: int
    strategies: list[str]
    events: list[Event]
    result: pd.DataFrame = field(repr=False)

    def jsonl(self) -> str:
        """The event log, one JSON object per line, after a header line describing the game."""
        header = {
            "e": "game",
            "seed": self.seed,
            "game": self.game,
            "players": self.rules.players,
            "variant": self.rules.variant,
            "options": self.rules.options(),
            "strategies": self.strategies,
            "rules_digest": self.rules.digest(),
        }
        return (
            "\n".join(json.dumps(e, separators=(",", ":")) for e in [header, *self.events]) + "\n"
        )

    def text(self) -> str:
        """A readable log, round by round, and the final score table."""
        return render(self)


def _cards(types: list[int]) -> str:
    return "[" + " ".join(CARD_TYPES[t] for t in types) + "]"


def _bid_cards(counts: list[int]) -> str:
    return _cards([t for t, n in enumerate(counts) for _ in range(n)])


def render(rec: GameRecord) -> str:
    rules, lay = rec.rules, rec.rules.layout
    cards = rules.components.epoch_cards
    names = [f"P{s}:{n}" for s, n in enumerate(rec.strategies)]
    out: list[str] = [
        f"Moai - {rules.players} players, variant {rules.variant}, "
        f"seed {rec.seed}, game {rec.game}",
        "options: " + ", ".join(f"{k}={v}" for k, v in rules.options().items()),
        "seats: " + ", ".join(names),
    ]

    def who(seat: int) -> str:
        return names[seat]

    def place(loc: int) -> str:
        return lay.name(loc)

    for ev in rec.events:
        e = ev["e"]
        if e == "setup":
            out.append(f"setup: {ev['covered']} fields covered; hands dealt")
        elif e == "round":
            out.append(f"\n== Round {ev['round']} ==")
        elif e == "reveal":
            shown = ", ".join(cards[c].label() for c in ev["cards"])
            extra = " The Admiral is revealed: last round." if ev["admiral"] else ""
            if ev["last_round"] and not ev["admiral"]:
                extra = " The epoch deck is out: last round."
            wood = ", ".join(str(s + 1) for s in ev["wood"]) or "none"
            out.append(f"Bird-man: revealed {shown}; wood on forest {wood}.{extra}")
        elif e == "bid":
            out.append(f"  {who(ev['seat'])} bids {ev['total']} {_bid_cards(ev['cards'])}")
        elif e == "hill":
            order = " > ".join(who(s) for s in ev["order"])
            out.append(f"  hill order: {order}; bird-man {who(ev['birdman'])}")
        elif e == "pick":
            out.append(f"Epoch: {who(ev['seat'])} takes {cards[ev['card']].label()}")
        elif e == "no_card":
            out.append(f"Epoch: {who(ev['seat'])} gets no card")
        elif e == "erosion":
            what = "a field is covered" if ev["covered"] else "no free field or token: no effect"
            out.append(f"  erosion: {what}")
        elif e == "disaster":
            out.append(f"  {cards[ev['card']].type} hits {who(ev['target'])}")
        elif e == "burn":
            out.append(f"  {who(ev['seat'])} loses a wood")
        elif e == "lose_boat":
            out.append(f"  {who(ev['seat'])} loses boat {ev['slot'] + 1}")
        elif e == "lose_pawn":
            out.append(
                f"  {who(ev['seat'])} loses a pawn of strength {ev['strength']} ({place(ev['at'])})"
            )
        elif e == "lose_moai":
            out.append(f"  {who(ev['seat'])} loses a Moai of {ev['height']} m")
        elif e == "unpicked":
            if ev["cards"]:
                out.append("  leaves the game: " + ", ".join(cards[c].label() for c in ev["cards"]))
        elif e == "place":
            face = "up" if ev["up"] else "down"
            out.append(
                f"Work: {who(ev['seat'])} places {ev['strength']} on {place(ev['loc'])} ({face})"
            )
        elif e == "swap":
            a, b = ev["locs"]
            out.append(f"Work: {who(ev['seat'])} swaps pawns: now on {place(a)} and {place(b)}")
        elif e == "pass":
            out.append(f"Work: {who(ev['seat'])} passes")
        elif e == "forest":
            space = ev["space"] + 1
            if ev["winner"] < 0:
                out.append(f"Forest {space}: nobody, the wood returns")
            elif not ev["strengths"]:
                out.append(f"Forest {space}: {who(ev['winner'])} alone takes the wood")
            else:
                fight = ", ".join(f"{who(int(s))} {v}" for s, v in ev["strengths"].items())
                out.append(f"Forest {space}: {fight} -> {who(ev['winner'])} takes the wood")
        elif e == "moai":
            out.append(
                f"Volcano: {who(ev['seat'])} finishes a {ev['height']} m statue on space "
                f"{ev['space'] + 1}, pays a wood, takes a {ev['tile_height']} m tile"
            )
        elif e == "feed":
            short = f", {ev['deficit']} short" if ev["deficit"] else ""
            out.append(
                f"Feeding: {who(ev['seat'])} has {ev['food']} food for {ev['mouths']}{short}"
            )
        elif e == "starve":
            out.append(
                f"  {who(ev['seat'])}: a pawn of strength {ev['strength']} starves "
                f"({place(ev['at'])})"
            )
        elif e == "raid":
            out.append(
                f"  {who(ev['seat'])} raids {who(ev['victim'])}: removes a {ev['strength']} "
                f"from {place(ev['at'])}, discards {_cards(ev['cards'])}"
            )
        elif e == "draw":
            out.append(f"Review: {who(ev['seat'])} draws {len(ev['cards'])} cards")
        elif e == "reshuffle":
            out.append(f"  the discard pile is shuffled into a new deck of {len(ev['deck'])}")
        elif e == "rest":
            shown = "" if ev["shown"] else " (unrevealed)"
            out.append(f"  {who(ev['seat'])} rests a pawn from {place(ev['at'])}{shown}")
        elif e == "birth":
            out.append(
                f"  {who(ev['seat'])}: birth of a {ev['strength']} for {_cards(ev['cards'])}"
            )
        elif e == "boat":
            out.append(f"  {who(ev['seat'])} builds a boat")
    out.append("\nFinal scores (Moai height + living pawns + 2 x wood):")
    df = rec.result
    table = df[["seat", "strategy", "score", "moai_height", "moai_count", "pawns", "wood", "rank"]]
    out.append(table.to_string(index=False))
    winners = ", ".join(who(int(s)) for s in df.loc[df["win"], "seat"])
    out.append(f"Winner: {winners} after {int(df['rounds'].iloc[0])} rounds")
    return "\n".join(out)
