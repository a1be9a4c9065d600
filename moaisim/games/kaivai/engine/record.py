"""`GameRecord`: one played game of Kaivai as its event log (JSON lines behind a header that
names its rules), a readable text for a game designer and its per-seat results; and what
`replay` (strategies/kaivai/replay.py) needs to play a log again: `read_log`, `logged_rules`,
`compare_events` and `Told`, a seat that answers with logged decisions."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from moaisim import game_logs
from moaisim.errors import UserError
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
    """A log's header and events, checked for shape: the header first, of a Kaivai game and
    of this schema, with everything a replay needs."""
    lines: list[Any] = []
    for number, text in enumerate(log.splitlines(), start=1):
        if not text.strip():
            continue
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            raise UserError(f"{NOT_A_LOG} (line {number} is not JSON)") from None
    if not lines or not all(isinstance(x, dict) for x in lines) or lines[0].get("e") != "game":
        raise UserError(f'{NOT_A_LOG} (its first line must be the header {{"e": "game", ...}})')
    header, *events = lines
    name = header.get("game_name")
    if name != GAME_NAME:
        raise UserError(f"the log is a game of {name!r}, not of {GAME_NAME}: replay it as such")
    if header.get("schema") != SCHEMA_VERSION:
        raise UserError(f"the log has event schema {header.get('schema')!r}; this moaisim "
                        f"replays {GAME_NAME} logs of schema {SCHEMA_VERSION}")  # fmt: skip
    missing = [k for k in HEADER_KEYS if k not in header]
    if missing:
        raise UserError(f"{NOT_A_LOG}: its header does not record its {missing[0]}")
    seed, game = header["seed"], header["game"]
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (seed, game)):
        raise UserError(f"{NOT_A_LOG}: its header's seed and game must be whole numbers")
    if not all("e" in x for x in events):
        raise UserError(f"{NOT_A_LOG}: an event has no kind (its key 'e')")
    return header, events


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


def compare_events(logged: list[dict[str, Any]], made: list[Event], partial: bool = False) -> None:
    """The events the game made must be the log's, one by one (`partial`: the game stopped
    early, so only those it made are compared); the first that differs is named."""
    for k, (a, b) in enumerate(zip(logged, made, strict=False)):
        b = json.loads(json.dumps(b))
        if b == a:
            continue
        where = f"the log does not replay: event {k + 1} ({a.get('e')}) is not the game's"
        if a.get("e") != b["e"]:
            raise UserError(f"{where}: the game makes a {b['e']!r} event there")
        key = next(x for x in [*b, *a] if a.get(x) != b.get(x))  # the first, in field order
        raise UserError(f"{where}: its {key} is {str(a.get(key))[:80]} in the log, "
                        f"{str(b.get(key))[:80]} in the game")  # fmt: skip
    if not partial and len(logged) != len(made):
        raise UserError(f"the log does not replay: it has {len(logged)} events, the game "
                        f"makes {len(made)}")  # fmt: skip


class Told:
    """A seat that answers with decisions it is told, in order, reading nothing of the game
    (one seat's logged decisions, for `replay`). A decision of another kind than the next
    one told, or one past the last, is refused (the engine reports it as the seat's
    failure)."""

    name = "replay"

    def __init__(self, decisions: list[dict[str, Any]]) -> None:
        self.decisions = list(decisions)
        for k in Kind:
            setattr(self, k.value, self.next)

    def compiled(self, rules: object) -> None:
        """No compiled form: the machine must ask this seat through views."""
        return None

    def next(self, view: Any) -> np.ndarray:
        """The next decision told, if it is of the kind asked."""
        if len(view) != 1:
            raise ValueError("a told seat answers views of one game")
        if not self.decisions:
            raise ValueError("the log has no more decisions for this seat (is it cut short?)")
        kind = self.decisions[0].get("kind")
        if kind != view.kind.value:
            raise ValueError(f"the log's next decision of this seat is a {kind!r}")
        action = self.decisions.pop(0)["action"]
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"the log's decision has the action {action!r}, not a number")
        return np.asarray([action], dtype=np.int64)


__all__ = ["NOT_A_LOG", "GameRecord", "Told", "compare_events", "components_id", "logged_rules",
           "read_log", "render"]  # fmt: skip
