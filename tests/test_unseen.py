"""R5.9: the kernel that draws what a seat cannot see (`compiled.unseen`) draws exactly what
the plain-Python version it replaced drew (tests/unseen_oracle.py), world by world, at
decisions of every kind, 2-5 players, under the V options that change the epoch deck; and a
view whose counts do not add up is still one `UserError`, written nowhere out of bounds."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import unseen_oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moaisim import Games, determinize
from moaisim.errors import UserError
from moaisim.games.moai.engine import forward
from moaisim.games.moai.rules import Rules

SECRETS = ("hand", "deck", "epoch_deck", "loc", "up", "moai_owner")


def views(players: int, seed: int, games: int = 3, every: int = 5, **options):
    """Seat views (every seat, every game at the decision) at one decision in `every` of
    `games` games played at random from outside."""
    g = Games.new(Rules.make(players, **options), seed, np.arange(games))
    draw = np.random.default_rng(seed)
    k = 0
    while waiting := g.pending():
        pend = waiting[0]
        if k % every == 0:
            seat = int(pend.seat[0])
            rows = pend.rows[pend.seat == seat]
            yield g.observe(seat, rows=rows, kind=pend.kind)
        if pend.legal.dtype == bool:
            action = np.array([draw.choice(np.flatnonzero(r)) for r in pend.legal])
        else:
            action = np.zeros(pend.legal.shape, dtype=np.int64)
        g.apply(pend, action)
        k += 1


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31), v3=st.booleans())
def test_the_kernel_draws_what_the_plain_version_drew_world_by_world(players, seed, v3):
    options = {"variants": "short"} if v3 else {}  # V3: 2, 2, 1 epoch cards left out
    kinds = set()
    for view in views(players, seed, **options):
        rows = np.arange(len(view))
        seeds = np.array([seed + 7 * r for r in rows], dtype=np.uint64)
        mine = forward._worlds(view, rows, 4, seeds)
        theirs = unseen_oracle.worlds(view, rows, 4, seeds)
        for name in SECRETS:
            assert np.array_equal(getattr(mine, name), getattr(theirs, name)), name
        assert np.array_equal(mine.public, theirs.public)
        kinds.add(view.kind)
    assert len(kinds) >= 4


def test_a_view_whose_counts_do_not_add_up_is_one_line():
    """Counts the row-by-row check would refuse, given with that check off: the kernel finds
    what does not add up and refuses the view in one line, the worlds never built."""
    view = next(v for v in views(3, 5) if len(v) >= 1)
    rival = (view.seat + 1) % 3
    for field, at, wrong in (("hand_sizes", (0, rival), 9), ("reserve", (0, rival, 2), 9),
                             ("moai_count", (0, rival), 20)):  # fmt: skip
        bad = copy.copy(view)
        value = np.array(getattr(view, field), copy=True)
        value[at] = wrong
        setattr(bad, field, value)
        with pytest.raises(UserError, match="determinize: no game is consistent") as info:
            determinize(bad, 1, 3, check_rows=False)
        assert "\n" not in str(info.value)
