"""Progress of long runs on a terminal: games done, games per second, time left (rich)."""

from __future__ import annotations

from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from moaisim import runner


class Bar(runner.Progress):
    """The runner's `Progress`, shown as a rich progress bar on stderr until `close()`."""

    def __init__(self, total: int, label: str = "games") -> None:
        super().__init__(total=total)
        self._bar = Progress(
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
        super().update(games)
        self._bar.update(self._task, completed=self.done, rate=f"{self.rate:,.0f}")

    def plan(self, total: int) -> None:
        super().plan(total)
        self._bar.update(self._task, total=total)

    def close(self) -> None:
        self._bar.stop()


def bar(total: int, **kwargs: Any) -> Bar:
    return Bar(total, **kwargs)
