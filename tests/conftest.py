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
