"""A game of Kaivai as a record another engine can replay (docs/kaivai-rules.md, section D):
the set-up (players, options, parameters, seed, game number) and the event log, written as
JSON lines; `replay` plays the game again from the record alone, each seat answering from
the log and every decision's legal options checked against the record's; `narrate` tells the
game in plain lines."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Sequence
from typing import Any

from moaisim.errors import EngineError, UserError
from moaisim.games.kaivai.engine.reference import Game, View
from moaisim.games.kaivai.rules.model import OPTIONS, Rules

#: The record's first line names the game (`GAME_KEY` of every moaisim file).
GAME = "kaivai"


def plain(x: Any) -> Any:
    """Tuples as lists, all the way down: what JSON keeps of a value."""
    if isinstance(x, tuple | list):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    return x


def header(game: Game, seed: int, index: int) -> dict[str, Any]:
    r = game.rules
    return {"game": GAME, "players": r.players, "seed": seed, "index": index,
            "options": {k: getattr(r, k) for k in OPTIONS}, "params": dict(r.params)}  # fmt: skip


def to_jsonl(game: Game, seed: int, index: int = 0) -> str:
    """The record: the header line, then one line per event."""
    lines = [json.dumps(header(game, seed, index))]
    lines += [json.dumps(plain(e)) for e in game.events]
    return "\n".join(lines) + "\n"


def read_jsonl(text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the events of a record; a record of another game is one line of error."""
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not rows or rows[0].get("game") != GAME:
        got = rows[0].get("game") if rows else None
        raise UserError(f"not a Kaivai game record (its game: {got!r})")
    return rows[0], rows[1:]


class ReplayError(EngineError):
    """A record the game does not follow: a decision it does not hold, or other options."""


class FromLog:
    """A seat that answers from a record: its decisions in order, its island bids from the
    reveals; each offered option list must be the record's."""

    def __init__(self, seat: int, events: list[dict[str, Any]]) -> None:
        self.seat = seat
        self.decisions = deque(e for e in events
                               if e["kind"] == "decision" and e["seat"] == seat)  # fmt: skip
        self.bids = deque(e["bids"][seat] for e in events if e["kind"] == "island_scored"
                          and seat in e.get("asked", []))  # fmt: skip

    def choose(self, view: View, kind: str, options: Sequence[Any]) -> int:
        offered = plain(list(options))
        if kind == "island_bid":
            if not self.bids:
                raise ReplayError(f"seat {self.seat}: an island bid the record does not hold")
            return offered.index(self.bids.popleft())
        if not self.decisions:
            raise ReplayError(f"seat {self.seat}: a {kind} decision the record does not hold")
        e = self.decisions.popleft()
        if e["decision"] != kind or e["legal"] != offered:
            raise ReplayError(f"seat {self.seat}, round {view.round}: the record's "
                              f"{e['decision']} decision does not match the game's {kind} "
                              "and its options")  # fmt: skip
        return offered.index(e["choice"])


def replay(text: str) -> Game:
    """Play the recorded game again from its record; its log must come out the same."""
    head, events = read_jsonl(text)
    rules = Rules.make(int(head["players"]), params=head.get("params") or None,
                       **{k: v for k, v in head["options"].items() if k in OPTIONS})  # fmt: skip
    game = Game(rules, [FromLog(s, events) for s in range(rules.players)], int(head["seed"]),
                int(head["index"]))  # fmt: skip
    game.play()
    if [plain(e) for e in game.events] != events:
        raise ReplayError("the replayed game's log differs from the record's")
    return game


def narrate(game: Game) -> list[str]:
    """The game in plain lines: the set-up, each round's bids, huts, the god, the actions and
    their effects, and the final scoring."""
    out = []
    for e in game.events:
        k, s = e["kind"], e.get("seat")
        who = f"seat {s}"
        if k == "extra_site":
            out.append(f"Extra cult site{'s' if len(e['hexes']) > 1 else ''} at "
                       f"{', '.join(map(str, e['hexes']))}.")  # fmt: skip
        elif k == "first_order":
            out.append(f"Round 1 bidding order: {e['order']}.")
        elif k == "decision" and e["decision"] == "bid":
            out.append(f"Round {e['round']}: {who} bids {e['choice']}.")
        elif k == "hut":
            out.append(f"  {who} builds a {e['hut']} hut at {e['hex']} (island {e['island']}).")
        elif k == "god":
            out.append(f"  the god moves to {e['hex']} (island {e['island']}), placed by {who}.")
        elif k == "action":
            out.append(f"  {who}: {e['action']}.")
        elif k == "sacrifice":
            out.append(f"  {who} sacrifices (+{game.rules.sacrifice_influence} influence).")
        elif k == "step":
            out.append(f"    boat {e['boat']} -> {e['end']}")
        elif k == "fished":
            out.append(f"    catches {e['caught']} fish (dice {e['rolls']}).")
        elif k == "delivered":
            out.append(f"    delivers {sum(c for _, c in e['plan'])} fish.")
        elif k == "sunk":
            out.append(f"    sinks seat {e['victim']}'s boat at {e['hex']} ({e['glory']} glory).")
        elif k == "celebrated":
            out.append(f"  {who} celebrates on island {e['island']}: {e['fish']} fish eaten.")
        elif k == "island_scored":
            won = "nobody" if e["winner"] is None else f"seat {e['winner']}"
            out.append(f"Island {e['island']}: presence {e['presence']}, bids {e['bids']}: "
                       f"{won}.")  # fmt: skip
        elif k == "end":
            out.append(f"Glory {e['glory']}; winner(s): seat "
                       f"{', '.join(map(str, e['winners']))}.")  # fmt: skip
    return out
