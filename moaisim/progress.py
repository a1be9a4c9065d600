"""Progress of long runs: games done, games per second, time left.

`Progress` counts (the runner calls `plan` with the games to play and `update` after each
chunk; a callback may watch it); `Bar` shows it as a rich progress bar on a terminal. The
runner imports this module, never the other way round.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress


@dataclass
class Progress:
    """Games done so far; `update` is called after each chunk (a no-op by default)."""

    total: int
    done: int = 0
    started: float = field(default_factory=time.perf_counter)
    on_update: Callable[[Progress], None] | None = None

    def update(self, games: int) -> None:
        """Count games done and tell the listener."""
        self.done += games
        if self.on_update is not None:
            self.on_update(self)

    def plan(self, total: int) -> None:
        """The games still to play (a resumed run has fewer than its study)."""
        self.total = total

    def close(self) -> None:
        """Stop showing progress (nothing to do here; a bar overrides it)."""

    @property
    def rate(self) -> float:
        """Games per second since the start."""
        return self.done / max(time.perf_counter() - self.started, 1e-9)


class Bar(Progress):
    """`Progress` shown as a rich progress bar on stderr until `close()`."""

    def __init__(self, total: int, label: str = "games") -> None:
        super().__init__(total=total)

        self._bar = RichProgress(
            TextColumn(f"[bold]{label}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} games/s"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            transient=False,
        )
        self._task = self._bar.add_task(label, total=total, rate="-")
        self._bar.start()

    def update(self, games: int) -> None:
        """Count games done and move the bar."""
        super().update(games)
        self._bar.update(self._task, completed=self.done, rate=f"{self.rate:,.0f}")

    def plan(self, total: int) -> None:
        """Set the number of games to play (the bar's total)."""
        super().plan(total)
        self._bar.update(self._task, total=total)

    def close(self) -> None:
        """Take the bar off the terminal."""
        self._bar.stop()


def bar(total: int, **kwargs: Any) -> Bar:
    """A progress bar on the terminal (games, games/s, time left) for `total` games."""
    return Bar(total, **kwargs)
