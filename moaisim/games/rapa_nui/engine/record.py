"""`GameRecord`: one played game of Rapa Nui, as its event log (JSON lines behind a header that
names its rules), a readable text for a game designer and its per-seat results; and what
`replay` (strategies/rapa_nui/replay.py) needs to play a log again: `read_log`,
`logged_rules`, `compare_events` and `Told`, a seat that answers with logged decisions."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from moaisim import game_logs
from moaisim.games.rapa_nui.engine.decisions import Kind
from moaisim.games.rapa_nui.engine.events import SCHEMA_VERSION, Event, narrate, summary_lines
from moaisim.games.rapa_nui.rules.components import digest_of, load_components
from moaisim.games.rapa_nui.rules.model import Rules, contents, default_components

#: The registry's name of the game, as a log's header names it.
GAME_NAME = Rules.game


@dataclass
class GameRecord:
    """A finished game: `events` (its ordered log), `result` (the per-seat DataFrame),
    `text()`, `summary()` and `jsonl()`."""

    rules: Rules
    seed: int
    game: int
    strategies: list[str]
    events: list[Event]
    result: pd.DataFrame = field(repr=False)

    def header(self) -> dict[str, Any]:
        """The log's first line: everything `replay` needs to play the game again (the rule
        options, the rule parameters, the component set's name and digest; the rules digest
        covers them all), the seed, the game number and the strategies' names."""
        return {
            "e": "game",
            "schema": SCHEMA_VERSION,
            "game_name": GAME_NAME,  # which game's log (moaisim.games, `log_game`)
            "seed": self.seed,
            "game": self.game,
            "players": self.rules.players,
            "variant": self.rules.variant,
            "options": self.rules.options(),
            "params": self.rules.params(),
            "components": components_id(self.rules),
            "strategies": list(self.strategies),
            "rules_digest": self.rules.digest(),
        }

    def jsonl(self) -> str:
        """The header line and the event log, one JSON object per line."""
        lines = [self.header(), *self.events]
        return "\n".join(json.dumps(e, separators=(",", ":")) for e in lines) + "\n"

    def text(self) -> str:
        """A readable log: the set-up, each turn in a few lines, the final score table."""
        return render(self)

    def summary(self) -> str:
        """A short account: one line per round of turns and the final score table."""
        return render(self, brief=True)


def components_id(rules: Rules) -> dict[str, str]:
    """A component set's name and the digest of what it is made of beyond the rule
    parameters (`rules.model.contents`): the file a log's replay needs."""
    return {"name": rules.components.name, "digest": digest_of(contents(rules.components))}


# --- the text ---------------------------------------------------------------------------------
#: How the text writes what it shows, printed under its header.
LEGEND = (
    "notation: 'P1' is seat 1 (seat 0 plays first); columns are numbered 1 to 4; a column is "
    "listed from its bottom card, the one that can be taken, up; H&G a hunter-gatherer"
)
#: The score table's columns and their headings (the score's parts, R9.1, then what is left).
SCORE_TABLE = {
    "seat": "seat", "strategy": "strategy", "score": "score", "glory": "glory",
    "moai_points": "Moai pts", "wood_points": "wood pts", "stock_points": "stock pts",
    "moai": "Moai", "wood": "wood", "stock": "stock cards", "rank": "rank",
}  # fmt: skip


def render(rec: GameRecord, brief: bool = False) -> str:
    """The readable log: a header naming the rules and the seats, the narration (brief: one
    line per round), the final score table with the score's parts and the winners."""
    rules, c = rec.rules, rec.rules.components

    def who(seat: int) -> str:
        return f"P{seat}"

    seats = ", ".join(f"P{q} {name}" for q, name in enumerate(rec.strategies))
    out = [
        f"Rapa Nui - {rules.players} players, seed {rec.seed}, game {rec.game}",
        f"rules: {rules.setup}; components: {c.name}",
        "options: " + ", ".join(f"{k}={v}" for k, v in rules.options().items()),
        f"seats: {seats}",
        LEGEND,
        "",
    ]
    if brief:
        out[-2] += ("; 'P1: buys fish, a priest -> Moai': seat 1 bought a fish sacrifice card, "
                    "played a priest and uncovered a Moai")  # fmt: skip
        out += summary_lines(rec.events, rules.players, who)
    else:
        out.append(narrate(rec.events, who))
    out.append(
        f"\nFinal scores (R9.1): glory + Moai pts ({c.moai_glory} per Moai) + wood pts (1 per "
        f"{c.wood_per_glory} wood left) + stock pts (the stock's cards by their type's value)"
    )
    df = rec.result
    table = df[list(SCORE_TABLE)].copy()
    table["seat"] = [who(int(q)) for q in table["seat"]]
    table.columns = list(SCORE_TABLE.values())
    out.append(table.to_string(index=False))
    winners = ", ".join(f"{who(int(q))} {df['strategy'].iloc[int(q)]}"
                        for q in df.loc[df["win"], "seat"])  # fmt: skip
    out.append(f"Winner: {winners} after {int(df['game_turns'].iloc[0])} turns")
    return "\n".join(out)


# --- reading a log back -----------------------------------------------------------------------
#: What a log's header must hold for `replay`.
HEADER_KEYS = ("seed", "game", "players", "variant", "options", "params", "components",
               "strategies", "rules_digest")  # fmt: skip
NOT_A_LOG = "not a rapa-nui game log of moaisim play --json"


def read_log(log: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A log's header and events, checked for shape (`game_logs.read_log`): the header
    first, of this game and schema, with everything a replay needs."""
    return game_logs.read_log(log, GAME_NAME, SCHEMA_VERSION, HEADER_KEYS, NOT_A_LOG)


def logged_rules(header: dict[str, Any], components: str | Path | None) -> Rules:
    """The rules a log's header names, checked against its rules digest; the component set
    must be the one its digest names (the default one, or the file given):
    `game_logs.logged_rules` with this game's rules and components."""
    return game_logs.logged_rules(header, components, not_a_log=NOT_A_LOG, make=Rules.make,
                                  load=load_components, default=default_components,
                                  digest=lambda c: digest_of(contents(c)))  # fmt: skip


#: The events the game made must be the log's, one by one (`game_logs.compare_events`).
compare_events = game_logs.compare_events


class Told(game_logs.Told):
    """A seat that answers with one seat's logged decisions (`game_logs.Told`)."""

    kinds = Kind


__all__ = [
    "NOT_A_LOG", "GameRecord", "Told", "compare_events", "components_id", "logged_rules",
    "read_log", "render",
]  # fmt: skip
