"""`GameRecord`: one played game's event log, readable text and per-seat results; and
`replay`, which plays a log (`moaisim play --json`) again under the rules its header names."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim import game_logs
from moaisim.errors import UserError
from moaisim.games.moai.engine.decisions import Kind
from moaisim.games.moai.engine.events import EVENTS, SCHEMA_VERSION, Event, Text
from moaisim.games.moai.rules import Rules
from moaisim.games.moai.rules.components import digest_of, load_components
from moaisim.games.moai.rules.model import contents, default_components
from moaisim.games.moai.rules.parameters import values as parameter_values


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
        """The event log, one JSON object per line, after a header line describing the game:
        everything `replay` needs to play it again (the rule options, the rule parameters,
        the component set's name and digest; the rules digest covers them all)."""
        header = {
            "e": "game",
            "schema": SCHEMA_VERSION,
            "game_name": self.rules.game,  # which game's log (moaisim.games)
            "seed": self.seed,
            "game": self.game,
            "players": self.rules.players,
            "variant": self.rules.variant,
            "options": self.rules.options(),
            "params": parameter_values(self.rules.components),
            "components": components_id(self.rules),
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


def components_id(rules: Rules) -> dict[str, str]:
    """A component set's name and the digest of what it is made of beyond the rule
    parameters (`moaisim.games.moai.rules.model.contents`): the file a log's replay needs."""

    return {"name": rules.components.name, "digest": digest_of(contents(rules.components))}


#: What a log's header must hold for `replay`.
HEADER_KEYS = ("seed", "game", "players", "variant", "options", "params", "components",
               "strategies", "rules_digest")  # fmt: skip
NOT_A_LOG = "not a game log of moaisim play --json"


def read_log(log: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A log's header and events, checked for shape."""
    try:
        lines = [json.loads(x) for x in log.splitlines() if x.strip()]
    except json.JSONDecodeError:
        raise UserError(f"{NOT_A_LOG} (a line is not JSON)") from None
    if not lines or not all(isinstance(x, dict) for x in lines) or lines[0].get("e") != "game":
        raise UserError(f'{NOT_A_LOG} (its first line must be the header {{"e": "game", ...}})')
    header, *events = lines
    if header.get("schema") != SCHEMA_VERSION:
        raise UserError(f"the log has event schema {header.get('schema')!r}; this moaisim "
                        f"replays schema {SCHEMA_VERSION}")  # fmt: skip
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise UserError(
            f"the log's header does not record its {missing[0]} (written by an older moaisim): "
            "play the game again with moaisim play --json"
        )
    seed, game = header["seed"], header["game"]
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (seed, game)):
        raise UserError(f"{NOT_A_LOG}: its header's seed and game must be whole numbers")
    return header, events


def logged_rules(header: dict[str, Any], components: str | Path | None) -> Rules:
    """The rules a log's header names, checked against its rules digest; the component set
    must be the one its digest names (the default one, or the file given):
    `game_logs.logged_rules` with this game's rules and components."""
    return game_logs.logged_rules(header, components, not_a_log=NOT_A_LOG, make=Rules.make,
                                  load=load_components, default=default_components,
                                  digest=lambda c: digest_of(contents(c)))  # fmt: skip


def compare_events(logged: list[dict[str, Any]], made: list[Event], partial: bool = False) -> None:
    """The events the game made must be the log's, one by one (`partial`: the game stopped
    early, so only those it made are compared)."""
    for k, (a, b) in enumerate(zip(logged, made, strict=False)):
        if json.loads(json.dumps(b)) != a:
            raise UserError(f"the log does not replay: event {k + 1} ({a.get('e')}) is not "
                            "the one the game makes")  # fmt: skip
    if not partial and len(logged) != len(made):
        raise UserError(f"the log does not replay: it has {len(logged)} events, the game "
                        f"makes {len(made)}")  # fmt: skip


#: How the log writes what it shows, printed under its header.
LEGEND = (
    "notation: an epoch card 'fire 3/2*' is its type, its draw number (Rapa Nui cards taken, "
    "R7.1) / its hut number (pawns that rest, R7.2), * a palm; 'x4' four times; 'P1:greedy' "
    "seat 1, playing greedy; '9 m' a Moai of 9 metres"
)


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
        "seats: " + ", ".join(names) + " (seat 0, P0, holds the bird-man token before round 1)",
        LEGEND,
    ]
    text = Text(who=lambda seat: names[seat], place=rules.layout.name)
    if brief:
        out += round_lines(rec.events, lambda seat: f"P{seat}")
    else:
        for ev in rec.events:
            line = EVENTS[ev["e"]].text(ev, text)
            if line is not None:
                out.append(line)
    c = rules.components
    height = "Moai height" if c.moai_points == 1 else f"{c.moai_points} x Moai height"
    out.append(f"\nFinal scores ({height} + living pawns + {c.wood_points} x wood):")
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


class Told:
    """A seat that answers with decisions it is told, in order, reading nothing of the game:
    one seat's logged decisions (`replay`) or the fast machine's (`Machine.narrate`). A
    decision of another kind than the next one told, or one past the last, is refused."""

    name = "replay"
    reads: dict[str, tuple[str, ...]] = {k.value: () for k in Kind}

    def __init__(self, decisions: list[dict[str, Any]]) -> None:
        self.decisions = list(decisions)
        for k in Kind:
            setattr(self, k.value, self.next)

    def next(self, view: Any) -> np.ndarray:
        """The next decision told, if it is of the kind asked."""
        if not self.decisions:
            raise ValueError("the log has no more decisions for this seat")
        if self.decisions[0].get("kind") != view.kind.value:
            raise ValueError(f"the log's next decision is a {self.decisions[0].get('kind')!r}")
        return np.asarray([self.decisions.pop(0)["action"]])
