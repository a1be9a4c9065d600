"""A Rapa Nui game's log played again (`moaisim replay`, `moaisim.replay`): each seat's logged
decisions fed back to the reference engine as that seat's answers, the events it makes
compared with the log's one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from moaisim.errors import StrategyError, UserError
from moaisim.games.rapa_nui.engine.record import (
    NOT_A_LOG,
    GameRecord,
    Told,
    compare_events,
    logged_rules,
    read_log,
)
from moaisim.games.rapa_nui.engine.reference import ReferenceGame
from moaisim.games.rapa_nui.engine.results import frame, seat_rows


def replay(log: str, components: str | Path | None = None) -> GameRecord:
    """Play a game's log (`GameRecord.jsonl`, `moaisim play --game rapa-nui --json`) again:
    the rules its header names (players, rule options, rule parameters, and `components`,
    the component file, when the set is not the default one), its seed and game (so its
    deal), and each seat's logged decisions that were not forced fed back as the seat's
    answers. The game must make the log's events one by one: a log is then evidence of its
    scores, whatever strategies played it. A log that does not replay, or whose header is not
    the rules it was played with, is a `UserError` (one line)."""
    header, events = read_log(log)
    rules = logged_rules(header, components)
    players = rules.players
    decisions: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for e in events:
        if e.get("e") == "decision" and not e.get("forced"):
            seat = e.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < players or "action" not in e:
                raise UserError(f"{NOT_A_LOG}: a decision names no seat of the game or no action")
            decisions[seat].append(e)
    names = header["strategies"]
    if not isinstance(names, list) or len(names) != players:
        raise UserError(f"{NOT_A_LOG}: its header does not name one strategy per seat")
    names = [str(n) for n in names]
    game = ReferenceGame(rules, [Told(d) for d in decisions], seed=header["seed"],
                         game=header["game"], names=names)  # fmt: skip
    try:
        made = game.play()
    except StrategyError as exc:  # ran out of decisions, or one the game does not allow
        compare_events(events, game.events, partial=True)  # the first event that differs
        raise UserError(f"the log does not replay: seat {exc.seat}'s decision {exc.kind!r}: "
                        f"{exc.problem}") from None  # fmt: skip
    compare_events(events, made)
    result = frame(seat_rows(game.state, header["seed"], header["game"], names))
    return GameRecord(rules, header["seed"], header["game"], names, made, result)
