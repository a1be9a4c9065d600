"""`GameRecord`: one played game of Kaivai as its event log (JSON lines behind a header that
names its rules), a readable text for a game designer and its per-seat results; and what
`replay` (strategies/kaivai/replay.py) needs to play a log again: `read_log`, `logged_rules`,
`compare_events` and `Told`, a seat that answers with logged decisions."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from moaisim import game_logs
from moaisim.games.kaivai.engine.decisions import Kind
from moaisim.games.kaivai.engine.events import SCHEMA_VERSION, Event, narrate
from moaisim.games.kaivai.rules.components import contents, digest_of, load_components
from moaisim.games.kaivai.rules.model import Rules, default_components

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
        options and parameters, the component set's name and digest, the rules digest), the
        seed, the game number, the strategies' names and the board (its radius and printed
        cult sites), for an engine that reads no component file."""
        c = self.rules.components
        return {
            "e": "game",
            "schema": SCHEMA_VERSION,
            "game_name": GAME_NAME,
            "seed": self.seed,
            "game": self.game,
            "players": self.rules.players,
            "variant": self.rules.variant,
            "options": self.rules.options(),
            "params": self.rules.params(),
            "components": components_id(self.rules),
            "board": {"radius": c.radius, "printed_cult_sites": [list(h) for h in
                                                                 c.printed_cult_sites]},
            "strategies": list(self.strategies),
            "rules_digest": self.rules.digest(),
        }  # fmt: skip

    def jsonl(self) -> str:
        """The header line and the event log, one JSON object per line."""
        lines = [self.header(), *self.events]
        return "\n".join(json.dumps(e, separators=(",", ":")) for e in lines) + "\n"

    def text(self) -> str:
        """A readable log: the set-up, each round's bids and actions, the final scoring and
        the score table."""
        return render(self)

    def summary(self) -> str:
        """A short account: the set-up and the score table."""
        return render(self, brief=True)


def components_id(rules: Rules) -> dict[str, str]:
    """A component set's name and the digest of its figures beyond the rule parameters."""
    return {"name": rules.components.name, "digest": digest_of(contents(rules.components))}


#: The score table's columns and their headings (R10: glory and its parts).
SCORE_TABLE = {
    "seat": "seat", "strategy": "strategy", "score": "glory", "feast_points": "feasts",
    "hut_points": "huts", "site_points": "sites", "piracy_points": "piracy",
    "money": "money", "fish": "fish", "boats_on_board": "boats", "huts": "huts built",
    "rank": "rank",
}  # fmt: skip


def render(rec: GameRecord, brief: bool = False) -> str:
    """The readable log: a header naming the rules and the seats, the narration (not when
    brief), the score table and the winners."""
    rules = rec.rules

    def who(seat: int) -> str:
        return f"P{seat}"

    seats = ", ".join(f"P{q} {name}" for q, name in enumerate(rec.strategies))
    out = [
        f"Kaivai - {rules.players} players, seed {rec.seed}, game {rec.game}",
        f"rules: {rules.setup}; components: {rules.components.name}",
        "options: " + ", ".join(f"{k}={v}" for k, v in rules.options().items()),
        f"seats: {seats}",
        "notation: 'P1' is seat 1; a hex is (q, r) in axial coordinates; an island is named "
        "by its first cult site",
        "",
    ]
    if not brief:
        out += narrate(rec.events, who)
    out.append("\nGlory (R10): feasts in play (R8.6.2) + 2 a hut on the board at the end + the "
               "cult sites of the islands won - glory paid for sinkings (R8.4.3)")  # fmt: skip
    df = rec.result
    table = df[list(SCORE_TABLE)].copy()
    table["seat"] = [who(int(q)) for q in table["seat"]]
    table.columns = list(SCORE_TABLE.values())
    out.append(table.to_string(index=False))
    winners = ", ".join(f"{who(int(q))} {df['strategy'].iloc[int(q)]}"
                        for q in df.loc[df["win"], "seat"])  # fmt: skip
    out.append(f"Winner: {winners} after {int(df['rounds'].iloc[0])} rounds")
    return "\n".join(out)


# --- reading a log back -----------------------------------------------------------------------
#: What a log's header must hold for `replay`.
HEADER_KEYS = ("seed", "game", "players", "variant", "options", "params", "components",
               "strategies", "rules_digest")  # fmt: skip
NOT_A_LOG = "not a kaivai game log of moaisim play --json"


def read_log(log: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A log's header and events, checked for shape (`game_logs.read_log`): the header
    first, of this game and schema, with everything a replay needs."""
    return game_logs.read_log(log, GAME_NAME, SCHEMA_VERSION, HEADER_KEYS, NOT_A_LOG)


def logged_rules(header: dict[str, Any], components: str | Path | None) -> Rules:
    """The rules a log's header names, checked against its rules digest; the component set
    must be the one its digest names (`game_logs.logged_rules`). The header's `rounds` is
    the edition's, so it is given back only where it differs from the component set's."""
    params = dict(header["params"]) if isinstance(header["params"], dict) else header["params"]
    if isinstance(params, dict) and isinstance(header.get("options"), dict):
        comps = load_components(components) if components is not None else default_components()
        second = header["options"].get("edition") == "second"
        shipped = int(comps.second.get("rounds", 8)) if second else comps.rounds
        if params.get("rounds") == shipped:
            params.pop("rounds")
    return game_logs.logged_rules({**header, "params": params}, components,
                                  not_a_log=NOT_A_LOG, make=Rules.make, load=load_components,
                                  default=default_components,
                                  digest=lambda c: digest_of(contents(c)))  # fmt: skip


#: The events the game made must be the log's, one by one (`game_logs.compare_events`).
compare_events = game_logs.compare_events


class Told(game_logs.Told):
    """A seat that answers with one seat's logged decisions (`game_logs.Told`)."""

    kinds = Kind


__all__ = ["NOT_A_LOG", "GameRecord", "Told", "compare_events", "components_id", "logged_rules",
           "read_log", "render"]  # fmt: skip
