import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import scenario  # noqa: E402


@pytest.fixture(params=["reference", "batch"])
def engine(request: pytest.FixtureRequest):
    """Run a scenario test on each engine: `scenario()` builds games for this engine."""
    scenario.ENGINE["name"] = request.param
    yield request.param
    scenario.ENGINE["name"] = "reference"


def browser() -> str | None:
    """Chromium from the system packages; with CI=true it is installed when missing."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found or os.environ.get("CI") != "true":
        return found
    subprocess.run(["apt-get", "update", "-q"], check=True, capture_output=True)
    subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], check=True, capture_output=True)
    return shutil.which("chromium")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the engine's kernels before the first test (on a fresh machine the cache is
    cold): their first compile is announced on standard error (the game's engine/warm.py),
    and tests that read a command's one line of error must not read that announcement. Each
    xdist worker does this once; the compile itself is shared through numba's cache."""
    import numpy as np

    import moaisim
    from moaisim import Games
    from moaisim.games.moai.rules import Rules

    players = [moaisim.load_strategy("random")() for _ in range(3)]
    for compiled in (True, False):
        Games.new(Rules.make(3), 1, np.arange(2)).play(players, compiled=compiled)
    moaisim.play(3, seed=1, strategies="random")  # the reference engine's views
