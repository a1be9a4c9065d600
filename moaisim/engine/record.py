"""`GameRecord`: one played game's event log, readable text and per-seat results."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from moaisim.engine.events import EVENTS, SCHEMA_VERSION, Event, Text
from moaisim.rules import Rules


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
            "schema": SCHEMA_VERSION,
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

    def summary(self) -> str:
        """A short account: one line per round (the bird-man, the cards taken, statues,
        raids, starved pawns, births, boats) and the final score table."""
        return render(self, brief=True)


def render(rec: GameRecord, brief: bool = False) -> str:
    """The readable log: a header, one line per event kind that has a text (brief: one line
    per round, `round_lines`), the scores."""
    rules = rec.rules
    names = [f"P{s}:{n}" for s, n in enumerate(rec.strategies)]
    out: list[str] = [
        f"Moai - {rules.players} players, variant {rules.variant}, "
        f"seed {rec.seed}, game {rec.game}",
        "options: " + ", ".join(f"{k}={v}" for k, v in rules.options().items()),
        f"set-up: {rules.setup}",
        "seats: " + ", ".join(names),
    ]
    text = Text(who=lambda seat: names[seat], place=rules.layout.name)
    if brief:
        out += round_lines(rec.events, lambda seat: f"P{seat}")
    else:
        for ev in rec.events:
            line = EVENTS[ev["e"]].text(ev, text)
            if line is not None:
                out.append(line)
    points = rules.components.wood_points
    out.append(f"\nFinal scores (Moai height + living pawns + {points} x wood):")
    df = rec.result
    table = df[["seat", "strategy", "score", "moai_height", "moai_count", "pawns", "wood", "rank"]]
    out.append(table.to_string(index=False))
    winners = ", ".join(names[int(s)] for s in df.loc[df["win"], "seat"])
    out.append(f"Winner: {winners} after {int(df['rounds'].iloc[0])} rounds")
    return "\n".join(out)


def round_lines(events: list[Event], who: Callable[[int], str]) -> list[str]:
    """One line per round: who became bird-man, the epoch cards taken, and what the round
    brought each clan (statues finished, raids, pawns starved, births, boats built)."""
    out: list[str] = []
    line: list[str] = []
    tally: dict[str, dict[int, int]] = {}

    def flush() -> None:
        if not line:
            return
        for label, counts in tally.items():
            if counts:
                line.append(f"{label} " + ", ".join(
                    f"{who(s)}" + (f" x{n}" if n > 1 else "") for s, n in sorted(counts.items())
                ))  # fmt: skip
        out.append(line[0] + ": " + "; ".join(line[1:]))
        line.clear()
        tally.clear()

    for ev in events:
        kind = ev["e"]
        if kind == "round":
            flush()
            line.append(f"Round {ev['round']}")
        elif kind == "hill":
            line.append(f"bird-man {who(ev['birdman'])}")
        elif kind == "pick":
            line.append(f"{who(ev['seat'])} takes {ev['card_name']}")
        elif kind == "moai":
            line.append(f"{who(ev['seat'])} carves {ev['tile_height']} m")
        elif kind in ("raid", "starve", "birth", "boat"):
            label = {"raid": "raids", "starve": "starved", "birth": "births", "boat": "boats"}
            counts = tally.setdefault(label[kind], {})
            counts[ev["seat"]] = counts.get(ev["seat"], 0) + 1
    flush()
    return out
