"""What every game's JSON log (`moaisim play --json`, `moaisim replay`) does the same way:
check that its header names rules that can be made again, with the component set and rules
digest it was played with, and play it again from its logged decisions. Each game's
`engine/record.py` gives its own rules maker, component reader and log module."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from moaisim.errors import RulesError, StrategyError, UserError


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
