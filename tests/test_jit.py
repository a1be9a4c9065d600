"""The kernels' jit decorator (moaisim/jit.py) and the first compile's announcement
(Moai's engine/warm.py): a kernel is compiled once whatever literals and integer widths its
callers pass, the machine's steps compile into it rather than on their own, and a cold path
is said on the terminal before it compiles."""

from __future__ import annotations

import gc
import io
import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from numba.core import types

from moaisim.games.moai.engine import warm
from moaisim.games.moai.engine.compiled import birdman, epoch, production, review, work
from moaisim.games.moai.engine.compiled.machine import play_game
from moaisim.jit import Kernel, canonical, kernel


def test_canonical_types_widen_integers_and_drop_literals():
    assert canonical(types.int8) == types.int64
    assert canonical(types.uint16) == types.int64
    assert canonical(types.literal(7)) == types.int64
    assert canonical(types.literal(True)) == types.boolean
    assert canonical(types.float32) == types.float32  # not an integer: as it is
    assert canonical(types.uint64) == types.uint64


# not cached on disk: an outer kernel loaded from the cache would never compile the inner
# one in this process, and the test counts the inner one's compilations
@kernel(cache=False)
def _inner(x, flag):  # noqa: ANN001, ANN202
    return x + 1 if flag else x - 1


@kernel(cache=False)
def _outer(a):  # noqa: ANN001, ANN202
    # a literal, an int8 element, an int16 and a bool literal: four types numba would tell apart
    return (
        _inner(a[0], True) + _inner(np.int16(3), False) + _inner(7, True) + _inner(a[1], flag=False)
    )


@numba.njit
def _plain_inner(x, flag):  # noqa: ANN001, ANN202
    return x + 1 if flag else x - 1


@numba.njit
def _plain_outer(a):  # noqa: ANN001, ANN202
    return _plain_inner(a[0], True) + _plain_inner(np.int16(3), False) + _plain_inner(7, True)


def test_a_kernel_called_with_literals_and_narrow_integers_compiles_once():
    a = np.array([5, -2], dtype=np.int8)
    assert _outer(a) == 6 + 2 + 8 + (-3)  # the values are numba's own: widening is exact
    assert len(_inner.overloads) == 1
    [sig] = _inner.overloads
    assert sig == (types.int64, types.boolean)
    # numba's own decorator makes one copy per literal and width (what cost the cold start)
    assert _plain_outer(a) == 6 + 2 + 8
    assert len(_plain_inner.overloads) >= 3


def test_the_machines_steps_compile_into_play_game_not_on_their_own():
    steps = [birdman.round_start, birdman.bid, birdman.hill, epoch.pick, epoch.disaster,
             epoch.target, epoch.loss, work.work_start, work.work, production.forest,
             production.volcano, production.feed_count, production.feed, review.draw,
             review.rest, review.birth, review.boat, play_game]  # fmt: skip
    import moaisim

    moaisim.simulate(3, 6, strategies="greedy", seed=2)  # plays the compiled path
    for step in steps:
        assert isinstance(step, Kernel)
        assert step.targetoptions["inline"] == "always"
        assert not step.overloads, step.py_func.__name__  # inlined: never compiled alone


def test_every_kernel_of_the_package_is_a_kernel_and_lives_where_the_cache_looks():
    import moaisim.strategies.moai.greedy  # noqa: F401  the built-ins' kernels too
    from moaisim import kernel_cache

    roots = {p.resolve() for p in kernel_cache.sources()}
    dispatchers = [o for o in gc.get_objects() if isinstance(o, numba.core.dispatcher.Dispatcher)]
    ours = [d for d in dispatchers if d.py_func.__module__.startswith("moaisim.")]
    assert len(ours) > 100
    for d in ours:
        assert isinstance(d, Kernel), d.py_func.__qualname__
        source = sys.modules[d.py_func.__module__].__file__
        assert source is not None and os.path.realpath(source) in {str(r) for r in roots}, source


def test_a_cold_path_is_announced_once_with_the_seconds_it_took(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(warm, "stream", out)
    monkeypatch.setattr(warm, "_known", set())
    monkeypatch.setattr(warm, "cold", lambda path: True)
    monkeypatch.setattr(warm, "EVERY", 0.5)
    with warm.compiling("compiled"):
        import time

        time.sleep(1.7)  # off a terminal: a line every EVERY seconds while it compiles
    with warm.compiling("compiled"):
        pass  # announced already in this process: nothing more
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("moaisim: compiling the batch engine's kernels")
    assert f"about {warm.SECONDS['compiled']} s of CPU" in lines[0]
    assert any(x.startswith("moaisim: still compiling (") for x in lines[1:-1])
    assert lines[-1].startswith("moaisim: compiled in ")
    assert sum(x.startswith("moaisim: compiling") for x in lines) == 1


def test_a_compiled_path_is_not_announced(monkeypatch):
    out = io.StringIO()
    monkeypatch.setattr(warm, "stream", out)
    monkeypatch.setattr(warm, "_known", set())
    import moaisim

    moaisim.simulate(3, 3, strategies="greedy", seed=1)  # compiled now (or loaded)
    assert not warm.cold("compiled")
    monkeypatch.setattr(warm, "_known", set())
    moaisim.simulate(3, 3, strategies="greedy", seed=1)
    assert out.getvalue() == ""


@pytest.mark.slow
def test_a_fresh_cache_announces_the_compile_in_a_new_process(tmp_path):
    """What a new user sees: a cold cache folder, the line before the compile, the seconds
    after. The game is a reference game of strategies written in Python alone, so that only
    the views' kernels compile (seconds; the batch engine's minute is announced by the same
    code, checked above with a cold cache simulated)."""
    code = (
        "import numpy as np\n"
        "from moaisim.games.moai.rules import Rules\n"
        "from moaisim.games.moai.engine.decisions import Kind\n"
        "from moaisim.games.moai.engine.reference import ReferenceGame\n"
        "from moaisim.strategies.moai.base import Strategy\n"
        "class First(Strategy):\n"
        "    def bid(self, view):\n"
        "        return np.zeros(view.legal.shape, dtype=np.int64)\n"
        "for kind in Kind:\n"
        "    if kind is not Kind.BID:\n"
        "        setattr(First, kind.value, lambda self, view: view.legal.argmax(axis=1))\n"
        "ReferenceGame(Rules.make(3), [First()] * 3, seed=1, game=0).play()\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=600)  # fmt: skip
    lines = got.stderr.splitlines()
    assert lines[0].startswith("moaisim: compiling the kernels of the views"), got.stderr
    assert lines[-1].startswith("moaisim: compiled in "), got.stderr
