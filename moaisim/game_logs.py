"""What every game's JSON log (`moaisim play --json`, `moaisim replay`) does the same way:
read it back (`read_log`: its header first, of the game and schema named), check that its
header names rules that can be made again, with the component set and rules digest it was
played with, play it again from its logged decisions (`Told`, one seat's) and compare the
events the game makes with the log's (`compare_events`). Each game's `engine/record.py`
gives its own name, schema, rules maker, component reader and decision kinds."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from moaisim.errors import RulesError, StrategyError, UserError


def read_log(log: str, game: str, schema: int, header_keys: Sequence[str],
             not_a_log: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:  # fmt: skip
    """A log's header and events, checked for shape: the header first, of `game` (its
    `game_name`) and of event schema `schema`, with every key of `header_keys`; each
    mistake one line (`not_a_log` begins those of a text that is no such log)."""
    lines: list[Any] = []
    for number, text in enumerate(log.splitlines(), start=1):
        if not text.strip():
            continue
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            raise UserError(f"{not_a_log} (line {number} is not JSON)") from None
    if not lines or not all(isinstance(x, dict) for x in lines) or lines[0].get("e") != "game":
        raise UserError(f'{not_a_log} (its first line must be the header {{"e": "game", ...}})')
    header, *events = lines
    name = header.get("game_name")
    if name != game:
        raise UserError(f"the log is a game of {name!r}, not of {game}: replay it as such")
    if header.get("schema") != schema:
        raise UserError(f"the log has event schema {header.get('schema')!r}; this moaisim "
                        f"replays {game} logs of schema {schema}")  # fmt: skip
    missing = [k for k in header_keys if k not in header]
    if missing:
        raise UserError(f"{not_a_log}: its header does not record its {missing[0]}")
    seed, number = header["seed"], header["game"]
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (seed, number)):
        raise UserError(f"{not_a_log}: its header's seed and game must be whole numbers")
    if not all("e" in x for x in events):
        raise UserError(f"{not_a_log}: an event has no kind (its key 'e')")
    return header, events


def compare_events(logged: list[dict[str, Any]], made: list[dict[str, Any]],
                   partial: bool = False) -> None:  # fmt: skip
    """The events the game made must be the log's, one by one (`partial`: the game stopped
    early, so only those it made are compared); the first that differs is named (a long
    value cut to 80 characters)."""
    for k, (a, b) in enumerate(zip(logged, made, strict=False)):
        b = json.loads(json.dumps(b))
        if b == a:
            continue
        where = f"the log does not replay: event {k + 1} ({a.get('e')}) is not the game's"
        if a.get("e") != b["e"]:
            raise UserError(f"{where}: the game makes a {b['e']!r} event there")
        key = next(x for x in [*b, *a] if a.get(x) != b.get(x))  # the first, in field order
        raise UserError(f"{where}: its {key} is {_cut(a.get(key))} in the log, "
                        f"{_cut(b.get(key))} in the game")  # fmt: skip
    if not partial and len(logged) != len(made):
        raise UserError(f"the log does not replay: it has {len(logged)} events, the game "
                        f"makes {len(made)}")  # fmt: skip


def _cut(value: Any) -> str:
    """A value as a message shows it: its repr, at most 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class Told:
    """A seat that answers with decisions it is told, in order, reading nothing of the game
    (one seat's logged decisions, for `replay`): a view of one game gets an array of one
    action. A decision of another kind than the next one told, or one past the last, is
    refused (the engine reports it as the seat's failure). A game's `Told` names its
    decision kinds (`kinds`, an enum of method names)."""

    name = "replay"
    kinds: Any

    def __init__(self, decisions: list[dict[str, Any]]) -> None:
        self.decisions = list(decisions)
        for k in self.kinds:
            setattr(self, k.value, self.next)

    def compiled(self, rules: object) -> None:
        """No compiled form: the fast machine must ask this seat through views."""
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


def logged_rules(
    header: dict[str, Any],
    components: str | Path | None,
    *,
    not_a_log: str,
    make: Callable[..., Any],
    load: Callable[[str | Path], Any],
    default: Callable[[], Any],
    digest: Callable[[Any], str],
) -> Any:
    """The rules a log's header names (`make(players, variant, components, params=...,
    **options)`), checked against its rules digest; the component set (`load(file)` or
    `default()`) must be the one whose digest (`digest(components)`) the header names.
    Every mismatch is one line (`not_a_log` begins those of a header that is not a log's)."""
    wanted = header["components"] if isinstance(header["components"], dict) else {}
    try:
        given = load(components) if components is not None else default()
    except RulesError as exc:
        raise UserError(f"{components}: {exc}") from None
    if digest(given) != wanted.get("digest"):
        name = wanted.get("name")
        if components is None:
            raise UserError(f"the log was played with the component set {name!r}, not the "
                            "default one: give its file with --components")  # fmt: skip
        raise UserError(f"{components} is not the component set the log was played with "
                        f"({name!r})")  # fmt: skip
    options, params = header["options"], header["params"]
    if not isinstance(options, dict) or not isinstance(params, dict):
        raise UserError(f"{not_a_log}: its header's options and params must be tables")
    try:
        rules = make(header["players"], header["variant"], components, params=params, **options)
    except (TypeError, RulesError) as exc:
        raise UserError(f"{not_a_log}: its header's rules cannot be read ({exc})") from None
    if rules.digest() != header["rules_digest"]:
        raise UserError(
            "the log's header names other rules than it was played with: they do not have "
            f"its rules digest ({str(header['rules_digest'])[:12]}...); was it edited?"
        )
    return rules


def replay(
    log: str,
    components: str | Path | None,
    record: ModuleType,
    reference_game: Callable[..., Any],
    frame: Callable[[Any], Any],
    seat_rows: Callable[..., Any],
) -> Any:
    """Play a game's log (`moaisim play --json`) again: the rules its header names (players,
    variants, rule options, rule parameters, and `components`, the component file, when the
    set is not the default one), its seed and game (so its deal), and each seat's logged
    decisions that were not forced fed back as the seat's answers (`record.Told`). The game
    must make the log's events one by one (`record.compare_events`): a log is then evidence
    of its scores, whatever strategies played it. A log that does not replay, or whose header
    is not the rules it was played with, is a `UserError` (one line). `record` is the game's
    log module (`read_log`, `logged_rules`, `NOT_A_LOG`, `Told`, `compare_events`,
    `GameRecord`); `reference_game`, `frame` and `seat_rows` its reference engine and
    results rows."""
    header, events = record.read_log(log)
    rules = record.logged_rules(header, components)
    players, not_a_log = rules.players, record.NOT_A_LOG
    decisions: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for e in events:
        if e.get("e") == "decision" and not e.get("forced"):
            seat = e.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < players or "action" not in e:
                raise UserError(f"{not_a_log}: a decision names no seat of the game or no action")
            decisions[seat].append(e)
    names = header["strategies"]
    if not isinstance(names, list) or len(names) != players:
        count = len(names) if isinstance(names, list) else "no list of"
        raise UserError(f"{not_a_log}: its header names {count} strategies for {players} seats")
    names = [str(n) for n in names]
    game = reference_game(rules, [record.Told(d) for d in decisions], seed=header["seed"],
                          game=header["game"], names=names)  # fmt: skip
    try:
        made = game.play()
    except StrategyError as exc:  # ran out of decisions, or one the game does not allow
        record.compare_events(events, game.events, partial=True)  # the first that differs
        raise UserError(f"the log does not replay: seat {exc.seat}'s decision {exc.kind!r}: "
                        f"{exc.problem}") from None  # fmt: skip
    record.compare_events(events, made)
    result = frame(seat_rows(game.state, header["seed"], header["game"], names))
    return record.GameRecord(rules, header["seed"], header["game"], names, made, result)
