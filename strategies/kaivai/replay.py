"""A Kaivai game's log played again (`moaisim replay`, `moaisim.replay`): each seat's logged
decisions fed back to the reference engine as that seat's answers, the events it makes
compared with the log's one by one (`game_logs.replay`)."""

from __future__ import annotations

from pathlib import Path

from moaisim import game_logs
from moaisim.games.kaivai.engine import record
from moaisim.games.kaivai.engine.asked import ReferenceGame
from moaisim.games.kaivai.engine.record import GameRecord
from moaisim.games.kaivai.engine.results import frame, seat_rows


def replay(log: str, components: str | Path | None = None) -> GameRecord:
    """Play a game's log again (`game_logs.replay`, with this game's reference engine): its
    rules, seed, game and each seat's logged decisions; a log that does not replay is a
    `UserError` (one line)."""
    return game_logs.replay(log, components, record, ReferenceGame, frame, seat_rows)
